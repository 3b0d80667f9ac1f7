//@exec select_bitselect global=32 out:f32[128] out:i32[128] out:u8[512] in:f32[128] in:f32[128] in:i32[128]
__kernel void select_bitselect(__global float4 *of, __global int4 *oi, __global uchar16 *ob,
                               __global const float4 *x, __global const float4 *y, __global const int4 *m) {
  size_t i = get_global_id(0);
  float4 a = x[i], b = y[i];
  int4 c = m[i];
  of[i] = select(a, b, c) + bitselect(a, b, as_float4(c)) + select(b, a, a > b);
  oi[i] = select(c, -c, c > 0) + bitselect(c, c.wzyx, (int4)0x0f0f0f0f) + (int4)(select(1, 2, (int)c.x));
  ob[i] = select(as_uchar16(c), as_uchar16(a), as_char16(b) < (char)0);
}
