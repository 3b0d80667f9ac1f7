// blur_uchar4 without the clamps: the interior only (bench/gpu/variants/README.md).
//@bench blur_noclamp global=4096,4096 local=16,16 in:u8[67108864]=0..255 out:u8[67108864] i32=4096 i32=4096
//@bench-cpu blur_noclamp global=512,512 local=16,16 in:u8[1048576]=0..255 out:u8[1048576] i32=512 i32=512
__kernel void blur_noclamp(__global const uchar4 *src, __global uchar4 *dst, int width, int height) {
  const int x = get_global_id(0), y = get_global_id(1);
  if (x < 2 || y < 2 || x >= width - 2 || y >= height - 2)
    return;
  float4 sum = (float4)(0.0f);
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx)
      sum += convert_float4(src[(y + dy) * width + x + dx]);
  dst[y * width + x] = convert_uchar4_sat_rte(sum * (1.0f / 25.0f));
}
