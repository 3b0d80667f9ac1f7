//! Filling memory (`llvm.memset`, the graph's `FillMemory`). SPIR-V has no fill
//! instruction: a constant byte over a constant length (up to 64 KiB) is a copy from a
//! constant array of those bytes (OpCopyMemorySized); a run-time byte or length (or a longer
//! one) is a call to a small function with the loop that stores the bytes, one per storage
//! class, size type and volatility, written once after the module's own functions
//! (`Writer::fill_functions`).

use rspirv::dr::Operand;
use spirv::{Capability, Op as S, Word};

use super::body::{internal, FnCtx};
use super::Writer;
use crate::diag::Result;
use crate::ir::{self, Type, Value};
use crate::mappings;

/// A fill function to write: its id, the `i8*` type of its storage class, its size type
/// and whether its stores are volatile.
#[derive(Clone, Copy)]
pub(super) struct FillFunction {
    id: Word,
    byte_ptr: Word,
    size: Word,
    size_bits: u32,
    volatile: bool,
}

impl Writer<'_> {
    /// memset with constant byte and size: copy from a constant global of that many bytes.
    pub(super) fn fill_memory(
        &mut self,
        ctx: &FnCtx,
        dst: Value,
        byte: Value,
        size: Value,
        align: Option<u32>,
        volatile: bool,
    ) -> Result<()> {
        let m = self.m;
        let konst = |v: Value| match v {
            Value::Const(c) => match m.constants[c].kind {
                ir::ConstantKind::Int(i) => Some(i),
                ir::ConstantKind::Null => Some(0),
                _ => None,
            },
            _ => None,
        };
        // A constant array of the bytes, up to 64 KiB of them; past that (or for a run-time
        // byte or length) the loop, rather than a constant as large as the fill.
        let (Some(b), Some(n @ 0..=0x1_0000)) = (konst(byte), konst(size)) else {
            return self.fill_loop(ctx, dst, byte, size, volatile);
        };
        let i8t = self.b.type_int(8, 0);
        self.cap(Capability::Int8);
        let size_bits = m.addressing.pointer_bits();
        let lt = self.b.type_int(size_bits, 0);
        let len = self.scalar_constant(lt, size_bits, n);
        let arr = self.b.type_array(i8t, len);
        let init = if b == 0 {
            self.b.constant_null(arr)
        } else {
            let e = self.scalar_constant(i8t, 8, b);
            self.b.constant_composite(arr, vec![e; n as usize])
        };
        let pt = self
            .b
            .type_pointer(None, spirv::StorageClass::UniformConstant, arr);
        let g = self.module_variable(pt, spirv::StorageClass::UniformConstant, Some(init));
        self.decorate(g, spirv::Decoration::Constant, []);
        let d = self.value(ctx, dst)?;
        let s = self.value(ctx, size)?;
        let mut ops = Self::ids(&[d, g, s]);
        ops.extend(Self::memory_access(align, volatile));
        self.emit(S::CopyMemorySized, None, None, ops)?;
        Ok(())
    }

    /// `memset(dst, byte, size)` with a run-time byte or size: a call to the fill function.
    fn fill_loop(
        &mut self,
        ctx: &FnCtx,
        dst: Value,
        byte: Value,
        size: Value,
        volatile: bool,
    ) -> Result<()> {
        let m = self.m;
        let dst_ty = self.vty(ctx, dst);
        let Type::Pointer { pointee, space } = m.types[dst_ty] else {
            return Err(crate::diag::Error::internal("memset of a non-pointer"));
        };
        self.cap(Capability::Int8);
        let i8t = self.b.type_int(8, 0);
        let sc = mappings::space_storage_class(space);
        let byte_ptr = self.b.type_pointer(None, sc, i8t);
        let mut d = self.value(ctx, dst)?;
        if !matches!(m.types[pointee], Type::Int { width: 8 }) {
            d = self.emit(S::Bitcast, Some(byte_ptr), None, Self::ids(&[d]))?;
        }
        let v = self.value(ctx, byte)?;
        let n = self.value(ctx, size)?;
        let size_ty = self.vty(ctx, size);
        let size_bits = match m.types[size_ty] {
            Type::Int { width } => width,
            _ => return Err(crate::diag::Error::internal("memset of a non-integer size")),
        };
        let size = self.ty(size_ty)?;
        let key = (sc as u32, size, volatile);
        let id = match self.fill_functions.get(&key) {
            Some(f) => f.id,
            None => {
                let f = FillFunction {
                    id: self.b.id(),
                    byte_ptr,
                    size,
                    size_bits,
                    volatile,
                };
                self.fill_functions.insert(key, f);
                f.id
            }
        };
        let void = self.b.type_void();
        self.emit(S::FunctionCall, Some(void), None, Self::ids(&[id, d, v, n]))?;
        Ok(())
    }

    /// Write the fill functions the module's functions call:
    /// `for (i = 0; i < size; i++) dst[i] = byte;`.
    pub(super) fn fill_functions(&mut self) -> Result<()> {
        let functions: Vec<FillFunction> = self.fill_functions.values().copied().collect();
        for f in functions {
            let (void, i8t, boolean) = (
                self.b.type_void(),
                self.b.type_int(8, 0),
                self.b.type_bool(),
            );
            let fn_ty = self.b.type_function(void, [f.byte_ptr, i8t, f.size]);
            self.b
                .begin_function(void, Some(f.id), spirv::FunctionControl::NONE, fn_ty)
                .map_err(internal)?;
            self.b.name(f.id, "spir_xlate.fill");
            let dst = self.b.function_parameter(f.byte_ptr).map_err(internal)?;
            let byte = self.b.function_parameter(i8t).map_err(internal)?;
            let n = self.b.function_parameter(f.size).map_err(internal)?;
            let (zero, one) = (
                self.scalar_constant(f.size, f.size_bits, 0),
                self.scalar_constant(f.size, f.size_bits, 1),
            );
            let entry = self.b.begin_block(None).map_err(internal)?;
            let (head, body, exit, next) = (self.b.id(), self.b.id(), self.b.id(), self.b.id());
            self.b.branch(head).map_err(internal)?;
            self.b.begin_block(Some(head)).map_err(internal)?;
            let i = self
                .b
                .phi(f.size, None, [(zero, entry), (next, body)])
                .map_err(internal)?;
            let more = self.b.u_less_than(boolean, None, i, n).map_err(internal)?;
            self.b
                .branch_conditional(more, body, exit, [])
                .map_err(internal)?;
            self.b.begin_block(Some(body)).map_err(internal)?;
            let at = self
                .b
                .in_bounds_ptr_access_chain(f.byte_ptr, None, dst, i, [])
                .map_err(internal)?;
            // Aligned 1, as LLVM states a byte store.
            let mut access = spirv::MemoryAccess::ALIGNED;
            if f.volatile {
                access |= spirv::MemoryAccess::VOLATILE;
            }
            self.b
                .store(at, byte, Some(access), [Operand::LiteralBit32(1)])
                .map_err(internal)?;
            self.b.i_add(f.size, Some(next), i, one).map_err(internal)?;
            self.b.branch(head).map_err(internal)?;
            self.b.begin_block(Some(exit)).map_err(internal)?;
            self.b.ret().map_err(internal)?;
            self.b.end_function().map_err(internal)?;
        }
        Ok(())
    }
}
