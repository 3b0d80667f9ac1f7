//! Type queries over the graph (the type of a value, element types, ...).

use super::arena::Handle;
use super::function::{Function, Value};
use super::module::Module;
use super::types::Type;
use super::ConstantKind;

impl Module {
    /// Whether `v` is the integer constant `value` (in every lane of a vector).
    pub fn is_splat_int(&self, v: Value, value: u64) -> bool {
        let Value::Const(c) = v else { return false };
        match &self.constants[c].kind {
            ConstantKind::Int(i) => *i == value,
            ConstantKind::Null => value == 0,
            ConstantKind::Composite(lanes) => lanes
                .iter()
                .all(|&l| self.is_splat_int(Value::Const(l), value)),
            _ => false,
        }
    }

    /// The alignment of an access to a `pointee`: the one stated, else the pointee's ABI
    /// alignment. LLVM 14 gives every load, store and alloca an alignment (the ABI one when
    /// the source states none); SPIR-V may leave it out, meaning the same. One graph form:
    /// always stated.
    pub fn stated_align(&self, pointee: Handle<Type>, stated: Option<u32>) -> Option<u32> {
        stated.or_else(|| u32::try_from(self.align_of(pointee)).ok())
    }

    /// Whether `v` is an integer zero (in every lane of a vector, every element of an array).
    pub fn is_zero_int(&self, v: Value) -> bool {
        self.is_splat_int(v, 0)
    }

    /// The type of `value` as used inside `func`.
    pub fn value_type(&self, func: &Function, value: Value) -> Handle<Type> {
        match value {
            Value::Param(i) => func.params[i as usize].ty,
            Value::Inst(h) => {
                func.body
                    .as_ref()
                    .expect("instruction value in a function without body")
                    .insts[h]
                    .ty
            }
            Value::Const(c) => self.constants[c].ty,
        }
    }

    /// Scalar element of a vector type, or the type itself.
    pub fn scalar_of(&self, ty: Handle<Type>) -> Handle<Type> {
        match self.types[ty] {
            Type::Vector { elem, .. } => elem,
            _ => ty,
        }
    }

    /// Lane count of a vector type, 1 for scalars.
    pub fn lanes(&self, ty: Handle<Type>) -> u32 {
        match self.types[ty] {
            Type::Vector { len, .. } => len,
            _ => 1,
        }
    }

    /// True if struct `ty` contains itself (through pointers: `struct Node { struct Node
    /// *next; }`). Such types need OpTypeForwardPointer in SPIR-V and a name in LLVM, and every
    /// walk over types must stop at them.
    pub fn is_recursive(&self, ty: Handle<Type>) -> bool {
        let mut seen = crate::hash::HashSet::default();
        let mut stack: Vec<Handle<Type>> = self.components(ty);
        while let Some(t) = stack.pop() {
            if t == ty {
                return true;
            }
            if seen.insert(t) {
                stack.extend(self.components(t));
            }
        }
        false
    }

    /// The types a type is made of (members, elements, pointee, signature).
    fn components(&self, ty: Handle<Type>) -> Vec<Handle<Type>> {
        match &self.types[ty] {
            Type::Vector { elem, .. } | Type::Array { elem, .. } => vec![*elem],
            Type::Struct {
                members: Some(ms), ..
            } => ms.clone(),
            Type::Pointer { pointee, .. } => vec![*pointee],
            Type::Function { ret, params, .. } => {
                let mut v = params.clone();
                v.push(*ret);
                v
            }
            _ => Vec::new(),
        }
    }

    /// The pointee type of a pointer type.
    pub fn pointee(&self, ty: Handle<Type>) -> Option<Handle<Type>> {
        match self.types[ty] {
            Type::Pointer { pointee, .. } => Some(pointee),
            _ => None,
        }
    }

    /// Size in bytes of a type under the SPIR data layout (vectors of 3 padded to 4,
    /// natural alignment), used for memcpy lowering and layout checks.
    pub fn size_of(&self, ty: Handle<Type>) -> u64 {
        match &self.types[ty] {
            Type::Void => 0,
            Type::Bool => 1,
            Type::Int { width } | Type::Float { width } => (*width as u64).div_ceil(8),
            Type::Vector { elem, len } => {
                let lanes = if *len == 3 { 4 } else { *len as u64 };
                self.size_of(*elem) * lanes
            }
            Type::Array { elem, len } => self.size_of(*elem) * len,
            Type::SpecArray {
                elem, default_len, ..
            } => self.size_of(*elem) * default_len,
            Type::RuntimeArray { .. } => 0,
            Type::Struct {
                members: Some(members),
                packed,
                ..
            } => {
                let mut size = 0u64;
                let mut max_align = 1u64;
                for &m in members {
                    let a = if *packed { 1 } else { self.align_of(m) };
                    max_align = max_align.max(a);
                    size = size.div_ceil(a) * a + self.size_of(m);
                }
                size.div_ceil(max_align) * max_align
            }
            _ => (self.addressing.pointer_bits() / 8) as u64,
        }
    }

    /// The largest object a graph describes: 2^48 bytes, past any device's address space
    /// (a bound that keeps [`Module::size_of`] far from overflowing).
    pub const MAX_OBJECT_BYTES: u64 = 1 << 48;

