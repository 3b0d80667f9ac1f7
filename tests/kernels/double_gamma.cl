#pragma OPENCL EXTENSION cl_khr_fp64 : enable
//@exec double_gamma global=256 out:f64[2048] out:i32[512] in:f64[256]=-30..180 in:u64[256]
// tgamma, lgamma and lgamma_r of double (issue 32, item 2): the range where Γ is finite and
// past it, negative arguments between the poles, tiny and huge ones from random bits, and
// lgamma_r's sign, in scalars and a 2-vector.
__kernel void double_gamma(__global double *out, __global int *sign, __global const double *f,
                           __global const ulong *xb) {
  size_t i = get_global_id(0);
  double v = f[i];
  ulong b = xb[i];
  ulong e = clamp((b >> 52) & 0x7ffUL, 1UL, 2046UL);
  double x = as_double((b & 0x800fffffffffffffUL) | (e << 52));
  __global double *o = out + 8 * i;
  o[0] = tgamma(v);
  o[1] = tgamma(v * 0.05 + 0.001);
  o[2] = tgamma(-fabs(v) * 0.1 - 0.25);
  o[3] = lgamma(v);
  o[4] = lgamma(x);
  int s;
  o[5] = lgamma_r(-fabs(v) * 0.3 - 0.5, &s);
  sign[2 * i] = s;
  int2 s2;
  double2 r2 = lgamma_r((double2)(v * 0.01 + 0.5, -v * 0.1 - 0.125), &s2);
  o[6] = r2.x + r2.y * 0.5;
  sign[2 * i + 1] = s2.x * 2 + s2.y;
  o[7] = tgamma(x);
}
