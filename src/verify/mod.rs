//! The graph's verifier: the invariants every reader must establish and every writer may
//! rely on, checked on a whole module, every violation reported with its place.
//!
//! [`verify`] checks the module's form (OpenCL or shader, `Module::shader_form`), each
//! kernel's signature, globals and constants, and each function's blocks, operands and
//! types, and that every use is dominated by its definition (`dominance`). The typing rules of instructions are in `types`, those of builtins in `builtins`
//! (OpenCL 2.0's in `builtins_cl20`). Readers run it on their result; a writer never sees a
//! graph that fails it.

mod builtins;
mod builtins_cl20;
mod dominance;
mod types;

pub(crate) use types::{builtin_name, constant_error, op_type_error};

use crate::hash::HashSet;

use crate::ir::function::{Body, Function, Op, Terminator, Value};
use crate::ir::module::Module;
use crate::ir::operands::for_each_operand;
use crate::ir::types::Type;

/// One broken invariant, with where it was found: `place` is `function 'k'`, `global @g` or
/// `constant [n]`, and `block` the block of a function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyError {
    /// `function 'k'`, `global @g` or `constant [n]`.
    pub place: String,
    /// The block of a function, by index.
    pub block: Option<usize>,
    /// The broken invariant.
    pub message: String,
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.block {
            Some(b) => write!(f, "in {}, block {b}: {}", self.place, self.message),
            None => write!(f, "in {}: {}", self.place, self.message),
        }
    }
}

/// Check the module; returns every violation found.
pub fn verify(m: &Module) -> Vec<VerifyError> {
    let mut errors = Vec::new();
    for k in &m.kernels {
        let f = &m.functions[k.function];
        let err = |message: String| VerifyError {
            place: format!("function '{}'", f.name),
            block: None,
            message,
        };
        if !f.is_kernel {
            errors.push(err("listed as a kernel but not marked as one".into()));
        }
        if !matches!(m.types[f.ret], Type::Void) {
            errors.push(err("kernel does not return void".into()));
        }
        // A shader-form entry takes no parameters: its arguments are in `m.shader`.
        if m.shader.is_none() && k.args.len() != f.params.len() {
            errors.push(err(format!(
                "kernel has {} parameters but argument info for {}",
                f.params.len(),
                k.args.len()
            )));
        }
    }
    for (h, c) in m.constants.iter() {
        if let Some(e) = types::constant_error(m, c) {
            errors.push(VerifyError {
                place: format!("constant {h:?}"),
                block: None,
                message: e,
            });
        }
    }
    for (_, g) in m.globals.iter() {
        let err = |message: String| VerifyError {
            place: format!("global @{}", g.name),
            block: None,
            message,
        };
        if let Some(c) = g.init {
            if m.constants[c].ty != g.ty {
                errors.push(err("initializer is not of the global's type".into()));
            }
        }
        if let Some(e) = types::align_error(g.align) {
            errors.push(err(e));
        }
    }
    for (_, f) in m.functions.iter() {
        verify_function(m, f, &mut errors);
    }
    verify_form(m, &mut errors);
    errors
}

/// The module's form (`Module::shader`: OpenCL form without, shader form with) holds in
/// its types and globals: an OpenCL-form module has none of the shader-only address spaces
/// or types (the Vulkan lowering's), a shader-form one no generic pointers and no kernel
/// parameters (its arguments arrive as `shader` says).
fn verify_form(m: &Module, errors: &mut Vec<VerifyError>) {
    let shader = m.shader.is_some();
    let form = if shader { "shader" } else { "OpenCL" };
    let wrong_space = |space: crate::ir::types::AddressSpace| {
        if shader {
            space == crate::ir::types::AddressSpace::Generic
        } else {
            space.is_shader_only()
        }
    };
    for (h, t) in m.types.iter() {
        let bad = match t {
            Type::Pointer { space, .. } => wrong_space(*space),
            Type::ShaderImage { .. } | Type::SpecArray { .. } | Type::RuntimeArray { .. } => {
                !shader
            }
            _ => false,
        };
        if bad {
            errors.push(VerifyError {
                place: format!("type {}", crate::ir::print::type_text(m, h)),
                block: None,
                message: format!("this type has no place in a module of the {form} form"),
            });
        }
    }
    for (_, g) in m.globals.iter() {
        if wrong_space(g.space) {
            errors.push(VerifyError {
                place: format!("global @{}", g.name),
                block: None,
                message: format!(
                    "{:?} memory has no place in a module of the {form} form",
                    g.space
                ),
            });
        }
    }
    for (h, c) in m.constants.iter() {
        if let crate::ir::constant::ConstantKind::SpecOp { op, .. } = c.kind {
            let message = if !shader {
                "an operation on specialization constants has no place in a module of the \
                 OpenCL form"
                    .to_string()
            } else if op.is_float() {
                format!("{op:?} of specialization constants (a float operation)")
            } else {
                continue;
            };
            errors.push(VerifyError {
                place: format!("constant {h:?}"),
                block: None,
                message,
            });
        }
    }
    if shader {
        for k in &m.kernels {
            let f = &m.functions[k.function];
            if !f.params.is_empty() {
                errors.push(VerifyError {
                    place: format!("function '{}'", f.name),
                    block: None,
                    message: "a shader-form entry point has parameters".into(),
                });
            }
        }
        verify_restrict_holders(m, errors);
    }
}

