//@exec convert_vectors global=16 out:i32[64] out:u8[128] out:f32[128] in:f32[128]=-300..300 in:i16[128]
__kernel void convert_vectors(__global int4 *oi, __global uchar8 *ouc, __global float8 *of,
                              __global const float8 *x, __global const short8 *s) {
  size_t i = get_global_id(0);
  float8 v = x[i];
  short8 w = s[i];
  oi[i] = convert_int4_sat_rte(v.lo) + convert_int4_rtp(v.hi) + convert_int4(w.even);
  ouc[i] = convert_uchar8_sat(v) + convert_uchar8_sat(w) + convert_uchar8(w);
  of[i] = convert_float8(w) + convert_float8(convert_int8_rtn(v)) + convert_float8_rtz(convert_uint8_sat(w));
}
