//@exec escape_time global=32,8 local=8,8 out:i32[256] i32=-8192 i32=-4096 i32=384 i32=1024 i32=64
//@exec first_above global=64 in:i32[64]=0..100 out:i32[64] i32=64 i32=90
// Escape-time iterations in 4.12 fixed point: a loop that leaves on either of two tests
// (the count, the radius), as clang rotates `while (a && b)`: the header tests one and the
// latch the other. The Vulkan lowering runs such a latch whenever the header runs and leaves
// from it alone (one exit; exit_merge.rs), where the latch only computes.
__kernel void escape_time(__global int *out, int x0, int y0, int dx, int dy, int max_iter) {
  int px = get_global_id(0), py = get_global_id(1);
  int cx = x0 + px * dx, cy = y0 + py * dy;
  int zx = 0, zy = 0;
  int it = 0;
  while (it < max_iter && ((zx * zx + zy * zy) >> 12) <= (4 << 12)) {
    int t = ((zx * zx - zy * zy) >> 12) + cx;
    zy = ((2 * zx * zy) >> 12) + cy;
    zx = t;
    ++it;
  }
  out[py * get_global_size(0) + px] = it == max_iter ? -1 : it;
}

// The first index from the work-item's own whose value passes `limit`: a search loop whose
// header reads memory and whose latch only counts (both exits go to one block).
__kernel void first_above(__global const int *v, __global int *found, int n, int limit) {
  int i = get_global_id(0);
  int j = i;
  while (j < n && v[j] <= limit)
    j++;
  found[i] = j;
}
