//! OpenCL C's work-group and sub-group collectives (`work_group_reduce_add`, `sub_group_ballot`,
//! ...) as the SPIR-V group instructions they are: `int` predicates become booleans (`!= 0`),
//! boolean results become `int` again (`zext`), and `work_group_broadcast`'s per-dimension
//! local ids become one vector.

use super::lowering::FnLowering;
use super::lowering::Lowered;
use crate::ir::{self, Builtin, CastOp, IntPredicate, Op, Type, Value};
use crate::spir::groups::GroupName;

/// `None` when the name's row has no instruction for the argument's class (e.g. a float
/// bitwise reduction).
pub(crate) fn lower(
    l: &mut FnLowering,
    g: GroupName,
    first_sign: Option<ir::Sign>,
    ret: ir::Handle<Type>,
    mut args: Vec<Value>,
) -> Option<Lowered> {
    let op = g.row.ops.pick(first_sign)?;
    let bool_ty = l.m.ty(Type::Bool);
    if g.row.predicate {
        let p = *args.first()?;
        let zero = {
            let t = l.value_type(p);
            Value::Const(l.m.int_const(t, 0))
        };
        // `v != 0`, or the boolean `v` extends (the normal form the SPIR-V reader reads too).
        args[0] = match l.extension_test(IntPredicate::Ne, p, zero) {
            Some(b) => b,
            None => {
                let cmp = Op::ICmp {
                    pred: IntPredicate::Ne,
                    lhs: p,
                    rhs: zero,
                };
                Value::Inst(l.emit(None, bool_ty, cmp))
            }
        };
    }
    if args.len() > 2 && op == crate::ir::GroupOp::Broadcast {
        // work_group_broadcast(x, lx, ly[, lz]): SPIR-V takes the local id as one vector.
        let ids = args.split_off(1);
        let local_id = l.build_vector(&ids);
        args.push(local_id);
    }
    let builtin = Op::Builtin {
        builtin: Builtin::Group {
            op,
            scope: g.scope,
            operation: g.operation,
        },
        args,
    };
    if !g.row.boolean {
        return Some(Lowered::Inst(ret, builtin));
    }
    let b = l.emit(None, bool_ty, builtin);
    Some(Lowered::Inst(
        ret,
        Op::Cast {
            op: CastOp::ZExt,
            value: Value::Inst(b),
        },
    ))
}
