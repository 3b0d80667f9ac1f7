//@exec math_builtins global=64 out:f32[64] in:f32[64]
__kernel void math_builtins(__global float *out, __global const float *x) {
  size_t i = get_global_id(0);
  float v = x[i];
  out[i] = sqrt(fabs(v)) + sin(v) * cos(v) + fma(v, v, 1.0f) + exp(v * 0.01f) + log1p(fabs(v)) +
           fmax(v, 0.5f) + fmin(v, 2.0f) + floor(v) + ceil(v) + pow(fabs(v), 0.5f) + native_sqrt(fabs(v)) +
           mad(v, 2.0f, 3.0f) + clamp(v, -1.0f, 1.0f) + mix(v, 1.0f, 0.25f) + step(0.0f, v) + sign(v);
}
