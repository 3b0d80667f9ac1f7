; Legacy SPIR 1.2 by hand: a constant table in the private address space (program-scope
; private data) read through a byte pointer, which needs the kernel's private memory
; addressed under Vulkan: the table gets its copy in the kernel's private arena.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

@tab = internal constant [4 x i32] [i32 16909060, i32 84281096, i32 151653132, i32 219025168], align 4

define spir_kernel void @bytes(i8 addrspace(1)* nocapture %out) {
entry:
  %i = tail call spir_func i64 @_Z13get_global_idj(i32 0)
  %b = getelementptr inbounds [4 x i32], [4 x i32]* @tab, i64 0, i64 0
  %c = bitcast i32* %b to i8*
  %p = getelementptr inbounds i8, i8* %c, i64 %i
  %v = load i8, i8* %p, align 1
  %o = getelementptr inbounds i8, i8 addrspace(1)* %out, i64 %i
  store i8 %v, i8 addrspace(1)* %o, align 1
  ret void
}
declare spir_func i64 @_Z13get_global_idj(i32)

!opencl.kernels = !{!0}
!opencl.spir.version = !{!6}
!opencl.ocl.version = !{!6}
!0 = !{void (i8 addrspace(1)*)* @bytes, !1, !2, !3, !4, !5}
!1 = !{!"kernel_arg_addr_space", i32 1}
!2 = !{!"kernel_arg_access_qual", !"none"}
!3 = !{!"kernel_arg_type", !"uchar*"}
!4 = !{!"kernel_arg_type_qual", !""}
!5 = !{!"kernel_arg_base_type", !"uchar*"}
!6 = !{i32 1, i32 2}
