//! Reads everything SPIR says in metadata, through llvm-sys (llvm-ir has no named metadata):
//! `!opencl.kernels` (legacy SPIR 1.2/2.0), function-attached `!kernel_arg_*` (clang), and
//! the module-level `opencl.*` nodes. Also checks the input parses and verifies, with LLVM's
//! messages captured instead of LLVM's default handler printing and exiting.

use crate::diag::{Error, Result};
use crate::hash::HashMap;
use crate::llvm::{self, SourceForm, TypeKind, Value};

/// Scalar element of a `vec_type_hint` type as LLVM gives it (signless).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HintScalar {
    Int(u32),
    Float(u32),
}

/// Kernel information as found in the metadata, before interpretation.
#[derive(Clone, Debug, Default)]
pub struct RawKernel {
    pub name: String,
    pub addr_space: Option<Vec<u32>>,
    pub access_qual: Option<Vec<String>>,
    pub arg_type: Option<Vec<String>>,
    pub base_type: Option<Vec<String>>,
    pub type_qual: Option<Vec<String>>,
    pub arg_name: Option<Vec<String>>,
    pub reqd_work_group_size: Option<[u32; 3]>,
    pub work_group_size_hint: Option<[u32; 3]>,
    pub vec_type_hint: Option<(HintScalar, u32, bool)>,
    /// The VecTypeHint literal of a `!spirv.ExecutionMode` (spirv-ir flavor).
    pub vec_type_hint_code: Option<u32>,
    pub reqd_sub_group_size: Option<u32>,
    /// `!spirv.ExecutionMode` modes kept literally (see `mappings::kept_execution_mode`).
    pub other_modes: Vec<(spirv::ExecutionMode, Vec<u32>)>,
}

#[derive(Clone, Debug, Default)]
pub struct RawMetadata {
    pub triple: String,
    /// Kernels in `!opencl.kernels` order, then any further `spir_kernel` functions.
    pub kernels: Vec<RawKernel>,
    pub spir_version: Option<(u32, u32)>,
    pub ocl_version: Option<(u32, u32)>,
    pub used_extensions: Vec<String>,
    pub used_optional_core_features: Vec<String>,
    pub compiler_options: Vec<String>,
    pub fp_contract: bool,
    /// Per function (defined or declared): which parameters are `readonly` / `readnone` /
    /// `writeonly`,
    /// attributes llvm-ir does not expose. Indexed like the parameters.
    pub param_memory: HashMap<String, Vec<ParamMemory>>,
    /// Named metadata of the module that no part of the translation reads (see
    /// `MEANINGLESS`), by name: reported as not kept.
    pub unread_named: Vec<String>,
    /// The module carries debug information (`!llvm.dbg.cu`).
    pub debug_info: bool,
    /// Casts to `i8*` that only feed memory intrinsics (`memory_casts.rs`).
    pub memory_casts: super::memory_casts::MemoryCasts,
    /// Where each kernel name first appears in `kernels` (a module may list 10,000 kernels).
    kernel_at: HashMap<String, usize>,
}

impl RawMetadata {
    /// The index of kernel `name`, added if the metadata has not named it yet.
    fn kernel_index(&mut self, name: &str) -> usize {
        match self.kernel_at.get(name) {
            Some(&i) => i,
            None => self.push_kernel(RawKernel {
                name: name.to_string(),
                ..Default::default()
            }),
        }
    }

    /// Add `k` last; its index.
    fn push_kernel(&mut self, k: RawKernel) -> usize {
        let i = self.kernels.len();
        self.kernel_at.entry(k.name.clone()).or_insert(i);
        self.kernels.push(k);
        i
    }
}

/// How a function may touch the memory behind a pointer parameter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParamMemory {
    pub readonly: bool,
    pub readnone: bool,
    pub writeonly: bool,
}

/// LLVM's calling-convention number for `spir_kernel`.
const SPIR_KERNEL_CC: u32 = 76;

/// Parse `bytes` (bitcode or text IR), verify it, and extract all SPIR metadata. The parsed
/// module comes back too, for the body reader (`handoff.rs`): the input is parsed once.
pub fn read_metadata(bytes: &[u8], is_bitcode: bool) -> Result<(RawMetadata, llvm::Module)> {
    let (form, what) = if is_bitcode {
        (SourceForm::Bitcode, "LLVM bitcode")
    } else {
        (SourceForm::Text, "LLVM IR text")
    };
    let module = llvm::Module::parse(bytes, form)
        .map_err(|detail| Error::malformed(format!("not readable {what}: {detail}")))?;
    if let Err(text) = module.verify() {
        let first = text.lines().next().unwrap_or("").to_string();
        return Err(Error::malformed(format!(
            "the module does not pass LLVM's verifier: {first}"
        )));
    }
    let md = extract(&module)?;
    Ok((md, module))
}

