; ModuleID = 'spir-xlate'
source_filename = "spir-xlate"
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-f32:32:32-f64:64:64-v16:16:16-v24:32:32-v32:32:32-v48:64:64-v64:64:64-v96:128:128-v128:128:128-v192:256:256-v256:256:256-v512:512:512-v1024:1024:1024"
target triple = "spir64-unknown-unknown"

@STENCIL = addrspace(2) constant [9 x i32] [i32 1, i32 2, i32 1, i32 2, i32 -12, i32 2, i32 1, i32 2, i32 1], align 4

; Function Attrs: nounwind
define spir_kernel void @react_diffuse(i32 addrspace(1)* nocapture readonly %a, i32 addrspace(1)* nocapture readonly %b, i32 addrspace(1)* nocapture readonly %c, i32 addrspace(1)* nocapture readonly %d, i32 addrspace(1)* nocapture %na, i32 addrspace(1)* nocapture %nb, i32 addrspace(1)* nocapture %nc, i32 addrspace(1)* nocapture %nd, i32 addrspace(1)* nocapture readonly %sa, i32 addrspace(1)* nocapture readonly %sb, i32 addrspace(1)* nocapture readonly %sc, i32 addrspace(1)* nocapture readonly %sd, i32 addrspace(1)* nocapture readonly %feed, i32 addrspace(1)* nocapture readonly %kill, i8 addrspace(1)* nocapture readonly %mask, i32 addrspace(2)* nocapture readonly %rates, i32 addrspace(1)* %changed, i32 %dt, i32 %w, i32 %h, i8 zeroext %wrap, i16 signext %step) #0 !kernel_arg_addr_space !2 !kernel_arg_access_qual !3 !kernel_arg_type !4 !kernel_arg_base_type !4 !kernel_arg_type_qual !5 !kernel_arg_name !6 {
entry:
  %call = call spir_func i64 @_Z13get_global_idj(i32 0)
  %conv = trunc i64 %call to i32
  %call1 = call spir_func i64 @_Z13get_global_idj(i32 1)
  %conv2 = trunc i64 %call1 to i32
  %cmp.not = icmp slt i32 %conv, %w
  %cmp4.not = icmp slt i32 %conv2, %h
  %or.cond = select i1 %cmp.not, i1 %cmp4.not, i1 false
  br i1 %or.cond, label %if.end, label %cleanup112

if.end:                                           ; preds = %entry
  %mul = mul i32 %conv2, %w
  %add = add i32 %mul, %conv
  %idxprom = sext i32 %add to i64
  %arrayidx = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %idxprom
  %0 = load i32, i32 addrspace(1)* %arrayidx, align 4
  %arrayidx7 = getelementptr inbounds i32, i32 addrspace(1)* %b, i64 %idxprom
  %1 = load i32, i32 addrspace(1)* %arrayidx7, align 4
  %arrayidx9 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 %idxprom
  %2 = load i32, i32 addrspace(1)* %arrayidx9, align 4
  %arrayidx11 = getelementptr inbounds i32, i32 addrspace(1)* %d, i64 %idxprom
  %3 = load i32, i32 addrspace(1)* %arrayidx11, align 4
  %arrayidx13 = getelementptr inbounds i8, i8 addrspace(1)* %mask, i64 %idxprom
  %4 = load i8, i8 addrspace(1)* %arrayidx13, align 1
  %5 = and i8 %4, 1
  %tobool.not = icmp eq i8 %5, 0
  br i1 %tobool.not, label %if.end24, label %if.then15

if.then15:                                        ; preds = %if.end
  %arrayidx17 = getelementptr inbounds i32, i32 addrspace(1)* %na, i64 %idxprom
  store i32 %0, i32 addrspace(1)* %arrayidx17, align 4
  %arrayidx19 = getelementptr inbounds i32, i32 addrspace(1)* %nb, i64 %idxprom
  store i32 %1, i32 addrspace(1)* %arrayidx19, align 4
  %arrayidx21 = getelementptr inbounds i32, i32 addrspace(1)* %nc, i64 %idxprom
  store i32 %2, i32 addrspace(1)* %arrayidx21, align 4
  %arrayidx23 = getelementptr inbounds i32, i32 addrspace(1)* %nd, i64 %idxprom
  store i32 %3, i32 addrspace(1)* %arrayidx23, align 4
  br label %cleanup112

