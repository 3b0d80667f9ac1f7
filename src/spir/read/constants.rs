//! LLVM constants (including constant expressions) -> graph constants.

use llvm_ir::constant::Float;
use llvm_ir::{Constant as C, ConstantRef};

use super::types::{name_str, TypeLowering};
use super::Symbols;
use crate::diag::{Error, Result};
use crate::ir::{self, CastOp, Constant, ConstantKind, Type};

pub(crate) fn lower_constant(
    m: &mut ir::Module,
    types: &mut TypeLowering,
    symbols: &Symbols,
    c: &ConstantRef,
) -> Result<ir::Handle<Constant>> {
    let ty_of = |m: &mut ir::Module, types: &mut TypeLowering, c: &C| -> Result<ir::Handle<Type>> {
        let t = llvm_ir::types::Typed::get_type(c, types_of(types));
        types.lower(m, &t)
    };
    let cast = |m: &mut ir::Module,
                types: &mut TypeLowering,
                op: CastOp,
                operand: &ConstantRef,
                to: &llvm_ir::TypeRef|
     -> Result<ir::Handle<Constant>> {
        let inner = lower_constant(m, types, symbols, operand)?;
        let ty = types.lower(m, to)?;
        // `inttoptr (ptrtoint P)` through an integer as wide as a pointer, within one address
        // space, is P itself (SPIR 1.2 producers wrote program-scope pointers so): a
        // reinterpretation, not two conversions through an integer.
        if let (CastOp::IntToPtr, ConstantKind::Cast(CastOp::PtrToInt, p)) =
            (op, &m.constants[inner].kind)
        {
            let p = *p;
            let held = m.constants[inner].ty;
            let wide = m.types[held]
                == Type::Int {
                    width: m.addressing.pointer_bits(),
                };
            let from = m.constants[p].ty;
            if wide && m.same_space(from, ty) {
                if from == ty {
                    return Ok(p);
                }
                let kind = ConstantKind::Cast(CastOp::Bitcast, p);
                return Ok(m.constant(Constant { ty, kind }));
            }
        }
        fitting(
            m,
            Constant {
                ty,
                kind: ConstantKind::Cast(op, inner),
            },
        )
    };
    let (ty, kind) = match c.as_ref() {
        C::Int { bits, value } => {
            // Narrow widths are held zero-extended in a wider integer (narrow.rs).
            let held = super::types::held_in(*bits).ok_or_else(|| Error::unsupported(format!("integer constant of type i{bits} (SPIR allows i1, i8, i16, i32, i64)")))?;
            let ty = if *bits == 1 { m.ty(Type::Bool) } else { m.int_type(held) };
            let value = if *bits < 64 { value & ((1u64 << bits) - 1) } else { *value };
            (ty, ConstantKind::Int(value))
        }
        C::Float(f) => match f {
            Float::Single(v) => (m.ty(Type::Float { width: 32 }), ConstantKind::Float(v.to_bits() as u64)),
            Float::Double(v) => (m.ty(Type::Float { width: 64 }), ConstantKind::Float(v.to_bits())),
            // Instruction operands of `half` arrive as marker calls (half_constants.rs);
            // what is left is inside a global's initializer or a constant expression.
            Float::Half => return Err(Error::unsupported("a half constant inside a global's initializer or a constant expression (the bitcode reader does not expose its value)")),
            other => return Err(Error::unsupported(format!("floating-point constant of kind {other:?} (the bitcode reader does not expose its value)"))),
        },
        C::Null(t) | C::AggregateZero(t) => (types.lower(m, t)?, ConstantKind::Null),
        C::Undef(t) | C::Poison(t) => (types.lower(m, t)?, ConstantKind::Undef),
        C::Struct { values, .. } => {
            let ty = ty_of(m, types, c)?;
            let elems = values.iter().map(|v| lower_constant(m, types, symbols, v)).collect::<Result<Vec<_>>>()?;
            (ty, ConstantKind::Composite(elems))
        }
        C::Array { elements, .. } => {
            let ty = ty_of(m, types, c)?;
            let elems = elements.iter().map(|v| lower_constant(m, types, symbols, v)).collect::<Result<Vec<_>>>()?;
            (ty, ConstantKind::Composite(elems))
        }
        C::Vector(elements) => {
            let ty = ty_of(m, types, c)?;
            let elems = elements.iter().map(|v| lower_constant(m, types, symbols, v)).collect::<Result<Vec<_>>>()?;
            (ty, defined_lanes(m, elems))
        }
        C::GlobalReference { name, .. } => {
            let n = name_str(name);
            if let Some(&g) = symbols.globals.get(&n) {
                // The global's own type and space decide the address type.
                let (pointee, space) = (m.globals[g].ty, m.globals[g].space);
                (m.ty(Type::Pointer { pointee, space }), ConstantKind::GlobalAddress(g))
            } else if let Some(&f) = symbols.functions.get(&n) {
                (ty_of(m, types, c)?, ConstantKind::FunctionAddress(f))
            } else {
                return Err(Error::unsupported(format!("reference to @{n}, which is neither a global nor a function")));
            }
        }
        C::GetElementPtr(g) => {
            let base = lower_constant(m, types, symbols, &g.address)?;
            let indices = g.indices.iter().map(|v| lower_constant(m, types, symbols, v)).collect::<Result<Vec<_>>>()?;
            // Derived here: llvm-ir's computed GEP type drops the address space.
            let consts: Vec<Option<u64>> = indices
                .iter()
                .map(|&i| match m.constants[i].kind {
                    ConstantKind::Int(k) => Some(k),
                    _ => None,
                })
                .collect();
            let bt = m.constants[base].ty;
            let ty = m
                .gep_result_type(bt, &consts)
                .ok_or_else(|| Error::malformed("constant getelementptr indices do not fit the type"))?;
            (ty, ConstantKind::Gep { inbounds: g.in_bounds, base, indices })
        }
        C::Trunc(x) => return cast(m, types, CastOp::Trunc, &x.operand, &x.to_type),
        C::ZExt(x) => return cast(m, types, CastOp::ZExt, &x.operand, &x.to_type),
        C::SExt(x) => return cast(m, types, CastOp::SExt, &x.operand, &x.to_type),
        C::FPTrunc(x) => return cast(m, types, CastOp::FPTrunc, &x.operand, &x.to_type),
        C::FPExt(x) => return cast(m, types, CastOp::FPExt, &x.operand, &x.to_type),
        C::FPToUI(x) => return cast(m, types, CastOp::FPToUI, &x.operand, &x.to_type),
        C::FPToSI(x) => return cast(m, types, CastOp::FPToSI, &x.operand, &x.to_type),
        C::UIToFP(x) => return cast(m, types, CastOp::UIToFP, &x.operand, &x.to_type),
        C::SIToFP(x) => return cast(m, types, CastOp::SIToFP, &x.operand, &x.to_type),
        C::PtrToInt(x) => return cast(m, types, CastOp::PtrToInt, &x.operand, &x.to_type),
        C::IntToPtr(x) => return cast(m, types, CastOp::IntToPtr, &x.operand, &x.to_type),
        C::BitCast(x) => return cast(m, types, CastOp::Bitcast, &x.operand, &x.to_type),
        C::AddrSpaceCast(x) => return cast(m, types, CastOp::AddrSpaceCast, &x.operand, &x.to_type),
        other => return Err(Error::unsupported(format!("constant expression {other}"))),
    };
    fitting(m, Constant { ty, kind })
}

