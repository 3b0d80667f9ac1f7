//@exec minmax_float global=64 out:u32[320] out:u64[128] in:f32[64]=-4..4 in:f32[64]=-4..4
// max/min of floats (OpenCL.std fmax_common / fmin_common) on ordinary values and on the
// operands OpenCL leaves undefined (NaN, infinities, signed zeros), scalar, vector and
// vector-with-scalar forms, float and double; beside them fmax/fmin, which differ exactly
// there. Results as bits, every NaN made one (devices encode NaNs differently).
constant float specials[8] = {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, __builtin_nanf(""), 2.5f};

uint bits_of(float r) { return isnan(r) ? 0x7fc00000u : as_uint(r); }
ulong dbits_of(double r) { return isnan(r) ? 0x7ff8000000000000ul : as_ulong(r); }

__kernel void minmax_float(__global uint *out, __global ulong *dout,
                           __global const float *a, __global const float *b) {
  int i = get_global_id(0);
  float x = specials[i & 7], y = specials[(i >> 3) & 7];
  out[i] = bits_of(max(x, y));
  out[64 + i] = bits_of(min(x, y));
  float4 v = (float4)(a[i], b[i], x, y);
  float4 w = (float4)(b[i], a[i], y, x);
  float4 m = max(v, w) + min(v, 0.5f) * 2.0f;
  out[128 + i] = bits_of(m.x + m.y);
  out[192 + i] = bits_of(max(a[i], b[i]) - min(a[i] * 0.5f, b[i]));
  out[256 + i] = bits_of(fmax(x, y) + fmin(y, x));
  double dx = x, dy = y;
  dout[i] = dbits_of(max(dx, dy));
  dout[64 + i] = dbits_of(min(dx, dy) + max((double)a[i], 1.0));
}
