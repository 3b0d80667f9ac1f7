; ModuleID = 'spir-xlate'
source_filename = "spir-xlate"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

%opencl.image2d_t = type opaque

; Function Attrs: nounwind
define spir_kernel void @images(%opencl.image2d_t addrspace(1)* %src, %opencl.image2d_t addrspace(1)* %dst, i32 %s, i32 addrspace(1)* nocapture %dims) #0 !kernel_arg_addr_space !9 !kernel_arg_access_qual !10 !kernel_arg_type !11 !kernel_arg_base_type !11 !kernel_arg_type_qual !12 !kernel_arg_name !13 {
entry:
  %call = call spir_func i64 @_Z13get_global_idj(i32 0)
  %conv = trunc i64 %call to i32
  %vecinit = insertelement <2 x i32> undef, i32 %conv, i32 0
  %call1 = call spir_func i64 @_Z13get_global_idj(i32 1)
  %conv2 = trunc i64 %call1 to i32
  %vecinit3 = insertelement <2 x i32> %vecinit, i32 %conv2, i32 1
  %call4 = call spir_func <4 x float> @_Z11read_imagef11ocl_image2d11ocl_samplerDv2_i(%opencl.image2d_t addrspace(1)* %src, i32 18, <2 x i32> %vecinit3)
  %call5 = call spir_func <4 x float> @_Z11read_imagef11ocl_image2d11ocl_samplerDv2_i(%opencl.image2d_t addrspace(1)* %src, i32 %s, <2 x i32> %vecinit3)
  %add = fadd <4 x float> %call4, %call5
  call spir_func void @_Z12write_imagef11ocl_image2dDv2_iDv4_f(%opencl.image2d_t addrspace(1)* %dst, <2 x i32> %vecinit3, <4 x float> %add)
  %cmp = icmp eq i32 %conv, 0
  %cmp7 = icmp eq i32 %conv2, 0
  %or.cond = select i1 %cmp, i1 %cmp7, i1 false
  br i1 %or.cond, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  %call9 = call spir_func i32 @_Z15get_image_width11ocl_image2d(%opencl.image2d_t addrspace(1)* %src)
  store i32 %call9, i32 addrspace(1)* %dims, align 4
  %call10 = call spir_func i32 @_Z16get_image_height11ocl_image2d(%opencl.image2d_t addrspace(1)* %dst)
  %arrayidx11 = getelementptr inbounds i32, i32 addrspace(1)* %dims, i64 1
  store i32 %call10, i32 addrspace(1)* %arrayidx11, align 4
  %call12 = call spir_func <2 x i32> @_Z13get_image_dim11ocl_image2d(%opencl.image2d_t addrspace(1)* %src)
  %shift = shufflevector <2 x i32> %call12, <2 x i32> undef, <2 x i32> <i32 1, i32 undef>
  %0 = mul <2 x i32> %call12, %shift
  %mul = extractelement <2 x i32> %0, i32 0
  %arrayidx13 = getelementptr inbounds i32, i32 addrspace(1)* %dims, i64 2
  store i32 %mul, i32 addrspace(1)* %arrayidx13, align 4
  %1 = call spir_func i32 @_Z23get_image_channel_order11ocl_image2d(%opencl.image2d_t addrspace(1)* %src)
  %2 = sub i32 %1, 4272
  %call14 = add i32 %2, 4272
  %arrayidx15 = getelementptr inbounds i32, i32 addrspace(1)* %dims, i64 3
  store i32 %call14, i32 addrspace(1)* %arrayidx15, align 4
  br label %if.end

if.end:                                           ; preds = %if.then, %entry
  ret void
}

; Function Attrs: nounwind
declare spir_func i64 @_Z13get_global_idj(i32) #0

; Function Attrs: nounwind
declare spir_func <4 x float> @_Z11read_imagef11ocl_image2d11ocl_samplerDv2_i(%opencl.image2d_t addrspace(1)*, i32, <2 x i32>) #0

; Function Attrs: nounwind
declare spir_func void @_Z12write_imagef11ocl_image2dDv2_iDv4_f(%opencl.image2d_t addrspace(1)*, <2 x i32>, <4 x float>) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z15get_image_width11ocl_image2d(%opencl.image2d_t addrspace(1)*) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z16get_image_height11ocl_image2d(%opencl.image2d_t addrspace(1)*) #0

; Function Attrs: nounwind
declare spir_func <2 x i32> @_Z13get_image_dim11ocl_image2d(%opencl.image2d_t addrspace(1)*) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z23get_image_channel_order11ocl_image2d(%opencl.image2d_t addrspace(1)*) #0

attributes #0 = { nounwind }

!opencl.kernels = !{!0}
!opencl.spir.version = !{!7}
!opencl.ocl.version = !{!7}
!opencl.used.extensions = !{!8}
!opencl.used.optional.core.features = !{!8}
!opencl.compiler.options = !{!8}

!0 = !{void (%opencl.image2d_t addrspace(1)*, %opencl.image2d_t addrspace(1)*, i32, i32 addrspace(1)*)* @images, !1, !2, !3, !4, !5, !6}
!1 = !{!"kernel_arg_addr_space", i32 1, i32 1, i32 0, i32 1}
!2 = !{!"kernel_arg_access_qual", !"read_only", !"write_only", !"none", !"none"}
!3 = !{!"kernel_arg_type", !"image2d_t", !"image2d_t", !"sampler_t", !"int*"}
!4 = !{!"kernel_arg_base_type", !"image2d_t", !"image2d_t", !"sampler_t", !"int*"}
!5 = !{!"kernel_arg_type_qual", !"", !"", !"", !""}
!6 = !{!"kernel_arg_name", !"src", !"dst", !"s", !"dims"}
!7 = !{i32 1, i32 2}
!8 = !{}
!9 = !{i32 1, i32 1, i32 0, i32 1}
!10 = !{!"read_only", !"write_only", !"none", !"none"}
!11 = !{!"image2d_t", !"image2d_t", !"sampler_t", !"int*"}
!12 = !{!"", !"", !"", !""}
!13 = !{!"src", !"dst", !"s", !"dims"}
