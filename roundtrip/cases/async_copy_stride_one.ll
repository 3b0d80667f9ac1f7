; Regression (corpus SPIR -> SPIR-V -> graph): async_work_group_copy came back as the strided
; copy with stride 1 (SPIR-V's OpGroupAsyncCopy always has a stride); a stride-1 copy is now
; the unstrided one in both readers. A strided copy with stride 1 in SPIR reads so too.
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

%opencl.event_t = type opaque

@k.tile = internal addrspace(3) global [16 x float] undef, align 4

define spir_kernel void @k(float addrspace(1)* %in, i64 %n) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %slot = alloca %opencl.event_t*, align 8
  %tile = getelementptr inbounds [16 x float], [16 x float] addrspace(3)* @k.tile, i64 0, i64 %n
  %e1 = call spir_func %opencl.event_t* @_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event(float addrspace(3)* %tile, float addrspace(1)* %in, i64 16, %opencl.event_t* null)
  %e2 = call spir_func %opencl.event_t* @_Z29async_work_group_strided_copyPU3AS1fPU3AS3Kfmm9ocl_event(float addrspace(1)* %in, float addrspace(3)* %tile, i64 %n, i64 1, %opencl.event_t* %e1)
  store %opencl.event_t* %e2, %opencl.event_t** %slot, align 8
  call spir_func void @_Z17wait_group_eventsiP9ocl_event(i32 1, %opencl.event_t** %slot)
  ret void
}

declare spir_func %opencl.event_t* @_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event(float addrspace(3)*, float addrspace(1)*, i64, %opencl.event_t*)
declare spir_func %opencl.event_t* @_Z29async_work_group_strided_copyPU3AS1fPU3AS3Kfmm9ocl_event(float addrspace(1)*, float addrspace(3)*, i64, i64, %opencl.event_t*)
declare spir_func void @_Z17wait_group_eventsiP9ocl_event(i32, %opencl.event_t**)

!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 0}
!2 = !{!"none", !"none"}
!3 = !{!"float*", !"ulong"}
!4 = !{!"const", !""}
