//@exec convert_widths global=64 out:i8[64] out:u16[64] out:i64[64] out:u64[64] out:f32[64] in:i32[64] in:f32[64]=-70000..70000
__kernel void convert_widths(__global char *oc, __global ushort *ous, __global long *ol, __global ulong *oul,
                             __global float *of, __global const int *x, __global const float *f) {
  size_t i = get_global_id(0);
  int v = x[i];
  float g = f[i];
  oc[i] = convert_char(v) + convert_char_sat(v) + convert_char_sat_rte(g);
  ous[i] = convert_ushort(v) + convert_ushort_sat(v) + convert_ushort_sat_rtp(g);
  ol[i] = convert_long(v) + convert_long_rtn(g) + convert_long_sat(g * 1e15f);
  oul[i] = convert_ulong(v) + convert_ulong_sat(g) + convert_ulong_sat_rtz(g * 1e15f);
  of[i] = convert_float(convert_ulong(v)) + convert_float_rtz(v) + convert_float_rtp((long)v * 1000) +
          convert_float(convert_short_sat(v)) + convert_float(convert_uchar(v));
}
