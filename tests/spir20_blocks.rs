//! SPIR 2.0's own block encoding (SPIR 2.0 section 2.1.3.7: `spir_block_bind`,
//! `spir_get_block_invoke`, `spir_get_block_context`, the mangled `enqueue_kernel`), in
//! modules shaped like the specification's examples. clang-14 never writes this encoding; the
//! legacy fixtures derived by tests/kernels/legacy_shape.py (device_enqueue,
//! enqueue_global_blocks) run it on the Intel runtime (exec_intel). Each module here is
//! translated by the CLI, which validates before it writes.
use std::process::Command;

/// `to-spirv` of LLVM text `ll`: the disassembly, or exit code and stderr.
fn to_spirv(name: &str, ll: &str) -> Result<String, (i32, String)> {
    let dir = std::env::temp_dir().join(format!("spir-xlate-blocks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join(format!("{name}.ll"));
    let out = dir.join(format!("{name}.spv"));
    std::fs::write(&src, ll).unwrap();
    let _ = std::fs::remove_file(&out);
    let run = Command::new(env!("CARGO_BIN_EXE_spir-xlate"))
        .args([
            "to-spirv",
            src.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    if !run.status.success() {
        assert!(
            !out.exists(),
            "{name}: no output is written for a refused module"
        );
        return Err((
            run.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&run.stderr).into_owned(),
        ));
    }
    let words: Vec<u32> = std::fs::read(&out)
        .unwrap()
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    Ok(spir_xlate::disassemble(&words).unwrap())
}

const HEAD: &str = r#"target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"
%opencl.block = type opaque
%opencl.queue_t = type opaque
%struct.ndrange_t = type { i32, [3 x i64], [3 x i64], [3 x i64] }
declare %opencl.block* @spir_block_bind(i8*, i32, i32, i8*)
declare i8* @spir_get_block_invoke(%opencl.block*)
declare i8* @spir_get_block_context(%opencl.block*)
declare spir_func %opencl.queue_t* @_Z17get_default_queuev()
declare spir_func void @_Z10ndrange_1Dm(%struct.ndrange_t* sret(%struct.ndrange_t), i64)
declare spir_func i32 @_Z14enqueue_kernel9ocl_queuei9ndrange_tU13block_pointerFvvE(%opencl.queue_t*, i32, %struct.ndrange_t*, %opencl.block*)
declare spir_func i32 @_Z14enqueue_kernel9ocl_queuei9ndrange_tU13block_pointerFvPU3AS3vzEjz(%opencl.queue_t*, i32, %struct.ndrange_t*, %opencl.block*, i32, ...)
!opencl.spir.version = !{!0}
!opencl.ocl.version = !{!0}
!0 = !{i32 2, i32 0}
"#;

/// Example 1 of section 2.1.3.7: a block capturing two ints, kept in a block variable and
/// called through spir_get_block_invoke / spir_get_block_context.
#[test]
fn a_block_call_calls_the_invoke_function_with_the_bound_context() {
    let ll = format!(
        r#"{HEAD}
define internal spir_func i32 @__ker_block_invoke(i8* %.block_captured, i32 %num) {{
entry:
  %c = bitcast i8* %.block_captured to <{{ i32, i32 }}>*
  %qp = getelementptr inbounds <{{ i32, i32 }}>, <{{ i32, i32 }}>* %c, i32 0, i32 0
  %q = load i32, i32* %qp, align 4
  %pp = getelementptr inbounds <{{ i32, i32 }}>, <{{ i32, i32 }}>* %c, i32 0, i32 1
  %p = load i32, i32* %pp, align 4
  %m = mul i32 %num, %q
  %r = add i32 %m, %p
  ret i32 %r
}}
define spir_kernel void @ker(i32 addrspace(1)* %out, i32 %q, i32 %p) {{
entry:
  %myBlock = alloca %opencl.block*, align 8
  %captured = alloca <{{ i32, i32 }}>, align 4
  %c1 = getelementptr inbounds <{{ i32, i32 }}>, <{{ i32, i32 }}>* %captured, i32 0, i32 0
  store i32 %q, i32* %c1, align 4
  %c2 = getelementptr inbounds <{{ i32, i32 }}>, <{{ i32, i32 }}>* %captured, i32 0, i32 1
  store i32 %p, i32* %c2, align 4
  %ctx = bitcast <{{ i32, i32 }}>* %captured to i8*
  %block = call %opencl.block* @spir_block_bind(i8* bitcast (i32 (i8*, i32)* @__ker_block_invoke to i8*), i32 8, i32 4, i8* %ctx)
  store %opencl.block* %block, %opencl.block** %myBlock, align 8
  %bl = load %opencl.block*, %opencl.block** %myBlock, align 8
  %0 = call i8* @spir_get_block_invoke(%opencl.block* %bl)
  %1 = call i8* @spir_get_block_context(%opencl.block* %bl)
  %2 = bitcast i8* %0 to i32 (i8*, i32)*
  %call = call i32 %2(i8* %1, i32 8)
  store i32 %call, i32 addrspace(1)* %out, align 4
  ret void
}}
"#
    );
    let text = to_spirv("block_call", &ll).unwrap_or_else(|e| panic!("{e:?}"));
    let call = text
        .lines()
        .find(|l| l.contains("OpFunctionCall"))
        .expect("a call of the invoke function");
    assert!(call.contains("%__ker_block_invoke"), "{call}");
    assert!(call.contains("%uint_8"), "{call}");
    assert!(!text.contains("opencl.block"), "{text}");
}

/// Example 2 (a block capturing a pointer, enqueued) and Example 4 (a program-scope block,
/// enqueued with local memory): OpEnqueueKernel names a kernel that copies the context into
/// private memory and calls the invoke function.
#[test]
fn an_enqueued_block_runs_through_a_kernel_that_copies_its_context() {
    let ll = format!(
        r#"{HEAD}
define internal spir_func void @__k_block_invoke(i8* %.block_captured) {{
entry:
  %c = bitcast i8* %.block_captured to i32 addrspace(1)**
  %a = load i32 addrspace(1)*, i32 addrspace(1)** %c, align 8
  store i32 1, i32 addrspace(1)* %a, align 4
  ret void
}}
define internal spir_func void @glob_block_invoke(i8* %.block_captured, i8 addrspace(3)* %scratch) {{
entry:
  store i8 0, i8 addrspace(3)* %scratch, align 1
  ret void
}}
define spir_kernel void @k(i32 addrspace(1)* %a, i32 %n) {{
entry:
  %nd = alloca %struct.ndrange_t, align 8
  %captured = alloca <{{ i32 addrspace(1)* }}>, align 8
  %c0 = getelementptr inbounds <{{ i32 addrspace(1)* }}>, <{{ i32 addrspace(1)* }}>* %captured, i32 0, i32 0
  store i32 addrspace(1)* %a, i32 addrspace(1)** %c0, align 8
  %q = call spir_func %opencl.queue_t* @_Z17get_default_queuev()
  call spir_func void @_Z10ndrange_1Dm(%struct.ndrange_t* sret(%struct.ndrange_t) %nd, i64 1)
  %ctx = bitcast <{{ i32 addrspace(1)* }}>* %captured to i8*
  %b = call %opencl.block* @spir_block_bind(i8* bitcast (void (i8*)* @__k_block_invoke to i8*), i32 8, i32 8, i8* %ctx)
  %r = call spir_func i32 @_Z14enqueue_kernel9ocl_queuei9ndrange_tU13block_pointerFvvE(%opencl.queue_t* %q, i32 0, %struct.ndrange_t* byval(%struct.ndrange_t) %nd, %opencl.block* %b)
  %g = call %opencl.block* @spir_block_bind(i8* bitcast (void (i8*, i8 addrspace(3)*)* @glob_block_invoke to i8*), i32 0, i32 0, i8* null)
  %r2 = call spir_func i32 (%opencl.queue_t*, i32, %struct.ndrange_t*, %opencl.block*, i32, ...) @_Z14enqueue_kernel9ocl_queuei9ndrange_tU13block_pointerFvPU3AS3vzEjz(%opencl.queue_t* %q, i32 0, %struct.ndrange_t* byval(%struct.ndrange_t) %nd, %opencl.block* %g, i32 %n)
  ret void
}}
"#
    );
    let text = to_spirv("enqueue", &ll).unwrap_or_else(|e| panic!("{e:?}"));
    let enqueues: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("OpEnqueueKernel"))
        .collect();
    assert_eq!(enqueues.len(), 2, "{text}");
    assert!(
        enqueues[0].contains("%__k_block_invoke_kernel"),
        "{}",
        enqueues[0]
    );
    assert!(enqueues[0].ends_with("%uint_8 %uint_8"), "{}", enqueues[0]);
    // The program-scope block: a local size after Param (a private byte) of size 1.
    assert!(
        enqueues[1].contains("%glob_block_invoke_kernel"),
        "{}",
        enqueues[1]
    );
    assert!(enqueues[1].contains("%uint_1 %uint_1 %"), "{}", enqueues[1]);
    for k in ["__k_block_invoke_kernel", "glob_block_invoke_kernel"] {
        assert!(
            text.contains(&format!("OpEntryPoint Kernel %{k} \"{k}\"")),
            "{k}: {text}"
        );
    }
    assert_eq!(text.matches("OpCopyMemorySized").count(), 1, "{text}");
}

/// A block that leaves the function binding it, or whose variable holds two blocks, is
/// refused by name.
#[test]
fn blocks_the_graph_cannot_resolve_are_refused_by_name() {
    let invoke = r#"define internal spir_func void @inv(i8* %c) {
entry:
  ret void
}"#;
    let bind = "call %opencl.block* @spir_block_bind(i8* bitcast (void (i8*)* @inv to i8*), i32 0, i32 0, i8* null)";
    let passed = format!(
        r#"{HEAD}
{invoke}
declare spir_func void @foo(%opencl.block*)
define spir_kernel void @k() {{
entry:
  %b = {bind}
  call spir_func void @foo(%opencl.block* %b)
  ret void
}}
"#
    );
    let (code, err) = to_spirv("passed", &passed).unwrap_err();
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("%opencl.block"), "{err}");
    let two = format!(
        r#"{HEAD}
{invoke}
define spir_kernel void @k(i32 %x) {{
entry:
  %v = alloca %opencl.block*, align 8
  %nd = alloca %struct.ndrange_t, align 8
  %b1 = {bind}
  %b2 = {bind}
  store %opencl.block* %b1, %opencl.block** %v, align 8
  store %opencl.block* %b2, %opencl.block** %v, align 8
  %b = load %opencl.block*, %opencl.block** %v, align 8
  %q = call spir_func %opencl.queue_t* @_Z17get_default_queuev()
  %r = call spir_func i32 @_Z14enqueue_kernel9ocl_queuei9ndrange_tU13block_pointerFvvE(%opencl.queue_t* %q, i32 0, %struct.ndrange_t* byval(%struct.ndrange_t) %nd, %opencl.block* %b)
  ret void
}}
"#
    );
    let (code, err) = to_spirv("two", &two).unwrap_err();
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("function 'k'") && err.contains("holds more than one block"),
        "{err}"
    );
    // An invoke pointer kept in memory (not the callee of a block call).
    let stored = format!(
        r#"{HEAD}
{invoke}
define spir_kernel void @k(i8* addrspace(1)* %out) {{
entry:
  %b = {bind}
  %i = call i8* @spir_get_block_invoke(%opencl.block* %b)
  store i8* %i, i8* addrspace(1)* %out, align 8
  ret void
}}
"#
    );
    let (code, err) = to_spirv("stored", &stored).unwrap_err();
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("unsupported construct: the block invoke pointer %i"),
        "{err}"
    );
}
