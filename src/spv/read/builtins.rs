//! SPIR-V instructions that become semantic builtins: OpenCL.std extended instructions,
//! atomics, barriers, async copies, images; any other instruction whose operands are all ids
//! becomes `Builtin::Primitive(op)` and keeps its exact meaning.

use rspirv::dr::{Instruction, Operand};
use spirv::{Op as S, Word};

use super::function::{FnState, Local};
use super::{id_operand, image_operands, Entity, ExtSet, Reader};
use crate::diag::{Error, Result};
use crate::ir::{self, Builtin, ImageOp, Op, Primitive, TexelKind, Type, Value};

use crate::mappings::has_trailing_literal;

/// An operand of an instruction with a shared SPIR-V form (see `spv::form`).
#[derive(Clone, Copy)]
enum Raw {
    Id(Word),
    Literal(u32),
    /// Any other literal (never part of a shared form).
    Other,
}

impl Reader {
    fn emit_builtin(
        &mut self,
        st: &mut FnState,
        inst: &Instruction,
        rty: ir::Handle<Type>,
        name: Option<String>,
        builtin: Builtin,
        args: Vec<Value>,
    ) -> Result<()> {
        self.emit(st, inst, rty, Op::Builtin { builtin, args }, name)
    }

    pub(super) fn builtin_instruction(
        &mut self,
        st: &mut FnState,
        inst: &Instruction,
        rty: ir::Handle<Type>,
        name: Option<String>,
    ) -> Result<()> {
        let op = inst.class.opcode;
        let n = inst.operands.len();
        // DPC++'s translator (LLVM 19, whose queue_t is an opaque pointer) types the default
        // queue as a pointer; spirv-val lets it pass. The queue is the queue whatever the
        // type named: OpEnqueueKernel, its only consumer, takes it as OpTypeQueue.
        if op == S::GetDefaultQueue && n == 0 && !matches!(self.m.types[rty], Type::Queue) {
            let queue = self.m.ty(Type::Queue);
            let b = Builtin::Primitive(Primitive::GetDefaultQueue);
            return self.emit_builtin(st, inst, queue, name, b, Vec::new());
        }
        // SPV_KHR_expect_assume: hints to the optimizer, which SPIR (OpenCL C) has no
        // spelling for; the expected value is the value.
        if op == S::ExpectKHR {
            let v = self.operand(st, id_operand(inst, 0)?)?;
            st.locals.insert(super::result_id(inst)?, Local::Value(v));
            return Ok(());
        }
        if op == S::AssumeTrueKHR {
            return Ok(());
        }
        if op == S::PtrDiff {
            return self.pointer_difference(st, inst, rty, name);
        }
        // Barriers, atomics, group copies and collectives: the operand layout shared with the
        // other sides. Ids stay ids; a GroupOperation is a literal.
        let raw: Vec<Raw> = inst
            .operands
            .iter()
            .map(|o| match o {
                Operand::GroupOperation(g) => Raw::Literal(*g as u32),
                o => o.id_ref_any().map_or(Raw::Other, Raw::Id),
            })
            .collect();
        let int_of = |r: Raw| match r {
            Raw::Id(id) => self.int_constant(id).ok().map(|v| v as u32),
            Raw::Literal(v) => Some(v),
            Raw::Other => None,
        };
        if let Some(form) = Builtin::from_spirv_form(op, &raw, int_of) {
            let (b, arg_ops) = form.map_err(Error::unsupported)?;
            let mut args = Vec::with_capacity(arg_ops.len());
            for r in arg_ops {
                let Raw::Id(id) = r else {
                    return Err(Error::malformed(format!(
                        "Op{op:?} with a literal where an id operand belongs"
                    )));
                };
                args.push(self.operand(st, id)?);
            }
            return self.emit_builtin(st, inst, rty, name, b, args);
        }
        match op {
            S::ExtInst => return self.ext_inst(st, inst, rty, name),
            S::SampledImage => {
                let img = self.operand(st, id_operand(inst, 0)?)?;
                let smp = self.operand(st, id_operand(inst, 1)?)?;
                st.locals
                    .insert(super::result_id(inst)?, Local::SampledImage(img, smp));
                return Ok(());
            }
            S::ImageSampleExplicitLod => return self.image_sample(st, inst, rty, name),
            S::ImageRead => {
                let args = self.operands_at(st, inst, [0, 1])?;
                let ops = image_operands::read(inst, 2, "OpImageRead")?;
                if let Some(lod) = ops.lod {
                    self.level_zero(lod)?;
                }
                let texel = ops.texel(TexelKind::of_texel_type(&self.m, rty));
                let b = Builtin::Image(ImageOp::Read(texel));
                if let Some(scalar) = self.depth_texel(st, args[0], rty) {
                    let v = self.push(st, scalar, Op::Builtin { builtin: b, args }, name);
                    st.locals
                        .insert(super::result_id(inst)?, Local::DepthTexel(v, rty));
                    return Ok(());
                }
                return self.emit_builtin(st, inst, rty, name, b, args);
            }
            S::ImageWrite => {
                let mut args = self.operands_at(st, inst, [0, 1, 2])?;
                let ops = image_operands::read(inst, 3, "OpImageWrite")?;
                if let Some(lod) = ops.lod {
                    args.push(self.operand(st, lod)?);
                }
                let texel_t = self.value_ty(st, args[2]);
                let texel = ops.texel(TexelKind::of_texel_type(&self.m, texel_t));
                let b = Builtin::Image(ImageOp::Write(texel));
                return self.emit_builtin(st, inst, rty, name, b, args);
            }
            S::ImageQuerySize | S::ImageQuerySizeLod => {
                let args = self.operands_at(st, inst, [0])?;
                if op == S::ImageQuerySizeLod {
                    let lod = id_operand(inst, 1)?;
                    if self.int_constant(lod).ok() != Some(0) {
                        return Err(Error::unsupported(
                            "OpImageQuerySizeLod of a level other than constant 0",
                        ));
                    }
                }
                let b = Builtin::Image(self.m.size_query(rty));
                return self.emit_builtin(st, inst, rty, name, b, args);
            }
            _ => {}
        }
        // The storage class OpGenericCastToPtrExplicit casts to is its result type's.
        if op == S::GenericCastToPtrExplicit {
            let args = self.operands_at(st, inst, 0..1)?;
            let b = Builtin::Primitive(Primitive::GenericCastToPtrExplicit);
            return self.emit_builtin(st, inst, rty, name, b, args);
        }
        let primitive = crate::spv::form::read_as_primitive(op);
        if let Some(dot) = primitive.filter(|p| p.integer_dot().is_some()) {
            return self.integer_dot(st, inst, rty, name, dot);
        }
        // Anything else: the SPIR-V instruction itself, if its operands are all ids.
        if !inst.operands.iter().all(|o| {
            matches!(
                o,
                Operand::IdRef(_) | Operand::IdScope(_) | Operand::IdMemorySemantics(_)
            )
        }) {
            return Err(Error::unsupported(format!(
                "Op{op:?} (an instruction with literal operands the graph cannot carry yet)"
            )));
        }
        let Some(primitive) = primitive else {
            return Err(Error::unsupported(format!("Op{op:?} in a function")));
        };
        let args = self.operands_at(st, inst, 0..n)?;
        if op == S::BitCount && args.len() == 1 && self.value_ty(st, args[0]) != rty {
            // Valid SPIR-V (a result wide enough for the count), but OpenCL C's popcount
            // returns its operand's type and the graph keeps OpenCL's form.
            return Err(Error::unsupported(
                "OpBitCount whose result type is not its operand's (OpenCL C's popcount \
                 returns its operand's type)",
            ));
        }
        self.emit_builtin(st, inst, rty, name, Builtin::Primitive(primitive), args)
    }

