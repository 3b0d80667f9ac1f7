//@exec integer_long global=64 out:i64[256] in:i64[64] in:u64[64]
__kernel void integer_long(__global long *out, __global const long *x, __global const ulong *y) {
  size_t i = get_global_id(0);
  long a = x[i];
  ulong b = y[i];
  __global long *o = out + 4 * i;
  o[0] = mul_hi(a, (long)0x123456789) + mad_hi(b, 77ul, 5ul) + add_sat(a, a) + sub_sat(b, 100ul);
  o[1] = clz(a) + popcount(b) + rotate(a, (long)13) + hadd(b, 9ul) + rhadd(a, -1l);
  o[2] = upsample((uint)a, (uint)b) + max(a, -3l) + min(b, 17ul) + abs(a) + abs_diff(a, (long)b);
  o[3] = (a / ((long)(b | 1))) + (a % 1000003) + (long)(b >> (i & 63)) + (a << 3) + mad_sat(a, 2l, -5l);
}
