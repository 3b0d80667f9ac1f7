// Not executed: PoCL's kernel library has no `_Z9mem_fencej` (its fences are header macros),
// so no SPIR binary that calls mem_fence links there. Translation and validation cover them.
__kernel void mem_fences(__global int *out, __local int *tmp) {
  size_t l = get_local_id(0);
  tmp[l] = (int)l;
  mem_fence(CLK_LOCAL_MEM_FENCE);
  read_mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  out[l] = tmp[l ^ 1];
  write_mem_fence(CLK_GLOBAL_MEM_FENCE);
  mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}
