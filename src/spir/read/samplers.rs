//! Legacy SPIR passes samplers as `i32`. A kernel's sampler arguments are known from its
//! argument info (`sampler_t`), but a helper function that receives one only sees an `i32`
//! parameter, and the graph (like SPIR-V) needs it typed as a sampler. This finds every such
//! parameter: an `i32` parameter that is passed to a builtin's `ocl_sampler` operand, or that
//! exchanges values with another sampler parameter through a call, in either direction
//! (a fixpoint over the call graph).

use crate::hash::HashMap;
use std::collections::BTreeSet;

use either::Either;
use llvm_ir::{Constant as C, Instruction, Name, Operand, Type as LT};

use super::kernels::KernelInfo;
use super::types::name_str;
use crate::ir::Type;
use crate::spir::demangle::{demangle, MType};

/// (function name, parameter index)
type ParamRef = (String, usize);

/// The `i32` parameters of each function that carry a sampler.
pub(crate) fn sampler_params(
    llvm: &llvm_ir::Module,
    kernels: &HashMap<String, KernelInfo>,
) -> HashMap<String, BTreeSet<usize>> {
    let mut marked: BTreeSet<ParamRef> = BTreeSet::new();
    // Call edges that tie a caller's parameter to a callee's parameter.
    let mut edges: Vec<(ParamRef, ParamRef)> = Vec::new();
    for (name, info) in kernels {
        for (&i, t) in &info.param_types {
            if matches!(t, Type::Sampler) {
                marked.insert((name.clone(), i));
            }
        }
    }
    for f in &llvm.functions {
        let i32_params = param_carriers(f);
        if i32_params.is_empty() {
            continue;
        }
        for inst in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
            let Instruction::Call(call) = inst else {
                continue;
            };
            let Either::Right(Operand::ConstantOperand(c)) = &call.function else {
                continue;
            };
            let C::GlobalReference { name: callee, .. } = c.as_ref() else {
                continue;
            };
            let callee = name_str(callee);
            let builtin = demangle(&callee);
            for (j, (arg, _)) in call.arguments.iter().enumerate() {
                let Operand::LocalOperand { name, .. } = arg else {
                    continue;
                };
                let Some(&i) = i32_params.get(name) else {
                    continue;
                };
                let here = (f.name.clone(), i);
                match &builtin {
                    Some(d) => {
                        if matches!(d.params.get(j), Some(MType::Named(n)) if n == "ocl_sampler") {
                            marked.insert(here);
                        }
                    }
                    None => edges.push((here, (callee.clone(), j))),
                }
            }
        }
    }
    loop {
        let before = marked.len();
        for (a, b) in &edges {
            if marked.contains(a) || marked.contains(b) {
                marked.insert(a.clone());
                marked.insert(b.clone());
            }
        }
        if marked.len() == before {
            break;
        }
    }
    let mut out: HashMap<String, BTreeSet<usize>> = HashMap::default();
    for (f, i) in marked {
        if !kernels.contains_key(&f) {
            out.entry(f).or_default().insert(i);
        }
    }
    out
}

/// The values of `f` that carry one of its `i32` parameters: the parameter itself and, as
/// clang -O0 spills every parameter, loads from the stack slot it was stored to.
fn param_carriers(f: &llvm_ir::Function) -> HashMap<&Name, usize> {
    let is_i32 = |i: usize| matches!(f.parameters[i].ty.as_ref(), LT::IntegerType { bits: 32 });
    let mut carriers: HashMap<&Name, usize> = f
        .parameters
        .iter()
        .enumerate()
        .filter(|&(i, _)| is_i32(i))
        .map(|(i, p)| (&p.name, i))
        .collect();
    if carriers.is_empty() {
        return carriers;
    }
    let slots: HashMap<&Name, usize> = super::body::param_spills(f)
        .into_iter()
        .filter(|&(_, i)| is_i32(i))
        .collect();
    for inst in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
        if let Instruction::Load(ld) = inst {
            if let Operand::LocalOperand { name: a, .. } = &ld.address {
                if let Some(&i) = slots.get(a) {
                    carriers.insert(&ld.dest, i);
                }
            }
        }
    }
    carriers
}
