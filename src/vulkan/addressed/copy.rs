//! Copies and fills where either side is addressed memory (`addressed`): byte by byte, or
//! element by element where the other side is typed memory that has no bytes to address (a
//! storage buffer under `--vulkan-pointers descriptors`, a typed local array).

use crate::diag::{Error, Result};
use crate::ir::{AddressSpace, CastOp, ConstantKind, Handle, Type, Value};

use crate::vulkan::body::FnBuilder;
use crate::vulkan::state::Side;

/// The most elements a typed copy writes out one by one; more go through a loop.
const UNROLLED_ELEMENTS: u64 = 64;

impl FnBuilder<'_, '_> {
    fn side_byte_pointer(&mut self, p: Value, i: Value) -> Result<Value> {
        if self.space_of(p) == Some(AddressSpace::PhysicalStorageBuffer) {
            let u8t = self.l.out.int_type(8);
            let bt = self.l.out.ty(Type::Pointer {
                pointee: u8t,
                space: AddressSpace::PhysicalStorageBuffer,
            });
            let b = self.cast_to(CastOp::Bitcast, bt, p);
            return self.gep(b, vec![i], true);
        }
        if self.is_byte_object(p) {
            return self.byte_at(p, i);
        }
        Err(Error::unsupported(
            "a byte copy between addressed private or local memory and typed memory (a \
             buffer under --vulkan-pointers descriptors, or a local array)",
        ))
    }

    fn side_read_byte(&mut self, s: Side, i: Value) -> Result<Value> {
        match s {
            Side::Addressed(space, off) => {
                let o = self.offset_scaled(off, i, 1);
                self.read_bits(space, o, 8, 1)
            }
            Side::Pointer(p) => {
                let q = self.side_byte_pointer(p, i)?;
                self.load(q, Some(1), false)
            }
        }
    }

    fn side_write_byte(&mut self, s: Side, i: Value, b: Value) -> Result<()> {
        match s {
            Side::Addressed(space, off) => {
                let o = self.offset_scaled(off, i, 1);
                self.write_bits(space, o, b, 8, 1)
            }
            Side::Pointer(p) => {
                let q = self.side_byte_pointer(p, i)?;
                self.store(q, b, Some(1), false)
            }
        }
    }

    /// `memcpy` where either side is addressed memory: byte by byte, or element by element
    /// where the other side has no byte addresses (`typed_copy`).
    pub(in crate::vulkan) fn addressed_copy(
        &mut self,
        dst: Side,
        src: Side,
        n: Value,
    ) -> Result<()> {
        if let Some(r) = self.typed_copy(dst, src, n) {
            return r;
        }
        self.for_each_byte(n, |b, i| {
            let x = b.side_read_byte(src, i)?;
            b.side_write_byte(dst, i, x)
        })
    }

    /// A copy of `n` bytes between addressed memory and typed memory whose bytes have no
    /// addresses (a storage buffer, a typed local array): element by element of the typed
    /// side's type, where `n` is a constant number of them. `None` where that does not
    /// apply (the copy goes byte by byte).
    fn typed_copy(&mut self, dst: Side, src: Side, n: Value) -> Option<Result<()>> {
        let (typed, off, to_typed) = match (dst, src) {
            (Side::Pointer(p), Side::Addressed(sp, o)) => (p, (sp, o), true),
            (Side::Addressed(sp, o), Side::Pointer(p)) => (p, (sp, o), false),
            _ => return None,
        };
        if self.space_of(typed) == Some(AddressSpace::PhysicalStorageBuffer)
            || self.is_byte_object(typed)
        {
            return None;
        }
        let elem = self.l.out.pointee(self.ty_of(typed))?;
        let size = self.l.out.size_of(elem);
        let bytes = match n {
            Value::Const(c) => match self.l.out.constants[c].kind {
                ConstantKind::Int(k) => Some(k),
                _ => None,
            },
            _ => None,
        };
        let Some(count) = bytes
            .filter(|&k| size > 0 && k % size == 0)
            .map(|k| k / size)
        else {
            return Some(Err(Error::unsupported(
                "a copy between addressed private or local memory and typed memory (a buffer \
                 under --vulkan-pointers descriptors, or a local array) of other than whole \
                 elements of a constant count",
            )));
        };
        let (space, base) = off;
        Some(self.copy_elements(typed, space, base, elem, count, to_typed))
    }

    /// Copy `count` elements of type `elem` between the typed pointer `typed` and addressed
    /// memory at `base` in `space`, into the typed side where `to_typed`: unrolled up to
    /// `UNROLLED_ELEMENTS`, else a loop (a corrupted or huge count must not unroll).
    fn copy_elements(
        &mut self,
        typed: Value,
        space: AddressSpace,
        base: Value,
        elem: Handle<Type>,
        count: u64,
        to_typed: bool,
    ) -> Result<()> {
        let size = self.l.out.size_of(elem);
        let align = self.stated_align(None, elem);
        let one = |b: &mut Self, k: Value| -> Result<()> {
            let at = b.offset_scaled(base, k, size);
            let q = b.gep(typed, vec![k], true)?;
            if to_typed {
                let x = b.addressed_read(space, at, elem, align)?;
                b.store(q, x, None, false)
            } else {
                let x = b.load(q, None, false)?;
                b.addressed_write(space, at, x, elem, align)
            }
        };
        if count <= UNROLLED_ELEMENTS {
            let it = self.l.out.int_type(32);
            for k in 0..count {
                let idx = Value::Const(self.l.out.int_const(it, k));
                one(self, idx)?;
            }
            return Ok(());
        }
        let i64t = self.l.out.int_type(64);
        let total = Value::Const(self.l.out.int_const(i64t, count));
        self.for_each_byte(total, one)
    }

    /// `memset` of addressed memory: byte by byte.
    pub(in crate::vulkan) fn addressed_fill(
        &mut self,
        dst: Side,
        byte: Value,
        n: Value,
    ) -> Result<()> {
        self.for_each_byte(n, |b, i| b.side_write_byte(dst, i, byte))
    }
}
