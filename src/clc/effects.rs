//! Which operations have effects: what may move into its user's expression.

use crate::ir::Op;

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
        Op::Builtin { builtin, .. } => builtin.is_pure(),
        _ => false,
    }
}

/// Operations that mention an operand more than once in their expression.
pub fn repeats_operands(op: &Op) -> bool {
    matches!(op, Op::Shuffle { .. })
}
