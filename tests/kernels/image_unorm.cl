//@exec image_unorm global=16,8 img2d:ro:un8:16x8 img2d:wo:un8:16x8 out:f32[512]
__constant sampler_t near = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_NEAREST;
__kernel void image_unorm(read_only image2d_t src, write_only image2d_t dst, __global float4 *out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 c = read_imagef(src, near, (float2)(p.x / 16.0f + 0.03f, p.y / 8.0f - 0.4f));
  out[p.x + 16 * p.y] = c;
  write_imagef(dst, p, c.wzyx * 0.5f);
}
