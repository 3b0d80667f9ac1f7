//! Builds one function body from regions and seeds. Every value an instruction uses comes
//! from the pool of values in scope (dominating the current block) or is a constant, and every
//! instruction has at least one operand that is not a constant: LLVM folds instructions over
//! constants only (into constants), which is a documented normal form, not a round-trip loss.

use spir_xlate::ir::builtin::{BuiltIn, CLOp, Scope};
use spir_xlate::ir::{
    ArithFlags, BinaryOp, Block, BlockId, Body, Builtin, CastOp, Constant, ConstantKind,
    ConvertKind, FloatPredicate, Function, Global, Handle, ImageOp, ImageType, Inst,
    IntPredicate, Module, Op, SamplerAddressing, SamplerFilter, Sign, Terminator, TexelKind,
    Type, Value,
};

use spir_xlate::ir::normal::Converted;

use super::recipe::{Region, Seed, TySeed, LANES, SCALARS};

/// A pointer parameter the body may load from (and store to, if `writable`).
#[derive(Clone, Copy)]
pub struct Buffer {
    pub ptr: Value,
    pub ptr_ty: Handle<Type>,
    pub elem: Handle<Type>,
    pub space: spir_xlate::ir::AddressSpace,
    pub writable: bool,
    /// Atomics are allowed on it (global or local `int`/`long`).
    pub atomic: bool,
}

/// A function another function may call.
#[derive(Clone)]
pub struct Callee {
    pub function: Handle<Function>,
    pub params: Vec<Handle<Type>>,
    pub ret: Handle<Type>,
}

/// What a body can reach besides its own values.
#[derive(Clone, Default)]
pub struct Scope0 {
    pub values: Vec<(Value, Handle<Type>)>,
    pub buffers: Vec<Buffer>,
    pub images: Vec<(Value, ImageType)>,
    pub samplers: Vec<Value>,
    pub callees: Vec<Callee>,
    /// The program-scope `__constant int[8]` table.
    pub table: Option<Handle<Global>>,
}

pub struct FnBuilder<'m> {
    pub m: &'m mut Module,
    pub body: Body,
    cur: usize,
    /// Non-constant values that dominate the current point, with their types.
    pool: Vec<(Value, Handle<Type>)>,
    scope: Scope0,
    allocas: usize,
    gid: Value,
    names: u32,
    geps: u32,
}

const INT_OPS: [BinaryOp; 13] = [
    BinaryOp::Add,
    BinaryOp::Sub,
    BinaryOp::Mul,
    BinaryOp::UDiv,
    BinaryOp::SDiv,
    BinaryOp::URem,
    BinaryOp::SRem,
    BinaryOp::Shl,
    BinaryOp::LShr,
    BinaryOp::AShr,
    BinaryOp::And,
    BinaryOp::Or,
    BinaryOp::Xor,
];
const FLOAT_OPS: [BinaryOp; 5] = [
    BinaryOp::FAdd,
    BinaryOp::FSub,
    BinaryOp::FMul,
    BinaryOp::FDiv,
    BinaryOp::FRem,
];
const INT_PREDS: [IntPredicate; 10] = [
    IntPredicate::Eq,
    IntPredicate::Ne,
    IntPredicate::Ugt,
    IntPredicate::Uge,
    IntPredicate::Ult,
    IntPredicate::Ule,
    IntPredicate::Sgt,
    IntPredicate::Sge,
    IntPredicate::Slt,
    IntPredicate::Sle,
];
/// Not `false`/`true`: SPIR-V has no such comparison; they are written as constants
/// (roundtrip/README.md, lossiness).
const FLOAT_PREDS: [FloatPredicate; 14] = [
    FloatPredicate::Oeq,
    FloatPredicate::Ogt,
    FloatPredicate::Oge,
    FloatPredicate::Olt,
    FloatPredicate::Ole,
    FloatPredicate::One,
    FloatPredicate::Ord,
    FloatPredicate::Uno,
    FloatPredicate::Ueq,
    FloatPredicate::Ugt,
    FloatPredicate::Uge,
    FloatPredicate::Ult,
    FloatPredicate::Ule,
    FloatPredicate::Une,
];
/// Work-item queries: (builtin, takes a dimension).
const WORK_ITEM: [(BuiltIn, bool); 8] = [
    (BuiltIn::GlobalInvocationId, true),
    (BuiltIn::LocalInvocationId, true),
    (BuiltIn::WorkgroupId, true),
    (BuiltIn::GlobalSize, true),
    (BuiltIn::WorkgroupSize, true),
    (BuiltIn::NumWorkgroups, true),
    (BuiltIn::GlobalOffset, true),
    (BuiltIn::WorkDim, false),
];
/// OpenCL.std float instructions and their operand counts.
const FLOAT_EXT: [(CLOp, usize); 14] = [
    (CLOp::fmax, 2),
    (CLOp::fmin, 2),
    (CLOp::sqrt, 1),
    (CLOp::fabs, 1),
    (CLOp::floor, 1),
    (CLOp::ceil, 1),
    (CLOp::mad, 3),
    (CLOp::fma, 3),
    (CLOp::sin, 1),
    (CLOp::exp, 1),
    (CLOp::pow, 2),
    (CLOp::copysign, 2),
    (CLOp::rsqrt, 1),
    (CLOp::fclamp, 3),
];
/// OpenCL.std integer instructions and their operand counts.
const INT_EXT: [(CLOp, usize); 10] = [
    (CLOp::s_max, 2),
    (CLOp::u_max, 2),
    (CLOp::s_min, 2),
    (CLOp::u_min, 2),
    (CLOp::popcount, 1),
    (CLOp::clz, 1),
    (CLOp::rotate, 2),
    (CLOp::s_add_sat, 2),
    (CLOp::u_sub_sat, 2),
    (CLOp::s_abs, 1),
];
const ATOMICS: [(spirv::Op, usize); 11] = [
    (spirv::Op::AtomicIAdd, 1),
    (spirv::Op::AtomicISub, 1),
    (spirv::Op::AtomicSMax, 1),
    (spirv::Op::AtomicUMin, 1),
    (spirv::Op::AtomicAnd, 1),
    (spirv::Op::AtomicOr, 1),
    (spirv::Op::AtomicXor, 1),
    (spirv::Op::AtomicExchange, 1),
    (spirv::Op::AtomicIIncrement, 0),
    (spirv::Op::AtomicIDecrement, 0),
    (spirv::Op::AtomicCompareExchange, 2),
];

