//! SPIR 2.0's blocks as a function holds them (SPIR 2.0 §2.1.3.7): each `spir_block_bind`,
//! and the loads, block variables and `spir_get_block_invoke`/`spir_get_block_context`
//! results that stand for one ([`BlockTable`]), found before the function is lowered.
//! blocks.rs lowers what uses them.

use crate::hash::{HashMap, HashSet};

use either::Either;
use llvm_ir::instruction::Call;
use llvm_ir::{Constant as C, Instruction as I, Name, Operand};

use super::local_names::LocalNames;
use super::types::{is_block_type, name_str};
use crate::diag::{Error, Result};

pub(super) const BIND: &str = "spir_block_bind";
pub(super) const GET_INVOKE: &str = "spir_get_block_invoke";
pub(super) const GET_CONTEXT: &str = "spir_get_block_context";

/// Whether `name` is one of SPIR 2.0's block functions.
pub(crate) fn is_block_function(name: &str) -> bool {
    matches!(name, BIND | GET_INVOKE | GET_CONTEXT)
}

/// One `spir_block_bind`.
#[derive(Clone, Debug)]
pub(super) struct Bind {
    /// The invoke function's name.
    pub(super) invoke: String,
    pub(super) size: u64,
    pub(super) align: u64,
    pub(super) context: Operand,
}

/// The blocks of one function: each `spir_block_bind`, and the names that stand for one.
#[derive(Default)]
pub(super) struct BlockTable {
    binds: HashMap<Name, Bind>,
    /// Loads from a block variable, by the variable they read.
    loads: HashMap<Name, Name>,
    /// Block variables, with the block stored to each (`None` where two differ).
    slots: HashMap<Name, Option<Operand>>,
    /// `spir_get_block_invoke` results and their casts, by the block they read.
    pub(super) invokes: HashMap<Name, Operand>,
    /// `spir_get_block_context` results, by the block they read.
    pub(super) contexts: HashMap<Name, Operand>,
    /// A bind whose operands are not of the specification's form: the error, for its uses.
    broken: HashMap<Name, String>,
}

