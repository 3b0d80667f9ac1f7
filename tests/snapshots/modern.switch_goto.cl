// OpenCL C 1.2 (build with -cl-std=CL1.2), written by spir-xlate.
#pragma OPENCL FP_CONTRACT OFF

uint classify(uint v);

uint classify(uint v) {
  uint v_addr_0;
  uint v_addr_1;
  uint retval_0;
  switch (v) {
    case 4294967293u: case 4294967294u: {
      retval_0 = 100u;
      goto return_;
    }
    case 0u: {
      retval_0 = 7u;
      goto return_;
    }
    case 1u: {
      v_addr_0 = 20u;
      break;
    }
    case 2u: {
      v_addr_0 = 10u;
      break;
    }
    case 5u: case 9u: case 13u: {
      v_addr_1 = v;
      goto sw_epilog;
    }
    case 17u: {
      retval_0 = 0xffffffefu;
      goto return_;
    }
    default: {
      v_addr_1 = v * v;
      goto sw_epilog;
    }
  }
  retval_0 = v_addr_0;
  goto return_;
sw_epilog:;
  retval_0 = v_addr_1 + 1u;
return_:;
  return retval_0;
}

__kernel void switch_goto(__global int *out, const __global int *x) {
  ulong call;
  uint t;
  uint retval_0_i15;
  uint retval_0_i1526;
  uint retval_0_i1525;
  uint v_addr_0_i_1;
  uint add_121;
  uint retval_0_i1520;
  uint retval_0_i1518;
  uint v_addr_1_i_1;
  uint retval_0_i1519;
  uint retval_0_i_1;
  uint add2_1;
  uint add_2;
  uint v_addr_0_i_2;
  uint v_addr_1_i_2;
  uint retval_0_i_2;
  uint add2_2;
  uint add_3;
  uint v_addr_0_i_3;
  uint v_addr_1_i_3;
  uint retval_0_i_3;
  uint v_addr_0_i;
  uint v_addr_1_i;
  uint add2_lcssa;
  bool cmp_lcssa;
  call = get_global_id(0u);
  t = ((const __global uint *)x)[call];
  switch (t) {
    case 4294967293u: case 4294967294u: {
      retval_0_i15 = 100u;
      goto for_cond;
    }
    case 0u: {
      retval_0_i1526 = 7u;
      goto sw_bb2_i_1;
    }
    case 1u: {
      v_addr_0_i = 20u;
      break;
    }
    case 2u: {
      v_addr_0_i = 10u;
      break;
    }
    case 5u: case 9u: case 13u: {
      v_addr_1_i = t;
      goto classify_exit;
    }
    case 17u: {
      add_121 = 18u;
      retval_0_i1520 = 0xffffffefu;
      goto sw_default_i_1;
    }
    default: {
      v_addr_1_i = t * t;
      goto classify_exit;
    }
  }
  retval_0_i15 = v_addr_0_i;
  goto for_cond;
classify_exit:;
  uint add7_i = v_addr_1_i + 1u;
  if ((int)v_addr_1_i > 499) {
    add2_lcssa = add7_i;
    cmp_lcssa = false;
    goto cleanup;
  } else {
    retval_0_i15 = add7_i;
  }
for_cond:;
  uint add_1 = t + 1u;
  switch (t) {
    case 4294967292u: case 4294967293u: {
      retval_0_i1519 = retval_0_i15;
      retval_0_i_1 = 100u;
      goto classify_exit_1;
    }
    case 4294967295u: {
      retval_0_i1519 = retval_0_i15;
      retval_0_i_1 = 7u;
      goto classify_exit_1;
    }
    case 0u: {
      retval_0_i1526 = retval_0_i15;
      break;
    }
    case 1u: {
      retval_0_i1525 = retval_0_i15;
      v_addr_0_i_1 = 10u;
      goto sw_bb3_i_1;
    }
    case 4u: case 8u: case 12u: {
      retval_0_i1518 = retval_0_i15;
      v_addr_1_i_1 = add_1;
      goto sw_epilog_i_1;
    }
    case 16u: {
      retval_0_i1519 = retval_0_i15;
      retval_0_i_1 = 0xffffffefu;
      goto classify_exit_1;
    }
    default: {
      add_121 = add_1;
      retval_0_i1520 = retval_0_i15;
      goto sw_default_i_1;
    }
  }
sw_bb2_i_1:;
  retval_0_i1525 = retval_0_i1526;
  v_addr_0_i_1 = 20u;
sw_bb3_i_1:;
  retval_0_i1519 = retval_0_i1525;
  retval_0_i_1 = v_addr_0_i_1;
  goto classify_exit_1;
sw_default_i_1:;
  retval_0_i1518 = retval_0_i1520;
  v_addr_1_i_1 = add_121 * add_121;
sw_epilog_i_1:;
  retval_0_i1519 = retval_0_i1518;
  retval_0_i_1 = v_addr_1_i_1 + 1u;
classify_exit_1:;
  add2_1 = retval_0_i_1 + retval_0_i1519;
  if ((int)add2_1 > 500) {
    add2_lcssa = add2_1;
    cmp_lcssa = false;
  } else {
    add_2 = t + 2u;
    switch (t) {
      case 4294967291u: case 4294967292u: {
        retval_0_i_2 = 100u;
        goto classify_exit_2;
      }
      case 4294967294u: {
        retval_0_i_2 = 7u;
        goto classify_exit_2;
      }
      case 4294967295u: {
        v_addr_0_i_2 = 20u;
        break;
      }
      case 0u: {
        v_addr_0_i_2 = 10u;
        break;
      }
      case 3u: case 7u: case 11u: {
        v_addr_1_i_2 = add_2;
        goto sw_epilog_i_2;
      }
      case 15u: {
        retval_0_i_2 = 0xffffffefu;
        goto classify_exit_2;
      }
      default: {
        v_addr_1_i_2 = add_2 * add_2;
        goto sw_epilog_i_2;
      }
    }
    retval_0_i_2 = v_addr_0_i_2;
    goto classify_exit_2;
  sw_epilog_i_2:;
    retval_0_i_2 = v_addr_1_i_2 + 1u;
  classify_exit_2:;
    add2_2 = retval_0_i_2 + add2_1;
    if ((int)add2_2 > 500) {
      add2_lcssa = add2_2;
      cmp_lcssa = false;
    } else {
      add_3 = t + 3u;
      switch (t) {
        case 4294967290u: case 4294967291u: {
          retval_0_i_3 = 100u;
          goto classify_exit_3;
        }
        case 4294967293u: {
          retval_0_i_3 = 7u;
          goto classify_exit_3;
        }
        case 4294967294u: {
          v_addr_0_i_3 = 20u;
          break;
        }
        case 4294967295u: {
          v_addr_0_i_3 = 10u;
          break;
        }
        case 2u: case 6u: case 10u: {
          v_addr_1_i_3 = add_3;
          goto sw_epilog_i_3;
        }
        case 14u: {
          retval_0_i_3 = 0xffffffefu;
          goto classify_exit_3;
        }
        default: {
          v_addr_1_i_3 = add_3 * add_3;
          goto sw_epilog_i_3;
        }
      }
      retval_0_i_3 = v_addr_0_i_3;
      goto classify_exit_3;
    sw_epilog_i_3:;
      retval_0_i_3 = v_addr_1_i_3 + 1u;
    classify_exit_3:;
      uint add2_3 = retval_0_i_3 + add2_2;
      add2_lcssa = add2_3;
      cmp_lcssa = (int)add2_3 < 501;
    }
  }
cleanup:;
  ((__global uint *)out)[call] = add2_lcssa << (uint)cmp_lcssa;
}
