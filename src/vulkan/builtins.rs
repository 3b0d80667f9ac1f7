//! OpenCL builtins in shader form.
//!
//! * Work-item functions read Vulkan's built-in variables (32-bit) and widen them to
//!   `size_t`; the global id adds the global offset from the push constants, sizes come from
//!   the work-group size specialization constants. A dimension past 2 gives OpenCL's answer
//!   (0 for ids, 1 for sizes).
//! * OpenCL.std instructions become GLSL.std.450 ones where mappings/vulkan_glsl.toml has a
//!   row; `vloadn` / `vstoren` become element loads and stores.
//! * Conversions with saturation or an explicit rounding mode are expanded (SPIR-V's
//!   SaturatedConversion and FPRoundingMode decorations are Kernel-only).
//! * Barriers and atomics keep their instructions with Vulkan's memory semantics (no
//!   SequentiallyConsistent; buffer memory is Uniform memory) and scopes (no CrossDevice).
//! * The floating-point tests that are Kernel-only instructions (`isfinite`, `isnormal`,
//!   `signbit`, `isordered`, ...) are computed from IsNan, IsInf and the bits.

use spirv::{BuiltIn, Scope};

use crate::diag::{Error, Result};
use crate::ir::{
    self, AtomicOp, BinaryOp, Builtin, CastOp, Constant, ConstantKind, Handle, IntPredicate, Op,
    Primitive, Type, Value,
};

use super::body::FnBuilder;
use super::emit::E;

pub(super) fn lower(
    b: &mut FnBuilder,
    builtin: &Builtin,
    args: Vec<Value>,
    src_ret: Handle<Type>,
) -> Result<Option<Value>> {
    let ret = b.l.ty(src_ret)?;
    let is_void = matches!(b.l.out.types[ret], Type::Void);
    let v = match builtin {
        Builtin::WorkItem(w) => work_item(b, *w, args.first().copied(), ret)?,
        Builtin::Image(op) => super::images::lower(b, *op, args, ret)?,
        // SPIR-V's channel queries (a graph read from SPIR-V) answer the SPIR-V enum: the
        // host's OpenCL word less the `CL_*` offset.
        // The size of what a pointer points to (a Kernel instruction): a constant.
        Builtin::Primitive(Primitive::SizeOf) => {
            let pointee = b.pointee_of(args[0]).ok_or_else(|| {
                Error::unsupported("OpSizeOf of a pointer into addressed private memory")
            })?;
            let size = b.l.out.size_of(pointee);
            Value::Const(b.l.out.int_const(ret, size))
        }
        Builtin::Primitive(op @ (Primitive::ImageQueryOrder | Primitive::ImageQueryFormat)) => {
            let q = crate::mappings::channel_query(|q| q.primitive == *op)
                .ok_or_else(|| Error::internal("a channel query without an OpenCL spelling"))?;
            let word = super::images::lower(b, q.op, args, ret)?;
            let offset = b.int_const(32, q.cl_offset);
            b.push(
                ret,
                Op::Binary {
                    op: BinaryOp::Sub,
                    lhs: word,
                    rhs: offset,
                    flags: Default::default(),
                },
            )
        }
        Builtin::ExtInst { op, literal } => ext_inst(b, *op, *literal, args, ret)?,
        Builtin::Convert {
            from,
            to,
            saturate,
            rounding,
        } => super::conversions::convert(b, *from, *to, *saturate, *rounding, args[0], ret)?,
        Builtin::ControlBarrier { exec, .. }
            if !matches!(exec, Scope::Workgroup | Scope::Subgroup) =>
        {
            return Err(Error::unsupported(format!(
                "a control barrier across the {exec:?} (Vulkan's execution barriers reach a \
                 work-group at most)"
            )))
        }
        Builtin::ControlBarrier {
            exec,
            mem,
            semantics,
        } => b.push(
            ret,
            Op::Builtin {
                builtin: Builtin::ControlBarrier {
                    exec: scope(*exec),
                    mem: scope(*mem),
                    semantics: semantics_of(*semantics, None),
                },
                args,
            },
        ),
        Builtin::MemoryBarrier { mem, semantics } => b.push(
            ret,
            Op::Builtin {
                builtin: Builtin::MemoryBarrier {
                    mem: scope(*mem),
                    // A fence without an order or a storage class orders nothing in OpenCL;
                    // Vulkan requires both, and an acquire-release fence on buffers and
                    // Workgroup memory is the weakest that is one.
                    semantics: {
                        let mut s = semantics_of(*semantics, None);
                        if s & 0x1e == 0 {
                            s |= 0x8;
                        }
                        if s & (0x40 | 0x100 | 0x800) == 0 {
                            s |= 0x40 | 0x100;
                        }
                        s
                    },
                },
                args,
            },
        ),
        Builtin::Atomic {
            op,
            scope: sc,
            semantics,
        } => atomic(b, *op, (*sc, *semantics), args, ret)?,
        Builtin::Primitive(op) => super::primitives::lower(b, *op, args, ret)?,
        Builtin::Glsl(g) => E { b }.glsl(*g, ret, args),
        Builtin::AsyncCopy { strided } => super::library::async_copy(b, *strided, &args, ret)?,
        // The copies are done; what is left of waiting is that every work-item's part is
        // visible to the others.
        Builtin::WaitEvents => b.push(
            ret,
            Op::Builtin {
                builtin: Builtin::ControlBarrier {
                    exec: Scope::Workgroup,
                    mem: Scope::Workgroup,
                    semantics: 0x8 | 0x100 | 0x40,
                },
                args: vec![],
            },
        ),
        Builtin::Group {
            op,
            scope,
            operation,
        } => super::groups::group(b, *op, *scope, *operation, args, ret)?,
    };
    Ok((!is_void).then_some(v))
}

