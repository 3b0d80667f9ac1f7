// Application-shaped program: stencils that step several times inside one launch, as
// thermal and dynamic-programming codes write them: a tile in local memory with a halo
// that shrinks by one cell each step (a pyramid), barriers inside the loop, and the loop
// left by `break` after the last step. Two launches of the heat step ping-pong between two
// buffers, the change between them is reduced (an atomic maximum of the bits of a
// non-negative float), and a minimal-cost path is found row band by row band.
//
//@exec heat_steps global=96,96 local=16,16 in:f32[4096]=0..1 io:f32[4096]=300..340 out:f32[4096] i32=64 i32=64 f32=0.25 f32=0.1 f32=0.1 f32=0.05 f32=300.0 i32=2
//@then heat_steps global=96,96 local=16,16 arg:0 arg:2 arg:1 arg:3 arg:4 arg:5 arg:6 arg:7 arg:8 arg:9 arg:10
//@then largest_change global=4096 local=64 arg:1 arg:2 out:u32[1] local:f32[64] i32=4096
//@then path_band global=128 local=16 in:i32[4096]=0..9 io:i32[64]=0..9 out:i32[64] i32=64 i32=1 i32=4
//@then path_band global=128 local=16 arg:14 arg:16 arg:15 arg:17 i32=5 arg:19

#define BLOCK 16

static int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

__kernel void heat_steps(__global const float *power, __global const float *temp_in,
                         __global float *temp_out, int w, int h, float cap, float rx,
                         float ry, float rz, float ambient, int steps) {
  __local float t[BLOCK][BLOCK];
  __local float next[BLOCK][BLOCK];
  int inner = BLOCK - 2 * steps;
  int tx = get_local_id(0), ty = get_local_id(1);
  int x = get_group_id(0) * inner - steps + tx;
  int y = get_group_id(1) * inner - steps + ty;
  int cx = clampi(x, 0, w - 1), cy = clampi(y, 0, h - 1);
  t[ty][tx] = temp_in[cy * w + cx];
  float p = power[cy * w + cx];
  barrier(CLK_LOCAL_MEM_FENCE);
  bool computed = false;
  for (int i = 0; i < steps; i++) {
    computed = false;
    if (tx >= i + 1 && tx <= BLOCK - i - 2 && ty >= i + 1 && ty <= BLOCK - i - 2 &&
        x >= 0 && x < w && y >= 0 && y < h) {
      computed = true;
      float c = t[ty][tx];
      next[ty][tx] = c + cap * (p + (t[ty + 1][tx] + t[ty - 1][tx] - 2.0f * c) * ry +
                                (t[ty][tx + 1] + t[ty][tx - 1] - 2.0f * c) * rx +
                                (ambient - c) * rz);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i == steps - 1)
      break;
    if (computed)
      t[ty][tx] = next[ty][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (computed && tx >= steps && tx < BLOCK - steps && ty >= steps && ty < BLOCK - steps)
    temp_out[y * w + x] = next[ty][tx];
}

// The largest |a - b|, as the bits of a non-negative float (which order as the floats do).
__kernel void largest_change(__global const float *a, __global const float *b,
                             __global uint *largest, __local float *part, int n) {
  int i = get_global_id(0), l = get_local_id(0);
  part[l] = i < n ? fabs(a[i] - b[i]) : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s)
      part[l] = fmax(part[l], part[l + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    atomic_max(largest, as_uint(part[0]));
}

// The cheapest path down `rows` rows from `first`, each cell reached from the three above
// it: one band of rows per launch, in local memory, with a halo of `rows` columns.
__kernel void path_band(__global const int *wall, __global const int *src,
                        __global int *dst, int cols, int first, int rows) {
  __local int prev[BLOCK];
  __local int cur[BLOCK];
  int tx = get_local_id(0);
  int inner = BLOCK - 2 * rows;
  int x = get_group_id(0) * inner - rows + tx;
  int valid = x >= 0 && x < cols;
  prev[tx] = valid ? src[x] : INT_MAX / 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  bool computed = false;
  for (int r = 0; r < rows; r++) {
    computed = false;
    if (tx >= r + 1 && tx <= BLOCK - r - 2 && valid) {
      computed = true;
      int left = x > 0 ? prev[tx - 1] : INT_MAX / 2;
      int right = x < cols - 1 ? prev[tx + 1] : INT_MAX / 2;
      int best = min(left, min(prev[tx], right));
      cur[tx] = best + wall[(first + r) * cols + x];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (r == rows - 1)
      break;
    if (computed)
      prev[tx] = cur[tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (computed && tx >= rows && tx < BLOCK - rows)
    dst[x] = cur[tx];
}
