//@exec constant_tables global=64 out:f32[64] in:i32[64]=0..1000 out:i32[64]
__constant float coeff[8] = {0.5f, -1.25f, 2.0f, 3.5f, -0.75f, 1e-3f, 100.0f, -8.0f};
__constant int4 quads[3] = {(int4)(1, 2, 3, 4), (int4)(-5, 6, -7, 8), (int4)(9)};
__constant struct { short s; uchar u[3]; } mixed = {-12, {1, 2, 250}};
__constant char msg[] = "constant";
__kernel void constant_tables(__global float *out, __global const int *x, __global int *iout) {
  size_t i = get_global_id(0);
  int v = x[i];
  out[i] = coeff[v & 7] * v + coeff[(v >> 3) & 7];
  int4 q = quads[v % 3];
  iout[i] = q.x + q.y * q.z - q.w + mixed.s * mixed.u[v % 3] + msg[v & 7];
}
