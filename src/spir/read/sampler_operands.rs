//! Sampler operands of calls: a sampler-typed value, or a legacy SPIR `i32` sampler
//! bit-field (a constant, a constant global, a variable holding one, or a run-time argument)
//! made a sampler constant where it is known.

use super::lowering::FnLowering;
use crate::diag::{Error, Result};
use crate::ir::{self, ConstantKind, Op, Type, Value};

/// A sampler given as an OpenCL sampler bit-field: an integer constant (legacy SPIR's
/// `bitcast i32 N to i32` is the constant itself), or a load from a constant global
/// initialized with one (legacy SPIR).
pub(super) fn sampler_constant(
    l: &mut FnLowering,
    v: Option<Value>,
) -> Result<ir::Handle<ir::Constant>> {
    let bits = match v {
        Some(Value::Const(c)) => match l.m.constants[c].kind {
            ConstantKind::Int(b) => Some(b as u32),
            _ => None,
        },
        Some(Value::Inst(h)) => match &l.body.insts[h].op {
            Op::Load {
                ptr: Value::Const(g),
                ..
            } => match l.m.constants[*g].kind {
                ConstantKind::GlobalAddress(g) => {
                    l.m.globals[g]
                        .init
                        .and_then(|i| match l.m.constants[i].kind {
                            ConstantKind::Int(b) => Some(b as u32),
                            _ => None,
                        })
                }
                _ => None,
            },
            _ => None,
        },
        _ => None,
    };
    let bits =
        bits.ok_or_else(|| Error::unsupported("sampler initializer that is not a constant"))?;
    let kind = ir::constant::decode_sampler(bits).ok_or_else(|| {
        Error::malformed(format!(
            "sampler initializer 0x{bits:x} is not a valid OpenCL sampler"
        ))
    })?;
    let ty = l.m.ty(Type::Sampler);
    Ok(l.m.constant(ir::Constant { ty, kind }))
}

/// An integer sampler bit-field only known at run time (a SPIR `i32` sampler argument).
pub(super) fn is_runtime_bits(l: &mut FnLowering, v: Value) -> bool {
    matches!(v, Value::Param(_) | Value::Inst(_))
        && matches!(l.m.types[l.value_type(v)], Type::Int { .. })
        && sampler_constant(l, Some(v)).is_err()
}

/// A sampler operand: sampler-typed values pass through, integer bit-fields become constants.
pub(crate) fn sampler_operand(l: &mut FnLowering, v: Value) -> Result<Value> {
    // A select of two samplers or legacy bit-fields (an `i32` argument and a constant, say):
    // the select of the two samplers (which the sampling then makes through each,
    // `sample_each`).
    if let Value::Inst(h) = v {
        if let Op::Select {
            cond,
            on_true,
            on_false,
        } = l.body.insts[h].op.clone()
        {
            let (t, f) = (sampler_operand(l, on_true)?, sampler_operand(l, on_false)?);
            let sampler = l.m.ty(Type::Sampler);
            let op = Op::Select {
                cond,
                on_true: t,
                on_false: f,
            };
            let s = l.emit(None, sampler, op);
            l.drop_if_unused(s);
            l.drop_if_unused(h);
            return Ok(Value::Inst(s));
        }
    }
    if matches!(l.m.types[l.value_type(v)], Type::Sampler) {
        return Ok(v);
    }
    let v = constant_through_variable(l, v).unwrap_or(v);
    Ok(Value::Const(sampler_constant(l, Some(v))?))
}

/// A load from a variable whose one store is of a constant is that constant: a legacy SPIR
/// `const sampler_t s = CLK_...;` at -O0 is an `i32` variable holding the bit-field.
fn constant_through_variable(l: &FnLowering, v: Value) -> Option<Value> {
    let Value::Inst(h) = v else { return None };
    let Op::Load { ptr, .. } = l.body.insts[h].op else {
        return None;
    };
    let Value::Inst(var) = ptr else { return None };
    if !matches!(l.body.insts[var].op, Op::Alloca { .. }) {
        return None;
    }
    // Every use of the variable's address is a load from it or one store of a constant.
    let mut stored = None;
    for blk in &l.body.blocks {
        for &i in &blk.insts {
            match &l.body.insts[i].op {
                Op::Load { .. } => {}
                Op::Store { ptr, value, .. } if *ptr == Value::Inst(var) => match (stored, value) {
                    (None, Value::Const(_)) => stored = Some(*value),
                    _ => return None,
                },
                op => {
                    let mut escapes = false;
                    ir::operands::for_each_use(op, |o| escapes |= o == Value::Inst(var));
                    if escapes {
                        return None;
                    }
                }
            }
        }
    }
    stored
}
