; ModuleID = 'spir-xlate'
source_filename = "spir-xlate"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

%opencl.image2d_ro_t = type opaque
%opencl.image2d_wo_t = type opaque
%opencl.sampler_t = type opaque

; Function Attrs: nounwind
define spir_kernel void @images(%opencl.image2d_ro_t addrspace(1)* %src, %opencl.image2d_wo_t addrspace(1)* %dst, %opencl.sampler_t addrspace(2)* %s, i32 addrspace(1)* nocapture %dims) #0 !kernel_arg_addr_space !2 !kernel_arg_access_qual !3 !kernel_arg_type !4 !kernel_arg_base_type !4 !kernel_arg_type_qual !5 !kernel_arg_name !6 {
entry:
  %call = call spir_func i64 @_Z13get_global_idj(i32 0)
  %conv = trunc i64 %call to i32
  %vecinit = insertelement <2 x i32> undef, i32 %conv, i32 0
  %call1 = call spir_func i64 @_Z13get_global_idj(i32 1)
  %conv2 = trunc i64 %call1 to i32
  %vecinit3 = insertelement <2 x i32> %vecinit, i32 %conv2, i32 1
  %0 = call spir_func %opencl.sampler_t addrspace(2)* @__translate_sampler_initializer(i32 18)
  %call4 = call spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i(%opencl.image2d_ro_t addrspace(1)* %src, %opencl.sampler_t addrspace(2)* %0, <2 x i32> %vecinit3)
  %call5 = call spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i(%opencl.image2d_ro_t addrspace(1)* %src, %opencl.sampler_t addrspace(2)* %s, <2 x i32> %vecinit3)
  %add = fadd <4 x float> %call4, %call5
  call spir_func void @_Z12write_imagef14ocl_image2d_woDv2_iDv4_f(%opencl.image2d_wo_t addrspace(1)* %dst, <2 x i32> %vecinit3, <4 x float> %add)
  %cmp = icmp eq i32 %conv, 0
  %cmp7 = icmp eq i32 %conv2, 0
  %or.cond = select i1 %cmp, i1 %cmp7, i1 false
  br i1 %or.cond, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  %call9 = call spir_func i32 @_Z15get_image_width14ocl_image2d_ro(%opencl.image2d_ro_t addrspace(1)* %src)
  store i32 %call9, i32 addrspace(1)* %dims, align 4
  %call10 = call spir_func i32 @_Z16get_image_height14ocl_image2d_wo(%opencl.image2d_wo_t addrspace(1)* %dst)
  %arrayidx11 = getelementptr inbounds i32, i32 addrspace(1)* %dims, i64 1
  store i32 %call10, i32 addrspace(1)* %arrayidx11, align 4
  %call12 = call spir_func <2 x i32> @_Z13get_image_dim14ocl_image2d_ro(%opencl.image2d_ro_t addrspace(1)* %src)
  %shift = shufflevector <2 x i32> %call12, <2 x i32> undef, <2 x i32> <i32 1, i32 undef>
  %1 = mul <2 x i32> %call12, %shift
  %mul = extractelement <2 x i32> %1, i32 0
  %arrayidx13 = getelementptr inbounds i32, i32 addrspace(1)* %dims, i64 2
  store i32 %mul, i32 addrspace(1)* %arrayidx13, align 4
  %2 = call spir_func i32 @_Z23get_image_channel_order14ocl_image2d_ro(%opencl.image2d_ro_t addrspace(1)* %src)
  %3 = sub i32 %2, 4272
  %call14 = add i32 %3, 4272
  %arrayidx15 = getelementptr inbounds i32, i32 addrspace(1)* %dims, i64 3
  store i32 %call14, i32 addrspace(1)* %arrayidx15, align 4
  br label %if.end

if.end:                                           ; preds = %if.then, %entry
  ret void
}

; Function Attrs: nounwind
declare spir_func i64 @_Z13get_global_idj(i32) #0

declare spir_func %opencl.sampler_t addrspace(2)* @__translate_sampler_initializer(i32)

; Function Attrs: nounwind
declare spir_func <4 x float> @_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i(%opencl.image2d_ro_t addrspace(1)*, %opencl.sampler_t addrspace(2)*, <2 x i32>) #0

; Function Attrs: nounwind
declare spir_func void @_Z12write_imagef14ocl_image2d_woDv2_iDv4_f(%opencl.image2d_wo_t addrspace(1)*, <2 x i32>, <4 x float>) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z15get_image_width14ocl_image2d_ro(%opencl.image2d_ro_t addrspace(1)*) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z16get_image_height14ocl_image2d_wo(%opencl.image2d_wo_t addrspace(1)*) #0

; Function Attrs: nounwind
declare spir_func <2 x i32> @_Z13get_image_dim14ocl_image2d_ro(%opencl.image2d_ro_t addrspace(1)*) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z23get_image_channel_order14ocl_image2d_ro(%opencl.image2d_ro_t addrspace(1)*) #0

attributes #0 = { nounwind }

!opencl.spir.version = !{!0}
!opencl.ocl.version = !{!0}
!opencl.used.extensions = !{!1}
!opencl.used.optional.core.features = !{!1}
!opencl.compiler.options = !{!1}

!0 = !{i32 1, i32 2}
!1 = !{}
!2 = !{i32 1, i32 1, i32 0, i32 1}
!3 = !{!"read_only", !"write_only", !"none", !"none"}
!4 = !{!"image2d_t", !"image2d_t", !"sampler_t", !"int*"}
!5 = !{!"", !"", !"", !""}
!6 = !{!"src", !"dst", !"s", !"dims"}