    /// `OpSDot` and its kin: the graph keeps them as they are, without the packed format
    /// operand, which a scalar factor implies (see `ir::builtin::IntegerDot`).
    fn integer_dot(
        &mut self,
        st: &mut FnState,
        inst: &Instruction,
        rty: ir::Handle<Type>,
        name: Option<String>,
        dot: Primitive,
    ) -> Result<()> {
        let op = inst.class.opcode;
        let ids = inst
            .operands
            .iter()
            .take_while(|o| matches!(o, Operand::IdRef(_)))
            .count();
        let args = self.operands_at(st, inst, 0..ids)?;
        let scalar = args
            .first()
            .is_some_and(|&a| self.m.lanes(self.value_ty(st, a)) == 1);
        match &inst.operands[ids..] {
            [] if !scalar => {}
            [Operand::PackedVectorFormat(spirv::PackedVectorFormat::PackedVectorFormat4x8Bit)]
                if scalar => {}
            [] => {
                return Err(Error::malformed(format!(
                    "Op{op:?} of two scalars without their packed format"
                )))
            }
            [Operand::PackedVectorFormat(_)] if !scalar => {
                return Err(Error::malformed(format!(
                    "Op{op:?} of two vectors with a packed format"
                )))
            }
            _ => {
                return Err(Error::malformed(format!(
                    "Op{op:?} with operands it does not take"
                )))
            }
        }
        self.emit_builtin(st, inst, rty, name, Builtin::Primitive(dot), args)
    }

