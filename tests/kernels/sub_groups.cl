//@std CL2.0
//@exec sub_groups global=64 local=16 out:i32[64] out:i32[64] out:u32[8] in:i32[64]=-100..100
// cl_khr_subgroups (issue: OpenCL C 2.0, item 6): the sub-group queries and the sub-group
// collective functions. The values that depend on how the driver splits a work-group into
// sub-groups (its size, which the vectorizer picks) are compared through sums over the whole
// work-group, which do not depend on the split as long as both programs pick the same one.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

__kernel void sub_groups(__global int *out, __global int *coll, __global uint *shape,
                         __global const int *in) {
  size_t i = get_global_id(0);
  int v = in[i];
  uint size = get_sub_group_size(), id = get_sub_group_id(), lid = get_sub_group_local_id();
  // Position of this work-item in its work-group, rebuilt from the sub-group split.
  out[i] = (int)(id * get_max_sub_group_size() + lid) - (int)get_local_id(0);
  int r = sub_group_reduce_add(v) + sub_group_reduce_min(v) * 3 + sub_group_reduce_max(v) * 5;
  r += sub_group_scan_inclusive_add(v) * 7 + sub_group_scan_exclusive_max(v) +
       sub_group_scan_inclusive_min(v) * 11 + sub_group_scan_exclusive_add(v) * 13;
  r += sub_group_broadcast(v, 0) * 17 + (sub_group_all(v > -95) ? 19 : 0) +
       (sub_group_any(v > 95) ? 23 : 0);
  uint u = (uint)(v + 100);
  r += (int)sub_group_reduce_max(u) + (int)sub_group_scan_inclusive_add((ulong)u);
  r += (int)sub_group_reduce_add((float)v * 0.5f);
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  sub_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_sub_group);
  coll[i] = r;
  if (get_local_id(0) == 0) {
    size_t g = get_group_id(0);
    shape[g * 2] = get_num_sub_groups() * size == 16 ? 1 : get_num_sub_groups() * 100 + size;
    shape[g * 2 + 1] = get_enqueued_num_sub_groups() == get_num_sub_groups();
  }
}
