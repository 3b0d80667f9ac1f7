//! Decoding of the instructions function bodies are mostly made of, without rspirv's parser.
//!
//! rspirv's parser finds each instruction's grammar by a linear search of its table (twice:
//! once to parse, once more in `Instruction::new`), which was a quarter of reverse
//! translation on large modules. Here the grammar is found through an index built once, and
//! the instructions whose operands are ids, plain literals, strings and the simple masks
//! (arithmetic, conversions, composites, access chains, calls, branches, switches, selection
//! merges, phis, OpenCL.std calls, loads and stores with their memory operands, constants,
//! functions, names) are decoded directly into the same `dr::Instruction` rspirv would make;
//! OpConstant's and OpSwitch's literals are as wide as the type [`Widths`] tracks, as in
//! rspirv's parser. The rest (operands that are enumerants, or masks with parameters:
//! capabilities, decorations, execution modes, pointer and image types, loop merges, image
//! operands) is still rspirv's, over a word stream of just those instructions (`parse.rs`).

use std::sync::OnceLock;

use rspirv::dr::{Instruction, Operand};
use rspirv::grammar::{self, OperandKind as K, OperandQuantifier as Q};

use crate::hash::HashMap;

pub(super) type Grammar = &'static grammar::Instruction<'static>;

/// The core grammar by opcode, each with whether [`decode`] reads it.
pub(super) fn grammar_of(opcode: u32) -> Option<(Grammar, bool)> {
    static TABLE: OnceLock<HashMap<u32, (Grammar, bool)>> = OnceLock::new();
    TABLE
        .get_or_init(|| {
            grammar::INSTRUCTION_TABLE
                .iter()
                .map(|g| (g.opcode as u32, (g, decodes(g))))
                .collect()
        })
        .get(&opcode)
        .copied()
}

/// Whether every operand of `g` is of a kind [`decode`] reads.
fn decodes(g: Grammar) -> bool {
    g.operands.iter().all(|o| {
        matches!(
            o.kind,
            K::IdResultType
                | K::IdResult
                | K::IdRef
                | K::IdScope
                | K::IdMemorySemantics
                | K::LiteralInteger
                | K::LiteralFloat
                | K::LiteralExtInstInteger
                | K::PairIdRefLiteralInteger
                | K::PairIdRefIdRef
                | K::MemoryAccess
                | K::LiteralString
                | K::SelectionControl
                | K::FunctionControl
                | K::LiteralContextDependentNumber
                | K::PairLiteralIntegerIdRef
        )
    })
}

/// The scalar type of a value, where it decides how wide a literal is: OpConstant's value
/// is as wide as its type, OpSwitch's case literals as wide as its selector.
#[derive(Clone, Copy)]
enum Scalar {
    Int(u32),
    Float(u32),
}

/// The scalar type of every id that has one, as rspirv's parser tracks it (integer and
/// float types, and every value of one), for the literals whose width it decides.
#[derive(Default)]
pub(super) struct Widths(HashMap<u32, Scalar>);

impl Widths {
    /// Record what the instruction of grammar `g` and operand words `words` defines; called
    /// for every instruction in order, whoever decodes it.
    pub(super) fn track(&mut self, g: Grammar, words: &[u32]) {
        let has_type = g
            .operands
            .first()
            .is_some_and(|o| o.kind == K::IdResultType);
        let id_at = g
            .operands
            .iter()
            .take(2)
            .position(|o| o.kind == K::IdResult);
        let Some(&id) = id_at.and_then(|i| words.get(i)) else {
            return;
        };
        let scalar = match g.opcode {
            spirv::Op::TypeInt if words.len() >= 3 => Some(Scalar::Int(words[1])),
            spirv::Op::TypeFloat if words.len() >= 2 => Some(Scalar::Float(words[1])),
            op if op.is_type() => None,
            _ if has_type => words.first().and_then(|t| self.0.get(t)).copied(),
            _ => None,
        };
        if let Some(scalar) = scalar {
            self.0.insert(id, scalar);
        }
    }

    /// A literal of the type `ty` (one word where the type is unknown, as rspirv reads it).
    fn literal(&self, ty: Option<u32>, cursor: &mut Cursor) -> Result<Operand, Fault> {
        match ty.and_then(|t| self.0.get(&t)) {
            None | Some(Scalar::Int(8 | 16 | 32) | Scalar::Float(16 | 32)) => {
                Ok(Operand::LiteralBit32(cursor.next()?))
            }
            Some(Scalar::Int(64) | Scalar::Float(64)) => {
                let low = u64::from(cursor.next()?);
                let high = u64::from(cursor.next()?);
                Ok(Operand::LiteralBit64(high << 32 | low))
            }
            Some(_) => Err(Fault::LiteralType),
        }
    }
}

/// Why an instruction could not be decoded.
#[derive(Debug, PartialEq)]
pub(super) enum Fault {
    /// Operands the grammar requires are missing (or a pair is cut in half).
    Fewer,
    /// Words are left after the last operand the grammar allows.
    More,
    /// A mask (memory operands, selection or function control) with bits SPIR-V does not
    /// define for it.
    Mask(&'static str, u32),
    /// A literal string without its terminating NUL, or not UTF-8.
    String,
    /// A literal whose type is an integer or float of a width SPIR-V literals do not have.
    LiteralType,
}

impl std::fmt::Display for Fault {
    /// What is wrong, after the instruction's name (also for rspirv's errors of the same).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Fewer => f.write_str("has fewer operands than its grammar requires"),
            Fault::More => f.write_str("has more operands than its grammar allows"),
            Fault::Mask(what, bits) => write!(f, "has {what} {bits:#x}, not a SPIR-V mask"),
            Fault::String => f.write_str("has a string that is not NUL-terminated UTF-8"),
            Fault::LiteralType => f.write_str("uses a literal of an unsupported type"),
        }
    }
}

