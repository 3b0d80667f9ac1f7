//! The graph's closed operations and the SPIR-V instruction each is, both ways: the
//! primitives, atomics, collectives and conversions, and the OpenCL C builtins that are one
//! instruction.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::item::{read, Item};

/// primitives.toml: the graph's primitives and their SPIR-V instructions, both ways. The
/// first lookup has an arm per primitive and no other, so a primitive without a row (or a
/// row without a primitive) does not compile.
pub(crate) fn primitives() -> Vec<Item> {
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

/// atomic_ops.toml: what an atomic does and its SPIR-V instruction, both ways.
pub(crate) fn atomic_ops() -> Vec<Item> {
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
pub(crate) fn group_ops() -> Vec<Item> {
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
pub(crate) struct GroupVariants(BTreeMap<String, String>);

impl GroupVariants {
    pub(crate) fn read() -> GroupVariants {
        let table: BTreeMap<String, String> = read("group_ops.toml");
        GroupVariants(table.into_iter().map(|(n, o)| (o, n)).collect())
    }

    /// The `GroupOp` variant of SPIR-V instruction `spirv_name`.
    pub(crate) fn variant(&self, spirv_name: &str) -> String {
        self.0
            .get(spirv_name)
            .cloned()
            .unwrap_or_else(|| panic!("{spirv_name}: not a collective of mappings/group_ops.toml"))
    }
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
pub(crate) fn conversions() -> Vec<Item> {
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
pub(crate) fn one_to_one_ops() -> Vec<Item> {
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

/// A row of an extended instruction set's grammar (SPIRV-Headers' `extinst.*.grammar.json`).
#[derive(Deserialize)]
struct ExtInstruction {
    opname: String,
}

#[derive(Deserialize)]
struct ExtGrammar {
    instructions: Vec<ExtInstruction>,
}

/// The grammars of the extended instruction sets, as the vendored SPIRV-Tools ships them.
const GRAMMARS: &str = "vendor/spirv-tools-sys/spirv-headers/include/spirv/unified1";

/// OpenCL.std and GLSL.std.450: the graph's closed sets of their instructions
/// (`crate::ir::OpenclOp`, `GlslOp`) and the `spirv` crate's enums of their numbers, both
/// ways (GLSL.std.450's one way: no reader takes it), by the instruction names of each set's
/// grammar. The lookups are total with no catch-all, so a variant the grammar lacks, or an
/// instruction without a variant, does not compile.
pub(crate) fn extended_sets() -> Vec<Item> {
    let mut items = Vec::new();
    for (file, set, ours, theirs, forward, inverse) in [
        (
            "extinst.opencl.std.100.grammar.json",
            "OpenCL.std",
            "OpenclOp",
            "OpenclStd100Op",
            "opencl_std_opcode",
            "opencl_op",
        ),
        (
            "extinst.glsl.std.450.grammar.json",
            "GLSL.std.450",
            "GlslOp",
            "GlslStd450Op",
            "glsl_opcode",
            // No reader takes GLSL.std.450: no inverse.
            "",
        ),
    ] {
        let path = std::path::Path::new(GRAMMARS).join(file);
        println!("cargo:rerun-if-changed={}", path.display());
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let grammar: ExtGrammar =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let names: Vec<&str> = grammar
            .instructions
            .iter()
            .map(|i| i.opname.as_str())
            .collect();
        let ours = format!("crate::ir::{ours}");
        let theirs = format!("spirv::{theirs}");
        items.push(Item::total(
            &format!("The {set} instruction of a graph operation (the set's grammar)."),
            (forward, &format!("op: {ours}"), &theirs),
            names
                .iter()
                .map(|n| (format!("{ours}::{n}"), format!("{theirs}::{n}")))
                .collect(),
        ));
        if inverse.is_empty() {
            continue;
        }
        items.push(Item::total(
            &format!("The graph operation of a {set} instruction (inverse of `{forward}`)."),
            (inverse, &format!("op: {theirs}"), &ours),
            names
                .iter()
                .map(|n| (format!("{theirs}::{n}"), format!("{ours}::{n}")))
                .collect(),
        ));
    }
    items
}
