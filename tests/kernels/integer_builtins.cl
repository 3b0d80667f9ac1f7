//@exec integer_builtins global=64 out:i32[64] in:i32[64] out:u32[64] in:u32[64]
__kernel void integer_builtins(__global int *out, __global const int *x, __global uint *uout, __global const uint *ux) {
  size_t i = get_global_id(0);
  int v = x[i];
  uint u = ux[i];
  out[i] = abs(v) + max(v, 3) + min(v, -3) + clamp(v, -10, 10) + add_sat(v, v) + mul_hi(v, 7) + rotate(v, 3) +
           popcount(v) + clz(v) + hadd(v, 1) + mad24(v, 2, 3);
  uout[i] = max(u, 5u) + min(u, 9u) + abs_diff(u, 4u) + sub_sat(u, 10u) + upsample((ushort)u, (ushort)v);
}
