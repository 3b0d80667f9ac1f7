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
    // The one C++ file (src/llvm/inst_flags.cpp: what LLVM 14's C API cannot reach), first,
    // so that the LLVM libraries after it resolve it.
    println!("cargo:rerun-if-changed=src/llvm/inst_flags.cpp");
    let mut shim = cc::Build::new();
    shim.cpp(true)
        .file("src/llvm/inst_flags.cpp")
        .warnings(false);
    for flag in run(&["--cxxflags"]).split_whitespace() {
        shim.flag(flag);
    }
    shim.compile("spir_xlate_llvm_shim");
    // The versions `--version` names: LLVM's, and the vendored SPIRV-Tools' (its own
    // generated build-version.inc: `"v2025.3", "SPIRV-Tools v2025.3 ..."`).
    println!(
        "cargo:rustc-env=SPIR_XLATE_LLVM_VERSION={}",
        run(&["--version"]).trim()
    );
    let tools = Path::new("vendor/spirv-tools-sys/generated/build-version.inc");
    println!("cargo:rerun-if-changed={}", tools.display());
    let tools = std::fs::read_to_string(tools).unwrap_or_default();
    let tools = tools.split('"').nth(1).unwrap_or("unknown");
    println!("cargo:rustc-env=SPIR_XLATE_SPIRV_TOOLS_VERSION={tools}");
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
    let items: Vec<Item> = [
        address_spaces(),
        work_items(),
        vulkan_tables(),
        opencl_std(),
        primitives(),
        atomic_ops(),
        group_ops(),
        conversions(),
        one_to_one_ops(),
        atomics(),
        spellings(),
        execution_modes(),
        enumerants(),
        intrinsics(),
    ]
    .into_iter()
    .flatten()
    .collect();
    let mut out = String::from("// @generated by build.rs from mappings/*.toml. Do not edit.\n");
    for item in &items {
        item.render(&mut out);
    }
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("mappings.rs");
    std::fs::write(dest, out).unwrap();
    println!("cargo:rerun-if-changed=build.rs");
}

/// One item of the generated `mappings.rs`: the tables of `mappings/*.toml` as Rust.
enum Item {
    /// `pub fn NAME(ARG) -> RET`: a `match` on the argument, one arm (pattern, value) per
    /// table row. A `partial` one returns `Option<RET>`: `None` for values without a row.
    Lookup {
        doc: String,
        name: String,
        arg: String,
        ret: String,
        partial: bool,
        arms: Vec<(String, String)>,
    },
    /// `pub const NAME: &[ELEM] = &[ROW, ...]`, one row per line.
    Slice {
        doc: String,
        name: &'static str,
        elem: &'static str,
        rows: Vec<String>,
    },
}

impl Item {
    /// A partial lookup: `Option<ret>`, `None` where no arm matches.
    fn partial(
        doc: &str,
        (name, arg, ret): (&str, &str, &str),
        arms: Vec<(String, String)>,
    ) -> Item {
        Item::Lookup {
            doc: doc.to_string(),
            name: name.to_string(),
            arg: arg.to_string(),
            ret: ret.to_string(),
            partial: true,
            arms,
        }
    }

    /// A lookup with an arm for every value of its argument.
    fn total(doc: &str, (name, arg, ret): (&str, &str, &str), arms: Vec<(String, String)>) -> Item {
        Item::Lookup {
            doc: doc.to_string(),
            name: name.to_string(),
            arg: arg.to_string(),
            ret: ret.to_string(),
            partial: false,
            arms,
        }
    }

    fn slice(doc: &str, name: &'static str, elem: &'static str, rows: Vec<String>) -> Item {
        Item::Slice {
            doc: doc.to_string(),
            name,
            elem,
            rows,
        }
    }

