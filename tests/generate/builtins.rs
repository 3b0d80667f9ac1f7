//! Builtins: OpenCL.std instructions, atomics, images and samplers, conversions that saturate
//! or round.

use spir_xlate::internals::normal::Converted;
use spir_xlate::ir::builtin::{AtomicOp, BuiltIn, GroupOp, OpenclOp, Scope};
use spir_xlate::ir::{
    Builtin, Constant, ConstantKind, ConvertKind, Handle, ImageOp, Op, SamplerAddressing,
    SamplerFilter, Sign, TexelKind, Type, Value,
};

use super::recipe::{Seed, TySeed};

use super::body::{vector_of, Buffer, FnBuilder};

/// Work-item queries: (builtin, takes a dimension).
pub(super) const WORK_ITEM: [(BuiltIn, bool); 8] = [
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
pub(super) const FLOAT_EXT: [(OpenclOp, usize); 14] = [
    (OpenclOp::fmax, 2),
    (OpenclOp::fmin, 2),
    (OpenclOp::sqrt, 1),
    (OpenclOp::fabs, 1),
    (OpenclOp::floor, 1),
    (OpenclOp::ceil, 1),
    (OpenclOp::mad, 3),
    (OpenclOp::fma, 3),
    (OpenclOp::sin, 1),
    (OpenclOp::exp, 1),
    (OpenclOp::pow, 2),
    (OpenclOp::copysign, 2),
    (OpenclOp::rsqrt, 1),
    (OpenclOp::fclamp, 3),
];
/// OpenCL.std integer instructions and their operand counts.
pub(super) const INT_EXT: [(OpenclOp, usize); 10] = [
    (OpenclOp::s_max, 2),
    (OpenclOp::u_max, 2),
    (OpenclOp::s_min, 2),
    (OpenclOp::u_min, 2),
    (OpenclOp::popcount, 1),
    (OpenclOp::clz, 1),
    (OpenclOp::rotate, 2),
    (OpenclOp::s_add_sat, 2),
    (OpenclOp::u_sub_sat, 2),
    (OpenclOp::s_abs, 1),
];
pub(super) const ATOMICS: [(AtomicOp, usize); 11] = [
    (AtomicOp::IAdd, 1),
    (AtomicOp::ISub, 1),
    (AtomicOp::SMax, 1),
    (AtomicOp::UMin, 1),
    (AtomicOp::And, 1),
    (AtomicOp::Or, 1),
    (AtomicOp::Xor, 1),
    (AtomicOp::Exchange, 1),
    (AtomicOp::IIncrement, 0),
    (AtomicOp::IDecrement, 0),
    (AtomicOp::CompareExchange, 2),
];

/// OpenCL C 2.0's work-group and sub-group collectives on a scalar: (collective, on floats).
const COLLECTIVES: [(GroupOp, bool); 9] = [
    (GroupOp::IAdd, false),
    (GroupOp::FAdd, true),
    (GroupOp::SMin, false),
    (GroupOp::UMin, false),
    (GroupOp::FMin, true),
    (GroupOp::SMax, false),
    (GroupOp::UMax, false),
    (GroupOp::FMax, true),
    (GroupOp::Broadcast, false),
];

impl FnBuilder<'_> {
    pub(super) fn ext_inst(&mut self, ty: Handle<Type>, op: OpenclOp, n: usize, s: &Seed) {
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

    /// A work-group or sub-group collective (`work_group_reduce_add`, `sub_group_scan_inclusive_max`,
    /// `work_group_broadcast`, ...): SPIR 2.0 modules only (a work-item query in 1.2 ones).
    pub(super) fn collective(&mut self, s: &Seed) {
        if self.m.source.spir_version.is_none_or(|v| v < (2, 0)) {
            let size_t = self.m.size_type();
            self.pick_var(size_t, s.a);
            return;
        }
        let (op, float) = COLLECTIVES[s.a as usize % COLLECTIVES.len()];
        let broadcast = op == GroupOp::Broadcast;
        let wide = s.b & 1 == 1;
        let ty = match (float || (broadcast && s.b & 2 == 2), wide) {
            (true, false) => self.m.ty(Type::Float { width: 32 }),
            (true, true) => self.m.ty(Type::Float { width: 64 }),
            (false, false) => self.m.int_type(32),
            (false, true) => self.m.int_type(64),
        };
        let scope = if s.b & 4 == 4 {
            Scope::Subgroup
        } else {
            Scope::Workgroup
        };
        let value = self.pick_var(ty, s.c);
        let (operation, args) = if broadcast {
            // The local id: `size_t` for work_group_broadcast, `uint` for sub_group_broadcast.
            let id_ty = match scope {
                Scope::Workgroup => self.m.size_type(),
                _ => self.m.int_type(32),
            };
            let id = self.constant(id_ty, s.c / 7 % 4);
            (None, vec![value, id])
        } else {
            let operation = [
                spirv::GroupOperation::Reduce,
                spirv::GroupOperation::InclusiveScan,
                spirv::GroupOperation::ExclusiveScan,
            ][(s.c / 7) as usize % 3];
            (Some(operation), vec![value])
        };
        self.emit(
            ty,
            Op::Builtin {
                builtin: Builtin::Group {
                    op,
                    scope,
                    operation,
                },
                args,
            },
        );
    }

    pub(super) fn atomic(&mut self, s: &Seed) {
        let atomics: Vec<Buffer> = self
            .scope
            .buffers
            .iter()
            .copied()
            .filter(|b| b.atomic)
            .collect();
        if atomics.is_empty() {
            return;
        }
        let buf = atomics[s.b as usize % atomics.len()];
        let (op, n) = ATOMICS[s.a as usize % ATOMICS.len()];
        let mut args = vec![buf.ptr];
        for i in 0..n {
            args.push(self.pick(buf.elem, s.c.wrapping_add(i as u16)));
        }
        // OpenCL C 2.0's C11 atomics: any memory order and scope. The graph's normal form:
        // relaxed is semantics 0; another order carries the pointer's storage class.
        // (Not increment, decrement or compare-exchange: OpenCL C 2.0 spells the first two as
        // fetch_add/fetch_sub of 1 and the third through a variable for `*expected`, which
        // read back as those forms: README's lossiness table.)
        let c11 = !matches!(
            op,
            AtomicOp::IIncrement | AtomicOp::IDecrement | AtomicOp::CompareExchange
        );
        let (scope, semantics) =
            if self.m.source.spir_version == Some((2, 0)) && c11 && !s.c.is_multiple_of(3) {
                const SCOPES: [Scope; 4] = [
                    Scope::Invocation,
                    Scope::Workgroup,
                    Scope::Device,
                    Scope::CrossDevice,
                ];
                let order = [0, 0x2, 0x4, 0x8, 0x10][(s.c / 3) as usize % 5];
                let storage = match buf.space {
                    spir_xlate::ir::AddressSpace::Local => 0x100,
                    _ => 0x200,
                };
                let scope = SCOPES[(s.c / 15) as usize % SCOPES.len()];
                (scope, if order == 0 { 0 } else { order | storage })
            } else {
                (Scope::Device, 0)
            };
        self.emit(
            buf.elem,
            Op::Builtin {
                builtin: Builtin::Atomic {
                    op,
                    scope,
                    semantics,
                },
                args,
            },
        );
    }

    pub(super) fn image(&mut self, s: &Seed) {
        if self.scope.images.is_empty() {
            return;
        }
        let (img, it) = self.scope.images[s.a as usize % self.scope.images.len()];
        if s.b.is_multiple_of(5) {
            // Size queries: one component (get_image_width, ...), or a 2D image's int2
            // (get_image_dim). A 3D image's get_image_dim (int4 against SPIR-V's three lanes)
            // is not a graph form yet (roundtrip/README.md).
            let i32t = self.m.int_type(32);
            let whole = it.dims() == 2 && s.c & 1 == 0;
            let (ty, component) = if whole {
                (vector_of(self.m, i32t, 2), None)
            } else {
                (i32t, Some(u32::from(s.c) % it.dims()))
            };
            self.emit(
                ty,
                Op::Builtin {
                    builtin: Builtin::Image(ImageOp::QuerySize { component }),
                    args: vec![img],
                },
            );
            if whole {
                // Not an operand of later seeds: a lane of it is the one-component query
                // (`Module::query_component`), which a seed extracting one would not be.
                self.pool.pop();
            }
            return;
        }
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
    pub(super) fn convert(&mut self, s: &Seed) {
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

    /// `async_work_group_copy` / `async_work_group_strided_copy` between a global buffer and a
    /// `__local` array, then `wait_group_events` on the event. Stride 1 is the unstrided form
    /// (the graph's), so strided copies take other strides.
    pub(super) fn async_copy(&mut self, s: &Seed) {
        let globals: Vec<Buffer> = self
            .scope
            .buffers
            .iter()
            .filter(|b| b.space == spir_xlate::ir::AddressSpace::Global)
            .copied()
            .collect();
        let Some(&buf) = globals.get(s.a as usize % globals.len().max(1)) else {
            return;
        };
        let tile_ty = self.m.ty(Type::Array {
            elem: buf.elem,
            len: 16,
        });
        let tile = self.m.globals.append(spir_xlate::ir::Global {
            name: format!("tile{}", self.m.globals.len()),
            ty: tile_ty,
            space: spir_xlate::ir::AddressSpace::Local,
            init: None,
            is_constant: false,
            align: Some(self.m.align_of(buf.elem) as u32),
            linkage: spir_xlate::ir::Linkage::Internal,
        });
        let tile_ptr_ty = self.m.ty(Type::Pointer {
            pointee: tile_ty,
            space: spir_xlate::ir::AddressSpace::Local,
        });
        let base = self.konst(Constant {
            ty: tile_ptr_ty,
            kind: ConstantKind::GlobalAddress(tile),
        });
        let size_t = self.m.size_type();
        let zero = self.constant(size_t, 9);
        let idx = self.pick_var(size_t, s.b);
        let local = self.gep(base, tile_ptr_ty, vec![zero, idx]);
        let at = self.pick_var(size_t, s.c);
        let global = self.gep(buf.ptr, buf.ptr_ty, vec![at]);
        let (dst, src) = if s.a & 2 != 0 && buf.writable {
            (global, local)
        } else {
            (local, global)
        };
        let count = if s.b & 4 == 0 {
            Value::Const(self.m.int_const(size_t, 1 + u64::from(s.c % 16)))
        } else {
            self.pick_var(size_t, s.b >> 3)
        };
        let event_t = self.m.ty(Type::Event);
        let no_event = self.konst(Constant {
            ty: event_t,
            kind: ConstantKind::Null,
        });
        let (strided, args) = match s.c % 3 {
            0 => (false, vec![dst, src, count, no_event]),
            1 => {
                let stride = Value::Const(self.m.int_const(size_t, 2 + u64::from(s.a % 4)));
                (true, vec![dst, src, count, stride, no_event])
            }
            _ => {
                let stride = self.pick_var(size_t, s.a);
                (true, vec![dst, src, count, stride, no_event])
            }
        };
        let event = self.emit(
            event_t,
            Op::Builtin {
                builtin: Builtin::AsyncCopy { strided },
                args,
            },
        );
        let slot = self.alloca(event_t, None);
        let void = self.m.void_type();
        self.emit(
            void,
            Op::Store {
                ptr: slot,
                value: event,
                align: None,
                volatile: false,
            },
        );
        let one = self.i32_const(1);
        self.emit(
            void,
            Op::Builtin {
                builtin: Builtin::WaitEvents,
                args: vec![one, slot],
            },
        );
    }

    /// cl_khr_integer_dot_product and cl_khr_extended_bit_ops: an integer dot product (plain
    /// or saturating, every sign mix) of `char4` or packed 32-bit factors into an int, or a
    /// bit-field insert, extract or reverse of an integer of the seed's type.
    pub(super) fn integer_bits(&mut self, s: &Seed) {
        use spir_xlate::ir::Primitive as S;
        let i32t = self.m.int_type(32);
        if s.a.is_multiple_of(2) {
            const DOTS: [S; 6] = [
                S::SDot,
                S::UDot,
                S::SUDot,
                S::SDotAccSat,
                S::UDotAccSat,
                S::SUDotAccSat,
            ];
            let op = DOTS[s.c as usize % DOTS.len()];
            let factor_t = if s.b & 1 == 0 {
                let i8t = self.m.int_type(8);
                vector_of(self.m, i8t, 4)
            } else {
                i32t
            };
            let mut args = vec![
                self.pick_var(factor_t, s.b),
                self.pick_var(factor_t, s.b.wrapping_add(7)),
            ];
            if op.integer_dot().is_some_and(|d| d.accumulate) {
                args.push(self.pick_var(i32t, s.c));
            }
            self.emit(
                i32t,
                Op::Builtin {
                    builtin: Builtin::Primitive(op),
                    args,
                },
            );
            return;
        }
        const BITS: [S; 4] = [
            S::BitFieldInsert,
            S::BitFieldSExtract,
            S::BitFieldUExtract,
            S::BitReverse,
        ];
        let op = BITS[s.c as usize % BITS.len()];
        let ty = self.typed(s.ty, false);
        let width = match self.m.types[self.m.scalar_of(ty)] {
            Type::Int { width } => width,
            _ => return,
        };
        let base = self.pick_var(ty, s.b);
        let offset = u64::from(s.b) % u64::from(width);
        let count = u64::from(s.a) % (u64::from(width) - offset + 1);
        let (offset, count) = (self.i32_const(offset), self.i32_const(count));
        let args = match op {
            S::BitFieldInsert => {
                let insert = self.pick_var(ty, s.b.wrapping_add(5));
                vec![base, insert, offset, count]
            }
            S::BitReverse => vec![base],
            _ => vec![base, offset, count],
        };
        self.emit(
            ty,
            Op::Builtin {
                builtin: Builtin::Primitive(op),
                args,
            },
        );
    }

    /// OpenCL C's tests (`isnan`, ..., `any`, `all`) in the graph's form: the SPIR-V boolean
    /// test, extended to OpenCL's integer result only sometimes (the SPIR reader drops an
    /// integer result nothing uses).
    pub(super) fn relational(&mut self, s: &Seed) {
        const TESTS: [spir_xlate::ir::Primitive; 5] = [
            spir_xlate::ir::Primitive::IsNan,
            spir_xlate::ir::Primitive::IsInf,
            spir_xlate::ir::Primitive::IsFinite,
            spir_xlate::ir::Primitive::IsNormal,
            spir_xlate::ir::Primitive::SignBitSet,
        ];
        let bool_t = self.m.ty(Type::Bool);
        let test = if s.a.is_multiple_of(3) {
            // any/all: the sign bit of each lane of a vector of integers.
            let ty = self.typed(s.ty, false);
            let ty = if self.m.lanes(ty) == 1 {
                vector_of(self.m, ty, 4)
            } else {
                ty
            };
            let x = self.pick_var(ty, s.b);
            let zero = Value::Const(self.m.zero_of(ty));
            let lanes_t = self.with_lanes(Type::Bool, ty);
            let neg = self.emit(
                lanes_t,
                Op::ICmp {
                    pred: spir_xlate::ir::IntPredicate::Slt,
                    lhs: x,
                    rhs: zero,
                },
            );
            let op = [
                spir_xlate::ir::Primitive::Any,
                spir_xlate::ir::Primitive::All,
            ][s.c as usize % 2];
            self.emit(
                bool_t,
                Op::Builtin {
                    builtin: Builtin::Primitive(op),
                    args: vec![neg],
                },
            )
        } else {
            let ty = self.typed(s.ty, true);
            let x = self.pick_var(ty, s.b);
            let lanes_t = self.with_lanes(Type::Bool, ty);
            self.emit(
                lanes_t,
                Op::Builtin {
                    builtin: Builtin::Primitive(TESTS[s.c as usize % TESTS.len()]),
                    args: vec![x],
                },
            )
        };
        if s.a & 8 != 0 {
            let Value::Inst(h) = test else { unreachable!() };
            let lanes = self.m.lanes(self.body.insts[h].ty);
            let int_t = self.m.int_type(32);
            let int_t = vector_of(self.m, int_t, lanes);
            let op = if lanes > 1 {
                spir_xlate::ir::CastOp::SExt
            } else {
                spir_xlate::ir::CastOp::ZExt
            };
            self.emit(int_t, Op::Cast { op, value: test });
        }
    }
}
