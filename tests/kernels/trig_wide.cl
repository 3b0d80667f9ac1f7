//@exec trig_wide global=256 out:f32[2048] in:u32[256] in:f32[256]=-8..8
// Trigonometric functions over wide arguments: random float bits with normal exponents
// (the large ones need Payne-Hanek reduction) and a moderate range.
uint normal_bits(uint b) {
  uint e = clamp((b >> 23) & 0xffu, 1u, 254u);
  return (b & 0x807fffffu) | (e << 23);
}

__kernel void trig_wide(__global float *out, __global const uint *xb, __global const float *f) {
  size_t i = get_global_id(0);
  float x = as_float(normal_bits(xb[i])), v = f[i];
  __global float *o = out + 8 * i;
  o[0] = sin(x);
  o[1] = cos(x);
  o[2] = tan(x);
  float c;
  o[3] = sincos(v * 100.0f, &c) + c * 2.0f;
  o[4] = sinpi(x) + cospi(v) + tanpi(v * 0.1f);
  o[5] = asin(v / 8.0f) + acos(v / 8.0f) * 0.5f;
  o[6] = atan(x) + atan2(v, x);
  o[7] = atan2pi(x, v) + asinpi(v / 9.0f) + acospi(v / 9.0f) + atanpi(v);
}
