//@exec structs_private global=16 in:f32[128] out:f32[16]
typedef struct { float x; int n; float4 v; } item_t;
__kernel void structs_private(__global item_t *items, __global float *out) {
  size_t i = get_global_id(0);
  float tmp[8];
  for (int k = 0; k < 8; ++k) tmp[k] = items[i].x * k;
  item_t it = items[i];
  out[i] = tmp[it.n & 7] + it.v.y;
}
