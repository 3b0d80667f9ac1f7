//! SPIR 2.0's own encoding of blocks (SPIR 2.0 §2.1.3.7), as the graph has them: the
//! encoding clang-14 uses instead is read by enqueue.rs.
//!
//! In SPIR 2.0 a block is an opaque `%opencl.block*` made by
//! `spir_block_bind(i8* invoke, i32 size, i32 align, i8* context)`: the invoke function takes
//! the captured variables as a *private* `i8*` first parameter, and the context is a private
//! alloca holding them (null, with size and alignment 0, for a program-scope block). A block
//! may be stored to and loaded from a block variable (an alloca of `%opencl.block*`), passed to
//! `enqueue_kernel` and its queries (mangled, `U13block_pointerF...E`), or called through
//! `spir_get_block_invoke` / `spir_get_block_context`. Nothing of this has a value in the
//! graph: every use is resolved, within the function, to the `spir_block_bind` it comes from
//! (the specification's restrictions guarantee that it can be).
//!
//! * A block call (`call (bitcast (spir_get_block_invoke b))(spir_get_block_context b, ...)`)
//!   is a call of the invoke function with the bound context.
//! * `enqueue_kernel` and the `get_kernel_*` queries are SPIR-V's OpEnqueueKernel and
//!   OpGetKernel*, as clang's encoding is. SPIR-V's `Invoke` takes its `Param` as a *generic*
//!   pointer to the copy the device makes, so the invoke function cannot be named directly:
//!   the graph gets a kernel that copies `Param` into a private variable of the captured size
//!   and alignment and calls the invoke function with it and the local-memory pointers (the
//!   kernel clang itself generates, `<invoke>_kernel`, takes the literal as it is). `Param`
//!   is the context cast to generic; a program-scope block's (a null context) is a private
//!   byte, of size 1, that its kernel ignores.
//! * The local-memory sizes (`uint`, variadic) become pointers to their `size_t` values, as
//!   clang's encoding passes them.
//!
//! A block that reaches anything else (a phi, a user function, a parameter) is refused by
//! name.

use llvm_ir::instruction::Call;
use llvm_ir::{Name, Operand};

use super::lowering::FnLowering;
use super::lowering::Lowered;
use crate::diag::{Error, Result};
use crate::ir::Primitive as S;
use crate::ir::{self, AddressSpace, Builtin, CastOp, ConstantKind, Op, Primitive, Type, Value};

use super::block_table::{is_block_function, is_block_operand, BIND};

/// The lowering of a call that names a block function or passes a block; `None` for others.
pub(super) fn call(l: &mut FnLowering, call: &Call, name: &str) -> Result<Option<Lowered>> {
    if is_block_function(name) {
        // The bind's uses are resolved to it; a broken bind is reported where it is used.
        return Ok(Some(Lowered::Nothing));
    }
    let Some(at) = call.arguments.iter().position(|(a, _)| is_block_operand(a)) else {
        return Ok(None);
    };
    let function = crate::spir::demangle::demangle(name)
        .map(|d| d.name)
        .or_else(|| mangled_name(name))
        .unwrap_or_else(|| name.to_string());
    let query = match function.as_str() {
        "enqueue_kernel" => return enqueue(l, call, at).map(Some),
        "get_kernel_work_group_size" => S::GetKernelWorkGroupSize,
        "get_kernel_preferred_work_group_size_multiple" => {
            S::GetKernelPreferredWorkGroupSizeMultiple
        }
        "get_kernel_max_sub_group_size_for_ndrange" => S::GetKernelNDrangeMaxSubGroupSize,
        "get_kernel_sub_group_count_for_ndrange" => S::GetKernelNDrangeSubGroupCount,
        _ => {
            return Err(Error::unsupported(format!(
                "a block passed to '{}' (SPIR 2.0 blocks are read where enqueue_kernel and \
                 the get_kernel_* queries take them, and where they are called)",
                name.escape_debug()
            )))
        }
    };
    if at + 1 != call.arguments.len() {
        return Err(Error::unsupported(format!(
            "{function} whose block is not its last operand"
        )));
    }
    let mut ops = Vec::with_capacity(at + 4);
    for (a, _) in &call.arguments[..at] {
        ops.push(l.operand(a)?);
    }
    let bind = l
        .block_literals
        .bind(&call.arguments[at].0, l.names)?
        .clone();
    ops.extend(super::block_kernels::invoke_operands(l, &bind)?);
    let ret = l.lower_type(&llvm_ir::types::Typed::get_type(
        call,
        &l.types.llvm_module().types,
    ))?;
    Ok(Some(Lowered::Inst(
        ret,
        Op::Builtin {
            builtin: Builtin::Primitive(query),
            args: ops,
        },
    )))
}

/// The function name of a mangled name our demangler does not take (one with a block type).
fn mangled_name(name: &str) -> Option<String> {
    let rest = name.strip_prefix("_Z")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let len: usize = rest[..digits].parse().ok()?;
    rest.get(digits..digits.checked_add(len)?)
        .map(str::to_string)
}