    fn render(&self, out: &mut String) {
        let doc = match self {
            Item::Lookup { doc, .. } | Item::Slice { doc, .. } => doc,
        };
        out.push('\n');
        for line in doc.lines() {
            let _ = writeln!(out, "/// {line}");
        }
        match self {
            Item::Lookup {
                name,
                arg,
                ret,
                partial,
                arms,
                ..
            } => {
                let var = arg.split(':').next().unwrap_or(arg);
                if *partial {
                    let _ = writeln!(out, "pub fn {name}({arg}) -> Option<{ret}> {{");
                    let _ = writeln!(out, "    Some(match {var} {{");
                } else {
                    let _ = writeln!(out, "pub fn {name}({arg}) -> {ret} {{");
                    let _ = writeln!(out, "    match {var} {{");
                }
                for (pattern, value) in arms {
                    let _ = writeln!(out, "        {pattern} => {value},");
                }
                if *partial {
                    out.push_str("        _ => return None,\n    })\n}\n");
                } else {
                    out.push_str("    }\n}\n");
                }
            }
            Item::Slice {
                name, elem, rows, ..
            } => {
                let _ = writeln!(out, "pub const {name}: &[{elem}] = &[");
                for row in rows {
                    let _ = writeln!(out, "    {row},");
                }
                out.push_str("];\n");
            }
        }
    }
}

/// `ByClass { any, float, signed, unsigned }` of `path` values (`float` from `float_col`).
fn by_class(path: &str, c: &ByClass, float: bool) -> String {
    format!(
        "ByClass {{ any: {}, float: {}, signed: {}, unsigned: {} }}",
        opt(path, &c.op),
        if float {
            opt(path, &c.float)
        } else {
            "None".into()
        },
        opt(path, &c.signed),
        opt(path, &c.unsigned)
    )
}

/// address_spaces.toml: the address spaces in each numbering and spelling.
fn address_spaces() -> Vec<Item> {
    let spaces: Spaces = read("address_spaces.toml");
    let rows = &spaces.space;
    let sp = |s: &Space| format!("AddressSpace::{}", s.name);
    let class = |s: &Space| format!("spirv::StorageClass::{}", s.storage_class);
    vec![
        Item::partial(
            "The address space of a SPIR address-space number.",
            ("space_from_llvm", "n: u32", "AddressSpace"),
            rows.iter()
                .filter_map(|s| Some((s.llvm?.to_string(), sp(s))))
                .collect(),
        ),
        Item::total(
            "The SPIR address-space number of an address space (`None`: shader-only).",
            ("space_to_llvm", "s: AddressSpace", "Option<u32>"),
            rows.iter()
                .map(|s| (sp(s), format!("{:?}", s.llvm)))
                .collect(),
        ),
        Item::total(
            "The SPIR-V storage class of an address space.",
            (
                "space_storage_class",
                "s: AddressSpace",
                "spirv::StorageClass",
            ),
            rows.iter().map(|s| (sp(s), class(s))).collect(),
        ),
        Item::partial(
            "The address space of a SPIR-V storage class.",
            (
                "space_from_storage_class",
                "c: spirv::StorageClass",
                "AddressSpace",
            ),
            rows.iter().map(|s| (class(s), sp(s))).collect(),
        ),
        Item::total(
            "The OpenCL C qualifier of an address space (`__global`, ...).",
            ("space_qualifier", "s: AddressSpace", "&'static str"),
            rows.iter()
                .map(|s| (sp(s), format!("{:?}", s.qualifier)))
                .collect(),
        ),
        Item::partial(
            "The address space of a `!kernel_arg_addr_space` number.",
            ("space_from_kernel_arg", "n: u32", "AddressSpace"),
            rows.iter()
                .filter_map(|s| Some((s.kernel_arg?.to_string(), sp(s))))
                .collect(),
        ),
        Item::total(
            "The `!kernel_arg_addr_space` number of an address space.",
            ("space_to_kernel_arg", "s: AddressSpace", "Option<u32>"),
            rows.iter()
                .map(|s| (sp(s), format!("{:?}", s.kernel_arg)))
                .collect(),
        ),
    ]
}

