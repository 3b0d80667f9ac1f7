//! The spellings of SPIR-V's two debug-information instruction sets that the `spirv` crate
//! does not carry: `OpenCL.DebugInfo.100` and `NonSemantic.Shader.DebugInfo.100` share their
//! opcodes (the `spirv` crate's `OpenclDebuginfo100Op`) and these operand values; they differ
//! in how an operand is given (a literal in the first, the id of a 32-bit integer constant in
//! the second) and in a few layouts, which the reader and writer say where they meet them.

use crate::ir::debug::{CompositeKind, Encoding, ExprOp, Qualifier, SourceLanguage};

/// The two instruction sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DebugSet {
    /// `OpenCL.DebugInfo.100`: the OpenCL environment's (llvm-spirv, drivers).
    OpenCl,
    /// `NonSemantic.Shader.DebugInfo.100`: Vulkan's (RenderDoc, GPU debuggers), also read by
    /// newer OpenCL tools.
    NonSemantic,
}

impl DebugSet {
    /// The name `OpExtInstImport` gives.
    pub fn import_name(self) -> &'static str {
        match self {
            DebugSet::OpenCl => "OpenCL.DebugInfo.100",
            DebugSet::NonSemantic => "NonSemantic.Shader.DebugInfo.100",
        }
    }

    /// The set an `OpExtInstImport` name imports, if it is one of these.
    /// `NonSemantic.Shader.DebugInfo.200` (`NONSEMANTIC_200`) is read as the non-semantic
    /// set.
    pub fn from_import(name: &str) -> Option<Self> {
        match name {
            "OpenCL.DebugInfo.100" => Some(DebugSet::OpenCl),
            "NonSemantic.Shader.DebugInfo.100" | NONSEMANTIC_200 => Some(DebugSet::NonSemantic),
            _ => None,
        }
    }
}

/// The Khronos and DPC++ translators' edition of the non-semantic set
/// (`--spirv-debug-info-version=nonsemantic-shader-200`): the same opcodes and layouts but
/// where `edition_200` says, and instructions for what OpenCL C does not have (Fortran's
/// strings and dynamic arrays, modules), which are read as types of no known form.
pub const NONSEMANTIC_200: &str = "NonSemantic.Shader.DebugInfo.200";

/// What `NONSEMANTIC_200` lays out otherwise than `NonSemantic.Shader.DebugInfo.100`.
pub mod edition_200 {
    /// `DebugCompilationUnit`'s operand past the shared four: the producer's OpString.
    pub const UNIT_PRODUCER: usize = 4;
    /// `DebugInlinedAt Line Column Scope [Inlined]`: a column after the line.
    pub const INLINED_COLUMN: usize = 1;
    /// `DebugSource File [ChecksumKind ChecksumValue] [Text]`: the text is the last operand,
    /// the second (`File Text`) or the fourth.
    pub const SOURCE_TEXT: [usize; 2] = [1, 3];
    /// `DebugTypeSubrange LowerBound UpperBound Count [Stride]`: a `DebugTypeArray`'s
    /// operands past its base type are these, where the other sets have counts.
    pub const TYPE_SUBRANGE: u32 = 201;
    /// The subrange's count operand.
    pub const SUBRANGE_COUNT: usize = 2;
}

/// `NonSemantic.Shader.DebugInfo.100`'s opcodes past the shared ones.
pub mod nonsemantic_op {
    /// `DebugFunctionDefinition Function Definition`.
    pub const FUNCTION_DEFINITION: u32 = 101;
    /// `DebugLine Source LineStart LineEnd ColumnStart ColumnEnd`.
    pub const LINE: u32 = 103;
    /// `DebugNoLine`.
    pub const NO_LINE: u32 = 104;
}

/// The `OpModuleProcessed` record that names a compile unit's producer (neither set has an
/// operand for it; llvm-spirv writes it so).
pub const PRODUCER_RECORD: &str = "Debug info producer: ";

/// The `Version` operand of `DebugCompilationUnit` (the sets' version 1.0, as llvm-spirv
/// writes it).
pub const UNIT_VERSION: u32 = 65536;

/// `DebugInfoFlags` bits.
pub mod flags {
    /// `FlagIsLocal`: visible only in its file.
    pub const IS_LOCAL: u32 = 0x4;
    /// `FlagIsDefinition`.
    pub const IS_DEFINITION: u32 = 0x8;
    /// `FlagFwdDecl`: only declared.
    pub const FWD_DECL: u32 = 0x10;
    /// `FlagArtificial`: made by the compiler.
    pub const ARTIFICIAL: u32 = 0x20;
    /// `FlagPrototyped`.
    pub const PROTOTYPED: u32 = 0x80;
    /// `FlagIsOptimized`.
    pub const IS_OPTIMIZED: u32 = 0x2000;

    /// The bits of the flags that are on.
    pub fn of(flags: &[(bool, u32)]) -> u32 {
        flags
            .iter()
            .filter(|(on, _)| *on)
            .fold(0, |all, (_, bit)| all | bit)
    }
}

