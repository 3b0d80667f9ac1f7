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

use crate::hash::{HashMap, HashSet};

use either::Either;
use llvm_ir::instruction::Call;
use llvm_ir::{Constant as C, Instruction as I, Name, Operand, Type as LType, TypeRef};

use super::body::FnLowering;
use super::calls::Lowered;
use super::local_names::LocalNames;
use super::types::name_str;
use crate::diag::{Error, Result};
use crate::ir::{self, AddressSpace, Builtin, CastOp, ConstantKind, Op, Type, Value};
use spirv::Op as S;

pub(super) const BIND: &str = "spir_block_bind";
const GET_INVOKE: &str = "spir_get_block_invoke";
const GET_CONTEXT: &str = "spir_get_block_context";

/// Whether `name` is one of SPIR 2.0's block functions.
pub(crate) fn is_block_function(name: &str) -> bool {
    matches!(name, BIND | GET_INVOKE | GET_CONTEXT)
}

/// Whether `ty` is SPIR 2.0's block type, `%opencl.block*`.
pub(crate) fn is_block_type(ty: &TypeRef) -> bool {
    matches!(ty.as_ref(), LType::PointerType { pointee_type, .. }
        if matches!(pointee_type.as_ref(), LType::NamedStructType { name } if name == "opencl.block"))
}

/// One `spir_block_bind`.
#[derive(Clone, Debug)]
pub(super) struct Bind {
    /// The invoke function's name.
    pub(super) invoke: String,
    pub(super) size: u64,
    pub(super) align: u64,
    pub(super) context: Operand,
}

/// The blocks of one function: each `spir_block_bind`, and the names that stand for one.
#[derive(Default)]
pub(super) struct BlockTable {
    binds: HashMap<Name, Bind>,
    /// Loads from a block variable, by the variable they read.
    loads: HashMap<Name, Name>,
    /// Block variables, with the block stored to each (`None` where two differ).
    slots: HashMap<Name, Option<Operand>>,
    /// `spir_get_block_invoke` results and their casts, by the block they read.
    invokes: HashMap<Name, Operand>,
    /// `spir_get_block_context` results, by the block they read.
    contexts: HashMap<Name, Operand>,
    /// A bind whose operands are not of the specification's form: the error, for its uses.
    broken: HashMap<Name, String>,
}

