//! OpenCL C 2.0 device-side enqueue (OpenCL C 2.0 §6.13.17) in clang-14's encoding, as
//! SPIR-V's instructions:
//!
//! * `__enqueue_kernel_basic[_events]` and `__enqueue_kernel[_events]_varargs` (queue, flags,
//!   a pointer to the `ndrange_t`, the events, the block's invoke kernel and its literal, the
//!   local-memory sizes as a count and an `i64` array) are OpEnqueueKernel: the invoke kernel
//!   is named by the instruction, the literal is its `Param` with the literal's size and
//!   alignment, and each local size is a pointer to its `i64` in that array. The ND range and
//!   the local sizes are pointers as llvm-spirv writes them and every consumer of its SPIR-V
//!   (the Intel runtime's included) reads them; the Intel runtime crashes on 32-bit integer
//!   local sizes.
//! * `__get_kernel_*_impl` are OpGetKernelWorkGroupSize and its siblings, operands likewise.
//! * `ndrange_1D/2D/3D` (results through an `sret` pointer; 2D and 3D take arrays by pointer)
//!   are OpBuildNDRange (global size, local size, offset; zeros where not given) stored there.
//! * The event functions and `get_default_queue` map one to one (mappings/enqueue.toml).

use super::lowering::FnLowering;
use super::lowering::Lowered;
use crate::diag::{Error, Result};
use crate::ir::Primitive as S;
use crate::ir::{self, AddressSpace, Builtin, CastOp, ConstantKind, Op, Type, Value};

fn spirv(op: S, args: Vec<Value>) -> Op {
    Op::Builtin {
        builtin: Builtin::Primitive(op),
        args,
    }
}

/// The lowering of a call to clang's unmangled enqueue functions; `None` for other names.
pub(super) fn clang_call(
    l: &mut FnLowering,
    name: &str,
    ret: ir::Handle<Type>,
    args: Vec<Value>,
) -> Result<Option<Lowered>> {
    let (events, varargs) = match name {
        "__enqueue_kernel_basic" => (false, false),
        "__enqueue_kernel_basic_events" => (true, false),
        "__enqueue_kernel_varargs" => (false, true),
        "__enqueue_kernel_events_varargs" => (true, true),
        _ => return query(l, name, ret, args),
    };
    let fixed = 3 + if events { 3 } else { 0 } + 2;
    let expected = fixed + if varargs { 2 } else { 0 };
    if args.len() != expected {
        return Err(Error::unsupported(format!(
            "{name} with {} operands, where clang passes {expected}",
            args.len()
        )));
    }
    let mut ops = args[..3].to_vec();
    if events {
        ops.extend_from_slice(&args[3..6]);
    } else {
        ops.extend(no_events(l));
    }
    let (invoke, block) = (args[fixed - 2], args[fixed - 1]);
    ops.push(invoke_function(l, invoke, name)?);
    ops.push(block);
    ops.extend(literal_layout(l, block));
    if varargs {
        let count = match args[fixed] {
            Value::Const(c) => match l.m.constants[c].kind {
                ConstantKind::Int(n) => n,
                _ => u64::MAX,
            },
            _ => u64::MAX,
        };
        if count > 64 {
            return Err(Error::unsupported(format!(
                "{name} whose number of local-memory sizes is not a constant"
            )));
        }
        let sizes = args[fixed + 1];
        let st = l.value_type(sizes);
        let i64t = l.m.int_type(64);
        for i in 0..count {
            let index = Value::Const(l.m.int_const(i64t, i));
            let op = Op::Gep {
                inbounds: true,
                base: sizes,
                indices: vec![index],
            };
            ops.push(Value::Inst(l.emit(None, st, op)));
        }
    }
    Ok(Some(Lowered::Inst(ret, spirv(S::EnqueueKernel, ops))))
}

/// OpEnqueueKernel's event operands of an enqueue without events: no events to wait for, no
/// event to return (`0`, and two null generic event pointers).
pub(super) fn no_events(l: &mut FnLowering) -> [Value; 3] {
    let i32t = l.m.int_type(32);
    let event = l.m.ty(Type::DeviceEvent);
    let ptr = l.m.ty(Type::Pointer {
        pointee: event,
        space: AddressSpace::Generic,
    });
    let null = Value::Const(l.m.constant(ir::Constant {
        ty: ptr,
        kind: ConstantKind::Null,
    }));
    [Value::Const(l.m.int_const(i32t, 0)), null, null]
}

