#!/usr/bin/env python3
"""Speed and memory of spir-xlate against llvm-spirv-14, measured in one run (issue 21).

    python3 bench/compare.py [--sizes 1000,10000,100000,1000000] [--callgrind-max 10000]
                             [--shapes straight,kernels,control,calls] [--sample 40]
                             [--files 2000] [--jobs N] [--only shapes|corpus|migrate|growth]
                             [--directions fwd,rev] [--repeat 1]
                             [--growth-instructions 100000,300000]
                             [--json FILE] [--max-growth 1.15]

Prints four tables, each with our/peer ratios (below 1: we are cheaper):

* corpus: every fixture (tests/fixtures/*/*.bc), one process per file, both directions
  (forward: SPIR -> SPIR-V; reverse: our SPIR-V -> SPIR), instruction counts (callgrind,
  forked children followed and counted once: our translation runs in a forked child) and
  the ratio of their sums;
* shapes: generated SPIR modules of four shapes (long straight-line code, many kernels,
  deep control flow, deep call chains) at each size (LLVM IR instructions): wall time and
  peak RSS both directions, callgrind instructions up to --callgrind-max, and the growth
  exponent of each tool (the slope of log time over log size between the two largest sizes);
  with --repeat N, each time is the least of N runs (and each RSS the most). Forward, the
  peer's time plus `spirv-val` on the module we write is given too: the same work as ours,
  which validates every module it writes;
* growth in instructions (--growth-instructions A,B, only then): each shape and direction at
  sizes A and B under callgrind, ours and the peer, and the slope of log instructions over log
  size: the work each tool does, apart from what the memory hierarchy and the machine's page
  faults add to wall time (on a virtual machine the system time of the same run of a large
  module varies threefold). With --max-growth X the script exits 1 when one of our growth
  exponents exceeds X (the cost per instruction not flat: 1.0 is linear): the exponents in
  instructions where they are measured, else those of wall time;
* migrate: --files small modules (the fixtures, repeated) translated by `spir-xlate migrate
  -j N` against llvm-spirv-14 run once per file with the same number of jobs (xargs -P):
  wall time, CPU time per file (user and system) and page faults per file; with
  --migrate-instructions N also callgrind's instructions per file over N of them, which do not
  depend on the machine (the ratio of wall times does: the peer's per-file cost is mostly
  starting a process).

Needs llvm-spirv-14, llvm-as (LLVM 14), spirv-val and valgrind, and a release build
(`cargo build --release`). Nothing here is a timed test: with --json the figures of the tables
run (shapes, growth in instructions, migrate) are written to FILE
(docs/logs/bench-translation.json, which scripts/status.py makes tables of).
"""
import argparse
import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OURS = os.path.join(ROOT, "target/release/spir-xlate")
PEER = shutil.which("llvm-spirv-14") or "/usr/lib/llvm-14/bin/llvm-spirv"
LLVM_AS = "/usr/lib/llvm-14/bin/llvm-as"
SPIRV_VAL = shutil.which("spirv-val") or "spirv-val"
# spirv-val runs longer than this (seconds; its estimated time under callgrind, which runs
# code about CALLGRIND_SLOWDOWN times slower, for its instruction count) are left out.
VAL_LIMIT = 120
CALLGRIND_SLOWDOWN = 60

HEAD = """target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"
declare spir_func i64 @_Z13get_global_idj(i32)
"""
TAIL = """!opencl.spir.version = !{!0}
!opencl.ocl.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 1}
!2 = !{!"none", !"none"}
!3 = !{!"float*", !"float*"}
!4 = !{!"", !""}
"""
KMD = "!kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4"


def straight(n, name="k", lines=None):
    """A kernel of about n instructions: a chain of float arithmetic on one loaded value."""
    out = lines if lines is not None else []
    out.append(f"define spir_kernel void @{name}(float addrspace(1)* %a, float addrspace(1)* %b) {KMD} {{")
    out.append("entry:")
    out.append("  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)")
    out.append("  %pa = getelementptr inbounds float, float addrspace(1)* %a, i64 %gid")
    out.append("  %v0 = load float, float addrspace(1)* %pa, align 4")
    prev = "%v0"
    for i in range(1, max(n - 5, 2)):
        op = ("fadd", "fmul", "fsub")[i % 3]
        other = f"%v{i // 2}" if i > 2 else "1.5"
        out.append(f"  %v{i} = {op} float {prev}, {other}")
        prev = f"%v{i}"
    out.append("  %pb = getelementptr inbounds float, float addrspace(1)* %b, i64 %gid")
    out.append(f"  store float {prev}, float addrspace(1)* %pb, align 4")
    out.append("  ret void")
    out.append("}")
    return out


