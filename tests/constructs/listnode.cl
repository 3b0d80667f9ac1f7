typedef struct Node { int v; __global struct Node *next; } Node;
__kernel void walk(__global Node *nodes, __global int *out) {
  int i = get_global_id(0);
  int sum = 0;
  __global Node *n = &nodes[i];
  while (n) { sum += n->v; n = n->next; }
  out[i] = sum;
}
