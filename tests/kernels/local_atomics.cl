//@exec local_atomics global=64 local=32 out:u32[64] in:u32[64]=0..15
__kernel void local_atomics(__global uint *out, __global const uint *x) {
  __local uint hist[16];
  size_t l = get_local_id(0);
  if (l < 16) hist[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&hist[x[get_global_id(0)]]);
  atomic_max(&hist[15], (uint)l);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 16) out[get_group_id(0) * 16 + l] = hist[l];
  if (l < 16) out[32 + get_group_id(0) * 16 + l] = atomic_xchg(&hist[l], 0u);
}
