//! The function builder: blocks, the pool of values in scope (those dominating the current
//! block) and the constants and values operands are picked from. Every instruction has at
//! least one operand that is not a constant: LLVM folds instructions over constants only (into
//! constants), which is a documented normal form, not a round-trip loss. Control flow is
//! `regions.rs`, instructions `seeds.rs`, `memory.rs` and `builtins.rs`.

use spir_xlate::ir::builtin::BuiltIn;
use spir_xlate::ir::{
    Block, Body, Builtin, CastOp, Constant, ConstantKind, Function, Global, Handle, ImageType,
    Inst, IntPredicate, Module, Op, Terminator, Type, Value,
};

use super::recipe::{TySeed, LANES, SCALARS};

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
pub struct Reach {
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
    pub(super) cur: usize,
    /// Non-constant values that dominate the current point, with their types.
    pub(super) pool: Vec<(Value, Handle<Type>)>,
    pub(super) scope: Reach,
    pub(super) allocas: usize,
    pub(super) gid: Value,
    pub(super) names: u32,
    pub(super) geps: u32,
}

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

pub(super) fn vector_of(m: &mut Module, elem: Handle<Type>, len: u32) -> Handle<Type> {
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
    pub fn new(m: &'m mut Module, scope: Reach) -> Self {
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

    pub(super) fn new_block(&mut self, name: &str) -> usize {
        self.body.blocks.push(Block {
            terminator_loc: None,
            name: Some(format!("{name}{}", self.body.blocks.len())),
            insts: Vec::new(),
            terminator: Terminator::Unreachable,
            construct: None,
        });
        self.body.blocks.len() - 1
    }

    pub(super) fn terminate(&mut self, t: Terminator) {
        self.body.blocks[self.cur].terminator = t;
    }

    pub(super) fn emit(&mut self, ty: Handle<Type>, mut op: Op) -> Value {
        // A test of an extended boolean against zero is the boolean in the graph
        // (`Module::extension_test`); compare with one instead, which stays a comparison.
        if let Op::ICmp { pred, lhs, rhs } = &mut op {
            if let Some((_, ext)) = self.m.extension_test(&self.body, *pred, *lhs, *rhs) {
                // (sel % 19) - 9 = 1 in the first lane: not a zero.
                *rhs = self.constant(self.body.insts[ext].ty, 10);
            }
        }
        let void = matches!(self.m.types[ty], Type::Void);
        let name = (!void).then(|| {
            self.names += 1;
            format!("v{}", self.names)
        });
        let h = self.body.insts.append(Inst {
            loc: None,
            name,
            ty,
            op,
        });
        self.body.blocks[self.cur].insts.push(h);
        let v = Value::Inst(h);
        if !void {
            self.pool.push((v, ty));
        }
        v
    }

    pub(super) fn konst(&mut self, c: Constant) -> Value {
        Value::Const(self.m.constant(c))
    }

    pub(super) fn i32_const(&mut self, v: u64) -> Value {
        let ty = self.m.int_type(32);
        self.konst(Constant {
            ty,
            kind: ConstantKind::Int(v),
        })
    }

    /// A constant of `ty` chosen by `sel`.
    pub(super) fn constant(&mut self, ty: Handle<Type>, sel: u16) -> Value {
        let kind = match self.m.types[ty].clone() {
            Type::Bool => ConstantKind::Int(sel as u64 & 1),
            Type::Int { width } => {
                let v = (sel % 19) as i64 - 9;
                ConstantKind::Int(v as u64 & mask(width))
            }
            Type::Float { width: 32 } => {
                ConstantKind::Float(((sel % 64) as f32 * 0.25 - 4.0).to_bits() as u64)
            }
            Type::Float { width: 64 } => {
                ConstantKind::Float(((sel % 64) as f64 * 0.25 - 4.0).to_bits())
            }
            Type::Float { width: 16 } => {
                ConstantKind::Float(half_bits((sel % 64) as f32 * 0.25 - 4.0))
            }
            Type::Vector { elem, len } => {
                let lanes = (0..len)
                    .map(
                        |i| match self.constant(elem, sel.wrapping_add(i as u16 * 7)) {
                            Value::Const(c) => c,
                            _ => unreachable!(),
                        },
                    )
                    .collect();
                ConstantKind::Composite(lanes)
            }
            other => panic!("no constants of {other:?} in the generator"),
        };
        self.konst(Constant { ty, kind })
    }

    /// A value of `ty`: a constant one time in five, otherwise a value in scope.
    pub(super) fn pick(&mut self, ty: Handle<Type>, sel: u16) -> Value {
        if sel.is_multiple_of(5) {
            self.constant(ty, sel / 5)
        } else {
            self.pick_var(ty, sel)
        }
    }

    /// A value of `ty` that is not a constant: one in scope, or one made from the global id.
    pub(super) fn pick_var(&mut self, ty: Handle<Type>, sel: u16) -> Value {
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

    pub(super) fn synthesize(&mut self, ty: Handle<Type>) -> Value {
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

    pub(super) fn bool_like(&mut self, ty: Handle<Type>) -> Handle<Type> {
        let b = self.m.ty(Type::Bool);
        let lanes = self.m.lanes(ty);
        vector_of(self.m, b, lanes)
    }

    /// The seed's type with its scalar forced to an integer (`float == false`) or a float.
    pub(super) fn typed(&mut self, s: TySeed, float: bool) -> Handle<Type> {
        let ints = SCALARS.iter().filter(|(f, _)| !f).count() as u8;
        let floats = SCALARS.len() as u8 - ints;
        let scalar = if float {
            ints + s.scalar % floats
        } else {
            s.scalar % ints
        };
        seed_type(self.m, TySeed { scalar, ..s })
    }

    pub(super) fn with_lanes(&mut self, scalar: Type, like: Handle<Type>) -> Handle<Type> {
        let s = self.m.ty(scalar);
        let lanes = self.m.lanes(like);
        vector_of(self.m, s, lanes)
    }

    pub(super) fn width(&self, ty: Handle<Type>) -> u32 {
        match self.m.types[self.m.scalar_of(ty)] {
            Type::Int { width } | Type::Float { width } => width,
            Type::Bool => 1,
            _ => 0,
        }
    }
}

pub(super) fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// The bits of `x` as a `half`, for the normal values and zero `constant` makes.
fn half_bits(x: f32) -> u64 {
    if x == 0.0 {
        return 0;
    }
    let b = x.to_bits();
    let sign = (b >> 31) << 15;
    let exp = ((b >> 23) & 0xff) + 15 - 127;
    let mantissa = (b >> 13) & 0x3ff;
    u64::from(sign | exp << 10 | mantissa)
}
