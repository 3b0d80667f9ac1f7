#!/bin/bash
# Our OpenCL C of every //@exec kernel against its source, on NVIDIA's OpenCL on the GPU
# machine (docs/testing.md, "OpenCL C on NVIDIA"). Run here, it prepares what the machine
# needs and prints the command to give the device tool; the log it writes goes to
# docs/logs/opencl_c_nvidia.log, which scripts/status.py reads.
#
#   bash scripts/opencl_c_nvidia.sh        # then run the printed command with the device tool,
#                                          # carry [".clc", ".clcbin"]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release
rm -rf .clc && mkdir .clc
for shape in modern o0 legacy legacy-o0; do
  for f in tests/fixtures/$shape/*.spir64.bc; do
    n=$(basename "$f" .bc)
    ./target/release/spir-xlate to-opencl-c "$f" -o ".clc/$shape.$n.out.cl" -q 2>/dev/null || true
  done
done
bin=$(cargo test --release --test exec_intel --no-run --message-format=json 2>/dev/null \
  | python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("executable") and m.get("target", {}).get("name") == "exec_intel":
        print(m["executable"])')
mkdir -p .clcbin && cp "$bin" .clcbin/exec_intel
# The run names each step as it starts (SPIR_XLATE_EXEC_TRACE) and is stopped well inside the
# device tool's limit, so that a run that stalls (twice, on a machine that had just run
# Vulkan work) still brings back its log, and the log's last line says where it stalled;
# the GPU's state is recorded before it starts.
cat <<'CMD'
nvidia-smi --query-gpu=name,clocks.sm,memory.used,utilization.gpu --format=csv > $OUT/opencl_c_nvidia.gpu.txt 2>&1; mkdir -p /tmp/icd && echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd; OCL_ICD_VENDORS=/tmp/icd SPIR_XLATE_EXEC_PLATFORM=NVIDIA SPIR_XLATE_EXEC_CONSUMER=opencl-c SPIR_XLATE_EXEC_TRACE=1 SPIR_XLATE_OPENCL_C_DIR=$PWD/.clc SPIR_XLATE_EXEC_SHAPES=modern,o0,legacy,legacy-o0 timeout -k 5 240 ./.clcbin/exec_intel --ignored --nocapture > $OUT/opencl_c_nvidia.log 2>&1; echo "exit $?" >> $OUT/opencl_c_nvidia.log; tail -3 $OUT/opencl_c_nvidia.log
CMD
