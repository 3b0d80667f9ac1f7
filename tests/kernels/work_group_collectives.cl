//@std CL2.0
//@exec work_group_collectives global=16,8 local=8,4 out:i32[128] out:i64[128] out:f32[128] in:i32[128]=-1000..1000
// OpenCL C 2.0's work-group functions (issue 32, item 4) in a 2D work-group of 32: reduce,
// inclusive and exclusive scans of add, min and max over int, uint, long and float (halves
// of small integers, so that every order of additions gives the same bits), broadcasts by a
// 2D local id (the form of the NDRange's dimension: the Intel runtime reads a 1D id in a 2D
// group as another work-item), all and any. For Vulkan each goes through a Workgroup array
// between barriers.
__kernel void work_group_collectives(__global int *oi, __global long *ol, __global float *of,
                                     __global const int *in) {
  size_t gx = get_global_id(0), gy = get_global_id(1);
  size_t i = gy * get_global_size(0) + gx;
  int v = in[i];
  uint u = (uint)(v + 1000);
  long w = (long)v * 3000000000L;
  float f = (float)v * 0.5f;
  int r = work_group_reduce_add(v) + work_group_reduce_min(v) * 3 +
          work_group_reduce_max(v) * 5 + work_group_scan_inclusive_add(v) * 7 +
          work_group_scan_exclusive_add(v) * 11 + work_group_scan_inclusive_min(v) * 13 +
          work_group_scan_exclusive_max(v) * 17;
  r += (int)work_group_reduce_max(u) + (int)work_group_scan_exclusive_min(u) * 19 +
       (int)work_group_scan_inclusive_max(u);
  r += work_group_broadcast(v, 5, 1) * 23 + work_group_broadcast(v, 3, 2) * 29;
  r += (work_group_all(v > -990) ? 1 : 0) + (work_group_any(v > 995) ? 2 : 0) +
       (work_group_all(v < 2000) ? 4 : 0) + (work_group_any(v > 5000) ? 8 : 0);
  oi[i] = r;
  ol[i] = work_group_reduce_add(w) + work_group_scan_exclusive_add(w) * 3 +
          work_group_scan_inclusive_max(w) + work_group_reduce_min(w);
  of[i] = work_group_reduce_add(f) + work_group_scan_inclusive_add(f) * 2.0f +
          work_group_scan_exclusive_add(f) * 4.0f + work_group_reduce_min(f) +
          work_group_scan_exclusive_max(f) + work_group_broadcast(f, 7, 1);
}
