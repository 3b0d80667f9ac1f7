#pragma OPENCL EXTENSION cl_khr_fp64 : enable
//@exec double_erf global=256 out:f64[2048] in:u64[256] in:f64[256]=-6..26
// erf and erfc of double over wide arguments (issue 32, item 2): random double bits at every
// exponent (tiny arguments, where erf is 2x/√π; huge ones, where it is ±1), the range where
// erfc goes from 2 to the smallest normal, and both sides of 2, where the Vulkan library
// changes from the series to the continued fraction.
__kernel void double_erf(__global double *out, __global const ulong *xb,
                         __global const double *f) {
  size_t i = get_global_id(0);
  ulong b = xb[i];
  ulong e = clamp((b >> 52) & 0x7ffUL, 1UL, 2046UL);
  double x = as_double((b & 0x800fffffffffffffUL) | (e << 52));
  double v = f[i];
  double near2 = 2.0 + (v - 10.0) * 1e-3;
  __global double *o = out + 8 * i;
  o[0] = erf(x);
  o[1] = erfc(fabs(x) < 26.0 ? x : 1.0 / x);
  o[2] = erf(v);
  o[3] = erfc(v);
  o[4] = erf(v * 0.1);
  o[5] = erfc(v * 0.1);
  o[6] = erf(near2) + erf(-near2);
  o[7] = erfc(near2) + erfc(-near2) * 0.25;
}
