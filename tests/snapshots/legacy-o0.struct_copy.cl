// OpenCL C 1.2 (build with -cl-std=CL1.2), written by spir-xlate.
#pragma OPENCL FP_CONTRACT OFF

struct outer_t;
struct inner_t;

struct inner_t {
  uint m0;
  uchar m1;
  uchar m2;
  ushort m3;
  ulong m4;
};
typedef struct inner_t struct_inner_t_array2[2];
struct outer_t {
  struct_inner_t_array2 m0;
  uint4 m1;
};

__kernel void struct_copy(const __global struct outer_t *src, __global struct outer_t *dst) {
  __global struct outer_t *src_addr;
  __global struct outer_t *dst_addr;
  ulong i;
  struct outer_t o;
  struct inner_t t;
  src_addr = (__global struct outer_t *)src;
  dst_addr = dst;
  i = get_global_id(0u);
  o = src_addr[i];
  t = o.m0[0];
  o.m0[0] = o.m0[1];
  o.m0[1] = t;
  __private uchar *b = &o.m0[1].m1;
  *b = (uchar)((uint)(char)*b + 1u);
  uint4 t_1 = o.m1;
  uint2 t_2 = t_1.s02;
  __private uint4 *v11 = &o.m1;
  uint4 t_3 = *v11;
  uint4 t_4 = (uint4)(t_2.s01, (uint)0, (uint)0);
  *v11 = (uint4)(t_3.s0, t_4.s0, t_3.s2, t_4.s1);
  __private ulong *d = &o.m0[0].m4;
  *d = *d ^ (ulong)(short)o.m0[1].m3;
  dst_addr[15UL - i] = o;
}
