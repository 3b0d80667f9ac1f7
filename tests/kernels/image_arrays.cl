//@exec image_arrays global=8 img2a:ro:f32:8x4x3 img1a:ro:i32:8x5 out:i32[64] out:f32[24] sampler:U:clamp:nearest
// get_image_dim / get_image_array_size / get_image_width on 1D and 2D image arrays (issue:
// trust, item 5: the size queries' components are 32-bit, get_image_array_size a size_t).
__kernel void image_arrays(read_only image2d_array_t a2, read_only image1d_array_t a1,
                           __global int *o, __global float *f, sampler_t s) {
  int i = get_global_id(0);
  int2 d = get_image_dim(a2);
  o[i] = d.x;
  o[i + 8] = d.y;
  o[i + 16] = (int)get_image_array_size(a2);
  o[i + 24] = get_image_width(a1);
  o[i + 32] = (int)get_image_array_size(a1) + get_image_height(a2);
  int4 u = read_imagei(a1, s, (int2)(i, i % 5));
  o[i + 40] = u.x;
  o[i + 48] = u.z;
  o[i + 56] = read_imagei(a1, (int2)(7 - i, (i + 1) % 5)).y;
  float4 t = read_imagef(a2, s, (int4)(i, i & 3, i % 3, 0));
  f[i] = t.x;
  f[i + 8] = t.y + t.w;
  f[i + 16] = read_imagef(a2, (int4)(i, 3 - (i & 3), 2, 0)).z;
}