/// workitem.toml: the work-item functions and their built-in variables.
fn work_items() -> Vec<Item> {
    let wi: BTreeMap<String, WorkItem> = read("workitem.toml");
    let facts = |w: &WorkItem| {
        (
            format!("spirv::BuiltIn::{}", w.builtin),
            w.per_dim,
            w.size_t,
        )
    };
    vec![
        Item::partial(
            "(builtin variable, per-dimension, size_t result) of an OpenCL work-item function.",
            ("work_item", "name: &str", "(spirv::BuiltIn, bool, bool)"),
            wi.iter()
                .map(|(name, w)| {
                    let (b, d, s) = facts(w);
                    (format!("{name:?}"), format!("({b}, {d}, {s})"))
                })
                .collect(),
        ),
        Item::partial(
            "The OpenCL work-item function reading a builtin variable.",
            (
                "work_item_name",
                "b: spirv::BuiltIn",
                "(&'static str, bool, bool)",
            ),
            wi.iter()
                .map(|(name, w)| {
                    let (b, d, s) = facts(w);
                    (b, format!("({name:?}, {d}, {s})"))
                })
                .collect(),
        ),
    ]
}

/// vulkan_glsl.toml and vulkan_subgroups.toml: what a Vulkan module computes with.
fn vulkan_tables() -> Vec<Item> {
    #[derive(Deserialize)]
    struct Glsl {
        glsl: String,
        precision: String,
    }
    #[derive(Deserialize)]
    struct Subgroup {
        vulkan: String,
        operations: String,
    }
    let glsl: BTreeMap<String, Glsl> = read("vulkan_glsl.toml");
    let features: BTreeMap<String, String> = read("vulkan_features.toml");
    let subgroups: BTreeMap<String, Subgroup> = read("vulkan_subgroups.toml");
    let groups = GroupVariants::read();
    vec![
        Item::partial(
            "The SPIR-V capability Vulkan device feature `feature` stands for\n\
             (mappings/vulkan_features.toml).",
            (
                "vulkan_feature_capability",
                "feature: &str",
                "spirv::Capability",
            ),
            features
                .iter()
                .map(|(f, cap)| (format!("{f:?}"), format!("spirv::Capability::{cap}")))
                .collect(),
        ),
        Item::partial(
            "The GLSL.std.450 instruction a Vulkan module computes an OpenCL.std one with, and\n\
             its precision against OpenCL's (mappings/vulkan_glsl.toml).",
            (
                "vulkan_glsl",
                "op: spirv::OpenclStd100Op",
                "(spirv::GlslStd450Op, &'static str)",
            ),
            glsl.iter()
                .map(|(name, g)| {
                    (
                        format!("spirv::OpenclStd100Op::{name}"),
                        format!("(spirv::GlslStd450Op::{}, {:?})", g.glsl, g.precision),
                    )
                })
                .collect(),
        ),
        Item::partial(
            "The instruction a Vulkan module computes sub-group collective `op` with, and the\n\
             subgroup operation it needs (mappings/vulkan_subgroups.toml).",
            (
                "vulkan_subgroup",
                "op: crate::ir::GroupOp",
                "(crate::ir::GroupOp, &'static str)",
            ),
            subgroups
                .iter()
                .map(|(name, g)| {
                    (
                        format!("crate::ir::GroupOp::{}", groups.variant(name)),
                        format!(
                            "(crate::ir::GroupOp::{}, {:?})",
                            groups.variant(&g.vulkan),
                            g.operations
                        ),
                    )
                })
                .collect(),
        ),
    ]
}