/// `c` in the module, if its parts fit its type. LLVM's bitcode reader lets a data sequence
/// of another element type through (a `<4 x i32>` spelled as three bytes), and a cast between
/// types it does not convert (a `uitofp` of a pointer).
fn fitting(m: &mut ir::Module, c: Constant) -> Result<ir::Handle<Constant>> {
    if let Some(e) = crate::verify::constant_error(m, &c) {
        return Err(Error::malformed(format!(
            "a constant that does not fit its type: {e}"
        )));
    }
    Ok(m.constant(c))
}

/// llvm-ir's `Typed` needs its `Types` table; the module holds it.
/// A vector constant whose lanes are partly undefined (`<i32 0, i32 0, i32 poison, i32
/// poison>`, as LLVM's optimizer leaves them): the undefined lanes are zero, a value undef
/// may take and the one SPIR-V's writer spells (SPIR-V has no undefined part of a constant),
/// and a vector of zeros is the null constant, as LLVM itself spells one. A vector wholly
/// undefined stays undefined.
fn defined_lanes(m: &mut ir::Module, elems: Vec<ir::Handle<ir::Constant>>) -> ConstantKind {
    let undef = |m: &ir::Module, e: &ir::Handle<ir::Constant>| {
        matches!(m.constants[*e].kind, ConstantKind::Undef)
    };
    if elems.iter().all(|e| undef(m, e)) || !elems.iter().any(|e| undef(m, e)) {
        return ConstantKind::Composite(elems);
    }
    let elems: Vec<_> = elems
        .into_iter()
        .map(|e| {
            if !undef(m, &e) {
                return e;
            }
            let ty = m.constants[e].ty;
            let kind = match m.types[ty] {
                Type::Int { .. } => ConstantKind::Int(0),
                Type::Float { .. } => ConstantKind::Float(0),
                _ => ConstantKind::Null,
            };
            m.constant(ir::Constant { ty, kind })
        })
        .collect();
    let zero = |e: &ir::Handle<ir::Constant>| {
        matches!(
            m.constants[*e].kind,
            ConstantKind::Int(0) | ConstantKind::Float(0) | ConstantKind::Null
        )
    };
    if elems.iter().all(zero) {
        ConstantKind::Null
    } else {
        ConstantKind::Composite(elems)
    }
}