    /// SPIR-V 1.4's OpPtrDiff, the distance between two pointers in elements, as OpenCL C
    /// (and LLVM) say it: the addresses' difference divided, exactly, by the element's size.
    fn pointer_difference(
        &mut self,
        st: &mut FnState,
        inst: &Instruction,
        rty: ir::Handle<Type>,
        name: Option<String>,
    ) -> Result<()> {
        let args = self.operands_at(st, inst, [0, 1])?;
        let pt = self.value_ty(st, args[0]);
        let (Type::Pointer { pointee, .. }, Type::Int { .. }) =
            (&self.m.types[pt], &self.m.types[rty])
        else {
            return Err(Error::unsupported(
                "OpPtrDiff other than of two scalar pointers into an integer",
            ));
        };
        let size = self.m.size_of(*pointee);
        let address = |r: &mut Self, st: &mut FnState, value| {
            let cast = Op::Cast {
                op: ir::CastOp::PtrToInt,
                value,
            };
            r.push(st, rty, cast, None)
        };
        let (a, b) = (address(self, st, args[0]), address(self, st, args[1]));
        let sub = |lhs, rhs| Op::Binary {
            op: ir::BinaryOp::Sub,
            lhs,
            rhs,
            flags: Default::default(),
        };
        if size <= 1 {
            return self.emit(st, inst, rty, sub(a, b), name);
        }
        let bytes = self.push(st, rty, sub(a, b), None);
        let size = Value::Const(self.m.int_const(rty, size));
        let exact = ir::ArithFlags {
            exact: true,
            ..Default::default()
        };
        let div = Op::Binary {
            op: ir::BinaryOp::SDiv,
            lhs: bytes,
            rhs: size,
            flags: exact,
        };
        self.emit(st, inst, rty, div, name)
    }

    /// A level of detail must be the constant 0: OpenCL C reads and samples other levels
    /// only with cl_khr_mipmap_image, which the graph does not carry.
    fn level_zero(&mut self, lod: Word) -> Result<()> {
        let c = self.constant_of(lod)?;
        if matches!(
            self.m.constants[c].kind,
            ir::ConstantKind::Float(0) | ir::ConstantKind::Int(0) | ir::ConstantKind::Null
        ) {
            return Ok(());
        }
        Err(Error::unsupported(
            "an image read or sampling at a level of detail other than 0 (cl_khr_mipmap_image)",
        ))
    }

