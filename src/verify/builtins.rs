//! The typing rules of semantic builtins, for `verify` and for the readers: which operand and
//! result types each kind of builtin takes. A reader that lowers a call to a builtin checks it
//! here, so that a call spelled right with operands of the wrong types (an external function
//! `vload_half` taking an integer, an OpImageQueryOrder whose result is a vector) is refused
//! at the call rather than handed to a writer that builds LLVM or SPIR-V from it.
//!
//! The rules are per class of builtin, not per OpenCL C overload: operands are numbers where
//! the operation computes on numbers, pointers where it reads or writes memory, OpenCL objects
//! where it works on one; results are of the kind the operation produces.

use crate::ir::builtin::{AtomicOp, Builtin, ConvertKind, ImageOp, OpenclOp, Primitive, TexelKind};
use crate::ir::module::Module;
use crate::ir::primitive::{enqueue_primitives, pipe_primitives};
use crate::ir::types::Type;
use crate::ir::Handle;

/// What is wrong with builtin `b` taking operands of types `args` and giving `ty`, if anything.
pub fn builtin_error(
    m: &Module,
    b: &Builtin,
    args: &[Handle<Type>],
    ty: Handle<Type>,
) -> Option<String> {
    let c = Check { m, args, ty };
    match b {
        Builtin::WorkItem(b) => {
            // `[dim]` for the per-dimension queries, nothing for the others.
            let per_dim = crate::mappings::work_item_name(*b).is_some_and(|w| w.1);
            c.count(usize::from(per_dim))
                .or_else(|| c.all_int(0..args.len()))
                .or_else(|| c.int_result())
        }
        Builtin::ExtInst { op, literal } => c.ext_inst(*op, *literal),
        Builtin::Convert { from, to, .. } => c.convert(*from, *to),
        Builtin::ControlBarrier { .. } | Builtin::MemoryBarrier { .. } => {
            c.count(0).or_else(|| c.void_result())
        }
        Builtin::Atomic { op, .. } => c.atomic(*op),
        Builtin::Image(op) => c.image(*op),
        Builtin::AsyncCopy { strided } => {
            // dst, src, element count, [stride,] event.
            let sizes = if *strided { 2..4 } else { 2..3 };
            c.count(sizes.end + 1)
                .or_else(|| c.pointer(0))
                .or_else(|| c.pointer(1))
                .or_else(|| c.same_pointee(0, 1))
                .or_else(|| c.all_int(sizes))
        }
        Builtin::WaitEvents => c
            .count(2)
            .or_else(|| c.all_int(0..1))
            .or_else(|| c.pointer(1)),
        Builtin::Group { .. } | Builtin::Glsl(_) => None,
        Builtin::Primitive(op) => c.primitive(*op),
    }
}

struct Check<'a> {
    m: &'a Module,
    args: &'a [Handle<Type>],
    ty: Handle<Type>,
}

