//@exec workitem_queries global=8,4 local=4,2 out:u32[256]
__kernel void workitem_queries(__global uint *out) {
  uint i = get_global_id(0) + get_global_size(0) * get_global_id(1);
  __global uint *o = out + 8 * i;
  o[0] = get_work_dim();
  o[1] = get_global_size(1);
  o[2] = get_local_size(0) * 10 + get_local_size(1);
  o[3] = get_num_groups(0) * 10 + get_num_groups(1);
  o[4] = get_group_id(0) * 10 + get_group_id(1);
  o[5] = get_local_id(0) * 10 + get_local_id(1);
  o[6] = get_global_offset(0) + get_global_offset(1);
  o[7] = get_global_id(2) + get_local_id(2) + get_group_id(2);
}
