//! Vectors of 8 and 16 lanes in shader form. A shader's vectors have at most 4 lanes, so the
//! SPIR-V writer spells a wider one as an array of its lanes (target policy
//! `wide_vectors_as_arrays`; in memory the array keeps OpenCL's size and alignment). An
//! array has no arithmetic: this pass rewrites every instruction that computes on a wide
//! vector into the same instruction on each lane, with the lanes taken out
//! (`ExtractValue`) and put back (`InsertValue`). It runs over a lowered body, after the
//! builtin library, whose expansions are lane-wise operations too.
//!
//! | on a wide vector                          | becomes                                   |
//! |-------------------------------------------|-------------------------------------------|
//! | arithmetic, compares, casts, select, lane-wise builtins | that operation per lane     |
//! | `any` / `all`                             | a chain of logical or / and               |
//! | extract / insert with a constant index    | `ExtractValue` / `InsertValue`            |
//! | extract / insert with a run-time index    | a select per lane                          |
//! | shuffles (any source and result widths)   | one lane move per result lane             |
//! | a bitcast to other lanes (`<8 x i8>` ↔ `i64`) | shifts and masks over the lanes' bits |
//! | loads and stores through laid-out memory  | one access per lane                       |
//!
//! Every new instruction goes right before the one it replaces; the replaced instruction
//! keeps its handle and becomes the last step, or leaves its block: a store, or a result
//! that is another value (its uses are renamed at the end).

use crate::ir::GlslOp as G;
use crate::ir::Primitive as S;

use crate::hash::HashMap;

mod repack;
mod words;

use crate::diag::{Error, Result};
use crate::ir::{
    self, AddressSpace, Builtin, CastOp, Constant, ConstantKind, Handle, Inst, IntPredicate, Op,
    Type, Value,
};

/// Rewrite every computation on a wide vector in `body` (a function of `m`) lane by lane.
pub(super) fn split(m: &mut ir::Module, body: &mut ir::Body) -> Result<()> {
    if !m.types.iter().any(|(_, t)| is_wide_type(t)) {
        return Ok(());
    }
    let void = m.void_type();
    let mut renames: HashMap<Handle<Inst>, Value> = HashMap::default();
    for b in 0..body.blocks.len() {
        let old = std::mem::take(&mut body.blocks[b].insts);
        let mut p = Pass {
            m,
            body,
            void,
            out: Vec::with_capacity(old.len()),
        };
        for h in old {
            let outcome = p.inst(h).map_err(|e| {
                let name = p.body.insts[h].name.clone();
                e.at_value(name.map_or_else(
                    || "an instruction the lowering made".to_string(),
                    |n| format!("%{n}"),
                ))
            })?;
            match outcome {
                Outcome::Keep => p.out.push(h),
                Outcome::Replace(op) => {
                    p.body.insts[h].op = op;
                    p.out.push(h);
                }
                Outcome::Rename(v) => {
                    renames.insert(h, v);
                }
                Outcome::Drop => {}
            }
        }
        let out = p.out;
        body.blocks[b].insts = out;
    }
    if renames.is_empty() {
        return Ok(());
    }
    // A renamed value may itself be renamed (a chain of replaced instructions).
    let resolve = |mut v: Value| {
        while let Value::Inst(h) = v {
            match renames.get(&h) {
                Some(&n) => v = n,
                None => break,
            }
        }
        v
    };
    let handles: Vec<Handle<Inst>> = body.insts.iter().map(|(h, _)| h).collect();
    for h in handles {
        ir::operands::for_each_operand_mut(&mut body.insts[h].op, |v| *v = resolve(*v));
    }
    for block in &mut body.blocks {
        ir::operands::terminator_operands_mut(&mut block.terminator, |v| *v = resolve(*v));
    }
    Ok(())
}

/// What becomes of an instruction.
enum Outcome {
    Keep,
    Replace(Op),
    /// Its result is this other value.
    Rename(Value),
    /// No result, and its effect is done by the new instructions.
    Drop,
}

fn is_wide_type(t: &Type) -> bool {
    matches!(t, Type::Vector { len, .. } if *len > 4)
}

