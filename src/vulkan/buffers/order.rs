//! Comparisons and differences of buffer pointers under `--vulkan-pointers descriptors`.
//!
//! A buffer there has no address, but two pointers to elements of one buffer have an order
//! and a distance, which SPIR-V 1.4 says without numbers: `OpPtrEqual` and `OpPtrNotEqual`
//! for `==` and `!=`, `OpPtrDiff` (a distance in elements) for `<`, `<=`, ... against zero
//! and for `q - p`. Each needs the variablePointersStorageBuffer feature
//! (`crate::vulkan::variable_pointers` lists it).
//!
//! Where both pointers are elements of one buffer whose indices this body computed (an
//! access chain into the buffer's array, a step from one, a `select` of two), the order and
//! the distance are those of the indices, and no pointer operation is written: NVIDIA's
//! compiler (driver 580) rejects most modules that use `OpPtrDiff` ("NVVM compilation
//! failed"). The pointer operations stay for the pointers whose index is not in sight (a
//! loop's pointer, demoted to a variable).
//!
//! OpenCL C's `q - p` compiles to a subtraction of the two pointers' `ptrtoint`s (divided
//! by the element size afterwards): `differences` finds the `ptrtoint`s whose every use is
//! such a subtraction, and the body lowering keeps them as the pointers themselves.

use crate::diag::{Error, Result};
use crate::ir::{self, AddressSpace, BinaryOp, Handle, IntPredicate, Op, Type, Value};

use crate::vulkan::body::FnBuilder;
use crate::vulkan::emit::E;
use crate::vulkan::state::{Pending, Slot};

/// A pointer's element traced back to its buffer array (`element_index`): the array, the
/// index, and the pointer variables the index was loaded from.
struct Traced {
    array: Value,
    index: Value,
    slots: Vec<Value>,
}

impl FnBuilder<'_, '_> {
    /// True for a pointer to an element of a buffer under descriptors (not a view).
    fn buffer_element_pointer(&self, v: Value) -> bool {
        self.space_of(v) == Some(AddressSpace::StorageBuffer) && self.buffer_view_of(v).is_none()
    }

    /// `a` and `b` as two pointers `OpPtrDiff` and `OpPtrEqual` take, or None where either
    /// is not a pointer to a buffer's element.
    fn buffer_pair(&self, a: Value, b: Value) -> Result<Option<(Value, Value)>> {
        if !self.buffer_element_pointer(a) || !self.buffer_element_pointer(b) {
            return Ok(None);
        }
        if self.ty_of(a) != self.ty_of(b) {
            return Err(Error::unsupported(
                "a comparison or difference of pointers to buffer elements of two types \
                 (under --vulkan-pointers descriptors a buffer has no address; physical \
                 gives it one)",
            ));
        }
        Ok(Some((a, b)))
    }

    /// The buffer array and the element index that `p` points to, where this body made `p`
    /// from them in sight: an access chain into the array, a step from such a pointer, a
    /// `select` of two such pointers into one array, or a load of a variable that holds
    /// such pointers (`SlotIndices`).
    fn element_index(&mut self, p: Value) -> Option<Traced> {
        if let Some(&(slot, index)) = self.buffers.slots.loads.get(&p) {
            let array = self.buffers.slots.slots[&slot].array?;
            return Some(Traced {
                array,
                index,
                slots: vec![slot],
            });
        }
        let Value::Inst(h) = p else {
            return None;
        };
        match self.body.insts[h].op.clone() {
            Op::Gep { base, indices, .. } => {
                let base_ty = self.ty_of(base);
                let into_array = self.l.out.pointee(base_ty).is_some_and(|t| {
                    matches!(
                        self.l.out.types[t],
                        Type::RuntimeArray { .. } | Type::Array { .. }
                    )
                });
                match indices[..] {
                    [first, index] if into_array && self.is_zero(first) => Some(Traced {
                        array: base,
                        index,
                        slots: Vec::new(),
                    }),
                    [step] => {
                        let t = self.element_index(base)?;
                        let index = self.add_indices(t.index, step);
                        Some(Traced { index, ..t })
                    }
                    _ => None,
                }
            }
            Op::Select {
                cond,
                on_true,
                on_false,
            } => {
                let a = self.element_index(on_true)?;
                let b = self.element_index(on_false)?;
                if a.array != b.array {
                    return None;
                }
                let (i, j, t) = self.same_width(a.index, b.index);
                let index = self.push(
                    t,
                    Op::Select {
                        cond,
                        on_true: i,
                        on_false: j,
                    },
                );
                let mut slots = a.slots;
                slots.extend(b.slots);
                Some(Traced {
                    array: a.array,
                    index,
                    slots,
                })
            }
            _ => None,
        }
    }

