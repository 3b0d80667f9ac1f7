// Tone-mapping of a half-precision (fp16 storage) RGBA image: vload_half4, a per-channel
// exposure curve in float, vstore_half4_rte: how renderers keep HDR buffers small.
//@bench half_scale global=4194304 local=256 in:f16[16777216]=0..4 out:f16[16777216] f32=1.5
//@bench-cpu half_scale global=262144 local=256 in:f16[1048576]=0..4 out:f16[1048576] f32=1.5
__kernel void half_scale(__global const half *src, __global half *dst, float exposure) {
  const size_t i = get_global_id(0);
  const float4 c = vload_half4(i, src) * exposure;
  const float4 mapped = c / (1.0f + c);
  vstore_half4_rte(mapped, i, dst);
}