/// `__get_kernel_*_impl`: (ND range,) invoke kernel and block literal.
fn query(
    l: &mut FnLowering,
    name: &str,
    ret: ir::Handle<Type>,
    args: Vec<Value>,
) -> Result<Option<Lowered>> {
    let (op, ndrange) = match name {
        "__get_kernel_work_group_size_impl" => (S::GetKernelWorkGroupSize, false),
        "__get_kernel_preferred_work_group_size_multiple_impl" => {
            (S::GetKernelPreferredWorkGroupSizeMultiple, false)
        }
        "__get_kernel_max_sub_group_size_for_ndrange_impl" => {
            (S::GetKernelNDrangeMaxSubGroupSize, true)
        }
        "__get_kernel_sub_group_count_for_ndrange_impl" => (S::GetKernelNDrangeSubGroupCount, true),
        _ => return Ok(None),
    };
    let n = 2 + ndrange as usize;
    if args.len() != n {
        return Err(Error::unsupported(format!(
            "{name} with {} operands, where clang passes {n}",
            args.len()
        )));
    }
    let mut ops = args[..n - 2].to_vec();
    ops.push(invoke_function(l, args[n - 2], name)?);
    ops.push(args[n - 1]);
    ops.extend(literal_layout(l, args[n - 1]));
    Ok(Some(Lowered::Inst(ret, spirv(op, ops))))
}

/// Whether `name` is one of clang's unmangled enqueue functions.
pub(crate) fn is_clang_name(name: &str) -> bool {
    name.starts_with("__enqueue_kernel_")
        || (name.starts_with("__get_kernel_") && name.ends_with("_impl"))
}

/// The function a block's invoke operand names (a constant cast of its address).
fn invoke_function(l: &mut FnLowering, v: Value, name: &str) -> Result<Value> {
    let mut v = v;
    loop {
        match v {
            Value::Const(c) => match l.m.constants[c].kind {
                ConstantKind::Cast(_, inner) => v = Value::Const(inner),
                ConstantKind::FunctionAddress(_) => return Ok(v),
                _ => break,
            },
            Value::Inst(h) => match &l.body.insts[h].op {
                Op::Cast { value, .. } => v = *value,
                _ => break,
            },
            _ => break,
        }
    }
    Err(Error::unsupported(format!(
        "{name} whose block invoke function is not a known function"
    )))
}

/// A block literal's size and alignment (`Param Size`, `Param Align`): what clang stores in
/// its first two fields, else its type's layout.
fn literal_layout(l: &mut FnLowering, block: Value) -> [Value; 2] {
    let i32t = l.m.int_type(32);
    let mut v = block;
    // The literal behind the casts: a private alloca or a program-scope constant.
    let base = loop {
        match v {
            Value::Inst(h) => match &l.body.insts[h].op {
                Op::Cast {
                    op: CastOp::Bitcast | CastOp::AddrSpaceCast,
                    value,
                } => v = *value,
                Op::Alloca { allocated, .. } => break Some((Some(h), *allocated)),
                _ => break None,
            },
            Value::Const(c) => match l.m.constants[c].kind {
                ConstantKind::Cast(_, inner) => v = Value::Const(inner),
                ConstantKind::GlobalAddress(g) => break Some((None, l.m.globals[g].ty)),
                _ => break None,
            },
            _ => break None,
        }
    };
    let (mut size, mut align) = match base {
        Some((_, ty)) => (l.m.size_of(ty), member_align(l.m, ty)),
        None => (0, 1),
    };
    if let Some((Some(alloca), _)) = base {
        for (field, slot) in [(0u64, &mut size), (1, &mut align)] {
            if let Some(k) = stored_field(l, alloca, field) {
                *slot = k;
            }
        }
    }
    [size, align].map(|n| Value::Const(l.m.int_const(i32t, n)))
}

/// The largest alignment of a struct's members (a packed literal still declares it).
fn member_align(m: &ir::Module, ty: ir::Handle<Type>) -> u64 {
    match &m.types[ty] {
        Type::Struct {
            members: Some(ms), ..
        } => ms.iter().map(|&t| m.align_of(t)).max().unwrap_or(1),
        _ => m.align_of(ty),
    }
}