struct Pass<'m, 'b> {
    m: &'m mut ir::Module,
    body: &'b mut ir::Body,
    void: Handle<Type>,
    /// The block's new instruction list.
    out: Vec<Handle<Inst>>,
}

impl Pass<'_, '_> {
    fn is_wide(&self, t: Handle<Type>) -> bool {
        is_wide_type(&self.m.types[t])
    }

    fn ty_of(&self, v: Value) -> Handle<Type> {
        match v {
            Value::Inst(h) => self.body.insts[h].ty,
            Value::Const(c) => self.m.constants[c].ty,
            // Shader-form entry functions have no parameters.
            Value::Param(_) => self.void,
        }
    }

    fn push(&mut self, ty: Handle<Type>, op: Op) -> Value {
        let h = self.body.insts.append(Inst {
            loc: None,
            name: None,
            ty,
            op,
        });
        self.out.push(h);
        Value::Inst(h)
    }

    /// Lane `i` of `v`: a constant's element, an extract from a vector, or `v` itself when it
    /// is a scalar (an operand that applies to every lane).
    fn lane(&mut self, v: Value, i: u32) -> Value {
        let t = self.ty_of(v);
        let Type::Vector { elem, .. } = self.m.types[t] else {
            return v;
        };
        if let Value::Const(c) = v {
            let kind = match &self.m.constants[c].kind {
                ConstantKind::Composite(ls) => return Value::Const(ls[i as usize]),
                ConstantKind::Null => ConstantKind::Null,
                ConstantKind::Undef => ConstantKind::Undef,
                _ => return self.extract(v, elem, i),
            };
            return Value::Const(self.m.constant(Constant { ty: elem, kind }));
        }
        self.extract(v, elem, i)
    }

    fn extract(&mut self, v: Value, elem: Handle<Type>, i: u32) -> Value {
        self.push(
            elem,
            Op::ExtractValue {
                aggregate: v,
                indices: vec![i],
            },
        )
    }

    /// The lanes put together as a value of vector type `t`: the inserts before the last
    /// are pushed, the last is returned as an operation (for the replaced instruction).
    fn build(&mut self, t: Handle<Type>, lanes: Vec<Option<Value>>) -> Outcome {
        let undef = self.m.constant(Constant {
            ty: t,
            kind: ConstantKind::Undef,
        });
        let mut acc = Value::Const(undef);
        let set: Vec<(u32, Value)> = lanes
            .into_iter()
            .enumerate()
            .filter_map(|(i, l)| l.map(|l| (i as u32, l)))
            .collect();
        let Some((&(last_i, last_v), rest)) = set.split_last() else {
            // Every lane undefined: the value is undef.
            return Outcome::Rename(acc);
        };
        for &(i, v) in rest {
            acc = self.push(
                t,
                Op::InsertValue {
                    aggregate: acc,
                    element: v,
                    indices: vec![i],
                },
            );
        }
        Outcome::Replace(Op::InsertValue {
            aggregate: acc,
            element: last_v,
            indices: vec![last_i],
        })
    }

