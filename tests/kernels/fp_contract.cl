//@exec fp_contract global=64 out:f32[128] in:f32[64] in:f32[64] in:f32[64]
float fused(float a, float b, float c) { return a * b + c; }
#pragma OPENCL FP_CONTRACT OFF
float unfused(float a, float b, float c) { return a * b + c; }
__kernel void fp_contract(__global float *out, __global const float *a, __global const float *b, __global const float *c) {
  size_t i = get_global_id(0);
  out[2 * i] = fused(a[i], b[i], c[i]);
  out[2 * i + 1] = unfused(a[i], b[i], c[i]) - a[i] * b[i];
}
