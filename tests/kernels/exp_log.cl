//@exec exp_log global=64 out:f32[640] in:f32[64]=-10..10
__kernel void exp_log(__global float *out, __global const float *x) {
  size_t i = get_global_id(0);
  float v = x[i], a = fabs(v) + 0.01f;
  __global float *o = out + 10 * i;
  o[0] = exp(v);
  o[1] = exp2(v) + exp10(v * 0.1f) + expm1(v * 0.5f);
  o[2] = log(a) + log2(a) + log10(a) + log1p(a);
  o[3] = logb(v) + (float)ilogb(a);
  o[4] = pow(a, v * 0.3f) + pown(v, 3) + powr(a, 1.5f) + rootn(a, 3);
  o[5] = sqrt(a) + rsqrt(a) + cbrt(v);
  o[6] = hypot(v, 3.0f);
  o[7] = erf(v * 0.2f) + erfc(v * 0.2f);
  o[8] = tgamma(a * 0.5f) + lgamma(a);
  int s;
  o[9] = lgamma_r(v, &s) + (float)s;
}
