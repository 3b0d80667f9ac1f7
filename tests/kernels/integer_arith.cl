//@exec integer_arith global=64 out:i32[512] in:i32[64] in:i32[64]
__kernel void integer_arith(__global int *out, __global const int *x, __global const int *y) {
  size_t i = get_global_id(0);
  int a = x[i], b = y[i];
  uint ua = a, ub = b;
  int d = b | 1;
  __global int *o = out + 8 * i;
  o[0] = a + b - a * b;
  o[1] = (d == -1 ? a : a / d) + (d == -1 ? 0 : a % d);
  o[2] = (int)(ua / (ub | 1)) + (int)(ua % (ub | 1));
  o[3] = (a >> (b & 31)) ^ (int)(ua >> (ub & 31)) ^ (a << (b & 15));
  o[4] = (a & b) | (~a ^ b);
  o[5] = (a < b) + (a <= b) * 2 + (ua > ub) * 4 + (ua >= ub) * 8 + (a == b) * 16 + (a != b) * 32;
  o[6] = -a + !b + (a && b) + (a || b);
  o[7] = a > 0 ? a : b;
}
