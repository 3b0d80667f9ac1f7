//@exec images global=16,16 img2d:ro:f32:16x16 img2d:wo:f32:16x16 sampler:U:edge:nearest out:i32[4]
__constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__kernel void images(read_only image2d_t src, write_only image2d_t dst, sampler_t s, __global int *dims) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 a = read_imagef(src, smp, p);
  float4 b = read_imagef(src, s, p);
  write_imagef(dst, p, a + b);
  if (p.x == 0 && p.y == 0) {
    dims[0] = get_image_width(src);
    dims[1] = get_image_height(dst);
    int2 d = get_image_dim(src);
    dims[2] = d.x * d.y;
    dims[3] = get_image_channel_order(src);
  }
}
