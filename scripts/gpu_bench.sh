#!/bin/bash
# Every column of the GPU benchmark in one run of the GPU machine (docs/testing.md, "The
# speed of the code we emit"): run here, it builds the kernels' modules (ours under both
# pointer strategies, clspv's) into .gpubench/ with the binaries and the Vulkan loader the
# machine may lack, and prints the command to give the device tool (carry [".gpubench"]).
# There, .gpubench/run.sh times the Vulkan modules with robustBufferAccess off and on
# (vkhost --bench, with what the driver's compiler says of each pipeline) and the kernels'
# own source on NVIDIA's OpenCL (bench gpu --native), and records the GPU's clocks before
# and after; put the files it returns in docs/logs/ (bench-gpu.json, bench-gpu-robust.json,
# bench-native.json, bench-gpu-clocks.csv), then run scripts/status.py. It also returns
# what NVIDIA's OpenCL built of each source (<kernel>.native.ptx), to read beside our modules.
# Everything comes back as one archive, $OUT/gpubench.tgz (the device tool returns at most
# eight files). Each kernel is timed in a vkhost process of its own.
#
#   bash scripts/gpu_bench.sh                    # the benchmark, into .gpubench/
#   bash scripts/gpu_bench.sh --variants         # bench/gpu/variants.toml beside the kernels
#                                                # they vary, and ours before this change
#                                                # (--baseline BIN), into .gpuexp/;
#                                                # --with K,... adds more kernels, and
#                                                # hand-edited modules of ours are timed too
set -euo pipefail
cd "$(dirname "$0")/.."
dir=.gpubench
kernels=bench/gpu/kernels
extra=()
with=
while [ $# -gt 0 ]; do
  case "$1" in
    --variants)
      dir=.gpuexp
      kernels=.gpuexp/kernels
      ;;
    --baseline) extra+=(--baseline "$2"); shift ;;
    --with) with=$2; shift ;;
    *) echo "usage: gpu_bench.sh [--variants] [--baseline SPIR_XLATE]" >&2; exit 1 ;;
  esac
  shift
done
rm -rf "$dir" && mkdir -p "$dir/bin" "$dir/debs"
if [ "$dir" = .gpuexp ]; then
  # Each variant beside the kernel it varies (bench/gpu/variants.toml).
  python3 scripts/gpu_variants.py "$kernels" ${with//,/ }
fi
cargo build --release
cargo build --release --manifest-path tests/vkhost/Cargo.toml
bench=$(cargo bench --bench gpu --no-run --message-format=json 2>/dev/null \
  | python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("executable") and m.get("target", {}).get("name") == "gpu":
        print(m["executable"])')
"$bench" --size gpu --out "$dir" --kernels "$kernels" ${extra[@]+"${extra[@]}"}
cp "$bench" "$dir/bin/gpu"
[ "$dir" = .gpuexp ] && python3 scripts/gpu_edits.py "$dir"
cp tests/vkhost/target/release/vkhost "$dir/bin/vkhost"
# NVIDIA's Vulkan driver lives in libGLX_nvidia and needs the glvnd libraries beside the
# loader (docs/testing.md).
(cd "$dir/debs" && apt-get download -q libvulkan1 libglvnd0 libglx0 libegl1 libgl1 \
  libgles2 libopengl0 >/dev/null)
sed "s|@DIR@|$dir|; s|@KERNELS@|$kernels|" > "$dir/run.sh" <<'RUN'
#!/bin/bash
# On the GPU machine, from the repository root: every column into $OUT.
set -u
here=$PWD/@DIR@
if ! ldconfig -p | grep -q 'libvulkan.so.1 '; then
  for d in "$here"/debs/*.deb; do dpkg -x "$d" /tmp/vkroot; done
  export LD_LIBRARY_PATH=/tmp/vkroot/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
fi
icd=$(find /usr/share/vulkan /etc/vulkan /usr/local/nvidia -name 'nvidia_icd*.json' 2>/dev/null \
  | head -1)
[ -n "$icd" ] && export VK_DRIVER_FILES=$icd
clocks() {
  nvidia-smi --query-gpu=timestamp,name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,temperature.gpu,power.draw \
    --format=csv,noheader >> "$OUT/bench-gpu-clocks.csv" 2>&1
}
echo "timestamp, name, driver_version, clocks.sm, clocks.mem, clocks.max.sm, clocks.max.mem, temperature.gpu, power.draw" \
  > "$OUT/bench-gpu-clocks.csv"
# Each kernel in a vkhost process of its own, the results joined into RESULTS: in one
# process for all, a kernel's time depended on what ran before it (the H100, 2026-12-05:
# fft_radix2's same module 0.029 ms among four kernels, 0.059 ms after the application
# programs; docs/logs/h100/README.md).
bench() {
  local results=$1
  shift
  rm -rf /tmp/vkparts && mkdir -p /tmp/vkparts
  python3 - "$here/bench.json" /tmp/vkparts <<'PY'
import json, os, sys
doc = json.load(open(sys.argv[1]))
for i, k in enumerate(doc["kernels"]):
    json.dump(dict(doc, kernels=[k]), open(os.path.join(sys.argv[2], f"{i:03}.json"), "w"))
PY
  for p in /tmp/vkparts/*.json; do
    cp "$p" "$here/part.json"
    "$here/bin/vkhost" --bench "$here/part.json" "$p.out" "$@"
  done
  python3 - "$results" /tmp/vkparts/*.json.out <<'PY'
import json, sys
parts = [json.load(open(p)) for p in sys.argv[2:]]
json.dump(dict(parts[0], kernels=[k for p in parts for k in p["kernels"]]),
          open(sys.argv[1], "w"), indent=1)
PY
}
clocks
bench "$OUT/bench-gpu.json" > "$OUT/vulkan.log" 2>&1
clocks
bench "$OUT/bench-gpu-robust.json" --robust > "$OUT/vulkan-robust.log" 2>&1
clocks
mkdir -p /tmp/icd
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
OCL_ICD_VENDORS=/tmp/icd "$here/bin/gpu" --native NVIDIA --size gpu --out "$here" \
  --kernels @KERNELS@ > "$OUT/native.log" 2>&1
cp "$here/native.json" "$OUT/bench-native.json" 2>/dev/null
for f in "$here"/*.native.bin; do [ -e "$f" ] && cp "$f" "$OUT/$(basename "$f" .bin).ptx"; done
clocks
tail -n 3 "$OUT"/*.log
# The device tool brings back a few files only: every one in one archive.
(cd "$OUT" && tar czf /tmp/gpubench.tgz . && rm -f ./* && mv /tmp/gpubench.tgz .)
RUN
echo "bash $dir/run.sh    # device tool, carry [\"$dir\"]"