/// The type a seed names.
pub fn seed_type(m: &mut Module, s: TySeed) -> Handle<Type> {
    let (float, width) = SCALARS[s.scalar as usize % SCALARS.len()];
    let scalar = m.ty(if float {
        Type::Float { width }
    } else {
        Type::Int { width }
    });
    vector_of(m, scalar, LANES[s.len as usize % LANES.len()])
}

fn vector_of(m: &mut Module, elem: Handle<Type>, len: u32) -> Handle<Type> {
    if len == 1 {
        elem
    } else {
        m.ty(Type::Vector { elem, len })
    }
}

/// The struct type private memory tests go through.
pub fn struct_type(m: &mut Module) -> Handle<Type> {
    let i32t = m.int_type(32);
    let f32t = m.ty(Type::Float { width: 32 });
    let i16t = m.int_type(16);
    let v4i16 = m.ty(Type::Vector { elem: i16t, len: 4 });
    let i8t = m.int_type(8);
    let a3i8 = m.ty(Type::Array { elem: i8t, len: 3 });
    m.ty(Type::Struct {
        name: Some("struct.S".into()),
        members: Some(vec![i32t, f32t, v4i16, a3i8]),
        packed: false,
    })
}

impl<'m> FnBuilder<'m> {
    pub fn new(m: &'m mut Module, scope: Scope0) -> Self {
        let mut b = FnBuilder {
            m,
            body: Body::default(),
            cur: 0,
            pool: scope.values.clone(),
            scope,
            allocas: 0,
            gid: Value::Param(0),
            names: 0,
            geps: 0,
        };
        b.new_block("entry");
        let size_t = b.m.size_type();
        let dim = b.i32_const(0);
        b.gid = b.emit(
            size_t,
            Op::Builtin {
                builtin: Builtin::WorkItem(BuiltIn::GlobalInvocationId),
                args: vec![dim],
            },
        );
        b
    }

    /// Finish with `ret` (a value of `ret_ty` unless void).
    pub fn finish(mut self, ret_ty: Handle<Type>) -> Body {
        let value = match self.m.types[ret_ty] {
            Type::Void => None,
            _ => Some(self.pick(ret_ty, 1)),
        };
        self.terminate(Terminator::Return(value));
        self.body
    }

    fn new_block(&mut self, name: &str) -> usize {
        self.body.blocks.push(Block {
            name: Some(format!("{name}{}", self.body.blocks.len())),
            insts: Vec::new(),
            terminator: Terminator::Unreachable,
        });
        self.body.blocks.len() - 1
    }

    fn terminate(&mut self, t: Terminator) {
        self.body.blocks[self.cur].terminator = t;
    }

    fn emit(&mut self, ty: Handle<Type>, op: Op) -> Value {
        let void = matches!(self.m.types[ty], Type::Void);
        let name = (!void).then(|| {
            self.names += 1;
            format!("v{}", self.names)
        });
        let h = self.body.insts.append(Inst { name, ty, op });
        self.body.blocks[self.cur].insts.push(h);
        let v = Value::Inst(h);
        if !void {
            self.pool.push((v, ty));
        }
        v
    }

    fn konst(&mut self, c: Constant) -> Value {
        Value::Const(self.m.constant(c))
    }

    fn i32_const(&mut self, v: u64) -> Value {
        let ty = self.m.int_type(32);
        self.konst(Constant {
            ty,
            kind: ConstantKind::Int(v),
        })
    }

