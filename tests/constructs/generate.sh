#!/usr/bin/env bash
# Make tests/constructs/NAME.{O0,O2}.bc from NAME.cl with clang-14 (SPIR 1.2, spir64): the
# constructs real modules trip on (issue: trust), each checked by tests/constructs.rs.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
for cl in "$here"/*.cl; do
  name=$(basename "$cl" .cl)
  for o in O0 O2; do
    clang-14 -cc1 -triple spir64-unknown-unknown -emit-llvm-bc -cl-std=CL1.2 -cl-kernel-arg-info \
      -finclude-default-header -$o "$cl" -o "$here/$name.$o.bc"
  done
done
