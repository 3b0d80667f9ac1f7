// Application-shaped program: an iterative solver, as a numerical library runs one on the
// GPU: make the system diagonally dominant, four Jacobi sweeps ping-ponging between two
// vectors, then the squared norm of the residual in two passes (a sum per work-group in
// local memory, then one over the groups). The row product is one helper for the sweep
// and the residual; the pass sizes come from a table in constant memory.
//
//@exec make_dominant global=32 local=32 io:f32[1024]=-1..1 i32=32
//@then jacobi_sweep global=32 local=8 arg:0 in:f32[32]=-4..4 io:f32[32]=0..0 out:f32[32] i32=32
//@then jacobi_sweep global=32 local=8 arg:0 arg:2 arg:4 arg:3 arg:5
//@then jacobi_sweep global=32 local=8 arg:0 arg:2 arg:3 arg:4 arg:5
//@then jacobi_sweep global=32 local=8 arg:0 arg:2 arg:4 arg:3 arg:5
//@then residual_parts global=32 local=8 arg:0 arg:2 arg:3 out:f32[4] local:f32[8] arg:5
//@then sum_parts global=1 local=1 arg:6 out:f32[1] i32=0

// The sizes of the passes, by pass.
__constant int pass_sizes[2] = {4, 1};

static float row_times(__global const float *a, __global const float *x, int row, int n,
                       int skip) {
  float s = 0.0f;
  for (int j = 0; j < n; j++)
    if (j != skip)
      s += a[row * n + j] * x[j];
  return s;
}

// a[i][i] = n + |a[i][i]|: each row's diagonal outweighs the rest of it.
__kernel void make_dominant(__global float *a, int n) {
  int i = get_global_id(0);
  if (i < n)
    a[i * n + i] = (float)n + fabs(a[i * n + i]);
}

// x_new[i] = (b[i] - sum over j != i of a[i][j] x_old[j]) / a[i][i].
__kernel void jacobi_sweep(__global const float *a, __global const float *b,
                           __global const float *x_old, __global float *x_new, int n) {
  int i = get_global_id(0);
  if (i < n)
    x_new[i] = (b[i] - row_times(a, x_old, i, n, -1) + a[i * n + i] * x_old[i]) / a[i * n + i];
}

// Each work-group's sum of (b - A x)^2 over its rows.
__kernel void residual_parts(__global const float *a, __global const float *b,
                             __global const float *x, __global float *parts,
                             __local float *scratch, int n) {
  int i = get_global_id(0), l = get_local_id(0);
  float r = i < n ? b[i] - row_times(a, x, i, n, -1) : 0.0f;
  scratch[l] = r * r;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s)
      scratch[l] += scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    parts[get_group_id(0)] = scratch[0];
}

__kernel void sum_parts(__global const float *parts, __global float *total, int pass) {
  float s = 0.0f;
  for (int g = 0; g < pass_sizes[pass]; g++)
    s += parts[g];
  total[0] = s;
}