/// Every SPIR fact of the verified `module`'s metadata; also rewrites its half constants
/// (`half_constants.rs`) and finds its memory-intrinsic casts (`memory_casts.rs`).
fn extract(module: &llvm::Module) -> Result<RawMetadata> {
    let m = module;
    let mut md = RawMetadata {
        triple: module.target(),
        ..Default::default()
    };
    md.spir_version = version(m.named_metadata("opencl.spir.version").first().copied());
    md.ocl_version = version(m.named_metadata("opencl.ocl.version").first().copied());
    md.used_extensions = strings_of_nodes(&m.named_metadata("opencl.used.extensions"));
    md.used_optional_core_features =
        strings_of_nodes(&m.named_metadata("opencl.used.optional.core.features"));
    md.compiler_options = strings_of_nodes(&m.named_metadata("opencl.compiler.options"));
    // SPIR: the node's presence (it is empty, `!{}`) means FP_CONTRACT ON.
    md.fp_contract = m.has_named_metadata("opencl.enable.FP_CONTRACT");

    // Legacy: one node per kernel in !opencl.kernels.
    for node in m.named_metadata("opencl.kernels") {
        let ops = node.node_operands();
        let Some(f) = ops.first().copied().and_then(function_of) else {
            return Err(Error::malformed(
                "an !opencl.kernels entry does not start with a function",
            ));
        };
        let mut k = RawKernel {
            name: f.name(),
            ..Default::default()
        };
        for sub in ops[1..].iter().flatten() {
            let sub_ops = sub.node_operands();
            if let Some(tag) = sub_ops.first().and_then(|&t| md_string(t)) {
                apply_kernel_node(&mut k, &tag, &sub_ops[1..])
                    .map_err(|e| e.in_function(&k.name))?;
            }
        }
        md.push_kernel(k);
    }

    md.param_memory = param_memory(m);
    for name in m.named_metadata_names() {
        if name == "llvm.dbg.cu" {
            md.debug_info = true;
        } else if !READ_NAMED.contains(&name.as_str()) && !MEANINGLESS.contains(&name.as_str()) {
            md.unread_named.push(name);
        }
    }
    super::half_constants::rewrite(m);
    md.memory_casts = super::memory_casts::memory_casts(m);

    // Modern: spir_kernel functions with attached !kernel_arg_* metadata.
    let tag_kinds = KERNEL_TAGS.map(|tag| m.metadata_kind(tag));
    for f in m.functions() {
        if f.calling_convention() != Some(SPIR_KERNEL_CC) || !f.is_definition() {
            continue;
        }
        let name = f.name();
        let idx = md.kernel_index(&name);
        for (kind, node) in m.attached_metadata(f) {
            for (tag, _) in KERNEL_TAGS
                .iter()
                .zip(tag_kinds)
                .filter(|(_, k)| *k == kind)
            {
                apply_kernel_node(&mut md.kernels[idx], tag, &node.node_operands())
                    .map_err(|e| e.in_function(&name))?;
            }
        }
    }
    spirv_ir_metadata(m, &mut md)?;
    Ok(md)
}

/// The named metadata the reader reads (here, or as the spirv-ir flavor's).
const READ_NAMED: [&str; 14] = [
    "opencl.kernels",
    "opencl.spir.version",
    "opencl.ocl.version",
    "opencl.used.extensions",
    "opencl.used.optional.core.features",
    "opencl.compiler.options",
    "opencl.enable.FP_CONTRACT",
    "spirv.ExecutionMode",
    "spirv.Source",
    "spirv.SourceExtension",
    // Derived again from the module by the SPIR-V writer (capabilities, extensions, memory
    // model), or naming the producer of the spirv-ir module.
    "spirv.MemoryModel",
    "spirv.Generator",
    "spirv.Capability",
    "spirv.Extension",
];

/// Named metadata with no meaning for the device program, not reported when dropped: the
/// producer's name and the host ABI facts LLVM records (`wchar_size`, PIC level, ...).
const MEANINGLESS: [&str; 2] = ["llvm.ident", "llvm.module.flags"];

