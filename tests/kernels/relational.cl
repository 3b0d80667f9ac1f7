//@exec relational global=64 out:i32[64] out:i32[256] in:f32[64] in:f32[256]
__kernel void relational(__global int *out, __global int4 *out4, __global const float *x, __global const float4 *y) {
  size_t i = get_global_id(0);
  out[i] = isnan(x[i]) + isinf(x[i]) * 2 + isequal(x[i], 1.0f) * 4 + signbit(x[i]) * 8 + any(isless(y[i], (float4)0.0f)) * 16 + all(isgreater(y[i], (float4)-1.0f)) * 32;
  out4[i] = isnotequal(y[i], (float4)0.5f) + isordered(y[i], y[i]);
}
