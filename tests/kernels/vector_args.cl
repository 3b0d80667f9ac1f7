//@exec vector_args global=16 out:f32[64] in:f32[64] f32=1.5,-2,0.25,4 i32=3,-1
__attribute__((vec_type_hint(float4))) __attribute__((work_group_size_hint(16, 1, 1)))
__kernel void vector_args(__global float4 *out, __global const float4 *in, float4 scale, int2 shift) {
  size_t i = get_global_id(0);
  out[i] = in[(i + shift.x) & 15] * scale + (float4)(shift.y);
}
