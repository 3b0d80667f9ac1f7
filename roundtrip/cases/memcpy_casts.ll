; Regression (property SPIR-V -> SPIR -> SPIR-V): the i8* bitcast instructions LLVM's builder
; puts before llvm.memcpy on non-constant pointers came back as OpBitcasts; a cast that only
; feeds memory intrinsics is now looked through. And a volatile copy was refused by the SPIR
; writer (LLVM's C API builds only non-volatile memcpy; the flag is now set on the call).
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

define spir_kernel void @k(float addrspace(1)* %in, float addrspace(1)* %out, i64 %n) !kernel_arg_addr_space !1 !kernel_arg_access_qual !2 !kernel_arg_type !3 !kernel_arg_base_type !3 !kernel_arg_type_qual !4 {
entry:
  %tmp = alloca [4 x float], align 4
  %dst = bitcast [4 x float]* %tmp to i8*
  %src = addrspacecast float addrspace(1)* %in to float addrspace(4)*
  %src8 = bitcast float addrspace(4)* %src to i8 addrspace(4)*
  call void @llvm.memcpy.p0i8.p4i8.i64(i8* align 4 %dst, i8 addrspace(4)* align 4 %src8, i64 16, i1 false)
  %out8 = bitcast float addrspace(1)* %out to i8 addrspace(1)*
  %in8 = bitcast float addrspace(1)* %in to i8 addrspace(1)*
  call void @llvm.memcpy.p1i8.p1i8.i64(i8 addrspace(1)* %out8, i8 addrspace(1)* %in8, i64 %n, i1 true)
  %first = getelementptr inbounds [4 x float], [4 x float]* %tmp, i64 0, i64 0
  %x = load float, float* %first, align 4
  %kept = bitcast float addrspace(1)* %out to i8 addrspace(1)*
  store i8 0, i8 addrspace(1)* %kept, align 1
  call void @llvm.memcpy.p1i8.p0i8.i64(i8 addrspace(1)* %kept, i8* %dst, i64 4, i1 false)
  ret void
}

declare void @llvm.memcpy.p0i8.p4i8.i64(i8*, i8 addrspace(4)*, i64, i1)
declare void @llvm.memcpy.p1i8.p1i8.i64(i8 addrspace(1)*, i8 addrspace(1)*, i64, i1)
declare void @llvm.memcpy.p1i8.p0i8.i64(i8 addrspace(1)*, i8*, i64, i1)

!opencl.ocl.version = !{!0}
!opencl.spir.version = !{!0}
!0 = !{i32 1, i32 2}
!1 = !{i32 1, i32 1, i32 0}
!2 = !{!"none", !"none", !"none"}
!3 = !{!"float*", !"float*", !"long"}
!4 = !{!"", !"", !""}
