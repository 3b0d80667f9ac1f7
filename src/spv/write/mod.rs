//! Semantic graph -> SPIR-V words, through rspirv's `dr::Builder`.
//!
//! Capabilities are collected from what is emitted; the version is the smallest the module
//! needs (1.0 unless a construct asks for more, e.g. 1.3 for the non-uniform sub-group
//! instructions) and never above the target's ceiling: a construct that needs more is an error
//! naming it.

mod body;
mod builtins;
mod constants;
mod debug;
mod debug_types;
mod fast_math;
mod layout;
mod memory;
mod policy;
mod private_globals;
mod reflection;
mod types;

use crate::hash::{HashMap, HashSet};
use std::collections::BTreeSet;

use rspirv::binary::Assemble;
use rspirv::dr::{Builder, Operand};
use spirv::{Capability, Word};

use crate::diag::{Error, ErrorKind, Lost, Result};
use crate::ir::{self, Type};
use crate::options::Options;

pub(crate) struct Writer<'a> {
    m: &'a ir::Module,
    b: Builder,
    caps: BTreeSet<u32>,
    /// The ids of the types written so far, and the structs being written (types.rs,
    /// layout.rs).
    types: TypeIds,
    /// The ids of the constants written so far (constants.rs).
    constants: ConstantIds,
    global_ids: HashMap<ir::Handle<ir::Global>, Word>,
    /// The id calls use for each function.
    func_ids: HashMap<ir::Handle<ir::Function>, Word>,
    /// Entry-point ids of the kernels other functions call (their `func_ids` is the copy).
    entry_ids: HashMap<ir::Handle<ir::Function>, Word>,
    builtin_vars: HashMap<u32, Word>,
    /// Module-scope variables of the program and their storage classes (entry points list
    /// the Input ones, and every one from SPIR-V 1.4 on).
    global_vars: Vec<(Word, spirv::StorageClass)>,
    /// A version the options pin (`--spirv-version`), which decides the interface rule too.
    pinned: Option<(u8, u8)>,
    /// The OpenCL.std import (OpenCL targets), and GLSL.std.450's once a shader uses it.
    ext: Option<Word>,
    glsl: Option<Word>,
    /// How OpenCL.std `mad` is written (`--mad`).
    mad: crate::options::MadForm,
    policy: policy::Policy,
    /// Extensions declared so far.
    extensions: BTreeSet<&'static str>,
    /// The version ceiling, the target named in errors, and the least version the constructs
    /// emitted so far need.
    ceiling: (u8, u8),
    target: &'static str,
    needs: (u8, u8),
    /// Fill functions the module's `memset`s with run-time operands call, by (storage
    /// class, size type, volatility) (memory.rs).
    fill_functions: std::collections::BTreeMap<(u32, Word, bool), memory::FillFunction>,
    /// The function-scope copies of private-address-space globals in the function being
    /// written (private_globals.rs).
    private_vars: HashMap<ir::Handle<ir::Global>, Word>,
    /// Facts of the graph this module does not keep (`diag::Lost`).
    lost: Vec<Lost>,
    /// Debug information written so far (`None`: the module has none, or it is not wanted).
    debug: Option<debug::DebugWriter>,
    /// Integer arithmetic whose input promised no overflow (`nsw`, `nuw`), decorated
    /// NoSignedWrap / NoUnsignedWrap
    /// (`wrap_decorations`), where `forms_1_4`.
    wraps: Vec<(Word, ir::ArithFlags)>,
    /// The forms SPIR-V 1.4 added that keep facts of the input are written
    /// (`Options::keeps_1_4_forms`: an OpenCL target, 1.4 or later pinned): NoSignedWrap and
    /// NoUnsignedWrap, and the SignExtend / ZeroExtend image operands of integer texels.
    forms_1_4: bool,
    /// Relaxations of float arithmetic the module could not say (fast_math.rs), reported once.
    fast_math_dropped: ir::FastMath,
}

