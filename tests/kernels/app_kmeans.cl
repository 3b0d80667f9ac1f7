// Application-shaped program: k-means clustering, as a data-mining suite iterates it on the
// GPU: label each point with its nearest centroid, count and sum each cluster's members,
// move the centroids to their means; two iterations, each kernel's output the next one's
// input. The distance is one helper for all kernels that need it.
//
//@exec assign_labels global=256 local=64 in:f32[1024]=-4..4 io:f32[32]=-4..4 out:i32[256] i32=256 i32=8 i32=4
//@then clear_clusters global=32 local=32 out:u32[8] out:f32[32] i32=8 i32=4
//@then count_members global=256 local=64 arg:2 arg:6 arg:3
//@then sum_members global=32 local=32 arg:0 arg:2 arg:7 arg:3 arg:4 arg:5
//@then move_centroids global=32 local=32 arg:7 arg:6 arg:1 arg:4 arg:5
//@then assign_labels global=256 local=64 arg:0 arg:1 arg:2 arg:3 arg:4 arg:5
//@then clear_clusters global=32 local=32 arg:6 arg:7 arg:8 arg:9
//@then count_members global=256 local=64 arg:2 arg:6 arg:3
//@then sum_members global=32 local=32 arg:0 arg:2 arg:7 arg:3 arg:4 arg:5
//@then move_centroids global=32 local=32 arg:7 arg:6 arg:1 arg:4 arg:5

static float distance2(__global const float *p, __global const float *c, int d) {
  float s = 0.0f;
  for (int j = 0; j < d; j++) {
    float t = p[j] - c[j];
    s += t * t;
  }
  return s;
}

__kernel void assign_labels(__global const float *points, __global const float *centroids,
                            __global int *labels, int n, int k, int d) {
  int i = get_global_id(0);
  if (i >= n)
    return;
  int best = 0;
  float best_d = distance2(points + i * d, centroids, d);
  for (int c = 1; c < k; c++) {
    float dc = distance2(points + i * d, centroids + c * d, d);
    if (dc < best_d) {
      best_d = dc;
      best = c;
    }
  }
  labels[i] = best;
}

__kernel void clear_clusters(__global uint *counts, __global float *sums, int k, int d) {
  int i = get_global_id(0);
  if (i < k)
    counts[i] = 0;
  if (i < k * d)
    sums[i] = 0.0f;
}

__kernel void count_members(__global const int *labels, __global uint *counts, int n) {
  int i = get_global_id(0);
  if (i < n)
    atomic_inc(&counts[labels[i]]);
}

// One work-item per (cluster, dimension): the sum over the cluster's points, in order.
__kernel void sum_members(__global const float *points, __global const int *labels,
                          __global float *sums, int n, int k, int d) {
  int i = get_global_id(0);
  if (i >= k * d)
    return;
  int c = i / d, j = i % d;
  float s = 0.0f;
  for (int p = 0; p < n; p++)
    if (labels[p] == c)
      s += points[p * d + j];
  sums[i] = s;
}

__kernel void move_centroids(__global const float *sums, __global const uint *counts,
                             __global float *centroids, int k, int d) {
  int i = get_global_id(0);
  if (i < k * d && counts[i / d] > 0)
    centroids[i] = sums[i] / counts[i / d];
}
