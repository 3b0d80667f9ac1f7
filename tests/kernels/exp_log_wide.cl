//@exec exp_log_wide global=256 out:f32[6144] in:u32[256] in:f32[256]=-30..30 in:i32[256]=-6..6
// Exponentials, logarithms, powers, roots, hyperbolic, error and gamma functions over wide
// arguments:
// random float bits (normal exponents) and a moderate range, one function per slot (so that
// each is judged against its own magnitude).
uint normal_bits(uint b) {
  uint e = clamp((b >> 23) & 0xffu, 1u, 254u);
  return (b & 0x807fffffu) | (e << 23);
}

__kernel void exp_log_wide(__global float *out, __global const uint *xb, __global const float *f,
                           __global const int *n) {
  size_t i = get_global_id(0);
  float x = as_float(normal_bits(xb[i])), v = f[i];
  int k = n[i];
  __global float *o = out + 24 * i;
  o[0] = exp(v * 3.0f);
  o[1] = exp2(v * 4.0f);
  o[2] = exp10(v);
  o[3] = erfc(v * 0.3f);
  o[4] = log(fabs(x));
  o[5] = log2(fabs(x));
  o[6] = log10(fabs(x)) + logb(x) + (float)ilogb(x * 3.0f) * 2.0f;
  o[7] = log1p(v * 0.03f);
  o[8] = pow(fabs(v) * 0.3f, v * 0.7f);
  o[9] = pown(v * 0.7f, k * 3);
  o[10] = rootn(v, k == 0 ? 3 : k);
  o[11] = cbrt(x);
  o[12] = rsqrt(fabs(x));
  o[13] = hypot(x, v);
  o[14] = sinh(v * 0.3f);
  o[15] = cosh(v * 0.2f);
  o[16] = expm1(v * 0.05f);
  o[17] = tgamma(v * 0.2f);
  o[18] = erf(v * 0.1f);
  o[19] = lgamma(fabs(x));
  o[20] = tanh(v * 0.3f);
  o[21] = asinh(x);
  o[22] = acosh(fabs(v) + 1.0f);
  o[23] = atanh(v / 31.0f);
}
