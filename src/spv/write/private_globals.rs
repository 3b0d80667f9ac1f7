//! Program-scope variables in the private address space (LLVM address space 0), which SPIR
//! 1.2 producers use for string literals and `static` data. SPIR-V's OpenCL environment has
//! no module-scope private storage (the Private storage class needs the Shader capability,
//! and a module-scope Function variable is invalid), so each function that uses such a
//! variable gets its own Function-storage copy, declared with its other variables and given
//! the initializer at entry.
//!
//! For a constant variable that is exact. A variable that is written is exact only where
//! one kernel alone uses it (a kernel is entered once per work-item, so its copy lives as
//! long as the work-item's private memory would); any other written one is refused, as is one
//! whose address is in another variable's initializer as a private pointer. (Where an
//! initializer holds it as an integer, as SPIR 1.2 producers wrote program-scope pointers to
//! string literals, the reader has already given it constant or global storage:
//! spir/read/program_scope.rs.)

use std::collections::BTreeSet;

use rspirv::dr::Operand;
use spirv::StorageClass;

use super::Writer;
use crate::diag::{Error, Result};
use crate::ir::{self, AddressSpace, ConstantKind, Module, Value};
use crate::mappings;

/// The private globals whose address constant `c` holds (through casts, GEPs, composites).
fn privates_in(
    m: &Module,
    c: ir::Handle<ir::Constant>,
    out: &mut BTreeSet<ir::Handle<ir::Global>>,
) {
    match &m.constants[c].kind {
        ConstantKind::GlobalAddress(g) if m.globals[*g].space == AddressSpace::Private => {
            out.insert(*g);
        }
        ConstantKind::Cast(_, x) => privates_in(m, *x, out),
        ConstantKind::Gep { base, indices, .. } => {
            privates_in(m, *base, out);
            indices.iter().for_each(|&i| privates_in(m, i, out));
        }
        ConstantKind::Composite(parts) => parts.iter().for_each(|&p| privates_in(m, p, out)),
        _ => {}
    }
}

/// The private globals function `f` uses.
pub(super) fn used_by(m: &Module, f: &ir::Function) -> BTreeSet<ir::Handle<ir::Global>> {
    let mut out = BTreeSet::new();
    for b in f.body.iter() {
        for ih in b.blocks.iter().flat_map(|blk| blk.insts.iter()) {
            ir::operands::for_each_use(&b.insts[*ih].op, |v| {
                if let Value::Const(c) = v {
                    privates_in(m, c, &mut out);
                }
            });
        }
        for blk in &b.blocks {
            let mut term = |v: &Value| {
                if let Value::Const(c) = v {
                    privates_in(m, *c, &mut out);
                }
            };
            match &blk.terminator {
                ir::Terminator::Return(Some(v)) => term(v),
                ir::Terminator::CondBranch { cond, .. } => term(cond),
                ir::Terminator::Switch { value, .. } => term(value),
                _ => {}
            }
        }
    }
    out
}

/// Refuses the private globals a per-function copy would not keep the meaning of.
pub(super) fn check(m: &Module) -> Result<()> {
    for (_, g) in m.globals.iter() {
        let mut inside = BTreeSet::new();
        if let Some(init) = g.init {
            privates_in(m, init, &mut inside);
        }
        if let Some(&p) = inside.iter().next() {
            return Err(Error::unsupported(format!(
                "the address of private-address-space variable @{} in the initializer of @{} \
                 (SPIR-V's OpenCL environment has no module-scope private storage)",
                m.globals[p].name, g.name
            )));
        }
    }
    let mut users: std::collections::BTreeMap<_, Vec<_>> = Default::default();
    for (h, f) in m.functions.iter() {
        for g in used_by(m, f) {
            users.entry(g).or_default().push(h);
        }
    }
    for (g, fs) in users {
        let glob = &m.globals[g];
        let one_kernel = fs.len() == 1 && m.functions[fs[0]].is_kernel;
        if !glob.is_constant && !one_kernel {
            return Err(Error::unsupported(format!(
                "private-address-space variable @{} is written and used by {} (SPIR-V's \
                 OpenCL environment has no module-scope private storage; a copy per function \
                 keeps a written variable's meaning only in the one kernel that uses it)",
                glob.name,
                fs.iter()
                    .map(|&f| format!("'{}'", m.functions[f].name))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    }
    Ok(())
}

impl Writer<'_> {
    /// Declare the copies of the private globals function `h` uses (at the start of its
    /// entry block, after its own variables) and store their initializers.
    pub(super) fn private_copies(&mut self, h: ir::Handle<ir::Function>) -> Result<()> {
        let m = self.m;
        self.private_vars.clear();
        let used = used_by(m, &m.functions[h]);
        let mut inits = Vec::new();
        for g in used {
            let glob = &m.globals[g];
            let ptr = m.types.find(&ir::Type::Pointer {
                pointee: glob.ty,
                space: AddressSpace::Private,
            });
            let ptr_ty = match ptr {
                Some(p) => self.ty(p)?,
                None => {
                    let value_ty = self.ty(glob.ty)?;
                    let sc = mappings::space_storage_class(AddressSpace::Private);
                    self.b.type_pointer(None, sc, value_ty)
                }
            };
            let id = self.b.id();
            self.b
                .variable(ptr_ty, Some(id), StorageClass::Function, None);
            if !glob.name.is_empty() {
                self.b.name(id, glob.name.clone());
            }
            if let Some(a) = glob.align {
                self.decorate(id, spirv::Decoration::Alignment, [Operand::LiteralBit32(a)]);
            }
            self.private_vars.insert(g, id);
            if let Some(i) = glob.init {
                if !matches!(m.constants[i].kind, ConstantKind::Undef) {
                    // Aligned as a store of the type is (crate::normal::stated_align).
                    let align = glob.align.unwrap_or(m.align_of(glob.ty) as u32);
                    inits.push((id, i, align));
                }
            }
        }
        for (id, init, align) in inits {
            let v = self.constant(init)?;
            let access = Some(spirv::MemoryAccess::ALIGNED);
            self.b
                .store(id, v, access, [Operand::LiteralBit32(align)])
                .map_err(super::body::internal)?;
        }
        Ok(())
    }
}
