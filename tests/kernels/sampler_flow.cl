//@exec sampler_flow global=8 img2d:ro:f32:8x8 sampler:U:clamp:nearest out:f32[32] i32=1
// Samplers that are not a constant or an argument where read_imagef uses them (issue: trust,
// item 5): copied into a variable, and chosen per work-item (at -O2 one read through a
// select of the two samplers, which SPIR-V cannot select between).
__kernel void sampler_flow(read_only image2d_t img, sampler_t s1, __global float *o, int pick) {
  sampler_t s = s1;
  const sampler_t cs = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
  int i = get_global_id(0);
  float4 a = read_imagef(img, s, (int2)(i, 0));
  int2 at = (int2)(i - 2, i + 3);
  float4 b = ((pick ^ i) & 1) ? read_imagef(img, cs, at) : read_imagef(img, s, at);
  o[i] = a.x + a.y;
  o[i + 8] = b.x;
  o[i + 16] = b.w;
  o[i + 24] = b.y - a.z;
}
