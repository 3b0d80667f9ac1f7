#!/bin/bash
# The application-shaped programs (issue "real programs": app_*, and the fixtures of many
# kernels and long argument lists) replayed on the GPU machine's Vulkan driver, both pointer
# strategies, four fixture shapes, by vkhost under the reflection it reads literally. Run
# here, it runs the Vulkan tier on lavapipe for those fixtures, keeping every module, input
# and expected output (SPIR_XLATE_VULKAN_KEEP) in .vkgpu/, and writes .vkgpu/run.sh, the
# command to give the device tool (carry [".vkgpu", ".gpubench"]; .gpubench/ from
# scripts/gpu_bench.sh brings vkhost and the Vulkan loader). There it replays each fixture in
# a process of its own under a timeout (a module that never finishes loses the device for
# the rest of its process) into $OUT/gpu_apps.log; copy that to docs/logs/ (or
# docs/logs/<gpu>/) and run scripts/status.py.
#
#   bash scripts/vulkan_apps_gpu.sh      # then, with the device tool, `bash .vkgpu/run.sh`
set -euo pipefail
cd "$(dirname "$0")/.."
apps=app_chem,app_fft,app_image,app_kmeans,app_linalg,app_physics,app_solver,app_sort
apps=$apps,app_stats,app_stencil,clc_signatures,escape_time,printf_literals,workgroup_sizes
rm -rf .vkgpu && mkdir .vkgpu
OCL_ICD_VENDORS="$PWD/.oracles/icd" LD_LIBRARY_PATH="$PWD/.oracles/venv/lib" \
  SPIR_XLATE_VULKAN_KEEP="$PWD/.vkgpu" SPIR_XLATE_EXEC_ONLY="$apps" \
  cargo test -q --test exec_vulkan -- --ignored > .vkgpu/lavapipe.log 2>&1 \
  || { tail -n 20 .vkgpu/lavapipe.log; exit 1; }
cat > .vkgpu/run.sh <<'RUN'
#!/bin/bash
# On the GPU machine, from the repository root: .vkgpu/jobs.json replayed one fixture per
# vkhost process, into $OUT/gpu_apps.log.
set -u
here=$PWD/.vkgpu
if ! ldconfig -p | grep -q 'libvulkan.so.1 '; then
  for d in "$PWD"/.gpubench/debs/*.deb; do dpkg -x "$d" /tmp/vkroot; done
  export LD_LIBRARY_PATH=/tmp/vkroot/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
fi
icd=$(find /usr/share/vulkan /etc/vulkan /usr/local/nvidia -name 'nvidia_icd*.json' 2>/dev/null \
  | head -1)
[ -n "$icd" ] && export VK_DRIVER_FILES=$icd
mkdir -p /tmp/vkparts
python3 - "$here/jobs.json" /tmp/vkparts <<'PY'
import json, os, sys
doc = json.load(open(sys.argv[1]))
parts = {}
for job in doc["jobs"]:
    fixture = job.get("name", "").split("::")[0].split(".")[-1]
    parts.setdefault(fixture, []).append(job)
for fixture, jobs in parts.items():
    json.dump(dict(doc, jobs=jobs), open(os.path.join(sys.argv[2], fixture + ".json"), "w"))
PY
vkhost=$PWD/.gpubench/bin/vkhost
cd "$here"
for p in /tmp/vkparts/*.json; do
  cp "$p" part.json
  timeout -k 5 60 "$vkhost" part.json 2>&1
done > "$OUT/gpu_apps.raw.log"
grep -m1 '^device:' "$OUT/gpu_apps.raw.log" > "$OUT/gpu_apps.log"
grep -m1 '^subgroup size:' "$OUT/gpu_apps.raw.log" >> "$OUT/gpu_apps.log"
grep -v '^device:\|^subgroup size:' "$OUT/gpu_apps.raw.log" >> "$OUT/gpu_apps.log"
tail -n 3 "$OUT/gpu_apps.log"
RUN
echo 'bash .vkgpu/run.sh    # device tool, carry [".vkgpu", ".gpubench"]'
