// histogram with atomic_add(p, 1) for atomic_inc(p) (bench/gpu/variants/README.md).
//@bench histogram_add global=1048576 local=256 in:u8[16777216]=0..255 io:u32[256]=0..0
//@bench-cpu histogram_add global=65536 local=256 in:u8[1048576]=0..255 io:u32[256]=0..0
__kernel void histogram_add(__global const uchar16 *data, __global uint *bins) {
  __local uint local_bins[256];
  const int lid = get_local_id(0);
  for (int b = lid; b < 256; b += get_local_size(0))
    local_bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uchar16 v = data[get_global_id(0)];
  uchar bytes[16];
  vstore16(v, 0, bytes);
  for (int i = 0; i < 16; ++i)
    atomic_add(&local_bins[bytes[i]], 1u);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int b = lid; b < 256; b += get_local_size(0))
    if (local_bins[b])
      atomic_add(&bins[b], local_bins[b]);
}
