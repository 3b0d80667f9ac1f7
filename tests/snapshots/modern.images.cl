// OpenCL C 1.2 (build with -cl-std=CL1.2), written by spir-xlate.
#pragma OPENCL FP_CONTRACT OFF

__constant sampler_t sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

__kernel void images(read_only image2d_t src, write_only image2d_t dst, sampler_t s, __global int *dims) {
  uint conv = (uint)get_global_id(0u);
  uint2 vecinit = (uint2)0;
  vecinit.s0 = conv;
  uint conv2 = (uint)get_global_id(1u);
  uint2 vecinit3 = vecinit;
  vecinit3.s1 = conv2;
  float4 call4 = read_imagef(src, sampler, as_int2(vecinit3));
  float4 call5 = read_imagef(src, s, as_int2(vecinit3));
  write_imagef(dst, as_int2(vecinit3), call4 + call5);
  if ((conv == 0u) ? (conv2 == 0u) : false) {
    uint call9 = (uint)get_image_width(src);
    *(__global uint *)dims = call9;
    uint call10 = (uint)get_image_height(dst);
    ((__global uint *)dims)[1] = call10;
    uint2 call12 = (uint2)((uint)get_image_width(src), (uint)get_image_height(src));
    ((__global uint *)dims)[2] = (call12 * (uint2)(call12.s1, (uint)0)).s0;
    uint call14 = (uint)get_image_channel_order(src);
    ((__global uint *)dims)[3] = call14;
  }
}
