//@exec unions_byval global=16 in:f32[16] in:i32[16] out:i32[64] out:f32[32]
// What real kernels have and conformance kernels rarely do (issue: trust, item 5): unions,
// nested structs with arrays, structs passed and returned by value, a linked list of nodes in
// private memory.
typedef union { float f; uint u; uchar b[4]; } Bits;
typedef struct { int a; float b; short c[3]; } Inner;
typedef struct { Inner in; int tag; Inner arr[2]; } Outer;
typedef struct Node { int v; struct Node *next; } Node;
__attribute__((noinline)) Inner make_inner(int a, float b) {
  Inner r;
  r.a = a;
  r.b = b;
  r.c[0] = (short)a;
  r.c[1] = (short)(a * 2);
  r.c[2] = (short)-a;
  return r;
}
__attribute__((noinline)) int sum_outer(Outer o) {
  return o.in.a + o.tag + o.arr[0].c[1] + o.arr[1].c[2] + (int)o.arr[1].b;
}
__attribute__((noinline)) float scale(Inner x, float k) { return x.b * k + x.c[0]; }
__kernel void unions_byval(__global const float *xf, __global const int *xi, __global int *o,
                           __global float *of) {
  int i = get_global_id(0);
  Bits u;
  u.f = xf[i];
  o[i] = (int)u.u;
  o[i + 16] = u.b[3];
  Outer ou;
  ou.in = make_inner(xi[i], xf[i]);
  ou.tag = i;
  ou.arr[0] = make_inner(i, 1.5f);
  ou.arr[1] = make_inner(xi[i] >> 3, xf[i] * 3.0f);
  o[i + 32] = sum_outer(ou);
  of[i] = scale(ou.arr[1], 0.25f);
  Node nodes[4];
  for (int k = 0; k < 4; k++) {
    nodes[k].v = xi[(i + k) & 15];
    nodes[k].next = k < 3 ? &nodes[k + 1] : 0;
  }
  int s = 0;
  for (Node *p = &nodes[0]; p; p = p->next)
    s = s * 3 + p->v;
  o[i + 48] = s;
  Bits w;
  w.u = (uint)xi[i] | 0x3f800000u;
  of[i + 16] = w.f + u.f;
}
