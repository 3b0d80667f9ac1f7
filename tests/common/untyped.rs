//! A typed SPIR-V module rewritten with SPV_KHR_untyped_pointers, as a producer that uses
//! the extension writes it (the Khronos translator's main branch with
//! `--spirv-ext=+SPV_KHR_untyped_pointers`; none is installable here): every pointer value
//! untyped, variables `OpUntypedVariableKHR` of their data type, access chains the untyped
//! ones naming their base type. Built-in input variables, struct members and pointers to
//! pointers in memory stay typed, as the extension allows.
#![allow(dead_code)]

use std::collections::HashMap;

use rspirv::binary::Assemble;
use rspirv::dr::{Instruction, Module, Operand};
use spirv::{Op, StorageClass, Word};

/// `words` (a module of ours; no module-scope OpExtInst) with untyped pointers, or why not.
pub fn untyped(words: &[u32]) -> Result<Vec<u32>, String> {
    let mut m: Module = rspirv::dr::load_words(words).map_err(|e| e.to_string())?;
    let mut next = m.header.as_ref().map_or(0, |h| h.bound);
    let mut fresh = || {
        next += 1;
        next - 1
    };
    // Pointer types and every value's original type.
    let mut pointers: HashMap<Word, (StorageClass, Word)> = HashMap::new();
    let mut type_of: HashMap<Word, Word> = HashMap::new();
    let all = m
        .types_global_values
        .iter()
        .chain(m.functions.iter().flat_map(|f| f.all_inst_iter()));
    for i in all {
        if let (Op::TypePointer, Some(p), [Operand::StorageClass(sc), Operand::IdRef(t)]) =
            (i.class.opcode, i.result_id, &i.operands[..])
        {
            pointers.insert(p, (*sc, *t));
        }
        if let (Some(t), Some(v)) = (i.result_type, i.result_id) {
            type_of.insert(v, t);
        }
    }
    // One untyped pointer type per storage class.
    let mut untyped_of: HashMap<StorageClass, Word> = HashMap::new();
    let mut classes: Vec<StorageClass> = pointers.values().map(|(sc, _)| *sc).collect();
    classes.sort_by_key(|sc| *sc as u32);
    classes.dedup();
    let mut decls = Vec::new();
    for sc in classes {
        let u = fresh();
        untyped_of.insert(sc, u);
        decls.push(Instruction::new(
            Op::TypeUntypedPointerKHR,
            None,
            Some(u),
            vec![Operand::StorageClass(sc)],
        ));
    }
    let untyped_type = |t: Word| pointers.get(&t).map(|(sc, _)| untyped_of[sc]);
    // Variables left typed: built-in inputs, and those whose address a constant holds (in a
    // struct member of typed pointer type).
    let in_constants: Vec<Word> = m
        .types_global_values
        .iter()
        .filter(|i| matches!(i.class.opcode, Op::ConstantComposite | Op::SpecConstantOp))
        .flat_map(|i| i.operands.iter())
        .filter_map(|o| match o {
            Operand::IdRef(v) => Some(*v),
            _ => None,
        })
        .collect();
    let input_vars: Vec<Word> = m
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::Variable)
        .filter(|i| {
            i.operands.first() == Some(&Operand::StorageClass(StorageClass::Input))
                || in_constants.contains(&i.result_id.unwrap())
        })
        .filter_map(|i| i.result_id)
        .collect();
    // Function types: pointer parameters and results untyped, duplicates merged.
    let mut function_types: HashMap<Vec<Word>, Word> = HashMap::new();
    let mut renamed: HashMap<Word, Word> = HashMap::new();
    let mut globals = Vec::new();
    for mut i in std::mem::take(&mut m.types_global_values) {
        match i.class.opcode {
            Op::TypeFunction => {
                let mut key = vec![i.operands.len() as Word];
                for o in &mut i.operands {
                    if let Operand::IdRef(t) = o {
                        *t = untyped_type(*t).unwrap_or(*t);
                        key.push(*t);
                    }
                }
                let id = i.result_id.unwrap();
                if let Some(&first) = function_types.get(&key) {
                    renamed.insert(id, first);
                    continue;
                }
                function_types.insert(key, id);
            }
            Op::Variable if !input_vars.contains(&i.result_id.unwrap()) => {
                i = variable(&i, &pointers, &untyped_of);
            }
            Op::ConstantNull | Op::Undef if !in_constants.contains(&i.result_id.unwrap()) => {
                if let Some(u) = i.result_type.and_then(untyped_type) {
                    i.result_type = Some(u);
                }
            }
            _ => {}
        }
        globals.push(i);
    }
    // The untyped pointer types before every other type (they depend on none).
    let at = globals
        .iter()
        .position(|i| i.result_id.is_some() && i.result_type.is_none())
        .unwrap_or(0);
    globals.splice(at..at, decls);
    m.types_global_values = globals;
    let types: HashMap<Word, Instruction> = m
        .types_global_values
        .iter()
        .filter(|i| i.result_type.is_none())
        .filter_map(|i| Some((i.result_id?, i.clone())))
        .collect();
    let mut byte_sizes = Vec::new();
    let opencl_std = m
        .ext_inst_imports
        .iter()
        .find(
            |i| matches!(i.operands.first(), Some(Operand::LiteralString(s)) if s == "OpenCL.std"),
        )
        .and_then(|i| i.result_id);
    for f in &mut m.functions {
        if let Some(d) = &mut f.def {
            if let Some(u) = d.result_type.and_then(untyped_type) {
                d.result_type = Some(u);
            }
            if let Some(Operand::IdRef(t)) = d.operands.get_mut(1) {
                *t = renamed.get(t).copied().unwrap_or(*t);
            }
        }
        for p in &mut f.parameters {
            if let Some(u) = p.result_type.and_then(untyped_type) {
                p.result_type = Some(u);
            }
        }
        for b in &mut f.blocks {
            let mut done = Vec::with_capacity(b.instructions.len());
            for mut i in std::mem::take(&mut b.instructions) {
                if i.class.opcode == Op::ExtInst
                    && i.operands.first() == opencl_std.map(Operand::IdRef).as_ref()
                    && i.operands.get(1)
                        == Some(&Operand::LiteralExtInstInteger(
                            spirv::OpenclStd100Op::prefetch as u32,
                        ))
                {
                    // As the Khronos translator writes `prefetch` with the extension: the
                    // pointer untyped, the count as the source gave it.
                    i = Instruction::new(
                        Op::UntypedPrefetchKHR,
                        None,
                        None,
                        i.operands[2..].to_vec(),
                    );
                }
                if matches!(
                    i.class.opcode,
                    Op::ExtInst | Op::AtomicFlagTestAndSet | Op::AtomicFlagClear
                ) {
                    // SPIRV-Tools wants these pointers typed: cast back, as a producer must.
                    for o in &mut i.operands {
                        let Operand::IdRef(v) = o else { continue };
                        let Some(&t) = type_of.get(v) else { continue };
                        if !pointers.contains_key(&t) || input_vars.contains(v) {
                            continue;
                        }
                        let c = fresh();
                        done.push(Instruction::new(
                            Op::Bitcast,
                            Some(t),
                            Some(c),
                            vec![Operand::IdRef(*v)],
                        ));
                        *v = c;
                    }
                }
                if i.class.opcode == Op::GroupAsyncCopy {
                    // The untyped form names the elements' size.
                    let Some(Operand::IdRef(dst)) = i.operands.get(1) else {
                        continue;
                    };
                    let pointee = pointers[&type_of[dst]].1;
                    let count = match i.operands.get(3) {
                        Some(Operand::IdRef(n)) => type_of[n],
                        _ => continue,
                    };
                    let bytes = fresh();
                    let size = size_of(&types, pointee).expect("an element size");
                    byte_sizes.push(Instruction::new(
                        Op::Constant,
                        Some(count),
                        Some(bytes),
                        vec![if size_of(&types, count) == Some(8) {
                            Operand::LiteralBit64(size)
                        } else {
                            Operand::LiteralBit32(size as u32)
                        }],
                    ));
                    let mut operands = i.operands.clone();
                    operands.insert(3, Operand::IdRef(bytes));
                    i = Instruction::new(
                        Op::UntypedGroupAsyncCopyKHR,
                        i.result_type,
                        i.result_id,
                        operands,
                    );
                }
                body(&mut i, &pointers, &untyped_of, &type_of, &input_vars);
                done.push(i);
            }
            b.instructions = done;
        }
    }
    m.types_global_values.append(&mut byte_sizes);
    m.capabilities.push(Instruction::new(
        Op::Capability,
        None,
        None,
        vec![Operand::Capability(spirv::Capability::UntypedPointersKHR)],
    ));
    m.extensions.push(Instruction::new(
        Op::Extension,
        None,
        None,
        vec![Operand::LiteralString("SPV_KHR_untyped_pointers".into())],
    ));
    if let Some(h) = &mut m.header {
        h.bound = next;
    }
    Ok(m.assemble())
}

