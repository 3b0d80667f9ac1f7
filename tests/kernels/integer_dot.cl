//@exec integer_dot global=64 in:i8[1024] in:u8[1024] in:u32[256] in:i32[64] out:i32[640] out:u32[384]
//@std CL3.0
// An int8-quantized layer as inference code writes it (cl_khr_integer_dot_product): a row of
// char4 weights against uchar4 activations accumulated with saturation, requantized; and every
// other form of the extension, the saturating ones driven to their bounds.
#define ROW 4

static int row_dot(__global const char4 *w, __global const uchar4 *x, int bias) {
  int acc = bias;
  for (int k = 0; k < ROW; ++k)
    acc = dot_acc_sat(w[k], x[k], acc);
  return acc;
}

__kernel void integer_dot(__global const char4 *w, __global const uchar4 *x,
                          __global const uint *packed, __global const int *bias,
                          __global int *out, __global uint *uout) {
  size_t i = get_global_id(0);
  char4 a = w[i], c = w[i + 64];
  uchar4 b = x[i], d = x[i + 64];
  uint p = packed[i], q = packed[i + 64];
  __global int *o = out + 10 * i;
  __global uint *u = uout + 6 * i;
  o[0] = dot(a, c);
  o[1] = dot(a, b);
  o[2] = dot(b, a);
  o[3] = dot_acc_sat(a, c, bias[i]);
  o[4] = dot_acc_sat(a, b, INT_MAX - 1000) + dot_acc_sat(b, a, INT_MIN + 1000);
  o[5] = dot_4x8packed_ss_int(p, q) ^ dot_4x8packed_su_int(p, q);
  o[6] = dot_4x8packed_us_int(p, q);
  o[7] = dot_acc_sat_4x8packed_ss_int(p, q, INT_MIN + 5) - dot_acc_sat_4x8packed_su_int(p, q, 17);
  o[8] = dot_acc_sat_4x8packed_us_int(p, q, INT_MAX - 5);
  int r = row_dot(w + 4 * (i % 16), x + 4 * (i % 16) + 64, bias[i]);
  o[9] = clamp((r * 77) >> 8, -128, 127);
  u[0] = dot(b, d);
  u[1] = dot_acc_sat(b, d, 0xffff0000u + (uint)i * 4096u);
  u[2] = dot_4x8packed_uu_uint(p, q);
  u[3] = dot_acc_sat_4x8packed_uu_uint(p, q, UINT_MAX - (uint)i * 5000u);
  u[4] = dot(as_uchar4(p), as_uchar4(q)) + (uint)dot(as_char4(p), as_char4(q));
  u[5] = dot_acc_sat(as_uchar4(q), as_uchar4(p), (uint)bias[i]);
}
