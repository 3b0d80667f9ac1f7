//@exec local_halves global=64 local=16 out:f32[64] out:i32[4] in:f32[64]
// Program-scope __local variables through pointers of other types (issue 32, item 1):
// halves stored with vstore_half by each work-item into a ushort array (two writers to
// each word), read back with vload_half and as integers; a counter beside them that the
// work-items increment atomically.
__kernel void local_halves(__global float *of, __global int *counts, __global const float *in) {
  __local ushort raw[32];
  __local int count;
  int g = get_global_id(0), l = get_local_id(0);
  if (l == 0)
    count = 0;
  vstore_half(in[g] * 1.5f, l, (__local half *)raw);
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&count, l + 1);
  of[g] = vload_half(15 - l, (__local const half *)raw) + (float)(raw[(l + 3) & 15] & 0x3ff);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0)
    counts[get_group_id(0)] = count;
}
