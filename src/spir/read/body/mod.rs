//! LLVM function bodies -> graph blocks and instructions: the instruction walk here, allocas,
//! GEPs and shuffles in `memory.rs`, terminators and compare predicates in `control.rs`.

mod control;
mod memory;
mod prescan;

pub(crate) use prescan::param_spills;
use prescan::{block_order, object_slots};

use crate::hash::{HashMap, HashSet};

use llvm_ir::{instruction as li, Instruction as I, Name, Operand};

use super::calls;
use super::local_names::LocalNames;
use super::lowering::{FnLowering, Lowered};
use super::types::{name_str, TypeLowering};
use super::Symbols;
use crate::diag::{Error, Result};
use crate::ir::{self, BinaryOp, BlockId, Body, CastOp, ConstantKind, Op, Terminator, Type, Value};

/// What the reader learned of a function before lowering its body: its images' access, the
/// casts that only feed memory intrinsics, and its debug facts.
pub(crate) struct BodyFacts<'d> {
    pub image_access: HashMap<String, ir::Access>,
    pub memory_casts: HashSet<(usize, usize)>,
    pub debug: Option<&'d super::debug::FunctionDebug>,
}

pub(crate) fn lower_body(
    m: &mut ir::Module,
    types: &mut TypeLowering,
    symbols: &Symbols,
    (f, names): (&llvm_ir::Function, &LocalNames),
    func: ir::Handle<ir::Function>,
    facts: BodyFacts,
) -> Result<Body> {
    let BodyFacts {
        image_access,
        memory_casts,
        debug,
    } = facts;
    types.image_access = image_access;
    let mut l = FnLowering {
        m,
        types,
        symbols,
        names,
        func,
        locals: HashMap::default(),
        blocks: HashMap::default(),
        body: Body::default(),
        current: 0,
        pending_phis: Vec::new(),
        slot_types: HashMap::default(),
        builtin_loads: HashMap::default(),
        materialized: HashMap::default(),
        memory_casts,
        inst_index: 0,
        loc: None,
        spellings: Vec::new(),
        block_literals: super::block_table::BlockTable::scan(f),
        bool_bits: HashMap::default(),
    };
    for (i, p) in f.parameters.iter().enumerate() {
        l.locals.insert(p.name.clone(), Value::Param(i as u32));
    }
    l.slot_types = object_slots(l.m, func, f);
    for (i, bb) in f.basic_blocks.iter().enumerate() {
        l.blocks.insert(bb.name.clone(), BlockId(i as u32));
        l.body.blocks.push(ir::Block {
            terminator_loc: None,
            name: names.name(&bb.name).map(str::to_string),
            insts: Vec::new(),
            terminator: Terminator::Unreachable,
            construct: None,
        });
    }
    // Definitions dominate uses, so lowering in reverse post-order sees every non-phi operand
    // defined; phi operands are patched at the end.
    for bi in block_order(f) {
        let bb = &f.basic_blocks[bi];
        l.current = bi;
        let block_name = names.spell(&bb.name);
        for (ii, inst) in bb.instrs.iter().enumerate() {
            l.inst_index = ii;
            let facts = debug.and_then(|d| d.at(bi, ii));
            l.loc = facts.and_then(|d| d.loc);
            if let Some(var) = facts.and_then(|d| d.var.as_ref()) {
                l.debug_variable(f, var);
                continue;
            }
            l.instruction(inst).map_err(|e| e.in_block(&block_name))?;
        }
        l.loc = debug
            .and_then(|d| d.at(bi, bb.instrs.len()))
            .and_then(|d| d.loc);
        let t = l
            .terminator(&bb.term)
            .map_err(|e| e.in_block(&block_name))?;
        l.body.blocks[bi].terminator = t;
        l.body.blocks[bi].terminator_loc = l.loc;
    }
    for (h, incoming) in std::mem::take(&mut l.pending_phis) {
        let mut list = Vec::new();
        for (op, blk) in incoming {
            let v = l.operand_in_place(&op)?;
            list.push((v, l.block(&blk)?));
        }
        l.body.insts[h].op = Op::Phi { incoming: list };
    }
    l.types.image_access.clear();
    crate::normal::drop_unused(&mut l.body, &l.spellings);
    l.body.merge_forwarders();
    Ok(l.body)
}

