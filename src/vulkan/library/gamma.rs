//! `erf`, `erfc`, `tgamma`, `lgamma` and `lgamma_r`: the double bodies (erf_double.rs,
//! gamma_double.rs) lane by lane, the half and float ones in float (gamma_float.rs).

use crate::diag::{Error, Result};
use crate::ir::builtin::OpenclOp as C;
use crate::ir::Value;
use crate::ir::{ConvertKind, Handle, Op, Sign, Type};

use super::E;
use crate::vulkan::emit::plain;

/// The library's body for `op`, if it is one of these (half and float only).
pub(super) fn gamma(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Result<Option<Value>> {
    if e.width(ret) == 64 {
        let complement = match op {
            C::erf => false,
            C::erfc => true,
            C::tgamma | C::lgamma | C::lgamma_r => return gamma_double(e, op, args, ret).map(Some),
            _ => return Ok(None),
        };
        // The series' loop can fail to build (as any store can); the first failure is kept.
        let failed = std::cell::RefCell::new(None);
        let v = e.lanewise(ret, &args[..1], |e, lanes, _| {
            super::erf_double::erf(e, lanes[0], complement).unwrap_or_else(|err| {
                failed.borrow_mut().get_or_insert(err);
                lanes[0]
            })
        });
        return match failed.into_inner() {
            Some(err) => Err(err),
            None => Ok(Some(v)),
        };
    }
    super::gamma_float::gamma(e, op, args, ret)
}

/// The gamma functions of double, lane by lane (`gamma_double`); `lgamma_r`'s signs stored
/// as the ints `args[1]` points to.
fn gamma_double(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Result<Value> {
    let failed = std::cell::RefCell::new(None);
    let signs = std::cell::RefCell::new(Vec::new());
    let v = e.lanewise(
        ret,
        &args[..1],
        |e, lanes, _| match super::gamma_double::gamma(e, op, lanes[0]) {
            Ok((r, s)) => {
                signs.borrow_mut().extend(s);
                r
            }
            Err(err) => {
                failed.borrow_mut().get_or_insert(err);
                lanes[0]
            }
        },
    );
    if let Some(err) = failed.into_inner() {
        return Err(err);
    }
    if op == C::lgamma_r {
        let st =
            e.b.pointee_of(args[1])
                .ok_or_else(|| Error::internal("lgamma_r's sign output is not a pointer"))?;
        let et = e.b.l.out.scalar_of(st);
        let ints: Vec<Value> = signs
            .into_inner()
            .into_iter()
            .map(|s| {
                e.b.push(
                    et,
                    Op::Builtin {
                        builtin: plain(ConvertKind::Float, ConvertKind::Int(Sign::Signed)),
                        args: vec![s],
                    },
                )
            })
            .collect();
        let s = e.compose(st, ints);
        e.b.store(args[1], s, None, false)?;
    }
    Ok(v)
}
