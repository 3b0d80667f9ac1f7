//@exec div_sqrt_wide global=4096 local=64 out:f32[4096] in:u32[4096] in:u32[4096]
//@exec roots_wide global=4096 local=64 out:f32[4096] out:f32[4096] in:u32[4096]
// Division of floats over every exponent: random bits (zeros, subnormals, infinities,
// NaNs), divisors beyond 2^126 and below 2^-126 where Vulkan's division is not bounded, and
// quotients that overflow or are subnormal.
__kernel void div_sqrt_wide(__global float *q, __global const uint *a, __global const uint *b) {
  const size_t i = get_global_id(0);
  float x = as_float(a[i]), y = as_float(b[i]);
  switch (i & 3) {
  case 0:
    break;
  case 1: // huge divisors
    y = as_float((b[i] & 0x807fffffu) | ((uint)(253 + b[i] % 2) << 23));
    break;
  case 2: // tiny and subnormal divisors
    y = as_float(b[i] & ((b[i] & 1) ? 0x807fffffu : 0x80ffffffu));
    break;
  default: // small dividends over large divisors: subnormal quotients
    x = as_float((a[i] & 0x807fffffu) | ((uint)(1 + a[i] % 40) << 23));
    y = as_float((b[i] & 0x807fffffu) | ((uint)(140 + b[i] % 40) << 23));
    break;
  }
  q[i] = x / y;
}

// sqrt (OpenCL: within 3 ulp) and rsqrt (2 ulp) of random bits and of every exponent,
// subnormals included.
__kernel void roots_wide(__global float *s, __global float *r, __global const uint *a) {
  const size_t i = get_global_id(0);
  const uint bits = (i & 1) ? a[i] : ((a[i] & 0x807fffffu) | ((uint)(a[i] % 256) << 23));
  s[i] = sqrt(as_float(bits));
  r[i] = rsqrt(as_float(bits));
}