impl FnLowering<'_, '_> {
    /// An `llvm.dbg.declare`/`llvm.dbg.value` call: the graph's declaration of the variable
    /// where its operand is a value the graph has (an alloca, a parameter, an instruction's
    /// result, an integer); nothing where it is not (a slot this reader folded away,
    /// `undef`).
    fn debug_variable(&mut self, f: &llvm_ir::Function, u: &super::debug::VarUse) {
        use super::debug::Place;
        let value = match u.place {
            Place::Param(i) => Some(Value::Param(i)),
            Place::Inst(b, i) => f
                .basic_blocks
                .get(b)
                .and_then(|bb| bb.instrs.get(i))
                .and_then(|inst| inst.try_get_result())
                .and_then(|name| self.locals.get(name).copied()),
            Place::Int(v, width) => super::types::held_in(width).map(|w| {
                let t = if width == 1 {
                    self.m.ty(Type::Bool)
                } else {
                    self.m.int_type(w)
                };
                Value::Const(self.m.int_const(t, v))
            }),
            // A half constant is left out (no rounding to half bits is made here for it).
            Place::Float(_, 16) => None,
            Place::Float(x, width) => {
                let bits = match width {
                    32 => u64::from((x as f32).to_bits()),
                    _ => x.to_bits(),
                };
                let t = self.m.ty(Type::Float { width });
                Some(Value::Const(self.m.constant(ir::Constant {
                    ty: t,
                    kind: ir::ConstantKind::Float(bits),
                })))
            }
            // An undefined value says the variable's value is not known from here: an
            // undefined `i32` says as much whatever the variable's type.
            Place::Undef => {
                let t = self.m.int_type(32);
                Some(Value::Const(self.m.constant(ir::Constant {
                    ty: t,
                    kind: ir::ConstantKind::Undef,
                })))
            }
            Place::Unknown => None,
        };
        let Some(value) = value else { return };
        let void = self.m.void_type();
        let op = if u.declare {
            Op::DebugDeclare {
                var: u.var,
                address: value,
                expr: u.expr.clone(),
            }
        } else {
            Op::DebugValue {
                var: u.var,
                value,
                expr: u.expr.clone(),
            }
        };
        self.emit(None, void, op);
    }

    /// A load of `@__spirv_BuiltIn*`: scalars are the query itself, vectors are read lane
    /// by lane where they are used.
    fn builtin_load(&mut self, i: &li::Load) -> Result<bool> {
        let Operand::ConstantOperand(c) = &i.address else {
            return Ok(false);
        };
        let llvm_ir::Constant::GlobalReference { name, ty: value_ty } = c.as_ref() else {
            return Ok(false);
        };
        let Some(b) = super::friendly::builtin_variable(&name_str(name)) else {
            return Ok(false);
        };
        let ty = self.lower_type(value_ty)?;
        if matches!(self.m.types[ty], Type::Vector { .. }) {
            self.builtin_loads.insert(i.dest.clone(), (b, ty));
        } else {
            let q = Op::Builtin {
                builtin: ir::Builtin::WorkItem(b),
                args: vec![],
            };
            self.emit(Some(&i.dest), ty, q);
        }
        Ok(true)
    }

    fn binary(&mut self, op: BinaryOp, a: &Operand, b: &Operand, dest: &Name) -> Result<()> {
        let lhs = self.operand(a)?;
        let rhs = self.operand(b)?;
        if let Some(bits) = self.narrow_of(a) {
            let v = self.narrow_arith(op, lhs, rhs, bits);
            self.bind(dest, v);
            return Ok(());
        }
        let ty = self.value_type(lhs);
        let flags = self.names.flags(dest);
        self.emit(
            Some(dest),
            ty,
            Op::Binary {
                op,
                lhs,
                rhs,
                flags,
            },
        );
        Ok(())
    }

