#pragma OPENCL EXTENSION cl_khr_fp64 : enable
//@exec double_hyperbolic global=256 out:f64[3072] in:u64[256] in:f64[256]=-30..30
// The hyperbolic functions of double and their inverses, one function per slot so that each
// is judged against its own magnitude (scripts/math_reference.py): both sides of sinh's and
// cosh's switch at 1, results up to e^600, tanh near 0 and ±1, asinh and acosh of random
// double bits at every exponent (their log x + ln 2 end), acosh near 1 and atanh inside (-1, 1).
__kernel void double_hyperbolic(__global double *out, __global const ulong *xb,
                                __global const double *f) {
  size_t i = get_global_id(0);
  ulong b = xb[i];
  ulong e = clamp((b >> 52) & 0x7ffUL, 1UL, 2046UL);
  double x = as_double((b & 0x800fffffffffffffUL) | (e << 52));
  double v = f[i];
  __global double *o = out + 12 * i;
  o[0] = sinh(v * 0.04);
  o[1] = sinh(v);
  o[2] = cosh(v * 0.04);
  o[3] = cosh(v * 20.0);
  o[4] = tanh(v * 0.1);
  o[5] = asinh(x);
  o[6] = asinh(v * 0.05);
  o[7] = acosh(fabs(v) * 0.05 + 1.0);
  o[8] = acosh(fabs(x) + 1.0);
  o[9] = atanh(v / 31.0);
  o[10] = atanh(v * 0.0333);
  o[11] = sinh(x);
}
