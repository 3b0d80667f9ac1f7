//@exec matmul_tiled global=16,16 local=4,4 out:f32[256] in:f32[256]=-1..1 in:f32[256]=-1..1 i32=16
__attribute__((reqd_work_group_size(4, 4, 1))) __attribute__((vec_type_hint(float)))
__kernel void matmul_tiled(__global float *c, __global const float *a, __global const float *b, int n) {
  __local float ta[4][4], tb[4][4];
  int row = get_global_id(1), col = get_global_id(0);
  int ly = get_local_id(1), lx = get_local_id(0);
  float acc = 0.0f;
  for (int t = 0; t < n; t += 4) {
    ta[ly][lx] = a[row * n + t + lx];
    tb[ly][lx] = b[(t + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 4; ++k) acc += ta[ly][k] * tb[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = acc;
}
