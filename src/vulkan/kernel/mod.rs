//! One kernel's entry point: its arguments laid out as clspv does (`ir::interface`), an entry
//! function without parameters that reads them, then the kernel's body inlined after.

use crate::diag::{Error, Result};
use crate::ir::builtin::BuiltIn;
use crate::ir::interface::{
    ArgBufferRange, ArgInterface, ArgKind, KernelInterface, PushConstantRange,
};
use crate::ir::{self, AddressSpace, Constant, ConstantKind, Handle, Op, Type, Value};

use super::body::seam::Families;
use super::body::{FnBuilder, KernelCtx};
use super::state::WorkgroupPlan;
use super::types::Lowerer;
use crate::options::VulkanPointers;

mod args;
use args::{argument, ArgState};

/// The families the body's dispatcher reaches through its seam (`body/seam.rs`).
static FAMILIES: Families = Families {
    builtin: super::builtins::lower,
    string_of: super::printf::string_of,
    printf: |b, args, ret| b.printf(args, ret),
    divide: |b, x, y, t| super::library::div_sqrt::div(&mut super::emit::E { b }, x, y, t),
};

/// How one parameter's value is made in the entry block.
enum Source {
    /// Member `n` of the push-constant block, converted to a device address.
    Pointer(u32),
    /// The first element of storage buffer `g`'s runtime array.
    Buffer(Handle<ir::Global>),
    /// The image or sampler held by `UniformConstant` global `g`.
    Handle(Handle<ir::Global>),
    /// Member `n` of the push-constant block, by value; `byval`: the kernel takes a pointer
    /// to a private copy.
    Pod { member: u32, byval: bool },
    /// Member `n` of the argument buffer, as `Pod`.
    PodBuffer { member: u32, byval: bool },
    /// Member `n` of the argument buffer, converted to a device address.
    PointerBuffer(u32),
    /// The start of Workgroup array `g`.
    Workgroup(Handle<ir::Global>),
    /// The byte offset of `__local` argument `n` in the kernel's addressed local memory
    /// (`local_region`).
    LocalRegion(usize),
}

