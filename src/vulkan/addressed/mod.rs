//! Addressed memory: the memory model of a kernel whose private (or local) pointers do what
//! a Vulkan shader's logical pointers cannot — cast to another pointee type (`as_*` through
//! a pointer, byte views, a float tile read as float4), stepped past the element they point
//! to, selected or merged by a phi, kept in variables, copied or filled as bytes.
//!
//! Such a kernel (the lowering tries the logical model first and comes here only where that
//! refuses a construct: `vulkan::lower_kernel`) keeps every private object in one array of
//! 32-bit words, the *arena*, a Function variable; a pointer to private memory is a byte
//! offset into it, a 32-bit integer, so pointers can be cast, stepped, compared, selected
//! and stored like numbers. Local memory, where it is addressed too, is one Workgroup array
//! of words (`local_region.rs`) read and written by the same code (`space` says which).
//! Loads and stores of any type are assembled from words in OpenCL's layout (the graph's
//! `size_of`/`align_of`), little-endian as OpenCL devices are:
//!
//! * a 32-bit scalar is one word, a 64-bit one two (low word first);
//! * an 8- or 16-bit scalar is a part of one word: read, shift and mask; a store replaces
//!   its part — in the arena by reading and writing the word back (exact: the arena is the
//!   work-item's own), in local memory by an atomic and and or of its bits (other
//!   work-items may store the word's other bytes meanwhile);
//! * a scalar whose stated alignment is below its size (packed structs) goes byte by byte;
//! * vectors, arrays and structs go part by part at their offsets; a pointer to a buffer
//!   is its 64-bit address.
//!
//! The arena's first `RESERVED` bytes hold no object, so that no object is at address 0,
//! the null pointer. Its length is fixed once the kernel is lowered (`finish_arena`). The
//! kernel's opaque objects (images and samplers that -O0 keeps in variables) are not in it.
//!
//! Builtins that take pointers get views of them (`views.rs`); copies and fills
//! are `copy.rs`.

mod copy;
pub(super) mod local_region;
mod views;

use crate::diag::{Error, Result};
use crate::ir::{AddressSpace, BinaryOp, CastOp, Constant, ConstantKind, Handle, Op, Type, Value};

use super::body::FnBuilder;
use super::state::Arena;

/// The arena's name in the module (OpName), for readers of the SPIR-V.
pub(super) const ARENA_NAME: &str = "private.memory";

/// Bytes at the start of the arena that no object takes (address 0 is the null pointer).
pub(super) const RESERVED: u64 = 8;

/// The byte offset of each member of a struct of `members` in OpenCL's layout.
pub(super) fn member_offsets(
    m: &crate::ir::Module,
    members: &[Handle<Type>],
    packed: bool,
) -> Vec<u64> {
    let mut at = 0u64;
    let mut out = Vec::with_capacity(members.len());
    for &t in members {
        let a = if packed { 1 } else { m.align_of(t).max(1) };
        at = at.div_ceil(a) * a;
        out.push(at);
        at += m.size_of(t);
    }
    out
}

/// The alignment known of a part `k` bytes past an address aligned to `align`.
fn part_align(align: u64, k: u64) -> u64 {
    if k == 0 {
        align
    } else {
        align.min(1 << k.trailing_zeros())
    }
}

impl FnBuilder<'_, '_> {
    pub(super) fn u32t(&mut self) -> Handle<Type> {
        self.l.out.int_type(32)
    }

    pub(super) fn u32_const(&mut self, v: u64) -> Value {
        self.int_const(32, v & 0xffff_ffff)
    }

    /// Binary operation `op` of `a` and `b`, of type `t` (any width, despite the name).
    pub(super) fn bin32(&mut self, op: BinaryOp, t: Handle<Type>, a: Value, b: Value) -> Value {
        self.push(
            t,
            Op::Binary {
                op,
                lhs: a,
                rhs: b,
                flags: Default::default(),
            },
        )
    }

    pub(super) fn cast_to(&mut self, op: CastOp, t: Handle<Type>, v: Value) -> Value {
        self.push(t, Op::Cast { op, value: v })
    }

