//@exec private_bytes global=64 out:u32[320] in:f32[256] in:u32[64] out:u32[256]
// Byte views of private memory (issue 32, item 1), as hashing and serializing code writes
// them: an FNV-1a hash over the bytes of a float array and of a struct, `vload4` of bytes
// from a float array, unions read as other types, a pointer to a struct member, a private
// struct copied whole to a buffer of structs (a memcpy at -O0).
typedef struct {
  float x, y;
  int tag;
  char name[6];
} particle;

typedef struct {
  float x, y;
  int tag;
  uint hash;
} record;

uint fnv1a(const uchar *p, int n) {
  uint h = 2166136261u;
  for (int k = 0; k < n; k++) {
    h ^= p[k];
    h *= 16777619u;
  }
  return h;
}

__kernel void private_bytes(__global uint *ou, __global const float *in,
                            __global const uint *seeds, __global record *records) {
  int i = get_global_id(0);
  uint seed = seeds[i];
  float vals[8];
  for (int k = 0; k < 8; k++)
    vals[k] = in[(i * 4 + k) & 255];
  ou[i] = fnv1a((const uchar *)vals, sizeof(vals));
  const uchar *bytes = (const uchar *)vals;
  ou[64 + i] = bytes[13] ^ ((uint)bytes[22] << 3) ^ ((uint)bytes[31] << 11);
  uchar4 b4 = vload4(1, bytes);
  ou[128 + i] = b4.x + (b4.y << 8) + (b4.z << 16) + ((uint)b4.w << 24);

  particle a = {vals[0], vals[1], i, "abcde"};
  particle b = a;
  b.name[i & 3] = (char)('z' - (seed & 7));
  float *member = &b.y;
  *member += 1.0f;
  ou[192 + i] = fnv1a((const uchar *)&b, 18) ^ (uint)b.tag;
  record r = {b.x, b.y, b.tag, ou[192 + i]};
  records[i] = r;

  union {
    float f[2];
    ulong u;
    uchar c[8];
    ushort s[4];
  } un;
  un.f[0] = vals[6];
  un.f[1] = vals[7];
  un.s[1] ^= (ushort)seed;
  ou[256 + i] = (uint)(un.u >> 13) + un.c[5];
}
