; Legacy SPIR 1.2 as early producers wrote program-scope pointers to string literals and
; tables (by hand): the data in the private address space (0), the pointer an `inttoptr
; (ptrtoint ...)` of its address. SPIR-V's OpenCL environment has no module-scope private
; storage: the constant string becomes constant data, the written table global data.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

@.str = private unnamed_addr constant [6 x i8] c"hello\00", align 1
@greeting = global i8 addrspace(2)* inttoptr (i64 ptrtoint ([6 x i8]* @.str to i64) to i8 addrspace(2)*), align 8
@counts = internal global [2 x i32] zeroinitializer, align 4
@counts_at = addrspace(2) constant i32 addrspace(1)* inttoptr (i64 ptrtoint (i32* getelementptr inbounds ([2 x i32], [2 x i32]* @counts, i64 0, i64 1) to i64) to i32 addrspace(1)*), align 8

define spir_kernel void @private_string(i32 addrspace(1)* nocapture %out) {
entry:
  %p = load i8 addrspace(2)*, i8 addrspace(2)** @greeting, align 8
  %c = load i8, i8 addrspace(2)* %p, align 1
  %w = zext i8 %c to i32
  store i32 %w, i32 addrspace(1)* %out, align 4
  %q = load i32 addrspace(1)*, i32 addrspace(1)* addrspace(2)* @counts_at, align 8
  %old = load i32, i32 addrspace(1)* %q, align 4
  %n = add i32 %old, 7
  store i32 %n, i32 addrspace(1)* %q, align 4
  %o1 = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 1
  store i32 %n, i32 addrspace(1)* %o1, align 4
  ret void
}

!opencl.kernels = !{!0}
!opencl.spir.version = !{!6}
!opencl.ocl.version = !{!6}

!0 = !{void (i32 addrspace(1)*)* @private_string, !1, !2, !3, !4, !5}
!1 = !{!"kernel_arg_addr_space", i32 1}
!2 = !{!"kernel_arg_access_qual", !"none"}
!3 = !{!"kernel_arg_type", !"uint*"}
!4 = !{!"kernel_arg_type_qual", !""}
!5 = !{!"kernel_arg_base_type", !"uint*"}
!6 = !{i32 1, i32 2}
