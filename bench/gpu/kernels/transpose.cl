// Matrix transpose through a padded local tile (no bank conflicts), coalesced reads and
// writes: the memory-layout kernel of every linear-algebra library.
//@bench transpose global=4096,4096 local=16,16 out:f32[16777216] in:f32[16777216]=-1..1 i32=4096 i32=4096
//@bench-cpu transpose global=512,512 local=16,16 out:f32[262144] in:f32[262144]=-1..1 i32=512 i32=512
#define T 16
__kernel __attribute__((reqd_work_group_size(T, T, 1)))
void transpose(__global float *out, __global const float *in, int width, int height) {
  __local float tile[T][T + 1];
  int x = get_group_id(0) * T + get_local_id(0);
  int y = get_group_id(1) * T + get_local_id(1);
  tile[get_local_id(1)][get_local_id(0)] = in[y * width + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  x = get_group_id(1) * T + get_local_id(0);
  y = get_group_id(0) * T + get_local_id(1);
  out[y * height + x] = tile[get_local_id(0)][get_local_id(1)];
}
