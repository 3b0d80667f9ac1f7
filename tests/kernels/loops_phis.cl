//@exec loops_phis global=64 out:i32[128] in:i32[64]=0..40 i32=7
__kernel void loops_phis(__global int *out, __global const int *x, int k) {
  size_t i = get_global_id(0);
  int n = x[i], a = 0, b = 1, steps = 0;
  for (int j = 0; j < n; ++j) {
    int t = a + b;
    a = b;
    b = t;
  }
  int m = n + 27;
  while (m != 1 && steps < 200) {
    m = (m & 1) ? 3 * m + 1 : m / 2;
    ++steps;
  }
  int acc = 0;
  do {
    if (acc % 5 == 3) { acc += 2; continue; }
    if (acc > 90) break;
    acc += k;
  } while (acc < 100);
  out[2 * i] = a ^ steps;
  out[2 * i + 1] = acc;
}
