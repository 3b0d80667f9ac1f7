#!/usr/bin/env python3
"""Write docs/status.md from the test tiers' own output.

    python3 scripts/status.py --run            # run the tiers (as .ci/run sets them up), then write
    python3 scripts/status.py --run TIER...    # rerun only those tiers (exec_producers, ...)
    python3 scripts/status.py                  # write from the logs already in docs/logs/

The logs (docs/logs/, committed beside the page) are the tiers' output as printed with
--nocapture: exec_vulkan.log (lavapipe and clspv), exec_intel.log (the Intel runtime),
exec_layer.log (legacy SPIR through the OpenCL layer on the Intel runtime),
exec_producers.log (other producers' SPIR-V read back by to-spir, on the Intel runtime), and
gpu.log when present (tests/vkhost replaying the Vulkan tier's jobs on a GPU machine:
SPIR_XLATE_VULKAN_KEEP=DIR, then `vkhost DIR/jobs.json`; see docs/testing.md); the Vulkan
tier's log carries scripts/math_reference.py's judgement of the math fixtures. The
benchmark's JSON files (bench/gpu/main.rs; `cargo bench --bench gpu`, see docs/testing.md)
are kept there too: bench-gpu.json (`vkhost --bench` on a GPU machine), bench-lavapipe.json
(`--vulkan`), bench-intel.json (`--intel`), bench-intel-unoptimized.json (`--intel
--input-opt none`) and bench-modules.json (instruction counts and
capabilities of every module). Nothing in the page is typed by hand: every figure is a line
of those logs, parsed here.
"""
import collections
import glob
import json
import math
import datetime
import os
import re
import subprocess
import sys
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOGS = os.path.join(ROOT, "docs", "logs")
PAGE = os.path.join(ROOT, "docs", "status.md")


TIERS = ("exec_vulkan", "exec_intel", "exec_layer", "exec_producers")


def run_tiers(only):
    """Run the Vulkan and Intel tiers (or those of `only`) with --nocapture into docs/logs/."""
    os.makedirs(LOGS, exist_ok=True)
    env = dict(os.environ)
    env["OCL_ICD_VENDORS"] = os.path.join(ROOT, ".oracles", "icd")
    env["LD_LIBRARY_PATH"] = os.path.join(ROOT, ".oracles", "venv", "lib")
    subprocess.run(["cargo", "build", "--release", "--manifest-path", "tests/vkhost/Cargo.toml"],
                   cwd=ROOT, check=True)
    subprocess.run(["cargo", "build", "--release", "-p", "spir-xlate-layer"], cwd=ROOT, check=True)
    for test in [t for t in TIERS if not only or t in only]:
        out = subprocess.run(
            ["cargo", "test", "--release", "--test", test, "--", "--ignored",
             "--nocapture"], cwd=ROOT, env=env, capture_output=True, text=True)
        with open(os.path.join(LOGS, test + ".log"), "w") as f:
            f.write(out.stdout + out.stderr)


def read(name):
    path = os.path.join(LOGS, name)
    return open(path).read() if os.path.exists(path) else None


def need(pattern, text, what):
    m = re.search(pattern, text, re.M)
    if not m:
        sys.exit(f"status.py: {what} not found in the logs (pattern {pattern!r})")
    return m


def vulkan_rows(log):
    rows = []
    for strategy in ("physical", "descriptors"):
        m = need(rf"ours, --vulkan-pointers {strategy}: (\d+) of (\d+) fixtures translated and "
                 rf"valid; (\d+) of (\d+) runs bit-identical[^,]*, (\d+) within", log,
                 f"the {strategy} summary")
        ok, total, same, runs, within = m.groups()
        rows.append(f"| lavapipe, `--vulkan-pointers {strategy}` | {ok} of {total} fixtures "
                    f"translate | {same} of {runs} runs bit-identical, {within} within "
                    f"OpenCL's bounds |")
    m = need(r"clspv \(pyclspv[^)]*\): (\d+) of (\d+) sources compiled and valid; (\d+) of (\d+) "
             r"runs bit-identical", log, "the clspv summary")
    rows.append(f"| clspv (same sources), lavapipe | {m[1]} of {m[2]} sources compile | "
                f"{m[3]} of {m[4]} runs bit-identical |")
    ours = need(r"kernels we run right and clspv does not \((\d+)\)", log, "the comparison")[1]
    theirs = need(r"kernels clspv runs right and we do not \((\d+)\)", log, "the comparison")[1]
    rows.append(f"| kernels run right by us and not clspv / by clspv and not us | {ours} | "
                f"{theirs} |")
    return rows


def linear(within):
    """The runs that were not bit-identical but within the precision OpenCL allows (linear
    filtering's, contraction's in programs of several kernels: tests/exec/compare.rs), where a
    log counts them."""
    return (f", {within} more within the precision OpenCL allows (linear filtering, contraction)"
            if within and within != "0" else "")


