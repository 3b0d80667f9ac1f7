#!/bin/bash
# Our OpenCL C against its source on NVIDIA's OpenCL on the GPU machine (docs/testing.md,
# "OpenCL C on NVIDIA"): of every //@exec kernel's four fixture shapes, and of three other
# producers' SPIR-V of the modern fixtures (llvm-spirv-14, DPC++'s translator, LLVM's SPIR-V
# backend: the road of a driver that takes only source). Run here, it prepares what the
# machine needs in .clc/, .clc-producers/ and .clcbin/ and writes .clc/run.sh, the command to
# give the device tool; the logs it writes ($OUT/opencl_c_nvidia*.log and the GPU's state)
# go to docs/logs/, which scripts/status.py reads.
#
#   bash scripts/opencl_c_nvidia.sh        # then, with the device tool, `bash .clc/run.sh`,
#                                          # carry [".clc", ".clc-producers", ".clcbin"]
#
# The producers' programs are what `tests/exec_producers` writes of them
# (SPIR_XLATE_OPENCL_C_KEEP), so it runs that tier on the Intel runtime first (.ci/run's
# oracles are needed).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release
rm -rf .clc .clc-producers && mkdir .clc
for shape in modern o0 legacy legacy-o0; do
  for f in tests/fixtures/$shape/*.spir64.bc; do
    n=$(basename "$f" .bc)
    ./target/release/spir-xlate to-opencl-c "$f" -o ".clc/$shape.$n.out.cl" -q 2>/dev/null || true
  done
done
keep=$(mktemp -d)
OCL_ICD_VENDORS="$PWD/.oracles/icd" LD_LIBRARY_PATH="$PWD/.oracles/venv/lib" \
  SPIR_XLATE_OPENCL_C_KEEP="$keep" cargo test -q --test exec_producers -- --ignored --nocapture \
  >"$keep.log" 2>&1 || { tail -n 20 "$keep.log"; exit 1; }
# Kept as <work dir>.<fixture>.<producer>.out.cl; read back as the modern shape's. The
# fixtures whose module the producer changed (the Intel runtime, given the module itself,
# computes what our OpenCL C of it computes) are listed for the NVIDIA run, which cannot
# show it: changed.txt, SPIR_XLATE_EXEC_PRODUCER_CHANGES.
for p in llvm-spirv-14 dpcpp-1.4 llvm22-backend-1.4; do
  rm -rf ".clc-producers/$p" && mkdir -p ".clc-producers/$p"
  for f in "$keep"/*."$p".out.cl; do
    n=$(basename "$f" ".$p.out.cl")
    cp "$f" ".clc-producers/$p/modern.${n#*.}.spir64.out.cl"
  done
  sed -n "s/^\([a-z0-9_]*\)::[a-z0-9_]* ($p as OpenCL C): differs, the producer's change.*/\1/p" \
    "$keep.log" | sort -u > ".clc-producers/$p/changed.txt"
done
rm -rf "$keep" "$keep.log"
bin=$(cargo test --release --test exec_intel --no-run --message-format=json 2>/dev/null \
  | python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("executable") and m.get("target", {}).get("name") == "exec_intel":
        print(m["executable"])')
mkdir -p .clcbin && cp "$bin" .clcbin/exec_intel
# Each run names each step as it starts (SPIR_XLATE_EXEC_TRACE) and is stopped well inside
# the device tool's limit, so that a run that stalls still brings back its log, and the log's
# last line says where it stalled (three runs did, on enqueue_global_blocks, before the tier
# named it in NVIDIA_SOURCE_FAULTS); the GPU's state is recorded before the first.
cat > .clc/run.sh <<'RUN'
#!/bin/bash
set -u
nvidia-smi --query-gpu=name,clocks.sm,memory.used,utilization.gpu --format=csv \
  > "$OUT/opencl_c_nvidia.gpu.txt" 2>&1
mkdir -p /tmp/icd && echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd
run() {
  OCL_ICD_VENDORS=/tmp/icd SPIR_XLATE_EXEC_PLATFORM=NVIDIA SPIR_XLATE_EXEC_CONSUMER=opencl-c \
    SPIR_XLATE_EXEC_TRACE=1 SPIR_XLATE_OPENCL_C_DIR="$1" SPIR_XLATE_EXEC_SHAPES="$2" \
    SPIR_XLATE_EXEC_PRODUCER="${5:-}" SPIR_XLATE_EXEC_PRODUCER_CHANGES="${6:-/dev/null}" \
    timeout -k 5 "$3" ./.clcbin/exec_intel --ignored --nocapture > "$4" 2>&1
  echo "exit $?" >> "$4"
}
run "$PWD/.clc" modern,o0,legacy,legacy-o0 150 "$OUT/opencl_c_nvidia.log"
for p in llvm-spirv-14 dpcpp-1.4 llvm22-backend-1.4; do
  run "$PWD/.clc-producers/$p" modern 60 "$OUT/opencl_c_nvidia_$p.log" "$p" \
    "$PWD/.clc-producers/$p/changed.txt"
done
grep -h "OpenclC:" "$OUT"/opencl_c_nvidia*.log
RUN
echo 'bash .clc/run.sh    # device tool, carry [".clc", ".clc-producers", ".clcbin"]'
