// Work-group inclusive prefix sum (Hillis-Steele in local memory, double-buffered), writing
// each group's total for the next level: the first pass of a stream-compaction scan.
//@bench prefix_sum global=16777216 local=256 in:u32[16777216]=0..100 out:u32[16777216] out:u32[65536] local:u32[512]
//@bench-cpu prefix_sum global=1048576 local=256 in:u32[1048576]=0..100 out:u32[1048576] out:u32[4096] local:u32[512]
__kernel void prefix_sum(__global const uint *in, __global uint *out, __global uint *group_sums,
                         __local uint *tmp) {
  const int lid = get_local_id(0);
  const int n = get_local_size(0);
  int pout = 0, pin = 1;
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int offset = 1; offset < n; offset <<= 1) {
    pout = 1 - pout;
    pin = 1 - pout;
    uint v = tmp[pin * n + lid];
    if (lid >= offset)
      v += tmp[pin * n + lid - offset];
    tmp[pout * n + lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const uint total = tmp[pout * n + lid];
  out[get_global_id(0)] = total;
  if (lid == n - 1)
    group_sums[get_group_id(0)] = total;
}