    fn cast(&mut self, op: CastOp, v: &Operand, to: &llvm_ir::TypeRef, dest: &Name) -> Result<()> {
        let value = self.operand(v)?;
        let ty = self.lower_type(to)?;
        let (from_bits, to_bits) = (self.narrow_of(v), super::types::narrow_bits(to));
        if from_bits.is_some() || to_bits.is_some() {
            let v = self.narrow_cast(op, value, ty, from_bits, to_bits)?;
            self.bind(dest, v);
            return Ok(());
        }
        let h = self.emit(Some(dest), ty, Op::Cast { op, value });
        // A cast between address spaces that nothing uses once OpenCL C 2.0's atomics take
        // the pointer it casts (`calls::c11_atomic`) is dropped.
        if op == CastOp::AddrSpaceCast {
            self.spellings.push(h);
        }
        Ok(())
    }

    fn instruction(&mut self, inst: &I) -> Result<()> {
        use BinaryOp as B;
        if self.block_literals.is_plumbing(inst) {
            return Ok(());
        }
        match inst {
            I::Add(i) => self.binary(B::Add, &i.operand0, &i.operand1, &i.dest),
            I::Sub(i) => self.binary(B::Sub, &i.operand0, &i.operand1, &i.dest),
            I::Mul(i) => self.binary(B::Mul, &i.operand0, &i.operand1, &i.dest),
            I::UDiv(i) => self.binary(B::UDiv, &i.operand0, &i.operand1, &i.dest),
            I::SDiv(i) => self.binary(B::SDiv, &i.operand0, &i.operand1, &i.dest),
            I::URem(i) => self.binary(B::URem, &i.operand0, &i.operand1, &i.dest),
            I::SRem(i) => self.binary(B::SRem, &i.operand0, &i.operand1, &i.dest),
            I::And(i) => self.binary(B::And, &i.operand0, &i.operand1, &i.dest),
            I::Or(i) => self.binary(B::Or, &i.operand0, &i.operand1, &i.dest),
            I::Xor(i) => self.binary(B::Xor, &i.operand0, &i.operand1, &i.dest),
            I::Shl(i) => self.binary(B::Shl, &i.operand0, &i.operand1, &i.dest),
            I::LShr(i) => self.binary(B::LShr, &i.operand0, &i.operand1, &i.dest),
            I::AShr(i) => self.binary(B::AShr, &i.operand0, &i.operand1, &i.dest),
            I::FAdd(i) => self.binary(B::FAdd, &i.operand0, &i.operand1, &i.dest),
            I::FSub(i) => self.binary(B::FSub, &i.operand0, &i.operand1, &i.dest),
            I::FMul(i) => self.binary(B::FMul, &i.operand0, &i.operand1, &i.dest),
            I::FDiv(i) => self.binary(B::FDiv, &i.operand0, &i.operand1, &i.dest),
            I::FRem(i) => self.binary(B::FRem, &i.operand0, &i.operand1, &i.dest),
            I::FNeg(i) => {
                let v = self.operand(&i.operand)?;
                let ty = self.value_type(v);
                self.emit(Some(&i.dest), ty, Op::FNeg(v));
                Ok(())
            }
            I::Trunc(i) => self.cast(CastOp::Trunc, &i.operand, &i.to_type, &i.dest),
            I::ZExt(i) => self.cast(CastOp::ZExt, &i.operand, &i.to_type, &i.dest),
            I::SExt(i) => self.cast(CastOp::SExt, &i.operand, &i.to_type, &i.dest),
            I::FPTrunc(i) => self.cast(CastOp::FPTrunc, &i.operand, &i.to_type, &i.dest),
            I::FPExt(i) => self.cast(CastOp::FPExt, &i.operand, &i.to_type, &i.dest),
            I::FPToUI(i) => self.cast(CastOp::FPToUI, &i.operand, &i.to_type, &i.dest),
            I::FPToSI(i) => self.cast(CastOp::FPToSI, &i.operand, &i.to_type, &i.dest),
            I::UIToFP(i) => self.cast(CastOp::UIToFP, &i.operand, &i.to_type, &i.dest),
            I::SIToFP(i) => self.cast(CastOp::SIToFP, &i.operand, &i.to_type, &i.dest),
            I::PtrToInt(i) => self.cast(CastOp::PtrToInt, &i.operand, &i.to_type, &i.dest),
            I::IntToPtr(i) => self.cast(CastOp::IntToPtr, &i.operand, &i.to_type, &i.dest),
            I::BitCast(i) => self.bitcast(i),
            I::AddrSpaceCast(i) => {
                self.cast(CastOp::AddrSpaceCast, &i.operand, &i.to_type, &i.dest)
            }
            I::ICmp(i) => self.icmp(i),
            I::FCmp(i) => self.fcmp(i),
            I::Select(i) => {
                let cond = self.operand(&i.condition)?;
                let on_true = self.operand(&i.true_value)?;
                let on_false = self.operand(&i.false_value)?;
                let ty = self.value_type(on_true);
                let op = self.m.select_op(ty, cond, on_true, on_false);
                self.emit(Some(&i.dest), ty, op);
                Ok(())
            }
            I::Alloca(i) => self.alloca(i),
            I::Load(i) if self.builtin_load(i)? => Ok(()),
            I::Load(i) => self.load_inst(i),
            I::Store(i) => self.store_inst(i),
            I::GetElementPtr(i) => self.gep(i),
            I::Phi(i) => {
                let ty = self.lower_type(&i.to_type)?;
                let h = self.emit(
                    Some(&i.dest),
                    ty,
                    Op::Phi {
                        incoming: Vec::new(),
                    },
                );
                self.pending_phis.push((h, i.incoming_values.clone()));
                Ok(())
            }
            I::ExtractElement(i) => self.extract_element(i),
            I::InsertElement(i) => self.insert_element(i),
            I::ShuffleVector(i) => self.shuffle(i),
            I::ExtractValue(i) => self.extract_value(i),
            I::InsertValue(i) => self.insert_value(i),
            I::Freeze(i) => {
                let v = self.operand(&i.operand)?;
                self.bind(&i.dest, v);
                Ok(())
            }
            I::Call(call) => match calls::lower_call(self, call)? {
                Lowered::Inst(ty, op) => {
                    self.emit(call.dest.as_ref(), ty, op);
                    Ok(())
                }
                Lowered::Spelling(ty, op) => {
                    let h = self.emit(call.dest.as_ref(), ty, op);
                    self.spellings.push(h);
                    Ok(())
                }
                Lowered::Value(v) => {
                    if let Some(d) = &call.dest {
                        self.bind(d, v);
                    }
                    Ok(())
                }
                Lowered::Nothing => Ok(()),
            },
            other => {
                let text = other.to_string();
                let opcode = text
                    .split_whitespace()
                    .find(|w| !w.starts_with('%') && *w != "=")
                    .unwrap_or("?")
                    .to_string();
                Err(
                    Error::unsupported(format!("LLVM instruction '{opcode}' (not part of SPIR)"))
                        .at_value(text),
                )
            }
        }
    }