/// opencl_std.toml: OpenCL.std instructions by the class of their arguments, and back.
fn opencl_std() -> Vec<Item> {
    let std_: BTreeMap<String, ByClass> = read("opencl_std.toml");
    let inst = |v: &str| format!("spirv::OpenclStd100Op::{v}");
    let mut seen = std::collections::BTreeSet::new();
    let mut names = Vec::new();
    for (name, c) in &std_ {
        for v in [&c.op, &c.float, &c.signed, &c.unsigned]
            .into_iter()
            .flatten()
        {
            if seen.insert(v.clone()) {
                names.push((inst(v), format!("{name:?}")));
            }
        }
    }
    let mut signs = Vec::new();
    for c in std_.values() {
        for (v, sign) in [(&c.signed, "Signed"), (&c.unsigned, "Unsigned")] {
            if let Some(v) = v {
                signs.push((inst(v), format!("crate::ir::Sign::{sign}")));
            }
        }
    }
    vec![
        Item::partial(
            "OpenCL.std instruction of a builtin: (any class, float, signed, unsigned).",
            ("opencl_std", "name: &str", "ByClass<spirv::OpenclStd100Op>"),
            std_.iter()
                .map(|(name, c)| {
                    (
                        format!("{name:?}"),
                        by_class("spirv::OpenclStd100Op", c, true),
                    )
                })
                .collect(),
        ),
        Item::partial(
            "OpenCL C name of an OpenCL.std instruction (inverse of `opencl_std`).",
            (
                "opencl_std_name",
                "op: spirv::OpenclStd100Op",
                "&'static str",
            ),
            names,
        ),
        Item::partial(
            "The argument class an OpenCL.std instruction was chosen for: `Some(Signed)` for the\n\
             `signed` column of opencl_std.toml, `Some(Unsigned)` for `unsigned`, else `None`.",
            (
                "opencl_std_sign",
                "op: spirv::OpenclStd100Op",
                "crate::ir::Sign",
            ),
            signs,
        ),
    ]
}

/// primitives.toml: the graph's primitives and their SPIR-V instructions, both ways. The
/// first lookup has an arm per primitive and no other, so a primitive without a row (or a
/// row without a primitive) does not compile.
fn primitives() -> Vec<Item> {
    enum_opcodes(
        "primitives.toml",
        "Primitive",
        ("opcode", "p", "The SPIR-V instruction a primitive is"),
        (
            "primitive",
            "The primitive a SPIR-V instruction is, if it is one",
        ),
    )
}

/// A closed enum of the graph (`crate::ir::{enum_name}`) and the SPIR-V instruction of each
/// variant, a row each of `file`: the total function from variant to instruction (an arm per
/// row: a variant without one does not compile) and its partial inverse.
fn enum_opcodes(
    file: &str,
    enum_name: &str,
    (forward, param, forward_doc): (&str, &str, &str),
    (inverse, inverse_doc): (&str, &str),
) -> Vec<Item> {
    let table: BTreeMap<String, String> = read(file);
    let ty = format!("crate::ir::{enum_name}");
    let v = |n: &str| format!("{ty}::{n}");
    let op = |o: &str| format!("spirv::Op::{o}");
    vec![
        Item::total(
            &format!("{forward_doc} (mappings/{file})."),
            (forward, &format!("{param}: {ty}"), "spirv::Op"),
            table.iter().map(|(n, o)| (v(n), op(o))).collect(),
        ),
        Item::partial(
            &format!("{inverse_doc} (inverse of `{forward}`)."),
            (inverse, "op: spirv::Op", &ty),
            table.iter().map(|(n, o)| (op(o), v(n))).collect(),
        ),
    ]
}

/// A row of conversions.toml.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Conversion {
    from: String,
    to: Vec<String>,
    #[serde(default)]
    saturates: bool,
}

