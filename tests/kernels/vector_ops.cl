//@exec vector_ops global=16 out:f32[256] in:f32[128] in:f32[64]
__kernel void vector_ops(__global float16 *out, __global const float8 *a, __global const float4 *b) {
  size_t i = get_global_id(0);
  float8 v = a[i];
  float4 w = b[i];
  float3 t = w.xyz * v.s012 + (float3)(1.0f, 2.0f, 3.0f);
  float2 p = v.lo.hi / (w.zw + 2.0f);
  float16 r = (float16)(v, w, t, w.x + v.s7);
  r.s0 = p.x;
  r.sf = p.y - v.odd.x;
  r.s5a = r.sa5;
  out[i] = r * r.s0123456789abcdef.x + r.even.s0;
}
