//! The value operands of an instruction or terminator, in the order the graph lists them:
//! the one walk every pass over uses and definitions shares (the verifier, the readers'
//! normal forms, the Vulkan lowering's rewrites).

use super::function::{Op, Terminator, Value};

/// Call `f` on every value operand of `op` that the program uses: all but the operands of
/// debug declarations ([`Op::DebugDeclare`], [`Op::DebugValue`]), which say where a variable
/// is without using it (as LLVM's metadata operands do): an analysis that decides code never
/// sees them, so debug information does not change the code made.
pub fn for_each_use(op: &Op, f: impl FnMut(Value)) {
    if !op.is_debug() {
        for_each_operand(op, f);
    }
}

/// Call `f` on every value operand of `op`, debug declarations' included.
pub fn for_each_operand(op: &Op, mut f: impl FnMut(Value)) {
    match op {
        Op::Binary { lhs, rhs, .. } | Op::ICmp { lhs, rhs, .. } | Op::FCmp { lhs, rhs, .. } => {
            f(*lhs);
            f(*rhs)
        }
        Op::FNeg(x)
        | Op::Cast { value: x, .. }
        | Op::Load { ptr: x, .. }
        | Op::DebugDeclare { address: x, .. }
        | Op::DebugValue { value: x, .. } => f(*x),
        Op::Select {
            cond,
            on_true,
            on_false,
        } => {
            f(*cond);
            f(*on_true);
            f(*on_false)
        }
        Op::Alloca { .. } => {}
        Op::Store { ptr, value, .. } => {
            f(*ptr);
            f(*value)
        }
        Op::Gep { base, indices, .. } => {
            f(*base);
            indices.iter().for_each(|&i| f(i))
        }
        Op::Phi { incoming } => incoming.iter().for_each(|&(v, _)| f(v)),
        Op::Call { args, .. } | Op::Builtin { args, .. } => args.iter().for_each(|&a| f(a)),
        Op::ExtractElement { vector, index } => {
            f(*vector);
            f(*index)
        }
        Op::InsertElement {
            vector,
            element,
            index,
        } => {
            f(*vector);
            f(*element);
            f(*index)
        }
        Op::Shuffle { a, b, .. } => {
            f(*a);
            f(*b)
        }
        Op::ExtractValue { aggregate, .. } => f(*aggregate),
        Op::InsertValue {
            aggregate, element, ..
        } => {
            f(*aggregate);
            f(*element)
        }
        Op::CopyMemory { dst, src, size, .. } => {
            f(*dst);
            f(*src);
            f(*size)
        }
        Op::FillMemory {
            dst, byte, size, ..
        } => {
            f(*dst);
            f(*byte);
            f(*size)
        }
    }
}

/// Call `f` on every value operand of `op`, which it may replace.
pub fn for_each_operand_mut(op: &mut Op, mut f: impl FnMut(&mut Value)) {
    match op {
        Op::Binary { lhs, rhs, .. } | Op::ICmp { lhs, rhs, .. } | Op::FCmp { lhs, rhs, .. } => {
            f(lhs);
            f(rhs)
        }
        Op::FNeg(x)
        | Op::Cast { value: x, .. }
        | Op::Load { ptr: x, .. }
        | Op::DebugDeclare { address: x, .. }
        | Op::DebugValue { value: x, .. } => f(x),
        Op::Select {
            cond,
            on_true,
            on_false,
        } => {
            f(cond);
            f(on_true);
            f(on_false)
        }
        Op::Alloca { .. } => {}
        Op::Store { ptr, value, .. } => {
            f(ptr);
            f(value)
        }
        Op::Gep { base, indices, .. } => {
            f(base);
            indices.iter_mut().for_each(&mut f)
        }
        Op::Phi { incoming } => incoming.iter_mut().for_each(|(v, _)| f(v)),
        Op::Call { args, .. } | Op::Builtin { args, .. } => args.iter_mut().for_each(&mut f),
        Op::ExtractElement { vector, index } => {
            f(vector);
            f(index)
        }
        Op::InsertElement {
            vector,
            element,
            index,
        } => {
            f(vector);
            f(element);
            f(index)
        }
        Op::Shuffle { a, b, .. } => {
            f(a);
            f(b)
        }
        Op::ExtractValue { aggregate, .. } => f(aggregate),
        Op::InsertValue {
            aggregate, element, ..
        } => {
            f(aggregate);
            f(element)
        }
        Op::CopyMemory { dst, src, size, .. } => {
            f(dst);
            f(src);
            f(size)
        }
        Op::FillMemory {
            dst, byte, size, ..
        } => {
            f(dst);
            f(byte);
            f(size)
        }
    }
}

/// Call `f` on every value operand of a terminator, which it may replace.
pub fn terminator_operands_mut(t: &mut Terminator, mut f: impl FnMut(&mut Value)) {
    match t {
        Terminator::CondBranch { cond, .. } => f(cond),
        Terminator::Switch { value, .. } => f(value),
        Terminator::Return(Some(v)) => f(v),
        _ => {}
    }
}

/// Call `f` on every value operand of a terminator.
pub fn terminator_operands(t: &Terminator, mut f: impl FnMut(Value)) {
    let mut t = t.clone();
    terminator_operands_mut(&mut t, |v| f(*v));
}
