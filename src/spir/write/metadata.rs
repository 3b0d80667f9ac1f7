//! SPIR metadata: kernels both in `!opencl.kernels` (SPIR 1.2/2.0 require it) and as function
//! metadata `!kernel_arg_*` (what modern consumers read), plus the module-level `opencl.*`
//! version, extension and contraction facts.

use super::Writer;
use crate::diag::Result;
use crate::ir::{self, Access, Type};
use crate::llvm::{self, Metadata};
use crate::mappings;
use crate::options::KernelInfo;

impl<'a> Writer<'a> {
    fn md_string(&self, s: &str) -> Metadata<'a> {
        self.llvm.md_string(s)
    }

    fn md_node(&self, vs: Vec<Metadata<'a>>) -> Metadata<'a> {
        self.llvm.md_node(&vs)
    }

    fn md_value(&self, v: llvm::Value<'a>) -> Metadata<'a> {
        v.as_metadata()
    }

    fn md_i32(&self, v: u32) -> Metadata<'a> {
        self.llvm.const_u32(v).as_metadata()
    }

    fn named(&self, name: &str, node: Metadata<'a>) {
        self.llvm.add_named_metadata(name, node)
    }

    /// Attach `!kind !{vals}` to function `f`.
    fn function_md(&self, f: llvm::Value<'a>, kind: &str, vals: Vec<Metadata<'a>>) -> Result<()> {
        let node = self.md_node(vals);
        Ok(f.set_metadata(self.llvm, kind, node)?)
    }

    /// (kind, values) of each `kernel_arg_*` list of a kernel.
    fn kernel_arg_lists(&self, k: &ir::Kernel) -> Vec<(&'static str, Vec<Metadata<'a>>)> {
        let mut lists = vec![
            (
                "kernel_arg_addr_space",
                k.args
                    .iter()
                    .map(|a| self.md_i32(mappings::space_to_kernel_arg(a.space).unwrap_or(0)))
                    .collect(),
            ),
            (
                "kernel_arg_access_qual",
                k.args
                    .iter()
                    .map(|a| self.md_string(Access::qualifier(a.access)))
                    .collect(),
            ),
            (
                "kernel_arg_type",
                k.args
                    .iter()
                    .map(|a| self.md_string(&a.type_name))
                    .collect(),
            ),
            (
                "kernel_arg_base_type",
                k.args
                    .iter()
                    .map(|a| self.md_string(a.base_type_name.as_deref().unwrap_or(&a.type_name)))
                    .collect(),
            ),
            (
                "kernel_arg_type_qual",
                k.args
                    .iter()
                    .map(|a| self.md_string(&a.qualifiers.spelling()))
                    .collect(),
            ),
        ];
        if k.args.iter().all(|a| a.name.is_some()) && !k.args.is_empty() {
            lists.push((
                "kernel_arg_name",
                k.args
                    .iter()
                    .map(|a| self.md_string(a.name.as_deref().unwrap_or("")))
                    .collect(),
            ));
        }
        lists
    }

    /// reqd_work_group_size / work_group_size_hint / vec_type_hint / intel_reqd_sub_group_size
    /// as (kind, values). Execution modes without an attribute are an error naming them.
    fn kernel_attributes(
        &mut self,
        k: &ir::Kernel,
    ) -> Result<Vec<(&'static str, Vec<Metadata<'a>>)>> {
        // SignedZeroInfNanPreserve restates what SPIR without fast-math options already
        // means (OpenCL's full profile keeps signed zeros, infinities and NaNs): nothing to
        // write. Any other mode has no spelling.
        let unspelled = k
            .other_modes
            .iter()
            .find(|(mode, _)| *mode != spirv::ExecutionMode::SignedZeroInfNanPreserve);
        if let Some((mode, _)) = unspelled {
            return Err(self.no_spelling(format!("execution mode {mode:?}")));
        }
        let mut out = Vec::new();
        if let Some(n) = k.reqd_sub_group_size {
            out.push(("intel_reqd_sub_group_size", vec![self.md_i32(n)]));
        }
        if let Some(s) = k.reqd_work_group_size {
            out.push((
                "reqd_work_group_size",
                s.iter().map(|&v| self.md_i32(v)).collect(),
            ));
        }
        if let Some(s) = k.work_group_size_hint {
            out.push((
                "work_group_size_hint",
                s.iter().map(|&v| self.md_i32(v)).collect(),
            ));
        }
        if let Some(h) = &k.vec_type_hint {
            let t = if h.len > 1 {
                let et = self.ty(h.elem)?;
                et.vector_of(h.len)?
            } else {
                self.ty(h.elem)?
            };
            let signed = matches!(self.m.types[h.elem], Type::Int { .. }) && h.signed;
            out.push((
                "vec_type_hint",
                vec![
                    self.md_value(self.llvm.undef(t)?),
                    self.md_i32(signed as u32),
                ],
            ));
        }
        Ok(out)
    }

    pub(super) fn metadata(&mut self) -> Result<()> {
        let kernels = self.m.kernels.clone();
        for k in &kernels {
            let f = self.funcs[&k.function];
            let mut entries = vec![self.md_value(f)];
            let mut all = self.kernel_arg_lists(k);
            all.extend(self.kernel_attributes(k)?);
            for (kind, vals) in &all {
                // Function metadata: the values alone (clang's modern form).
                if self.opts.kernel_info() != KernelInfo::Named {
                    self.function_md(f, kind, vals.clone())?;
                }
                // !opencl.kernels: the kind name first (the SPIR form).
                let mut with_name = vec![self.md_string(kind)];
                with_name.extend(vals.iter().copied());
                entries.push(self.md_node(with_name));
            }
            if self.opts.kernel_info() != KernelInfo::Function {
                let node = self.md_node(entries);
                self.named("opencl.kernels", node);
            }
        }
        let s = &self.m.source;
        let (sa, sb) = self.spir_version;
        let ver = self.md_node(vec![self.md_i32(sa), self.md_i32(sb)]);
        self.named("opencl.spir.version", ver);
        let (oa, ob) = s.ocl_version.unwrap_or((sa, sb));
        let ocl = self.md_node(vec![self.md_i32(oa), self.md_i32(ob)]);
        self.named("opencl.ocl.version", ocl);
        for (name, list) in [
            ("opencl.used.extensions", &s.used_extensions),
            (
                "opencl.used.optional.core.features",
                &s.used_optional_core_features,
            ),
            ("opencl.compiler.options", &s.compiler_options),
        ] {
            let node = self.md_node(list.iter().map(|e| self.md_string(e)).collect());
            self.named(name, node);
        }
        self.fp_contract_md();
        Ok(())
    }

    /// `!opencl.enable.FP_CONTRACT` (empty) when contraction is allowed.
    fn fp_contract_md(&self) {
        if self.m.source.fp_contract {
            self.llvm.ensure_named_metadata("opencl.enable.FP_CONTRACT");
        }
    }

    /// The spirv-ir flavor's metadata: argument info as function `!kernel_arg_*` (the
    /// convention has no other place for it), execution modes in `!spirv.ExecutionMode`
    /// (except ContractionOff, see below),
    /// OpSource / OpSourceExtension / OpMemoryModel as `!spirv.*`. The SPIR-V module's OpStrings
    /// for the SPIR version and compiler options have no `!spirv.*` form and stay `opencl.*`.
    pub(super) fn friendly_metadata(&mut self) -> Result<()> {
        use spirv::ExecutionMode as M;
        let kernels = self.m.kernels.clone();
        let mut modes = Vec::new();
        for k in &kernels {
            let f = self.funcs[&k.function];
            for (kind, vals) in self.kernel_arg_lists(k) {
                self.function_md(f, kind, vals)?;
            }
            let mut add = |mode: M, lits: &[u32]| {
                let mut ops = vec![self.md_value(f), self.md_i32(mode as u32)];
                ops.extend(lits.iter().map(|&l| self.md_i32(l)));
                modes.push(self.md_node(ops));
            };
            if let Some(s) = k.reqd_work_group_size {
                add(M::LocalSize, &s);
            }
            if let Some(s) = k.work_group_size_hint {
                add(M::LocalSizeHint, &s);
            }
            if let Some(n) = k.reqd_sub_group_size {
                add(M::SubgroupSize, &[n]);
            }
            for (mode, lits) in &k.other_modes {
                add(*mode, lits);
            }
            if let Some(h) = &k.vec_type_hint {
                let code = h.spirv_code(self.m).ok_or_else(|| {
                    crate::diag::Error::unsupported("vec_type_hint of a non-scalar element")
                })?;
                add(M::VecTypeHint, &[code]);
            }
        }
        for node in modes {
            self.named("spirv.ExecutionMode", node);
        }
        let s = &self.m.source;
        if let Some((a, b)) = s.ocl_version {
            let lang = self.md_i32(spirv::SourceLanguage::OpenCL_C as u32);
            let node = self.md_node(vec![lang, self.md_i32(a * 100_000 + b * 1000)]);
            self.named("spirv.Source", node);
        }
        let exts = s.used_extensions.iter().cloned().chain(
            s.used_optional_core_features
                .iter()
                .map(|f| format!("opencl.used.optional.core.feature.{f}")),
        );
        for e in exts {
            let node = self.md_node(vec![self.md_string(&e)]);
            self.named("spirv.SourceExtension", node);
        }
        let addressing = match self.m.addressing {
            ir::Addressing::Physical32 => spirv::AddressingModel::Physical32,
            ir::Addressing::Physical64 => spirv::AddressingModel::Physical64,
        };
        let mm = self.md_node(vec![
            self.md_i32(addressing as u32),
            self.md_i32(spirv::MemoryModel::OpenCL as u32),
        ]);
        self.named("spirv.MemoryModel", mm);
        if let Some((a, b)) = s.spir_version {
            let node = self.md_node(vec![self.md_i32(a), self.md_i32(b)]);
            self.named("opencl.spir.version", node);
        }
        if !s.compiler_options.is_empty() {
            let node = self.md_node(
                s.compiler_options
                    .iter()
                    .map(|o| self.md_string(o))
                    .collect(),
            );
            self.named("opencl.compiler.options", node);
        }
        // Contraction as SPIR says it (absent: ContractionOff): llvm-spirv-14 derives
        // ContractionOff from this and aborts on a second one in !spirv.ExecutionMode.
        self.fp_contract_md();
        Ok(())
    }
}
