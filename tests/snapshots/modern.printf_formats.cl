// OpenCL C 1.2 (build with -cl-std=CL1.2), written by spir-xlate.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

typedef uchar uchar_array4[4];
typedef uchar uchar_array34[34];
typedef uchar uchar_array21[21];

__constant uchar_array4 label = "lbl";
__constant uchar_array34 v_str = "i=%u f=%.3f e=%e x=%#x s=%s c=%c\n";
__constant uchar_array4 v_str_1 = "str";
__constant uchar_array21 v_str_2 = "%v4hlf|%5d|%-8s|%ld\n";

__kernel void printf_formats(__global int *ret, const __global float4 *v) {
  ulong call = get_global_id(0u);
  uint conv = (uint)call;
  const __global float4 *arrayidx = &v[call];
  uint call6 = printf("i=%u f=%.3f e=%e x=%#x s=%s c=%c\n", (uint)conv, (double)((__global float *)&(*arrayidx))[0], (double)((__global float *)&v[call])[1], (uint)(conv * 255u), "str", (int)(conv + 65u));
  uint call9 = printf("%v4hlf|%5d|%-8s|%ld\n", *arrayidx, (int)conv, "lbl", (long)(call << 40UL));
  ((__global uint *)ret)[call] = (call6 + 100u) + call9;
}
