//@exec rounding_math global=64 out:f32[512] out:i32[128] in:f32[64]=-50..50
__kernel void rounding_math(__global float *out, __global int *iout, __global const float *x) {
  size_t i = get_global_id(0);
  float v = x[i];
  __global float *o = out + 8 * i;
  o[0] = rint(v) + round(v) * 2 + trunc(v) * 4;
  o[1] = floor(v) - ceil(v);
  float ip;
  o[2] = fract(v, &ip) + ip * 3;
  float m;
  o[3] = modf(v, &m) - m;
  int e;
  o[4] = frexp(v, &e);
  iout[2 * i] = e;
  o[5] = ldexp(v, (int)i - 32);
  int q;
  o[6] = remquo(v, 3.25f, &q);
  iout[2 * i + 1] = q;
  o[7] = fmod(v, 3.25f) + remainder(v, 2.5f);
}
