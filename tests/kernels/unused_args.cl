// A kernel that reads none of its arguments (the conformance suite's API tests have many):
// its push-constant block (the sampler's normalized-coordinates word) is declared and
// read by nothing; it was written without its Block layout for Vulkan, invalid SPIR-V.
// Not run: it has no output.
__kernel void unused_args(read_only image2d_t img, write_only image2d_t out, sampler_t s) {}
