#pragma OPENCL EXTENSION cl_khr_fp64 : enable
//@exec double_remainders global=256 out:u64[1024] out:i32[512] in:u64[256] in:u64[256] in:i32[256]=-900..900
// fmod, remainder, remquo, frexp and ldexp of double over the whole range: operands from
// random bits with a normal exponent (every 16th a subnormal), results compared as bits
// with every NaN made one.
ulong normal_bits(ulong b) {
  ulong e = clamp((b >> 52) & 0x7ffUL, 1UL, 2046UL);
  if ((b & 15) == 5) e = 0;
  return (b & 0x800fffffffffffffUL) | (e << 52);
}

ulong bits_of(double r) { return isnan(r) ? 0x7ff8000000000000UL : as_ulong(r); }

__kernel void double_remainders(__global ulong *out, __global int *iout, __global const ulong *xb,
                                __global const ulong *yb, __global const int *n) {
  size_t i = get_global_id(0);
  double x = as_double(normal_bits(xb[i]));
  // Every fourth divisor is near x (small quotients), every eighth a small integer.
  double y = (i & 3) == 0 ? x * 0.37 : (i & 7) == 1 ? (double)(i % 13 + 1) : as_double(normal_bits(yb[i]));
  int q;
  out[4 * i] = bits_of(fmod(x, y));
  out[4 * i + 1] = bits_of(remainder(x, y));
  out[4 * i + 2] = bits_of(remquo(x, y, &q));
  iout[2 * i] = q;
  int e;
  double m = frexp(x, &e);
  out[4 * i + 3] = bits_of(m) ^ bits_of(ldexp(x, n[i]));
  iout[2 * i + 1] = e;
}