/// An atomic: on the word a view of addressed memory points to, with Vulkan's scope and
/// semantics; OpenCL C 2.0's `atomic_flag` test-and-set and clear as an exchange and a store,
/// increments and decrements as adds and subtractions.
fn atomic(
    b: &mut FnBuilder,
    op: AtomicOp,
    (sc, semantics): (Scope, u32),
    mut args: Vec<Value>,
    ret: Handle<Type>,
) -> Result<Value> {
    // On addressed memory the atomic takes the word its view points to.
    if let Some(p) = args.first_mut() {
        *p = b.view_word_pointer(*p)?;
    }
    // Atomics that are another with a constant operand, of the word's width.
    // OpenCL C 2.0's atomic_flag (an atomic_int) has Kernel-only instructions:
    // test-and-set is an exchange with 1 that found other than 0, clear a store of 0.
    // `atomic_inc` and `atomic_dec` are an add and a subtraction of one: on the H100, a
    // histogram's work-group atomics ran 7% faster so (docs/logs/variants/, `histogram_add`).
    let implied = match op {
        AtomicOp::FlagTestAndSet => Some((AtomicOp::Exchange, 1)),
        AtomicOp::FlagClear => Some((AtomicOp::Store, 0)),
        AtomicOp::IIncrement => Some((AtomicOp::IAdd, 1)),
        AtomicOp::IDecrement => Some((AtomicOp::ISub, 1)),
        _ => None,
    };
    let (op, word) = match implied {
        Some((to, v)) => {
            let wt = b
                .pointee_of(args[0])
                .ok_or_else(|| Error::internal("an atomic on what is not a pointer"))?;
            let width = match b.l.out.types[wt] {
                Type::Int { width } => width,
                _ => return Err(Error::internal("an atomic flag or step of a non-integer")),
            };
            args.push(b.int_const(width, v));
            // Only a flag's test-and-set reads its word back as a flag.
            (to, (op == AtomicOp::FlagTestAndSet).then_some(wt))
        }
        None => (op, None),
    };
    let ty = match (op, word) {
        (AtomicOp::Exchange, Some(wt)) => wt,
        _ => ret,
    };
    let v = b.push(
        ty,
        Op::Builtin {
            builtin: Builtin::Atomic {
                op,
                scope: scope(sc),
                semantics: semantics_of(semantics, Some(op)),
            },
            args,
        },
    );
    Ok(match (op, word) {
        (AtomicOp::Exchange, Some(wt)) => {
            let width = match b.l.out.types[wt] {
                Type::Int { width } => width,
                _ => 32,
            };
            let zero = b.int_const(width, 0);
            E { b }.icmp(crate::ir::IntPredicate::Ne, ret, v, zero)
        }
        _ => v,
    })
}

