// One pass of a radix-2 Stockham FFT over complex floats (float2), twiddles computed with
// sincos: the building block of an out-of-place FFT library. p is the pass's span.
//@bench fft_radix2 global=2097152 local=256 in:f32[8388608]=-1..1 out:f32[8388608] i32=4194304 i32=1024
//@bench-cpu fft_radix2 global=131072 local=256 in:f32[524288]=-1..1 out:f32[524288] i32=262144 i32=1024
float2 cmul(float2 a, float2 b) {
  return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

__kernel void fft_radix2(__global const float2 *in, __global float2 *out, int n, int p) {
  const int i = get_global_id(0); // 0 .. n/2
  const int k = i & (p - 1);      // index within the current span
  const float2 u0 = in[i];
  const float2 u1 = in[i + n / 2];
  float c;
  const float s = sincos(-M_PI_F * (float)k / (float)p, &c);
  const float2 t = cmul((float2)(c, s), u1);
  const int j = ((i - k) << 1) + k;
  out[j] = u0 + t;
  out[j + p] = u0 - t;
}
