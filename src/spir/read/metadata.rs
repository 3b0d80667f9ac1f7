//! Reads everything SPIR says in metadata, through llvm-sys (llvm-ir has no named metadata):
//! `!opencl.kernels` (legacy SPIR 1.2/2.0), function-attached `!kernel_arg_*` (clang), and
//! the module-level `opencl.*` nodes. Also checks the input parses and verifies, with LLVM's
//! messages captured instead of LLVM's default handler printing and exiting.

use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr;

use crate::hash::HashMap;

use llvm_sys::analysis::{LLVMVerifierFailureAction, LLVMVerifyModule};
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::LLVMTypeKind;

use super::local_names::value_name;
use crate::diag::{Error, Result};

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

/// An LLVM module and the context that owns it, disposed together.
pub struct LlvmModule {
    ctx: LLVMContextRef,
    module: LLVMModuleRef,
}

impl LlvmModule {
    pub fn as_raw(&self) -> LLVMModuleRef {
        self.module
    }

    /// The module written as bitcode.
    #[cfg(test)]
    pub fn bitcode(&self) -> Vec<u8> {
        // SAFETY: a live module; the buffer is copied out, then disposed.
        unsafe {
            let buf = llvm_sys::bit_writer::LLVMWriteBitcodeToMemoryBuffer(self.module);
            let bytes = std::slice::from_raw_parts(
                LLVMGetBufferStart(buf) as *const u8,
                LLVMGetBufferSize(buf),
            )
            .to_vec();
            LLVMDisposeMemoryBuffer(buf);
            bytes
        }
    }
}

impl Drop for LlvmModule {
    fn drop(&mut self) {
        // SAFETY: both were created by `read_metadata` and are disposed only here.
        unsafe {
            if !self.module.is_null() {
                LLVMDisposeModule(self.module);
            }
            LLVMContextDispose(self.ctx)
        }
    }
}

extern "C" fn collect_diagnostic(info: LLVMDiagnosticInfoRef, sink: *mut c_void) {
    // SAFETY: `sink` is the `Vec<String>` registered in `read_metadata`, alive while the
    // handler is set (it is unset before `read_metadata` returns).
    unsafe {
        let messages = &mut *(sink as *mut Vec<String>);
        let d = LLVMGetDiagInfoDescription(info);
        if !d.is_null() {
            messages.push(CStr::from_ptr(d).to_string_lossy().into_owned());
            LLVMDisposeMessage(d);
        }
    }
}

/// Parse `bytes` (bitcode or text IR), verify it, and extract all SPIR metadata. The parsed
/// module comes back too, for the body reader (`handoff.rs`): the input is parsed once.
pub fn read_metadata(bytes: &[u8], is_bitcode: bool) -> Result<(RawMetadata, LlvmModule)> {
    let mut messages: Vec<String> = Vec::new();
    unsafe {
        let mut owner = LlvmModule {
            ctx: LLVMContextCreate(),
            module: ptr::null_mut(),
        };
        LLVMContextSetDiagnosticHandler(
            owner.ctx,
            Some(collect_diagnostic),
            &mut messages as *mut Vec<String> as *mut c_void,
        );
        let name = CString::new("input").unwrap();
        let buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
            bytes.as_ptr() as *const c_char,
            bytes.len(),
            name.as_ptr(),
        );
        let mut msg: *mut c_char = ptr::null_mut();
        let failed = if is_bitcode {
            // The form that returns its error: `LLVMParseBitcodeInContext2` is the hand-off
            // point (`handoff.rs`).
            #[allow(deprecated)]
            let r = llvm_sys::bit_reader::LLVMParseBitcodeInContext(
                owner.ctx,
                buf,
                &mut owner.module,
                &mut msg,
            );
            LLVMDisposeMemoryBuffer(buf);
            r != 0
        } else {
            // Takes ownership of `buf`.
            let r = llvm_sys::ir_reader::LLVMParseIRInContext(
                owner.ctx,
                buf,
                &mut owner.module,
                &mut msg,
            );
            r != 0
        };
        if !msg.is_null() {
            messages.push(CStr::from_ptr(msg).to_string_lossy().into_owned());
            LLVMDisposeMessage(msg);
        }
        let result = if failed || owner.module.is_null() {
            let what = if is_bitcode {
                "LLVM bitcode"
            } else {
                "LLVM IR text"
            };
            let detail = if messages.is_empty() {
                "parse failed".to_string()
            } else {
                messages.join("; ")
            };
            Err(Error::malformed(format!("not readable {what}: {detail}")))
        } else {
            extract(owner.ctx, owner.module)
        };
        // `messages` ends here; the module lives on.
        LLVMContextSetDiagnosticHandler(owner.ctx, None, ptr::null_mut());
        result.map(|md| (md, owner))
    }
}

