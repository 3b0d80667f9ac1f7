; Regression (property graph -> SPIR-V -> graph): a conversion whose saturation or rounding
; cannot change the result (convert_uchar_sat(uchar)) vanished on the way through SPIR-V;
; both readers now read such conversions as the plain cast or as the operand itself.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

declare i8 @_Z17convert_uchar_sath(i8)
declare i32 @_Z11convert_intj(i32)
declare float @_Z13convert_floati(i32)
declare i64 @_Z14convert_long_si(i32)
declare i32 @_Z16convert_uint_satc(i8)
declare i16 @_Z18convert_ushort_rtei(i32)

define spir_kernel void @k(float addrspace(1)* %out, i32 %x, i8 %b) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %same = call i8 @_Z17convert_uchar_sath(i8 %b)
  %widened = zext i8 %same to i32
  %reinterpreted = call i32 @_Z11convert_intj(i32 %x)
  %sum = add i32 %widened, %reinterpreted
  %f = call float @_Z13convert_floati(i32 %sum)
  store float %f, float addrspace(1)* %out, align 4
  %clamped = call i32 @_Z16convert_uint_satc(i8 %b)
  %narrow = call i16 @_Z18convert_ushort_rtei(i32 %clamped)
  %back = zext i16 %narrow to i32
  %g = call float @_Z13convert_floati(i32 %back)
  %p = getelementptr inbounds float, float addrspace(1)* %out, i64 1
  store float %g, float addrspace(1)* %p, align 4
  ret void
}

!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 0, i32 0}
!2 = !{!"none", !"none", !"none"}
!3 = !{!"float*", !"int", !"uchar"}
!4 = !{!"", !"", !""}
