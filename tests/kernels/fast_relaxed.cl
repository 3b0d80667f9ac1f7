//@options -cl-fast-relaxed-math
//@exec fast_relaxed global=64 out:f32[256] in:f32[64]=-8..8 in:f32[64]=1..5
// A particle update written for -cl-fast-relaxed-math, as game and physics code is built:
// every float operation carries LLVM's `fast` flags, which SPIR-V says as FPFastMathMode.
// The values are chosen so that each relaxation the option allows (contraction, reciprocals,
// reassociation, no signed zeros) gives the strict result: whole numbers, divisions by
// powers of two. So every producer's module must give the source's bits.

float kinetic(float m, float v) { return 0.5f * m * v * v; }

__kernel void fast_relaxed(__global float *out, __global const float *pos,
                           __global const float *mass) {
  size_t i = get_global_id(0);
  float x = floor(pos[i]);
  float m = floor(mass[i]);
  float v = x * 2.0f + m;
  float e = kinetic(m, v);
  float drag = v / 4.0f - m * 0.125f;
  out[4 * i] = e;
  out[4 * i + 1] = drag;
  out[4 * i + 2] = fmax(x, m) - fmin(x, m);
  out[4 * i + 3] = (x + m) * (x - m) / 8.0f + e * 0.5f;
}
