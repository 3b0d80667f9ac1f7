//! Views: addressed pointers handed to a builtin's lowering (`vload*`, `fract`, `remquo`,
//! atomics, ...). A view is a copy of the byte offset that `FnBuilder::load`, `store` and
//! `gep` recognize, with the (shader-form) type it points to and its space
//! (`FnBuilder::view_of`); an atomic takes the word a view points to.

use crate::diag::{Error, Result};
use crate::ir::{AddressSpace, Handle, Op, Primitive, Type, Value};

use crate::vulkan::body::FnBuilder;

impl FnBuilder<'_, '_> {
    /// A view of the addressed pointer `v` (source type `src_ptr`) for a builtin's lowering.
    pub(in crate::vulkan) fn view(&mut self, v: Value, src_ptr: Handle<Type>) -> Result<Value> {
        let space = self
            .l
            .addressed_space(src_ptr)
            .ok_or_else(|| Error::internal("a view of a pointer that is not addressed"))?;
        let pointee = match self.l.src.pointee(src_ptr) {
            Some(p) if matches!(self.l.src.types[p], Type::Void) => self.l.out.int_type(8),
            Some(p) => self.l.ty(p)?,
            None => return Err(Error::internal("a view of a non-pointer")),
        };
        Ok(self.new_view(v, pointee, space))
    }

    /// A new view of offset `off`, pointing to a `t` in `space`.
    fn new_view(&mut self, off: Value, t: Handle<Type>, space: AddressSpace) -> Value {
        let u32t = self.u32t();
        let w = self.push(
            u32t,
            Op::Builtin {
                builtin: crate::ir::Builtin::Primitive(Primitive::CopyObject),
                args: vec![off],
            },
        );
        self.addressed.views.insert(w, (t, space));
        w
    }

    /// `getelementptr` on a view: a view of the element.
    pub(in crate::vulkan) fn view_gep(&mut self, base: Value, indices: &[Value]) -> Result<Value> {
        let (pointee, space) = self.addressed.views[&base];
        let (off, elem) = self.offset_gep(base, pointee, indices)?;
        Ok(self.new_view(off, elem, space))
    }

    /// The view `v` as a pointer to `t` (a cast of an addressed pointer).
    pub(in crate::vulkan) fn retype_view(&mut self, v: Value, t: Handle<Type>) -> Value {
        let Some(&(have, space)) = self.addressed.views.get(&v) else {
            return v;
        };
        if have == t {
            return v;
        }
        self.new_view(v, t, space)
    }

    /// A real pointer for the view `v` where a builtin needs one (an atomic): the word it
    /// points to, when it points to a 32-bit integer.
    pub(in crate::vulkan) fn view_word_pointer(&mut self, v: Value) -> Result<Value> {
        let Some(&(t, space)) = self.addressed.views.get(&v) else {
            return Ok(v);
        };
        if !matches!(self.l.out.types[t], Type::Int { width: 32 }) {
            return Err(Error::unsupported(
                "an atomic on addressed private or local memory other than of a 32-bit integer",
            ));
        }
        self.word_at(space, v)
    }

    /// The (shader-form) type and the address space of view `v`, if it is a view.
    pub(in crate::vulkan) fn view_of(&self, v: Value) -> Option<(Handle<Type>, AddressSpace)> {
        self.addressed.views.get(&v).copied()
    }

    /// The type a pointer or a view points to.
    pub(in crate::vulkan) fn pointee_of(&self, p: Value) -> Option<Handle<Type>> {
        self.addressed
            .views
            .get(&p)
            .map(|&(t, _)| t)
            .or_else(|| self.l.out.pointee(self.ty_of(p)))
    }
}
