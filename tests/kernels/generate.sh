#!/usr/bin/env bash
# Regenerate tests/fixtures/ from tests/kernels/*.cl with clang-14 (needs clang-14, llvm-14), each
# as the OpenCL C version its `//@std CLx.y` line names (CL1.2 without one; `//@std CLC++`: C++ for OpenCL),
# with the build options its `//@options` line names (`-cl-fast-relaxed-math`), if any.
#   modern/NAME.spir64.bc, modern/NAME.spir.bc  clang-14 -O2 SPIR (function metadata)
#   legacy/NAME.spir64.bc                       legacy-shaped SPIR 1.2 (!opencl.kernels, i32 samplers)
#   o0/NAME.spir64.bc                           clang-14 -O0 (allocas, images and samplers in memory)
#   legacy-o0/NAME.spir64.bc                    the -O0 module in the legacy SPIR 1.2 shape
# and, for the kernels DEBUG lists, with debug information (clang -g, DWARF 4):
#   debug/NAME.spir64.bc                        -O2 -g (inlined helpers: inlined-at locations)
#   debug-o0/NAME.spir64.bc                     -O0 -g (every variable declared)
#   legacy-debug/NAME.spir64.bc                 the -O0 -g module in the legacy SPIR 1.2 shape
# With arguments (kernel names, e.g. `generate.sh minmax_float`), only those kernels.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../fixtures"
llvm=/usr/lib/llvm-14/bin
mkdir -p "$out/modern" "$out/legacy" "$out/o0" "$out/legacy-o0" "$out/debug" "$out/debug-o0" \
  "$out/legacy-debug"
# A representative set, built with debug information too: buffers, images, local memory,
# structs and unions, control flow, inlined helpers, printf, C++ classes and templates,
# generic pointers, sub-groups.
DEBUG="vector_add matmul_tiled images helper_calls cpp_classes structs_private control_flow
  local_reduce printf_formats switch_goto unions_byval private_arrays vectors generic_space
  sub_groups"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
sources=("$here"/*.cl)
[ $# -gt 0 ] && sources=("${@/#/$here/}") && sources=("${sources[@]/%/.cl}")
for cl in "${sources[@]}"; do
  name=$(basename "$cl" .cl)
  # The OpenCL C version: the source's `//@std CLx.y` line, CL1.2 without one.
  std=$(sed -n 's#^//@std \(CL[0-9.C+]*\).*#\1#p' "$cl" | head -n1)
  std=${std:-CL1.2}
  opts=$(sed -n 's#^//@options \(.*\)#\1#p' "$cl" | head -n1)
  for triple in spir64 spir; do
    clang-14 -cc1 -triple "$triple-unknown-unknown" -emit-llvm-bc -cl-std=$std $opts -cl-kernel-arg-info -finclude-default-header \
      -O2 -disable-llvm-passes "$cl" -o "$tmp/$name.$triple.raw.bc"
    "$llvm/opt" -O2 "$tmp/$name.$triple.raw.bc" -o "$out/modern/$name.$triple.bc"
  done
  clang-14 -cc1 -triple spir64-unknown-unknown -emit-llvm-bc -cl-std=$std $opts -cl-kernel-arg-info \
    -finclude-default-header -O0 "$cl" -o "$out/o0/$name.spir64.bc"
  for shape in modern o0; do
    legacy=legacy; [ "$shape" = o0 ] && legacy=legacy-o0
    "$llvm/llvm-dis" "$out/$shape/$name.spir64.bc" -o "$tmp/$name.ll"
    python3 "$here/legacy_shape.py" < "$tmp/$name.ll" > "$tmp/$name.legacy.ll"
    "$llvm/llvm-as" "$tmp/$name.legacy.ll" -o "$out/$legacy/$name.spir64.bc"
  done
  case " $(echo $DEBUG) " in *" $name "*) ;; *) continue ;; esac
  # Compiled from the kernels' folder under the name the repository gives it, so that the
  # files the debug information names are the same on every machine.
  g="-debug-info-kind=limited -dwarf-version=4 -fdebug-compilation-dir=tests/kernels -main-file-name $name.cl"
  (cd "$here" && clang-14 -cc1 -triple spir64-unknown-unknown -emit-llvm-bc -cl-std=$std $opts \
    -cl-kernel-arg-info -finclude-default-header -O2 -disable-llvm-passes $g "$name.cl" \
    -o "$tmp/$name.g.raw.bc")
  "$llvm/opt" -O2 "$tmp/$name.g.raw.bc" -o "$out/debug/$name.spir64.bc"
  (cd "$here" && clang-14 -cc1 -triple spir64-unknown-unknown -emit-llvm-bc -cl-std=$std $opts \
    -cl-kernel-arg-info -finclude-default-header -O0 $g "$name.cl" \
    -o "$out/debug-o0/$name.spir64.bc")
  "$llvm/llvm-dis" "$out/debug-o0/$name.spir64.bc" -o "$tmp/$name.g.ll"
  python3 "$here/legacy_shape.py" < "$tmp/$name.g.ll" > "$tmp/$name.g.legacy.ll"
  "$llvm/llvm-as" "$tmp/$name.g.legacy.ll" -o "$out/legacy-debug/$name.spir64.bc"
done
