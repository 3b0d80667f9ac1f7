//@exec control_flow global=64 out:i32[64] in:i32[64]=-100..100 i32=5
int helper(int x, int n) {
  int acc = 0;
  for (int k = 0; k < n; ++k) {
    switch (k ^ x) {
      case 0: acc += x; break;
      case 1: acc ^= k; break;
      case 2: acc -= 1; break;
      default: acc *= 3;
    }
  }
  return acc;
}
__kernel void control_flow(__global int *out, __global const int *x, int n) {
  size_t i = get_global_id(0);
  out[i] = x[i] > 0 ? helper(x[i], n) : -helper(-x[i], n + 1);
}