if.end24:                                         ; preds = %if.end
  %conv.i = sext i32 %1 to i64
  %conv.i102 = sext i32 %0 to i64
  %mul.i = shl i64 %conv.i, 16
  %6 = mul i64 %mul.i, %conv.i
  %conv1.i103 = ashr i64 %6, 32
  %mul.i104 = mul i64 %conv1.i103, %conv.i102
  %7 = lshr i64 %mul.i104, 16
  %conv2.i105 = trunc i64 %7 to i32
  %conv.i106 = sext i32 %3 to i64
  %conv.i110 = sext i32 %2 to i64
  %mul.i108 = shl i64 %conv.i106, 16
  %8 = mul i64 %mul.i108, %conv.i106
  %conv1.i111 = ashr i64 %8, 32
  %mul.i112 = mul i64 %conv1.i111, %conv.i110
  %9 = lshr i64 %mul.i112, 16
  %conv2.i113 = trunc i64 %9 to i32
  %mul.i116 = mul i64 %conv.i110, %conv.i
  %10 = lshr i64 %mul.i116, 16
  %conv2.i117 = trunc i64 %10 to i32
  %shr = ashr i32 %conv2.i117, 1
  %arrayidx31 = getelementptr inbounds i32, i32 addrspace(1)* %feed, i64 %idxprom
  %11 = load i32, i32 addrspace(1)* %arrayidx31, align 4
  %arrayidx33 = getelementptr inbounds i32, i32 addrspace(1)* %kill, i64 %idxprom
  %12 = load i32, i32 addrspace(1)* %arrayidx33, align 4
  %13 = load i32, i32 addrspace(2)* %rates, align 4
  %call35 = call spir_func i32 @laplacian(i32 addrspace(1)* %a, i32 %conv, i32 %conv2, i32 %w, i32 %h, i8 %wrap)
  %conv.i118 = sext i32 %13 to i64
  %conv1.i119 = sext i32 %call35 to i64
  %mul.i120 = mul i64 %conv1.i119, %conv.i118
  %14 = lshr i64 %mul.i120, 16
  %conv2.i121 = trunc i64 %14 to i32
  %sub37 = sub i32 65536, %0
  %conv.i122 = sext i32 %11 to i64
  %conv1.i123 = sext i32 %sub37 to i64
  %mul.i124 = mul i64 %conv.i122, %conv1.i123
  %15 = lshr i64 %mul.i124, 16
  %conv2.i125 = trunc i64 %15 to i32
  %arrayidx41 = getelementptr inbounds i32, i32 addrspace(1)* %sa, i64 %idxprom
  %16 = load i32, i32 addrspace(1)* %arrayidx41, align 4
  %sub = sub i32 %conv2.i125, %conv2.i105
  %add39 = add i32 %sub, %16
  %add42 = add i32 %add39, %conv2.i121
  %arrayidx43 = getelementptr inbounds i32, i32 addrspace(2)* %rates, i64 1
  %17 = load i32, i32 addrspace(2)* %arrayidx43, align 4
  %call44 = call spir_func i32 @laplacian(i32 addrspace(1)* %b, i32 %conv, i32 %conv2, i32 %w, i32 %h, i8 %wrap)
  %conv.i126 = sext i32 %17 to i64
  %conv1.i127 = sext i32 %call44 to i64
  %mul.i128 = mul i64 %conv1.i127, %conv.i126
  %18 = lshr i64 %mul.i128, 16
  %conv2.i129 = trunc i64 %18 to i32
  %add47 = add i32 %12, %11
  %conv.i130 = sext i32 %add47 to i64
  %mul.i132 = mul i64 %conv.i130, %conv.i
  %19 = lshr i64 %mul.i132, 16
  %conv2.i133 = trunc i64 %19 to i32
  %arrayidx52 = getelementptr inbounds i32, i32 addrspace(1)* %sb, i64 %idxprom
  %20 = load i32, i32 addrspace(1)* %arrayidx52, align 4
  %21 = add i32 %shr, %conv2.i133
  %add46 = sub i32 %conv2.i105, %21
  %sub50 = add i32 %add46, %20
  %add53 = add i32 %sub50, %conv2.i129
  %arrayidx54 = getelementptr inbounds i32, i32 addrspace(2)* %rates, i64 2
  %22 = load i32, i32 addrspace(2)* %arrayidx54, align 4
  %call55 = call spir_func i32 @laplacian(i32 addrspace(1)* %c, i32 %conv, i32 %conv2, i32 %w, i32 %h, i8 %wrap)
  %conv.i134 = sext i32 %22 to i64
  %conv1.i135 = sext i32 %call55 to i64
  %mul.i136 = mul i64 %conv1.i135, %conv.i134
  %23 = lshr i64 %mul.i136, 16
  %conv2.i137 = trunc i64 %23 to i32
  %sub58 = sub i32 65536, %2
  %conv1.i139 = sext i32 %sub58 to i64
  %mul.i140 = mul i64 %conv.i122, %conv1.i139
  %24 = lshr i64 %mul.i140, 16
  %conv2.i141 = trunc i64 %24 to i32
  %arrayidx63 = getelementptr inbounds i32, i32 addrspace(1)* %sc, i64 %idxprom
  %25 = load i32, i32 addrspace(1)* %arrayidx63, align 4
  %sub57 = sub i32 %shr, %conv2.i113
  %add60 = add i32 %sub57, %conv2.i141
  %add61 = add i32 %add60, %25
  %add64 = add i32 %add61, %conv2.i137
  %arrayidx65 = getelementptr inbounds i32, i32 addrspace(2)* %rates, i64 3
  %26 = load i32, i32 addrspace(2)* %arrayidx65, align 4
  %call66 = call spir_func i32 @laplacian(i32 addrspace(1)* %d, i32 %conv, i32 %conv2, i32 %w, i32 %h, i8 %wrap)
  %conv.i142 = sext i32 %26 to i64
  %conv1.i143 = sext i32 %call66 to i64
  %mul.i144 = mul i64 %conv1.i143, %conv.i142
  %27 = lshr i64 %mul.i144, 16
  %conv2.i145 = trunc i64 %27 to i32
  %mul.i148 = mul i64 %conv.i130, %conv.i106
  %28 = lshr i64 %mul.i148, 16
  %conv2.i149 = trunc i64 %28 to i32
  %arrayidx73 = getelementptr inbounds i32, i32 addrspace(1)* %sd, i64 %idxprom
  %29 = load i32, i32 addrspace(1)* %arrayidx73, align 4
  %add68 = sub i32 %conv2.i113, %conv2.i149
  %sub71 = add i32 %add68, %29
  %add74 = add i32 %sub71, %conv2.i145
  %30 = and i16 %step, 1
  %and76 = zext i16 %30 to i32
  %shr77 = ashr i32 %dt, %and76
  %conv.i150 = sext i32 %shr77 to i64
  %conv1.i151 = sext i32 %add42 to i64
  %mul.i152 = mul i64 %conv1.i151, %conv.i150
  %31 = lshr i64 %mul.i152, 16
  %conv2.i153 = trunc i64 %31 to i32
  %add.i = add i32 %0, %conv2.i153
  %call.i = call spir_func i32 @_Z5clampiii(i32 %add.i, i32 0, i32 131072)
  %arrayidx81 = getelementptr inbounds i32, i32 addrspace(1)* %na, i64 %idxprom
  store i32 %call.i, i32 addrspace(1)* %arrayidx81, align 4
  %conv1.i155 = sext i32 %add53 to i64
  %mul.i156 = mul i64 %conv1.i155, %conv.i150
  %32 = lshr i64 %mul.i156, 16
  %conv2.i157 = trunc i64 %32 to i32
  %add.i158 = add i32 %1, %conv2.i157
  %call.i159 = call spir_func i32 @_Z5clampiii(i32 %add.i158, i32 0, i32 131072)
  %arrayidx85 = getelementptr inbounds i32, i32 addrspace(1)* %nb, i64 %idxprom
  store i32 %call.i159, i32 addrspace(1)* %arrayidx85, align 4
  %conv1.i161 = sext i32 %add64 to i64
  %mul.i162 = mul i64 %conv1.i161, %conv.i150
  %33 = lshr i64 %mul.i162, 16
  %conv2.i163 = trunc i64 %33 to i32
  %add.i164 = add i32 %2, %conv2.i163
  %call.i165 = call spir_func i32 @_Z5clampiii(i32 %add.i164, i32 0, i32 131072)
  %arrayidx89 = getelementptr inbounds i32, i32 addrspace(1)* %nc, i64 %idxprom
  store i32 %call.i165, i32 addrspace(1)* %arrayidx89, align 4
  %conv1.i167 = sext i32 %add74 to i64
  %mul.i168 = mul i64 %conv1.i167, %conv.i150
  %34 = lshr i64 %mul.i168, 16
  %conv2.i169 = trunc i64 %34 to i32
  %add.i170 = add i32 %3, %conv2.i169
  %call.i171 = call spir_func i32 @_Z5clampiii(i32 %add.i170, i32 0, i32 131072)
  %arrayidx93 = getelementptr inbounds i32, i32 addrspace(1)* %nd, i64 %idxprom
  store i32 %call.i171, i32 addrspace(1)* %arrayidx93, align 4
  %call95 = call spir_func i32 @_Z3absi(i32 %conv2.i157)
  %arrayidx96 = getelementptr inbounds i32, i32 addrspace(2)* %rates, i64 4
  %35 = load i32, i32 addrspace(2)* %arrayidx96, align 4
  %cmp97 = icmp ugt i32 %call95, %35
  br i1 %cmp97, label %if.then105, label %lor.lhs.false99

