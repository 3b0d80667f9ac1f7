//! proptest generators of well-formed graph modules (roundtrip/README.md, "Generated
//! modules"): a recipe of small numbers (`recipe.rs`) that the builder (`builder.rs`,
//! `body.rs`) turns into a module any recipe can make.

pub mod body;
pub mod builder;
pub mod builtins;
pub mod memory;
pub mod recipe;
pub mod regions;
pub mod seeds;

pub use builder::build;
pub use recipe::recipe;

use spir_xlate::ir::{Module, Op};

/// Puts `m` in the graph's normal forms where the generator makes another spelling on
/// purpose, so that the readers' normalization is exercised: every load, store and alloca
/// states its alignment, the ABI one when the generator made none (`Module::stated_align`;
/// LLVM's data layout is the independent judge of that alignment).
pub fn state_alignments(m: &mut Module) {
    let functions: Vec<_> = m.functions.iter().map(|(h, _)| h).collect();
    for f in functions {
        let Some(body) = m.functions[f].body.as_ref() else {
            continue;
        };
        let mut stated = Vec::new();
        for (h, inst) in body.insts.iter() {
            let pointee = match inst.op {
                Op::Alloca { allocated, .. } => allocated,
                Op::Load { ptr, .. } | Op::Store { ptr, .. } => {
                    let ty = m.value_type(&m.functions[f], ptr);
                    m.pointee(ty)
                        .expect("generated accesses are through pointers")
                }
                _ => continue,
            };
            stated.push((h, m.align_of(pointee) as u32));
        }
        let body = m.functions[f].body.as_mut().unwrap();
        for (h, natural) in stated {
            match &mut body.insts[h].op {
                Op::Alloca { align, .. } | Op::Load { align, .. } | Op::Store { align, .. } => {
                    *align = align.or(Some(natural))
                }
                _ => unreachable!(),
            }
        }
    }
}

/// Merges the forwarding blocks a recipe can make (an empty case block whose phi value is the
/// default's): they are not a graph form (`Body::merge_forwarders`).
pub fn merge_forwarders(m: &mut Module) {
    let functions: Vec<_> = m.functions.iter().map(|(h, _)| h).collect();
    for f in functions {
        if let Some(body) = m.functions[f].body.as_mut() {
            body.merge_forwarders();
        }
    }
}
