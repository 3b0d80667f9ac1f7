// Application-shaped program: dense linear algebra the way a BLAS-like library ships it.
// One program, several kernels with argument lists of different lengths (so that anything
// a module shares lands under each kernel's own arguments), a helper shared by kernels,
// a tiled transpose with a required work-group size, and kernels run one after another on
// the same buffers: A' = A + u1 v1^T + u2 v2^T; x = beta A'^T y + z; w = alpha A' x;
// then T = A'^T and r = T w (which must equal A'^T w).
//
//@exec rank2_update global=32,32 local=8,8 io:f32[1024]=-1..1 in:f32[32]=-1..1 in:f32[32]=-1..1 in:f32[32]=-1..1 in:f32[32]=-1..1 i32=32
//@then transposed_mv global=32 local=8 arg:0 in:f32[32]=-1..1 out:f32[32] f32=1.5 i32=32
//@then add_vector global=32 local=8 arg:7 in:f32[32]=-1..1 i32=32
//@then mv global=32 local=8 arg:0 arg:7 out:f32[32] f32=0.75 i32=32
//@then transpose_tiled global=32,32 local=16,16 arg:0 out:f32[1024] i32=32
//@then mv global=32 local=8 arg:15 arg:12 out:f32[32] f32=1.0 i32=32
//@then transposed_mv global=32 local=8 arg:0 arg:12 out:f32[32] f32=1.0 i32=32

#define TILE 16

// A row of `a` times `x`: the helper every matrix-vector kernel calls.
static float dot_row(__global const float *a, __global const float *x, int n) {
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    s += a[j] * x[j];
  return s;
}

// A += u1 v1^T + u2 v2^T.
__kernel void rank2_update(__global float *a, __global const float *u1,
                           __global const float *v1, __global const float *u2,
                           __global const float *v2, int n) {
  int i = get_global_id(1);
  int j = get_global_id(0);
  if (i < n && j < n)
    a[i * n + j] = a[i * n + j] + u1[i] * v1[j] + u2[i] * v2[j];
}

// x = beta * A^T y (column walk).
__kernel void transposed_mv(__global const float *a, __global const float *y,
                            __global float *x, float beta, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    s += a[j * n + i] * y[j];
  x[i] = x[i] + beta * s;
}

// x += z.
__kernel void add_vector(__global float *x, __global const float *z, int n) {
  int i = get_global_id(0);
  if (i < n)
    x[i] += z[i];
}

// w = alpha * A x.
__kernel void mv(__global const float *a, __global const float *x,
                 __global float *w, float alpha, int n) {
  int i = get_global_id(0);
  if (i < n)
    w[i] = alpha * dot_row(a + i * n, x, n);
}

// out = in^T through a tile of local memory (padded against bank conflicts).
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void transpose_tiled(__global const float *in, __global float *out, int n) {
  __local float tile[TILE][TILE + 1];
  int gx = get_group_id(0) * TILE, gy = get_group_id(1) * TILE;
  int lx = get_local_id(0), ly = get_local_id(1);
  if (gy + ly < n && gx + lx < n)
    tile[ly][lx] = in[(gy + ly) * n + gx + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (gx + ly < n && gy + lx < n)
    out[(gx + ly) * n + gy + lx] = tile[lx][ly];
}