unsafe fn extract(ctx: LLVMContextRef, m: LLVMModuleRef) -> Result<RawMetadata> {
    let mut msg: *mut c_char = ptr::null_mut();
    if LLVMVerifyModule(
        m,
        LLVMVerifierFailureAction::LLVMReturnStatusAction,
        &mut msg,
    ) != 0
    {
        let text = if msg.is_null() {
            String::new()
        } else {
            CStr::from_ptr(msg).to_string_lossy().into_owned()
        };
        if !msg.is_null() {
            LLVMDisposeMessage(msg);
        }
        let first = text.lines().next().unwrap_or("").to_string();
        return Err(Error::malformed(format!(
            "the module does not pass LLVM's verifier: {first}"
        )));
    }
    if !msg.is_null() {
        LLVMDisposeMessage(msg);
    }
    let mut md = RawMetadata {
        triple: CStr::from_ptr(LLVMGetTarget(m))
            .to_string_lossy()
            .into_owned(),
        ..Default::default()
    };
    md.spir_version = version(named_nodes(m, "opencl.spir.version").first().copied());
    md.ocl_version = version(named_nodes(m, "opencl.ocl.version").first().copied());
    md.used_extensions = strings_of_nodes(&named_nodes(m, "opencl.used.extensions"));
    md.used_optional_core_features =
        strings_of_nodes(&named_nodes(m, "opencl.used.optional.core.features"));
    md.compiler_options = strings_of_nodes(&named_nodes(m, "opencl.compiler.options"));
    // SPIR: the node's presence (it is empty, `!{}`) means FP_CONTRACT ON.
    md.fp_contract = {
        let name = "opencl.enable.FP_CONTRACT";
        !LLVMGetNamedMetadata(m, name.as_ptr().cast(), name.len()).is_null()
    };

    // Legacy: one node per kernel in !opencl.kernels.
    for node in named_nodes(m, "opencl.kernels") {
        let ops = operands(node);
        let Some(f) = ops.first().copied().and_then(|v| function_of(v)) else {
            return Err(Error::malformed(
                "an !opencl.kernels entry does not start with a function",
            ));
        };
        let mut k = RawKernel {
            name: value_name(f),
            ..Default::default()
        };
        for &sub in &ops[1..] {
            if sub.is_null() {
                continue;
            }
            let sub_ops = operands(sub);
            if let Some(tag) = sub_ops.first().and_then(|&t| md_string(t)) {
                apply_kernel_node(&mut k, &tag, &sub_ops[1..])
                    .map_err(|e| e.in_function(&k.name))?;
            }
        }
        md.push_kernel(k);
    }

    md.param_memory = param_memory(m);
    let mut nm = LLVMGetFirstNamedMetadata(m);
    while !nm.is_null() {
        let mut len = 0usize;
        let p = LLVMGetNamedMetadataName(nm, &mut len);
        let name = String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len));
        if name == "llvm.dbg.cu" {
            md.debug_info = true;
        } else if !READ_NAMED.contains(&name.as_ref()) && !MEANINGLESS.contains(&name.as_ref()) {
            md.unread_named.push(name.into_owned());
        }
        nm = LLVMGetNextNamedMetadata(nm);
    }
    super::half_constants::rewrite(ctx, m);
    md.memory_casts = super::memory_casts::memory_casts(m);

    // Modern: spir_kernel functions with attached !kernel_arg_* metadata.
    let mut f = LLVMGetFirstFunction(m);
    while !f.is_null() {
        if LLVMGetFunctionCallConv(f) == SPIR_KERNEL_CC && LLVMCountBasicBlocks(f) > 0 {
            let name = value_name(f);
            let idx = md.kernel_index(&name);
            let mut count = 0usize;
            let entries = LLVMGlobalCopyAllMetadata(f, &mut count);
            for i in 0..count as u32 {
                let kind = LLVMValueMetadataEntriesGetKind(entries, i);
                let node =
                    LLVMMetadataAsValue(ctx, LLVMValueMetadataEntriesGetMetadata(entries, i));
                for tag in KERNEL_TAGS {
                    if LLVMGetMDKindIDInContext(
                        ctx,
                        tag.as_ptr() as *const c_char,
                        tag.len() as u32,
                    ) == kind
                    {
                        let ops = operands(node);
                        apply_kernel_node(&mut md.kernels[idx], tag, &ops)
                            .map_err(|e| e.in_function(&name))?;
                    }
                }
            }
            if !entries.is_null() {
                LLVMDisposeValueMetadataEntries(entries);
            }
        }
        f = LLVMGetNextFunction(f);
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
unsafe fn spirv_ir_metadata(m: LLVMModuleRef, md: &mut RawMetadata) -> Result<()> {
    use spirv::ExecutionMode as M;
    let mut contraction_off = false;
    for node in named_nodes(m, "spirv.ExecutionMode") {
        let ops = operands(node);
        let Some(f) = ops.first().copied().and_then(|v| function_of(v)) else {
            return Err(Error::malformed(
                "a !spirv.ExecutionMode entry does not start with a function",
            ));
        };
        let name = value_name(f);
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
        if let Some(node) = named_nodes(m, "spirv.Source").first() {
            let ops = operands(*node);
            if let Some(v) = ops.get(1).and_then(|&o| int_of(o)) {
                let v = v as u32;
                md.ocl_version = Some((v / 100_000, (v % 100_000) / 1000));
            }
        }
    }
    for e in strings_of_nodes(&named_nodes(m, "spirv.SourceExtension")) {
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
unsafe fn param_memory(m: LLVMModuleRef) -> HashMap<String, Vec<ParamMemory>> {
    let kind = |name: &str| LLVMGetEnumAttributeKindForName(name.as_ptr().cast(), name.len());
    let (readonly, readnone, writeonly) = (kind("readonly"), kind("readnone"), kind("writeonly"));
    let mut out = HashMap::default();
    let mut f = LLVMGetFirstFunction(m);
    while !f.is_null() {
        let n = LLVMCountParams(f);
        let flags: Vec<ParamMemory> = (0..n)
            .map(|i| {
                // Attribute index 0 is the return value; parameters start at 1.
                let has = |k| !LLVMGetEnumAttributeAtIndex(f, i + 1, k).is_null();
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
            out.insert(value_name(f), flags);
        }
        f = LLVMGetNextFunction(f);
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
unsafe fn apply_kernel_node(k: &mut RawKernel, tag: &str, ops: &[LLVMValueRef]) -> Result<()> {
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
            let ty = LLVMTypeOf(hint);
            let (scalar_ty, len) = match LLVMGetTypeKind(ty) {
                LLVMTypeKind::LLVMVectorTypeKind => (LLVMGetElementType(ty), LLVMGetVectorSize(ty)),
                _ => (ty, 1),
            };
            let scalar = match LLVMGetTypeKind(scalar_ty) {
                LLVMTypeKind::LLVMIntegerTypeKind => {
                    HintScalar::Int(LLVMGetIntTypeWidth(scalar_ty))
                }
                LLVMTypeKind::LLVMHalfTypeKind => HintScalar::Float(16),
                LLVMTypeKind::LLVMFloatTypeKind => HintScalar::Float(32),
                LLVMTypeKind::LLVMDoubleTypeKind => HintScalar::Float(64),
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

unsafe fn named_nodes(m: LLVMModuleRef, name: &str) -> Vec<LLVMValueRef> {
    let c = CString::new(name).unwrap();
    let n = LLVMGetNamedMetadataNumOperands(m, c.as_ptr());
    let mut v = vec![ptr::null_mut(); n as usize];
    if n > 0 {
        LLVMGetNamedMetadataOperands(m, c.as_ptr(), v.as_mut_ptr());
    }
    v
}

unsafe fn operands(node: LLVMValueRef) -> Vec<LLVMValueRef> {
    if node.is_null() || LLVMIsAMDNode(node).is_null() {
        return Vec::new();
    }
    let n = LLVMGetMDNodeNumOperands(node);
    let mut v = vec![ptr::null_mut(); n as usize];
    if n > 0 {
        LLVMGetMDNodeOperands(node, v.as_mut_ptr());
    }
    v
}

unsafe fn md_string(v: LLVMValueRef) -> Option<String> {
    if v.is_null() || LLVMIsAMDString(v).is_null() {
        return None;
    }
    let mut len = 0u32;
    let p = LLVMGetMDString(v, &mut len);
    if p.is_null() {
        return None;
    }
    let bytes = std::slice::from_raw_parts(p as *const u8, len as usize);
    Some(String::from_utf8_lossy(bytes).into_owned())
}

unsafe fn int_of(v: LLVMValueRef) -> Option<u64> {
    if v.is_null() || LLVMIsAConstantInt(v).is_null() {
        return None;
    }
    Some(LLVMConstIntGetZExtValue(v))
}

unsafe fn function_of(v: LLVMValueRef) -> Option<LLVMValueRef> {
    if v.is_null() {
        return None;
    }
    if !LLVMIsAFunction(v).is_null() {
        return Some(v);
    }
    // LLVM 3.2 metadata may hold a bitcast of the function.
    if !LLVMIsAConstantExpr(v).is_null() && LLVMGetNumOperands(v) > 0 {
        return function_of(LLVMGetOperand(v, 0));
    }
    None
}

unsafe fn version(node: Option<LLVMValueRef>) -> Option<(u32, u32)> {
    let ops = operands(node?);
    Some((int_of(*ops.first()?)? as u32, int_of(*ops.get(1)?)? as u32))
}

unsafe fn strings_of_nodes(nodes: &[LLVMValueRef]) -> Vec<String> {
    nodes
        .iter()
        .flat_map(|&n| operands(n))
        .filter_map(|o| md_string(o))
        .collect()
}