lor.lhs.false99:                                  ; preds = %if.end24
  %call101 = call spir_func i32 @_Z3absi(i32 %conv2.i169)
  %cmp103 = icmp ugt i32 %call101, %35
  br i1 %cmp103, label %if.then105, label %cleanup112

if.then105:                                       ; preds = %lor.lhs.false99, %if.end24
  %call106 = call spir_func i32 @_Z10atomic_incPU3AS1Vi(i32 addrspace(1)* %changed)
  br label %cleanup112

cleanup112:                                       ; preds = %if.then105, %lor.lhs.false99, %if.then15, %entry
  ret void
}

; Function Attrs: nounwind
define internal spir_func i32 @laplacian(i32 addrspace(1)* nocapture readonly %u, i32 %x, i32 %y, i32 %w, i32 %h, i8 zeroext %wrap) #0 {
entry:
  %tobool.not = icmp eq i8 %wrap, 0
  %sub = add i32 %w, -1
  %sub9 = add i32 %h, -1
  %add = add i32 %x, -1
  %add6 = add i32 %add, %w
  %add6.1 = add i32 %x, %w
  %add.2 = add i32 %x, 1
  %add6.2 = add i32 %add.2, %w
  br label %for.cond1.preheader

for.cond1.preheader:                              ; preds = %if.end.2, %entry
  %dy.025 = phi i32 [ -1, %entry ], [ %inc21, %if.end.2 ]
  %sum.024 = phi i32 [ 0, %entry ], [ %add19.2, %if.end.2 ]
  %add5 = add i32 %dy.025, %y
  %0 = mul i32 %dy.025, 3
  %add12 = add i32 %0, 4
  %add7 = add i32 %add5, %h
  br i1 %tobool.not, label %if.else, label %if.then

