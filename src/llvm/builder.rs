//! [`Builder`]: instructions appended to a block of a module's function. Every building call
//! is made after its operands' types were checked (point 6) and only while the builder is
//! placed in a block of a function (LLVM's builder reads the data layout through the block's
//! function and module). Its memory instructions are in `memory.rs`.

use std::marker::PhantomData;

use llvm_sys::core::*;
use llvm_sys::prelude::*;

pub use llvm_sys::LLVMIntPredicate as IntPredicate;
pub use llvm_sys::LLVMRealPredicate as RealPredicate;

use super::checks::{
    cast_is_valid, first_class, indexed_type, is_bool, is_float, is_int, is_pointer, require,
    scalar, Built, Index,
};
use super::types::cstring;
use super::value::{raw_values, Block, Opcode, Type, TypeKind, Value};
use super::{Module, Refused};

/// An instruction builder of a module (owned, disposed of in `Drop`).
pub struct Builder<'m> {
    raw: LLVMBuilderRef,
    module: PhantomData<&'m Module>,
}

impl Module {
    /// A builder for this module's functions, not yet placed.
    pub fn builder(&self) -> Builder<'_> {
        // SAFETY: a live context (point 1); the builder is disposed of once, in its `Drop`,
        // before the module can be (it borrows the module).
        unsafe {
            let (ctx, _) = self.raw();
            Builder {
                raw: LLVMCreateBuilderInContext(ctx),
                module: PhantomData,
            }
        }
    }
}

impl Drop for Builder<'_> {
    fn drop(&mut self) {
        // SAFETY: created by `Module::builder`, disposed of only here.
        unsafe { LLVMDisposeBuilder(self.raw) }
    }
}

/// Member `i` of a struct or array type (an array's only below its length), the type
/// `extractvalue` and `insertvalue` take there; `None` where there is none.
fn aggregate_member(t: Type, i: u32) -> Option<Type> {
    match t.kind() {
        TypeKind::LLVMStructTypeKind => indexed_type(t, &[Index::Const(u64::from(i), 32)]),
        TypeKind::LLVMArrayTypeKind => t.element().filter(|_| t.array_len() > Some(i)),
        _ => None,
    }
}

/// The same type for both operands.
fn same(what: &str, a: Value, b: Value) -> Built<()> {
    require(
        a.type_of() == b.type_of(),
        what,
        &[a.type_of(), b.type_of()],
    )
}

impl<'m> Builder<'m> {
    /// Place the builder at the end of `block` (which belongs to a function: blocks are made
    /// only by [`Value::append_block`]).
    pub fn position_at_end(&self, block: Block<'m>) {
        // SAFETY: a live builder and a block of its module's context.
        unsafe { LLVMPositionBuilderAtEnd(self.raw, block.raw()) }
    }

    /// Place the builder right before the instruction `inst`.
    pub fn position_before(&self, inst: Value<'m>) -> Built<()> {
        require(
            inst.opcode().is_some() && inst.parent_block().is_some(),
            "a place before a value that is no placed instruction",
            &[],
        )?;
        // SAFETY: an instruction inside a block (checked).
        unsafe { LLVMPositionBuilderBefore(self.raw, inst.raw()) };
        Ok(())
    }

