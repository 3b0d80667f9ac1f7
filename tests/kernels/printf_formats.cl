//@exec printf_formats global=4 out:i32[4] in:f32[16]
__constant char label[] = "lbl";
__kernel void printf_formats(__global int *ret, __global const float4 *v) {
  size_t i = get_global_id(0);
  int r = printf("i=%u f=%.3f e=%e x=%#x s=%s c=%c\n", (uint)i, v[i].x, v[i].y, (int)i * 255, "str", 'A' + (int)i);
  r += printf("%v4hlf|%5d|%-8s|%ld\n", v[i], (int)i, label, (long)i << 40);
  ret[i] = r + 100;
}
