// Application-shaped program: a mass-spring cloth, structure of arrays, as a physics engine
// steps it: spring forces from the grid neighbours, then an integration kernel of twenty
// arguments (positions, velocities, forces, inverse masses, gravity, time step, damping,
// the box, the pinned row, the grid) that calls another kernel to keep the particles in
// their box; two steps, then the bounding box in two passes (per work-group, then over the
// groups). A vector helper is shared by the kernels.
//
//@exec spring_forces global=16,16 local=8,8 in:f32[256]=-1..1 in:f32[256]=-1..1 in:f32[256]=-1..1 out:f32[256] out:f32[256] out:f32[256] f32=4.0 i32=16 i32=16
//@then integrate global=256 local=64 arg:0 arg:1 arg:2 in:f32[256]=-0.5..0.5 in:f32[256]=-0.5..0.5 in:f32[256]=-0.5..0.5 arg:3 arg:4 arg:5 in:f32[256]=0.5..2 f32=0.0 f32=-9.75 f32=0.0 f32=0.015625 f32=0.99 f32=-1.25 f32=1.25 i32=0 i32=16 i32=256
//@then spring_forces global=16,16 local=8,8 arg:0 arg:1 arg:2 arg:3 arg:4 arg:5 arg:6 arg:7 arg:8
//@then integrate global=256 local=64 arg:0 arg:1 arg:2 arg:9 arg:10 arg:11 arg:3 arg:4 arg:5 arg:12 arg:13 arg:14 arg:15 arg:16 arg:17 arg:18 arg:19 arg:20 arg:21 arg:22
//@then bounds_partial global=256 local=64 arg:0 arg:1 arg:2 out:f32[24] local:f32[384] arg:22
//@then bounds_final global=1 local=1 arg:23 out:f32[6] i32=4

typedef struct {
  float x, y, z;
} vec3f;

static vec3f load3(__global const float *x, __global const float *y,
                   __global const float *z, int i) {
  vec3f v = {x[i], y[i], z[i]};
  return v;
}

static void store3(__global float *x, __global float *y, __global float *z, int i,
                   vec3f v) {
  x[i] = v.x;
  y[i] = v.y;
  z[i] = v.z;
}

// f = k * sum over the grid neighbours of (neighbour - p).
__kernel void spring_forces(__global const float *px, __global const float *py,
                            __global const float *pz, __global float *fx,
                            __global float *fy, __global float *fz, float k, int w,
                            int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  int i = y * w + x;
  vec3f p = load3(px, py, pz, i);
  vec3f f = {0.0f, 0.0f, 0.0f};
  int nx[4] = {x - 1, x + 1, x, x};
  int ny[4] = {y, y, y - 1, y + 1};
  for (int n = 0; n < 4; n++) {
    if (nx[n] < 0 || nx[n] >= w || ny[n] < 0 || ny[n] >= h)
      continue;
    vec3f q = load3(px, py, pz, ny[n] * w + nx[n]);
    f.x += k * (q.x - p.x);
    f.y += k * (q.y - p.y);
    f.z += k * (q.z - p.z);
  }
  store3(fx, fy, fz, i, f);
}

// Reflect particles that left the box [lo, hi]^3 back into it, reversing their velocity.
__kernel void keep_in_box(__global float *px, __global float *py, __global float *pz,
                          __global float *vx, __global float *vy, __global float *vz,
                          float lo, float hi, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  __global float *p[3] = {px, py, pz};
  __global float *v[3] = {vx, vy, vz};
  for (int c = 0; c < 3; c++) {
    float q = p[c][i];
    if (q < lo) {
      p[c][i] = 2.0f * lo - q;
      v[c][i] = -v[c][i];
    } else if (q > hi) {
      p[c][i] = 2.0f * hi - q;
      v[c][i] = -v[c][i];
    }
  }
}

__kernel void integrate(__global float *px, __global float *py, __global float *pz,
                        __global float *vx, __global float *vy, __global float *vz,
                        __global const float *fx, __global const float *fy,
                        __global const float *fz, __global const float *inv_mass,
                        float gx, float gy, float gz, float dt, float damping, float lo,
                        float hi, int pinned_row, int w, int n) {
  int i = get_global_id(0);
  if (i < n && i / w != pinned_row) {
    vec3f v = load3(vx, vy, vz, i);
    vec3f p = load3(px, py, pz, i);
    float im = inv_mass[i];
    v.x = damping * (v.x + dt * (gx + im * fx[i]));
    v.y = damping * (v.y + dt * (gy + im * fy[i]));
    v.z = damping * (v.z + dt * (gz + im * fz[i]));
    p.x += dt * v.x;
    p.y += dt * v.y;
    p.z += dt * v.z;
    store3(vx, vy, vz, i, v);
    store3(px, py, pz, i, p);
  }
  keep_in_box(px, py, pz, vx, vy, vz, lo, hi, n);
}

// Each work-group's minimum and maximum of x, y and z: out[6 * group + ...].
__kernel void bounds_partial(__global const float *px, __global const float *py,
                             __global const float *pz, __global float *out,
                             __local float *scratch, int n) {
  int l = get_local_id(0), i = get_global_id(0), size = get_local_size(0);
  __local float *lo = scratch, *hi = scratch + 3 * size;
  for (int c = 0; c < 3; c++) {
    __global const float *p = c == 0 ? px : (c == 1 ? py : pz);
    float v = i < n ? p[i] : p[0];
    lo[c * size + l] = v;
    hi[c * size + l] = v;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = size / 2; s > 0; s >>= 1) {
    if (l < s)
      for (int c = 0; c < 3; c++) {
        lo[c * size + l] = fmin(lo[c * size + l], lo[c * size + l + s]);
        hi[c * size + l] = fmax(hi[c * size + l], hi[c * size + l + s]);
      }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    for (int c = 0; c < 3; c++) {
      out[6 * get_group_id(0) + c] = lo[c * size];
      out[6 * get_group_id(0) + 3 + c] = hi[c * size];
    }
}

__kernel void bounds_final(__global const float *partial, __global float *box, int groups) {
  for (int c = 0; c < 6; c++) {
    float v = partial[c];
    for (int g = 1; g < groups; g++)
      v = c < 3 ? fmin(v, partial[6 * g + c]) : fmax(v, partial[6 * g + c]);
    box[c] = v;
  }
}