/// conversions.toml: the graph's conversions and their SPIR-V instructions, both ways. The
/// forward lookup matches (from, to, saturate) with no catch-all, so a conversion without an
/// instruction does not compile; the saturating rows come first, and the others take any
/// saturation (a decoration on them).
fn conversions() -> Vec<Item> {
    let table: BTreeMap<String, Conversion> = read("conversions.toml");
    let class = |c: &str| match c {
        "float" => "crate::ir::ConvertKind::Float".to_string(),
        "signed" | "unsigned" => {
            let sign = if c == "signed" { "Signed" } else { "Unsigned" };
            format!("crate::ir::ConvertKind::Int(crate::ir::Sign::{sign})")
        }
        _ => panic!("mappings/conversions.toml: {c}: not float, signed or unsigned"),
    };
    let mut rows: Vec<(&String, &Conversion)> = table.iter().collect();
    rows.sort_by_key(|(_, c)| !c.saturates);
    let forward = rows
        .iter()
        .flat_map(|(op, c)| {
            let sat = if c.saturates { "true" } else { "_" };
            c.to.iter().map(move |to| {
                let pattern = format!("({}, {}, {sat})", class(&c.from), class(to));
                (pattern, format!("spirv::Op::{op}"))
            })
        })
        .collect();
    let inverse = table
        .iter()
        .map(|(op, c)| {
            let to =
                c.to.first()
                    .expect("mappings/conversions.toml: a row with no `to`");
            let value = format!("({}, {}, {})", class(&c.from), class(to), c.saturates);
            (format!("spirv::Op::{op}"), value)
        })
        .collect();
    let kind = "crate::ir::ConvertKind";
    vec![
        Item::total(
            "The SPIR-V instruction of a conversion (from, to, saturate) (mappings/conversions.toml).",
            (
                "conversion_opcode",
                &format!("c: ({kind}, {kind}, bool)"),
                "spirv::Op",
            ),
            forward,
        ),
        Item::partial(
            "The conversion (from, to, whether the instruction itself saturates) a SPIR-V\n\
             instruction is, if it is one (inverse of `conversion_opcode`).",
            ("conversion", "op: spirv::Op", &format!("({kind}, {kind}, bool)")),
            inverse,
        ),
    ]
}

/// relational.toml and extended_bit_ops.toml: OpenCL C builtins that are one SPIR-V
/// instruction each, both ways.
fn one_to_one_ops() -> Vec<Item> {
    let mut items = Vec::new();
    for (file, what, name, inverse) in [
        (
            "relational.toml",
            "relational builtin",
            "relational",
            "relational_name",
        ),
        (
            "extended_bit_ops.toml",
            "cl_khr_extended_bit_ops builtin",
            "extended_bit_op",
            "extended_bit_op_name",
        ),
    ] {
        let table: BTreeMap<String, String> = read(file);
        // Relational builtins are comparisons or primitives; the bit operations, primitives.
        let (ty, path) = if file == "relational.toml" {
            ("spirv::Op", "spirv::Op")
        } else {
            ("crate::ir::Primitive", "crate::ir::Primitive")
        };
        let op = |o: &str| format!("{path}::{o}");
        items.push(Item::partial(
            &format!("The SPIR-V instruction of an OpenCL C {what} (mappings/{file})."),
            (name, "name: &str", ty),
            table
                .iter()
                .map(|(n, o)| (format!("{n:?}"), op(o)))
                .collect(),
        ));
        items.push(Item::partial(
            &format!("The OpenCL C {what} of a SPIR-V instruction (inverse of `{name}`)."),
            (
                inverse,
                if ty == "spirv::Op" {
                    "op: spirv::Op"
                } else {
                    "op: crate::ir::Primitive"
                },
                "&'static str",
            ),
            table
                .iter()
                .map(|(n, o)| (op(o), format!("{n:?}")))
                .collect(),
        ));
    }
    items
}

/// atomic_ops.toml: what an atomic does and its SPIR-V instruction, both ways.
fn atomic_ops() -> Vec<Item> {
    enum_opcodes(
        "atomic_ops.toml",
        "AtomicOp",
        (
            "atomic_opcode",
            "a",
            "The SPIR-V instruction of an atomic operation",
        ),
        (
            "atomic_op",
            "The atomic operation of a SPIR-V instruction, if it is one",
        ),
    )
}