def intel_rows(log):
    rows = []
    for back, what in (("Spirv", "our SPIR-V (`clCreateProgramWithIL`)"),
                       ("ToSpir", "our `to-spir` SPIR (`cl_khr_spir`)"),
                       ("OpenclC", "our OpenCL C (`to-opencl-c`, built from source)"),
                       ("Input", "the input SPIR itself (control)")):
        m = need(rf"^\s*{back}: (\d+) programs built, (\d+) refused by the driver; (\d+) of (\d+) "
                 rf"runs bit-identical.*?(?:, (\d+) within the precision OpenCL allows.*)?$", log,
                 f"the Intel {back} summary")
        rows.append(f"| Intel CPU runtime, {what} | {m[1]} programs built, {m[2]} refused | "
                    f"{m[3]} of {m[4]} runs bit-identical{linear(m[5])} |")
    return rows


def nvidia_opencl_c_rows(log, gpu="H200"):
    """NVIDIA's OpenCL on the GPU machine, our OpenCL C against the source (its log's summary)."""
    m = need(r"OpenclC: (\d+) programs built, (\d+) refused by the driver; (\d+) of (\d+) "
             r"runs bit-identical", log, "the NVIDIA OpenCL C summary")
    return [f"| NVIDIA OpenCL ({gpu}), our OpenCL C (`to-opencl-c`, built from source; "
            f"[how](testing.md)) | {m[1]} programs built, {m[2]} refused | {m[3]} of {m[4]} runs "
            f"bit-identical (to the source built by NVIDIA's OpenCL) |"]


def nvidia_producer_rows(gpu):
    """Other producers' modules as our OpenCL C on NVIDIA's OpenCL (scripts/opencl_c_nvidia.sh:
    docs/logs/<gpu>/opencl_c_nvidia_<producer>.log): the summary, and the runs the tier could
    not make (a producer's module the GPU faulted on, which loses the context for the rest)."""
    rows = []
    for path in sorted(glob.glob(os.path.join(LOGS, gpu, "opencl_c_nvidia_*.log"))):
        producer = os.path.basename(path)[len("opencl_c_nvidia_"):-len(".log")]
        log = open(path).read()
        m = re.search(r"OpenclC: (\d+) programs built, (\d+) refused by the driver; (\d+) of "
                      r"(\d+) runs bit-identical", log)
        if not m:
            continue
        faults = sorted(set(re.findall(r"^(\S+) \(modern, OpenclC\): clFinish failed with CL "
                                       r"status (-?\d+)", log, re.M)))
        fault = "; ".join(f"`{k}` faulted (CL status {s})" for k, s in faults) or "none"
        changed = re.search(r"OpenclC: .*, (\d+) changed by the producer$", log, re.M)
        rows.append(f"| {producer} | {m[1]} | {m[3]} of {m[4]} | "
                    f"{changed[1] if changed else 0} | {fault} |")
    return rows


def opencl_c_producer_rows(log):
    """Other producers' modules written as our OpenCL C and built by the Intel runtime from
    that source (tests/exec_producers' `<producer> as OpenCL C` lines)."""
    rows = []
    for line in log.splitlines():
        m = re.match(r"\s+(\S+) as OpenCL C: (\d+) programs built from our OpenCL C of its "
                     r"modules; (\d+) of (\d+) runs bit-identical to the source, (\d+) within "
                     r"the precision OpenCL allows[^)]*\), (\d+) changed by the producer", line)
        if m:
            rows.append(f"| {m[1]} | {m[2]} | {m[3]} of {m[4]}{linear(m[5])} | {m[6]} |")
    return rows


def nvidia_apps_rows(log):
    """Our OpenCL C of the application programs on NVIDIA's OpenCL (the GPU machine)."""
    m = re.search(r"OpenclC: (\d+) programs built, (\d+) refused by the driver; (\d+) of (\d+) "
                  r"runs bit-identical", log)
    if not m:
        return []
    return [f"| NVIDIA OpenCL (H200), our OpenCL C of the application programs (`app_*`, "
            f"`workgroup_sizes`, `clc_signatures`) | {m[1]} programs built, {m[2]} refused | "
            f"{m[3]} of {m[4]} runs bit-identical (to the source built by NVIDIA's OpenCL) |"]


def layer_rows(log):
    m = need(r"^\s*Layer: (\d+) programs built from SPIR through the layer \((\d+) translated by "
             r"it\); (\d+) of (\d+) runs bit-identical[^,;]*(?:, (\d+) within the precision OpenCL "
             r"allows)?", log, "the layer summary")
    return [f"| Intel CPU runtime, legacy application's SPIR through the OpenCL layer "
            f"(`clCreateProgramWithBinary`, `-x spir`) | {m[1]} programs built ({m[2]} "
            f"translated by the layer) | {m[3]} of {m[4]} runs bit-identical{linear(m[5])} |"]


def producer_rows(log):
    """Other producers' SPIR-V read back by `to-spir` and run on the Intel runtime
    (tests/exec_producers, exec_producers.log)."""
    rows = []
    for line in log.splitlines():
        m = re.match(r"\s+(\S+): (\d+) modules \(([^)]*)\), (\d+) invalid; (\d+) read back, "
                     r"(\d+) invalid refused; (\d+) of (\d+) runs bit-identical to the source, "
                     r"(?:(\d+) within the precision OpenCL allows \(linear filtering, contraction\), )?"
                     r"(\d+) changed by the producer, (\d+) not run", line)
        if m:
            rows.append(f"| {m[1]} | {m[2]} ({m[3]}) | {m[4]} | {m[5]} | {m[6]} | "
                        f"{m[7]} of {m[8]}{linear(m[9])} | {m[10]} | {m[11]} |")
    if not rows:
        sys.exit("status.py: the producers' summary not found in exec_producers.log")
    return ["| producer | modules (SPIR-V versions) | invalid (spirv-val) | read back | "
            "invalid and refused | runs bit-identical to the source | runs whose meaning "
            "the producer changed (the tier names why) | runs not made: the producer broke "
            "the kernel (the tier names why) |",
            "|---|---|---|---|---|---|---|---|", *rows]