    /// An `icmp`.
    fn icmp(&mut self, i: &li::ICmp) -> Result<()> {
        let mut lhs = self.operand(&i.operand0)?;
        let mut rhs = self.operand(&i.operand1)?;
        let pred = control::int_pred(i.predicate);
        if let Some(bits) = self.narrow_of(&i.operand0) {
            use ir::IntPredicate as P;
            if matches!(pred, P::Sgt | P::Sge | P::Slt | P::Sle) {
                lhs = self.sign_extend_low(lhs, bits);
                rhs = self.sign_extend_low(rhs, bits);
            }
        }
        let read_as = match self.lanes_test(pred, lhs, rhs) {
            Some(b) => Some(b),
            None => self.extension_test(pred, lhs, rhs),
        };
        if let Some(b) = read_as {
            // The test's name is the boolean's when the boolean has none (SPIR
            // writes a named boolean as the test of an unnamed integer).
            if let (Value::Inst(h), Some(n)) = (b, self.names.name(&i.dest)) {
                self.body.insts[h].name.get_or_insert_with(|| n.to_string());
            }
            self.bind(&i.dest, b);
            return Ok(());
        }
        let ty = self.bool_like(lhs);
        self.emit(Some(&i.dest), ty, Op::ICmp { pred, lhs, rhs });
        Ok(())
    }

