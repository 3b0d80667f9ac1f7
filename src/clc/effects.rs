//! Which operations have effects: what may move into its user's expression.

use spirv::Op as S;

use crate::ir::builtin::{is_float_test, CLOp};
use crate::ir::{Builtin, Op};

/// Whether an operation has no effect but its value (so it may move into its user).
pub fn is_pure(op: &Op) -> bool {
    match op {
        Op::Binary { .. }
        | Op::FNeg(_)
        | Op::ICmp { .. }
        | Op::FCmp { .. }
        | Op::Cast { .. }
        | Op::Select { .. }
        | Op::Gep { .. }
        | Op::ExtractElement { .. }
        | Op::Shuffle { .. }
        | Op::ExtractValue { .. }
        | Op::Load {
            volatile: false, ..
        } => true,
        Op::Builtin { builtin, .. } => builtin_is_pure(builtin),
        _ => false,
    }
}

/// Operations that mention an operand more than once in their expression.
pub fn repeats_operands(op: &Op) -> bool {
    matches!(op, Op::Shuffle { .. })
}

/// Whether a builtin computes a value and nothing else (may move into its user).
pub fn builtin_is_pure(b: &Builtin) -> bool {
    match b {
        Builtin::WorkItem(_) | Builtin::Convert { .. } => true,
        Builtin::ExtInst { op, .. } => !matches!(
            op,
            CLOp::printf
                | CLOp::prefetch
                | CLOp::vstoren
                | CLOp::vstore_half
                | CLOp::vstore_half_r
                | CLOp::vstore_halfn
                | CLOp::vstore_halfn_r
                | CLOp::vstorea_halfn
                | CLOp::vstorea_halfn_r
                | CLOp::vloadn
                | CLOp::vload_half
                | CLOp::vload_halfn
                | CLOp::vloada_halfn
                | CLOp::frexp
                | CLOp::modf
                | CLOp::remquo
                | CLOp::sincos
                | CLOp::fract
                | CLOp::lgamma_r
        ),
        Builtin::Spirv(op) => {
            matches!(op, S::Dot | S::BitCount | S::Any | S::All) || is_float_test(*op)
        }
        _ => false,
    }
}
