// A program whose kernels fix different work-group sizes beside one that takes the host's:
// each must run with its own (on Vulkan 1.3, LocalSizeId gives each entry point its size;
// the Vulkan tier runs it at 1.3), and what a kernel reads of its size must be that size.
//@exec rows global=32 local=8 out:u32[32]
//@then tiles global=8,4 local=4,2 arg:0
//@then any_size global=32 local=16 arg:0 out:u32[32]
__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void rows(__global uint *out) {
  __local uint seen[8];
  uint l = get_local_id(0);
  seen[l] = l * 3u + get_local_size(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = seen[(l + 1u) % get_local_size(0)];
}

__kernel __attribute__((reqd_work_group_size(4, 2, 1))) void tiles(__global uint *out) {
  __local uint seen[2][4];
  uint x = get_local_id(0), y = get_local_id(1);
  seen[y][x] = x + 10u * y + 100u * get_local_size(1);
  barrier(CLK_LOCAL_MEM_FENCE);
  uint i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  out[i] += seen[1u - y][3u - x];
}

__kernel void any_size(__global const uint *in, __global uint *out) {
  uint i = get_global_id(0);
  out[i] = in[i] * get_local_size(0) + get_num_groups(0);
}