    /// The arena's variable, made with the first object.
    fn arena_var(&mut self) -> Result<Value> {
        if let Some(a) = &self.addressed.arena {
            return Ok(Value::Inst(a.var));
        }
        let u32t = self.u32t();
        let one = self.l.out.ty(Type::Array { elem: u32t, len: 1 });
        let Value::Inst(var) = self.alloca(one) else {
            return Err(Error::internal("the arena is not an instruction"));
        };
        self.body.insts[var].name = Some(ARENA_NAME.into());
        self.addressed.arena = Some(Arena {
            var,
            bytes: RESERVED,
        });
        Ok(Value::Inst(var))
    }

    /// Room for an object of type `t`: its offset.
    pub(super) fn arena_alloc(&mut self, t: Handle<Type>, align: Option<u32>) -> Result<Value> {
        self.arena_var()?;
        let a = self
            .l
            .out
            .align_of(t)
            .max(u64::from(align.unwrap_or(1)))
            .max(1);
        let size = self.l.out.size_of(t);
        let arena = self
            .addressed
            .arena
            .as_mut()
            .ok_or_else(|| Error::internal("no arena"))?;
        let at = arena.bytes.div_ceil(a) * a;
        arena.bytes = at + size;
        if arena.bytes > u64::from(u32::MAX / 2) {
            return Err(Error::unsupported(
                "more than 2 GiB of private memory in one work-item",
            ));
        }
        Ok(self.u32_const(at))
    }

    /// The offset of the kernel's copy of program-scope private data `g` (a string
    /// literal, a `static` table) in the arena, made on its first use: its initializer is
    /// written at the end of the kernel's entry block, which runs once, before any block
    /// that can use it.
    pub(super) fn private_copy(&mut self, g: Handle<crate::ir::Global>) -> Result<Value> {
        if let Some(&at) = self.addressed.private_copies.get(&g) {
            return Ok(at);
        }
        let glob = &self.l.src.globals[g];
        let (ty, align, init) = (glob.ty, glob.align, glob.init);
        let t = self.l.ty(ty)?;
        let at = self.arena_alloc(t, align)?;
        self.addressed.private_copies.insert(g, at);
        if let Some(init) = init {
            let here = std::mem::replace(&mut self.cur, 0);
            let written = self.constant(init).and_then(|v| {
                if self.ty_of(v) != t {
                    // A program-scope `__constant` table is a copy in each invocation's
                    // Private memory (`program_scope`): a logical pointer, not an address.
                    return Err(Error::unsupported(
                        "the address of a program-scope constant table kept in program-scope \
                         private data (the table is a copy in each invocation, without an \
                         address to keep)",
                    ));
                }
                let a = self.stated_align(align, t);
                self.addressed_write(AddressSpace::Private, at, v, t, a)
            });
            self.cur = here;
            written?;
        }
        Ok(at)
    }

    /// Give the arena its length, now that every object has its place.
    pub(super) fn finish_arena(&mut self) {
        let Some(a) = self.addressed.arena.take() else {
            return;
        };
        let u32t = self.u32t();
        let words = self.l.out.ty(Type::Array {
            elem: u32t,
            len: a.bytes.div_ceil(4),
        });
        let pt = self.l.out.ty(Type::Pointer {
            pointee: words,
            space: AddressSpace::Private,
        });
        let inst = &mut self.body.insts[a.var];
        inst.ty = pt;
        inst.op = Op::Alloca {
            allocated: words,
            align: None,
        };
    }

    /// The alignment a memory access states, else the natural one of `t`.
    pub(super) fn stated_align(&self, align: Option<u32>, t: Handle<Type>) -> u64 {
        align.map_or_else(|| self.l.out.align_of(t).max(1), u64::from)
    }

    /// `off + k`, folded where `off` is a constant.
    pub(super) fn offset_by(&mut self, off: Value, k: u64) -> Value {
        if k == 0 {
            return off;
        }
        if let Value::Const(c) = off {
            if let ConstantKind::Int(v) = self.l.out.constants[c].kind {
                return self.u32_const(v.wrapping_add(k));
            }
        }
        let u32t = self.u32t();
        let kk = self.u32_const(k);
        self.bin32(BinaryOp::Add, u32t, off, kk)
    }

