//! Device-side enqueue instructions spelled as clang-14 spells OpenCL C 2.0's (the encoding
//! the Intel runtime's SPIR consumer and llvm-spirv's reverse translation use):
//! `__enqueue_kernel_basic[_events]`, `__enqueue_kernel[_events]_varargs` (local sizes as a
//! count and an `i64` array), `__get_kernel_*_impl`, `ndrange_ND` through an `sret` pointer
//! and the one-to-one functions of mappings/enqueue.toml. The block invoke operand is the
//! function's address cast to a generic `i8*`; SPIR-V's `Param Size` and `Param Align` are
//! what the block literal itself records, so they are not written.

use crate::ir::Primitive as S;

use super::body::FnCtx;
use super::Writer;
use crate::diag::{Error, Result};
use crate::ir::{self, ConstantKind, Type, Value};
use crate::llvm::{self, AttributePlace, Opcode};

/// The enqueue instructions whose operands or result are an `ndrange_t` or a function, which
/// spirv-ir names unmangled (as llvm-spirv does for OpEnqueueKernel).
pub(super) fn takes_structs(op: S) -> bool {
    matches!(
        op,
        S::EnqueueKernel
            | S::BuildNDRange
            | S::GetKernelWorkGroupSize
            | S::GetKernelPreferredWorkGroupSizeMultiple
            | S::GetKernelNDrangeMaxSubGroupSize
            | S::GetKernelNDrangeSubGroupCount
    )
}

/// Whether `op` is written by `enqueue`.
pub(super) fn is_enqueue(op: S) -> bool {
    takes_structs(op)
        || crate::mappings::ENQUEUE_FUNCTIONS
            .iter()
            .any(|(o, _, _)| *o == op)
}