    /// A test of a vector of booleans' bits against none or all of them (`(bitcast <4 x i1>
    /// %c to i4) == -1`, LLVM's form of `c.x && c.y && c.z && c.w` once its optimizer put the
    /// compares in lanes): `all` or `any` of the lanes (OpAll, OpAny), negated for the
    /// opposite test, where the bits would be gathered one lane at a time. None for other
    /// compares.
    fn lanes_test(&mut self, pred: ir::IntPredicate, lhs: Value, rhs: Value) -> Option<Value> {
        use ir::IntPredicate as P;
        let (&(lanes, n), Value::Const(c)) = (self.bool_bits.get(&lhs)?, rhs) else {
            return None;
        };
        let ConstantKind::Int(k) = self.m.constants[c].kind else {
            return None;
        };
        let all = 1u64.checked_shl(n).map_or(u64::MAX, |b| b - 1);
        let (op, negate) = match (pred, k) {
            (P::Eq, k) if k == all => (ir::Primitive::All, false),
            (P::Ne, k) if k == all => (ir::Primitive::All, true),
            (P::Ne, 0) => (ir::Primitive::Any, false),
            (P::Eq, 0) => (ir::Primitive::Any, true),
            _ => return None,
        };
        let bool_t = self.m.ty(Type::Bool);
        let test = Op::Builtin {
            builtin: ir::Builtin::Primitive(op),
            args: vec![lanes],
        };
        let mut v = Value::Inst(self.emit(None, bool_t, test));
        if negate {
            let t = Value::Const(self.m.int_const(bool_t, 1));
            let not = Op::Binary {
                op: BinaryOp::Xor,
                lhs: v,
                rhs: t,
                flags: Default::default(),
            };
            v = Value::Inst(self.emit(None, bool_t, not));
        }
        Some(v)
    }

    /// An `fcmp`.
    fn fcmp(&mut self, i: &li::FCmp) -> Result<()> {
        let lhs = self.operand(&i.operand0)?;
        let rhs = self.operand(&i.operand1)?;
        let ty = self.bool_like(lhs);
        match self
            .m
            .fcmp_op(ty, control::float_pred(i.predicate), lhs, rhs)
        {
            crate::normal::Converted::Op(op) => {
                self.emit(Some(&i.dest), ty, op);
            }
            crate::normal::Converted::Same(v) => self.bind(&i.dest, v),
        }
        Ok(())
    }

    /// A `bitcast`.
    fn bitcast(&mut self, i: &li::BitCast) -> Result<()> {
        // Casts between OpenCL object types are no-ops in the graph, and so is a cast
        // to the operand's own type (legacy SPIR spells sampler initializers so) and
        // the `i8*` cast a memory intrinsic's signature needs.
        let v = self.operand(&i.operand)?;
        let to = self.lower_type(&i.to_type)?;
        if let Some(bits) = self.bool_vector_bits(v, to) {
            self.bind(&i.dest, bits);
            return Ok(());
        }
        if self.narrow_of(&i.operand).is_some() || super::types::narrow_bits(&i.to_type).is_some() {
            return Err(Error::unsupported(
                "a bitcast from or to an integer of a width SPIR does not have",
            ));
        }
        let from = self.value_type(v);
        if from == to
            || self.memory_casts.contains(&(self.current, self.inst_index))
            || self.m.types[to].is_opencl_object()
            || self.m.types[from].is_opencl_object()
        {
            self.bind(&i.dest, v);
            return Ok(());
        }
        self.emit(
            Some(&i.dest),
            to,
            Op::Cast {
                op: CastOp::Bitcast,
                value: v,
            },
        );
        Ok(())
    }