def gpu_rows(log, what=""):
    device = need(r"^device: (.*)$", log, "the GPU's name")[1] + what
    counts = collections.Counter()
    for line in log.splitlines():
        m = re.match(r"(ok|WITHIN|DIFFERS|FAILED) (\S+)::", line)
        if m:
            name = m[2]
            who = ("clspv" if name.startswith("clspv.") else
                   "descriptors" if name.startswith("desc.") else "physical")
            counts[(who, m[1])] += 1
    rows = []
    for who in ("physical", "descriptors", "clspv"):
        c = {k: counts[(who, k)] for k in ("ok", "WITHIN", "DIFFERS", "FAILED")}
        rows.append(f"| {device}, {who} | {sum(c.values())} runs | {c['ok']} bit-identical, "
                    f"{c['WITHIN']} within bounds, {c['DIFFERS']} differ (the tier names each "
                    f"driver's reason), {c['FAILED']} failed |")
    return rows


def math_rows(log):
    """The Vulkan library's math against the correctly rounded result, as the Vulkan tier
    prints scripts/math_reference.py's judgement (exec_vulkan.log)."""
    rows = []
    for line in log.splitlines():
        m = re.match(r"\s+(\w+) \((float|double)\): ours ([\d.]+|inf), Intel ([\d.]+|inf); "
                     r"OpenCL's bound (\w+)", line)
        if m:
            bound = f"{m[5]} ulp" if m[5] != "none" else "none"
            rows.append(f"| `{m[1]}` ({m[2]}) | {m[3]} ulp | {m[4]} ulp | {bound} |")
    return rows


def special_rows(log):
    """Every float builtin at its special inputs (tests/kernels/math_special.cl), as the
    Vulkan tier prints scripts/math_special.py's judgement (exec_vulkan.log): the largest
    error of each, `inf` where a NaN, infinity, zero or sign was wrong."""
    rows, inside = [], False
    for line in log.splitlines():
        if "special values and every float builtin" in line:
            inside = True
            continue
        m = re.match(r"\s+([\w. ()]+): ours ([\d.]+|inf), Intel ([\d.]+|inf); "
                     r"OpenCL's bound (\w+)", line)
        if inside and m:
            bound = m[4] if m[4] in ("exact", "none") else f"{m[4]} ulp"
            rows.append(f"| `{m[1]}` | {m[2]} | {m[3]} | {bound} |")
        elif inside and rows:
            break
    return rows


def read_json(name):
    text = read(name)
    return json.loads(text) if text else None


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def timed(row):
    return row.get("median_ms") if row and "failed" not in row else None


def vulkan_bench(report, modules):
    """Kernel times of the Vulkan modules, as ratios to clspv's module of the same source."""
    who = [("ours-physical", "ours, physical"), ("ours-descriptors", "ours, descriptors"),
           ("before-physical", "before, physical"), ("before-descriptors", "before, descriptors")]
    present = [(k, t) for k, t in who
               if any(k in e["producers"] for e in report["kernels"])]
    rows = ["| kernel | clspv (ms) | " + " | ".join(t for _, t in present) + " |",
            "|---|---:|" + "---:|" * len(present)]
    ratios = {k: [] for k, _ in present}
    for e in report["kernels"]:
        p = e["producers"]
        made = (modules or {}).get(e["kernel"], {})
        base = timed(p.get("clspv"))
        cells = []
        for k, _ in present:
            t = timed(p.get(k))
            if t is None:
                cells.append("failed to run" if k in p else
                             "refused" if "failed" in made.get(k, {}) else "")
            elif base:
                ratios[k].append(t / base)
                cells.append(f"{t / base:.2f}")
            else:
                cells.append(f"{t:.3f} ms")
        clspv = ("failed to run" if "clspv" in p else
                  "fails to compile" if "failed" in made.get("clspv", {}) else "—")
        rows.append(f"| {e['kernel']} | " + (f"{base:.3f}" if base else clspv) + " | "
                    + " | ".join(cells) + " |")
    rows.append("| **geometric mean** | | " +
                " | ".join(f"**{geomean(ratios[k]):.2f}**" for k, _ in present) + " |")
    return rows


