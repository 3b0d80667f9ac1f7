//! LLVM debug metadata -> the graph's debug information (`ir::debug`): the compile units of
//! `!llvm.dbg.cu`, each function's `!dbg` subprogram, each instruction's `!dbg` location, and
//! the `llvm.dbg.declare`/`llvm.dbg.value` calls, read from the module LLVM parsed before
//! llvm-ir converts it (llvm-ir keeps a location's file and line, not its scope, and none of
//! a call's metadata operands).
//!
//! What the walk finds is kept per function by the position of each instruction (block,
//! then instruction, the terminator last), which is the order llvm-ir converts them in; the
//! body lowering takes each instruction's facts from there ([`FunctionDebug`]).

use crate::hash::HashMap;

use crate::ir::debug::{self as dbg, DebugType, ScopeKind};
use crate::ir::{self, Handle};
use crate::llvm::{self, DiNode, Metadata, MetadataKind};

mod globals;

/// Where a debug declaration's operand is, in the function's LLVM body.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Place {
    /// The function's parameter.
    Param(u32),
    /// The result of the instruction at (block, instruction) in LLVM order.
    Inst(usize, usize),
    /// An integer constant of that width.
    Int(u64, u32),
    /// A float constant of that width.
    Float(f64, u32),
    /// `undef`: the variable's value is not known here (optimized out).
    Undef,
    /// Unknown (`undef`, or a value this reader does not follow).
    Unknown,
}

/// An `llvm.dbg.declare` or `llvm.dbg.value` call.
#[derive(Clone, Debug)]
pub(super) struct VarUse {
    pub var: Handle<dbg::Variable>,
    pub expr: dbg::DebugExpression,
    pub declare: bool,
    pub place: Place,
}

/// The debug facts of one instruction.
#[derive(Clone, Debug, Default)]
pub(super) struct InstDebug {
    pub loc: Option<Handle<dbg::Location>>,
    pub var: Option<VarUse>,
}

/// The debug facts of a function: per block, per instruction (the terminator last).
#[derive(Clone, Debug, Default)]
pub(super) struct FunctionDebug {
    pub blocks: Vec<Vec<InstDebug>>,
}

impl FunctionDebug {
    /// The facts of instruction `i` of block `b` (the terminator is `i` = the count of the
    /// block's other instructions).
    pub fn at(&self, b: usize, i: usize) -> Option<&InstDebug> {
        self.blocks.get(b)?.get(i)
    }
}

/// Every function's debug facts, by the function's name; each function's subprogram; and
/// the declarations this reader could not say (an expression step it does not know),
/// counted.
#[derive(Default)]
pub(super) struct DebugTables {
    pub functions: HashMap<String, FunctionDebug>,
    pub subprograms: Vec<(String, Handle<dbg::Scope>)>,
    pub unread_expressions: usize,
    /// The global variables' descriptions a global holds: (index in
    /// `DebugInfo::globals`, the LLVM global's name), tied by `link_globals`.
    pub global_holders: Vec<(usize, String)>,
    /// LLVM's reader dropped debug information of a format before LLVM 3.4's (no "Debug
    /// Info Version" module flag: SPIR 1.2 producers on LLVM 3.2 wrote it so).
    pub dropped_by_llvm: bool,
}

impl DebugTables {
    /// Tie each global variable's description to the graph global of its name.
    pub fn link_globals(
        &self,
        d: &mut dbg::DebugInfo,
        globals: &HashMap<String, Handle<ir::Global>>,
    ) {
        for (i, name) in &self.global_holders {
            if let (Some(g), Some(&h)) = (d.globals.get_mut(*i), globals.get(name)) {
                g.global = Some(h);
            }
        }
    }

    /// Tie each subprogram to the graph function of its name.
    pub fn link_functions(
        &self,
        m: &mut ir::Module,
        functions: &HashMap<String, Handle<ir::Function>>,
    ) {
        for (name, sp) in &self.subprograms {
            if let (Some(&f), ScopeKind::Subprogram(s)) =
                (functions.get(name), &mut m.debug.scopes[*sp].kind)
            {
                s.function = Some(f);
            }
        }
    }
}

