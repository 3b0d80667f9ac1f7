//@exec printf_async global=32 local=16 in:f32[32] out:f32[32] local:f32[16]
__kernel void printf_async(__global const float *in, __global float *out, __local float *tile) {
  event_t e = async_work_group_copy(tile, in + get_group_id(0) * 16, 16, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = tile[get_local_id(0) & 15];
  prefetch(in, 16);
  if (get_global_id(0) == 0) printf("n=%d v=%f\n", 16, tile[0]);
}
