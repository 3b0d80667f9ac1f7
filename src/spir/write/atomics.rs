//! Atomic instructions spelled as OpenCL C builtins: OpenCL C 1.x's `atomic_*` / `atom_*`
//! (relaxed, device scope: what they mean) and, in SPIR 2.0, OpenCL C 2.0's C11 forms
//! (`atomic_fetch_add_explicit`, `atomic_load_explicit`, `atomic_compare_exchange_strong_
//! explicit`, ...) for every other order and scope and for what 1.x has no spelling of (loads,
//! stores, flags). The C11 builtins take generic pointers to `volatile atomic_T`: the
//! pointer is cast to the generic address space; the memory order is clang's encoding
//! (mappings/opencl_enums.toml), the compare-exchange's failure order the success order
//! without its release part.

use crate::ir::AtomicOp as A;
use spirv::{MemorySemantics, Scope};

use super::body::FnCtx;
use super::Writer;
use crate::diag::{Error, Result};
use crate::ir::{self, Type};
use crate::llvm::{self, Opcode};
use crate::mappings;
use crate::spir::demangle::MType;

const ORDER_MASK: u32 = 0x2 | 0x4 | 0x8 | 0x10;

impl<'a> Writer<'a> {
    /// An atomic instruction `op` with `scope` and `semantics` on (`a`, of graph types `tys`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn atomic(
        &mut self,
        fc: &mut FnCtx<'a>,
        op: A,
        scope: Scope,
        semantics: u32,
        a: &[llvm::Value<'a>],
        tys: &[ir::Handle<Type>],
        rt: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let legacy = mappings::atomic_name(op);
        // OpenCL C 1.x's atomics take global and local pointers only.
        let generic = matches!(
            self.m.types[tys[0]],
            Type::Pointer {
                space: ir::AddressSpace::Generic,
                ..
            }
        );
        let plain = semantics & ORDER_MASK == 0 && scope == Scope::Device && !generic;
        if let (Some(base), true) = (legacy, plain || self.spir_version.0 < 2) {
            return self.atomic_1x(base, op, a, tys, rt, out);
        }
        if self.spir_version.0 < 2 {
            return Err(self.no_spelling(format!("atomic Op{op:?}")));
        }
        self.atomic_c11(fc, op, scope, semantics, a, tys, rt, out)
    }

    /// OpenCL C 1.x's spelling: `atomic_<op>` (`atom_<op>` on 64-bit integers).
    fn atomic_1x(
        &mut self,
        base: &str,
        op: A,
        a: &[llvm::Value<'a>],
        tys: &[ir::Handle<Type>],
        rt: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let pointee = self
            .m
            .pointee(tys[0])
            .ok_or_else(|| Error::malformed("atomic on a value that is not a pointer"))?;
        let wide = super::builtins::scalar_bits(self.m, pointee) == 64;
        let name = format!("{}_{base}", if wide { "atom" } else { "atomic" });
        let signed = !op.unsigned();
        let mut ps = Vec::new();
        for (i, &t) in tys.iter().enumerate() {
            let mut p = self.mtype(t, signed)?;
            if i == 0 {
                if let MType::Pointer { is_volatile, .. } = &mut p {
                    *is_volatile = true;
                }
            }
            ps.push(p);
        }
        self.call_builtin(&name, &ps, rt, a, out)
    }

    /// `memory_order`'s value for the order part of `semantics`.
    fn order_arg(&self, semantics: u32) -> Result<llvm::Value<'a>> {
        let order = MemorySemantics::from_bits_truncate(semantics & ORDER_MASK);
        let value = if order.is_empty() {
            0
        } else {
            mappings::MEMORY_ORDERS
                .iter()
                .find(|(_, o)| *o == order)
                .map(|(v, _)| *v)
                .ok_or_else(|| {
                    Error::malformed(format!(
                        "memory semantics {semantics:#x} with several orders"
                    ))
                })?
        };
        self.i32_const(value.into())
    }

