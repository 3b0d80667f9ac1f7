//! Work-group and sub-group collectives (OpenCL C 2.0, cl_khr_subgroups) in a Vulkan shader.
//!
//! * **Sub-groups** are Vulkan's subgroups: the OpenCL 2.0 instructions (`OpGroupIAdd`, ...,
//!   Kernel-only) become their `OpGroupNonUniform*` counterparts with the same group
//!   operation, `sub_group_broadcast` a shuffle (its lane need not be a constant), and the
//!   non-uniform ones (cl_khr_subgroup_*) stay as they are (mappings/vulkan_subgroups.toml).
//! * **Work-groups** have no instruction in Vulkan. Each work-item writes its value to its
//!   slot of a Workgroup array (`group.scratch.<type>`, 1024 slots: the most invocations a
//!   Vulkan device's work-group holds on every device we know; Vulkan promises 128), between
//!   two barriers, then reads what it needs: every slot for a reduction (in slot order),
//!   the slots before its own for a scan, one slot for a broadcast. `all`/`any` count the
//!   work-items whose predicate holds. OpenCL requires every work-item of the group to reach
//!   the call, so the barriers are in uniform control flow.

use crate::ir::GlslOp as G;

use crate::diag::{Error, Result};
use crate::ir::builtin::{BuiltIn, GroupOperation, Scope};
use crate::ir::{
    self, BinaryOp, Builtin, CastOp, Constant, ConstantKind, GroupOp, Handle, IntPredicate, Op,
    Type, Value,
};

use super::body::FnBuilder;
use super::emit::E;

/// Slots of a work-group scratch array.
const SLOTS: u64 = 1024;

/// Lower collective `op` at `scope` with group operation `operation` on `args`.
pub(super) fn group(
    b: &mut FnBuilder,
    op: GroupOp,
    scope: Scope,
    operation: Option<GroupOperation>,
    args: Vec<Value>,
    ret: Handle<Type>,
) -> Result<Value> {
    match scope {
        Scope::Subgroup => sub_group(b, op, operation, args, ret),
        Scope::Workgroup => work_group(b, op, operation, &args, ret),
        _ => Err(Error::unsupported(format!(
            "the collective Op{:?} at {scope:?} scope (no Vulkan form)",
            crate::mappings::group_opcode(op)
        ))),
    }
}

fn sub_group(
    b: &mut FnBuilder,
    op: GroupOp,
    operation: Option<GroupOperation>,
    mut args: Vec<Value>,
    ret: Handle<Type>,
) -> Result<Value> {
    let (vop, _) = crate::mappings::vulkan_subgroup(op).ok_or_else(|| {
        Error::unsupported(format!(
            "the sub-group function Op{:?} (no Vulkan form)",
            crate::mappings::group_opcode(op)
        ))
    })?;
    // A lane of any width, as a 32-bit unsigned lane index (OpenCL's broadcast lane is a
    // uint or a size_t; Vulkan's shuffle takes a 32-bit one).
    if op == GroupOp::Broadcast {
        let u32t = b.l.out.int_type(32);
        if b.ty_of(args[1]) != u32t {
            args[1] = b.push(
                u32t,
                Op::Cast {
                    op: CastOp::Trunc,
                    value: args[1],
                },
            );
        }
    }
    Ok(b.push(
        ret,
        Op::Builtin {
            builtin: Builtin::Group {
                op: vop,
                scope: Scope::Subgroup,
                operation,
            },
            args,
        },
    ))
}

/// How the values of a work-group combine: the instruction, and the value that changes
/// nothing (an exclusive scan's first result).
#[derive(Clone, Copy)]
enum Combine {
    Binary(BinaryOp),
    Glsl(G),
}

fn work_group(
    b: &mut FnBuilder,
    op: GroupOp,
    operation: Option<GroupOperation>,
    args: &[Value],
    ret: Handle<Type>,
) -> Result<Value> {
    let u32t = b.l.out.int_type(32);
    let bool_t = b.l.out.ty(Type::Bool);
    let lid = b.push(
        u32t,
        Op::Builtin {
            builtin: Builtin::WorkItem(BuiltIn::LocalInvocationIndex),
            args: vec![],
        },
    );
    let n = group_size(b);
    match op {
        GroupOp::All | GroupOp::Any => {
            let one = b.int_const(32, 1);
            let zero = b.int_const(32, 0);
            let v = b.push(
                u32t,
                Op::Select {
                    cond: args[0],
                    on_true: one,
                    on_false: zero,
                },
            );
            let slots = publish(b, v, lid)?;
            let count = fold(b, slots, Combine::Binary(BinaryOp::Add), zero, n)?;
            let (pred, rhs) = match op {
                GroupOp::All => (IntPredicate::Eq, n),
                _ => (IntPredicate::Ne, zero),
            };
            Ok(E { b }.icmp(pred, bool_t, count, rhs))
        }
        GroupOp::Broadcast => {
            let slots = publish(b, args[0], lid)?;
            let at = linear_id(b, &args[1..])?;
            let zero = b.int_const(32, 0);
            let p = b.gep(slots, vec![zero, at], true)?;
            b.load(p, None, false)
        }
        _ => {
            let (combine, identity) = combine_of(b, op, ret)?;
            let slots = publish(b, args[0], lid)?;
            let one = b.int_const(32, 1);
            let end = match operation {
                Some(GroupOperation::Reduce) => n,
                Some(GroupOperation::InclusiveScan) => u32_op(b, BinaryOp::Add, lid, one),
                Some(GroupOperation::ExclusiveScan) => lid,
                other => {
                    return Err(Error::unsupported(format!(
                        "the work-group operation {other:?} (no Vulkan form)"
                    )))
                }
            };
            fold(b, slots, combine, identity, end)
        }
    }
}

