//! What the Function variables of the block being built hold: a load from a place a store of
//! the same block wrote, with nothing between that may have written it, is the stored value
//! itself. A private array a vector is stored into and read back byte by byte (`vstore16`
//! into `uchar b[16]`, then `b[i]` unrolled) then costs the driver nothing to keep in
//! registers: NVIDIA's Vulkan compiler kept such an array in memory (an H100 measured the
//! histogram kernel 0.86 of its time with the bytes taken from the vector's lanes instead;
//! NVIDIA's OpenCL compiler removes the array itself).
//!
//! A place is a variable and constant `getelementptr` steps into it. Two places of one
//! variable overlap when one path is a prefix of the other; paths that differ at some step
//! name disjoint members or elements. Only the current block is known, so nothing needs to
//! hold across edges (the structurizer may add blocks afterwards). What may write a
//! variable other than a store to a known place forgets every place: a store through a
//! Function pointer that is not one (a cast, a variable index), a call, a copy or fill of
//! Function memory, a builtin given a Function pointer.

use crate::ir::{AddressSpace, ConstantKind, Op, Value};

use super::body::FnBuilder;
use super::state::Place;

impl FnBuilder<'_, '_> {
    /// The value a load `op` would read, where a store of this block wrote it.
    pub(super) fn held_value(&mut self, op: &Op) -> Option<Value> {
        let Op::Load {
            ptr,
            volatile: false,
            ..
        } = op
        else {
            return None;
        };
        self.held_block();
        let place = self.place(*ptr)?;
        self.held
            .known
            .iter()
            .find(|(p, _)| *p == place)
            .map(|&(_, v)| v)
    }

    /// Take what `op`, just made, does to the variables' known values.
    pub(super) fn note_held(&mut self, op: &Op) {
        self.held_block();
        let private = |b: &Self, p: &Value| b.space_of(*p) == Some(AddressSpace::Private);
        match op {
            Op::Store {
                ptr,
                value,
                volatile,
                ..
            } => match self.place(*ptr) {
                Some(place) => {
                    self.held.known.retain(|(p, _)| !p.overlaps(&place));
                    // A pointer held in a variable has state beside it (`buffers::order`):
                    // its loads stay loads.
                    if !*volatile && !self.holds_pointer(&place) {
                        self.held.known.push((place, *value));
                    }
                }
                None if private(self, ptr) => self.held.known.clear(),
                None => {}
            },
            Op::Call { .. } => self.held.known.clear(),
            Op::CopyMemory { dst, .. } | Op::FillMemory { dst, .. } if private(self, dst) => {
                self.held.known.clear()
            }
            Op::Builtin { args, .. } if args.iter().any(|a| private(self, a)) => {
                self.held.known.clear()
            }
            _ => {}
        }
    }

    /// Forget what another block held.
    fn held_block(&mut self) {
        if self.held.block != self.cur {
            self.held.known.clear();
            self.held.block = self.cur;
        }
    }

    /// The place `ptr` names: a Function variable, or constant steps into one.
    fn place(&self, ptr: Value) -> Option<Place> {
        let Value::Inst(h) = ptr else {
            return None;
        };
        let inst = &self.body.insts[h];
        match &inst.op {
            Op::Alloca { .. } => Some(Place {
                var: h,
                path: vec![0],
                ptr: inst.ty,
            }),
            Op::Gep { base, indices, .. } => {
                let mut place = self.place(*base)?;
                let (&first, rest) = indices.split_first()?;
                if self.constant_index(first)? != 0 {
                    return None;
                }
                for &i in rest {
                    place.path.push(self.constant_index(i)?);
                }
                place.ptr = inst.ty;
                Some(place)
            }
            _ => None,
        }
    }

    fn constant_index(&self, v: Value) -> Option<u64> {
        let Value::Const(c) = v else {
            return None;
        };
        match self.l.out.constants[c].kind {
            ConstantKind::Int(i) => Some(i),
            _ => None,
        }
    }

    fn holds_pointer(&self, place: &Place) -> bool {
        self.l
            .out
            .pointee(place.ptr)
            .is_none_or(|t| matches!(self.l.out.types[t], crate::ir::Type::Pointer { .. }))
    }
}
