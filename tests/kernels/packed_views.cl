//@exec packed_views global=32 local=16 in:u8[512] in:f16[256]=-8..8 in:f32[256] in:u16[128]=0..31743 out:u32[256] out:u8[512] out:f32[192] out:u16[128] out:f16[64]
// Buffers read as wider types than they hold, as hash functions, half-precision loaders and
// particle codes do: message bytes as 32- and 64-bit words, half data as packed integers,
// a float buffer as an array of structs, a ushort buffer as halves for vload_half, and a
// half buffer copied as ushorts into local memory. Under descriptors each wider value is
// assembled from the buffer's own elements, lowest first.

typedef struct {
  float2 pos;
  float2 vel;
  float mass;
  float charge;
} particle;

uint rotl(uint x, uint k) { return (x << k) | (x >> (32u - k)); }

__kernel void packed_views(__global const uchar *msg, __global const half *hdata,
                           __global const float *parts, __global const ushort *raw,
                           __global uint *digest, __global uchar *bytes_out,
                           __global float *parts_out, __global ushort *raw_out,
                           __global half *half_out) {
  int i = get_global_id(0);
  int l = get_local_id(0);

  // A hash round on the message as little-endian words.
  __global const uint *words = (__global const uint *)msg;
  uint h = 0x9e3779b9u ^ (uint)i;
  for (int k = 0; k < 4; k++) {
    h = rotl(h ^ words[i * 4 + k], 13) * 5u + 0xe6546b64u;
  }
  digest[i] = h;
  ulong wide = ((__global const ulong *)msg)[i + 16];
  digest[32 + i] = (uint)(wide >> 24);
  uint4 quad = vload4(i, words);
  digest[64 + i] = quad.x + quad.y * 3u + quad.z * 5u + quad.w * 7u;
  __global uint *out_words = (__global uint *)bytes_out;
  out_words[i] = h ^ words[127 - i];
  vstore2((uint2)(quad.w, quad.x), i + 32, out_words);

  // Half data as packed integers: four halves are an int2, two a float's bits.
  __global const int2 *packed = (__global const int2 *)hdata;
  int2 pk = packed[i];
  digest[96 + i] = (uint)(pk.x ^ pk.y);
  __global const uint *pairs = (__global const uint *)hdata;
  digest[128 + i] = pairs[i * 2 + 1] >> 3;

  // Particles on a float buffer: a struct view, read, stepped and written back.
  __global const particle *ps = (__global const particle *)parts;
  particle p = ps[i];
  p.pos += p.vel * 0.5f;
  p.vel *= p.charge / (p.mass + 2.0f);
  __global particle *qs = (__global particle *)parts_out;
  qs[i] = p;

  // A ushort buffer as halves for vload_half; a half buffer as ushorts into local memory.
  float4 hv = vload_half4(i, (__global const half *)raw);
  vstore_half4_rtz(hv * 1.5f, i, (__global half *)raw_out);
  __local ushort tile[32];
  event_t e = async_work_group_copy(tile, (__global const ushort *)hdata + get_group_id(0) * 32,
                                    32, 0);
  wait_group_events(1, &e);
  digest[160 + i] = tile[(l * 7) & 31] | ((uint)tile[31 - l] << 16);
  barrier(CLK_LOCAL_MEM_FENCE);
  tile[l] = tile[l] ^ 0x8000;
  tile[l + 16] = tile[l + 16];
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy((__global ushort *)half_out + get_group_id(0) * 32, tile, 32, 0);
  wait_group_events(1, &e);
}