/// The instruction and identity of arithmetic collective `op` on values of type `t`.
fn combine_of(b: &mut FnBuilder, op: GroupOp, t: Handle<Type>) -> Result<(Combine, Value)> {
    let ty = b.l.out.types[t].clone();
    let (int_width, float_width) = match ty {
        Type::Int { width } => (width, 0),
        Type::Float { width } => (0, width),
        _ => return Err(Error::internal("a work-group collective of no scalar")),
    };
    let float = |b: &mut FnBuilder, x: f64| -> Value {
        let bits = match float_width {
            16 => u64::from(half_bits(x)),
            32 => u64::from((x as f32).to_bits()),
            _ => x.to_bits(),
        };
        Value::Const(b.l.out.constant(Constant {
            ty: t,
            kind: ConstantKind::Float(bits),
        }))
    };
    let mask = if int_width == 64 {
        u64::MAX
    } else {
        (1u64 << int_width.max(1)) - 1
    };
    let int = |b: &mut FnBuilder, x: u64| Value::Const(b.l.out.int_const(t, x & mask));
    let smax = mask >> 1;
    Ok(match op {
        GroupOp::IAdd => (Combine::Binary(BinaryOp::Add), int(b, 0)),
        GroupOp::FAdd => (Combine::Binary(BinaryOp::FAdd), float(b, 0.0)),
        GroupOp::SMin => (Combine::Glsl(G::SMin), int(b, smax)),
        GroupOp::UMin => (Combine::Glsl(G::UMin), int(b, mask)),
        GroupOp::FMin => (Combine::Glsl(G::NMin), float(b, f64::INFINITY)),
        GroupOp::SMax => (Combine::Glsl(G::SMax), int(b, !smax)),
        GroupOp::UMax => (Combine::Glsl(G::UMax), int(b, 0)),
        GroupOp::FMax => (Combine::Glsl(G::NMax), float(b, f64::NEG_INFINITY)),
        op => {
            return Err(Error::unsupported(format!(
                "the work-group function Op{:?} (no Vulkan form)",
                crate::mappings::group_opcode(op)
            )))
        }
    })
}

/// Infinity and zero in half's bits (the only halves an identity needs).
fn half_bits(x: f64) -> u16 {
    match x {
        f64::INFINITY => 0x7c00,
        f64::NEG_INFINITY => 0xfc00,
        _ => 0,
    }
}

/// The number of work-items in the work-group (the product of the work-group size).
pub(super) fn group_size(b: &mut FnBuilder) -> Value {
    let wg = Value::Const(b.l.workgroup_size());
    let mut total: Option<Value> = None;
    for d in 0..3 {
        let s = dimension(b, wg, d);
        total = Some(match total {
            None => s,
            Some(t) => mul(b, t, s),
        });
    }
    total.expect("three dimensions")
}

/// Component `d` of the (u32) vector `v`.
fn dimension(b: &mut FnBuilder, v: Value, d: u64) -> Value {
    let u32t = b.l.out.int_type(32);
    let index = b.int_const(32, d);
    b.push(u32t, Op::ExtractElement { vector: v, index })
}

/// The linear local id of `work_group_broadcast`'s local id (one to three components).
fn linear_id(b: &mut FnBuilder, ids: &[Value]) -> Result<Value> {
    let u32t = b.l.out.int_type(32);
    let mut parts = Vec::new();
    for &v in ids {
        match b.l.out.types[b.ty_of(v)].clone() {
            Type::Vector { len, elem } => {
                for i in 0..len {
                    let ix = b.int_const(32, u64::from(i));
                    parts.push(b.push(
                        elem,
                        Op::ExtractElement {
                            vector: v,
                            index: ix,
                        },
                    ));
                }
            }
            _ => parts.push(v),
        }
    }
    let wg = Value::Const(b.l.workgroup_size());
    let mut at = None;
    let mut stride: Option<Value> = None;
    for (d, &p) in parts.iter().enumerate().take(3) {
        let p = if b.ty_of(p) == u32t {
            p
        } else {
            b.push(
                u32t,
                Op::Cast {
                    op: CastOp::Trunc,
                    value: p,
                },
            )
        };
        let term = match stride {
            None => p,
            Some(s) => mul(b, p, s),
        };
        at = Some(match at {
            None => term,
            Some(a) => u32_op(b, BinaryOp::Add, a, term),
        });
        let size = dimension(b, wg, d as u64);
        stride = Some(match stride {
            None => size,
            Some(s) => mul(b, s, size),
        });
    }
    at.ok_or_else(|| Error::internal("a work-group broadcast without a local id"))
}

