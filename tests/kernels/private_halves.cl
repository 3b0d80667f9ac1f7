//@exec private_halves global=64 out:f32[64] out:u32[128] in:f32[256] in:u32[64]
// Private arrays seen as another type (issue 32, item 1): halves stored and loaded with
// vstore_half/vload_half in a ushort array, 64-bit words loaded with vload2 from the
// bytes of a union, bytes filled and scattered.
__kernel void private_halves(__global float *of, __global uint *ou, __global const float *in,
                             __global const uint *seeds) {
  int i = get_global_id(0);
  uint seed = seeds[i];
  ushort raw[8];
  half *hs = (half *)raw;
  vstore_half4((float4)(in[i], in[i + 64], in[i + 128], in[i + 192]), 0, hs);
  vstore_half_rtz(in[(i + 7) & 255] * 3.0f, 5, hs);
  of[i] = vload_half((int)(seed & 3), hs) + vload_half(5, hs) + (float)(raw[2] & 0xff);
  ou[i] = raw[1] | ((uint)raw[5] << 16);

  union {
    uchar c[24];
    ulong l[3];
  } words;
  for (int k = 0; k < 24; k++)
    words.c[k] = 0;
  for (int k = (int)(seed & 7); k < 20; k += 3)
    words.c[k] = (uchar)(k * 7 + i);
  ulong2 w = vload2(0, words.l);
  ou[64 + i] = (uint)(w.x ^ (w.y >> 7)) + words.c[17] + words.c[19];
}
