//! The Vulkan target: a lowering of the graph to *shader form* (`lower`), which the same
//! SPIR-V writer then spells under the Vulkan target policy (`spv::write::policy`).
//!
//! ```text
//! ir::Module (OpenCL) ──vulkan::lower──▶ ir::Module (shader form) ──spv::write──▶ SPIR-V
//! ```
//!
//! What shader form means, step by step (each its own file):
//!
//! * `kernel`: each kernel becomes an entry function without parameters. Its arguments
//!   arrive as clspv's conventions say (`ir::interface`): `__global`/`__constant` pointers as
//!   64-bit device addresses and values in a push-constant block, `__local` pointers as
//!   Workgroup arrays sized by specialization constants.
//! * `addressed`: a kernel whose private pointers do what logical pointers cannot (casts to
//!   other types, steps past their element, selects, pointers in memory, byte copies) keeps
//!   its private memory as one array of words, a private pointer being a byte offset.
//! * `body`: every call is inlined (Vulkan's logical pointers cannot be passed to functions
//!   the way OpenCL passes them), phis become Function variables, and every instruction is
//!   copied with its pointer types moved to Vulkan's storage classes: global and constant
//!   memory to PhysicalStorageBuffer, program-scope data to Private.
//! * `builtins`: OpenCL builtins without a core Vulkan instruction become GLSL.std.450
//!   (mappings/vulkan_glsl.toml) or expansions (work-item functions with the global offset,
//!   saturating and rounding conversions, Vulkan's memory semantics).
//! * `images`: images and samplers are descriptors; sampling normalizes OpenCL's
//!   unnormalized coordinates, but for sampler constants that only read 1D and 2D images
//!   clamped (the host makes those unnormalized).
//! * `lanes`: vectors of 8 and 16 lanes are computed lane by lane (the writer spells them
//!   as arrays).
//! * structuring (the room `crate::structurize`, below this one): every function gets
//!   structured control flow.
//! * `reflection`: the kernel interface as JSON.
//!
//! The input graph is never changed: the lowering builds a new module.

mod addressed;
mod body;
mod buffers;
mod builtins;
mod bytes;
mod conversions;
mod emit;
mod exit_merge;
mod forwarding;
mod generic;
mod gep;
mod groups;
mod images;
mod kernel;
mod known_bits;
mod lanes;
mod library;
mod memory;
mod primitives;
mod printf;
mod program_scope;
pub mod reflection;
mod state;
mod survey;
mod types;

use crate::diag::{Error, Lost, Result};
use crate::ir;
use crate::options::{Options, TargetEnv, VulkanPointers};