    /// A vector of booleans as the bits of an integer (lane i at bit i), or an integer as a
    /// vector of its low bits: LLVM's optimizer reduces `a || b || c` over compares it has
    /// put in vector lanes to a bitcast of the lanes and a compare of the bits (`<4 x i1>` to
    /// `i4`, compared with -1 or 0). SPIR-V cannot bitcast booleans: the bits are extended,
    /// shifted and or'ed, or tested, one lane at a time (an `i4` is held in an `i8`, zero-extended,
    /// as narrow.rs holds such integers). None where `v` and `to` are not those shapes.
    fn bool_vector_bits(&mut self, v: Value, to: ir::Handle<Type>) -> Option<Value> {
        let from = self.value_type(v);
        let (vector, int, to_int) = match (&self.m.types[from], &self.m.types[to]) {
            (Type::Vector { elem, len }, Type::Int { .. }) if self.m.types[*elem] == Type::Bool => {
                (*len, to, true)
            }
            (Type::Int { .. }, Type::Vector { elem, len }) if self.m.types[*elem] == Type::Bool => {
                (*len, from, false)
            }
            _ => return None,
        };
        let bool_t = self.m.ty(Type::Bool);
        let i32t = self.m.int_type(32);
        let zero = Value::Const(self.m.int_const(int, 0));
        let first = self.body.insts.len();
        let mut acc = if to_int {
            zero
        } else {
            Value::Const(self.m.constant(ir::Constant {
                ty: to,
                kind: ConstantKind::Undef,
            }))
        };
        for lane in 0..vector {
            let index = Value::Const(self.m.int_const(i32t, lane as u64));
            let bit = Value::Const(self.m.int_const(int, 1u64 << lane));
            if to_int {
                // zext(lane) << i (the graph's form of `select lane, 1 << i, 0`).
                let b = self.emit(None, bool_t, Op::ExtractElement { vector: v, index });
                let ext = Op::Cast {
                    op: CastOp::ZExt,
                    value: Value::Inst(b),
                };
                let mut s = Value::Inst(self.emit(None, int, ext));
                if lane > 0 {
                    let shift = Op::Binary {
                        op: BinaryOp::Shl,
                        lhs: s,
                        rhs: Value::Const(self.m.int_const(int, lane as u64)),
                        flags: Default::default(),
                    };
                    s = Value::Inst(self.emit(None, int, shift));
                }
                let or = Op::Binary {
                    op: BinaryOp::Or,
                    lhs: acc,
                    rhs: s,
                    flags: Default::default(),
                };
                acc = Value::Inst(self.emit(None, int, or));
            } else {
                let and = Op::Binary {
                    op: BinaryOp::And,
                    lhs: v,
                    rhs: bit,
                    flags: Default::default(),
                };
                let masked = self.emit(None, int, and);
                let set = Op::ICmp {
                    pred: ir::IntPredicate::Ne,
                    lhs: Value::Inst(masked),
                    rhs: zero,
                };
                let b = self.emit(None, bool_t, set);
                let ins = Op::InsertElement {
                    vector: acc,
                    element: Value::Inst(b),
                    index,
                };
                acc = Value::Inst(self.emit(None, to, ins));
            }
        }
        if to_int {
            // The gathered bits stay only where something other than a lanes test uses them.
            let made: Vec<_> = self.body.insts.iter().skip(first).map(|(h, _)| h).collect();
            self.spellings.extend(made);
            self.bool_bits.insert(acc, (v, vector));
        }
        Some(acc)
    }

    /// `i1` or `<n x i1>` shaped like `v`.
    fn bool_like(&mut self, v: Value) -> ir::Handle<Type> {
        let t = self.value_type(v);
        let b = self.m.ty(Type::Bool);
        match self.m.types[t] {
            Type::Vector { len, .. } => self.m.ty(Type::Vector { elem: b, len }),
            _ => b,
        }
    }
}
