// Sum reduction: each work-item accumulates a strided slice, then the work-group reduces
// in local memory with a tree and writes one partial sum (the first of two passes).
//@bench reduce_sum global=65536 local=256 in:f32[16777216]=0..1 out:f32[256] local:f32[256] i32=16777216
//@bench-cpu reduce_sum global=8192 local=256 in:f32[1048576]=0..1 out:f32[32] local:f32[256] i32=1048576
__kernel void reduce_sum(__global const float *in, __global float *partial, __local float *scratch,
                         int n) {
  const int lid = get_local_id(0);
  float acc = 0.0f;
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    acc += in[i];
  scratch[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = scratch[0];
}