/// Lower an OpenCL graph to the shader form of `options.target` (a Vulkan target).
pub fn lower(m: &ir::Module, options: &Options) -> Result<ir::Module> {
    if m.kernels.is_empty() {
        return Err(Error::unsupported(
            "a module without kernels (a library) has no Vulkan form: entry points are kernels",
        ));
    }
    // Generic pointers given the spaces the program determines (a copy of the module).
    let tagging = options.vulkan_pointers == VulkanPointers::Physical;
    let specialized = generic::specialize(m, tagging)?;
    let m = specialized.as_ref().unwrap_or(m);
    let mut l = types::Lowerer::new(m, options.vulkan_pointers);
    // Debug information is the source's: the shader's instructions keep their locations
    // (calls inlined at a location add locations inlined there).
    l.out.debug = m.debug.clone();
    l.plan_program_scope()?;
    let mut lost = Vec::new();
    l.shared = plan_shared(m, options, &mut lost);
    let mut shader = ir::interface::ShaderInterface {
        workgroup_size_spec_ids: [0, 1, 2],
        ..Default::default()
    };
    l.printf_buffer_size = options
        .printf_buffer_size
        .unwrap_or(crate::options::DEFAULT_PRINTF_BUFFER_SIZE);
    let mut entries = Vec::new();
    for k in &m.kernels {
        let name = &m.functions[k.function].name;
        let printed_before = l.printf.as_ref().map_or(0, |p| p.formats.len());
        l.fixed_workgroup = k
            .reqd_work_group_size
            .filter(|&size| runs_with(l.shared.workgroup, size));
        let mut iface = lower_kernel(&mut l, k).map_err(|e| e.in_function(name))?;
        l.fixed_workgroup = None;
        iface.may_use_printf = l.printf.as_ref().map_or(0, |p| p.formats.len()) > printed_before;
        entries.push((k.function, iface.entry));
        shader.kernels.push(iface);
    }
    shader.work_dim_spec_id = l.work_dim_spec;
    shader.global_offset = kernel::global_offset_range(&mut l);
    if l.shared.workgroup != state::WorkgroupPlan::AllFixed {
        shader.workgroup_size = Some(l.workgroup_spec_constants());
    }
    shader.workgroup_size_by_id = l.shared.workgroup == state::WorkgroupPlan::ById;
    shader.literal_samplers = std::mem::take(&mut l.literal_samplers);
    // Descriptor set 1 holds what the module's kernels share: the literal samplers, then
    // the printf buffer.
    shader.printf = l.printf.take().map(|p| ir::interface::PrintfInterface {
        binding: ir::interface::Binding {
            descriptor_set: 1,
            binding: shader.literal_samplers.len() as u32,
            global: p.global,
        },
        buffer_size: l.printf_buffer_size,
        formats: p.formats,
    });
    // Then the program-scope variables' buffer (under `descriptors`).
    shader.program_scope = l.program_scope.take().map(|p| {
        let place =
            match p.buffer {
                Some(global) => {
                    ir::interface::ProgramScopePlace::StorageBuffer(ir::interface::Binding {
                        descriptor_set: 1,
                        binding: (shader.literal_samplers.len() + shader.printf.is_some() as usize)
                            as u32,
                        global,
                    })
                }
                None => ir::interface::ProgramScopePlace::PushConstant(
                    ir::interface::PushConstantRange { offset: 0, size: 8 },
                ),
            };
        ir::interface::ProgramScopeInterface {
            place,
            data: p.data,
        }
    });
    // A global variable's description names the shader's copy of its global, where the
    // shader keeps one (`__local` arrays, `__constant` tables); otherwise none.
    let held: Vec<_> = (l.out.debug.globals.iter())
        .map(|d| d.global.and_then(|g| l.shader_global(g)))
        .collect();
    for (d, h) in l.out.debug.globals.iter_mut().zip(held) {
        d.global = h;
    }
    let mut out = l.finish();
    out.lost = m.lost.clone();
    out.lost.extend(lost);
    entry_subprograms(&mut out.debug, &entries);
    for k in &shader.kernels {
        let name = out.functions[k.entry].name.clone();
        if let Some(mut body) = out.functions[k.entry].body.take() {
            let r = lanes::split(&mut out, &mut body)
                .and_then(|()| crate::structurize::structurize(&mut out, &mut body));
            ir::cfg::prune_debug(&mut body);
            out.functions[k.entry].body = Some(body);
            r.map_err(|e| e.in_function(&name))?;
        }
    }
    shader.required_features = required_features(&out);
    if shader.workgroup_size_by_id {
        shader.required_features.push("maintenance4".into());
        shader.required_features.sort();
    }
    shader.subgroup_operations = subgroup_operations(&out);
    out.shader = Some(shader);
    if let Some(e) = crate::verify::verify(&out).first() {
        return Err(Error::internal(format!(
            "the Vulkan lowering made an invalid graph: {e}"
        )));
    }
    Ok(out)
}

/// What the module's kernels share (`state::Shared`): whether the global offset heads
/// their push constants, the push-constant limit, and how work-group sizes are said. Where a
/// kernel's `reqd_work_group_size` can hold only by the host's specialization constants, a
/// fact not kept is added to `lost`.
fn plan_shared(m: &ir::Module, options: &Options, lost: &mut Vec<Lost>) -> state::Shared {
    use state::WorkgroupPlan;
    let global_offset = m.kernels.iter().any(|k| kernel::reads_offset(m, k));
    let mut fixed: Vec<[u32; 3]> = Vec::new();
    for k in &m.kernels {
        if let Some(s) = k.reqd_work_group_size.filter(|s| !fixed.contains(s)) {
            fixed.push(s);
        }
    }
    let workgroup = if m.kernels.iter().all(|k| k.reqd_work_group_size.is_some()) {
        WorkgroupPlan::AllFixed
    } else if fixed.len() <= 1 {
        WorkgroupPlan::Builtin {
            defaults: fixed.first().copied().unwrap_or([1, 1, 1]),
        }
    } else if options.target == TargetEnv::Vulkan13 {
        WorkgroupPlan::ById
    } else {
        // The specialization constants decorated WorkgroupSize override every entry
        // point's LocalSize: one size can be their default.
        let defaults = fixed[0];
        for k in &m.kernels {
            if let Some(s) = k.reqd_work_group_size.filter(|&s| s != defaults) {
                lost.push(Lost::at(
                    format!("kernel '{}'", m.functions[k.function].name),
                    format!(
                        "reqd_work_group_size({}, {}, {}) holds only where the host sets the \
                         work-group size specialization constants to it (as clvk does): the \
                         module's kernels fix different sizes and others none, and before \
                         Vulkan 1.3 one WorkgroupSize serves them all (--target vulkan1.3 \
                         gives each its own)",
                        s[0], s[1], s[2]
                    ),
                ));
            }
        }
        WorkgroupPlan::Builtin { defaults }
    };
    state::Shared {
        global_offset,
        push_constant_limit: options
            .max_push_constants
            .unwrap_or(crate::options::DEFAULT_PUSH_CONSTANTS)
            .into(),
        workgroup,
    }
}

