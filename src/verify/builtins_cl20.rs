//! The typing rules of OpenCL C 2.0's pipe and device-side enqueue instructions (the
//! `Builtin::Primitive` forms of `builtins.rs`): each operand's kind and the result's, so that
//! a module whose pipe or enqueue operands have other types (a mutated input, a foreign
//! producer's mistake) is refused where it is read, not handed to a writer.

use crate::ir::module::Module;
use crate::ir::types::{AddressSpace, Type};
use crate::ir::Handle;
use crate::ir::Primitive as S;

/// The kind of one operand or result.
#[derive(Clone, Copy)]
enum K {
    Pipe,
    ReserveId,
    /// A scalar integer.
    Int,
    /// A pointer in the generic address space.
    GenericPtr,
    /// Any pointer.
    Ptr,
    Queue,
    Event,
    /// A function (its address).
    Func,
    /// An `ndrange_t` or a pointer to one (llvm-spirv's form).
    NdRange,
    /// A size of OpBuildNDRange: an integer or an array of them.
    Size,
    /// A local size of OpEnqueueKernel: an integer or a pointer to one (llvm-spirv's form).
    LocalSize,
    Bool,
    Void,
    /// An `ndrange_t` (OpBuildNDRange's result).
    Struct,
}

/// (operands, repeated trailing operand, result) of `op`; `None` for other instructions.
fn rule(op: S) -> Option<(&'static [K], Option<K>, K)> {
    use K::*;
    Some(match op {
        S::ReadPipe | S::WritePipe => (&[Pipe, GenericPtr, Int, Int], None, Int),
        S::ReservedReadPipe | S::ReservedWritePipe => {
            (&[Pipe, ReserveId, Int, GenericPtr, Int, Int], None, Int)
        }
        S::ReserveReadPipePackets | S::ReserveWritePipePackets => {
            (&[Pipe, Int, Int, Int], None, ReserveId)
        }
        S::CommitReadPipe | S::CommitWritePipe => (&[Pipe, ReserveId, Int, Int], None, Void),
        S::GroupReserveReadPipePackets | S::GroupReserveWritePipePackets => {
            (&[Int, Pipe, Int, Int, Int], None, ReserveId)
        }
        S::GroupCommitReadPipe | S::GroupCommitWritePipe => {
            (&[Int, Pipe, ReserveId, Int, Int], None, Void)
        }
        S::GetNumPipePackets | S::GetMaxPipePackets => (&[Pipe, Int, Int], None, Int),
        S::IsValidReserveId => (&[ReserveId], None, Bool),
        S::EnqueueKernel => (
            &[Queue, Int, NdRange, Int, Ptr, Ptr, Func, Ptr, Int, Int],
            Some(LocalSize),
            Int,
        ),
        S::GetKernelWorkGroupSize | S::GetKernelPreferredWorkGroupSizeMultiple => {
            (&[Func, Ptr, Int, Int], None, Int)
        }
        S::GetKernelNDrangeMaxSubGroupSize | S::GetKernelNDrangeSubGroupCount => {
            (&[NdRange, Func, Ptr, Int, Int], None, Int)
        }
        S::BuildNDRange => (&[Size, Size, Size], None, Struct),
        S::GetDefaultQueue => (&[], None, Queue),
        S::CreateUserEvent => (&[], None, Event),
        S::RetainEvent | S::ReleaseEvent => (&[Event], None, Void),
        S::IsValidEvent => (&[Event], None, Bool),
        S::SetUserEventStatus => (&[Event, Int], None, Void),
        S::CaptureEventProfilingInfo => (&[Event, Int, Ptr], None, Void),
        S::EnqueueMarker => (&[Queue, Int, Ptr, Ptr], None, Int),
        _ => return None,
    })
}

fn fits(m: &Module, k: K, t: Handle<Type>) -> bool {
    let ty = &m.types[t];
    match k {
        K::Pipe => matches!(ty, Type::Pipe(_)),
        K::ReserveId => matches!(ty, Type::ReserveId),
        K::Int => matches!(ty, Type::Int { .. }),
        K::GenericPtr => matches!(
            ty,
            Type::Pointer {
                space: AddressSpace::Generic,
                ..
            }
        ),
        K::Ptr => matches!(ty, Type::Pointer { .. }),
        K::Queue => matches!(ty, Type::Queue),
        K::Event => matches!(ty, Type::DeviceEvent),
        K::Func => matches!(ty, Type::Pointer { pointee, .. }
            if matches!(m.types[*pointee], Type::Function { .. })),
        K::NdRange => match ty {
            Type::Pointer { pointee, .. } => is_ndrange(m, *pointee),
            _ => is_ndrange(m, t),
        },
        K::Size => match ty {
            Type::Int { .. } => true,
            Type::Array { elem, len } => {
                matches!(m.types[*elem], Type::Int { .. }) && (2..=3).contains(len)
            }
            _ => false,
        },
        K::LocalSize => matches!(ty, Type::Int { .. } | Type::Pointer { .. }),
        K::Bool => matches!(ty, Type::Bool),
        K::Void => matches!(ty, Type::Void),
        K::Struct => is_ndrange(m, t),
    }
}

/// Whether `t` is OpenCL C's `ndrange_t` as SPIR and SPIR-V lay it out: the work dimension
/// and three arrays of three sizes (offset, global and local size).
fn is_ndrange(m: &Module, t: Handle<Type>) -> bool {
    let Type::Struct {
        members: Some(members),
        ..
    } = &m.types[t]
    else {
        return false;
    };
    let sizes = |&t: &Handle<Type>| {
        matches!(m.types[t], Type::Array { elem, len: 3 }
            if matches!(m.types[elem], Type::Int { .. }))
    };
    matches!(members.as_slice(), [dim, rest @ ..]
        if matches!(m.types[*dim], Type::Int { .. }) && rest.len() == 3 && rest.iter().all(sizes))
}

/// What is wrong with OpenCL C 2.0 instruction `op` taking `args` and giving `ty`; `None`
/// when it fits, or when `op` is not one of them.
pub(super) fn error(m: &Module, op: S, args: &[Handle<Type>], ty: Handle<Type>) -> Option<String> {
    let (fixed, tail, result) = rule(op)?;
    if args.len() < fixed.len() || (tail.is_none() && args.len() > fixed.len()) {
        return Some(format!(
            "{} operands where Op{op:?} takes {}",
            args.len(),
            fixed.len()
        ));
    }
    for (i, &t) in args.iter().enumerate() {
        let k = fixed.get(i).copied().or(tail)?;
        if !fits(m, k, t) {
            return Some(format!("operand {i} of Op{op:?} is of the wrong kind"));
        }
    }
    (!fits(m, result, ty)).then(|| format!("the result of Op{op:?} is of the wrong kind"))
}
