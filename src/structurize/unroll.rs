//! Which loops the structurizer marks for unrolling (SPIR-V's `Unroll` loop control, a hint
//! the driver's compiler may follow). NVIDIA's Vulkan compiler leaves a loop whose trip count
//! it cannot see rolled, where its OpenCL compiler unrolls it; marked, the n-body kernel's
//! inner loop ran 10% faster on the H200 (docs/logs/variants/). A driver that follows the hint
//! to the letter unrolls a loop whose trip count it knows completely (Mesa's, after
//! specialization), so a loop is marked only where that stays small:
//!
//! * it is innermost, holds no barrier and no call, and at most [`MAX_INSTRUCTIONS`]
//!   instructions;
//! * each of its exits tests a counter (a variable stepped by a constant, an argument or the
//!   work-group size) against a bound the driver cannot know (a kernel argument, a value
//!   read from memory) or one no larger than a work-group's size (the work-group size, which
//!   the host specializes). A loop to a constant bound is left as the input's optimizer
//!   left it: rolled, it was too long to unroll.

use crate::hash::HashSet;
use crate::ir::{self, BinaryOp, Body, Builtin, CastOp, ConstantKind, Op, Terminator, Value};

/// The most instructions a marked loop holds (the n-body and dgemv kernels' inner loops fit).
pub(super) const MAX_INSTRUCTIONS: usize = 48;

/// What an exit test's operand is, as far as a driver could know it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    /// The loop's counter: a variable's value, stepped by a constant or by a value the
    /// driver cannot know or a work-group size.
    Counter,
    /// Unknown until the kernel runs.
    Runtime,
    /// At most a work-group's size once specialized.
    Small,
    /// Anything else (a constant among them).
    Other,
}

/// Whether the loop of blocks `members` (its header among them, before the structurizer
/// changes it) is one to mark, `inner` saying whether it holds another loop.
pub(super) fn worth_unrolling(
    m: &ir::Module,
    body: &Body,
    members: &HashSet<usize>,
    inner: bool,
) -> bool {
    if inner {
        return false;
    }
    let mut count = 0;
    for &b in members {
        for &h in &body.blocks[b].insts {
            count += 1;
            match &body.insts[h].op {
                Op::Call { .. }
                | Op::Builtin {
                    builtin: Builtin::ControlBarrier { .. },
                    ..
                } => return false,
                _ => {}
            }
        }
    }
    if count > MAX_INSTRUCTIONS {
        return false;
    }
    let mut exits = 0;
    for &b in members {
        if let Terminator::CondBranch {
            cond,
            on_true,
            on_false,
        } = body.blocks[b].terminator
        {
            let leaves = [on_true, on_false]
                .iter()
                .any(|t| !members.contains(&(t.0 as usize)));
            if !leaves {
                continue;
            }
            exits += 1;
            let Value::Inst(c) = cond else {
                return false;
            };
            let Op::ICmp { lhs, rhs, .. } = body.insts[c].op else {
                return false;
            };
            let sides = [bound(m, body, lhs, 0), bound(m, body, rhs, 0)];
            let bounded = |x: Bound| matches!(x, Bound::Runtime | Bound::Small);
            let ok = (sides[0] == Bound::Counter && bounded(sides[1]))
                || (sides[1] == Bound::Counter && bounded(sides[0]));
            if !ok {
                return false;
            }
        } else if body.blocks[b]
            .terminator
            .successors()
            .into_iter()
            .any(|t| !members.contains(&t))
        {
            // A switch or a return that leaves: not a counted loop.
            return false;
        }
    }
    exits > 0
}

/// What `v` is as an exit test's operand (see [`Bound`]), looking through casts and steps.
fn bound(m: &ir::Module, body: &Body, v: Value, depth: u32) -> Bound {
    if depth > 8 {
        return Bound::Other;
    }
    let is_const = |v: Value| matches!(v, Value::Const(_));
    match v {
        Value::Param(_) => Bound::Runtime,
        Value::Const(c) => match m.constants[c].kind {
            ConstantKind::Spec { .. } => Bound::Small,
            _ => Bound::Other,
        },
        Value::Inst(h) => match &body.insts[h].op {
            // Shader form keeps a loop's values in Function variables.
            Op::Load {
                ptr: Value::Inst(p),
                ..
            } if matches!(body.insts[*p].op, Op::Alloca { .. }) => Bound::Counter,
            Op::Load { .. } => Bound::Runtime,
            // A step by a constant, or a counter stepped by a value the loop does not change
            // (`j += get_local_size(0)`): the bound still caps the iterations.
            Op::Binary {
                op: BinaryOp::Add | BinaryOp::Sub,
                lhs,
                rhs,
                ..
            } => {
                let (l, r) = (
                    bound(m, body, *lhs, depth + 1),
                    bound(m, body, *rhs, depth + 1),
                );
                let step =
                    |x: Bound, v: Value| is_const(v) || matches!(x, Bound::Runtime | Bound::Small);
                match (l, r) {
                    _ if is_const(*rhs) => l,
                    _ if is_const(*lhs) => r,
                    (Bound::Counter, x) if step(x, *rhs) => Bound::Counter,
                    (x, Bound::Counter) if step(x, *lhs) => Bound::Counter,
                    _ => Bound::Other,
                }
            }
            Op::Cast {
                op: CastOp::ZExt | CastOp::SExt | CastOp::Trunc,
                value,
            } => bound(m, body, *value, depth + 1),
            // A component of the work-group size (a composite of specialization constants).
            Op::ExtractElement {
                vector: Value::Const(c),
                ..
            }
            | Op::ExtractValue {
                aggregate: Value::Const(c),
                ..
            } if matches!(&m.constants[*c].kind, ConstantKind::Composite(parts)
                    if parts.iter().all(|p| matches!(m.constants[*p].kind, ConstantKind::Spec { .. }))) =>
            {
                Bound::Small
            }
            _ => Bound::Other,
        },
    }
}