impl<'a> Writer<'a> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn enqueue(
        &mut self,
        fc: &mut FnCtx<'a>,
        op: S,
        args: &[Value],
        a: &[llvm::Value<'a>],
        tys: &[ir::Handle<Type>],
        ret: ir::Handle<Type>,
        rt: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        if let Some((_, _, symbol)) = crate::mappings::ENQUEUE_FUNCTIONS
            .iter()
            .find(|(o, _, _)| *o == op)
        {
            return self.call_symbol(symbol, rt, a, false, out);
        }
        match op {
            S::BuildNDRange => self.build_ndrange(fc, args, a, tys, ret, rt, out),
            S::EnqueueKernel => self.enqueue_kernel(fc, args, a, tys, rt, out),
            _ => {
                let (name, nd) = match op {
                    S::GetKernelWorkGroupSize => ("__get_kernel_work_group_size_impl", false),
                    S::GetKernelPreferredWorkGroupSizeMultiple => (
                        "__get_kernel_preferred_work_group_size_multiple_impl",
                        false,
                    ),
                    S::GetKernelNDrangeMaxSubGroupSize => {
                        ("__get_kernel_max_sub_group_size_for_ndrange_impl", true)
                    }
                    _ => ("__get_kernel_sub_group_count_for_ndrange_impl", true),
                };
                let mut call = Vec::new();
                let at = if nd {
                    call.push(self.ndrange_pointer(fc, a[0], tys[0])?);
                    1
                } else {
                    0
                };
                call.push(self.invoke_operand(args[at], a[at])?);
                call.push(self.generic_i8(a[at + 1])?);
                self.call_symbol(name, rt, &call, false, out)
            }
        }
    }

    /// spirv-ir: `__spirv_EnqueueKernel_N` (N operands) and the kernel queries with SPIR-V's
    /// operands (the invoke function itself), unmangled; `__spirv_BuildNDRange_ND` returning
    /// the `ndrange_t` (llvm-spirv's form through an `sret` pointer is read too).
    pub(super) fn friendly_enqueue(
        &mut self,
        fc: &mut FnCtx<'a>,
        op: S,
        a: &[llvm::Value<'a>],
        ret: ir::Handle<Type>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let rt = self.ty(ret)?;
        let _ = fc;
        // One declaration per operand count (OpEnqueueKernel's local sizes vary).
        let symbol = if op == S::BuildNDRange {
            let dims = a[0].type_of().array_len().unwrap_or(1);
            format!("__spirv_BuildNDRange_{dims}D")
        } else {
            format!("__spirv_{:?}_{}", crate::mappings::opcode(op), a.len())
        };
        // One declaration per signature: operands of other types (another ND range struct,
        // event pointers of another space) get their own name (`_2`, `_3`, ...).
        let mut name = symbol.clone();
        for k in 2.. {
            let fits = match self.decls.get(&name) {
                None => true,
                Some(&f) => match f.global_value_type().and_then(|t| t.signature()) {
                    Some((r, ps, _)) => {
                        r == rt
                            && ps.len() == a.len()
                            && ps.iter().zip(a).all(|(&p, v)| p == v.type_of())
                    }
                    None => false,
                },
            };
            if fits {
                break;
            }
            name = format!("{symbol}_{k}");
        }
        self.call_symbol(&name, rt, a, false, out)
    }

    /// `enqueue_kernel`: queue, flags, ND range, events, invoke, literal, local sizes.
    fn enqueue_kernel(
        &mut self,
        fc: &mut FnCtx<'a>,
        args: &[Value],
        a: &[llvm::Value<'a>],
        tys: &[ir::Handle<Type>],
        rt: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        if a.len() < 10 {
            return Err(Error::internal(
                "OpEnqueueKernel with fewer than 10 operands",
            ));
        }
        let is_const = |v: Value, pred: &dyn Fn(&ConstantKind) -> bool| match v {
            Value::Const(c) => pred(&self.m.constants[c].kind),
            _ => false,
        };
        let no_events = is_const(args[3], &|k| matches!(k, ConstantKind::Int(0)))
            && is_const(args[5], &|k| matches!(k, ConstantKind::Null));
        let locals = &a[10..];
        let nd = self.ndrange_pointer(fc, a[2], tys[2])?;
        let mut call = vec![a[0], a[1], nd];
        if !no_events {
            call.extend([
                self.int_to_width(a[3], 32)?,
                self.to_generic(a[4])?,
                self.to_generic(a[5])?,
            ]);
        }
        call.push(self.invoke_operand(args[6], a[6])?);
        call.push(self.generic_i8(a[7])?);
        if !locals.is_empty() {
            // A fresh `[n x i64]` of the sizes (from the pointers llvm-spirv's form gives, or
            // the integers SPIR-V's own form does).
            let n = locals.len() as u32;
            let i64t = self.llvm.int_type(64)?;
            let arr_t = i64t.array_of(u64::from(n))?;
            let arr = self.entry_alloca(fc, arr_t, "block_sizes")?;
            let zero = self.i32_const(0)?;
            let mut first = None;
            for (i, (&v, &t)) in locals.iter().zip(&tys[10..]).enumerate() {
                let size = match self.m.types[t] {
                    Type::Pointer { .. } => {
                        let space = v.type_of().address_space().unwrap_or(0);
                        let p = self
                            .b
                            .cast(Opcode::LLVMBitCast, v, i64t.pointer_to(space)?, "")?;
                        self.b.load(i64t, p, "")?
                    }
                    _ => self.b.cast(Opcode::LLVMZExt, v, i64t, "")?,
                };
                let idx = [zero, self.i32_const(i as u64)?];
                let slot = self.b.gep(arr_t, arr, &idx, true, "")?;
                self.b.store(size, slot)?;
                first = first.or(Some(slot));
            }
            call.push(self.i32_const(n as u64)?);
            call.extend(first);
        }
        let name = match (no_events, locals.is_empty()) {
            (true, true) => "__enqueue_kernel_basic",
            (false, true) => "__enqueue_kernel_basic_events",
            (true, false) => "__enqueue_kernel_varargs",
            (false, false) => "__enqueue_kernel_events_varargs",
        };
        self.call_symbol(name, rt, &call, false, out)
    }

    /// `ndrange_ND(sret, ...)` of OpBuildNDRange's (global, local, offset), loaded back.
    #[allow(clippy::too_many_arguments)]
    fn build_ndrange(
        &mut self,
        fc: &mut FnCtx<'a>,
        args: &[Value],
        a: &[llvm::Value<'a>],
        tys: &[ir::Handle<Type>],
        ret: ir::Handle<Type>,
        rt: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let [_global, local, offset] = args else {
            return Err(Error::internal("OpBuildNDRange without three operands"));
        };
        let zero = |v: &Value| self.m.is_zero_int(*v);
        // clang's overloads: (global), (global, local), (offset, global, local).
        let operands: Vec<usize> = match (zero(offset), zero(local)) {
            (true, true) => vec![0],
            (true, false) => vec![0, 1],
            _ => vec![2, 0, 1],
        };
        let dims = match self.m.types[tys[0]] {
            Type::Array { len, .. } => len as u32,
            _ => 1,
        };
        let bits = self.m.addressing.pointer_bits();
        let code = if bits == 64 { "m" } else { "j" };
        let mut params = String::new();
        for i in 0..operands.len() {
            params.push_str(&match (dims, i) {
                (1, _) => code.to_string(),
                (_, 0) => format!("PK{code}"),
                _ => "S0_".to_string(),
            });
        }
        let symbol = format!("_Z10ndrange_{dims}D{params}");
        let nd_t = self.ty(ret)?;
        let slot = self.entry_alloca(fc, nd_t, "ndrange")?;
        let mut call = vec![slot];
        for &i in &operands {
            call.push(if dims == 1 {
                a[i]
            } else {
                // An array by pointer to its first element.
                let arr = self.entry_alloca(fc, a[i].type_of(), "")?;
                self.b.store(a[i], arr)?;
                let st = self.llvm.int_type(bits)?;
                self.b
                    .cast(Opcode::LLVMBitCast, arr, st.pointer_to(0)?, "")?
            });
        }
        let void = self.llvm.void_type();
        let c = self.call_symbol(&symbol, void, &call, false, "")?;
        // The result comes back through the first parameter (`sret`, as clang declares).
        let first = AttributePlace::Param(0);
        c.add_type_attribute(self.llvm, first, "sret", nd_t)?;
        if let Some(f) = self.decls.get(&symbol).copied() {
            f.add_type_attribute(self.llvm, first, "sret", nd_t)?;
        }
        let _ = rt;
        Ok(self.b.load(nd_t, slot, out)?)
    }

    /// The ND range operand as clang passes it: a pointer to the `ndrange_t` (a value is
    /// stored into a variable first).
    fn ndrange_pointer(
        &mut self,
        fc: &mut FnCtx<'a>,
        v: llvm::Value<'a>,
        t: ir::Handle<Type>,
    ) -> Result<llvm::Value<'a>> {
        if matches!(self.m.types[t], Type::Pointer { .. }) {
            return Ok(v);
        }
        let vt = self.ty(t)?;
        let slot = self.entry_alloca(fc, vt, "ndrange")?;
        self.b.store(v, slot)?;
        Ok(slot)
    }

    /// A block invoke function as clang passes it: its address as a generic `i8*`. A function
    /// that is no kernel but has a kernel wrapping it (llvm-spirv's entry-point wrappers) is
    /// named by that kernel: the consumer enqueues kernels.
    fn invoke_operand(&self, v: Value, f: llvm::Value<'a>) -> Result<llvm::Value<'a>> {
        let f = match v {
            Value::Const(c) => match self.m.constants[c].kind {
                ConstantKind::FunctionAddress(h) => self
                    .m
                    .kernel_of(h)
                    .and_then(|k| self.funcs.get(&k).copied())
                    .unwrap_or(f),
                _ => f,
            },
            _ => f,
        };
        let p = self
            .llvm
            .const_cast(Opcode::LLVMBitCast, f, self.i8_ptr(0)?)?;
        Ok(self
            .llvm
            .const_cast(Opcode::LLVMAddrSpaceCast, p, self.i8_ptr(4)?)?)
    }

    /// A pointer as a generic `i8*`.
    fn generic_i8(&self, v: llvm::Value<'a>) -> Result<llvm::Value<'a>> {
        let space = v
            .type_of()
            .address_space()
            .ok_or_else(|| Error::internal("a block literal that is no pointer"))?;
        let v = if space == 4 {
            v
        } else {
            let p = self
                .b
                .cast(Opcode::LLVMBitCast, v, self.i8_ptr(space)?, "")?;
            self.b
                .cast(Opcode::LLVMAddrSpaceCast, p, self.i8_ptr(4)?, "")?
        };
        Ok(self.b.cast(Opcode::LLVMBitCast, v, self.i8_ptr(4)?, "")?)
    }
}