    /// Rewrite instruction `h` if it computes on a wide vector.
    fn inst(&mut self, h: Handle<Inst>) -> Result<Outcome> {
        let Inst { ty, op, .. } = self.body.insts[h].clone();
        let mut operands = Vec::new();
        ir::operands::for_each_use(&op, |v| operands.push(v));
        let touches = self.is_wide(ty) || operands.iter().any(|&v| self.is_wide(self.ty_of(v)));
        if !touches {
            return Ok(Outcome::Keep);
        }
        let lanes_of = |s: &Self, t: Handle<Type>| s.m.lanes(t);
        let new = match op {
            Op::Binary {
                op: bop,
                lhs,
                rhs,
                flags,
            } => self.per_lane(ty, |p, i, et| {
                let (a, b) = (p.lane(lhs, i), p.lane(rhs, i));
                Ok(p.push(
                    et,
                    Op::Binary {
                        op: bop,
                        lhs: a,
                        rhs: b,
                        flags,
                    },
                ))
            })?,
            Op::FNeg(x) => self.per_lane(ty, |p, i, et| {
                let a = p.lane(x, i);
                Ok(p.push(et, Op::FNeg(a)))
            })?,
            Op::ICmp { pred, lhs, rhs } => self.per_lane(ty, |p, i, et| {
                let (a, b) = (p.lane(lhs, i), p.lane(rhs, i));
                Ok(p.push(
                    et,
                    Op::ICmp {
                        pred,
                        lhs: a,
                        rhs: b,
                    },
                ))
            })?,
            Op::FCmp { pred, lhs, rhs } => self.per_lane(ty, |p, i, et| {
                let (a, b) = (p.lane(lhs, i), p.lane(rhs, i));
                Ok(p.push(
                    et,
                    Op::FCmp {
                        pred,
                        lhs: a,
                        rhs: b,
                    },
                ))
            })?,
            Op::Select {
                cond,
                on_true,
                on_false,
            } => self.per_lane(ty, |p, i, et| {
                let (c, a, b) = (p.lane(cond, i), p.lane(on_true, i), p.lane(on_false, i));
                Ok(p.push(
                    et,
                    Op::Select {
                        cond: c,
                        on_true: a,
                        on_false: b,
                    },
                ))
            })?,
            Op::Cast { op: cop, value }
                if lanes_of(self, ty) == lanes_of(self, self.ty_of(value)) =>
            {
                self.per_lane(ty, |p, i, et| {
                    let a = p.lane(value, i);
                    Ok(p.push(et, Op::Cast { op: cop, value: a }))
                })?
            }
            Op::Cast {
                op: CastOp::Bitcast,
                value,
            } => self.repack(value, ty)?,
            Op::Builtin {
                builtin: Builtin::Primitive(reduce @ (S::Any | S::All)),
                args,
            } => self.reduce(ty, reduce, args[0]),
            Op::Builtin { builtin, args } if lane_wise(&builtin) => {
                self.per_lane(ty, |p, i, et| {
                    let a = args.iter().map(|&x| p.lane(x, i)).collect();
                    Ok(p.push(
                        et,
                        Op::Builtin {
                            builtin: builtin.clone(),
                            args: a,
                        },
                    ))
                })?
            }
            Op::ExtractElement { .. } | Op::InsertElement { .. } | Op::Shuffle { .. } => {
                self.element_op(ty, op)?
            }
            Op::Load { ptr, .. } | Op::Store { ptr, .. } if self.laid(ptr) => {
                self.laid_access(ty, op)?
            }
            // Moves of the whole value (through function and workgroup variables, into and
            // out of aggregates) and access chains into it stay as they are.
            Op::Load { .. }
            | Op::Store { .. }
            | Op::Alloca { .. }
            | Op::Gep { .. }
            | Op::ExtractValue { .. }
            | Op::InsertValue { .. } => Outcome::Keep,
            other => {
                return Err(Error::unsupported(format!(
                    "{} on a vector of more than 4 lanes (a Vulkan shader computes on such a \
                     vector lane by lane; this operation has no lane-wise form)",
                    describe(&other)
                )))
            }
        };
        Ok(new)
    }

    /// `any`/`all` of a wide vector: the lanes joined by `OpLogicalOr`/`OpLogicalAnd`.
    fn reduce(&mut self, ty: Handle<Type>, reduce: S, vector: Value) -> Outcome {
        let n = self.m.lanes(self.ty_of(vector));
        let join = if reduce == S::Any {
            S::LogicalOr
        } else {
            S::LogicalAnd
        };
        let mut acc = self.lane(vector, 0);
        for i in 1..n - 1 {
            let l = self.lane(vector, i);
            acc = self.push(
                ty,
                Op::Builtin {
                    builtin: Builtin::Primitive(join),
                    args: vec![acc, l],
                },
            );
        }
        let l = self.lane(vector, n - 1);
        Outcome::Replace(Op::Builtin {
            builtin: Builtin::Primitive(join),
            args: vec![acc, l],
        })
    }

