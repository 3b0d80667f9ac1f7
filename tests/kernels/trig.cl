//@exec trig global=64 out:f32[512] in:f32[64]=-3..3
__kernel void trig(__global float *out, __global const float *x) {
  size_t i = get_global_id(0);
  float v = x[i];
  __global float *o = out + 8 * i;
  o[0] = sin(v) + cos(v) + tan(v * 0.4f);
  o[1] = asin(v / 4) + acos(v / 4) + atan(v);
  o[2] = atan2(v, 1.5f) + atan2pi(v, -2.0f);
  o[3] = sinh(v) + cosh(v) + tanh(v);
  o[4] = asinh(v) + acosh(fabs(v) + 1.0f) + atanh(v / 4);
  o[5] = sinpi(v) + cospi(v) + tanpi(v / 7) + asinpi(v / 4) + acospi(v / 4) + atanpi(v);
  float c;
  o[6] = sincos(v, &c);
  o[7] = c;
}