if.then:                                          ; preds = %for.cond1.preheader
  %rem = srem i32 %add6, %w
  %rem8 = srem i32 %add7, %h
  br label %if.end

if.else:                                          ; preds = %for.cond1.preheader
  %call = call spir_func i32 @_Z5clampiii(i32 %add, i32 0, i32 %sub)
  %call10 = call spir_func i32 @_Z5clampiii(i32 %add5, i32 0, i32 %sub9)
  br label %if.end

if.end:                                           ; preds = %if.else, %if.then
  %xx.0 = phi i32 [ %rem, %if.then ], [ %call, %if.else ]
  %yy.0 = phi i32 [ %rem8, %if.then ], [ %call10, %if.else ]
  %add13 = add i32 %0, 3
  %idxprom = sext i32 %add13 to i64
  %arrayidx = getelementptr inbounds [9 x i32], [9 x i32] addrspace(2)* @STENCIL, i64 0, i64 %idxprom
  %1 = load i32, i32 addrspace(2)* %arrayidx, align 4
  %mul14 = mul i32 %yy.0, %w
  %add15 = add i32 %mul14, %xx.0
  %idxprom16 = sext i32 %add15 to i64
  %arrayidx17 = getelementptr inbounds i32, i32 addrspace(1)* %u, i64 %idxprom16
  %2 = load i32, i32 addrspace(1)* %arrayidx17, align 4
  %mul18 = mul i32 %2, %1
  %add19 = add i32 %mul18, %sum.024
  br i1 %tobool.not, label %if.else.1, label %if.then.1

if.then.1:                                        ; preds = %if.end
  %rem.1 = srem i32 %add6.1, %w
  %rem8.1 = srem i32 %add7, %h
  br label %if.end.1

if.else.1:                                        ; preds = %if.end
  %call.1 = call spir_func i32 @_Z5clampiii(i32 %x, i32 0, i32 %sub)
  %call10.1 = call spir_func i32 @_Z5clampiii(i32 %add5, i32 0, i32 %sub9)
  br label %if.end.1

