//@exec private_tables global=32 out:i32[96] in:i32[32]=0..1000
// Constant program data. In the legacy shapes (legacy_shape.py) these globals, named
// `private_*`, are in address space 0, where some SPIR 1.2 producers put string literals and
// `static const` tables (issue: trust, item 5).
__constant int private_primes[16] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};
__constant char private_name[24] = "spir-xlate private data";
__constant short private_pairs[4][2] = {{1, -1}, {2, -2}, {3, -3}, {4, -4}};
int lookup(__constant int *t, int i) { return t[i & 15]; }
int letter(__constant char *s, int i) { return s[i % 23]; }
__kernel void private_tables(__global int *o, __global const int *x) {
  size_t i = get_global_id(0);
  int v = x[i];
  o[i] = lookup(private_primes, v) * v;
  o[i + 32] = letter(private_name, v + (int)i);
  o[i + 64] = private_pairs[v & 3][i & 1] + private_primes[i & 15];
}
