//@exec native_half_math global=64 out:f32[256] in:f32[64]=0.5..8
__kernel void native_half_math(__global float *out, __global const float *x) {
  size_t i = get_global_id(0);
  float v = x[i];
  __global float *o = out + 4 * i;
  o[0] = native_sin(v) + native_cos(v) + native_tan(v * 0.1f);
  o[1] = native_exp(v) + native_exp2(v) + native_exp10(v * 0.1f);
  o[2] = native_log(v) + native_log2(v) + native_log10(v);
  o[3] = native_sqrt(v) + native_rsqrt(v) + native_recip(v) + native_divide(v, 3.0f) + native_powr(v, 1.5f);
}
