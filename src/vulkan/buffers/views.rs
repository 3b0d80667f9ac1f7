//! Buffer views: a pointer to a buffer cast to another pointee type under
//! `--vulkan-pointers descriptors`, where a buffer is a runtime array of one type and its
//! logical pointers cannot be reinterpreted.
//!
//! Real kernels cast buffer pointers in two ways that keep every access on the buffer's own
//! elements, and those are said here without a cast:
//!
//! * **lanes**: a `T*` seen as a vector or array of `T` (`((global float4 *)f)[i]`, what
//!   `vloadN` compiles to): an access of the view is one access per element, at the view's
//!   index times the view's stride in elements (a 3-vector takes four, as OpenCL lays it out);
//! * **puns**: a `T*` seen as a `U*` of the same size (`*(global uint *)&f[i]`, `as_type`
//!   through a pointer): an access of the view is an access of `T` and a bitcast;
//! * **components**: a pointer to a vector of 2, 4, 8 or 16 lanes seen as a pointer to its
//!   lane type (`(global float *)float4_buffer`): the view keeps a lane offset, and an access
//!   is of lane `offset % n` of element `offset / n`;
//! * **assembled**: a buffer of scalars seen as any type whose scalars are each one or more
//!   whole elements (four halves read as an `int2`, bytes as a `uint`, floats as a struct of
//!   floats): each scalar of an access is the bits of its elements, the lowest first, as
//!   OpenCL's little-endian memory holds them.
//!
//! A view is only made for a cast whose every use, through `getelementptr`s, is the pointer
//! of a load or a store, or the pointer a builtin only loads and stores through (`vloadn`,
//! `vstore_half`, `async_work_group_copy`: `casts`): any other use (a call, a phi, a store
//! of the pointer itself) would see the buffer's own type, so such a cast stays refused.
//! Anything else (a byte view of a struct buffer) needs byte addresses: physical pointers
//! keep such casts. A pointer into private or local memory takes puns alone, without a step
//! from it (`as_float(table[i])` that clang loads as a float through the element's pointer).

use crate::diag::{Error, Result};
use crate::ir::{self, AddressSpace, BinaryOp, CastOp, Handle, Op, Primitive, Type, Value};

use crate::vulkan::body::FnBuilder;
use crate::vulkan::state::{Shape, View};

/// True where every scalar of `t` (shader form) is one or more whole elements of `esize`
/// bytes at a multiple of `esize`: what an assembled view reads.
fn assemblable(m: &ir::Module, t: Handle<Type>, esize: u64) -> bool {
    let whole = |size: u64| size >= esize && size.is_multiple_of(esize);
    match &m.types[t] {
        Type::Int { .. } | Type::Float { .. } => whole(m.size_of(t)),
        Type::Vector { elem, .. } | Type::Array { elem, .. } => assemblable(m, *elem, esize),
        Type::Struct {
            members: Some(ms),
            packed,
            ..
        } => crate::vulkan::addressed::member_offsets(m, ms, *packed)
            .iter()
            .zip(ms)
            .all(|(&k, &mt)| k.is_multiple_of(esize) && assemblable(m, mt, esize)),
        _ => false,
    }
}

/// True for the types a bitcast takes: scalars and vectors of numbers.
fn punnable(m: &ir::Module, t: Handle<Type>) -> bool {
    match m.types[t] {
        Type::Int { .. } | Type::Float { .. } => true,
        Type::Vector { elem, len } => len != 3 && punnable(m, elem),
        _ => false,
    }
}

impl FnBuilder<'_, '_> {
    /// The view `v` is, if it is one.
    pub(in crate::vulkan) fn buffer_view_of(&self, v: Value) -> Option<View> {
        self.buffers.views.get(&v).copied()
    }

    /// The view of storage-buffer pointer `v` (a pointer or a view) as a pointer to the
    /// pointee of `src_ty` (a source type), or None where no view says it.
    pub(in crate::vulkan) fn buffer_view(
        &mut self,
        v: Value,
        src_ty: Handle<Type>,
    ) -> Result<Option<Value>> {
        let ty = match self.l.src.pointee(src_ty) {
            Some(p) if matches!(self.l.src.types[p], Type::Void) => return Ok(None),
            Some(p) => self.l.ty(p)?,
            None => return Ok(None),
        };
        self.buffer_view_as(v, ty)
    }

