//@exec private_select global=64 local=1 out:f32[64] in:f32[256] in:u32[64]
// A pointer chosen between two private arrays (issue 32, item 1: a select of private
// pointers), then indexed and stepped. Run in work-groups of one: in larger ones the Intel
// runtime, the reference, vectorizes across work-items and then reads the selected array
// with the wrong stride (measured: its build of this source, of clang's SPIR and of our
// SPIR-V alike; lavapipe and PoCL give the source's result).
const float *pick(const float *a, const float *b, uint which) { return which ? a : b; }

__kernel void private_select(__global float *of, __global const float *in,
                             __global const uint *seeds) {
  int i = get_global_id(0);
  uint seed = seeds[i];
  float vals[8];
  for (int k = 0; k < 8; k++)
    vals[k] = in[(i * 4 + k) & 255];
  float other[8];
  for (int k = 0; k < 8; k++)
    other[k] = in[(i * 3 + k + 100) & 255] * 0.5f;
  const float *q = pick(vals, other, seed & 1);
  of[i] = q[(seed >> 1) & 7] + *(q + ((seed >> 4) & 7));
}
