//@std CL2.0
//@exec pipe_write global=64 local=16 in:i32[64]=-1000..1000 pipe:8[160] out:i32[64]
//@then pipe_count global=1 arg:1 out:i32[2]
//@then pipe_read global=128 local=16 arg:1 out:i32[128] out:i32[128]
// OpenCL C 2.0 pipes (issue: OpenCL C 2.0, item 5): a pipe of (index, value) packets that one
// kernel fills and the next empties, by plain reads and writes, reservations of one work-item,
// and of a work-group; the packet count between the two. The packets arrive in no fixed
// order, so the reader stores each at its index. (The sub-group forms are in
// pipes_sub_group.cl: the Intel runtime has no cl_khr_subgroups to build their source.)

__kernel void pipe_write(__global const int *in, write_only pipe int2 p, __global int *status) {
  int i = (int)get_global_id(0);
  int2 a = (int2)(i * 2, in[i]);
  int s;
  if (i & 1) {
    s = write_pipe(p, &a);
  } else {
    reserve_id_t r = reserve_write_pipe(p, 1);
    s = is_valid_reserve_id(r) ? write_pipe(p, r, 0, &a) : -100;
    if (is_valid_reserve_id(r))
      commit_write_pipe(p, r);
  }
  int2 b = (int2)(i * 2 + 1, in[i] * 7);
  reserve_id_t w = work_group_reserve_write_pipe(p, get_local_size(0));
  if (is_valid_reserve_id(w)) {
    s += 10 * write_pipe(p, w, get_local_id(0), &b);
    work_group_commit_write_pipe(p, w);
  } else {
    s += 1000;
  }
  status[i] = s + 1;
}

__kernel void pipe_count(read_only pipe int2 p, __global int *counts) {
  counts[0] = (int)get_pipe_num_packets(p);
  counts[1] = (int)get_pipe_max_packets(p);
}

__kernel void pipe_read(read_only pipe int2 p, __global int *out, __global int *status) {
  int i = (int)get_global_id(0);
  int g = (int)get_group_id(0);
  int2 a = (int2)(-1, 0);
  int s;
  if (g < 4) {
    // One work-item at a time: plain reads and reservations of one packet.
    if (i & 1) {
      s = read_pipe(p, &a);
    } else {
      reserve_id_t r = reserve_read_pipe(p, 1);
      s = is_valid_reserve_id(r) ? read_pipe(p, r, 0, &a) : -100;
      if (is_valid_reserve_id(r))
        commit_read_pipe(p, r);
    }
  } else {
    reserve_id_t w = work_group_reserve_read_pipe(p, get_local_size(0));
    s = is_valid_reserve_id(w) ? read_pipe(p, w, get_local_id(0), &a) : -100;
    if (is_valid_reserve_id(w))
      work_group_commit_read_pipe(p, w);
  }
  status[i] = s + 1;
  if (a.x >= 0 && a.x < 128)
    out[a.x] = a.y * 3 + 1;
}
