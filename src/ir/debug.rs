//! Debug information: where the source said each instruction came from, and what its
//! variables and types were, for debuggers and profilers of the translated program.
//!
//! It is not part of the program: a translation with it and one without compute the same
//! results, and a writer that cannot say a piece of it drops that piece (and says so) rather
//! than refuse the module. Both readers fill it from their format's spelling (LLVM's `DI*`
//! metadata and `!dbg` attachments; SPIR-V's `OpenCL.DebugInfo.100` or
//! `NonSemantic.Shader.DebugInfo.100` instructions and `OpLine`), and the writers spell it
//! again; nothing here is a DWARF tag number or an extended-instruction opcode.
//!
//! # The parts
//!
//! [`DebugInfo`] (`Module::debug`) holds, each in its own arena:
//!
//! * [`SourceFile`]s: a file name, its directory, and its text where the input carried it;
//! * [`CompileUnit`]s: one per compiled source (the producer, the language, optimization);
//! * [`Scope`]s: the functions of the source ([`Subprogram`]), the blocks inside them
//!   (`{ ... }`, [`ScopeKind::LexicalBlock`]), C++ namespaces, and compile units;
//! * [`DebugType`]s: the source's types as the programmer wrote them (`typedef`s, `enum`s,
//!   `const`, struct member names), which the program's own [`super::Type`]s no longer say;
//! * [`Variable`]s: named local variables and parameters;
//! * [`GlobalVariable`]s: program-scope variables and a function's `static` and `__local`
//!   ones, each naming the module's [`super::Global`] that holds it, if one does;
//! * [`Location`]s: a line and column in a scope, and, for code that a call was inlined into,
//!   the location of that call (`inlined_at`): unique, so that one handle stands for each.
//!
//! # Where the program refers to it
//!
//! * Each [`super::Inst`] and each block's terminator ([`super::Block::terminator_loc`]) may
//!   carry a [`Location`] (`loc`): the source position the instruction computes.
//! * [`super::Op::DebugDeclare`] says that from this point a variable lives in memory at an
//!   address; [`super::Op::DebugValue`] that it has a value. Neither computes anything; both
//!   have type `Void`.
//! * A [`Subprogram`] names the [`super::Function`] it describes (`function`), if the
//!   function is still in the module (an inlined helper's subprogram names none).
//!
//! Handles between these parts are into the arenas of the same [`DebugInfo`]; an empty one
//! (the default) is a module without debug information.

use super::arena::{Arena, Handle, UniqueArena};
use super::function::Function;
use super::types::AddressSpace;

/// A source file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SourceFile {
    /// Its name as the compiler was given it (`kernel.cl`, `<stdin>`, an absolute path).
    pub name: String,
    /// The directory the compiler ran in (empty when unknown).
    pub directory: String,
    /// The file's text, where the input carried it (`clang -gembed-source`, SPIR-V's
    /// `DebugSource` text operand).
    pub text: Option<String>,
}

impl SourceFile {
    /// The name joined to its directory, unless the name is already absolute or there is no
    /// directory.
    pub fn path(&self) -> String {
        if self.directory.is_empty() || self.name.starts_with('/') {
            self.name.clone()
        } else {
            format!("{}/{}", self.directory.trim_end_matches('/'), self.name)
        }
    }
}

/// The language of a compile unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SourceLanguage {
    /// OpenCL C.
    OpenClC,
    /// C++ for OpenCL (and OpenCL C++).
    OpenClCpp,
    /// C99 and other C dialects.
    C,
    /// C++.
    Cpp,
    /// Another language, by its DWARF number.
    Other(u32),
}

/// One compiled source: what a debugger shows as the program's compile unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileUnit {
    /// The main source file.
    pub file: Handle<SourceFile>,
    /// The language.
    pub language: SourceLanguage,
    /// The compiler that made it (`clang version 14.0.6`), where the input said.
    pub producer: Option<String>,
    /// Compiled with optimization.
    pub optimized: bool,
    /// The DWARF version the source was compiled for (2 to 5; 4 where the input did not say).
    pub dwarf_version: u32,
}

