//@exec conversions global=64 out:i32[64] out:u8[64] out:f32[64] in:f32[64] in:i32[64]
__kernel void conversions(__global int *oi, __global uchar *ouc, __global float *of, __global const float *x, __global const int *y) {
  size_t i = get_global_id(0);
  oi[i] = convert_int_sat_rtz(x[i] * 1000.0f) + convert_int_rte(x[i]) + as_int(x[i]);
  ouc[i] = convert_uchar_sat(y[i]);
  of[i] = convert_float_rtn(y[i]) + convert_float(convert_uint_sat(y[i])) + as_float(y[i] & 0x3f800000);
}