/// The spirv-ir flavor's module metadata: `!spirv.ExecutionMode`, `!spirv.Source`,
/// `!spirv.SourceExtension`. (`!spirv.MemoryModel` repeats the triple; capabilities and
/// extensions are derived again by the SPIR-V writer.)
fn spirv_ir_metadata(m: &llvm::Module, md: &mut RawMetadata) -> Result<()> {
    use spirv::ExecutionMode as M;
    let mut contraction_off = false;
    for node in m.named_metadata("spirv.ExecutionMode") {
        let ops = node.node_operands();
        let Some(f) = ops.first().copied().and_then(function_of) else {
            return Err(Error::malformed(
                "a !spirv.ExecutionMode entry does not start with a function",
            ));
        };
        let name = f.name();
        let ints: Vec<u32> = ops[1..]
            .iter()
            .map(|&o| int_of(o).map(|v| v as u32))
            .collect::<Option<_>>()
            .ok_or_else(|| {
                Error::malformed("!spirv.ExecutionMode holds a non-integer").in_function(&name)
            })?;
        let Some((&mode, lits)) = ints.split_first() else {
            return Err(Error::malformed("!spirv.ExecutionMode without a mode").in_function(&name));
        };
        let mode = M::from_u32(mode).ok_or_else(|| {
            Error::malformed(format!("execution mode {mode} does not exist")).in_function(&name)
        })?;
        let idx = md.kernel_index(&name);
        let k = &mut md.kernels[idx];
        let xyz = || -> Result<[u32; 3]> {
            lits.try_into().map_err(|_| {
                Error::malformed(format!("{mode:?} needs three sizes")).in_function(&name)
            })
        };
        match mode {
            M::LocalSize => {
                k.reqd_work_group_size.get_or_insert(xyz()?);
            }
            M::LocalSizeHint => {
                k.work_group_size_hint.get_or_insert(xyz()?);
            }
            M::VecTypeHint => {
                k.vec_type_hint_code = Some(lits.first().copied().unwrap_or(0));
            }
            M::ContractionOff => contraction_off = true,
            M::SubgroupSize => {
                let n = lits.first().copied().ok_or_else(|| {
                    Error::malformed("SubgroupSize without a size").in_function(&name)
                })?;
                k.reqd_sub_group_size.get_or_insert(n);
            }
            m if crate::mappings::kept_execution_mode(m).is_some() => {
                k.other_modes.push((m, lits.to_vec()))
            }
            other => {
                return Err(Error::unsupported(format!(
                    "execution mode {other:?} in !spirv.ExecutionMode"
                ))
                .in_function(&name))
            }
        }
    }
    md.fp_contract &= !contraction_off;
    if md.ocl_version.is_none() {
        if let Some(node) = m.named_metadata("spirv.Source").first() {
            let ops = node.node_operands();
            if let Some(v) = ops.get(1).and_then(|&o| int_of(o)) {
                let v = v as u32;
                md.ocl_version = Some((v / 100_000, (v % 100_000) / 1000));
            }
        }
    }
    for e in strings_of_nodes(&m.named_metadata("spirv.SourceExtension")) {
        let (list, item) = match e.strip_prefix("opencl.used.optional.core.feature.") {
            Some(f) => (&mut md.used_optional_core_features, f.to_string()),
            None => (&mut md.used_extensions, e.clone()),
        };
        if !list.contains(&item) {
            list.push(item);
        }
    }
    Ok(())
}

/// `readonly` / `readnone` / `writeonly` on every function parameter that has one.
fn param_memory(m: &llvm::Module) -> HashMap<String, Vec<ParamMemory>> {
    let kind = llvm::attribute_kind;
    let (readonly, readnone, writeonly) = (kind("readonly"), kind("readnone"), kind("writeonly"));
    let mut out = HashMap::default();
    for f in m.functions() {
        let flags: Vec<ParamMemory> = (0..f.param_count())
            .map(|i| {
                let has = |k| f.param_has_attribute(i, k);
                ParamMemory {
                    readonly: has(readonly),
                    readnone: has(readnone),
                    writeonly: has(writeonly),
                }
            })
            .collect();
        if flags
            .iter()
            .any(|p| p.readonly || p.readnone || p.writeonly)
        {
            out.insert(f.name(), flags);
        }
    }
    out
}

