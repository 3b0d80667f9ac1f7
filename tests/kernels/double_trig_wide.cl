#pragma OPENCL EXTENSION cl_khr_fp64 : enable
//@exec double_trig_wide global=256 out:f64[3072] in:u64[256] in:f64[256]=-30..30
// Trigonometric functions of double over wide arguments: random double bits at every
// exponent (Payne–Hanek above 2^20), a moderate range, and arguments near multiples of π/2.
ulong normal_bits(ulong b) {
  ulong e = clamp((b >> 52) & 0x7ffUL, 1UL, 2046UL);
  return (b & 0x800fffffffffffffUL) | (e << 52);
}

__kernel void double_trig_wide(__global double *out, __global const ulong *xb,
                               __global const double *f) {
  size_t i = get_global_id(0);
  double x = as_double(normal_bits(xb[i])), v = f[i];
  // Near k·π/2 for k up to 2^40: what Cody–Waite and Payne–Hanek must not lose.
  double near = rint(v * 1e10) * 1.5707963267948966;
  __global double *o = out + 12 * i;
  o[0] = sin(x);
  o[1] = cos(x);
  o[2] = tan(x) * 1e-3;
  o[3] = sin(v) + cos(v * 7.0);
  o[4] = sin(near);
  o[5] = cos(near) + tan(v * 0.05);
  double c;
  o[6] = sincos(v * 1e6, &c) + c;
  o[7] = sinpi(v * 0.37) + cospi(x) + tanpi(v * 0.01);
  o[8] = atan(x) + atan(v);
  o[9] = atan2(v, x) + atan2(x, v * 3.0);
  o[10] = asin(v / 31.0) + acos(v / 30.5);
  o[11] = atanpi(v) + atan2pi(v, -1.0) + asinpi(v / 40.0) + acospi(v / 35.0);
}
