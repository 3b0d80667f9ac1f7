//@exec char_bool global=64 out:u8[256] in:u8[64] in:i8[64]
__kernel void char_bool(__global uchar4 *out, __global const uchar *a, __global const char *b) {
  size_t i = get_global_id(0);
  uchar u = a[i];
  char c = b[i];
  bool big = u > 200;
  bool neg = c < 0;
  uchar4 r;
  r.x = (uchar)(u * 3 + c);
  r.y = big ^ neg ? u / 3 : (uchar)(c % 7);
  r.z = (uchar)((c >> 2) + (u >> 5) + (big && !neg));
  r.w = rotate(u, (uchar)3) | (uchar)(neg << 7);
  out[i] = r;
}
