//@exec vector_add global=64 in:f32[64] in:f32[64] out:f32[64]
__kernel void vector_add(__global const float *a, __global const float *b, __global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
