// tp_rt.call under one-shot bufferization: a call reads its inputs where it
// stands and overwrites its outputs, so a buffer a later call reads is
// never written in place in between (the bug fixed in 821d380), and the call
// becomes a func.call on unranked memrefs with its views.
// RUN: tp-opt %s --split-input-file --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s

#id = affine_map<(d0) -> (d0)>
func.func private @f(memref<*xf32>, memref<*xf32>) -> i32

// %x is read by two calls; the op between them names %x as its
// destination: it must write a copy.
// CHECK-LABEL: func.func @read_write_read
// CHECK: %[[X:.*]] = memref.alloc() {{.*}} : memref<16xf32>
// CHECK: linalg.generic {{.*}} outs(%[[X]] : memref<16xf32>)
// CHECK: %[[XU:.*]] = memref.cast %[[X]] : memref<16xf32> to memref<*xf32>
// CHECK: call @f(%[[XU]], %{{.*}}) : (memref<*xf32>, memref<*xf32>) -> i32
// CHECK: %[[Y:.*]] = memref.alloc() {{.*}} : memref<16xf32>
// CHECK: memref.copy %[[X]], %[[Y]]
// CHECK: linalg.generic {{.*}} outs(%[[Y]] : memref<16xf32>)
// CHECK: %[[XU2:.*]] = memref.cast %[[X]] : memref<16xf32> to memref<*xf32>
// CHECK: call @f(%[[XU2]], %{{.*}})
func.func @read_write_read(%arg: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %e = tensor.empty() : tensor<16xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%arg : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<16xf32>
  %o1 = tensor.empty() : tensor<16xf32>
  %c1 = tp_rt.call @f(%x) outs(%o1) {output_positions = array<i64: 1>} : (tensor<16xf32>), (tensor<16xf32>) -> tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%c1 : tensor<16xf32>) outs(%x : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.addf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  %o2 = tensor.empty() : tensor<16xf32>
  %c2 = tp_rt.call @f(%x) outs(%o2) {output_positions = array<i64: 1>} : (tensor<16xf32>), (tensor<16xf32>) -> tensor<16xf32>
  return %c1, %y, %c2 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}

// -----

func.func private @g(memref<*xf32>, memref<*xf32>, i64) -> i32

// Views are strided transposes of the buffers; scalars pass as they are.
// CHECK-LABEL: func.func @views
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32, strided<[?, ?], offset: ?>>, %[[C:.*]]: i64)
// CHECK: %[[O:.*]] = memref.alloc() {{.*}} : memref<8x4xf32>
// CHECK: %[[AT:.*]] = memref.transpose %[[A]] (d0, d1) -> (d1, d0)
// CHECK: %[[AU:.*]] = memref.cast %[[AT]] : memref<8x4xf32, strided<[?, ?], offset: ?>> to memref<*xf32>
// CHECK: %[[OU:.*]] = memref.cast %[[O]] : memref<8x4xf32> to memref<*xf32>
// CHECK: call @g(%[[AU]], %[[OU]], %[[C]])
// CHECK: return %[[O]]
func.func @views(%a: tensor<4x8xf32>, %c: i64) -> tensor<8x4xf32> {
  %o = tensor.empty() : tensor<8x4xf32>
  %r = tp_rt.call @g(%a, %c) outs(%o) {output_positions = array<i64: 1>, views = [array<i64: 1, 0>, array<i64>, array<i64>]} : (tensor<4x8xf32>, i64), (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}


// -----

// An output the call updates in place (`updates`) is read: when its value is
// still needed after the call, the call updates a copy of it; otherwise it
// updates the buffer itself. An output not in `updates` gets a fresh buffer
// without a copy.
#id = affine_map<(d0) -> (d0)>
func.func private @f(memref<*xf32>, memref<*xf32>) -> i32

// CHECK-LABEL: func.func @update_in_place
// CHECK: %[[Y:.*]] = memref.alloc() {{.*}} : memref<16xf32>
// CHECK: linalg.generic {{.*}} outs(%[[Y]] : memref<16xf32>)
// CHECK-NOT: memref.copy
// CHECK: %[[YU:.*]] = memref.cast %[[Y]] : memref<16xf32> to memref<*xf32>
// CHECK: call @f(%{{.*}}, %[[YU]])
// CHECK-NOT: memref.copy
// CHECK: return %[[Y]]
func.func @update_in_place(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<16xf32>
  %r = tp_rt.call @f(%x) outs(%y) {output_positions = array<i64: 1>, updates = array<i64: 0>} : (tensor<16xf32>), (tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// CHECK-LABEL: func.func @update_copy
// CHECK: %[[Y:.*]] = memref.alloc() {{.*}} : memref<16xf32>
// CHECK: linalg.generic {{.*}} outs(%[[Y]] : memref<16xf32>)
// CHECK: %[[R:.*]] = memref.alloc() {{.*}} : memref<16xf32>
// CHECK: memref.copy %[[Y]], %[[R]]
// CHECK: %[[RU:.*]] = memref.cast %[[R]] : memref<16xf32> to memref<*xf32>
// CHECK: call @f(%{{.*}}, %[[RU]])
// CHECK: return %[[R]], %[[Y]]
func.func @update_copy(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %e = tensor.empty() : tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<16xf32>
  %r = tp_rt.call @f(%x) outs(%y) {output_positions = array<i64: 1>, updates = array<i64: 0>} : (tensor<16xf32>), (tensor<16xf32>) -> tensor<16xf32>
  return %r, %y : tensor<16xf32>, tensor<16xf32>
}

// CHECK-LABEL: func.func @overwrite_no_copy
// CHECK: %[[Y:.*]] = memref.alloc() {{.*}} : memref<16xf32>
// CHECK: linalg.generic {{.*}} outs(%[[Y]] : memref<16xf32>)
// CHECK: %[[R:.*]] = memref.alloc() {{.*}} : memref<16xf32>
// CHECK-NOT: memref.copy
// CHECK: call @f
func.func @overwrite_no_copy(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %e = tensor.empty() : tensor<16xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<16xf32>
  %r = tp_rt.call @f(%x) outs(%y) {output_positions = array<i64: 1>} : (tensor<16xf32>), (tensor<16xf32>) -> tensor<16xf32>
  return %r, %y : tensor<16xf32>, tensor<16xf32>
}
