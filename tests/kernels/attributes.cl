//@exec attributes global=32,4 local=8,4 out:f32[128] in:f32[128] local:f32[128]
__attribute__((reqd_work_group_size(8, 4, 1))) __attribute__((work_group_size_hint(8, 4, 1)))
__attribute__((vec_type_hint(float4)))
__kernel void attributes(__global float4 *out, __constant float4 *in, __local float4 *scratch) {
  size_t l = get_local_id(0) + get_local_size(0) * get_local_id(1);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[l] * 2.0f;
}