/// Whether an entry point whose kernel fixes work-group size `size` runs with it, whatever
/// the host sets, under `plan`.
fn runs_with(plan: state::WorkgroupPlan, size: [u32; 3]) -> bool {
    match plan {
        state::WorkgroupPlan::AllFixed | state::WorkgroupPlan::ById => true,
        state::WorkgroupPlan::Builtin { defaults } => defaults == size,
    }
}

/// Each kernel's subprogram describes its entry point; every other function was inlined,
/// and its subprogram describes no function of the shader.
fn entry_subprograms(
    d: &mut ir::DebugInfo,
    entries: &[(ir::Handle<ir::Function>, ir::Handle<ir::Function>)],
) {
    for (_, s) in d.scopes.iter_mut() {
        if let ir::debug::ScopeKind::Subprogram(sp) = &mut s.kind {
            sp.function = sp
                .function
                .and_then(|f| entries.iter().find(|(k, _)| *k == f).map(|(_, e)| *e));
        }
    }
}

/// Lower one kernel with logical memory, and where that refuses a construct, again with its
/// private memory addressed, then with its local memory addressed too (`addressed`): slower,
/// but it says what logical pointers cannot. The last attempt's error is the one reported.
fn lower_kernel(l: &mut types::Lowerer, k: &ir::Kernel) -> Result<ir::interface::KernelInterface> {
    let mut r = Err(crate::diag::Error::internal("no attempt"));
    for (private, local) in [(false, false), (true, false), (true, true)] {
        let cp = l.checkpoint();
        l.private_addressed = private;
        l.local_addressed = local;
        r = kernel::lower_kernel(l, k);
        l.private_addressed = false;
        l.local_addressed = false;
        match &r {
            Err(e) if matches!(e.kind, crate::diag::ErrorKind::Unsupported(_)) => l.rollback(cp),
            _ => break,
        }
    }
    r
}

/// The subgroup operations (Vulkan's VkSubgroupFeatureFlagBits, by name) the module's
/// sub-group instructions and builtins need.
fn subgroup_operations(m: &ir::Module) -> Vec<String> {
    use ir::builtin::{BuiltIn, GroupOperation as GO};
    use ir::{Builtin, Op};
    let mut ops = std::collections::BTreeSet::new();
    for (_, f) in m.functions.iter() {
        let Some(body) = &f.body else { continue };
        for (_, inst) in body.insts.iter() {
            let Op::Builtin { builtin, .. } = &inst.op else {
                continue;
            };
            let flag = match builtin {
                Builtin::WorkItem(
                    BuiltIn::SubgroupSize
                    | BuiltIn::SubgroupLocalInvocationId
                    | BuiltIn::NumSubgroups
                    | BuiltIn::SubgroupId,
                ) => "basic",
                Builtin::Group {
                    scope: ir::builtin::Scope::Subgroup,
                    op,
                    operation,
                } => match crate::mappings::vulkan_subgroup(*op) {
                    _ if *operation == Some(GO::ClusteredReduce) => "clustered",
                    Some((_, flag)) => flag,
                    None => continue,
                },
                _ => continue,
            };
            ops.insert(flag);
        }
    }
    ops.into_iter().map(String::from).collect()
}

