//@std CL2.0
// cl_khr_subgroups' pipe reservations (issue: OpenCL C 2.0, items 5 and 6): translated,
// validated and round-tripped, not executed: the Intel runtime does not offer
// cl_khr_subgroups, so it cannot build this source for a reference. (The write-only pipe's
// query is get_pipe_max_packets, the read-only one's get_pipe_num_packets: llvm-spirv-14's
// reverse translation declares one query function for both accesses and aborts otherwise.)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

__kernel void pipe_sub_group_write(__global const int *in, write_only pipe int p,
                                   __global int *status) {
  int i = (int)get_global_id(0);
  int v = in[i];
  reserve_id_t r = sub_group_reserve_write_pipe(p, get_sub_group_size());
  int s = -1;
  if (is_valid_reserve_id(r)) {
    s = write_pipe(p, r, get_sub_group_local_id(), &v);
    sub_group_commit_write_pipe(p, r);
  }
  status[i] = s + (int)get_pipe_max_packets(p);
}

__kernel void pipe_sub_group_read(read_only pipe int p, __global int *out) {
  int i = (int)get_global_id(0);
  int v = 0;
  reserve_id_t r = sub_group_reserve_read_pipe(p, get_sub_group_size());
  if (is_valid_reserve_id(r)) {
    read_pipe(p, r, get_sub_group_local_id(), &v);
    sub_group_commit_read_pipe(p, r);
  }
  out[i] = v + (int)get_pipe_num_packets(p);
}
