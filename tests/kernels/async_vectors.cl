//@exec async_vectors global=32 local=8 in:f32[128] out:f32[128] in:u8[128]
__kernel void async_vectors(__global const float4 *in, __global float4 *out, __global const uchar4 *b) {
  __local float4 t[8];
  __local uchar4 u[8];
  size_t g = get_group_id(0), l = get_local_id(0);
  event_t e = async_work_group_copy(t, in + g * 8, 8, 0);
  e = async_work_group_copy(u, b + g * 8, 8, e);
  wait_group_events(1, &e);
  out[get_global_id(0)] = t[7 - l] + convert_float4(u[l]);
  prefetch(b + g * 8, 8);
}
