; A legacy SPIR 1.2 kernel that stores the bits of its sampler argument (an i32 in SPIR 1.2)
; to a buffer, as `*(uint *)&sampler` compiles: a SPIR-V sampler has no bits to read.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

define spir_kernel void @sampler_bits(i32 %sampler, i32 addrspace(1)* nocapture %res) {
entry:
  store i32 %sampler, i32 addrspace(1)* %res, align 4
  ret void
}

!opencl.kernels = !{!0}
!opencl.spir.version = !{!6}
!opencl.ocl.version = !{!6}

!0 = !{void (i32, i32 addrspace(1)*)* @sampler_bits, !1, !2, !3, !4, !5}
!1 = !{!"kernel_arg_addr_space", i32 0, i32 1}
!2 = !{!"kernel_arg_access_qual", !"none", !"none"}
!3 = !{!"kernel_arg_type", !"sampler_t", !"uint*"}
!4 = !{!"kernel_arg_type_qual", !"", !""}
!5 = !{!"kernel_arg_base_type", !"sampler_t", !"uint*"}
!6 = !{i32 1, i32 2}
