//@exec atomics_int global=128 local=32 out:i32[16] out:u32[8] in:i32[128]=-1000..1000
__kernel void atomics_int(__global int *c, __global uint *u, __global const int *x) {
  size_t g = get_global_id(0);
  int v = x[g];
  atomic_add(&c[0], v);
  atomic_sub(&c[1], v);
  atomic_inc(&c[2]);
  atomic_dec(&c[3]);
  atomic_min(&c[4], v);
  atomic_max(&c[5], v);
  atomic_and(&c[6], ~(1 << (g & 31)));
  atomic_or(&c[7], 1 << (g & 31));
  atomic_xor(&c[8], v);
  atomic_min(&u[0], (uint)v);
  atomic_max(&u[1], (uint)v);
  atomic_add(&u[2], 3u);
  if (atomic_cmpxchg(&c[9], 0, 1) == 0) atomic_inc(&c[10]);
  atomic_xchg(&c[11], 42);
}
