//@exec large_args global=16 out:f32[256] out:i64[16] f32=1,-2,3.5,4,5,6,-7,8,9,10,11,12.25,13,14,15,-16 i64=1,2,3,4,5,6,7,8,9,10,11,12,13,14,-15,1099511627776 i32=3
// 196 bytes of values: more than the 128 bytes of push constants Vulkan promises, so a
// Vulkan module passes them in an argument buffer (ArgumentPodStorageBuffer).
__kernel void large_args(__global float *out, __global long *lout, float16 f, long16 l, int k) {
  int i = get_global_id(0);
  float16 v = f * (float)(i + k);
  vstore16(v, i, out);
  lout[i] = l.s0 * i + l.sf + l.se * k + l.s7;
}