fn types_of<'a>(t: &'a TypeLowering) -> &'a llvm_ir::types::Types {
    &t.llvm_module().types
}

/// `c` with the type `expected`, where the two differ only in struct naming: llvm-ir gives a
/// constant struct its literal type (`{ i16, [3 x i8] }`), while the global it initializes
/// has the named one (`%struct.anon`). Aggregates are rebuilt member by member. Any other
/// mismatch is malformed input (LLVM's bitcode reader lets an initializer of another type
/// through: an `i32` where the global has a pointer).
pub(crate) fn coerce(
    m: &mut ir::Module,
    c: ir::Handle<ir::Constant>,
    expected: ir::Handle<Type>,
) -> Result<ir::Handle<ir::Constant>> {
    let have = m.constants[c].ty;
    if have == expected {
        return Ok(c);
    }
    let mismatch = |m: &ir::Module| {
        Error::malformed(format!(
            "a constant of type {} where the initializer's type has {}",
            ir::print::type_text(m, have),
            ir::print::type_text(m, expected)
        ))
    };
    let member_types: Vec<ir::Handle<Type>> = match &m.types[expected] {
        Type::Struct {
            members: Some(ms), ..
        } => ms.clone(),
        Type::Array { elem, len } => vec![*elem; *len as usize],
        Type::Vector { elem, len } => vec![*elem; *len as usize],
        _ => return Err(mismatch(m)),
    };
    let kind = match m.constants[c].kind.clone() {
        ConstantKind::Composite(elems) if elems.len() == member_types.len() => {
            let elems = elems
                .into_iter()
                .zip(member_types)
                .map(|(e, t)| coerce(m, e, t))
                .collect::<Result<_>>()?;
            ConstantKind::Composite(elems)
        }
        k @ (ConstantKind::Null | ConstantKind::Undef) => k,
        _ => return Err(mismatch(m)),
    };
    Ok(m.constant(ir::Constant { ty: expected, kind }))
}
