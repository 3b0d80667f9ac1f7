//@exec pointer_arith global=32 out:i32[128] in:i32[128] out:i64[32]
__kernel void pointer_arith(__global int *out, __global const int *in, __global long *diff) {
  size_t i = get_global_id(0);
  __global const int *p = in + 4 * i;
  __global const int *q = p + 3;
  __global int *o = out + 4 * i;
  int acc = 0;
  while (p <= q) acc += *p++;
  o[0] = acc;
  o[1] = (p > q) + (p == q + 1) * 2;
  diff[i] = (long)(q - in);
  __global const char *c = (__global const char *)(in + i);
  o[2] = c[0] + c[3];
  const int *pp = &o[0] == &out[4 * i] ? (const int *)0 : (const int *)0;
  o[3] = pp == 0 ? *(__global const int *)((__global const char *)in + 4 * (127 - i)) : -1;
}
