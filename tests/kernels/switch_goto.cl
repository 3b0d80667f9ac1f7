//@exec switch_goto global=64 out:i32[64] in:i32[64]=-3..20
int classify(int v) {
  switch (v) {
    case -3: case -2: return 100;
    case 0: return 7;
    case 1: v += 3; /* fallthrough */
    case 2: return v * 5;
    case 5: case 9: case 13: break;
    case 17: return -v;
    default: v = v * v;
  }
  return v + 1;
}
__kernel void switch_goto(__global int *out, __global const int *x) {
  size_t i = get_global_id(0);
  int r = 0;
  for (int k = 0; k < 4; ++k) {
    r += classify(x[i] + k);
    if (r > 500) goto done;
  }
  r *= 2;
done:
  out[i] = r;
}
