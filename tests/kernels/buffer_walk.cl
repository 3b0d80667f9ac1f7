//@exec buffer_walk global=16 local=8 in:f32[256] in:i32[64] out:f32[48] out:i64[48] out:i32[64]
// C-style pointer walking over buffers, as code ported from the CPU is written: a loop from a
// begin to an end pointer, a search that returns how far it got (`hit - base`), pointers
// compared for equality and order, pointers stepped back (a stencil's left neighbour, a step
// the data decides). Under descriptors the pointers stay elements of their buffer and their
// order and distance are those of their element indices.

__global const float *find_first_above(__global const float *p, __global const float *end,
                                       float limit) {
  while (p != end && *p <= limit)
    p++;
  return p;
}

__kernel void buffer_walk(__global const float *samples, __global const int *keys,
                          __global float *sums, __global long *where,
                          __global int *flags) {
  int i = get_global_id(0);
  __global const float *begin = samples + i * 16;
  __global const float *end = begin + 16;
  float acc = 0.0f;
  for (__global const float *p = begin; p < end; p += 2)
    acc += *p;
  sums[i] = acc;
  __global const float *hit = find_first_above(begin, end, 12.0f);
  where[i] = hit - begin;
  where[16 + i] = (hit - samples) * 3;
  where[32 + i] = end - hit;
  sums[16 + i] = hit < end ? *hit : -1.0f;

  __global const int *k = keys + (i & 7) * 8;
  __global const int *last = k + 7;
  int state = (k <= last) | ((last > k) << 1) | ((k == keys) << 2) | ((last != k + 7) << 3);
  while (last > k && *last > *k)
    last--;
  flags[i] = state;
  flags[16 + i] = (int)(last - k);
  flags[32 + i] = (int)(&keys[63] - last) + (last >= keys + 8);
  flags[48 + i] = (int)((__global const int *)keys + 63 - k);

  __global const float *row = samples + 16 * (i & 7) + 8;
  __global const float *q = row - ((keys[i] & 7) + 1);
  sums[32 + i] = row[-1] + *q * 2.0f;
}
