// Tiled single-precision matrix multiply, C = alpha * A * B + beta * C, row-major, as BLAS-like
// libraries write their first OpenCL kernel: 16x16 tiles of A and B staged in local memory.
//@bench sgemm_tiled global=1024,1024 local=16,16 io:f32[1048576]=-1..1 in:f32[1048576]=-1..1 in:f32[1048576]=-1..1 i32=1024 f32=1.5 f32=0.5
//@bench-cpu sgemm_tiled global=256,256 local=16,16 io:f32[65536]=-1..1 in:f32[65536]=-1..1 in:f32[65536]=-1..1 i32=256 f32=1.5 f32=0.5
#define TILE 16

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void sgemm_tiled(__global float *C, __global const float *A, __global const float *B, int n,
                 float alpha, float beta) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int col = get_group_id(0) * TILE + tx;
  const int row = get_group_id(1) * TILE + ty;
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    As[ty][tx] = A[row * n + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = alpha * acc + beta * C[row * n + col];
}