pub(super) fn lower_kernel(l: &mut Lowerer, k: &ir::Kernel) -> Result<KernelInterface> {
    let src = l.src;
    let f = &src.functions[k.function];
    let mut args = Vec::new();
    let mut sources = Vec::new();
    // Values that would pass the push constants' limit all go to an argument buffer
    // (binding 0), laid out the same way; where the device addresses alone still pass it,
    // they go there too, and the buffer is a uniform buffer (clspv's `pod-ubo` form: no
    // reflection kind says "address in a storage buffer").
    let limit = l.shared.push_constant_limit;
    let pods_in_buffer = push_constant_bytes(l, f, false)? > limit;
    let pointers_in_buffer = pods_in_buffer && push_constant_bytes(l, f, true)? > limit;
    let mut st = ArgState {
        push: Block::default(),
        pods: Block::default(),
        pods_in_buffer,
        pointers_in_buffer,
        bindings: u32::from(pods_in_buffer),
        local_args: Vec::new(),
    };
    // What the module's kernels share heads every kernel's push constants, at the same
    // offsets in each: the program-scope variables' buffer address, then the global offset.
    let head = push_head(l, &mut st.push);
    for (i, p) in f.params.iter().enumerate() {
        let info = k
            .args
            .get(i)
            .cloned()
            .unwrap_or_else(|| ir::ArgInfo::from_param(src, p.ty, p.name.clone()));
        let (kind, source) = argument(l, k, i, &mut st)?;
        args.push(ArgInterface {
            ordinal: i as u32,
            kind,
            info,
        });
        sources.push(source);
    }
    let ArgState {
        push,
        pods,
        local_args,
        ..
    } = st;
    let push_constants = (!push.members.is_empty()).then(|| {
        push.global(
            l,
            format!("{}.push_constants", f.name),
            AddressSpace::PushConstant,
        )
    });
    let push_constant_size = push_constants
        .map(|g| l.out.size_of(l.out.globals[g].ty) as u32)
        .unwrap_or(0);
    if u64::from(push_constant_size) > limit {
        return Err(Error::unsupported(format!(
            "{push_constant_size} bytes of push constants, over the {limit} the device has, \
             even with the values and buffer addresses in an argument buffer (its images' \
             and samplers' words alone do not fit; name a larger limit with \
             --max-push-constants)",
        )));
    }
    let space = if pointers_in_buffer {
        AddressSpace::Uniform
    } else {
        AddressSpace::StorageBuffer
    };
    let pod_global = pods_in_buffer.then(|| pods.global(l, format!("{}.pod_args", f.name), space));
    if let Some(global) = pod_global {
        buffer_args(&mut args, &sources, global, pointers_in_buffer);
    }
    let kctx = KernelCtx {
        push_constants,
        global_offset_member: head.global_offset,
        program_scope_member: head.program_scope,
        families: &FAMILIES,
    };
    let mut b = FnBuilder::new(l, kctx);
    let local_offsets = if b.l.local_addressed {
        b.local_region(&local_args, k.function)?
    } else {
        Vec::new()
    };
    let mut values = entry_values(&mut b, f, &sources, &local_offsets, pod_global)?;
    restrict_holders(&mut b, f, &sources, &mut args, &mut values)?;
    b.inline(k.function, values)?;
    b.finish_arena();
    b.finish_slot_indices();
    let body = b.body;
    let void = l.out.void_type();
    let entry = l.out.functions.append(ir::Function {
        name: f.name.clone(),
        ret: void,
        params: Vec::new(),
        is_kernel: true,
        linkage: ir::Linkage::Export,
        body: Some(body),
    });
    l.out.kernels.push(ir::Kernel {
        function: entry,
        args: k.args.clone(),
        reqd_work_group_size: k.reqd_work_group_size,
        work_group_size_hint: k.work_group_size_hint,
        vec_type_hint: k.vec_type_hint.clone(),
        reqd_sub_group_size: k.reqd_sub_group_size,
        other_modes: Vec::new(),
    });
    Ok(KernelInterface {
        name: f.name.clone(),
        entry,
        args,
        push_constants,
        push_constant_size,
        required_workgroup_size: k.reqd_work_group_size,
        may_use_printf: false,
    })
}

/// The arguments that went to the argument buffer (binding 0), as its ranges rather than
/// push-constant ones: values as PodStorageBuffer, or where the buffer is a uniform buffer
/// (`uniform`: the device addresses are there too) PodUniform and PointerUniform.
fn buffer_args(
    args: &mut [ArgInterface],
    sources: &[Source],
    global: Handle<ir::Global>,
    uniform: bool,
) {
    let range = |offset, size| ArgBufferRange {
        descriptor_set: 0,
        binding: 0,
        offset,
        size,
        global,
    };
    for (a, s) in args.iter_mut().zip(sources) {
        a.kind = match (s, a.kind.clone()) {
            (Source::PodBuffer { .. }, ArgKind::PodPushConstant { offset, size }) if uniform => {
                ArgKind::PodUniform(range(offset, size))
            }
            (Source::PodBuffer { .. }, ArgKind::PodPushConstant { offset, size }) => {
                ArgKind::PodStorageBuffer(range(offset, size))
            }
            (Source::PointerBuffer(_), ArgKind::PointerPushConstant { offset, size, .. }) => {
                ArgKind::PointerUniform {
                    range: range(offset, size),
                    restrict_holder: None,
                }
            }
            (_, kind) => kind,
        };
    }
}