/// The ids of the types the writer has written (types.rs, and layout.rs for the laid-out
/// copies), and the structs it is in the middle of.
#[derive(Default)]
struct TypeIds {
    ids: HashMap<ir::Handle<Type>, Word>,
    /// The interface block types decorated `Block` (two buffers may share one type).
    block_ids: HashSet<Word>,
    /// Structs whose members are being written, innermost last.
    open_structs: Vec<ir::Handle<Type>>,
    /// Pointers forward-declared to a struct still open: (pointer id, struct, storage class).
    forward_pointers: Vec<(Word, ir::Handle<Type>, spirv::StorageClass)>,
    /// Explicitly laid-out copies of aggregate types in PhysicalStorageBuffer and
    /// PushConstant memory (layout.rs), and the structs among them being written.
    laid_ids: HashMap<ir::Handle<Type>, Word>,
    open_laid: Vec<ir::Handle<Type>>,
    forward_laid: Vec<(Word, ir::Handle<Type>, spirv::StorageClass)>,
}

/// The ids of the constants the writer has written (constants.rs).
#[derive(Default)]
struct ConstantIds {
    ids: HashMap<ir::Handle<ir::Constant>, Word>,
    /// Scalar constants by (type id, bit pattern): array lengths, scopes, splats and graph
    /// constants share them, so `[3 x i8]` is one OpTypeArray however its length was asked for.
    scalars: HashMap<(Word, u64), Word>,
}

/// Translate the graph into a SPIR-V binary.
pub fn write(m: &ir::Module, options: &Options) -> Result<Vec<u32>> {
    let (words, _) = assemble(m, options)?;
    super::validate::validate(&words, options.target)?;
    Ok(words)
}