/// Read the module's debug information into `d`, and each function's facts.
pub(super) fn read(module: &llvm::Module, d: &mut dbg::DebugInfo) -> DebugTables {
    // LLVM's verifier ties every location to a subprogram, every subprogram definition to a
    // compile unit and every unit to `!llvm.dbg.cu`: a module without it has no debug
    // information, and its instructions need no walk.
    let dropped_by_llvm = module
        .diagnostics()
        .iter()
        .any(|d| d.contains("ignoring debug info with an invalid version"));
    if !module.has_named_metadata("llvm.dbg.cu") {
        return DebugTables {
            dropped_by_llvm,
            ..Default::default()
        };
    }
    let mut r = Reader {
        llvm: module,
        d,
        files: HashMap::default(),
        units: HashMap::default(),
        scopes: HashMap::default(),
        types: HashMap::default(),
        vars: HashMap::default(),
        locs: HashMap::default(),
    };
    let dwarf_version = dwarf_version(module);
    for cu in module.named_metadata("llvm.dbg.cu") {
        if let Some(cu) = cu.as_wrapped_metadata() {
            r.unit(cu, dwarf_version);
        }
    }
    let mut tables = DebugTables {
        global_holders: r.globals(),
        ..Default::default()
    };
    for f in module.functions() {
        if let Some(sp) = f.subprogram().and_then(|sp| r.scope(sp)) {
            tables.subprograms.push((f.name(), sp));
        }
        if !f.is_definition() {
            continue;
        }
        let mut fd = FunctionDebug::default();
        // Instruction positions of this function, for declarations' operands.
        let mut position = HashMap::default();
        for (bi, b) in f.blocks().enumerate() {
            for (ii, inst) in b.instructions().enumerate() {
                position.insert(inst, (bi, ii));
            }
        }
        let params: Vec<_> = f.params().collect();
        for b in f.blocks() {
            let mut block = Vec::new();
            for inst in b.instructions() {
                let loc = inst.debug_location().and_then(|l| r.location(l));
                let var = r.var_use(inst, &params, &position, &mut tables.unread_expressions);
                block.push(InstDebug { loc, var });
            }
            fd.blocks.push(block);
        }
        tables.functions.insert(f.name(), fd);
    }
    tables
}

struct Reader<'a, 'm> {
    llvm: &'m llvm::Module,
    d: &'a mut dbg::DebugInfo,
    files: HashMap<Metadata<'m>, Handle<dbg::SourceFile>>,
    units: HashMap<Metadata<'m>, u32>,
    scopes: HashMap<Metadata<'m>, Option<Handle<dbg::Scope>>>,
    types: HashMap<Metadata<'m>, Handle<DebugType>>,
    vars: HashMap<Metadata<'m>, Handle<dbg::Variable>>,
    locs: HashMap<Metadata<'m>, Handle<dbg::Location>>,
}

/// `!llvm.module.flags`' "Dwarf Version" (4 where it is missing).
fn dwarf_version(module: &llvm::Module) -> u32 {
    module
        .named_metadata("llvm.module.flags")
        .into_iter()
        .find_map(|flag| {
            let ops = flag.node_operands();
            let name = ops.get(1).copied().flatten()?.metadata_string()?;
            (name == "Dwarf Version").then(|| ops.get(2).copied().flatten()?.const_int())?
        })
        .and_then(|v| u32::try_from(v).ok())
        .unwrap_or(4)
}

fn line(n: &DiNode, field: &str) -> u32 {
    u32::try_from(n.int(field)).unwrap_or(0)
}

