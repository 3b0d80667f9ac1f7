//@exec vload_half_modes global=16 out:f16[704] in:f32[64]=-100..100 in:f16[64]=-8..8 out:f32[128]
__kernel void vload_half_modes(__global half *h, __global const float *x, __global const half *hin, __global float *of) {
  size_t i = get_global_id(0);
  float4 v = vload4(i, x);
  vstore_half(v.x, i, h);
  vstore_half_rte(v.y, i, h + 16);
  vstore_half_rtz(v.z, i, h + 32);
  vstore_half_rtp(v.w, i, h + 48);
  vstore_half_rtn(v.x * 1e5f, i, h + 64);
  vstore_half2(v.xy, i, h + 96);
  vstore_half4_rtn(v, i, h + 128);
  vstore_half8_rtp((float8)(v, v * 3.3f), i, h + 192);
  vstorea_half4(v, i, h + 320);
  vstorea_half4_rtz(v / 3.0f, i, h + 384);
  vstore_half16((float16)(v, v, v, v) * 1.7f, i, h + 448);
  float4 r = vloada_half4(i, hin) + vload_half4(i, hin);
  float2 s = vload_half2(i, hin) + vloada_half2(i, hin);
  vstore4(r, i, of);
  vstore4((float4)(s, vload_half(i, hin), vload_half8(i & 7, hin).s7), i, of + 64);
}
