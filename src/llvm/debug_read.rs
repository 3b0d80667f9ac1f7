//! Reading debug information: an instruction's `!dbg` location, a function's subprogram, the
//! metadata operands of `llvm.dbg.*` calls, and the fields of `DI*` nodes.
//!
//! LLVM 14's C API reads a location's line, column, scope and inlined-at, and a file's names,
//! but none of the other fields of the `DI*` nodes (a derived type's tag, a variable's
//! argument number, a block's line, an enumerator's value). Those are read from the node's own
//! assembly text, which LLVM prints (`!DIDerivedType(tag: DW_TAG_pointer_type, baseType: !12,
//! size: 64)`) in the syntax its reference manual defines: each field by name. A field that
//! names another node is not read from the text (it prints a slot number or an address) but
//! from the node's operands, at the index LLVM 14's class keeps it ([`REFERENCES`]).

use llvm_sys::core::*;
use llvm_sys::debuginfo::*;

use super::md_build::Metadata;
use super::value::Value;
use super::Module;

/// What a `Metadata` is, for the kinds debug information is made of.
pub use llvm_sys::debuginfo::LLVMMetadataKind as MetadataKind;

/// A `!DILocation`: a line and column in a scope, maybe inlined at another location.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DiLocation<'m> {
    /// The line.
    pub line: u32,
    /// The column.
    pub column: u32,
    /// The scope (a subprogram, a lexical block, ...).
    pub scope: Metadata<'m>,
    /// The location of the call this code was inlined into.
    pub inlined_at: Option<Metadata<'m>>,
}

/// A field's value in a `DI*` node, as its text says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiField {
    /// A number.
    Int(i64),
    /// A string.
    Str(String),
    /// A word or words: `DW_TAG_pointer_type`, `true`, `DIFlagPrototyped | DIFlagArtificial`,
    /// or a reference to another node (read with [`DiNode::node`], not from here).
    Words(String),
    /// `null`.
    Null,
}

/// A `DI*` node's kind (`DISubprogram`) and its fields, by name, in LLVM's order.
#[derive(Clone, Debug)]
pub struct DiNode<'m> {
    /// The node's kind, as the assembly names it.
    pub kind: String,
    /// Its fields (the unnamed items of a `DIExpression` with an empty name).
    pub fields: Vec<(String, DiField)>,
    /// Its operands that are metadata, by index (`None` for null or a non-metadata one).
    operands: Vec<Option<Metadata<'m>>>,
}

impl<'m> DiNode<'m> {
    fn field(&self, name: &str) -> Option<&DiField> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// A number field (0 where the node leaves it out, as LLVM prints zero by omission).
    pub fn int(&self, name: &str) -> i64 {
        match self.field(name) {
            Some(DiField::Int(v)) => *v,
            _ => 0,
        }
    }

    /// A number field that may be absent.
    pub fn int_opt(&self, name: &str) -> Option<i64> {
        match self.field(name) {
            Some(DiField::Int(v)) => Some(*v),
            _ => None,
        }
    }

    /// A string field (empty where absent).
    pub fn str(&self, name: &str) -> String {
        match self.field(name) {
            Some(DiField::Str(s)) => s.clone(),
            _ => String::new(),
        }
    }

    /// A string field that may be absent.
    pub fn str_opt(&self, name: &str) -> Option<String> {
        match self.field(name) {
            Some(DiField::Str(s)) => Some(s.clone()),
            _ => None,
        }
    }

    /// A words field (empty where absent).
    pub fn words(&self, name: &str) -> String {
        match self.field(name) {
            Some(DiField::Words(s)) => s.clone(),
            _ => String::new(),
        }
    }

    /// Whether a flags field (`flags: DIFlagA | DIFlagB`) has `flag`.
    pub fn has_flag(&self, name: &str, flag: &str) -> bool {
        self.words(name).split(" | ").any(|f| f == flag)
    }

    /// A field that names another node (`None` where it is null or the kind has no such
    /// field).
    pub fn node(&self, name: &str) -> Option<Metadata<'m>> {
        let (_, fields) = REFERENCES.iter().find(|(k, _)| *k == self.kind)?;
        let (_, i) = fields.iter().find(|(f, _)| *f == name)?;
        self.operands.get(*i).copied().flatten()
    }
}

