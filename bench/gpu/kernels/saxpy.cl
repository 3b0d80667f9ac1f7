// y = a * x + y, the first kernel of every tutorial and the bandwidth probe of every suite.
//@bench saxpy global=16777216 local=256 in:f32[16777216]=-1..1 io:f32[16777216]=-1..1 f32=2.5
//@bench-cpu saxpy global=1048576 local=256 in:f32[1048576]=-1..1 io:f32[1048576]=-1..1 f32=2.5
__kernel void saxpy(__global const float *x, __global float *y, float a) {
  const size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
