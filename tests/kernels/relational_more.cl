//@exec relational_more global=64 out:i32[512] in:f32[64] in:f32[64] in:i32[64]
__kernel void relational_more(__global int *out, __global const float *x, __global const float *y, __global const int *z) {
  size_t i = get_global_id(0);
  float a = x[i], b = y[i];
  float q = i % 4 == 0 ? a / 0.0f : (i % 4 == 1 ? 0.0f / 0.0f : a * 1e-39f);
  __global int *o = out + 8 * i;
  o[0] = isfinite(q) + isnormal(q) * 2 + isinf(q) * 4 + isnan(q) * 8;
  o[1] = islessgreater(a, b) + isunordered(q, b) * 2 + isordered(a, q) * 4;
  o[2] = isgreaterequal(a, b) + islessequal(a, b) * 2 + isnotequal(q, q) * 4;
  o[3] = signbit(b) + any(z[i]) * 2 + all(z[i]) * 4;
  int4 v = (int4)(z[i], -z[i], a > 0, 0);
  o[4] = any(v) + all(v) * 2 + any(v.xy) * 4 + all(v.zw) * 8;
  o[5] = as_int(bitselect(a, b, as_float(z[i])));
  float4 fv = (float4)(a, b, q, 1.0f);
  int4 r = isnan(fv) + isless(fv, fv.yzwx) + isfinite(fv);
  o[6] = r.x * 1000 + r.y * 100 + r.z * 10 + r.w;
  o[7] = select(z[i], (int)i, isgreater(a, b));
}
