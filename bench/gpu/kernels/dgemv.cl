// Double-precision matrix-vector product y = A x, one work-group per row reducing in local
// memory: where scientific codes keep double.
//@bench dgemv global=1048576 local=256 out:f64[4096] in:f64[16777216]=-1..1 in:f64[4096]=-1..1 local:f64[256] i32=4096
//@bench-cpu dgemv global=131072 local=256 out:f64[512] in:f64[262144]=-1..1 in:f64[512]=-1..1 local:f64[256] i32=512
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void dgemv(__global double *y, __global const double *A, __global const double *x,
                    __local double *scratch, int n) {
  const int row = get_group_id(0), lid = get_local_id(0), lsize = get_local_size(0);
  double acc = 0.0;
  for (int j = lid; j < n; j += lsize)
    acc += A[(size_t)row * n + j] * x[j];
  scratch[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = lsize / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    y[row] = scratch[0];
}
