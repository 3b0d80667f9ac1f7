//@exec vloada_scalar global=16 in:f16[32]=-8..8 out:f32[32] out:f16[32]
// vloada_half and vstorea_half without a vector size, as SPIR 1.2 producers declare them
// (issue: trust, item 5): one half, aligned as a half, so vload_half / vstore_half.
float __attribute__((overloadable)) vloada_half(size_t offset, const __global half *p);
void __attribute__((overloadable)) vstorea_half(float data, size_t offset, __global half *p);
void __attribute__((overloadable)) vstorea_half_rtz(float data, size_t offset, __global half *p);
__kernel void vloada_scalar(__global const half *h, __global float *o, __global half *w) {
  size_t i = get_global_id(0);
  float v = vloada_half(i, h);
  o[i] = v * 2.0f;
  o[i + 16] = vloada_half(i + 16, h) - v;
  vstorea_half(v + 0.3f, i, w);
  vstorea_half_rtz(v / 3.0f, i + 16, w);
}
