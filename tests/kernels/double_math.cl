#pragma OPENCL EXTENSION cl_khr_fp64 : enable
//@exec double_math global=32 out:f64[192] in:f64[32] in:f64[64]
__kernel void double_math(__global double *out, __global const double *x, __global const double2 *y) {
  size_t i = get_global_id(0);
  double v = x[i];
  double2 w = y[i];
  __global double *o = out + 6 * i;
  o[0] = sqrt(fabs(v)) + sin(v) + exp(v * 0.1) + log(fabs(v) + 1.0);
  o[1] = fma(v, v, 1.0) + pow(fabs(v), 0.5) + floor(v) + ceil(v);
  o[2] = dot(w, w) + length(w);
  o[3] = (double)convert_float(v) + convert_double(convert_int_rtz(v));
  o[4] = fmax(v, w.x) + fmin(v, w.y) + copysign(1.0, v) + (isgreater(v, w.x) ? 1.0 : 0.0);
  o[5] = as_double(as_long(v) ^ 1);
}
