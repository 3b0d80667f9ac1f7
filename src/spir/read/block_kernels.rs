//! The kernels that run SPIR 2.0's enqueued blocks (blocks.rs): SPIR-V's OpEnqueueKernel
//! passes its `Invoke` a generic pointer to the device's copy of `Param`, while a SPIR 2.0
//! invoke function takes its captured context as a private `i8*`; the kernel made here copies
//! the one into the other and calls the invoke function.

use super::block_table::{Bind, BIND};
use super::lowering::FnLowering;
use crate::diag::{Error, Result};
use crate::ir::{self, AddressSpace, CastOp, ConstantKind, Op, Type, Value};

/// `Invoke`, `Param`, `Param Size` and `Param Align` of a bound block.
pub(super) fn invoke_operands(l: &mut FnLowering, bind: &Bind) -> Result<[Value; 4]> {
    let kernel = invoke_kernel(l, bind)?;
    let fn_ty = {
        let f = &l.m.functions[kernel];
        Type::Function {
            ret: f.ret,
            params: f.params.iter().map(|p| p.ty).collect(),
            varargs: false,
        }
    };
    let fn_ty = l.m.ty(fn_ty);
    let fn_ptr = l.m.pointer_type(fn_ty, AddressSpace::Private);
    let invoke = Value::Const(l.m.constant(ir::Constant {
        ty: fn_ptr,
        kind: ConstantKind::FunctionAddress(kernel),
    }));
    let i8t = l.m.int_type(8);
    let generic = l.m.pointer_type(i8t, AddressSpace::Generic);
    let context = l.operand(&bind.context)?;
    let i8p = l.m.pointer_type(i8t, AddressSpace::Private);
    let (param, size, align) = match context {
        Value::Const(c) if matches!(l.m.constants[c].kind, ConstantKind::Null) => {
            // A program-scope block: the kernel ignores `Param`, but it must point somewhere
            // (the Intel runtime crashes compiling a null one), so at a private byte.
            let byte = Op::Alloca {
                allocated: i8t,
                align: Some(1),
            };
            let byte = Value::Inst(l.emit(None, i8p, byte));
            let cast = Op::Cast {
                op: CastOp::AddrSpaceCast,
                value: byte,
            };
            (Value::Inst(l.emit(None, generic, cast)), 1, 1)
        }
        _ => {
            if !matches!(
                l.m.types[l.value_type(context)],
                Type::Pointer {
                    space: AddressSpace::Private,
                    ..
                }
            ) {
                return Err(Error::unsupported(format!(
                    "{BIND} whose context is not a private pointer (SPIR 2.0 section 2.1.3.7)"
                )));
            }
            let mut c = context;
            if l.value_type(c) != i8p {
                let cast = Op::Cast {
                    op: CastOp::Bitcast,
                    value: c,
                };
                c = Value::Inst(l.emit(None, i8p, cast));
            }
            let cast = Op::Cast {
                op: CastOp::AddrSpaceCast,
                value: c,
            };
            let param = Value::Inst(l.emit(None, generic, cast));
            (param, bind.size, bind.align.max(1))
        }
    };
    let i32t = l.m.int_type(32);
    let size = Value::Const(l.m.int_const(i32t, size));
    let align = Value::Const(l.m.int_const(i32t, align));
    Ok([invoke, param, size, align])
}

