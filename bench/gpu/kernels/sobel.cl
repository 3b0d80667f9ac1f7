// Sobel edge magnitude over an 8-bit grey image held in a plain buffer (no image objects),
// saturated to 8 bits: the buffer path of an image filter.
//@bench sobel global=4096,4096 local=16,16 in:u8[16777216]=0..255 out:u8[16777216] i32=4096 i32=4096
//@bench-cpu sobel global=512,512 local=16,16 in:u8[262144]=0..255 out:u8[262144] i32=512 i32=512
__kernel void sobel(__global const uchar *src, __global uchar *dst, int width, int height) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1) {
    dst[y * width + x] = 0;
    return;
  }
#define P(dx, dy) ((int)src[(y + (dy)) * width + (x + (dx))])
  const int gx = -P(-1, -1) - 2 * P(-1, 0) - P(-1, 1) + P(1, -1) + 2 * P(1, 0) + P(1, 1);
  const int gy = -P(-1, -1) - 2 * P(0, -1) - P(1, -1) + P(-1, 1) + 2 * P(0, 1) + P(1, 1);
#undef P
  const float mag = sqrt((float)(gx * gx + gy * gy));
  dst[y * width + x] = convert_uchar_sat(mag);
}
