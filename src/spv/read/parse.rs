//! Words -> instructions: most of a function body decoded here (`decode.rs`), the rest
//! through rspirv's binary parser with our own consumer.
//!
//! rspirv's `dr::Loader` rejects module-scope OpExtInst (non-semantic debug info), so we collect
//! instructions ourselves. A pre-scan of the word stream gives every instruction's word offset,
//! so structural errors (word count 0, truncation) and the parser's own errors name the word.

use rspirv::binary::{Consumer, ParseAction};
use rspirv::dr::{Instruction, ModuleHeader, Operand};
use spirv::Op as S;

use super::decode;
use crate::diag::{Error, Result};

pub(super) const MAGIC: u32 = 0x0723_0203;

/// A parsed module: every instruction with its word offset.
pub(crate) struct Parsed {
    pub insts: Vec<(usize, Instruction)>,
    /// Every OpName's target and name, in order, where the parse keeps them apart from
    /// `insts` ([`Names::Apart`]).
    pub names: Vec<(spirv::Word, String)>,
}

/// Where [`parse`] puts OpName.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Names {
    /// In `Parsed::insts`, as every other instruction (for [`sections`]).
    InPlace,
    /// In `Parsed::names` only. A module that names every value has as many OpName as other
    /// instructions; the reader wants only the names, and an instruction object per OpName
    /// (beside the copy of its name the reader kept) was a fifth of its peak (1 M
    /// straight-line instructions: 632 -> 499 MiB).
    Apart,
}

/// Whether `op` ends a block.
pub(super) fn is_terminator(op: S) -> bool {
    matches!(
        op,
        S::Branch
            | S::BranchConditional
            | S::Switch
            | S::Return
            | S::ReturnValue
            | S::Unreachable
            | S::Kill
    )
}

/// Little- or big-endian bytes to host words (the magic number decides).
pub fn words_from_bytes(bytes: &[u8]) -> Result<Vec<u32>> {
    if bytes.len() < 20 {
        return Err(Error::malformed(format!(
            "truncated SPIR-V: {} bytes, a module header alone is 20",
            bytes.len()
        )));
    }
    if !bytes.len().is_multiple_of(4) {
        return Err(Error::malformed(format!(
            "truncated SPIR-V: {} bytes is not a whole number of 32-bit words",
            bytes.len()
        )));
    }
    let le = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    let swap = if le == MAGIC {
        false
    } else if le.swap_bytes() == MAGIC {
        true
    } else {
        return Err(Error::malformed(format!(
            "not a SPIR-V module: magic number {le:#010x} at word 0, expected {MAGIC:#010x}"
        )));
    };
    Ok(bytes
        .chunks_exact(4)
        .map(|c| {
            let w = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            if swap {
                w.swap_bytes()
            } else {
                w
            }
        })
        .collect())
}

/// Word offsets of every instruction, checking word counts before rspirv sees them.
fn instruction_offsets(words: &[u32]) -> Result<Vec<usize>> {
    let mut offsets = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        let opcode = words[at] & 0xffff;
        if count == 0 {
            return Err(Error::malformed(format!(
                "word {at}: instruction (opcode {opcode}) has word count 0"
            )));
        }
        if at + count > words.len() {
            return Err(Error::malformed(format!(
                "truncated SPIR-V: instruction at word {at} (opcode {opcode}) needs {count} words, \
                 only {} remain",
                words.len() - at
            )));
        }
        offsets.push(at);
        at += count;
    }
    Ok(offsets)
}

#[derive(Default)]
struct Collector {
    insts: Vec<Instruction>,
}

impl Consumer for Collector {
    fn initialize(&mut self) -> ParseAction {
        ParseAction::Continue
    }
    fn finalize(&mut self) -> ParseAction {
        ParseAction::Continue
    }
    fn consume_header(&mut self, _: ModuleHeader) -> ParseAction {
        ParseAction::Continue
    }
    fn consume_instruction(&mut self, inst: Instruction) -> ParseAction {
        self.insts.push(inst);
        ParseAction::Continue
    }
}