if.end.1:                                         ; preds = %if.else.1, %if.then.1
  %xx.0.1 = phi i32 [ %rem.1, %if.then.1 ], [ %call.1, %if.else.1 ]
  %yy.0.1 = phi i32 [ %rem8.1, %if.then.1 ], [ %call10.1, %if.else.1 ]
  %idxprom.1 = sext i32 %add12 to i64
  %arrayidx.1 = getelementptr inbounds [9 x i32], [9 x i32] addrspace(2)* @STENCIL, i64 0, i64 %idxprom.1
  %3 = load i32, i32 addrspace(2)* %arrayidx.1, align 4
  %mul14.1 = mul i32 %yy.0.1, %w
  %add15.1 = add i32 %mul14.1, %xx.0.1
  %idxprom16.1 = sext i32 %add15.1 to i64
  %arrayidx17.1 = getelementptr inbounds i32, i32 addrspace(1)* %u, i64 %idxprom16.1
  %4 = load i32, i32 addrspace(1)* %arrayidx17.1, align 4
  %mul18.1 = mul i32 %4, %3
  %add19.1 = add i32 %mul18.1, %add19
  br i1 %tobool.not, label %if.else.2, label %if.then.2

if.then.2:                                        ; preds = %if.end.1
  %rem.2 = srem i32 %add6.2, %w
  %rem8.2 = srem i32 %add7, %h
  br label %if.end.2

if.else.2:                                        ; preds = %if.end.1
  %call.2 = call spir_func i32 @_Z5clampiii(i32 %add.2, i32 0, i32 %sub)
  %call10.2 = call spir_func i32 @_Z5clampiii(i32 %add5, i32 0, i32 %sub9)
  br label %if.end.2

if.end.2:                                         ; preds = %if.else.2, %if.then.2
  %xx.0.2 = phi i32 [ %rem.2, %if.then.2 ], [ %call.2, %if.else.2 ]
  %yy.0.2 = phi i32 [ %rem8.2, %if.then.2 ], [ %call10.2, %if.else.2 ]
  %add13.2 = add i32 %0, 5
  %idxprom.2 = sext i32 %add13.2 to i64
  %arrayidx.2 = getelementptr inbounds [9 x i32], [9 x i32] addrspace(2)* @STENCIL, i64 0, i64 %idxprom.2
  %5 = load i32, i32 addrspace(2)* %arrayidx.2, align 4
  %mul14.2 = mul i32 %yy.0.2, %w
  %add15.2 = add i32 %mul14.2, %xx.0.2
  %idxprom16.2 = sext i32 %add15.2 to i64
  %arrayidx17.2 = getelementptr inbounds i32, i32 addrspace(1)* %u, i64 %idxprom16.2
  %6 = load i32, i32 addrspace(1)* %arrayidx17.2, align 4
  %mul18.2 = mul i32 %6, %5
  %add19.2 = add i32 %mul18.2, %add19.1
  %inc21 = add i32 %dy.025, 1
  %cmp = icmp slt i32 %dy.025, 1
  br i1 %cmp, label %for.cond1.preheader, label %for.cond.cleanup

for.cond.cleanup:                                 ; preds = %if.end.2
  %shr = ashr i32 %add19.2, 2
  ret i32 %shr
}

; Function Attrs: nounwind
define spir_kernel void @species_totals(i32 addrspace(1)* %a, i32 addrspace(1)* %b, i32 addrspace(1)* %c, i32 addrspace(1)* %d, i32 addrspace(1)* nocapture %partial, i32 addrspace(3)* nocapture %scratch, i32 %n) #0 !kernel_arg_addr_space !7 !kernel_arg_access_qual !8 !kernel_arg_type !9 !kernel_arg_base_type !9 !kernel_arg_type_qual !10 !kernel_arg_name !11 {
entry:
  %call = call spir_func i64 @_Z12get_local_idj(i32 0)
  %conv = trunc i64 %call to i32
  %call1 = call spir_func i64 @_Z13get_global_idj(i32 0)
  %conv2 = trunc i64 %call1 to i32
  %call3 = call spir_func i64 @_Z14get_local_sizej(i32 0)
  %conv4 = trunc i64 %call3 to i32
  %cmp8 = icmp slt i32 %conv2, %n
  %idxprom10 = sext i32 %conv2 to i64
  br i1 %cmp8, label %cond.true.3, label %cond.end.2

cond.end.2:                                       ; preds = %entry
  %idxprom12 = sext i32 %conv to i64
  %arrayidx13 = getelementptr inbounds i32, i32 addrspace(3)* %scratch, i64 %idxprom12
  store i32 0, i32 addrspace(3)* %arrayidx13, align 4
  %add.1 = add i32 %conv4, %conv
  %idxprom12.1 = sext i32 %add.1 to i64
  %arrayidx13.1 = getelementptr inbounds i32, i32 addrspace(3)* %scratch, i64 %idxprom12.1
  store i32 0, i32 addrspace(3)* %arrayidx13.1, align 4
  %mul.2 = shl i32 %conv4, 1
  %add.2 = add i32 %mul.2, %conv
  %idxprom12.2 = sext i32 %add.2 to i64
  %arrayidx13.2 = getelementptr inbounds i32, i32 addrspace(3)* %scratch, i64 %idxprom12.2
  store i32 0, i32 addrspace(3)* %arrayidx13.2, align 4
  br label %cond.end.3

