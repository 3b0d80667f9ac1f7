//@exec transpose_tile global=16,16 local=8,8 out:f32[256] in:f32[256]
__attribute__((reqd_work_group_size(8, 8, 1)))
__kernel void transpose_tile(__global float *out, __global const float *in) {
  __local float tile[8][9];
  int lx = get_local_id(0), ly = get_local_id(1);
  int gx = get_group_id(0) * 8, gy = get_group_id(1) * 8;
  tile[ly][lx] = in[(gy + ly) * 16 + gx + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[(gx + ly) * 16 + gy + lx] = tile[lx][ly];
}
