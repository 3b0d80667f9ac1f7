//! The graph's normal forms: where LLVM and SPIR-V spell one operation two ways, both
//! readers (`spir::read`, `spv::read`) build the one graph form for it here, so that a
//! module means one graph whichever side it comes from (roundtrip/README.md, "One graph
//! form"). Each function takes what a reader found and returns the graph operation for it.
//!
//! `fold` folds vector element operations on constants as LLVM's builder does;
//! `forwarders` merges the SPIR-V writer's forwarding blocks back into repeated edges.
//! Writers and the Vulkan lowering do not use this room.

mod fold;
mod forwarders;

use crate::ir::builtin::{Builtin, ConvertKind, FPRoundingMode, ImageOp, Sign};
use crate::ir::constant::{Constant, ConstantKind};
use crate::ir::function::{Body, CastOp, FloatPredicate, IntPredicate, Op, Terminator, Value};
use crate::ir::{Handle, Module, Type};

impl Module {
    /// `select c, 1, 0` is `zext c` and `select c, -1, 0` is `sext c` (lane-wise for
    /// vectors): SPIR-V has no extension of a boolean, so producers write the select, and LLVM
    /// canonicalizes the select into the extension.
    pub fn select_op(&self, ty: Handle<Type>, cond: Value, on_true: Value, on_false: Value) -> Op {
        let width = match self.types[self.scalar_of(ty)] {
            Type::Int { width } => width,
            _ => 0,
        };
        // The condition is a boolean (or a vector of them): the select extends it.
        if width > 0 && self.is_splat_int(on_false, 0) {
            let ones = u64::MAX >> (64 - width);
            let op = if self.is_splat_int(on_true, 1) {
                Some(CastOp::ZExt)
            } else if self.is_splat_int(on_true, ones) {
                Some(CastOp::SExt)
            } else {
                None
            };
            if let Some(op) = op {
                return Op::Cast { op, value: cond };
            }
        }
        Op::Select {
            cond,
            on_true,
            on_false,
        }
    }

    /// Whether `a` and `b` are pointers into one address space: a cast between them that
    /// only feeds memory copies is no part of the copies (the copy takes any pointer).
    pub fn same_space(&self, a: Handle<Type>, b: Handle<Type>) -> bool {
        match (&self.types[a], &self.types[b]) {
            (Type::Pointer { space: x, .. }, Type::Pointer { space: y, .. }) => x == y,
            _ => false,
        }
    }

    /// `fcmp false` and `fcmp true` are their result, a constant: SPIR-V has no such
    /// comparison, so its producers write the constant.
    pub fn fcmp_op(
        &mut self,
        ty: Handle<Type>,
        pred: FloatPredicate,
        lhs: Value,
        rhs: Value,
    ) -> Converted {
        let result = match pred {
            FloatPredicate::False => 0,
            FloatPredicate::True => 1,
            _ => return Converted::Op(Op::FCmp { pred, lhs, rhs }),
        };
        let scalar = self.scalar_of(ty);
        let lane = self.constant(Constant {
            ty: scalar,
            kind: ConstantKind::Int(result),
        });
        if scalar == ty {
            return Converted::Same(Value::Const(lane));
        }
        let kind = self.composite_kind(vec![lane; self.lanes(ty) as usize]);
        Converted::Same(Value::Const(self.constant(Constant { ty, kind })))
    }

    /// `icmp ne (zext b), 0`, `icmp ne (sext b), 0` and `icmp slt (sext b), 0` (lane-wise) are
    /// `b`. OpenCL C gives its tests (`isnan`, `any`, ...) integer results, so a boolean written
    /// to SPIR is tested back out of the integer; the graph keeps the boolean. Returns `b` and
    /// the extension, which the reader drops if nothing else uses it (`drop_unused`).
    pub fn extension_test(
        &self,
        body: &Body,
        pred: IntPredicate,
        lhs: Value,
        rhs: Value,
    ) -> Option<(Value, Handle<crate::ir::function::Inst>)> {
        if !self.is_splat_int(rhs, 0) {
            return None;
        }
        let Value::Inst(h) = lhs else { return None };
        let Op::Cast {
            op: ext,
            value: Value::Inst(b),
        } = body.insts[h].op
        else {
            return None;
        };
        let tests = matches!(
            (pred, ext),
            (IntPredicate::Ne, CastOp::ZExt | CastOp::SExt) | (IntPredicate::Slt, CastOp::SExt)
        );
        let boolean = self.types[self.scalar_of(body.insts[b].ty)] == Type::Bool;
        (tests && boolean).then_some((Value::Inst(b), h))
    }