/// The words [`write`] validates and returns, and the facts of the graph they do not keep: for
/// a caller that frees what it no longer needs (the graph) before validating, which is the
/// most memory the translation takes. Nothing must leave the library unvalidated.
pub(crate) fn assemble(m: &ir::Module, options: &Options) -> Result<(Vec<u32>, Vec<Lost>)> {
    let (maj, min) = options.version_ceiling();
    let (tmaj, tmin) = options.target.max_version();
    if (maj, min) > (tmaj, tmin) {
        return Err(Error::new(ErrorKind::VersionTooLow {
            construct: format!("--spirv-version {maj}.{min}"),
            needs: format!("{maj}.{min}"),
            target: options.target.name().into(),
            allowed: format!("{tmaj}.{tmin}"),
        }));
    }
    let policy = policy::Policy::of(options.target);
    let mut b = Builder::new();
    let ext = policy.opencl_std.then(|| b.ext_inst_import("OpenCL.std"));
    let mut w = Writer {
        m,
        b,
        caps: BTreeSet::new(),
        types: TypeIds::default(),
        constants: ConstantIds::default(),
        global_ids: HashMap::default(),
        func_ids: HashMap::default(),
        entry_ids: HashMap::default(),
        builtin_vars: HashMap::default(),
        global_vars: Vec::new(),
        pinned: options.spirv_version,
        ext,
        glsl: None,
        mad: options.mad,
        policy,
        extensions: BTreeSet::new(),
        ceiling: (maj, min),
        target: options.target.name(),
        needs: (1, 0),
        fill_functions: Default::default(),
        private_vars: HashMap::default(),
        lost: Vec::new(),
        debug: None,
        wraps: Vec::new(),
        forms_1_4: options.keeps_1_4_forms(),
        fast_math_dropped: ir::FastMath::default(),
    };
    for &c in policy.base_capabilities {
        w.cap(c);
    }
    let addressing = match m.addressing {
        _ if !policy.physical_addressing => {
            w.shader_storage_buffers()?;
            w.shader_addressing()?
        }
        ir::Addressing::Physical32 => spirv::AddressingModel::Physical32,
        ir::Addressing::Physical64 => {
            w.cap(Capability::Int64);
            spirv::AddressingModel::Physical64
        }
    };
    w.b.memory_model(addressing, policy.memory_model);
    w.source_info();
    w.debug_import(debug::debug_set(options.debug_info, options.target));
    private_globals::check(m)?;
    for (h, g) in m.globals.iter() {
        if g.space == ir::AddressSpace::Private {
            continue;
        }
        w.global(h)
            .map_err(|e| e.at_value(format!("global @{}", g.name)))?;
    }
    w.all_functions()?;
    w.fill_functions()?;
    w.debug_globals();
    // A module without kernels is a library: its functions are exported (or it is empty),
    // which SPIR-V allows only with the Linkage capability.
    if m.kernels.is_empty() {
        w.cap(Capability::Linkage);
    }
    if !w.preserved_float_widths().is_empty() {
        // OpenCL keeps infinities, NaNs and signed zeros; a Vulkan device may assume there
        // are none unless told (float controls, core in SPIR-V 1.4). Decided before any entry
        // point is written: the version decides what entry points list.
        w.cap(Capability::SignedZeroInfNanPreserve);
        if w.ceiling >= (1, 4) {
            w.need_version((1, 4), "SignedZeroInfNanPreserve")?;
        } else if w.extensions.insert("SPV_KHR_float_controls") {
            w.b.extension("SPV_KHR_float_controls");
        }
    }
    for k in &m.kernels {
        w.kernel(k)
            .map_err(|e| e.in_function(&m.functions[k.function].name))?;
    }
    let reflection_ids = w.reflection_ids()?;
    // A pinned version is honoured; otherwise the least the module needs.
    let (vmaj, vmin) = options.spirv_version.unwrap_or(w.needs);
    w.wrap_decorations();
    w.report_fast_math();
    w.debug_producer((vmaj, vmin));
    w.b.set_version(vmaj, vmin);
    for c in std::mem::take(&mut w.caps) {
        w.b.capability(Capability::from_u32(c).expect("capability"));
    }
    let mut module = w.b.module();
    // rspirv appends capabilities in call order; keep them sorted for stable output.
    module
        .capabilities
        .sort_by_key(|i| match i.operands.first() {
            Some(Operand::Capability(c)) => *c as u32,
            _ => 0,
        });
    // A SPIR-V string ends at its first NUL: a name or metadata string holding one would be
    // cut short and the instruction's word count would lie.
    if let Some(s) = module
        .all_inst_iter()
        .flat_map(|i| i.operands.iter())
        .find_map(|o| match o {
            Operand::LiteralString(s) if s.contains('\0') => Some(s),
            _ => None,
        })
    {
        return Err(Error::unsupported(format!(
            "the string {s:?} holds a NUL character, which a SPIR-V string cannot"
        )));
    }
    let mut words = module.assemble();
    // The header's generator word: the tool id Khronos registered (upper half; this tool
    // has none, so 0, as the specification asks of unregistered tools) and the tool's
    // version (lower half: the crate's minor and patch), not the rspirv builder's id.
    words[2] = GENERATOR_VERSION;
    reflection::append(&mut words, reflection_ids);
    Ok((words, w.lost))
}

