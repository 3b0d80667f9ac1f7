//! Memory in shader form: loads and stores (whole aggregates through laid-out memory go
//! member by member), pointer casts, `memcpy` / `memset` of whole objects, the
//! 3-vector accesses -O0 makes through 4-vector pointers (`reshape`), and which values a
//! variable may hold (`check_storable`). `getelementptr` and index arithmetic are `gep.rs`.

use crate::diag::{Error, Result};
use crate::ir::{AddressSpace, CastOp, Constant, ConstantKind, Handle, Op, Type, Value};

use super::body::FnBuilder;

impl FnBuilder<'_, '_> {
    /// Natural alignment of `t`, for memory operands that must state one (physical storage
    /// buffers) where the input gave none.
    pub(super) fn natural_align(&self, t: Handle<Type>) -> u32 {
        self.l.out.align_of(t) as u32
    }

    /// A load. Through laid-out memory (buffers, push constants) an aggregate is loaded
    /// member by member: that memory has its own, explicitly laid-out SPIR-V types.
    pub(super) fn load(&mut self, ptr: Value, align: Option<u32>, volatile: bool) -> Result<Value> {
        if let Some(view) = self.buffer_view_of(ptr) {
            return self.view_load(view, volatile);
        }
        if let Some((t, space)) = self.view_of(ptr) {
            let align = self.stated_align(align, t);
            return self.addressed_read(space, ptr, t, align);
        }
        let pt = self.ty_of(ptr);
        let Type::Pointer { pointee, space } = self.l.out.types[pt] else {
            return Err(Error::internal("a load through a non-pointer"));
        };
        let laid = matches!(
            space,
            AddressSpace::PhysicalStorageBuffer
                | AddressSpace::PushConstant
                | AddressSpace::StorageBuffer
                | AddressSpace::Uniform
        );
        if laid && self.is_aggregate(pointee) {
            let undef = self.l.out.constant(Constant {
                ty: pointee,
                kind: ConstantKind::Undef,
            });
            let mut agg = Value::Const(undef);
            for path in self.leaves(pointee) {
                let p = self.leaf_pointer(ptr, &path)?;
                let x = self.load(p, None, volatile)?;
                agg = self.push(
                    pointee,
                    Op::InsertValue {
                        aggregate: agg,
                        element: x,
                        indices: path,
                    },
                );
            }
            return Ok(agg);
        }
        let align = match space {
            AddressSpace::PhysicalStorageBuffer => {
                Some(align.unwrap_or_else(|| self.natural_align(pointee)))
            }
            _ => align,
        };
        let v = self.push(
            pointee,
            Op::Load {
                ptr,
                align,
                volatile,
            },
        );
        self.load_slot_index(ptr, v);
        Ok(v)
    }

    pub(super) fn store(
        &mut self,
        ptr: Value,
        value: Value,
        align: Option<u32>,
        volatile: bool,
    ) -> Result<()> {
        if let Some(view) = self.buffer_view_of(ptr) {
            return self.view_store(view, value, volatile);
        }
        self.store_slot_index(ptr, value);
        if let Some((t, space)) = self.view_of(ptr) {
            let align = self.stated_align(align, t);
            return self.addressed_write(space, ptr, value, t, align);
        }
        let pt = self.ty_of(ptr);
        let Type::Pointer { pointee, space } = self.l.out.types[pt] else {
            return Err(Error::internal("a store through a non-pointer"));
        };
        if self.ty_of(value) != pointee {
            return Err(Error::unsupported(
                "a store of a pointer into memory declared for another kind of pointer (in a \
                 Vulkan shader a pointer to a program-scope table and one to a buffer differ)",
            ));
        }
        let laid = matches!(
            space,
            AddressSpace::PhysicalStorageBuffer
                | AddressSpace::PushConstant
                | AddressSpace::StorageBuffer
                | AddressSpace::Uniform
        );
        if laid && self.is_aggregate(pointee) {
            for path in self.leaves(pointee) {
                let p = self.leaf_pointer(ptr, &path)?;
                let lt = self.leaf_type(pointee, &path);
                let x = self.push(
                    lt,
                    Op::ExtractValue {
                        aggregate: value,
                        indices: path,
                    },
                );
                self.store(p, x, None, volatile)?;
            }
            return Ok(());
        }
        let align = match space {
            AddressSpace::PhysicalStorageBuffer => {
                Some(align.unwrap_or_else(|| self.natural_align(pointee)))
            }
            _ => align,
        };
        let void = self.void();
        self.push(
            void,
            Op::Store {
                ptr,
                value,
                align,
                volatile,
            },
        );
        Ok(())
    }