    /// The block the builder appends to, if it is placed.
    pub fn insert_block(&self) -> Option<Block<'m>> {
        // SAFETY: a live builder; the answer is null or a block of its module.
        unsafe { Block::new(LLVMGetInsertBlock(self.raw)) }
    }

    /// The raw builder, for the calls that set what it attaches (`di_build.rs`).
    pub(super) fn raw_builder(&self) -> LLVMBuilderRef {
        self.raw
    }

    /// The raw builder once it is placed in a block of a function, or a refusal.
    fn placed(&self) -> Built<LLVMBuilderRef> {
        let in_function = self.insert_block().is_some_and(|b| b.parent().is_some());
        require(
            in_function,
            "an instruction outside a function's block",
            &[],
        )?;
        Ok(self.raw)
    }

    /// `name` as the C string LLVM names the result with (`""`: unnamed).
    pub(super) fn build(
        &self,
        name: &str,
        make: impl FnOnce(LLVMBuilderRef, *const std::ffi::c_char) -> LLVMValueRef,
    ) -> Built<Value<'m>> {
        let b = self.placed()?;
        let name = cstring(name);
        // SAFETY: the caller checked the operands; the builder is placed (checked above); the
        // value built is of this module (point 2).
        Ok(unsafe { Value::new_unchecked(make(b, name.as_ptr())) })
    }

    /// A binary operation (`add` to `frem`); its flags are set after (`Value::set_inst_flags`).
    pub fn binary(&self, op: Opcode, l: Value<'m>, r: Value<'m>, name: &str) -> Built<Value<'m>> {
        use Opcode as O;
        same("a binary operation of two types", l, r)?;
        let t = l.type_of();
        let float = matches!(
            op,
            O::LLVMFAdd | O::LLVMFSub | O::LLVMFMul | O::LLVMFDiv | O::LLVMFRem
        );
        let int = matches!(
            op,
            O::LLVMAdd
                | O::LLVMSub
                | O::LLVMMul
                | O::LLVMUDiv
                | O::LLVMSDiv
                | O::LLVMURem
                | O::LLVMSRem
                | O::LLVMShl
                | O::LLVMLShr
                | O::LLVMAShr
                | O::LLVMAnd
                | O::LLVMOr
                | O::LLVMXor
        );
        require(
            (float && is_float(t)) || (int && is_int(t)),
            "that binary operation on that type",
            &[t],
        )?;
        // SAFETY: two operands of one type the operation takes (checked).
        self.build(name, |b, n| unsafe {
            LLVMBuildBinOp(b, op, l.raw(), r.raw(), n)
        })
    }

    /// `fneg`.
    pub fn fneg(&self, x: Value<'m>, name: &str) -> Built<Value<'m>> {
        require(is_float(x.type_of()), "fneg of that type", &[x.type_of()])?;
        // SAFETY: a floating-point operand (checked).
        self.build(name, |b, n| unsafe { LLVMBuildFNeg(b, x.raw(), n) })
    }

    /// `icmp`.
    pub fn icmp(
        &self,
        pred: IntPredicate,
        l: Value<'m>,
        r: Value<'m>,
        name: &str,
    ) -> Built<Value<'m>> {
        same("icmp of two types", l, r)?;
        let t = l.type_of();
        require(is_int(t) || is_pointer(t), "icmp of that type", &[t])?;
        // SAFETY: integer or pointer operands of one type (checked).
        self.build(name, |b, n| unsafe {
            LLVMBuildICmp(b, pred, l.raw(), r.raw(), n)
        })
    }

    /// `fcmp`.
    pub fn fcmp(
        &self,
        pred: RealPredicate,
        l: Value<'m>,
        r: Value<'m>,
        name: &str,
    ) -> Built<Value<'m>> {
        same("fcmp of two types", l, r)?;
        require(is_float(l.type_of()), "fcmp of that type", &[l.type_of()])?;
        // SAFETY: floating-point operands of one type (checked).
        self.build(name, |b, n| unsafe {
            LLVMBuildFCmp(b, pred, l.raw(), r.raw(), n)
        })
    }

    /// The cast `op` of `v` to `to`; `v` itself where it has that type already (as LLVM's
    /// builder does).
    pub fn cast(&self, op: Opcode, v: Value<'m>, to: Type<'m>, name: &str) -> Built<Value<'m>> {
        if v.type_of() == to {
            return Ok(v);
        }
        require(
            cast_is_valid(op, v.type_of(), to),
            "that cast",
            &[v.type_of(), to],
        )?;
        // SAFETY: a cast LLVM deems valid between the two types (checked; only cast opcodes
        // pass the check).
        self.build(name, |b, n| unsafe {
            LLVMBuildCast(b, op, v.raw(), to.raw(), n)
        })
    }

    /// A pointer as another pointer type: a `bitcast`, an `addrspacecast` where the address
    /// spaces differ, `v` itself where the type is the same.
    pub fn pointer_cast(&self, v: Value<'m>, to: Type<'m>, name: &str) -> Built<Value<'m>> {
        let from = v.type_of();
        require(
            from.kind() == TypeKind::LLVMPointerTypeKind
                && to.kind() == TypeKind::LLVMPointerTypeKind,
            "a pointer cast of non-pointers",
            &[from, to],
        )?;
        let op = if from.address_space() == to.address_space() {
            Opcode::LLVMBitCast
        } else {
            Opcode::LLVMAddrSpaceCast
        };
        self.cast(op, v, to, name)
    }

    /// An integer as another integer type, zero-extended, or truncated; `v` itself where the
    /// type is the same.
    pub fn int_cast(&self, v: Value<'m>, to: Type<'m>, name: &str) -> Built<Value<'m>> {
        let from = v.type_of();
        require(
            is_int(from) && is_int(to),
            "an integer cast of non-integers",
            &[from, to],
        )?;
        let op = if scalar(from).int_width() < scalar(to).int_width() {
            Opcode::LLVMZExt
        } else {
            Opcode::LLVMTrunc
        };
        self.cast(op, v, to, name)
    }

    /// `select`.
    pub fn select(
        &self,
        cond: Value<'m>,
        t: Value<'m>,
        f: Value<'m>,
        name: &str,
    ) -> Built<Value<'m>> {
        same("a select between two types", t, f)?;
        let ct = cond.type_of();
        let lanes_fit = match ct.vector() {
            Some((_, n)) => t.type_of().vector().map(|(_, m)| m) == Some(n),
            None => true,
        };
        require(
            is_bool(ct) && lanes_fit && first_class(t.type_of()),
            "a select on that condition",
            &[ct, t.type_of()],
        )?;
        // SAFETY: a boolean condition (as many lanes as the values) and two values of one type
        // (checked).
        self.build(name, |b, n| unsafe {
            LLVMBuildSelect(b, cond.raw(), t.raw(), f.raw(), n)
        })
    }

    /// A `phi` of type `ty`, without incoming values (add them with [`Value::add_incoming`]).
    pub fn phi(&self, ty: Type<'m>, name: &str) -> Built<Value<'m>> {
        require(first_class(ty), "a phi of that type", &[ty])?;
        // SAFETY: a type values have (checked).
        self.build(name, |b, n| unsafe { LLVMBuildPhi(b, ty.raw(), n) })
    }

    /// A call of the function `callee` with `args`.
    pub fn call(&self, callee: Value<'m>, args: &[Value<'m>], name: &str) -> Built<Value<'m>> {
        let (ret, params, varargs) = callee
            .function()
            .and_then(|_| callee.global_value_type()?.signature())
            .ok_or_else(|| Refused::new("a call of a value that is no function"))?;
        let count_fits = args.len() == params.len() || (varargs && args.len() > params.len());
        let types_fit = args.iter().zip(&params).all(|(a, &p)| a.type_of() == p)
            && args.iter().all(|a| first_class(a.type_of()));
        require(
            count_fits && types_fit,
            "a call whose arguments are not its callee's parameters",
            &params,
        )?;
        let fn_ty = callee
            .global_value_type()
            .map(|t| t.raw())
            .unwrap_or(std::ptr::null_mut());
        let mut raw = raw_values(args);
        // A call returning void has no name.
        let name = if ret.kind() == TypeKind::LLVMVoidTypeKind {
            ""
        } else {
            name
        };
        // SAFETY: a function, its function type, and arguments that match its parameters
        // (checked).
        self.build(name, |b, n| unsafe {
            LLVMBuildCall2(
                b,
                fn_ty,
                callee.raw(),
                raw.as_mut_ptr(),
                raw.len() as u32,
                n,
            )
        })
    }

    /// `extractelement`.
    pub fn extract_element(&self, v: Value<'m>, i: Value<'m>, name: &str) -> Built<Value<'m>> {
        require(
            v.type_of().vector().is_some() && i.type_of().int_width().is_some(),
            "a lane of that type",
            &[v.type_of(), i.type_of()],
        )?;
        // SAFETY: a vector and an integer index (checked), as the `cast<VectorType>` needs.
        self.build(name, |b, n| unsafe {
            LLVMBuildExtractElement(b, v.raw(), i.raw(), n)
        })
    }

    /// `insertelement`.
    pub fn insert_element(
        &self,
        v: Value<'m>,
        e: Value<'m>,
        i: Value<'m>,
        name: &str,
    ) -> Built<Value<'m>> {
        let fits = v
            .type_of()
            .vector()
            .is_some_and(|(lane, _)| lane == e.type_of())
            && i.type_of().int_width().is_some();
        require(
            fits,
            "a lane of that type replaced",
            &[v.type_of(), e.type_of()],
        )?;
        // SAFETY: a vector, an element of its lane type and an integer index (checked).
        self.build(name, |b, n| unsafe {
            LLVMBuildInsertElement(b, v.raw(), e.raw(), i.raw(), n)
        })
    }

    /// `shufflevector` of two vectors of one type, lanes chosen by `mask` (`None`: undef).
    pub fn shuffle(
        &self,
        module: &'m Module,
        a: Value<'m>,
        bv: Value<'m>,
        mask: &[Option<u32>],
        name: &str,
    ) -> Built<Value<'m>> {
        same("a shuffle of two types", a, bv)?;
        let lanes = a.type_of().vector().map(|(_, n)| n);
        require(
            lanes.is_some() && !mask.is_empty(),
            "a shuffle of that type",
            &[a.type_of()],
        )?;
        let i32t = module.int_type(32)?;
        let m = mask
            .iter()
            .map(|l| match l {
                Some(l) => module.const_int(i32t, u64::from(*l)),
                None => module.undef(i32t),
            })
            .collect::<Built<Vec<_>>>()?;
        let mv = module.const_vector(&m)?;
        // SAFETY: two vectors of one type and a constant mask of `i32`s (made here), as the
        // builder's `cast<Constant>` of the mask needs.
        self.build(name, |b, n| unsafe {
            LLVMBuildShuffleVector(b, a.raw(), bv.raw(), mv.raw(), n)
        })
    }

    /// `extractvalue` of member `i`.
    pub fn extract_value(&self, agg: Value<'m>, i: u32, name: &str) -> Built<Value<'m>> {
        let t = agg.type_of();
        let member = aggregate_member(t, i);
        require(member.is_some(), "that member of that type", &[t])?;
        // SAFETY: an aggregate with a member `i` (checked), as `getIndexedType` requires.
        self.build(name, |b, n| unsafe {
            LLVMBuildExtractValue(b, agg.raw(), i, n)
        })
    }

    /// `insertvalue` of `e` as member `i`.
    pub fn insert_value(
        &self,
        agg: Value<'m>,
        e: Value<'m>,
        i: u32,
        name: &str,
    ) -> Built<Value<'m>> {
        let t = agg.type_of();
        let member = aggregate_member(t, i);
        require(
            member == Some(e.type_of()),
            "that member of that type replaced",
            &[t, e.type_of()],
        )?;
        // SAFETY: an aggregate whose member `i` has `e`'s type (checked).
        self.build(name, |b, n| unsafe {
            LLVMBuildInsertValue(b, agg.raw(), e.raw(), i, n)
        })
    }

    /// `br`.
    pub fn br(&self, to: Block<'m>) -> Built<Value<'m>> {
        // SAFETY: a block of this module.
        self.build("", |b, _| unsafe { LLVMBuildBr(b, to.raw()) })
    }

    /// `br i1 cond, t, f`.
    pub fn cond_br(&self, cond: Value<'m>, t: Block<'m>, f: Block<'m>) -> Built<Value<'m>> {
        require(
            cond.type_of().int_width() == Some(1),
            "a branch on that type",
            &[cond.type_of()],
        )?;
        // SAFETY: an `i1` condition (checked) and blocks of this module.
        self.build("", |b, _| unsafe {
            LLVMBuildCondBr(b, cond.raw(), t.raw(), f.raw())
        })
    }

    /// `switch` on the integer `v`, each case a value of `v`'s type.
    pub fn switch(
        &self,
        module: &'m Module,
        v: Value<'m>,
        default: Block<'m>,
        cases: &[(u64, Block<'m>)],
    ) -> Built<Value<'m>> {
        let t = v.type_of();
        require(t.int_width().is_some(), "a switch on that type", &[t])?;
        let consts = cases
            .iter()
            .map(|(k, _)| module.const_int(t, *k))
            .collect::<Built<Vec<_>>>()?;
        // SAFETY: an integer condition (checked); each case is a constant integer of its type
        // (made above), as `addCase`'s `cast<ConstantInt>` needs.
        let s = self.build("", |b, _| unsafe {
            LLVMBuildSwitch(b, v.raw(), default.raw(), cases.len() as u32)
        })?;
        for (k, (_, to)) in consts.iter().zip(cases) {
            // SAFETY: a switch just built, a constant integer case and a block of its module.
            unsafe { LLVMAddCase(s.raw(), k.raw(), to.raw()) };
        }
        Ok(s)
    }

    /// `ret v`.
    pub fn ret(&self, v: Value<'m>) -> Built<Value<'m>> {
        // SAFETY: a value of this module (the verifier checks its type against the function's).
        self.build("", |b, _| unsafe { LLVMBuildRet(b, v.raw()) })
    }

    /// `ret void`.
    pub fn ret_void(&self) -> Built<Value<'m>> {
        // SAFETY: no operand.
        self.build("", |b, _| unsafe { LLVMBuildRetVoid(b) })
    }

    /// `unreachable`.
    pub fn unreachable(&self) -> Built<Value<'m>> {
        // SAFETY: no operand.
        self.build("", |b, _| unsafe { LLVMBuildUnreachable(b) })
    }
}
