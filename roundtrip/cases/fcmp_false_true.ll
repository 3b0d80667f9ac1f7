; Regression (property SPIR -> SPIR-V -> SPIR): `fcmp false` and `fcmp true` came back as
; their constant result (SPIR-V has no such comparison, so the SPIR-V writer writes the
; constant); both readers now make them the constant (Module::fcmp_op), an all-false vector
; being the null constant as every all-zero composite is.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

define spir_kernel void @k(float addrspace(1)* %in, <2 x double> addrspace(1)* %v, i32 addrspace(1)* %out) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %x = load float, float addrspace(1)* %in, align 4
  %never = fcmp false float %x, 1.0
  %always = fcmp true float %x, %x
  %z = load i32, i32 addrspace(1)* %out, align 4
  %a = select i1 %never, i32 %z, i32 2
  %b = select i1 %always, i32 %a, i32 3
  %y = load <2 x double>, <2 x double> addrspace(1)* %v, align 16
  %nv = fcmp false <2 x double> %y, %y
  %tv = fcmp true <2 x double> %y, zeroinitializer
  %n0 = extractelement <2 x i1> %nv, i32 0
  %t1 = extractelement <2 x i1> %tv, i32 1
  %c = select i1 %n0, i32 %b, i32 4
  %d = select i1 %t1, i32 %c, i32 5
  store i32 %d, i32 addrspace(1)* %out, align 4
  %keep = select <2 x i1> %nv, <2 x double> %y, <2 x double> %y
  store <2 x double> %keep, <2 x double> addrspace(1)* %v, align 16
  ret void
}

!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 1, i32 1}
!2 = !{!"none", !"none", !"none"}
!3 = !{!"float*", !"double2*", !"int*"}
!4 = !{!"", !"", !""}
