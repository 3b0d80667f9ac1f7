#!/usr/bin/env python3
"""Hand-edited copies of our Vulkan modules, timed beside the modules we write (scripts/
gpu_bench.sh --variants): each edit is one change a translation could make, so the GPU says
what it would gain before the translator makes it. Adds a producer per edit to DIR/bench.json.

    python3 scripts/gpu_edits.py DIR
"""
import json
import os
import re
import subprocess
import sys


def unroll(text):
    """Every loop marked Unroll (SPIR-V's loop control hint) instead of None."""
    return re.sub(r"(OpLoopMerge %\S+ %\S+) None", r"\1 Unroll", text)


def workgroup_atomics(text):
    """Atomics on Workgroup pointers at Workgroup scope, not Device scope."""
    workgroup = set(re.findall(r"^\s*(%\S+) = OpTypePointer Workgroup", text, re.M))
    pointers = set()
    for m in re.finditer(r"^\s*(%\S+) = Op(?:InBounds)?(?:Ptr)?AccessChain (%\S+)", text, re.M):
        if m.group(2) in workgroup:
            pointers.add(m.group(1))
    scope = re.search(r"^\s*(%\S+) = OpConstant %uint 2$", text, re.M).group(1)

    def fix(m):
        return m.group(1) + scope if m.group(2) in pointers else m.group(0)

    return re.sub(r"(OpAtomic\w+ %\S+ (%\S+) )%\S+", fix, text)


EDITS = {
    "blur_uchar4": [("unroll-hint", unroll)],
    "histogram": [("workgroup-scope", workgroup_atomics), ("unroll-hint", unroll)],
    "nbody": [("unroll-hint", unroll)],
}


def main():
    d = sys.argv[1]
    path = os.path.join(d, "bench.json")
    bench = json.load(open(path))
    for k in bench["kernels"]:
        for name, edit in EDITS.get(k["name"], []):
            for strategy in ["physical", "descriptors"]:
                src = os.path.join(d, f"{k['name']}.ours-{strategy}.spv")
                text = subprocess.run(["spirv-dis", src], check=True,
                                      capture_output=True, text=True).stdout
                changed = edit(text)
                if changed == text:
                    print(f"gpu_edits.py: {name} changes nothing in {src}: not timed")
                    continue
                out = os.path.join(d, f"{k['name']}.ours-{strategy}-{name}.spv")
                subprocess.run(["spirv-as", "--target-env", "vulkan1.2", "-o", out, "-"],
                               input=changed, check=True, text=True)
                subprocess.run(["spirv-val", "--target-env", "vulkan1.2", out], check=True)
                k["producers"].append({"kernel": k["producers"][0]["kernel"],
                                       "name": f"ours-{strategy}-{name}",
                                       "spv": os.path.basename(out)})
    json.dump(bench, open(path, "w"), indent=1)


if __name__ == "__main__":
    main()