    /// An integer value as a 32-bit one (offsets wrap modulo 2^32, as the arena's do).
    fn as_u32(&mut self, v: Value) -> Value {
        let t = self.ty_of(v);
        let u32t = self.u32t();
        match self.l.out.types[t] {
            Type::Int { width } if width > 32 => self.cast_to(CastOp::Trunc, u32t, v),
            Type::Int { width } if width < 32 => self.cast_to(CastOp::SExt, u32t, v),
            _ => v,
        }
    }

    /// `off + i * stride`, folded where `i` is a constant.
    pub(super) fn offset_scaled(&mut self, off: Value, i: Value, stride: u64) -> Value {
        if let Value::Const(c) = i {
            if let ConstantKind::Int(v) = self.l.out.constants[c].kind {
                let k = (v as u32).wrapping_mul(stride as u32);
                return self.offset_by(off, u64::from(k));
            }
        }
        let i = self.as_u32(i);
        let u32t = self.u32t();
        let s = self.u32_const(stride);
        let scaled = self.bin32(BinaryOp::Mul, u32t, i, s);
        self.bin32(BinaryOp::Add, u32t, off, scaled)
    }

    /// A pointer to word `off / 4` of addressed memory in `space` (the private arena, or
    /// the kernel's one region of local memory).
    pub(super) fn word_at(&mut self, space: AddressSpace, off: Value) -> Result<Value> {
        let var = match space {
            AddressSpace::Local => self
                .addressed
                .local_base
                .ok_or_else(|| Error::internal("addressed local memory without its region"))?,
            _ => self.arena_var()?,
        };
        let u32t = self.u32t();
        let two = self.u32_const(2);
        let index = self.bin32(BinaryOp::LShr, u32t, off, two);
        let zero = self.u32_const(0);
        let pt = self.l.out.ty(Type::Pointer {
            pointee: u32t,
            space,
        });
        Ok(self.push(
            pt,
            Op::Gep {
                inbounds: true,
                base: var,
                indices: vec![zero, index],
            },
        ))
    }

    fn load_word(&mut self, space: AddressSpace, off: Value) -> Result<Value> {
        let p = self.word_at(space, off)?;
        let u32t = self.u32t();
        Ok(self.push(
            u32t,
            Op::Load {
                ptr: p,
                align: None,
                volatile: false,
            },
        ))
    }

    fn store_word(&mut self, space: AddressSpace, off: Value, v: Value) -> Result<()> {
        let p = self.word_at(space, off)?;
        let void = self.void();
        self.push(
            void,
            Op::Store {
                ptr: p,
                value: v,
                align: None,
                volatile: false,
            },
        );
        Ok(())
    }

    /// A relaxed atomic `op` of `v` on the word `p` points to, at work-group scope.
    fn word_atomic(&mut self, op: crate::ir::AtomicOp, p: Value, v: Value) {
        let u32t = self.u32t();
        self.push(
            u32t,
            Op::Builtin {
                builtin: crate::ir::Builtin::Atomic {
                    op,
                    scope: spirv::Scope::Workgroup,
                    semantics: 0,
                },
                args: vec![p, v],
            },
        );
    }

    /// The shift of the byte at `off` within its word, in bits.
    fn bit_shift(&mut self, off: Value) -> Value {
        let u32t = self.u32t();
        let three = self.u32_const(3);
        let byte = self.bin32(BinaryOp::And, u32t, off, three);
        self.bin32(BinaryOp::Shl, u32t, byte, three)
    }

