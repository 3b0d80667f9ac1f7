; ModuleID = 'spir-xlate'
source_filename = "spir-xlate"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

; Function Attrs: nounwind
define spir_kernel void @escape_time(i32 addrspace(1)* nocapture %out, i32 %x0, i32 %y0, i32 %dx, i32 %dy, i32 %max_iter) #0 !kernel_arg_addr_space !3 !kernel_arg_access_qual !4 !kernel_arg_type !5 !kernel_arg_base_type !5 !kernel_arg_type_qual !6 !kernel_arg_name !7 {
entry:
  %call = call spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32 0)
  %conv = trunc i64 %call to i32
  %call1 = call spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32 1)
  %conv2 = trunc i64 %call1 to i32
  %mul = mul i32 %conv, %dx
  %add = add i32 %mul, %x0
  %mul3 = mul i32 %conv2, %dy
  %add4 = add i32 %mul3, %y0
  %cmp23 = icmp sgt i32 %max_iter, 0
  br i1 %cmp23, label %land.rhs, label %while.end

land.rhs:                                         ; preds = %while.body, %entry
  %zx.026 = phi i32 [ %add14, %while.body ], [ 0, %entry ]
  %it.025 = phi i32 [ %inc, %while.body ], [ 0, %entry ]
  %zy.024 = phi i32 [ %add18, %while.body ], [ 0, %entry ]
  %mul6 = mul i32 %zx.026, %zx.026
  %mul7 = mul i32 %zy.024, %zy.024
  %add8 = add i32 %mul6, %mul7
  %cmp9 = icmp ult i32 %add8, 67112960
  br i1 %cmp9, label %while.body, label %while.end

while.body:                                       ; preds = %land.rhs
  %sub = sub i32 %mul6, %mul7
  %shr13 = ashr i32 %sub, 12
  %add14 = add i32 %add, %shr13
  %mul15 = shl i32 %zy.024, 1
  %mul16 = mul i32 %mul15, %zx.026
  %shr17 = ashr i32 %mul16, 12
  %add18 = add i32 %add4, %shr17
  %inc = add i32 %it.025, 1
  %cmp = icmp slt i32 %inc, %max_iter
  br i1 %cmp, label %land.rhs, label %while.end

while.end:                                        ; preds = %while.body, %land.rhs, %entry
  %it.0.lcssa = phi i32 [ 0, %entry ], [ %max_iter, %while.body ], [ %it.025, %land.rhs ]
  %cmp19 = icmp eq i32 %it.0.lcssa, %max_iter
  %cond = select i1 %cmp19, i32 -1, i32 %it.0.lcssa
  %conv21 = sext i32 %conv2 to i64
  %call22 = call spir_func i64 @_Z25__spirv_BuiltInGlobalSizei(i32 0)
  %mul23 = mul i64 %call22, %conv21
  %conv24 = sext i32 %conv to i64
  %add25 = add i64 %mul23, %conv24
  %arrayidx = getelementptr inbounds i32, i32 addrspace(1)* %out, i64 %add25
  store i32 %cond, i32 addrspace(1)* %arrayidx, align 4
  ret void
}

; Function Attrs: nounwind
define spir_kernel void @first_above(i32 addrspace(1)* nocapture readonly %v, i32 addrspace(1)* nocapture %found, i32 %n, i32 %limit) #0 !kernel_arg_addr_space !8 !kernel_arg_access_qual !9 !kernel_arg_type !10 !kernel_arg_base_type !10 !kernel_arg_type_qual !11 !kernel_arg_name !12 {
entry:
  %call = call spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32 0)
  %conv = trunc i64 %call to i32
  %cmp7 = icmp slt i32 %conv, %n
  br i1 %cmp7, label %land.rhs, label %while.end

land.rhs:                                         ; preds = %while.body, %entry
  %j.08 = phi i32 [ %inc, %while.body ], [ %conv, %entry ]
  %idxprom = sext i32 %j.08 to i64
  %arrayidx = getelementptr inbounds i32, i32 addrspace(1)* %v, i64 %idxprom
  %0 = load i32, i32 addrspace(1)* %arrayidx, align 4
  %cmp2.not = icmp sgt i32 %0, %limit
  br i1 %cmp2.not, label %while.end, label %while.body

while.body:                                       ; preds = %land.rhs
  %inc = add i32 %j.08, 1
  %cmp = icmp slt i32 %inc, %n
  br i1 %cmp, label %land.rhs, label %while.end

while.end:                                        ; preds = %while.body, %land.rhs, %entry
  %j.0.lcssa = phi i32 [ %conv, %entry ], [ %n, %while.body ], [ %j.08, %land.rhs ]
  %idxprom4 = sext i32 %conv to i64
  %arrayidx5 = getelementptr inbounds i32, i32 addrspace(1)* %found, i64 %idxprom4
  store i32 %j.0.lcssa, i32 addrspace(1)* %arrayidx5, align 4
  ret void
}

; Function Attrs: nounwind
declare spir_func i64 @_Z33__spirv_BuiltInGlobalInvocationIdi(i32) #0

; Function Attrs: nounwind
declare spir_func i64 @_Z25__spirv_BuiltInGlobalSizei(i32) #0

attributes #0 = { nounwind }

!spirv.Source = !{!0}
!spirv.MemoryModel = !{!1}
!opencl.spir.version = !{!2}

!0 = !{i32 3, i32 102000}
!1 = !{i32 2, i32 2}
!2 = !{i32 1, i32 2}
!3 = !{i32 1, i32 0, i32 0, i32 0, i32 0, i32 0}
!4 = !{!"none", !"none", !"none", !"none", !"none", !"none"}
!5 = !{!"int*", !"int", !"int", !"int", !"int", !"int"}
!6 = !{!"", !"", !"", !"", !"", !""}
!7 = !{!"out", !"x0", !"y0", !"dx", !"dy", !"max_iter"}
!8 = !{i32 1, i32 1, i32 0, i32 0}
!9 = !{!"none", !"none", !"none", !"none"}
!10 = !{!"int*", !"int*", !"int", !"int"}
!11 = !{!"const", !"", !"", !""}
!12 = !{!"v", !"found", !"n", !"limit"}
