//@exec half_math global=64 out:f32[128] in:f32[64]=0.5..4
// Not run on PoCL: it implements the scalar half_* functions as header macros, so its kernel
// library has no `_Z8half_sinf` & co. and no SPIR binary calling them (clang's own included)
// links there (tests/exec/main.rs says so). The Intel tier runs it.
__kernel void half_math(__global float *out, __global const float *x) {
  size_t i = get_global_id(0);
  float v = x[i];
  out[2 * i] = half_sin(v) + half_cos(v) + half_exp(v) + half_log(v) + half_sqrt(v) + half_rsqrt(v);
  out[2 * i + 1] = half_recip(v) + half_divide(v, 3.0f) + half_powr(v, 1.5f) + half_tan(v * 0.1f) + half_exp2(v) +
                   half_log2(v) + half_exp10(v) + half_log10(v);
}
