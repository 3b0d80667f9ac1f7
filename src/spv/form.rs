//! The SPIR-V operand layout of the semantic builtins that are exactly one SPIR-V instruction
//! with constant or literal operands around the graph's: barriers, atomics, group copies,
//! work-group and sub-group collectives. Both directions live here, because four
//! places need them: the SPIR-V reader and writer, and the spirv-ir reader and writer (whose
//! `__spirv_*` calls take SPIR-V's operands in SPIR-V's order).

use spirv::{GroupOperation, Op as S, Scope};

use crate::ir::builtin::{AtomicOp, Builtin, Primitive};

/// One operand of the SPIR-V form, over a writer's value type `V`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot<V> {
    /// A graph operand.
    Value(V),
    /// A 32-bit integer constant (a scope or memory semantics).
    Int(u32),
    /// The constant 1 of the type of graph operand `n` (the stride of an unstrided copy).
    OneLike(usize),
    /// A literal GroupOperation (a literal in SPIR-V, an `i32` in the spirv-ir convention).
    Operation(GroupOperation),
}

/// Atomic instructions (pointer, scope, semantics, then any values): the operation each is.
pub fn is_atomic(op: S) -> bool {
    crate::mappings::atomic_op(op).is_some()
}

impl Builtin {
    /// The instruction and its operands, for the builtins this module covers; `args` are the
    /// graph operands.
    pub fn spirv_form<V: Copy>(&self, args: &[V]) -> Option<(S, Vec<Slot<V>>)> {
        let v = |i: usize| Slot::Value(args[i]);
        let wg = Slot::Int(Scope::Workgroup as u32);
        Some(match self {
            Builtin::ControlBarrier {
                exec,
                mem,
                semantics,
            } => (
                S::ControlBarrier,
                vec![
                    Slot::Int(*exec as u32),
                    Slot::Int(*mem as u32),
                    Slot::Int(*semantics),
                ],
            ),
            Builtin::MemoryBarrier { mem, semantics } => (
                S::MemoryBarrier,
                vec![Slot::Int(*mem as u32), Slot::Int(*semantics)],
            ),
            Builtin::Atomic {
                op,
                scope,
                semantics,
            } => {
                let (sc, se) = (Slot::Int(*scope as u32), Slot::Int(*semantics));
                let ops = match op {
                    // graph (ptr, cmp, value) -> (ptr, scope, equal, unequal, value, comparator)
                    AtomicOp::CompareExchange => {
                        let unequal = Slot::Int(unequal_semantics(*semantics));
                        vec![v(0), sc, se, unequal, v(2), v(1)]
                    }
                    _ => [v(0), sc, se]
                        .into_iter()
                        .chain((1..args.len()).map(v))
                        .collect(),
                };
                (crate::mappings::atomic_opcode(*op), ops)
            }
            Builtin::AsyncCopy { strided: true } => {
                (S::GroupAsyncCopy, vec![wg, v(0), v(1), v(2), v(3), v(4)])
            }
            Builtin::AsyncCopy { strided: false } => (
                S::GroupAsyncCopy,
                vec![wg, v(0), v(1), v(2), Slot::OneLike(2), v(3)],
            ),
            Builtin::WaitEvents => (S::GroupWaitEvents, vec![wg, v(0), v(1)]),
            Builtin::Group {
                op,
                scope,
                operation,
            } => (
                crate::mappings::group_opcode(*op),
                std::iter::once(Slot::Int(*scope as u32))
                    .chain(operation.map(Slot::Operation))
                    .chain((0..args.len()).map(v))
                    .collect(),
            ),
            _ => return None,
        })
    }

