// The decision report: a table on stdout, or JSON in a file.
// RUN: tp-opt --autocast=cuda:fp16 --autocast-report=- %s -o /dev/null | FileCheck %s --check-prefix=TABLE
// RUN: tp-opt --autocast=cuda:fp16 --autocast-report=%t.json %s -o /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.json

// TABLE: autocast report
// TABLE-NEXT: location op device  list dtype  reason casts
// TABLE-NEXT: report.mlir:44:8 tp.mm cuda lower f16 lower-precision list #0 f32->f16, #1 f32->f16
// TABLE-NEXT: report.mlir:45:8 tp.relu cuda unlisted f16 unlisted: runs in its input types -
// TABLE-NEXT: report.mlir:46:8 tp.softmax cuda fp32 f32 fp32 list: dtype=f32 -
// TABLE-NEXT: report.mlir:47:8 tp.mm cuda lower f64 ineligible: f64 operand -
// TABLE-NEXT: report.mlir:48:8 tp.add cuda unlisted f32 unlisted: runs in its input types -
// TABLE-NEXT: report.mlir:50:10 tp.mm cuda lower f32 disabled region -
// TABLE-NEXT: report.mlir:53:8 tp.exp cuda fp32 f32 fp32 list #0 f16->f32
// TABLE-NEXT: summary: 7 ops (f16: 2, f32: 4, f64: 1), 3 casts inserted (3 with one cast per use), 288 bytes cast

// JSON: "ops": [
// JSON-NEXT: {
// JSON-NEXT: "location": "{{.*}}report.mlir:44:8",
// JSON-NEXT: "op": "tp.mm",
// JSON-NEXT: "device": "cuda",
// JSON-NEXT: "list": "lower",
// JSON-NEXT: "dtype": "f16",
// JSON-NEXT: "reason": "lower-precision list",
// JSON-NEXT: "casts": [
// JSON-NEXT: "#0 f32->f16",
// JSON-NEXT: "#1 f32->f16"
// JSON: "op": "tp.softmax",
// JSON-NEXT: "device": "cuda",
// JSON-NEXT: "list": "fp32",
// JSON-NEXT: "dtype": "f32",
// JSON-NEXT: "reason": "fp32 list: dtype=f32",
// JSON: "summary": {
// JSON-NEXT: "ops": 7,
// JSON-NEXT: "ops_per_dtype": {
// JSON-NEXT: "f16": 2,
// JSON-NEXT: "f32": 4,
// JSON-NEXT: "f64": 1
// JSON-NEXT: },
// JSON-NEXT: "casts_inserted": 3,
// JSON-NEXT: "casts_one_per_use": 3,
// JSON-NEXT: "bytes_cast": 288,
func.func @model(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %d: tensor<4x4xf64>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf64>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %m = tp.mm %a, %b : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %r = tp.relu %m : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = tp.softmax %r {dim = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %f = tp.mm %d, %d : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %g = tp.add %s, %s : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %o = tp.autocast "cuda" -> tensor<4x4xf32> {
    %k = tp.mm %g, %g : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    tp.yield %k : tensor<4x4xf32>
  } attributes {enabled = false}
  %e = tp.exp %r : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %s, %g, %f, %o, %e : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf64>, tensor<4x4xf32>, tensor<4x4xf32>
}