const KERNEL_TAGS: [&str; 10] = [
    "kernel_arg_addr_space",
    "kernel_arg_access_qual",
    "kernel_arg_type",
    "kernel_arg_base_type",
    "kernel_arg_type_qual",
    "kernel_arg_name",
    "reqd_work_group_size",
    "work_group_size_hint",
    "vec_type_hint",
    "intel_reqd_sub_group_size",
];

/// Fill one field of `k` from a metadata node `tag` with operands `ops`. Fields already set
/// (from `!opencl.kernels`) are kept.
fn apply_kernel_node(k: &mut RawKernel, tag: &str, ops: &[Option<Value>]) -> Result<()> {
    let strings = || {
        ops.iter()
            .map(|&o| md_string(o).unwrap_or_default())
            .collect::<Vec<_>>()
    };
    let ints = || -> Result<Vec<u32>> {
        ops.iter()
            .map(|&o| {
                int_of(o)
                    .map(|v| v as u32)
                    .ok_or_else(|| Error::malformed(format!("!{tag} holds a non-integer")))
            })
            .collect()
    };
    let triple = || -> Result<[u32; 3]> {
        let v = ints()?;
        v.try_into()
            .map_err(|_| Error::malformed(format!("!{tag} does not have three integers")))
    };
    match tag {
        "kernel_arg_addr_space" => {
            k.addr_space.get_or_insert(ints()?);
        }
        "kernel_arg_access_qual" => {
            k.access_qual.get_or_insert_with(strings);
        }
        "kernel_arg_type" => {
            k.arg_type.get_or_insert_with(strings);
        }
        "kernel_arg_base_type" => {
            k.base_type.get_or_insert_with(strings);
        }
        "kernel_arg_type_qual" => {
            k.type_qual.get_or_insert_with(strings);
        }
        "kernel_arg_name" => {
            k.arg_name.get_or_insert_with(strings);
        }
        "reqd_work_group_size" => {
            k.reqd_work_group_size.get_or_insert(triple()?);
        }
        "work_group_size_hint" => {
            k.work_group_size_hint.get_or_insert(triple()?);
        }
        "intel_reqd_sub_group_size" => {
            let n = ints()?;
            let [n] = n.as_slice() else {
                return Err(Error::malformed(format!(
                    "!{tag} does not hold one integer"
                )));
            };
            k.reqd_sub_group_size.get_or_insert(*n);
        }
        "vec_type_hint" => {
            let (Some(&hint), Some(&sign)) = (ops.first(), ops.get(1)) else {
                return Err(Error::malformed(
                    "!vec_type_hint needs a type and a signedness",
                ));
            };
            let ty = hint
                .map(Value::type_of)
                .ok_or_else(|| Error::malformed("!vec_type_hint needs a type and a signedness"))?;
            let (scalar_ty, len) = ty.vector().unwrap_or((ty, 1));
            let scalar = match scalar_ty.kind() {
                TypeKind::LLVMIntegerTypeKind => {
                    HintScalar::Int(scalar_ty.int_width().unwrap_or(0))
                }
                TypeKind::LLVMHalfTypeKind => HintScalar::Float(16),
                TypeKind::LLVMFloatTypeKind => HintScalar::Float(32),
                TypeKind::LLVMDoubleTypeKind => HintScalar::Float(64),
                _ => {
                    return Err(Error::malformed(
                        "!vec_type_hint names a type that is not a scalar or vector",
                    ))
                }
            };
            k.vec_type_hint
                .get_or_insert((scalar, len, int_of(sign).unwrap_or(0) != 0));
        }
        _ => {}
    }
    Ok(())
}

fn md_string(v: Option<Value>) -> Option<String> {
    v?.metadata_string()
}

fn int_of(v: Option<Value>) -> Option<u64> {
    v?.const_int()
}

fn function_of(v: Option<Value>) -> Option<Value> {
    let v = v?;
    if v.is_function() {
        return Some(v);
    }
    // LLVM 3.2 metadata may hold a bitcast of the function.
    if v.is_constant_expr() {
        return function_of(v.operand(0));
    }
    None
}

fn version(node: Option<Value>) -> Option<(u32, u32)> {
    let ops = node?.node_operands();
    Some((int_of(*ops.first()?)? as u32, int_of(*ops.get(1)?)? as u32))
}

fn strings_of_nodes(nodes: &[Value]) -> Vec<String> {
    nodes
        .iter()
        .flat_map(|n| n.node_operands())
        .filter_map(md_string)
        .collect()
}
