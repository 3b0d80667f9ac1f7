//! One seed, one instruction family: arithmetic, compares, selects, casts and vector element
//! operations here; memory in `memory.rs`, builtins in `builtins.rs`.

use spir_xlate::ir::builtin::Scope;
use spir_xlate::ir::{
    ArithFlags, BinaryOp, Builtin, CastOp, FloatPredicate, Handle, IntPredicate, Op, Type,
};

use super::recipe::{Seed, TySeed, LANES, SCALARS};

use super::body::{seed_type, vector_of, FnBuilder};
use super::builtins::{FLOAT_EXT, INT_EXT, WORK_ITEM};

/// Memory scopes OpenCL C 2.0 can name (`memory_scope_*`).
const SCOPES: [Scope; 5] = [
    Scope::Invocation,
    Scope::Subgroup,
    Scope::Workgroup,
    Scope::Device,
    Scope::CrossDevice,
];

pub(super) const INT_OPS: [BinaryOp; 13] = [
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
pub(super) const FLOAT_OPS: [BinaryOp; 5] = [
    BinaryOp::FAdd,
    BinaryOp::FSub,
    BinaryOp::FMul,
    BinaryOp::FDiv,
    BinaryOp::FRem,
];
pub(super) const INT_PREDS: [IntPredicate; 10] = [
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
pub(super) const FLOAT_PREDS: [FloatPredicate; 14] = [
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

impl FnBuilder<'_> {
    /// One instruction (sometimes a few: its operands and, for memory, its address).
    pub(super) fn seed(&mut self, s: &Seed) {
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
                // A vector select may take one boolean for every lane (LLVM's form).
                let ct = if s.c & 0x100 != 0 {
                    self.m.ty(Type::Bool)
                } else {
                    self.bool_like(ty)
                };
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
                // OpenCL C barriers are sequentially consistent; 2.0 gives them a memory scope.
                let mem = if self.spir_2() {
                    SCOPES[s.b as usize % SCOPES.len()]
                } else {
                    Scope::Workgroup
                };
                let void = self.m.void_type();
                self.emit(
                    void,
                    Op::Builtin {
                        builtin: Builtin::ControlBarrier {
                            exec: Scope::Workgroup,
                            mem,
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
            26 => self.memory_copy(s),
            27 => self.async_copy(s),
            28 => self.relational(s),
            29 => self.collective(s),
            30 => self.integer_bits(s),
            25 => {
                // SPIR 1.2 has only mem_fence and its halves: work-group scope, acquire,
                // release or both. 2.0 has atomic_work_item_fence for every order and scope.
                let (mem, order) = if self.spir_2() {
                    (
                        SCOPES[s.b as usize % SCOPES.len()],
                        [0, 0x2, 0x4, 0x8, 0x10][s.c as usize % 5],
                    )
                } else {
                    (Scope::Workgroup, [0x2, 0x4, 0x8][s.c as usize % 3])
                };
                let void = self.m.void_type();
                self.emit(
                    void,
                    Op::Builtin {
                        builtin: Builtin::MemoryBarrier {
                            mem,
                            semantics: order | [0x100, 0x200, 0x300][s.a as usize % 3],
                        },
                        args: vec![],
                    },
                );
            }
            _ => unreachable!("seed kinds are below recipe::KINDS"),
        }
    }

    fn spir_2(&self) -> bool {
        self.m.source.spir_version == Some((2, 0))
    }

    pub(super) fn vector(&mut self, s: TySeed) -> Handle<Type> {
        let len = 1 + s.len % (LANES.len() as u8 - 1);
        seed_type(self.m, TySeed { len, ..s })
    }

    pub(super) fn int_cast(&mut self, s: &Seed) {
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

    pub(super) fn bitcast(&mut self, s: &Seed) {
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
}
