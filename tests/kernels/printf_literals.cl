//@exec printf_literals global=2 out:i32[2] in:f32[2]
// A float-only kernel that prints float literals, which C's argument promotion widens to
// 64-bit constants: its Vulkan module declares no 64-bit floats, and its reflection asks
// for none.
__kernel void printf_literals(__global int *ret, __global const float *x) {
  size_t i = get_global_id(0);
  // What printf returns is left out: the Intel runtime returns the characters printed.
  printf("%e %g %.2f\n", 3.25f, x[i], 0.5f);
  ret[i] = (int)i;
}
