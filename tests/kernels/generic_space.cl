//@std CL2.0
//@exec generic_space global=64 local=16 out:i32[128] in:i32[64]=-1000..1000 local:i32[16]
// OpenCL C 2.0's generic address space (issue: OpenCL C 2.0, item 1): one function taking
// generic pointers to global, local and private memory; casts to and from generic; to_global,
// to_local, to_private; get_fence.
int bump(int *p, int by) {
  int old = *p;
  *p = old + by;
  return old;
}

int where(const int *p) {
  return (to_global(p) ? 1 : 0) | (to_local(p) ? 2 : 0) | (to_private(p) ? 4 : 0) |
         (get_fence(p) == CLK_GLOBAL_MEM_FENCE ? 8 : 0) |
         (get_fence(p) == CLK_LOCAL_MEM_FENCE ? 16 : 0);
}

__kernel void generic_space(__global int *out, __global const int *in, __local int *tile) {
  size_t i = get_global_id(0), l = get_local_id(0);
  tile[l] = in[i];
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  int priv[2] = {(int)i, (int)l};
  out[i] = in[i];
  int a = bump(&out[i], 3);
  int b = bump(&tile[(l + 1) & 15], 0);
  int c = bump(&priv[i & 1], 7);
  int *g = (i & 1) ? (int *)&out[i] : (int *)&priv[0];
  int kinds = where(&out[i]) | where(&tile[l]) << 5 | where(priv) << 10 | where(g) << 15;
  __global int *back = to_global(g);
  if (back)
    *back += 100;
  else
    *to_private(g) += 200;
  out[64 + i] = a + b * 3 + c * 5 + priv[0] * 7 + priv[1] * 11 + kinds;
}