/// The constant stored into field `field` of the struct `alloca` allocates.
fn stored_field(l: &FnLowering, alloca: ir::Handle<ir::Inst>, field: u64) -> Option<u64> {
    let is_field = |p: Value| {
        let Value::Inst(g) = p else { return false };
        let Op::Gep { base, indices, .. } = &l.body.insts[g].op else {
            return false;
        };
        let consts: Vec<Option<u64>> = indices
            .iter()
            .map(|i| match i {
                Value::Const(c) => match l.m.constants[*c].kind {
                    ConstantKind::Int(k) => Some(k),
                    ConstantKind::Null => Some(0),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        *base == Value::Inst(alloca) && consts == [Some(0), Some(field)]
    };
    l.body.insts.iter().find_map(|(_, inst)| match &inst.op {
        Op::Store {
            ptr,
            value: Value::Const(c),
            ..
        } if is_field(*ptr) => match l.m.constants[*c].kind {
            ConstantKind::Int(k) => Some(k),
            _ => None,
        },
        _ => None,
    })
}

/// `ndrange_1D/2D/3D(sret, ...)`: OpBuildNDRange (global, local, offset) stored through the
/// `sret` pointer.
pub(super) fn ndrange(
    l: &mut FnLowering,
    dims: u32,
    ret: ir::Handle<Type>,
    args: Vec<Value>,
) -> Result<Lowered> {
    let Some((&out, given)) = args.split_first() else {
        return Err(Error::unsupported("ndrange_*D without its result pointer"));
    };
    let nd_ty = match l.m.types[l.value_type(out)] {
        Type::Pointer { pointee, .. } => pointee,
        _ => {
            return Err(Error::unsupported(
                "ndrange_*D whose result is not a pointer",
            ))
        }
    };
    if given.is_empty() || given.len() > 3 {
        return Err(Error::unsupported(format!(
            "ndrange_{dims}D with {} operands",
            given.len()
        )));
    }
    let size_t = l.m.int_type(l.m.addressing.pointer_bits());
    // A 2D or 3D size is an array read through its pointer.
    let operand_ty = if dims == 1 {
        size_t
    } else {
        l.m.ty(Type::Array {
            elem: size_t,
            len: dims as u64,
        })
    };
    let values: Vec<Value> = given
        .iter()
        .map(|&g| size_operand(l, g, operand_ty, dims))
        .collect::<Result<_>>()?;
    let zero = Value::Const(l.m.zero_of(operand_ty));
    // (global), (global, local), (offset, global, local) -> global, local, offset.
    let (global, local, offset) = match values[..] {
        [g] => (g, zero, zero),
        [g, lo] => (g, lo, zero),
        [o, g, lo] => (g, lo, o),
        _ => unreachable!("checked above"),
    };
    store_ndrange(l, out, nd_ty, ret, [global, local, offset])
}

/// The spirv-ir spelling `__spirv_BuildNDRange_ND(sret, global, local, offset)` (as llvm-spirv
/// writes it): OpBuildNDRange stored through the `sret` pointer.
pub(super) fn build_ndrange_sret(
    l: &mut FnLowering,
    ret: ir::Handle<Type>,
    args: &[Value],
) -> Result<Lowered> {
    let [out, g, lo, o] = args[..] else {
        return Err(Error::unsupported(
            "__spirv_BuildNDRange through a pointer with other than three operands",
        ));
    };
    let nd_ty = match l.m.types[l.value_type(out)] {
        Type::Pointer { pointee, .. } => pointee,
        _ => return Err(Error::unsupported("__spirv_BuildNDRange of no pointer")),
    };
    let t = match l.m.types[l.value_type(g)] {
        Type::Pointer { pointee, .. } => pointee,
        _ => l.value_type(g),
    };
    let dims = match l.m.types[t] {
        Type::Array { len, .. } => len as u32,
        _ => 1,
    };
    let values = [g, lo, o]
        .iter()
        .map(|&v| size_operand(l, v, t, dims))
        .collect::<Result<Vec<_>>>()?;
    store_ndrange(l, out, nd_ty, ret, [values[0], values[1], values[2]])
}

/// A size operand as OpBuildNDRange takes it: a scalar, or an array (read through its
/// pointer where it is given by one).
fn size_operand(
    l: &mut FnLowering,
    g: Value,
    operand_ty: ir::Handle<Type>,
    dims: u32,
) -> Result<Value> {
    if dims == 1 {
        return Ok(g);
    }
    let space = match l.m.types[l.value_type(g)] {
        Type::Pointer { space, .. } => space,
        Type::Array { .. } => return Ok(g),
        _ => {
            return Err(Error::unsupported(
                "an ND range size of neither an array nor a pointer",
            ))
        }
    };
    let pt = l.m.ty(Type::Pointer {
        pointee: operand_ty,
        space,
    });
    let cast = Op::Cast {
        op: CastOp::Bitcast,
        value: g,
    };
    let p = Value::Inst(l.emit(None, pt, cast));
    let load = Op::Load {
        ptr: p,
        align: u32::try_from(l.m.align_of(operand_ty)).ok(),
        volatile: false,
    };
    Ok(Value::Inst(l.emit(None, operand_ty, load)))
}

/// OpBuildNDRange of (global, local, offset), stored through `out`.
fn store_ndrange(
    l: &mut FnLowering,
    out: Value,
    nd_ty: ir::Handle<Type>,
    ret: ir::Handle<Type>,
    operands: [Value; 3],
) -> Result<Lowered> {
    // The sizes and the result as OpenCL C has them, checked here so that a call on other
    // types (a mutated or hand-written module) is the input's fault, named.
    let build = spirv(S::BuildNDRange, operands.to_vec());
    if let Some(why) = crate::verify::op_type_error(l.m, nd_ty, &build, |v| l.value_type(v)) {
        return Err(Error::unsupported(format!(
            "an ND range of types OpenCL C's ndrange_t does not have ({why})"
        )));
    }
    let built = l.emit(None, nd_ty, build);
    // The store is as aligned as the `ndrange_t` (LLVM would give it that alignment anyway).
    let align = u32::try_from(l.m.align_of(nd_ty)).ok();
    Ok(Lowered::Inst(
        ret,
        Op::Store {
            ptr: out,
            value: Value::Inst(built),
            align,
            volatile: false,
        },
    ))
}

/// The one-instruction functions of mappings/enqueue.toml, by OpenCL C name.
pub(super) fn one_to_one(name: &str) -> Option<S> {
    crate::mappings::ENQUEUE_FUNCTIONS
        .iter()
        .find(|(_, n, _)| *n == name)
        .map(|(op, _, _)| *op)
}