    /// A lane of a wide vector read or written, or its lanes shuffled.
    fn element_op(&mut self, ty: Handle<Type>, op: Op) -> Result<Outcome> {
        let lanes_of = |s: &Self, t: Handle<Type>| s.m.lanes(t);
        // A constant lane past the end reads an undefined value and writes nothing (LLVM's
        // poison): the vector's members have no such index.
        let past_end = |s: &Self, vector: Value, index: Value| {
            s.const_index(index)
                .is_some_and(|i| i >= lanes_of(s, s.ty_of(vector)))
        };
        Ok(match op {
            Op::ExtractElement { vector, index } if past_end(self, vector, index) => {
                let undef = self.m.constant(Constant {
                    ty,
                    kind: ConstantKind::Undef,
                });
                Outcome::Rename(Value::Const(undef))
            }
            Op::InsertElement { vector, index, .. } if past_end(self, vector, index) => {
                Outcome::Rename(vector)
            }
            Op::ExtractElement { vector, index } => match self.const_index(index) {
                Some(i) => Outcome::Replace(Op::ExtractValue {
                    aggregate: vector,
                    indices: vec![i],
                }),
                None => {
                    let n = lanes_of(self, self.ty_of(vector));
                    let mut acc = self.lane(vector, 0);
                    for i in 1..n {
                        let l = self.lane(vector, i);
                        let hit = self.index_is(index, i);
                        acc = self.push(
                            ty,
                            Op::Select {
                                cond: hit,
                                on_true: l,
                                on_false: acc,
                            },
                        );
                    }
                    Outcome::Rename(acc)
                }
            },
            Op::InsertElement {
                vector,
                element,
                index,
            } => match self.const_index(index) {
                Some(i) => Outcome::Replace(Op::InsertValue {
                    aggregate: vector,
                    element,
                    indices: vec![i],
                }),
                None => self.per_lane(ty, |p, i, et| {
                    let l = p.lane(vector, i);
                    let hit = p.index_is(index, i);
                    Ok(p.push(
                        et,
                        Op::Select {
                            cond: hit,
                            on_true: element,
                            on_false: l,
                        },
                    ))
                })?,
            },
            Op::Shuffle { a, b, mask } => {
                let na = lanes_of(self, self.ty_of(a));
                let lanes = mask
                    .iter()
                    .map(|m| {
                        m.map(|j| {
                            if j < na {
                                self.lane(a, j)
                            } else {
                                self.lane(b, j - na)
                            }
                        })
                    })
                    .collect();
                self.build(ty, lanes)
            }
            _ => return Err(Error::internal("element_op of another operation")),
        })
    }

    /// A load or store of a wide vector in laid-out memory: as words where it is aligned
    /// to them in a physical buffer (`words.rs`), else one access per lane.
    fn laid_access(&mut self, ty: Handle<Type>, op: Op) -> Result<Outcome> {
        let as_words = match op {
            Op::Load {
                ptr,
                align,
                volatile,
            } => self.word_load(ptr, ty, align, volatile),
            Op::Store {
                ptr,
                value,
                align,
                volatile,
            } => self.word_store(ptr, value, align, volatile),
            _ => None,
        };
        if let Some(done) = as_words {
            return Ok(done);
        }
        Ok(match op {
            Op::Load {
                ptr,
                align: _,
                volatile,
            } => {
                let Type::Vector { elem, len } = self.m.types[ty] else {
                    return Err(Error::internal("a wide load of a non-vector"));
                };
                let lanes = (0..len)
                    .map(|i| {
                        let p = self.lane_pointer(ptr, elem, i);
                        let a = Some(self.m.size_of(elem) as u32);
                        Some(self.push(
                            elem,
                            Op::Load {
                                ptr: p,
                                align: a,
                                volatile,
                            },
                        ))
                    })
                    .collect();
                self.build(ty, lanes)
            }
            Op::Store {
                ptr,
                value,
                align: _,
                volatile,
            } => {
                let vt = self.ty_of(value);
                let Type::Vector { elem, len } = self.m.types[vt] else {
                    return Err(Error::internal("a wide store of a non-vector"));
                };
                let void = self.m.void_type();
                for i in 0..len {
                    let p = self.lane_pointer(ptr, elem, i);
                    let x = self.lane(value, i);
                    let a = Some(self.m.size_of(elem) as u32);
                    self.push(
                        void,
                        Op::Store {
                            ptr: p,
                            value: x,
                            align: a,
                            volatile,
                        },
                    );
                }
                Outcome::Drop
            }
            _ => return Err(Error::internal("laid_access of another operation")),
        })
    }