/// `x op y` of 32-bit integers.
pub(super) fn u32_op(b: &mut FnBuilder, op: BinaryOp, x: Value, y: Value) -> Value {
    let u32t = b.l.out.int_type(32);
    b.push(
        u32t,
        Op::Binary {
            op,
            lhs: x,
            rhs: y,
            flags: Default::default(),
        },
    )
}

fn mul(b: &mut FnBuilder, x: Value, y: Value) -> Value {
    u32_op(b, BinaryOp::Mul, x, y)
}

/// A work-group barrier on Workgroup memory.
fn barrier(b: &mut FnBuilder) {
    let void_t = b.l.out.void_type();
    b.push(
        void_t,
        Op::Builtin {
            builtin: Builtin::ControlBarrier {
                exec: Scope::Workgroup,
                mem: Scope::Workgroup,
                // AcquireRelease | WorkgroupMemory.
                semantics: 0x8 | 0x100,
            },
            args: vec![],
        },
    );
}

/// Write `v` to this work-item's slot `lid` of the scratch array of its type, between two
/// barriers (the first keeps an earlier collective's readers from seeing it); the array.
fn publish(b: &mut FnBuilder, v: Value, lid: Value) -> Result<Value> {
    let t = b.ty_of(v);
    let g = match b.group_scratch.get(&t) {
        Some(&g) => g,
        None => {
            let array = b.l.out.ty(Type::Array {
                elem: t,
                len: SLOTS,
            });
            let g = b.l.out.globals.append(ir::Global {
                name: format!("group.scratch.{}", b.group_scratch.len()),
                ty: array,
                space: ir::AddressSpace::Local,
                init: None,
                is_constant: false,
                align: None,
                linkage: ir::Linkage::Internal,
            });
            b.group_scratch.insert(t, g);
            g
        }
    };
    let array = b.l.out.globals[g].ty;
    let pt = b.l.out.ty(Type::Pointer {
        pointee: array,
        space: ir::AddressSpace::Local,
    });
    let base = Value::Const(b.l.out.constant(Constant {
        ty: pt,
        kind: ConstantKind::GlobalAddress(g),
    }));
    barrier(b);
    let zero = b.int_const(32, 0);
    let p = b.gep(base, vec![zero, lid], true)?;
    b.store(p, v, None, false)?;
    barrier(b);
    Ok(base)
}

/// `identity` combined with slots `0..end` of `slots`, in order.
fn fold(
    b: &mut FnBuilder,
    slots: Value,
    combine: Combine,
    identity: Value,
    end: Value,
) -> Result<Value> {
    let u32t = b.l.out.int_type(32);
    let bool_t = b.l.out.ty(Type::Bool);
    let t = b.ty_of(identity);
    let i_slot = b.alloca(u32t);
    let acc_slot = b.alloca(t);
    let zero = b.int_const(32, 0);
    b.store(i_slot, zero, None, false)?;
    b.store(acc_slot, identity, None, false)?;
    let header = b.new_block(Some("group.fold".into()));
    let body = b.new_block(Some("group.fold.body".into()));
    let exit = b.new_block(Some("group.fold.done".into()));
    b.terminate(ir::Terminator::Branch(ir::BlockId(header as u32)));
    b.cur = header;
    let i = b.load(i_slot, None, false)?;
    let more = E { b }.icmp(IntPredicate::Ult, bool_t, i, end);
    b.terminate(ir::Terminator::CondBranch {
        cond: more,
        on_true: ir::BlockId(body as u32),
        on_false: ir::BlockId(exit as u32),
    });
    b.cur = body;
    let p = b.gep(slots, vec![zero, i], true)?;
    let x = b.load(p, None, false)?;
    let acc = b.load(acc_slot, None, false)?;
    let next = match combine {
        Combine::Binary(op) => b.push(
            t,
            Op::Binary {
                op,
                lhs: acc,
                rhs: x,
                flags: Default::default(),
            },
        ),
        Combine::Glsl(g) => E { b }.glsl(g, t, vec![acc, x]),
    };
    b.store(acc_slot, next, None, false)?;
    let one = b.int_const(32, 1);
    let i2 = u32_op(b, BinaryOp::Add, i, one);
    b.store(i_slot, i2, None, false)?;
    b.terminate(ir::Terminator::Branch(ir::BlockId(header as u32)));
    b.cur = exit;
    b.load(acc_slot, None, false)
}
