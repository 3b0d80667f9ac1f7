//! SPIR metadata: kernels both in `!opencl.kernels` (SPIR 1.2/2.0 require it) and as function
//! metadata `!kernel_arg_*` (what modern consumers read), plus the module-level `opencl.*`
//! version, extension and contraction facts.

use llvm_sys::core::*;
use llvm_sys::prelude::*;

use super::{c, Writer};
use crate::diag::Result;
use crate::ir::{self, Access, Type};
use crate::mappings;
use crate::options::KernelInfo;

impl Writer<'_> {
    // Metadata is built as LLVMMetadataRef: the value-wrapped API canonicalizes a node with
    // one constant operand (`!{i32 1}`) into that constant, which is not a node.
    fn md_string(&self, s: &str) -> LLVMMetadataRef {
        unsafe { LLVMMDStringInContext2(self.ctx, s.as_ptr() as *const _, s.len()) }
    }

    fn md_node(&self, mut vs: Vec<LLVMMetadataRef>) -> LLVMMetadataRef {
        unsafe { LLVMMDNodeInContext2(self.ctx, vs.as_mut_ptr(), vs.len()) }
    }

    fn md_value(&self, v: LLVMValueRef) -> LLVMMetadataRef {
        unsafe { LLVMValueAsMetadata(v) }
    }

    fn md_i32(&self, v: u32) -> LLVMMetadataRef {
        self.md_value(unsafe { LLVMConstInt(LLVMInt32TypeInContext(self.ctx), v as u64, 0) })
    }

    fn named(&self, name: &str, node: LLVMMetadataRef) {
        unsafe {
            LLVMAddNamedMetadataOperand(
                self.module,
                c(name).as_ptr(),
                LLVMMetadataAsValue(self.ctx, node),
            )
        }
    }

    /// (kind, values) of each `kernel_arg_*` list of a kernel.
    fn kernel_arg_lists(&self, k: &ir::Kernel) -> Vec<(&'static str, Vec<LLVMMetadataRef>)> {
        let mut lists = vec![
            (
                "kernel_arg_addr_space",
                k.args
                    .iter()
                    .map(|a| self.md_i32(mappings::space_to_kernel_arg(a.space)))
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

    /// reqd_work_group_size / work_group_size_hint / vec_type_hint as (kind, values).
    fn kernel_attributes(
        &mut self,
        k: &ir::Kernel,
    ) -> Result<Vec<(&'static str, Vec<LLVMMetadataRef>)>> {
        let mut out = Vec::new();
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
                unsafe { LLVMVectorType(et, h.len) }
            } else {
                self.ty(h.elem)?
            };
            let signed = matches!(self.m.types[h.elem], Type::Int { .. }) && h.signed;
            out.push((
                "vec_type_hint",
                vec![
                    self.md_value(unsafe { LLVMGetUndef(t) }),
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
                let node = self.md_node(vals.clone());
                if self.opts.kernel_info != KernelInfo::Named {
                    unsafe {
                        let kid = LLVMGetMDKindIDInContext(
                            self.ctx,
                            kind.as_ptr() as *const _,
                            kind.len() as u32,
                        );
                        LLVMGlobalSetMetadata(f, kid, node);
                    }
                }
                // !opencl.kernels: the kind name first (the SPIR form).
                let mut with_name = vec![self.md_string(kind)];
                with_name.extend(vals.iter().copied());
                entries.push(self.md_node(with_name));
            }
            if self.opts.kernel_info != KernelInfo::Function {
                let node = self.md_node(entries);
                self.named("opencl.kernels", node);
            }
        }
        let s = &self.m.source;
        let (sa, sb) = self.opts.spir_version;
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
        if s.fp_contract {
            let name = "opencl.enable.FP_CONTRACT";
            unsafe {
                LLVMGetOrInsertNamedMetadata(self.module, name.as_ptr() as *const _, name.len());
            }
        }
        Ok(())
    }
}
