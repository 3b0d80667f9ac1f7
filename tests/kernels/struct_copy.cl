//@exec struct_copy global=16 in:i32[192] out:i32[192]
typedef struct { int a; char b, b2; short c; long d; } inner_t;
typedef struct { inner_t in[2]; int4 v; } outer_t;
__kernel void struct_copy(__global const outer_t *src, __global outer_t *dst) {
  size_t i = get_global_id(0);
  outer_t o = src[i];
  inner_t t = o.in[0];
  o.in[0] = o.in[1];
  o.in[1] = t;
  o.in[1].b += 1;
  o.v.yw = o.v.xz;
  o.in[0].d ^= (long)o.in[1].c;
  dst[15 - i] = o;
}
