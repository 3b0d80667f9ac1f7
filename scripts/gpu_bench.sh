#!/bin/bash
# Every column of the GPU benchmark in one run of the GPU machine (docs/testing.md, "The
# speed of the code we emit"): run here, it builds the kernels' modules (ours under both
# pointer strategies, clspv's) into .gpubench/ with the binaries and the Vulkan loader the
# machine may lack, and prints the command to give the device tool (carry [".gpubench"]).
# There, .gpubench/run.sh times the Vulkan modules with robustBufferAccess off and on
# (vkhost --bench) and the kernels' own source on NVIDIA's OpenCL (bench gpu --native), and
# records the GPU's clocks before and after; put the files it returns in docs/logs/
# (bench-gpu.json, bench-gpu-robust.json, bench-native.json, bench-gpu-clocks.csv), then run
# scripts/status.py.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .gpubench && mkdir -p .gpubench/bin .gpubench/debs
cargo build --release
cargo build --release --manifest-path tests/vkhost/Cargo.toml
bench=$(cargo bench --bench gpu --no-run --message-format=json 2>/dev/null \
  | python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("executable") and m.get("target", {}).get("name") == "gpu":
        print(m["executable"])')
"$bench" --size gpu --out .gpubench
cp "$bench" .gpubench/bin/gpu
cp tests/vkhost/target/release/vkhost .gpubench/bin/vkhost
# NVIDIA's Vulkan driver lives in libGLX_nvidia and needs the glvnd libraries beside the
# loader (docs/testing.md).
(cd .gpubench/debs && apt-get download -q libvulkan1 libglvnd0 libglx0 libegl1 libgl1 \
  libgles2 libopengl0 >/dev/null)
cat > .gpubench/run.sh <<'RUN'
#!/bin/bash
# On the GPU machine, from the repository root: every column into $OUT.
set -u
here=$PWD/.gpubench
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
  > "$OUT/native.log" 2>&1
cp "$here/native.json" "$OUT/bench-native.json" 2>/dev/null
clocks
tail -n 3 "$OUT"/*.log
RUN
echo 'bash .gpubench/run.sh    # device tool, carry [".gpubench"]'
