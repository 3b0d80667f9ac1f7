int helper(int x);
inline int twice(int x) { return 2 * x; }
float4 scale4(float4 v, float s);
__kernel void k(__global int *out, __global float4 *v) {
  int i = get_global_id(0);
  out[i] = helper(out[i]) + twice(i);
  v[i] = scale4(v[i], 2.0f);
}