    /// A constant of `ty` chosen by `sel`.
    fn constant(&mut self, ty: Handle<Type>, sel: u16) -> Value {
        let kind = match self.m.types[ty].clone() {
            Type::Bool => ConstantKind::Int(sel as u64 & 1),
            Type::Int { width } => {
                let v = (sel % 19) as i64 - 9;
                ConstantKind::Int(v as u64 & mask(width))
            }
            Type::Float { width: 16 } => {
                const HALVES: [u64; 7] = [0x3C00, 0x4000, 0x3800, 0xC000, 0x0000, 0x4200, 0xBC00];
                ConstantKind::Float(HALVES[sel as usize % HALVES.len()])
            }
            Type::Float { width: 32 } => {
                ConstantKind::Float(((sel % 64) as f32 * 0.25 - 4.0).to_bits() as u64)
            }
            Type::Float { .. } => ConstantKind::Float(((sel % 64) as f64 * 0.25 - 4.0).to_bits()),
            Type::Vector { elem, len } => {
                let lanes = (0..len)
                    .map(|i| match self.constant(elem, sel.wrapping_add(i as u16 * 7)) {
                        Value::Const(c) => c,
                        _ => unreachable!(),
                    })
                    .collect();
                ConstantKind::Composite(lanes)
            }
            other => panic!("no constants of {other:?} in the generator"),
        };
        self.konst(Constant { ty, kind })
    }

    /// A value of `ty`: a constant one time in five, otherwise a value in scope.
    fn pick(&mut self, ty: Handle<Type>, sel: u16) -> Value {
        // No half constants: the SPIR reader cannot read their value (llvm-ir 0.11 does not
        // expose it), a limitation roundtrip/README.md lists.
        let half = self.m.types[self.m.scalar_of(ty)] == Type::Float { width: 16 };
        if sel % 5 == 0 && !half {
            self.constant(ty, sel / 5)
        } else {
            self.pick_var(ty, sel)
        }
    }

    /// A value of `ty` that is not a constant: one in scope, or one made from the global id.
    fn pick_var(&mut self, ty: Handle<Type>, sel: u16) -> Value {
        let found: Vec<Value> = self
            .pool
            .iter()
            .filter(|(_, t)| *t == ty)
            .map(|(v, _)| *v)
            .collect();
        if !found.is_empty() {
            return found[sel as usize % found.len()];
        }
        self.synthesize(ty)
    }

    fn synthesize(&mut self, ty: Handle<Type>) -> Value {
        let size_t = self.m.size_type();
        let bits = self.m.addressing.pointer_bits();
        match self.m.types[ty].clone() {
            Type::Int { width } if width == bits => self.gid,
            Type::Int { width } => {
                let op = if width < bits {
                    CastOp::Trunc
                } else {
                    CastOp::ZExt
                };
                let value = self.gid;
                self.emit(ty, Op::Cast { op, value })
            }
            Type::Bool => {
                let zero = self.constant(size_t, 9);
                let lhs = self.gid;
                self.emit(
                    ty,
                    Op::ICmp {
                        pred: IntPredicate::Ne,
                        lhs,
                        rhs: zero,
                    },
                )
            }
            Type::Float { .. } => {
                let value = self.gid;
                self.emit(
                    ty,
                    Op::Cast {
                        op: CastOp::UIToFP,
                        value,
                    },
                )
            }
            Type::Vector { elem, len } => {
                let e = self.pick_var(elem, 0);
                let undef = self.konst(Constant {
                    ty,
                    kind: ConstantKind::Undef,
                });
                let index = self.i32_const(0);
                let one = self.emit(
                    ty,
                    Op::InsertElement {
                        vector: undef,
                        element: e,
                        index,
                    },
                );
                self.emit(
                    ty,
                    Op::Shuffle {
                        a: one,
                        b: undef,
                        mask: vec![Some(0); len as usize],
                    },
                )
            }
            other => panic!("cannot make a value of {other:?}"),
        }
    }

    fn bool_like(&mut self, ty: Handle<Type>) -> Handle<Type> {
        let b = self.m.ty(Type::Bool);
        let lanes = self.m.lanes(ty);
        vector_of(self.m, b, lanes)
    }

    /// The seed's type with its scalar forced to an integer (`float == false`) or a float.
    fn typed(&mut self, s: TySeed, float: bool) -> Handle<Type> {
        let ints = SCALARS.iter().filter(|(f, _)| !f).count() as u8;
        let floats = SCALARS.len() as u8 - ints;
        let scalar = if float {
            ints + s.scalar % floats
        } else {
            s.scalar % ints
        };
        seed_type(self.m, TySeed { scalar, ..s })
    }

    fn with_lanes(&mut self, scalar: Type, like: Handle<Type>) -> Handle<Type> {
        let s = self.m.ty(scalar);
        let lanes = self.m.lanes(like);
        vector_of(self.m, s, lanes)
    }

    fn width(&self, ty: Handle<Type>) -> u32 {
        match self.m.types[self.m.scalar_of(ty)] {
            Type::Int { width } | Type::Float { width } => width,
            Type::Bool => 1,
            _ => 0,
        }
    }

    pub fn regions(&mut self, regions: &[Region]) {
        for r in regions {
            self.region(r);
        }
    }

    fn seeds(&mut self, seeds: &[Seed]) {
        for s in seeds {
            self.seed(s);
        }
    }