/// Under physical pointers, each `restrict` buffer's address goes through a Function
/// variable of its own, which the writer decorates RestrictPointer (the only place SPIR-V
/// says Restrict of an address), and the kernel uses the address it loads back.
fn restrict_holders(
    b: &mut FnBuilder,
    f: &ir::Function,
    sources: &[Source],
    args: &mut [ArgInterface],
    values: &mut [Value],
) -> Result<()> {
    for (i, s) in sources.iter().enumerate() {
        let (ArgKind::PointerPushConstant {
            restrict_holder, ..
        }
        | ArgKind::PointerUniform {
            restrict_holder, ..
        }) = &mut args[i].kind
        else {
            continue;
        };
        if !matches!(s, Source::Pointer(_) | Source::PointerBuffer(_)) || !f.params[i].attrs.noalias
        {
            continue;
        }
        let t = b.ty_of(values[i]);
        let slot = b.alloca(t);
        b.store(slot, values[i], None, false)?;
        values[i] = b.load(slot, None, false)?;
        if let Value::Inst(h) = slot {
            *restrict_holder = Some(h);
        }
    }
    Ok(())
}

/// The kernel's parameters as the entry block makes them from its interface (`sources`).
fn entry_values(
    b: &mut FnBuilder,
    f: &ir::Function,
    sources: &[Source],
    local_offsets: &[Value],
    pod_global: Option<Handle<ir::Global>>,
) -> Result<Vec<Value>> {
    let mut values = Vec::new();
    for (i, s) in sources.iter().enumerate() {
        let v = match *s {
            Source::Pointer(_) | Source::PointerBuffer(_) => {
                let addr = match (s, pod_global) {
                    (Source::PointerBuffer(n), Some(g)) => {
                        let p = b.member_of(g, *n)?;
                        b.load(p, None, false)?
                    }
                    (Source::Pointer(n), _) => b.push_constant(*n)?,
                    _ => return Err(Error::internal("an address without its argument buffer")),
                };
                let pt = b.l.ty(f.params[i].ty)?;
                b.push(
                    pt,
                    Op::Cast {
                        op: ir::CastOp::IntToPtr,
                        value: addr,
                    },
                )
            }
            Source::Pod { member, byval } | Source::PodBuffer { member, byval } => {
                let v = match (s, pod_global) {
                    (Source::PodBuffer { .. }, Some(g)) => {
                        let p = b.member_of(g, member)?;
                        b.load(p, None, false)?
                    }
                    _ => b.push_constant(member)?,
                };
                if byval && b.l.private_addressed {
                    let t = b.ty_of(v);
                    let slot = b.arena_alloc(t, None)?;
                    let align = b.stated_align(None, t);
                    b.addressed_write(AddressSpace::Private, slot, v, t, align)?;
                    slot
                } else if byval {
                    let t = b.ty_of(v);
                    let slot = b.alloca(t);
                    b.store(slot, v, None, false)?;
                    slot
                } else {
                    v
                }
            }
            Source::LocalRegion(n) => local_offsets
                .get(n)
                .copied()
                .ok_or_else(|| Error::internal("a __local argument without its region"))?,
            Source::Workgroup(g) => b.member_of(g, 0)?,
            Source::Handle(g) => {
                let (pointee, space) = (b.l.out.globals[g].ty, b.l.out.globals[g].space);
                let pt = b.l.out.ty(Type::Pointer { pointee, space });
                let addr = b.l.out.constant(Constant {
                    ty: pt,
                    kind: ConstantKind::GlobalAddress(g),
                });
                b.load(Value::Const(addr), None, false)?
            }
            Source::Buffer(g) => {
                let array = b.member_of(g, 0)?;
                let zero = b.int_const(32, 0);
                b.gep(array, vec![zero, zero], true)?
            }
        };
        values.push(v);
    }
    Ok(values)
}

/// A struct being laid out member by member (the push constants, the argument buffer).
#[derive(Default)]
struct Block {
    members: Vec<Handle<Type>>,
    size: u64,
}