/// Each `restrict` argument's holder (`ArgKind::restrict_holder`) is
/// a placed Function variable of its entry function that holds a physical address.
fn verify_restrict_holders(m: &Module, errors: &mut Vec<VerifyError>) {
    use crate::ir::types::AddressSpace;
    for k in m.shader.iter().flat_map(|s| &s.kernels) {
        let f = &m.functions[k.entry];
        for a in &k.args {
            let Some(h) = a.kind.restrict_holder() else {
                continue;
            };
            let placed = f.body.as_ref().is_some_and(|b| {
                b.blocks.iter().any(|blk| blk.insts.contains(&h))
                    && matches!(b.insts[h].op, crate::ir::Op::Alloca { allocated, .. }
                    if matches!(m.types[allocated], Type::Pointer {
                        space: AddressSpace::PhysicalStorageBuffer, ..
                    }))
            });
            if !placed {
                errors.push(VerifyError {
                    place: format!("function '{}'", f.name),
                    block: None,
                    message: format!(
                        "argument {}'s restrict holder is no variable of the entry function \
                         holding a physical address",
                        a.ordinal
                    ),
                });
            }
        }
    }
}

fn verify_function(m: &Module, f: &Function, errors: &mut Vec<VerifyError>) {
    if let Some(e) = types::param_attr_error(m, f) {
        errors.push(VerifyError {
            place: format!("function '{}'", f.name),
            block: None,
            message: e,
        });
    }
    let Some(body) = &f.body else { return };
    let mut push = |block: Option<usize>, message: String| {
        errors.push(VerifyError {
            place: format!("function '{}'", f.name),
            block,
            message,
        })
    };
    if body.blocks.is_empty() {
        push(None, "function body has no blocks".into());
        return;
    }
    let defined = placed_instructions(body, &mut push);
    let nblocks = body.blocks.len() as u32;
    let preds = incoming_edges(body);
    for (bi, b) in body.blocks.iter().enumerate() {
        // Whether `v` exists (an error for each that does not).
        let check_value = |v: Value, push: &mut dyn FnMut(Option<usize>, String)| {
            let missing = match v {
                Value::Param(p) if p as usize >= f.params.len() => {
                    format!("use of parameter {p} which does not exist")
                }
                Value::Inst(h) if !defined.get(h.index()).copied().unwrap_or(false) => {
                    format!("use of instruction {h:?} which is in no block")
                }
                Value::Const(c) if c.index() >= m.constants.len() => {
                    format!("use of constant {c:?} which does not exist")
                }
                _ => return true,
            };
            push(Some(bi), missing);
            false
        };
        let mut seen_non_phi = false;
        for &ih in &b.insts {
            // A handle beyond the arena was reported above.
            let Some(inst) = body.insts.get(ih) else {
                continue;
            };
            let mut operands_exist = true;
            for_each_operand(&inst.op, |v| operands_exist &= check_value(v, &mut push));
            if !operands_exist {
                continue;
            }
            if let Some(e) = types::type_error(m, f, inst.ty, &inst.op) {
                push(Some(bi), e);
            }
            match &inst.op {
                Op::Phi { incoming } => {
                    if seen_non_phi {
                        push(Some(bi), "phi after a non-phi instruction".into());
                    }
                    for (_, blk) in incoming {
                        if blk.0 >= nblocks {
                            push(
                                Some(bi),
                                format!("phi names block {} which does not exist", blk.0),
                            );
                        }
                    }
                    let mut named: Vec<u32> = incoming.iter().map(|(_, b)| b.0).collect();
                    named.sort_unstable();
                    if named != preds[bi] {
                        push(
                            Some(bi),
                            "a phi's incoming blocks are not one per edge into its block".into(),
                        );
                    }
                }
                Op::Load { ptr, .. } => {
                    seen_non_phi = true;
                    let pt = m.value_type(f, *ptr);
                    if m.pointee(pt) != Some(inst.ty) {
                        push(Some(bi), "load result type is not the pointee type".into());
                    }
                }
                Op::Store { ptr, value, .. } => {
                    seen_non_phi = true;
                    let pt = m.value_type(f, *ptr);
                    if m.pointee(pt) != Some(m.value_type(f, *value)) {
                        push(Some(bi), "stored value type is not the pointee type".into());
                    }
                }
                _ => seen_non_phi = true,
            }
        }
        let targets: Vec<u32> = match &b.terminator {
            Terminator::Branch(t) => vec![t.0],
            Terminator::CondBranch {
                cond,
                on_true,
                on_false,
            } => {
                if check_value(*cond, &mut push) && m.types[m.value_type(f, *cond)] != Type::Bool {
                    push(Some(bi), "branch condition is not a boolean".into());
                }
                vec![on_true.0, on_false.0]
            }
            Terminator::Switch {
                value,
                default,
                cases,
            } => {
                if check_value(*value, &mut push) {
                    let bits = match m.types[m.value_type(f, *value)] {
                        Type::Int { width } if width < 64 => (1u64 << width) - 1,
                        _ => u64::MAX,
                    };
                    let mut seen = HashSet::default();
                    if cases.iter().any(|(v, _)| !seen.insert(v & bits)) {
                        push(Some(bi), "a switch names one case value twice".into());
                    }
                }
                std::iter::once(default.0)
                    .chain(cases.iter().map(|c| c.1 .0))
                    .collect()
            }
            Terminator::Return(v) => {
                let returned = match v {
                    Some(v) if check_value(*v, &mut push) => Some(m.value_type(f, *v)),
                    Some(_) => Some(f.ret),
                    None => None,
                };
                if returned.unwrap_or(f.ret) != f.ret
                    || (returned.is_none() && m.types[f.ret] != Type::Void)
                {
                    push(Some(bi), "returned value is not of the return type".into());
                }
                vec![]
            }
            Terminator::Unreachable => vec![],
        };
        for t in targets {
            if t >= nblocks {
                push(
                    Some(bi),
                    format!("branch to block {t} which does not exist"),
                );
            }
        }
    }
    dominance::check(body, m.shader.is_some(), &mut push);
}