    /// The element indices of `a` and `b` as integer type `ty` where both are in sight in
    /// one array (`element_index`), with the pointer variables they rest on.
    fn index_pair(
        &mut self,
        a: Value,
        b: Value,
        ty: Handle<Type>,
    ) -> Option<(Value, Value, Vec<Value>)> {
        let x = self.element_index(a)?;
        let y = self.element_index(b)?;
        if x.array != y.array {
            return None;
        }
        let (i, j) = (self.fit(x.index, ty), self.fit(y.index, ty));
        let mut slots = x.slots;
        slots.extend(y.slots);
        Some((i, j, slots))
    }

    /// `r`, computed from the indices of `a` and `b`, resting on the index variables of
    /// `slots`: made `op` of the pointers themselves when the body is done if one of those
    /// variables turns out to have held a pointer whose index was not in sight.
    fn rests_on(&mut self, r: Value, op: ir::Primitive, a: Value, b: Value, slots: Vec<Value>) {
        if let (false, Value::Inst(at)) = (slots.is_empty(), r) {
            self.buffers.slots.pending.push(Pending {
                at,
                op,
                a,
                b,
                slots,
            });
        }
    }

    /// `a - b` in elements, as integer type `ty`: the difference of their element indices
    /// where both are in sight in one array, else `OpPtrDiff`.
    fn distance(&mut self, a: Value, b: Value, ty: Handle<Type>) -> Value {
        let Some((i, j, slots)) = self.index_pair(a, b, ty) else {
            return E { b: self }.spirv(ir::Primitive::PtrDiff, ty, vec![a, b]);
        };
        let d = E { b: self }.bin(BinaryOp::Sub, ty, i, j);
        self.rests_on(d, ir::Primitive::PtrDiff, a, b, slots);
        d
    }

    /// Under descriptors, a variable made for a buffer element pointer (a phi's, an
    /// inlined function's result, a pointer variable of the source) gets an index variable
    /// beside it.
    pub(in crate::vulkan) fn note_pointer_slot(&mut self, slot: Value) {
        let held = self.l.out.pointee(self.ty_of(slot));
        let buffer_pointer = held.is_some_and(|t| {
            matches!(
                self.l.out.types[t],
                Type::Pointer {
                    space: AddressSpace::StorageBuffer,
                    ..
                }
            )
        });
        if !buffer_pointer {
            return;
        }
        let it = self.l.out.int_type(self.l.out.addressing.pointer_bits());
        let index = self.alloca(it);
        self.buffers.slots.slots.insert(
            slot,
            Slot {
                index,
                array: None,
                lost: false,
                rests_on: Vec::new(),
            },
        );
    }

    /// A store to a pointer variable (`note_pointer_slot`): the index beside the pointer.
    pub(in crate::vulkan) fn store_slot_index(&mut self, slot: Value, value: Value) {
        if !self.buffers.slots.slots.contains_key(&slot) {
            return;
        }
        let traced = self.element_index(value);
        let it = self.l.out.int_type(self.l.out.addressing.pointer_bits());
        let s = &self.buffers.slots.slots[&slot];
        let (index_slot, array) = (s.index, s.array);
        match traced {
            Some(t) if array.is_none_or(|a| a == t.array) => {
                let index = self.fit(t.index, it);
                let void = self.void();
                self.push(
                    void,
                    Op::Store {
                        ptr: index_slot,
                        value: index,
                        align: None,
                        volatile: false,
                    },
                );
                let s = self
                    .buffers
                    .slots
                    .slots
                    .get_mut(&slot)
                    .expect("noted above");
                s.array = Some(t.array);
                s.rests_on.extend(t.slots);
            }
            _ => {
                if let Some(s) = self.buffers.slots.slots.get_mut(&slot) {
                    s.lost = true;
                }
            }
        }
    }

