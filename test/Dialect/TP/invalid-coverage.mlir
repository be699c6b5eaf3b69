// Every verifier message of the tp dialect (each emitOpError format and each
// wording passed to the shared helpers) is exercised by invalid.mlir.
// RUN: %python %S/check-message-coverage.py | FileCheck %s
// CHECK-NOT: uncovered {{.*}}:
// CHECK: {{^[0-9]+}} messages, 0 uncovered
