//@exec vectors_spaces global=16 local=8 in:i8[256] in:i16[256] in:f32[256] in:i64[64] out:f32[256] out:i32[512] local:f32[256]
// Vectors of every width in every address space (issue: trust, item 5): global, local,
// private and constant memory, loaded and stored as vectors, through vector pointers and with
// vloadn/vstoren.
__constant int4 ktab4[2] = {(int4)(1, -2, 3, -4), (int4)(5, 6, -7, 8)};
__constant float8 ktab8 = (float8)(0.5f, 1.5f, -2.5f, 3.25f, 4.0f, -0.125f, 6.5f, 7.75f);
__constant char16 ktab16 = (char16)(1, 2, 3, 4, 5, 6, 7, 8, -1, -2, -3, -4, -5, -6, -7, -8);
__constant short3 ktab3 = (short3)(100, -200, 300);
__constant long2 ktab2 = (long2)(1L << 40, -3L);
__kernel void vectors_spaces(__global const char *c, __global const short *s,
                             __global const float *f, __global const long *l, __global float *of,
                             __global int *oi, __local float *lf) {
  int i = get_global_id(0), li = get_local_id(0);
  char16 c16 = vload16(i, c) + ktab16;
  short8 s8 = vload8(i, s);
  short3 s3 = vload3(i, s + 128) * ktab3;
  short2 s2 = vload2(i, s + 200);
  float4 f4 = ((__global const float4 *)f)[i];
  float3 f3 = vload3(i, f + 64);
  float8 f8 = vload8(i, f + 128) * ktab8;
  long2 l2 = ((__global const long2 *)l)[i] + ktab2;
  __local float16 *l16 = (__local float16 *)lf;
  l16[li] = (float16)(f8, f4, f3, (float)s2.x);
  vstore8(f8 + 1.0f, li, lf + 128);
  barrier(CLK_LOCAL_MEM_FENCE);
  float16 g = l16[7 - li];
  float8 h = vload8(7 - li, lf + 128);
  int2 p2[4];
  float3 p3[4];
  for (int k = 0; k < 4; k++) {
    p2[k] = (int2)(k, c16.s3 * k);
    p3[k] = f3 * (float)k;
  }
  int4 k4 = ktab4[i & 1] + (int4)(p2[i & 3], p2[(i + 1) & 3]);
  of[i] = g.s0 + g.sf + h.s7;
  of[i + 16] = dot(p3[i & 3], f3) + g.s8;
  vstore4(f4 * 2.0f, i + 8, of);
  vstore8(convert_float8(s8) + h, i + 12, of);
  oi[i] = c16.s0 + c16.sf + s3.z + k4.w;
  vstore4(k4, i + 4, oi);
  vstore16(convert_int16(c16), i + 6, oi);
  oi[i + 400] = (int)(l2.x >> 20) + (int)l2.y;
}
