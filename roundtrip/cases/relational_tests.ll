; Regression (corpus and property SPIR -> SPIR-V -> SPIR): OpenCL C's tests return integers
; (1/0, or -1/0 per lane), SPIR-V's booleans extended to integers. Both readers now make the
; boolean test and its extension (isequal ... are float comparisons; any/all the sign bit of
; each lane), and read `icmp ne (zext b), 0` / `icmp slt (sext b), 0` as `b`.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

define spir_kernel void @k(float addrspace(1)* %x, <4 x float> addrspace(1)* %v, <4 x i32> addrspace(1)* %out) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %a = load float, float addrspace(1)* %x, align 4
  %b = load <4 x float>, <4 x float> addrspace(1)* %v, align 16
  %nan = call spir_func i32 @_Z5isnanf(float %a)
  %is = icmp ne i32 %nan, 0
  %eq = call spir_func <4 x i32> @_Z7isequalDv4_fS_(<4 x float> %b, <4 x float> %b)
  %inf = call spir_func <4 x i32> @_Z5isinfDv4_f(<4 x float> %b)
  %any = call spir_func i32 @_Z3anyDv4_i(<4 x i32> %inf)
  %unused = call spir_func i32 @_Z7signbitf(float %a)
  %pick = select i1 %is, i32 %any, i32 7
  %both = and <4 x i32> %eq, %inf
  %s = insertelement <4 x i32> %both, i32 %pick, i32 0
  store <4 x i32> %s, <4 x i32> addrspace(1)* %out, align 16
  ret void
}

declare spir_func i32 @_Z5isnanf(float)
declare spir_func <4 x i32> @_Z7isequalDv4_fS_(<4 x float>, <4 x float>)
declare spir_func <4 x i32> @_Z5isinfDv4_f(<4 x float>)
declare spir_func i32 @_Z3anyDv4_i(<4 x i32>)
declare spir_func i32 @_Z7signbitf(float)

!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 1, i32 1}
!2 = !{!"none", !"none", !"none"}
!3 = !{!"float*", !"float4*", !"int4*"}
!4 = !{!"", !"", !""}
