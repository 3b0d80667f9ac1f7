// Buffers promised not to alias (`restrict`), as tuned libraries write them: a separable
// blur's row pass, a matrix-vector product, and an in-place update through a restrict
// pointer that the kernel both reads and writes.
//@exec blur_rows global=16,4 in:f32[64]=0..1 out:f32[64] i32=16 f32=0.25
//@exec gemv global=8 in:f32[64]=-1..1 in:f32[8]=-1..1 out:f32[8] i32=8
//@exec axpy_inplace global=32 in:f32[32]=-2..2 io:f32[32]=-2..2 f32=1.5

__kernel void blur_rows(__global const float *restrict src, __global float *restrict dst,
                        int width, float edge) {
  int x = get_global_id(0);
  int y = get_global_id(1);
  const __global float *row = src + y * width;
  float left = x > 0 ? row[x - 1] : edge;
  float right = x + 1 < width ? row[x + 1] : edge;
  dst[y * width + x] = 0.25f * left + 0.5f * row[x] + 0.25f * right;
}

__kernel void gemv(__global const float *restrict a, __global const float *restrict v,
                   __global float *restrict out, int n) {
  int row = get_global_id(0);
  float sum = 0.0f;
  for (int k = 0; k < n; ++k)
    sum = fma(a[row * n + k], v[k], sum);
  out[row] = sum;
}

__kernel void axpy_inplace(__global const float *restrict x, __global float *restrict y,
                           float alpha) {
  size_t i = get_global_id(0);
  y[i] = alpha * x[i] + y[i];
}
