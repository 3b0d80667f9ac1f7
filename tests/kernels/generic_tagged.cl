//@std CL2.0
//@exec generic_tagged global=64 local=16 out:f32[256] out:i32[128] in:f32[128]=-8..8 local:f32[64]
// Generic pointers whose space depends on the run, as OpenCL C 2.0 code writes them: an
// accumulator that is a private scratch row for some work-items and a row of the output
// for others, handed to helpers that walk it; a source that is a local tile or the global
// input; a counter that is global or local; pointers compared and stepped.
float dot4(const float *a, const float *b) {
  float s = 0.0f;
  for (int k = 0; k < 4; k++)
    s += a[k] * b[k];
  return s;
}

void axpy(float *y, const float *x, float alpha, int n) {
  for (int k = 0; k < n; k++)
    y[k] = fma(alpha, x[k], y[k]);
}

int bump(atomic_int *counter, int by) {
  return atomic_fetch_add_explicit(counter, by, memory_order_relaxed);
}

__kernel void generic_tagged(__global float *out, __global int *counts, __global const float *in,
                             __local float *tile) {
  int g = get_global_id(0), l = get_local_id(0);
  __local atomic_int hits;
  if (l == 0)
    atomic_init(&hits, 0);
  for (int k = 0; k < 4; k++)
    tile[l * 4 + k] = in[(g * 2 + k) & 127];
  work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  float scratch[4] = {1.0f, 2.0f, 3.0f, (float)l};
  // Private for even work-items, global for odd ones.
  float *acc = (g & 1) ? (float *)&out[64 + 2 * g] : (float *)scratch;
  const float *src = (g & 2) ? (const float *)&tile[l * 4] : (const float *)&in[g];
  if (g & 1) {
    for (int k = 0; k < 4; k++)
      acc[k] = (float)k;
  }
  if ((g & 1) == 0 || (g & 3) == 1)
    axpy(acc, src, 0.5f, 4);
  float d = dot4(acc, src);
  const float *far = acc + 3;
  int same = (far - acc) == 3 && acc != (float *)src;
  atomic_int *counter = (g & 4) ? (atomic_int *)&counts[g & 7] : (atomic_int *)&hits;
  int before = bump(counter, 1 + (g & 1));
  work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if ((g & 1) == 0)
    out[g] = d + *far;
  counts[8 + g] = same + (before >= 0 ? 2 : 0);
  if (l == 0)
    counts[80 + g / 16] = atomic_load(&hits);
}