impl Check<'_> {
    fn scalar(&self, t: Handle<Type>) -> &Type {
        &self.m.types[self.m.scalar_of(t)]
    }

    fn is_number(&self, t: Handle<Type>) -> bool {
        matches!(self.scalar(t), Type::Int { .. } | Type::Float { .. })
    }

    fn count(&self, n: usize) -> Option<String> {
        (self.args.len() != n).then(|| format!("{} operands where it takes {n}", self.args.len()))
    }

    fn pointer(&self, i: usize) -> Option<String> {
        match self.args.get(i).map(|&t| &self.m.types[t]) {
            Some(Type::Pointer { .. }) => None,
            _ => Some(format!("operand {i} is not a pointer")),
        }
    }

    /// printf's format (operand 0, a pointer) points to chars: a string decays to its first
    /// character, as OpenCL.std's `Format` operand says.
    fn format_of_chars(&self) -> Option<String> {
        match self.args.first().map(|&t| &self.m.types[t]) {
            Some(Type::Pointer { pointee, .. })
                if matches!(self.m.types[*pointee], Type::Int { width: 8 }) =>
            {
                None
            }
            _ => Some("its format does not point to chars (a string's first character)".into()),
        }
    }

    /// Operand `i` of a vector load or store (`vloadn`, `vstore_half`, ...) points to the
    /// scalars it reads or writes, not to an array or a structure of them.
    fn element_pointer(&self, i: usize) -> Option<String> {
        let pointee = match self.args.get(i).map(|&t| &self.m.types[t]) {
            Some(Type::Pointer { pointee, .. }) => &self.m.types[*pointee],
            _ => return None,
        };
        matches!(pointee, Type::Array { .. } | Type::Struct { .. })
            .then(|| format!("operand {i} points to an aggregate, not to the scalars it moves"))
    }

    /// Operands `a` and `b` point to one type (an async copy's `gentype *dst, const gentype
    /// *src`).
    fn same_pointee(&self, a: usize, b: usize) -> Option<String> {
        let pointee = |i: usize| match self.args.get(i).map(|&t| &self.m.types[t]) {
            Some(Type::Pointer { pointee, .. }) => Some(*pointee),
            _ => None,
        };
        (pointee(a) != pointee(b)).then(|| format!("operands {a} and {b} point to different types"))
    }

    fn all_int(&self, range: std::ops::Range<usize>) -> Option<String> {
        range
            .into_iter()
            .find(|&i| !matches!(self.m.types[self.args[i]], Type::Int { .. }))
            .map(|i| format!("operand {i} is not an integer"))
    }

    fn numbers(&self, range: std::ops::Range<usize>) -> Option<String> {
        range
            .into_iter()
            .find(|&i| !self.is_number(self.args[i]))
            .map(|i| format!("operand {i} is not a number or a vector of numbers"))
    }

    fn void_result(&self) -> Option<String> {
        (self.m.types[self.ty] != Type::Void).then(|| "its result is not void".to_string())
    }

    fn int_result(&self) -> Option<String> {
        (!matches!(self.m.types[self.ty], Type::Int { .. }))
            .then(|| "its result is not a scalar integer".to_string())
    }

    fn number_result(&self) -> Option<String> {
        (!self.is_number(self.ty)).then(|| "its result is not a number".to_string())
    }

    fn ext_inst(&self, op: OpenclOp, literal: Option<u32>) -> Option<String> {
        use OpenclOp as O;
        if crate::mappings::has_trailing_literal(op) != literal.is_some() {
            return Some("its literal operand is missing or extra".into());
        }
        let operands = rspirv::grammar::OPENCL_STD_100_INSTRUCTION_TABLE
            .lookup_opcode(crate::mappings::opencl_std_opcode(op) as u32)
            .map(|i| i.operands);
        let Some(operands) = operands else {
            return Some("not an OpenCL.std instruction".into());
        };
        let variadic = operands
            .last()
            .is_some_and(|o| o.quantifier == rspirv::grammar::OperandQuantifier::ZeroOrMore);
        // The id operands, less the trailing literal the graph keeps apart.
        let ids = operands.len() - usize::from(literal.is_some());
        if if variadic {
            self.args.len() + 1 < ids
        } else {
            self.args.len() != ids
        } {
            return Some(format!(
                "{} operands where it takes {}",
                self.args.len(),
                ids
            ));
        }
        if let Some(e) = self.ext_inst_kind(op) {
            return Some(e);
        }
        // The loads of n components give a vector of n (`vload3` returning a `float2` is no
        // OpenCL builtin).
        if matches!(op, O::vloadn | O::vload_halfn | O::vloada_halfn) {
            let vector = matches!(self.m.types[self.ty], Type::Vector { .. });
            let lanes = self.m.lanes(self.ty);
            if !vector || literal != Some(lanes) {
                return Some(match literal {
                    Some(n) => format!("{op:?} of {n} components whose result has {lanes}"),
                    None => format!("{op:?} without its count of components"),
                });
            }
        }
        // Where the instruction reads or writes memory (the operand that is a pointer),
        // whether it writes, and whether it moves scalars (the vector loads and stores).
        let (pointer, stores, scalars) = match op {
            O::fract | O::frexp | O::lgamma_r | O::modf | O::sincos => (Some(1), false, false),
            O::remquo => (Some(2), false, false),
            O::vloadn | O::vload_half | O::vload_halfn | O::vloada_halfn => (Some(1), false, true),
            O::vstoren
            | O::vstore_half
            | O::vstore_half_r
            | O::vstore_halfn
            | O::vstore_halfn_r
            | O::vstorea_halfn
            | O::vstorea_halfn_r => (Some(2), true, true),
            O::prefetch => (Some(0), true, false),
            O::printf => {
                return self
                    .pointer(0)
                    .or_else(|| self.format_of_chars())
                    .or_else(|| self.int_result());
            }
            _ => (None, false, false),
        };
        // OpenCL.std's prefetch reads ahead in global memory only.
        if op == O::prefetch {
            if let Some(Type::Pointer { space, .. }) = self.args.first().map(|&t| &self.m.types[t])
            {
                if *space != crate::ir::AddressSpace::Global {
                    return Some("prefetch of a pointer that is not to global memory".into());
                }
            }
        }
        for i in 0..self.args.len() {
            let e = if Some(i) == pointer {
                self.pointer(i)
                    .or_else(|| scalars.then(|| self.element_pointer(i)).flatten())
            } else {
                self.numbers(i..i + 1)
            };
            if e.is_some() {
                return e;
            }
        }
        if matches!(op, O::s_upsample | O::u_upsample) {
            return self.upsample();
        }
        if scalars {
            if let Some(e) = self.vector_memory(op, stores) {
                return Some(e);
            }
        }
        if stores {
            self.void_result()
        } else {
            self.number_result()
        }
    }

    /// The math, common and geometric instructions return floats (`ilogb` takes one), the
    /// integer instructions integers (OpenCL.std's Result Type rules).
    fn ext_inst_kind(&self, op: OpenclOp) -> Option<String> {
        use OpenclOp as O;
        // The set's order (OpenclOp's declaration order) groups the instructions by kind.
        let float_op = (O::acos..=O::fast_normalize).contains(&op);
        let int_op =
            (O::s_abs..=O::u_mul24).contains(&op) || (O::u_abs..=O::u_mad_hi).contains(&op);
        let is_float = |t| matches!(self.scalar(t), Type::Float { .. });
        let is_int = |t| matches!(self.scalar(t), Type::Int { .. });
        if op == O::ilogb {
            return (!self.args.first().is_some_and(|&a| is_float(a)))
                .then(|| "ilogb of an operand that is not a float".into());
        }
        if float_op && !is_float(self.ty) {
            return Some("a float instruction whose result is not a float".into());
        }
        if int_op && !is_int(self.ty) {
            return Some("an integer instruction whose result is not an integer".into());
        }
        None
    }

    /// The vector loads and stores' types (OpenCL.std): `vloadn` and `vstoren` move a vector
    /// of the scalars their pointer points to; the `half` forms read or write halves and
    /// compute in 32- or 64-bit floats, a scalar for `vload_half`/`vstore_half`, a vector
    /// for the others; every offset is an integer. `stores`: a store's operand 0 is the value,
    /// a load's result is.
    fn vector_memory(&self, op: OpenclOp, stores: bool) -> Option<String> {
        use OpenclOp as O;
        // The value moved (a store's operand 0, a load's result), the offset, the pointer.
        let (value, offset, pointer) = if stores {
            (self.args[0], self.args[1], self.args[2])
        } else {
            (self.ty, self.args[0], self.args[1])
        };
        if !matches!(self.m.types[offset], Type::Int { .. }) {
            return Some(format!("{op:?} of an offset that is not a scalar integer"));
        }
        let pointee = self.m.pointee(pointer)?;
        let vector = matches!(self.m.types[value], Type::Vector { .. });
        let float = matches!(self.scalar(value), Type::Float { width: 32 | 64 });
        let whole = matches!(op, O::vloadn | O::vstoren);
        let scalar = matches!(op, O::vload_half | O::vstore_half | O::vstore_half_r);
        if whole {
            if !vector || self.m.scalar_of(value) != pointee {
                return Some(format!(
                    "{op:?} of a value that is not a vector of what its pointer points to"
                ));
            }
        } else if self.m.types[pointee] != (Type::Float { width: 16 }) {
            return Some(format!("{op:?} through a pointer that is not to half"));
        } else if !float || vector == scalar {
            let shape = if scalar { "scalar" } else { "vector" };
            return Some(format!(
                "{op:?} of a value that is not a {shape} of 32- or 64-bit floats"
            ));
        }
        None
    }

    /// `upsample(hi, lo)`: two integers of one type, the result twice as wide.
    fn upsample(&self) -> Option<String> {
        let width = |t: Handle<Type>| match self.scalar(t) {
            Type::Int { width } => *width,
            _ => 0,
        };
        let fits = self.args[0] == self.args[1]
            && width(self.ty) == 2 * width(self.args[0])
            && self.m.lanes(self.ty) == self.m.lanes(self.args[0]);
        (!fits).then(|| "upsample's result is not twice as wide as its operands".into())
    }

    fn convert(&self, from: ConvertKind, to: ConvertKind) -> Option<String> {
        if let Some(e) = self.count(1) {
            return Some(e);
        }
        let kind_fits = |t: Handle<Type>, k: ConvertKind| {
            matches!(
                (self.scalar(t), k),
                (Type::Float { .. }, ConvertKind::Float) | (Type::Int { .. }, ConvertKind::Int(_))
            )
        };
        if !kind_fits(self.args[0], from) {
            return Some("the operand is not of the kind converted from".into());
        }
        if !kind_fits(self.ty, to) {
            return Some("the result is not of the kind converted to".into());
        }
        (self.m.lanes(self.args[0]) != self.m.lanes(self.ty))
            .then(|| "operand and result differ in lanes".into())
    }

    fn atomic(&self, op: AtomicOp) -> Option<String> {
        use AtomicOp as A;
        if let Some(e) = self.pointer(0) {
            return Some(e);
        }
        let pointee = self.m.pointee(self.args[0])?;
        if !matches!(self.m.types[pointee], Type::Int { .. } | Type::Float { .. }) {
            return Some("an atomic on memory that is not a scalar number".into());
        }
        let (values, result) = match op {
            A::Store => (1, None),
            A::FlagClear => (0, None),
            A::FlagTestAndSet => (0, Some(Type::Bool)),
            A::Load | A::IIncrement | A::IDecrement => (0, Some(Type::Void)),
            A::CompareExchange => (2, Some(Type::Void)),
            A::Exchange
            | A::IAdd
            | A::ISub
            | A::SMin
            | A::UMin
            | A::SMax
            | A::UMax
            | A::And
            | A::Or
            | A::Xor => (1, Some(Type::Void)),
        };
        if let Some(e) = self.count(1 + values) {
            return Some(e);
        }
        if self.args[1..].iter().any(|&a| a != pointee) {
            return Some("an atomic operand is not of the type in memory".into());
        }
        match result {
            None => self.void_result(),
            // Void stands for "the type in memory".
            Some(Type::Void) => {
                (self.ty != pointee).then(|| "the result is not of the type in memory".into())
            }
            Some(t) => (self.m.types[self.ty] != t).then(|| "the result is not a boolean".into()),
        }
    }

    fn image(&self, op: ImageOp) -> Option<String> {
        let image = match self.args.first().map(|&t| &self.m.types[t]) {
            Some(&Type::Image(image)) | Some(&Type::ShaderImage { image, .. }) => image,
            _ => return Some("operand 0 is not an image".into()),
        };
        // A texel: four components of the kind's type; one for depth images.
        let texel = |t: Handle<Type>, kind: TexelKind| {
            let lanes_fit = self.m.lanes(t) == if image.depth { 1 } else { 4 };
            let scalar_fits = matches!(
                (kind, self.scalar(t)),
                (TexelKind::Float, Type::Float { width: 32 })
                    | (TexelKind::Half, Type::Float { width: 16 })
                    | (
                        TexelKind::Signed | TexelKind::Unsigned,
                        Type::Int { width: 32 }
                    )
            );
            lanes_fit && scalar_fits
        };
        // A coordinate: a number with a lane for each dimension, and one for the layer of an
        // array of images.
        let needed = image.dims() + u32::from(image.arrayed);
        let coord = |i: usize| {
            self.args
                .get(i)
                .is_some_and(|&t| self.is_number(t) && self.m.lanes(t) >= needed)
                .then_some(())
                .ok_or_else(|| format!("operand {i} is not a coordinate of {needed} lanes or more"))
        };
        let check = || -> Result<(), String> {
            match op {
                ImageOp::Read(kind) | ImageOp::Sample(kind) => {
                    // (Writes to images typed read-only are allowed: llvm-spirv types a
                    // legacy SPIR image read-only whatever the kernel does with it.)
                    if image.access == Some(crate::ir::Access::WriteOnly) {
                        return Err("a read of a write-only image".into());
                    }
                    let sampled = matches!(op, ImageOp::Sample(_));
                    if sampled
                        && !matches!(
                            self.args.get(1).map(|&t| &self.m.types[t]),
                            Some(Type::Sampler)
                        )
                    {
                        return Err("operand 1 is not a sampler".into());
                    }
                    let n = 2 + usize::from(sampled);
                    if let Some(e) = self.count(n) {
                        return Err(e);
                    }
                    coord(n - 1)?;
                    if !texel(self.ty, kind) {
                        return Err("its result is not a texel of the kind read".into());
                    }
                }
                ImageOp::Write(kind) => {
                    if !(3..=4).contains(&self.args.len()) {
                        return Err(format!("{} operands", self.args.len()));
                    }
                    coord(1)?;
                    if !texel(self.args[2], kind) {
                        return Err("the texel written is not of the kind written".into());
                    }
                    if self.args.len() == 4 {
                        if let Some(e) = self.all_int(3..4) {
                            return Err(e);
                        }
                    }
                    if let Some(e) = self.void_result() {
                        return Err(e);
                    }
                }
                ImageOp::QuerySize { component } => {
                    if let Some(e) = self.count(1) {
                        return Err(e);
                    }
                    let fits = match component {
                        Some(c) => {
                            c < image.size_components()
                                && matches!(self.m.types[self.ty], Type::Int { .. })
                        }
                        // SPIR-V's size vector (dimensions, then the array size) or
                        // OpenCL C's `get_image_dim` (`int2`, or `int4` for 3D images).
                        None => {
                            let lanes = self.m.lanes(self.ty);
                            matches!(self.scalar(self.ty), Type::Int { .. })
                                && (2..=4).contains(&lanes)
                                && lanes >= image.dims()
                        }
                    };
                    if !fits {
                        return Err("its result is not the size asked for".into());
                    }
                }
                ImageOp::QueryChannelDataType | ImageOp::QueryChannelOrder => {
                    if let Some(e) = self.count(1).or_else(|| self.int_result()) {
                        return Err(e);
                    }
                }
            }
            Ok(())
        };
        check().err()
    }

    /// `OpSDot` and its kin (see `ir::builtin::IntegerDot`): two integer vectors of one type
    /// or two packed 32-bit integers, a result at least as wide as a component, and for the
    /// accumulating forms an accumulator of the result type.
    fn integer_dot(&self, op: Primitive) -> Option<String> {
        let accumulate = op.integer_dot().is_some_and(|d| d.accumulate);
        if let Some(e) = self.count(if accumulate { 3 } else { 2 }) {
            return Some(e);
        }
        let Type::Int { width: rw } = self.m.types[self.ty] else {
            return Some("an integer dot product whose result is not an integer".into());
        };
        if self.args[0] != self.args[1] {
            return Some("an integer dot product of factors of two types".into());
        }
        let component = match self.m.types[self.args[0]] {
            Type::Int { width: 32 } => 8,
            Type::Vector { elem, .. } => match self.m.types[elem] {
                Type::Int { width } => width,
                _ => return Some("an integer dot product of other than integers".into()),
            },
            _ => {
                return Some(
                    "an integer dot product of other than integer vectors or packed 32-bit \
                     integers"
                        .into(),
                )
            }
        };
        if rw < component {
            return Some("an integer dot product whose result is narrower than a component".into());
        }
        if accumulate && self.args[2] != self.ty {
            return Some(
                "an integer dot product whose accumulator is not of its result type".into(),
            );
        }
        None
    }

    /// cl_khr_extended_bit_ops' instructions: the base (and inserted value) of the result's
    /// integer type, then the offset and count as scalar integers.
    fn bit_op(&self, op: Primitive) -> Option<String> {
        use Primitive as S;
        let values = if op == S::BitFieldInsert { 2 } else { 1 };
        let scalars = if op == S::BitReverse { 0 } else { 2 };
        if let Some(e) = self.count(values + scalars) {
            return Some(e);
        }
        if !matches!(self.scalar(self.ty), Type::Int { .. }) {
            return Some("its result is not an integer or a vector of integers".into());
        }
        if let Some(i) = (0..values).find(|&i| self.args[i] != self.ty) {
            return Some(format!("operand {i} is not of its result type"));
        }
        self.all_int(values..values + scalars)
    }

    fn primitive(&self, op: Primitive) -> Option<String> {
        use Primitive as S;
        if let Some(e) = super::builtins_cl20::error(self.m, op, self.args, self.ty) {
            return Some(e);
        }
        let boolean =
            |t: Handle<Type>, lanes: u32| self.m.lanes(t) == lanes && *self.scalar(t) == Type::Bool;
        match op {
            S::ImageQueryOrder | S::ImageQueryFormat => {
                match self.args.first().map(|&t| &self.m.types[t]) {
                    Some(Type::Image(_)) => self.count(1).or_else(|| self.int_result()),
                    _ => Some("operand 0 is not an image".into()),
                }
            }
            S::SDot | S::UDot | S::SUDot | S::SDotAccSat | S::UDotAccSat | S::SUDotAccSat => {
                self.integer_dot(op)
            }
            S::Dot => {
                let fits = self.args.len() == 2
                    && self.args[0] == self.args[1]
                    && matches!(self.m.types[self.args[0]], Type::Vector { elem, .. } if elem == self.ty)
                    && matches!(self.m.types[self.ty], Type::Float { .. });
                (!fits).then(|| "dot of other than two float vectors of its result type".into())
            }
            // get_fence and to_global/to_local/to_private: of a generic pointer.
            S::GenericPtrMemSemantics | S::GenericCastToPtrExplicit => {
                let generic = matches!(
                    self.args.first().map(|&t| &self.m.types[t]),
                    Some(Type::Pointer {
                        space: crate::ir::AddressSpace::Generic,
                        ..
                    })
                );
                let result_fits = match op {
                    S::GenericPtrMemSemantics => {
                        matches!(self.m.types[self.ty], Type::Int { width: 32 })
                    }
                    _ => matches!(self.m.types[self.ty], Type::Pointer { .. }),
                };
                if !generic {
                    Some("operand 0 is not a generic pointer".into())
                } else {
                    (!result_fits).then(|| "its result is not of the type it returns".into())
                }
            }
            S::BitFieldInsert | S::BitFieldSExtract | S::BitFieldUExtract | S::BitReverse => {
                self.bit_op(op)
            }
            S::BitCount => {
                // OpenCL C's popcount: the result has its operand's type.
                let fits = self.args.len() == 1
                    && self.args[0] == self.ty
                    && matches!(self.scalar(self.ty), Type::Int { .. });
                (!fits).then(|| "a bit count whose result type is not its operand's".into())
            }
            S::Any | S::All => {
                let fits = self.args.len() == 1
                    && boolean(self.args[0], self.m.lanes(self.args[0]))
                    && self.m.types[self.ty] == Type::Bool;
                (!fits).then(|| "any/all of other than a boolean vector".into())
            }
            S::IsNan
            | S::IsInf
            | S::IsFinite
            | S::IsNormal
            | S::SignBitSet
            | S::LessOrGreater
            | S::Ordered
            | S::Unordered => {
                let lanes = self.m.lanes(self.ty);
                let fits = !self.args.is_empty()
                    && self.args.len() <= 2
                    && self.args.iter().all(|&a| {
                        a == self.args[0]
                            && matches!(self.scalar(a), Type::Float { .. })
                            && self.m.lanes(a) == lanes
                    })
                    && boolean(self.ty, lanes);
                (!fits)
                    .then(|| "a float test of other than floats, or to other than booleans".into())
            }
            // Typed by SPIR-V's rules where they are read, or made by the Vulkan lowering.
            S::LogicalAnd
            | S::LogicalOr
            | S::LogicalNot
            | S::LogicalEqual
            | S::LogicalNotEqual
            | S::FMod
            | S::SMod
            | S::IAddCarry
            | S::ISubBorrow
            | S::UMulExtended
            | S::SMulExtended
            | S::SizeOf
            | S::PtrEqual
            | S::PtrNotEqual
            | S::PtrDiff
            | S::CopyObject
            | S::AtomicFMin
            | S::AtomicFMax
            | S::AtomicFAdd
            | S::ImageQueryLevels
            | S::ImageQuerySamples
            | S::SampledImage => None,
            // Typed by builtins_cl20.rs above.
            pipe_primitives!() | enqueue_primitives!() => None,
        }
    }
}
