#pragma OPENCL EXTENSION cl_khr_fp64 : enable
//@exec double_math_wide global=256 out:f64[4096] in:u64[256] in:f64[256]=-30..30 in:i32[256]=-6..6
// The math of double over wide arguments: random double bits (normal exponents, and a few
// subnormals) and a moderate range, one result per slot.
ulong normal_bits(ulong b) {
  ulong e = clamp((b >> 52) & 0x7ffUL, 1UL, 2046UL);
  // Every 16th: a subnormal.
  if ((b & 15) == 3) e = 0;
  return (b & 0x800fffffffffffffUL) | (e << 52);
}

__kernel void double_math_wide(__global double *out, __global const ulong *xb,
                               __global const double *f, __global const int *n) {
  size_t i = get_global_id(0);
  double x = as_double(normal_bits(xb[i])), v = f[i];
  int k = n[i];
  __global double *o = out + 16 * i;
  o[0] = exp(v * 20.0) + exp(v * 0.1);
  o[1] = exp2(v * 30.0) + exp10(v * 9.0);
  o[2] = sqrt(fabs(x));
  o[3] = log(fabs(x));
  o[4] = log2(fabs(x)) + log10(fabs(x));
  o[5] = log1p(v * 0.03) + expm1(v * 0.05) + expm1(v * 1e-9);
  o[6] = pow(fabs(v) * 0.3, v * 20.0);
  o[7] = pown(v * 0.7, k * 3) + powr(fabs(v) + 0.5, v);
  o[8] = rootn(v, k == 0 ? 3 : k);
  o[9] = cbrt(x);
  o[10] = rsqrt(fabs(x));
  o[11] = hypot(x, v) + hypot(v * 1e-300, v * 3e-301);
  o[12] = sinh(v * 20.0) + cosh(v * 0.2) * 0.5;
  o[13] = tanh(v * 0.3) + asinh(x) * 1e-3;
  o[14] = acosh(fabs(v) + 1.0) + atanh(v / 31.0);
  o[15] = sqrt(v * v + 2.0) + pow(fabs(x), 0.25) * 0.0;
}