/// group_ops.toml: the graph's collectives and their SPIR-V instructions, both ways.
fn group_ops() -> Vec<Item> {
    enum_opcodes(
        "group_ops.toml",
        "GroupOp",
        (
            "group_opcode",
            "g",
            "The SPIR-V instruction of a collective",
        ),
        (
            "group_op",
            "The collective a SPIR-V instruction is, if it is one",
        ),
    )
}

/// The graph's collectives (group_ops.toml) by their SPIR-V instruction's name, as
/// groups.toml and vulkan_subgroups.toml name them: read once, looked up by `variant`.
struct GroupVariants(BTreeMap<String, String>);

impl GroupVariants {
    fn read() -> GroupVariants {
        let table: BTreeMap<String, String> = read("group_ops.toml");
        GroupVariants(table.into_iter().map(|(n, o)| (o, n)).collect())
    }

    /// The `GroupOp` variant of SPIR-V instruction `spirv_name`.
    fn variant(&self, spirv_name: &str) -> String {
        self.0
            .get(spirv_name)
            .cloned()
            .unwrap_or_else(|| panic!("{spirv_name}: not a collective of mappings/group_ops.toml"))
    }
}

/// An atomic operation of atomics.toml and atomics_c11.toml, named by its SPIR-V
/// instruction there (`AtomicIAdd`), as the graph's `AtomicOp` variant (`IAdd`).
fn atomic_variant(v: &Option<String>) -> Option<String> {
    v.as_ref()
        .map(|v| v.strip_prefix("Atomic").unwrap_or(v).to_string())
}

/// atomics.toml and atomics_c11.toml: OpenCL C 1.x and 2.0 atomics, both ways.
fn atomics() -> Vec<Item> {
    let at: BTreeMap<String, ByClass> = read("atomics.toml");
    let c11: BTreeMap<String, C11Atomic> = read("atomics_c11.toml");
    let names = |rows: Vec<(&String, [&Option<String>; 3])>| -> Vec<(String, String)> {
        rows.into_iter()
            .flat_map(|(name, ops)| {
                ops.into_iter()
                    .filter_map(atomic_variant)
                    .map(move |v| (format!("crate::ir::AtomicOp::{v}"), format!("{name:?}")))
            })
            .collect()
    };
    let c11_class = |c: &C11Atomic| {
        let class = ByClass {
            op: atomic_variant(&c.op),
            float: None,
            signed: atomic_variant(&c.signed),
            unsigned: atomic_variant(&c.unsigned),
        };
        by_class("crate::ir::AtomicOp", &class, false)
    };
    vec![
        Item::partial(
            "The atomic operation of an OpenCL C 1.x atomic (name without atomic_/atom_ prefix).",
            ("atomic", "name: &str", "ByClass<crate::ir::AtomicOp>"),
            at.iter()
                .map(|(name, c)| {
                    let class = ByClass {
                        op: atomic_variant(&c.op),
                        float: None,
                        signed: atomic_variant(&c.signed),
                        unsigned: atomic_variant(&c.unsigned),
                    };
                    (format!("{name:?}"), by_class("crate::ir::AtomicOp", &class, false))
                })
                .collect(),
        ),
        Item::partial(
            "OpenCL C 1.x atomic name (without atomic_/atom_ prefix) of an atomic operation.",
            ("atomic_name", "op: crate::ir::AtomicOp", "&'static str"),
            names(
                at.iter()
                    .map(|(n, c)| (n, [&c.op, &c.signed, &c.unsigned]))
                    .collect(),
            ),
        ),
        Item::partial(
            "The atomic operation of an OpenCL C 2.0 atomic function (without `_explicit`) and the number\n\
             of value operands after its pointer (mappings/atomics_c11.toml).",
            ("c11_atomic", "name: &str", "(ByClass<crate::ir::AtomicOp>, u32)"),
            c11.iter()
                .map(|(name, c)| (format!("{name:?}"), format!("({}, {})", c11_class(c), c.values)))
                .collect(),
        ),
        Item::partial(
            "OpenCL C 2.0 atomic function (without `_explicit`) of an atomic operation.",
            ("c11_atomic_name", "op: crate::ir::AtomicOp", "&'static str"),
            names(
                c11.iter()
                    .filter(|(_, c)| !c.read)
                    .map(|(n, c)| (n, [&c.op, &c.signed, &c.unsigned]))
                    .collect(),
            ),
        ),
    ]
}

