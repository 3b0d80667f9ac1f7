// OpenCL C 1.2 (build with -cl-std=CL1.2), written by spir-xlate.
#pragma OPENCL FP_CONTRACT OFF

__kernel void vector_add(const __global float *a, const __global float *b, __global float *c) {
  ulong call = get_global_id(0u);
  c[call] = a[call] + b[call];
}