def ratio_rows(report, who, base_key, base_title, largest=False):
    """Rows of each producer's median time over `base_key`'s, kernel by kernel, with the
    geometric mean (and the largest ratio)."""
    rows = [f"| kernel | {base_title} (ms) | " + " | ".join(t for _, t in who) + " |",
            "|---|---:|" + "---:|" * len(who)]
    ratios = {k: [] for k, _ in who}
    for e in report["kernels"]:
        p = e["producers"]
        base = timed(p.get(base_key))
        cells = []
        for k, _ in who:
            t = timed(p.get(k))
            if t is None or not base:
                cells.append("failed" if k in p else "")
            else:
                ratios[k].append(t / base)
                cells.append(f"{t / base:.2f}")
        rows.append(f"| {e['kernel']} | " + (f"{base:.3f}" if base else "failed") + " | "
                    + " | ".join(cells) + " |")
    rows.append("| **geometric mean** | | " +
                " | ".join(f"**{geomean(ratios[k]):.2f}**" for k, _ in who) + " |")
    if largest:
        rows.append("| **largest** | | " +
                    " | ".join(f"**{max(ratios[k]):.2f}**" for k, _ in who) + " |")
    return rows


def intel_bench(report):
    who = [("ours-spirv", "our SPIR-V 1.4"), ("ours-spirv-fma", "our SPIR-V 1.4, `--mad fma`"),
           ("ours-spirv-split", "our SPIR-V 1.4, `--mad split`"),
           ("ours-spirv-contract", "our SPIR-V 1.4, `--mad contract-intel`"),
           ("ours-spirv-1.0", "our SPIR-V 1.0 (the default)"),
           ("ours-spir", "our SPIR (`to-spir`)"), ("llvm-spirv", "llvm-spirv-14's SPIR-V (1.4)"),
           ("input-spir", "the input SPIR, built by the driver")]
    # A log from before SPIR-V 1.0 had a column of its own has none of it.
    who = [(k, t) for k, t in who
           if any(k in e["producers"] for e in report["kernels"])]
    return ratio_rows(report, who, "source", "source")


def intel_same_input(report):
    """Our SPIR-V against the driver's build of the very SPIR it was made from: the cost of
    the translation alone (the input's own optimization costs both alike)."""
    who = [("ours-spirv", "our SPIR-V 1.4"),
           ("ours-spirv-contract", "our SPIR-V 1.4, `--mad contract-intel`"),
           ("ours-spirv-1.0", "our SPIR-V 1.0 (the default)")]
    if not any("input-spir" in e["producers"] for e in report["kernels"]):
        return []
    return ratio_rows(report, who, "input-spir", "input SPIR", largest=True)


def spread(row):
    """How far a run's median lies above its least time, in percent of the median: the
    spread of its rounds (`—` for a run that failed)."""
    m, least = timed(row), (row or {}).get("least_ms")
    return f"{100 * (m - least) / m:.1f}%" if m and least is not None else "—"


def native_bench(gpu, robust, native, clocks):
    """The Vulkan modules on the GPU against the driver's own OpenCL build of the same source
    (bench-native.json): each median over the native median, per dispatch with a barrier
    and timestamp after each, and the rounds' batches; robustBufferAccess off, and on."""
    nat_rows = {e["kernel"]: e["producers"].get("native") for e in native["kernels"]}
    nat = {k: timed(r) for k, r in nat_rows.items()}
    rob = {e["kernel"]: e["producers"] for e in (robust or {}).get("kernels", [])}
    who = [("ours-physical", "ours, physical"), ("ours-descriptors", "ours, descriptors"),
           ("clspv", "clspv")]
    # A run with `--baseline` also times the build before this work's changes.
    if any("before-physical" in e["producers"] for e in gpu["kernels"]):
        who.insert(1, ("before-physical", "before, physical"))
    rows = ["| kernel | NVIDIA OpenCL (ms) | " + " | ".join(t for _, t in who)
            + " | ours, physical, batched | ours, physical, robustBufferAccess | spread: "
            "ours, physical / NVIDIA OpenCL |",
            "|---|---:|" + "---:|" * (len(who) + 3)]
    ratios = collections.defaultdict(list)
    for e in gpu["kernels"]:
        base = nat.get(e["kernel"])
        if not base:
            continue
        p = e["producers"]
        phys = p.get("ours-physical") or {}
        cells = [(k, timed(p.get(k))) for k, _ in who]
        cells.append(("batched", phys.get("batch_ms") if "failed" not in phys else None))
        cells.append(("robust", timed(rob.get(e["kernel"], {}).get("ours-physical"))))
        text = []
        for k, t in cells:
            if t is None:
                text.append("failed" if k in p else "—")
                continue
            ratios[k].append(t / base)
            text.append(f"{t / base:.2f}")
        text.append(f"{spread(phys)} / {spread(nat_rows.get(e['kernel']))}")
        rows.append(f"| {e['kernel']} | {base:.3f} | " + " | ".join(text) + " |")
    keys = [k for k, _ in who] + ["batched", "robust"]
    rows.append("| **geometric mean** | | " +
                " | ".join(f"**{geomean(ratios[k]):.2f}**" for k in keys) + " |")
    rows.append("| largest | | " + " | ".join(f"{max(ratios[k]):.2f}" if ratios[k] else ""
                                           for k in keys) + " |")
    missing = [e["kernel"] for e in gpu["kernels"] if timed(e["producers"].get("clspv")) is None]
    page = [f"{gpu['device']} (Vulkan, GPU sizes, {gpu['repeat']} runs each, buffers in "
            "device-local memory), each median divided by the median of the kernel's own "
            "source built by NVIDIA's OpenCL on the same GPU (`--native NVIDIA`, event "
            "profiling), each timed in 5 rounds (the Vulkan modules' interleaved); the "
            "spread is how far each median lies above the least run"
            + (f"; clspv does not run {', '.join(missing)}" if missing else "")
            + ":", "", *rows, ""]
    if clocks:
        lines = [l for l in clocks.splitlines()[1:] if l.strip()]
        page += ["The GPU's clocks during the runs (`nvidia-smi`, before each part and after "
                 "the last: SM and memory clock, their maxima, temperature, power):", "",
                 "```", *lines, "```", ""]
    return page


