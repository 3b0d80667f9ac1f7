//@exec pixel_views global=16 local=8 in:u8[256] in:f32[128] in:u32[64] in:f32[64] out:u8[256] out:f32[128] out:u32[64] out:f32[64]
// An image filter written on raw buffers, as ports of CPU code are: RGBA pixels as bytes read
// and written four at a time through a `uchar4` pointer, a float plane stepped as `float2`
// pairs and `float3` texels (OpenCL lays a float3 out in 16 bytes), and bits of floats read
// through a `uint` pointer, and a `float4` tile buffer walked as floats. Under descriptors
// each cast is a view of the buffer's own elements.

__kernel void pixel_views(__global const uchar *rgba, __global const float *plane,
                          __global const uint *bits, __global const float4 *tiles,
                          __global uchar *out_rgba, __global float *out_plane,
                          __global uint *out_bits, __global float4 *out_tiles) {
  int i = get_global_id(0);
  __global const uchar4 *px = (__global const uchar4 *)rgba;
  uchar4 a = px[i], b = px[(i + 1) & 15], c = px[i + 16];
  uint4 sum = convert_uint4(a) + convert_uint4(b) * 2u + convert_uint4(c);
  __global uchar4 *opx = (__global uchar4 *)out_rgba;
  opx[i] = convert_uchar4_sat(sum >> 2);
  opx[i + 16] = a.wzyx;
  opx[i + 32] = (uchar4)(a.x, b.y, c.z, 255);
  opx[i + 48] = px[i + 48] ^ (uchar4)(0x5a);

  __global const float2 *pairs = (__global const float2 *)plane;
  float2 p = pairs[i] + pairs[i + 16];
  __global const float3 *texels = (__global const float3 *)plane;
  float3 t = texels[i & 7];
  __global float2 *opairs = (__global float2 *)out_plane;
  opairs[i] = p * 0.5f;
  opairs[i + 16] = (float2)(t.x + t.z, t.y);
  __global const float4 *quads = (__global const float4 *)(plane + 64);
  float4 q = quads[i & 7];
  out_plane[64 + i] = q.x - q.w + q.y * q.z;

  __global const float *as_float = (__global const float *)bits;
  float f = as_float[i];
  __global float *fout = (__global float *)out_bits;
  fout[i] = f * 2.0f;
  __global const uint *as_uint = (__global const uint *)(plane + 32);
  out_bits[16 + i] = as_uint[i] ^ 0x80000000u;
  out_bits[32 + i] = ((__global const uint2 *)bits)[i & 7].y;
  out_bits[48 + i] = (uint)(a.x | (b.y << 8));

  __global const float *flat = (__global const float *)tiles;
  float acc = 0.0f;
  for (int k = 0; k < 4; k++)
    acc += flat[i * 3 + k] * (float)(k + 1);
  __global float *oflat = (__global float *)out_tiles;
  oflat[63 - i] = acc;
  oflat[i * 2 + 1] = flat[(i * 5) & 63] - tiles[i & 15].y;
}