cond.true.3:                                      ; preds = %entry
  %arrayidx11 = getelementptr inbounds i32, i32 addrspace(1)* %a, i64 %idxprom10
  %0 = load i32, i32 addrspace(1)* %arrayidx11, align 4
  %idxprom1244 = sext i32 %conv to i64
  %arrayidx1345 = getelementptr inbounds i32, i32 addrspace(3)* %scratch, i64 %idxprom1244
  store i32 %0, i32 addrspace(3)* %arrayidx1345, align 4
  %arrayidx11.1 = getelementptr inbounds i32, i32 addrspace(1)* %b, i64 %idxprom10
  %1 = load i32, i32 addrspace(1)* %arrayidx11.1, align 4
  %add.150 = add i32 %conv4, %conv
  %idxprom12.151 = sext i32 %add.150 to i64
  %arrayidx13.152 = getelementptr inbounds i32, i32 addrspace(3)* %scratch, i64 %idxprom12.151
  store i32 %1, i32 addrspace(3)* %arrayidx13.152, align 4
  %arrayidx11.2 = getelementptr inbounds i32, i32 addrspace(1)* %c, i64 %idxprom10
  %2 = load i32, i32 addrspace(1)* %arrayidx11.2, align 4
  %mul.263 = shl i32 %conv4, 1
  %add.264 = add i32 %mul.263, %conv
  %idxprom12.265 = sext i32 %add.264 to i64
  %arrayidx13.266 = getelementptr inbounds i32, i32 addrspace(3)* %scratch, i64 %idxprom12.265
  store i32 %2, i32 addrspace(3)* %arrayidx13.266, align 4
  %arrayidx11.3 = getelementptr inbounds i32, i32 addrspace(1)* %d, i64 %idxprom10
  %3 = load i32, i32 addrspace(1)* %arrayidx11.3, align 4
  br label %cond.end.3

cond.end.3:                                       ; preds = %cond.true.3, %cond.end.2
  %arrayidx13.277 = phi i32 addrspace(3)* [ %arrayidx13.266, %cond.true.3 ], [ %arrayidx13.2, %cond.end.2 ]
  %add.275 = phi i32 [ %add.264, %cond.true.3 ], [ %add.2, %cond.end.2 ]
  %mul.273 = phi i32 [ %mul.263, %cond.true.3 ], [ %mul.2, %cond.end.2 ]
  %arrayidx13465371 = phi i32 addrspace(3)* [ %arrayidx1345, %cond.true.3 ], [ %arrayidx13, %cond.end.2 ]
  %add.15569 = phi i32 [ %add.150, %cond.true.3 ], [ %add.1, %cond.end.2 ]
  %arrayidx13.15767 = phi i32 addrspace(3)* [ %arrayidx13.152, %cond.true.3 ], [ %arrayidx13.1, %cond.end.2 ]
  %cond.3 = phi i32 [ %3, %cond.true.3 ], [ 0, %cond.end.2 ]
  %mul.3 = mul i32 %conv4, 3
  %add.3 = add i32 %mul.3, %conv
  %idxprom12.3 = sext i32 %add.3 to i64
  %arrayidx13.3 = getelementptr inbounds i32, i32 addrspace(3)* %scratch, i64 %idxprom12.3
  store i32 %cond.3, i32 addrspace(3)* %arrayidx13.3, align 4
  call spir_func void @_Z7barrierj(i32 1)
  %cmp1535 = icmp sgt i32 %conv4, 1
  br i1 %cmp1535, label %for.body18, label %for.cond.cleanup17

for.body18:                                       ; preds = %if.end, %cond.end.3
  %s2.036.in = phi i32 [ %s2.036, %if.end ], [ %conv4, %cond.end.3 ]
  %s2.036 = lshr i32 %s2.036.in, 1
  %cmp19 = icmp sgt i32 %s2.036, %conv
  br i1 %cmp19, label %for.body26.preheader, label %if.end