    fn region(&mut self, r: &Region) {
        match r {
            Region::Straight(seeds) => self.seeds(seeds),
            Region::IfElse {
                cond,
                then,
                otherwise,
                phi,
            } => {
                let bool_t = self.m.ty(Type::Bool);
                let cond = self.pick_var(bool_t, *cond);
                let phi_t = seed_type(self.m, *phi);
                let (t, e, join) = (
                    self.new_block("then"),
                    self.new_block("else"),
                    self.new_block("join"),
                );
                self.terminate(Terminator::CondBranch {
                    cond,
                    on_true: BlockId(t as u32),
                    on_false: BlockId(e as u32),
                });
                let mark = self.pool.len();
                let mut incoming = Vec::new();
                for (block, seeds, sel) in [(t, then, 1u16), (e, otherwise, 2)] {
                    self.cur = block;
                    self.seeds(seeds);
                    let v = self.pick(phi_t, sel);
                    incoming.push((v, BlockId(self.cur as u32)));
                    self.terminate(Terminator::Branch(BlockId(join as u32)));
                    self.pool.truncate(mark);
                }
                self.cur = join;
                self.emit(phi_t, Op::Phi { incoming });
            }
            Region::Loop { trips, body, acc } => {
                let i32t = self.m.int_type(32);
                let acc_t = seed_type(self.m, *acc);
                let init = self.pick(acc_t, *trips);
                let bound = self.pick(i32t, trips >> 4);
                let pre = self.cur;
                let (header, bb, exit) = (
                    self.new_block("loop"),
                    self.new_block("body"),
                    self.new_block("exit"),
                );
                self.terminate(Terminator::Branch(BlockId(header as u32)));
                self.cur = header;
                let zero = self.i32_const(0);
                let i = self.emit(
                    i32t,
                    Op::Phi {
                        incoming: vec![(zero, BlockId(pre as u32))],
                    },
                );
                let a = self.emit(
                    acc_t,
                    Op::Phi {
                        incoming: vec![(init, BlockId(pre as u32))],
                    },
                );
                let bool_t = self.m.ty(Type::Bool);
                let more = self.emit(
                    bool_t,
                    Op::ICmp {
                        pred: IntPredicate::Slt,
                        lhs: i,
                        rhs: bound,
                    },
                );
                self.terminate(Terminator::CondBranch {
                    cond: more,
                    on_true: BlockId(bb as u32),
                    on_false: BlockId(exit as u32),
                });
                let mark = self.pool.len();
                self.cur = bb;
                self.seeds(body);
                let next_acc = self.pick_var(acc_t, trips >> 8);
                let one = self.i32_const(1);
                let next_i = self.emit(
                    i32t,
                    Op::Binary {
                        op: BinaryOp::Add,
                        lhs: i,
                        rhs: one,
                        flags: ArithFlags::default(),
                    },
                );
                let latch = BlockId(self.cur as u32);
                self.terminate(Terminator::Branch(BlockId(header as u32)));
                for (phi, v) in [(i, next_i), (a, next_acc)] {
                    let Value::Inst(h) = phi else { unreachable!() };
                    let Op::Phi { incoming } = &mut self.body.insts[h].op else {
                        unreachable!()
                    };
                    incoming.push((v, latch));
                }
                self.pool.truncate(mark);
                self.cur = exit;
            }
            Region::Switch {
                selector,
                cases,
                phi,
            } => {
                let width = [32, 8, 16, 64][*selector as usize % 4];
                let sel_t = self.m.int_type(width);
                let phi_t = seed_type(self.m, *phi);
                let value = self.pick_var(sel_t, *selector);
                let default_value = self.pick(phi_t, *selector >> 3);
                let switch_block = self.cur;
                let join = self.new_block("join");
                let mut seen = std::collections::HashSet::new();
                let mut arms = Vec::new();
                let mut incoming = vec![(default_value, BlockId(switch_block as u32))];
                let mark = self.pool.len();
                for (i, (case, seeds)) in cases.iter().enumerate() {
                    if !seen.insert(*case as i64 as u64 & mask(width)) {
                        continue;
                    }
                    let block = self.new_block("case");
                    arms.push((*case as i64 as u64 & mask(width), BlockId(block as u32)));
                    self.cur = block;
                    self.seeds(seeds);
                    let v = self.pick(phi_t, i as u16 + 1);
                    incoming.push((v, BlockId(self.cur as u32)));
                    self.terminate(Terminator::Branch(BlockId(join as u32)));
                    self.pool.truncate(mark);
                }
                self.cur = switch_block;
                self.terminate(Terminator::Switch {
                    value,
                    default: BlockId(join as u32),
                    cases: arms,
                });
                self.cur = join;
                self.emit(phi_t, Op::Phi { incoming });
            }
        }
    }

