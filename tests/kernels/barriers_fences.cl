//@exec barriers_fences global=64 local=16 out:i32[64] in:i32[64] local:i32[16]
__kernel void barriers_fences(__global int *out, __global const int *in, __local int *tmp) {
  size_t l = get_local_id(0), g = get_global_id(0);
  tmp[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = tmp[(l + 1) & 15];
  barrier(CLK_LOCAL_MEM_FENCE);
  tmp[l] = v * 2;
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  out[g] = tmp[15 - l] + v;
  barrier(CLK_GLOBAL_MEM_FENCE);
}
