//@exec fma_wide global=4096 local=64 out:f32[4096] in:u32[4096] in:u32[4096] in:u32[4096]
// fma(a, b, c) of floats over the shapes that decide a correct rounding: random bits at
// every exponent (zeros, subnormals, infinities and NaNs among them), a c that cancels the
// product exactly or nearly, products whose result is subnormal or near the largest float,
// exact ties, and subnormal operands.
float with_exponent(uint bits, int e) {
  return as_float((bits & 0x807fffffu) | ((uint)(e + 127) << 23));
}

__kernel void fma_wide(__global float *out, __global const uint *a, __global const uint *b,
                       __global const uint *c) {
  const size_t i = get_global_id(0);
  float x = as_float(a[i]), y = as_float(b[i]), z = as_float(c[i]);
  switch (i & 7) {
  case 0: // random bits
    break;
  case 1: // c cancels the rounded product: the result is the product's rounding error
    // (a normal product: a device may flush a subnormal one, which OpenCL allows for float)
    x = with_exponent(a[i], (int)(a[i] % 100) - 50);
    y = with_exponent(b[i], (int)(b[i] % 100) - 50);
    z = -(x * y);
    break;
  case 2: // c nearly cancels it
    x = with_exponent(a[i], (int)(a[i] % 40) - 20);
    y = with_exponent(b[i], (int)(b[i] % 40) - 20);
    z = -(x * y) * (1.0f + (float)(c[i] % 64 - 32) * 0x1p-22f);
    break;
  case 3: // products and sums around the subnormal range
    x = with_exponent(a[i], -60 - (int)(a[i] % 20));
    y = with_exponent(b[i], -60 - (int)(b[i] % 20));
    z = with_exponent(c[i], -120 - (int)(c[i] % 30)) * ((c[i] & 1) ? 1.0f : 0x1p-20f);
    // A zero c: the product alone, rounded to a subnormal or to zero (below 2^-150).
    if ((c[i] & 0x70u) == 0)
      z = (c[i] & 8u) ? -0.0f : 0.0f;
    break;
  case 4: // products and sums near the largest float
    x = with_exponent(a[i], 60 + (int)(a[i] % 8));
    y = with_exponent(b[i], 60 + (int)(b[i] % 8));
    z = with_exponent(c[i], 120 + (int)(c[i] % 8));
    break;
  case 5: // exact ties: short significands, c half an ulp of the product away
    x = (float)(int)(a[i] % 4096 + 1) * 0x1p-6f;
    y = (float)(int)(b[i] % 4096 + 1) * 0x1p-6f;
    z = ldexp((c[i] & 2) ? 1.0f : -1.0f, ilogb(x * y) - 24) * ((c[i] & 4) ? 1.0f : 3.0f);
    break;
  case 6: // subnormal operands
    x = as_float(a[i] & 0x807fffffu);
    y = with_exponent(b[i], (int)(b[i] % 200) - 20);
    z = as_float(c[i] & 0x80ffffffu);
    break;
  default: // c far larger or far smaller than the product
    x = with_exponent(a[i], (int)(a[i] % 60) - 30);
    y = with_exponent(b[i], (int)(b[i] % 60) - 30);
    z = with_exponent(c[i], (c[i] & 1) ? 90 + (int)(c[i] % 30) : -90 - (int)(c[i] % 30));
    break;
  }
  out[i] = fma(x, y, z);
}