/// The operand index of each field that names another node, per `DI*` kind, as LLVM 14's
/// `DebugInfoMetadata.h` keeps them (a scope's file is operand 0, a type's scope 1 and name 2,
/// a variable's scope 0 and file 2, ...).
pub const REFERENCES: &[(&str, &[(&str, usize)])] = &[
    ("DICompileUnit", &[("file", 0), ("globals", 6)]),
    ("DIGlobalVariableExpression", &[("var", 0), ("expr", 1)]),
    (
        "DISubprogram",
        &[
            ("file", 0),
            ("scope", 1),
            ("type", 4),
            ("unit", 5),
            ("declaration", 6),
        ],
    ),
    ("DILexicalBlock", &[("file", 0), ("scope", 1)]),
    ("DILexicalBlockFile", &[("file", 0), ("scope", 1)]),
    ("DINamespace", &[("file", 0), ("scope", 1)]),
    ("DIBasicType", &[("file", 0), ("scope", 1)]),
    (
        "DIDerivedType",
        &[("file", 0), ("scope", 1), ("baseType", 3)],
    ),
    (
        "DICompositeType",
        &[("file", 0), ("scope", 1), ("baseType", 3), ("elements", 4)],
    ),
    (
        "DISubroutineType",
        &[("file", 0), ("scope", 1), ("types", 3)],
    ),
    ("DILocalVariable", &[("scope", 0), ("file", 2), ("type", 3)]),
    (
        "DIGlobalVariable",
        &[("scope", 0), ("file", 2), ("type", 3)],
    ),
];

impl<'m> Value<'m> {
    /// Whether the value is `undef`.
    pub fn is_undef(self) -> bool {
        // SAFETY: a live value; the query answers for any.
        unsafe { LLVMIsUndef(self.raw()) != 0 }
    }

    /// A constant float's value and width (16, 32 or 64 bits); `None` for another value.
    pub fn const_float(self) -> Option<(f64, u32)> {
        use llvm_sys::LLVMTypeKind as T;
        let width = match self.type_of().kind() {
            T::LLVMHalfTypeKind => 16,
            T::LLVMFloatTypeKind => 32,
            T::LLVMDoubleTypeKind => 64,
            _ => return None,
        };
        // SAFETY: asked of a constant float of a width LLVM converts to double (checked
        // above, and the cast answers null for a value that is no constant float).
        unsafe {
            if LLVMIsAConstantFP(self.raw()).is_null() {
                return None;
            }
            let mut lost = 0;
            Some((LLVMConstRealGetDouble(self.raw(), &mut lost), width))
        }
    }

    /// An instruction's `!dbg` location; `None` for a value that is no instruction or has
    /// none.
    pub fn debug_location(self) -> Option<Metadata<'m>> {
        // SAFETY: asked of an instruction only (point 3); the answer is null or a node of
        // the module's context.
        unsafe {
            if LLVMIsAInstruction(self.raw()).is_null() {
                return None;
            }
            Metadata::new(LLVMInstructionGetDebugLoc(self.raw()))
        }
    }

    /// A global variable's `!dbg` attachments (each a `!DIGlobalVariableExpression`); empty
    /// for a value that is no global variable.
    pub fn global_debug(self) -> Vec<Metadata<'m>> {
        // SAFETY: asked of a global variable only (point 3): LLVM copies its attachments
        // into an array of `n` entries, read by index below `n` and disposed of once.
        unsafe {
            if LLVMIsAGlobalVariable(self.raw()).is_null() {
                return Vec::new();
            }
            let mut n = 0usize;
            let entries = LLVMGlobalCopyAllMetadata(self.raw(), &mut n);
            if entries.is_null() {
                return Vec::new();
            }
            let dbg = LLVMGetMDKindID(c"dbg".as_ptr(), 3);
            let out = (0..n as u32)
                .filter(|&i| LLVMValueMetadataEntriesGetKind(entries, i) == dbg)
                .filter_map(|i| Metadata::new(LLVMValueMetadataEntriesGetMetadata(entries, i)))
                .collect();
            LLVMDisposeValueMetadataEntries(entries);
            out
        }
    }

    /// A function's `!dbg` subprogram; `None` for a value that is no function or has none.
    pub fn subprogram(self) -> Option<Metadata<'m>> {
        // SAFETY: asked of a function only (point 3).
        unsafe {
            if LLVMIsAFunction(self.raw()).is_null() {
                return None;
            }
            Metadata::new(LLVMGetSubprogram(self.raw()))
        }
    }

    /// The metadata a `metadata` operand of a call wraps (`llvm.dbg.declare`'s variable);
    /// `None` for a value that is not metadata.
    pub fn as_wrapped_metadata(self) -> Option<Metadata<'m>> {
        // SAFETY: asked of a metadata-as-value only (its kind checked); the answer is the
        // metadata it wraps.
        unsafe {
            if LLVMGetValueKind(self.raw()) != llvm_sys::LLVMValueKind::LLVMMetadataAsValueValueKind
            {
                return None;
            }
            Metadata::new(LLVMValueAsMetadata(self.raw()))
        }
    }
}