/// pipes.toml, enqueue.toml and groups.toml: the spellings of pipes, device-side enqueue and
/// collectives, as slices the SPIR room searches.
fn spellings() -> Vec<Item> {
    let pipes: Pipes = read("pipes.toml");
    let enq: EnqueueFunctions = read("enqueue.toml");
    let groups: Groups = read("groups.toml");
    let variants = GroupVariants::read();
    vec![
        Item::slice(
            "The SPIR spellings of the pipe instructions (mappings/pipes.toml).",
            "PIPE_SPELLINGS",
            "PipeSpelling",
            pipes
                .pipe
                .iter()
                .map(|p| {
                    format!(
                        "PipeSpelling {{ op: crate::ir::Primitive::{}, scope: {}, clang: {:?}, clang_wo: {:?}, spir: {:?}, args: {} }}",
                        p.op,
                        opt("spirv::Scope", &p.scope),
                        p.clang,
                        p.clang_wo,
                        p.spir,
                        p.args
                    )
                })
                .collect(),
        ),
        Item::slice(
            "OpenCL C device-enqueue functions of one SPIR-V instruction (mappings/enqueue.toml):\n\
             (instruction, OpenCL C name, clang's symbol).",
            "ENQUEUE_FUNCTIONS",
            "(crate::ir::Primitive, &str, &str)",
            enq.function
                .iter()
                .map(|f| format!("(crate::ir::Primitive::{}, {:?}, {:?})", f.op, f.name, f.symbol))
                .collect(),
        ),
        Item::slice(
            "OpenCL C spellings of the collectives (mappings/groups.toml).",
            "GROUP_SPELLINGS",
            "GroupSpelling",
            groups
                .group
                .iter()
                .map(|g| {
                    format!(
                        "GroupSpelling {{ name: {:?}, ops: {}, operation: {}, work_group: {}, predicate: {}, boolean: {} }}",
                        g.name,
                        by_class(
                            "crate::ir::GroupOp",
                            &ByClass {
                                op: g.ops.op.as_deref().map(|n| variants.variant(n)),
                                float: g.ops.float.as_deref().map(|n| variants.variant(n)),
                                signed: g.ops.signed.as_deref().map(|n| variants.variant(n)),
                                unsigned: g.ops.unsigned.as_deref().map(|n| variants.variant(n)),
                            },
                            true
                        ),
                        opt("spirv::GroupOperation", &g.operation),
                        g.work_group,
                        g.predicate,
                        g.boolean
                    )
                })
                .collect(),
        ),
    ]
}

/// execution_modes.toml: the execution modes the graph keeps literally.
fn execution_modes() -> Vec<Item> {
    let modes: BTreeMap<String, KeptMode> = read("execution_modes.toml");
    vec![Item::partial(
        "An execution mode the graph keeps literally (mappings/execution_modes.toml): the\n\
         SPIR-V version and the capability it needs.",
        (
            "kept_execution_mode",
            "mode: spirv::ExecutionMode",
            "((u8, u8), Option<spirv::Capability>)",
        ),
        modes
            .iter()
            .map(|(mode, k)| {
                let (maj, min) = k
                    .version
                    .split_once('.')
                    .unwrap_or_else(|| panic!("execution_modes.toml: {mode}: version MAJOR.MINOR"));
                (
                    format!("spirv::ExecutionMode::{mode}"),
                    format!(
                        "(({maj}, {min}), {})",
                        opt("spirv::Capability", &k.capability)
                    ),
                )
            })
            .collect(),
    )]
}