/// Vulkan has no CrossDevice scope; a device is the widest there is.
fn scope(s: Scope) -> Scope {
    match s {
        Scope::CrossDevice => Scope::Device,
        s => s,
    }
}

/// OpenCL's memory semantics in Vulkan's terms: SequentiallyConsistent is not allowed (it
/// becomes AcquireRelease, which is what OpenCL's fences and atomics need of their memory),
/// loads only acquire and stores only release, and global memory is Uniform memory.
fn semantics_of(sem: u32, op: Option<AtomicOp>) -> u32 {
    const ORDER: u32 = 0x2 | 0x4 | 0x8 | 0x10;
    const CROSS_WORKGROUP: u32 = 0x200;
    const UNIFORM: u32 = 0x40;
    // The storage classes Vulkan knows (Uniform, Subgroup, Workgroup, AtomicCounter, Image,
    // Output memory); a bit no version of SPIR-V defines is dropped.
    const STORAGE: u32 = 0x40 | 0x80 | 0x100 | 0x400 | 0x800 | 0x1000;
    let mut storage = sem & STORAGE;
    if sem & CROSS_WORKGROUP != 0 {
        storage |= UNIFORM;
    }
    let ordered = sem & ORDER != 0;
    let order = match op {
        _ if !ordered => 0,
        Some(AtomicOp::Load) => 0x2,
        Some(AtomicOp::Store) => 0x4,
        _ => 0x8,
    };
    // Storage classes without an ordering say nothing, and an ordering of no memory orders
    // nothing: either alone is dropped (Vulkan refuses both on barriers). An atomic's
    // ordering stays: the atomic's own memory is what it orders.
    if order == 0 || (storage == 0 && op.is_none()) {
        0
    } else {
        order | storage
    }
}

/// `v` widened (zero-extended) from 32 bits to the result type.
fn widen(b: &mut FnBuilder, v: Value, ret: Handle<Type>) -> Value {
    if b.ty_of(v) == ret {
        return v;
    }
    b.push(
        ret,
        Op::Cast {
            op: CastOp::ZExt,
            value: v,
        },
    )
}

/// The global size in dimension `d` (a u32): the number of work-groups times their size.
fn global_size(b: &mut FnBuilder, d: Value) -> Value {
    let u32t = b.l.out.int_type(32);
    let groups = b.push(
        u32t,
        Op::Builtin {
            builtin: Builtin::WorkItem(BuiltIn::NumWorkgroups),
            args: vec![d],
        },
    );
    let wg = Value::Const(b.l.workgroup_size());
    let size = b.push(
        u32t,
        Op::ExtractElement {
            vector: wg,
            index: d,
        },
    );
    super::groups::u32_op(b, BinaryOp::Mul, groups, size)
}