/// Which instructions of the arena are placed in a block, by index; a block that holds one
/// beyond the arena, or an instruction placed twice, is reported.
fn placed_instructions(body: &Body, push: &mut impl FnMut(Option<usize>, String)) -> Vec<bool> {
    let mut defined = vec![false; body.insts.len()];
    for b in &body.blocks {
        for &i in &b.insts {
            let Some(placed) = defined.get_mut(i.index()) else {
                push(
                    None,
                    format!("block holds instruction {i:?}, which does not exist"),
                );
                continue;
            };
            if std::mem::replace(placed, true) {
                push(
                    None,
                    format!("instruction {i:?} placed in more than one block"),
                );
            }
        }
    }
    defined
}

/// Each block's incoming edges, for the phis: one entry per edge, as LLVM has them (two
/// edges from one block are two entries; `normal::forwarders`), sorted.
fn incoming_edges(body: &Body) -> Vec<Vec<u32>> {
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); body.blocks.len()];
    for (bi, b) in body.blocks.iter().enumerate() {
        for s in b.terminator.successors() {
            if let Some(p) = preds.get_mut(s) {
                p.push(bi as u32);
            }
        }
    }
    for p in &mut preds {
        p.sort_unstable();
    }
    preds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Addressing, BinaryOp, Block, Body, Handle, Inst, Linkage};

    /// A block that places an instruction twice, or names one beyond the arena, is reported
    /// with the rest, not a panic; a use of an instruction in no block is reported too.
    #[test]
    fn misplaced_instructions_are_reported() {
        let mut m = Module::new(Addressing::Physical64);
        let void = m.void_type();
        let i32t = m.int_type(32);
        let one = Value::Const(m.int_const(i32t, 1));
        let mut body = Body::default();
        let add = |lhs, rhs| Inst {
            loc: None,
            name: None,
            ty: i32t,
            op: Op::Binary {
                op: BinaryOp::Add,
                lhs,
                rhs,
                flags: Default::default(),
            },
        };
        let placed = body.insts.append(add(one, one));
        let unplaced = body.insts.append(add(one, one));
        let user = body.insts.append(add(Value::Inst(unplaced), one));
        body.blocks.push(Block {
            terminator_loc: None,
            name: None,
            insts: vec![placed, placed, user, Handle::new(9)],
            terminator: Terminator::Return(None),
            construct: None,
        });
        m.functions.append(Function {
            name: "f".into(),
            ret: void,
            params: Vec::new(),
            is_kernel: false,
            linkage: Linkage::Internal,
            body: Some(body),
        });
        let errors: Vec<String> = verify(&m).iter().map(|e| e.to_string()).collect();
        let has = |s: &str| errors.iter().any(|e| e.contains(s));
        assert!(has("placed in more than one block"), "{errors:?}");
        assert!(has("which does not exist"), "{errors:?}");
        assert!(has("which is in no block"), "{errors:?}");
        assert_eq!(errors.len(), 3, "{errors:?}");
    }
}
