//! The debug sets' type instructions -> the source's types (`ir::debug::DebugType`): a basic
//! type of no bits, DebugInfoNone and OpTypeVoid are `void`; a struct's members are read
//! where the struct names them.

use spirv::{OpenclDebuginfo100Op as D, Word};

use super::Reader;
use crate::ir::debug::{self as dbg, DebugType};
use crate::ir::Handle;
use crate::spv::debug_info::{self as spell, flags, DebugSet};

impl Reader {
    pub(super) fn dtype_opt(&mut self, id: Option<&Word>) -> Option<Handle<DebugType>> {
        id.and_then(|&i| self.dtype(i))
    }

    /// The type a debug id names; `None` for `void` (DebugInfoNone, OpTypeVoid, the basic
    /// type of no bits) and what is no type.
    pub(super) fn dtype(&mut self, id: Word) -> Option<Handle<DebugType>> {
        if let Some(&t) = self.dbg.types.get(&id) {
            return t;
        }
        let (kind, op, ops) = self.dinst(id)?;
        if op == D::DebugTypeBasic as u32 && self.dconst(*ops.get(1)?) == Some(0) {
            self.dbg.types.insert(id, None);
            return None;
        }
        // A placeholder first: a struct's members may point back to it.
        let h = self.m.debug.types.append(DebugType::Named {
            name: String::new(),
        });
        self.dbg.types.insert(id, Some(h));
        let Some(t) = self.dtype_of(kind, op, &ops) else {
            self.dbg.types.insert(id, None);
            return None;
        };
        self.m.debug.types[h] = t;
        Some(h)
    }

    pub(super) fn dtype_of(&mut self, kind: DebugSet, op: u32, ops: &[Word]) -> Option<DebugType> {
        let n = |r: &Self, i: usize| r.dnum(kind, ops.get(i));
        let size = |r: &Self, i: usize| ops.get(i).and_then(|&s| r.dconst(s)).unwrap_or(0);
        let op = D::from_u32(op)?;
        Some(match op {
            D::DebugTypeBasic => DebugType::Basic {
                name: self.dstr(ops.first()),
                size_bits: size(self, 1),
                encoding: spell::encoding_of(n(self, 2)),
            },
            D::DebugTypePointer => DebugType::Pointer {
                base: self.dtype_opt(ops.first()),
                space: spirv::StorageClass::from_u32(n(self, 1))
                    .and_then(crate::mappings::space_from_storage_class),
                size_bits: u64::from(self.m.addressing.pointer_bits()),
            },
            D::DebugTypeQualifier => DebugType::Qualified {
                base: self.dtype_opt(ops.first()),
                qualifier: spell::qualifier_of(n(self, 1))?,
            },
            D::DebugTypeArray => {
                let base = self.dtype_opt(ops.first());
                let counts = self.array_counts(kind, ops.get(1..).unwrap_or(&[]));
                DebugType::Array {
                    base,
                    counts,
                    size_bits: 0,
                }
            }
            D::DebugTypeVector => DebugType::Vector {
                base: self.dtype_opt(ops.first()),
                count: n(self, 1),
                size_bits: 0,
            },
            D::DebugTypedef => DebugType::Typedef {
                name: self.dstr(ops.first()),
                base: self.dtype_opt(ops.get(1)),
                file: Some(self.dfile(ops.get(2))),
                line: n(self, 3),
            },
            D::DebugTypeFunction => {
                let ret = self.dtype_opt(ops.get(1));
                let params = ops
                    .get(2..)
                    .unwrap_or(&[])
                    .iter()
                    .map(|&p| self.dtype(p))
                    .collect();
                DebugType::Function { ret, params }
            }
            D::DebugTypeEnum => {
                let mut values = Vec::new();
                for pair in ops.get(8..).unwrap_or(&[]).chunks(2) {
                    if let [v, name] = pair {
                        let v = self.dconst(*v).unwrap_or(0) as u32 as i32 as i64;
                        values.push((self.dstr(Some(name)), v));
                    }
                }
                DebugType::Enum {
                    name: self.dstr(ops.first()),
                    base: self.dtype_opt(ops.get(1)),
                    file: Some(self.dfile(ops.get(2))),
                    line: n(self, 3),
                    size_bits: size(self, 6),
                    values,
                }
            }
            D::DebugTypeComposite => {
                let mut members = Vec::new();
                for &m in ops.get(9..).unwrap_or(&[]) {
                    if let Some(member) = self.dmember(m) {
                        members.push(member);
                    }
                }
                let linkage = self.dstr(ops.get(6));
                DebugType::Composite {
                    kind: spell::composite_of(n(self, 1)),
                    name: self.dstr(ops.first()),
                    file: Some(self.dfile(ops.get(2))),
                    line: n(self, 3),
                    size_bits: size(self, 7),
                    members,
                    declaration: n(self, 8) & flags::FWD_DECL != 0,
                    identifier: (!linkage.is_empty()).then_some(linkage),
                }
            }
            _ => DebugType::Named {
                name: self.dstr(ops.first()),
            },
        })
    }

    /// A `DebugTypeArray`'s dimensions from its operands past the base type. The sets give
    /// a count each; the Khronos and DPC++ translators (llvm-spirv-14 too) follow the counts
    /// with as many lower bounds, which in OpenCL C are 0 or DebugInfoNone: an even number
    /// of operands whose second half is only those is read so (no writer of the sets' own
    /// form gives a count of 0 or none). The .200 edition names a `DebugTypeSubrange` each.
    fn array_counts(&self, kind: DebugSet, ops: &[Word]) -> Vec<Option<u64>> {
        use spell::edition_200 as e;
        if kind == DebugSet::NonSemantic && self.dbg.edition_200 {
            return ops
                .iter()
                .map(|&r| match self.dinst(r) {
                    Some((_, e::TYPE_SUBRANGE, sub)) => {
                        sub.get(e::SUBRANGE_COUNT).and_then(|&c| self.dconst(c))
                    }
                    _ => self.dconst(r),
                })
                .collect();
        }
        let bound = |&b: &Word| {
            self.dconst(b) == Some(0)
                || self
                    .dinst(b)
                    .is_some_and(|(_, op, _)| op == D::DebugInfoNone as u32)
        };
        let counts = match ops.len() % 2 {
            0 if ops[ops.len() / 2..].iter().all(bound) => &ops[..ops.len() / 2],
            _ => ops,
        };
        counts.iter().map(|&c| self.dconst(c)).collect()
    }

    pub(super) fn dmember(&mut self, id: Word) -> Option<dbg::Member> {
        let (kind, op, ops) = self.dinst(id)?;
        if op != D::DebugTypeMember as u32 {
            return None;
        }
        // The OpenCL set names the struct before the offset; the non-semantic one does not.
        let at = match kind {
            DebugSet::OpenCl => 6,
            DebugSet::NonSemantic => 5,
        };
        let file = self.dfile(ops.get(2));
        Some(dbg::Member {
            name: self.dstr(ops.first()),
            ty: self.dtype_opt(ops.get(1)),
            file: Some(file),
            line: self.dnum(kind, ops.get(3)),
            offset_bits: ops.get(at).and_then(|&o| self.dconst(o)).unwrap_or(0),
            size_bits: ops.get(at + 1).and_then(|&o| self.dconst(o)).unwrap_or(0),
        })
    }
}
