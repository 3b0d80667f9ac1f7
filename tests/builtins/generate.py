#!/usr/bin/env python3
"""Write one OpenCL C 1.2 source per builtin function, calling every overload of it.

The builtins are enumerated from clang-14's own declarations (opencl-c.h, as clang-14
preprocesses it for OpenCL C 1.2 with cl_khr_fp64, the 32- and 64-bit atomics extensions and
cl_khr_3d_image_writes): every `__attribute__((overloadable))` declaration. For builtin NAME,
OUT/NAME.cl holds one kernel per overload (those with a double in OUT/NAME.fp64.cl): each
value argument is read from a global buffer of its type, each pointer argument is a buffer, a `__local` array or a private array in the
address space the overload names, images and samplers are kernel arguments, and the result is
stored to a buffer, so that no call is dead. tests/builtins.rs compiles each source with
clang-14 and translates it for every target.

usage: generate.py OUT   (writes OUT/*.cl and OUT/index.txt: NAME OVERLOADS per line)
"""
import os
import re
import subprocess
import sys
import tempfile

EXTENSIONS = [
    "cl_khr_fp64",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_local_int32_extended_atomics",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_3d_image_writes",
    "cl_khr_byte_addressable_store",
]

QUALIFIERS = {"const", "volatile", "__global", "__local", "__private", "__constant",
              "global", "local", "private", "constant",
              "read_only", "write_only", "__read_only", "__write_only"}
SPACES = {"__global": "global", "global": "global", "__local": "local", "local": "local",
          "__private": "private", "private": "private", "__constant": "constant",
          "constant": "constant"}
# Types a kernel argument may not have, and the type that stores them.
STORED = {"size_t": "ulong", "ptrdiff_t": "long", "intptr_t": "long", "uintptr_t": "ulong",
          "half": "ushort"}


def declarations():
    """Every overloadable declaration clang-14 makes for OpenCL C 1.2: (ret, name, params)."""
    with tempfile.TemporaryDirectory() as d:
        empty = os.path.join(d, "empty.cl")
        open(empty, "w").close()
        text = subprocess.run(
            ["clang-14", "-cc1", "-triple", "spir64", "-cl-std=CL1.2",
             "-cl-ext=-all," + ",".join("+" + e for e in EXTENSIONS),
             "-finclude-default-header", "-E", "-P", empty, "-o", "-"],
            check=True, capture_output=True, text=True).stdout
    attr = re.compile(r"__attribute__\(\((?:[^()]|\([^()]*\))*\)\)")
    out = []
    text = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))
    for decl in text.split(";"):
        if "overloadable" not in decl:
            continue
        decl = attr.sub(" ", decl).strip()
        m = re.search(r"^(.*?)\b(\w+)\s*\(([^()]*)\)\s*$", decl, re.S)
        if not m:
            continue
        ret, name, params = m.group(1).split(), m.group(2), m.group(3).strip()
        ret = [t for t in ret if t not in ("const",)]
        plist = [] if params in ("", "void") else [parse_param(p) for p in params.split(",")]
        out.append((" ".join(ret), name, plist))
    return out


def parse_param(p):
    """A parameter as (space or None, base type, is pointer, qualifiers)."""
    tokens = re.findall(r"\w+|\*", p)
    quals = [t for t in tokens if t in QUALIFIERS]
    rest = [t for t in tokens if t not in QUALIFIERS]
    base = rest[0]
    if base == "unsigned":
        base = "u" + rest[1]
    pointer = "*" in rest
    space = next((SPACES[q] for q in quals if q in SPACES), None)
    access = next((q.strip("_") for q in quals if q.strip("_") in ("read_only", "write_only")),
                  None)
    return {"base": base, "pointer": pointer, "space": space, "access": access,
            "volatile": "volatile" in quals}


def stored(t):
    return STORED.get(t, t)


def kernel(j, ret, name, params):
    """Kernel `k<j>` calling overload `name(params)` once."""
    args, pre, call_args, post = [], [], [], []
    for i, p in enumerate(params):
        base = p["base"]
        if p["pointer"]:
            if base == "event_t":
                # wait_group_events(int, event_t *): the events of a copy just made.
                args.append(f"local int *l{i}, global const int *g{i}")
                pre.append(f"event_t ev{i} = async_work_group_copy(l{i}, g{i}, 4, 0);")
                call_args.append(f"&ev{i}")
            elif p["space"] in ("global", "constant", "local"):
                args.append(f"{p['space']} {base} *a{i}")
                call_args.append(f"a{i}")
            else:
                # A private array, filled from a buffer and written back after the call.
                s = stored(base)
                args.append(f"global {s} *a{i}")
                pre.append(f"{s} p{i}[16];")
                pre.append(f"for (int i = 0; i < 16; i++) p{i}[i] = a{i}[gid * 16 + i];")
                cast = f"({base} *)" if s != base else ""
                call_args.append(f"{cast}p{i}")
                post.append(f"for (int i = 0; i < 16; i++) a{i}[gid * 16 + i] = p{i}[i];")
        elif base.startswith("image"):
            args.append(f"{p['access'] or 'read_only'} {base} im{i}")
            call_args.append(f"im{i}")
        elif base == "sampler_t":
            args.append(f"sampler_t s{i}")
            call_args.append(f"s{i}")
        elif base == "event_t":
            call_args.append("0")
        elif base == "cl_mem_fence_flags":
            call_args.append("CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE")
        else:
            s = stored(base)
            args.append(f"global const {s} *a{i}")
            call_args.append(f"({base})a{i}[gid]" if s != base else f"a{i}[gid]")
    call = f"{name}({', '.join(call_args)})"
    if ret == "void":
        body = f"{call};"
    elif ret == "event_t":
        body = f"event_t e = {call};\n    wait_group_events(1, &e);"
    else:
        args.append(f"global {stored(ret)} *r")
        body = f"r[gid] = ({stored(ret)}){call};"
    lines = [f"kernel void k{j}({', '.join(args)}) {{", "    size_t gid = get_global_id(0);"]
    lines += ["    " + x for x in pre] + ["    " + body] + ["    " + x for x in post] + ["}"]
    return "\n".join(lines)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    by_name = {}
    for ret, name, params in declarations():
        by_name.setdefault(name, []).append((ret, params))
    pragmas = "".join(f"#pragma OPENCL EXTENSION {e} : enable\n" for e in EXTENSIONS)
    with open(os.path.join(out, "index.txt"), "w") as index:
        for name in sorted(by_name):
            # The overloads with a double apart (NAME.fp64.cl): a module of the others must
            # not need Float64 (tests/builtins.rs checks it for the Vulkan targets).
            overloads = list(enumerate(by_name[name]))
            fp64 = [o for o in overloads if "double" in o[1][0] or
                    any("double" in p["base"] for p in o[1][1])]
            rest = [o for o in overloads if o not in fp64]
            for file, group in ((name, rest), (name + ".fp64", fp64)):
                if not group:
                    continue
                kernels = [kernel(j, r, name, p) for j, (r, p) in group]
                with open(os.path.join(out, file + ".cl"), "w") as f:
                    f.write(f"// The overloads of {name}, generated by tests/builtins/generate.py.\n")
                    f.write(pragmas + "\n" + "\n\n".join(kernels) + "\n")
                index.write(f"{file} {len(kernels)}\n")


if __name__ == "__main__":
    main()