    /// One instruction (sometimes a few: its operands and, for memory, its address).
    fn seed(&mut self, s: &Seed) {
        match s.kind {
            0 => {
                let ty = self.typed(s.ty, false);
                let lhs = self.pick_var(ty, s.b);
                let rhs = self.pick(ty, s.c);
                self.emit(
                    ty,
                    Op::Binary {
                        op: INT_OPS[s.a as usize % INT_OPS.len()],
                        lhs,
                        rhs,
                        flags: ArithFlags::default(),
                    },
                );
            }
            1 => {
                let ty = self.typed(s.ty, true);
                let lhs = self.pick_var(ty, s.b);
                let rhs = self.pick(ty, s.c);
                self.emit(
                    ty,
                    Op::Binary {
                        op: FLOAT_OPS[s.a as usize % FLOAT_OPS.len()],
                        lhs,
                        rhs,
                        flags: ArithFlags::default(),
                    },
                );
            }
            2 => {
                let ty = self.typed(s.ty, true);
                let x = self.pick_var(ty, s.b);
                self.emit(ty, Op::FNeg(x));
            }
            3 => {
                let ty = self.typed(s.ty, false);
                let lhs = self.pick_var(ty, s.b);
                let rhs = self.pick(ty, s.c);
                let rt = self.bool_like(ty);
                self.emit(
                    rt,
                    Op::ICmp {
                        pred: INT_PREDS[s.a as usize % INT_PREDS.len()],
                        lhs,
                        rhs,
                    },
                );
            }
            4 => {
                let ty = self.typed(s.ty, true);
                let lhs = self.pick_var(ty, s.b);
                let rhs = self.pick(ty, s.c);
                let rt = self.bool_like(ty);
                self.emit(
                    rt,
                    Op::FCmp {
                        pred: FLOAT_PREDS[s.a as usize % FLOAT_PREDS.len()],
                        lhs,
                        rhs,
                    },
                );
            }
            5 => {
                let ty = seed_type(self.m, s.ty);
                let ct = self.bool_like(ty);
                let cond = self.pick_var(ct, s.a);
                let on_true = self.pick_var(ty, s.b);
                let on_false = self.pick(ty, s.c);
                self.emit(
                    ty,
                    Op::Select {
                        cond,
                        on_true,
                        on_false,
                    },
                );
            }
            6 => self.int_cast(s),
            7 => {
                let to = self.typed(s.ty, true);
                let widths: Vec<u32> = [16, 32, 64]
                    .into_iter()
                    .filter(|&w| w != self.width(to))
                    .collect();
                let w = widths[s.a as usize % widths.len()];
                let from = self.with_lanes(Type::Float { width: w }, to);
                let value = self.pick_var(from, s.b);
                let op = if w < self.width(to) {
                    CastOp::FPExt
                } else {
                    CastOp::FPTrunc
                };
                self.emit(to, Op::Cast { op, value });
            }
            8 => {
                let float = s.a & 1 == 1;
                let to = self.typed(s.ty, float);
                let other = TySeed {
                    scalar: (s.c % 7) as u8,
                    ..s.ty
                };
                let from = self.typed(other, !float);
                let value = self.pick_var(from, s.b);
                let signed = s.a & 2 == 2;
                let op = match (float, signed) {
                    (true, true) => CastOp::SIToFP,
                    (true, false) => CastOp::UIToFP,
                    (false, true) => CastOp::FPToSI,
                    (false, false) => CastOp::FPToUI,
                };
                self.emit(to, Op::Cast { op, value });
            }
            9 => self.bitcast(s),
            10 => {
                let vt = self.vector(s.ty);
                let lanes = self.m.lanes(vt);
                let vector = self.pick_var(vt, s.b);
                let index = if s.c & 1 == 0 {
                    self.i32_const(s.a as u64 % lanes as u64)
                } else {
                    let i32t = self.m.int_type(32);
                    self.pick_var(i32t, s.c)
                };
                let et = self.m.scalar_of(vt);
                self.emit(et, Op::ExtractElement { vector, index });
            }
            11 => {
                let vt = self.vector(s.ty);
                let lanes = self.m.lanes(vt);
                let et = self.m.scalar_of(vt);
                let vector = self.pick_var(vt, s.b);
                let element = self.pick(et, s.c);
                let index = self.i32_const(s.a as u64 % lanes as u64);
                self.emit(
                    vt,
                    Op::InsertElement {
                        vector,
                        element,
                        index,
                    },
                );
            }
            12 => {
                let vt = self.vector(s.ty);
                let lanes = self.m.lanes(vt);
                let a = self.pick_var(vt, s.b);
                let b = self.pick(vt, s.c);
                let out = LANES[1 + (s.c as usize >> 4) % (LANES.len() - 1)];
                let mask = (0..out)
                    .map(|i| {
                        let pick = (s.a as u32).wrapping_add(i * (s.b as u32 | 1)) % (2 * lanes);
                        ((s.c >> (8 + i % 8)) & 7 != 0).then_some(pick)
                    })
                    .collect();
                let et = self.m.scalar_of(vt);
                let rt = vector_of(self.m, et, out);
                self.emit(rt, Op::Shuffle { a, b, mask });
            }
            13 => self.private_array(s),
            14 => self.buffer_access(s),
            15 => self.struct_access(s),
            16 => {
                let (builtin, dim) = WORK_ITEM[s.a as usize % WORK_ITEM.len()];
                let (ty, args) = if dim {
                    let d = self.i32_const(s.b as u64 % 3);
                    (self.m.size_type(), vec![d])
                } else {
                    (self.m.int_type(32), vec![])
                };
                self.emit(
                    ty,
                    Op::Builtin {
                        builtin: Builtin::WorkItem(builtin),
                        args,
                    },
                );
            }
            17 => {
                let (op, n) = FLOAT_EXT[s.a as usize % FLOAT_EXT.len()];
                let ty = self.typed(s.ty, true);
                self.ext_inst(ty, op, n, s);
            }
            18 => {
                let (op, n) = INT_EXT[s.a as usize % INT_EXT.len()];
                let ty = self.typed(s.ty, false);
                self.ext_inst(ty, op, n, s);
            }
            19 => self.atomic(s),
            20 => {
                const FENCES: [u32; 3] = [0x110, 0x210, 0x310];
                let void = self.m.void_type();
                self.emit(
                    void,
                    Op::Builtin {
                        builtin: Builtin::ControlBarrier {
                            exec: Scope::Workgroup,
                            mem: Scope::Workgroup,
                            semantics: FENCES[s.a as usize % 3],
                        },
                        args: vec![],
                    },
                );
            }
            21 => {
                if self.scope.callees.is_empty() {
                    return;
                }
                let c = self.scope.callees[s.a as usize % self.scope.callees.len()].clone();
                let args = c
                    .params
                    .iter()
                    .enumerate()
                    .map(|(i, &t)| self.pick(t, s.b.wrapping_add(i as u16 * 3)))
                    .collect();
                self.emit(
                    c.ret,
                    Op::Call {
                        callee: c.function,
                        args,
                    },
                );
            }
            22 => self.image(s),
            23 => self.convert(s),
            24 => self.generic_access(s),
            25 => {
                let void = self.m.void_type();
                self.emit(
                    void,
                    Op::Builtin {
                        // mem_fence has no scope: work-group (roundtrip/README.md).
                        builtin: Builtin::MemoryBarrier {
                            mem: Scope::Workgroup,
                            // mem_fence orders acquire-release (roundtrip/README.md).
                            semantics: [0x108, 0x208, 0x308][s.b as usize % 3],
                        },
                        args: vec![],
                    },
                );
            }
            _ => unreachable!("seed kinds are below recipe::KINDS"),
        }
    }

