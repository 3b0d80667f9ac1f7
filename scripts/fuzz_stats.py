#!/usr/bin/env python3
"""One target's figures from a campaign run (scripts/fuzz_campaign.sh calls it), added to
that target's runs in docs/logs/fuzz-campaign.json (a campaign may be run in parts; each
starts from the corpus the last one left): executions, speed, coverage (libFuzzer's edges and features),
corpus sizes, the findings left in fuzz/artifacts/<target>/ and the inputs whose crash was a
contained child's (fuzz/artifacts/<target>/contained/). Reads libFuzzer's fork-mode report
(`#N: cov: C ft: F corp: ...`) or its plain one (`stat::` lines)."""
import datetime
import json
import os
import re
import sys
import time

target, rc, took, before = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
log = open(f"fuzz/logs/{target}.log", errors="replace").read()
stat = dict(re.findall(r"^stat::(\w+):\s+(\d+)", log, re.M))
cov = re.findall(r"cov: (\d+) ft: (\d+)", log)
counted = re.findall(r"^#(\d+)", log, re.M)
executions = int(stat.get("number_of_executed_units", counted[-1] if counted else 0))
artifacts = f"fuzz/artifacts/{target}"
# This run's inputs only: the folders keep earlier runs' too (libFuzzer dates each file when
# it writes it, and the triage's move keeps that date).
since = time.time() - took - 60


def this_run(folder):
    return sorted(f for f in os.listdir(folder) if os.path.getmtime(os.path.join(folder, f)) >= since)


findings = [
    f for f in this_run(artifacts)
    if f.split("-")[0] in ("crash", "timeout", "oom", "leak", "slow")
]
contained_dir = os.path.join(artifacts, "contained")
contained = len(this_run(contained_dir)) if os.path.isdir(contained_dir) else 0
path = "docs/logs/fuzz-campaign.json"
all_runs = json.load(open(path)) if os.path.exists(path) else {}
all_runs.setdefault(target, []).append({
    "date": datetime.date.today().isoformat(),
    "executions": executions,
    "seconds": took,
    "executions_per_second": executions // max(took, 1),
    "coverage_edges": int(cov[-1][0]) if cov else 0,
    "coverage_features": int(cov[-1][1]) if cov else 0,
    "corpus_before": before,
    "corpus_after": len(os.listdir(f"fuzz/corpus/{target}")),
    "exit_code": rc,
    "findings": findings,
    "contained_child_crashes": contained,
})
json.dump(all_runs, open(path, "w"), indent=1, sort_keys=True)
print(json.dumps(all_runs[target][-1], indent=1))
