// --autocast-report=<file> with --split-input-file: the file holds every
// chunk's report, in order ({"chunks": [...]}), not only the last one's.
// RUN: tp-opt --autocast=cuda:fp16 --autocast-report=%t.json --split-input-file %s -o /dev/null
// RUN: FileCheck %s < %t.json
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); print(len(d['chunks']), [c['summary']['ops'] for c in d['chunks']])" %t.json | FileCheck %s --check-prefix=PARSED
// A single chunk keeps the plain report.
// RUN: tp-opt --autocast=cuda:fp16 --autocast-report=%t.one.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=ONE < %t.one.json

// CHECK: {"chunks": [
// CHECK: "location": "{{.*}}report-split.mlir:25:8",
// CHECK-NEXT: "op": "tp.mm",
// CHECK: "summary": {
// CHECK-NEXT: "ops": 1,
// CHECK: "location": "{{.*}}report-split.mlir:32:8",
// CHECK-NEXT: "op": "tp.exp",
// CHECK: "location": "{{.*}}report-split.mlir:33:8",
// CHECK-NEXT: "op": "tp.relu",
// CHECK: ]}
// PARSED: 2 [1, 2]
// ONE: {
// ONE-NEXT: "ops": [
// ONE-NOT: chunks
func.func @first(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = tp.mm %x, %x : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

func.func @second(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = tp.exp %x : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = tp.relu %e : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
