//@exec math_special global=40 out:f32[2400] out:i32[160]
//@exec math_special_pairs global=1600 out:f32[33600] out:i32[1600]
// Every float math builtin of OpenCL C (section 6.12.2) at the inputs where libraries go
// wrong: signed zeros, subnormals (the smallest, the largest, one between), the smallest
// normal, numbers next to 1, integers and half-integers (poles and zeros of the pi
// functions, odd and even powers), the thresholds of exp's overflow and underflow, huge
// numbers, the largest finite, infinities and NaN. The second kernel takes every pair of
// them (and an integer of its own table for pown, rootn and ldexp). scripts/math_special.py
// rebuilds each argument from the tables and judges every result against the correctly
// rounded one (mpmath) and the special values OpenCL C prescribes (C99 Annex F and
// OpenCL C 1.2 section 7.5.1).
__constant uint SPECIAL[40] = {
    0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007fffffu, 0x80012345u,
    0x00800000u, 0x0d800000u, 0x1e3ce508u, 0x3dcccccdu, 0x3f000000u, 0xbf000000u,
    0x3f400000u, 0x3f7fffffu, 0x3f800000u, 0xbf800000u, 0x3f800001u, 0x3fc00000u,
    0x40000000u, 0xc0000000u, 0x40400000u, 0xc0400000u, 0x40490fdbu, 0x40900000u,
    0xc0900000u, 0x41200000u, 0xc2c80000u, 0x42b17218u, 0xc2ce8f5cu, 0x4b800000u,
    0xcb800001u, 0x501502f9u, 0x7149f2cau, 0xf149f2cau, 0x7f7fffffu, 0xff7fffffu,
    0x7f800000u, 0xff800000u, 0x7fc00000u, 0xbe99999au};

__constant int INTEGERS[40] = {0,   1,    -1,  2,   -2,   3,    -3,    4,    5,     -5,
                               7,   8,    -8,  10,  -10,  16,   31,    -31,  100,   -100,
                               127, -127, 128, 149, -149, 150,  -150,  200,  -200,  254,
                               255, 277,  -277, 1000, -1000, 1 << 20, -(1 << 20), 9, -9, 6};

__kernel void math_special(__global float *out, __global int *iout) {
  size_t i = get_global_id(0);
  float x = as_float(SPECIAL[i]);
  __global float *o = out + 60 * i;
  __global int *n = iout + 4 * i;
  o[0] = acos(x);
  o[1] = acosh(x);
  o[2] = acospi(x);
  o[3] = asin(x);
  o[4] = asinh(x);
  o[5] = asinpi(x);
  o[6] = atan(x);
  o[7] = atanh(x);
  o[8] = atanpi(x);
  o[9] = cbrt(x);
  o[10] = ceil(x);
  o[11] = cos(x);
  o[12] = cosh(x);
  o[13] = cospi(x);
  o[14] = erfc(x);
  o[15] = erf(x);
  o[16] = exp(x);
  o[17] = exp2(x);
  o[18] = exp10(x);
  o[19] = expm1(x);
  o[20] = fabs(x);
  o[21] = floor(x);
  float whole;
  o[22] = fract(x, &whole);
  o[23] = whole;
  int e;
  o[24] = frexp(x, &e);
  n[0] = e;
  o[25] = lgamma(x);
  int sign;
  o[26] = lgamma_r(x, &sign);
  n[1] = sign;
  o[27] = log(x);
  o[28] = log2(x);
  o[29] = log10(x);
  o[30] = log1p(x);
  o[31] = logb(x);
  o[32] = modf(x, &whole);
  o[33] = whole;
  o[34] = rint(x);
  o[35] = round(x);
  o[36] = rsqrt(x);
  o[37] = sin(x);
  float c;
  o[38] = sincos(x, &c);
  o[39] = c;
  o[40] = sinh(x);
  o[41] = sinpi(x);
  o[42] = sqrt(x);
  o[43] = tan(x);
  o[44] = tanh(x);
  o[45] = tanpi(x);
  o[46] = tgamma(x);
  o[47] = trunc(x);
  o[48] = half_cos(x);
  o[49] = half_exp(x);
  o[50] = half_exp2(x);
  o[51] = half_exp10(x);
  o[52] = half_log(x);
  o[53] = half_log2(x);
  o[54] = half_log10(x);
  o[55] = half_recip(x);
  o[56] = half_rsqrt(x);
  o[57] = half_sin(x);
  o[58] = half_sqrt(x);
  o[59] = half_tan(x);
  n[2] = ilogb(x);
  n[3] = isnan(nan(SPECIAL[i] & 0x3fffffu)) ? 1 : 0;
}

__kernel void math_special_pairs(__global float *out, __global int *iout) {
  size_t i = get_global_id(0);
  float x = as_float(SPECIAL[i % 40]), y = as_float(SPECIAL[i / 40]);
  float z = as_float(SPECIAL[(i % 40 + 3 * (i / 40)) % 40]);
  int k = INTEGERS[i / 40];
  __global float *o = out + 21 * i;
  o[0] = atan2(x, y);
  o[1] = atan2pi(x, y);
  o[2] = copysign(x, y);
  o[3] = fdim(x, y);
  o[4] = fmax(x, y);
  o[5] = fmin(x, y);
  o[6] = fmod(x, y);
  o[7] = hypot(x, y);
  o[8] = ldexp(x, k);
  o[9] = maxmag(x, y);
  o[10] = minmag(x, y);
  o[11] = nextafter(x, y);
  o[12] = pow(x, y);
  o[13] = pown(x, k);
  o[14] = powr(x, y);
  o[15] = remainder(x, y);
  int q;
  o[16] = remquo(x, y, &q);
  iout[i] = q;
  o[17] = rootn(x, k);
  o[18] = fma(x, y, z);
  o[19] = half_divide(x, y);
  o[20] = half_powr(x, y);
}