def variants_section():
    """scripts/gpu_bench.sh --variants (docs/logs/variants/): each kernel of
    bench/gpu/variants.toml and each hand-edited module of ours (scripts/gpu_edits.py) beside
    the kernel it varies, all in one run: each median divided by that of our module of the
    kernel itself (physical pointers), and NVIDIA's build of each variant's source."""
    gpu, native = read_json("variants/bench-gpu.json"), read_json("variants/bench-native.json")
    if not (gpu and native):
        return []
    nat = {e["kernel"]: timed(e["producers"].get("native")) for e in native["kernels"]}
    variants = tomllib.load(open(os.path.join(ROOT, "bench", "gpu", "variants.toml"),
                                 "rb"))["variant"]
    of = {v["name"]: v["of"] for v in variants}
    times = {e["kernel"]: e["producers"] for e in gpu["kernels"]}
    rows = ["| kernel or variant | change | ours, physical (ms) | over the kernel's | "
            "NVIDIA OpenCL of its source (ms) |", "|---|---|---:|---:|---:|"]
    for e in gpu["kernels"]:
        k = e["kernel"]
        base = timed((times.get(of.get(k, k)) or {}).get("ours-physical"))
        for name, m in sorted(e["producers"].items()):
            if name != "ours-physical" and not name.startswith("ours-physical-"):
                continue
            t = timed(m)
            change = (name[len("ours-physical-"):] + " (hand edit)"
                      if name != "ours-physical" else
                      f"variant of {of[k]}" if k in of else "the kernel")
            if t is None or base is None:
                continue
            n = nat.get(k)
            rows.append(f"| {k} | {change} | {t:.4f} | {t / base:.2f} | "
                        + (f"{n:.4f}" if n else "—") + " |")
    return [f"What each variant and hand edit measured ({gpu['device']}, one run, "
            f"{gpu['repeat']} runs each; docs/logs/variants/README.md says what each is): ",
            "", *rows, ""]


def module_rows(modules):
    who = ["ours-physical", "clspv", "before-physical"]
    rows = ["| kernel | instructions: ours (physical) | clspv | before | Float64 in ours / "
            "before |", "|---|---:|---:|---:|---|"]
    for kernel, m in sorted(modules.items()):
        counts = [str(m.get(k, {}).get("instructions", "refused" if k in m else "—"))
                  for k in who]
        f64 = ["yes" if "Float64" in m.get(k, {}).get("capabilities", []) else "no"
               for k in ("ours-physical", "before-physical")]
        rows.append(f"| {kernel} | " + " | ".join(counts) + f" | {f64[0]} / {f64[1]} |")
    return rows


def bench_section():
    gpu, lava = read_json("bench-gpu.json"), read_json("bench-lavapipe.json")
    intel, modules = read_json("bench-intel.json"), read_json("bench-modules.json")
    page = []
    if gpu or lava:
        page += ["## Speed of the code we emit", "",
                 "`cargo bench --bench gpu` (bench/gpu/kernels/): each kernel's median time "
                 "(event or timestamp profiling) divided by that of clspv's module of the same "
                 "source on the same device; below 1 is faster than clspv. `before` is the "
                 "build named by `--baseline` (the commit before issue 48's work).", ""]
    native = read_json("bench-native.json")
    if gpu and native:
        page += native_bench(gpu, read_json("bench-gpu-robust.json"), native,
                             read("bench-gpu-clocks.csv"))
    # Another GPU's run of the same benchmark (docs/logs/h100/), beside the first.
    other = read_json("h100/bench-gpu.json")
    if other and read_json("h100/bench-native.json"):
        page += ["The same benchmark on another GPU (docs/logs/h100/README.md says which "
                 "code; the table after it measures each change made since):", ""]
        page += native_bench(other, read_json("h100/bench-gpu-robust.json"),
                             read_json("h100/bench-native.json"),
                             read("h100/bench-gpu-clocks.csv"))
    page += variants_section()
    for report, what in ((gpu, "GPU sizes"), (lava, "CPU sizes")):
        if report:
            page += [f"{report['device']} (Vulkan, {what}, {report['repeat']} runs each):",
                     "", *vulkan_bench(report, modules), ""]
    if intel:
        page += [f"{intel['device']} (OpenCL, CPU sizes, {intel['repeat']} runs each): median "
                 "time divided by the "
                 "driver's own build of the OpenCL C source. Our SPIR-V is written for "
                 "OpenCL 3.0 as SPIR-V 1.4 (`--target opencl3.0 --spirv-version 1.4`, which "
                 "keeps the input's integer wrap flags) and as the default 1.0. The SPIR "
                 f"is made by {intel.get('input', 'clang-14, opt -O2')}:",
                 "", *intel_bench(intel), ""]
        same = intel_same_input(intel)
        if same:
            slow = [e["kernel"] for e in intel["kernels"]
                    if (timed(e["producers"].get("input-spir")) or 0)
                    > 1.05 * (timed(e["producers"].get("source")) or float("inf"))]
            page += ["The same runs divided by the driver's build of the SPIR our SPIR-V was "
                     "made from (clCreateProgramWithBinary, `-x spir`): what the translation "
                     "alone costs, where the table above also holds what clang's optimizer "
                     "did to the input (the input SPIR itself runs over 1.05 of the source "
                     "on " + (", ".join(slow) if slow else "no kernel") + "):",
                     "", *same, ""]
    unopt = read_json("bench-intel-unoptimized.json")
    if unopt:
        page += ["The same with the SPIR as clang-14 makes it before LLVM's optimizer "
                 "(`--input-opt none`): what the input's own optimization costs each "
                 "producer alike:", "", *intel_bench(unopt), ""]
    if modules:
        page += ["Size of the Vulkan modules (SPIR-V instructions, and whether the module "
                 "needs the Float64 capability):", "", *module_rows(modules), ""]
    return page


