//@exec image_1d_sampled global=32 img1d:ro:f32:32 img1a:ro:f32:32x4 out:f32[644] sampler:U:clamp:nearest
// Sampled reads of 1D images and 1D image arrays: unnormalized integer and float coordinates
// through a sampler argument (the module divides them by the image's width) and through
// normalized and unnormalized sampler constants, clamped and repeated; the sizes too.
__constant sampler_t norm_repeat =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
__constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

__kernel void image_1d_sampled(read_only image1d_t a, read_only image1d_array_t b,
                               __global float4 *out, sampler_t s) {
  int i = get_global_id(0);
  out[i] = read_imagef(a, s, i * 3 - 5);
  out[32 + i] = read_imagef(a, s, (float)i * 1.25f - 2.0f);
  out[64 + i] = read_imagef(b, s, (int2)(i * 2 - 3, i & 3));
  out[96 + i] = read_imagef(a, norm_repeat, (float)i / 24.0f + 0.01f);
  out[128 + i] = read_imagef(b, edge, (float2)((float)i + 0.5f, (float)(i % 5)));
  if (i == 0)
    out[160] = (float4)(get_image_width(a), get_image_width(b), get_image_array_size(b), 0.0f);
}
