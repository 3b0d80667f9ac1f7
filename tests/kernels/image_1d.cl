//@exec image_1d global=32 img1d:ro:f32:32 img1d:wo:f32:32 out:i32[1]
__kernel void image_1d(read_only image1d_t src, write_only image1d_t dst, __global int *w) {
  int x = get_global_id(0);
  float4 v = read_imagef(src, (x * 7) & 31);
  write_imagef(dst, x, v * v);
  if (x == 0) w[0] = get_image_width(src) + get_image_width(dst) * 100;
}
