//! OpenCL's spellings: address spaces, work-item functions, OpenCL.std names, atomics,
//! pipes, device-side enqueue, collectives, execution modes, enumerants and the LLVM
//! intrinsics that are an OpenCL.std instruction.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::item::{by_class, opt, read, ByClass, Item};
use crate::opcodes::GroupVariants;

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

/// address_spaces.toml: the address spaces in each numbering and spelling.
pub(crate) fn address_spaces() -> Vec<Item> {
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
pub(crate) fn work_items() -> Vec<Item> {
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

/// opencl_std.toml: OpenCL.std instructions by the class of their arguments, and back.
pub(crate) fn opencl_std() -> Vec<Item> {
    let std_: BTreeMap<String, ByClass> = read("opencl_std.toml");
    let inst = |v: &str| format!("crate::ir::OpenclOp::{v}");
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
            ("opencl_std", "name: &str", "ByClass<crate::ir::OpenclOp>"),
            std_.iter()
                .map(|(name, c)| {
                    (
                        format!("{name:?}"),
                        by_class("crate::ir::OpenclOp", c, true),
                    )
                })
                .collect(),
        ),
        Item::partial(
            "OpenCL C name of an OpenCL.std instruction (inverse of `opencl_std`).",
            ("opencl_std_name", "op: crate::ir::OpenclOp", "&'static str"),
            names,
        ),
        Item::partial(
            "The argument class an OpenCL.std instruction was chosen for: `Some(Signed)` for the\n\
             `signed` column of opencl_std.toml, `Some(Unsigned)` for `unsigned`, else `None`.",
            (
                "opencl_std_sign",
                "op: crate::ir::OpenclOp",
                "crate::ir::Sign",
            ),
            signs,
        ),
    ]
}

/// An atomic operation of atomics.toml and atomics_c11.toml, named by its SPIR-V
/// instruction there (`AtomicIAdd`), as the graph's `AtomicOp` variant (`IAdd`).
pub(crate) fn atomic_variant(v: &Option<String>) -> Option<String> {
    v.as_ref()
        .map(|v| v.strip_prefix("Atomic").unwrap_or(v).to_string())
}

/// atomics.toml and atomics_c11.toml: OpenCL C 1.x and 2.0 atomics, both ways.
pub(crate) fn atomics() -> Vec<Item> {
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
pub(crate) fn spellings() -> Vec<Item> {
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
pub(crate) fn execution_modes() -> Vec<Item> {
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
pub(crate) fn enumerants() -> Vec<Item> {
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
pub(crate) fn intrinsics() -> Vec<Item> {
    let intr: BTreeMap<String, String> = read("intrinsics.toml");
    vec![Item::partial(
        "OpenCL.std instruction of an LLVM intrinsic (name without type suffix).",
        ("intrinsic", "name: &str", "crate::ir::OpenclOp"),
        intr.iter()
            .map(|(name, op)| (format!("{name:?}"), format!("crate::ir::OpenclOp::{op}")))
            .collect(),
    )]
}
