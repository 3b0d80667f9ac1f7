// 3x3 Gaussian blur through image objects: a sampler with clamp-to-edge addressing reads
// the neighbourhood, write_imagef stores the result (the image-object path of a filter).
//@bench gaussian_image global=2048,2048 local=16,16 img2d:ro:f32:2048x2048 img2d:wo:f32:2048x2048
//@bench-cpu gaussian_image global=256,256 local=16,16 img2d:ro:f32:256x256 img2d:wo:f32:256x256
__constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

__kernel void gaussian_image(__read_only image2d_t src, __write_only image2d_t dst) {
  const int2 p = (int2)(get_global_id(0), get_global_id(1));
  const float w[3] = {0.25f, 0.5f, 0.25f};
  float4 sum = (float4)(0.0f);
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      sum += w[dx + 1] * w[dy + 1] * read_imagef(src, smp, p + (int2)(dx, dy));
  write_imagef(dst, p, sum);
}