def many_kernels(n):
    lines = []
    for k in range(max(n // 100, 1)):
        straight(100, f"k{k}", lines)
    return lines


def control_flow(n):
    """A chain of n/8 diamonds, each branching on the value the last one made."""
    lines = [f"define spir_kernel void @k(float addrspace(1)* %a, float addrspace(1)* %b) {KMD} {{",
             "entry:",
             "  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)",
             "  %pa = getelementptr inbounds float, float addrspace(1)* %a, i64 %gid",
             "  %x0 = load float, float addrspace(1)* %pa, align 4",
             "  br label %d0"]
    d = max(n // 8, 1)
    for i in range(d):
        lines += [f"d{i}:",
                  f"  %c{i} = fcmp ogt float %x{i}, 0.5",
                  f"  br i1 %c{i}, label %t{i}, label %f{i}",
                  f"t{i}:",
                  f"  %tv{i} = fmul float %x{i}, 0.5",
                  f"  br label %j{i}",
                  f"f{i}:",
                  f"  %fv{i} = fadd float %x{i}, 1.25",
                  f"  br label %j{i}",
                  f"j{i}:",
                  f"  %x{i + 1} = phi float [ %tv{i}, %t{i} ], [ %fv{i}, %f{i} ]",
                  f"  br label %d{i + 1}"]
    lines += [f"d{d}:",
              "  %pb = getelementptr inbounds float, float addrspace(1)* %b, i64 %gid",
              f"  store float %x{d}, float addrspace(1)* %pb, align 4",
              "  ret void", "}"]
    return lines


def call_chain(n):
    """n/10 functions, each calling the next: a call chain n/10 deep."""
    depth = max(n // 10, 1)
    lines = []
    for i in range(depth):
        lines.append(f"define internal spir_func float @f{i}(float %x) {{")
        lines.append("entry:")
        prev = "%x"
        for j in range(7):
            k = ("1.5", "2.0", "0.25", "3.0", "0.5", "1.25", "4.0")[j]
            lines.append(f"  %v{j} = {('fadd', 'fmul')[j % 2]} float {prev}, {k}")
            prev = f"%v{j}"
        if i + 1 < depth:
            lines.append(f"  %r = call spir_func float @f{i + 1}(float {prev})")
            prev = "%r"
        lines.append(f"  ret float {prev}")
        lines.append("}")
    lines += [f"define spir_kernel void @k(float addrspace(1)* %a, float addrspace(1)* %b) {KMD} {{",
              "entry:",
              "  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)",
              "  %pa = getelementptr inbounds float, float addrspace(1)* %a, i64 %gid",
              "  %x = load float, float addrspace(1)* %pa, align 4",
              "  %r = call spir_func float @f0(float %x)",
              "  %pb = getelementptr inbounds float, float addrspace(1)* %b, i64 %gid",
              "  store float %r, float addrspace(1)* %pb, align 4",
              "  ret void", "}"]
    return lines


SHAPES = {"straight": straight, "kernels": many_kernels, "control": control_flow, "calls": call_chain}


def make_module(shape, n, path):
    text = HEAD + "\n".join(SHAPES[shape](n)) + "\n" + TAIL
    ll = path + ".ll"
    with open(ll, "w") as f:
        f.write(text)
    subprocess.run([LLVM_AS, ll, "-o", path], check=True)
    os.remove(ll)


def timed(cmd):
    """Wall seconds and peak RSS (KiB, over the process and its children) of a command."""
    start = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    rss = int(p.stderr.strip().splitlines()[-1]) if p.stderr.strip() else 0
    return wall, rss, p.returncode


def instructions(cmd, work):
    """Instructions executed (callgrind), summed over the process and its forked children.

    A forked child starts with its parent's counters; dumping them before each `fork`
    (`--dump-before=fork`, which zeroes them) leaves every part counted once, so the sum of
    all dumps is the total."""
    for f in glob.glob(os.path.join(work, "cg.*")):
        os.remove(f)
    subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes", "--dump-before=fork",
                    f"--callgrind-out-file={work}/cg.%p"] + cmd,
                   capture_output=True)
    total = 0
    for f in glob.glob(os.path.join(work, "cg.*")):
        with open(f) as fh:
            for line in fh:
                if line.startswith("summary:") or line.startswith("totals:"):
                    total += int(line.split()[1])
                    break
    return total


def forward(tool, src, dst):
    return [OURS, "to-spirv", src, "-o", dst] if tool == "ours" else [PEER, src, "-o", dst]


def reverse(tool, src, dst):
    return [OURS, "to-spir", src, "-o", dst] if tool == "ours" else [PEER, "-r", src, "-o", dst]


def corpus(work, sample):
    files = sorted(glob.glob(os.path.join(ROOT, "tests/fixtures/*/*.bc")))
    # Every k-th fixture: callgrind is slow (a few seconds a run).
    files = files[::max(len(files) // sample, 1)] if sample else files
    sums = {("fwd", "ours"): 0, ("fwd", "peer"): 0, ("rev", "ours"): 0, ("rev", "peer"): 0}
    counted = 0
    for f in files:
        spv = os.path.join(work, "c.spv")
        if subprocess.run([OURS, "to-spirv", f, "-o", spv], capture_output=True).returncode:
            continue
        if subprocess.run([PEER, f, "-o", os.path.join(work, "p.spv")], capture_output=True).returncode:
            continue  # compare only files both translate
        if subprocess.run([PEER, "-r", spv, "-o", os.path.join(work, "p.bc")], capture_output=True).returncode:
            continue
        counted += 1
        for tool in ("ours", "peer"):
            sums[("fwd", tool)] += instructions(forward(tool, f, os.path.join(work, "o.spv")), work)
            sums[("rev", tool)] += instructions(reverse(tool, spv, os.path.join(work, "o.bc")), work)
    print(f"\ncorpus: {counted} of {len(files)} sampled fixtures that both tools translate both ways; "
          "instructions per file (millions, mean)")
    print("| direction | ours | llvm-spirv-14 | ratio |")
    print("|---|---|---|---|")
    for d, name in (("fwd", "forward"), ("rev", "reverse")):
        o, p = sums[(d, "ours")] / counted / 1e6, sums[(d, "peer")] / counted / 1e6
        print(f"| {name} | {o:.1f} M | {p:.1f} M | {o / p:.2f} |")


def machine():
    """The CPU model and core count, for the report."""
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")),
                         model)
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores"


def timed_best(cmd, repeat):
    """`timed`, `repeat` times: the least wall time, the most RSS, the worst exit status."""
    runs = [timed(cmd) for _ in range(max(repeat, 1))]
    return min(r[0] for r in runs), max(r[1] for r in runs), max(r[2] for r in runs)


def shapes(work, sizes, cg_max, which, directions, repeat=1):
    """The shapes' table; returns its rows and our growth exponents (for --json and
    --max-growth)."""
    print("\nshapes: wall seconds (peak RSS MiB), ratio ours/peer; instructions where measured;"
          " forward, also against the peer plus spirv-val on its output")
    print("| shape | IR insts | dir | ours | llvm-spirv-14 | time ratio | + spirv-val | "
          "ratio to both | RSS ratio | instr ratio | instr ratio to both |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    growth, rows = {}, []
    for shape in which:
        for n in sizes:
            bc = os.path.join(work, f"{shape}{n}.bc")
            make_module(shape, n, bc)
            spv = os.path.join(work, f"{shape}{n}.spv")
            w, r, rc = timed([OURS, "to-spirv", bc, "-o", spv])
            if rc:
                print(f"| {shape} | {n} | fwd | failed | | | | | | | |")
                rows.append({"shape": shape, "size": n, "dir": "fwd", "failed": True})
                continue
            for d, cmd in (("fwd", forward), ("rev", reverse)):
                if d not in directions:
                    continue
                src = bc if d == "fwd" else spv
                out = os.path.join(work, "o." + ("spv" if d == "fwd" else "bc"))
                res = {}
                for tool in ("ours", "peer"):
                    if os.path.exists(out):
                        os.remove(out)
                    res[tool] = timed_best(cmd(tool, src, out), repeat)
                    growth.setdefault((shape, d, tool), []).append((n, res[tool][0]))
                # spirv-val on the module we write (and validate in process): the work the
                # peer would add to do what we do. (On the peer's own output of the many-kernel
                # shape spirv-val is far slower: not the work in question.)
                # spirv-val's friendly names make it quadratic in repeated value names (the
                # many-kernel shape): past VAL_LIMIT seconds it is left out ("-").
                val = val_i = None
                if d == "fwd" and res["peer"][2] == 0:
                    val = timed_best(["timeout", str(VAL_LIMIT), SPIRV_VAL, spv], repeat)
                    val = val[0] if val[2] == 0 else None
                row = {"shape": shape, "size": n, "dir": d, "repeat": repeat,
                       "ours_s": res["ours"][0], "ours_rss_kib": res["ours"][1],
                       "peer_s": res["peer"][0] if res["peer"][2] == 0 else None,
                       "peer_rss_kib": res["peer"][1], "spirv_val_s": val}
                ir = both_ir = ""
                if n <= cg_max:
                    io = instructions(cmd("ours", src, out), work)
                    ip = instructions(cmd("peer", src, out), work)
                    ir = f"{io / ip:.2f} ({io / 1e6:.0f} M / {ip / 1e6:.0f} M)"
                    row.update(ours_instructions=io, peer_instructions=ip)
                    if val is not None and val * CALLGRIND_SLOWDOWN < VAL_LIMIT:
                        val_i = instructions([SPIRV_VAL, spv], work)
                        row["spirv_val_instructions"] = val_i
                        both_ir = f"{io / (ip + val_i):.2f}"
                rows.append(row)
                (wo, ro, co), (wp, rp, cp) = res["ours"], res["peer"]
                peer = f"{wp:.2f} s ({rp / 1024:.0f})" if cp == 0 else f"failed ({cp})"
                both = (f"{wp + val:.2f} s | {wo / (wp + val):.2f}" if val is not None
                        else ("over the limit | -" if d == "fwd" else " | "))
                ratio = f"{wo / wp:.2f}" if cp == 0 else "-"
                print(f"| {shape} | {n} | {d} | {wo:.2f} s ({ro / 1024:.0f}) | {peer} | "
                      f"{ratio} | {both} | {ro / max(rp, 1):.2f} | {ir} | {both_ir} |")
            os.remove(bc)
            os.remove(spv)
    print("\ngrowth exponents (slope of log time over log size, two largest sizes)")
    print("| shape | dir | ours | llvm-spirv-14 |")
    print("|---|---|---|---|")
    ours_growth = {}
    for shape in which:
        for d in ("fwd", "rev"):
            row = []
            for tool in ("ours", "peer"):
                pts = growth.get((shape, d, tool), [])
                if len(pts) < 2:
                    row.append("-")
                    continue
                (n1, t1), (n2, t2) = pts[-2], pts[-1]
                g = math.log(t2 / t1) / math.log(n2 / n1)
                row.append(f"{g:.2f}")
                if tool == "ours":
                    ours_growth[f"{shape} {d}"] = g
            print(f"| {shape} | {d} | {row[0]} | {row[1]} |")
    return rows, ours_growth


def growth_instructions(work, sizes, which, directions, tools=("ours", "peer")):
    """The slope of log instructions (callgrind) over log size between two sizes, ours and
    the peer's (of `tools`: under callgrind the peer takes up to 20 minutes on one 1 M
    module), by "shape dir" (None where a run failed or was not made)."""
    (n1, n2) = sizes
    print(f"\ngrowth in instructions (callgrind), {n1} -> {n2} IR instructions")
    print("| shape | dir | ours | llvm-spirv-14 |")
    print("|---|---|---|---|")
    exponents = {}
    for shape in which:
        counts = {}
        for n in (n1, n2):
            bc = os.path.join(work, f"{shape}{n}.bc")
            make_module(shape, n, bc)
            spv = os.path.join(work, f"{shape}{n}.spv")
            subprocess.run([OURS, "to-spirv", bc, "-o", spv], check=True, capture_output=True)
            for d, cmd in (("fwd", forward), ("rev", reverse)):
                if d not in directions:
                    continue
                src = bc if d == "fwd" else spv
                out = os.path.join(work, "o." + ("spv" if d == "fwd" else "bc"))
                for tool in tools:
                    ok = subprocess.run(cmd(tool, src, out), capture_output=True).returncode == 0
                    counts[(d, tool, n)] = instructions(cmd(tool, src, out), work) if ok else None
            os.remove(bc)
            os.remove(spv)
        for d in directions:
            row = {}
            for tool in ("ours", "peer"):
                c1, c2 = counts.get((d, tool, n1)), counts.get((d, tool, n2))
                row[tool] = math.log(c2 / c1) / math.log(n2 / n1) if c1 and c2 else None
                row[f"{tool}_instructions"] = [c1, c2]
            exponents[f"{shape} {d}"] = row
            cells = [f"{row[t]:.3f}" if row[t] is not None
                     else ("failed" if t in tools else "not run") for t in ("ours", "peer")]
            print(f"| {shape} | {d} | {cells[0]} | {cells[1]} |")
    return exponents


def cpu(cmd, **kw):
    """Wall seconds, and the user and system CPU seconds and minor page faults of a command
    with every process it waited for (/usr/bin/time)."""
    start = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%U %S %R"] + cmd, capture_output=True,
                       text=True, **kw)
    wall = time.perf_counter() - start
    user, system, faults = p.stderr.strip().splitlines()[-1].split()
    return wall, float(user), float(system), int(faults), p


def migrate(work, files, jobs, cg_files=0):
    """The migrate table: wall time, and where each side's CPU time goes (user, system, page
    faults per file), which tells how much of the ratio is the machine's cost of starting a
    process (the peer's per file) rather than either tool's translation."""
    src = os.path.join(work, "lib")
    fixtures = sorted(glob.glob(os.path.join(ROOT, "tests/fixtures/*/*.bc")))
    good = [f for f in fixtures
            if subprocess.run([PEER, f, "-o", os.path.join(work, "p.spv")], capture_output=True).returncode == 0]
    for i in range(files):
        d = os.path.join(src, f"d{i // 100}")
        os.makedirs(d, exist_ok=True)
        shutil.copy(good[i % len(good)], os.path.join(d, f"m{i}.bc"))
    out = os.path.join(work, "out")
    ours = cpu([OURS, "migrate", src, "-o", out, "-j", str(jobs), "-q"])
    if ours[4].returncode != 0:
        sys.exit(f"migrate failed ({ours[4].returncode}): {ours[4].stderr.strip()}")
    peer_out = os.path.join(work, "peer")
    os.makedirs(peer_out)
    listing = "\n".join(sorted(glob.glob(os.path.join(src, "*/*.bc"))))
    peer = cpu(["xargs", "-P", str(jobs), "-I{}", "sh", "-c",
                f'{PEER} "{{}}" -o {peer_out}/$(basename "{{}}" .bc).spv'], input=listing)
    print(f"\nmigrate: {files} small modules, {jobs} jobs; CPU per file in ms (user + system), "
          "minor page faults per file")
    print("| ours (migrate) | llvm-spirv-14 once per file | speed-up | ours per file | "
          "peer per file |")
    print("|---|---|---|---|---|")
    per = lambda r: (f"{r[1] * 1e3 / files:.2f} + {r[2] * 1e3 / files:.2f} ms, "
                     f"{r[3] / files:.0f} faults")
    print(f"| {ours[0]:.2f} s | {peer[0]:.2f} s | {peer[0] / ours[0]:.1f}x | {per(ours)} | "
          f"{per(peer)} |")
    fig = lambda r: {"s": r[0], "user_s": r[1], "sys_s": r[2], "faults": r[3]}
    result = {"files": files, "jobs": jobs, "ours_s": ours[0], "peer_s": peer[0],
              "ours": fig(ours), "peer": fig(peer)}
    if cg_files:
        # The work per file, which does not depend on the machine: callgrind over the first
        # cg_files modules, ours in one migrate (one job), the peer's process per file.
        sample = sorted(glob.glob(os.path.join(src, "*/*.bc")))[:cg_files]
        one = os.path.join(work, "sample")
        os.makedirs(one)
        for f in sample:
            shutil.copy(f, one)
        io = instructions([OURS, "migrate", one, "-o", os.path.join(work, "sample-out"),
                           "-j", "1", "-q"], work)
        ip = sum(instructions(["sh", "-c", f'{PEER} "{f}" -o {work}/p.spv'], work)
                 for f in sample)
        print(f"instructions per file over {cg_files} of them (callgrind): ours "
              f"{io / cg_files / 1e6:.2f} M, the peer {ip / cg_files / 1e6:.2f} M: "
              f"{ip / io:.1f}x")
        result.update(sample=cg_files, ours_instructions=io, peer_instructions=ip)
    return result


def merged(previous, report):
    """`previous` (the --json file's figures) with this run's in place of the same ones: a row
    of the shapes table per shape, size and direction, a growth exponent per shape and
    direction (in instructions only between the same two sizes), the other parts whole."""
    out = {**previous, **report}
    order = list(SHAPES)
    key = lambda r: (order.index(r["shape"]) if r["shape"] in order else len(order),
                     r["size"], r["dir"])
    if "rows" in previous and "rows" in report:
        new = {key(r) for r in report["rows"]}
        out["rows"] = sorted([r for r in previous["rows"] if key(r) not in new]
                             + report["rows"], key=key)
        out["growth"] = {**previous.get("growth", {}), **report.get("growth", {})}
    old, cur = previous.get("growth_instructions"), report.get("growth_instructions")
    if old and cur and old["sizes"] == cur["sizes"]:
        out["growth_instructions"] = {"sizes": cur["sizes"],
                                      "exponents": {**old["exponents"], **cur["exponents"]}}
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,10000,100000,1000000")
    ap.add_argument("--callgrind-max", type=int, default=10000)
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--only", choices=["shapes", "corpus", "migrate", "growth"])
    ap.add_argument("--sample", type=int, default=40, help="fixtures in the corpus table (0: all)")
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--directions", default="fwd,rev", help="shapes: fwd, rev or both")
    ap.add_argument("--repeat", type=int, default=1, help="shapes: runs per time (the least)")
    ap.add_argument("--growth-instructions", metavar="A,B",
                    help="also the growth in callgrind instructions between sizes A and B")
    ap.add_argument("--migrate-instructions", type=int, default=0, metavar="N",
                    help="migrate: also callgrind's instructions per file over N of the files")
    ap.add_argument("--growth-tools", default="ours,peer",
                    help="whose growth in instructions to measure: ours, peer or both")
    ap.add_argument("--json", metavar="FILE",
                    help="write the figures of the tables run to FILE (replacing those parts "
                         "of it, keeping the others)")
    ap.add_argument("--max-growth", type=float,
                    help="exit 1 if one of our growth exponents exceeds this (in instructions "
                         "where --growth-instructions measured them, else in wall time)")
    a = ap.parse_args()
    if not os.path.exists(OURS):
        sys.exit("build first: cargo build --release")
    work = tempfile.mkdtemp(prefix="spir-xlate-bench-")
    try:
        if a.only in (None, "corpus"):
            corpus(work, a.sample)
        report = {"machine": machine(), "peer": PEER}
        if a.only in (None, "shapes"):
            rows, growth = shapes(work, [int(s) for s in a.sizes.split(",")], a.callgrind_max,
                                  a.shapes.split(","), a.directions.split(","), a.repeat)
            report.update(rows=rows, growth=growth)
        steep = {}
        if a.growth_instructions and a.only in (None, "shapes", "growth"):
            sizes = [int(s) for s in a.growth_instructions.split(",")]
            exponents = growth_instructions(work, sizes, a.shapes.split(","),
                                            a.directions.split(","), a.growth_tools.split(","))
            report["growth_instructions"] = {"sizes": sizes, "exponents": exponents}
            steep = {k: e["ours"] for k, e in exponents.items()}
        elif "growth" in report:
            steep = report["growth"]
        if a.only in (None, "migrate"):
            report["migrate"] = migrate(work, a.files, a.jobs, a.migrate_instructions)
        if a.json:
            previous = {}
            if os.path.exists(a.json):
                with open(a.json) as f:
                    previous = json.load(f)
            with open(a.json + ".tmp", "w") as f:
                json.dump(merged(previous, report), f, indent=1)
            os.replace(a.json + ".tmp", a.json)
        too_steep = []
        if a.max_growth is not None:
            too_steep = [f"{k}: {'failed' if g is None else format(g, '.3f')}"
                         for k, g in steep.items() if g is None or g > a.max_growth]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if too_steep:
        sys.exit(f"cost per instruction not flat (growth exponent over {a.max_growth}): "
                 + ", ".join(too_steep))


if __name__ == "__main__":
    main()
