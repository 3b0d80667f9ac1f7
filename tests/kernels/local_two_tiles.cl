//@exec local_two_tiles global=32 local=8 out:f32[32] in:f32[64] local:f32[16] local:f32[16]
// Two __local arguments, one of them read through a float4 pointer: its local pointers
// need addresses, so in Vulkan both tiles share one Workgroup array of words, each at the
// offset the sizes the host gives the arguments before it say.
__kernel void local_two_tiles(__global float *out, __global const float *in, __local float *a,
                              __local float *b) {
  int g = get_global_id(0), l = get_local_id(0);
  a[l * 2] = in[g * 2];
  a[l * 2 + 1] = in[g * 2 + 1];
  b[l] = in[(g * 3) & 63];
  b[l + 8] = -in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  float4 v = ((__local float4 *)a)[l & 3];
  out[g] = v.x + v.y * 2.0f + v.z * 3.0f + v.w * 4.0f + b[15 - l];
}
