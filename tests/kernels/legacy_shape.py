#!/usr/bin/env python3
"""Rewrite clang-14 SPIR text IR into the shape of legacy SPIR 1.2 modules.

Legacy SPIR 1.2 producers listed kernels in `!opencl.kernels` (function, then one node per
kernel_arg_* list and attribute), spelled images without access suffix (`%opencl.image2d_t`),
passed samplers as `i32`, declared `!opencl.spir.version = !{i32 1, i32 2}` (2.0 for OpenCL
C 2.0 source, kept), spelled SPIR 2.0's pipes as `%opencl.pipe_t` with the mangled pipe
built-ins of SPIR 2.0 section 2.10.7 (`_Z9read_pipePU3AS18ocl_pipePU3AS4vjj`) and recorded the
default FP_CONTRACT ON as `!opencl.enable.FP_CONTRACT`; some put constant program data in
address space 0 (see the end). SPIR 2.0 spells blocks and device-side enqueue its own way
(section 2.1.3.7, see `spir20_blocks`). This script
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

# Blocks (SPIR 2.0 section 2.1.3.7): clang-14 passes enqueue_kernel the block's invoke kernel
# (`@X_kernel`, which calls `@X` with the generic literal) and the literal itself. SPIR 2.0
# binds a block from the invoke function `@X`, which takes its captured context as a private
# `i8*`, and a private context: `spir_block_bind(@X, size, align, context)`, passed to the
# mangled `enqueue_kernel(..., U13block_pointer...)` and `get_kernel_*` queries. Here the
# context is clang's literal alloca (it holds the captures), `@X` takes it as `i8*` and casts
# it to generic for its unchanged body, program-scope literals become binds of size 0 with a
# null context, local-memory sizes are passed as `uint` operands, and the `_kernel` wrappers
# go. Unoptimized modules also keep each block in a block variable (an alloca of
# `%opencl.block*`), as an -O0 SPIR 2.0 producer does.
def split_args(text):
    args, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            args.append(cur.strip()); cur = ""
            continue
        depth += ch in "(<[{"; depth -= ch in ")>]}"
        cur += ch
    if cur.strip():
        args.append(cur.strip())
    return args

def arg_type(arg):
    t = re.sub(r"\s+(%[\w.]+|null|-?\d+)$", "", arg)
    t = re.sub(r"\s+(noundef|nonnull|byval\([^)]*\)|align \d+)", "", t)
    return t.strip()

def mangled_fn(name, params):
    return f"_Z{len(name)}{name}{params}"

def spir20_blocks(src):
    calls = list(re.finditer(r"^(\s*)(%[\w.]+) = call spir_func i32 @(__enqueue_kernel_\w+|__get_kernel_\w+_impl)\((.*)\)((?: #\d+)?)$", src, re.M))
    if not calls:
        return src
    optnone = "optnone" in src
    invokes = {}
    decls = {}
    out = src
    # Function bodies, for finding a call's operands among its own function's values.
    bodies = [(f.start(), f.end()) for f in re.finditer(r"^define [^\n]*\{\n.*?^\}$", src, re.M | re.S)]
    for k, m in enumerate(calls):
        indent, dest, fn, argtext, attrs = m.groups()
        fbody = next(src[a:b] for a, b in bodies if a <= m.start() < b)
        args = split_args(argtext)
        at = next(i for i, a in enumerate(args) if re.search(r"@[\w.]+_kernel to i8\*\)", a))
        invoke = re.search(r"@([\w.]+)_kernel to i8\*\)", args[at]).group(1)
        literal = args[at + 1]
        sig = re.search(r"^define internal spir_func void @" + re.escape(invoke) + r"\((.*)\)[^(]*\{$", src, re.M).group(1)
        locals_n = sig.count("addrspace(3)*")
        invokes[invoke] = locals_n
        pre = []
        lm = re.match(r"i8 addrspace\(4\)\* (%[\w.]+)$", literal)
        if lm is None:
            assert "@__block_literal_global" in literal, literal
            ctx, size, align = "i8* null", 0, 0
        else:
            d = re.search(r"^\s*" + re.escape(lm.group(1)) + r" = addrspacecast (.*) (%[\w.]+) to i8 addrspace\(4\)\*$", fbody, re.M)
            sty, sval = d.group(1), d.group(2)
            b = re.search(r"^\s*" + re.escape(sval) + r" = bitcast .* (%[\w.]+) to [^\n]*$", fbody, re.M)
            base = b.group(1)
            assert re.search(r"^\s*" + re.escape(base) + r" = alloca ", fbody, re.M), base
            def header(field):
                g = re.search(r"^\s*(%[\w.]+) = getelementptr inbounds [^\n]*\* " + re.escape(base) + rf", i(?:32|64) 0, i32 {field}$", fbody, re.M).group(1)
                return int(re.search(r"store i32 (\d+), i32\* " + re.escape(g) + r",", fbody).group(1))
            size, align = header(0), header(1)
            pre.append(f"{indent}%blk.ctx.{k} = bitcast {sty} {sval} to i8*")
            ctx = f"i8* %blk.ctx.{k}"
        fnty = "void (i8*" + ", i8 addrspace(3)*" * locals_n + ")*"
        block = "U13block_pointerFv" + ("PU3AS3vzE" if locals_n else "vE")
        pre.append(f"{indent}%blk.{k} = call %opencl.block* @spir_block_bind(i8* bitcast ({fnty} @{invoke} to i8*), i32 {size}, i32 {align}, {ctx})")
        blk = f"%blk.{k}"
        if optnone:
            pre.append(f"{indent}%blk.{k}.var = alloca %opencl.block*, align 8")
            pre.append(f"{indent}store %opencl.block* %blk.{k}, %opencl.block** %blk.{k}.var, align 8")
            pre.append(f"{indent}%blk.{k}.val = load %opencl.block*, %opencl.block** %blk.{k}.var, align 8")
            blk = f"%blk.{k}.val"
        head = args[:at]
        sizes = []
        if fn.endswith("_varargs"):
            count = int(re.match(r"i32 (\d+)$", args[at + 2]).group(1))
            array = re.match(r"i64\*(?: nonnull)? (%[\w.]+)$", args[at + 3]).group(1)
            for i in range(count):
                pre.append(f"{indent}%blk.{k}.p{i} = getelementptr inbounds i64, i64* {array}, i64 {i}")
                pre.append(f"{indent}%blk.{k}.s{i} = load i64, i64* %blk.{k}.p{i}, align 8")
                pre.append(f"{indent}%blk.{k}.t{i} = trunc i64 %blk.{k}.s{i} to i32")
                sizes.append(f"i32 %blk.{k}.t{i}")
        new_args = head + [f"%opencl.block* {blk}"] + sizes
        params = [arg_type(a) for a in head] + ["%opencl.block*"]
        if fn.startswith("__enqueue_kernel"):
            events = "_events" in fn
            mangled = "9ocl_queuei9ndrange_t"
            if events:
                mangled += "jPU3AS4K12ocl_clkeventPU3AS4S1_"
            mangled += block
            if sizes:
                mangled += "jz"
                params += ["i32", "..."]
            name = mangled_fn("enqueue_kernel", mangled)
        else:
            query = fn[len("__"):-len("_impl")]
            name = mangled_fn(query, ("9ndrange_t" if head else "") + block)
        sig_text = ", ".join(params)
        callee = f"({sig_text}) @{name}" if sizes else f"@{name}"
        decls[name] = f"declare spir_func i32 @{name}({sig_text})"
        line = "\n".join(pre + [f"{indent}{dest} = call spir_func i32 {callee}({', '.join(new_args)}){attrs}"])
        out = out.replace(m.group(0), line, 1)
    # The invoke functions take the context as a private i8*, cast to generic for their bodies.
    for invoke in invokes:
        out = re.sub(r"void \(i8 addrspace\(4\)\*((?:, i8 addrspace\(3\)\*)*)\)\* @" + re.escape(invoke) + r"\b",
                     lambda mm: f"void (i8*{mm.group(1)})* @{invoke}", out)
        def retype(mm):
            head, rest = mm.group(1), mm.group(2)
            first = "  %.block_descriptor = addrspacecast i8* %.block_descriptor.ctx to i8 addrspace(4)*\n"
            label = re.match(r"(\n[\w.]+:[^\n]*)", rest)
            if label:
                return head + label.group(1) + "\n" + first.rstrip("\n") + rest[len(label.group(1)):]
            return head + "\n" + first.rstrip("\n") + rest
        pat = (r"^(define internal spir_func void @" + re.escape(invoke) +
               r"\(i8 addrspace\(4\)\*[^%\n]*%\.block_descriptor(?=[,)])[^\n]*\{)(\n[^\n]*)")
        out, n = re.subn(pat, lambda mm: retype(mm), out, count=1, flags=re.M)
        assert n == 1, invoke
        out = re.sub(r"^(define internal spir_func void @" + re.escape(invoke) +
                     r"\()i8 addrspace\(4\)\*[^%\n]*%\.block_descriptor(?=[,)])",
                     r"\1i8* %.block_descriptor.ctx", out, count=1, flags=re.M)
        # clang's wrapper kernel goes.
        out, n = re.subn(r"^define spir_kernel void @" + re.escape(invoke) + r"_kernel\(.*?\n\}\n\n?",
                         "", out, count=1, flags=re.M | re.S)
        assert n == 1, invoke
    out = re.sub(r"^declare [^\n]*@(__enqueue_kernel_\w+|__get_kernel_\w+_impl)\([^\n]*\n", "", out, flags=re.M)
    out = out.rstrip("\n") + "\n\n" + "\n".join(sorted(decls.values())) + \
        "\ndeclare %opencl.block* @spir_block_bind(i8*, i32, i32, i8*)\n"
    out = re.sub(r"^(%[\w.]+ = type [^\n]*\n)", r"%opencl.block = type opaque\n\1", out, count=1, flags=re.M)
    return out

src = spir20_blocks(src)

# Kernel metadata: function attachments -> !opencl.kernels.
TAGS = ["kernel_arg_addr_space", "kernel_arg_access_qual", "kernel_arg_type",
        "kernel_arg_base_type", "kernel_arg_type_qual", "kernel_arg_name", "reqd_work_group_size",
        "work_group_size_hint", "vec_type_hint"]
nodes = dict(re.findall(r"^(!\d+) = (!\{.*\})$", src, re.M))
# Past every node the module defines (loop metadata is `distinct !{...}`, not in `nodes`).
next_id = max([int(k) for k in re.findall(r"^!(\d+) = ", src, re.M)] + [0]) + 1
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
    # Kernel metadata moves to !opencl.kernels; a `!dbg` subprogram stays on the function.
    return head + " " + re.sub(r"!(?!dbg )\w+ !\d+", "", rest).strip() + " {"
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
