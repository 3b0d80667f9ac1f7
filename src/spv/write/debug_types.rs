//! The source's types (`ir::debug::DebugType`) as the debug sets' type instructions, with the
//! rules SPIRV-Tools holds them to: a typedef and a vector name a basic type, a vector has 2
//! to 4 lanes, a pointer or a variable names a type (a basic type of no bits stands for
//! `void`), and the non-semantic set allows no forward reference.

use rspirv::dr::Operand;
use spirv::{OpenclDebuginfo100Op as D, Word};

use super::Writer;
use crate::ir::debug::{self as dbg, DebugType};
use crate::ir::Handle;
use crate::spv::debug_info::{self as spell, flags, DebugSet};

impl Writer<'_> {
    /// `DebugTypeFunction` of a result (`None`: `void`, the module's OpTypeVoid, as the sets
    /// have it) and parameters.
    pub(super) fn function_type(
        &mut self,
        ret: Option<Handle<DebugType>>,
        params: &[Option<Handle<DebugType>>],
    ) -> Word {
        let ret = match ret {
            Some(r) => self.dtype(Some(r)),
            None => self.b.type_void(),
        };
        let mut ops = vec![self.num(0), Operand::IdRef(ret)];
        for &t in params {
            ops.push(Operand::IdRef(self.dtype(t)));
        }
        let id = self.b.id();
        self.define(id, D::DebugTypeFunction as u32, ops);
        id
    }

    /// `void` where a type is required (a pointer's pointee, a variable's type): a basic
    /// type of no bits, as the sets have no void type of their own.
    pub(super) fn void_type(&mut self) -> Word {
        if let Some(id) = self.dw().void_type {
            return id;
        }
        let name = self.dstring("void");
        let mut ops = vec![Operand::IdRef(name), self.size(0)];
        ops.push(self.encoding(dbg::Encoding::Unspecified));
        if self.dkind() == DebugSet::NonSemantic {
            ops.push(self.num(0));
        }
        let id = self.b.id();
        self.define(id, D::DebugTypeBasic as u32, ops);
        self.dw().void_type = Some(id);
        id
    }

    pub(super) fn encoding(&mut self, e: dbg::Encoding) -> Operand {
        match self.dkind() {
            DebugSet::OpenCl => Operand::LiteralBit32(spell::encoding_code(e)),
            DebugSet::NonSemantic => self.num(spell::encoding_code(e)),
        }
    }

    /// What a pointer to `t` names in these sets: SPIRV-Tools up to 2023.1 (Debian's) takes
    /// only a basic type there, so `t` with its typedefs and qualifiers taken off where that
    /// is a basic type, else `void` (`None`): a pointer to a struct or to a pointer is a
    /// pointer to `void`.
    pub(super) fn basic_core(&self, mut t: Option<Handle<DebugType>>) -> Option<Handle<DebugType>> {
        // Typedef and qualifier chains are finite; the bound stops a malformed cycle.
        for _ in 0..=self.m.debug.types.len() {
            match &self.m.debug.types[t?] {
                DebugType::Basic { .. } => return t,
                DebugType::Typedef { base, .. } | DebugType::Qualified { base, .. } => t = *base,
                _ => return None,
            }
        }
        None
    }

    /// Whether `t` is written as a `DebugTypeBasic` (what a typedef or a vector must name
    /// in these sets, as SPIRV-Tools checks them).
    pub(super) fn written_basic(&self, t: Option<Handle<DebugType>>) -> bool {
        t.is_some_and(|t| matches!(self.m.debug.types[t], DebugType::Basic { .. }))
    }

    /// The id of a source type; `None` (`void`) is [`Self::void_type`]. A type that names
    /// itself through pointers, where the set allows no forward reference, points to `void`
    /// there.
    pub(super) fn dtype(&mut self, t: Option<Handle<DebugType>>) -> Word {
        let Some(t) = t else { return self.void_type() };
        if let Some(&id) = self.dw().types.get(&t) {
            return id;
        }
        if !self.dw().open_types.insert(t) {
            return self.void_type();
        }
        let id = self.b.id();
        let top = self.top_scope();
        let (op, ops) = match self.m.debug.types[t].clone() {
            DebugType::Basic {
                name,
                size_bits,
                encoding,
            } => {
                let name = self.dstring(&name);
                let mut ops = vec![Operand::IdRef(name), self.size(size_bits)];
                match self.dkind() {
                    DebugSet::OpenCl => {
                        ops.push(Operand::LiteralBit32(spell::encoding_code(encoding)))
                    }
                    DebugSet::NonSemantic => {
                        ops.push(self.num(spell::encoding_code(encoding)));
                        ops.push(self.num(0));
                    }
                }
                (D::DebugTypeBasic, ops)
            }
            DebugType::Pointer { base, space, .. } => {
                let base = self.dtype(self.basic_core(base));
                let sc = space.map_or(spirv::StorageClass::Function, |s| {
                    crate::mappings::space_storage_class(s)
                });
                let sc = match self.dkind() {
                    DebugSet::OpenCl => Operand::StorageClass(sc),
                    DebugSet::NonSemantic => self.num(sc as u32),
                };
                (
                    D::DebugTypePointer,
                    vec![Operand::IdRef(base), sc, self.num(0)],
                )
            }
            // A qualifier of anything but a basic type is not one SPIRV-Tools up to 2023.1
            // (Debian's) accepts: the type qualified stands for it.
            DebugType::Qualified { base, .. } if !self.written_basic(base) => {
                self.dw().open_types.remove(&t);
                let id = self.dtype(base);
                self.dw().types.insert(t, id);
                return id;
            }
            DebugType::Qualified { qualifier, base } => {
                let base = self.dtype(base);
                let q = self.num(spell::qualifier_code(qualifier));
                (D::DebugTypeQualifier, vec![Operand::IdRef(base), q])
            }
            DebugType::Array { base, counts, .. } => {
                let base = self.dtype(base);
                let mut ops = vec![Operand::IdRef(base)];
                for c in counts {
                    // An unknown count (`[]`) is 1: OpenCL.DebugInfo.100 has no count 0.
                    ops.push(self.size(c.unwrap_or(1).max(1)));
                }
                (D::DebugTypeArray, ops)
            }
            // The sets have vectors of 2 to 4 basic lanes; `float8` and `float16` are arrays.
            DebugType::Vector { base, count, .. }
                if (1..=4).contains(&count) && self.written_basic(base) =>
            {
                let base = self.dtype(base);
                let n = self.num(count);
                (D::DebugTypeVector, vec![Operand::IdRef(base), n])
            }
            DebugType::Vector { base, count, .. } => {
                let base = self.dtype(base);
                let n = self.size(u64::from(count.max(1)));
                (D::DebugTypeArray, vec![Operand::IdRef(base), n])
            }
            // A typedef of anything but a basic type is not one the sets allow: the type it
            // names stands for it.
            DebugType::Typedef { base, .. } if !self.written_basic(base) => {
                self.dw().open_types.remove(&t);
                let id = self.dtype(base);
                self.dw().types.insert(t, id);
                return id;
            }
            DebugType::Typedef {
                name,
                base,
                file,
                line,
            } => {
                let name = self.dstring(&name);
                let base = self.dtype(base);
                let source = self.file_or_unit(file);
                let mut ops = self.declared(name, base, source, line);
                ops.extend([Operand::IdRef(top)]);
                (D::DebugTypedef, ops)
            }
            DebugType::Function { ret, params } => {
                let id = self.function_type(ret, &params);
                self.dw().types.insert(t, id);
                self.dw().open_types.remove(&t);
                return id;
            }
            e @ DebugType::Enum { .. } => (D::DebugTypeEnum, self.debug_enum(&e)),
            c @ DebugType::Composite { .. } => return self.debug_composite(t, id, &c),
            DebugType::Named { name } => {
                // A type known by name: an opaque struct, as llvm-spirv writes images.
                let name = self.dstring(&name);
                let source = self.file_or_unit(None);
                let none = self.none();
                let tag = match self.dkind() {
                    DebugSet::OpenCl => Operand::LiteralBit32(1),
                    DebugSet::NonSemantic => self.num(1),
                };
                let ops = vec![
                    Operand::IdRef(name),
                    tag,
                    Operand::IdRef(source),
                    self.num(0),
                    self.num(0),
                    Operand::IdRef(top),
                    Operand::IdRef(name),
                    Operand::IdRef(none),
                    self.num(flags::FWD_DECL),
                ];
                (D::DebugTypeComposite, ops)
            }
        };
        self.define(id, op as u32, ops);
        self.dw().types.insert(t, id);
        self.dw().open_types.remove(&t);
        id
    }

    /// A source file, or where the input named none, the first unit's.
    pub(super) fn file_or_unit(&mut self, f: Option<Handle<dbg::SourceFile>>) -> Word {
        match f.or_else(|| self.m.debug.units.first().map(|u| u.file)) {
            Some(f) => self.file(f),
            None => {
                let f = self.m.debug.files.iter().next().map(|(h, _)| h);
                match f {
                    Some(f) => self.file(f),
                    // No file at all: a source without a name.
                    None => {
                        if let Some(id) = self.dw().no_file {
                            return id;
                        }
                        let name = self.dstring("");
                        let id = self.b.id();
                        let ops = vec![Operand::IdRef(name), Operand::IdRef(name)];
                        self.define(id, D::DebugSource as u32, ops);
                        self.dw().no_file = Some(id);
                        id
                    }
                }
            }
        }
    }

    pub(super) fn member(&mut self, id: Word, parent: Word, m: &dbg::Member) {
        let name = self.dstring(&m.name);
        let ty = self.dtype(m.ty);
        let source = self.file_or_unit(m.file);
        let mut ops = self.declared(name, ty, source, m.line);
        if self.dkind() == DebugSet::OpenCl {
            ops.push(Operand::IdRef(parent));
        }
        ops.push(self.size(m.offset_bits));
        ops.push(self.size(m.size_bits));
        ops.push(self.num(0));
        self.define(id, D::DebugTypeMember as u32, ops);
    }

    /// A struct, union or class and its members (with `id`, for type `t`).
    fn debug_composite(&mut self, t: Handle<DebugType>, id: Word, c: &DebugType) -> Word {
        let DebugType::Composite {
            kind,
            name,
            file,
            line,
            size_bits,
            members,
            declaration,
            identifier,
        } = c.clone()
        else {
            return self.void_type();
        };
        let top = self.top_scope();
        let name_id = self.dstring(&name);
        let source = self.file_or_unit(file);
        let linkage = self.dstring(identifier.as_deref().unwrap_or(""));
        let tag = match self.dkind() {
            DebugSet::OpenCl => Operand::LiteralBit32(spell::composite_code(kind)),
            DebugSet::NonSemantic => self.num(spell::composite_code(kind)),
        };
        let mut ops = vec![
            Operand::IdRef(name_id),
            tag,
            Operand::IdRef(source),
            self.num(line),
            self.num(0),
            Operand::IdRef(top),
            Operand::IdRef(linkage),
            self.size(size_bits),
            self.num(if declaration { flags::FWD_DECL } else { 0 }),
        ];
        match self.dkind() {
            // Members name their struct, which names them ahead (the one forward
            // reference the set allows): the struct first, then each member.
            DebugSet::OpenCl => {
                let ids: Vec<Word> = members.iter().map(|_| self.b.id()).collect();
                ops.extend(ids.iter().map(|&m| Operand::IdRef(m)));
                self.define(id, D::DebugTypeComposite as u32, ops);
                self.dw().types.insert(t, id);
                self.dw().open_types.remove(&t);
                for (m, mid) in members.iter().zip(ids) {
                    self.member(mid, id, m);
                }
                return id;
            }
            // No forward reference at all: the members first (a pointer back to
            // the struct among them points to `void`).
            DebugSet::NonSemantic => {
                for m in &members {
                    let mid = self.b.id();
                    self.member(mid, id, m);
                    ops.push(Operand::IdRef(mid));
                }
            }
        }
        self.define(id, D::DebugTypeComposite as u32, ops);
        self.dw().types.insert(t, id);
        self.dw().open_types.remove(&t);
        id
    }

    /// The operands of an enum's `DebugTypeEnum`.
    fn debug_enum(&mut self, e: &DebugType) -> Vec<Operand> {
        let DebugType::Enum {
            name,
            base,
            file,
            line,
            size_bits,
            values,
        } = e.clone()
        else {
            return Vec::new();
        };
        let top = self.top_scope();
        let name = self.dstring(&name);
        let base = match base {
            Some(b) => self.dtype(Some(b)),
            None => self.none(),
        };
        let source = self.file_or_unit(file);
        let mut ops = self.declared(name, base, source, line);
        ops.extend([Operand::IdRef(top), self.size(size_bits), self.num(0)]);
        for (n, v) in values {
            // Values are 32-bit constants here (an enum's values fit its int).
            ops.push(Operand::IdRef(self.u32_const(v as u32)));
            ops.push(Operand::IdRef(self.dstring(&n)));
        }
        ops
    }
}
