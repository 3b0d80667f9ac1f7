// fft_radix2 with the angle by a product with native_recip (bench/gpu/variants/README.md).
//@bench fft_recip global=2097152 local=256 in:f32[8388608]=-1..1 out:f32[8388608] i32=4194304 i32=1024
//@bench-cpu fft_recip global=131072 local=256 in:f32[524288]=-1..1 out:f32[524288] i32=262144 i32=1024
float2 cmul(float2 a, float2 b) {
  return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

__kernel void fft_recip(__global const float2 *in, __global float2 *out, int n, int p) {
  const int i = get_global_id(0);
  const int k = i & (p - 1);
  const float2 u0 = in[i];
  const float2 u1 = in[i + n / 2];
  float c;
  const float s = sincos(-M_PI_F * (float)k * native_recip((float)p), &c);
  const float2 t = cmul((float2)(c, s), u1);
  const int j = ((i - k) << 1) + k;
  out[j] = u0 + t;
  out[j + p] = u0 - t;
}
