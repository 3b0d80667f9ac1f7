//@std CL2.0
//@exec device_enqueue global=2 local=1 devqueue in:i32[64]=-50..50 out:i32[128] out:i32[16] i32=7
// OpenCL C 2.0 device-side enqueue (issue: OpenCL C 2.0, item 4): blocks capturing values,
// enqueue_kernel in all four forms (with and without events, with local-memory sizes), ND
// ranges of one and two dimensions with local sizes and offsets, events ordering children,
// a user event, a marker, a nested enqueue from a child, and the kernel queries. Each of the
// two parent work-items enqueues onto its own half of `out`, each child kernel onto its own
// slice of it (or ordered after the one it reads); `status` gets the return codes.

typedef struct {
  int scale;
  short bias;
} params_t;

__kernel void device_enqueue(__global const int *in, __global int *out, __global int *status,
                             int k) {
  int p = (int)get_global_id(0);
  __global int *mine = out + p * 64;
  queue_t q = get_default_queue();
  params_t prm = {k + p, (short)(3 - p)};
  int4 v = (int4)(1, 2, 3, 4) * (p + 1);

  // Basic: a block capturing a pointer, a struct and a vector.
  int r0 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(8), ^{
    int i = (int)get_global_id(0);
    mine[i] = in[i] * prm.scale + prm.bias + v.s2 + (int)get_global_size(0);
  });

  // With a returned event, then a kernel waiting on it (offset and local size given).
  clk_event_t first, second;
  int r1 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(8, 8, 4), 0, NULL, &first, ^{
    int i = (int)get_global_id(0);
    mine[i] = in[i] - (int)get_local_size(0) * 100 - (int)get_group_id(0);
  });
  int r2 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(8, 4), 1, &first, &second, ^{
    int i = (int)get_global_id(0) + 16;
    mine[i] = mine[i - 8] * 2 + (int)get_local_id(0);
  });

  // Local memory: two local buffers sized at enqueue, used by a work-group reduction.
  int r3 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(16, 8),
                          ^(local void *a, local void *b) {
    local int *la = (local int *)a;
    local short *lb = (local short *)b;
    int l = (int)get_local_id(0), g = (int)get_group_id(0);
    la[l] = in[get_global_id(0) + 32] + p;
    lb[l] = (short)(l * 3);
    barrier(CLK_LOCAL_MEM_FENCE);
    int s = 0;
    for (int j = 0; j < 8; j++)
      s += la[j] * (j + 1) + lb[7 - j];
    mine[48 + g * 8 + l] = s + l;
  }, (uint)(8 * sizeof(int)), (uint)(8 * sizeof(short)));

  // Two dimensions; waits on the second kernel through a marker. (A kernel waiting on a user
  // event completed later by its parent sometimes never runs on the Intel runtime, source
  // and SPIR-V alike: the user event is only made, tested and completed.)
  clk_event_t user = create_user_event();
  clk_event_t marker;
  clk_event_t wait[1] = {second};
  int r4 = enqueue_marker(q, 1, wait, &marker);
  size_t gs[2] = {4, 2}, ls[2] = {2, 1};
  int r5 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_2D(gs, ls), 1, &marker, NULL,
                          ^(local void *scratch) {
    local int *s = (local int *)scratch;
    int x = (int)get_global_id(0), y = (int)get_global_id(1);
    s[get_local_id(0)] = x * 10 + y;
    barrier(CLK_LOCAL_MEM_FENCE);
    mine[40 + y * 4 + x] = mine[16 + x + y] + s[1 - get_local_id(0)] + (int)get_num_groups(0);
  }, (uint)(2 * sizeof(int)));
  set_user_event_status(user, CL_COMPLETE);

  // A child that enqueues a grandchild.
  int r6 = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1), ^{
    queue_t dq = get_default_queue();
    enqueue_kernel(dq, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(8), ^{
      mine[24 + get_global_id(0)] = (int)get_global_id(0) * k - p;
    });
  });

  status[p * 8 + 0] = r0 * 1000 + r1 * 100 + r2 * 10 + r3;
  status[p * 8 + 1] = r4 * 100 + r5 * 10 + r6 + 1;
  status[p * 8 + 2] = is_valid_event(first) + 2 * is_valid_event(marker) + 4 * is_valid_event(user);
  status[p * 8 + 3] = (int)get_kernel_work_group_size(^{ mine[0] += 1; }) > 0;
  status[p * 8 + 4] =
      (int)get_kernel_preferred_work_group_size_multiple(^(local void *x) { mine[1] = 2; }) > 0;
  release_event(first);
  release_event(second);
  release_event(marker);
  release_event(user);
  status[p * 8 + 5] = p + 1;
}

// Translated and validated, not executed: event profiling needs a profiling device queue.
__kernel void enqueue_profiling(__global ulong *times) {
  clk_event_t e;
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 0, NULL, &e,
                 ^{ times[2] = 1; });
  capture_event_profiling_info(e, CLK_PROFILING_COMMAND_EXEC_TIME, times);
  retain_event(e);
  release_event(e);
  release_event(e);
  size_t g3[3] = {2, 2, 2}, o3[3] = {0, 1, 0}, l3[3] = {1, 1, 1};
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_3D(o3, g3, l3),
                 ^{ times[3] = get_global_offset(1); });
}