for.body26.preheader:                             ; preds = %for.body18
  %add29 = add i32 %s2.036, %conv
  %idxprom30 = sext i32 %add29 to i64
  %arrayidx31 = getelementptr inbounds i32, i32 addrspace(3)* %scratch, i64 %idxprom30
  %4 = load i32, i32 addrspace(3)* %arrayidx31, align 4
  %5 = load i32, i32 addrspace(3)* %arrayidx13465371, align 4
  %add36 = add i32 %5, %4
  store i32 %add36, i32 addrspace(3)* %arrayidx13465371, align 4
  %add29.1 = add i32 %add.15569, %s2.036
  %idxprom30.1 = sext i32 %add29.1 to i64
  %arrayidx31.1 = getelementptr inbounds i32, i32 addrspace(3)* %scratch, i64 %idxprom30.1
  %6 = load i32, i32 addrspace(3)* %arrayidx31.1, align 4
  %7 = load i32, i32 addrspace(3)* %arrayidx13.15767, align 4
  %add36.1 = add i32 %7, %6
  store i32 %add36.1, i32 addrspace(3)* %arrayidx13.15767, align 4
  %add29.2 = add i32 %add.275, %s2.036
  %idxprom30.2 = sext i32 %add29.2 to i64
  %arrayidx31.2 = getelementptr inbounds i32, i32 addrspace(3)* %scratch, i64 %idxprom30.2
  %8 = load i32, i32 addrspace(3)* %arrayidx31.2, align 4
  %9 = load i32, i32 addrspace(3)* %arrayidx13.277, align 4
  %add36.2 = add i32 %9, %8
  store i32 %add36.2, i32 addrspace(3)* %arrayidx13.277, align 4
  %add29.3 = add i32 %add.3, %s2.036
  %idxprom30.3 = sext i32 %add29.3 to i64
  %arrayidx31.3 = getelementptr inbounds i32, i32 addrspace(3)* %scratch, i64 %idxprom30.3
  %10 = load i32, i32 addrspace(3)* %arrayidx31.3, align 4
  %11 = load i32, i32 addrspace(3)* %arrayidx13.3, align 4
  %add36.3 = add i32 %11, %10
  store i32 %add36.3, i32 addrspace(3)* %arrayidx13.3, align 4
  br label %if.end

if.end:                                           ; preds = %for.body26.preheader, %for.body18
  call spir_func void @_Z7barrierj(i32 1)
  %cmp15 = icmp ugt i32 %s2.036.in, 3
  br i1 %cmp15, label %for.body18, label %for.cond.cleanup17

for.cond.cleanup17:                               ; preds = %if.end, %cond.end.3
  %cmp42 = icmp eq i32 %conv, 0
  br i1 %cmp42, label %for.body50.preheader, label %if.end62

for.body50.preheader:                             ; preds = %for.cond.cleanup17
  %12 = load i32, i32 addrspace(3)* %scratch, align 4
  %call54 = call spir_func i64 @_Z12get_group_idj(i32 0)
  %mul55 = shl i64 %call54, 2
  %arrayidx58 = getelementptr inbounds i32, i32 addrspace(1)* %partial, i64 %mul55
  store i32 %12, i32 addrspace(1)* %arrayidx58, align 4
  %idxprom52.1 = sext i32 %conv4 to i64
  %arrayidx53.1 = getelementptr inbounds i32, i32 addrspace(3)* %scratch, i64 %idxprom52.1
  %13 = load i32, i32 addrspace(3)* %arrayidx53.1, align 4
  %add57.1 = or i64 %mul55, 1
  %arrayidx58.1 = getelementptr inbounds i32, i32 addrspace(1)* %partial, i64 %add57.1
  store i32 %13, i32 addrspace(1)* %arrayidx58.1, align 4
  %idxprom52.2 = sext i32 %mul.273 to i64
  %arrayidx53.2 = getelementptr inbounds i32, i32 addrspace(3)* %scratch, i64 %idxprom52.2
  %14 = load i32, i32 addrspace(3)* %arrayidx53.2, align 4
  %add57.2 = or i64 %mul55, 2
  %arrayidx58.2 = getelementptr inbounds i32, i32 addrspace(1)* %partial, i64 %add57.2
  store i32 %14, i32 addrspace(1)* %arrayidx58.2, align 4
  %idxprom52.3 = sext i32 %mul.3 to i64
  %arrayidx53.3 = getelementptr inbounds i32, i32 addrspace(3)* %scratch, i64 %idxprom52.3
  %15 = load i32, i32 addrspace(3)* %arrayidx53.3, align 4
  %add57.3 = or i64 %mul55, 3
  %arrayidx58.3 = getelementptr inbounds i32, i32 addrspace(1)* %partial, i64 %add57.3
  store i32 %15, i32 addrspace(1)* %arrayidx58.3, align 4
  br label %if.end62

