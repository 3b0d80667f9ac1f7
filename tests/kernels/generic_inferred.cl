//@std CL2.0
//@exec generic_inferred global=64 local=16 out:f32[192] in:f32[64]=-100..100 local:f32[16]
// Generic pointers whose space the program determines (issue 32, item 4), written the way
// OpenCL C 2.0 code is: helpers that take unqualified pointers, called with global, local
// and private memory; a pointer walked through an array in a loop; a small "class" of a
// struct and functions on its pointer; get_fence and to_global/to_private of pointers whose
// space is known. Every call is specialized for its arguments' spaces for Vulkan.
typedef struct {
  float sum;
  float sq;
  int n;
} Stats;

void stats_add(Stats *s, float x) {
  s->sum += x;
  s->sq += x * x;
  s->n += 1;
}

float stats_mean(const Stats *s) { return s->n ? s->sum / s->n : 0.0f; }

float dot3(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

float walk_sum(const float *p, const float *end, int step) {
  float acc = 0.0f;
  for (; p < end; p += step)
    acc += *p;
  return acc;
}

void scale(float *p, int n, float by) {
  for (int i = 0; i < n; i++)
    p[i] *= by;
}

const float *pick(const float *a, int i) { return a + (i & 3); }

int fence_of(const float *p) { return get_fence(p); }

__kernel void generic_inferred(__global float *out, __global const float *in,
                               __local float *tile) {
  size_t i = get_global_id(0), l = get_local_id(0);
  tile[l] = in[i];
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  float priv[4] = {in[i], in[(i + 1) & 63], in[(i + 2) & 63], 1.5f};
  Stats s = {0.0f, 0.0f, 0};
  for (int k = 0; k < 4; k++)
    stats_add(&s, priv[k]);
  stats_add(&s, tile[(l + 3) & 15]);
  scale(priv, 4, 0.5f);
  float d1 = dot3(priv, &tile[l & 12]);
  float d2 = dot3(&in[i & 60], priv);
  float w1 = walk_sum(&in[0], &in[64], (int)(i & 7) + 1);
  float w2 = walk_sum(tile, tile + 16, 3);
  float w3 = walk_sum(priv, priv + 4, 2);
  float p1 = *pick(priv, (int)i) + *pick(&in[i & 60], (int)i) + *pick(&tile[l & 12], (int)l);
  // get_fence of a local or private pointer is any valid fence (the Intel runtime says
  // CLK_GLOBAL_MEM_FENCE for all three): only the global one is compared.
  int fences = fence_of(&in[i]);
  __global const float *g = to_global(&in[i]);
  float *pp = to_private(&priv[1]);
  out[i] = stats_mean(&s) + s.sq * 0.125f;
  out[64 + i] = d1 + d2 * 2.0f + w1 + w2 * 0.5f + w3;
  out[128 + i] = p1 + (float)fences + *g + *pp;
}