    /// The bits of a scalar of `width` bits at `off` (an integer of that width).
    pub(super) fn read_bits(
        &mut self,
        space: AddressSpace,
        off: Value,
        width: u32,
        align: u64,
    ) -> Result<Value> {
        let it = self.l.out.int_type(width);
        let u32t = self.u32t();
        Ok(match width {
            32 if align >= 4 => self.load_word(space, off)?,
            64 if align >= 4 => {
                let lo = self.load_word(space, off)?;
                let o4 = self.offset_by(off, 4);
                let hi = self.load_word(space, o4)?;
                let lo = self.cast_to(CastOp::ZExt, it, lo);
                let hi = self.cast_to(CastOp::ZExt, it, hi);
                let k = self.int_const(64, 32);
                let hi = self.bin32(BinaryOp::Shl, it, hi, k);
                self.bin32(BinaryOp::Or, it, hi, lo)
            }
            8 | 16 if width == 8 || align >= 2 => {
                let w = self.load_word(space, off)?;
                let sh = self.bit_shift(off);
                let x = self.bin32(BinaryOp::LShr, u32t, w, sh);
                self.cast_to(CastOp::Trunc, it, x)
            }
            16 | 32 | 64 => {
                // Below its alignment: byte by byte, the lowest first.
                let mut acc = self.int_const(width, 0);
                for j in 0..u64::from(width / 8) {
                    let o = self.offset_by(off, j);
                    let b = self.read_bits(space, o, 8, 1)?;
                    let b = self.cast_to(CastOp::ZExt, it, b);
                    let k = self.int_const(width, 8 * j);
                    let b = self.bin32(BinaryOp::Shl, it, b, k);
                    acc = self.bin32(BinaryOp::Or, it, acc, b);
                }
                acc
            }
            _ => {
                return Err(Error::unsupported(format!(
                    "a {width}-bit integer in addressed private memory"
                )))
            }
        })
    }

    /// Store the bits `v` (an integer of `width` bits) at `off`.
    pub(super) fn write_bits(
        &mut self,
        space: AddressSpace,
        off: Value,
        v: Value,
        width: u32,
        align: u64,
    ) -> Result<()> {
        let it = self.l.out.int_type(width);
        let u32t = self.u32t();
        match width {
            32 if align >= 4 => self.store_word(space, off, v),
            64 if align >= 4 => {
                let lo = self.cast_to(CastOp::Trunc, u32t, v);
                let k = self.int_const(64, 32);
                let hi = self.bin32(BinaryOp::LShr, it, v, k);
                let hi = self.cast_to(CastOp::Trunc, u32t, hi);
                self.store_word(space, off, lo)?;
                let o4 = self.offset_by(off, 4);
                self.store_word(space, o4, hi)
            }
            8 | 16 if width == 8 || align >= 2 => {
                let sh = self.bit_shift(off);
                let ones = self.u32_const((1u64 << width) - 1);
                let mask = self.bin32(BinaryOp::Shl, u32t, ones, sh);
                let all = self.u32_const(u64::from(u32::MAX));
                let keep_mask = self.bin32(BinaryOp::Xor, u32t, mask, all);
                let x = self.cast_to(CastOp::ZExt, u32t, v);
                let x = self.bin32(BinaryOp::Shl, u32t, x, sh);
                if space == AddressSpace::Local {
                    // Other work-items may store the word's other bytes meanwhile: clear
                    // and set this part's bits atomically, touching no other bits.
                    let p = self.word_at(space, off)?;
                    self.word_atomic(crate::ir::AtomicOp::And, p, keep_mask);
                    self.word_atomic(crate::ir::AtomicOp::Or, p, x);
                    return Ok(());
                }
                let w = self.load_word(space, off)?;
                let keep = self.bin32(BinaryOp::And, u32t, w, keep_mask);
                let new = self.bin32(BinaryOp::Or, u32t, keep, x);
                self.store_word(space, off, new)
            }
            16 | 32 | 64 => {
                let u8t = self.l.out.int_type(8);
                for j in 0..u64::from(width / 8) {
                    let k = self.int_const(width, 8 * j);
                    let b = self.bin32(BinaryOp::LShr, it, v, k);
                    let b = self.cast_to(CastOp::Trunc, u8t, b);
                    let o = self.offset_by(off, j);
                    self.write_bits(space, o, b, 8, 1)?;
                }
                Ok(())
            }
            _ => Err(Error::unsupported(format!(
                "a {width}-bit integer in addressed private memory"
            ))),
        }
    }

