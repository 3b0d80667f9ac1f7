//@exec integer_vectors global=32 out:i32[384] in:i32[128] in:u16[256]
__kernel void integer_vectors(__global int4 *out, __global const int4 *x, __global const ushort8 *y) {
  size_t i = get_global_id(0);
  int4 a = x[i];
  ushort8 b = y[i];
  __global int4 *o = out + 3 * i;
  o[0] = as_int4(abs(a)) + hadd(a, a.wzyx) + mad24(a, (int4)3, (int4)1) + mul24(a & 0xffff, (int4)7);
  o[1] = convert_int4(clz(b.lo)) + convert_int4(popcount(b.hi)) + rotate(a, (int4)(1, 2, 3, 4));
  o[2] = clamp(a, -100, 100) + max(a, (int4)(0)) + min(a, 5) + convert_int4(add_sat(b.even, b.odd));
}