if.end62:                                         ; preds = %for.body50.preheader, %for.cond.cleanup17
  ret void
}

; Function Attrs: nounwind
define spir_kernel void @totals_final(i32 addrspace(1)* nocapture readonly %partial, i32 addrspace(1)* nocapture %totals, i32 %groups) #0 !kernel_arg_addr_space !12 !kernel_arg_access_qual !13 !kernel_arg_type !14 !kernel_arg_base_type !14 !kernel_arg_type_qual !15 !kernel_arg_name !16 {
entry:
  %call = call spir_func i64 @_Z13get_global_idj(i32 0)
  %conv = trunc i64 %call to i32
  %cmp8 = icmp sgt i32 %groups, 0
  br i1 %cmp8, label %for.body, label %for.cond.cleanup

for.body:                                         ; preds = %for.body, %entry
  %g.010 = phi i32 [ %inc, %for.body ], [ 0, %entry ]
  %t.09 = phi i32 [ %add2, %for.body ], [ 0, %entry ]
  %mul = shl i32 %g.010, 2
  %add = add i32 %mul, %conv
  %idxprom = sext i32 %add to i64
  %arrayidx = getelementptr inbounds i32, i32 addrspace(1)* %partial, i64 %idxprom
  %0 = load i32, i32 addrspace(1)* %arrayidx, align 4
  %add2 = add i32 %0, %t.09
  %inc = add i32 %g.010, 1
  %cmp = icmp slt i32 %inc, %groups
  br i1 %cmp, label %for.body, label %for.cond.cleanup

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %t.0.lcssa = phi i32 [ 0, %entry ], [ %add2, %for.body ]
  %idxprom3 = sext i32 %conv to i64
  %arrayidx4 = getelementptr inbounds i32, i32 addrspace(1)* %totals, i64 %idxprom3
  store i32 %t.0.lcssa, i32 addrspace(1)* %arrayidx4, align 4
  ret void
}

; Function Attrs: nounwind
declare spir_func i64 @_Z13get_global_idj(i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z5clampiii(i32, i32, i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z3absi(i32) #0

; Function Attrs: nounwind
declare spir_func i32 @_Z10atomic_incPU3AS1Vi(i32 addrspace(1)*) #0

; Function Attrs: nounwind
declare spir_func i64 @_Z12get_local_idj(i32) #0

; Function Attrs: nounwind
declare spir_func i64 @_Z14get_local_sizej(i32) #0

; Function Attrs: nounwind
declare spir_func void @_Z7barrierj(i32) #0

; Function Attrs: nounwind
declare spir_func i64 @_Z12get_group_idj(i32) #0

attributes #0 = { nounwind }

!opencl.spir.version = !{!0}
!opencl.ocl.version = !{!0}
!opencl.used.extensions = !{!1}
!opencl.used.optional.core.features = !{!1}
!opencl.compiler.options = !{!1}

!0 = !{i32 1, i32 2}
!1 = !{}
!2 = !{i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 1, i32 2, i32 1, i32 0, i32 0, i32 0, i32 0, i32 0}
!3 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!4 = !{!"int*", !"int*", !"int*", !"int*", !"int*", !"int*", !"int*", !"int*", !"int*", !"int*", !"int*", !"int*", !"int*", !"int*", !"uchar*", !"int*", !"int*", !"int", !"int", !"int", !"uchar", !"short"}
!5 = !{!"const", !"const", !"const", !"const", !"", !"", !"", !"", !"const", !"const", !"const", !"const", !"const", !"const", !"const", !"const", !"", !"", !"", !"", !"", !""}
!6 = !{!"a", !"b", !"c", !"d", !"na", !"nb", !"nc", !"nd", !"sa", !"sb", !"sc", !"sd", !"feed", !"kill", !"mask", !"rates", !"changed", !"dt", !"w", !"h", !"wrap", !"step"}
!7 = !{i32 1, i32 1, i32 1, i32 1, i32 1, i32 3, i32 0}
!8 = !{!"none", !"none", !"none", !"none", !"none", !"none", !"none"}
!9 = !{!"int*", !"int*", !"int*", !"int*", !"int*", !"int*", !"int"}
!10 = !{!"const", !"const", !"const", !"const", !"", !"", !""}
!11 = !{!"a", !"b", !"c", !"d", !"partial", !"scratch", !"n"}
!12 = !{i32 1, i32 1, i32 0}
!13 = !{!"none", !"none", !"none"}
!14 = !{!"int*", !"int*", !"int"}
!15 = !{!"const", !"", !""}
!16 = !{!"partial", !"totals", !"groups"}
