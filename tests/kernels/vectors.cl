//@exec vectors global=16 out:f32[64] in:f32[64] in:i32[64]
__kernel void vectors(__global float4 *out, __global const float4 *a, __global const int4 *m) {
  size_t i = get_global_id(0);
  float4 v = a[i];
  float4 s = shuffle(v, convert_uint4(m[i]) & 3u);
  out[i] = (float4)(dot(v, v), length(v.xyz), distance(v, s), 0.0f) + normalize(v) + cross(v, s) + select(v, s, m[i]);
}