    /// The view of storage-buffer pointer `v` (a pointer or a view) as a pointer to `ty`
    /// (shader form), or None where no view says it.
    pub(in crate::vulkan) fn buffer_view_as(
        &mut self,
        v: Value,
        ty: Handle<Type>,
    ) -> Result<Option<Value>> {
        let base = match self.buffers.views.get(&v) {
            Some(view) if view.ty == ty => return Ok(Some(v)),
            // A lane offset does not carry over to another type: refused.
            Some(View { lane: Some(_), .. }) => return Ok(None),
            Some(view) => view.base,
            None if self.space_of(v) == Some(AddressSpace::StorageBuffer) => v,
            None if self.punnable_logical(v) => v,
            None => return Ok(None),
        };
        let Some(elem) = self.l.out.pointee(self.ty_of(base)) else {
            return Ok(None);
        };
        if ty == elem {
            return Ok(Some(base));
        }
        let m = &self.l.out;
        let (esize, size) = (m.size_of(elem), m.size_of(ty));
        let shape = match m.types[ty] {
            Type::Vector { elem: e, len } if e == elem => Shape::Lanes { len },
            Type::Array { elem: e, len } if e == elem && len <= 64 => {
                Shape::Lanes { len: len as u32 }
            }
            _ if size == esize && punnable(m, ty) && punnable(m, elem) => Shape::Pun,
            _ => match m.types[elem] {
                Type::Vector { elem: e, len } if e == ty && len.is_power_of_two() => {
                    let zero = self.int_const(self.l.out.addressing.pointer_bits(), 0);
                    let view = View {
                        base,
                        ty,
                        shape: Shape::Components { n: len },
                        stride: 1,
                        lane: Some(zero),
                    };
                    return Ok(Some(self.new_buffer_view(view)));
                }
                Type::Int { .. } | Type::Float { .. } if assemblable(m, ty, esize) => {
                    Shape::Assembled
                }
                _ => return Ok(None),
            },
        };
        if esize == 0 || size % esize != 0 {
            return Ok(None);
        }
        // Private and local memory: puns alone (`as_float(table[i])` loaded as a float), an
        // access of the object's own type and a bitcast.
        if self.punnable_logical(base) && !matches!(shape, Shape::Pun) {
            return Ok(None);
        }
        let view = View {
            base,
            ty,
            shape,
            stride: size / esize,
            lane: None,
        };
        Ok(Some(self.new_buffer_view(view)))
    }

    /// True for a logical pointer into private or local memory (a function's or the
    /// program's variables, a work-group's), which a view may pun without stepping.
    fn punnable_logical(&self, p: Value) -> bool {
        matches!(
            self.space_of(p),
            Some(AddressSpace::Private | AddressSpace::ModulePrivate | AddressSpace::Local)
        )
    }

    /// The type a pointer or a buffer view points to.
    pub(in crate::vulkan) fn buffer_pointee(&self, p: Value) -> Option<Handle<Type>> {
        match self.buffers.views.get(&p) {
            Some(view) => Some(view.ty),
            None => self.l.out.pointee(self.ty_of(p)),
        }
    }

    /// A value standing for `view` (a copy of its base pointer) that loads, stores and
    /// getelementptrs recognize.
    fn new_buffer_view(&mut self, view: View) -> Value {
        let t = self.ty_of(view.base);
        let v = self.push(
            t,
            Op::Builtin {
                builtin: ir::Builtin::Primitive(Primitive::CopyObject),
                args: vec![view.base],
            },
        );
        self.buffers.views.insert(v, view);
        v
    }

    /// The buffer pointer `k` elements past the view's base.
    fn lane(&mut self, base: Value, k: u64) -> Result<Value> {
        if k == 0 {
            return Ok(base);
        }
        let i = self.int_const(self.l.out.addressing.pointer_bits(), k);
        self.gep(base, vec![i], true)
    }

    /// A load through a view.
    pub(in crate::vulkan) fn view_load(&mut self, view: View, volatile: bool) -> Result<Value> {
        match view.shape {
            Shape::Pun => {
                let x = self.load(view.base, None, volatile)?;
                Ok(self.cast_to(CastOp::Bitcast, view.ty, x))
            }
            Shape::Lanes { len } => {
                let mut agg = self.undef(view.ty);
                for k in 0..len {
                    let p = self.lane(view.base, k as u64)?;
                    let x = self.load(p, None, volatile)?;
                    agg = self.insert_part(view.ty, agg, x, k);
                }
                Ok(agg)
            }
            Shape::Components { n } => {
                let p = self.component(view, n)?;
                self.load(p, None, volatile)
            }
            Shape::Assembled => self.assembled_read(view.base, 0, view.ty, volatile),
        }
    }

