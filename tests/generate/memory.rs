//! Memory: private arrays and structs (allocas in the entry block, as SPIR-V wants its
//! variables), buffers, the constant table and generic pointers, through GEPs.

use spir_xlate::ir::{CastOp, Constant, ConstantKind, Handle, Inst, Op, Type, Value};

use super::recipe::Seed;

use super::body::{seed_type, struct_type, Buffer, FnBuilder};

impl FnBuilder<'_> {
    /// A buffer element through a generic pointer (OpenCL 2.0's unnamed address space).
    pub(super) fn generic_access(&mut self, s: &Seed) {
        let bufs: Vec<Buffer> = self
            .scope
            .buffers
            .iter()
            .copied()
            .filter(|b| b.space != spir_xlate::ir::AddressSpace::Constant)
            .collect();
        if bufs.is_empty() {
            return;
        }
        let buf = bufs[s.a as usize % bufs.len()];
        let gt = self.m.ty(Type::Pointer {
            pointee: buf.elem,
            space: spir_xlate::ir::AddressSpace::Generic,
        });
        let g = self.emit(
            gt,
            Op::Cast {
                op: CastOp::AddrSpaceCast,
                value: buf.ptr,
            },
        );
        let size_t = self.m.size_type();
        let idx = self.pick_var(size_t, s.b);
        let ptr = self.gep(g, gt, vec![idx]);
        self.load_store(ptr, buf.elem, s.a & 2 == 2, s);
    }

    /// An `alloca` in the entry block (where SPIR-V wants its variables), after the others.
    pub(super) fn alloca(&mut self, allocated: Handle<Type>, align: Option<u32>) -> Value {
        let ty = self.m.ty(Type::Pointer {
            pointee: allocated,
            space: spir_xlate::ir::AddressSpace::Private,
        });
        self.names += 1;
        let h = self.body.insts.append(Inst {
            loc: None,
            name: Some(format!("v{}", self.names)),
            ty,
            op: Op::Alloca { allocated, align },
        });
        self.body.blocks[0].insts.insert(self.allocas, h);
        self.allocas += 1;
        Value::Inst(h)
    }

    pub(super) fn align(&self, ty: Handle<Type>, sel: u16) -> Option<u32> {
        let natural = self.m.align_of(ty) as u32;
        // `None` is not a graph form (`Module::stated_align`): the properties compare against
        // `stated(m)`, so a module with it checks that "none" reads back as LLVM's ABI
        // alignment from both sides.
        match sel % 4 {
            0 => Some(natural),
            1 => Some(natural.min(4)),
            2 => Some(natural * 2),
            _ => None,
        }
    }

    pub(super) fn gep(&mut self, base: Value, base_ty: Handle<Type>, indices: Vec<Value>) -> Value {
        let consts: Vec<Option<u64>> = indices
            .iter()
            .map(|v| match v {
                Value::Const(c) => match self.m.constants[*c].kind {
                    ConstantKind::Int(i) => Some(i),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let rt = self
            .m
            .gep_result_type(base_ty, &consts)
            .expect("generated GEPs fit their type");
        self.geps += 1;
        self.emit(
            rt,
            Op::Gep {
                inbounds: !self.geps.is_multiple_of(3),
                base,
                indices,
            },
        )
    }

    pub(super) fn load_store(&mut self, ptr: Value, elem: Handle<Type>, store: bool, s: &Seed) {
        let align = self.align(elem, s.c);
        let volatile = s.c & 8 != 0;
        if store {
            let value = self.pick(elem, s.b);
            let void = self.m.void_type();
            self.emit(
                void,
                Op::Store {
                    ptr,
                    value,
                    align,
                    volatile,
                },
            );
        } else {
            self.emit(
                elem,
                Op::Load {
                    ptr,
                    align,
                    volatile,
                },
            );
        }
    }

    pub(super) fn private_array(&mut self, s: &Seed) {
        let elem = seed_type(self.m, s.ty);
        let arr = self.m.ty(Type::Array { elem, len: 4 });
        let align = self.align(arr, s.a);
        let base = self.alloca(arr, align);
        let base_ty = self.m.ty(Type::Pointer {
            pointee: arr,
            space: spir_xlate::ir::AddressSpace::Private,
        });
        let size_t = self.m.size_type();
        let zero = self.constant(size_t, 9);
        let idx = self.pick(size_t, s.a >> 2);
        let ptr = self.gep(base, base_ty, vec![zero, idx]);
        self.load_store(ptr, elem, true, s);
        self.load_store(ptr, elem, false, s);
    }

    pub(super) fn buffer_access(&mut self, s: &Seed) {
        let use_table =
            self.scope.table.is_some() && (self.scope.buffers.is_empty() || s.a & 1 == 1);
        if use_table {
            let g = self.scope.table.unwrap();
            let gt = self.m.globals[g].ty;
            let ptr_t = self.m.ty(Type::Pointer {
                pointee: gt,
                space: spir_xlate::ir::AddressSpace::Constant,
            });
            let base = self.konst(Constant {
                ty: ptr_t,
                kind: ConstantKind::GlobalAddress(g),
            });
            let size_t = self.m.size_type();
            let zero = self.constant(size_t, 9);
            let idx = self.pick_var(size_t, s.b);
            let ptr = self.gep(base, ptr_t, vec![zero, idx]);
            let i32t = self.m.int_type(32);
            self.load_store(ptr, i32t, false, s);
            return;
        }
        if self.scope.buffers.is_empty() {
            return;
        }
        let buf = self.scope.buffers[s.a as usize % self.scope.buffers.len()];
        let size_t = self.m.size_type();
        let idx = self.pick_var(size_t, s.b);
        let ptr = self.gep(buf.ptr, buf.ptr_ty, vec![idx]);
        self.load_store(ptr, buf.elem, buf.writable && s.a & 2 == 2, s);
    }

    pub(super) fn struct_access(&mut self, s: &Seed) {
        let st = struct_type(self.m);
        let Type::Struct {
            members: Some(members),
            ..
        } = self.m.types[st].clone()
        else {
            unreachable!()
        };
        let base = self.alloca(st, Some(4));
        let field = s.a as usize % members.len();
        let ft = members[field];
        if s.b & 1 == 0 {
            let base_ty = self.m.ty(Type::Pointer {
                pointee: st,
                space: spir_xlate::ir::AddressSpace::Private,
            });
            let zero = self.i32_const(0);
            let f = self.i32_const(field as u64);
            let ptr = self.gep(base, base_ty, vec![zero, f]);
            if matches!(self.m.types[ft], Type::Array { .. }) {
                return;
            }
            self.load_store(ptr, ft, true, s);
            self.load_store(ptr, ft, false, s);
        } else {
            let whole = self.emit(
                st,
                Op::Load {
                    ptr: base,
                    align: Some(4),
                    volatile: false,
                },
            );
            if matches!(self.m.types[ft], Type::Array { .. }) {
                // Paths are chains of single steps in the graph (`Module::extract_step`).
                let array = self.emit(
                    ft,
                    Op::ExtractValue {
                        aggregate: whole,
                        indices: vec![field as u32],
                    },
                );
                let i8t = self.m.int_type(8);
                self.emit(
                    i8t,
                    Op::ExtractValue {
                        aggregate: array,
                        indices: vec![s.c as u32 % 3],
                    },
                );
                return;
            }
            let element = self.pick(ft, s.c);
            let updated = self.emit(
                st,
                Op::InsertValue {
                    aggregate: whole,
                    element,
                    indices: vec![field as u32],
                },
            );
            let void = self.m.void_type();
            self.emit(
                void,
                Op::Store {
                    ptr: base,
                    value: updated,
                    align: Some(4),
                    volatile: false,
                },
            );
        }
    }

    /// `llvm.memcpy` / OpCopyMemorySized between a private array and a buffer (either way) or
    /// two private arrays, with a constant or run-time size. The pointers are not `i8*`: the
    /// casts LLVM's builder adds are looked through on the way back (spir/read/memory_casts.rs).
    pub(super) fn memory_copy(&mut self, s: &Seed) {
        let elem = seed_type(self.m, s.ty);
        let arr = self.m.ty(Type::Array { elem, len: 4 });
        let private = self.alloca(arr, self.align(arr, s.a));
        let buffers: Vec<_> = self.scope.buffers.clone();
        let other = match buffers.get(s.a as usize % buffers.len().max(1)) {
            Some(b) if s.a & 16 == 0 => (b.ptr, b.writable),
            _ => (self.alloca(arr, self.align(arr, s.a >> 2)), true),
        };
        let (dst, src) = if s.a & 32 != 0 && other.1 {
            (other.0, private)
        } else {
            (private, other.0)
        };
        let size_t = self.m.size_type();
        let size = if s.b & 8 == 0 {
            let bytes = self.m.size_of(elem) * (1 + u64::from(s.b % 4));
            Value::Const(self.m.int_const(size_t, bytes))
        } else {
            self.pick_var(size_t, s.b)
        };
        // `align 1` states nothing: the graph says `None`.
        let align = [None, Some(self.m.align_of(elem) as u32), Some(4)][s.c as usize % 3]
            .filter(|&a| a > 1);
        let void = self.m.void_type();
        self.emit(
            void,
            Op::CopyMemory {
                dst,
                src,
                size,
                align,
                volatile: s.c & 8 != 0,
            },
        );
    }
}