    /// An array of `len` elements of type `elem`, refused as malformed input past
    /// [`Module::MAX_OBJECT_BYTES`] (every type the readers make passes the same check, so
    /// `elem`'s own size is bounded), and as unsupported when empty (LLVM's `[0 x T]`, an
    /// `alloca` of no elements): what both readers ask before making one.
    pub fn check_array(&self, elem: Handle<Type>, len: u64) -> crate::diag::Result<()> {
        if len == 0 {
            return Err(crate::diag::Error::unsupported(
                "an array of no elements (SPIR-V's arrays have at least one)",
            ));
        }
        let size = self.size_of(elem);
        match size.checked_mul(len) {
            Some(bytes) if bytes <= Self::MAX_OBJECT_BYTES => Ok(()),
            _ => Err(crate::diag::Error::malformed(format!(
                "an array of {len} elements of {size} bytes (past 2^48 bytes, more than any \
                 device's memory)"
            ))),
        }
    }

    /// Whether a value of type `ty` holds a number (integer or float) `width` bits wide, in
    /// itself or in a member, element or lane (not behind a pointer): what decides the 8-
    /// and 16-bit storage capabilities of the memory holding it.
    pub fn holds_width(&self, ty: Handle<Type>, width: u32) -> bool {
        match &self.types[ty] {
            Type::Int { width: w } | Type::Float { width: w } => *w == width,
            Type::Vector { elem, .. }
            | Type::Array { elem, .. }
            | Type::SpecArray { elem, .. }
            | Type::RuntimeArray { elem } => self.holds_width(*elem, width),
            Type::Struct {
                members: Some(members),
                ..
            } => members.iter().any(|&m| self.holds_width(m, width)),
            _ => false,
        }
    }

    /// ABI alignment in bytes under the SPIR data layout.
    pub fn align_of(&self, ty: Handle<Type>) -> u64 {
        match &self.types[ty] {
            Type::Vector { .. } => self.size_of(ty).max(1),
            Type::Array { elem, .. }
            | Type::SpecArray { elem, .. }
            | Type::RuntimeArray { elem } => self.align_of(*elem),
            Type::Struct {
                members: Some(members),
                packed,
                ..
            } => {
                if *packed {
                    1
                } else {
                    members.iter().map(|&m| self.align_of(m)).max().unwrap_or(1)
                }
            }
            _ => self.size_of(ty).max(1),
        }
    }
}

impl Module {
    /// Result type of a `getelementptr` on a pointer of type `base`: `indices` are the index
    /// values when constant (struct indices must be). `None` when the indices do not fit.
    pub fn gep_result_type(
        &mut self,
        base: Handle<Type>,
        indices: &[Option<u64>],
    ) -> Option<Handle<Type>> {
        let Type::Pointer { space, .. } = self.types[base] else {
            return None;
        };
        let pointee = self.gep_pointee(base, indices)?;
        Some(self.ty(Type::Pointer { pointee, space }))
    }

    /// The graph's (and LLVM's) form of struct indices in a `getelementptr` on `base`: `i32`
    /// constants. SPIR-V allows a constant of any integer width there; one is rewritten to
    /// the `i32` of the same value. Indices past a step that does not fit are left alone
    /// (the caller's type check refuses the chain).
    pub fn struct_indices_as_i32(&mut self, base: Handle<Type>, indices: &mut [Value]) {
        let Type::Pointer { pointee, .. } = self.types[base] else {
            return;
        };
        let mut t = pointee;
        for idx in indices.iter_mut().skip(1) {
            t = match &self.types[t] {
                Type::Array { elem, .. } | Type::Vector { elem, .. } => *elem,
                Type::Struct {
                    members: Some(ms), ..
                } => {
                    let ms = ms.clone();
                    let Value::Const(c) = *idx else { return };
                    let ConstantKind::Int(i) = self.constants[c].kind else {
                        return;
                    };
                    let i32t = self.int_type(32);
                    *idx = Value::Const(self.int_const(i32t, i));
                    match ms.get(i as usize) {
                        Some(&m) => m,
                        None => return,
                    }
                }
                _ => return,
            };
        }
    }

    /// The values of integer constants among `indices` (`None` for the others), as
    /// `gep_result_type` and `gep_pointee` take them.
    pub fn const_indices(&self, indices: &[Value]) -> Vec<Option<u64>> {
        indices
            .iter()
            .map(|v| match v {
                Value::Const(c) => match self.constants[*c].kind {
                    ConstantKind::Int(i) => Some(i),
                    _ => None,
                },
                _ => None,
            })
            .collect()
    }

    /// The type a `getelementptr` on `base` points to (see `gep_result_type`).
    pub fn gep_pointee(&self, base: Handle<Type>, indices: &[Option<u64>]) -> Option<Handle<Type>> {
        let Type::Pointer { pointee, .. } = self.types[base] else {
            return None;
        };
        let mut t = pointee;
        for idx in indices.iter().skip(1) {
            t = match &self.types[t] {
                Type::Array { elem, .. }
                | Type::SpecArray { elem, .. }
                | Type::RuntimeArray { elem }
                | Type::Vector { elem, .. } => *elem,
                Type::Struct {
                    members: Some(ms), ..
                } => *ms.get((*idx)? as usize)?,
                _ => return None,
            };
        }
        Some(t)
    }
}
