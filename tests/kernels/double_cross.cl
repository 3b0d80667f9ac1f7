//@exec double_cross global=32 out:f64[256] in:f64[128]=-1000..1000
// cross of double3 and double4 (w = 0), whose products here are exact (integer
// components), so any order of the operations gives the same bits; GLSL.std.450's Cross
// takes 3-vectors only.
__kernel void double_cross(__global double *out, __global const double *in) {
  int i = get_global_id(0);
  double4 a = floor(vload4(i, in)), b = floor(vload4((i + 5) & 31, in));
  vstore4(cross(a, b), i, out);
  double3 c = cross(a.xyz, b.zyx);
  vstore4((double4)(c, cross(c, a.yzx).z), i + 32, out);
}
