//! cl_khr_integer_dot_product's builtins (`dot` and `dot_acc_sat` of `char4`/`uchar4`, and the
//! packed `dot[_acc_sat]_4x8packed_*` forms; their names: `spir::opencl_names`) as SPIR-V's
//! integer dot products.

use super::lowering::Lowered;
use crate::ir::{self, Builtin, Op, Type, Value};

/// A `cl_khr_integer_dot_product` builtin as SPIR-V's instruction, whose one mixed form takes
/// the signed factor first (`dot(uchar4, char4)` is `OpSUDot` of the factors swapped).
pub(super) fn lower(
    dot: ir::IntegerDot,
    ret: ir::Handle<Type>,
    mut args: Vec<Value>,
) -> Option<Lowered> {
    if args.len() != if dot.accumulate { 3 } else { 2 } {
        return None;
    }
    let op = dot.primitive().or_else(|| {
        args.swap(0, 1);
        let swapped = ir::IntegerDot {
            first: dot.second,
            second: dot.first,
            ..dot
        };
        swapped.primitive()
    })?;
    let builtin = Builtin::Primitive(op);
    Some(Lowered::Inst(ret, Op::Builtin { builtin, args }))
}
