// OpenCL C 1.2 (build with -cl-std=CL1.2), written by spir-xlate.
#pragma OPENCL FP_CONTRACT OFF

uint helper(uint x, uint n);

uint helper(uint x, uint n) {
  uint acc_0_lcssa;
  uint k_013;
  uint acc_012;
  uint acc_1;
  if ((int)n > 0) {
    k_013 = 0u;
    acc_012 = 0u;
    for (;;) {
      switch (k_013 ^ x) {
        case 0u: {
          acc_1 = acc_012 + x;
          break;
        }
        case 1u: {
          acc_1 = k_013 ^ acc_012;
          break;
        }
        case 2u: {
          acc_1 = acc_012 + 0xffffffffu;
          break;
        }
        default: {
          acc_1 = acc_012 * 3u;
          break;
        }
      }
      uint inc = k_013 + 1u;
      if ((int)inc < (int)n) {
        k_013 = inc;
        acc_012 = acc_1;
      } else {
        acc_0_lcssa = acc_1;
        break;
      }
    }
  } else {
    acc_0_lcssa = 0u;
  }
  return acc_0_lcssa;
}

__kernel void control_flow(__global int *out, const __global int *x, int n) {
  ulong call;
  uint t;
  uint k_013_i;
  uint acc_012_i;
  uint acc_1_i;
  uint sub;
  uint k_013_i10;
  uint acc_012_i11;
  uint acc_1_i22;
  uint acc_0_lcssa_i9;
  uint cond;
  call = get_global_id(0u);
  t = ((const __global uint *)x)[call];
  if ((int)t > 0) {
    if (n > 0) {
      k_013_i = 0u;
      acc_012_i = 0u;
      for (;;) {
        switch (k_013_i ^ t) {
          case 0u: {
            acc_1_i = acc_012_i + t;
            break;
          }
          case 1u: {
            acc_1_i = acc_012_i ^ k_013_i;
            break;
          }
          case 2u: {
            acc_1_i = acc_012_i + 0xffffffffu;
            break;
          }
          default: {
            acc_1_i = acc_012_i * 3u;
            break;
          }
        }
        uint inc_i = k_013_i + 1u;
        if ((int)inc_i < n) {
          k_013_i = inc_i;
          acc_012_i = acc_1_i;
        } else {
          cond = acc_1_i;
          break;
        }
      }
    } else {
      cond = 0u;
    }
  } else {
    sub = 0u - t;
    if (n > -1) {
      k_013_i10 = 0u;
      acc_012_i11 = 0u;
      for (;;) {
        switch (k_013_i10 ^ sub) {
          case 0u: {
            acc_1_i22 = acc_012_i11 - t;
            break;
          }
          case 1u: {
            acc_1_i22 = acc_012_i11 ^ k_013_i10;
            break;
          }
          case 2u: {
            acc_1_i22 = acc_012_i11 + 0xffffffffu;
            break;
          }
          default: {
            acc_1_i22 = acc_012_i11 * 3u;
            break;
          }
        }
        if ((int)k_013_i10 < n) {
          k_013_i10 = k_013_i10 + 1u;
          acc_012_i11 = acc_1_i22;
        } else {
          acc_0_lcssa_i9 = acc_1_i22;
          break;
        }
      }
    } else {
      acc_0_lcssa_i9 = 0u;
    }
    cond = 0u - acc_0_lcssa_i9;
  }
  ((__global uint *)out)[call] = cond;
}