/// opencl_enums.toml: rounding suffixes, fence flags, memory orders and scopes, image channel
/// queries.
fn enumerants() -> Vec<Item> {
    let en: OpenClEnums = read("opencl_enums.toml");
    let rounding = |m: &str| format!("spirv::FPRoundingMode::{m}");
    let pairs = |rows: Vec<(u32, String)>| -> Vec<String> {
        rows.into_iter()
            .map(|(n, v)| format!("({n}, {v})"))
            .collect()
    };
    vec![
        Item::partial(
            "FPRoundingMode of a rounding suffix (`rte`, ...).",
            ("rounding", "suffix: &str", "spirv::FPRoundingMode"),
            en.rounding
                .iter()
                .map(|(s, m)| (format!("{s:?}"), rounding(m)))
                .collect(),
        ),
        Item::total(
            "The rounding suffix of an FPRoundingMode (inverse of `rounding`).",
            (
                "rounding_suffix",
                "mode: spirv::FPRoundingMode",
                "&'static str",
            ),
            en.rounding
                .iter()
                .map(|(s, m)| (rounding(m), format!("{s:?}")))
                .collect(),
        ),
        Item::slice(
            "`cl_mem_fence_flags` bits and the MemorySemantics bit each sets.",
            "FENCE_FLAGS",
            "(u32, spirv::MemorySemantics)",
            pairs(
                en.fence
                    .values()
                    .map(|f| (f.bit, format!("spirv::MemorySemantics::{}", f.semantics)))
                    .collect(),
            ),
        ),
        Item::slice(
            "OpenCL C `memory_order` values and the MemorySemantics ordering bit of each.",
            "MEMORY_ORDERS",
            "(u32, spirv::MemorySemantics)",
            pairs(
                en.memory_order
                    .values()
                    .map(|o| (o.value, format!("spirv::MemorySemantics::{}", o.semantics)))
                    .collect(),
            ),
        ),
        Item::partial(
            "The OpenCL C name of a memory order (`acq_rel`, ...).",
            (
                "memory_order_name",
                "s: spirv::MemorySemantics",
                "&'static str",
            ),
            en.memory_order
                .iter()
                .map(|(name, o)| {
                    let short = name.strip_prefix("memory_order_").unwrap_or(name);
                    (
                        format!("spirv::MemorySemantics::{}", o.semantics),
                        format!("{short:?}"),
                    )
                })
                .collect(),
        ),
        Item::slice(
            "OpenCL C `memory_scope` values and the SPIR-V Scope of each.",
            "MEMORY_SCOPES",
            "(u32, spirv::Scope)",
            pairs(
                en.memory_scope
                    .values()
                    .map(|o| (o.value, format!("spirv::Scope::{}", o.scope)))
                    .collect(),
            ),
        ),
        Item::slice(
            "Image channel queries in every spelling (see `mappings::ChannelQuery`).",
            "CHANNEL_QUERIES",
            "crate::mappings::ChannelQuery",
            en.channel_query
                .iter()
                .map(|(name, q)| {
                    format!(
                        "crate::mappings::ChannelQuery {{ op: crate::ir::ImageOp::{}, primitive: crate::ir::Primitive::{}, opencl: {name:?}, cl_offset: {:#x} }}",
                        q.graph, q.spirv, q.cl_offset
                    )
                })
                .collect(),
        ),
    ]
}

/// intrinsics.toml: the LLVM intrinsics that are an OpenCL.std instruction.
fn intrinsics() -> Vec<Item> {
    let intr: BTreeMap<String, String> = read("intrinsics.toml");
    vec![Item::partial(
        "OpenCL.std instruction of an LLVM intrinsic (name without type suffix).",
        ("intrinsic", "name: &str", "spirv::OpenclStd100Op"),
        intr.iter()
            .map(|(name, op)| (format!("{name:?}"), format!("spirv::OpenclStd100Op::{op}")))
            .collect(),
    )]
}