/// A function of the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subprogram {
    /// Its name in the source.
    pub name: String,
    /// The name the linker sees (a mangled C++ or overloaded name), where it differs.
    pub linkage_name: Option<String>,
    /// The file it is written in.
    pub file: Handle<SourceFile>,
    /// The line of its declaration.
    pub line: u32,
    /// The line where its body starts (its `{`).
    pub scope_line: u32,
    /// Its type ([`DebugType::Function`]), if known.
    pub ty: Option<Handle<DebugType>>,
    /// The compile unit (an index into [`DebugInfo::units`]) for a definition.
    pub unit: Option<u32>,
    /// The function of this module it describes, if it is still one (not inlined away).
    pub function: Option<Handle<Function>>,
    /// A definition (not only a declaration).
    pub definition: bool,
    /// Visible only in its file (`static`).
    pub local: bool,
    /// Compiled with optimization.
    pub optimized: bool,
    /// Declared with a prototype (C).
    pub prototyped: bool,
    /// An artificial function the compiler made (a block invoke function, a wrapper).
    pub artificial: bool,
}

/// What a [`Scope`] is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScopeKind {
    /// A whole compile unit (an index into [`DebugInfo::units`]).
    Unit(u32),
    /// A function.
    Subprogram(Subprogram),
    /// A `{ ... }` block inside a function or another block.
    LexicalBlock {
        /// Its line.
        line: u32,
        /// Its column.
        column: u32,
    },
    /// The parent scope's code, of another file or told apart from the parent's other code
    /// on the same lines (LLVM's lexical block file; SPIR-V's
    /// `DebugLexicalBlockDiscriminator`).
    FileBlock {
        /// LLVM's discriminator: which of several code paths (or inlined calls) written on
        /// one line this is; 0 for none.
        discriminator: u32,
    },
    /// A C++ namespace.
    Namespace {
        /// Its name (empty for an anonymous one).
        name: String,
    },
    /// A type that other entities are declared in (a C++ class's methods).
    Type(Handle<DebugType>),
}

/// A region of the source in which names are declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scope {
    /// What it is.
    pub kind: ScopeKind,
    /// The scope around it (`None`: the file, at the top).
    pub parent: Option<Handle<Scope>>,
    /// The file it is written in.
    pub file: Handle<SourceFile>,
}

/// A source position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    /// The line, from 1 (0: no line, code the compiler made).
    pub line: u32,
    /// The column, from 1 (0: unknown).
    pub column: u32,
    /// The innermost scope (a subprogram or a block inside one).
    pub scope: Handle<Scope>,
    /// For code a call was inlined into: the call's location (which may itself be inlined).
    pub inlined_at: Option<Handle<Location>>,
}

/// How a basic type's bits are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// A signed integer.
    Signed,
    /// An unsigned integer.
    Unsigned,
    /// A signed character (`char` where it is signed).
    SignedChar,
    /// An unsigned character.
    UnsignedChar,
    /// A floating-point number.
    Float,
    /// A boolean.
    Boolean,
    /// An address.
    Address,
    /// Unknown.
    Unspecified,
}

/// A qualifier on a type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Qualifier {
    /// `const`.
    Const,
    /// `volatile`.
    Volatile,
    /// `restrict`.
    Restrict,
    /// `_Atomic`.
    Atomic,
}

/// The kind of a struct-like type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompositeKind {
    /// `struct`.
    Struct,
    /// `union`.
    Union,
    /// C++ `class`.
    Class,
}

/// A member of a struct, union or class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Option<Handle<DebugType>>,
    /// Where it is declared.
    pub file: Option<Handle<SourceFile>>,
    /// Its line.
    pub line: u32,
    /// Its offset from the start of the aggregate, in bits.
    pub offset_bits: u64,
    /// Its size in bits.
    pub size_bits: u64,
}

