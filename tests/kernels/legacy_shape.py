#!/usr/bin/env python3
"""Rewrite clang-14 SPIR text IR into the shape of legacy SPIR 1.2 modules.

Legacy SPIR 1.2 producers listed kernels in `!opencl.kernels` (function, then one node per
kernel_arg_* list and attribute), spelled images without access suffix (`%opencl.image2d_t`),
passed samplers as `i32`, declared `!opencl.spir.version = !{i32 1, i32 2}` (2.0 for OpenCL
C 2.0 source, kept), spelled SPIR 2.0's pipes as `%opencl.pipe_t` with the mangled pipe
built-ins of SPIR 2.0 section 2.10.7 (`_Z9read_pipePU3AS18ocl_pipePU3AS4vjj`) and recorded the
default FP_CONTRACT ON as `!opencl.enable.FP_CONTRACT`; some put constant program data in
address space 0 (see the end). This script
takes one .ll on stdin and writes the legacy-shaped .ll on stdout.
"""
import re
import sys

src = sys.stdin.read()

# Samplers: opaque pointer -> i32; sampler initializer calls -> their constant.
inits = {}
def drop_init(m):
    # Keep the value numbering: the initializer becomes a no-op cast of the bit-field.
    inits[m.group(1)] = m.group(2)
    return f"\n  {m.group(1)} = bitcast i32 {m.group(2)} to i32"
src = re.sub(r"\s*(%[\w.]+) = (?:tail )?call spir_func %opencl\.sampler_t addrspace\(2\)\* "
             r"@__translate_sampler_initializer\(i32 (\d+)\)[^\n]*", drop_init, src)
src = re.sub(r"declare [^\n]*@__translate_sampler_initializer[^\n]*\n", "", src)
# Pointer-only parameter attributes (readonly, nocapture, ...) do not apply to the i32.
src = re.sub(r"%opencl\.sampler_t addrspace\(2\)\*((?: (?:readonly|readnone|nocapture|noalias|nonnull"
             r"|align \d+|dereferenceable\(\d+\)))*)", "i32", src)
src = re.sub(r"%opencl\.sampler_t = type opaque\n", "", src)

# Images: drop the access suffix from type names (the mangled names keep theirs: SPIR 1.2
# mangling has no access qualifier either, so drop it there too).
src = re.sub(r"%opencl\.(image\w+?)_(?:ro|wo|rw)_t", r"%opencl.\1_t", src)
src = re.sub(r"(\d+)ocl_(image\w+?)_(ro|wo|rw)", lambda m: f"{int(m.group(1)) - 3}ocl_{m.group(2)}", src)
# Pipes (SPIR 2.0 section 2.10.7): one `%opencl.pipe_t` type; clang's `__read_pipe_2` family
# becomes the mangled OpenCL C functions with the same operands (the access is in the
# metadata).
src = re.sub(r"%opencl\.pipe_(?:ro|wo)_t", "%opencl.pipe_t", src)
PIPE = "PU3AS18ocl_pipe"
RID = "13ocl_reserveid"
PTR = "PU3AS4v"
def mangled(name, params):
    return f"_Z{len(name)}{name}{params}"
pipe_names = {
    "__read_pipe_2": mangled("read_pipe", PIPE + PTR + "jj"),
    "__write_pipe_2": mangled("write_pipe", PIPE + PTR + "jj"),
    "__read_pipe_4": mangled("read_pipe", PIPE + RID + "j" + PTR + "jj"),
    "__write_pipe_4": mangled("write_pipe", PIPE + RID + "j" + PTR + "jj"),
    "__get_pipe_num_packets_ro": mangled("get_pipe_num_packets", PIPE + "jj"),
    "__get_pipe_num_packets_wo": mangled("get_pipe_num_packets", PIPE + "jj"),
    "__get_pipe_max_packets_ro": mangled("get_pipe_max_packets", PIPE + "jj"),
    "__get_pipe_max_packets_wo": mangled("get_pipe_max_packets", PIPE + "jj"),
}
for scope in ["", "work_group_", "sub_group_"]:
    for rw in ["read", "write"]:
        pipe_names[f"__{scope}reserve_{rw}_pipe"] = mangled(f"{scope}reserve_{rw}_pipe", PIPE + "jjj")
        pipe_names[f"__{scope}commit_{rw}_pipe"] = mangled(f"{scope}commit_{rw}_pipe", PIPE + RID + "jj")
src = re.sub(r"@(__\w+_pipe(?:_2|_4)?|__get_pipe_\w+)\(",
             lambda m: "@" + pipe_names.get(m.group(1), m.group(1)) + "(", src)
seen = set()
lines = []
for line in src.split("\n"):
    m = re.match(r"(%opencl\.(?:image\w+|pipe)_t) = type opaque", line)
    if m:
        if m.group(1) in seen:
            continue
        seen.add(m.group(1))
    lines.append(line)