    /// A buffer element through a generic pointer (OpenCL 2.0's unnamed address space).
    fn generic_access(&mut self, s: &Seed) {
        let bufs: Vec<Buffer> = self
            .scope
            .buffers
            .iter()
            .copied()
            .filter(|b| b.space != spir_xlate::ir::AddressSpace::Constant)
            .collect();
        if bufs.is_empty() {
            return;
        }
        let buf = bufs[s.a as usize % bufs.len()];
        let gt = self.m.ty(Type::Pointer {
            pointee: buf.elem,
            space: spir_xlate::ir::AddressSpace::Generic,
        });
        let g = self.emit(
            gt,
            Op::Cast {
                op: CastOp::AddrSpaceCast,
                value: buf.ptr,
            },
        );
        let size_t = self.m.size_type();
        let idx = self.pick_var(size_t, s.b);
        let ptr = self.gep(g, gt, vec![idx]);
        self.load_store(ptr, buf.elem, s.a & 2 == 2, s);
    }

    fn vector(&mut self, s: TySeed) -> Handle<Type> {
        let len = 1 + s.len % (LANES.len() as u8 - 1);
        seed_type(self.m, TySeed { len, ..s })
    }

    fn int_cast(&mut self, s: &Seed) {
        let to = self.typed(s.ty, false);
        let tw = self.width(to);
        let widths: Vec<u32> = [1, 8, 16, 32, 64]
            .into_iter()
            .filter(|&w| w != tw)
            .collect();
        let w = widths[s.a as usize % widths.len()];
        let from = if w == 1 {
            self.bool_like(to)
        } else {
            self.with_lanes(Type::Int { width: w }, to)
        };
        let value = self.pick_var(from, s.b);
        let op = match (w > tw, s.c & 1) {
            (true, _) => CastOp::Trunc,
            (false, 0) => CastOp::ZExt,
            (false, _) => CastOp::SExt,
        };
        self.emit(to, Op::Cast { op, value });
    }

    fn bitcast(&mut self, s: &Seed) {
        let to = seed_type(self.m, s.ty);
        let bits = self.width(to) * self.m.lanes(to);
        let mut candidates = Vec::new();
        for scalar in 0..SCALARS.len() as u8 {
            for len in 0..LANES.len() as u8 {
                let t = seed_type(self.m, TySeed { scalar, len });
                if t != to && self.width(t) * self.m.lanes(t) == bits {
                    candidates.push(t);
                }
            }
        }
        if candidates.is_empty() {
            return;
        }
        let from = candidates[s.a as usize % candidates.len()];
        let value = self.pick_var(from, s.b);
        self.emit(
            to,
            Op::Cast {
                op: CastOp::Bitcast,
                value,
            },
        );
    }

    /// An `alloca` in the entry block (where SPIR-V wants its variables), after the others.
    fn alloca(&mut self, allocated: Handle<Type>, align: Option<u32>) -> Value {
        let ty = self.m.ty(Type::Pointer {
            pointee: allocated,
            space: spir_xlate::ir::AddressSpace::Private,
        });
        self.names += 1;
        let h = self.body.insts.append(Inst {
            name: Some(format!("v{}", self.names)),
            ty,
            op: Op::Alloca { allocated, align },
        });
        self.body.blocks[0].insts.insert(self.allocas, h);
        self.allocas += 1;
        Value::Inst(h)
    }

    fn align(&self, ty: Handle<Type>, sel: u16) -> Option<u32> {
        let natural = self.m.align_of(ty) as u32;
        // Never `None`: LLVM 14 gives every access an alignment, so SPIR cannot say "none"
        // (roundtrip/README.md, lossiness).
        match sel % 3 {
            0 => Some(natural),
            1 => Some(natural.min(4)),
            _ => Some(natural * 2),
        }
    }

