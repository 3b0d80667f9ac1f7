//! What is read from a function before its instructions are lowered: the stack slots clang
//! -O0 spills parameters to (and which of them hold images or samplers), and the order the
//! blocks are lowered in.

use crate::hash::HashMap;

use llvm_ir::{Instruction as I, Name, Operand, Terminator as T};

use crate::ir::{self, Type};

/// Allocas that a parameter of image or sampler type is stored into, with that type.
pub(super) fn object_slots(
    m: &ir::Module,
    func: ir::Handle<ir::Function>,
    f: &llvm_ir::Function,
) -> HashMap<Name, ir::Handle<Type>> {
    let params = &m.functions[func].params;
    // (A parameter the graph's function does not have, as a malformed module's may be, holds
    // no object.)
    let mut slots: HashMap<Name, ir::Handle<Type>> = param_spills(f)
        .into_iter()
        .filter_map(|(slot, i)| Some((slot, params.get(i)?.ty)))
        .filter(|(_, t)| matches!(m.types[*t], Type::Image(_) | Type::Sampler))
        .map(|(slot, t)| (slot.clone(), t))
        .collect();
    // A variable the object is copied into (`sampler_t s = arg;`): a store of a load from a
    // slot makes its address a slot of the same type.
    let mut loads: HashMap<&Name, &Name> = HashMap::default();
    let mut stores: Vec<(&Name, &Name)> = Vec::new();
    for inst in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
        match inst {
            I::Load(ld) => {
                if let Operand::LocalOperand { name: a, .. } = &ld.address {
                    loads.insert(&ld.dest, a);
                }
            }
            I::Store(st) => {
                if let (
                    Operand::LocalOperand { name: v, .. },
                    Operand::LocalOperand { name: a, .. },
                ) = (&st.value, &st.address)
                {
                    stores.push((v, a));
                }
            }
            _ => {}
        }
    }
    loop {
        let before = slots.len();
        for &(v, a) in &stores {
            let from = loads.get(v).and_then(|src| slots.get(*src)).copied();
            if let (Some(t), false) = (from, slots.contains_key(a)) {
                slots.insert(a.clone(), t);
            }
        }
        if slots.len() == before {
            return slots;
        }
    }
}

/// The stack slots clang -O0 spills parameters to: each address a parameter is stored to
/// (by name), with the parameter's index.
pub(crate) fn param_spills(f: &llvm_ir::Function) -> HashMap<&Name, usize> {
    let params: HashMap<&Name, usize> = f
        .parameters
        .iter()
        .enumerate()
        .map(|(i, p)| (&p.name, i))
        .collect();
    let mut slots = HashMap::default();
    for inst in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
        if let I::Store(st) = inst {
            if let (Operand::LocalOperand { name: v, .. }, Operand::LocalOperand { name: a, .. }) =
                (&st.value, &st.address)
            {
                if let Some(&i) = params.get(v) {
                    slots.insert(a, i);
                }
            }
        }
    }
    slots
}

/// Reverse post-order from the entry, then any unreachable blocks in source order.
pub(super) fn block_order(f: &llvm_ir::Function) -> Vec<usize> {
    let index: HashMap<&Name, usize> = f
        .basic_blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (&b.name, i))
        .collect();
    let succs = |i: usize| -> Vec<usize> {
        let names: Vec<&Name> = match &f.basic_blocks[i].term {
            T::Br(b) => vec![&b.dest],
            T::CondBr(b) => vec![&b.true_dest, &b.false_dest],
            T::Switch(s) => std::iter::once(&s.default_dest)
                .chain(s.dests.iter().map(|d| &d.1))
                .collect(),
            _ => vec![],
        };
        names
            .into_iter()
            .filter_map(|n| index.get(n).copied())
            .collect()
    };
    crate::ir::cfg::reverse_post_order(f.basic_blocks.len(), succs)
}