/// The kernel that runs a bound block for OpEnqueueKernel: made once per invoke function,
/// size and alignment (see the module documentation).
fn invoke_kernel(l: &mut FnLowering, bind: &Bind) -> Result<ir::Handle<ir::Function>> {
    let Some(&invoke) = l.symbols.functions.get(&bind.invoke) else {
        return Err(Error::unsupported(format!(
            "{BIND} of '{}', which is not a function of the module",
            bind.invoke.escape_debug()
        )));
    };
    let key = (invoke, bind.size, bind.align);
    if let Some(&k) = l.types.block_kernels.get(&key) {
        return Ok(k);
    }
    let i8t = l.m.int_type(8);
    let private = l.m.pointer_type(i8t, AddressSpace::Private);
    let generic = l.m.pointer_type(i8t, AddressSpace::Generic);
    let f = &l.m.functions[invoke];
    let (params, ret) = (f.params.clone(), f.ret);
    let void = l.m.void_type();
    let locals_ok = params.iter().skip(1).all(|p| {
        matches!(
            l.m.types[p.ty],
            Type::Pointer {
                space: AddressSpace::Local,
                ..
            }
        )
    });
    if ret != void || params.first().map(|p| p.ty) != Some(private) || !locals_ok {
        return Err(Error::unsupported(format!(
            "an enqueued block whose invoke function '{}' is not `void (i8*, local \
             pointers...)` (SPIR 2.0 section 2.1.3.7)",
            bind.invoke.escape_debug(),
        )));
    }
    let mut body = ir::Body::default();
    let mut insts = Vec::new();
    let mut push = |body: &mut ir::Body, ty, op| {
        let h = body.insts.append(ir::Inst {
            loc: None,
            name: None,
            ty,
            op,
        });
        insts.push(h);
        Value::Inst(h)
    };
    let context = if bind.size == 0 {
        Value::Const(l.m.constant(ir::Constant {
            ty: private,
            kind: ConstantKind::Null,
        }))
    } else {
        let array = l.m.ty(Type::Array {
            elem: i8t,
            len: bind.size,
        });
        let array_ptr = l.m.pointer_type(array, AddressSpace::Private);
        let align = u32::try_from(bind.align.max(1)).ok();
        let copy = push(
            &mut body,
            array_ptr,
            Op::Alloca {
                allocated: array,
                align,
            },
        );
        let size_t = l.m.int_type(l.m.addressing.pointer_bits());
        let zero = Value::Const(l.m.int_const(size_t, 0));
        let first = push(
            &mut body,
            private,
            Op::Gep {
                inbounds: true,
                base: copy,
                indices: vec![zero, zero],
            },
        );
        let size = Value::Const(l.m.int_const(size_t, bind.size));
        push(
            &mut body,
            void,
            Op::CopyMemory {
                dst: first,
                src: Value::Param(0),
                size,
                align,
                volatile: false,
            },
        );
        first
    };
    let args = std::iter::once(context)
        .chain((1..params.len() as u32).map(Value::Param))
        .collect();
    push(
        &mut body,
        void,
        Op::Call {
            callee: invoke,
            args,
        },
    );
    body.blocks.push(ir::Block {
        terminator_loc: None,
        name: Some("entry".into()),
        insts,
        terminator: ir::Terminator::Return(None),
        construct: None,
    });
    let mut kernel_params = vec![ir::Param {
        name: Some("literal".into()),
        ty: generic,
        attrs: ir::ParamAttrs::default(),
    }];
    kernel_params.extend(params[1..].iter().cloned());
    let name = unused_name(l.m, &format!("{}_kernel", bind.invoke));
    let h = l.m.functions.append(ir::Function {
        name,
        ret: void,
        params: kernel_params,
        is_kernel: true,
        linkage: ir::Linkage::Export,
        body: Some(body),
    });
    let args = l.m.functions[h]
        .params
        .iter()
        .map(|p| ir::ArgInfo::from_param(l.m, p.ty, p.name.clone()))
        .collect();
    l.m.kernels.push(ir::Kernel {
        function: h,
        args,
        reqd_work_group_size: None,
        work_group_size_hint: None,
        vec_type_hint: None,
        reqd_sub_group_size: None,
        other_modes: Vec::new(),
    });
    l.types.block_kernels.insert(key, h);
    Ok(h)
}

/// `base`, or `base` with the first numeric suffix no function of `m` has.
fn unused_name(m: &ir::Module, base: &str) -> String {
    let taken = |n: &str| m.functions.iter().any(|(_, f)| f.name == n);
    if !taken(base) {
        return base.to_string();
    }
    (1..)
        .map(|i| format!("{base}.{i}"))
        .find(|n| !taken(n))
        .expect("some suffix is free")
}
