//@exec lane_bits global=16,16 local=8,8 in:u8[256] out:u8[256] i32=16 i32=16
// A border test of four compares, as image filters write it: LLVM's optimizer puts the
// compares in the lanes of a vector and tests them as the bits of an integer (a bitcast of
// <4 x i1> to i4, compared with all ones), which SPIR-V has no form for.
__kernel void lane_bits(__global const uchar *src, __global uchar *dst, int width, int height) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1) {
    dst[y * width + x] = 0;
    return;
  }
  const int i = y * width + x;
  const int g = src[i - 1] + src[i + 1] + src[i - width] + src[i + width] - 4 * src[i];
  dst[i] = convert_uchar_sat(abs(g));
}
