//@exec common_geometric global=32 out:f32[512] in:f32[128] in:f32[128]
__kernel void common_geometric(__global float4 *out, __global const float4 *x, __global const float4 *y) {
  size_t i = get_global_id(0);
  float4 a = x[i], b = y[i];
  __global float4 *o = out + 4 * i;
  o[0] = degrees(a) + radians(b) + sign(a) + step(b, a);
  o[1] = smoothstep(-4.0f, 4.0f, a) + smoothstep(a, a + 8.0f, b) + mix(a, b, 0.3f) + clamp(a, b, b + 1.0f);
  o[2] = fast_normalize(a) + normalize(b) + cross(a, b);
  o[3] = (float4)(dot(a, b), fast_length(a), fast_distance(a, b), length(b.xy) + distance(a.x, b.x));
}