/// `enqueue_kernel(queue, flags, ndrange, [num_events, wait_list, event,] block, sizes...)`.
fn enqueue(l: &mut FnLowering, call: &Call, at: usize) -> Result<Lowered> {
    let events = match at {
        3 => false,
        6 => true,
        _ => {
            return Err(Error::unsupported(format!(
                "enqueue_kernel whose block is operand {} (OpenCL C passes it 4th or 7th)",
                at + 1
            )))
        }
    };
    let mut ops = Vec::with_capacity(call.arguments.len() + 6);
    for (a, _) in &call.arguments[..at] {
        ops.push(l.operand(a)?);
    }
    if !events {
        ops.extend(super::enqueue::no_events(l));
    }
    let bind = l
        .block_literals
        .bind(&call.arguments[at].0, l.names)?
        .clone();
    let sizes = &call.arguments[at + 1..];
    ops.extend(super::block_kernels::invoke_operands(l, &bind)?);
    let Value::Const(k) = ops[6] else {
        unreachable!("the invoke operand is a function address")
    };
    let ConstantKind::FunctionAddress(kernel) = l.m.constants[k].kind else {
        unreachable!("the invoke operand is a function address")
    };
    let locals = l.m.functions[kernel].params.len() - 1;
    if sizes.len() != locals {
        return Err(Error::unsupported(format!(
            "enqueue_kernel with {} local-memory sizes for a block of {locals} local pointers",
            sizes.len()
        )));
    }
    if !sizes.is_empty() {
        // The sizes, as `size_t` values in a private array, each passed by its address.
        let size_t = l.m.int_type(l.m.addressing.pointer_bits());
        let array = l.m.ty(Type::Array {
            elem: size_t,
            len: sizes.len() as u64,
        });
        let array_ptr = l.m.pointer_type(array, AddressSpace::Private);
        let elem_ptr = l.m.pointer_type(size_t, AddressSpace::Private);
        let align = u32::try_from(l.m.align_of(size_t)).ok();
        let alloca = l.emit(
            None,
            array_ptr,
            Op::Alloca {
                allocated: array,
                align,
            },
        );
        let void = l.m.void_type();
        let zero = Value::Const(l.m.int_const(size_t, 0));
        for (i, (a, _)) in sizes.iter().enumerate() {
            let v = l.operand(a)?;
            let v = match l.m.types[l.value_type(v)] {
                Type::Int { width } if width == l.m.addressing.pointer_bits() => v,
                Type::Int { width } if width < l.m.addressing.pointer_bits() => {
                    let cast = Op::Cast {
                        op: CastOp::ZExt,
                        value: v,
                    };
                    Value::Inst(l.emit(None, size_t, cast))
                }
                _ => {
                    return Err(Error::unsupported(
                        "enqueue_kernel with a local-memory size that is not an unsigned \
                         integer",
                    ))
                }
            };
            let index = Value::Const(l.m.int_const(size_t, i as u64));
            let gep = Op::Gep {
                inbounds: true,
                base: Value::Inst(alloca),
                indices: vec![zero, index],
            };
            let p = Value::Inst(l.emit(None, elem_ptr, gep));
            let store = Op::Store {
                ptr: p,
                value: v,
                align,
                volatile: false,
            };
            l.emit(None, void, store);
            ops.push(p);
        }
    }
    let ret = l.lower_type(&llvm_ir::types::Typed::get_type(
        call,
        &l.types.llvm_module().types,
    ))?;
    Ok(Lowered::Inst(
        ret,
        Op::Builtin {
            builtin: Builtin::Primitive(Primitive::EnqueueKernel),
            args: ops,
        },
    ))
}

/// A block call: `call (bitcast (spir_get_block_invoke b))(spir_get_block_context b, ...)`, the
/// invoke function of `b`'s bind called with its context.
pub(super) fn block_call(l: &mut FnLowering, call: &Call, callee: &Name) -> Result<Lowered> {
    let block = l.block_literals.invokes[callee].clone();
    let bind = l.block_literals.bind(&block, l.names)?.clone();
    let Some(&invoke) = l.symbols.functions.get(&bind.invoke) else {
        return Err(Error::unsupported(format!(
            "{BIND} of '{}', which is not a function of the module",
            bind.invoke.escape_debug()
        )));
    };
    // The context is the first operand, the second after an aggregate result's pointer.
    let at = usize::from(is_sret(&l.m.functions[invoke], 0));
    let mut args = Vec::with_capacity(call.arguments.len());
    for (i, (a, _)) in call.arguments.iter().enumerate() {
        let context = match a {
            Operand::LocalOperand { name, .. } => l.block_literals.contexts.get(name).cloned(),
            _ => None,
        };
        args.push(match context {
            Some(of) => {
                let other = l.block_literals.bind(&of, l.names)?;
                if other.invoke != bind.invoke || other.context != bind.context {
                    return Err(Error::unsupported(
                        "a block call with the context of another block",
                    ));
                }
                l.operand(&bind.context)?
            }
            None if i == at => {
                return Err(Error::unsupported(
                    "a block call whose context is not spir_get_block_context's",
                ))
            }
            None => l.operand(a)?,
        });
    }
    let params: Vec<_> = l.m.functions[invoke].params.iter().map(|p| p.ty).collect();
    let types: Vec<_> = args.iter().map(|&a| l.value_type(a)).collect();
    if params != types {
        return Err(Error::unsupported(format!(
            "a block call whose operands do not match the parameters of '{}'",
            bind.invoke.escape_debug()
        )));
    }
    let ret = l.m.functions[invoke].ret;
    Ok(Lowered::Inst(
        ret,
        Op::Call {
            callee: invoke,
            args,
        },
    ))
}

fn is_sret(f: &ir::Function, i: usize) -> bool {
    f.params.get(i).is_some_and(|p| p.attrs.sret)
}

#[cfg(test)]
mod tests {
    use super::mangled_name;

    #[test]
    fn mangled_names_with_block_types_name_their_function() {
        assert_eq!(
            mangled_name("_Z14enqueue_kernel9ocl_queuei9ndrange_tU13block_pointerFvvE").as_deref(),
            Some("enqueue_kernel")
        );
        assert_eq!(mangled_name("_Z99x"), None);
        assert_eq!(mangled_name("_Z18446744073709551615x"), None);
        assert_eq!(mangled_name("enqueue_kernel"), None);
    }
}
