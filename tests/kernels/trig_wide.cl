//@exec trig_wide global=256 out:f32[4096] in:u32[256] in:f32[256]=-8..8
// Trigonometric functions over wide arguments: random float bits with normal exponents
// (the large ones need Payne-Hanek reduction) and a moderate range, one function per slot
// (so that each is judged against its own magnitude; scripts/math_reference.py judges them
// against the correctly rounded result).
uint normal_bits(uint b) {
  uint e = clamp((b >> 23) & 0xffu, 1u, 254u);
  return (b & 0x807fffffu) | (e << 23);
}

__kernel void trig_wide(__global float *out, __global const uint *xb, __global const float *f) {
  size_t i = get_global_id(0);
  float x = as_float(normal_bits(xb[i])), v = f[i];
  __global float *o = out + 16 * i;
  o[0] = sin(x);
  o[1] = cos(x);
  o[2] = tan(x);
  float c;
  o[3] = sincos(v * 100.0f, &c);
  o[4] = c;
  o[5] = sinpi(x);
  o[6] = cospi(v);
  o[7] = tanpi(v * 0.1f);
  o[8] = asin(v / 8.0f);
  o[9] = acos(v / 8.0f);
  o[10] = atan(x);
  o[11] = atan2(v, x);
  o[12] = atan2pi(x, v);
  o[13] = asinpi(v / 9.0f);
  o[14] = acospi(v / 9.0f);
  o[15] = atanpi(v);
}
