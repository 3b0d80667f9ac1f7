#!/usr/bin/env bash
# Every fixture through every road with two builds of the tool, and the outputs compared byte
# for byte: the check that a change meant to keep behaviour (a move of files, a renamed room, a
# context's state regrouped) kept it.
#
#   scripts/byte_identity.sh OLD_BINARY NEW_BINARY [FIXTURE_DIR...]
#
# A build of another commit, for OLD_BINARY: `git checkout -q COMMIT && cargo build --release
# --bin spir-xlate && cp target/release/spir-xlate /tmp/old-xlate && git checkout -q -`
# (a worktree elsewhere would build the vendored SPIRV-Tools again).
#
# The roads, for each fixture (tests/fixtures/*/ unless named): to-spirv (OpenCL), to-spirv
# for Vulkan with its reflection under physical pointers and the module under descriptors,
# to-opencl-c, and the OpenCL SPIR-V back through to-spir in both flavors. A refusal is an
# output too: each road's exit code and messages are compared as well. Exit 0 when every
# output is the same, 1 naming those that differ.
set -euo pipefail
[ $# -ge 2 ] || { sed -n 2,16p "$0" >&2; exit 2; }
old=$(realpath "$1"); new=$(realpath "$2"); shift 2
cd "$(dirname "$0")/.."
dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=(tests/fixtures/*/)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

emit() {
  local bin=$1 out=$2
  mkdir -p "$out"
  for d in "${dirs[@]}"; do
    local shape
    shape=$(basename "$d")
    for f in "$d"/*.bc; do
      local n="$out/$shape.$(basename "$f" .bc)"
      {
        "$bin" to-spirv -q "$f" -o "$n.spv"; echo "to-spirv $?"
        "$bin" to-spirv -q "$f" --target vulkan1.2 -o "$n.vk.spv" --reflection "$n.vk.json"
        echo "vulkan physical $?"
        "$bin" to-spirv -q "$f" --target vulkan1.2 --vulkan-pointers descriptors -o "$n.vkd.spv"
        echo "vulkan descriptors $?"
        "$bin" to-opencl-c -q "$f" -o "$n.cl"; echo "to-opencl-c $?"
        if [ -f "$n.spv" ]; then
          "$bin" to-spir -q "$n.spv" -o "$n.back.bc"; echo "to-spir $?"
          "$bin" to-spir -q "$n.spv" --flavor spirv-ir -o "$n.friendly.bc"; echo "spirv-ir $?"
        fi
      } > "$n.log" 2>&1 || true
      # Messages name the output paths, which differ between the two runs.
      sed -i "s|$out/||g" "$n.log"
    done
  done
}

emit "$old" "$work/old"
emit "$new" "$work/new"
count=$(find "$work/old" -type f | wc -l)
if diff -rq "$work/old" "$work/new" > "$work/diff"; then
  echo "byte-identical: $count outputs (exit codes and messages included)"
else
  cat "$work/diff"
  echo "$(wc -l < "$work/diff") of $count outputs differ"
  exit 1
fi
