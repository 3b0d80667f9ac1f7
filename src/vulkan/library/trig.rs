//! The trigonometric functions and their inverses: trig_double.rs for doubles,
//! trig_float.rs for halves and floats (Vulkan's `sin` and `cos` promise an absolute 2^-11
//! inside [-π, π] and nothing outside; OpenCL asks 4 ulp everywhere).

use crate::diag::Result;
use crate::ir::builtin::OpenclOp as C;
use crate::ir::Handle;
use crate::ir::{Type, Value};

use super::E;

/// The library's body for `op` if it is a trigonometric one: trig_double.rs for doubles,
/// trig_float.rs for halves and floats.
pub(super) fn trig(e: &mut E, op: C, args: &[Value], ret: Handle<Type>) -> Result<Option<Value>> {
    if e.width(ret) == 64 {
        super::trig_double::trig(e, op, args, ret)
    } else {
        super::trig_float::trig(e, op, args, ret)
    }
}