    /// OpImageQuerySize with result type `ty`: a one-component size (a 1D image's) is
    /// `get_image_width`'s query, component 0.
    pub fn size_query(&self, ty: Handle<Type>) -> ImageOp {
        ImageOp::QuerySize {
            component: (self.lanes(ty) == 1).then_some(0),
        }
    }

    /// A lane of an image's size vector is the query of that one component
    /// (`get_image_width` is `QuerySize { component: Some(0) }`): OpenCL C asks for one
    /// component, SPIR-V for the vector and extracts. Returns the query and the vector query it
    /// reads through, which the reader drops if nothing else uses it (`drop_unused`).
    pub fn query_component(
        &self,
        body: &Body,
        vector: Value,
        index: Value,
    ) -> Option<(Op, Handle<crate::ir::function::Inst>)> {
        let (Value::Inst(h), Value::Const(i)) = (vector, index) else {
            return None;
        };
        let ConstantKind::Int(i) = self.constants[i].kind else {
            return None;
        };
        let Op::Builtin {
            builtin: Builtin::Image(ImageOp::QuerySize { component: None }),
            args,
        } = &body.insts[h].op
        else {
            return None;
        };
        // Only a component the query has (an index past the vector is no component: left
        // as the extraction it is, which the verifier judges).
        let lanes = u64::from(self.lanes(body.insts[h].ty));
        if i >= lanes {
            return None;
        }
        let component = Some(u32::try_from(i).ok()?);
        let op = Op::Builtin {
            builtin: Builtin::Image(ImageOp::QuerySize { component }),
            args: args.clone(),
        };
        Some((op, h))
    }

    /// A composite constant of `elems`: the null constant when every element is zero, as
    /// LLVM uniques it (`zeroinitializer`).
    pub fn composite_kind(&self, elems: Vec<Handle<Constant>>) -> ConstantKind {
        let zero = |c: &Handle<Constant>| {
            matches!(
                self.constants[*c].kind,
                ConstantKind::Int(0) | ConstantKind::Float(0) | ConstantKind::Null
            )
        };
        if !elems.is_empty() && elems.iter().all(zero) {
            ConstantKind::Null
        } else {
            ConstantKind::Composite(elems)
        }
    }

    /// The zero of an integer type, or the null vector or array of integers.
    pub fn zero_of(&mut self, ty: Handle<Type>) -> Handle<Constant> {
        let kind = match self.types[ty] {
            Type::Vector { .. } | Type::Array { .. } => ConstantKind::Null,
            _ => ConstantKind::Int(0),
        };
        self.constant(Constant { ty, kind })
    }

    /// The texel type a depth image (of type `image`) is read as, when an instruction reads
    /// it as the vector `result` (SPIR-V's sampling result is a vector whatever the image):
    /// the vector's element, OpenCL C's scalar depth texel. `None` for any other image or
    /// result.
    pub fn depth_texel_of_vector(
        &self,
        image: Handle<Type>,
        result: Handle<Type>,
    ) -> Option<Handle<Type>> {
        match (&self.types[image], &self.types[result]) {
            (Type::Image(i), Type::Vector { elem, .. }) if i.depth => Some(*elem),
            _ => None,
        }
    }
}

/// What a conversion is in the graph: an instruction, or (for a conversion that changes
/// nothing) the converted value itself.
#[derive(Clone, Debug, PartialEq)]
pub enum Converted {
    /// The instruction that converts.
    Op(Op),
    /// The value, unchanged.
    Same(Value),
}

