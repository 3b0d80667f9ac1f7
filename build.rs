//! Compiles the data tables in mappings/ into Rust `match` functions, so nothing is parsed at
//! run time and a misspelled SPIR-V name is a compile error (every value becomes a path into
//! the `spirv` crate's enums).

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use serde::Deserialize;

#[derive(Deserialize)]
struct Spaces {
    space: Vec<Space>,
}

#[derive(Deserialize)]
struct Space {
    name: String,
    /// Absent for the shader-form spaces, which SPIR cannot spell.
    llvm: Option<u32>,
    storage_class: String,
    #[serde(default)]
    qualifier: String,
    kernel_arg: Option<u32>,
}

#[derive(Deserialize)]
struct WorkItem {
    builtin: String,
    per_dim: bool,
    size_t: bool,
}

#[derive(Deserialize, Default)]
struct ByClass {
    op: Option<String>,
    float: Option<String>,
    signed: Option<String>,
    unsigned: Option<String>,
}

#[derive(Deserialize)]
struct C11Atomic {
    op: Option<String>,
    signed: Option<String>,
    unsigned: Option<String>,
    values: u32,
    #[serde(default)]
    read: bool,
}

#[derive(Deserialize)]
struct Pipes {
    pipe: Vec<Pipe>,
}

#[derive(Deserialize)]
struct Pipe {
    op: String,
    scope: Option<String>,
    clang: Option<String>,
    clang_wo: Option<String>,
    spir: String,
    args: u32,
}

#[derive(Deserialize)]
struct EnqueueFunctions {
    function: Vec<EnqueueFunction>,
}

#[derive(Deserialize)]
struct EnqueueFunction {
    op: String,
    name: String,
    symbol: String,
}

#[derive(Deserialize)]
struct Groups {
    group: Vec<Group>,
}

#[derive(Deserialize)]
struct Group {
    name: String,
    #[serde(flatten)]
    ops: ByClass,
    operation: Option<String>,
    #[serde(default)]
    work_group: bool,
    #[serde(default)]
    predicate: bool,
    #[serde(default)]
    boolean: bool,
}

#[derive(Deserialize)]
struct KeptMode {
    version: String,
    capability: Option<String>,
}

#[derive(Deserialize)]
struct OpenClEnums {
    rounding: BTreeMap<String, String>,
    fence: BTreeMap<String, Fence>,
    memory_order: BTreeMap<String, MemoryOrder>,
    memory_scope: BTreeMap<String, MemoryScope>,
    channel_query: BTreeMap<String, ChannelQuery>,
}

#[derive(Deserialize)]
struct ChannelQuery {
    graph: String,
    spirv: String,
    cl_offset: u64,
}

#[derive(Deserialize)]
struct MemoryOrder {
    value: u32,
    semantics: String,
}

#[derive(Deserialize)]
struct MemoryScope {
    value: u32,
    scope: String,
}

#[derive(Deserialize)]
struct Fence {
    bit: u32,
    semantics: String,
}

fn read<T: for<'de> Deserialize<'de>>(name: &str) -> T {
    let path = Path::new("mappings").join(name);
    println!("cargo:rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn opt(path: &str, v: &Option<String>) -> String {
    match v {
        Some(v) => format!("Some({path}::{v})"),
        None => "None".to_string(),
    }
}

/// Link the LLVM 14 components the tool uses, statically (llvm-sys links nothing itself:
/// `no-llvm-linking`). The components: the IR (`core`), bitcode in and out, LLVM IR text in
/// (`irreader`), and the verifier (`analysis`), with what they depend on (`llvm-config`
/// resolves that); the system libraries are LLVM's own list.
fn link_llvm() {
    let config = std::env::var("LLVM_SYS_140_PREFIX")
        .map(|p| Path::new(&p).join("bin/llvm-config"))
        .unwrap_or_else(|_| Path::new("/usr/lib/llvm-14/bin/llvm-config").to_path_buf());
    println!("cargo:rerun-if-env-changed=LLVM_SYS_140_PREFIX");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(&config)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{}: {e} (install llvm-14-dev)", config.display()));
        assert!(out.status.success(), "{} {args:?} failed", config.display());
        String::from_utf8(out.stdout).expect("llvm-config prints UTF-8")
    };
    println!(
        "cargo:rustc-link-search=native={}",
        run(&["--libdir"]).trim()
    );
    let components = ["core", "bitreader", "bitwriter", "irreader", "analysis"];
    let mut args = vec!["--link-static", "--libnames"];
    args.extend(components);
    for name in run(&args).split_whitespace() {
        let lib = name.trim_start_matches("lib").trim_end_matches(".a");
        println!("cargo:rustc-link-lib=static={lib}");
    }
    for flag in run(&["--link-static", "--system-libs"]).split_whitespace() {
        if let Some(lib) = flag.strip_prefix("-l") {
            println!("cargo:rustc-link-lib=dylib={lib}");
        } else if flag.starts_with('/') {
            // A full path (libz3.so): its directory and name.
            let p = Path::new(flag);
            if let (Some(dir), Some(stem)) = (p.parent(), p.file_stem().and_then(|s| s.to_str())) {
                println!("cargo:rustc-link-search=native={}", dir.display());
                println!(
                    "cargo:rustc-link-lib=dylib={}",
                    stem.trim_start_matches("lib")
                );
            }
        }
    }
    println!("cargo:rustc-link-lib=dylib=stdc++");
}

