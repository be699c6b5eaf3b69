// tp-autodiff through control flow: scf.if gets a backward scf.if on the
// same condition, scf.for loops with constant bounds are unrolled, loops of
// run-time trip count get a backward loop that replays them, calls
// are inlined, and forward values that backward ops read from inside a
// region (a branch, a tp.autocast body) are yielded out of it. Gradient
// checks of the same constructs: test/Integration/CPU/gradcheck.mlir.
// RUN: tp-opt %s --tp-autodiff | FileCheck %s
// RUN: tp-opt %s --autocast=cuda:fp16 --tp-autodiff | FileCheck %s --check-prefix=FP16

// The forward scf.if yields exp's output too (the backward of the mul
// reads it); its else branch yields zeros in its place, which only the
// then-branch's backward reads, and only when the then-branch ran. The
// backward scf.if yields the gradients of the values the branches read
// from outside (%x and %w), zero where a branch does not read one.
// CHECK-LABEL: func.func @branch_grad(%arg0: tensor<2x3xf32>, %arg1: tensor<i1>, %arg2: tensor<3xf32>)
// CHECK: %[[C:.*]] = tensor.extract %arg1[] : tensor<i1>
// CHECK-NEXT: %[[IF:.*]]:2 = scf.if %[[C]] -> (tensor<2x3xf32>, tensor<2x3xf32>) {
// CHECK-NEXT: %[[E:.*]] = tp.exp %arg0
// CHECK-NEXT: %[[M:.*]] = tp.mul %[[E]], %arg2
// CHECK-NEXT: scf.yield %[[M]], %[[E]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[S:.*]] = tp.sin %arg0
// CHECK-NEXT: %[[Z:.*]] = tp.constant dense<0.000000e+00> : tensor<2x3xf32>
// CHECK-NEXT: scf.yield %[[S]], %[[Z]]
// CHECK: %[[B:.*]]:2 = scf.if %[[C]] -> (tensor<2x3xf32>, tensor<3xf32>) {
// CHECK: tp.mul %{{.*}}, %[[IF]]#1
// CHECK: %[[GE:.*]] = tp.mul %{{.*}}, %[[IF]]#1
// CHECK-NEXT: scf.yield %[[GE]], %{{.*}} : tensor<2x3xf32>, tensor<3xf32>
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[COS:.*]] = tp.cos %arg0
// CHECK-NEXT: %[[GS:.*]] = tp.mul %{{.*}}, %[[COS]]
// CHECK-NEXT: %[[ZW:.*]] = tp.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT: scf.yield %[[GS]], %[[ZW]]
// CHECK: return %{{.*}}, %[[B]]#0, %[[B]]#1
// Under cuda:fp16 the branches' ops are decided as in the forward (exp
// and sin are not listed: they run in f32, the mul too).
// FP16-LABEL: func.func @branch_grad(
// FP16: scf.if
// FP16: tp.cos %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @branch(%x: tensor<2x3xf32>, %flag: tensor<i1>, %w: tensor<3xf32>) -> tensor<f32> {
  %c = tensor.extract %flag[] : tensor<i1>
  %r = scf.if %c -> (tensor<2x3xf32>) {
    %e = tp.exp %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %m = tp.mul %e, %w : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    scf.yield %m : tensor<2x3xf32>
  } else {
    %s = tp.sin %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
    scf.yield %s : tensor<2x3xf32>
  }
  %l = tp.sum %r : (tensor<2x3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// A loop of constant trip count is unrolled in the gradient function (the
// forward keeps it): each iteration's values are its own saved
// activations, and the weight's gradient sums over the iterations.
// CHECK-LABEL: func.func @loop_grad(
// CHECK-NOT: scf.for
// CHECK-COUNT-3: tp.mm %{{.*}}, %arg1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NOT: scf.for
// CHECK: return
// Under cuda:fp16 each unrolled product is f16, and so are its backward
// products.
// FP16-LABEL: func.func @loop_grad(
// FP16-COUNT-3: tp.mm %{{.*}}, %{{.*}} : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
// FP16-COUNT-6: tp.mm %{{.*}}, %{{.*}} : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
// FP16: return
func.func @loop(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %x) -> (tensor<4x4xf32>) {
    %m = tp.mm %h, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %t = tp.tanh %m : (tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %t : tensor<4x4xf32>
  }
  %l = tp.sum %r : (tensor<4x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// A loop of run-time trip count stays a loop: the backward scf.for runs
// over its trip count (ceildiv(max(ub - lb, 0), step)); its iteration j
// replays the forward loop up to iteration n - 1 - j (from the initial
// value, the same body) and then holds that iteration's backward. It
// carries the gradient of h and the weight's, summed over the iterations.
// CHECK-LABEL: func.func @dynamic_loop_grad(
// CHECK: %[[FWD:.*]] = scf.for %{{.*}} = %[[C0:.*]] to %arg2 step %[[C1:[^ ]*]] iter_args(%{{.*}} = %arg0)
// CHECK: %[[SPAN:.*]] = arith.subi %arg2, %[[C0]] : index
// CHECK: %[[POS:.*]] = arith.maxsi %[[SPAN]], %{{.*}} : index
// CHECK: %[[N:.*]] = arith.ceildivsi %[[POS]], %[[C1]] : index
// CHECK: %[[W0:.*]] = tp.constant dense<0.000000e+00> : tensor<4x4xf32>
// CHECK: %[[BWD:.*]]:2 = scf.for %[[J:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[GH:.*]] = %{{.*}}, %[[GW:.*]] = %[[W0]])
// CHECK: %[[LAST:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK: %[[IDX:.*]] = arith.subi %[[LAST]], %[[J]] : index
// CHECK: %[[OFF:.*]] = arith.muli %[[IDX]], %[[C1]] : index
// CHECK: %[[IV:.*]] = arith.addi %[[C0]], %[[OFF]] : index
// CHECK: %[[STATE:.*]] = scf.for %{{.*}} = %[[C0]] to %[[IV]] step %[[C1]] iter_args(%{{.*}} = %arg0)
// CHECK: tp.mm
// CHECK: tp.tanh
// CHECK: scf.yield
// CHECK: %[[M:.*]] = tp.mm %[[STATE]], %arg1
// CHECK: tp.tanh %[[M]]
// CHECK: %[[DM:.*]] = tp.mul %[[GH]], %{{.*}}
// CHECK: %[[DH:.*]] = tp.mm %[[DM]], %{{.*}}
// CHECK: %[[DW:.*]] = tp.mm %{{.*}}, %[[DM]]
// CHECK: %[[SUM:.*]] = tp.add %[[GW]], %[[DW]]
// CHECK: scf.yield %[[DH]], %[[SUM]]
// CHECK: return %{{.*}}, %[[BWD]]#0, %[[BWD]]#1
// Under cuda:fp16 the replayed and the differentiated iterations run the
// product in f16; the weight's gradient is carried in f16 (the gradient of
// its f16 cast, as the unrolled loop sums it) and cast up once after the
// loop.
// FP16-LABEL: func.func @dynamic_loop_grad(
// FP16: %[[W16:.*]] = tp.cast %arg1 : tensor<4x4xf32> to tensor<4x4xf16>
// FP16: %[[BWD:.*]]:2 = scf.for {{.*}} -> (tensor<4x4xf32>, tensor<4x4xf16>)
// FP16: scf.for
// FP16: tp.mm %{{.*}}, %[[W16]] : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
// FP16: scf.yield %{{.*}} : tensor<4x4xf32>
// FP16: tp.mm %{{.*}}, %[[W16]] : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
// FP16: %[[DH:.*]] = tp.mm %{{.*}} : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
// FP16: %[[DW:.*]] = tp.mm %{{.*}} : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
// FP16: %[[DH32:.*]] = tp.cast %[[DH]] : tensor<4x4xf16> to tensor<4x4xf32>
// FP16: %[[SUM:.*]] = tp.add %{{.*}}, %[[DW]] : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
// FP16: scf.yield %[[DH32]], %[[SUM]] : tensor<4x4xf32>, tensor<4x4xf16>
// FP16: %[[GW:.*]] = tp.cast %[[BWD]]#1 : tensor<4x4xf16> to tensor<4x4xf32>
// FP16: return %{{.*}}, %[[BWD]]#0, %[[GW]]
func.func @dynamic_loop(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>, %n: index) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%h = %x) -> (tensor<4x4xf32>) {
    %m = tp.mm %h, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %t = tp.tanh %m : (tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.yield %t : tensor<4x4xf32>
  }
  %l = tp.sum %r : (tensor<4x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// An scf.if inside a loop of run-time trip count: the differentiated
// iteration holds the backward scf.if; the clones of the forward the
// backward does not read (here all of them: add and sub need no operand)
// are erased, nested ops before their scf.if.
// CHECK-LABEL: func.func @loop_branch_grad(
// CHECK: %[[BWD:.*]]:2 = scf.for
// CHECK-NOT: tp.sub
// CHECK: %[[B:.*]]:2 = scf.if %arg3 -> (tensor<4xf32>, tensor<4xf32>)
// CHECK: scf.yield %[[B]]#0, %{{.*}} : tensor<4xf32>, tensor<4xf32>
// CHECK: return %{{.*}}, %[[BWD]]#0, %[[BWD]]#1
func.func @loop_branch(%x: tensor<4xf32>, %w: tensor<4xf32>, %n: index, %c: i1) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%h = %x) -> (tensor<4xf32>) {
    %s = scf.if %c -> (tensor<4xf32>) {
      %e = tp.add %h, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      scf.yield %e : tensor<4xf32>
    } else {
      %e = tp.sub %h, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      scf.yield %e : tensor<4xf32>
    }
    %t = tp.add %s, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    scf.yield %t : tensor<4xf32>
  }
  %l = tp.sum %r : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// Calls are inlined into the gradient function (nested ones too); the
// forward keeps its call.
// CHECK-LABEL: func.func @calls(
// CHECK: call @layer
// CHECK-LABEL: func.func @calls_grad(
// CHECK-NOT: call @
// CHECK: tp.linear %arg0, %arg1
// CHECK-NEXT: tp.gelu
// CHECK-NOT: call @
// CHECK: tp.gelu_backward
// CHECK: return
func.func private @act(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %g = tp.gelu %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
func.func private @layer(%x: tensor<4x16xf32>, %w: tensor<8x16xf32>) -> tensor<4x8xf32> {
  %h = tp.linear %x, %w : (tensor<4x16xf32>, tensor<8x16xf32>) -> tensor<4x8xf32>
  %a = func.call @act(%h) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %a : tensor<4x8xf32>
}
func.func @calls(%x: tensor<4x16xf32>, %w: tensor<8x16xf32>) -> tensor<f32> {
  %a = func.call @layer(%x, %w) : (tensor<4x16xf32>, tensor<8x16xf32>) -> tensor<4x8xf32>
  %l = tp.mean %a : (tensor<4x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// A tp.autocast region whose values the backward reads: after autocast,
// the region yields its f16 casts for the backward products, which run in
// f16 after the region.
// CHECK-LABEL: func.func @region_grad(
// CHECK: %[[R:.*]] = tp.autocast "cuda" dtype(f16) -> tensor<4x4xf32> {
// CHECK: %[[E:.*]] = tp.exp
// CHECK-NEXT: tp.yield %[[E]] : tensor<4x4xf32>
// CHECK: tp.mul %{{.*}}, %[[R]]
// FP16-LABEL: func.func @region_grad(
// FP16: %[[R:.*]]:3 = tp.autocast "cuda" dtype(f16) -> tensor<4x4xf32>, tensor<4x4xf16>, tensor<4x4xf16> {
// FP16: %[[W16:.*]] = tp.cast %arg1 : tensor<4x4xf32> to tensor<4x4xf16>
// FP16-NEXT: %[[X16:.*]] = tp.cast %arg0 : tensor<4x4xf32> to tensor<4x4xf16>
// FP16: %[[E:.*]] = tp.exp
// FP16-NEXT: tp.yield %[[E]], %[[W16]], %[[X16]]
// FP16: tp.mul %{{.*}}, %[[R]]#0
// FP16: tp.transpose %[[R]]#1
// FP16: tp.mm %{{.*}}, %{{.*}} : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
func.func @region(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<f32> {
  %r = tp.autocast "cuda" dtype(f16) -> tensor<4x4xf32> {
    %m = tp.mm %x, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %e = tp.exp %m : (tensor<4x4xf32>) -> tensor<4x4xf32>
    tp.yield %e : tensor<4x4xf32>
  }
  %l = tp.sum %r : (tensor<4x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
