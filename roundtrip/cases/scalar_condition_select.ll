; Regression (hand-written, then generator): a select of vectors on one boolean came back
; with the boolean repeated into a vector (SPIR-V before 1.4 wants a condition as wide as the
; operands, so the writer repeats it with OpCompositeConstruct); the SPIR-V reader now selects
; on the boolean again and drops the repeated vector when nothing else uses it.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

define spir_kernel void @k(<4 x i32> addrspace(1)* %io, i32 %n) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %v = load <4 x i32>, <4 x i32> addrspace(1)* %io, align 16
  %c = icmp sgt i32 %n, 3
  %w = add <4 x i32> %v, %v
  %s = select i1 %c, <4 x i32> %v, <4 x i32> %w
  %t = select i1 %c, <4 x i32> %s, <4 x i32> <i32 1, i32 2, i32 3, i32 4>
  store <4 x i32> %t, <4 x i32> addrspace(1)* %io, align 16
  ret void
}

!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 0}
!2 = !{!"none", !"none"}
!3 = !{!"int4*", !"int"}
!4 = !{!"", !""}
