//! Wide vectors in physical storage buffers moved as 32-bit words. A load or store of a
//! vector of more than 4 lanes whose stated alignment is 4 or more reads or writes the
//! vector's bytes as `uint4` chunks where it is aligned to 16 (else `uint2` or `uint`), and
//! takes the lanes out of the words with shifts (or puts them in). One access per lane (a
//! `uchar16` was sixteen byte loads) made the driver issue a narrow memory instruction for
//! each lane: the 256-bin histogram ran at twice the time of NVIDIA's own build of it.
//!
//! Storage buffers (`--vulkan-pointers descriptors`) keep one access per lane: their
//! logical pointers cannot be cast to another pointee.

use crate::ir::{AddressSpace, ArithFlags, BinaryOp, CastOp, Constant, ConstantKind};
use crate::ir::{Handle, Op, Type, Value};

use super::{Outcome, Pass};

/// How a wide access moves as words.
struct Plan {
    /// The lane type, its width in bytes, and the integer type of that width.
    elem: Handle<Type>,
    lane_bytes: u32,
    lane_int: Handle<Type>,
    /// The vector's lanes.
    len: u32,
    /// The pointer to the first chunk, the chunk type and its words (1, 2 or 4).
    chunk_ptr: Value,
    chunk: Handle<Type>,
    chunk_words: u32,
    /// The number of chunks, and the alignment each access states.
    chunks: u32,
    align: u32,
}

impl Pass<'_, '_> {
    /// The plan for an access of wide vector type `vty` through `ptr` stated aligned to
    /// `align`, where it can move as words: a physical buffer, lanes of 8 to 64 bits, the
    /// vector's size a multiple of 4 and the access aligned to 4 or more.
    fn word_plan(&mut self, ptr: Value, vty: Handle<Type>, align: Option<u32>) -> Option<Plan> {
        let space = match self.m.types[self.ty_of(ptr)] {
            Type::Pointer { space, .. } => space,
            _ => return None,
        };
        let Type::Vector { elem, len } = self.m.types[vty] else {
            return None;
        };
        let bits = match self.m.types[elem] {
            Type::Int { width } | Type::Float { width } => width,
            _ => return None,
        };
        let lane_bytes = bits / 8;
        let size = len * lane_bytes;
        let align = align?;
        let fits = space == AddressSpace::PhysicalStorageBuffer
            && [8, 16, 32, 64].contains(&bits)
            && align >= 4
            && size % 4 == 0;
        if !fits {
            return None;
        }
        let chunk_words = [4, 2, 1]
            .into_iter()
            .find(|w| align >= 4 * w && size % (4 * w) == 0)?;
        let word = self.m.int_type(32);
        let chunk = match chunk_words {
            1 => word,
            n => self.m.ty(Type::Vector { elem: word, len: n }),
        };
        let chunk_pt = self.m.ty(Type::Pointer {
            pointee: chunk,
            space,
        });
        let chunk_ptr = self.push(
            chunk_pt,
            Op::Cast {
                op: CastOp::Bitcast,
                value: ptr,
            },
        );
        Some(Plan {
            elem,
            lane_bytes,
            lane_int: self.m.int_type(bits),
            len,
            chunk_ptr,
            chunk,
            chunk_words,
            chunks: size / (4 * chunk_words),
            align: align.min(4 * chunk_words),
        })
    }

    /// Chunk `c` of the plan's memory.
    fn chunk_pointer(&mut self, plan: &Plan, c: u32) -> Value {
        if c == 0 {
            return plan.chunk_ptr;
        }
        let pt = self.ty_of(plan.chunk_ptr);
        let idx = self.u32_const(c);
        self.push(
            pt,
            Op::Gep {
                inbounds: true,
                base: plan.chunk_ptr,
                indices: vec![idx],
            },
        )
    }

    fn u32_const(&mut self, v: u32) -> Value {
        let t = self.m.int_type(32);
        Value::Const(self.m.int_const(t, u64::from(v)))
    }

    fn binary(&mut self, ty: Handle<Type>, op: BinaryOp, lhs: Value, rhs: Value) -> Value {
        self.push(
            ty,
            Op::Binary {
                op,
                lhs,
                rhs,
                flags: ArithFlags::default(),
            },
        )
    }

    fn cast_to(&mut self, ty: Handle<Type>, op: CastOp, value: Value) -> Value {
        self.push(ty, Op::Cast { op, value })
    }

