// OpenCL C 1.2 (build with -cl-std=CL1.2), written by spir-xlate.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

typedef uchar uchar_array4[4];
typedef uchar uchar_array34[34];
typedef uchar uchar_array21[21];

__constant uchar_array4 label = {(uchar)108, (uchar)98, (uchar)108, (uchar)0};
__constant uchar_array34 v_str = {(uchar)105, (uchar)61, (uchar)37, (uchar)117, (uchar)32, (uchar)102, (uchar)61, (uchar)37, (uchar)46, (uchar)51, (uchar)102, (uchar)32, (uchar)101, (uchar)61, (uchar)37, (uchar)101, (uchar)32, (uchar)120, (uchar)61, (uchar)37, (uchar)35, (uchar)120, (uchar)32, (uchar)115, (uchar)61, (uchar)37, (uchar)115, (uchar)32, (uchar)99, (uchar)61, (uchar)37, (uchar)99, (uchar)10, (uchar)0};
__constant uchar_array4 v_str_1 = {(uchar)115, (uchar)116, (uchar)114, (uchar)0};
__constant uchar_array21 v_str_2 = {(uchar)37, (uchar)118, (uchar)52, (uchar)104, (uchar)108, (uchar)102, (uchar)124, (uchar)37, (uchar)53, (uchar)100, (uchar)124, (uchar)37, (uchar)45, (uchar)56, (uchar)115, (uchar)124, (uchar)37, (uchar)108, (uchar)100, (uchar)10, (uchar)0};

__kernel void printf_formats(__global uint *ret, const __global float4 *v) {
  ulong call = get_global_id(0u);
  uint conv = (uint)call;
  __global float4 *arrayidx = &((__global float4 *)v)[call];
  uint call6 = printf("i=%u f=%.3f e=%e x=%#x s=%s c=%c\n", (uint)conv, (double)((__global float *)&(*arrayidx))[0], (double)((__global float *)&((__global float4 *)v)[call])[1], (uint)(conv * 255u), "str", (int)(conv + 65u));
  uint call9 = printf("%v4hlf|%5d|%-8s|%ld\n", *arrayidx, (int)conv, "lbl", (long)(call << 40UL));
  ret[call] = (call6 + 100u) + call9;
}
