//! The region of addressed local memory (`addressed`): where a kernel's `__local` pointers
//! need addresses, all its local memory is one Workgroup array of 32-bit words and a local
//! pointer a byte offset into it, whichever object it points into.
//!
//! The array holds, in order:
//!
//! * `RESERVED` bytes that no object takes, so that no object is at address 0, the null
//!   pointer (`to_local` of a pointer into another space is NULL);
//! * the program-scope `__local` variables the kernel uses, each at its aligned offset
//!   (their size is known here);
//! * then each `__local` argument, in argument order, at a word boundary. The host sizes
//!   each one as clspv's convention says, by its own specialization constant (its length
//!   in elements of the type it points to), so the array's length and the arguments'
//!   offsets are specialization-constant expressions (`ConstantKind::SpecOp`,
//!   OpSpecConstantOp): an argument takes ⌈count × elem_size / 4⌉ words, and its offset
//!   is the words before it, times 4.
//!
//! A kernel with one `__local` argument and no variables keeps that argument's own array,
//! named after it.

use std::collections::BTreeSet;

use crate::diag::Result;
use crate::ir::{
    self, AddressSpace, BinaryOp, Constant, ConstantKind, Global, Handle, Type, Value,
};

use crate::vulkan::addressed::RESERVED;
use crate::vulkan::body::FnBuilder;

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
    for g in m.reachable_functions(f) {
        let Some(body) = &m.functions[g].body else {
            continue;
        };
        for (_, inst) in body.insts.iter() {
            ir::operands::for_each_use(&inst.op, |v| {
                if let Value::Const(c) = v {
                    locals_in(m, c, &mut out);
                }
            });
        }
    }
    out
}

/// A `__local` argument of a kernel whose local memory is addressed.
pub(in crate::vulkan) struct LocalArg {
    /// Its array's name (`kernel.argument`), for readers of the SPIR-V.
    pub name: String,
    /// Its length in elements: the specialization constant the host sets (the argument's
    /// size divided by `elem_size`, as clspv's convention says).
    pub count: Handle<Constant>,
    /// The bytes of one element: the size of the type the argument points to.
    pub elem_size: u64,
}

impl FnBuilder<'_, '_> {
    /// The offset of program-scope `__local` variable `g` in the kernel's region, once the
    /// region is placed (`local_region`).
    pub(in crate::vulkan) fn local_offset(&self, g: Handle<Global>) -> Option<u64> {
        self.addressed.local_offsets.get(&g).copied()
    }

    /// The address of global `g` of the shader-form module.
    fn global_address(&mut self, g: Handle<Global>) -> Value {
        let (pointee, space) = (self.l.out.globals[g].ty, self.l.out.globals[g].space);
        let pt = self.l.out.ty(Type::Pointer { pointee, space });
        Value::Const(self.l.out.constant(Constant {
            ty: pt,
            kind: ConstantKind::GlobalAddress(g),
        }))
    }

    /// The bytes the program-scope `__local` variables `used` take, each placed at its
    /// aligned offset (`local_offsets`).
    fn place_local_variables(&mut self, used: &BTreeSet<Handle<Global>>) -> Result<u64> {
        let mut bytes = RESERVED;
        for &g in used {
            let src = &self.l.src.globals[g];
            let t = self.l.ty(src.ty)?;
            let a = self
                .l
                .out
                .align_of(t)
                .max(u64::from(src.align.unwrap_or(1)))
                .max(1);
            let at = bytes.div_ceil(a) * a;
            self.addressed.local_offsets.insert(g, at);
            bytes = at + self.l.out.size_of(t);
        }
        Ok(bytes)
    }

    /// Set up the region of addressed local memory of `kernel`, whose `__local` arguments
    /// are `args`: each argument's byte offset in it, in order.
    pub(in crate::vulkan) fn local_region(
        &mut self,
        args: &[LocalArg],
        kernel: Handle<ir::Function>,
    ) -> Result<Vec<Value>> {
        let used = locals_used(self.l.src, kernel);
        if args.is_empty() && used.is_empty() {
            return Ok(Vec::new());
        }
        let fixed_words = self.place_local_variables(&used)?.div_ceil(4);
        let u32t = self.u32t();
        let words: Vec<Handle<Constant>> = args.iter().map(|a| self.local_arg_words(a)).collect();
        // The words before each argument, then the whole array's.
        let mut before = Vec::with_capacity(args.len());
        let mut len = self.l.out.int_const(u32t, fixed_words);
        for &w in &words {
            before.push(len);
            len = self.spec_op(BinaryOp::Add, len, w);
        }
        let name = match args {
            [only] if used.is_empty() => only.name.clone(),
            _ => LOCAL_NAME.to_string(),
        };
        let ty = if self.l.out.is_spec_constant(len) {
            self.l.out.ty(Type::SpecArray {
                elem: u32t,
                len,
                default_len: fixed_words
                    + args.iter().map(|a| a.elem_size.div_ceil(4)).sum::<u64>(),
            })
        } else {
            self.l.out.ty(Type::Array {
                elem: u32t,
                len: fixed_words,
            })
        };
        let g = self.l.out.globals.append(Global {
            name,
            ty,
            space: AddressSpace::Local,
            init: None,
            is_constant: false,
            align: None,
            linkage: ir::Linkage::Internal,
        });
        self.addressed.local_base = Some(self.global_address(g));
        let two = self.l.out.int_const(u32t, 2);
        Ok(before
            .into_iter()
            .map(|w| Value::Const(self.spec_op(BinaryOp::Shl, w, two)))
            .collect())
    }

    /// The 32-bit constant `lhs op rhs`, folded where both are plain integers.
    fn spec_op(
        &mut self,
        op: BinaryOp,
        lhs: Handle<Constant>,
        rhs: Handle<Constant>,
    ) -> Handle<Constant> {
        let u32t = self.u32t();
        let (a, b) = (
            &self.l.out.constants[lhs].kind,
            &self.l.out.constants[rhs].kind,
        );
        let folded = match (op, a, b) {
            (BinaryOp::Add, ConstantKind::Int(a), ConstantKind::Int(b)) => Some(a.wrapping_add(*b)),
            (BinaryOp::Mul, ConstantKind::Int(a), ConstantKind::Int(b)) => Some(a.wrapping_mul(*b)),
            (BinaryOp::Shl, ConstantKind::Int(a), ConstantKind::Int(b)) => Some(a << (b & 31)),
            (BinaryOp::LShr, ConstantKind::Int(a), ConstantKind::Int(b)) => Some(a >> (b & 31)),
            _ => None,
        };
        if let Some(v) = folded {
            return self.l.out.int_const(u32t, v & 0xffff_ffff);
        }
        self.l.out.constant(Constant {
            ty: u32t,
            kind: ConstantKind::SpecOp { op, lhs, rhs },
        })
    }

    /// The words argument `a` takes: ⌈count × elem_size / 4⌉.
    fn local_arg_words(&mut self, a: &LocalArg) -> Handle<Constant> {
        let u32t = self.u32t();
        match a.elem_size {
            4 => a.count,
            s if s % 4 == 0 => {
                let k = self.l.out.int_const(u32t, s / 4);
                self.spec_op(BinaryOp::Mul, a.count, k)
            }
            s => {
                let k = self.l.out.int_const(u32t, s);
                let three = self.l.out.int_const(u32t, 3);
                let two = self.l.out.int_const(u32t, 2);
                let bytes = self.spec_op(BinaryOp::Mul, a.count, k);
                let up = self.spec_op(BinaryOp::Add, bytes, three);
                self.spec_op(BinaryOp::LShr, up, two)
            }
        }
    }
}
