//@exec remainders_wide global=256 out:u32[1024] out:i32[512] in:u32[256] in:u32[256] in:i32[256]=-300..300
// fmod, remainder, remquo, frexp and ldexp over the whole float range: operands built from
// random bits with a normal exponent (a device may flush subnormal operands), results
// compared as bits with every NaN made one. The last 16 work-items take the special
// operands instead: a finite, zero or infinite x against an infinite, zero or NaN y.
__constant uint special_x[4] = {0x40600000u, 0x80000000u, 0x7f800000u, 0xc0e80000u};
__constant uint special_y[4] = {0x7f800000u, 0xff800000u, 0x00000000u, 0x7fc00000u};

uint normal_bits(uint b) {
  uint e = clamp((b >> 23) & 0xffu, 1u, 254u);
  return (b & 0x807fffffu) | (e << 23);
}

uint bits_of(float r) { return isnan(r) ? 0x7fc00000u : as_uint(r); }

__kernel void remainders_wide(__global uint *out, __global int *iout, __global const uint *xb,
                              __global const uint *yb, __global const int *n) {
  size_t i = get_global_id(0);
  float x = as_float(normal_bits(xb[i]));
  // Every fourth divisor is near x, so that quotients are small too.
  float y = (i & 3) == 0 ? x * 0.37f : as_float(normal_bits(yb[i]));
  if (i >= 240) {
    x = as_float(special_x[i & 3]);  // 3.5, -0, +inf, -7.25
    y = as_float(special_y[(i >> 2) & 3]);  // +inf, -inf, +0, NaN
  }
  int q;
  out[4 * i] = bits_of(fmod(x, y));
  out[4 * i + 1] = bits_of(remainder(x, y));
  out[4 * i + 2] = bits_of(remquo(x, y, &q));
  iout[2 * i] = q;
  int e;
  float m = frexp(x, &e);
  out[4 * i + 3] = bits_of(m) ^ bits_of(ldexp(x, n[i]));
  iout[2 * i + 1] = e;
}
