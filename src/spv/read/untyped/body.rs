//! Function bodies: each instruction's pointers cast to the type it works on, or back to
//! the declared type where types must agree.

use rspirv::dr::{Instruction, Operand};
use spirv::{Op as S, Word};

use super::{id, Retype};
use crate::diag::{Error, Result};
use crate::ir::builtin::OpenclOp;

impl Retype {
    /// One function, rewritten, onto `out` (the new types go to `new_types`).
    pub(super) fn function(
        &mut self,
        insts: Vec<(usize, Instruction)>,
        out: &mut Vec<(usize, Instruction)>,
    ) -> Result<()> {
        self.in_functions = true;
        // Casts a phi needs at the end of a predecessor: (predecessor label, cast).
        let mut phi_casts: Vec<(Word, Instruction)> = Vec::new();
        let mut done: Vec<(usize, Instruction)> = Vec::with_capacity(insts.len());
        let mut scratch = Vec::new();
        let mut phis = Vec::new();
        let signature = insts
            .first()
            .and_then(|(_, f)| f.result_id)
            .and_then(|f| self.signatures.get(&f).cloned());
        let mut param = 0;
        for (at, mut inst) in insts {
            if let Some((types, fty)) = &signature {
                match inst.class.opcode {
                    S::Function => {
                        if let Some(o) = inst.operands.get_mut(1) {
                            *o = Operand::IdRef(*fty);
                        }
                    }
                    S::FunctionParameter => {
                        inst.result_type = types.get(param).copied();
                        param += 1;
                    }
                    _ => {}
                }
            }
            if let (Some(t), Some(v)) = (inst.result_type, inst.result_id) {
                self.declared.insert(v, t);
            }
            if inst.class.opcode == S::Phi {
                // After the whole body: a phi's operands may be defined below it.
                phis.push(done.len());
                done.push((at, inst));
                continue;
            }
            let mut before = Vec::new();
            let inst = self
                .body_instruction(inst, &mut before, &mut scratch)
                .map_err(|e| e.at_value(format!("word {at}")))?;
            done.extend(before.into_iter().map(|i| (at, i)));
            done.push((at, inst));
        }
        for i in phis {
            let phi =
                std::mem::replace(&mut done[i].1, Instruction::new(S::Nop, None, None, vec![]));
            done[i].1 = self.phi(phi, &mut phi_casts);
        }
        // Phi casts before their predecessor's terminator (and its merge instruction).
        for (label, cast) in phi_casts {
            let start = done
                .iter()
                .position(|(_, i)| i.class.opcode == S::Label && i.result_id == Some(label))
                .ok_or_else(|| Error::malformed(format!("a phi names %{label}, no block")))?;
            let mut end = start
                + done[start..]
                    .iter()
                    .position(|(_, i)| super::super::parse::is_terminator(i.class.opcode))
                    .ok_or_else(|| Error::malformed(format!("block %{label} does not end")))?;
            if end > start
                && matches!(
                    done[end - 1].1.class.opcode,
                    S::SelectionMerge | S::LoopMerge
                )
            {
                end -= 1;
            }
            let at = done[end].0;
            done.insert(end, (at, cast));
        }
        debug_assert!(scratch.is_empty());
        out.append(&mut done);
        Ok(())
    }

    /// A phi whose operands are cast back to the declared type at the end of their blocks.
    fn phi(&mut self, mut inst: Instruction, casts: &mut Vec<(Word, Instruction)>) -> Instruction {
        let Some(want) = inst.result_type else {
            return inst;
        };
        for pair in inst.operands.chunks_mut(2) {
            let [Operand::IdRef(v), Operand::IdRef(label)] = pair else {
                continue;
            };
            if self.now.contains_key(v) && self.now_type(*v) != Some(want) {
                let mut before = Vec::new();
                *v = self.cast(*v, want, &mut before);
                casts.extend(before.into_iter().map(|c| (*label, c)));
            }
        }
        inst
    }

