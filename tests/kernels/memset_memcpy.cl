//@exec memset_memcpy global=32 out:i32[1024] in:i32[32]
typedef struct { int v[24]; float f[8]; } block_t;
__constant int init[24] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24};
__kernel void memset_memcpy(__global block_t *out, __global const int *x) {
  size_t i = get_global_id(0);
  block_t b = {0};
  int tmp[24] = {0};
  for (int k = 0; k < 24; ++k) tmp[k] = init[k];
  for (int k = 0; k < 24; ++k) b.v[k] = tmp[(k + x[i]) & 15] * x[i];
  b.f[i & 7] = 1.5f;
  out[i] = b;
}
