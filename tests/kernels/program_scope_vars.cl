//@std CL2.0
//@exec program_scope_vars global=64 local=16 out:i32[64] out:i32[3]
// OpenCL C 2.0 program-scope variables in global memory that kernels write, as a work
// counter and a settings struct are written: a counter every work-item bumps atomically, a
// struct with an initializer that one work-item updates and reads back, and a table walked
// by a pointer (only read). The variables live as long as the program and the tiers run
// it more than once, so what is compared does not depend on earlier runs or on the order
// of the work-items: the counter's values modulo 64 (each run adds 64) are 0..63 whatever
// the run, and the struct is stored, not updated.
typedef struct {
  int count;
  float scale;
  short tag[3];
} State;

__global int hits = 5;
__global State state = {7, 0.5f, {1, 2, 3}};
__global int weights[5] = {3, 1, 4, 1, 5};

__kernel void program_scope_vars(__global int *out, __global int *totals) {
  int i = get_global_id(0);
  int before = atomic_inc(&hits) % 64;
  atomic_add(&totals[0], before);
  atomic_or(&totals[1], 1 << (before % 32));
  __global int *w = weights;
  int acc = 0;
  for (int k = 0; k < 5; ++k)
    acc += *w++ * (i + k);
  out[i] = acc + (int)(state.scale * 4.0f) + state.tag[2];
  if (i == 0) {
    state.count = 42;
    state.tag[1] = 9;
    totals[2] = state.count + state.tag[1];
  }
}