    /// Any instruction of a body but a phi: its pointers cast to what it works on, or its
    /// rewritten operands back to their declared types.
    fn body_instruction(
        &mut self,
        mut inst: Instruction,
        before: &mut Vec<Instruction>,
        out: &mut Vec<(usize, Instruction)>,
    ) -> Result<Instruction> {
        let op = inst.class.opcode;
        if let Some(chain) = self.chain(&inst) {
            return self.access_chain(inst.result_id.unwrap_or_default(), chain?, before, out);
        }
        // The operand that is a pointer to memory of a known type, and that type.
        let typed: Option<(usize, Word)> = match op {
            S::Load => inst.result_type.map(|t| (0, t)),
            S::Store | S::AtomicStore => {
                let value = id(&inst, if op == S::Store { 1 } else { 3 })?;
                self.declared.get(&value).map(|&t| (0, t))
            }
            S::AtomicFlagTestAndSet | S::AtomicFlagClear => Some((0, self.int_type(32, out, 0))),
            // The other atomics work on memory of their result's type.
            op if crate::spv::form::is_atomic(op)
                || matches!(
                    op,
                    S::AtomicCompareExchangeWeak
                        | S::AtomicFAddEXT
                        | S::AtomicFMinEXT
                        | S::AtomicFMaxEXT
                ) =>
            {
                inst.result_type.map(|t| (0, t))
            }
            S::UntypedVariableKHR => return self.variable(0, inst, out),
            S::UntypedGroupAsyncCopyKHR => return self.async_copy(inst, before, out),
            S::GroupAsyncCopy => {
                // Untyped on one side: the other side's type says the elements'.
                let (dst, src) = (id(&inst, 1)?, id(&inst, 2)?);
                let pointee = |r: &Self, v: Word| {
                    r.now_type(v)
                        .and_then(|t| r.pointer_of.get(&t))
                        .map(|&(_, p)| p)
                };
                let uchar = self.int_type(8, out, 0);
                match (pointee(self, dst), pointee(self, src)) {
                    (Some(a), Some(b)) if a != b && a == uchar => Some((1, b)),
                    (Some(a), Some(b)) if a != b && b == uchar => Some((2, a)),
                    _ => None,
                }
            }
            S::UntypedPrefetchKHR => return self.prefetch(inst, before, out),
            S::UntypedArrayLengthKHR => {
                // The length of a shader storage buffer's runtime array: no Kernel form.
                return Err(Error::unsupported(
                    "OpUntypedArrayLengthKHR (SPV_KHR_untyped_pointers): the length of a \
                     runtime array, which OpenCL has no form of",
                ));
            }
            S::ExtInst if inst.operands.first() == self.opencl_std.map(Operand::IdRef).as_ref() => {
                self.ext_pointer(&inst, out)?
            }
            _ => None,
        };
        // Where the types of operands must agree with a declared type (a call's parameters,
        // a stored value, a select's arms, ...), the rewritten ones are cast back to it;
        // elsewhere an instruction is told the most precise type known.
        let agree = matches!(
            op,
            S::Select
                | S::FunctionCall
                | S::ReturnValue
                | S::Store
                | S::AtomicStore
                | S::AtomicExchange
                | S::AtomicCompareExchange
                | S::CompositeConstruct
                | S::CompositeInsert
                | S::CopyObject
                | S::Bitcast
                | S::PtrCastToGeneric
                | S::GenericCastToPtr
                | S::GenericCastToPtrExplicit
                | S::PtrEqual
                | S::PtrNotEqual
                | S::PtrDiff
        );
        if agree {
            self.restore_except(&mut inst, before, typed.map(|(i, _)| i));
        }
        if op == S::FunctionCall {
            let callee = id(&inst, 0)?;
            if let Some((types, _)) = self.signatures.get(&callee).cloned() {
                for (k, want) in types.into_iter().enumerate() {
                    let arg = id(&inst, k + 1)?;
                    if self.pointer_of.contains_key(&want) {
                        let c = self.cast(arg, want, before);
                        inst.operands[k + 1] = Operand::IdRef(c);
                    }
                }
            }
        }
        if let Some((i, pointee)) = typed {
            let p = id(&inst, i)?;
            let c = self.cast_to(p, pointee, before, out)?;
            inst.operands[i] = Operand::IdRef(c);
        }
        Ok(inst)
    }

