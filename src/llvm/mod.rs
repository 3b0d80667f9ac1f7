//! The LLVM C API behind safe types: the one room of the crate that calls LLVM (issue 33,
//! item 5). Everything above it holds an owned [`Module`] and `Copy` handles borrowed from it
//! ([`Value`], [`Type`], [`Block`]), and asks them questions that cannot go wrong.
//!
//! # The safety argument
//!
//! Every `unsafe` call of `llvm_sys` in the crate is in this room: the SPIR reader's
//! questions to a parsed module, and the SPIR writer's building of a new one (types,
//! constants, functions, globals, instructions through a [`Builder`], metadata). Each is sound
//! for these reasons, which the `SAFETY` comments refer to:
//!
//! 1. **Owned.** A [`Module`] owns its LLVM context and module: it creates both and disposes
//!    of both once, in `Drop`. Nothing else disposes of either.
//! 2. **Borrowed handles.** A handle carries the lifetime of the `&Module` it came from, so no
//!    handle outlives its module. This room offers no call that deletes a value, a block or a
//!    function (LLVM frees them only with their module), so a handle is valid for as long as
//!    it can be named.
//! 3. **Checked kinds.** A C function defined only for one kind of value or type (the element
//!    count of a vector type, the called value of a call) is reached only after the kind was
//!    checked here, and an operand index only below the operand count. What LLVM cannot
//!    answer comes back as `None`.
//! 4. **Copied out.** Strings LLVM owns (names, metadata strings) are copied into Rust
//!    `String`s before the call returns; changing a name later frees nothing Rust holds.
//! 5. **One thread.** A `Module` and its handles hold raw pointers, so none of them is
//!    `Send` or `Sync`: each translation's LLVM context stays on the thread that made it.
//! 6. **Checked operands.** LLVM's C API does not check what it is given, and a build of
//!    LLVM without assertions (Debian's) turns an ill-typed operand into undefined behaviour
//!    (a `cast<VectorType>` of a scalar, a null from `getIndexedType`). Every call that
//!    builds a type, a constant or an instruction is made only after its operands passed the
//!    checks of `checks.rs` (the kinds, widths and indices LLVM's C++ side assumes), and only
//!    while the builder is placed in a function's block; what fails is a [`Refused`], never a
//!    call. Whether the module as a whole is well-formed is still LLVM's verifier's to say
//!    ([`Module::verify`]).
//!
//! Changes made through shared handles (a value's name taken) are like a `Cell`'s: LLVM's
//! objects are not Rust memory, and the changes offered keep the module well-typed.

mod bitstream;
mod builder;
mod checks;
mod constants;
mod debug_read;
mod di_build;
mod di_types;
mod edit;
mod globals;
mod inst_flags;
mod md_build;
mod memory;
mod metadata;
mod module;
#[cfg(test)]
mod tests;
mod types;
mod value;

pub use builder::{Builder, IntPredicate, RealPredicate};
pub use checks::{Built, Refused};
pub use debug_read::{DiField, DiNode, MetadataKind};
pub use di_build::{DiBuilder, Language as DwarfLanguage};
pub use di_types::tag as dwarf_tag;
pub use globals::{AttributePlace, Linkage};
pub use inst_flags::{FastMathFlags, InstFlags};
pub use md_build::Metadata;
pub use metadata::attribute_kind;
pub use module::{Module, SourceForm};
pub use value::{Block, Opcode, Type, TypeKind, Value, ValueKind};
