//! Global variables' debug information: each LLVM global's `!dbg` attachments
//! (`!DIGlobalVariableExpression`s) and the compile units' `globals:` lists, which also name
//! variables the optimizer folded away (described, held by no global).

use crate::hash::HashSet;
use crate::ir::debug as dbg;
use crate::llvm::Metadata;

use super::{line, Reader};

impl<'m> Reader<'_, 'm> {
    /// Every global variable's description, added to the graph; returns, for those a
    /// global holds, the index of the description and the LLVM global's name (the graph's
    /// globals are made later, by name).
    pub(super) fn globals(&mut self) -> Vec<(usize, String)> {
        let mut held = Vec::new();
        let mut seen = HashSet::default();
        for g in self.llvm.globals() {
            for gve in g.global_debug() {
                if self.var_of(gve).is_some_and(|v| !seen.contains(&v)) {
                    if let Some((var, i)) = self.global_variable(gve) {
                        seen.insert(var);
                        held.push((i, g.name()));
                    }
                }
            }
        }
        for cu in self.llvm.named_metadata("llvm.dbg.cu") {
            let Some(list) = cu
                .as_wrapped_metadata()
                .and_then(|cu| self.node(cu))
                .and_then(|n| n.node("globals"))
            else {
                continue;
            };
            for gve in list.items(self.llvm).into_iter().flatten() {
                if self.var_of(gve).is_some_and(|v| !seen.contains(&v)) {
                    if let Some((var, _)) = self.global_variable(gve) {
                        seen.insert(var);
                    }
                }
            }
        }
        held
    }

    /// The variable a `!DIGlobalVariableExpression` describes.
    fn var_of(&self, gve: Metadata<'m>) -> Option<Metadata<'m>> {
        self.node(gve)
            .filter(|n| n.kind == "DIGlobalVariableExpression")?
            .node("var")
    }

    /// The description a `!DIGlobalVariableExpression` names, added to the graph: its
    /// variable's node and its index in `DebugInfo::globals`. (The expression, empty from
    /// clang for a variable in memory, is not kept.)
    fn global_variable(&mut self, gve: Metadata<'m>) -> Option<(Metadata<'m>, usize)> {
        let var = self.var_of(gve)?;
        let n = self.node(var).filter(|n| n.kind == "DIGlobalVariable")?;
        let scope = self.scope(n.node("scope")?)?;
        let file = match n.node("file") {
            Some(f) => self.file(Some(f)),
            None => self.d.scopes[scope].file,
        };
        let ty = self.opt_ty(n.node("type"));
        self.d.globals.push(dbg::GlobalVariable {
            name: n.str("name"),
            linkage_name: n.str_opt("linkageName"),
            ty,
            file,
            line: line(&n, "line"),
            scope,
            local: n.words("isLocal") == "true",
            definition: n.words("isDefinition") != "false",
            global: None,
        });
        Some((var, self.d.globals.len() - 1))
    }
}
