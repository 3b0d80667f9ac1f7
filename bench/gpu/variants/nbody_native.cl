// nbody with native_rsqrt for rsqrt (bench/gpu/variants/README.md).
//@bench nbody_native global=16384 local=256 in:f32[65536]=-1..1 in:f32[65536]=-1..1 out:f32[65536] out:f32[65536] local:f32[1024] i32=16384 f32=0.01 f32=0.001
//@bench-cpu nbody_native global=2048 local=256 in:f32[8192]=-1..1 in:f32[8192]=-1..1 out:f32[8192] out:f32[8192] local:f32[1024] i32=2048 f32=0.01 f32=0.001
__kernel void nbody_native(__global const float4 *pos, __global const float4 *vel,
                    __global float4 *new_pos, __global float4 *new_vel, __local float4 *tile,
                    int n, float dt, float eps2) {
  const int i = get_global_id(0);
  const int lid = get_local_id(0), lsize = get_local_size(0);
  const float4 p = pos[i];
  float4 acc = (float4)(0.0f);
  for (int base = 0; base < n; base += lsize) {
    tile[lid] = pos[base + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < lsize; ++j) {
      const float4 q = tile[j];
      const float4 d = (float4)(q.xyz - p.xyz, 0.0f);
      const float inv = native_rsqrt(d.x * d.x + d.y * d.y + d.z * d.z + eps2);
      const float s = q.w * inv * inv * inv;
      acc += s * d;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float4 v = vel[i] + dt * acc;
  v.w = 0.0f;
  new_vel[i] = v;
  new_pos[i] = (float4)(p.xyz + dt * v.xyz, p.w);
}