    /// A store through a view.
    pub(in crate::vulkan) fn view_store(
        &mut self,
        view: View,
        value: Value,
        volatile: bool,
    ) -> Result<()> {
        match view.shape {
            Shape::Pun => {
                let elem =
                    self.l.out.pointee(self.ty_of(view.base)).ok_or_else(|| {
                        Error::internal("a buffer view whose base is not a pointer")
                    })?;
                let x = self.cast_to(CastOp::Bitcast, elem, value);
                self.store(view.base, x, None, volatile)
            }
            Shape::Lanes { len } => {
                let lane_ty = match self.l.out.types[view.ty] {
                    Type::Vector { elem, .. } | Type::Array { elem, .. } => elem,
                    _ => return Err(Error::internal("a lanes view of a non-aggregate")),
                };
                for k in 0..len {
                    let p = self.lane(view.base, k as u64)?;
                    let x = self.extract_part(view.ty, value, lane_ty, k);
                    self.store(p, x, None, volatile)?;
                }
                Ok(())
            }
            Shape::Components { n } => {
                let p = self.component(view, n)?;
                self.store(p, value, None, volatile)
            }
            Shape::Assembled => self.assembled_write(view.base, 0, value, view.ty, volatile),
        }
    }

    /// The buffer's element type and its size in bits, for an assembled view on `base`.
    fn scalar_elem(&self, base: Value) -> Result<(Handle<Type>, u32)> {
        let elem = self
            .l
            .out
            .pointee(self.ty_of(base))
            .ok_or_else(|| Error::internal("a buffer view whose base is not a pointer"))?;
        match self.l.out.types[elem] {
            Type::Int { width } | Type::Float { width } => Ok((elem, width)),
            _ => Err(Error::internal(
                "an assembled view of a buffer of non-scalars",
            )),
        }
    }

    /// A value of type `t` assembled from the elements from `k` past `base` on.
    fn assembled_read(
        &mut self,
        base: Value,
        k: u64,
        t: Handle<Type>,
        volatile: bool,
    ) -> Result<Value> {
        let (_, ew) = self.scalar_elem(base)?;
        let width = match self.l.out.types[t] {
            Type::Int { width } | Type::Float { width } => width,
            _ => {
                let mut agg = self.undef(t);
                for (i, (off, pt)) in self.parts(t)?.into_iter().enumerate() {
                    let x = self.assembled_read(base, k + off * 8 / u64::from(ew), pt, volatile)?;
                    agg = self.insert_part(t, agg, x, i as u32);
                }
                return Ok(agg);
            }
        };
        if width == ew {
            let p = self.lane(base, k)?;
            let x = self.load(p, None, volatile)?;
            return Ok(self.bitcast(t, x));
        }
        let (it, et) = (self.l.out.int_type(width), self.l.out.int_type(ew));
        let mut acc = self.int_const(width, 0);
        for j in 0..u64::from(width / ew) {
            let p = self.lane(base, k + j)?;
            let x = self.load(p, None, volatile)?;
            let x = self.bitcast(et, x);
            let x = self.cast_to(CastOp::ZExt, it, x);
            let sh = self.int_const(width, j * u64::from(ew));
            let x = self.bin32(BinaryOp::Shl, it, x, sh);
            acc = self.bin32(BinaryOp::Or, it, acc, x);
        }
        Ok(self.bitcast(t, acc))
    }

    /// `x` as type `t` (of its size), cast only where its type differs.
    fn bitcast(&mut self, t: Handle<Type>, x: Value) -> Value {
        if self.ty_of(x) == t {
            x
        } else {
            self.cast_to(CastOp::Bitcast, t, x)
        }
    }

    /// Store `value` of type `t` into the elements from `k` past `base` on.
    fn assembled_write(
        &mut self,
        base: Value,
        k: u64,
        value: Value,
        t: Handle<Type>,
        volatile: bool,
    ) -> Result<()> {
        let (elem, ew) = self.scalar_elem(base)?;
        let width = match self.l.out.types[t] {
            Type::Int { width } | Type::Float { width } => width,
            _ => {
                for (i, (off, pt)) in self.parts(t)?.into_iter().enumerate() {
                    let x = self.extract_part(t, value, pt, i as u32);
                    self.assembled_write(base, k + off * 8 / u64::from(ew), x, pt, volatile)?;
                }
                return Ok(());
            }
        };
        if width == ew {
            let p = self.lane(base, k)?;
            let x = self.bitcast(elem, value);
            return self.store(p, x, None, volatile);
        }
        let (it, et) = (self.l.out.int_type(width), self.l.out.int_type(ew));
        let bits = self.bitcast(it, value);
        for j in 0..u64::from(width / ew) {
            let sh = self.int_const(width, j * u64::from(ew));
            let x = self.bin32(BinaryOp::LShr, it, bits, sh);
            let x = self.cast_to(CastOp::Trunc, et, x);
            let x = self.bitcast(elem, x);
            let p = self.lane(base, k + j)?;
            self.store(p, x, None, volatile)?;
        }
        Ok(())
    }

