//@exec integer_char_short global=64 out:i8[128] out:i16[128] in:i8[64] in:i16[64] in:u8[64]
__kernel void integer_char_short(__global char *oc, __global short *os, __global const char *c,
                                 __global const short *s, __global const uchar *u) {
  size_t i = get_global_id(0);
  char a = c[i];
  short b = s[i];
  uchar d = u[i];
  oc[2 * i] = abs(a) + add_sat(a, (char)100) + sub_sat(a, (char)-100) + hadd(a, (char)7) + rhadd(a, (char)3);
  oc[2 * i + 1] = clz(a) + popcount(d) + rotate(a, (char)2) + max(a, (char)-5) + (char)mul_hi(d, (uchar)200);
  os[2 * i] = abs(b) + add_sat(b, (short)30000) + mad_sat(b, (short)3, (short)-7) + mad_hi(b, (short)11, (short)1);
  os[2 * i + 1] = upsample(a, d) + clamp(b, (short)-100, (short)100) + (short)abs_diff(b, (short)-3) + (b >> 3) + (b << 2);
}