impl BlockTable {
    /// Collect the blocks of `f` (nothing when it has none).
    pub(super) fn scan(f: &llvm_ir::Function) -> BlockTable {
        let mut t = BlockTable::default();
        let mut slots: HashSet<Name> = HashSet::default();
        for inst in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
            match inst {
                I::Alloca(a) if is_block_type(&a.allocated_type) => {
                    slots.insert(a.dest.clone());
                }
                I::Call(c) => {
                    let (Some(name), Some(dest)) = (callee_name(c), &c.dest) else {
                        continue;
                    };
                    match name.as_str() {
                        BIND => match bind_of(c) {
                            Ok(b) => {
                                t.binds.insert(dest.clone(), b);
                            }
                            Err(e) => {
                                t.broken.insert(dest.clone(), e);
                            }
                        },
                        GET_INVOKE | GET_CONTEXT => {
                            if let Some((op, _)) = c.arguments.first() {
                                let map = if name == GET_INVOKE {
                                    &mut t.invokes
                                } else {
                                    &mut t.contexts
                                };
                                map.insert(dest.clone(), op.clone());
                            }
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        if t.binds.is_empty() && t.broken.is_empty() && slots.is_empty() {
            return t;
        }
        for inst in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
            match inst {
                I::Store(s) if is_block_operand(&s.value) => {
                    if let Operand::LocalOperand { name, .. } = &s.address {
                        let entry = t.slots.entry(name.clone()).or_insert(Some(s.value.clone()));
                        if entry.as_ref() != Some(&s.value) {
                            *entry = None;
                        }
                    }
                }
                I::Load(l) => {
                    if let Operand::LocalOperand { name, .. } = &l.address {
                        if slots.contains(name) {
                            t.loads.insert(l.dest.clone(), name.clone());
                        }
                    }
                }
                I::BitCast(b) => {
                    if let Operand::LocalOperand { name, .. } = &b.operand {
                        if let Some(block) = t.invokes.get(name).cloned() {
                            t.invokes.insert(b.dest.clone(), block);
                        }
                    }
                }
                _ => {}
            }
        }
        t
    }

    /// Whether `inst` only moves blocks around (block variables, their stores and loads, the
    /// cast of a block's invoke pointer): it has no instruction in the graph.
    pub(super) fn is_plumbing(&self, inst: &I) -> bool {
        match inst {
            I::Alloca(a) => is_block_type(&a.allocated_type),
            I::Store(s) => is_block_operand(&s.value),
            I::Load(l) => self.loads.contains_key(&l.dest),
            I::BitCast(b) => self.invokes.contains_key(&b.dest),
            _ => false,
        }
    }

    /// What `name` is when it is a value of the block encoding, which has none in the graph
    /// (a block, its invoke function pointer or its context pointer).
    pub(super) fn has_no_value(&self, name: &Name) -> Option<&'static str> {
        if self.binds.contains_key(name) || self.broken.contains_key(name) {
            Some("the block")
        } else if self.loads.contains_key(name) {
            Some("the block loaded as")
        } else if self.invokes.contains_key(name) {
            Some("the block invoke pointer")
        } else if self.contexts.contains_key(name) {
            Some("the block context pointer")
        } else {
            None
        }
    }

    /// Whether `name` is a block's invoke function pointer (the callee of a block call).
    pub(super) fn is_invoke_pointer(&self, name: &Name) -> bool {
        self.invokes.contains_key(name)
    }

    /// The `spir_block_bind` a block operand comes from.
    fn bind(&self, op: &Operand, names: &LocalNames) -> Result<&Bind> {
        let mut op = op.clone();
        for _ in 0..64 {
            let Operand::LocalOperand { name, .. } = &op else {
                return Err(Error::unsupported(
                    "a block that is not made by spir_block_bind (a null or constant block)",
                ));
            };
            if let Some(b) = self.binds.get(name) {
                return Ok(b);
            }
            if let Some(e) = self.broken.get(name) {
                return Err(Error::unsupported(e.clone()));
            }
            let Some(slot) = self.loads.get(name) else {
                return Err(Error::unsupported(format!(
                    "block %{} is not made by spir_block_bind in this function (a block \
                     parameter or a block chosen at run time; SPIR 2.0 section 2.1.3.7)",
                    names.spell(name)
                )));
            };
            match self.slots.get(slot) {
                Some(Some(v)) => op = v.clone(),
                Some(None) => {
                    return Err(Error::unsupported(format!(
                        "block variable %{} holds more than one block",
                        names.spell(slot)
                    )))
                }
                None => {
                    return Err(Error::unsupported(format!(
                        "block variable %{} is read but never stored",
                        names.spell(slot)
                    )))
                }
            }
        }
        Err(Error::unsupported(
            "a block stored through a cycle of block variables",
        ))
    }
}

fn callee_name(c: &Call) -> Option<String> {
    match &c.function {
        Either::Right(Operand::ConstantOperand(k)) => match k.as_ref() {
            C::GlobalReference { name, .. } => Some(name_str(name)),
            _ => None,
        },
        _ => None,
    }
}

fn is_block_operand(op: &Operand) -> bool {
    match op {
        Operand::LocalOperand { ty, .. } => is_block_type(ty),
        Operand::ConstantOperand(c) => match c.as_ref() {
            C::Null(ty) | C::Undef(ty) => is_block_type(ty),
            _ => false,
        },
        Operand::MetadataOperand => false,
    }
}

/// The operands of a `spir_block_bind` call, checked against §2.1.3.7.
fn bind_of(c: &Call) -> std::result::Result<Bind, String> {
    let [(invoke, _), (size, _), (align, _), (context, _)] = &c.arguments[..] else {
        return Err(format!(
            "{BIND} with {} operands, where SPIR 2.0 gives it 4",
            c.arguments.len()
        ));
    };
    let invoke = function_of(invoke)
        .ok_or_else(|| format!("{BIND} whose invoke operand is not a cast of a function"))?;
    let int = |op: &Operand| match op {
        Operand::ConstantOperand(k) => match k.as_ref() {
            C::Int { value, .. } => Some(*value),
            _ => None,
        },
        _ => None,
    };
    let (Some(size), Some(align)) = (int(size), int(align)) else {
        return Err(format!(
            "{BIND} whose captured size or alignment is not an immediate value"
        ));
    };
    if size > u64::from(u32::MAX) || (size > 0 && !align.is_power_of_two()) || align > 1 << 16 {
        return Err(format!(
            "{BIND} of captured size {size} and alignment {align} (not a size and an alignment)"
        ));
    }
    Ok(Bind {
        invoke,
        size,
        align,
        context: context.clone(),
    })
}

/// The function a constant (cast of a) function reference names.
fn function_of(op: &Operand) -> Option<String> {
    let Operand::ConstantOperand(k) = op else {
        return None;
    };
    let mut k = k.clone();
    loop {
        k = match k.as_ref() {
            C::GlobalReference { name, .. } => return Some(name_str(name)),
            C::BitCast(b) => b.operand.clone(),
            C::AddrSpaceCast(b) => b.operand.clone(),
            _ => return None,
        };
    }
}

/// The lowering of a call that names a block function or passes a block; `None` for others.
pub(super) fn call(l: &mut FnLowering, call: &Call, name: &str) -> Result<Option<Lowered>> {
    if is_block_function(name) {
        // The bind's uses are resolved to it; a broken bind is reported where it is used.
        return Ok(Some(Lowered::Nothing));
    }
    let Some(at) = call.arguments.iter().position(|(a, _)| is_block_operand(a)) else {
        return Ok(None);
    };
    let function = crate::spir::mangle::demangle(name)
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
            builtin: Builtin::Spirv(query),
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
            builtin: Builtin::Spirv(S::EnqueueKernel),
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