    /// A load of a pointer variable (`note_pointer_slot`): the index beside it, loaded too.
    pub(in crate::vulkan) fn load_slot_index(&mut self, slot: Value, loaded: Value) {
        let Some(s) = self.buffers.slots.slots.get(&slot) else {
            return;
        };
        let index_slot = s.index;
        let it = self.l.out.int_type(self.l.out.addressing.pointer_bits());
        let index = self.push(
            it,
            Op::Load {
                ptr: index_slot,
                align: None,
                volatile: false,
            },
        );
        self.buffers.slots.loads.insert(loaded, (slot, index));
    }

    /// The body is done: a result that rests on a variable which held a pointer whose index
    /// was not in sight (or pointers into two arrays) becomes its pointer operation.
    pub(in crate::vulkan) fn finish_slot_indices(&mut self) {
        let si = &mut self.buffers.slots;
        loop {
            let lost: Vec<Value> = si
                .slots
                .iter()
                .filter(|(_, s)| !s.lost && s.rests_on.iter().any(|r| si.slots[r].lost))
                .map(|(&k, _)| k)
                .collect();
            if lost.is_empty() {
                break;
            }
            for k in lost {
                si.slots.get_mut(&k).expect("listed").lost = true;
            }
        }
        for p in std::mem::take(&mut si.pending) {
            if p.slots.iter().any(|s| si.slots[s].lost) {
                self.body.insts[p.at].op = Op::Builtin {
                    builtin: ir::Builtin::Primitive(p.op),
                    args: vec![p.a, p.b],
                };
            }
        }
    }

    /// `q - p` in bytes (the subtraction of two `ptrtoint`s of type `ret`), or None where the
    /// two are not buffer pointers.
    pub(in crate::vulkan) fn buffer_difference(
        &mut self,
        q: Value,
        p: Value,
        ret: Handle<Type>,
    ) -> Result<Option<Value>> {
        let Some((q, p)) = self.buffer_pair(q, p)? else {
            return Ok(None);
        };
        let elem = self
            .l
            .out
            .pointee(self.ty_of(q))
            .ok_or_else(|| Error::internal("a buffer pointer without a pointee"))?;
        let size = self.l.out.size_of(elem);
        let d = self.distance(q, p, ret);
        if size == 1 {
            return Ok(Some(d));
        }
        let width = match self.l.out.types[ret] {
            Type::Int { width } => width,
            _ => {
                return Err(Error::internal(
                    "a pointer difference of a non-integer type",
                ))
            }
        };
        let k = self.int_const(width, size);
        Ok(Some(E { b: self }.bin(BinaryOp::Mul, ret, d, k)))
    }

    /// `a pred b` of two buffer pointers, or None where they are not buffer pointers.
    pub(in crate::vulkan) fn buffer_compare(
        &mut self,
        pred: IntPredicate,
        a: Value,
        b: Value,
    ) -> Result<Option<Value>> {
        let Some((a, b)) = self.buffer_pair(a, b)? else {
            return Ok(None);
        };
        let bool_t = self.l.out.ty(Type::Bool);
        let bits = self.l.out.addressing.pointer_bits();
        let it = self.l.out.int_type(bits);
        let equality = match pred {
            IntPredicate::Eq => Some(ir::Primitive::PtrEqual),
            IntPredicate::Ne => Some(ir::Primitive::PtrNotEqual),
            _ => None,
        };
        if let Some(op) = equality {
            // Pointers into two buffers may be compared for equality (not for order).
            let Some((i, j, slots)) = self.index_pair(a, b, it) else {
                return Ok(Some(E { b: self }.spirv(op, bool_t, vec![a, b])));
            };
            let c = E { b: self }.icmp(pred, bool_t, i, j);
            self.rests_on(c, op, a, b, slots);
            return Ok(Some(c));
        }
        // Pointers into one buffer: their order is the sign of their distance.
        let d = self.distance(a, b, it);
        let signed = match pred {
            IntPredicate::Ugt | IntPredicate::Sgt => IntPredicate::Sgt,
            IntPredicate::Uge | IntPredicate::Sge => IntPredicate::Sge,
            IntPredicate::Ult | IntPredicate::Slt => IntPredicate::Slt,
            _ => IntPredicate::Sle,
        };
        let zero = self.int_const(bits, 0);
        Ok(Some(E { b: self }.icmp(signed, bool_t, d, zero)))
    }
}
