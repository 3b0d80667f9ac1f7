//@std CL2.0
//@exec images_rw global=16,8 img2d:rw:f32:16x8 img2d:rw:i32:16x8 img2d:ro:depth:16x8 sampler:U:edge:nearest out:f32[128] out:i32[8]
//@exec depth_array global=8,4,3 img2a:ro:depth:8x4x3 sampler:N:clamp:nearest out:f32[96] out:i32[4]
//@exec depth_write global=8,4 img2d:wo:depth:8x4 img2d:ro:depth:8x4
// OpenCL C 2.0 images (issue: OpenCL C 2.0, item 7): read_write images, read back after a
// write through an image-memory fence, sampler-less reads, depth images (scalar results) read
// with and without a sampler, depth image arrays, and the queries of each.
__kernel void images_rw(read_write image2d_t im, read_write image2d_t ii, read_only image2d_depth_t d,
                        sampler_t s, __global float *out, __global int *dims) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 v = read_imagef(im, p);
  write_imagef(im, p, v * 2.0f + (float4)(1.0f, 2.0f, 3.0f, 4.0f));
  atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
  float4 w = read_imagef(im, p);
  int4 q = read_imagei(ii, p);
  write_imagei(ii, p, q * 3 - (int4)(p.x, p.y, 7, -7));
  float z = read_imagef(d, p) + read_imagef(d, s, p) * 0.25f;
  int i = p.y * 16 + p.x;
  out[i] = w.x + w.y * 0.5f + w.z * 0.25f - w.w + z;
  if (i == 0) {
    dims[0] = get_image_width(d);
    dims[1] = get_image_height(d);
    int2 dd = get_image_dim(d);
    dims[2] = dd.x * dd.y;
    dims[3] = get_image_channel_order(d);
    dims[4] = get_image_channel_data_type(d);
    dims[5] = get_image_width(im) * 1000 + get_image_height(ii);
    dims[6] = get_image_channel_data_type(ii);
    dims[7] = get_image_channel_order(im);
  }
}

__kernel void depth_array(read_only image2d_array_depth_t d, sampler_t s, __global float *out,
                          __global int *dims) {
  int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  float4 c = (float4)(((float)p.x + 0.5f) / 8.0f, ((float)p.y + 0.5f) / 4.0f, (float)p.z, 0.0f);
  int i = (p.z * 4 + p.y) * 8 + p.x;
  out[i] = read_imagef(d, p) * 3.0f + read_imagef(d, s, c);
  if (i == 0) {
    dims[0] = get_image_width(d);
    dims[1] = get_image_height(d);
    dims[2] = (int)get_image_array_size(d);
    dims[3] = get_image_channel_order(d);
  }
}

// A depth image written: one float a texel.
__kernel void depth_write(write_only image2d_depth_t dst, read_only image2d_depth_t src) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, p, read_imagef(src, p) * 0.5f + 0.25f);
}