def translation_section():
    """bench/compare.py --json: translation against llvm-spirv-14 on the large shapes."""
    report = read_json("bench-translation.json")
    if not report:
        return []
    ratio = lambda a, b: f"{a / b:.2f}" if a and b else "-"
    rows = []
    for r in report["rows"]:
        if r.get("failed"):
            rows.append(f"| {r['shape']} | {r['size']:,} | {r['dir']} | failed | | | | | | |")
            continue
        both = (r["peer_s"] + r["spirv_val_s"]
                if r.get("spirv_val_s") is not None and r["peer_s"] is not None else None)
        io, ip = r.get("ours_instructions"), r.get("peer_instructions")
        if r["peer_s"] is None:
            ip = None  # the peer's crashed run counts nothing
        iv = r.get("spirv_val_instructions")
        rows.append(
            f"| {r['shape']} | {r['size']:,} | {r['dir']} | {r['ours_s']:.3f} | "
            f"{'crashed' if r['peer_s'] is None else format(r['peer_s'], '.3f')} | "
            f"{ratio(r['ours_s'], r['peer_s'])} | "
            f"{ratio(r['ours_s'], both) if both else '-'} | "
            f"{r['ours_rss_kib'] / 1024:.0f} / {r['peer_rss_kib'] / 1024:.0f} | "
            f"{ratio(io, ip)} | {ratio(io, ip + iv) if io and ip and iv else '-'} |")
    growth = [f"{k} {g:.2f}" for k, g in sorted(report["growth"].items())]
    repeats = sorted({r.get("repeat", report.get("repeat", 1)) for r in report["rows"]})
    if len(repeats) == 1:
        n = repeats[0]
        runs = f"the least wall time of {n} run{'s' if n > 1 else ''} each"
    else:
        more = [f"{r['shape']} {r['size']:,} {r['dir']}" for r in report["rows"]
                if r.get("repeat", 1) > 1]
        runs = (f"one run each, but the least of {max(repeats)} for " + ", ".join(more)
                + " (`--repeat`: the system time of a run on this virtual machine varies)")
    return [
        "## Speed of translation",
        "",
        "`python3 bench/compare.py --only shapes --json docs/logs/bench-translation.json` on "
        f"{report['machine']}: generated SPIR modules of four shapes (straight-line code, many "
        "small kernels, deep control flow, deep call chains) at each size in LLVM IR "
        "instructions, translated forward (`to-spirv`) and back (`to-spir` of our output) by "
        f"us and by llvm-spirv-14 ({runs}). "
        "`+ spirv-val` is the peer's time plus `spirv-val` on the module we write, the same "
        "work as ours (we validate every module we write). Instructions are callgrind's (up to "
        "100,000 IR instructions), which do not depend on the machine; below 1 we are "
        "cheaper. `-` beside `+ spirv-val`: spirv-val took over two minutes (its friendly "
        "names are quadratic in repeated value names: the many-kernel and call-chain shapes); "
        "`crashed`: llvm-spirv-14 died (a segmentation fault on the deep call chain).",
        "",
        "| shape | IR instructions | direction | ours (s) | llvm-spirv-14 (s) | ratio | ratio "
        "to peer + spirv-val | peak RSS MiB, ours / peer | instructions ratio | to peer + "
        "spirv-val |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
        "",
        "Growth exponents of our wall time between the two largest sizes (1.0: the cost per "
        "instruction is flat): " + ", ".join(growth) + ".",
        "",
        *growth_instructions_lines(report),
        *migrate_lines(report),
    ]


def growth_instructions_lines(report):
    """bench/compare.py --growth-instructions A,B: the work per instruction between A and B."""
    g = report.get("growth_instructions")
    if not g:
        return []
    n1, n2 = g["sizes"]
    cell = lambda e: "-" if e is None else f"{e:.3f}"
    parts = [f"{k} {cell(e['ours'])}" + (f" (peer {cell(e['peer'])})" if e.get("peer") else "")
             for k, e in sorted(g["exponents"].items())]
    return [f"Growth exponents of our work, callgrind's instructions from {n1:,} to {n2:,} IR "
            "instructions (`--growth-instructions`; they do not depend on the machine, where "
            "wall time at 1 M also carries its page faults and caches): " + ", ".join(parts)
            + ".", ""]


