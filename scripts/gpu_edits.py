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


def dont_flatten(text):
    """Every selection marked DontFlatten (SPIR-V's selection control hint) instead of None."""
    return re.sub(r"(OpSelectionMerge %\S+) None", r"\1 DontFlatten", text)


def small_arguments(text):
    """The large-argument reduction of sin and cos (the `reduce.large` branch) never taken:
    what the kernel would cost if the driver's compiler kept only the small-argument path
    (wrong for |x| >= 2^13, which the benchmark's arguments never reach)."""
    false = "%edit_false"
    text = re.sub(r"(OpBranchConditional )%\S+( %reduce_large )", r"\1" + false + r"\2", text)
    return re.sub(r"^(\s*%bool = OpTypeBool)$", r"\1\n" + false + " = OpConstantFalse %bool",
                  text, count=1, flags=re.M)


def no_specials(text):
    """`small_arguments`, and the library's tests for an infinite or NaN argument never true:
    what the special-value selects of sin and cos cost (wrong for those arguments, which the
    benchmark's never are)."""
    text = small_arguments(text)
    return re.sub(r"^(\s*%\S+) = Op(?:IsInf|IsNan) %bool %\S+$", r"\1 = OpCopyObject %bool %edit_false",
                  text, flags=re.M)


def no_variables(text):
    """`small_arguments`, and each load of a Function variable (the reduction's r, its low
    part and q; the cosine sincos stores through its pointer) replaced by the value last
    stored to it outside the never-taken branch: what keeping those values in variables, not
    in SSA values, costs."""
    text = small_arguments(text)
    variables = set(re.findall(r"^\s*(%\S+) = OpVariable %\S+ Function$", text, re.M))
    stored, block, out = {}, None, []
    for line in text.split("\n"):
        m = re.match(r"^\s*(%\S+) = OpLabel$", line)
        if m:
            block = m.group(1)
        m = re.match(r"^\s*OpStore (%\S+) (%\S+)", line)
        if m and m.group(1) in variables and block != "%reduce_large":
            stored[m.group(1)] = m.group(2)
        m = re.match(r"^(\s*%\S+) = OpLoad (%\S+) (%\S+)(?: Aligned \d+)?$", line)
        if m and m.group(3) in stored:
            line = f"{m.group(1)} = OpCopyObject {m.group(2)} {stored[m.group(3)]}"
        out.append(line)
    return "\n".join(out)


def byte_float(text):
    """Each conversion of a uchar4 to float4 made exact integer arithmetic instead of the
    conversion instruction: the bytes widened to uint, 2^23 added as bits (0x4B000000, the
    float 2^23 + byte) and 2^23 subtracted as a float (exact: the same floats)."""
    if "%v4uint = OpTypeVector %uint 4" in text:
        return text
    consts = ("%v4uint = OpTypeVector %uint 4\n"
              "%edit_magic = OpConstant %uint 1258291200\n"
              "%edit_magic4 = OpConstantComposite %v4uint %edit_magic %edit_magic %edit_magic "
              "%edit_magic\n"
              "%edit_two23 = OpConstant %float 8388608\n"
              "%edit_two23_4 = OpConstantComposite %v4float %edit_two23 %edit_two23 %edit_two23 "
              "%edit_two23\n")
    # After every type and constant: before the first function.
    text = re.sub(r"^(\s*%\S+ = OpFunction )", lambda m: consts + m.group(1), text, count=1,
                  flags=re.M)
    loads = set(re.findall(r"^\s*(%\S+) = OpLoad %v4uchar ", text, re.M))

    def fix(m):
        r, x = m.group(2), m.group(3)
        if x not in loads:
            return m.group(0)
        ind = m.group(1)
        return (f"{ind}{r}_w = OpUConvert %v4uint {x}\n"
                f"{ind}{r}_o = OpBitwiseOr %v4uint {r}_w %edit_magic4\n"
                f"{ind}{r}_b = OpBitcast %v4float {r}_o\n"
                f"{ind}{r} = OpFSub %v4float {r}_b %edit_two23_4")

    return re.sub(r"^(\s*)(%\S+) = OpConvertUToF %v4float (%\S+)$", fix, text, flags=re.M)


EDITS = {
    "blur_uchar4": [("unroll-hint", unroll), ("byte-float", byte_float)],
    "fft_radix2": [("dont-flatten", dont_flatten), ("small-arguments", small_arguments),
                   ("no-specials", no_specials), ("no-variables", no_variables)],
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