impl Block {
    /// Add a member of type `t` at its natural alignment: (member index, offset, size).
    fn add(&mut self, l: &Lowerer, t: Handle<Type>) -> (u32, u32, u32) {
        let align = l.out.align_of(t);
        let at = self.size.div_ceil(align) * align;
        self.size = at + l.out.size_of(t);
        self.members.push(t);
        (
            self.members.len() as u32 - 1,
            at as u32,
            l.out.size_of(t) as u32,
        )
    }

    /// The laid-out struct as a global of `space` (push constants are constant).
    fn global(&self, l: &mut Lowerer, name: String, space: AddressSpace) -> Handle<ir::Global> {
        let ty = l.out.ty(Type::Struct {
            name: Some(name.clone()),
            members: Some(self.members.clone()),
            packed: false,
        });
        l.out.globals.append(ir::Global {
            name,
            ty,
            space,
            init: None,
            is_constant: space == AddressSpace::PushConstant,
            align: None,
            linkage: ir::Linkage::Internal,
        })
    }
}

/// The members every kernel's push constants start with (`Shared`), where the module has
/// them.
struct Head {
    /// The program-scope variables' buffer address (physical pointers).
    program_scope: Option<u32>,
    /// The global offset, three 32-bit values.
    global_offset: Option<u32>,
    /// Where the global offset is (PushConstantGlobalOffset).
    global_offset_range: Option<PushConstantRange>,
}

/// Where the module's global offset is in every kernel's push constants, if it has one.
pub(super) fn global_offset_range(l: &mut Lowerer) -> Option<PushConstantRange> {
    push_head(l, &mut Block::default()).global_offset_range
}

/// Add the module's shared members to a kernel's push-constant block `block` (empty).
fn push_head(l: &mut Lowerer, block: &mut Block) -> Head {
    let program_scope = l
        .program_scope
        .as_ref()
        .is_some_and(|p| p.buffer.is_none())
        .then(|| {
            let u64t = l.out.int_type(64);
            block.add(l, u64t).0
        });
    let mut global_offset_range = None;
    let global_offset = l.shared.global_offset.then(|| {
        let u32t = l.out.int_type(32);
        let v3 = l.out.ty(Type::Vector { elem: u32t, len: 3 });
        let (n, offset, _) = block.add(l, v3);
        global_offset_range = Some(PushConstantRange { offset, size: 12 });
        n
    });
    Head {
        program_scope,
        global_offset,
        global_offset_range,
    }
}

/// The push-constant bytes kernel `f`'s arguments take, after the module's shared members,
/// if every value and device address goes there, or with `values_moved` every device
/// address (and image's and sampler's words) but no value.
fn push_constant_bytes(l: &mut Lowerer, f: &ir::Function, values_moved: bool) -> Result<u64> {
    let src = l.src;
    let mut block = Block::default();
    push_head(l, &mut block);
    for p in &f.params {
        let t = match &src.types[p.ty] {
            Type::Pointer {
                space: AddressSpace::Global | AddressSpace::Constant,
                ..
            } if l.pointers == VulkanPointers::Descriptors => continue,
            Type::Pointer {
                space: AddressSpace::Global | AddressSpace::Constant,
                ..
            } => l.out.int_type(64),
            Type::Pointer {
                space: AddressSpace::Private,
                ..
            } if p.attrs.byval && values_moved => continue,
            Type::Pointer {
                space: AddressSpace::Private,
                pointee,
            } if p.attrs.byval => l.ty(*pointee)?,
            Type::Pointer { .. } => continue,
            // The words for the channel order and data type, at most.
            Type::Image(_) => {
                let u32t = l.out.int_type(32);
                l.out.ty(Type::Vector { elem: u32t, len: 2 })
            }
            // The word saying whether the sampler is normalized.
            Type::Sampler => l.out.int_type(32),
            _ if values_moved => continue,
            _ => l.ty(p.ty)?,
        };
        block.add(l, t);
    }
    Ok(block.size)
}