    /// A load of wide vector type `ty` through `ptr`, as words; `None` where it cannot.
    pub(super) fn word_load(
        &mut self,
        ptr: Value,
        ty: Handle<Type>,
        align: Option<u32>,
        volatile: bool,
    ) -> Option<Outcome> {
        let plan = self.word_plan(ptr, ty, align)?;
        let word = self.m.int_type(32);
        let mut words = Vec::new();
        for c in 0..plan.chunks {
            let p = self.chunk_pointer(&plan, c);
            let v = self.push(
                plan.chunk,
                Op::Load {
                    ptr: p,
                    align: Some(plan.align),
                    volatile,
                },
            );
            if plan.chunk_words == 1 {
                words.push(v);
                continue;
            }
            for j in 0..plan.chunk_words {
                let index = self.u32_const(j);
                words.push(self.push(word, Op::ExtractElement { vector: v, index }));
            }
        }
        let wide = self.m.int_type(64);
        let lanes = (0..plan.len)
            .map(|i| {
                let at = i * plan.lane_bytes;
                let w = words[(at / 4) as usize];
                let int = match plan.lane_bytes {
                    4 => w,
                    8 => {
                        let lo = self.cast_to(wide, CastOp::ZExt, w);
                        let hi = self.cast_to(wide, CastOp::ZExt, words[(at / 4 + 1) as usize]);
                        let by = Value::Const(self.m.int_const(wide, 32));
                        let hi = self.binary(wide, BinaryOp::Shl, hi, by);
                        self.binary(wide, BinaryOp::Or, hi, lo)
                    }
                    _ => {
                        let shifted = match (at % 4) * 8 {
                            0 => w,
                            sh => {
                                let by = self.u32_const(sh);
                                self.binary(word, BinaryOp::LShr, w, by)
                            }
                        };
                        self.cast_to(plan.lane_int, CastOp::Trunc, shifted)
                    }
                };
                Some(if plan.elem == plan.lane_int {
                    int
                } else {
                    self.cast_to(plan.elem, CastOp::Bitcast, int)
                })
            })
            .collect();
        Some(self.build(ty, lanes))
    }

    /// A store of wide vector `value` through `ptr`, as words; `None` where it cannot.
    pub(super) fn word_store(
        &mut self,
        ptr: Value,
        value: Value,
        align: Option<u32>,
        volatile: bool,
    ) -> Option<Outcome> {
        let vt = self.ty_of(value);
        let plan = self.word_plan(ptr, vt, align)?;
        let word = self.m.int_type(32);
        let mut words: Vec<Option<Value>> = vec![None; (plan.chunks * plan.chunk_words) as usize];
        for i in 0..plan.len {
            let at = i * plan.lane_bytes;
            let lane = self.lane(value, i);
            let int = if plan.elem == plan.lane_int {
                lane
            } else {
                self.cast_to(plan.lane_int, CastOp::Bitcast, lane)
            };
            let slot = (at / 4) as usize;
            match plan.lane_bytes {
                4 => words[slot] = Some(int),
                8 => {
                    let wide = self.m.int_type(64);
                    let by = Value::Const(self.m.int_const(wide, 32));
                    let hi = self.binary(wide, BinaryOp::LShr, int, by);
                    words[slot] = Some(self.cast_to(word, CastOp::Trunc, int));
                    words[slot + 1] = Some(self.cast_to(word, CastOp::Trunc, hi));
                }
                _ => {
                    let z = self.cast_to(word, CastOp::ZExt, int);
                    let part = match (at % 4) * 8 {
                        0 => z,
                        sh => {
                            let by = self.u32_const(sh);
                            self.binary(word, BinaryOp::Shl, z, by)
                        }
                    };
                    words[slot] = Some(match words[slot] {
                        Some(w) => self.binary(word, BinaryOp::Or, w, part),
                        None => part,
                    });
                }
            }
        }
        let void = self.m.void_type();
        for c in 0..plan.chunks {
            let first = (c * plan.chunk_words) as usize;
            let mut chunk = match plan.chunk_words {
                1 => words[first]?,
                _ => Value::Const(self.m.constant(Constant {
                    ty: plan.chunk,
                    kind: ConstantKind::Undef,
                })),
            };
            if plan.chunk_words > 1 {
                for j in 0..plan.chunk_words {
                    let index = self.u32_const(j);
                    let element = words[first + j as usize]?;
                    chunk = self.push(
                        plan.chunk,
                        Op::InsertElement {
                            vector: chunk,
                            element,
                            index,
                        },
                    );
                }
            }
            let p = self.chunk_pointer(&plan, c);
            self.push(
                void,
                Op::Store {
                    ptr: p,
                    value: chunk,
                    align: Some(plan.align),
                    volatile,
                },
            );
        }
        Some(Outcome::Drop)
    }
}
