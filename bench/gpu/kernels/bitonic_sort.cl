// One compare-and-swap step of a bitonic sort over uint keys (the host runs log2(n)^2 / 2
// of them with growing `stage` and shrinking `pass`): the global-memory sorting network.
//@bench bitonic_sort global=8388608 local=256 io:u32[16777216] i32=20 i32=10
//@bench-cpu bitonic_sort global=524288 local=256 io:u32[1048576] i32=16 i32=10
__kernel void bitonic_sort(__global uint *keys, int stage, int pass) {
  const uint i = get_global_id(0);
  const uint dist = 1u << pass;
  const uint left = ((i >> pass) << (pass + 1)) | (i & (dist - 1));
  const uint right = left + dist;
  const bool ascending = ((left >> (stage + 1)) & 1u) == 0;
  const uint a = keys[left], b = keys[right];
  if ((a > b) == ascending) {
    keys[left] = b;
    keys[right] = a;
  }
}