/// `DebugBaseTypeAttributeEncoding`.
pub fn encoding_code(e: Encoding) -> u32 {
    match e {
        Encoding::Unspecified => 0,
        Encoding::Address => 1,
        Encoding::Boolean => 2,
        Encoding::Float => 3,
        Encoding::Signed => 4,
        Encoding::SignedChar => 5,
        Encoding::Unsigned => 6,
        Encoding::UnsignedChar => 7,
    }
}

/// The encoding of a `DebugBaseTypeAttributeEncoding` value.
pub fn encoding_of(code: u32) -> Encoding {
    match code {
        1 => Encoding::Address,
        2 => Encoding::Boolean,
        3 => Encoding::Float,
        4 => Encoding::Signed,
        5 => Encoding::SignedChar,
        6 => Encoding::Unsigned,
        7 => Encoding::UnsignedChar,
        _ => Encoding::Unspecified,
    }
}

/// `DebugCompositeType`. A C++ `class` is written as a structure: LLVM 14's C interface
/// makes every struct-like type a structure (`DIBuilder::createClassType` too), so the SPIR
/// side cannot keep it, and a module's round trip through SPIR stays exact; the two differ
/// only in their members' default access.
pub fn composite_code(k: CompositeKind) -> u32 {
    match k {
        CompositeKind::Class | CompositeKind::Struct => 1,
        CompositeKind::Union => 2,
    }
}

/// The kind of a `DebugCompositeType` value.
pub fn composite_of(code: u32) -> CompositeKind {
    match code {
        0 => CompositeKind::Class,
        2 => CompositeKind::Union,
        _ => CompositeKind::Struct,
    }
}

/// `DebugTypeQualifier`.
pub fn qualifier_code(q: Qualifier) -> u32 {
    match q {
        Qualifier::Const => 0,
        Qualifier::Volatile => 1,
        Qualifier::Restrict => 2,
        Qualifier::Atomic => 3,
    }
}

/// The qualifier of a `DebugTypeQualifier` value.
pub fn qualifier_of(code: u32) -> Option<Qualifier> {
    Some(match code {
        0 => Qualifier::Const,
        1 => Qualifier::Volatile,
        2 => Qualifier::Restrict,
        3 => Qualifier::Atomic,
        _ => return None,
    })
}

/// SPIR-V's `SourceLanguage` value of a compile unit's language.
pub fn language_code(l: SourceLanguage) -> u32 {
    match l {
        SourceLanguage::OpenClC | SourceLanguage::C => spirv::SourceLanguage::OpenCL_C as u32,
        SourceLanguage::OpenClCpp | SourceLanguage::Cpp => spirv::SourceLanguage::OpenCL_CPP as u32,
        SourceLanguage::Other(_) => spirv::SourceLanguage::Unknown as u32,
    }
}

/// The language of a SPIR-V `SourceLanguage` value.
pub fn language_of(code: u32) -> SourceLanguage {
    match code {
        c if c == spirv::SourceLanguage::OpenCL_C as u32 => SourceLanguage::OpenClC,
        c if c == spirv::SourceLanguage::OpenCL_CPP as u32 => SourceLanguage::OpenClCpp,
        c if c == spirv::SourceLanguage::CPP_for_OpenCL as u32 => SourceLanguage::OpenClCpp,
        c => SourceLanguage::Other(c),
    }
}

/// A `DebugOperation`: its opcode and literal operands.
pub fn operation(op: ExprOp) -> (u32, Vec<u32>) {
    // Operands past 32 bits do not fit a literal of these sets; the low bits are kept.
    let lo = |v: u64| v as u32;
    match op {
        ExprOp::Deref => (0, vec![]),
        ExprOp::Plus => (1, vec![]),
        ExprOp::Minus => (2, vec![]),
        ExprOp::PlusConst(v) => (3, vec![lo(v)]),
        ExprOp::Swap => (5, vec![]),
        ExprOp::XDeref => (6, vec![]),
        ExprOp::StackValue => (7, vec![]),
        ExprOp::Const(v) => (8, vec![lo(v)]),
        ExprOp::Fragment { offset, size } => (9, vec![lo(offset), lo(size)]),
    }
}

/// The expression step of a `DebugOperation` (BitPiece, like Fragment, says a piece).
pub fn operation_of(code: u32, args: &[u32]) -> Option<ExprOp> {
    let arg = |i: usize| args.get(i).map(|&v| u64::from(v));
    Some(match code {
        0 => ExprOp::Deref,
        1 => ExprOp::Plus,
        2 => ExprOp::Minus,
        3 => ExprOp::PlusConst(arg(0)?),
        4 | 9 => ExprOp::Fragment {
            offset: arg(0)?,
            size: arg(1)?,
        },
        5 => ExprOp::Swap,
        6 => ExprOp::XDeref,
        7 => ExprOp::StackValue,
        8 => ExprOp::Const(arg(0)?),
        _ => return None,
    })
}
