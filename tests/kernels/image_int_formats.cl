//@exec image_int_formats global=8,8 img2d:ro:i32:8x8 img2d:ro:u32:8x8 img2d:wo:i32:8x8 img2d:wo:u32:8x8 sampler:U:none:nearest
__kernel void image_int_formats(read_only image2d_t si, read_only image2d_t su, write_only image2d_t di,
                                write_only image2d_t du, sampler_t s) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  int4 a = read_imagei(si, s, p);
  uint4 b = read_imageui(su, s, p.yx);
  int4 c = read_imagei(si, p.yx);
  write_imagei(di, p, a - c + (int4)get_image_channel_data_type(si));
  write_imageui(du, p, b * 2u + read_imageui(su, p) + (uint4)get_image_channel_order(su));
}