src = "\n".join(lines)
# Duplicate declarations can appear after renaming (read_imagef for ro and rw images).
decls = set()
out = []
for line in src.split("\n"):
    if line.startswith("declare "):
        key = re.search(r"@[\w.]+", line).group(0)
        if key in decls:
            continue
        decls.add(key)
    out.append(line)
src = "\n".join(out)

# Kernel metadata: function attachments -> !opencl.kernels.
TAGS = ["kernel_arg_addr_space", "kernel_arg_access_qual", "kernel_arg_type",
        "kernel_arg_base_type", "kernel_arg_type_qual", "kernel_arg_name", "reqd_work_group_size",
        "work_group_size_hint", "vec_type_hint"]
nodes = dict(re.findall(r"^(!\d+) = (!\{.*\})$", src, re.M))
next_id = max([int(k[1:]) for k in nodes] + [0]) + 1
new_nodes = []
kernel_refs = []
def rewrite_define(m):
    global next_id
    head, attached = m.group(1), m.group(2)
    fname = re.search(r"@([\w.]+)\(", head).group(1)
    fty = re.search(r"define [^@]*?(\w+|void|<[^>]+>|\S+) @", head)
    sig = re.search(r"define (?:dso_local )?spir_kernel void @[\w.]+\((.*)\)", head).group(1)
    params = []
    depth = 0; cur = ""
    for ch in sig:
        if ch == "," and depth == 0:
            params.append(cur); cur = ""
            continue
        depth += ch in "(<[{"; depth -= ch in ")>]}"
        cur += ch
    if cur.strip():
        params.append(cur)
    ptys = []
    for p in params:
        p = re.sub(r"\s+%[\w.]+\s*$", "", p.strip())
        p = re.sub(r"\s+(noundef|nocapture|readonly|readnone|writeonly|noalias|signext|zeroext|byval\([^)]*\)|align \d+|dereferenceable\(\d+\))", "", p)
        ptys.append(p.strip())
    refs = []
    for tag, ref in re.findall(r"!(\w+) (!\d+)", attached):
        if tag not in TAGS:
            continue
        body = nodes[ref][2:-1]
        nid = f"!{next_id}"; next_id += 1
        new_nodes.append(f'{nid} = !{{!"{tag}"{", " + body if body else ""}}}')
        refs.append(nid)
    kid = f"!{next_id}"; next_id += 1
    node = ", ".join([f"void ({', '.join(ptys)})* @{fname}"] + refs)
    new_nodes.append(f"{kid} = !{{{node}}}")
    kernel_refs.append(kid)
    return head + " {"
def rewrite_line(m):
    head, rest = m.group(1), m.group(2)
    attached = " ".join(re.findall(r"!\w+ !\d+", rest))
    rewrite_define_parts(head, attached)
    return head + " " + re.sub(r"!\w+ !\d+", "", rest).strip() + " {"
def rewrite_define_parts(head, attached):
    class M:
        def group(self, i):
            return head if i == 1 else attached
    rewrite_define(M())
src = re.sub(r"^(define [^\n]*spir_kernel void @[\w.]+\(.*\))([^()\n]*)\{$", rewrite_line, src, flags=re.M)
# SPIR 2.0 (OpenCL C 2.0 source) keeps its version; the rest becomes SPIR 1.2.
spir_version = "i32 1, i32 2"
m = re.search(r"^!opencl\.spir\.version = !\{(!\d+)\}", src, flags=re.M)
if m:
    node = re.search(r"^" + re.escape(m.group(1)) + r" = !\{(i32 2, i32 0)\}", src, flags=re.M)
    if node:
        spir_version = node.group(1)
src = re.sub(r"^!opencl\.spir\.version = .*$", "", src, flags=re.M)
src += "\n!opencl.kernels = !{" + ", ".join(kernel_refs) + "}\n"
vid = f"!{next_id}"
src += f"!opencl.spir.version = !{{{vid}}}\n{vid} = !{{{spir_version}}}\n"
# OpenCL C contracts by default (FP_CONTRACT ON), which SPIR 1.2 producers recorded here.
src += "!opencl.enable.FP_CONTRACT = !{}\n"
src += "\n".join(new_nodes) + "\n"
# Some SPIR 1.2 producers put constant program data (string literals, `static const`
# tables) in the private address space 0. A module with a `__constant` global named
# `private_*` gets that shape: its constant-space data and pointers move to address space 0
# (such a kernel takes no `__constant` arguments, so nothing else is in address space 2).
if re.search(r"^@private_\w+ = [^\n]*addrspace\(2\)", src, flags=re.M):
    src = src.replace(" addrspace(2)", "")
    src = re.sub(r"U3AS2", "", src)
sys.stdout.write(src)
