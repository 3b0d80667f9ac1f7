#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// Application-shaped program: column statistics of a table of doubles, as a data-mining
// library computes them before clustering: one column made constant (a feature that never
// varies, as real tables have), the means, the variances written with pow(x - mean, 2.0)
// (zero where x equals the mean), the standardized table and the covariance matrix.
//
//@exec fill_column global=64 local=16 in:f64[1024]=-8..8 i32=64 i32=16 i32=5 f64=2.5
//@then column_mean global=16 local=16 arg:0 out:f64[16] arg:1 arg:2
//@then column_variance global=16 local=16 arg:0 arg:5 out:f64[16] arg:1 arg:2
//@then standardize global=16,64 local=16,4 arg:0 arg:5 arg:6 out:f64[1024] arg:1 arg:2
//@then covariance global=16,16 local=4,4 arg:7 out:f64[256] arg:1 arg:2

__kernel void fill_column(__global double *data, int rows, int cols, int col, double value) {
  int r = get_global_id(0);
  if (r < rows)
    data[r * cols + col] = value;
}

__kernel void column_mean(__global const double *data, __global double *mean, int rows,
                          int cols) {
  int c = get_global_id(0);
  if (c >= cols)
    return;
  double s = 0.0;
  for (int r = 0; r < rows; r++)
    s += data[r * cols + c];
  mean[c] = s / rows;
}

__kernel void column_variance(__global const double *data, __global const double *mean,
                              __global double *var, int rows, int cols) {
  int c = get_global_id(0);
  if (c >= cols)
    return;
  double s = 0.0;
  for (int r = 0; r < rows; r++)
    s += pow(data[r * cols + c] - mean[c], 2.0);
  var[c] = s / (rows - 1);
}

__kernel void standardize(__global const double *data, __global const double *mean,
                          __global const double *var, __global double *out, int rows,
                          int cols) {
  int c = get_global_id(0), r = get_global_id(1);
  if (c >= cols || r >= rows)
    return;
  double sd = sqrt(var[c]);
  out[r * cols + c] = sd > 0.0 ? (data[r * cols + c] - mean[c]) / sd : 0.0;
}

// The covariance of the standardized columns (their correlation).
__kernel void covariance(__global const double *z, __global double *cov, int rows, int cols) {
  int i = get_global_id(0), j = get_global_id(1);
  if (i >= cols || j >= cols)
    return;
  double s = 0.0;
  for (int r = 0; r < rows; r++)
    s += z[r * cols + i] * z[r * cols + j];
  cov[i * cols + j] = s / (rows - 1);
}