impl Module {
    /// The graph form of an OpenCL conversion (`convert_<T>[_sat][_<rounding>]`, a SPIR-V
    /// conversion with its decorations). A conversion whose saturation or rounding cannot
    /// change the result is the plain LLVM cast (`convert_float(int)` is `sitofp`), and one
    /// that changes nothing is its operand (`convert_uchar_sat(uchar)`); only the rest stay
    /// `Builtin::Convert`. LLVM casts round to nearest even (int to float, float to float) and
    /// toward zero (float to int), which are OpenCL's defaults.
    pub fn convert_op(
        &self,
        to_ty: Handle<Type>,
        convert: (ConvertKind, ConvertKind, bool, Option<FPRoundingMode>),
        value: Value,
        from_ty: Handle<Type>,
    ) -> Converted {
        use ConvertKind::{Float, Int};
        let (from, to, saturate, rounding) = convert;
        let width = |t| match self.types[self.scalar_of(t)] {
            Type::Int { width } | Type::Float { width } => width,
            _ => 0,
        };
        let (fw, tw) = (width(from_ty), width(to_ty));
        let cast = |op| Converted::Op(Op::Cast { op, value });
        let keep = |saturate, rounding| {
            Converted::Op(Op::Builtin {
                builtin: Builtin::Convert {
                    from,
                    to,
                    saturate,
                    rounding,
                },
                args: vec![value],
            })
        };
        match (from, to) {
            (Float, Float) if fw == tw => Converted::Same(value),
            (Float, Float) if fw < tw => cast(CastOp::FPExt),
            (Float, Float) => match rounding {
                None | Some(FPRoundingMode::RTE) => cast(CastOp::FPTrunc),
                r => keep(false, r),
            },
            (Int(s), Float) => match rounding {
                None | Some(FPRoundingMode::RTE) => cast(match s {
                    Sign::Signed => CastOp::SIToFP,
                    Sign::Unsigned => CastOp::UIToFP,
                }),
                r => keep(false, r),
            },
            (Float, Int(s)) => match (saturate, rounding) {
                (false, None | Some(FPRoundingMode::RTZ)) => cast(match s {
                    Sign::Signed => CastOp::FPToSI,
                    Sign::Unsigned => CastOp::FPToUI,
                }),
                (sat, r) => keep(sat, r.filter(|&r| r != FPRoundingMode::RTZ)),
            },
            (Int(a), Int(b)) => {
                // Every source value fits: saturation cannot clamp.
                let fits = match (a, b) {
                    (Sign::Signed, Sign::Signed) | (Sign::Unsigned, Sign::Unsigned) => tw >= fw,
                    (Sign::Unsigned, Sign::Signed) => tw > fw,
                    (Sign::Signed, Sign::Unsigned) => false,
                };
                if saturate && !fits {
                    keep(true, None)
                } else if tw == fw {
                    Converted::Same(value)
                } else if tw < fw {
                    cast(CastOp::Trunc)
                } else if a == Sign::Signed {
                    cast(CastOp::SExt)
                } else {
                    cast(CastOp::ZExt)
                }
            }
        }
    }
}

/// Where the aggregate-path normal form puts the steps it adds: a reader's current block.
pub trait StepSink {
    fn module(&mut self) -> &mut Module;
    fn type_of(&self, v: Value) -> Handle<Type>;
    /// Append an unnamed instruction to the current block.
    fn push_step(&mut self, ty: Handle<Type>, op: Op) -> Value;
}

/// An aggregate access with several indices is a chain of single-index steps in the graph,
/// because LLVM's C API builds only single-index `extractvalue`/`insertvalue` and a SPIR-V
/// path may end in a vector lane, which LLVM reaches with `extractelement`. This pushes every
/// step but the last, and returns the last (the reader's own instruction, under its name) with
/// its type; `None` if the indices do not fit the aggregate.
pub fn extract_path(
    sink: &mut impl StepSink,
    aggregate: Value,
    indices: &[u32],
) -> Option<(Op, Handle<Type>)> {
    let (&last, inner) = indices.split_last()?;
    let mut cur = aggregate;
    for &index in inner {
        let (op, elem) = extract_step(sink, cur, index)?;
        cur = sink.push_step(elem, op);
    }
    extract_step(sink, cur, last)
}

/// An insertion at a path of several indices as single-index steps: extract the inner
/// aggregates along the path, insert bottom-up. Pushes every step but the outermost insertion,
/// which it returns; `None` if the indices do not fit the aggregate.
pub fn insert_path(
    sink: &mut impl StepSink,
    aggregate: Value,
    element: Value,
    indices: &[u32],
) -> Option<Op> {
    let (_, inner) = indices.split_last()?;
    let mut path = vec![aggregate];
    for &index in inner {
        let (op, elem) = extract_step(sink, *path.last()?, index)?;
        path.push(sink.push_step(elem, op));
    }
    let mut cur = element;
    for (k, &index) in indices.iter().enumerate().rev() {
        let outer = path[k];
        let ty = sink.type_of(outer);
        let op = if matches!(sink.module().types[ty], Type::Vector { .. }) {
            Op::InsertElement {
                vector: outer,
                element: cur,
                index: lane(sink.module(), index),
            }
        } else {
            Op::InsertValue {
                aggregate: outer,
                element: cur,
                indices: vec![index],
            }
        };
        if k == 0 {
            return Some(op);
        }
        cur = sink.push_step(ty, op);
    }
    None
}

/// One step: the operation that takes element `index` of `aggregate`, and its type.
fn extract_step(
    sink: &mut impl StepSink,
    aggregate: Value,
    index: u32,
) -> Option<(Op, Handle<Type>)> {
    let ty = sink.type_of(aggregate);
    let m = sink.module();
    let single = Op::ExtractValue {
        aggregate,
        indices: vec![index],
    };
    Some(match &m.types[ty] {
        Type::Vector { elem, .. } => {
            let elem = *elem;
            let index = lane(m, index);
            (
                Op::ExtractElement {
                    vector: aggregate,
                    index,
                },
                elem,
            )
        }
        Type::Array { elem, .. } => (single, *elem),
        Type::Struct {
            members: Some(ms), ..
        } => (single, *ms.get(index as usize)?),
        _ => return None,
    })
}

