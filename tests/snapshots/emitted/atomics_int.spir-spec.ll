; ModuleID = 'spir-xlate'
source_filename = "spir-xlate"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: nounwind
define spir_kernel void @atomics_int(i32 addrspace(1)* %c, i32 addrspace(1)* %u, i32 addrspace(1)* nocapture readonly %x) #0 !kernel_arg_addr_space !9 !kernel_arg_access_qual !10 !kernel_arg_type !11 !kernel_arg_base_type !11 !kernel_arg_type_qual !12 !kernel_arg_name !13 {
entry:
  %call = call spir_func i64 @_Z13get_global_idj(i32 0)
  %arrayidx = getelementptr inbounds i32, i32 addrspace(1)* %x, i64 %call
  %0 = load i32, i32 addrspace(1)* %arrayidx, align 4
  %call2 = call spir_func i32 @_Z10atomic_addPU3AS1Vii(i32 addrspace(1)* %c, i32 %0)
  %arrayidx3 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 1
  %call4 = call spir_func i32 @_Z10atomic_subPU3AS1Vii(i32 addrspace(1)* %arrayidx3, i32 %0)
  %arrayidx5 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 2
  %call6 = call spir_func i32 @_Z10atomic_incPU3AS1Vi(i32 addrspace(1)* %arrayidx5)
  %arrayidx7 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 3
  %call8 = call spir_func i32 @_Z10atomic_decPU3AS1Vi(i32 addrspace(1)* %arrayidx7)
  %arrayidx9 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 4
  %call10 = call spir_func i32 @_Z10atomic_minPU3AS1Vii(i32 addrspace(1)* %arrayidx9, i32 %0)
  %arrayidx11 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 5
  %call12 = call spir_func i32 @_Z10atomic_maxPU3AS1Vii(i32 addrspace(1)* %arrayidx11, i32 %0)
  %arrayidx13 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 6
  %1 = trunc i64 %call to i32
  %sh_prom = and i32 %1, 31
  %shl = shl i32 1, %sh_prom
  %neg = xor i32 %shl, -1
  %call14 = call spir_func i32 @_Z10atomic_andPU3AS1Vii(i32 addrspace(1)* %arrayidx13, i32 %neg)
  %arrayidx15 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 7
  %call20 = call spir_func i32 @_Z9atomic_orPU3AS1Vii(i32 addrspace(1)* %arrayidx15, i32 %shl)
  %arrayidx21 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 8
  %call22 = call spir_func i32 @_Z10atomic_xorPU3AS1Vii(i32 addrspace(1)* %arrayidx21, i32 %0)
  %call24 = call spir_func i32 @_Z10atomic_minPU3AS1Vjj(i32 addrspace(1)* %u, i32 %0)
  %arrayidx25 = getelementptr inbounds i32, i32 addrspace(1)* %u, i64 1
  %call26 = call spir_func i32 @_Z10atomic_maxPU3AS1Vjj(i32 addrspace(1)* %arrayidx25, i32 %0)
  %arrayidx27 = getelementptr inbounds i32, i32 addrspace(1)* %u, i64 2
  %call28 = call spir_func i32 @_Z10atomic_addPU3AS1Vii(i32 addrspace(1)* %arrayidx27, i32 3)
  %arrayidx29 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 9
  %call30 = call spir_func i32 @_Z14atomic_cmpxchgPU3AS1Viii(i32 addrspace(1)* %arrayidx29, i32 0, i32 1)
  %cmp = icmp eq i32 %call30, 0
  br i1 %cmp, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  %arrayidx31 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 10
  %call32 = call spir_func i32 @_Z10atomic_incPU3AS1Vi(i32 addrspace(1)* %arrayidx31)
  br label %if.end

if.end:                                           ; preds = %if.then, %entry
  %arrayidx33 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 11
  %call34 = call spir_func i32 @_Z11atomic_xchgPU3AS1Vii(i32 addrspace(1)* %arrayidx33, i32 42)
  ret void
}

; Function Attrs: nounwind
declare spir_func i64 @_Z13get_global_idj(i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z10atomic_addPU3AS1Vii(i32 addrspace(1)*, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z10atomic_subPU3AS1Vii(i32 addrspace(1)*, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z10atomic_incPU3AS1Vi(i32 addrspace(1)*) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z10atomic_decPU3AS1Vi(i32 addrspace(1)*) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z10atomic_minPU3AS1Vii(i32 addrspace(1)*, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z10atomic_maxPU3AS1Vii(i32 addrspace(1)*, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z10atomic_andPU3AS1Vii(i32 addrspace(1)*, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z9atomic_orPU3AS1Vii(i32 addrspace(1)*, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z10atomic_xorPU3AS1Vii(i32 addrspace(1)*, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z10atomic_minPU3AS1Vjj(i32 addrspace(1)*, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z10atomic_maxPU3AS1Vjj(i32 addrspace(1)*, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z14atomic_cmpxchgPU3AS1Viii(i32 addrspace(1)*, i32, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z11atomic_xchgPU3AS1Vii(i32 addrspace(1)*, i32) #0

attributes #0 = { nounwind }

!opencl.kernels = !{!0}
!opencl.spir.version = !{!7}
!opencl.ocl.version = !{!7}
!opencl.used.extensions = !{!8}
!opencl.used.optional.core.features = !{!8}
!opencl.compiler.options = !{!8}

!0 = !{void (i32 addrspace(1)*, i32 addrspace(1)*, i32 addrspace(1)*)* @atomics_int, !1, !2, !3, !4, !5, !6}
!1 = !{!"kernel_arg_addr_space", i32 1, i32 1, i32 1}
!2 = !{!"kernel_arg_access_qual", !"none", !"none", !"none"}
!3 = !{!"kernel_arg_type", !"int*", !"uint*", !"int*"}
!4 = !{!"kernel_arg_base_type", !"int*", !"uint*", !"int*"}
!5 = !{!"kernel_arg_type_qual", !"", !"", !"const"}
!6 = !{!"kernel_arg_name", !"c", !"u", !"x"}
!7 = !{i32 1, i32 2}
!8 = !{}
!9 = !{i32 1, i32 1, i32 1}
!10 = !{!"none", !"none", !"none"}
!11 = !{!"int*", !"uint*", !"int*"}
!12 = !{!"", !"", !"const"}
!13 = !{!"c", !"u", !"x"}