def migrate_lines(report):
    """bench/compare.py --only migrate: a tree of small modules against the peer per file."""
    m = report.get("migrate")
    if not m:
        return []
    line = (f"`spir-xlate migrate` of {m['files']:,} small modules (the fixtures, repeated) "
            f"with {m['jobs']} jobs (`--only migrate`): {m['ours_s']:.2f} s; llvm-spirv-14 run "
            f"once per file on as many jobs (`xargs -P`): {m['peer_s']:.2f} s, "
            f"**{m['peer_s'] / m['ours_s']:.1f}×**.")
    if "ours" in m:
        per = lambda r: (f"{(r['user_s'] + r['sys_s']) * 1e3 / m['files']:.2f} ms of CPU "
                         f"({r['sys_s'] * 1e3 / m['files']:.2f} ms of it in the kernel) and "
                         f"{r['faults'] / m['files']:.0f} page faults")
        line += f" Per file: ours {per(m['ours'])}; the peer {per(m['peer'])}."
    if m.get("sample"):
        io, ip = m["ours_instructions"], m["peer_instructions"]
        line += (f" Instructions per file over {m['sample']} of them (callgrind, which does "
                 f"not depend on the machine): ours {io / m['sample'] / 1e6:.1f} M, the peer "
                 f"{ip / m['sample'] / 1e6:.1f} M ({ip / io:.1f}×).")
    return [line, ""]


def fuzz_section():
    """The coverage-guided campaign's figures (scripts/fuzz_campaign.sh writes them)."""
    report = read_json("fuzz-campaign.json")
    if not report:
        return []
    names = {"spir_reader": "SPIR (bitcode) reader", "spirv_reader": "SPIR-V reader"}
    rows = []
    for target, runs in sorted(report.items()):
        for r in runs:
            rows.append(
                f"| {names.get(target, target)} | {r['date']} | {r['executions']:,} | "
                f"{r['seconds']:,} s | {r['executions_per_second']:,} | "
                f"{r['coverage_edges']:,} / {r['coverage_features']:,} | "
                f"{r['corpus_before']:,} → {r['corpus_after']:,} | {len(r['findings'])} | "
                f"{r.get('contained_child_crashes', 0):,} |")
        total = sum(r["executions"] for r in runs)
        rows.append(f"| **{names.get(target, target)}, all runs** | | **{total:,}** | "
                    f"{sum(r['seconds'] for r in runs):,} s | | | | "
                    f"{sum(len(r['findings']) for r in runs)} | |")
    return [
        "The coverage-guided fuzz campaign (`scripts/fuzz_campaign.sh`: libFuzzer over "
        "`fuzz/`, each reader with every writer behind it: SPIR-V for OpenCL and for Vulkan "
        "in both strategies, validated; both SPIR flavors; OpenCL C). A finding is a panic, "
        "an internal error, an invalid module returned, or Rust debug text in a message "
        "(*findings* counts a run's inputs that failed, several of them often one fault); "
        "each is fixed and kept in tests/regressions/, or listed in tests/regressions/open/ "
        "until it is. *Contained* counts inputs on which "
        "LLVM's own reader crashed inside the contained child, which the library answers as "
        "malformed input; coverage is libFuzzer's edges / features of our code; the corpus, "
        "minimized, is kept in `fuzz/corpus/`, and each run starts from the last one's; a run "
        "ends at a finding's fix, at its time or at its count of executions:",
        "",
        "| reader | run | executions | time | per second | coverage | corpus | findings "
        "| contained |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
        "",
    ]