    /// Every rewritten operand of `inst` but the one at `except` cast back to its declared
    /// type.
    fn restore_except(
        &mut self,
        inst: &mut Instruction,
        before: &mut Vec<Instruction>,
        except: Option<usize>,
    ) {
        for i in 0..inst.operands.len() {
            if Some(i) == except {
                continue;
            }
            let Operand::IdRef(v) = inst.operands[i] else {
                continue;
            };
            if !self.now.contains_key(&v) {
                continue;
            }
            if let Some(&want) = self.declared.get(&v) {
                let c = self.cast(v, want, before);
                inst.operands[i] = Operand::IdRef(c);
            }
        }
    }

    /// `OpUntyped[InBounds][Ptr]AccessChainKHR %U %r %base_type %base [%element] %i...` as the
    /// typed chain over `%base` cast to a pointer to `%base_type`.
    fn access_chain(
        &mut self,
        r: Word,
        chain: super::Chain,
        before: &mut Vec<Instruction>,
        out: &mut Vec<(usize, Instruction)>,
    ) -> Result<Instruction> {
        let base = chain.base;
        let Some(&(sc, _)) = self.now_type(base).and_then(|t| self.pointer_of.get(&t)) else {
            return Err(Error::malformed(format!(
                "the base %{base} of %{r} is no pointer"
            )));
        };
        let base = self.cast_to(base, chain.base_type, before, out)?;
        let result = self.pointer(sc, chain.reached, out, 0);
        self.now.insert(r, result);
        let mut operands = vec![Operand::IdRef(base)];
        operands.extend(chain.indices.into_iter().map(Operand::IdRef));
        Ok(Instruction::new(
            chain.typed,
            Some(result),
            Some(r),
            operands,
        ))
    }

    /// The size in bytes of a scalar or vector type (a 3-vector takes 4 lanes' room).
    fn size_of(&self, t: Word) -> Option<u64> {
        let scalar = |t: Word| {
            let def = self.types.get(&t)?;
            match (def.class.opcode, def.operands.first()) {
                (S::TypeInt | S::TypeFloat, Some(Operand::LiteralBit32(w))) => {
                    Some(u64::from(*w) / 8)
                }
                _ => None,
            }
        };
        let def = self.types.get(&t)?;
        match (def.class.opcode, &def.operands[..]) {
            // A vector's components are scalars (no recursion a malformed module could loop).
            (S::TypeVector, [Operand::IdRef(e), Operand::LiteralBit32(n)]) => {
                Some(scalar(*e)? * u64::from(if *n == 3 { 4 } else { *n }))
            }
            _ => scalar(t),
        }
    }

    /// `OpUntypedPrefetchKHR %p %n [RW Locality CacheType]` as OpenCL's `prefetch(%p, %n)`
    /// over bytes: the pointer cast to `uchar*`. A hint with no effect on results; the
    /// Khronos translator gives its `n` as the source's element count, so at worst fewer
    /// bytes are prefetched. The read/write, locality and cache hints have no OpenCL form.
    fn prefetch(
        &mut self,
        inst: Instruction,
        before: &mut Vec<Instruction>,
        out: &mut Vec<(usize, Instruction)>,
    ) -> Result<Instruction> {
        let (p, n) = (id(&inst, 0)?, id(&inst, 1)?);
        let Some(set) = self.opencl_std else {
            return Err(Error::unsupported(
                "OpUntypedPrefetchKHR in a module that imports no OpenCL.std (its `prefetch` \
                 is what it is read as)",
            ));
        };
        let uchar = self.int_type(8, out, 0);
        let p = self.cast_to(p, uchar, before, out)?;
        let void = self.find_or_make(
            |t| t.class.opcode == S::TypeVoid,
            |id| Instruction::new(S::TypeVoid, None, Some(id), vec![]),
            out,
            0,
        );
        Ok(Instruction::new(
            S::ExtInst,
            Some(void),
            Some(self.fresh()),
            vec![
                Operand::IdRef(set),
                Operand::LiteralExtInstInteger(spirv::OpenclStd100Op::prefetch as u32),
                Operand::IdRef(p),
                Operand::IdRef(n),
            ],
        ))
    }

