// What tp-map-parallel-loops cannot put on the device is an error at the op.
// RUN: tp-opt %s --split-input-file --verify-diagnostics --tp-map-parallel-loops
// RUN: not tp-opt %s --split-input-file --tp-map-parallel-loops="block-size=0" 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not tp-opt %s --split-input-file --tp-map-parallel-loops="block-size=2048" 2>&1 | FileCheck %s --check-prefix=BLOCK

// BLOCK: error: tp-map-parallel-loops: block-size must be from 1 to 1024, got

func.func @host_uses_loaded_vector(%a: memref<4xf32>, %b: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{the host would use a 'vector<4xf32>' computed from a device buffer}}
  %v = vector.load %a[%c0] : memref<4xf32>, vector<4xf32>
  %w = func.call @consume(%v) : (vector<4xf32>) -> f32
  return
}
func.func private @consume(vector<4xf32>) -> f32

// -----

func.func @dynamic_bounds(%b: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  // expected-error @+1 {{the loop bounds must be constants}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %b[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// -----

func.func @reduction(%a: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{a parallel loop with reductions cannot be mapped to threads}}
  %s = scf.parallel (%i) = (%c0) to (%c4) step (%c1) init (%zero) -> f32 {
    %v = memref.load %a[%i] : memref<4xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %r = arith.addf %x, %y : f32
      scf.reduce.return %r : f32
    }
  }
  return %s : f32
}
