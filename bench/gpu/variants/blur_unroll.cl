// blur_uchar4 with both loops marked #pragma unroll (bench/gpu/variants/README.md).
//@bench blur_unroll global=4096,4096 local=16,16 in:u8[67108864]=0..255 out:u8[67108864] i32=4096 i32=4096
//@bench-cpu blur_unroll global=512,512 local=16,16 in:u8[1048576]=0..255 out:u8[1048576] i32=512 i32=512
__kernel void blur_unroll(__global const uchar4 *src, __global uchar4 *dst, int width, int height) {
  const int x = get_global_id(0), y = get_global_id(1);
  float4 sum = (float4)(0.0f);
#pragma unroll
  for (int dy = -2; dy <= 2; ++dy)
#pragma unroll
    for (int dx = -2; dx <= 2; ++dx) {
      const int xx = clamp(x + dx, 0, width - 1), yy = clamp(y + dy, 0, height - 1);
      sum += convert_float4(src[yy * width + xx]);
    }
  dst[y * width + x] = convert_uchar4_sat_rte(sum * (1.0f / 25.0f));
}
