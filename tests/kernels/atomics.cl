//@exec atomics global=64 local=16 out:i32[8] out:u32[2] local:i32[1] out:i64[1]
__kernel void atomics(__global int *counter, __global uint *ucount, __local int *lc, __global long *big) {
  if (get_local_id(0) == 0) lc[0] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(counter, 1);
  atomic_inc(&counter[1]);
  atomic_max(&counter[2], (int)get_global_id(0));
  atomic_min(&ucount[0], (uint)get_global_id(0));
  atomic_cmpxchg(&counter[3], 0, 7);
  atomic_xchg(&counter[4], 5);
  atom_add(lc, 2);
  atomic_or(&ucount[1], 1u << (get_global_id(0) & 31));
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) atomic_add(&counter[5], lc[0]);
}