/// A type as the source wrote it. A handle of `None` where a type is expected is `void`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DebugType {
    /// A scalar (`int`, `float`, `bool`, `uchar`).
    Basic {
        /// Its name in the source.
        name: String,
        /// Its size in bits.
        size_bits: u64,
        /// How its bits are read.
        encoding: Encoding,
    },
    /// A pointer.
    Pointer {
        /// What it points to (`None`: `void`).
        base: Option<Handle<DebugType>>,
        /// Where what it points to lives, where the source said.
        space: Option<AddressSpace>,
        /// Its size in bits.
        size_bits: u64,
    },
    /// A qualified type (`const int`).
    Qualified {
        /// The qualifier.
        qualifier: Qualifier,
        /// The type qualified (`None`: `void`).
        base: Option<Handle<DebugType>>,
    },
    /// An array, of one or more dimensions.
    Array {
        /// The element type.
        base: Option<Handle<DebugType>>,
        /// The element count of each dimension, outermost first (`None`: unknown, `[]`).
        counts: Vec<Option<u64>>,
        /// Its size in bits.
        size_bits: u64,
    },
    /// An OpenCL C vector (`float4`).
    Vector {
        /// The element type.
        base: Option<Handle<DebugType>>,
        /// The lane count.
        count: u32,
        /// Its size in bits.
        size_bits: u64,
    },
    /// A struct, union or class.
    Composite {
        /// Which.
        kind: CompositeKind,
        /// Its tag name (empty for an anonymous one).
        name: String,
        /// Where it is declared.
        file: Option<Handle<SourceFile>>,
        /// Its line.
        line: u32,
        /// Its size in bits.
        size_bits: u64,
        /// Its members, in order.
        members: Vec<Member>,
        /// Only declared here (its members are elsewhere).
        declaration: bool,
        /// A C++ unique identifier (its mangled name), if it has one.
        identifier: Option<String>,
    },
    /// An `enum`.
    Enum {
        /// Its tag name (empty for an anonymous one).
        name: String,
        /// The integer type it is held in.
        base: Option<Handle<DebugType>>,
        /// Where it is declared.
        file: Option<Handle<SourceFile>>,
        /// Its line.
        line: u32,
        /// Its size in bits.
        size_bits: u64,
        /// Its enumerators: name and value.
        values: Vec<(String, i64)>,
    },
    /// A `typedef`.
    Typedef {
        /// The new name.
        name: String,
        /// The type named (`None`: `void`).
        base: Option<Handle<DebugType>>,
        /// Where it is declared.
        file: Option<Handle<SourceFile>>,
        /// Its line.
        line: u32,
    },
    /// A function type: the result, then each parameter.
    Function {
        /// The result type (`None`: `void`).
        ret: Option<Handle<DebugType>>,
        /// The parameter types.
        params: Vec<Option<Handle<DebugType>>>,
    },
    /// A type known by name only (OpenCL's `image2d_t`, C++'s `decltype(nullptr)`).
    Named {
        /// The name.
        name: String,
    },
}

/// A named variable of the source: a local variable or a parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Option<Handle<DebugType>>,
    /// Where it is declared.
    pub file: Handle<SourceFile>,
    /// Its line.
    pub line: u32,
    /// The scope it is declared in.
    pub scope: Handle<Scope>,
    /// For a parameter, its number, from 1.
    pub arg: Option<u32>,
    /// Made by the compiler, not written in the source.
    pub artificial: bool,
}

/// A variable of program scope, or a function's `static` or `__local` one: what a
/// debugger shows by name while any of the module's code runs (LLVM's `DIGlobalVariable`,
/// SPIR-V's `DebugGlobalVariable`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalVariable {
    /// Its name.
    pub name: String,
    /// Its mangled (linkage) name, where the source gave one.
    pub linkage_name: Option<String>,
    /// Its type.
    pub ty: Option<Handle<DebugType>>,
    /// Where it is declared.
    pub file: Handle<SourceFile>,
    /// Its line.
    pub line: u32,
    /// The scope it is declared in: a compile unit, or the function of a `static` or
    /// `__local` variable.
    pub scope: Handle<Scope>,
    /// Seen from its own file only (C `static`, a function's variables).
    pub local: bool,
    /// The declaration defines it (not an `extern` one).
    pub definition: bool,
    /// The module's variable that holds it; `None` where none does (the optimizer folded it
    /// away, or a Vulkan shader keeps it in memory laid out anew).
    pub global: Option<Handle<super::module::Global>>,
}