pub(crate) fn parse(words: &[u32], keep_names: Names) -> Result<Parsed> {
    if words.len() < 5 {
        return Err(Error::malformed(format!(
            "truncated SPIR-V: {} words, a module header alone is 5",
            words.len()
        )));
    }
    if words[0] != MAGIC {
        return Err(Error::malformed(format!(
            "not a SPIR-V module: magic number {:#010x} at word 0, expected {MAGIC:#010x}",
            words[0]
        )));
    }
    let version = ((words[1] >> 16) as u8, (words[1] >> 8) as u8);
    if version.0 != 1 || version.1 > 6 {
        return Err(Error::malformed(format!(
            "word 1: SPIR-V version {}.{} is not 1.0 to 1.6",
            version.0, version.1
        )));
    }
    let offsets = instruction_offsets(words)?;
    // Decoded here where `decode` can; the others are rspirv's, from a stream of just them,
    // and hold their places (`theirs`) until it has read them.
    let mut insts = Vec::with_capacity(offsets.len());
    let mut names = Vec::new();
    let mut theirs = Vec::new();
    let mut rest = words[..5].to_vec();
    let mut widths = decode::Widths::default();
    let mut fault = None;
    for &at in &offsets {
        let (count, opcode) = ((words[at] >> 16) as usize, words[at] & 0xffff);
        let grammar = decode::grammar_of(opcode);
        let message = match grammar {
            None => Some(format!("word {at}: unknown opcode {opcode}")),
            Some((g, true)) => match decode::decode(g, &words[at + 1..at + count], &widths) {
                Ok(inst) if keep_names == Names::Apart && g.opcode == spirv::Op::Name => {
                    // Decoded by its grammar (an id, a string), so the two are there.
                    let mut operands = inst.operands.into_iter();
                    if let (Some(Operand::IdRef(id)), Some(Operand::LiteralString(name))) =
                        (operands.next(), operands.next())
                    {
                        names.push((id, name));
                    }
                    None
                }
                Ok(inst) => {
                    insts.push((at, inst));
                    None
                }
                Err(f) => Some(format!("word {at}: Op{:?} {f}", g.opcode)),
            },
            Some((g, false)) => {
                theirs.push(insts.len());
                let placeholder = Instruction {
                    class: g,
                    result_type: None,
                    result_id: None,
                    operands: Vec::new(),
                };
                insts.push((at, placeholder));
                rest.extend_from_slice(&words[at..at + count]);
                None
            }
        };
        if let Some((g, _)) = grammar {
            widths.track(g, &words[at + 1..at + count]);
        }
        if let Some(m) = message {
            // The first error wins: rspirv's, in the instructions before this one, if any.
            fault = Some(m);
            break;
        }
    }
    let mut c = Collector::default();
    // The parser is not ours: a panic inside it is reported, not propagated.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        rspirv::binary::parse_words(&rest, &mut c)
    }));
    // Where the `k`th instruction rspirv was given is.
    let word_of = |k: usize| theirs.get(k).map_or(words.len(), |&i| insts[i].0);
    // rspirv numbers instructions from 1 in its errors.
    let word_of_nth = |n: usize| word_of(n.saturating_sub(1));
    match result {
        Ok(Ok(())) => {}
        Ok(Err(e)) => {
            use rspirv::binary::ParseState as P;
            let say = |n: usize, f: decode::Fault| {
                let at = word_of_nth(n);
                format!("word {at}: {} {f}", opname(words, at))
            };
            // Unknown opcodes and word counts of 0 never reach it (checked above).
            let msg = match &e {
                P::OperandExpected(_, n) => say(*n, decode::Fault::Fewer),
                P::OperandExceeded(_, n) => say(*n, decode::Fault::More),
                P::TypeUnsupported(_, n) => say(*n, decode::Fault::LiteralType),
                other => format!("word {}: {other}", word_of(c.insts.len())),
            };
            return Err(Error::malformed(msg));
        }
        Err(_) => {
            return Err(Error::malformed(format!(
                "word {}: the SPIR-V parser failed on {}",
                word_of(c.insts.len()),
                opname(words, word_of(c.insts.len()))
            )))
        }
    }
    if let Some(m) = fault {
        return Err(Error::malformed(m));
    }
    if c.insts.len() != theirs.len() {
        return Err(Error::internal(format!(
            "the SPIR-V parser returned {} instructions of the {} it was given",
            c.insts.len(),
            theirs.len()
        )));
    }
    for (i, inst) in theirs.into_iter().zip(c.insts) {
        insts[i].1 = inst;
    }
    Ok(Parsed { insts, names })
}

