//! The graph's primitives in the shader form: the OpenCL-only floating-point tests computed
//! from the ones Vulkan has, the bit-field and integer dot instructions from the library
//! (`library::bit_ops`, `library::integer_dot`), the others kept as they are (their Vulkan
//! capabilities are the writer's).

use crate::diag::Result;
use crate::ir::{
    BinaryOp, Builtin, CastOp, ConstantKind, FloatPredicate, Handle, IntPredicate, Op, Primitive,
    Type, Value,
};

use super::body::FnBuilder;
use super::emit::E;
use crate::ir::primitive::{enqueue_primitives, pipe_primitives};

/// Primitive `op` of `args`, of type `ret`, in the shader form.
pub(super) fn lower(
    b: &mut FnBuilder,
    op: Primitive,
    args: Vec<Value>,
    ret: Handle<Type>,
) -> Result<Value> {
    use Primitive as P;
    if matches!(
        op,
        P::BitFieldInsert | P::BitFieldSExtract | P::BitFieldUExtract | P::BitReverse
    ) {
        return Ok(super::library::bit_ops::lower(&mut E { b }, op, &args, ret));
    }
    if let Some(d) = op.integer_dot() {
        return super::library::integer_dot::lower(&mut E { b }, d, &args, ret);
    }
    Ok(match op {
        P::IsFinite
        | P::Ordered
        | P::Unordered
        | P::LessOrGreater
        | P::SignBitSet
        | P::IsNormal => float_test(b, op, &args, ret),
        P::Dot
        | P::Any
        | P::All
        | P::IsNan
        | P::IsInf
        | P::LogicalAnd
        | P::LogicalOr
        | P::LogicalNot
        | P::LogicalEqual
        | P::LogicalNotEqual
        | P::BitCount
        | P::BitReverse
        | P::BitFieldInsert
        | P::BitFieldSExtract
        | P::BitFieldUExtract
        | P::SDot
        | P::UDot
        | P::SUDot
        | P::SDotAccSat
        | P::UDotAccSat
        | P::SUDotAccSat
        | P::FMod
        | P::SMod
        | P::IAddCarry
        | P::ISubBorrow
        | P::UMulExtended
        | P::SMulExtended
        | P::GenericCastToPtrExplicit
        | P::GenericPtrMemSemantics
        | P::SizeOf
        | P::PtrEqual
        | P::PtrNotEqual
        | P::PtrDiff
        | P::CopyObject
        | P::AtomicFMin
        | P::AtomicFMax
        | P::AtomicFAdd
        | P::ImageQueryLevels
        | P::ImageQueryFormat
        | P::ImageQueryOrder
        | P::ImageQuerySamples
        | P::SampledImage
        | pipe_primitives!()
        | enqueue_primitives!() => same(b, op, args, ret),
    })
}

/// `op` of `args` as it is.
fn same(b: &mut FnBuilder, op: Primitive, args: Vec<Value>, ret: Handle<Type>) -> Value {
    b.push(
        ret,
        Op::Builtin {
            builtin: Builtin::Primitive(op),
            args,
        },
    )
}

/// A floating-point test Vulkan's shaders do not have, from the ones they do (NaN and
/// infinity tests, comparisons, the bits of the value).
fn float_test(b: &mut FnBuilder, op: Primitive, args: &[Value], ret: Handle<Type>) -> Value {
    use Primitive as P;
    let is_nan = |b: &mut FnBuilder, x: Value| same(b, P::IsNan, vec![x], ret);
    let logical = |b: &mut FnBuilder, op: P, args: Vec<Value>| same(b, op, args, ret);
    match op {
        P::IsFinite => {
            let n = is_nan(b, args[0]);
            let i = logical(b, P::IsInf, vec![args[0]]);
            let either = logical(b, P::LogicalOr, vec![n, i]);
            logical(b, P::LogicalNot, vec![either])
        }
        P::Ordered | P::Unordered => {
            let na = is_nan(b, args[0]);
            let nb = is_nan(b, args[1]);
            let either = logical(b, P::LogicalOr, vec![na, nb]);
            if op == P::Unordered {
                either
            } else {
                logical(b, P::LogicalNot, vec![either])
            }
        }
        P::LessOrGreater => b.push(
            ret,
            Op::FCmp {
                pred: FloatPredicate::One,
                lhs: args[0],
                rhs: args[1],
            },
        ),
        P::SignBitSet | P::IsNormal => {
            let xt = b.ty_of(args[0]);
            let w = match b.l.out.types[b.l.out.scalar_of(xt)] {
                Type::Float { width } => width,
                _ => 32,
            };
            let it = b.l.out.int_type(w);
            let it = match b.l.out.types[xt] {
                Type::Vector { len, .. } => b.l.out.ty(Type::Vector { elem: it, len }),
                _ => it,
            };
            let bits = b.push(
                it,
                Op::Cast {
                    op: CastOp::Bitcast,
                    value: args[0],
                },
            );
            if op == P::SignBitSet {
                let zero = E { b }.splat(it, ConstantKind::Int(0));
                b.push(
                    ret,
                    Op::ICmp {
                        pred: IntPredicate::Slt,
                        lhs: bits,
                        rhs: zero,
                    },
                )
            } else {
                let (mant, exp_mask) = match w {
                    16 => (10, 0x1f),
                    32 => (23, 0xff),
                    _ => (52, 0x7ff),
                };
                let sh = E { b }.splat(it, ConstantKind::Int(mant));
                let shifted = b.push(
                    it,
                    Op::Binary {
                        op: BinaryOp::LShr,
                        lhs: bits,
                        rhs: sh,
                        flags: Default::default(),
                    },
                );
                let m = E { b }.splat(it, ConstantKind::Int(exp_mask));
                let e = b.push(
                    it,
                    Op::Binary {
                        op: BinaryOp::And,
                        lhs: shifted,
                        rhs: m,
                        flags: Default::default(),
                    },
                );
                let zero = E { b }.splat(it, ConstantKind::Int(0));
                let nz = b.push(
                    ret,
                    Op::ICmp {
                        pred: IntPredicate::Ne,
                        lhs: e,
                        rhs: zero,
                    },
                );
                let nm = b.push(
                    ret,
                    Op::ICmp {
                        pred: IntPredicate::Ne,
                        lhs: e,
                        rhs: m,
                    },
                );
                logical(b, P::LogicalAnd, vec![nz, nm])
            }
        }
        _ => same(b, op, args.to_vec(), ret),
    }
}
