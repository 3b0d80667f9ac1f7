//@std CL2.0
//@exec enqueue_global_blocks global=1 devqueue out:i32[4]
//@then read_globals global=8 out:i32[8]
// Blocks that capture nothing (issue: OpenCL C 2.0, item 4): clang makes each literal a
// program-scope constant (`__block_literal_global`, holding the invoke function's address,
// which SPIR-V holds as a null pointer). The children write program-scope memory that a second
// kernel reads back after the parent (and so its children) completed.
__global int g_out[8];
__global int g_flag;

__kernel void enqueue_global_blocks(__global int *status) {
  queue_t q = get_default_queue();
  status[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(8), ^{
    int i = (int)get_global_id(0);
    g_out[i] = i * 3 + (int)get_global_size(0);
  });
  status[1] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1), ^{ g_flag = 41; });
  status[2] = (int)get_kernel_work_group_size(^{ g_flag = 0; }) > 0;
  status[3] = 7;
}

__kernel void read_globals(__global int *out) {
  int i = (int)get_global_id(0);
  out[i] = g_out[i] * 10 + g_flag;
}
