//@exec image_normalized global=19,11 img2d:ro:f32:13x7 out:f32[6688]
// Sampling at normalized coordinates, as resampling and texture code computes them: texel
// centres ((x + 0.5) / w), a destination grid scaled onto a source of another size, and
// points a fraction into a texel, under each literal sampler of nearest and linear
// filtering with clamp, clamp-to-edge and no addressing (coordinates kept inside the image
// there, and under linear filtering away from the border, whose texels beyond the image no
// addressing leaves undefined), and nearest with repeat and mirrored repeat; also exact
// texel edges (x / w: x·w rounds back to x, or a hair below it, as OpenCL computes it). The
// image is 13x7, the grid 19x11.
__constant sampler_t n_edge = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__constant sampler_t n_clamp = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
__constant sampler_t n_none = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;
__constant sampler_t n_rep = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
__constant sampler_t n_mir = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_NEAREST;
__constant sampler_t l_edge = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
__constant sampler_t l_clamp = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
__constant sampler_t l_none = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_NONE | CLK_FILTER_LINEAR;

__kernel void image_normalized(read_only image2d_t src, __global float4 *out) {
  int x = get_global_id(0), y = get_global_id(1);
  int gw = get_global_size(0), gh = get_global_size(1);
  float w = get_image_width(src), h = get_image_height(src);
  __global float4 *o = out + 8 * (y * gw + x);
  // The destination pixel's centre mapped onto the source (a resize).
  float2 resize = (float2)((x + 0.5f) / gw, (y + 0.5f) / gh);
  // A texel centre of the source (the grid wraps around it), and a point 0.3 into it.
  int sx = x % 13, sy = y % 7;
  float2 centre = (float2)((sx + 0.5f) / w, (sy + 0.5f) / h);
  float2 inside = (float2)((sx + 0.3f) / w, (sy + 0.8f) / h);
  float2 edge = (float2)(sx / w, sy / h);
  // Points whose linear footprint stays inside the image.
  int ix = 1 + x % 11, iy = 1 + y % 5;
  float2 core = (float2)((ix + 0.3f) / w, (iy + 0.8f) / h);
  // Beyond the image on both sides (for the addressing modes that define it).
  float2 beyond = (float2)(x * 0.11f - 0.6f, y * 0.17f - 0.4f);
  o[0] = read_imagef(src, n_edge, resize) + read_imagef(src, n_edge, beyond) * 2.0f +
         read_imagef(src, n_edge, edge) * 4.0f;
  o[1] = read_imagef(src, n_clamp, inside) + read_imagef(src, n_clamp, beyond) * 2.0f +
         read_imagef(src, n_clamp, edge) * 4.0f;
  o[2] = read_imagef(src, n_none, centre) + read_imagef(src, n_none, resize) * 2.0f;
  o[3] = read_imagef(src, n_rep, beyond) + read_imagef(src, n_rep, centre + 1.0f) * 2.0f;
  o[4] = read_imagef(src, n_mir, beyond) + read_imagef(src, n_mir, inside) * 2.0f;
  o[5] = read_imagef(src, l_edge, resize) + read_imagef(src, l_edge, beyond) * 2.0f;
  o[6] = read_imagef(src, l_clamp, inside) + read_imagef(src, l_clamp, beyond) * 2.0f;
  o[7] = read_imagef(src, l_none, core);
}