impl Writer<'_> {
    /// Every function: ids for all first (bodies call any), then declarations before
    /// definitions, a kernel that another calls written twice (SPIR-V forbids an
    /// OpFunctionCall to an entry point): as its entry point and as a plain function.
    fn all_functions(&mut self) -> Result<()> {
        for (h, _) in self.m.functions.iter() {
            let id = self.b.id();
            self.func_ids.insert(h, id);
        }
        for h in called_kernels(self.m) {
            let id = self.b.id();
            self.entry_ids.insert(h, id);
        }
        // Declarations (functions defined in another module) must precede every definition.
        let m = self.m;
        let (declared, defined): (Vec<_>, Vec<_>) =
            m.functions.iter().partition(|(_, f)| f.body.is_none());
        for (h, f) in declared.into_iter().chain(defined) {
            match self.entry_ids.get(&h).copied() {
                Some(entry) => {
                    self.function(h, entry, false)
                        .map_err(|e| e.in_function(&f.name))?;
                    let callee = self.func_ids[&h];
                    self.function(h, callee, true)
                        .map_err(|e| e.in_function(&f.name))?;
                }
                None => {
                    let id = self.func_ids[&h];
                    self.function(h, id, false)
                        .map_err(|e| e.in_function(&f.name))?;
                }
            }
        }
        Ok(())
    }

    pub(crate) fn cap(&mut self, c: Capability) {
        self.caps.insert(c as u32);
    }

    /// Decorate `id`, unless the target policy drops the decoration (Kernel-only hints).
    pub(crate) fn decorate(
        &mut self,
        id: Word,
        d: spirv::Decoration,
        operands: impl IntoIterator<Item = Operand>,
    ) {
        if self.policy.keeps(d) {
            self.b.decorate(id, d, operands);
        }
    }

    /// The float widths whose infinities, NaNs and signed zeros entry points must keep
    /// (target policy `preserve_inf_nan`), in increasing order.
    fn preserved_float_widths(&self) -> Vec<u32> {
        if !self.policy.preserve_inf_nan {
            return Vec::new();
        }
        let widths: BTreeSet<u32> = self
            .m
            .types
            .iter()
            .filter_map(|(_, t)| match t {
                Type::Float { width } => Some(*width),
                _ => None,
            })
            .collect();
        widths.into_iter().collect()
    }

    /// The GLSL.std.450 import, made on first use.
    pub(crate) fn glsl_set(&mut self) -> Word {
        match self.glsl {
            Some(id) => id,
            None => {
                let id = self.b.ext_inst_import("GLSL.std.450");
                self.glsl = Some(id);
                id
            }
        }
    }

    /// A shader's addressing model: PhysicalStorageBuffer64 when the graph holds pointers to
    /// physical storage buffers (core from SPIR-V 1.5, below it the extension), else Logical.
    fn shader_addressing(&mut self) -> Result<spirv::AddressingModel> {
        let physical = self.m.types.iter().any(|(_, t)| {
            matches!(
                t,
                Type::Pointer {
                    space: ir::AddressSpace::PhysicalStorageBuffer,
                    ..
                }
            )
        });
        if !physical {
            return Ok(spirv::AddressingModel::Logical);
        }
        self.cap(Capability::PhysicalStorageBufferAddresses);
        if self.ceiling >= (1, 5) {
            self.need_version((1, 5), "physical storage buffer pointers")?;
        } else {
            self.extensions.insert("SPV_KHR_physical_storage_buffer");
            self.b.extension("SPV_KHR_physical_storage_buffer");
        }
        Ok(spirv::AddressingModel::PhysicalStorageBuffer64)
    }

    /// Storage buffers (core from SPIR-V 1.3, below it an extension) and the variable
    /// pointers the shader interface's required features say the graph uses.
    fn shader_storage_buffers(&mut self) -> Result<()> {
        let any = self.m.types.iter().any(|(_, t)| {
            matches!(
                t,
                Type::Pointer {
                    space: ir::AddressSpace::StorageBuffer,
                    ..
                }
            )
        });
        if !any {
            return Ok(());
        }
        self.core_or_extension((1, 3), "SPV_KHR_storage_buffer_storage_class")?;
        let wants = |w: &Self, f: &str| {
            w.m.shader
                .as_ref()
                .is_some_and(|s| s.required_features.iter().any(|x| x == f))
        };
        let cap = if wants(self, "variablePointers") {
            Capability::VariablePointers
        } else if wants(self, "variablePointersStorageBuffer") {
            Capability::VariablePointersStorageBuffer
        } else {
            return Ok(());
        };
        self.cap(cap);
        self.core_or_extension((1, 3), "SPV_KHR_variable_pointers")
    }

    /// What is core from SPIR-V `core` on: that version where the ceiling allows it, else
    /// extension `ext`.
    pub(crate) fn core_or_extension(&mut self, core: (u8, u8), ext: &'static str) -> Result<()> {
        if self.ceiling >= core {
            return self.need_version(core, ext);
        }
        self.extension(ext);
        Ok(())
    }

    /// Declare extension `ext` (once).
    pub(crate) fn extension(&mut self, ext: &'static str) {
        if self.extensions.insert(ext) {
            self.b.extension(ext);
        }
    }

    /// Decorate the integer arithmetic the input promised does not overflow, where the
    /// options keep the flags (`Options::keeps_1_4_forms`: an OpenCL target, SPIR-V 1.4 or
    /// later pinned). Drivers widen induction variables and address arithmetic with them (the
    /// Intel CPU runtime's code for docs/status.md's `dgemv` is about 9% faster). Not for
    /// Vulkan, whose lowering rewrites integer arithmetic.
    fn wrap_decorations(&mut self) {
        if !self.forms_1_4 {
            return;
        }
        for (id, flags) in std::mem::take(&mut self.wraps) {
            if flags.nsw {
                self.b.decorate(id, spirv::Decoration::NoSignedWrap, []);
            }
            if flags.nuw {
                self.b.decorate(id, spirv::Decoration::NoUnsignedWrap, []);
            }
        }
    }

    /// Record that `construct` needs SPIR-V `version`; an error if the ceiling is lower.
    pub(crate) fn need_version(&mut self, version: (u8, u8), construct: &str) -> Result<()> {
        if version > self.ceiling {
            return Err(Error::new(ErrorKind::VersionTooLow {
                construct: construct.to_string(),
                needs: format!("{}.{}", version.0, version.1),
                target: self.target.into(),
                allowed: format!("{}.{}", self.ceiling.0, self.ceiling.1),
            }));
        }
        self.needs = self.needs.max(version);
        Ok(())
    }

    fn source_info(&mut self) {
        let s = &self.m.source;
        let (maj, min) = s.ocl_version.unwrap_or((1, 2));
        self.b.source(
            spirv::SourceLanguage::OpenCL_C,
            maj * 100_000 + min * 1000,
            None,
            None::<String>,
        );
        for e in &s.used_extensions {
            self.b.source_extension(e.clone());
        }
        for f in &s.used_optional_core_features {
            self.b
                .source_extension(format!("opencl.used.optional.core.feature.{f}"));
        }
        for o in &s.compiler_options {
            self.b.string(format!("opencl.compiler.options.{o}"));
        }
        if let Some((a, b)) = s.spir_version {
            self.b.string(format!("opencl.spir.version.{a}.{b}"));
        }
    }

    fn kernel(&mut self, k: &ir::Kernel) -> Result<()> {
        let f = &self.m.functions[k.function];
        let id = self
            .entry_ids
            .get(&k.function)
            .copied()
            .unwrap_or(self.func_ids[&k.function]);
        // SPIR-V before 1.4 lists the Input and Output variables an entry point uses, 1.4 and
        // later every module-scope variable (listing one it does not use is allowed).
        let all = self.pinned.unwrap_or(self.needs) >= (1, 4);
        // Every module-scope variable is in `global_vars` (`module_variable`), builtin
        // variables (Input) among them.
        let mut iface: Vec<Word> = Vec::new();
        let used = match self.policy.entry_interface {
            policy::EntryInterface::AllGlobals => None,
            policy::EntryInterface::UsedGlobals => Some(used_globals(self.m, k.function)),
        };
        iface.extend(
            self.global_vars
                .iter()
                .filter(|(_, sc)| all || *sc == spirv::StorageClass::Input)
                .filter(|(gid, sc)| {
                    *sc == spirv::StorageClass::Input
                        || used
                            .as_ref()
                            .is_none_or(|u| u.iter().any(|g| self.global_ids.get(g) == Some(gid)))
                })
                .map(|(id, _)| *id),
        );
        iface.sort();
        self.b
            .entry_point(self.policy.execution_model, id, f.name.clone(), iface);
        let by_id = self.m.shader.as_ref().and_then(|s| {
            s.workgroup_size
                .filter(|_| s.workgroup_size_by_id && k.reqd_work_group_size.is_none())
        });
        if let Some(s) = k.reqd_work_group_size {
            self.b
                .execution_mode(id, spirv::ExecutionMode::LocalSize, s);
        } else if let Some(c) = by_id {
            // The work-group size specialization constants, named by id.
            let ir::ConstantKind::Composite(parts) = &self.m.constants[c].kind else {
                return Err(Error::internal(
                    "a work-group size that is not three constants",
                ));
            };
            let ids = parts
                .iter()
                .map(|&p| self.constant(p))
                .collect::<Result<Vec<_>>>()?;
            self.need_version(
                (1, 2),
                "LocalSizeId (a work-group size by specialization constants)",
            )?;
            self.b
                .execution_mode_id(id, spirv::ExecutionMode::LocalSizeId, ids);
        } else if !self.policy.kernel_modes {
            // A compute shader always states a size: the work-group size specialization
            // constants (decorated BuiltIn WorkgroupSize) override this one.
            self.b
                .execution_mode(id, spirv::ExecutionMode::LocalSize, [1, 1, 1]);
        }
        for w in self.preserved_float_widths() {
            self.b
                .execution_mode(id, spirv::ExecutionMode::SignedZeroInfNanPreserve, [w]);
        }
        if !self.policy.kernel_modes {
            let hints = [
                (k.work_group_size_hint.is_some(), "work_group_size_hint"),
                (k.vec_type_hint.is_some(), "vec_type_hint"),
                (k.reqd_sub_group_size.is_some(), "intel_reqd_sub_group_size"),
            ];
            for (_, hint) in hints.iter().filter(|(on, _)| *on) {
                self.lost.push(Lost::at(
                    format!("kernel '{}'", f.name),
                    format!(
                        "{hint} is a Kernel-only execution mode: not written for {}",
                        self.target
                    ),
                ));
            }
            return self.kernel_strings(k);
        }
        if let Some(s) = k.work_group_size_hint {
            self.b
                .execution_mode(id, spirv::ExecutionMode::LocalSizeHint, s);
        }
        if let Some(h) = &k.vec_type_hint {
            let code = h.spirv_code(self.m).ok_or_else(|| {
                Error::unsupported("vec_type_hint of a non-scalar element").in_function(&f.name)
            })?;
            self.b
                .execution_mode(id, spirv::ExecutionMode::VecTypeHint, [code]);
            if !h.signed && matches!(self.m.types[h.elem], Type::Int { .. }) {
                self.lost.push(Lost::at(
                    format!("kernel '{}'", f.name),
                    "vec_type_hint of an unsigned type: SPIR-V's VecTypeHint cannot say the \
                     sign, so it reads back signed",
                ));
            }
        }
        if let Some(n) = k.reqd_sub_group_size {
            self.need_version((1, 1), "SubgroupSize (intel_reqd_sub_group_size)")?;
            self.cap(Capability::SubgroupDispatch);
            self.b
                .execution_mode(id, spirv::ExecutionMode::SubgroupSize, [n]);
        }
        for (mode, lits) in &k.other_modes {
            let (version, cap) = crate::mappings::kept_execution_mode(*mode).ok_or_else(|| {
                Error::internal(format!("execution mode {mode:?} kept in the graph"))
            })?;
            self.need_version(version, &format!("execution mode {mode:?}"))?;
            if let Some(c) = cap {
                self.cap(c);
            }
            self.b.execution_mode(id, *mode, lits.clone());
        }
        if !self.m.source.fp_contract {
            self.b
                .execution_mode(id, spirv::ExecutionMode::ContractionOff, []);
        }
        self.kernel_strings(k)
    }

    /// The argument info OpenCL runtimes read back, as the Khronos translator spells it.
    fn kernel_strings(&mut self, k: &ir::Kernel) -> Result<()> {
        let f = &self.m.functions[k.function];
        let join = |v: Vec<String>| v.iter().map(|s| format!("{s},")).collect::<String>();
        let types = join(k.args.iter().map(|a| a.type_name.clone()).collect());
        self.b
            .string(format!("kernel_arg_type.{}.{}", f.name, types));
        let quals = join(k.args.iter().map(|a| a.qualifiers.spelling()).collect());
        self.b
            .string(format!("kernel_arg_type_qual.{}.{}", f.name, quals));
        if k.args.iter().any(|a| {
            a.base_type_name
                .as_deref()
                .is_some_and(|b| b != a.type_name)
        }) {
            let bases = join(
                k.args
                    .iter()
                    .map(|a| a.base_type_name.clone().unwrap_or_default())
                    .collect(),
            );
            self.b
                .string(format!("kernel_arg_base_type.{}.{}", f.name, bases));
        }
        Ok(())
    }
}

