//@exec image_texel_edges global=23,7 img2d:ro:f32:23x7 sampler:U:edge:nearest img2d:ro:i32:23x7 out:f32[644] out:i32[644]
//@exec image_texel_edges_3d global=37,5,3 img3d:ro:u32:37x5x3 sampler:U:edge:nearest out:u32[2220]
//@exec image_texel_edges_array global=41,6 img2a:ro:f32:41x6x3 sampler:U:clamp:nearest out:f32[2952]
// Reads at unnormalized float coordinates that fall exactly on texel edges (x, not x + 0.5),
// as image-copy and resampling code writes them, on sizes that are not powers of two: with
// a nearest sampler OpenCL takes texel floor(x) exactly; a coordinate divided by the size
// and multiplied back must not land one texel early (in float, 7 / 23 * 23 < 7,
// 3 / 37 * 37 < 3, 1 / 41 * 41 < 1).
__kernel void image_texel_edges(read_only image2d_t src, sampler_t s, read_only image2d_t isrc,
                                __global float4 *out, __global int4 *iout) {
  int x = get_global_id(0), y = get_global_id(1);
  int w = get_image_width(src);
  float2 c = (float2)((float)x, (float)y);
  out[y * w + x] = read_imagef(src, s, c);
  // Just below and just above the edge, and a quarter in.
  float2 below = (float2)(nextafter((float)x, -1.0f), (float)y + 0.25f);
  iout[y * w + x] = read_imagei(isrc, s, below) - read_imagei(isrc, s, c + (float2)(0.75f, 0.0f));
}

__kernel void image_texel_edges_3d(read_only image3d_t src, sampler_t s, __global uint4 *out) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  int w = get_image_width(src), h = get_image_height(src);
  float4 c = (float4)((float)x, (float)y, (float)z, 0.0f);
  // Also beyond the last texel: CLK_ADDRESS_CLAMP_TO_EDGE gives the edge texel there.
  out[(z * h + y) * w + x] = read_imageui(src, s, c) + read_imageui(src, s, c + (float4)(w, 0.0f, 0.0f, 0.0f)) * 3u;
}

__kernel void image_texel_edges_array(read_only image2d_array_t src, sampler_t s, __global float4 *out) {
  int x = get_global_id(0), y = get_global_id(1);
  int w = get_image_width(src), h = get_image_height(src);
  for (int layer = 0; layer < 3; ++layer) {
    // Shifted one texel left: CLK_ADDRESS_CLAMP gives the border colour in column 0.
    float4 c = (float4)((float)x - 1.0f, (float)y, (float)layer, 0.0f);
    out[(layer * h + y) * w + x] = read_imagef(src, s, c);
  }
}