impl<'m> Reader<'_, 'm> {
    fn node(&self, md: Metadata<'m>) -> Option<DiNode<'m>> {
        md.di_node(self.llvm)
    }

    fn file(&mut self, md: Option<Metadata<'m>>) -> Handle<dbg::SourceFile> {
        let Some(md) = md else {
            return self.d.file("", "", None);
        };
        if let Some(&h) = self.files.get(&md) {
            return h;
        }
        let h = match self.node(md).filter(|n| n.kind == "DIFile") {
            Some(n) => {
                let (name, dir) = (n.str("filename"), n.str("directory"));
                self.d.file(&name, &dir, n.str_opt("source"))
            }
            None => self.d.file("", "", None),
        };
        self.files.insert(md, h);
        h
    }

    fn unit(&mut self, md: Metadata<'m>, dwarf_version: u32) -> Option<u32> {
        if let Some(&i) = self.units.get(&md) {
            return Some(i);
        }
        let n = self.node(md).filter(|n| n.kind == "DICompileUnit")?;
        let file = self.file(n.node("file"));
        let language = match n.words("language").as_str() {
            "DW_LANG_OpenCL" => dbg::SourceLanguage::OpenClC,
            "DW_LANG_C_plus_plus"
            | "DW_LANG_C_plus_plus_11"
            | "DW_LANG_C_plus_plus_14"
            | "DW_LANG_C_plus_plus_03" => dbg::SourceLanguage::Cpp,
            "DW_LANG_C99" | "DW_LANG_C89" | "DW_LANG_C" | "DW_LANG_C11" => dbg::SourceLanguage::C,
            _ => dbg::SourceLanguage::Other(0),
        };
        let i = self.d.units.len() as u32;
        self.d.units.push(dbg::CompileUnit {
            file,
            language,
            producer: n.str_opt("producer"),
            optimized: n.words("isOptimized") == "true",
            dwarf_version,
        });
        self.units.insert(md, i);
        Some(i)
    }

    /// The graph scope of a `DI*` scope node; `None` for the file level (a `DIFile`, or a
    /// node this reader does not know).
    fn scope(&mut self, md: Metadata<'m>) -> Option<Handle<dbg::Scope>> {
        if let Some(&s) = self.scopes.get(&md) {
            return s;
        }
        // Placed first: a scope's children may name it again (a method's class).
        self.scopes.insert(md, None);
        let s = self.node(md).and_then(|n| self.scope_of(md, &n));
        self.scopes.insert(md, s);
        s
    }

    fn scope_of(&mut self, md: Metadata<'m>, n: &DiNode<'m>) -> Option<Handle<dbg::Scope>> {
        let parent = n.node("scope").and_then(|p| self.scope(p));
        let file = match n.node("file") {
            Some(f) => self.file(Some(f)),
            None => match parent {
                Some(p) => self.d.scopes[p].file,
                None => self.file(None),
            },
        };
        let kind = match n.kind.as_str() {
            "DISubprogram" => {
                let ty = n.node("type").map(|t| self.ty(t));
                let unit = n.node("unit").and_then(|u| self.unit(u, 4));
                let sp = n.words("spFlags");
                let has = |f: &str| sp.split(" | ").any(|x| x == f);
                ScopeKind::Subprogram(dbg::Subprogram {
                    name: n.str("name"),
                    linkage_name: n.str_opt("linkageName"),
                    file,
                    line: line(n, "line"),
                    scope_line: line(n, "scopeLine"),
                    ty,
                    unit,
                    function: None,
                    definition: has("DISPFlagDefinition"),
                    local: has("DISPFlagLocalToUnit"),
                    optimized: has("DISPFlagOptimized"),
                    prototyped: n.has_flag("flags", "DIFlagPrototyped"),
                    artificial: n.has_flag("flags", "DIFlagArtificial"),
                })
            }
            "DILexicalBlock" => ScopeKind::LexicalBlock {
                line: line(n, "line"),
                column: line(n, "column"),
            },
            "DILexicalBlockFile" => ScopeKind::FileBlock {
                discriminator: n.int_opt("discriminator").unwrap_or(0) as u32,
            },
            "DINamespace" => ScopeKind::Namespace {
                name: n.str("name"),
            },
            "DICompileUnit" => ScopeKind::Unit(self.unit(md, 4)?),
            "DICompositeType" => ScopeKind::Type(self.ty(md)),
            _ => return None,
        };
        Some(self.d.scopes.append(dbg::Scope { kind, parent, file }))
    }

    fn location(&mut self, md: Metadata<'m>) -> Option<Handle<dbg::Location>> {
        if let Some(&l) = self.locs.get(&md) {
            return Some(l);
        }
        let l = md.location()?;
        let scope = self.scope(l.scope)?;
        let inlined_at = match l.inlined_at {
            Some(at) => Some(self.location(at)?),
            None => None,
        };
        let h = self.d.location(dbg::Location {
            line: l.line,
            column: l.column,
            scope,
            inlined_at,
        });
        self.locs.insert(md, h);
        Some(h)
    }

    fn opt_ty(&mut self, md: Option<Metadata<'m>>) -> Option<Handle<DebugType>> {
        md.map(|m| self.ty(m))
    }

    /// The graph type of a `DI*` type node.
    fn ty(&mut self, md: Metadata<'m>) -> Handle<DebugType> {
        if let Some(&t) = self.types.get(&md) {
            return t;
        }
        // A placeholder first: a struct's members may point back to it.
        let h = self.d.types.append(DebugType::Named {
            name: String::new(),
        });
        self.types.insert(md, h);
        let t = match self.node(md) {
            Some(n) => self.ty_of(&n),
            None => DebugType::Named {
                name: String::new(),
            },
        };
        self.d.types[h] = t;
        h
    }

    fn ty_of(&mut self, n: &DiNode<'m>) -> DebugType {
        let size_bits = n.int("size") as u64;
        let tag = n.words("tag");
        let base = n.node("baseType");
        match (n.kind.as_str(), tag.as_str()) {
            ("DIBasicType", "DW_TAG_unspecified_type") => DebugType::Named {
                name: n.str("name"),
            },
            ("DIBasicType", _) => DebugType::Basic {
                name: n.str("name"),
                size_bits,
                encoding: match n.words("encoding").as_str() {
                    "DW_ATE_signed" => dbg::Encoding::Signed,
                    "DW_ATE_unsigned" => dbg::Encoding::Unsigned,
                    "DW_ATE_signed_char" => dbg::Encoding::SignedChar,
                    "DW_ATE_unsigned_char" => dbg::Encoding::UnsignedChar,
                    "DW_ATE_float" => dbg::Encoding::Float,
                    "DW_ATE_boolean" => dbg::Encoding::Boolean,
                    "DW_ATE_address" => dbg::Encoding::Address,
                    _ => dbg::Encoding::Unspecified,
                },
            },
            (
                "DIDerivedType",
                "DW_TAG_pointer_type" | "DW_TAG_reference_type" | "DW_TAG_rvalue_reference_type",
            ) => DebugType::Pointer {
                base: self.opt_ty(base),
                space: n
                    .int_opt("dwarfAddressSpace")
                    .and_then(|s| u32::try_from(s).ok())
                    .and_then(crate::mappings::space_from_llvm),
                size_bits,
            },
            ("DIDerivedType", "DW_TAG_typedef") => {
                let file = n.node("file").map(|f| self.file(Some(f)));
                DebugType::Typedef {
                    name: n.str("name"),
                    base: self.opt_ty(base),
                    file,
                    line: line(n, "line"),
                }
            }
            ("DIDerivedType", q) if qualifier(q).is_some() => DebugType::Qualified {
                qualifier: qualifier(q).expect("checked"),
                base: self.opt_ty(base),
            },
            ("DICompositeType", "DW_TAG_array_type") => {
                let counts: Vec<Option<u64>> = self
                    .elements(n)
                    .into_iter()
                    .map(|e| {
                        self.node(e)
                            .filter(|s| s.kind == "DISubrange")
                            .and_then(|s| s.int_opt("count"))
                            .and_then(|c| u64::try_from(c).ok())
                    })
                    .collect();
                let base = self.opt_ty(base);
                if n.has_flag("flags", "DIFlagVector") {
                    DebugType::Vector {
                        base,
                        count: counts.first().copied().flatten().unwrap_or(0) as u32,
                        size_bits,
                    }
                } else {
                    DebugType::Array {
                        base,
                        counts,
                        size_bits,
                    }
                }
            }
            ("DICompositeType", "DW_TAG_enumeration_type") => {
                let values = self
                    .elements(n)
                    .into_iter()
                    .filter_map(|e| self.node(e))
                    .filter(|e| e.kind == "DIEnumerator")
                    .map(|e| (e.str("name"), e.int("value")))
                    .collect();
                let file = n.node("file").map(|f| self.file(Some(f)));
                DebugType::Enum {
                    name: n.str("name"),
                    base: self.opt_ty(base),
                    file,
                    line: line(n, "line"),
                    size_bits,
                    values,
                }
            }
            ("DICompositeType", tag) => {
                let kind = match tag {
                    "DW_TAG_union_type" => dbg::CompositeKind::Union,
                    "DW_TAG_class_type" => dbg::CompositeKind::Class,
                    _ => dbg::CompositeKind::Struct,
                };
                let mut members = Vec::new();
                for e in self.elements(n) {
                    let Some(mn) = self.node(e) else { continue };
                    let is_member = mn.kind == "DIDerivedType"
                        && matches!(
                            mn.words("tag").as_str(),
                            "DW_TAG_member" | "DW_TAG_inheritance"
                        );
                    // Methods and static members say nothing of the layout.
                    if !is_member || mn.has_flag("flags", "DIFlagStaticMember") {
                        continue;
                    }
                    let file = mn.node("file").map(|f| self.file(Some(f)));
                    members.push(dbg::Member {
                        name: mn.str("name"),
                        ty: self.opt_ty(mn.node("baseType")),
                        file,
                        line: line(&mn, "line"),
                        offset_bits: mn.int("offset") as u64,
                        size_bits: mn.int("size") as u64,
                    });
                }
                let file = n.node("file").map(|f| self.file(Some(f)));
                DebugType::Composite {
                    kind,
                    name: n.str("name"),
                    file,
                    line: line(n, "line"),
                    size_bits,
                    members,
                    declaration: n.has_flag("flags", "DIFlagFwdDecl"),
                    identifier: n.str_opt("identifier"),
                }
            }
            ("DISubroutineType", _) => {
                let items = n
                    .node("types")
                    .map(|t| t.items(self.llvm))
                    .unwrap_or_default();
                let mut types = items.into_iter().map(|t| self.opt_ty(t));
                let ret = types.next().flatten();
                DebugType::Function {
                    ret,
                    params: types.collect(),
                }
            }
            _ => DebugType::Named {
                name: n.str("name"),
            },
        }
    }

    fn elements(&self, n: &DiNode<'m>) -> Vec<Metadata<'m>> {
        n.node("elements")
            .map(|e| e.items(self.llvm).into_iter().flatten().collect())
            .unwrap_or_default()
    }

    fn variable(&mut self, md: Metadata<'m>) -> Option<Handle<dbg::Variable>> {
        if let Some(&v) = self.vars.get(&md) {
            return Some(v);
        }
        let n = self.node(md).filter(|n| n.kind == "DILocalVariable")?;
        let scope = self.scope(n.node("scope")?)?;
        let file = match n.node("file") {
            Some(f) => self.file(Some(f)),
            None => self.d.scopes[scope].file,
        };
        let ty = self.opt_ty(n.node("type"));
        let v = self.d.variables.append(dbg::Variable {
            name: n.str("name"),
            ty,
            file,
            line: line(&n, "line"),
            scope,
            arg: n.int_opt("arg").and_then(|a| u32::try_from(a).ok()),
            artificial: n.has_flag("flags", "DIFlagArtificial"),
        });
        self.vars.insert(md, v);
        Some(v)
    }

    /// The declaration an `llvm.dbg.declare`/`llvm.dbg.value` call makes; `None` for any
    /// other instruction.
    fn var_use(
        &mut self,
        inst: llvm::Value<'m>,
        params: &[llvm::Value<'m>],
        position: &HashMap<llvm::Value<'m>, (usize, usize)>,
        unread: &mut usize,
    ) -> Option<VarUse> {
        let (callee, n) = inst.call()?;
        let declare = match callee.name().as_str() {
            "llvm.dbg.declare" | "llvm.dbg.addr" => true,
            "llvm.dbg.value" => false,
            _ => return None,
        };
        if n < 3 {
            return None;
        }
        let var = self.variable(inst.operand(1)?.as_wrapped_metadata()?)?;
        let location = inst.operand(0).and_then(|o| o.as_wrapped_metadata());
        let expr_md = inst.operand(2).and_then(|e| e.as_wrapped_metadata());
        // Several values (`DIArgList`): with an `undef` among them it is LLVM's kill
        // location (the value is not known there), said as such; without, an expression
        // SPIR-V's sets cannot say (they combine no values), as is one with an operation
        // they lack. A value is then written as not known there (rather than left out,
        // which would leave the variable its earlier value) and counted in `unread`.
        let killed = location.and_then(|md| md.arg_list_has_undef(self.llvm));
        let expr = match (killed, expr_md.and_then(|e| self.expression(e))) {
            (None, Some(expr)) => expr,
            (killed, _) => {
                if declare || killed != Some(true) {
                    *unread += 1;
                }
                if declare {
                    return None;
                }
                return Some(VarUse {
                    var,
                    expr: expr_md.map(|e| self.fragment_of(e)).unwrap_or_default(),
                    declare,
                    place: Place::Undef,
                });
            }
        };
        let place =
            location
                .and_then(|md| md.wrapped_value(self.llvm))
                .map_or(Place::Unknown, |v| {
                    if let Some(i) = params.iter().position(|p| *p == v) {
                        Place::Param(i as u32)
                    } else if let Some(&(b, i)) = position.get(&v) {
                        Place::Inst(b, i)
                    } else if let (Some(c), Some(w)) =
                        (v.const_int_value(), v.type_of().int_width())
                    {
                        Place::Int(c, w)
                    } else if let Some((x, w)) = v.const_float() {
                        Place::Float(x, w)
                    } else if v.is_undef() {
                        Place::Undef
                    } else {
                        Place::Unknown
                    }
                });
        Some(VarUse {
            var,
            expr,
            declare,
            place,
        })
    }

    /// The part of the variable expression `md` describes (its `DW_OP_LLVM_fragment`, which
    /// comes last), as an expression of that step alone; empty for the whole variable.
    fn fragment_of(&self, md: Metadata<'m>) -> dbg::DebugExpression {
        let Some(n) = self.node(md) else {
            return Vec::new();
        };
        let items: Vec<&llvm::DiField> = n.fields.iter().map(|(_, v)| v).collect();
        match items[..] {
            [.., llvm::DiField::Words(op), llvm::DiField::Int(offset), llvm::DiField::Int(size)]
                if op == "DW_OP_LLVM_fragment" =>
            {
                vec![dbg::ExprOp::Fragment {
                    offset: *offset as u64,
                    size: *size as u64,
                }]
            }
            _ => Vec::new(),
        }
    }

    fn expression(&self, md: Metadata<'m>) -> Option<dbg::DebugExpression> {
        if !matches!(md.kind(), MetadataKind::LLVMDIExpressionMetadataKind) {
            return None;
        }
        let n = self.node(md)?;
        let mut items = n.fields.iter().map(|(_, v)| v);
        let mut out = Vec::new();
        let num = |items: &mut dyn Iterator<Item = &llvm::DiField>| match items.next() {
            Some(llvm::DiField::Int(v)) => Some(*v as u64),
            _ => None,
        };
        while let Some(item) = items.next() {
            let llvm::DiField::Words(op) = item else {
                return None;
            };
            out.push(match op.as_str() {
                "DW_OP_deref" => dbg::ExprOp::Deref,
                "DW_OP_plus" => dbg::ExprOp::Plus,
                "DW_OP_minus" => dbg::ExprOp::Minus,
                "DW_OP_plus_uconst" => dbg::ExprOp::PlusConst(num(&mut items)?),
                "DW_OP_constu" => dbg::ExprOp::Const(num(&mut items)?),
                "DW_OP_swap" => dbg::ExprOp::Swap,
                "DW_OP_xderef" => dbg::ExprOp::XDeref,
                "DW_OP_stack_value" => dbg::ExprOp::StackValue,
                "DW_OP_LLVM_fragment" => {
                    let offset = num(&mut items)?;
                    dbg::ExprOp::Fragment {
                        offset,
                        size: num(&mut items)?,
                    }
                }
                _ => return None,
            });
        }
        Some(out)
    }
}

fn qualifier(tag: &str) -> Option<dbg::Qualifier> {
    Some(match tag {
        "DW_TAG_const_type" => dbg::Qualifier::Const,
        "DW_TAG_volatile_type" => dbg::Qualifier::Volatile,
        "DW_TAG_restrict_type" => dbg::Qualifier::Restrict,
        "DW_TAG_atomic_type" => dbg::Qualifier::Atomic,
        _ => return None,
    })
}
