//@std CL2.0
//@exec image_1d_buffer global=64 img1b:ro:f32:64 img1b:wo:f32:64 img1b:ro:u32:64 img1b:wo:i32:64 img1b:rw:un8:64 out:i32[4]
// A 1D buffer image is a texel buffer: a table of texels read by index, without a sampler.
// A histogram-equalization style lookup: weights from one table, indices from another,
// results to typed outputs; a read-write unorm image updated in place; every query.
__kernel void image_1d_buffer(read_only image1d_buffer_t weights, write_only image1d_buffer_t out,
                              read_only image1d_buffer_t lut, write_only image1d_buffer_t codes,
                              read_write image1d_buffer_t rgba8, __global int *info) {
  int i = get_global_id(0);
  int n = get_image_width(weights);
  float4 w = read_imagef(weights, i);
  float4 v = read_imagef(weights, (i * 5 + 3) % n);
  write_imagef(out, i, w * 0.75f - v);
  uint4 code = read_imageui(lut, n - 1 - i);
  write_imagei(codes, i, as_int4(code >> 3u) - (int4)(i, 1, 2, 3));
  float4 px = read_imagef(rgba8, i);
  write_imagef(rgba8, i, px.wzyx * 0.5f);
  if (i == 0) {
    info[0] = get_image_width(out) + get_image_width(lut) * 1000;
    info[1] = get_image_channel_data_type(weights);
    info[2] = get_image_channel_order(lut);
    info[3] = get_image_channel_data_type(rgba8) * 100 + get_image_width(rgba8);
  }
}