/// `OpName` of the instruction at word `at`, for messages.
fn opname(words: &[u32], at: usize) -> String {
    match words.get(at) {
        Some(w) => match spirv::Op::from_u32(w & 0xffff) {
            Some(op) => format!("Op{op:?}"),
            None => format!("opcode {}", w & 0xffff),
        },
        None => "the end of the module".into(),
    }
}

/// The module in rspirv's `dr::Module` sections, from our parse (so that everything the
/// reader accepts loads: module-scope OpExtInst, OpExecutionModeId, ...), for the canonical
/// form.
pub(crate) fn sections(words: &[u32]) -> Result<rspirv::dr::Module> {
    use rspirv::dr::{Block, Function, Module};
    let parsed = parse(words, Names::InPlace)?;
    let mut m = Module::new();
    let mut header = ModuleHeader::new(words[3]);
    header.version = words[1];
    header.generator = words[2];
    m.header = Some(header);
    let mut func: Option<Function> = None;
    let mut block: Option<Block> = None;
    for (at, inst) in parsed.insts {
        let misplaced =
            || Error::malformed(format!("word {at}: Op{:?} out of place", inst.class.opcode));
        match inst.class.opcode {
            S::Capability => m.capabilities.push(inst),
            S::Extension => m.extensions.push(inst),
            S::ExtInstImport => m.ext_inst_imports.push(inst),
            S::MemoryModel => m.memory_model = Some(inst),
            S::EntryPoint => m.entry_points.push(inst),
            S::ExecutionMode | S::ExecutionModeId => m.execution_modes.push(inst),
            S::String | S::Source | S::SourceExtension | S::SourceContinued => {
                m.debug_string_source.push(inst)
            }
            S::Name | S::MemberName => m.debug_names.push(inst),
            S::ModuleProcessed => m.debug_module_processed.push(inst),
            S::Decorate
            | S::MemberDecorate
            | S::DecorationGroup
            | S::GroupDecorate
            | S::GroupMemberDecorate
            | S::DecorateId
            | S::DecorateString
            | S::MemberDecorateString => m.annotations.push(inst),
            S::Function => {
                func = Some(Function {
                    def: Some(inst),
                    ..Function::new()
                })
            }
            S::FunctionParameter => func.as_mut().ok_or_else(misplaced)?.parameters.push(inst),
            S::Label => {
                block = Some(Block {
                    label: Some(inst),
                    instructions: Vec::new(),
                })
            }
            S::FunctionEnd => {
                let mut f = func.take().ok_or_else(misplaced)?;
                f.end = Some(inst);
                m.functions.push(f);
            }
            op => match block.as_mut() {
                Some(b) => {
                    b.instructions.push(inst);
                    if is_terminator(op) {
                        let b = block.take().expect("a block");
                        func.as_mut().ok_or_else(misplaced)?.blocks.push(b);
                    }
                }
                // Debug lines between a function's parameters carry no meaning here.
                None if func.is_some() => {}
                None => m.types_global_values.push(inst),
            },
        }
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Vec<u32> {
        vec![MAGIC, 0x0001_0000, 0, 10, 0]
    }

    #[test]
    fn word_count_zero_names_the_word() {
        let mut w = header();
        w.push(17); // OpCapability with word count 0
        let e = parse(&w, Names::Apart).err().unwrap();
        assert!(e.to_string().contains("word 5"), "{e}");
        assert!(e.to_string().contains("word count 0"), "{e}");
    }

    #[test]
    fn truncated_instruction_is_reported() {
        let mut w = header();
        w.push((3 << 16) | 17);
        w.push(6);
        let e = parse(&w, Names::Apart).err().unwrap();
        assert!(e.to_string().contains("truncated"), "{e}");
    }

    #[test]
    fn unknown_opcode_is_reported() {
        let mut w = header();
        w.push((1 << 16) | 0x7ff0);
        let e = parse(&w, Names::Apart).err().unwrap();
        assert!(e.to_string().contains("unknown opcode"), "{e}");
    }

    /// rspirv's parser alone, as `parse` was before `decode.rs`.
    fn rspirv_alone(words: &[u32]) -> Option<Vec<Instruction>> {
        let mut c = Collector::default();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            rspirv::binary::parse_words(words, &mut c)
        }));
        matches!(r, Ok(Ok(()))).then_some(c.insts)
    }

    fn ours(words: &[u32]) -> Option<Vec<Instruction>> {
        parse(words, Names::InPlace)
            .ok()
            .map(|p| p.insts.into_iter().map(|(_, i)| i).collect())
    }

    /// Our decoding and rspirv's agree, instruction for instruction, on the SPIR-V of every
    /// modern fixture and on thousands of mutations of it (words replaced, word
    /// counts and opcodes changed, strings broken, masks set), and on the fuzz findings.
    #[test]
    fn decoding_agrees_with_rspirv() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut modules = Vec::new();
        let mut fixtures: Vec<_> = std::fs::read_dir(root.join("tests/fixtures/modern"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().ends_with(".spir64.bc"))
            .collect();
        fixtures.sort();
        for p in &fixtures {
            let out = crate::pipeline::translate_to_spirv(p, &Default::default()).unwrap();
            modules.push(out.words);
        }
        for e in std::fs::read_dir(root.join("tests/regressions/fuzz")).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "spv") {
                modules.push(crate::pipeline::words(&p).unwrap().into_owned());
            }
        }
        assert!(modules.len() > 40, "{} modules", modules.len());
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut rand = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut agreed, mut parsed) = (0, 0);
        for words in &modules {
            let mut cases = vec![words.clone()];
            for _ in 0..60 {
                let mut w = words.clone();
                let i = 5 + (rand() as usize) % (w.len() - 5);
                w[i] = match rand() % 7 {
                    0 => rand() as u32,
                    1 => (rand() % 8) as u32,
                    // A word count one more or less, the same opcode.
                    2 => {
                        (w[i] & 0xffff)
                            | ((((w[i] >> 16) + 1 + (rand() % 2) as u32 * 0xfffe) & 0xffff) << 16)
                    }
                    // Another opcode, the same word count.
                    3 => (w[i] & 0xffff_0000) | (rand() % 400) as u32,
                    // Four letters (a string loses its NUL), or bytes that are not UTF-8.
                    4 => 0x4141_4141,
                    5 => 0xfffe_fdfc,
                    // A mask (memory operands, selection or function control).
                    _ => (rand() % 64) as u32,
                };
                cases.push(w);
            }
            for w in cases {
                let (a, b) = (ours(&w), rspirv_alone(&w));
                assert_eq!(a.is_some(), b.is_some(), "one parser alone accepts");
                parsed += usize::from(a.is_some());
                assert_eq!(a, b);
                agreed += 1;
            }
        }
        assert!(parsed > agreed / 4, "{parsed} of {agreed} parsed");
    }

    /// With names apart, the instructions are those in place less OpName, and the names are
    /// OpName's targets and strings in order (every modern fixture's SPIR-V).
    #[test]
    fn names_apart_are_the_opnames_in_place() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut seen = 0;
        for e in std::fs::read_dir(root.join("tests/fixtures/modern")).unwrap() {
            let p = e.unwrap().path();
            if !p.to_string_lossy().ends_with(".spir64.bc") {
                continue;
            }
            let words = crate::pipeline::translate_to_spirv(&p, &Default::default())
                .unwrap()
                .words;
            let (in_place, apart) = (
                parse(&words, Names::InPlace).unwrap(),
                parse(&words, Names::Apart).unwrap(),
            );
            let (names, rest): (Vec<_>, Vec<_>) = in_place
                .insts
                .into_iter()
                .partition(|(_, i)| i.class.opcode == spirv::Op::Name);
            let names: Vec<(spirv::Word, String)> = names
                .into_iter()
                .map(|(_, i)| match &i.operands[..] {
                    [Operand::IdRef(id), Operand::LiteralString(s)] => (*id, s.clone()),
                    other => panic!("OpName of {other:?}"),
                })
                .collect();
            assert!(in_place.names.is_empty());
            seen += names.len();
            assert_eq!(apart.names, names, "{}", p.display());
            assert_eq!(apart.insts, rest, "{}", p.display());
        }
        assert!(seen > 100, "{seen} names");
    }

    #[test]
    fn big_endian_bytes_are_swapped() {
        let bytes: Vec<u8> = header().iter().flat_map(|w| w.to_be_bytes()).collect();
        assert_eq!(words_from_bytes(&bytes).unwrap(), header());
    }
}