    /// `p` as a generic pointer to the same type (an addrspacecast unless it is one): the
    /// C11 atomics' pointers, device-side enqueue's event lists.
    pub(super) fn to_generic(&self, p: llvm::Value<'a>) -> Result<llvm::Value<'a>> {
        let t = p.type_of();
        if t.address_space() == Some(4) {
            return Ok(p);
        }
        let g = t
            .element()
            .ok_or_else(|| Error::internal("a generic pointer made of a non-pointer"))?
            .pointer_to(4)?;
        Ok(self.b.cast(Opcode::LLVMAddrSpaceCast, p, g, "")?)
    }

    /// OpenCL C 2.0's `atomic_*_explicit` spelling.
    #[allow(clippy::too_many_arguments)]
    fn atomic_c11(
        &mut self,
        fc: &mut FnCtx<'a>,
        op: A,
        scope: Scope,
        semantics: u32,
        a: &[llvm::Value<'a>],
        tys: &[ir::Handle<Type>],
        rt: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        let signed = !op.unsigned();
        let pointee = self
            .m
            .pointee(tys[0])
            .ok_or_else(|| Error::malformed("atomic on a value that is not a pointer"))?;
        let elem = self.mtype(pointee, signed)?;
        let atomic_ptr = MType::Pointer {
            space: 4,
            is_const: false,
            is_volatile: true,
            pointee: Box::new(MType::Atomic(Box::new(elem.clone()))),
        };
        let order_t = MType::Enum("memory_order".into());
        let scope_t = MType::Enum("memory_scope".into());
        let p = self.to_generic(a[0])?;
        let order = self.order_arg(semantics)?;
        let scope_v = self.scope_arg(scope)?;
        if op == A::CompareExchange {
            return self
                .compare_exchange_c11(fc, atomic_ptr, elem, p, a, semantics, scope_v, rt, out);
        }
        // Increments and decrements are additions and subtractions of 1.
        let (base, value) = match op {
            A::IIncrement | A::IDecrement => {
                let add = if op == A::IIncrement {
                    A::IAdd
                } else {
                    A::ISub
                };
                let elem = a[0]
                    .type_of()
                    .element()
                    .ok_or_else(|| Error::internal("an atomic on a non-pointer"))?;
                let one = self.llvm.const_int(elem, 1)?;
                (mappings::c11_atomic_name(add), Some(one))
            }
            _ => (mappings::c11_atomic_name(op), a.get(1).copied()),
        };
        let base = base.ok_or_else(|| self.no_spelling(format!("atomic Op{op:?}")))?;
        let name = format!("{base}_explicit");
        let (params, args): (Vec<MType>, Vec<llvm::Value<'a>>) = match value {
            Some(v) => (vec![atomic_ptr, elem], vec![p, v]),
            None => (vec![atomic_ptr], vec![p]),
        };
        let mut params = params;
        let mut args = args;
        params.extend([order_t, scope_t]);
        args.extend([order, scope_v]);
        self.call_builtin(&name, &params, rt, &args, out)
    }

    /// `atomic_compare_exchange_strong_explicit` with the comparator in a variable: the
    /// value found is that variable afterwards.
    #[allow(clippy::too_many_arguments)]
    fn compare_exchange_c11(
        &mut self,
        fc: &mut FnCtx<'a>,
        atomic_ptr: MType,
        elem: MType,
        p: llvm::Value<'a>,
        a: &[llvm::Value<'a>],
        semantics: u32,
        scope: llvm::Value<'a>,
        rt: llvm::Type<'a>,
        out: &str,
    ) -> Result<llvm::Value<'a>> {
        // Graph operands: (pointer, comparator, value).
        let (cmp, value) = (a[1], a[2]);
        let expected = self.entry_alloca(fc, rt, "expected")?;
        self.b.store(cmp, expected)?;
        let expected_g = self.to_generic(expected)?;
        let expected_t = MType::Pointer {
            space: 4,
            is_const: false,
            is_volatile: false,
            pointee: Box::new(elem.clone()),
        };
        let order_t = MType::Enum("memory_order".into());
        let params = [
            atomic_ptr,
            expected_t,
            elem,
            order_t.clone(),
            order_t,
            MType::Enum("memory_scope".into()),
        ];
        let success = self.order_arg(semantics)?;
        let failure = self.order_arg(crate::spv::form::unequal_semantics(semantics))?;
        let bool_t = self.llvm.int_type(1)?;
        self.call_builtin(
            "atomic_compare_exchange_strong_explicit",
            &params,
            bool_t,
            &[p, expected_g, value, success, failure, scope],
            "",
        )?;
        Ok(self.b.load(rt, expected, out)?)
    }
}
