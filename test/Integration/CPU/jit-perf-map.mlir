// TP_JIT_PERF names the generated functions for perf (lib/Compiler/
// JitPerfMap.h): one "address size name" line per generated function,
// the loops outlined for the thread pool (`__parN` and their trampolines)
// included. Each public function is its own object, its body inlined into
// its packed entry point `tp.packed.<symbol>` (lib/Compiler/HostJit.h).
// RUN: rm -f %t.map
// RUN: env TP_JIT_PERF=%t.map tp-run %s --entry=scale --print | FileCheck %s --check-prefix=OUT
// RUN: env TP_JIT_PERF=%t.map tp-run %s --entry=big --num-threads=2
// RUN: FileCheck %s --input-file=%t.map

// OUT: @scale result #0: [2, 4, 6, 8]
// CHECK-DAG: {{^[0-9a-f]+ [0-9a-f]+ tp:tp.packed.tp.fn.scale$}}
// CHECK-DAG: {{^[0-9a-f]+ [0-9a-f]+ tp:tp.packed.tp.fn.big$}}
// CHECK-DAG: {{^[0-9a-f]+ [0-9a-f]+ tp:tp.fn.big__par0__trampoline$}}
func.func @scale() -> tensor<4xf32> {
  %x = tp.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %r = tp.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// Large enough for the elementwise loop to be split over threads.
func.func @big(%x: tensor<512x1024xf32>) -> tensor<512x1024xf32> {
  %e = tp.exp %x : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %t = tp.tanh %e : (tensor<512x1024xf32>) -> tensor<512x1024xf32>
  return %t : tensor<512x1024xf32>
}
