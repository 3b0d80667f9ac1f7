//@exec async_strided global=64 local=16 in:f32[256] out:f32[256] out:i32[64]
__kernel void async_strided(__global const float *in, __global float *out, __global int *iout) {
  __local float tile[64];
  __local int itile[16];
  size_t grp = get_group_id(0), l = get_local_id(0);
  event_t e1 = async_work_group_strided_copy(tile, in + grp * 64, 16, 4, 0);
  event_t e2 = async_work_group_copy(tile + 16, in + grp * 64 + 1, 48, e1);
  wait_group_events(1, &e2);
  tile[l] = tile[l] * 2.0f + tile[63 - l];
  itile[l] = (int)tile[l + 16];
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e3 = async_work_group_strided_copy(out + grp * 64, tile, 32, 2, 0);
  event_t e4 = async_work_group_copy((__global int *)iout + grp * 16, itile, 16, 0);
  event_t ev[2] = {e3, e4};
  wait_group_events(2, ev);
  prefetch(in + grp * 64, 64);
}