    /// Inverse of [`Builtin::spirv_form`]: the builtin and its graph operands, given the
    /// instruction's operands and how to read an operand as an integer constant. `None` for
    /// instructions this module does not cover; `Some(Err(what))` for ones it cannot take.
    pub fn from_spirv_form<V: Copy>(
        op: S,
        ops: &[V],
        int_of: impl Fn(V) -> Option<u32>,
    ) -> Option<Result<(Builtin, Vec<V>), String>> {
        // The weak compare-exchange (deprecated in SPIR-V 1.3) may fail spuriously, the strong
        // one never does: reading it as the strong one is always correct.
        let op = if op == S::AtomicCompareExchangeWeak {
            S::AtomicCompareExchange
        } else {
            op
        };
        let needs = match op {
            S::ControlBarrier | S::GroupWaitEvents => 3,
            S::MemoryBarrier => 2,
            S::GroupAsyncCopy => 6,
            S::AtomicCompareExchange => 6,
            _ if is_atomic(op) => 3,
            _ => match crate::mappings::group_op(op) {
                Some(g) => 1 + g.takes_group_operation() as usize,
                None => return None,
            },
        };
        Some((|| {
            if ops.len() < needs {
                return Err(format!(
                    "Op{op:?} takes {needs} operands, it has {}",
                    ops.len()
                ));
            }
            let int = |i: usize, what: &str| {
                int_of(ops[i]).ok_or_else(|| format!("the {what} of Op{op:?} is not a constant"))
            };
            let scope = |i: usize| {
                let s = int(i, "scope")?;
                Scope::from_u32(s).ok_or_else(|| format!("{s} is not a Scope"))
            };
            Ok(match op {
                S::ControlBarrier => (
                    Builtin::ControlBarrier {
                        exec: scope(0)?,
                        mem: scope(1)?,
                        semantics: int(2, "memory semantics")?,
                    },
                    vec![],
                ),
                S::MemoryBarrier => (
                    Builtin::MemoryBarrier {
                        mem: scope(0)?,
                        semantics: int(1, "memory semantics")?,
                    },
                    vec![],
                ),
                S::GroupAsyncCopy | S::GroupWaitEvents => {
                    if scope(0)? != Scope::Workgroup {
                        return Err(format!("Op{op:?} outside work-group scope"));
                    }
                    // A copy with stride 1 is the unstrided one (one graph form for
                    // async_work_group_copy, which SPIR-V can only say with a stride).
                    if op == S::GroupAsyncCopy && int_of(ops[4]) == Some(1) {
                        let args = vec![ops[1], ops[2], ops[3], ops[5]];
                        return Ok((Builtin::AsyncCopy { strided: false }, args));
                    }
                    let b = if op == S::GroupAsyncCopy {
                        Builtin::AsyncCopy { strided: true }
                    } else {
                        Builtin::WaitEvents
                    };
                    (b, ops[1..needs].to_vec())
                }
                _ if crate::mappings::group_op(op).is_some() => {
                    let operation = if needs == 2 {
                        let o = int(1, "group operation")?;
                        Some(
                            GroupOperation::from_u32(o)
                                .ok_or_else(|| format!("{o} is not a GroupOperation"))?,
                        )
                    } else {
                        None
                    };
                    let b = Builtin::Group {
                        op: crate::mappings::group_op(op).ok_or("not a collective")?,
                        scope: scope(0)?,
                        operation,
                    };
                    (b, ops[needs..].to_vec())
                }
                _ => {
                    let semantics = int(2, "memory semantics")?;
                    let args = if op == S::AtomicCompareExchange {
                        // The graph keeps one semantics; an unequal one no stronger is
                        // written back as `unequal_semantics` of it (at least as strong).
                        let unequal = int(3, "unequal memory semantics")?;
                        if order_strength(unequal) > order_strength(semantics) {
                            return Err("OpAtomicCompareExchange whose unequal semantics are \
                                        stronger than the equal ones"
                                .into());
                        }
                        vec![ops[0], ops[5], ops[4]]
                    } else {
                        std::iter::once(ops[0])
                            .chain(ops[3..].iter().copied())
                            .collect()
                    };
                    let b = Builtin::Atomic {
                        op: crate::mappings::atomic_op(op)
                            .ok_or_else(|| format!("Op{op:?} is no atomic"))?,
                        scope: scope(1)?,
                        semantics,
                    };
                    (b, args)
                }
            })
        })())
    }
}

/// The unequal semantics a compare-exchange is written with for equal semantics `sem`: the
/// same order without its release part (SPIR-V forbids Release and AcquireRelease there),
/// the same storage classes; relaxed if nothing is left.
pub fn unequal_semantics(sem: u32) -> u32 {
    const ORDER: u32 = 0x2 | 0x4 | 0x8 | 0x10;
    let order = match sem & ORDER {
        0x4 => 0,
        0x8 => 0x2,
        o => o,
    };
    if order == 0 {
        0
    } else {
        order | (sem & !ORDER)
    }
}

/// How strong a memory semantics' order is: relaxed, acquire or release, both, sequentially
/// consistent.
fn order_strength(sem: u32) -> u32 {
    match sem & (0x2 | 0x4 | 0x8 | 0x10) {
        0 => 0,
        0x2 | 0x4 => 1,
        0x8 => 2,
        _ => 3,
    }
}

