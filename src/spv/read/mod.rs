//! SPIR-V words -> semantic graph.
//!
//! `parse` turns words into instructions (with word offsets); the rest lowers them by what
//! they own: `annotations` (names, decorations, entry points, strings), `types` (types,
//! constants, module-scope variables), `function` (functions, blocks, value plumbing), `body`
//! (instructions), `builtins`
//! (instructions that become semantic builtins), `kernels` (entry points and argument info).

mod annotations;
mod body;
pub(crate) mod builtins;
mod debug;
mod debug_types;
mod decode;
mod function;
mod image_operands;
mod kernels;
mod memory_casts;
pub(crate) mod parse;
mod splats;
mod types;
mod unkept;
mod untyped;

pub use parse::words_from_bytes;

use crate::hash::HashMap;

use rspirv::dr::{Instruction, Operand};
use spirv::{Op as S, Word};

use crate::diag::{Error, Result};
use crate::ir;

use annotations::Annotations;

/// What a SPIR-V id stands for at module scope.
#[derive(Clone, Copy, Debug)]
enum Entity {
    Type(ir::Handle<ir::Type>),
    Constant(ir::Handle<ir::Constant>),
    Global(ir::Handle<ir::Global>),
    /// An Input variable decorated BuiltIn; loads from it become work-item builtins.
    BuiltinVar(spirv::BuiltIn, ir::Handle<ir::Type>),
    Function(ir::Handle<ir::Function>),
    ExtInstSet(ExtSet),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ExtSet {
    OpenClStd,
    /// `NonSemantic.*` and debug-info sets: instructions from them carry no semantics and are
    /// dropped.
    NonSemantic,
    Unknown,
}

pub(crate) struct Reader {
    m: ir::Module,
    ann: Annotations,
    ids: HashMap<Word, Entity>,
    /// The type id of every result id (constants, globals, function values).
    result_types: HashMap<Word, Word>,
    /// The pointee of every OpTypePointer, by pointer id: what an OpTypeForwardPointer, read
    /// before its OpTypePointer, points to.
    pointer_pointees: HashMap<Word, Word>,
    /// Structs a forward pointer points to, not yet defined: their placeholder handle.
    pending_structs: HashMap<Word, ir::Handle<ir::Type>>,
    /// The debug information's instructions and what they became (`debug.rs`).
    dbg: debug::DebugReader,
}

/// Read a SPIR-V module (host-order words) into the graph.
///
/// The input is not required to pass SPIRV-Tools' validator: other producers' modules often
/// do not (llvm-spirv-14's, for 7 of 131 fixture modules: NoSignedWrap decorated twice, block
/// order, phi operands) and are still meaningful. What we write is validated.
pub fn read(words: &[u32]) -> Result<ir::Module> {
    let mut parsed = parse::parse(words, parse::Names::Apart)?;
    untyped::retype(&mut parsed.insts, words[3])?;
    let names = std::mem::take(&mut parsed.names);
    let insts = &parsed.insts;
    let addressing = insts
        .iter()
        .find(|(_, i)| i.class.opcode == S::MemoryModel)
        .map(|(_, i)| match i.operands.first() {
            Some(Operand::AddressingModel(spirv::AddressingModel::Physical32)) => {
                Ok(ir::Addressing::Physical32)
            }
            Some(Operand::AddressingModel(spirv::AddressingModel::Physical64)) => {
                Ok(ir::Addressing::Physical64)
            }
            Some(Operand::AddressingModel(m)) => Err(Error::unsupported(format!(
                "the addressing model {m:?}: this is not an OpenCL module (a Vulkan shader's \
                 is Logical or PhysicalStorageBuffer64; OpenCL kernels use Physical32 or \
                 Physical64), and only OpenCL modules go back to SPIR"
            ))),
            _ => Err(Error::malformed(
                "OpMemoryModel without an addressing model",
            )),
        })
        .unwrap_or_else(|| Err(Error::malformed("the module has no OpMemoryModel")))?;
    let mut r = Reader {
        m: ir::Module::new(addressing),
        ann: Annotations::collect(insts, names)?,
        ids: HashMap::default(),
        result_types: HashMap::default(),
        pointer_pointees: HashMap::default(),
        pending_structs: HashMap::default(),
        dbg: Default::default(),
    };
    r.check_capabilities(insts)?;
    r.source_info();
    // Module scope: everything before the first OpFunction.
    let first_fn = insts
        .iter()
        .position(|(_, i)| i.class.opcode == S::Function)
        .unwrap_or(insts.len());
    for (_, inst) in &insts[..first_fn] {
        if let (S::TypePointer, Some(id), Some(Operand::IdRef(pointee))) =
            (inst.class.opcode, inst.result_id, inst.operands.get(1))
        {
            r.pointer_pointees.insert(id, *pointee);
        }
    }
    for (at, inst) in &insts[..first_fn] {
        r.module_scope(inst)
            .map_err(|e| locate(e, *at, inst.result_id))?;
    }
    if let Some(target) = r.pending_structs.keys().min() {
        return Err(Error::unsupported(format!(
            "OpTypeForwardPointer to %{target}, which is not a struct (OpenCL forward-declares \
             only pointers to structs)"
        )));
    }
    let functions = split_functions(insts, first_fn)?;
    for f in &functions {
        r.declare_function(&insts[f.clone()])?;
    }
    r.debug_functions();
    for f in functions {
        r.define_function(&parsed.insts[f.clone()])?;
        // A function's operands are not read again once it is lowered: freed, the graph
        // that grows next reuses their memory (the reader's peak). OpExtInst keeps them
        // for `note_unkept`, which looks for non-semantic instruction sets.
        for (_, inst) in &mut parsed.insts[f] {
            if inst.class.opcode != S::ExtInst {
                inst.operands = Vec::new();
            }
        }
    }
    let insts = &parsed.insts;
    r.kernels()?;
    r.note_unkept(insts);
    let errors = crate::verify::verify(&r.m);
    if let Some(e) = errors.first() {
        // An invalid input explains it (we read what other producers write without requiring
        // it to validate), in the validator's words or, where the validator lets it pass, in
        // ours: an instruction whose types do not agree is no translatable module either.
        crate::spv::validate::check_input(words)?;
        return Err(Error::malformed(format!(
            "the module is not well-formed: {e}"
        )));
    }
    Ok(r.m)
}

/// One function's instructions (OpFunction .. OpFunctionEnd) with word offsets.
pub(crate) type FunctionInsts<'a> = &'a [(usize, Instruction)];

/// Where each function's instructions are, from `first`, the first OpFunction, on.
fn split_functions(
    insts: &[(usize, Instruction)],
    first: usize,
) -> Result<Vec<std::ops::Range<usize>>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, (at, inst)) in insts.iter().enumerate().skip(first) {
        match (inst.class.opcode, start) {
            (S::Function, None) => start = Some(i),
            (S::FunctionEnd, Some(s)) => {
                out.push(s..i + 1);
                start = None;
            }
            (S::Function, Some(_)) => {
                return Err(Error::malformed(format!(
                    "word {at}: OpFunction inside another function"
                )))
            }
            (S::FunctionEnd, None) => {
                return Err(Error::malformed(format!(
                    "word {at}: OpFunctionEnd without OpFunction"
                )))
            }
            (op, None) if !matches!(op, S::Line | S::NoLine | S::ExtInst) => {
                return Err(Error::malformed(format!(
                    "word {at}: Op{op:?} after the first function, outside any function"
                )))
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        return Err(Error::malformed(format!(
            "truncated SPIR-V: function at word {} has no OpFunctionEnd",
            insts[s].0
        )));
    }
    Ok(out)
}

/// An operand in the words of the SPIR-V specification (for messages: never Rust's debug
/// form of it).
pub(crate) fn operand_words(o: Option<&Operand>) -> String {
    match o {
        None => "nothing (the instruction ends before it)".into(),
        Some(Operand::IdRef(id) | Operand::IdScope(id) | Operand::IdMemorySemantics(id)) => {
            format!("the id %{id}")
        }
        Some(Operand::LiteralBit32(v)) => format!("the literal number {v}"),
        Some(Operand::LiteralBit64(v)) => format!("the 64-bit literal number {v}"),
        Some(Operand::LiteralString(s)) => format!("the string \"{s}\""),
        Some(other) => {
            // The operand kind's name as the grammar spells it (`ImageOperands`, ...).
            let kind = format!("{other:?}");
            let kind = kind.split('(').next().unwrap_or_default();
            format!("a {kind} operand")
        }
    }
}

impl Entity {
    /// What the id names, in words (for messages).
    fn words(&self) -> &'static str {
        match self {
            Entity::Type(_) => "a type",
            Entity::Constant(_) => "a constant",
            Entity::Global(_) => "a module-scope variable",
            Entity::BuiltinVar(..) => "a built-in variable",
            Entity::Function(_) => "a function",
            Entity::ExtInstSet(_) => "an extended instruction set",
        }
    }
}