/// The generator word of every module written (see `write`).
const GENERATOR_VERSION: u32 = {
    let minor = parse_u32(env!("CARGO_PKG_VERSION_MINOR"));
    let patch = parse_u32(env!("CARGO_PKG_VERSION_PATCH"));
    ((minor & 0xff) << 8) | (patch & 0xff)
};

/// A decimal number at compile time (the crate's version fields).
const fn parse_u32(s: &str) -> u32 {
    let b = s.as_bytes();
    let mut i = 0;
    let mut v = 0;
    while i < b.len() {
        v = v * 10 + (b[i] - b'0') as u32;
        i += 1;
    }
    v
}

/// The globals function `f` names (directly or inside constant expressions).
fn used_globals(m: &ir::Module, f: ir::Handle<ir::Function>) -> BTreeSet<ir::Handle<ir::Global>> {
    fn visit(
        m: &ir::Module,
        c: ir::Handle<ir::Constant>,
        out: &mut BTreeSet<ir::Handle<ir::Global>>,
    ) {
        match &m.constants[c].kind {
            ir::ConstantKind::GlobalAddress(g) => {
                out.insert(*g);
            }
            ir::ConstantKind::Composite(cs) => cs.iter().for_each(|&c| visit(m, c, out)),
            ir::ConstantKind::Cast(_, c) => visit(m, *c, out),
            ir::ConstantKind::Gep { base, .. } => visit(m, *base, out),
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    let Some(body) = &m.functions[f].body else {
        return out;
    };
    for b in &body.blocks {
        for &ih in &b.insts {
            ir::operands::for_each_operand(&body.insts[ih].op, |v| {
                if let ir::Value::Const(c) = v {
                    visit(m, c, &mut out);
                }
            });
        }
        ir::operands::terminator_operands(&b.terminator, |v| {
            if let ir::Value::Const(c) = v {
                visit(m, c, &mut out);
            }
        });
    }
    out
}

/// Kernels that some function calls, in handle order.
fn called_kernels(m: &ir::Module) -> Vec<ir::Handle<ir::Function>> {
    let kernels: BTreeSet<_> = m.kernels.iter().map(|k| k.function).collect();
    let mut called = BTreeSet::new();
    for (_, f) in m.functions.iter() {
        for inst in f.body.iter().flat_map(|b| b.insts.iter()) {
            if let ir::Op::Call { callee, .. } = &inst.1.op {
                if kernels.contains(callee) {
                    called.insert(*callee);
                }
            }
        }
    }
    called.into_iter().collect()
}
