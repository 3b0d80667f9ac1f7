//@std CL2.0
//@exec cl20_groups global=64 local=16 out:i32[64] out:i32[4] in:i32[64]=-100..100
// OpenCL C 2.0's program-scope variables in global memory, with initializers (issue: OpenCL C
// 2.0, item 3), work-group functions and the 2.0 work-item functions (item 6).
__global int seeds[4] = {10, 20, 30, 40};
__global int scratch[4];
__global float table[4] = {1.5f, 2.5f, 3.5f, 4.5f};
__constant int ctab[3] = {7, 8, 9};

__kernel void cl20_groups(__global int *out, __global int *snap, __global const int *in) {
  size_t i = get_global_id(0), g = get_group_id(0);
  int v = in[i];
  int r = work_group_reduce_add(v) + work_group_reduce_min(v) * 3 + work_group_reduce_max(v) * 5;
  r += work_group_scan_inclusive_add(v) + work_group_scan_exclusive_max(v) * 7 +
       work_group_broadcast(v, 3) * 11;
  r += (work_group_all(v > -90) ? 1 : 0) + (work_group_any(v > 90) ? 2 : 0);
  r += (int)get_enqueued_local_size(0) * 13 + (int)get_global_linear_id() * 17 +
       (int)get_local_linear_id() * 19;
  r += (int)table[i & 3] + ctab[i % 3] + seeds[g];
  out[i] = r;
  // Each work-group writes its own program-scope word and reads it back (the value does not
  // depend on earlier runs of the program: the tiers run it more than once).
  if (get_local_id(0) == 0) {
    scratch[g] = v * 3 + (int)g;
    snap[g] = scratch[g] + seeds[3 - g];
  }
}
