// tp-map-parallel-loops: an outermost scf.parallel becomes blocks x threads
// over its linearized iterations (last dimension fastest), with a guard
// when the block size does not divide the count; memory accesses outside
// parallel loops run on one thread.
// RUN: tp-opt %s --split-input-file --tp-map-parallel-loops="block-size=4" --cse | FileCheck %s

// CHECK-LABEL: func.func @two_dims
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK:         scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%[[C4]])
// CHECK:           scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[C4]])
// CHECK:             %[[FIRST:.*]] = arith.muli %[[B]], %[[C4]]
// CHECK:             %[[I:.*]] = arith.addi %[[FIRST]], %[[T]]
// CHECK:             %[[C15:.*]] = arith.constant 15 : index
// CHECK:             %[[IN:.*]] = arith.cmpi ult, %[[I]], %[[C15]]
// CHECK:             scf.if %[[IN]] {
// CHECK:               %[[C5:.*]] = arith.constant 5 : index
// CHECK:               %[[COL:.*]] = arith.remui %[[I]], %[[C5]]
// CHECK:               %[[ROW:.*]] = arith.divui %[[I]], %[[C5]]
// CHECK:               memref.load %{{.*}}[%[[ROW]], %[[COL]]]
// CHECK:           } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
func.func @two_dims(%a: memref<3x5xf32>, %b: memref<3x5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c3, %c5) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<3x5xf32>
    memref.store %v, %b[%i, %j] : memref<3x5xf32>
    scf.reduce
  }
  return
}

// -----

// A count the block size divides needs no guard; steps and lower bounds
// are applied to the delinearized index.
// CHECK-LABEL: func.func @strided
// CHECK-NOT:     scf.if
// CHECK:         %[[S:.*]] = arith.muli %{{.*}}, %c2
// CHECK:         %[[IV:.*]] = arith.addi %[[S]], %c1
// CHECK:         memref.store %{{.*}}, %{{.*}}[%[[IV]]]
func.func @strided(%b: memref<17xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c17 = arith.constant 17 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c1) to (%c17) step (%c2) {
    memref.store %f, %b[%i] : memref<17xf32>
    scf.reduce
  }
  return
}

// -----

// A scalar reduction (no parallel loop) and the scalar code after it run
// on one thread; a constant the host still needs is cloned outside.
// CHECK-LABEL: func.func @single_thread
// CHECK:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[ONE:.*]]) step
// CHECK:           scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[ONE]]) step
// CHECK:             scf.for
// CHECK:             memref.load
// CHECK:             arith.divf
// CHECK:             memref.store
// CHECK:           processor = thread_x
// CHECK:         processor = block_x
// CHECK:         return
func.func @single_thread(%a: memref<8xf32>, %r: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    %s = memref.load %r[] : memref<f32>
    %t = arith.addf %s, %v : f32
    memref.store %t, %r[] : memref<f32>
  }
  %s = memref.load %r[] : memref<f32>
  %n = arith.constant 8.0 : f32
  %m = arith.divf %s, %n : f32
  memref.store %m, %r[] : memref<f32>
  return
}

// -----

// Parallel loops inside a mapped one run sequentially in its thread.
// CHECK-LABEL: func.func @nested
// CHECK:         scf.parallel
// CHECK:           processor = sequential
// CHECK:           processor = thread_x
func.func @nested(%b: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.parallel (%j) = (%c0) to (%c4) step (%c1) {
      memref.store %f, %b[%i, %j] : memref<4x4xf32>
      scf.reduce
    }
    scf.reduce
  }
  return
}

// -----

// A host loop whose result (a buffer) the host uses afterwards stays on the
// host; the accesses in its body run on one thread per iteration.
// CHECK-LABEL: func.func @host_loop
// CHECK:         %[[R:.*]] = scf.for {{.*}} iter_args(%[[B:.*]] = %arg0) -> (memref<4xf32>)
// CHECK:           scf.parallel
// CHECK:             scf.parallel
// CHECK:               memref.load %[[B]]
// CHECK:               memref.store
// CHECK:           scf.yield %[[B]]
// CHECK:         memref.dealloc %[[R]]
func.func @host_loop(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%b = %a) -> (memref<4xf32>) {
    %v = memref.load %b[%i] : memref<4xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %b[%c0] : memref<4xf32>
    scf.yield %b : memref<4xf32>
  }
  memref.dealloc %r : memref<4xf32>
  return
}

// -----

// A scalar the host needs (a loop count read from a tensor) is stored on
// the device by its single-thread nest and read back through a host buffer.
// CHECK-LABEL: func.func @read_back
// CHECK:         %[[SCRATCH:.*]] = gpu.alloc () : memref<index>
// CHECK:         scf.parallel
// CHECK:           scf.parallel
// CHECK:             %[[N:.*]] = memref.load %arg0[%{{.*}}] : memref<4xindex>
// CHECK:             memref.store %[[N]], %[[SCRATCH]][] : memref<index>
// CHECK:         %[[HOST:.*]] = memref.alloca() : memref<index>
// CHECK:         gpu.memcpy %[[HOST]], %[[SCRATCH]]
// CHECK:         %[[COUNT:.*]] = memref.load %[[HOST]][] : memref<index>
// CHECK:         gpu.dealloc %[[SCRATCH]]
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[COUNT]]
// CHECK:           scf.parallel
func.func @read_back(%a: memref<4xindex>, %b: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = memref.load %a[%c0] : memref<4xindex>
  scf.for %k = %c0 to %n step %c1 {
    scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
      %v = memref.load %b[%i] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %b[%i] : memref<4xf32>
      scf.reduce
    }
  }
  return
}