    fn image_sample(
        &mut self,
        st: &mut FnState,
        inst: &Instruction,
        rty: ir::Handle<Type>,
        name: Option<String>,
    ) -> Result<()> {
        let si = id_operand(inst, 0)?;
        let Some(Local::SampledImage(img, smp)) = st.locals.get(&si).copied() else {
            return Err(Error::unsupported(format!(
                "OpImageSampleExplicitLod of %{si}, which is not an OpSampledImage of this function"
            )));
        };
        let coord = self.operand(st, id_operand(inst, 1)?)?;
        let ops = image_operands::read(inst, 2, "OpImageSampleExplicitLod")?;
        let Some(lod) = ops.lod else {
            return Err(Error::malformed(
                "OpImageSampleExplicitLod without the Lod image operand",
            ));
        };
        self.level_zero(lod)?;
        let texel = ops.texel(TexelKind::of_texel_type(&self.m, rty));
        let b = Builtin::Image(ImageOp::Sample(texel));
        // Sampling through a select of two samplers (other producers write it; SPIR-V's
        // OpenCL environment does not allow it) is the select of the two samplings: the
        // graph's one form, as the SPIR reader makes it.
        if let Some((h, cond, on_true, on_false)) =
            crate::normal::sampler_select(&self.m, &st.body, smp)
        {
            let sample = |r: &mut Self, st: &mut FnState, s: Value| {
                let op = Op::Builtin {
                    builtin: b.clone(),
                    args: vec![img, s, coord],
                };
                r.push(st, rty, op, None)
            };
            let (t, f) = (sample(self, st, on_true), sample(self, st, on_false));
            st.looked_through.push(h);
            let op = Op::Select {
                cond,
                on_true: t,
                on_false: f,
            };
            return self.emit(st, inst, rty, op, name);
        }
        if let Some(scalar) = self.depth_texel(st, img, rty) {
            let op = Op::Builtin {
                builtin: b,
                args: vec![img, smp, coord],
            };
            let v = self.push(st, scalar, op, name);
            st.locals
                .insert(super::result_id(inst)?, Local::DepthTexel(v, rty));
            return Ok(());
        }
        self.emit_builtin(st, inst, rty, name, b, vec![img, smp, coord])
    }

    /// The scalar texel type of a depth image read as a vector (`rty`), which the graph (as
    /// OpenCL C) reads as a scalar; `None` for any other image or result.
    fn depth_texel(
        &mut self,
        st: &FnState,
        img: Value,
        rty: ir::Handle<Type>,
    ) -> Option<ir::Handle<Type>> {
        let it = self.value_ty(st, img);
        self.m.depth_texel_of_vector(it, rty)
    }

    /// A pointer to an array of chars as a pointer to its first char (`getelementptr
    /// inbounds %s, 0, 0`), any other value as it is. LLVM's SPIR-V backend (clang 22) gives
    /// printf's format as the string's variable itself, where OpenCL.std asks for a pointer
    /// to `char` (spirv-val rejects it): the address is the same.
    fn string_start(&mut self, st: &mut FnState, v: Value) -> Value {
        let Type::Pointer { pointee, space } = self.m.types[self.value_ty(st, v)] else {
            return v;
        };
        let Type::Array { elem, .. } = self.m.types[pointee] else {
            return v;
        };
        if !matches!(self.m.types[elem], Type::Int { width: 8 }) {
            return v;
        }
        let ty = self.m.pointer_type(elem, space);
        let i32t = self.m.int_type(32);
        let zero = Value::Const(self.m.int_const(i32t, 0));
        let op = Op::Gep {
            inbounds: true,
            base: v,
            indices: vec![zero, zero],
        };
        self.push(st, ty, op, None)
    }

