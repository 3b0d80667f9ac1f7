//! What a SPIR-V module says that the graph does not hold, reported as not kept
//! (`diag::Lost`): decorations the reader never consults, line and debug information,
//! embedded source text and processing records.

use rspirv::dr::{Instruction, Operand};
use spirv::Op as S;

use super::Reader;
use crate::diag::Lost;

impl Reader {
    /// Record in the graph what `insts` says that reading them did not keep.
    pub(super) fn note_unkept(&mut self, insts: &[(usize, Instruction)]) {
        let mut lost = Vec::new();
        for (d, count, id) in self.ann.unread().into_values() {
            let example = match self.name(id) {
                Some(n) => format!("%{n}"),
                None => format!("%{id}"),
            };
            lost.push(Lost::module(format!(
                "decoration {d:?} on {count} id(s) (first {example}): not read by this \
                 translator, so not kept"
            )));
        }
        let mut sets = Vec::new();
        let (lines, mut processed, mut text) = (false, false, false);
        for (_, inst) in insts {
            match inst.class.opcode {
                // Lines are read (`debug.rs`).
                S::Line => {}
                // The debug information's producer is read with it (`debug.rs`).
                S::ModuleProcessed => {
                    processed |= !matches!(inst.operands.first(),
                        Some(Operand::LiteralString(s))
                            if s.starts_with(crate::spv::debug_info::PRODUCER_RECORD))
                }
                // OpSource's file name and source text, and their continuations.
                S::Source if inst.operands.len() > 2 => text = true,
                S::SourceContinued => text = true,
                S::ExtInstImport => {
                    if let Some(Operand::LiteralString(name)) = inst.operands.first() {
                        let read = inst.result_id.is_some_and(|id| self.is_debug_set(id));
                        if !read && (name.starts_with("NonSemantic.") || name.contains("DebugInfo"))
                        {
                            sets.push((inst.result_id, name.clone()));
                        }
                    }
                }
                S::ExtInst => {
                    if let Some(Operand::IdRef(set)) = inst.operands.first() {
                        if let Some((_, name)) = sets.iter_mut().find(|(id, _)| *id == Some(*set)) {
                            let name = std::mem::take(name);
                            if !name.is_empty() {
                                lost.push(Lost::module(format!(
                                    "instructions of the extended set {name} (debug or \
                                     non-semantic information): not translated"
                                )));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        for (on, fact) in [
            (lines, "source line information (OpLine): not translated"),
            (
                processed,
                "OpModuleProcessed records (the tools that processed the module): not kept",
            ),
            (text, "OpSource's file name and source text: not kept"),
        ] {
            if on {
                lost.push(Lost::module(fact));
            }
        }
        self.m.lost.extend(lost);
    }
}
