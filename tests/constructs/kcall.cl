__kernel void inner(__global int *a) { a[get_global_id(0)] += 1; }
__kernel void outer(__global int *a) { inner(a); a[get_global_id(0)] *= 3; }
