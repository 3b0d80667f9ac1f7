//@exec mem_fences global=16 local=16 out:i32[16] local:i32[16]
// Not run on PoCL: its kernel library has no `_Z9mem_fencej` (its fences are header macros),
// so no SPIR binary that calls mem_fence links there (tests/exec/main.rs says so). The Intel
// tier runs it. (A fence orders one work-item's accesses: each reads back its own slot.)
__kernel void mem_fences(__global int *out, __local int *tmp) {
  size_t l = get_local_id(0);
  tmp[l] = (int)l;
  mem_fence(CLK_LOCAL_MEM_FENCE);
  read_mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  out[l] = tmp[l] * 3 + 1;
  write_mem_fence(CLK_GLOBAL_MEM_FENCE);
  mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}
