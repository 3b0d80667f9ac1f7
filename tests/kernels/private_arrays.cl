//@exec private_arrays global=64 out:f32[64] in:f32[64] in:i32[64]=0..15
__kernel void private_arrays(__global float *out, __global const float *x, __global const int *idx) {
  size_t i = get_global_id(0);
  float buf[16];
  int perm[16];
  for (int k = 0; k < 16; ++k) { buf[k] = x[(i + k) & 63] * k; perm[k] = (k * 7 + idx[i]) & 15; }
  float2 pairs[4] = {(float2)(1.0f, 2.0f), (float2)(3.0f), (float2)(x[i], -x[i]), (float2)(0.5f, 0.25f)};
  float s = 0.0f;
  for (int k = 0; k < 16; ++k) s += buf[perm[k]] * pairs[k & 3].y;
  out[i] = s + buf[idx[i]];
}