    pub(super) fn is_aggregate(&self, t: Handle<Type>) -> bool {
        matches!(
            self.l.out.types[t],
            Type::Array { .. } | Type::Struct { .. }
        )
    }

    /// Index paths to every non-aggregate part of `t` (members, elements).
    pub(super) fn leaves(&self, t: Handle<Type>) -> Vec<Vec<u32>> {
        match &self.l.out.types[t] {
            Type::Array { elem, len } => (0..*len as u32)
                .flat_map(|i| {
                    self.leaves(*elem).into_iter().map(move |mut p| {
                        p.insert(0, i);
                        p
                    })
                })
                .collect(),
            Type::Struct {
                members: Some(ms), ..
            } => ms
                .iter()
                .enumerate()
                .flat_map(|(i, &m)| {
                    self.leaves(m).into_iter().map(move |mut p| {
                        p.insert(0, i as u32);
                        p
                    })
                })
                .collect(),
            _ => vec![vec![]],
        }
    }

    pub(super) fn leaf_type(&self, t: Handle<Type>, path: &[u32]) -> Handle<Type> {
        path.iter().fold(t, |t, &i| match &self.l.out.types[t] {
            Type::Array { elem, .. } => *elem,
            Type::Struct {
                members: Some(ms), ..
            } => ms[i as usize],
            _ => t,
        })
    }

    pub(super) fn leaf_pointer(&mut self, ptr: Value, path: &[u32]) -> Result<Value> {
        let mut idx = vec![self.int_const(32, 0)];
        let mut t = self.buffer_pointee(ptr).unwrap_or_else(|| self.ty_of(ptr));
        for &i in path {
            let width = match self.l.out.types[t] {
                Type::Struct { .. } => 32,
                _ => self.l.out.addressing.pointer_bits(),
            };
            idx.push(self.int_const(width, i as u64));
            t = self.leaf_type(t, &[i]);
        }
        self.gep(ptr, idx, true)
    }

    /// An address-space cast to or from the generic address space. Every call is inlined,
    /// so a generic pointer is always one of the pointers it was made from, in their own
    /// storage: a cast to generic keeps the pointer as it is, and a cast from generic
    /// (`to_global`, a C++ `this` back in its space) finds it already where it asks.
    fn space_cast(&mut self, v: Value, src_ty: Handle<Type>) -> Result<Value> {
        let Some(from) = self.space_of(v) else {
            return Err(Error::unsupported(
                "a generic pointer to private or local memory that needs byte addresses (a \
                 cast or step logical pointers cannot take)",
            ));
        };
        let to = match self.l.src.types[src_ty] {
            Type::Pointer {
                space: AddressSpace::Generic,
                ..
            } => from,
            Type::Pointer { space, .. } => self.l.space(space)?,
            _ => return Err(Error::internal("an address-space cast to a non-pointer")),
        };
        if to != from {
            return Err(Error::unsupported(format!(
                "a generic pointer into {} converted to another address space (OpenCL makes \
                 it NULL, which a Vulkan shader's logical pointers cannot hold)",
                space_words(from)
            )));
        }
        self.cast(CastOp::Bitcast, v, src_ty)
    }