fn work_item(
    b: &mut FnBuilder,
    w: BuiltIn,
    dim: Option<Value>,
    ret: Handle<Type>,
) -> Result<Value> {
    let u32t = b.l.out.int_type(32);
    // A constant dimension past 2: OpenCL's answer without reading anything.
    let const_dim = dim.and_then(|d| match d {
        Value::Const(c) => match b.l.out.constants[c].kind {
            ConstantKind::Int(i) => Some(i),
            _ => None,
        },
        _ => None,
    });
    let is_size = matches!(
        w,
        BuiltIn::WorkgroupSize
            | BuiltIn::EnqueuedWorkgroupSize
            | BuiltIn::GlobalSize
            | BuiltIn::NumWorkgroups
    );
    if const_dim.is_some_and(|i| i >= 3) {
        return Ok(Value::Const(b.l.out.int_const(ret, is_size as u64)));
    }
    let dim32 = match dim {
        Some(d) if b.ty_of(d) != u32t => Some(b.push(
            u32t,
            Op::Cast {
                op: CastOp::Trunc,
                value: d,
            },
        )),
        d => d,
    };
    let vk = |b: &mut FnBuilder, which: BuiltIn| -> Value {
        b.push(
            u32t,
            Op::Builtin {
                builtin: Builtin::WorkItem(which),
                args: dim32.into_iter().collect(),
            },
        )
    };
    let wg_component = |b: &mut FnBuilder| -> Result<Value> {
        let wg = b.l.workgroup_size();
        let d = dim32.ok_or_else(|| Error::internal("a per-dimension query without dimension"))?;
        Ok(b.push(
            u32t,
            Op::ExtractElement {
                vector: Value::Const(wg),
                index: d,
            },
        ))
    };
    let offset = |b: &mut FnBuilder| -> Result<Value> {
        let n = b
            .kctx
            .global_offset_member
            .ok_or_else(|| Error::internal("the global offset is not in the push constants"))?;
        let v = b.push_constant(n)?;
        let d = dim32.ok_or_else(|| Error::internal("a per-dimension query without dimension"))?;
        Ok(b.push(
            u32t,
            Op::ExtractElement {
                vector: v,
                index: d,
            },
        ))
    };
    let add = super::groups::u32_op;
    let v = match w {
        BuiltIn::GlobalInvocationId => {
            let id = vk(b, BuiltIn::GlobalInvocationId);
            let off = offset(b)?;
            add(b, BinaryOp::Add, id, off)
        }
        BuiltIn::GlobalOffset => offset(b)?,
        BuiltIn::LocalInvocationId | BuiltIn::WorkgroupId | BuiltIn::NumWorkgroups => vk(b, w),
        // Sub-groups are Vulkan's subgroups.
        BuiltIn::SubgroupLocalInvocationId | BuiltIn::NumSubgroups | BuiltIn::SubgroupId => {
            vk(b, w)
        }
        // OpenCL's size of this sub-group: the last one of a work-group that the subgroup
        // size does not divide is smaller (Vulkan's SubgroupSize is the full size):
        // min(size, work-group size − id · size).
        BuiltIn::SubgroupSize => {
            let size = vk(b, BuiltIn::SubgroupSize);
            let id = vk(b, BuiltIn::SubgroupId);
            let total = super::groups::group_size(b);
            let before = add(b, BinaryOp::Mul, id, size);
            let left = add(b, BinaryOp::Sub, total, before);
            E { b }.glsl(crate::ir::GlslOp::UMin, u32t, vec![size, left])
        }
        // The largest sub-group is Vulkan's subgroup size, and an enqueued (uniform)
        // work-group has as many sub-groups as the actual one.
        BuiltIn::SubgroupMaxSize => vk(b, BuiltIn::SubgroupSize),
        BuiltIn::GlobalLinearId => global_linear_id(b),
        BuiltIn::NumEnqueuedSubgroups => vk(b, BuiltIn::NumSubgroups),
        BuiltIn::WorkgroupSize | BuiltIn::EnqueuedWorkgroupSize => wg_component(b)?,
        BuiltIn::GlobalSize => {
            let d =
                dim32.ok_or_else(|| Error::internal("a per-dimension query without dimension"))?;
            global_size(b, d)
        }
        BuiltIn::LocalInvocationIndex => b.push(
            u32t,
            Op::Builtin {
                builtin: Builtin::WorkItem(BuiltIn::LocalInvocationIndex),
                args: vec![],
            },
        ),
        BuiltIn::WorkDim => work_dim(b),
        other => {
            return Err(Error::unsupported(format!(
                "the work-item builtin {other:?} (no Vulkan lowering yet)"
            )))
        }
    };
    let v = widen(b, v, ret);
    // A run-time dimension past 2 answers as OpenCL says.
    match (dim, const_dim) {
        (Some(d), None) => {
            let dt = b.ty_of(d);
            let three = Value::Const(b.l.out.int_const(dt, 3));
            let bool_t = b.l.out.ty(Type::Bool);
            let ok = b.push(
                bool_t,
                Op::ICmp {
                    pred: IntPredicate::Ult,
                    lhs: d,
                    rhs: three,
                },
            );
            let other = Value::Const(b.l.out.int_const(ret, is_size as u64));
            Ok(b.push(
                ret,
                Op::Select {
                    cond: ok,
                    on_true: v,
                    on_false: other,
                },
            ))
        }
        _ => Ok(v),
    }
}

