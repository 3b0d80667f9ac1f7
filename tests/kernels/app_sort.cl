// Application-shaped program: a least-significant-digit radix sort of 8-bit keys with their
// payloads, 4 bits a pass, as GPU sorting libraries write it: a histogram of each
// work-group's digits (local atomics), an exclusive scan of all the counts (one
// work-group, in local memory), and a stable scatter; the second pass sorts the first
// pass's output back into the first buffers. A check kernel then counts the keys out of
// order. The digit helper and the group size are shared by all of them.
//
//@exec digit_histogram global=1024 local=64 in:u32[1024]=0..255 out:u32[256] u32=0 u32=1024
//@then exclusive_scan global=256 local=256 arg:1 out:u32[256] local:u32[256] u32=256
//@then scatter global=1024 local=64 arg:0 in:u32[1024] arg:4 out:u32[1024] out:u32[1024] local:u32[64] arg:2 arg:3
//@then digit_histogram global=1024 local=64 arg:8 arg:1 u32=4 arg:3
//@then exclusive_scan global=256 local=256 arg:1 arg:4 arg:5 arg:6
//@then scatter global=1024 local=64 arg:8 arg:9 arg:4 out:u32[1024] out:u32[1024] arg:10 arg:11 arg:3
//@then count_unsorted global=1024 local=64 arg:12 out:u32[1] arg:3

#define GROUP 64
#define BINS 16

static uint digit(uint key, uint shift) { return (key >> shift) & (BINS - 1); }

// counts[bin * groups + group] = how many keys of the group have that digit.
__kernel void digit_histogram(__global const uint *keys, __global uint *counts,
                              uint shift, uint n) {
  __local uint bins[BINS];
  uint l = get_local_id(0), g = get_group_id(0), i = get_global_id(0);
  if (l < BINS)
    bins[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n)
    atomic_inc(&bins[digit(keys[i], shift)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < BINS)
    counts[l * get_num_groups(0) + g] = bins[l];
}

// out = the exclusive prefix sums of in (one work-group: Hillis-Steele in local memory).
__kernel void exclusive_scan(__global const uint *in, __global uint *out,
                             __local uint *tmp, uint n) {
  uint l = get_local_id(0);
  tmp[l] = l < n && l > 0 ? in[l - 1] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = 1; d < get_local_size(0); d <<= 1) {
    uint v = l >= d ? tmp[l - d] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    tmp[l] += v;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l < n)
    out[l] = tmp[l];
}

// Each key (and its payload) to its place: the start of its digit's run for its group,
// plus the keys of the same digit before it in the group (stable).
__kernel void scatter(__global const uint *keys, __global const uint *values,
                      __global const uint *starts, __global uint *keys_out,
                      __global uint *values_out, __local uint *digits, uint shift,
                      uint n) {
  uint l = get_local_id(0), g = get_group_id(0), i = get_global_id(0);
  uint d = i < n ? digit(keys[i], shift) : BINS;
  digits[l] = d;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i >= n)
    return;
  uint rank = 0;
  for (uint k = 0; k < l; k++)
    rank += digits[k] == d;
  uint at = starts[d * get_num_groups(0) + g] + rank;
  keys_out[at] = keys[i];
  values_out[at] = values[i];
}

// The number of neighbours out of order (0 when sorted).
__kernel void count_unsorted(__global const uint *keys, __global uint *bad, uint n) {
  uint i = get_global_id(0);
  if (i + 1 < n && keys[i] > keys[i + 1])
    atomic_inc(bad);
}
