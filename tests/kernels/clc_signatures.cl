// What OpenCL C's own signatures decide, which a program written back must keep: builtins
// whose integer operand is `int` only (ldexp, pown, rootn, their vector forms), kernel
// arguments declared signed (`int`, `long`, `char`, `__global int *`), and a program-scope
// sampler beside a kernel's own (at -O0 both are held in variables).
//@exec int_operands global=16 out:f32[128] in:f32[32]=-4..4 in:i32[32]=-6..6 i32=3 i64=-5 i8=-7
//@exec samplers_held global=4,4 img2d:ro:f32:4x4 out:f32[64]

__constant sampler_t sampler = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                               CLK_FILTER_NEAREST;

__kernel void int_operands(__global float *out, __global const float *x,
                           __global const int *n, int k, long l, char c) {
  int i = get_global_id(0);
  float2 a = vload2(i, x);
  int2 e = vload2(i, n);
  __global float *o = out + 8 * i;
  vstore2(ldexp(a, e), 0, o);
  vstore2(pown(a, e), 1, o);
  vstore2(rootn(fabs(a) + 1.0f, e + (int2)(7, 8)), 2, o);
  o[6] = ldexp(x[i], k) + (float)(l * c);
  o[7] = pown(x[2 * i], n[i] / 2) + rootn(2.0f + x[i] * x[i], k + n[i] + 7);
}

__kernel void samplers_held(read_only image2d_t img, __global float4 *out) {
  const sampler_t sampler_1 = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
  int x = get_global_id(0), y = get_global_id(1);
  out[y * 4 + x] = read_imagef(img, sampler, (int2)(x - 1, y + 2)) +
                   read_imagef(img, sampler_1, (int2)(x + 1, y - 3));
}