/// `get_global_linear_id()`: (id2 · size1 + id1) · size0 + id0, of the ids without the
/// global offset.
fn global_linear_id(b: &mut FnBuilder) -> Value {
    let u32t = b.l.out.int_type(32);
    let add = super::groups::u32_op;
    let mut at: Option<Value> = None;
    for d in (0..3).rev() {
        let di = b.int_const(32, d);
        let id = b.push(
            u32t,
            Op::Builtin {
                builtin: Builtin::WorkItem(BuiltIn::GlobalInvocationId),
                args: vec![di],
            },
        );
        at = Some(match at {
            None => id,
            Some(a) => {
                let global = global_size(b, di);
                let scaled = add(b, BinaryOp::Mul, a, global);
                add(b, BinaryOp::Add, scaled, id)
            }
        });
    }
    at.expect("three dimensions")
}

/// `get_work_dim()`: a specialization constant (default 1) the host sets, made once per
/// module.
fn work_dim(b: &mut FnBuilder) -> Value {
    let u32t = b.l.out.int_type(32);
    let spec_id = match b.l.work_dim_spec {
        Some(id) => id,
        None => {
            let id = b.l.next_spec_id;
            b.l.next_spec_id += 1;
            b.l.work_dim_spec = Some(id);
            id
        }
    };
    let default = b.l.out.int_const(u32t, 1);
    Value::Const(b.l.out.constant(Constant {
        ty: u32t,
        kind: ConstantKind::Spec { spec_id, default },
    }))
}

fn ext_inst(
    b: &mut FnBuilder,
    op: ir::builtin::OpenclOp,
    literal: Option<u32>,
    args: Vec<Value>,
    ret: Handle<Type>,
) -> Result<Value> {
    use ir::builtin::OpenclOp as C;
    match op {
        C::vloadn => {
            let n = literal.ok_or_else(|| Error::internal("vloadn without its width"))?;
            let (offset, p) = (args[0], args[1]);
            let mut vec = Value::Const(b.l.out.constant(Constant {
                ty: ret,
                kind: ConstantKind::Undef,
            }));
            let elem = b.l.out.scalar_of(ret);
            for i in 0..n {
                let q = E { b }.element(p, offset, n, i)?;
                let x = b.load(q, None, false)?;
                let lane = b.int_const(32, i as u64);
                vec = b.push(
                    ret,
                    Op::InsertElement {
                        vector: vec,
                        element: x,
                        index: lane,
                    },
                );
                let _ = elem;
            }
            Ok(vec)
        }
        C::vstoren => {
            let (data, offset, p) = (args[0], args[1], args[2]);
            let dt = b.ty_of(data);
            let n = b.l.out.lanes(dt);
            let elem = b.l.out.scalar_of(dt);
            for i in 0..n {
                let lane = b.int_const(32, i as u64);
                let x = b.push(
                    elem,
                    Op::ExtractElement {
                        vector: data,
                        index: lane,
                    },
                );
                let q = E { b }.element(p, offset, n, i)?;
                b.store(q, x, None, false)?;
            }
            // No value (vstoren returns void); the caller does not use this one.
            Ok(Value::Const(b.l.out.constant(Constant {
                ty: ret,
                kind: ConstantKind::Undef,
            })))
        }
        _ => {
            if let Some(v) = super::library::expand(b, op, literal, &args, ret)? {
                return Ok(v);
            }
            let (g, _) = crate::mappings::vulkan_glsl(op).ok_or_else(|| {
                let name = crate::mappings::opencl_std_name(op)
                    .map_or_else(|| format!("{op:?}"), str::to_string);
                Error::unsupported(format!(
                    "the OpenCL builtin {name} (OpenCL.std {op:?}) has no Vulkan lowering yet"
                ))
            })?;
            Ok(E { b }.glsl(g, ret, args))
        }
    }
}
