// A Poisson solver as a simulation code runs it: Jacobi sweeps of -∇²u = f on a square grid
// (Dirichlet boundary: the edge keeps its values), the two buffers swapped between sweeps,
// then the residual's squared norm by a two-pass reduction (work-group partial sums in
// local memory, then one work-group over the partials). Five kernels of one source, run in
// order on the same buffers; the grid's indexing and the stencil are shared helpers.
//@bench jacobi global=2048,2048 local=32,8 io:f32[4194304]=0..1 io:f32[4194304]=0..1 in:f32[4194304]=-1..1 i32=2048 f32=0.0001 f32=0.8
//@then jacobi global=2048,2048 local=32,8 arg:1 arg:0 arg:2 arg:3 arg:4 arg:5
//@then jacobi global=2048,2048 local=32,8 arg:0 arg:1 arg:2 arg:3 arg:4 arg:5
//@then jacobi global=2048,2048 local=32,8 arg:1 arg:0 arg:2 arg:3 arg:4 arg:5
//@then residual global=2048,2048 local=32,8 arg:0 arg:2 out:f32[4194304] arg:3 arg:4
//@then sum_squares global=262144 local=256 arg:6 out:f32[1024] local:f32[256] i32=4194304
//@then sum_squares global=256 local=256 arg:7 out:f32[1] local:f32[256] i32=1024
//@bench-cpu jacobi global=256,256 local=32,8 io:f32[65536]=0..1 io:f32[65536]=0..1 in:f32[65536]=-1..1 i32=256 f32=0.0001 f32=0.8
//@then jacobi global=256,256 local=32,8 arg:1 arg:0 arg:2 arg:3 arg:4 arg:5
//@then jacobi global=256,256 local=32,8 arg:0 arg:1 arg:2 arg:3 arg:4 arg:5
//@then jacobi global=256,256 local=32,8 arg:1 arg:0 arg:2 arg:3 arg:4 arg:5
//@then residual global=256,256 local=32,8 arg:0 arg:2 out:f32[65536] arg:3 arg:4
//@then sum_squares global=16384 local=256 arg:6 out:f32[64] local:f32[256] i32=65536
//@then sum_squares global=256 local=256 arg:7 out:f32[1] local:f32[256] i32=64

static int idx(int x, int y, int n) { return y * n + x; }

static bool interior(int x, int y, int n) { return x > 0 && y > 0 && x < n - 1 && y < n - 1; }

// The four neighbours' sum.
static float around(__global const float *u, int x, int y, int n) {
  return u[idx(x - 1, y, n)] + u[idx(x + 1, y, n)] + u[idx(x, y - 1, n)] +
         u[idx(x, y + 1, n)];
}

// One weighted Jacobi sweep: out = (1 - ω) u + ω (Σ neighbours + h² f) / 4.
__kernel void jacobi(__global const float *u, __global float *out, __global const float *f,
                     int n, float h2, float omega) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= n || y >= n)
    return;
  const int i = idx(x, y, n);
  if (!interior(x, y, n)) {
    out[i] = u[i];
    return;
  }
  const float jac = 0.25f * (around(u, x, y, n) + h2 * f[i]);
  out[i] = (1.0f - omega) * u[i] + omega * jac;
}

// r = f - A u with A the 5-point Laplacian over h²; zero on the boundary.
__kernel void residual(__global const float *u, __global const float *f, __global float *r,
                       int n, float h2) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= n || y >= n)
    return;
  const int i = idx(x, y, n);
  r[i] = interior(x, y, n) ? f[i] - (4.0f * u[i] - around(u, x, y, n)) / h2 : 0.0f;
}

// Each work-group's sum of squares of its slice (a grid-stride loop), by a tree in local
// memory: out[group].
__kernel void sum_squares(__global const float *v, __global float *out, __local float *part,
                          int n) {
  const int l = get_local_id(0);
  float s = 0.0f;
  for (int i = get_global_id(0); i < n; i += get_global_size(0))
    s += v[i] * v[i];
  part[l] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int w = get_local_size(0) / 2; w > 0; w >>= 1) {
    if (l < w)
      part[l] += part[l + w];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = part[0];
}
