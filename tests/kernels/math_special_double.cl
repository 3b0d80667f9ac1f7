#pragma OPENCL EXTENSION cl_khr_fp64 : enable
//@exec math_special_double global=40 out:f64[1920] out:i32[160]
//@exec math_special_double_pairs global=1600 out:f64[30400] out:i32[1600]
// Every double math builtin of OpenCL C (section 6.12.2) at the inputs where libraries go
// wrong, as tests/kernels/math_special.cl for float: signed zeros, subnormals (the
// smallest, the largest, one between), the smallest normal, numbers next to 1, integers and
// half-integers, the thresholds of exp's overflow and underflow, 2^53 and past it, huge
// numbers, the largest finite, infinities and NaN; the second kernel takes every pair of
// them (and an integer of its own table for pown, rootn and ldexp, large odd ones among
// them). scripts/math_special.py judges every result against the correctly rounded one
// (mpmath) and the special values OpenCL C prescribes (C99 Annex F and OpenCL C 1.2
// section 7.5.1).
__constant ulong SPECIAL[40] = {
    0x0000000000000000UL, 0x8000000000000000UL, 0x0000000000000001UL, 0x8000000000000001UL,
    0x000FFFFFFFFFFFFFUL, 0x8001234567890ABCUL, 0x0010000000000000UL, 0x3BC79CA10C924223UL,
    0x3FB999999999999AUL, 0x3FE0000000000000UL, 0xBFE0000000000000UL, 0x3FE8000000000000UL,
    0x3FEFFFFFFFFFFFFFUL, 0x3FF0000000000000UL, 0xBFF0000000000000UL, 0x3FF0000000000001UL,
    0x3FF8000000000000UL, 0x4000000000000000UL, 0xC000000000000000UL, 0x4008000000000000UL,
    0xC008000000000000UL, 0x400921FB54442D18UL, 0x4012000000000000UL, 0xC012000000000000UL,
    0x4024000000000000UL, 0xC059000000000000UL, 0x40862E42FEFA39EFUL, 0xC0874910D52D3051UL,
    0x4340000000000000UL, 0xC340000000000001UL, 0x4415AF1D78B58C40UL, 0x7E37E43C8800759CUL,
    0xFE37E43C8800759CUL, 0x7FEFFFFFFFFFFFFFUL, 0xFFEFFFFFFFFFFFFFUL, 0x7FF0000000000000UL,
    0xFFF0000000000000UL, 0x7FF8000000000000UL, 0xBFD3333333333333UL, 0x01A56E1FC2F8F359UL};

__constant int INTEGERS[40] = {0,    1,     -1,    2,     -2,         3,         -3,   4,
                               5,    -5,    7,     8,     -8,         10,        -10,  16,
                               31,   -31,   100,   -100,  1023,       -1022,     1024, 1074,
                               -1074, 1075, -1075, 2000,  -2000,      2046,      2047, 4095,
                               -4095, 53,   -53,   1 << 20, 864109573, -864109573, 9,  -9};

__kernel void math_special_double(__global double *out, __global int *iout) {
  size_t i = get_global_id(0);
  double x = as_double(SPECIAL[i]);
  __global double *o = out + 48 * i;
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
  double whole;
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
  double c;
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
  n[2] = ilogb(x);
  n[3] = isnan(nan(SPECIAL[i] & 0x7ffffffffffffUL)) ? 1 : 0;
}


__kernel void math_special_double_pairs(__global double *out, __global int *iout) {
  size_t i = get_global_id(0);
  double x = as_double(SPECIAL[i % 40]), y = as_double(SPECIAL[i / 40]);
  double z = as_double(SPECIAL[(i % 40 + 3 * (i / 40)) % 40]);
  int k = INTEGERS[i / 40];
  __global double *o = out + 19 * i;
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
}
