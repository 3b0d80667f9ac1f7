//@exec image_float_coords global=16,16 img2d:ro:f32:16x16 img2d:wo:f32:16x16 sampler:N:repeat:nearest sampler:U:clamp:linear
__kernel void image_float_coords(read_only image2d_t src, write_only image2d_t dst, sampler_t norm, sampler_t lin) {
  int x = get_global_id(0), y = get_global_id(1);
  float2 uv = (float2)((x + 0.5f) / 16.0f, (y + 0.5f) / 16.0f);
  float4 a = read_imagef(src, norm, uv * 1.5f);
  float4 b = read_imagef(src, lin, (float2)(x + 0.25f, y - 0.75f));
  write_imagef(dst, (int2)(x, y), a * 0.5f + b);
}