/// The platforms this crate builds on, and a clear failure elsewhere. The contained reader
/// (src/contain) runs LLVM in a forked child bounded by an address-space limit, which Linux
/// enforces (`RLIMIT_AS`; macOS accepts the limit and ignores it), and Linux is the one platform
/// the tests run on.
fn require_linux() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os != "linux" {
        panic!(
            "spir-xlate builds on Linux only (target OS `{os}`): its containment of LLVM's \
             reader forks a child bounded by an address-space limit (RLIMIT_AS), which only \
             Linux enforces"
        );
    }
}

/// The SPIRV-Tools we link is the vendored one, with its linear-time validator checks: a
/// build against another (a changed version pin, a missing `[patch]`) stops here by name.
fn require_vendored_spirv_tools() {
    println!("cargo:rerun-if-env-changed=DEP_SPIRV_TOOLS_LINEAR_VALIDATION");
    if std::env::var_os("DEP_SPIRV_TOOLS_LINEAR_VALIDATION").is_none() {
        panic!(
            "spirv-tools-sys is not the copy in vendor/spirv-tools-sys (it does not say that \
             its validator has the linear-time checks): keep `spirv-tools-sys = \"=0.13.3\"` \
             and its [patch.crates-io] entry in Cargo.toml, or renew the vendored copy as \
             vendor/README.md says"
        );
    }
}

