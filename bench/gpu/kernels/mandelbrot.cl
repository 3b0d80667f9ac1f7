// Mandelbrot set escape times over a float grid, written as 8-bit grey levels: the
// compute-bound demo kernel (divergent loops, no memory traffic but the result).
//@bench mandelbrot global=4096,4096 local=16,16 out:u8[16777216] f32=-2.0 f32=-1.25 f32=0.000625 i32=256
//@bench-cpu mandelbrot global=512,512 local=16,16 out:u8[262144] f32=-2.0 f32=-1.25 f32=0.005 i32=256
__kernel void mandelbrot(__global uchar *out, float x0, float y0, float step, int max_iter) {
  const int px = get_global_id(0), py = get_global_id(1);
  const float cx = x0 + px * step, cy = y0 + py * step;
  float zx = 0.0f, zy = 0.0f;
  int it = 0;
  while (it < max_iter && zx * zx + zy * zy <= 4.0f) {
    const float t = zx * zx - zy * zy + cx;
    zy = 2.0f * zx * zy + cy;
    zx = t;
    ++it;
  }
  out[py * get_global_size(0) + px] = (uchar)(it == max_iter ? 0 : (it * 255) / max_iter);
}
