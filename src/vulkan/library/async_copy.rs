//! `async_work_group_copy` and its strided form: every work-item of the group copies the
//! elements `i = its local linear id, + the work-group size, ...` before the call returns, so
//! the event is only a number, and `wait_group_events` is a work-group barrier that makes
//! each work-item's part visible to the others (`builtins`).

use crate::diag::Result;
use crate::ir::{self, AddressSpace, BinaryOp, Builtin, CastOp, IntPredicate, Op, Type, Value};
use crate::vulkan::body::FnBuilder;

/// args: dst, src, element count, [stride,] event.
pub(in crate::vulkan) fn async_copy(
    b: &mut FnBuilder,
    strided: bool,
    args: &[Value],
    ret: ir::Handle<Type>,
) -> Result<Value> {
    let (dst, src, num) = (args[0], args[1], args[2]);
    let stride = strided.then(|| args[3]);
    let nt = b.ty_of(num);
    let u32t = b.l.out.int_type(32);
    let widen = |b: &mut FnBuilder, v: Value| {
        if nt == u32t {
            v
        } else {
            b.push(
                nt,
                Op::Cast {
                    op: CastOp::ZExt,
                    value: v,
                },
            )
        }
    };
    let bin = |b: &mut FnBuilder, op, x, y| {
        b.push(
            nt,
            Op::Binary {
                op,
                lhs: x,
                rhs: y,
                flags: Default::default(),
            },
        )
    };
    // The stride applies on the global side: a gather into local memory or a scatter out.
    let dst_global = matches!(
        b.l.out.types[b.ty_of(dst)],
        Type::Pointer {
            space: AddressSpace::PhysicalStorageBuffer | AddressSpace::StorageBuffer,
            ..
        }
    );
    let lid = b.push(
        u32t,
        Op::Builtin {
            builtin: Builtin::WorkItem(ir::builtin::BuiltIn::LocalInvocationIndex),
            args: vec![],
        },
    );
    let lid = widen(b, lid);
    let total = crate::vulkan::groups::group_size(b);
    let total = widen(b, total);
    let slot = b.alloca(nt);
    b.store(slot, lid, None, false)?;
    let header = b.new_block(Some("async.copy".into()));
    let body = b.new_block(Some("async.copy.body".into()));
    let exit = b.new_block(Some("async.copy.done".into()));
    b.terminate(ir::Terminator::Branch(ir::BlockId(header as u32)));
    b.cur = header;
    let i = b.load(slot, None, false)?;
    let bool_t = b.l.out.ty(Type::Bool);
    let more = b.push(
        bool_t,
        Op::ICmp {
            pred: IntPredicate::Ult,
            lhs: i,
            rhs: num,
        },
    );
    b.terminate(ir::Terminator::CondBranch {
        cond: more,
        on_true: ir::BlockId(body as u32),
        on_false: ir::BlockId(exit as u32),
    });
    b.cur = body;
    let (si, di) = match stride {
        None => (i, i),
        Some(s) => {
            let far = bin(b, BinaryOp::Mul, i, s);
            if dst_global {
                (i, far)
            } else {
                (far, i)
            }
        }
    };
    let sp = b.gep(src, vec![si], true)?;
    let x = b.load(sp, None, false)?;
    let dp = b.gep(dst, vec![di], true)?;
    b.store(dp, x, None, false)?;
    let next = bin(b, BinaryOp::Add, i, total);
    b.store(slot, next, None, false)?;
    b.terminate(ir::Terminator::Branch(ir::BlockId(header as u32)));
    b.cur = exit;
    Ok(Value::Const(b.l.out.int_const(ret, 0)))
}