    /// A value of type `t` read from addressed memory in `space` at `off`, whose alignment
    /// is `align`.
    pub(super) fn addressed_read(
        &mut self,
        space: AddressSpace,
        off: Value,
        t: Handle<Type>,
        align: u64,
    ) -> Result<Value> {
        match self.l.out.types[t].clone() {
            Type::Int { width } => self.read_bits(space, off, width, align),
            Type::Float { width } => {
                let bits = self.read_bits(space, off, width, align)?;
                Ok(self.cast_to(CastOp::Bitcast, t, bits))
            }
            Type::Pointer {
                space: AddressSpace::PhysicalStorageBuffer,
                ..
            } => {
                let bits = self.read_bits(space, off, 64, align)?;
                Ok(self.cast_to(CastOp::IntToPtr, t, bits))
            }
            _ => {
                let parts = self.parts(t)?;
                let mut v = self.undef(t);
                for (i, &(k, pt)) in parts.iter().enumerate() {
                    let o = self.offset_by(off, k);
                    let x = self.addressed_read(space, o, pt, part_align(align, k))?;
                    v = self.insert_part(t, v, x, i as u32);
                }
                Ok(v)
            }
        }
    }
    /// Store `v` of type `t` at `off` in addressed memory in `space`, whose alignment is
    /// `align`.
    pub(super) fn addressed_write(
        &mut self,
        space: AddressSpace,
        off: Value,
        v: Value,
        t: Handle<Type>,
        align: u64,
    ) -> Result<()> {
        match self.l.out.types[t].clone() {
            Type::Int { width } => self.write_bits(space, off, v, width, align),
            Type::Float { width } => {
                let it = self.l.out.int_type(width);
                let bits = self.cast_to(CastOp::Bitcast, it, v);
                self.write_bits(space, off, bits, width, align)
            }
            Type::Pointer {
                space: AddressSpace::PhysicalStorageBuffer,
                ..
            } => {
                let u64t = self.l.out.int_type(64);
                let bits = self.cast_to(CastOp::PtrToInt, u64t, v);
                self.write_bits(space, off, bits, 64, align)
            }
            _ => {
                let parts = self.parts(t)?;
                for (i, &(k, pt)) in parts.iter().enumerate() {
                    let x = self.extract_part(t, v, pt, i as u32);
                    let o = self.offset_by(off, k);
                    self.addressed_write(space, o, x, pt, part_align(align, k))?;
                }
                Ok(())
            }
        }
    }

    /// The parts of an aggregate `t` in memory: (byte offset, type) of each lane, element or
    /// member, in order.
    pub(super) fn parts(&self, t: Handle<Type>) -> Result<Vec<(u64, Handle<Type>)>> {
        let m = &self.l.out;
        Ok(match &m.types[t] {
            Type::Vector { elem, len } => {
                let step = m.size_of(*elem);
                (0..u64::from(*len)).map(|i| (i * step, *elem)).collect()
            }
            Type::Array { elem, len } => {
                let step = m.size_of(*elem);
                (0..*len).map(|i| (i * step, *elem)).collect()
            }
            Type::Struct {
                members: Some(ms),
                packed,
                ..
            } => member_offsets(m, ms, *packed)
                .into_iter()
                .zip(ms.clone())
                .collect(),
            Type::Pointer {
                space: AddressSpace::StorageBuffer,
                ..
            } => {
                return Err(Error::unsupported(
                    "a pointer to a buffer kept in private memory that needs byte addresses \
                     (under --vulkan-pointers descriptors a buffer has no address; physical \
                     gives it one)",
                ))
            }
            _ => {
                return Err(Error::unsupported(
                    "a pointer to local memory or an OpenCL object (image, sampler, event) \
                     kept in private memory that needs byte addresses",
                ))
            }
        })
    }

    /// Aggregate `agg` of type `t` with part `i` replaced by `x`.
    pub(super) fn insert_part(&mut self, t: Handle<Type>, agg: Value, x: Value, i: u32) -> Value {
        let op = if matches!(self.l.out.types[t], Type::Vector { .. }) {
            let index = self.int_const(32, u64::from(i));
            Op::InsertElement {
                vector: agg,
                element: x,
                index,
            }
        } else {
            Op::InsertValue {
                aggregate: agg,
                element: x,
                indices: vec![i],
            }
        };
        self.push(t, op)
    }