    /// A cast; `src_ty` is the input's result type.
    pub(super) fn cast(&mut self, op: CastOp, v: Value, src_ty: Handle<Type>) -> Result<Value> {
        let from_space = self.space_of(v);
        let rt = match op {
            CastOp::Bitcast if from_space.is_some() => {
                let space = from_space.unwrap_or(AddressSpace::Private);
                let pointee = match self.l.src.pointee(src_ty) {
                    Some(p) if matches!(self.l.src.types[p], Type::Void) => self.l.out.int_type(8),
                    Some(p) => self.l.ty(p)?,
                    None => return Err(Error::internal("a pointer bitcast to a non-pointer")),
                };
                let rt = self.l.out.ty(Type::Pointer { pointee, space });
                if rt == self.ty_of(v) {
                    return Ok(v);
                }
                if space == AddressSpace::StorageBuffer {
                    return Err(Error::unsupported(
                        "a cast of a pointer to a buffer to another pointer type (under \
                         --vulkan-pointers descriptors a buffer is an array of one type; \
                         physical keeps such casts)",
                    ));
                }
                if space != AddressSpace::PhysicalStorageBuffer {
                    return Err(Error::unsupported(
                        "a cast of a pointer to private or local memory to another pointer \
                         type (a Vulkan shader's logical pointers keep their type)",
                    ));
                }
                rt
            }
            CastOp::PtrToInt if from_space == Some(AddressSpace::StorageBuffer) => {
                return Err(Error::unsupported(
                    "the address of a buffer as an integer (under --vulkan-pointers \
                     descriptors a buffer has no address; physical gives it one)",
                ))
            }
            CastOp::PtrToInt if from_space != Some(AddressSpace::PhysicalStorageBuffer) => {
                return Err(Error::unsupported(
                    "the address of private or local memory as an integer (a Vulkan shader's \
                     logical pointers have none)",
                ))
            }
            CastOp::AddrSpaceCast => return self.space_cast(v, src_ty),
            // Device addresses are 64 bits wide whatever OpenCL's pointer width.
            CastOp::PtrToInt | CastOp::IntToPtr => {
                let rt = self.l.ty(src_ty)?;
                let u64t = self.l.out.int_type(64);
                let narrow = |s: &Self, t: Handle<Type>| matches!(s.l.out.types[t], Type::Int { width } if width < 64);
                if op == CastOp::PtrToInt && narrow(self, rt) {
                    let wide = self.push(u64t, Op::Cast { op, value: v });
                    return Ok(self.push(
                        rt,
                        Op::Cast {
                            op: CastOp::Trunc,
                            value: wide,
                        },
                    ));
                }
                if op == CastOp::IntToPtr && narrow(self, self.ty_of(v)) {
                    let wide = self.push(
                        u64t,
                        Op::Cast {
                            op: CastOp::ZExt,
                            value: v,
                        },
                    );
                    return self.cast(op, wide, src_ty);
                }
                rt
            }
            _ => self.l.ty(src_ty)?,
        };
        if op == CastOp::IntToPtr
            && matches!(
                self.l.out.types[rt],
                Type::Pointer {
                    space: AddressSpace::StorageBuffer,
                    ..
                }
            )
        {
            return Err(Error::unsupported(
                "an integer made into a pointer to a buffer (under --vulkan-pointers \
                 descriptors a buffer has no address; physical gives it one)",
            ));
        }
        if op == CastOp::IntToPtr
            && !matches!(
                self.l.out.types[rt],
                Type::Pointer {
                    space: AddressSpace::PhysicalStorageBuffer,
                    ..
                }
            )
        {
            return Err(Error::unsupported(
                "an integer made into a pointer to private or local memory",
            ));
        }
        if let Some(f) = super::conversions::small_int_to_float(self, op, v, rt) {
            return Ok(f);
        }
        Ok(self.push(rt, Op::Cast { op, value: v }))
    }

    /// `memcpy` of a whole object to an object of the same type, member by member.
    pub(super) fn copy_memory(&mut self, dst: Value, src: Value, size: Value) -> Result<()> {
        let (Some(dp), Some(sp)) = (self.buffer_pointee(dst), self.buffer_pointee(src)) else {
            return Err(Error::internal("a memcpy between non-pointers"));
        };
        let n = match size {
            Value::Const(c) => match self.l.out.constants[c].kind {
                ConstantKind::Int(n) => Some(n),
                _ => None,
            },
            _ => None,
        };
        if dp != sp || n != Some(self.l.out.size_of(dp)) {
            if self.copy_bytes(dst, src, size)? {
                return Ok(());
            }
            return Err(Error::unsupported(
                "a memcpy other than of one whole object to an object of the same type or \
                 of bytes between byte objects (a Vulkan shader copies typed values)",
            ));
        }
        for path in self.leaves(dp) {
            let s = self.leaf_pointer(src, &path)?;
            let x = self.load(s, None, false)?;
            let d = self.leaf_pointer(dst, &path)?;
            self.store(d, x, None, false)?;
        }
        Ok(())
    }

