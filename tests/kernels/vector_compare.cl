//@exec vector_compare global=32 out:i32[256] in:f32[128] in:i32[128]
__kernel void vector_compare(__global int4 *out, __global const float4 *x, __global const int4 *y) {
  size_t i = get_global_id(0);
  float4 a = x[i];
  int4 b = y[i];
  out[2 * i] = (a < 0.0f) + (a >= 1.0f) * 2 + (b == 0) + (b != b.yzwx) * 3 + (b > (int4)5);
  out[2 * i + 1] = (a.xxyy <= a.zwzw) & (b < 0) | (-b > b) ^ (int4)(1, 2, 3, 4);
}
