#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_global_int32_extended_atomics : enable
#pragma OPENCL EXTENSION cl_khr_local_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_local_int32_extended_atomics : enable
//@exec atom_legacy global=64 local=16 out:i32[8] in:i32[64]=0..1000
__kernel void atom_legacy(__global int *c, __global const int *x) {
  __local int l[4];
  size_t g = get_global_id(0);
  if (get_local_id(0) == 0) { l[0] = 0; l[1] = 0; l[2] = 0; l[3] = -1; }
  barrier(CLK_LOCAL_MEM_FENCE);
  atom_add(&c[0], x[g]);
  atom_inc(&c[1]);
  atom_max(&c[2], x[g]);
  atom_xor(&c[3], x[g]);
  atom_add(&l[0], x[g]);
  atom_max(&l[1], x[g]);
  atom_and(&l[3], ~x[g]);
  atom_cmpxchg(&l[2], 0, 5);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    atom_add(&c[4], l[0]);
    atom_max(&c[5], l[1]);
    atom_add(&c[6], l[2]);
    atom_or(&c[7], l[3]);
  }
}