/// Attach the word offset and result id to an error that has no value location yet.
fn locate(e: Error, at: usize, id: Option<Word>) -> Error {
    match id {
        Some(id) => e.at_value(format!("word {at}: %{id}")),
        None => e.at_value(format!("word {at}")),
    }
}

/// Operand accessors that turn a grammar mismatch into an error instead of a panic.
pub(crate) fn id_operand(inst: &Instruction, i: usize) -> Result<Word> {
    match inst.operands.get(i) {
        Some(Operand::IdRef(id) | Operand::IdScope(id) | Operand::IdMemorySemantics(id)) => Ok(*id),
        other => Err(Error::malformed(format!(
            "Op{:?} operand {i}: expected an id, found {}",
            inst.class.opcode,
            operand_words(other)
        ))),
    }
}

pub(crate) fn literal_operand(inst: &Instruction, i: usize) -> Result<u32> {
    match inst.operands.get(i) {
        Some(Operand::LiteralBit32(v)) => Ok(*v),
        Some(Operand::LiteralExtInstInteger(v)) => Ok(*v),
        other => Err(Error::malformed(format!(
            "Op{:?} operand {i}: expected a literal number, found {}",
            inst.class.opcode,
            operand_words(other)
        ))),
    }
}

pub(crate) fn string_operand(inst: &Instruction, i: usize) -> Result<&str> {
    match inst.operands.get(i) {
        Some(Operand::LiteralString(s)) => Ok(s),
        other => Err(Error::malformed(format!(
            "Op{:?} operand {i}: expected a string, found {}",
            inst.class.opcode,
            operand_words(other)
        ))),
    }
}

