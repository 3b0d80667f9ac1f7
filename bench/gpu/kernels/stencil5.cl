// One Jacobi sweep of the 2D heat equation (5-point stencil), boundary rows and columns
// copied: the core of a finite-difference solver.
//@bench stencil5 global=4096,4096 local=32,8 in:f32[16777216]=0..1 out:f32[16777216] i32=4096 f32=0.2
//@bench-cpu stencil5 global=512,512 local=32,8 in:f32[262144]=0..1 out:f32[262144] i32=512 f32=0.2
__kernel void stencil5(__global const float *u, __global float *v, int n, float alpha) {
  const int x = get_global_id(0), y = get_global_id(1);
  const int i = y * n + x;
  if (x == 0 || y == 0 || x == n - 1 || y == n - 1) {
    v[i] = u[i];
    return;
  }
  v[i] = u[i] + alpha * (u[i - 1] + u[i + 1] + u[i - n] + u[i + n] - 4.0f * u[i]);
}
