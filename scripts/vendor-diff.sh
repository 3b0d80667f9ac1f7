#!/usr/bin/env bash
# Regenerate vendor/patches/NAME.patch: the difference between the crate as published
# (PUBLISHED, its unpacked directory, e.g. under ~/.cargo/registry/src/) and vendor/NAME.
# Usage: scripts/vendor-diff.sh PUBLISHED NAME        (vendor/README.md tells when)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 PUBLISHED_CRATE_DIR NAME" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$1" "$work/a"
cp -r "$root/vendor/$2" "$work/b"
# What the copy leaves out on purpose (vendor/README.md) is not part of the patch.
for left_out in .cargo-ok .github .vscode .gitignore tests; do
  if [ ! -e "$work/b/$left_out" ]; then rm -rf "${work:?}/a/$left_out"; fi
done
# diff exits 1 when the trees differ, which is the point.
(cd "$work" && diff -ruN a b || [ $? -eq 1 ]) |
  sed -E 's#^(---|\+\+\+) ([ab]/[^\t]*)\t.*#\1 \2#' > "$root/vendor/patches/$2.patch"
grep -c '^diff ' "$root/vendor/patches/$2.patch" | sed "s/\$/ files changed in $2/"