fn main() {
    require_linux();
    require_vendored_spirv_tools();
    link_llvm();
    let mut out = String::new();
    out.push_str("// @generated by build.rs from mappings/*.toml. Do not edit.\n\n");

    // Address spaces.
    let spaces: Spaces = read("address_spaces.toml");
    let mut fns = [
        ("pub fn space_from_llvm(n: u32) -> Option<AddressSpace> {\n    match n {\n", String::new()),
        ("pub fn space_to_llvm(s: AddressSpace) -> Option<u32> {\n    match s {\n", String::new()),
        ("pub fn space_storage_class(s: AddressSpace) -> spirv::StorageClass {\n    match s {\n", String::new()),
        ("pub fn space_from_storage_class(c: spirv::StorageClass) -> Option<AddressSpace> {\n    match c {\n", String::new()),
        ("pub fn space_qualifier(s: AddressSpace) -> &'static str {\n    match s {\n", String::new()),
        ("pub fn space_from_kernel_arg(n: u32) -> Option<AddressSpace> {\n    match n {\n", String::new()),
        ("pub fn space_to_kernel_arg(s: AddressSpace) -> Option<u32> {\n    match s {\n", String::new()),
    ];
    for s in &spaces.space {
        let n = &s.name;
        if let Some(llvm) = s.llvm {
            let _ = writeln!(fns[0].1, "        {llvm} => Some(AddressSpace::{n}),");
        }
        let _ = writeln!(fns[1].1, "        AddressSpace::{n} => {:?},", s.llvm);
        let _ = writeln!(
            fns[2].1,
            "        AddressSpace::{n} => spirv::StorageClass::{},",
            s.storage_class
        );
        let _ = writeln!(
            fns[3].1,
            "        spirv::StorageClass::{} => Some(AddressSpace::{n}),",
            s.storage_class
        );
        let _ = writeln!(fns[4].1, "        AddressSpace::{n} => {:?},", s.qualifier);
        if let Some(arg) = s.kernel_arg {
            let _ = writeln!(fns[5].1, "        {arg} => Some(AddressSpace::{n}),");
        }
        let _ = writeln!(fns[6].1, "        AddressSpace::{n} => {:?},", s.kernel_arg);
    }
    for (i, (head, arms)) in fns.iter().enumerate() {
        out.push_str(head);
        out.push_str(arms);
        if matches!(i, 0 | 3 | 5) {
            out.push_str("        _ => None,\n");
        }
        out.push_str("    }\n}\n\n");
    }

    // Work-item functions.
    let wi: BTreeMap<String, WorkItem> = read("workitem.toml");
    out.push_str(
        "/// (builtin variable, per-dimension, size_t result) of an OpenCL work-item function.\n",
    );
    out.push_str("pub fn work_item(name: &str) -> Option<(spirv::BuiltIn, bool, bool)> {\n    Some(match name {\n");
    for (name, w) in &wi {
        let _ = writeln!(
            out,
            "        {name:?} => (spirv::BuiltIn::{}, {}, {}),",
            w.builtin, w.per_dim, w.size_t
        );
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");
    out.push_str("/// The OpenCL work-item function reading a builtin variable.\n");
    out.push_str("pub fn work_item_name(b: spirv::BuiltIn) -> Option<(&'static str, bool, bool)> {\n    Some(match b {\n");
    for (name, w) in &wi {
        let _ = writeln!(
            out,
            "        spirv::BuiltIn::{} => ({name:?}, {}, {}),",
            w.builtin, w.per_dim, w.size_t
        );
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");

    // OpenCL.std instructions a Vulkan module computes with GLSL.std.450.
    #[derive(Deserialize)]
    struct Glsl {
        glsl: String,
        precision: String,
    }
    let glsl: BTreeMap<String, Glsl> = read("vulkan_glsl.toml");
    out.push_str(
        "/// The GLSL.std.450 instruction a Vulkan module computes an OpenCL.std one with, and\n/// its precision against OpenCL's (mappings/vulkan_glsl.toml).\n",
    );
    out.push_str("pub fn vulkan_glsl(op: spirv::OpenclStd100Op) -> Option<(spirv::GlslStd450Op, &'static str)> {\n    Some(match op {\n");
    for (name, g) in &glsl {
        let _ = writeln!(
            out,
            "        spirv::OpenclStd100Op::{name} => (spirv::GlslStd450Op::{}, {:?}),",
            g.glsl, g.precision
        );
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");

    // Sub-group collectives in a Vulkan module.
    #[derive(Deserialize)]
    struct Subgroup {
        vulkan: String,
        operations: String,
    }
    let subgroups: BTreeMap<String, Subgroup> = read("vulkan_subgroups.toml");
    out.push_str(
        "/// The instruction a Vulkan module computes sub-group collective `op` with, and the\n/// subgroup operation it needs (mappings/vulkan_subgroups.toml).\n",
    );
    out.push_str("pub fn vulkan_subgroup(op: spirv::Op) -> Option<(spirv::Op, &'static str)> {\n    Some(match op {\n");
    for (name, g) in &subgroups {
        let _ = writeln!(
            out,
            "        spirv::Op::{name} => (spirv::Op::{}, {:?}),",
            g.vulkan, g.operations
        );
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");

    // OpenCL.std by argument class.
    let std_: BTreeMap<String, ByClass> = read("opencl_std.toml");
    out.push_str(
        "/// OpenCL.std instruction of a builtin: (any class, float, signed, unsigned).\n",
    );
    out.push_str("pub fn opencl_std(name: &str) -> Option<ByClass<spirv::OpenclStd100Op>> {\n    Some(match name {\n");
    for (name, c) in &std_ {
        let _ = writeln!(
            out,
            "        {name:?} => ByClass {{ any: {}, float: {}, signed: {}, unsigned: {} }},",
            opt("spirv::OpenclStd100Op", &c.op),
            opt("spirv::OpenclStd100Op", &c.float),
            opt("spirv::OpenclStd100Op", &c.signed),
            opt("spirv::OpenclStd100Op", &c.unsigned)
        );
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");
    out.push_str("/// OpenCL C name of an OpenCL.std instruction (inverse of `opencl_std`).\n");
    out.push_str("pub fn opencl_std_name(op: spirv::OpenclStd100Op) -> Option<&'static str> {\n    Some(match op {\n");
    let mut seen = std::collections::BTreeSet::new();
    for (name, c) in &std_ {
        for v in [&c.op, &c.float, &c.signed, &c.unsigned]
            .into_iter()
            .flatten()
        {
            if seen.insert(v.clone()) {
                let _ = writeln!(out, "        spirv::OpenclStd100Op::{v} => {name:?},");
            }
        }
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");

    out.push_str(
        "/// The argument class an OpenCL.std instruction was chosen for: `Some(Signed)` for the\n",
    );
    out.push_str(
        "/// `signed` column of opencl_std.toml, `Some(Unsigned)` for `unsigned`, else `None`.\n",
    );
    out.push_str("pub fn opencl_std_sign(op: spirv::OpenclStd100Op) -> Option<crate::ir::Sign> {\n    Some(match op {\n");
    for c in std_.values() {
        for (v, sign) in [(&c.signed, "Signed"), (&c.unsigned, "Unsigned")] {
            if let Some(v) = v {
                let _ = writeln!(
                    out,
                    "        spirv::OpenclStd100Op::{v} => crate::ir::Sign::{sign},"
                );
            }
        }
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");

    // Relational.
    let rel: BTreeMap<String, String> = read("relational.toml");
    out.push_str("pub fn relational(name: &str) -> Option<spirv::Op> {\n    Some(match name {\n");
    for (name, op) in &rel {
        let _ = writeln!(out, "        {name:?} => spirv::Op::{op},");
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");
    out.push_str(
        "pub fn relational_name(op: spirv::Op) -> Option<&'static str> {\n    Some(match op {\n",
    );
    for (name, op) in &rel {
        let _ = writeln!(out, "        spirv::Op::{op} => {name:?},");
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");

    // cl_khr_extended_bit_ops.
    let bits: BTreeMap<String, String> = read("extended_bit_ops.toml");
    out.push_str(
        "pub fn extended_bit_op(name: &str) -> Option<spirv::Op> {\n    Some(match name {\n",
    );
    for (name, op) in &bits {
        let _ = writeln!(out, "        {name:?} => spirv::Op::{op},");
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");
    out.push_str(
        "pub fn extended_bit_op_name(op: spirv::Op) -> Option<&'static str> {\n    Some(match op {\n",
    );
    for (name, op) in &bits {
        let _ = writeln!(out, "        spirv::Op::{op} => {name:?},");
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");

    // Atomics.
    let at: BTreeMap<String, ByClass> = read("atomics.toml");
    out.push_str(
        "/// SPIR-V atomic of an OpenCL C 1.x atomic (name without atomic_/atom_ prefix).\n",
    );
    out.push_str(
        "pub fn atomic(name: &str) -> Option<ByClass<spirv::Op>> {\n    Some(match name {\n",
    );
    for (name, c) in &at {
        let _ = writeln!(
            out,
            "        {name:?} => ByClass {{ any: {}, float: None, signed: {}, unsigned: {} }},",
            opt("spirv::Op", &c.op),
            opt("spirv::Op", &c.signed),
            opt("spirv::Op", &c.unsigned)
        );
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");

    out.push_str(
        "/// OpenCL C 1.x atomic name (without atomic_/atom_ prefix) of a SPIR-V atomic.\n",
    );
    out.push_str(
        "pub fn atomic_name(op: spirv::Op) -> Option<&'static str> {\n    Some(match op {\n",
    );
    for (name, c) in &at {
        for v in [&c.op, &c.signed, &c.unsigned].into_iter().flatten() {
            let _ = writeln!(out, "        spirv::Op::{v} => {name:?},");
        }
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");

    // OpenCL C 2.0's atomics.
    let c11: BTreeMap<String, C11Atomic> = read("atomics_c11.toml");
    out.push_str(
        "/// SPIR-V atomic of an OpenCL C 2.0 atomic function (without `_explicit`) and the number\n\
         /// of value operands after its pointer (mappings/atomics_c11.toml).\n",
    );
    out.push_str(
        "pub fn c11_atomic(name: &str) -> Option<(ByClass<spirv::Op>, u32)> {\n    Some(match name {\n",
    );
    for (name, c) in &c11 {
        let _ = writeln!(
            out,
            "        {name:?} => (ByClass {{ any: {}, float: None, signed: {}, unsigned: {} }}, {}),",
            opt("spirv::Op", &c.op),
            opt("spirv::Op", &c.signed),
            opt("spirv::Op", &c.unsigned),
            c.values
        );
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");
    out.push_str("/// OpenCL C 2.0 atomic function (without `_explicit`) of a SPIR-V atomic.\n");
    out.push_str(
        "pub fn c11_atomic_name(op: spirv::Op) -> Option<&'static str> {\n    Some(match op {\n",
    );
    for (name, c) in c11.iter().filter(|(_, c)| !c.read) {
        for v in [&c.op, &c.signed, &c.unsigned].into_iter().flatten() {
            let _ = writeln!(out, "        spirv::Op::{v} => {name:?},");
        }
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");

    // Pipes.
    let pipes: Pipes = read("pipes.toml");
    out.push_str("/// The SPIR spellings of the pipe instructions (mappings/pipes.toml).\n");
    out.push_str("pub const PIPE_SPELLINGS: &[PipeSpelling] = &[\n");
    for p in &pipes.pipe {
        let _ = writeln!(
            out,
            "    PipeSpelling {{ op: spirv::Op::{}, scope: {}, clang: {:?}, clang_wo: {:?}, spir: {:?}, args: {} }},",
            p.op,
            opt("spirv::Scope", &p.scope),
            p.clang,
            p.clang_wo,
            p.spir,
            p.args
        );
    }
    out.push_str("];\n\n");

    // Device-side enqueue functions of one instruction each.
    let enq: EnqueueFunctions = read("enqueue.toml");
    out.push_str("/// OpenCL C device-enqueue functions of one SPIR-V instruction (mappings/enqueue.toml):\n/// (instruction, OpenCL C name, clang's symbol).\n");
    out.push_str("pub const ENQUEUE_FUNCTIONS: &[(spirv::Op, &str, &str)] = &[\n");
    for f in &enq.function {
        let _ = writeln!(
            out,
            "    (spirv::Op::{}, {:?}, {:?}),",
            f.op, f.name, f.symbol
        );
    }
    out.push_str("];\n\n");

    // Work-group and sub-group collectives.
    let groups: Groups = read("groups.toml");
    out.push_str("/// OpenCL C spellings of the collectives (mappings/groups.toml).\n");
    out.push_str("pub const GROUP_SPELLINGS: &[GroupSpelling] = &[\n");
    for g in &groups.group {
        let c = &g.ops;
        let _ = writeln!(
            out,
            "    GroupSpelling {{ name: {:?}, ops: ByClass {{ any: {}, float: {}, signed: {}, unsigned: {} }}, operation: {}, work_group: {}, predicate: {}, boolean: {} }},",
            g.name,
            opt("spirv::Op", &c.op),
            opt("spirv::Op", &c.float),
            opt("spirv::Op", &c.signed),
            opt("spirv::Op", &c.unsigned),
            opt("spirv::GroupOperation", &g.operation),
            g.work_group,
            g.predicate,
            g.boolean
        );
    }
    out.push_str("];\n\n");

    // Execution modes the graph keeps literally.
    let modes: BTreeMap<String, KeptMode> = read("execution_modes.toml");
    out.push_str(
        "/// An execution mode the graph keeps literally (mappings/execution_modes.toml): the\n",
    );
    out.push_str("/// SPIR-V version and the capability it needs.\n");
    out.push_str("pub fn kept_execution_mode(mode: spirv::ExecutionMode) -> Option<((u8, u8), Option<spirv::Capability>)> {\n    Some(match mode {\n");
    for (mode, k) in &modes {
        let (maj, min) = k
            .version
            .split_once('.')
            .unwrap_or_else(|| panic!("execution_modes.toml: {mode}: version MAJOR.MINOR"));
        let _ = writeln!(
            out,
            "        spirv::ExecutionMode::{mode} => (({maj}, {min}), {}),",
            opt("spirv::Capability", &k.capability)
        );
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");

    // OpenCL C enumerant spellings.
    let en: OpenClEnums = read("opencl_enums.toml");
    out.push_str("/// FPRoundingMode of a rounding suffix (`rte`, ...).\n");
    out.push_str("pub fn rounding(suffix: &str) -> Option<spirv::FPRoundingMode> {\n    Some(match suffix {\n");
    for (suffix, mode) in &en.rounding {
        let _ = writeln!(out, "        {suffix:?} => spirv::FPRoundingMode::{mode},");
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");
    out.push_str("/// The rounding suffix of an FPRoundingMode (inverse of `rounding`).\n");
    out.push_str(
        "pub fn rounding_suffix(mode: spirv::FPRoundingMode) -> &'static str {\n    match mode {\n",
    );
    for (suffix, mode) in &en.rounding {
        let _ = writeln!(out, "        spirv::FPRoundingMode::{mode} => {suffix:?},");
    }
    out.push_str("    }\n}\n\n");
    pair_table(
        &mut out,
        "`cl_mem_fence_flags` bits and the MemorySemantics bit each sets.",
        "FENCE_FLAGS: &[(u32, spirv::MemorySemantics)]",
        en.fence
            .values()
            .map(|f| (f.bit, format!("spirv::MemorySemantics::{}", f.semantics)))
            .collect(),
    );
    pair_table(
        &mut out,
        "OpenCL C `memory_order` values and the MemorySemantics ordering bit of each.",
        "MEMORY_ORDERS: &[(u32, spirv::MemorySemantics)]",
        en.memory_order
            .values()
            .map(|o| (o.value, format!("spirv::MemorySemantics::{}", o.semantics)))
            .collect(),
    );
    out.push_str("/// The OpenCL C name of a memory order (`acq_rel`, ...).\n");
    out.push_str("pub fn memory_order_name(s: spirv::MemorySemantics) -> Option<&'static str> {\n");
    out.push_str("    Some(match s {\n");
    for (name, o) in &en.memory_order {
        let short = name.strip_prefix("memory_order_").unwrap_or(name);
        let _ = writeln!(
            out,
            "        spirv::MemorySemantics::{} => {short:?},",
            o.semantics
        );
    }
    out.push_str("        _ => return None,\n    })\n}\n\n");
    pair_table(
        &mut out,
        "OpenCL C `memory_scope` values and the SPIR-V Scope of each.",
        "MEMORY_SCOPES: &[(u32, spirv::Scope)]",
        en.memory_scope
            .values()
            .map(|o| (o.value, format!("spirv::Scope::{}", o.scope)))
            .collect(),
    );
    out.push_str("/// Image channel queries in every spelling (see `mappings::ChannelQuery`).\n");
    out.push_str("pub const CHANNEL_QUERIES: &[crate::mappings::ChannelQuery] = &[\n");
    for (name, q) in &en.channel_query {
        let _ = writeln!(
            out,
            "    crate::mappings::ChannelQuery {{ op: crate::ir::ImageOp::{}, spirv: spirv::Op::{}, opencl: {name:?}, cl_offset: {:#x} }},",
            q.graph, q.spirv, q.cl_offset
        );
    }
    out.push_str("];\n\n");

    // Intrinsics.
    let intr: BTreeMap<String, String> = read("intrinsics.toml");
    out.push_str("/// OpenCL.std instruction of an LLVM intrinsic (name without type suffix).\n");
    out.push_str(
        "pub fn intrinsic(name: &str) -> Option<spirv::OpenclStd100Op> {\n    Some(match name {\n",
    );
    for (name, op) in &intr {
        let _ = writeln!(out, "        {name:?} => spirv::OpenclStd100Op::{op},");
    }
    out.push_str("        _ => return None,\n    })\n}\n");

    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("mappings.rs");
    std::fs::write(dest, out).unwrap();
    println!("cargo:rerun-if-changed=build.rs");
}

/// A `pub const` slice of (number, value) pairs, one row per line.
fn pair_table(out: &mut String, doc: &str, decl: &str, rows: Vec<(u32, String)>) {
    let _ = writeln!(out, "/// {doc}\npub const {decl} = &[");
    for (n, v) in rows {
        let _ = writeln!(out, "    ({n}, {v}),");
    }
    out.push_str("];\n\n");
}
