#!/usr/bin/env bash
# The coverage-guided fuzz campaign: each reader, with every writer behind it, under libFuzzer
# (fuzz/src/lib.rs says what counts as a finding). Not CI: a campaign runs for hours.
#
#   scripts/fuzz_campaign.sh [--runs N] [--time SECONDS] [--jobs J] [--only spir_reader|spirv_reader]
#
# Builds fuzz/ with coverage instrumentation (cargo's own flags, as cargo-fuzz passes them;
# stable Rust, no sanitizer), seeds each corpus from the fixtures the first time, runs each
# target for SECONDS (default 4 hours) or until about N executions (default 1,000,000), in
# libFuzzer's fork mode (J processes at once) so that a finding is kept and the campaign
# goes on, minimizes the corpus into fuzz/corpus/<target>/ (kept in the tree, so the next
# campaign starts where this one stopped), and adds the run's figures to
# docs/logs/fuzz-campaign.json, which scripts/status.py puts in docs/status.md.
#
# Every input libFuzzer kept as a crash is run again in one process: one that passes there died
# in a contained child (LLVM's reader crashing on bitcode it refuses, which the library
# answers as malformed input) and is moved to fuzz/artifacts/<target>/contained/; the others
# are findings: make each a regression case (tests/regressions/fuzz/) and fix it.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=1000000
seconds=14400
only=""
jobs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --time) seconds="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    *) echo "usage: $0 [--runs N] [--time SECONDS] [--jobs J] [--only spir_reader|spirv_reader]" >&2; exit 2 ;;
  esac
done

triple="$(rustc -vV | sed -n 's/^host: //p')"
# The instrumentation cargo-fuzz asks rustc for (inline 8-bit counters, a PC table, comparison
# tracing), with debug assertions and overflow checks on.
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares -Cllvm-args=-simplifycfg-branch-fold-threshold=0 \
--cfg fuzzing -Cdebug-assertions -Coverflow-checks"
(cd fuzz && cargo build --release --target "$triple" --bins)
unset RUSTFLAGS
bin="fuzz/target/$triple/release"

# Seeds (the first time only): the fixtures' bitcode, and our SPIR-V of every fourth of them.
if [ ! -d fuzz/corpus/spir_reader ]; then
  mkdir -p fuzz/corpus/spir_reader
  for f in tests/fixtures/*/*.bc; do
    cp "$f" "fuzz/corpus/spir_reader/$(basename "$(dirname "$f")")-$(basename "$f")"
  done
fi
if [ ! -d fuzz/corpus/spirv_reader ]; then
  cargo build --release --bin spir-xlate
  mkdir -p fuzz/corpus/spirv_reader
  i=0
  for f in tests/fixtures/*/*.bc; do
    i=$((i + 1))
    [ $((i % 4)) -eq 0 ] || continue
    target/release/spir-xlate to-spirv "$f" \
      -o "fuzz/corpus/spirv_reader/$(basename "$(dirname "$f")")-$(basename "$f" .bc).spv"
  done
fi

mkdir -p fuzz/logs
# Where the triage and the merge may drop inputs of their own (not the tree's root).
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for t in spir_reader spirv_reader; do
  [ -z "$only" ] || [ "$only" = "$t" ] || continue
  mkdir -p "fuzz/artifacts/$t"
  before=$(ls "fuzz/corpus/$t" | wc -l)
  started=$(date +%s)
  set +e
  "$bin/$t" "fuzz/corpus/$t" -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -max_total_time="$seconds" -timeout=60 -rss_limit_mb=6144 \
    -artifact_prefix="fuzz/artifacts/$t/" >"fuzz/logs/$t.log" 2>&1 &
  fuzzer=$!
  # Fork mode counts no executions against -runs: stop it at N by its own report. Its
  # parent ignores SIGINT while jobs run; SIGTERM ends it ("run interrupted"), and the jobs
  # it leaves are ended after it.
  while kill -0 "$fuzzer" 2>/dev/null; do
    sleep 10
    done_runs=$(grep -oE '^#[0-9]+' "fuzz/logs/$t.log" | tail -1 | tr -d '#')
    if [ -n "$done_runs" ] && [ "$done_runs" -ge "$runs" ]; then
      kill -TERM "$fuzzer" 2>/dev/null || true
    fi
  done
  wait "$fuzzer"
  rc=$?
  pkill -f "^$bin/$t -ignore_crashes=1" || true
  set -e
  took=$(($(date +%s) - started))
  # Triage: what passes in one process died in a contained child.
  mkdir -p "fuzz/artifacts/$t/contained"
  for a in "fuzz/artifacts/$t"/crash-* "fuzz/artifacts/$t"/timeout-* "fuzz/artifacts/$t"/oom-*; do
    [ -e "$a" ] || continue
    if "$bin/$t" "$a" -timeout=60 -rss_limit_mb=6144 -artifact_prefix="$scratch/" \
      >/dev/null 2>&1; then
      mv "$a" "fuzz/artifacts/$t/contained/"
    fi
  done
  # Minimize: the smallest set of inputs with the same coverage replaces the corpus.
  rm -rf "fuzz/corpus/$t.min" && mkdir "fuzz/corpus/$t.min"
  "$bin/$t" -merge=1 -artifact_prefix="$scratch/" "fuzz/corpus/$t.min" "fuzz/corpus/$t" \
    >"fuzz/logs/$t.merge.log" 2>&1
  rm -rf "fuzz/corpus/$t" && mv "fuzz/corpus/$t.min" "fuzz/corpus/$t"
  python3 scripts/fuzz_stats.py "$t" "$rc" "$took" "$before"
done