pub(crate) fn result_type(inst: &Instruction) -> Result<Word> {
    inst.result_type
        .ok_or_else(|| Error::malformed(format!("Op{:?} without a result type", inst.class.opcode)))
}

pub(crate) fn result_id(inst: &Instruction) -> Result<Word> {
    inst.result_id
        .ok_or_else(|| Error::malformed(format!("Op{:?} without a result id", inst.class.opcode)))
}

impl Reader {
    fn type_of(&self, id: Word) -> Result<ir::Handle<ir::Type>> {
        match self.ids.get(&id) {
            Some(Entity::Type(t)) => Ok(*t),
            Some(other) => Err(Error::malformed(format!(
                "%{id} is used as a type but is {}",
                other.words()
            ))),
            None => Err(Error::malformed(format!("%{id} is not a defined type"))),
        }
    }

    fn constant_of(&self, id: Word) -> Result<ir::Handle<ir::Constant>> {
        match self.ids.get(&id) {
            Some(Entity::Constant(c)) => Ok(*c),
            _ => Err(Error::malformed(format!("%{id} is not a defined constant"))),
        }
    }

    /// The value of an integer constant (scopes, memory semantics, array lengths).
    fn int_constant(&self, id: Word) -> Result<u64> {
        let c = self.constant_of(id)?;
        match self.m.constants[c].kind {
            ir::ConstantKind::Int(v) => Ok(v),
            ir::ConstantKind::Null => Ok(0),
            _ => Err(Error::unsupported(format!(
                "%{id} must be an integer constant here"
            ))),
        }
    }

    fn name(&self, id: Word) -> Option<String> {
        self.ann.names.get(&id).cloned()
    }

    /// Capabilities outside what an OpenCL kernel module may declare are out of scope, unless
    /// the module declares Kernel too: llvm-spirv-14 adds Shader (and Matrix, which Shader
    /// implies) to a kernel module for OpenCL's bit-field builtins, and its kernels read as any.
    fn check_capabilities(&self, insts: &[(usize, Instruction)]) -> Result<()> {
        use spirv::Capability as C;
        let capability = |inst: &Instruction| match (inst.class.opcode, inst.operands.first()) {
            (S::Capability, Some(Operand::Capability(c))) => Some(*c),
            _ => None,
        };
        if insts.iter().any(|(_, i)| capability(i) == Some(C::Kernel)) {
            return Ok(());
        }
        for (at, inst) in insts {
            if let Some(c) = capability(inst) {
                if matches!(c, C::Shader | C::Matrix | C::Geometry | C::Tessellation) {
                    return Err(Error::unsupported(format!(
                        "capability {c:?}: this is a graphics (Vulkan/GLSL) module; only \
                         Kernel-capability (OpenCL) modules are translated"
                    ))
                    .at_value(format!("word {at}")));
                }
            }
        }
        Ok(())
    }
}
