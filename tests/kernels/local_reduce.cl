//@exec local_reduce global=256 local=64 out:f32[4] in:f32[256]
__kernel void local_reduce(__global float *out, __global const float *in) {
  __local float part[64];
  size_t l = get_local_id(0);
  part[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) part[l] += part[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = part[0];
}