/// The Vulkan device features a shader-form module needs, by Vulkan's names.
fn required_features(m: &ir::Module) -> Vec<String> {
    use ir::Type;
    let mut f = std::collections::BTreeSet::new();
    for (_, t) in m.types.iter() {
        match t {
            Type::Int { width: 64 } => {
                f.insert("shaderInt64");
            }
            Type::Int { width: 16 } => {
                f.insert("shaderInt16");
                f.insert("storageBuffer16BitAccess");
                f.insert("storagePushConstant16");
            }
            Type::Int { width: 8 } => {
                f.insert("shaderInt8");
                f.insert("storageBuffer8BitAccess");
                f.insert("storagePushConstant8");
            }
            Type::Float { width: 16 } => {
                f.insert("shaderFloat16");
                f.insert("storageBuffer16BitAccess");
                f.insert("storagePushConstant16");
            }
            Type::Float { width: 64 } => {
                f.insert("shaderFloat64");
            }
            Type::Pointer {
                space: ir::AddressSpace::PhysicalStorageBuffer,
                ..
            } => {
                f.insert("bufferDeviceAddress");
                f.insert("scalarBlockLayout");
            }
            Type::Pointer {
                space: ir::AddressSpace::StorageBuffer,
                ..
            } => {
                f.insert("scalarBlockLayout");
            }
            // A kernel's argument buffer as a uniform buffer, in OpenCL C's layout.
            Type::Pointer {
                space: ir::AddressSpace::Uniform,
                pointee,
            } => {
                f.insert("scalarBlockLayout");
                if m.holds_width(*pointee, 8) {
                    f.insert("uniformAndStorageBuffer8BitAccess");
                }
                if m.holds_width(*pointee, 16) {
                    f.insert("uniformAndStorageBuffer16BitAccess");
                }
            }
            // OpenCL's images carry their format at run time.
            Type::ShaderImage {
                storage: true,
                image,
                ..
            } => {
                f.insert("shaderStorageImageWriteWithoutFormat");
                if image.access == Some(ir::Access::ReadWrite) {
                    f.insert("shaderStorageImageReadWithoutFormat");
                }
            }
            _ => {}
        }
    }
    f.extend(variable_pointers(m));
    f.into_iter().map(String::from).collect()
}

/// Drop the features of `shader`'s reflection whose capability the written module does not
/// declare (`declared`): the graph's type table keeps types no instruction uses (a float
/// printf argument's promotion to double, written as float), which the writer leaves out.
pub fn keep_declared_features(shader: &mut ir::Module, declared: &[spirv::Capability]) {
    let Some(s) = shader.shader.as_mut() else {
        return;
    };
    s.required_features.retain(|f| {
        crate::mappings::vulkan_feature_capability(f).is_none_or(|cap| declared.contains(&cap))
    });
}

/// The variable-pointers features storage-buffer pointers need: `variablePointers` where a
/// variable holds one, `variablePointersStorageBuffer` where one is selected, null, or
/// stepped over its array (OpPtrAccessChain).
fn variable_pointers(m: &ir::Module) -> Option<&'static str> {
    use ir::{ConstantKind, Op, Type, Value};
    let is_buffer_pointer = |t: ir::Handle<Type>| {
        matches!(
            m.types[t],
            Type::Pointer {
                space: ir::AddressSpace::StorageBuffer,
                ..
            }
        )
    };
    let is_zero = |v: &Value| match v {
        Value::Const(c) => matches!(
            m.constants[*c].kind,
            ConstantKind::Int(0) | ConstantKind::Null
        ),
        _ => false,
    };
    let mut some = m
        .constants
        .iter()
        .any(|(_, c)| c.kind == ConstantKind::Null && is_buffer_pointer(c.ty));
    for (_, f) in m.functions.iter() {
        let Some(body) = &f.body else { continue };
        for (_, inst) in body.insts.iter() {
            match &inst.op {
                Op::Alloca { allocated, .. } if is_buffer_pointer(*allocated) => {
                    return Some("variablePointers")
                }
                Op::Select { .. } if is_buffer_pointer(inst.ty) => some = true,
                // Only buffer pointers are compared and subtracted as pointers
                // (`buffers::order`): device addresses are numbers.
                Op::Builtin {
                    builtin:
                        ir::Builtin::Primitive(
                            ir::Primitive::PtrEqual
                            | ir::Primitive::PtrNotEqual
                            | ir::Primitive::PtrDiff,
                        ),
                    ..
                } => some = true,
                Op::Gep { indices, .. }
                    if is_buffer_pointer(inst.ty) && !indices.first().is_some_and(is_zero) =>
                {
                    some = true
                }
                _ => {}
            }
        }
    }
    some.then_some("variablePointersStorageBuffer")
}
