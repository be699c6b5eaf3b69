// A banned op fails the pass, after the whole module is rewritten and the
// report written (the op is listed as banned).
// RUN: not tp-opt --autocast=cuda:fp16 --autocast-report=- %s -o /dev/null 2>%t.err | FileCheck %s --check-prefix=TABLE
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: not tp-opt --autocast=cuda:fp16 --autocast-report=%t.json %s -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// An op banned by a policy file gets a reason naming the file, not the
// binary_cross_entropy advice.
// RUN: not tp-opt --autocast=cuda:fp16 --autocast-policy=%S/Inputs/policy-ban-mm.json %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=POLICY

// TABLE: report-banned.mlir:25:8 tp.binary_cross_entropy cuda banned f32 banned in autocast -
// TABLE-NEXT: report-banned.mlir:26:8 tp.mm cuda lower f16 lower-precision list #0 f32->f16, #1 f32->f16
// TABLE-NEXT: summary: 2 ops (f16: 1, f32: 1), 1 casts inserted

// ERR: report-banned.mlir:25:8: error: 'tp.binary_cross_entropy' op is banned in an enabled cuda autocast region
// JSON: "op": "tp.binary_cross_entropy",
// JSON-NEXT: "device": "cuda",
// JSON-NEXT: "list": "banned",
// JSON-NEXT: "dtype": "f32",
// JSON-NEXT: "reason": "banned in autocast",

// POLICY: report-banned.mlir:26:8: error: 'tp.mm' op is banned in an enabled cuda autocast region by the autocast policy file '{{.*}}policy-ban-mm.json' (it is on its 'cuda.banned' list); run it where autocast is disabled or take it off that list
// POLICY-NOT: binary_cross_entropy_with_logits
func.func @model(%p: tensor<8xf32>, %t: tensor<8xf32>, %a: tensor<4x4xf32>) -> (tensor<f32>, tensor<4x4xf32>) {
  %l = tp.binary_cross_entropy %p, %t : (tensor<8xf32>, tensor<8xf32>) -> tensor<f32>
  %m = tp.mm %a, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %l, %m : tensor<f32>, tensor<4x4xf32>
}
