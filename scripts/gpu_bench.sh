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
clocks
"$here/bin/vkhost" --bench "$here/bench.json" "$OUT/bench-gpu.json" > "$OUT/vulkan.log" 2>&1
clocks
"$here/bin/vkhost" --bench "$here/bench.json" "$OUT/bench-gpu-robust.json" --robust \
  > "$OUT/vulkan-robust.log" 2>&1
clocks
mkdir -p /tmp/icd
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
OCL_ICD_VENDORS=/tmp/icd "$here/bin/gpu" --native NVIDIA --size gpu --out "$here" \
  --kernels @KERNELS@ > "$OUT/native.log" 2>&1
cp "$here/native.json" "$OUT/bench-native.json" 2>/dev/null
for f in "$here"/*.native.bin; do [ -e "$f" ] && cp "$f" "$OUT/$(basename "$f" .bin).ptx"; done
clocks
tail -n 3 "$OUT"/*.log
RUN
echo "bash $dir/run.sh    # device tool, carry [\"$dir\"]"
