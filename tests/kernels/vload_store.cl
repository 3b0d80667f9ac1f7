__kernel void vload_store(__global float *out, __global const float *in, __global half *h) {
  size_t i = get_global_id(0);
  float4 v = vload4(i, in);
  vstore4(v * 2.0f, i, out);
  float f = vload_half(i, h);
  vstore_half_rtz(f + 1.0f, i, h);
  float4 hv = vload_half4(i, h);
  vstore_half4(hv, i + 1, h);
}
