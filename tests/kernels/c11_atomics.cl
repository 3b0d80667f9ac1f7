//@std CL2.0
//@exec c11_atomics global=64 local=16 out:i32[64] out:u32[64] out:i32[96] in:i32[64]=-100..100
// OpenCL C 2.0's atomics (issue: OpenCL C 2.0, item 2): every C11 function with and without
// `_explicit`, each memory order and scope, on a work-item's own word (deterministic results)
// and on shared counters whose final values do not depend on the order; flags; a __local
// atomic counter; fences and barriers with scopes.
__kernel void c11_atomics(__global int *own, __global uint *bits, __global int *shared,
                          __global const int *in) {
  size_t i = get_global_id(0);
  __global atomic_int *slot = (__global atomic_int *)&own[i];
  atomic_init(slot, in[i]);
  int a = atomic_fetch_add_explicit(slot, 5, memory_order_relaxed, memory_scope_device);
  int b = atomic_fetch_sub(slot, 2);
  int c = atomic_fetch_max_explicit(slot, 7, memory_order_acq_rel, memory_scope_work_group);
  int d = atomic_fetch_min(slot, 50);
  int e = atomic_exchange_explicit(slot, a ^ b, memory_order_seq_cst, memory_scope_device);
  int expected = a ^ b;
  bool ok1 = atomic_compare_exchange_strong(slot, &expected, c + d);
  int wrong = 12345;
  bool ok2 = atomic_compare_exchange_weak_explicit(slot, &wrong, 0, memory_order_acq_rel,
                                                   memory_order_acquire, memory_scope_device);
  int l = atomic_load_explicit(slot, memory_order_acquire, memory_scope_device);
  atomic_store_explicit(slot, l + e + (ok1 ? 1000 : 0) + (ok2 ? 2000 : 0) + wrong * 3,
                        memory_order_release);
  __global atomic_uint *w = (__global atomic_uint *)&bits[i];
  atomic_init(w, (uint)in[i]);
  atomic_fetch_or(w, 0xf0u);
  atomic_fetch_xor_explicit(w, 0x0fu, memory_order_relaxed);
  atomic_fetch_and_explicit(w, ~1u, memory_order_release, memory_scope_work_group);
  uint m = atomic_fetch_max(w, 0x80000000u);
  atomic_store(w, atomic_load(w) ^ (m & 0xffu));
  // Shared counters: sums, extremes and bits do not depend on the order.
  __global atomic_int *counter = (__global atomic_int *)shared;
  atomic_fetch_add_explicit(&counter[0], (int)i, memory_order_relaxed, memory_scope_device);
  atomic_fetch_max(&counter[1], in[i]);
  atomic_fetch_min_explicit(&counter[2], in[i], memory_order_seq_cst, memory_scope_device);
  atomic_fetch_or(&counter[3], 1 << (i & 31));
  atomic_fetch_sub_explicit(&counter[4], 1, memory_order_acq_rel, memory_scope_all_svm_devices);
  // Flags: one winner each.
  __global atomic_flag *f = (__global atomic_flag *)&counter[8 + (i & 3)];
  if (!atomic_flag_test_and_set_explicit(f, memory_order_acq_rel, memory_scope_device))
    atomic_fetch_add(&counter[5], 1);
  // A __local counter: each work-group's items.
  __local atomic_int group_count;
  if (get_local_id(0) == 0)
    atomic_init(&group_count, 0);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  atomic_fetch_add_explicit(&group_count, 1, memory_order_relaxed, memory_scope_work_group);
  atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_seq_cst, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);
  if (get_local_id(0) == 0)
    atomic_fetch_add(&counter[6], atomic_load_explicit(&group_count, memory_order_relaxed,
                                                       memory_scope_work_group));
  // A work-item's own flag: set, set again, cleared, set.
  __global atomic_flag *mine = (__global atomic_flag *)&counter[32 + i];
  int first = atomic_flag_test_and_set(mine);
  int again = atomic_flag_test_and_set_explicit(mine, memory_order_seq_cst);
  atomic_flag_clear_explicit(mine, memory_order_release, memory_scope_device);
  int cleared = atomic_flag_test_and_set_explicit(mine, memory_order_acquire, memory_scope_work_group);
  atomic_flag_clear(mine);
  own[i] += first + again * 2 + cleared * 4;
}
