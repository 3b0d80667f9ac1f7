//! OpenCL C 2.0 pipes (mappings/pipes.toml): clang-14's `__read_pipe_2` family and SPIR 2.0's
//! mangled `read_pipe` family (§2.10.7) both take the SPIR-V instruction's operands in its
//! order, the packet size and alignment last; the group forms' scope is in the name.

use super::lowering::FnLowering;
use super::lowering::Lowered;
use crate::diag::{Error, Result};
use crate::ir::{self, Builtin, ConstantKind, Op, Type, Value};
use crate::mappings::PipeSpelling;

/// The call of `row`'s function with `args`, returning `ret`.
pub(super) fn lower(
    l: &mut FnLowering,
    row: &PipeSpelling,
    ret: ir::Handle<Type>,
    args: Vec<Value>,
) -> Result<Lowered> {
    if args.len() != row.args as usize {
        return Err(Error::unsupported(format!(
            "a pipe function with {} operands, where it takes {}",
            args.len(),
            row.args
        )));
    }
    // The packet size and alignment are literals (SPIR 2.0 §2.10.7): SPIR-V's operands are
    // constants too, which the consumer reads to know the packet.
    if row.args >= 3 {
        for &v in &args[args.len() - 2..] {
            let literal = matches!(v, Value::Const(c)
                if matches!(l.m.constants[c].kind, ConstantKind::Int(_)));
            if !literal {
                return Err(Error::unsupported(
                    "a pipe function whose packet size or alignment is not a constant",
                ));
            }
        }
    }
    let mut ops = Vec::with_capacity(args.len() + 1);
    if let Some(scope) = row.scope {
        let i32t = l.m.int_type(32);
        ops.push(Value::Const(l.m.int_const(i32t, scope as u64)));
    }
    ops.extend(args);
    Ok(Lowered::Inst(
        ret,
        Op::Builtin {
            builtin: Builtin::Primitive(row.op),
            args: ops,
        },
    ))
}
