//@exec reinterpret global=32 out:u32[128] out:f32[128] in:f32[128] in:u8[512]
__kernel void reinterpret(__global uint4 *ou, __global float4 *of, __global const float4 *x, __global const uchar16 *b) {
  size_t i = get_global_id(0);
  float4 v = x[i];
  uchar16 c = b[i];
  ou[i] = as_uint4(v) ^ as_uint4(c);
  of[i] = as_float4(as_int4(v) & (int4)0x7fffffff) + as_float4((as_uint4(c) & 0x3fffffffu) | 0x3f000000u);
  ushort8 h = as_ushort8(v);
  ou[i] += convert_uint4(h.lo) + as_uint4(as_char16(c) >> (char)1);
}
