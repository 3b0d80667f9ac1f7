// 2D convolution of a single-channel float image with a 7x7 filter held in __constant
// memory, edges clamped: the inner loop of a typical image-processing library.
//@bench conv2d global=4096,4096 local=16,16 out:f32[16777216] in:f32[16777216]=0..1 in:f32[49]=-1..1 i32=4096 i32=4096
//@bench-cpu conv2d global=512,512 local=16,16 out:f32[262144] in:f32[262144]=0..1 in:f32[49]=-1..1 i32=512 i32=512
#define R 3

__kernel void conv2d(__global float *out, __global const float *in, __constant float *filter,
                     int width, int height) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height)
    return;
  float sum = 0.0f;
  for (int dy = -R; dy <= R; ++dy) {
    const int yy = clamp(y + dy, 0, height - 1);
    for (int dx = -R; dx <= R; ++dx) {
      const int xx = clamp(x + dx, 0, width - 1);
      sum += filter[(dy + R) * (2 * R + 1) + (dx + R)] * in[yy * width + xx];
    }
  }
  out[y * width + x] = sum;
}