def main():
    if "--run" in sys.argv[1:]:
        only = sys.argv[sys.argv.index("--run") + 1:]
        unknown = [t for t in only if t not in TIERS]
        if unknown:
            sys.exit(f"status.py: no tier {unknown[0]} (the tiers: {', '.join(TIERS)})")
        run_tiers(only)
    vulkan, intel, gpu = read("exec_vulkan.log"), read("exec_intel.log"), read("gpu.log")
    layer = read("exec_layer.log")
    nvidia = read("opencl_c_nvidia.log")
    nvidia_apps = read("opencl_c_nvidia_apps.log")
    # The second GPU's runs (docs/logs/h100/README.md says which code).
    nvidia_h100, apps_h100 = read("h100/opencl_c_nvidia.log"), read("h100/gpu_apps.log")
    nvidia_producers = nvidia_producer_rows("h100")
    if not (vulkan and intel):
        sys.exit("status.py: docs/logs/exec_vulkan.log and exec_intel.log are needed "
                 "(python3 scripts/status.py --run makes them)")
    stamp = datetime.datetime.fromtimestamp(
        os.path.getmtime(os.path.join(LOGS, "exec_vulkan.log")), datetime.timezone.utc)
    rows = (intel_rows(intel) + (nvidia_opencl_c_rows(nvidia) if nvidia else [])
            + (nvidia_apps_rows(nvidia_apps) if nvidia_apps else [])
            + (nvidia_opencl_c_rows(nvidia_h100, "H100") if nvidia_h100 else [])
            + (layer_rows(layer) if layer else []) + vulkan_rows(vulkan)
            + (gpu_rows(gpu) if gpu else [])
            + (gpu_rows(apps_h100, ", the application programs (`app_*`, `clc_signatures`, "
                        "`escape_time`, `printf_literals`, `workgroup_sizes`)")
               if apps_h100 else []))
    producers = read("exec_producers.log")
    math = math_rows(vulkan)
    special = special_rows(vulkan)
    page = [
        "# Status",
        "",
        f"Generated by `scripts/status.py` from the tiers' output in `docs/logs/` "
        f"(logs of {stamp:%Y-%m-%d}). Do not edit by hand: run the script.",
        "",
        "| consumer | translated / built | results against the OpenCL C source on the Intel "
        "runtime |",
        "|---|---|---|",
        *rows,
        "",
        *([
            "Other producers' SPIR-V read back (tests/exec_producers: every `//@exec` "
            "kernel's modern fixture made into SPIR-V by each producer, `to-spir`, loaded "
            "as SPIR on the Intel runtime, against the source). dpcpp is DPC++'s translator "
            "(PyPI `dpcpp-llvm-spirv`, LLVM 19), `-ext` with every extension it knows "
            "allowed; llvm22-backend is LLVM's own SPIR-V backend, the kernel's source "
            "compiled by clang 22 straight to SPIR-V at 1.4 and 1.6 (`zig clang "
            "--target=spirv64v1.X` of PyPI `ziglang`), where a run that differs is the "
            "producer's change only when the driver, given that module itself, computes "
            "the same; ours is `to-spirv --target opencl3.0 --spirv-version X`, and "
            "ours-untyped ours at 1.4 rewritten with SPV_KHR_untyped_pointers as a "
            "producer of the extension writes it (tests/common/untyped.rs; no such "
            "producer installs here; its modules are validated by the SPIRV-Tools linked "
            "in, the installed spirv-val predating the extension):",
            "",
            *producer_rows(producers),
            "",
            "The modules of three of them written as our OpenCL C (`to-opencl-c`), built by "
            "the Intel runtime from that source and run against the kernel's own source (the "
            "road of a driver that takes source only):",
            "",
            "| producer | programs built | runs bit-identical | the producer's change |",
            "|---|---|---|---|",
            *opencl_c_producer_rows(producers),
            "",
        ] if producers else []),
        *([
            "The same OpenCL C on NVIDIA's OpenCL (the H100; `scripts/opencl_c_nvidia.sh`, "
            "docs/logs/h100/): programs built, and runs bit-identical to the kernel's source "
            "built by NVIDIA's OpenCL. Fixtures whose source NVIDIA's OpenCL cannot build "
            "(C++ for OpenCL, device-side enqueue, pipes, subgroups, read-write and depth "
            "images, extended bit operations, integer dot products, and a `__constant` "
            "table initialized with `INFINITY`, which NVIDIA's header spells as a call) are "
            "not run; nor are those the producer made no module of. A run that differs "
            "where the Intel runtime, given the producer's module itself, computes what our "
            "OpenCL C of it computes (the table above) is the producer's change "
            "(`SPIR_XLATE_EXEC_PRODUCER_CHANGES`):",
            "",
            "| producer | programs built | runs bit-identical | the producer's change | "
            "GPU faults |",
            "|---|---|---|---|---|",
            *nvidia_producers,
            "",
        ] if nvidia_producers else []),
        *([
            "Math in the Vulkan library against the correctly rounded result (mpmath: the "
            "Vulkan tier runs `scripts/math_reference.py --check` over the `double_erf`, "
            "`double_gamma`, `double_hyperbolic`, `pow_root_tanpi`, `exp_log_wide` and "
            "`trig_wide` fixtures' "
            "results on lavapipe, every float function computed in float; lgamma away from "
            "its zeros):",
            "",
            "| builtin | ours (largest error) | Intel CPU runtime | OpenCL's bound |",
            "|---|---|---|---|",
            *math,
            "",
        ] if math else []),
        *([
            "Every float and double math builtin of OpenCL C at the inputs where libraries go "
            "wrong (`tests/kernels/math_special.cl`, `math_special_double.cl`: signed zeros, "
            "subnormals, numbers next to 1, "
            "integers and half-integers, overflow thresholds, the largest float, infinities, "
            "NaN, and every pair of them), judged by `scripts/math_special.py` against the "
            "special values C99 Annex F and OpenCL C 7.5.1 fix and the correctly rounded "
            "result; largest error in ulps, `inf` where a NaN, infinity, zero or sign is wrong "
            "(the Intel runtime's half_ functions flush subnormals, as OpenCL allows them):",
            "",
            "| builtin | ours | Intel CPU runtime | OpenCL's bound |",
            "|---|---|---|---|",
            *special,
            "",
        ] if special else []),
        *bench_section(),
        *translation_section(),
        *fuzz_section(),
        "Earlier measurements (fuzzing, speed, peers) are kept in [history.md](history.md).",
        "",
    ]
    with open(PAGE, "w") as f:
        f.write("\n".join(page))


if __name__ == "__main__":
    main()
