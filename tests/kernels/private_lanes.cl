//@exec private_lanes global=64 local=32 out:u32[64] in:u8[1024]=0..255 in:u32[64]=0..15 out:u32[64]
// A vector's bytes read back through a private array (`vstore16`, then `b[k]`), as a byte
// histogram reads them, and the writes a read must not look past: a byte written again, a
// byte written at an index known only at run time, a byte written in one branch and read
// after it.
__kernel void private_lanes(__global uint *sums, __global const uchar16 *data,
                            __global const uint *idx, __global uint *mixed) {
  const int i = get_global_id(0);
  uchar b[16];
  vstore16(data[i], 0, b);
  uint s = 0;
  for (int k = 0; k < 16; ++k)
    s = s * 31u + b[k];
  sums[i] = s;
  b[3] = (uchar)(b[3] + 1);
  const uint before = b[3];
  b[idx[i]] = 0xAB;
  if (idx[i] > 7u)
    b[5] = (uchar)(b[5] ^ 0x5A);
  mixed[i] = before | (uint)b[3] << 8 | (uint)b[5] << 16 | (uint)b[idx[i] ^ 1u] << 24;
}