    fn ext_inst(
        &mut self,
        st: &mut FnState,
        inst: &Instruction,
        rty: ir::Handle<Type>,
        name: Option<String>,
    ) -> Result<()> {
        let set = id_operand(inst, 0)?;
        match self.ids.get(&set) {
            Some(Entity::ExtInstSet(ExtSet::OpenClStd)) => {}
            Some(Entity::ExtInstSet(ExtSet::NonSemantic)) => return Ok(()),
            Some(Entity::ExtInstSet(ExtSet::Unknown)) => {
                return Err(Error::unsupported(format!(
                    "extended instruction from an unknown set (%{set})"
                )))
            }
            _ => {
                return Err(Error::malformed(format!(
                    "%{set} is not an OpExtInstImport"
                )))
            }
        }
        let number = super::literal_operand(inst, 1)?;
        let op = spirv::OpenclStd100Op::from_u32(number)
            .map(crate::mappings::opencl_op)
            .ok_or_else(|| {
                Error::malformed(format!("OpenCL.std has no instruction number {number}"))
            })?;
        let ops = &inst.operands[2..];
        // The grammar's operand count (printf's arguments are any number after the format).
        if let Some(g) = rspirv::grammar::OPENCL_STD_100_INSTRUCTION_TABLE.lookup_opcode(number) {
            use rspirv::grammar::OperandQuantifier as Q;
            let one = g.operands.iter().filter(|o| o.quantifier == Q::One).count();
            let more = g.operands.iter().any(|o| o.quantifier != Q::One);
            if ops.len() < one || (!more && ops.len() > one) {
                return Err(Error::malformed(format!(
                    "OpenCL.std {op:?} with {} operands; it takes {one}{}",
                    ops.len(),
                    if more { " or more" } else { "" }
                )));
            }
        }
        let (id_ops, lit) = match ops.split_last() {
            Some((last, rest)) if has_trailing_literal(op) => (rest, Some(last)),
            _ => (ops, None),
        };
        let mut args = Vec::new();
        for o in id_ops {
            match o {
                Operand::IdRef(id) => args.push(self.operand(st, *id)?),
                other => {
                    return Err(Error::malformed(format!(
                        "OpenCL.std {op:?}: {} where an id belongs",
                        super::operand_words(Some(other))
                    )))
                }
            }
        }
        let literal = match lit {
            None if has_trailing_literal(op) => {
                return Err(Error::malformed(format!(
                    "OpenCL.std {op:?} without its literal operand"
                )))
            }
            None => None,
            // rspirv may decode the literal as an id when it does not know the grammar.
            Some(
                Operand::IdRef(v) | Operand::LiteralBit32(v) | Operand::LiteralExtInstInteger(v),
            ) => Some(*v),
            Some(Operand::FPRoundingMode(r)) => Some(*r as u32),
            Some(other) => {
                return Err(Error::malformed(format!(
                    "OpenCL.std {op:?}: {} where its literal number belongs",
                    super::operand_words(Some(other))
                )))
            }
        };
        if op == ir::builtin::OpenclOp::printf {
            if let Some(format) = args.first_mut() {
                *format = self.string_start(st, *format);
            }
        }
        let scalar_data = args
            .first()
            .is_some_and(|&d| self.m.lanes(self.value_ty(st, d)) == 1);
        let (op, literal) = crate::normal::half_form(op, literal, scalar_data);
        let b = Builtin::ExtInst { op, literal };
        self.emit_builtin(st, inst, rty, name, b, args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::builtin::OpenclOp as C;

    #[test]
    fn trailing_literals_come_from_the_grammar() {
        let with: Vec<C> = rspirv::grammar::OPENCL_STD_100_INSTRUCTION_TABLE
            .iter()
            .filter_map(|i| spirv::OpenclStd100Op::from_u32(i.opcode.into()))
            .map(crate::mappings::opencl_op)
            .filter(|&op| has_trailing_literal(op))
            .collect();
        assert_eq!(
            with,
            [
                C::vloadn,
                C::vload_halfn,
                C::vstore_half_r,
                C::vstore_halfn_r,
                C::vloada_halfn,
                C::vstorea_halfn_r,
            ]
        );
    }
}
