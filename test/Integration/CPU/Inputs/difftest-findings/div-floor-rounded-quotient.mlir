// Fixed: floor division is c10's div_floor_floating (fmod-based).
// Finding 3: tp.div {rounding_mode = "floor"} on floating tensors takes the
// floor of the rounded quotient, not the floor of the exact quotient.
// torch.div(a, b, rounding_mode="floor") is Python's and NumPy's floor
// division (torch computes it with fmod: c10::div_floor_floating), so
// 1.0 // 0.1f is 9 (0.1f = 0.100000001490116 > 0.1: 1 / 0.1f =
// 9.99999985...), while tp gives 10 (f32 1.0 / 0.1f rounds to 10.0, then
// floor). trunc mode is right: torch's div_trunc_kernel is trunc(a / b) of
// the rounded quotient, 10 here.
// Found by difftest's floor-division probe (constants k / 0.1f, k / 0.7f;
// random f32 inputs almost never hit it); every mode and pipeline.
//
// Command: build/bin/tp-run div-floor-rounded-quotient.mlir --print
// Observed: @div_floor_f32 result #0: [10, 5, -10, 3, 10, 1, 2]
// Expected (torch.div(a, b, rounding_mode="floor"), Python a // b,
//   np.floor_divide): [9, 4, -10, 3, 10, 1, 2]; the exact quotients are
//   9.99999985, 4.99999993, -9.99999985, 3.00000007, 10.0000002, 1, 2.73:
//   the first two are wrong. The trunc results (#1) are right.
// semantics, floor of the f32 quotient, count as this finding)
// difftest: mode=plain inputs-seed=31
func.func @div_floor_f32() -> (tensor<7xf32>, tensor<7xf32>) {
  %v0 = tp.constant dense<[1.0, 1.0, -1.0, 0.30000001192092896, 7.0, 0.20000000298023224, 3.0]> : tensor<7xf32>
  %v1 = tp.constant dense<[0.10000000149011612, 0.20000000298023224, 0.10000000149011612, 0.10000000149011612, 0.699999988079071, 0.20000000298023224, 1.100000023841858]> : tensor<7xf32>
  %v2 = tp.div %v0, %v1 {rounding_mode = "floor"} : (tensor<7xf32>, tensor<7xf32>) -> tensor<7xf32>
  %v3 = tp.div %v0, %v1 {rounding_mode = "trunc"} : (tensor<7xf32>, tensor<7xf32>) -> tensor<7xf32>
  return %v2, %v3 : tensor<7xf32>, tensor<7xf32>
}

// The same with the operands as arguments (no constants to fold): every
// element of %a0 is 1.0, of %a1 0.1f (the inputs' ranges are single
// points). Observed: 10 everywhere; expected: 9 everywhere.
// difftest: mode=plain+linalg inputs-seed=32 args=u:1:1,u:0.1:0.1
func.func @div_floor_args(%a0: tensor<3x5xf32>, %a1: tensor<5xf32>) -> (tensor<3x5xf32>) {
  %v0 = tp.div %a0, %a1 {rounding_mode = "floor"} : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %v0 : tensor<3x5xf32>
}
