//@exec private_walk global=64 out:f32[256] in:f32[256] in:u32[64]
// Private pointers walked (issue 32, item 1): a pointer stepped past the element it points
// to in a loop (a phi of pointers), a walk down from the end compared against the start,
// pointers stepped and written through, pointer differences.
float sum_every(const float *p, const float *end, int step) {
  float acc = 0.0f;
  while (p < end) {
    acc += *p;
    p += step;
  }
  return acc;
}

__kernel void private_walk(__global float *of, __global const float *in,
                           __global const uint *seeds) {
  int i = get_global_id(0);
  uint seed = seeds[i];
  float vals[8];
  for (int k = 0; k < 8; k++)
    vals[k] = in[(i * 4 + k) & 255];
  float other[8];
  for (int k = 0; k < 8; k++)
    other[k] = in[(i * 3 + k + 100) & 255] * 0.5f;
  of[i] = sum_every(vals, vals + 8, 2) + sum_every(vals + 1, vals + 8, 3);
  of[64 + i] = other[seed & 7];
  const float *hi = vals + 7, *lo = vals;
  while (hi > lo && *hi > 0.0f)
    hi--;
  of[128 + i] = (float)(hi - lo) + *hi;
  float steps[8];
  for (int k = 0; k < 8; k++)
    steps[k] = in[(i * 5 + k + 30) & 255];
  float *w = steps + (seed & 3);
  for (int k = 0; k < 4; k++)
    *w++ += 1.0f;
  of[192 + i] = steps[3] + steps[4] + (float)(w - steps);
}