    /// A pointer to the lane a components view points to: lane `offset % n` of element
    /// `offset / n` past its base.
    fn component(&mut self, view: View, n: u32) -> Result<Value> {
        let lane = view
            .lane
            .ok_or_else(|| Error::internal("a components view without its lane offset"))?;
        let bits = self.l.out.addressing.pointer_bits();
        let t = self.l.out.int_type(bits);
        let shift = self.int_const(bits, u64::from(n.trailing_zeros()));
        let mask = self.int_const(bits, u64::from(n - 1));
        let element = self.bin32(BinaryOp::LShr, t, lane, shift);
        let which = self.bin32(BinaryOp::And, t, lane, mask);
        let p = self.gep(view.base, vec![element], true)?;
        let zero = self.int_const(bits, 0);
        self.gep(p, vec![zero, which], true)
    }

    /// `getelementptr` on a view: a view of another element of the view's type, or (a
    /// second index into lanes) a pointer to one buffer element.
    pub(in crate::vulkan) fn buffer_view_gep(
        &mut self,
        view: View,
        indices: &[Value],
    ) -> Result<Value> {
        let refuse = || {
            Error::unsupported(
                "a getelementptr into a buffer pointer cast to another type other than by \
                 whole elements or lanes (under --vulkan-pointers descriptors a buffer is an \
                 array of one type; physical keeps such casts)",
            )
        };
        let (&first, rest) = indices.split_first().ok_or_else(refuse)?;
        if let (Some(lane), []) = (view.lane, rest) {
            let step = self.widened_index(first);
            let t = self.ty_of(lane);
            let lane = self.bin32(BinaryOp::Add, t, lane, step);
            return Ok(self.new_buffer_view(View {
                lane: Some(lane),
                ..view
            }));
        }
        if view.lane.is_some() {
            return Err(refuse());
        }
        // A step from a pun of a private or local object would leave the object.
        if self.punnable_logical(view.base) && !(self.is_zero(first) && rest.is_empty()) {
            return Err(Error::unsupported(
                "a getelementptr into a pointer to private or local memory cast to another \
                 type (a Vulkan shader's logical pointers keep their type)",
            ));
        }
        if let (Shape::Assembled, false) = (view.shape, rest.is_empty()) {
            return self.assembled_gep(view, indices);
        }
        let steps = self.scaled(first, view.stride);
        let base = if self.is_zero(first) {
            view.base
        } else {
            self.gep(view.base, vec![steps], true)?
        };
        match (rest, view.shape) {
            ([], _) => Ok(self.new_buffer_view(View { base, ..view })),
            ([lane], Shape::Lanes { .. }) => {
                let lane = self.widened_index(*lane);
                if self.is_zero(lane) {
                    return Ok(base);
                }
                self.gep(base, vec![lane], true)
            }
            _ => Err(refuse()),
        }
    }

    /// `getelementptr` into a part of an assembled view's type: the part's first element,
    /// as a plain pointer where the part is one element, else as a view of the part.
    fn assembled_gep(&mut self, view: View, indices: &[Value]) -> Result<Value> {
        let zero = self.u32_const(0);
        let (off, t) = self.offset_gep(zero, view.ty, indices)?;
        let (elem, ew) = self.scalar_elem(view.base)?;
        let u32t = self.u32t();
        let shift = self.u32_const(u64::from((ew / 8).trailing_zeros()));
        let k = self.bin32(BinaryOp::LShr, u32t, off, shift);
        let bits = self.l.out.addressing.pointer_bits();
        let k = if bits > 32 {
            let wide = self.l.out.int_type(bits);
            self.cast_to(CastOp::ZExt, wide, k)
        } else {
            k
        };
        let base = self.gep(view.base, vec![k], true)?;
        if t == elem {
            return Ok(base);
        }
        let stride = self.l.out.size_of(t) / u64::from(ew / 8);
        Ok(self.new_buffer_view(View {
            base,
            ty: t,
            shape: Shape::Assembled,
            stride,
            lane: None,
        }))
    }

    /// `i * k`, in `i`'s type.
    fn scaled(&mut self, i: Value, k: u64) -> Value {
        if k == 1 {
            return i;
        }
        let t = self.ty_of(i);
        let width = match self.l.out.types[t] {
            Type::Int { width } => width,
            _ => 64,
        };
        let k = self.int_const(width, k);
        self.bin32(BinaryOp::Mul, t, i, k)
    }

    /// A getelementptr index as a pointer-wide integer (indices are signed).
    fn widened_index(&mut self, i: Value) -> Value {
        let bits = self.l.out.addressing.pointer_bits();
        let t = self.l.out.int_type(bits);
        let narrow = matches!(self.l.out.types[self.ty_of(i)], Type::Int { width } if width < bits);
        self.widen(i, t, narrow)
    }
}