/// A vector lane index as the graph writes constant ones: `i32`.
fn lane(m: &mut Module, index: u32) -> Value {
    let i32t = m.int_type(32);
    Value::Const(m.int_const(i32t, index as u64))
}

/// The comparison a SPIR-V float comparison opcode makes (OpenCL's `isequal`, `isordered`,
/// ... are these too).
pub fn float_predicate(op: spirv::Op) -> Option<FloatPredicate> {
    use spirv::Op as S;
    use FloatPredicate as F;
    Some(match op {
        S::FOrdEqual => F::Oeq,
        S::FOrdNotEqual => F::One,
        S::FOrdLessThan => F::Olt,
        S::FOrdGreaterThan => F::Ogt,
        S::FOrdLessThanEqual => F::Ole,
        S::FOrdGreaterThanEqual => F::Oge,
        S::FUnordEqual => F::Ueq,
        S::FUnordNotEqual => F::Une,
        S::FUnordLessThan => F::Ult,
        S::FUnordGreaterThan => F::Ugt,
        S::FUnordLessThanEqual => F::Ule,
        S::FUnordGreaterThanEqual => F::Uge,
        S::Ordered => F::Ord,
        S::Unordered => F::Uno,
        _ => return None,
    })
}

/// Removes those of `candidates` nothing uses: instructions a reader made to spell one side's
/// form (OpenCL C's integer result of a test the graph keeps as a boolean) that the other side
/// never needed. Only unused candidates go; nothing else is touched.
pub fn drop_unused(body: &mut Body, candidates: &[Handle<crate::ir::function::Inst>]) {
    // Until nothing changes: a dropped candidate may have been the only use of another.
    while drop_unused_once(body, candidates) {}
    crate::ir::cfg::prune_debug(body);
}

/// One pass of `drop_unused`; whether it dropped anything.
fn drop_unused_once(body: &mut Body, candidates: &[Handle<crate::ir::function::Inst>]) -> bool {
    if candidates.is_empty() {
        return false;
    }
    let mut used = crate::hash::HashSet::default();
    let mut mark = |v: Value| {
        if let Value::Inst(h) = v {
            used.insert(h);
        }
    };
    for block in &body.blocks {
        for &h in &block.insts {
            crate::ir::operands::for_each_use(&body.insts[h].op, &mut mark);
        }
    }
    for block in &body.blocks {
        match &block.terminator {
            Terminator::CondBranch { cond: v, .. }
            | Terminator::Switch { value: v, .. }
            | Terminator::Return(Some(v)) => mark(*v),
            _ => {}
        }
    }
    let dead: crate::hash::HashSet<_> = candidates.iter().filter(|h| !used.contains(*h)).collect();
    let mut dropped = false;
    for block in &mut body.blocks {
        let before = block.insts.len();
        block.insts.retain(|h| !dead.contains(h));
        dropped |= block.insts.len() != before;
    }
    dropped
}

/// One half through the `a` (aligned) OpenCL.std forms — `vloada_halfn` with n = 1,
/// `vstorea_halfn[_r]` of a scalar, as llvm-spirv-14 writes OpenCL C's scalar `vloada_half` /
/// `vstorea_half` — is the scalar form (`vload_half`, `vstore_half[_r]`): the graph's one form,
/// and the validator wants vectors in the `a` forms. `scalar_data`: the first operand is a
/// scalar.
pub fn half_form(
    op: crate::ir::builtin::OpenclOp,
    literal: Option<u32>,
    scalar_data: bool,
) -> (crate::ir::builtin::OpenclOp, Option<u32>) {
    use crate::ir::builtin::OpenclOp as O;
    match (op, literal) {
        (O::vloada_halfn, Some(1)) => (O::vload_half, None),
        (O::vstorea_halfn, None) if scalar_data => (O::vstore_half, None),
        (O::vstorea_halfn_r, r) if scalar_data => (O::vstore_half_r, r),
        other => other,
    }
}

/// `v` as a select between two samplers: (the select, its condition, both samplers). A
/// sampling through it is the select of two samplings in the graph (SPIR-V's OpenCL
/// environment cannot select samplers); both readers ask this.
pub fn sampler_select(
    m: &Module,
    body: &Body,
    v: Value,
) -> Option<(Handle<crate::ir::function::Inst>, Value, Value, Value)> {
    let Value::Inst(h) = v else { return None };
    match body.insts[h].op {
        Op::Select {
            cond,
            on_true,
            on_false,
        } if m.types[body.insts[h].ty] == Type::Sampler => Some((h, cond, on_true, on_false)),
        _ => None,
    }
}
