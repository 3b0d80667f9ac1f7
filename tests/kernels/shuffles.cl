//@exec shuffles global=32 out:f32[256] out:i16[512] in:f32[128] in:f32[256] in:u32[128] in:i16[256]
__kernel void shuffles(__global float8 *of, __global short16 *os, __global const float4 *x, __global const float8 *y,
                       __global const uint4 *m, __global const short8 *s) {
  size_t i = get_global_id(0);
  uint4 mask = m[i];
  float4 a = shuffle(x[i], mask & 3u);
  float8 b = shuffle2(x[i], y[i].lo, convert_uint8(mask.xyzwwzyx) & 7u);
  of[i] = (float8)(a, a.wzyx) + b + shuffle(y[i], convert_uint8(mask.yyxxzzww) & 7u);
  short8 v = s[i];
  os[i] = shuffle2(v, v.s76543210, (ushort16)(0, 15, 1, 14, 2, 13, 3, 12, 4, 11, 5, 10, 6, 9, 7, 8)) +
          shuffle(v, convert_ushort16((uint16)(mask, mask.yzwx, mask.zwxy, mask) & 7u));
}