    /// `OpUntypedGroupAsyncCopyKHR %event %r Scope %dst %src %bytes %n %stride %event` as
    /// `OpGroupAsyncCopy` of elements of `%bytes`: of the type one side's pointer already
    /// has, else an integer (or a vector of `uint`) of that size.
    fn async_copy(
        &mut self,
        inst: Instruction,
        before: &mut Vec<Instruction>,
        out: &mut Vec<(usize, Instruction)>,
    ) -> Result<Instruction> {
        let [scope, dst, src, bytes, n, stride, event] =
            [0, 1, 2, 3, 4, 5, 6].map(|i| id(&inst, i));
        let (dst, src, bytes_id) = (dst?, src?, bytes?);
        let bytes = *self.consts.get(&bytes_id).ok_or_else(|| {
            Error::unsupported(
                "OpUntypedGroupAsyncCopyKHR with an element size that is not a constant",
            )
        })?;
        let known = [dst, src].into_iter().find_map(|v| {
            let t = self.now_type(v)?;
            let (_, p) = *self.pointer_of.get(&t)?;
            (self.size_of(p) == Some(bytes)).then_some(p)
        });
        let elem = match (known, bytes) {
            (Some(p), _) => p,
            (None, 1 | 2 | 4 | 8) => self.int_type(bytes as u32 * 8, out, 0),
            (None, 8..=64) if bytes.is_power_of_two() => {
                let uint = self.int_type(32, out, 0);
                self.shaped(uint, Some(bytes as u32 / 4), out, 0)
            }
            _ => {
                return Err(Error::unsupported(format!(
                    "OpUntypedGroupAsyncCopyKHR of {bytes}-byte elements: SPIR's \
                     async_work_group_copy copies elements of an OpenCL type"
                )))
            }
        };
        let dst = self.cast_to(dst, elem, before, out)?;
        let src = self.cast_to(src, elem, before, out)?;
        let operands = [scope?, dst, src, n?, stride?, event?]
            .into_iter()
            .map(Operand::IdRef)
            .collect();
        Ok(Instruction::new(
            S::GroupAsyncCopy,
            inst.result_type,
            inst.result_id,
            operands,
        ))
    }

    /// The pointer operand of an OpenCL.std instruction and the type of the memory it works
    /// on; None for those without one or whose pointer is any memory (`prefetch`, `printf`'s
    /// format, which read bytes).
    fn ext_pointer(
        &mut self,
        inst: &Instruction,
        out: &mut Vec<(usize, Instruction)>,
    ) -> Result<Option<(usize, Word)>> {
        let Some(Operand::LiteralExtInstInteger(n)) = inst.operands.get(1) else {
            return Ok(None);
        };
        let Some(op) = spirv::OpenclStd100Op::from_u32(*n).map(crate::mappings::opencl_op) else {
            return Ok(None);
        };
        let declared = |r: &Self, i: usize| -> Result<Word> {
            let v = id(inst, i)?;
            r.declared
                .get(&v)
                .copied()
                .ok_or_else(|| Error::malformed(format!("%{v} has no type")))
        };
        // Operands: 0 the set, 1 the instruction, then the arguments from 2.
        Ok(Some(match op {
            OpenclOp::vloadn => {
                let (e, _) = self.components(inst.result_type.unwrap_or_default());
                (3, e)
            }
            OpenclOp::vstoren => {
                let (e, _) = self.components(declared(self, 2)?);
                (4, e)
            }
            OpenclOp::vload_half | OpenclOp::vload_halfn | OpenclOp::vloada_halfn => {
                (3, self.half_type(out, 0))
            }
            OpenclOp::vstore_half
            | OpenclOp::vstore_half_r
            | OpenclOp::vstore_halfn
            | OpenclOp::vstore_halfn_r
            | OpenclOp::vstorea_halfn
            | OpenclOp::vstorea_halfn_r => (4, self.half_type(out, 0)),
            OpenclOp::modf | OpenclOp::fract | OpenclOp::sincos => (3, declared(self, 2)?),
            OpenclOp::frexp | OpenclOp::lgamma_r => {
                let (_, lanes) = self.components(declared(self, 2)?);
                let int = self.int_type(32, out, 0);
                (3, self.shaped(int, lanes, out, 0))
            }
            OpenclOp::remquo => {
                let (_, lanes) = self.components(declared(self, 2)?);
                let int = self.int_type(32, out, 0);
                (4, self.shaped(int, lanes, out, 0))
            }
            _ => return Ok(None),
        }))
    }
}
