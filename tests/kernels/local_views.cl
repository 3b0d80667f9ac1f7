//@exec local_views global=64 local=16 out:f32[64] out:u32[64] in:f32[256] local:f32[64]
// Local memory through pointers of other types (issue 32, item 1), as tiled kernels use it:
// a float tile read as float4 vectors, a pointer walking the tile past its element, bytes
// of the tile written by different work-items (four writers to each word), the same memory
// read back as words.
__kernel void local_views(__global float *of, __global uint *ou, __global const float *in,
                          __local float *tile) {
  int g = get_global_id(0), l = get_local_id(0);
  for (int k = 0; k < 4; k++)
    tile[l * 4 + k] = in[(g * 4 + k) & 255];
  barrier(CLK_LOCAL_MEM_FENCE);
  __local float4 *v = (__local float4 *)tile;
  float4 s = v[l] + v[15 - l];
  float acc = 0.0f;
  for (__local float *p = tile + l; p < tile + 64; p += 16)
    acc += *p;
  of[g] = s.x + s.y * 2.0f + s.z * 3.0f + s.w * 4.0f + acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  __local uchar *bytes = (__local uchar *)tile;
  bytes[l] = (uchar)(g * 7 + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  __local uint *words = (__local uint *)tile;
  ou[g] = words[l & 3] ^ (uint)bytes[15 - l];
}
