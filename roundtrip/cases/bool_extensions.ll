; Regression (property graph -> SPIR-V -> graph): zext/sext of a boolean came back as a
; select of 1/-1 and 0; both readers now read either spelling as the extension.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

define spir_kernel void @k(i32 addrspace(1)* %out, <4 x i32> addrspace(1)* %vout, i32 %x) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %c = icmp sgt i32 %x, 3
  %z = zext i1 %c to i32
  %s = select i1 %c, i32 1, i32 0
  %sum = add i32 %z, %s
  %n = sext i1 %c to i32
  %m = select i1 %c, i32 -1, i32 0
  %sum2 = add i32 %sum, %n
  %sum3 = add i32 %sum2, %m
  store i32 %sum3, i32 addrspace(1)* %out, align 4
  %xv = insertelement <4 x i32> undef, i32 %x, i32 0
  %sp = shufflevector <4 x i32> %xv, <4 x i32> undef, <4 x i32> zeroinitializer
  %cv = icmp slt <4 x i32> %sp, <i32 1, i32 2, i32 3, i32 4>
  %ev = sext <4 x i1> %cv to <4 x i32>
  %fv = select <4 x i1> %cv, <4 x i32> <i32 1, i32 1, i32 1, i32 1>, <4 x i32> zeroinitializer
  %gv = add <4 x i32> %ev, %fv
  store <4 x i32> %gv, <4 x i32> addrspace(1)* %vout, align 16
  ret void
}

!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 1, i32 0}
!2 = !{!"none", !"none", !"none"}
!3 = !{!"int*", !"int4*", !"int"}
!4 = !{!"", !"", !""}
