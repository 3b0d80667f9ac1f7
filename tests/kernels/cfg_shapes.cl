//@exec cfg_shapes global=32 in:i32[32]=0..200 out:i32[128]
// Control flow real kernels have (issue: trust, item 5): an irreducible loop made with goto
// (two entries), a switch of 50 cases with fall-through (a lookup table at -O2), a call chain
// twelve deep.
int irreducible(int a, int n) {
  int s = 0;
  if (a & 1)
    goto B;
A:
  s += 3 + n;
  if (--n <= 0)
    goto E;
B:
  s ^= n * 7;
  if (n-- > 0 && (s & 4))
    goto A;
  if (n > 0)
    goto B;
E:
  return s;
}
int big_switch(int x) {
  int r = x;
  switch (x) {
  case 0:
    return r + 0;
  case 1:
    return r + 761;
  case 2:
    return r + 522;
  case 4:
    r += 44;
    /* falls through */
  case 5:
    return r + 805;
  case 6:
    return r + 566;
  case 7:
    return r + 327;
  case 8:
    return r + 88;
  case 9:
    r += 849;
    /* falls through */
  case 11:
    return r + 371;
  case 12:
    return r + 132;
  case 13:
    return r + 893;
  case 14:
    r += 654;
    /* falls through */
  case 15:
    return r + 415;
  case 16:
    return r + 176;
  case 18:
    return r + 698;
  case 19:
    r += 459;
    /* falls through */
  case 20:
    return r + 220;
  case 21:
    return r + 981;
  case 22:
    return r + 742;
  case 23:
    return r + 503;
  case 25:
    return r + 25;
  case 26:
    return r + 786;
  case 27:
    return r + 547;
  case 28:
    return r + 308;
  case 29:
    r += 69;
    /* falls through */
  case 30:
    return r + 830;
  case 32:
    return r + 352;
  case 33:
    return r + 113;
  case 34:
    r += 874;
    /* falls through */
  case 35:
    return r + 635;
  case 36:
    return r + 396;
  case 37:
    return r + 157;
  case 39:
    r += 679;
    /* falls through */
  case 40:
    return r + 440;
  case 41:
    return r + 201;
  case 42:
    return r + 962;
  case 43:
    return r + 723;
  case 44:
    r += 484;
    /* falls through */
  case 46:
    return r + 6;
  case 47:
    return r + 767;
  case 48:
    return r + 528;
  case 49:
    r += 289;
    /* falls through */
  default:
    return -r;
  }
  return r * 2;
}
__attribute__((noinline)) int d1(int x) { return x * 3 + 1; }
__attribute__((noinline)) int d2(int x) { return d1(x ^ 2) + (x >> 2); }
__attribute__((noinline)) int d3(int x) { return d2(x ^ 3) + (x >> 3); }
__attribute__((noinline)) int d4(int x) { return d3(x ^ 4) + (x >> 4); }
__attribute__((noinline)) int d5(int x) { return d4(x ^ 5) + (x >> 0); }
__attribute__((noinline)) int d6(int x) { return d5(x ^ 6) + (x >> 1); }
__attribute__((noinline)) int d7(int x) { return d6(x ^ 7) + (x >> 2); }
__attribute__((noinline)) int d8(int x) { return d7(x ^ 8) + (x >> 3); }
__attribute__((noinline)) int d9(int x) { return d8(x ^ 9) + (x >> 4); }
__attribute__((noinline)) int d10(int x) { return d9(x ^ 10) + (x >> 0); }
__attribute__((noinline)) int d11(int x) { return d10(x ^ 11) + (x >> 1); }
__attribute__((noinline)) int d12(int x) { return d11(x ^ 12) + (x >> 2); }
__kernel void cfg_shapes(__global const int *x, __global int *o) {
  int i = get_global_id(0);
  int v = x[i];
  o[i] = irreducible(v, v & 15);
  o[i + 32] = big_switch(v % 53);
  o[i + 64] = d12(v);
  o[i + 96] = big_switch(v & 7) + irreducible(v >> 2, 5);
}
