//@exec local_mixed global=16 local=8 out:f32[16] in:f32[32]=-20..20 in:u8[16] local:u8[37] local:f32[32]
// A histogram-and-tile step as image and text kernels write it: a kernel-scope __local
// counter table beside two __local arguments of different types, a byte array whose size
// is not a multiple of four and a float4 tile. The tile is written through a float view,
// the bytes read back as words, a float pointer stepped past its float4: every local
// pointer needs an address, so in Vulkan the three objects share one array of words.
__kernel void local_mixed(__global float *out, __global const float *in,
                          __global const uchar *bytes, __local uchar *flags,
                          __local float4 *tile) {
  __local uint counts[4];
  int g = get_global_id(0), l = get_local_id(0);
  if (l < 4)
    counts[l] = 0;
  __local float *t = (__local float *)tile;
  for (int k = 0; k < 4; k++)
    t[l * 4 + k] = in[(g * 2 + k) & 31];
  for (int k = l; k < 37; k += 8)
    flags[k] = bytes[(g + k) & 15] ^ (uchar)k;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&counts[bytes[g] & 3], 1u);
  uint w = ((__local uint *)flags)[l];
  float4 v = tile[7 - l];
  barrier(CLK_LOCAL_MEM_FENCE);
  __local float *p = t + 2 * l + 1;
  out[g] = v.x - v.y * 0.5f + (float)(w & 0xffff) + (float)flags[36 - l] + p[3] +
           (float)counts[l & 3];
}