impl<'m> Metadata<'m> {
    /// What kind of metadata it is.
    pub fn kind(self) -> MetadataKind {
        // SAFETY: live metadata.
        unsafe { LLVMGetMetadataKind(self.raw()) }
    }

    /// The location it is, if it is a `!DILocation`.
    pub fn location(self) -> Option<DiLocation<'m>> {
        if !matches!(self.kind(), MetadataKind::LLVMDILocationMetadataKind) {
            return None;
        }
        // SAFETY: asked of a location only (checked above); the scope is never null, the
        // inlined-at may be.
        unsafe {
            Some(DiLocation {
                line: LLVMDILocationGetLine(self.raw()),
                column: LLVMDILocationGetColumn(self.raw()),
                scope: Metadata::new(LLVMDILocationGetScope(self.raw()))?,
                inlined_at: Metadata::new(LLVMDILocationGetInlinedAt(self.raw())),
            })
        }
    }

    /// The value a local or constant wrapped as metadata stands for (`llvm.dbg.declare`'s
    /// address); `None` for other metadata.
    pub fn wrapped_value(self, module: &'m Module) -> Option<Value<'m>> {
        use MetadataKind as K;
        if !matches!(
            self.kind(),
            K::LLVMLocalAsMetadataMetadataKind | K::LLVMConstantAsMetadataMetadataKind
        ) {
            return None;
        }
        // SAFETY: a value wrapped as metadata (checked): LLVM answers its one operand, the
        // value, into an array of one.
        unsafe {
            let v = LLVMMetadataAsValue(module.raw().0, self.raw());
            let mut out = [std::ptr::null_mut()];
            LLVMGetMDNodeOperands(v, out.as_mut_ptr());
            Value::new(out[0])
        }
    }

    /// A tuple's items (`!{!1, null, !3}`), `None` for a null item; empty for metadata that
    /// is no node.
    pub fn items(self, module: &'m Module) -> Vec<Option<Metadata<'m>>> {
        self.operands(module)
            .into_iter()
            .map(|v| v.and_then(|v| v.as_wrapped_metadata().or(Some(v.as_metadata()))))
            .collect()
    }

    fn is_node(self) -> bool {
        use MetadataKind as K;
        !matches!(
            self.kind(),
            K::LLVMMDStringMetadataKind
                | K::LLVMConstantAsMetadataMetadataKind
                | K::LLVMLocalAsMetadataMetadataKind
                | K::LLVMDistinctMDOperandPlaceholderMetadataKind
                | K::LLVMDIArgListMetadataKind
        )
    }

    fn operands(self, module: &'m Module) -> Vec<Option<Value<'m>>> {
        if !self.is_node() {
            return Vec::new();
        }
        // SAFETY: a live node of the module's context (checked to be an MDNode above).
        let v = unsafe { Value::new(LLVMMetadataAsValue(module.raw().0, self.raw())) };
        v.map(|v| v.node_operands()).unwrap_or_default()
    }

    /// The `DI*` node's fields, read from its assembly text (see the module's
    /// documentation); `None` for metadata that is no node, or text this reader does not
    /// follow.
    pub fn di_node(self, module: &'m Module) -> Option<DiNode<'m>> {
        if !self.is_node() {
            return None;
        }
        let (kind, fields) = parse_node(&self.printed(module)?)?;
        let operands = self
            .operands(module)
            .into_iter()
            .map(|v| v.and_then(|v| v.as_wrapped_metadata()))
            .collect();
        Some(DiNode {
            kind,
            fields,
            operands,
        })
    }
}

impl<'m> Metadata<'m> {
    /// For a `!DIArgList` (the several values of an `llvm.dbg.value` whose expression
    /// combines them), whether any of its values is `undef` or `poison`: LLVM's "kill
    /// location", where the variable's value is not known. `None` for other metadata. (LLVM
    /// 14's C API has no getter for a list's values; they are read from its text, each
    /// value's last word.)
    pub fn arg_list_has_undef(self, module: &'m Module) -> Option<bool> {
        if !matches!(self.kind(), MetadataKind::LLVMDIArgListMetadataKind) {
            return None;
        }
        let text = self.printed(module)?;
        let body = text.split_once("!DIArgList(")?.1.strip_suffix(')')?;
        Some(
            split_top(body)
                .iter()
                .any(|arg| matches!(arg.split_whitespace().last(), Some("undef" | "poison"))),
        )
    }

    /// The metadata's assembly text, as LLVM prints it wrapped as a value.
    fn printed(self, module: &'m Module) -> Option<String> {
        // SAFETY: live metadata of the module's context, wrapped as a value of it.
        let v = unsafe { Value::new(LLVMMetadataAsValue(module.raw().0, self.raw())) }?;
        v.printed()
    }
}

/// Parse `<ref> = [distinct ]!Kind(field: value, ...)`: the kind and the fields.
fn parse_node(text: &str) -> Option<(String, Vec<(String, DiField)>)> {
    let start = text.find("!DI").or_else(|| text.find("!Generic"))?;
    let rest = &text[start + 1..];
    let open = rest.find('(')?;
    let kind = rest[..open].to_string();
    let body = rest[open + 1..].strip_suffix(')')?;
    let mut fields = Vec::new();
    for part in split_top(body) {
        // `DIExpression(DW_OP_constu, 0)` lists its items without names.
        let (name, value) = part.split_once(": ").unwrap_or(("", part));
        let value = value.trim();
        let v = if let Some(s) = value.strip_prefix('"') {
            DiField::Str(unescape(s.strip_suffix('"')?))
        } else if value == "null" {
            DiField::Null
        } else if let Ok(n) = value.parse::<i64>() {
            DiField::Int(n)
        } else if let Ok(n) = value.parse::<u64>() {
            // Past i64 (an unsigned enumerator's value): its bits.
            DiField::Int(n as i64)
        } else {
            DiField::Words(value.to_string())
        };
        fields.push((name.trim().to_string(), v));
    }
    Some((kind, fields))
}

/// `body` split at the commas outside strings and brackets (`<2 x i32> <i32 1, i32 2>` in a
/// `DIArgList` is one item).
fn split_top(body: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut in_str, mut start) = (0i32, false, 0);
    for (i, c) in body.char_indices() {
        match c {
            '"' => in_str = !in_str,
            '(' | '{' | '<' | '[' if !in_str => depth += 1,
            ')' | '}' | '>' | ']' if !in_str => depth -= 1,
            ',' if !in_str && depth == 0 => {
                parts.push(body[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !body[start..].trim().is_empty() {
        parts.push(body[start..].trim());
    }
    parts
}

/// LLVM's string escapes: `\XX` (two hex digits) for a byte; `\\` for a backslash.
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 2 < b.len() + 1 {
            if b.get(i + 1) == Some(&b'\\') {
                out.push(b'\\');
                i += 2;
                continue;
            }
            let hex = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            if let Some(byte) = hex {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_text_is_read_field_by_field() {
        let (kind, fields) = parse_node(
            r#"<0x1> = distinct !DISubprogram(name: "f\22x", line: 3, flags: DIFlagPrototyped | DIFlagArtificial, spFlags: DISPFlagDefinition, unit: !2, type: null)"#,
        )
        .unwrap();
        let n = DiNode {
            kind,
            fields,
            operands: Vec::new(),
        };
        assert_eq!(n.kind, "DISubprogram");
        assert_eq!(n.str("name"), "f\"x");
        assert_eq!(n.int("line"), 3);
        assert!(n.has_flag("flags", "DIFlagArtificial"));
        assert!(!n.has_flag("flags", "DIFlagVector"));
        assert_eq!(n.words("spFlags"), "DISPFlagDefinition");
        assert!(n.node("unit").is_none());
        let (kind, fields) = parse_node("!DIExpression(DW_OP_constu, 0, DW_OP_swap)").unwrap();
        assert_eq!(kind, "DIExpression");
        assert_eq!(
            fields,
            [
                ("".into(), DiField::Words("DW_OP_constu".into())),
                ("".into(), DiField::Int(0)),
                ("".into(), DiField::Words("DW_OP_swap".into())),
            ]
        );
    }
}
