//@exec printf_conversions global=2 out:i32[2] in:f32[8] in:i32[8]
// printf with every conversion OpenCL C has (issue: trust, item 5): integer conversions with
// the hh/h/l length modifiers, every floating conversion, flags, width and precision,
// strings from literals and __constant arrays, pointers, and vectors of each width.
__constant char const_string[] = "constant";
__kernel void printf_conversions(__global int *ret, __global const float *f, __global const int *x) {
  size_t i = get_global_id(0);
  int v = x[i];
  float g = f[i];
  int r = 0;
  r += printf("d=%d i=%i o=%o u=%u x=%x X=%X c=%c %%\n", v, -v, v, (uint)v, v, v, 'a' + (int)i);
  r += printf("hhd=%hhd hd=%hd ld=%ld lu=%lu lx=%lx hhu=%hhu hx=%hx\n", (char)v, (short)v,
              (long)v << 33, (ulong)v * 3000000000UL, (long)v, (uchar)v, (ushort)v);
  r += printf("f=%f F=%F e=%e E=%E g=%g G=%G a=%a A=%A\n", g, g * 1e20f, g, g, g, g * 1e-9f, g, g);
  r += printf("w=%8.3f|%-8d|%+d|% d|%08x|%.0f|%#o|%#X|%.2f|%12.4e\n", g, v, v, v, v, g, v, v, g, g);
  r += printf("s=%s %s %.3s p=%p\n", "literal", const_string, const_string, (void *)0);
  r += printf("v2=%v2d v3=%v3hd v4=%v4hlf v8=%v8hhx v16=%v16hhu v2l=%v2lx\n", (int2)(v, 2),
              (short3)(1, -2, 3), (float4)(g, 1.0f, 2.0f, 3.0f), (uchar8)(1, 2, 3, 4, 5, 6, 7, 8),
              (uchar16)(9), (ulong2)(v, -1));
  ret[i] = r + 100 + (int)i;
}