/// The primitive a SPIR-V instruction in a function is read as (`Builtin::Primitive`), where
/// the graph keeps it as itself: its operands are ids and its meaning is the instruction's
/// own. `None` for the primitives the graph reads otherwise (the logical operations and
/// ordered tests are comparisons and binary operations of its own; a sampled image is kept
/// apart until its use) or makes only itself (the Vulkan lowering's pointer comparisons and
/// copies).
pub fn read_as_primitive(op: S) -> Option<Primitive> {
    use Primitive as P;
    match crate::mappings::primitive(op)? {
        P::LogicalAnd
        | P::LogicalOr
        | P::LogicalNot
        | P::LogicalEqual
        | P::LogicalNotEqual
        | P::Ordered
        | P::Unordered
        | P::PtrEqual
        | P::PtrNotEqual
        | P::CopyObject
        | P::SampledImage => None,
        p => Some(p),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The graph's collectives are exactly SPIR-V's group instructions over a scope: every
    /// `GroupOp` is one instruction and back, and every instruction of the grammar whose
    /// first operand is a scope and whose name is `Group*` or `GroupNonUniform*` (but the
    /// async copies, waits and pipe reservations, which are not collectives) is a `GroupOp`.
    #[test]
    fn collectives_are_the_group_instructions_over_a_scope() {
        use rspirv::grammar::OperandKind as K;
        for &g in crate::ir::GroupOp::ALL {
            assert_eq!(
                crate::mappings::group_op(crate::mappings::group_opcode(g)),
                Some(g)
            );
        }
        let mut n = 0;
        for code in 0..8000 {
            let Some(inst) = rspirv::grammar::INSTRUCTION_TABLE.lookup_opcode(code) else {
                continue;
            };
            let scoped = inst
                .operands
                .iter()
                .find(|o| !matches!(o.kind, K::IdResultType | K::IdResult))
                .is_some_and(|o| o.kind == K::IdScope);
            let other = [
                "GroupAsyncCopy",
                "GroupWaitEvents",
                "GroupReserve",
                "GroupCommit",
            ];
            let group = inst.opname.starts_with("GroupNonUniform")
                || (inst.opname.starts_with("Group")
                    && !inst.opname.ends_with("KHR")
                    && !inst.opname.ends_with("AMD")
                    && !inst.opname.ends_with("INTEL")
                    && !other.iter().any(|o| inst.opname.starts_with(o)));
            if scoped && group {
                assert!(
                    crate::mappings::group_op(inst.opcode).is_some()
                        || inst.opname.ends_with("NV")
                        || inst.opname.ends_with("EXT"),
                    "Op{} is a collective the graph has no GroupOp for",
                    inst.opname
                );
                n += 1;
            }
        }
        assert!(n >= crate::ir::GroupOp::ALL.len(), "{n}");
    }

    /// Every covered builtin survives form -> operands -> builtin (constants read back).
    #[test]
    fn forms_read_back() {
        let cases = [
            (
                Builtin::ControlBarrier {
                    exec: Scope::Workgroup,
                    mem: Scope::Device,
                    semantics: 0x110,
                },
                0,
            ),
            (
                Builtin::MemoryBarrier {
                    mem: Scope::Subgroup,
                    semantics: 0x8,
                },
                0,
            ),
            (
                Builtin::Atomic {
                    op: AtomicOp::CompareExchange,
                    scope: Scope::Device,
                    semantics: 0x10,
                },
                3,
            ),
            (
                Builtin::Atomic {
                    op: AtomicOp::Load,
                    scope: Scope::Device,
                    semantics: 0,
                },
                1,
            ),
            (
                Builtin::Atomic {
                    op: AtomicOp::IAdd,
                    scope: Scope::Workgroup,
                    semantics: 0x2,
                },
                2,
            ),
            (Builtin::AsyncCopy { strided: true }, 5),
            (Builtin::WaitEvents, 2),
            (
                Builtin::Group {
                    op: crate::ir::GroupOp::NonUniformIAdd,
                    scope: Scope::Subgroup,
                    operation: Some(GroupOperation::ClusteredReduce),
                },
                2,
            ),
            (
                Builtin::Group {
                    op: crate::ir::GroupOp::Broadcast,
                    scope: Scope::Workgroup,
                    operation: None,
                },
                2,
            ),
            (
                Builtin::Group {
                    op: crate::ir::GroupOp::NonUniformElect,
                    scope: Scope::Subgroup,
                    operation: None,
                },
                0,
            ),
        ];
        // Graph operands are 100, 101, ...; constants are encoded as 1000 + value.
        for (b, n) in cases {
            let args: Vec<u32> = (100..100 + n).collect();
            let (op, slots) = b.spirv_form(&args).unwrap();
            let ops: Vec<u32> = slots
                .iter()
                .map(|s| match s {
                    Slot::Value(v) => *v,
                    Slot::Int(i) => 1000 + i,
                    Slot::Operation(o) => 1000 + *o as u32,
                    Slot::OneLike(_) => unreachable!(),
                })
                .collect();
            let int_of = |v: u32| (v >= 1000).then(|| v - 1000);
            let (back, back_args) = Builtin::from_spirv_form(op, &ops, int_of).unwrap().unwrap();
            assert_eq!(back, b);
            assert_eq!(back_args, args);
        }
        let bad = Builtin::from_spirv_form(S::ControlBarrier, &[1000u32, 7, 1000], |v| {
            (v >= 1000).then(|| v - 1000)
        });
        assert!(bad.unwrap().unwrap_err().contains("not a constant"));
        assert!(Builtin::from_spirv_form(S::IAdd, &[1u32, 2], |_| None).is_none());
    }
}
