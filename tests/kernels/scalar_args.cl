//@exec scalar_args global=8 out:f32[64] i8=-5 u8=250 i16=-1234 u16=60000 i64=-1234567890123 u64=9876543210 f32=2.5 f32=-0.125
typedef struct { int a; float b; } pair_t;
__kernel void scalar_args(__global float *out, char c, uchar uc, short s, ushort us, long l, ulong ul, float f, float g) {
  size_t i = get_global_id(0);
  __global float *o = out + 8 * i;
  o[0] = c * (float)i;
  o[1] = uc + f;
  o[2] = s - g;
  o[3] = us * 0.5f;
  o[4] = (float)(l >> i);
  o[5] = (float)(ul % (i + 7));
  o[6] = f * g + i;
  o[7] = (float)(c + uc + s + us);
}
