// Sparse matrix-vector product y = A x with A in ELLPACK form (column-major slabs, one
// work-item per row, padding entries have value 0), the layout GPU sparse libraries use.
//@bench spmv_ell global=1048576 local=128 out:f32[1048576] in:f32[16777216]=-1..1 in:i32[16777216]=0..1048575 in:f32[1048576]=-1..1 i32=1048576 i32=16
//@bench-cpu spmv_ell global=65536 local=128 out:f32[65536] in:f32[1048576]=-1..1 in:i32[1048576]=0..65535 in:f32[65536]=-1..1 i32=65536 i32=16
__kernel void spmv_ell(__global float *restrict y, __global const float *restrict values,
                       __global const int *restrict cols, __global const float *restrict x,
                       const int rows, const int width) {
  const int row = get_global_id(0);
  if (row >= rows)
    return;
  float sum = 0.0f;
  for (int j = 0; j < width; ++j) {
    const int k = j * rows + row;
    const float v = values[k];
    if (v != 0.0f)
      sum += v * x[cols[k]];
  }
  y[row] = sum;
}
