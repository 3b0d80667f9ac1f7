//@exec vload_store global=16 out:f32[64] in:f32[64] io:f16[128]=-4..4
__kernel void vload_store(__global float *out, __global const float *in, __global half *h) {
  size_t i = get_global_id(0);
  float4 v = vload4(i, in);
  vstore4(v * 2.0f, i, out);
  float4 hv = vload_half4(i, h);
  float f = vload_half(4 * i + 1, h);
  vstore_half4(hv + f, i + 16, h);
  vstore_half_rtz(f + 1.0f, 4 * i + 2, h);
}