    /// Part `i` (of type `pt`) of aggregate `agg` of type `t`.
    pub(super) fn extract_part(
        &mut self,
        t: Handle<Type>,
        agg: Value,
        pt: Handle<Type>,
        i: u32,
    ) -> Value {
        let op = if matches!(self.l.out.types[t], Type::Vector { .. }) {
            let index = self.int_const(32, u64::from(i));
            Op::ExtractElement { vector: agg, index }
        } else {
            Op::ExtractValue {
                aggregate: agg,
                indices: vec![i],
            }
        };
        self.push(pt, op)
    }

    pub(super) fn undef(&mut self, t: Handle<Type>) -> Value {
        Value::Const(self.l.out.constant(Constant {
            ty: t,
            kind: ConstantKind::Undef,
        }))
    }

    /// A `getelementptr` on an addressed pointer: the offset of the element, from the
    /// indices' steps over the pointee `src_base` (a source pointer type) points to.
    pub(super) fn arena_gep(
        &mut self,
        off: Value,
        src_base: Handle<Type>,
        indices: &[Value],
    ) -> Result<Value> {
        let pointee = match self.l.src.pointee(src_base) {
            Some(p) if matches!(self.l.src.types[p], Type::Void) => self.l.out.int_type(8),
            Some(p) => self.l.ty(p)?,
            None => return Err(Error::internal("a getelementptr on a non-pointer")),
        };
        Ok(self.offset_gep(off, pointee, indices)?.0)
    }

    /// The offset `indices` step to from `off`, which points to a `pointee` (shader form),
    /// and the type there.
    pub(super) fn offset_gep(
        &mut self,
        off: Value,
        pointee: Handle<Type>,
        indices: &[Value],
    ) -> Result<(Value, Handle<Type>)> {
        let Some((&first, rest)) = indices.split_first() else {
            return Ok((off, pointee));
        };
        let size = self.l.out.size_of(pointee);
        let mut off = self.offset_scaled(off, first, size);
        let mut cur = pointee;
        for &i in rest {
            match self.l.out.types[cur].clone() {
                Type::Array { elem, .. } | Type::Vector { elem, .. } => {
                    let step = self.l.out.size_of(elem);
                    off = self.offset_scaled(off, i, step);
                    cur = elem;
                }
                Type::Struct {
                    members: Some(ms),
                    packed,
                    ..
                } => {
                    let k = self.l.out.const_indices(&[i])[0].map_or(usize::MAX, |k| k as usize);
                    let offsets = member_offsets(&self.l.out, &ms, packed);
                    let (Some(&at), Some(&mt)) = (offsets.get(k), ms.get(k)) else {
                        return Err(Error::internal(
                            "a getelementptr into a struct without a constant member index",
                        ));
                    };
                    off = self.offset_by(off, at);
                    cur = mt;
                }
                _ => {
                    return Err(Error::internal(
                        "a getelementptr whose indices do not fit its type",
                    ))
                }
            }
        }
        Ok((off, cur))
    }

    /// A cast from or to an addressed pointer (`from` and `to` are source types).
    pub(super) fn addressed_cast(
        &mut self,
        op: CastOp,
        v: Value,
        from: Handle<Type>,
        to: Handle<Type>,
    ) -> Result<Value> {
        let (a, b) = (self.l.is_addressed(from), self.l.is_addressed(to));
        match op {
            CastOp::Bitcast if a && b => Ok(v),
            CastOp::PtrToInt if a => {
                let t = self.l.ty(to)?;
                Ok(match self.l.out.types[t] {
                    Type::Int { width } if width > 32 => self.cast_to(CastOp::ZExt, t, v),
                    Type::Int { width } if width < 32 => self.cast_to(CastOp::Trunc, t, v),
                    _ => v,
                })
            }
            CastOp::IntToPtr if b => {
                let u32t = self.u32t();
                Ok(match self.l.out.types[self.ty_of(v)] {
                    Type::Int { width } if width > 32 => self.cast_to(CastOp::Trunc, u32t, v),
                    Type::Int { width } if width < 32 => self.cast_to(CastOp::ZExt, u32t, v),
                    _ => v,
                })
            }
            CastOp::AddrSpaceCast => Err(Error::unsupported(
                "an address-space cast (generic pointers have no Vulkan form yet)",
            )),
            _ => Err(Error::unsupported(
                "a cast between a pointer to private memory and a pointer to an OpenCL object",
            )),
        }
    }
}