/// The work-item builtins that read the global offset.
const READS_OFFSET: [BuiltIn; 3] = [
    BuiltIn::GlobalInvocationId,
    BuiltIn::GlobalOffset,
    BuiltIn::GlobalLinearId,
];

/// Whether kernel `k` of `m` reads the global offset (directly or through get_global_id).
pub(super) fn reads_offset(m: &ir::Module, k: &ir::Kernel) -> bool {
    reads_builtin(m, k.function, &READS_OFFSET)
}

/// True if `f`, or a function it calls, uses one of the work-item builtins `which`.
fn reads_builtin(m: &ir::Module, f: Handle<ir::Function>, which: &[BuiltIn]) -> bool {
    m.reachable_functions(f).into_iter().any(|g| {
        m.functions[g].body.iter().any(|body| {
            body.insts.iter().any(|(_, inst)| {
                matches!(&inst.op, Op::Builtin {
                    builtin: ir::Builtin::WorkItem(b),
                    ..
                } if which.contains(b))
            })
        })
    })
}

impl Lowerer<'_> {
    /// The work-group size as the kernel being lowered reads it: its fixed size as
    /// constants where the entry point runs with it, else a 3-vector of 32-bit
    /// specialization constants (ids 0, 1, 2; `Shared::workgroup` gives their defaults),
    /// which the writer decorates BuiltIn WorkgroupSize or names in LocalSizeId.
    pub fn workgroup_size(&mut self) -> Handle<Constant> {
        let u32t = self.out.int_type(32);
        let v3 = self.out.ty(Type::Vector { elem: u32t, len: 3 });
        if let Some(size) = self.fixed_workgroup {
            let parts = size.map(|n| self.out.int_const(u32t, u64::from(n)));
            return self.out.constant(Constant {
                ty: v3,
                kind: ConstantKind::Composite(parts.to_vec()),
            });
        }
        self.workgroup_spec_constants()
    }

    /// The work-group size's specialization constants (ids 0, 1, 2) as a 3-vector.
    pub fn workgroup_spec_constants(&mut self) -> Handle<Constant> {
        let u32t = self.out.int_type(32);
        let defaults = match self.shared.workgroup {
            WorkgroupPlan::Builtin { defaults } => defaults,
            WorkgroupPlan::AllFixed | WorkgroupPlan::ById => [1, 1, 1],
        };
        let parts = (0..3u32)
            .map(|spec_id| {
                let default = self
                    .out
                    .int_const(u32t, u64::from(defaults[spec_id as usize]));
                self.out.constant(Constant {
                    ty: u32t,
                    kind: ConstantKind::Spec { spec_id, default },
                })
            })
            .collect();
        let v3 = self.out.ty(Type::Vector { elem: u32t, len: 3 });
        self.out.constant(Constant {
            ty: v3,
            kind: ConstantKind::Composite(parts),
        })
    }
}

impl FnBuilder<'_, '_> {
    /// The address of element or member `n` of global `g` (a struct or an array), in the
    /// global's own address space.
    pub fn member_of(&mut self, g: Handle<ir::Global>, n: u32) -> Result<Value> {
        let (pointee, space) = (self.l.out.globals[g].ty, self.l.out.globals[g].space);
        let pt = self.l.out.ty(Type::Pointer { pointee, space });
        let addr = self.l.out.constant(Constant {
            ty: pt,
            kind: ConstantKind::GlobalAddress(g),
        });
        let zero = self.int_const(32, 0);
        let idx = self.int_const(32, n as u64);
        self.gep(Value::Const(addr), vec![zero, idx], true)
    }

    /// Load member `n` of the kernel's push-constant block.
    pub fn push_constant(&mut self, n: u32) -> Result<Value> {
        let g = self
            .kctx
            .push_constants
            .ok_or_else(|| Error::internal("a push-constant read without a block"))?;
        let p = self.member_of(g, n)?;
        self.load(p, None, false)
    }
}