    /// The operation per lane of vector type `ty` (`f` pushes lane `i` of lane type `et`).
    fn per_lane(
        &mut self,
        ty: Handle<Type>,
        mut f: impl FnMut(&mut Self, u32, Handle<Type>) -> Result<Value>,
    ) -> Result<Outcome> {
        let Type::Vector { elem, len } = self.m.types[ty] else {
            return Err(Error::internal(
                "a lane-wise operation without a vector result",
            ));
        };
        let lanes = (0..len)
            .map(|i| f(self, i, elem).map(Some))
            .collect::<Result<Vec<_>>>()?;
        Ok(self.build(ty, lanes))
    }

    fn const_index(&self, v: Value) -> Option<u32> {
        match v {
            Value::Const(c) => match self.m.constants[c].kind {
                // Past u32, out of range all the same.
                ConstantKind::Int(i) => Some(u32::try_from(i).unwrap_or(u32::MAX)),
                ConstantKind::Null => Some(0),
                _ => None,
            },
            _ => None,
        }
    }

    /// `index == i`, in the index's own type.
    fn index_is(&mut self, index: Value, i: u32) -> Value {
        let it = self.ty_of(index);
        let k = Value::Const(self.m.int_const(it, i as u64));
        let bt = self.m.ty(Type::Bool);
        self.push(
            bt,
            Op::ICmp {
                pred: IntPredicate::Eq,
                lhs: index,
                rhs: k,
            },
        )
    }

    /// Whether `ptr` points into explicitly laid-out memory, where a wide vector's array
    /// type differs from its value's and is accessed lane by lane.
    fn laid(&self, ptr: Value) -> bool {
        matches!(
            self.m.types[self.ty_of(ptr)],
            Type::Pointer {
                space: AddressSpace::PhysicalStorageBuffer
                    | AddressSpace::StorageBuffer
                    | AddressSpace::PushConstant
                    | AddressSpace::Uniform,
                ..
            }
        )
    }

    fn lane_pointer(&mut self, ptr: Value, elem: Handle<Type>, i: u32) -> Value {
        let space = match self.m.types[self.ty_of(ptr)] {
            Type::Pointer { space, .. } => space,
            _ => AddressSpace::Private,
        };
        let pt = self.m.ty(Type::Pointer {
            pointee: elem,
            space,
        });
        let u32t = self.m.int_type(32);
        let zero = Value::Const(self.m.int_const(u32t, 0));
        let idx = Value::Const(self.m.int_const(u32t, i as u64));
        self.push(
            pt,
            Op::Gep {
                inbounds: true,
                base: ptr,
                indices: vec![zero, idx],
            },
        )
    }
}

/// Builtins that apply to each lane on its own.
fn lane_wise(b: &Builtin) -> bool {
    match b {
        Builtin::Convert { .. } => true,
        Builtin::Glsl(g) => !matches!(
            g,
            G::Length
                | G::Distance
                | G::Cross
                | G::Normalize
                | G::FaceForward
                | G::Reflect
                | G::Refract
                | G::Determinant
                | G::MatrixInverse
                | G::ModfStruct
                | G::FrexpStruct
                | G::PackSnorm4x8
                | G::PackUnorm4x8
                | G::PackSnorm2x16
                | G::PackUnorm2x16
                | G::PackHalf2x16
                | G::PackDouble2x32
                | G::UnpackSnorm2x16
                | G::UnpackUnorm2x16
                | G::UnpackHalf2x16
                | G::UnpackSnorm4x8
                | G::UnpackUnorm4x8
                | G::UnpackDouble2x32
        ),
        Builtin::Primitive(s) => matches!(
            s,
            S::IsNan
                | S::IsInf
                | S::LogicalNot
                | S::LogicalAnd
                | S::LogicalOr
                | S::LogicalEqual
                | S::LogicalNotEqual
                | S::BitCount
                | S::BitReverse
        ),
        _ => false,
    }
}

fn describe(op: &Op) -> String {
    match op {
        Op::Builtin { builtin, .. } => {
            format!("the builtin {}", crate::verify::builtin_name(builtin))
        }
        other => {
            let s = format!("{other:?}");
            let name = s.split([' ', '(', '{']).next().unwrap_or("an instruction");
            format!("the instruction {name}")
        }
    }
}
