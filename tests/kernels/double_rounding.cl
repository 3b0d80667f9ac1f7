//@exec double_rounding global=64 out:f64[320] out:f32[320] in:f64[64]=-100000000..100000000 in:f32[64]=-1000..1000
// trunc, floor, ceil, rint and round of doubles up to 2^40 with fractions, and of floats.
// (lavapipe on 256-bit vectors returns doubles of 2^24 and above unchanged from
// GLSL.std.450 Trunc and RoundEven; the Vulkan target builds both from Floor and Ceil.)
__kernel void double_rounding(__global double *o, __global float *of, __global const double *x,
                              __global const float *y) {
  int i = get_global_id(0);
  double v = x[i] * (double)(1 << (i & 15)) / 7.0;
  o[i] = trunc(v);
  o[64 + i] = floor(v);
  o[128 + i] = ceil(v);
  o[192 + i] = rint(v);
  o[256 + i] = round(v) + rint(v * 0.25 + 0.5);
  float w = y[i] * 1.37f;
  of[i] = trunc(w);
  of[64 + i] = floor(w);
  of[128 + i] = ceil(w);
  of[192 + i] = rint(w);
  of[256 + i] = round(w) + rint(w * 0.5f + 0.5f);
}