/// The size in bytes of a scalar or vector type.
fn size_of(types: &HashMap<Word, Instruction>, t: Word) -> Option<u64> {
    let def = types.get(&t)?;
    match (def.class.opcode, &def.operands[..]) {
        (Op::TypeInt | Op::TypeFloat, [Operand::LiteralBit32(w), ..]) => Some(u64::from(*w) / 8),
        (Op::TypeVector, [Operand::IdRef(e), Operand::LiteralBit32(n)]) => {
            Some(size_of(types, *e)? * u64::from(if *n == 3 { 4 } else { *n }))
        }
        _ => None,
    }
}

/// `OpVariable %ptr SC [%init]` as `OpUntypedVariableKHR %U SC %data [%init]`.
fn variable(
    i: &Instruction,
    pointers: &HashMap<Word, (StorageClass, Word)>,
    untyped_of: &HashMap<StorageClass, Word>,
) -> Instruction {
    let (sc, data) = pointers[&i.result_type.unwrap()];
    let mut operands = vec![Operand::StorageClass(sc), Operand::IdRef(data)];
    operands.extend(i.operands.get(1).cloned());
    Instruction::new(
        Op::UntypedVariableKHR,
        Some(untyped_of[&sc]),
        i.result_id,
        operands,
    )
}

/// One instruction of a body, its pointer results untyped.
fn body(
    i: &mut Instruction,
    pointers: &HashMap<Word, (StorageClass, Word)>,
    untyped_of: &HashMap<StorageClass, Word>,
    type_of: &HashMap<Word, Word>,
    input_vars: &[Word],
) {
    let untyped = |t: Word| pointers.get(&t).map(|(sc, _)| untyped_of[sc]);
    let op = i.class.opcode;
    match op {
        Op::Variable => *i = variable(i, pointers, untyped_of),
        Op::AccessChain
        | Op::InBoundsAccessChain
        | Op::PtrAccessChain
        | Op::InBoundsPtrAccessChain => {
            let Some(Operand::IdRef(base)) = i.operands.first() else {
                return;
            };
            if input_vars.contains(base) {
                return;
            }
            let base_type = pointers[&type_of[base]].1;
            let untyped_op = match op {
                Op::AccessChain => Op::UntypedAccessChainKHR,
                Op::InBoundsAccessChain => Op::UntypedInBoundsAccessChainKHR,
                Op::PtrAccessChain => Op::UntypedPtrAccessChainKHR,
                _ => Op::UntypedInBoundsPtrAccessChainKHR,
            };
            let mut operands = vec![Operand::IdRef(base_type)];
            operands.append(&mut i.operands);
            *i = Instruction::new(
                untyped_op,
                i.result_type.and_then(untyped),
                i.result_id,
                operands,
            );
        }
        Op::Bitcast => {
            let from = match i.operands.first() {
                Some(Operand::IdRef(v)) => type_of.get(v).and_then(|t| untyped(*t)),
                _ => None,
            };
            let to = i.result_type.and_then(untyped);
            if from.is_some() && from == to {
                // Between two pointers of one storage class: the same untyped pointer.
                *i = Instruction::new(Op::CopyObject, to, i.result_id, i.operands.clone());
            } else if let Some(u) = to {
                i.result_type = Some(u);
            }
        }
        _ => {
            if let Some(u) = i.result_type.and_then(untyped) {
                i.result_type = Some(u);
            }
        }
    }
}
