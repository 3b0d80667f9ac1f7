// histogram with the sixteen bytes read from the vector's lanes (bench/gpu/variants/README.md).
//@bench histogram_noarray global=1048576 local=256 in:u8[16777216]=0..255 io:u32[256]=0..0
//@bench-cpu histogram_noarray global=65536 local=256 in:u8[1048576]=0..255 io:u32[256]=0..0
#define BIN(lane) atomic_inc(&local_bins[v.lane])
__kernel void histogram_noarray(__global const uchar16 *data, __global uint *bins) {
  __local uint local_bins[256];
  const int lid = get_local_id(0);
  for (int b = lid; b < 256; b += get_local_size(0))
    local_bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const uchar16 v = data[get_global_id(0)];
  BIN(s0); BIN(s1); BIN(s2); BIN(s3); BIN(s4); BIN(s5); BIN(s6); BIN(s7);
  BIN(s8); BIN(s9); BIN(sa); BIN(sb); BIN(sc); BIN(sd); BIN(se); BIN(sf);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int b = lid; b < 256; b += get_local_size(0))
    if (local_bins[b])
      atomic_add(&bins[b], local_bins[b]);
}
