// Application-shaped program: an image-processing pipeline over buffers, as a camera or
// vision library writes it: RGBA bytes to luminance, a separable Gaussian blur (rows, then
// columns) from one table of weights in constant memory, an edge magnitude, and a
// threshold that also counts the edge pixels. The blur passes fix their work-group size;
// the other kernels take the host's. Clamping at the borders is one helper for all.
//
//@exec to_luma global=64,64 local=16,4 in:u8[16384] out:f32[4096] i32=64 i32=64
//@then blur_rows global=64,64 local=16,16 arg:1 out:f32[4096] i32=64 i32=64
//@then blur_cols global=64,64 local=16,16 arg:4 out:f32[4096] i32=64 i32=64
//@then edge_magnitude global=64,64 local=8,8 arg:7 out:f32[4096] i32=64 i32=64
//@then threshold_count global=4096 local=64 arg:10 out:u8[4096] out:u32[1] f32=40.0 i32=4096

#define RADIUS 2

__constant float gauss[2 * RADIUS + 1] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
__constant float luma_weights[3] = {0.299f, 0.587f, 0.114f};

static int clamp_index(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

static float at(__global const float *img, int x, int y, int w, int h) {
  return img[clamp_index(y, h) * w + clamp_index(x, w)];
}

__kernel void to_luma(__global const uchar4 *rgba, __global float *luma, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  uchar4 p = rgba[y * w + x];
  luma[y * w + x] = luma_weights[0] * p.x + luma_weights[1] * p.y + luma_weights[2] * p.z;
}

__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void blur_rows(__global const float *in, __global float *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  float s = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; k++)
    s += gauss[k + RADIUS] * at(in, x + k, y, w, h);
  out[y * w + x] = s;
}

__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void blur_cols(__global const float *in, __global float *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  float s = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; k++)
    s += gauss[k + RADIUS] * at(in, x, y + k, w, h);
  out[y * w + x] = s;
}

// |gx| + |gy| of the Sobel operator.
__kernel void edge_magnitude(__global const float *in, __global float *out, int w, int h) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  float gx = at(in, x + 1, y - 1, w, h) + 2.0f * at(in, x + 1, y, w, h) +
             at(in, x + 1, y + 1, w, h) - at(in, x - 1, y - 1, w, h) -
             2.0f * at(in, x - 1, y, w, h) - at(in, x - 1, y + 1, w, h);
  float gy = at(in, x - 1, y + 1, w, h) + 2.0f * at(in, x, y + 1, w, h) +
             at(in, x + 1, y + 1, w, h) - at(in, x - 1, y - 1, w, h) -
             2.0f * at(in, x, y - 1, w, h) - at(in, x + 1, y - 1, w, h);
  out[y * w + x] = fabs(gx) + fabs(gy);
}

__kernel void threshold_count(__global const float *mag, __global uchar *mask,
                              __global uint *count, float threshold, int n) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  uchar on = mag[i] > threshold;
  mask[i] = on ? 255 : 0;
  if (on)
    atomic_inc(count);
}
