//! The one seam between the body lowering and the families above it.
//!
//! The dispatcher (`inst.rs`) lowers each instruction of a body. Three kinds belong to
//! families that extend the context rather than to the context itself: an OpenCL builtin
//! (`builtins`, and through it images, atomics, collectives, conversions and the math
//! library), a `printf` (`printf`), and a float division within OpenCL's bound
//! (`library::div_sqrt`). The dispatcher reaches them through this table, which the kernel
//! lowering (`kernel/`, above both) fills from the families: so the context (`FnBuilder`,
//! this folder) names none of them, and each family names the context it extends.

use crate::diag::Result;
use crate::ir::{self, Handle, Type, Value};

use super::FnBuilder;

/// An argument of `printf` as the printf family takes it.
pub(in crate::vulkan) enum PrintfArg {
    /// A string constant (the format, a `%s` argument): its text, which the host prints.
    Str(String),
    /// A value.
    Value(Value),
    /// A float that the source widened to double only for printf: the float itself.
    Widened(Value),
}

/// The builtin family's entry: a builtin, its lowered arguments and its source result type.
pub(in crate::vulkan) type LowerBuiltin =
    fn(&mut FnBuilder, &ir::Builtin, Vec<Value>, Handle<Type>) -> Result<Option<Value>>;

/// The families' entry points the dispatcher calls.
#[derive(Debug)]
pub(in crate::vulkan) struct Families {
    /// An OpenCL builtin other than `printf`, its arguments lowered; `None` for a builtin
    /// without a result.
    pub builtin: LowerBuiltin,
    /// The text of a string constant `value` (of a body of the source) points at, if it is
    /// one.
    pub string_of: fn(&ir::Module, &ir::Body, Value) -> Option<String>,
    /// A `printf` of these arguments, returning the shader-form type's value.
    pub printf: fn(&mut FnBuilder, Vec<PrintfArg>, Handle<Type>) -> Result<Value>,
    /// `a / b` of float type `t` within OpenCL's 2.5 ulp.
    pub divide: fn(&mut FnBuilder, Value, Value, Handle<Type>) -> Value,
}
