//@exec sampler_constants global=8,8 img2d:ro:f32:8x8 out:f32[1024]
__constant sampler_t s_edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__constant sampler_t s_clamp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
__constant sampler_t s_rep = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
__constant sampler_t s_none = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
float4 fetch(read_only image2d_t img, sampler_t s, float2 c) { return read_imagef(img, s, c); }
__kernel void sampler_constants(read_only image2d_t img, __global float4 *out) {
  int x = get_global_id(0), y = get_global_id(1);
  __global float4 *o = out + 4 * (x + 8 * y);
  o[0] = read_imagef(img, s_edge, (int2)(x - 2, y + 3));
  o[1] = fetch(img, s_clamp, (float2)(x - 1.3f, y + 0.7f));
  o[2] = read_imagef(img, s_rep, (float2)(x * 0.3f, y * -0.2f));
  o[3] = read_imagef(img, s_none, (int2)(x, y));
}
