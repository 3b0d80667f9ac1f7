//@exec helper_calls global=64 out:f32[64] in:f32[64] out:i32[64]
typedef struct { float lo, hi; } range_t;
static float lerp1(float a, float b, float t) { return a + (b - a) * t; }
range_t make_range(float v) { range_t r = {v - 1.0f, v + 1.0f}; return r; }
float width(range_t r) { return r.hi - r.lo; }
void store_pair(__global float *f, __global int *n, size_t i, float v) { f[i] = v; n[i] = (int)(v * 100.0f); }
int depth(int x) { return x <= 0 ? 0 : 1 + (x & 1); }
__kernel void helper_calls(__global float *out, __global const float *x, __global int *n) {
  size_t i = get_global_id(0);
  range_t r = make_range(x[i]);
  float v = lerp1(r.lo, r.hi, 0.25f) * width(r) + (float)depth((int)x[i]);
  store_pair(out, n, i, v);
}
