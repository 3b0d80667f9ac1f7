#pragma OPENCL EXTENSION cl_khr_fp64 : enable
//@exec pow_root_tanpi global=256 out:f32[2048] in:u64[256] in:i32[256]=-40..40 in:f64[256]=-3..3
//@exec pow_root_tanpi_double global=256 out:f64[2048] in:u64[256] in:i32[256]=-40..40 in:f64[256]=-3..3
// pown, rootn and tanpi of float and double over every input class (issue 32, item 6):
// random bits at every exponent with small powers and roots (results from the smallest
// subnormal to overflow), numbers a few ulps from 1 to large powers, roots of negative
// numbers (odd n), and tanpi near its zeros and poles. scripts/math_reference.py rebuilds
// each argument from the inputs bit for bit (integer operations and single conversions
// only) and judges the results against the correctly rounded ones (mpmath).
// The arguments both kernels make from one input.
#define ARGUMENTS                                                                           \
  size_t i = get_global_id(0);                                                              \
  ulong b = xb[i];                                                                          \
  int n = ns[i];                                                                            \
  int odd = (n % 7 == 0 ? 3 : n % 7) | 1;                                                   \
  int root = n == 0 ? 2 : n;

__kernel void pow_root_tanpi(__global float *of, __global const ulong *xb, __global const int *ns,
                             __global const double *v) {
  ARGUMENTS
  // A float of random bits at every exponent, never NaN or infinite.
  uint fb = (uint)(b >> 11);
  uint fe = clamp((fb >> 23) & 0xffu, 1u, 254u);
  float xf = as_float((fb & 0x807fffffu) | (fe << 23));
  float vf = (float)v[i];
  __global float *f = of + 8 * i;
  f[0] = pown(xf, n % 5);
  f[1] = pown(as_float(0x3f800000 + n * 4099), n * 50);
  f[2] = rootn(xf, odd);
  f[3] = rootn(fabs(xf), root);
  f[4] = tanpi(vf);
  f[5] = tanpi(as_float(0x3f000000 + n));
  f[6] = tanpi(as_float(0x40200000 + n * 3));
  f[7] = tanpi(xf);
}

__kernel void pow_root_tanpi_double(__global double *od, __global const ulong *xb,
                                    __global const int *ns, __global const double *v) {
  ARGUMENTS
  // A double of random bits at every exponent, never NaN or infinite.
  ulong e = clamp((b >> 52) & 0x7ffUL, 1UL, 2046UL);
  double xd = as_double((b & 0x800fffffffffffffUL) | (e << 52));
  __global double *d = od + 8 * i;
  d[0] = pown(xd, n % 9);
  d[1] = pown(as_double(0x3ff0000000000000L + (long)n * 1000003L), n * 40000);
  d[2] = rootn(xd, odd);
  d[3] = rootn(fabs(xd), root);
  d[4] = tanpi(v[i]);
  d[5] = tanpi(as_double(0x3fe0000000000000L + n));
  d[6] = tanpi(as_double(0x4004000000000000L + (long)n * 12345L));
  d[7] = tanpi(xd);
}
