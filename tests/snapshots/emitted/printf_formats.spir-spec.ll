; ModuleID = 'spir-xlate'
source_filename = "spir-xlate"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

@label = addrspace(2) constant [4 x i8] c"lbl\00", align 1
@.str = internal addrspace(2) constant [34 x i8] c"i=%u f=%.3f e=%e x=%#x s=%s c=%c\0A\00", align 1
@.str.1 = internal addrspace(2) constant [4 x i8] c"str\00", align 1
@.str.2 = internal addrspace(2) constant [21 x i8] c"%v4hlf|%5d|%-8s|%ld\0A\00", align 1

; Function Attrs: nounwind
define spir_kernel void @printf_formats(i32 addrspace(1)* nocapture %ret, <4 x float> addrspace(1)* nocapture readonly %v) #0 !kernel_arg_addr_space !9 !kernel_arg_access_qual !10 !kernel_arg_type !11 !kernel_arg_base_type !12 !kernel_arg_type_qual !13 !kernel_arg_name !14 {
entry:
  %call = call spir_func i64 @_Z13get_global_idj(i32 0)
  %conv = trunc i64 %call to i32
  %arrayidx = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %v, i64 %call
  %0 = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %arrayidx, i64 0, i64 0
  %1 = load float, float addrspace(1)* %0, align 16
  %conv1 = fpext float %1 to double
  %2 = getelementptr inbounds <4 x float>, <4 x float> addrspace(1)* %v, i64 %call, i64 1
  %3 = load float, float addrspace(1)* %2, align 4
  %conv3 = fpext float %3 to double
  %mul = mul i32 %conv, 255
  %add = add i32 %conv, 65
  %call6 = call spir_func i32 (i8 addrspace(2)*, ...) @printf(i8 addrspace(2)* getelementptr inbounds ([34 x i8], [34 x i8] addrspace(2)* @.str, i64 0, i64 0), i32 %conv, double %conv1, double %conv3, i32 %mul, i8 addrspace(2)* getelementptr inbounds ([4 x i8], [4 x i8] addrspace(2)* @.str.1, i64 0, i64 0), i32 %add)
  %4 = load <4 x float>, <4 x float> addrspace(1)* %arrayidx, align 16
  %shl = shl i64 %call, 40
  %call9 = call spir_func i32 (i8 addrspace(2)*, ...) @printf(i8 addrspace(2)* getelementptr inbounds ([21 x i8], [21 x i8] addrspace(2)* @.str.2, i64 0, i64 0), <4 x float> %4, i32 %conv, i8 addrspace(2)* getelementptr inbounds ([4 x i8], [4 x i8] addrspace(2)* @label, i64 0, i64 0), i64 %shl)
  %add10 = add i32 %call6, 100
  %add11 = add i32 %add10, %call9
  %arrayidx12 = getelementptr inbounds i32, i32 addrspace(1)* %ret, i64 %call
  store i32 %add11, i32 addrspace(1)* %arrayidx12, align 4
  ret void
}

; Function Attrs: nounwind
declare spir_func i64 @_Z13get_global_idj(i32) #0

; Function Attrs: nounwind
declare spir_func i32 @printf(i8 addrspace(2)*, ...) #0

attributes #0 = { nounwind }

!opencl.kernels = !{!0}
!opencl.spir.version = !{!7}
!opencl.ocl.version = !{!7}
!opencl.used.extensions = !{!8}
!opencl.used.optional.core.features = !{!8}
!opencl.compiler.options = !{!8}

!0 = !{void (i32 addrspace(1)*, <4 x float> addrspace(1)*)* @printf_formats, !1, !2, !3, !4, !5, !6}
!1 = !{!"kernel_arg_addr_space", i32 1, i32 1}
!2 = !{!"kernel_arg_access_qual", !"none", !"none"}
!3 = !{!"kernel_arg_type", !"int*", !"float4*"}
!4 = !{!"kernel_arg_base_type", !"int*", !"float __attribute__((ext_vector_type(4)))*"}
!5 = !{!"kernel_arg_type_qual", !"", !"const"}
!6 = !{!"kernel_arg_name", !"ret", !"v"}
!7 = !{i32 1, i32 2}
!8 = !{}
!9 = !{i32 1, i32 1}
!10 = !{!"none", !"none"}
!11 = !{!"int*", !"float4*"}
!12 = !{!"int*", !"float __attribute__((ext_vector_type(4)))*"}
!13 = !{!"", !"const"}
!14 = !{!"ret", !"v"}
