//@exec extended_bit_ops global=64 in:u32[64] in:u16[64] in:u8[64] in:u64[64] in:i32[64] out:u32[448] out:u16[128] out:u8[128] out:u64[128]
//@std CL3.0
// cl_khr_extended_bit_ops the way codecs and FFTs use it: RGB565 unpacked and repacked with
// bitfield_extract/bitfield_insert, a signed 11-bit field (a packed normal) sign-extended,
// bit-reversed FFT indices, and every integer width and a vector, offsets and counts that
// reach the edges (count 0, the whole width).
__kernel void extended_bit_ops(__global const uint *w, __global const ushort *h,
                               __global const uchar *b, __global const ulong *l,
                               __global const int *s, __global uint *ow, __global ushort *oh,
                               __global uchar *ob, __global ulong *ol) {
  size_t i = get_global_id(0);
  uint x = w[i];
  ushort rgb = h[i];
  uint r5 = bitfield_extract_unsigned(rgb, 11u, 5u);
  uint g6 = bitfield_extract_unsigned(rgb, 5u, 6u);
  uint b5 = bitfield_extract_unsigned(rgb, 0u, 5u);
  __global uint *o = ow + 7 * i;
  o[0] = (r5 << 16) | (g6 << 8) | b5;
  o[1] = (uint)bitfield_extract_signed(x, 21u, 11u);
  o[2] = bit_reverse(x) >> 26;  // a 64-point FFT's bit-reversed index
  o[3] = bitfield_insert(x, (uint)s[i], (uint)i % 32u, 32u - (uint)i % 32u);
  o[4] = bitfield_insert(x, 0xffffffffu, 3u, 0u) ^ bitfield_extract_unsigned(x, 7u, 0u);
  o[5] = (uint)bitfield_extract_signed(s[i], 0u, 32u) + bitfield_extract_unsigned(x, 0u, 32u);
  uint4 v = (uint4)(x, x >> 3, ~x, x * 2654435761u);
  uint4 fv = bitfield_extract_unsigned(v, (uint)i % 8u, 9u) + bit_reverse(v);
  o[6] = fv.x ^ fv.y ^ fv.z ^ fv.w;
  oh[2 * i] = bitfield_insert(rgb, (ushort)(31 - r5), 11u, 5u);
  oh[2 * i + 1] = bit_reverse(rgb) ^ (ushort)bitfield_extract_signed(rgb, (uint)i % 9u, 7u);
  uchar c = b[i];
  ob[2 * i] = bit_reverse(c) + bitfield_insert(c, (uchar)i, 2u, 3u);
  ob[2 * i + 1] = (uchar)bitfield_extract_signed((char)c, 1u, 6u) ^ bitfield_extract_unsigned(c, 4u, 4u);
  ulong y = l[i];
  ol[2 * i] = bit_reverse(y) ^ bitfield_extract_unsigned(y, 17u, 40u);
  ol[2 * i + 1] = bitfield_insert(y, (ulong)x, (uint)i, 33u) + (ulong)bitfield_extract_signed((long)y, 60u - (uint)i % 8u, 4u);
}