/// The words of one instruction, read in order.
struct Cursor<'a> {
    words: &'a [u32],
    at: usize,
}

impl Cursor<'_> {
    fn left(&self) -> usize {
        self.words.len() - self.at
    }

    fn next(&mut self) -> Result<u32, Fault> {
        let w = *self.words.get(self.at).ok_or(Fault::Fewer)?;
        self.at += 1;
        Ok(w)
    }

    /// A NUL-terminated UTF-8 string padded to whole words (the words' bytes in memory
    /// order, as rspirv reads them).
    fn string(&mut self) -> Result<String, Fault> {
        let mut bytes = Vec::with_capacity(16);
        for (i, w) in self.words[self.at..].iter().enumerate() {
            let b = w.to_ne_bytes();
            if let Some(nul) = b.iter().position(|&x| x == 0) {
                bytes.extend_from_slice(&b[..nul]);
                self.at += i + 1;
                return String::from_utf8(bytes).map_err(|_| Fault::String);
            }
            bytes.extend_from_slice(&b);
        }
        Err(Fault::String)
    }
}

/// Decode an instruction of grammar `g` (one [`grammar_of`] says it reads) from the words
/// after its first, as rspirv's parser would.
pub(super) fn decode(g: Grammar, words: &[u32], widths: &Widths) -> Result<Instruction, Fault> {
    let mut cursor = Cursor { words, at: 0 };
    let mut result_type = None;
    let mut result_id = None;
    // One operand a word, less the result type and id (always first in the grammar);
    // a string takes one for several.
    let results = g
        .operands
        .iter()
        .take(2)
        .filter(|o| matches!(o.kind, K::IdResultType | K::IdResult))
        .count();
    let mut operands = Vec::with_capacity(words.len().saturating_sub(results));
    let mut logical = 0;
    while let Some(o) = g.operands.get(logical) {
        if cursor.left() == 0 {
            // Words run out: what is left of the grammar must be optional.
            if o.quantifier == Q::One {
                return Err(Fault::Fewer);
            }
            break;
        }
        match o.kind {
            K::IdResultType => result_type = Some(cursor.next()?),
            K::IdResult => result_id = Some(cursor.next()?),
            K::IdRef => operands.push(Operand::IdRef(cursor.next()?)),
            K::IdScope => operands.push(Operand::IdScope(cursor.next()?)),
            K::IdMemorySemantics => operands.push(Operand::IdMemorySemantics(cursor.next()?)),
            K::LiteralInteger | K::LiteralFloat => {
                operands.push(Operand::LiteralBit32(cursor.next()?))
            }
            K::LiteralExtInstInteger => {
                operands.push(Operand::LiteralExtInstInteger(cursor.next()?))
            }
            K::PairIdRefLiteralInteger => {
                operands.push(Operand::IdRef(cursor.next()?));
                operands.push(Operand::LiteralBit32(cursor.next()?));
            }
            K::PairIdRefIdRef => {
                operands.push(Operand::IdRef(cursor.next()?));
                operands.push(Operand::IdRef(cursor.next()?));
            }
            K::MemoryAccess => {
                let bits = cursor.next()?;
                let access = spirv::MemoryAccess::from_bits(bits)
                    .ok_or(Fault::Mask("memory operands", bits))?;
                operands.push(Operand::MemoryAccess(access));
                // The parameters, in the order of their bits.
                use spirv::MemoryAccess as M;
                if access.contains(M::ALIGNED) {
                    operands.push(Operand::LiteralBit32(cursor.next()?));
                }
                if access.contains(M::MAKE_POINTER_AVAILABLE) {
                    operands.push(Operand::IdScope(cursor.next()?));
                }
                if access.contains(M::MAKE_POINTER_VISIBLE) {
                    operands.push(Operand::IdScope(cursor.next()?));
                }
                if access.contains(M::ALIAS_SCOPE_INTEL_MASK) {
                    operands.push(Operand::IdRef(cursor.next()?));
                }
                if access.contains(M::NO_ALIAS_INTEL_MASK) {
                    operands.push(Operand::IdRef(cursor.next()?));
                }
            }
            K::LiteralContextDependentNumber => {
                operands.push(widths.literal(result_type, &mut cursor)?)
            }
            K::PairLiteralIntegerIdRef => {
                let selector = match operands.first() {
                    Some(Operand::IdRef(id)) => Some(*id),
                    _ => None,
                };
                operands.push(widths.literal(selector, &mut cursor)?);
                operands.push(Operand::IdRef(cursor.next()?));
            }
            K::LiteralString => operands.push(Operand::LiteralString(cursor.string()?)),
            K::SelectionControl => {
                let bits = cursor.next()?;
                let control = spirv::SelectionControl::from_bits(bits)
                    .ok_or(Fault::Mask("selection control", bits))?;
                operands.push(Operand::SelectionControl(control));
            }
            K::FunctionControl => {
                let bits = cursor.next()?;
                let control = spirv::FunctionControl::from_bits(bits)
                    .ok_or(Fault::Mask("function control", bits))?;
                operands.push(Operand::FunctionControl(control));
            }
            // `decodes` admits no other kind.
            _ => unreachable!("operand kind {:?} is not decoded here", o.kind),
        }
        if o.quantifier != Q::ZeroOrMore {
            logical += 1;
        }
    }
    if cursor.left() > 0 {
        return Err(Fault::More);
    }
    Ok(Instruction {
        class: g,
        result_type,
        result_id,
        operands,
    })
}
