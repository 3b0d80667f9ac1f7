//! The region of addressed local memory (`addressed`): where a kernel's `__local` pointers
//! need addresses, its local memory is one array of 32-bit words and a local pointer a byte
//! offset into it. The region is the kernel's `__local` argument (its Workgroup array, of
//! words: the host sizes it in words, `elem_size` 4 in the reflection) or, where it has
//! none, an array of words holding the program-scope `__local` variables it uses, each at
//! its aligned offset. A kernel with more than one of these (two `__local` arguments, or one
//! beside `__local` variables) is refused for now: an address would have to say which
//! region it points into.

use std::collections::BTreeSet;

use crate::diag::{Error, Result};
use crate::ir::{self, AddressSpace, Constant, ConstantKind, Global, Handle, Type, Value};

use super::body::FnBuilder;

/// The name of the array holding program-scope `__local` variables.
const LOCAL_NAME: &str = "local.memory";

/// The program-scope `__local` variables constant `c` takes the address of.
fn locals_in(m: &ir::Module, c: Handle<Constant>, out: &mut BTreeSet<Handle<Global>>) {
    match &m.constants[c].kind {
        ConstantKind::GlobalAddress(g) if m.globals[*g].space == AddressSpace::Local => {
            out.insert(*g);
        }
        ConstantKind::Cast(_, x) => locals_in(m, *x, out),
        ConstantKind::Gep { base, indices, .. } => {
            locals_in(m, *base, out);
            indices.iter().for_each(|&i| locals_in(m, i, out));
        }
        ConstantKind::Composite(parts) => parts.iter().for_each(|&p| locals_in(m, p, out)),
        _ => {}
    }
}

/// The program-scope `__local` variables function `f` and the functions it calls use.
fn locals_used(m: &ir::Module, f: Handle<ir::Function>) -> BTreeSet<Handle<Global>> {
    let mut out = BTreeSet::new();
    for g in super::kernel::reachable(m, f) {
        let Some(body) = &m.functions[g].body else {
            continue;
        };
        for (_, inst) in body.insts.iter() {
            ir::verify::for_each_operand(&inst.op, |v| {
                if let Value::Const(c) = v {
                    locals_in(m, c, &mut out);
                }
            });
        }
    }
    out
}

impl FnBuilder<'_, '_> {
    /// The address of global `g` of the shader-form module.
    fn global_address(&mut self, g: Handle<Global>) -> Value {
        let (pointee, space) = (self.l.out.globals[g].ty, self.l.out.globals[g].space);
        let pt = self.l.out.ty(Type::Pointer { pointee, space });
        Value::Const(self.l.out.constant(Constant {
            ty: pt,
            kind: ConstantKind::GlobalAddress(g),
        }))
    }

    /// Set up the region of addressed local memory of `kernel`, whose `__local` arguments
    /// are the Workgroup arrays `args`.
    pub(super) fn local_region(
        &mut self,
        args: &[Handle<Global>],
        kernel: Handle<ir::Function>,
    ) -> Result<()> {
        let used = locals_used(self.l.src, kernel);
        if args.len() + usize::from(!used.is_empty()) > 1 {
            return Err(Error::unsupported(
                "local pointers that need addresses (cast to another type, stepped past their \
                 array, selected or copied as bytes) in a kernel with more than one __local \
                 object given by arguments or variables (each is its own Workgroup array in \
                 Vulkan)",
            ));
        }
        if let Some(&g) = args.first() {
            self.local_base = Some(self.global_address(g));
            return Ok(());
        }
        if used.is_empty() {
            return Ok(());
        }
        let mut bytes = 0u64;
        for &g in &used {
            let src = &self.l.src.globals[g];
            let t = self.l.ty(src.ty)?;
            let a = self
                .l
                .out
                .align_of(t)
                .max(u64::from(src.align.unwrap_or(1)))
                .max(1);
            let at = bytes.div_ceil(a) * a;
            self.local_offsets.insert(g, at);
            bytes = at + self.l.out.size_of(t);
        }
        let u32t = self.l.out.int_type(32);
        let words = self.l.out.ty(Type::Array {
            elem: u32t,
            len: bytes.div_ceil(4).max(1),
        });
        let g = self.l.out.globals.append(Global {
            name: LOCAL_NAME.into(),
            ty: words,
            space: AddressSpace::Local,
            init: None,
            is_constant: false,
            align: None,
            linkage: ir::Linkage::Internal,
        });
        self.local_base = Some(self.global_address(g));
        Ok(())
    }
}
