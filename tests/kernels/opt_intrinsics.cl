//@exec opt_intrinsics global=16 out:u32[176] in:u32[32] out:u64[16] out:u8[512] i32=19
// What LLVM's optimizer makes of plain OpenCL C (issue: trust, item 5): byte swaps become
// llvm.bswap, a bit reversal llvm.bitreverse, shifts of two words llvm.fshl/fshr, overflow
// checks llvm.*.with.overflow, a switch on `x & 15` a switch on an i4, byte loops with a
// run-time length and value llvm.memset, and an overlapping copy llvm.memmove.
uint bswap32(uint x) { return (x >> 24) | ((x >> 8) & 0xff00) | ((x << 8) & 0xff0000) | (x << 24); }
ushort bswap16(ushort x) { return (ushort)((x >> 8) | (x << 8)); }
ulong bswap64(ulong x) { return ((ulong)bswap32((uint)x) << 32) | bswap32((uint)(x >> 32)); }
uint funnel_left(uint a, uint b) { return (a << 5) | (b >> 27); }
uint funnel_right(uint a, uint b) { return (b >> 13) | (a << 19); }
uint funnel_var(uint a, uint b, uint n) { n &= 31; return n ? (a << n) | (b >> (32 - n)) : a; }
uchar rev8(uchar b) {
  b = (b & 0xF0) >> 4 | (b & 0x0F) << 4;
  b = (b & 0xCC) >> 2 | (b & 0x33) << 2;
  b = (b & 0xAA) >> 1 | (b & 0x55) << 1;
  return b;
}
int classify(int x) {
  switch (x & 15) {
  case 0: return 3;
  case 1: return 7;
  case 2: return 11;
  case 5: return 13;
  case 9: return 17;
  case 14: return 19;
  default: return x;
  }
}
// Switches on masked values: i3, i31, i24 and i33 switch conditions.
int sw3(int x) {
  switch (x & 7) {
  case 0: return 5;
  case 1: return 9;
  case 3: return 2;
  case 6: return 1;
  default: return x;
  }
}
int sw31(uint x) {
  switch (x >> 1) {
  case 0: return 5;
  case 1: return 9;
  case 3: return 2;
  case 0x7ffffff0: return 1;
  default: return (int)(x >> 3);
  }
}
int sw24(int x) {
  switch (x & 0xffffff) {
  case 0: return 5;
  case 100: return 9;
  case 0x800000: return 2;
  case 0xfffff0: return 1;
  default: return x >> 20;
  }
}
int sw33(long x) {
  switch (x & 0x1ffffffffL) {
  case 0: return 5;
  case 100: return 9;
  case 0x100000000L: return 2;
  default: return (int)(x >> 29);
  }
}
__kernel void opt_intrinsics(__global uint *o, __global const uint *x, __global ulong *o64,
                             __global uchar *buf, int n) {
  size_t i = get_global_id(0);
  uint a = x[i], b = x[i + 16];
  o[i] = bswap32(a);
  o[i + 16] = bswap16((ushort)a);
  o64[i] = bswap64(((ulong)a << 32) | b);
  o[i + 32] = funnel_left(a, b);
  o[i + 48] = funnel_right(a, b);
  o[i + 64] = funnel_var(a, b, b);
  o[i + 80] = rev8((uchar)a) | (uint)rev8((uchar)b) << 8;
  o[i + 96] = classify((int)a) + classify((int)b);
  uint t = a + b;
  o[i + 112] = (t < a) ? 1u : 0u;
  int st;
  o[i + 128] = __builtin_add_overflow((int)a, (int)b, &st) ? (uint)st : 0u;
  ulong m = (ulong)a * b;
  o[i + 144] = (m >> 32) != 0 ? 1u : 2u;
  o[i + 160] = sw3((int)a) + sw31(b) + sw24((int)(a ^ b)) + sw33(((long)a << 1) | (b & 1));
  __global uchar *p = buf + i * 32;
  int len = n - (int)(i & 3);
  for (int k = 0; k < len; k++) p[k] = (uchar)a;
  for (int k = len; k < 32; k++) p[k] = 0;
  // Overlapping regions: llvm.memmove.
  p[1] = (uchar)b;
  p[2] = (uchar)(b >> 8);
  __builtin_memmove(p + 3, p, 16);
}
