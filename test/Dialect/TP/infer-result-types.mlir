// Every op of roundtrip.mlir (each op of the dialect, in its forms) built
// again from its operands and attributes alone: the result types its shape
// and dtype rules infer (InferTypeOpInterface) equal the declared ones.
// RUN: tp-opt --test-tp-infer-result-types --mlir-print-op-on-diagnostic=false %S/roundtrip.mlir -o /dev/null 2>&1 | FileCheck %s
// RUN: tp-opt --test-tp-infer-result-types --mlir-print-op-on-diagnostic=false %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=HERE

// The two ops whose result shapes depend on more than the operands: the
// least-squares residuals (present only when every matrix has full rank)
// and oneDNN's RNN workspace. They need explicit result types.
// CHECK-NOT: differs
// CHECK: roundtrip.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: not inferable
// CHECK-NEXT: tp.linalg_lstsq
// CHECK-NOT: differs
// CHECK: roundtrip.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: not inferable
// CHECK-NEXT: tp.mkldnn_rnn_layer
// CHECK-NOT: differs
// CHECK: remark: {{2[0-9][0-9]}} inferred, 0 differing, 2 not inferable

// Declared dynamic sizes match any inferred size.
func.func @dynamic(%a: tensor<?x8xf32>, %b: tensor<8x16xf32>) -> tensor<?x?xf32> {
  // HERE: remark: inferred
  %r = tp.mm %a, %b : (tensor<?x8xf32>, tensor<8x16xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
// HERE: remark: 1 inferred, 0 differing, 0 not inferable