    fn gep(&mut self, base: Value, base_ty: Handle<Type>, indices: Vec<Value>) -> Value {
        let consts: Vec<Option<u64>> = indices
            .iter()
            .map(|v| match v {
                Value::Const(c) => match self.m.constants[*c].kind {
                    ConstantKind::Int(i) => Some(i),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let rt = self
            .m
            .gep_result_type(base_ty, &consts)
            .expect("generated GEPs fit their type");
        self.geps += 1;
        self.emit(
            rt,
            Op::Gep {
                inbounds: self.geps % 3 != 0,
                base,
                indices,
            },
        )
    }

    fn load_store(&mut self, ptr: Value, elem: Handle<Type>, store: bool, s: &Seed) {
        let align = self.align(elem, s.c);
        let volatile = s.c & 8 != 0;
        if store {
            let value = self.pick(elem, s.b);
            let void = self.m.void_type();
            self.emit(
                void,
                Op::Store {
                    ptr,
                    value,
                    align,
                    volatile,
                },
            );
        } else {
            self.emit(
                elem,
                Op::Load {
                    ptr,
                    align,
                    volatile,
                },
            );
        }
    }

    fn private_array(&mut self, s: &Seed) {
        let elem = seed_type(self.m, s.ty);
        let arr = self.m.ty(Type::Array { elem, len: 4 });
        let align = self.align(arr, s.a);
        let base = self.alloca(arr, align);
        let base_ty = self.m.ty(Type::Pointer {
            pointee: arr,
            space: spir_xlate::ir::AddressSpace::Private,
        });
        let size_t = self.m.size_type();
        let zero = self.constant(size_t, 9);
        let idx = self.pick(size_t, s.a >> 2);
        let ptr = self.gep(base, base_ty, vec![zero, idx]);
        self.load_store(ptr, elem, true, s);
        self.load_store(ptr, elem, false, s);
    }

    fn buffer_access(&mut self, s: &Seed) {
        let use_table = self.scope.table.is_some() && (self.scope.buffers.is_empty() || s.a & 1 == 1);
        if use_table {
            let g = self.scope.table.unwrap();
            let gt = self.m.globals[g].ty;
            let ptr_t = self.m.ty(Type::Pointer {
                pointee: gt,
                space: spir_xlate::ir::AddressSpace::Constant,
            });
            let base = self.konst(Constant {
                ty: ptr_t,
                kind: ConstantKind::GlobalAddress(g),
            });
            let size_t = self.m.size_type();
            let zero = self.constant(size_t, 9);
            let idx = self.pick_var(size_t, s.b);
            let ptr = self.gep(base, ptr_t, vec![zero, idx]);
            let i32t = self.m.int_type(32);
            self.load_store(ptr, i32t, false, s);
            return;
        }
        if self.scope.buffers.is_empty() {
            return;
        }
        let buf = self.scope.buffers[s.a as usize % self.scope.buffers.len()];
        let size_t = self.m.size_type();
        let idx = self.pick_var(size_t, s.b);
        let ptr = self.gep(buf.ptr, buf.ptr_ty, vec![idx]);
        self.load_store(ptr, buf.elem, buf.writable && s.a & 2 == 2, s);
    }

    fn struct_access(&mut self, s: &Seed) {
        let st = struct_type(self.m);
        let Type::Struct {
            members: Some(members),
            ..
        } = self.m.types[st].clone()
        else {
            unreachable!()
        };
        let base = self.alloca(st, Some(4));
        let field = s.a as usize % members.len();
        let ft = members[field];
        if s.b & 1 == 0 {
            let base_ty = self.m.ty(Type::Pointer {
                pointee: st,
                space: spir_xlate::ir::AddressSpace::Private,
            });
            let zero = self.i32_const(0);
            let f = self.i32_const(field as u64);
            let ptr = self.gep(base, base_ty, vec![zero, f]);
            if matches!(self.m.types[ft], Type::Array { .. }) {
                return;
            }
            self.load_store(ptr, ft, true, s);
            self.load_store(ptr, ft, false, s);
        } else {
            let whole = self.emit(
                st,
                Op::Load {
                    ptr: base,
                    align: Some(4),
                    volatile: false,
                },
            );
            if matches!(self.m.types[ft], Type::Array { .. }) {
                // Paths are chains of single steps in the graph (`Module::extract_step`).
                let array = self.emit(
                    ft,
                    Op::ExtractValue {
                        aggregate: whole,
                        indices: vec![field as u32],
                    },
                );
                let i8t = self.m.int_type(8);
                self.emit(
                    i8t,
                    Op::ExtractValue {
                        aggregate: array,
                        indices: vec![s.c as u32 % 3],
                    },
                );
                return;
            }
            let element = self.pick(ft, s.c);
            let updated = self.emit(
                st,
                Op::InsertValue {
                    aggregate: whole,
                    element,
                    indices: vec![field as u32],
                },
            );
            let void = self.m.void_type();
            self.emit(
                void,
                Op::Store {
                    ptr: base,
                    value: updated,
                    align: Some(4),
                    volatile: false,
                },
            );
        }
    }

    fn ext_inst(&mut self, ty: Handle<Type>, op: CLOp, n: usize, s: &Seed) {
        let mut args = vec![self.pick_var(ty, s.b)];
        for i in 1..n {
            args.push(self.pick(ty, s.c.wrapping_add(i as u16)));
        }
        self.emit(
            ty,
            Op::Builtin {
                builtin: Builtin::ExtInst { op, literal: None },
                args,
            },
        );
    }

    fn atomic(&mut self, s: &Seed) {
        let atomics: Vec<Buffer> = self.scope.buffers.iter().copied().filter(|b| b.atomic).collect();
        if atomics.is_empty() {
            return;
        }
        let buf = atomics[s.b as usize % atomics.len()];
        let (op, n) = ATOMICS[s.a as usize % ATOMICS.len()];
        let mut args = vec![buf.ptr];
        for i in 0..n {
            args.push(self.pick(buf.elem, s.c.wrapping_add(i as u16)));
        }
        self.emit(
            buf.elem,
            Op::Builtin {
                builtin: Builtin::Atomic {
                    op,
                    scope: Scope::Device,
                    semantics: 0,
                },
                args,
            },
        );
    }

    fn image(&mut self, s: &Seed) {
        if self.scope.images.is_empty() {
            return;
        }
        let (img, it) = self.scope.images[s.a as usize % self.scope.images.len()];
        let coord_lanes = match it.dims() {
            1 => 1,
            2 => 2,
            _ => 4,
        };
        let f32t = self.m.ty(Type::Float { width: 32 });
        let i32t = self.m.int_type(32);
        let v4f = vector_of(self.m, f32t, 4);
        let v4i = vector_of(self.m, i32t, 4);
        let int_coord = vector_of(self.m, i32t, coord_lanes);
        let kind = if s.c & 1 == 0 {
            TexelKind::Float
        } else {
            TexelKind::Signed
        };
        let texel = if kind == TexelKind::Float { v4f } else { v4i };
        if it.access == Some(spir_xlate::ir::Access::WriteOnly) {
            let coord = self.pick_var(int_coord, s.b);
            let value = self.pick(texel, s.c >> 1);
            let void = self.m.void_type();
            self.emit(
                void,
                Op::Builtin {
                    builtin: Builtin::Image(ImageOp::Write(kind)),
                    args: vec![img, coord, value],
                },
            );
        } else if s.b & 1 == 0 {
            let coord = self.pick_var(int_coord, s.b >> 1);
            self.emit(
                texel,
                Op::Builtin {
                    builtin: Builtin::Image(ImageOp::Read(kind)),
                    args: vec![img, coord],
                },
            );
        } else {
            let sampler = if self.scope.samplers.is_empty() || s.c & 2 == 2 {
                let st = self.m.ty(Type::Sampler);
                self.konst(Constant {
                    ty: st,
                    kind: ConstantKind::Sampler {
                        addressing: [
                            SamplerAddressing::None,
                            SamplerAddressing::ClampToEdge,
                            SamplerAddressing::Clamp,
                            SamplerAddressing::Repeat,
                        ][(s.c >> 2) as usize % 4],
                        normalized: s.c & 16 != 0,
                        filter: if s.c & 32 != 0 {
                            SamplerFilter::Linear
                        } else {
                            SamplerFilter::Nearest
                        },
                    },
                })
            } else {
                self.scope.samplers[s.c as usize % self.scope.samplers.len()]
            };
            let coord_t = vector_of(self.m, f32t, coord_lanes);
            let coord = self.pick_var(coord_t, s.b >> 1);
            self.emit(
                texel,
                Op::Builtin {
                    builtin: Builtin::Image(ImageOp::Sample(kind)),
                    args: vec![img, sampler, coord],
                },
            );
        }
    }

    /// A conversion builtin that is not a plain cast: saturating, or with a rounding mode.
    fn convert(&mut self, s: &Seed) {
        use spir_xlate::ir::builtin::FPRoundingMode as R;
        let kinds = [
            ConvertKind::Float,
            ConvertKind::Int(Sign::Signed),
            ConvertKind::Int(Sign::Unsigned),
        ];
        let from = kinds[s.a as usize % 3];
        let to = kinds[(s.a as usize / 3) % 3];
        let to_t = self.typed(s.ty, to == ConvertKind::Float);
        let other = TySeed {
            scalar: (s.c % 7) as u8,
            ..s.ty
        };
        let from_t = self.typed(other, from == ConvertKind::Float);
        let value = self.pick_var(from_t, s.b);
        // Rounding modes only mean something where a float is involved.
        let rounding = if from == ConvertKind::Float || to == ConvertKind::Float {
            [None, Some(R::RTE), Some(R::RTZ), Some(R::RTP), Some(R::RTN)][(s.c as usize >> 3) % 5]
        } else {
            None
        };
        let saturate = matches!(to, ConvertKind::Int(_)) && s.c & 4 != 0;
        // Conversions whose saturation and rounding change nothing are casts or nothing in
        // the graph (`Module::convert_op`); kinds 6 to 8 make the casts.
        let op = self
            .m
            .convert_op(to_t, (from, to, saturate, rounding), value, from_t);
        if let Converted::Op(op @ Op::Builtin { .. }) = op {
            self.emit(to_t, op);
        }
    }
}

fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}
