//@exec image_3d global=8,8,4 img3d:ro:f32:8x8x4 out:f32[1024] out:i32[4]
__constant sampler_t s3 = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
__kernel void image_3d(read_only image3d_t vol, __global float4 *out, __global int *dims) {
  int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  float4 a = read_imagef(vol, s3, p);
  float4 b = read_imagef(vol, s3, (float4)(p.x + 1.5f, p.y - 0.5f, p.z, 0.0f));
  out[p.x + 8 * (p.y + 8 * p.z)] = a + b;
  if (p.x + p.y + p.z == 0) {
    dims[0] = get_image_width(vol);
    dims[1] = get_image_height(vol);
    dims[2] = get_image_depth(vol);
    int4 d = get_image_dim(vol);
    dims[3] = d.x * 100 + d.y * 10 + d.z + d.w;
  }
}