/// One step of a [`DebugExpression`], as DWARF names them: how a debugger gets from the
/// address or value a declaration names to the variable's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExprOp {
    /// Read memory at the address on the stack.
    Deref,
    /// Add the two values on top of the stack.
    Plus,
    /// Subtract the top value from the one below.
    Minus,
    /// Add a constant.
    PlusConst(u64),
    /// Push a constant.
    Const(u64),
    /// Swap the two values on top of the stack.
    Swap,
    /// Read memory at an address in an address space (the two values on top of the stack).
    XDeref,
    /// The value is on the stack, not in memory.
    StackValue,
    /// The variable's bits from `offset` for `size` bits (a piece of a split variable).
    Fragment {
        /// The first bit.
        offset: u64,
        /// How many bits.
        size: u64,
    },
}

/// How a debugger computes a variable's value from what a declaration names (empty: the
/// address or value itself).
pub type DebugExpression = Vec<ExprOp>;

/// Everything the source said for debuggers; empty (the default) for a module without it.
#[derive(Clone, Debug, Default)]
pub struct DebugInfo {
    /// The source files.
    pub files: UniqueArena<SourceFile>,
    /// The compile units.
    pub units: Vec<CompileUnit>,
    /// The scopes.
    pub scopes: Arena<Scope>,
    /// The source's types.
    pub types: Arena<DebugType>,
    /// The named variables.
    pub variables: Arena<Variable>,
    /// The variables of program scope and the functions' `static` and `__local` ones.
    pub globals: Vec<GlobalVariable>,
    /// The source positions, each once.
    pub locations: UniqueArena<Location>,
}

impl DebugInfo {
    /// Whether the module has any debug information.
    pub fn is_empty(&self) -> bool {
        self.units.is_empty() && self.scopes.is_empty() && self.locations.is_empty()
    }

    /// The file `name` in `directory`, added once.
    pub fn file(
        &mut self,
        name: &str,
        directory: &str,
        text: Option<String>,
    ) -> Handle<SourceFile> {
        self.files.insert(SourceFile {
            name: name.into(),
            directory: directory.into(),
            text,
        })
    }

    /// The location, added once.
    pub fn location(&mut self, loc: Location) -> Handle<Location> {
        self.locations.insert(loc)
    }

    /// The subprogram of a scope: itself, or the one a block is inside.
    pub fn subprogram_of(&self, mut scope: Handle<Scope>) -> Option<Handle<Scope>> {
        // Parents form a tree; the bound stops a malformed input's cycle.
        for _ in 0..=self.scopes.len() {
            let s = &self.scopes[scope];
            if matches!(s.kind, ScopeKind::Subprogram(_)) {
                return Some(scope);
            }
            scope = s.parent?;
        }
        None
    }

    /// The subprogram that describes `f`, if one does.
    pub fn subprogram_for(&self, f: Handle<Function>) -> Option<Handle<Scope>> {
        self.scopes.iter().find_map(|(h, s)| match &s.kind {
            ScopeKind::Subprogram(sp) if sp.function == Some(f) => Some(h),
            _ => None,
        })
    }

    /// `loc` as code inlined at `call`: its chain of inlined-at locations ends at `call`
    /// instead of at its own function.
    pub fn inlined(&mut self, loc: Handle<Location>, call: Handle<Location>) -> Handle<Location> {
        let l = self.locations[loc];
        let inlined_at = match l.inlined_at {
            Some(outer) => self.inlined(outer, call),
            None => call,
        };
        self.location(Location {
            inlined_at: Some(inlined_at),
            ..l
        })
    }
}
