// Application-shaped program: a four-species reaction-diffusion system in 16.16 fixed point
// on a 2D grid, structure of arrays with ping-pong buffers, as a chemistry code steps it.
// The step kernel takes 22 arguments, 17 of them buffers (four species in, four out, four
// source terms, the feed and kill maps, the obstacle mask, the rate table, a change counter):
// their device addresses alone pass the 128 bytes of push constants Vulkan promises, so a
// Vulkan module passes addresses and values in a uniform argument buffer
// (ArgumentPointerUniform, ArgumentPodUniform), a byte and a short among the values. Two
// steps (the second reads what the first wrote), then the species' totals in two passes.
//
//@exec react_diffuse global=16,16 local=8,8 io:i32[256]=0..131072 io:i32[256]=0..131072 io:i32[256]=0..131072 io:i32[256]=0..131072 out:i32[256] out:i32[256] out:i32[256] out:i32[256] in:i32[256]=-64..64 in:i32[256]=-64..64 in:i32[256]=-64..64 in:i32[256]=-64..64 in:i32[256]=0..4096 in:i32[256]=0..4096 in:u8[256]=0..7 in:i32[8]=64..40000 out:i32[1] i32=16384 i32=16 i32=16 u8=1 i16=0
//@then react_diffuse global=16,16 local=8,8 arg:4 arg:5 arg:6 arg:7 arg:0 arg:1 arg:2 arg:3 arg:8 arg:9 arg:10 arg:11 arg:12 arg:13 arg:14 arg:15 arg:16 arg:17 arg:18 arg:19 u8=0 i16=1
//@then species_totals global=256 local=64 arg:0 arg:1 arg:2 arg:3 out:i32[16] local:i32[256] i32=256
//@then totals_final global=4 local=4 arg:24 out:i32[4] i32=4

// The 3x3 Laplacian's weights, times 4.
__constant int STENCIL[9] = {1, 2, 1, 2, -12, 2, 1, 2, 1};

#define ONE (1 << 16)

static int fx_mul(int a, int b) { return (int)(((long)a * b) >> 16); }

// The Laplacian of u at (x, y): the grid wraps around, or its edge cells repeat.
static int laplacian(__global const int *u, int x, int y, int w, int h, uchar wrap) {
  int sum = 0;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      int xx = x + dx, yy = y + dy;
      if (wrap) {
        xx = (xx + w) % w;
        yy = (yy + h) % h;
      } else {
        xx = clamp(xx, 0, w - 1);
        yy = clamp(yy, 0, h - 1);
      }
      sum += STENCIL[(dy + 1) * 3 + dx + 1] * u[yy * w + xx];
    }
  return sum >> 2;
}

static int settle(int u, int rate) { return clamp(u + rate, 0, 2 * ONE); }

// One explicit step: a + 2b -> 3b and c + 2d -> 3d, b and c coupled, each species
// diffusing at its rate (rates[0..3]); rates[4] is the change a cell counts as "still
// moving". Cells under the mask's lowest bit hold still. Odd steps take half the step.
__kernel void react_diffuse(__global const int *a, __global const int *b,
                            __global const int *c, __global const int *d, __global int *na,
                            __global int *nb, __global int *nc, __global int *nd,
                            __global const int *sa, __global const int *sb,
                            __global const int *sc, __global const int *sd,
                            __global const int *feed, __global const int *kill,
                            __global const uchar *mask, __constant int *rates,
                            __global int *changed, int dt, int w, int h, uchar wrap,
                            short step) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h)
    return;
  int i = y * w + x;
  int ua = a[i], ub = b[i], uc = c[i], ud = d[i];
  if (mask[i] & 1) {
    na[i] = ua;
    nb[i] = ub;
    nc[i] = uc;
    nd[i] = ud;
    return;
  }
  int r1 = fx_mul(ua, fx_mul(ub, ub));
  int r2 = fx_mul(uc, fx_mul(ud, ud));
  int r3 = fx_mul(ub, uc) >> 1;
  int f = feed[i], k = kill[i];
  int da = fx_mul(rates[0], laplacian(a, x, y, w, h, wrap)) - r1 + fx_mul(f, ONE - ua) + sa[i];
  int db = fx_mul(rates[1], laplacian(b, x, y, w, h, wrap)) + r1 - fx_mul(k + f, ub) - r3 + sb[i];
  int dc = fx_mul(rates[2], laplacian(c, x, y, w, h, wrap)) - r2 + fx_mul(f, ONE - uc) + r3 + sc[i];
  int dd = fx_mul(rates[3], laplacian(d, x, y, w, h, wrap)) + r2 - fx_mul(k + f, ud) + sd[i];
  int h_dt = dt >> (step & 1);
  na[i] = settle(ua, fx_mul(h_dt, da));
  nb[i] = settle(ub, fx_mul(h_dt, db));
  nc[i] = settle(uc, fx_mul(h_dt, dc));
  nd[i] = settle(ud, fx_mul(h_dt, dd));
  if (abs(fx_mul(h_dt, db)) > rates[4] || abs(fx_mul(h_dt, dd)) > rates[4])
    atomic_inc(changed);
}

// Each work-group's total of each species: partial[4 * group + species].
__kernel void species_totals(__global const int *a, __global const int *b,
                             __global const int *c, __global const int *d,
                             __global int *partial, __local int *scratch, int n) {
  int l = get_local_id(0), i = get_global_id(0), size = get_local_size(0);
  __global const int *s[4] = {a, b, c, d};
  for (int k = 0; k < 4; k++)
    scratch[k * size + l] = i < n ? s[k][i] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s2 = size / 2; s2 > 0; s2 >>= 1) {
    if (l < s2)
      for (int k = 0; k < 4; k++)
        scratch[k * size + l] += scratch[k * size + l + s2];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    for (int k = 0; k < 4; k++)
      partial[4 * get_group_id(0) + k] = scratch[k * size];
}

// The totals over the work-groups, one species a work-item.
__kernel void totals_final(__global const int *partial, __global int *totals, int groups) {
  int k = get_global_id(0);
  int t = 0;
  for (int g = 0; g < groups; g++)
    t += partial[4 * g + k];
  totals[k] = t;
}
