#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
//@exec atomics_64 global=64 out:i64[8] out:u64[2] in:i64[64]
__kernel void atomics_64(__global long *c, __global ulong *u, __global const long *x) {
  size_t g = get_global_id(0);
  long v = x[g] >> 8;
  atom_add(&c[0], v);
  atom_sub(&c[1], v);
  atom_inc(&c[2]);
  atom_dec(&c[3]);
  atom_min(&c[4], v);
  atom_max(&c[5], v);
  atom_or(&c[6], 1l << (g & 63));
  atom_xor(&c[7], v);
  atom_min(&u[0], (ulong)v);
  atom_cmpxchg(&u[1], 0ul, 9ul);
}
