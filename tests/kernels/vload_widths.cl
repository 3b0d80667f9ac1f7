//@exec vload_widths global=8 out:i32[384] in:i32[384] out:f32[216] in:f32[192]
__kernel void vload_widths(__global int *oi, __global const int *xi, __global float *of, __global const float *xf) {
  size_t i = get_global_id(0);
  int2 a = vload2(i, xi);
  int3 b = vload3(i, xi + 16);
  int8 c = vload8(i, xi + 64);
  int16 d = vload16(i, xi + 128);
  vstore2(a + 1, i, oi);
  vstore3(b * 2, i, oi + 16);
  vstore8(c ^ d.lo, i, oi + 64);
  vstore16(d - (int16)(c, c), i, oi + 128);
  float3 f = vload3(i, xf);
  vstore3(f * f, i, of);
  float8 g = vload8(i, xf + 24);
  vstore8(g + f.x, i, of + 24);
  vstore16((float16)(g, g.s76543210), i, of + 88);
}