impl BlockTable {
    /// Collect the blocks of `f` (nothing when it has none).
    pub(super) fn scan(f: &llvm_ir::Function) -> BlockTable {
        let mut t = BlockTable::default();
        let mut slots: HashSet<Name> = HashSet::default();
        for inst in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
            match inst {
                I::Alloca(a) if is_block_type(&a.allocated_type) => {
                    slots.insert(a.dest.clone());
                }
                I::Call(c) => {
                    let (Some(name), Some(dest)) = (callee_name(c), &c.dest) else {
                        continue;
                    };
                    match name.as_str() {
                        BIND => match bind_of(c) {
                            Ok(b) => {
                                t.binds.insert(dest.clone(), b);
                            }
                            Err(e) => {
                                t.broken.insert(dest.clone(), e);
                            }
                        },
                        GET_INVOKE | GET_CONTEXT => {
                            if let Some((op, _)) = c.arguments.first() {
                                let map = if name == GET_INVOKE {
                                    &mut t.invokes
                                } else {
                                    &mut t.contexts
                                };
                                map.insert(dest.clone(), op.clone());
                            }
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        if t.binds.is_empty() && t.broken.is_empty() && slots.is_empty() {
            return t;
        }
        for inst in f.basic_blocks.iter().flat_map(|b| &b.instrs) {
            match inst {
                I::Store(s) if is_block_operand(&s.value) => {
                    if let Operand::LocalOperand { name, .. } = &s.address {
                        let entry = t.slots.entry(name.clone()).or_insert(Some(s.value.clone()));
                        if entry.as_ref() != Some(&s.value) {
                            *entry = None;
                        }
                    }
                }
                I::Load(l) => {
                    if let Operand::LocalOperand { name, .. } = &l.address {
                        if slots.contains(name) {
                            t.loads.insert(l.dest.clone(), name.clone());
                        }
                    }
                }
                I::BitCast(b) => {
                    if let Operand::LocalOperand { name, .. } = &b.operand {
                        if let Some(block) = t.invokes.get(name).cloned() {
                            t.invokes.insert(b.dest.clone(), block);
                        }
                    }
                }
                _ => {}
            }
        }
        t
    }

    /// Whether `inst` only moves blocks around (block variables, their stores and loads, the
    /// cast of a block's invoke pointer): it has no instruction in the graph.
    pub(super) fn is_plumbing(&self, inst: &I) -> bool {
        match inst {
            I::Alloca(a) => is_block_type(&a.allocated_type),
            I::Store(s) => is_block_operand(&s.value),
            I::Load(l) => self.loads.contains_key(&l.dest),
            I::BitCast(b) => self.invokes.contains_key(&b.dest),
            _ => false,
        }
    }

    /// What `name` is when it is a value of the block encoding, which has none in the graph
    /// (a block, its invoke function pointer or its context pointer).
    pub(super) fn has_no_value(&self, name: &Name) -> Option<&'static str> {
        if self.binds.contains_key(name) || self.broken.contains_key(name) {
            Some("the block")
        } else if self.loads.contains_key(name) {
            Some("the block loaded as")
        } else if self.invokes.contains_key(name) {
            Some("the block invoke pointer")
        } else if self.contexts.contains_key(name) {
            Some("the block context pointer")
        } else {
            None
        }
    }

    /// Whether `name` is a block's invoke function pointer (the callee of a block call).
    pub(super) fn is_invoke_pointer(&self, name: &Name) -> bool {
        self.invokes.contains_key(name)
    }

    /// The `spir_block_bind` a block operand comes from.
    pub(super) fn bind(&self, op: &Operand, names: &LocalNames) -> Result<&Bind> {
        let mut op = op.clone();
        for _ in 0..64 {
            let Operand::LocalOperand { name, .. } = &op else {
                return Err(Error::unsupported(
                    "a block that is not made by spir_block_bind (a null or constant block)",
                ));
            };
            if let Some(b) = self.binds.get(name) {
                return Ok(b);
            }
            if let Some(e) = self.broken.get(name) {
                return Err(Error::unsupported(e.clone()));
            }
            let Some(slot) = self.loads.get(name) else {
                return Err(Error::unsupported(format!(
                    "block %{} is not made by spir_block_bind in this function (a block \
                     parameter or a block chosen at run time; SPIR 2.0 section 2.1.3.7)",
                    names.spell(name)
                )));
            };
            match self.slots.get(slot) {
                Some(Some(v)) => op = v.clone(),
                Some(None) => {
                    return Err(Error::unsupported(format!(
                        "block variable %{} holds more than one block",
                        names.spell(slot)
                    )))
                }
                None => {
                    return Err(Error::unsupported(format!(
                        "block variable %{} is read but never stored",
                        names.spell(slot)
                    )))
                }
            }
        }
        Err(Error::unsupported(
            "a block stored through a cycle of block variables",
        ))
    }
}

pub(super) fn callee_name(c: &Call) -> Option<String> {
    match &c.function {
        Either::Right(Operand::ConstantOperand(k)) => match k.as_ref() {
            C::GlobalReference { name, .. } => Some(name_str(name)),
            _ => None,
        },
        _ => None,
    }
}

pub(super) fn is_block_operand(op: &Operand) -> bool {
    match op {
        Operand::LocalOperand { ty, .. } => is_block_type(ty),
        Operand::ConstantOperand(c) => match c.as_ref() {
            C::Null(ty) | C::Undef(ty) => is_block_type(ty),
            _ => false,
        },
        Operand::MetadataOperand => false,
    }
}

/// The operands of a `spir_block_bind` call, checked against §2.1.3.7.
pub(super) fn bind_of(c: &Call) -> std::result::Result<Bind, String> {
    let [(invoke, _), (size, _), (align, _), (context, _)] = &c.arguments[..] else {
        return Err(format!(
            "{BIND} with {} operands, where SPIR 2.0 gives it 4",
            c.arguments.len()
        ));
    };
    let invoke = function_of(invoke)
        .ok_or_else(|| format!("{BIND} whose invoke operand is not a cast of a function"))?;
    let int = |op: &Operand| match op {
        Operand::ConstantOperand(k) => match k.as_ref() {
            C::Int { value, .. } => Some(*value),
            _ => None,
        },
        _ => None,
    };
    let (Some(size), Some(align)) = (int(size), int(align)) else {
        return Err(format!(
            "{BIND} whose captured size or alignment is not an immediate value"
        ));
    };
    if size > u64::from(u32::MAX) || (size > 0 && !align.is_power_of_two()) || align > 1 << 16 {
        return Err(format!(
            "{BIND} of captured size {size} and alignment {align} (not a size and an alignment)"
        ));
    }
    Ok(Bind {
        invoke,
        size,
        align,
        context: context.clone(),
    })
}

/// The function a constant (cast of a) function reference names.
pub(super) fn function_of(op: &Operand) -> Option<String> {
    let Operand::ConstantOperand(k) = op else {
        return None;
    };
    let mut k = k.clone();
    loop {
        k = match k.as_ref() {
            C::GlobalReference { name, .. } => return Some(name_str(name)),
            C::BitCast(b) => b.operand.clone(),
            C::AddrSpaceCast(b) => b.operand.clone(),
            _ => return None,
        };
    }
}
