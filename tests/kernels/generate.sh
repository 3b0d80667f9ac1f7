#!/usr/bin/env bash
# Regenerate tests/fixtures/ from tests/kernels/*.cl with clang-14 (needs clang-14, llvm-14), each
# as the OpenCL C version its `//@std CLx.y` line names (CL1.2 without one; `//@std CLC++`: C++ for OpenCL).
#   modern/NAME.spir64.bc, modern/NAME.spir.bc  clang-14 -O2 SPIR (function metadata)
#   legacy/NAME.spir64.bc                       legacy-shaped SPIR 1.2 (!opencl.kernels, i32 samplers)
#   o0/NAME.spir64.bc                           clang-14 -O0 (allocas, images and samplers in memory)
#   legacy-o0/NAME.spir64.bc                    the -O0 module in the legacy SPIR 1.2 shape
# With arguments (kernel names, e.g. `generate.sh minmax_float`), only those kernels.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../fixtures"
llvm=/usr/lib/llvm-14/bin
mkdir -p "$out/modern" "$out/legacy" "$out/o0" "$out/legacy-o0"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
sources=("$here"/*.cl)
[ $# -gt 0 ] && sources=("${@/#/$here/}") && sources=("${sources[@]/%/.cl}")
for cl in "${sources[@]}"; do
  name=$(basename "$cl" .cl)
  # The OpenCL C version: the source's `//@std CLx.y` line, CL1.2 without one.
  std=$(sed -n 's#^//@std \(CL[0-9.C+]*\).*#\1#p' "$cl" | head -n1)
  std=${std:-CL1.2}
  for triple in spir64 spir; do
    clang-14 -cc1 -triple "$triple-unknown-unknown" -emit-llvm-bc -cl-std=$std -cl-kernel-arg-info -finclude-default-header \
      -O2 -disable-llvm-passes "$cl" -o "$tmp/$name.$triple.raw.bc"
    "$llvm/opt" -O2 "$tmp/$name.$triple.raw.bc" -o "$out/modern/$name.$triple.bc"
  done
  clang-14 -cc1 -triple spir64-unknown-unknown -emit-llvm-bc -cl-std=$std -cl-kernel-arg-info \
    -finclude-default-header -O0 "$cl" -o "$out/o0/$name.spir64.bc"
  for shape in modern o0; do
    legacy=legacy; [ "$shape" = o0 ] && legacy=legacy-o0
    "$llvm/llvm-dis" "$out/$shape/$name.spir64.bc" -o "$tmp/$name.ll"
    python3 "$here/legacy_shape.py" < "$tmp/$name.ll" > "$tmp/$name.legacy.ll"
    "$llvm/llvm-as" "$tmp/$name.legacy.ll" -o "$out/$legacy/$name.spir64.bc"
  done
done
