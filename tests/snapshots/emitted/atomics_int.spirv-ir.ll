; ModuleID = 'spir-xlate'
source_filename = "spir-xlate"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: nounwind
define spir_kernel void @atomics_int(i32 addrspace(1)* %c, i32 addrspace(1)* %u, i32 addrspace(1)* nocapture readonly %x) #0 !kernel_arg_addr_space !3 !kernel_arg_access_qual !4 !kernel_arg_type !5 !kernel_arg_base_type !5 !kernel_arg_type_qual !6 !kernel_arg_name !7 {
entry:
  %call = call spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32 0)
  %arrayidx = getelementptr inbounds i32, i32 addrspace(1)* %x, i64 %call
  %0 = load i32, i32 addrspace(1)* %arrayidx, align 4
  %call2 = call spir_func i32 @_Z18__spirv_AtomicIAddPU3AS1iiii(i32 addrspace(1)* %c, i32 1, i32 0, i32 %0)
  %arrayidx3 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 1
  %call4 = call spir_func i32 @_Z18__spirv_AtomicISubPU3AS1iiii(i32 addrspace(1)* %arrayidx3, i32 1, i32 0, i32 %0)
  %arrayidx5 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 2
  %call6 = call spir_func i32 @_Z24__spirv_AtomicIIncrementPU3AS1iii(i32 addrspace(1)* %arrayidx5, i32 1, i32 0)
  %arrayidx7 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 3
  %call8 = call spir_func i32 @_Z24__spirv_AtomicIDecrementPU3AS1iii(i32 addrspace(1)* %arrayidx7, i32 1, i32 0)
  %arrayidx9 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 4
  %call10 = call spir_func i32 @_Z18__spirv_AtomicSMinPU3AS1iiii(i32 addrspace(1)* %arrayidx9, i32 1, i32 0, i32 %0)
  %arrayidx11 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 5
  %call12 = call spir_func i32 @_Z18__spirv_AtomicSMaxPU3AS1iiii(i32 addrspace(1)* %arrayidx11, i32 1, i32 0, i32 %0)
  %arrayidx13 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 6
  %1 = trunc i64 %call to i32
  %sh_prom = and i32 %1, 31
  %shl = shl i32 1, %sh_prom
  %neg = xor i32 %shl, -1
  %call14 = call spir_func i32 @_Z17__spirv_AtomicAndPU3AS1iiii(i32 addrspace(1)* %arrayidx13, i32 1, i32 0, i32 %neg)
  %arrayidx15 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 7
  %call20 = call spir_func i32 @_Z16__spirv_AtomicOrPU3AS1iiii(i32 addrspace(1)* %arrayidx15, i32 1, i32 0, i32 %shl)
  %arrayidx21 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 8
  %call22 = call spir_func i32 @_Z17__spirv_AtomicXorPU3AS1iiii(i32 addrspace(1)* %arrayidx21, i32 1, i32 0, i32 %0)
  %call24 = call spir_func i32 @_Z18__spirv_AtomicUMinPU3AS1jiij(i32 addrspace(1)* %u, i32 1, i32 0, i32 %0)
  %arrayidx25 = getelementptr inbounds i32, i32 addrspace(1)* %u, i64 1
  %call26 = call spir_func i32 @_Z18__spirv_AtomicUMaxPU3AS1jiij(i32 addrspace(1)* %arrayidx25, i32 1, i32 0, i32 %0)
  %arrayidx27 = getelementptr inbounds i32, i32 addrspace(1)* %u, i64 2
  %call28 = call spir_func i32 @_Z18__spirv_AtomicIAddPU3AS1iiii(i32 addrspace(1)* %arrayidx27, i32 1, i32 0, i32 3)
  %arrayidx29 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 9
  %call30 = call spir_func i32 @_Z29__spirv_AtomicCompareExchangePU3AS1iiiiii(i32 addrspace(1)* %arrayidx29, i32 1, i32 0, i32 0, i32 1, i32 0)
  %cmp = icmp eq i32 %call30, 0
  br i1 %cmp, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  %arrayidx31 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 10
  %call32 = call spir_func i32 @_Z24__spirv_AtomicIIncrementPU3AS1iii(i32 addrspace(1)* %arrayidx31, i32 1, i32 0)
  br label %if.end

if.end:                                           ; preds = %if.then, %entry
  %arrayidx33 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 11
  %call34 = call spir_func i32 @_Z22__spirv_AtomicExchangePU3AS1iiii(i32 addrspace(1)* %arrayidx33, i32 1, i32 0, i32 42)
  ret void
}

; Function Attrs: nounwind
declare spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z18__spirv_AtomicIAddPU3AS1iiii(i32 addrspace(1)*, i32, i32, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z18__spirv_AtomicISubPU3AS1iiii(i32 addrspace(1)*, i32, i32, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z24__spirv_AtomicIIncrementPU3AS1iii(i32 addrspace(1)*, i32, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z24__spirv_AtomicIDecrementPU3AS1iii(i32 addrspace(1)*, i32, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z18__spirv_AtomicSMinPU3AS1iiii(i32 addrspace(1)*, i32, i32, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z18__spirv_AtomicSMaxPU3AS1iiii(i32 addrspace(1)*, i32, i32, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z17__spirv_AtomicAndPU3AS1iiii(i32 addrspace(1)*, i32, i32, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z16__spirv_AtomicOrPU3AS1iiii(i32 addrspace(1)*, i32, i32, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z17__spirv_AtomicXorPU3AS1iiii(i32 addrspace(1)*, i32, i32, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z18__spirv_AtomicUMinPU3AS1jiij(i32 addrspace(1)*, i32, i32, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z18__spirv_AtomicUMaxPU3AS1jiij(i32 addrspace(1)*, i32, i32, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z29__spirv_AtomicCompareExchangePU3AS1iiiiii(i32 addrspace(1)*, i32, i32, i32, i32, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z22__spirv_AtomicExchangePU3AS1iiii(i32 addrspace(1)*, i32, i32, i32) #0

attributes #0 = { nounwind }

!spirv.Source = !{!0}
!spirv.MemoryModel = !{!1}
!opencl.spir.version = !{!2}

!0 = !{i32 3, i32 102000}
!1 = !{i32 2, i32 2}
!2 = !{i32 1, i32 2}
!3 = !{i32 1, i32 1, i32 1}
!4 = !{!"none", !"none", !"none"}
!5 = !{!"int*", !"uint*", !"int*"}
!6 = !{!"", !"", !"const"}
!7 = !{!"c", !"u", !"x"}
