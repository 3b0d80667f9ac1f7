// An edge-detection program as an image library ships it: one source, four kernels run one
// after another on the same buffers (a separable 9-tap Gaussian blur by rows and then by
// columns, its gradient's magnitude, a threshold to a byte mask), sharing a table of weights
// in __constant memory and the helpers that clamp reads to the image.
//@bench blur_rows global=4096,4096 local=32,8 in:f32[16777216]=0..1 out:f32[16777216] i32=4096 i32=4096
//@then blur_cols global=4096,4096 local=32,8 arg:1 out:f32[16777216] i32=4096 i32=4096
//@then gradient global=4096,4096 local=32,8 arg:4 out:f32[16777216] i32=4096 i32=4096 f32=0.5
//@then threshold global=4194304 local=256 arg:7 out:u8[16777216] f32=0.02 i32=16777216
//@bench-cpu blur_rows global=512,512 local=32,8 in:f32[262144]=0..1 out:f32[262144] i32=512 i32=512
//@then blur_cols global=512,512 local=32,8 arg:1 out:f32[262144] i32=512 i32=512
//@then gradient global=512,512 local=32,8 arg:4 out:f32[262144] i32=512 i32=512 f32=0.5
//@then threshold global=65536 local=256 arg:7 out:u8[262144] f32=0.02 i32=262144

// Gaussian weights of σ = 2 for offsets -4 .. 4, normalized to sum to one.
__constant float GAUSS9[9] = {0.02763055f, 0.06628224f, 0.12383154f, 0.18017383f, 0.20416369f,
                              0.18017383f, 0.12383154f, 0.06628224f, 0.02763055f};

static int clamp_to(int v, int n) { return clamp(v, 0, n - 1); }

static float at(__global const float *img, int x, int y, int w, int h) {
  return img[clamp_to(y, h) * w + clamp_to(x, w)];
}

__kernel void blur_rows(__global const float *src, __global float *dst, int w, int h) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  float sum = 0.0f;
  for (int d = -4; d <= 4; ++d)
    sum += GAUSS9[d + 4] * at(src, x + d, y, w, h);
  dst[y * w + x] = sum;
}

__kernel void blur_cols(__global const float *src, __global float *dst, int w, int h) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  float sum = 0.0f;
  for (int d = -4; d <= 4; ++d)
    sum += GAUSS9[d + 4] * at(src, x, y + d, w, h);
  dst[y * w + x] = sum;
}

// Central differences, scaled: |∇I| · scale.
__kernel void gradient(__global const float *src, __global float *mag, int w, int h,
                       float scale) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  const float gx = at(src, x + 1, y, w, h) - at(src, x - 1, y, w, h);
  const float gy = at(src, x, y + 1, w, h) - at(src, x, y - 1, w, h);
  mag[y * w + x] = scale * sqrt(gx * gx + gy * gy);
}

// Four pixels per work-item: 255 where the magnitude reaches the threshold, else 0.
__kernel void threshold(__global const float4 *mag, __global uchar4 *mask, float limit,
                        int n) {
  const int i = get_global_id(0);
  if (4 * i >= n)
    return;
  const int4 on = isgreaterequal(mag[i], (float4)(limit));
  mask[i] = convert_uchar4(on & 255);
}
