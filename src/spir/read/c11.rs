//! OpenCL C 2.0's builtins on the generic address space and its atomics, as SPIR spells them
//! (`calls` dispatches here): C11's `atomic_*` functions and `to_global` / `to_local` /
//! `to_private`.

use super::lowering::FnLowering;
use super::lowering::{enumerant, unknown, Lowered};
use crate::diag::{Error, Result};
use crate::ir::{self, Builtin, ConstantKind, Op, Primitive, Type, Value};
use crate::mappings;
use crate::spir::demangle::Demangled;
use spirv::Scope;

/// The alignment LLVM gives a value of `v`'s (scalar) type: its size.
fn natural_align(l: &FnLowering, v: Value) -> Option<u32> {
    let t = l.value_type(v);
    u32::try_from(l.m.size_of(t)).ok().filter(|&a| a > 0)
}

/// to_global / to_local / to_private: OpGenericCastToPtrExplicit, whose storage class is
/// the result pointer's (null where the generic pointer points elsewhere).
pub(super) fn generic_cast_explicit(ret: ir::Handle<Type>, args: Vec<Value>) -> Lowered {
    Lowered::Inst(
        ret,
        Op::Builtin {
            builtin: Builtin::Primitive(Primitive::GenericCastToPtrExplicit),
            args,
        },
    )
}

/// OpenCL C 2.0's atomics (C11's, on `atomic_*` types), with and without `_explicit`: the
/// SPIR-V atomic instruction with the memory order's semantics (clang's `__ATOMIC_*`
/// numbers, mappings/opencl_enums.toml) plus the storage class of the pointer (generic:
/// both global and local memory) and the memory scope; without `_explicit`, sequentially
/// consistent at device scope. `atomic_init` is a plain store; `atomic_compare_exchange_*`
/// loads `*expected`, compares and exchanges, and stores the value it found back to
/// `*expected` (unchanged where the exchange happened), its result the comparison.
/// `None` for any other name.
pub(super) fn c11_atomic(
    l: &mut FnLowering,
    d: &Demangled,
    mangled: &str,
    ret: ir::Handle<Type>,
    args: &[Value],
) -> Result<Option<Lowered>> {
    use crate::ir::AtomicOp as A;
    use spirv::MemorySemantics as M;
    let name = d.name.as_str();
    let (base, explicit) = match name.strip_suffix("_explicit") {
        Some(b) => (b, true),
        None => (name, false),
    };
    if base == "atomic_init" {
        if args.len() != 2 {
            return Err(unknown(mangled, d));
        }
        let align = natural_align(l, args[1]);
        return Ok(Some(Lowered::Inst(
            ret,
            Op::Store {
                ptr: args[0],
                value: args[1],
                align,
                volatile: false,
            },
        )));
    }
    let Some((ops, values)) = mappings::c11_atomic(base) else {
        return Ok(None);
    };
    let sign = match d.first_sign() {
        Some(false) => crate::ir::Sign::Unsigned,
        _ => crate::ir::Sign::Signed,
    };
    let op = ops.pick(Some(sign)).ok_or_else(|| unknown(mangled, d))?;
    let values = values as usize;
    // The operands after the pointer and values: the orders (two for compare-exchange),
    // then the scope.
    let orders = if op == A::CompareExchange { 2 } else { 1 };
    let want = 1 + values + if explicit { orders } else { 0 };
    if args.len() != want && !(explicit && args.len() == want + 1) {
        return Err(unknown(mangled, d));
    }
    let order = if explicit {
        enumerant(l, args[1 + values], mappings::MEMORY_ORDERS, "memory_order")?
    } else {
        M::SEQUENTIALLY_CONSISTENT
    };
    let scope = match args.get(want) {
        Some(&s) if explicit => enumerant(l, s, mappings::MEMORY_SCOPES, "memory_scope")?,
        _ => Scope::Device,
    };
    // The pointer a generic one was just cast from, where it is global or local memory: the
    // atomic works on it (the Intel runtime's SPIR-V reader spells atomics as OpenCL C 1.x
    // builtins, which have no generic overloads, and sees through casts only where its
    // optimizer folds them; at -O0 it does not).
    let mut args = args.to_vec();
    let source = match args[0] {
        Value::Inst(h) => match &l.body.insts[h].op {
            Op::Cast {
                op: ir::CastOp::AddrSpaceCast,
                value,
            } => Some(*value),
            _ => None,
        },
        Value::Const(c) => match l.m.constants[c].kind {
            ConstantKind::Cast(ir::CastOp::AddrSpaceCast, inner) => Some(Value::Const(inner)),
            _ => None,
        },
        Value::Param(_) => None,
    };
    if let Some(p) = source {
        if matches!(
            l.m.types[l.value_type(p)],
            Type::Pointer {
                space: ir::AddressSpace::Global | ir::AddressSpace::Local,
                ..
            }
        ) {
            args[0] = p;
        }
    }
    let storage = match l.m.types[l.value_type(args[0])] {
        Type::Pointer { space, .. } => match space {
            ir::AddressSpace::Local => M::WORKGROUP_MEMORY,
            ir::AddressSpace::Generic => M::WORKGROUP_MEMORY | M::CROSS_WORKGROUP_MEMORY,
            _ => M::CROSS_WORKGROUP_MEMORY,
        },
        _ => {
            return Err(Error::malformed(
                "an atomic on a value that is not a pointer",
            ))
        }
    };
    let semantics = if order == M::RELAXED {
        0
    } else {
        (order | storage).bits()
    };
    let builtin = Builtin::Atomic {
        op,
        scope,
        semantics,
    };
    if op != A::CompareExchange {
        let operands = args[..1 + values].to_vec();
        return Ok(Some(Lowered::Inst(
            ret,
            Op::Builtin {
                builtin,
                args: operands,
            },
        )));
    }
    compare_exchange(l, builtin, ret, &args).map(Some)
}

