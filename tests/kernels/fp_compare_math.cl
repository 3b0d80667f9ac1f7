//@exec fp_compare_math global=64 out:f32[384] in:f32[64] in:f32[64]
__kernel void fp_compare_math(__global float *out, __global const float *x, __global const float *y) {
  size_t i = get_global_id(0);
  float a = x[i], b = y[i];
  __global float *o = out + 6 * i;
  o[0] = fmax(a, b) + fmin(a, b);
  o[1] = fdim(a, b) + copysign(a, b);
  o[2] = maxmag(a, b) + minmag(a, b);
  o[3] = nextafter(a, b) - a;
  o[4] = nan((uint)i) != nan((uint)i) ? 1.0f : 0.0f;
  o[5] = fabs(a - b) + fma(a, b, 0.5f) + mad(a, b, 0.25f);
}
