// TP_JIT_PERF names the generated functions for perf (lib/Compiler/
// JitPerfMap.h): one "address size name" line per generated function.
// RUN: rm -f %t.map
// RUN: env TP_JIT_PERF=%t.map tp-run %s --print | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --input-file=%t.map

// OUT: @scale result #0: [2, 4, 6, 8]
// CHECK-DAG: {{^[0-9a-f]+ [0-9a-f]+ tp:_mlir_ciface_tp.fn.scale$}}
// CHECK-DAG: {{^[0-9a-f]+ [0-9a-f]+ tp:tp.fn.scale$}}
func.func @scale() -> tensor<4xf32> {
  %x = tp.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %r = tp.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