    /// `memset` of a whole object with zero bytes.
    pub(super) fn fill_memory(&mut self, dst: Value, byte: Value, size: Value) -> Result<()> {
        let dp = self
            .buffer_pointee(dst)
            .ok_or_else(|| Error::internal("a memset of a non-pointer"))?;
        let konst = |s: &Self, v: Value| match v {
            Value::Const(c) => match s.l.out.constants[c].kind {
                ConstantKind::Int(n) => Some(n),
                ConstantKind::Null => Some(0),
                _ => None,
            },
            _ => None,
        };
        if konst(self, byte) != Some(0) || konst(self, size) != Some(self.l.out.size_of(dp)) {
            if self.fill_bytes(dst, byte, size)? {
                return Ok(());
            }
            return Err(Error::unsupported(
                "a memset other than zeroing one whole object or setting the bytes of a byte \
                 object (a Vulkan shader stores typed values)",
            ));
        }
        for path in self.leaves(dp) {
            let lt = self.leaf_type(dp, &path);
            let zero = self.l.out.constant(Constant {
                ty: lt,
                kind: ConstantKind::Null,
            });
            let d = self.leaf_pointer(dst, &path)?;
            self.store(d, Value::Const(zero), None, false)?;
        }
        Ok(())
    }

    /// `v` as a vector of type `want` where the two differ only as a 3-vector and a
    /// 4-vector of the same lanes (an access through a lane view): a shuffle, the fourth
    /// lane undefined. Any other `v` is returned as it is.
    pub(super) fn reshape(&mut self, v: Value, want: Handle<Type>) -> Value {
        let have = self.ty_of(v);
        if have == want {
            return v;
        }
        let (Type::Vector { elem: a, len: n }, Type::Vector { elem: b, len: k }) =
            (&self.l.out.types[have], &self.l.out.types[want])
        else {
            return v;
        };
        if a != b || !matches!((n, k), (3, 4) | (4, 3)) {
            return v;
        }
        let mask = (0..*k).map(|i| (i < 3).then_some(i)).collect();
        let undef = self.l.out.constant(Constant {
            ty: have,
            kind: ConstantKind::Undef,
        });
        self.push(
            want,
            Op::Shuffle {
                a: v,
                b: Value::Const(undef),
                mask,
            },
        )
    }

    /// Refuse keeping `t` in a variable when it holds a logical pointer.
    pub(super) fn check_storable(&self, t: Handle<Type>, what: &str) -> Result<()> {
        if self.holds_logical_pointer(t, &mut Vec::new()) {
            return Err(Error::unsupported(format!(
                "{what} of a pointer to private or local memory, or of an aggregate holding \
                 a pointer to a buffer: a Vulkan shader cannot keep such a (logical) pointer \
                 in a variable"
            )));
        }
        Ok(())
    }

    pub(super) fn holds_logical_pointer(
        &self,
        t: Handle<Type>,
        seen: &mut Vec<Handle<Type>>,
    ) -> bool {
        if seen.contains(&t) {
            return false;
        }
        seen.push(t);
        match &self.l.out.types[t] {
            // A storage-buffer pointer may live in a variable of its own (variable
            // pointers), not inside an aggregate.
            Type::Pointer { space, .. } => {
                *space != AddressSpace::PhysicalStorageBuffer
                    && !(*space == AddressSpace::StorageBuffer && seen.len() == 1)
            }
            Type::Array { elem, .. } | Type::Vector { elem, .. } => {
                self.holds_logical_pointer(*elem, seen)
            }
            Type::Struct {
                members: Some(ms), ..
            } => ms.iter().any(|&m| self.holds_logical_pointer(m, seen)),
            _ => false,
        }
    }
}

/// What memory of shader storage `space` holds, in OpenCL's words.
fn space_words(space: AddressSpace) -> &'static str {
    match space {
        AddressSpace::Private => "private memory",
        AddressSpace::Local => "local memory",
        AddressSpace::PhysicalStorageBuffer | AddressSpace::StorageBuffer => "a buffer",
        _ => "memory of another kind",
    }
}