/// C11's compare-exchange in the graph's (pointer, comparator, value) form: the expected
/// value loaded from its pointer, the atomic, the value found stored back, and whether it
/// was the expected one as the result (clang's `bool`: `i1`, or wider zero-extended).
fn compare_exchange(
    l: &mut FnLowering,
    builtin: Builtin,
    ret: ir::Handle<Type>,
    args: &[Value],
) -> Result<Lowered> {
    let expected_t = match l.m.types[l.value_type(args[1])] {
        Type::Pointer { pointee, .. } => pointee,
        _ => {
            return Err(Error::malformed(
                "compare-exchange's expected is not a pointer",
            ))
        }
    };
    let align =
        l.m.size_of(expected_t)
            .try_into()
            .ok()
            .filter(|&a: &u32| a > 0);
    let expected = Value::Inst(l.emit(
        None,
        expected_t,
        Op::Load {
            ptr: args[1],
            align,
            volatile: false,
        },
    ));
    let found = Value::Inst(l.emit(
        None,
        expected_t,
        Op::Builtin {
            builtin,
            args: vec![args[0], expected, args[2]],
        },
    ));
    let void = l.m.void_type();
    l.emit(
        None,
        void,
        Op::Store {
            ptr: args[1],
            value: found,
            align,
            volatile: false,
        },
    );
    let b = l.m.ty(Type::Bool);
    let same = Value::Inst(l.emit(
        None,
        b,
        Op::ICmp {
            pred: ir::IntPredicate::Eq,
            lhs: found,
            rhs: expected,
        },
    ));
    // clang returns C's bool as i1 (or wider, zero-extended).
    if ret == b {
        return Ok(Lowered::Value(same));
    }
    Ok(Lowered::Inst(
        ret,
        Op::Cast {
            op: ir::CastOp::ZExt,
            value: same,
        },
    ))
}
