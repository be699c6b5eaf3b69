// Shapes tp-lower-to-cpu cannot compile are refused before anything is
// lowered, with one message per function naming the first op and operand
// (or the signature) that does not fit (a dynamic dimension
// crashed the sdpa lowering, a huge one made the tiling hang).
// RUN: tp-opt %s --split-input-file --verify-diagnostics --tp-lower-to-cpu

// expected-error @+1 {{argument #0 of @dynamic_argument (tensor<?x4xf32>) has a dynamic dimension: tp-lower-to-cpu compiles static shapes of at most 2^47 bytes}}
func.func @dynamic_argument(%x: tensor<?x4xf32>) -> tensor<4x4xf32> {
  %s = tensor.cast %x : tensor<?x4xf32> to tensor<4x4xf32>
  %r = tp.exp %s : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

func.func @dynamic_sdpa(%q: tensor<2x4x8x16xf32>, %k: tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32> {
  %e = tp.exp %k : (tensor<2x4x8x16xf32>) -> tensor<2x4x8x16xf32>
  // expected-error @+1 {{'tensor.cast' result #0 (tensor<2x4x?x16xf32>) has a dynamic dimension}}
  %d = tensor.cast %e : tensor<2x4x8x16xf32> to tensor<2x4x?x16xf32>
  %r = tp.scaled_dot_product_attention %q, %d, %d : (tensor<2x4x8x16xf32>, tensor<2x4x?x16xf32>, tensor<2x4x?x16xf32>) -> tensor<2x4x8x16xf32>
  return %r : tensor<2x4x8x16xf32>
}

// -----

func.func @huge(%x: tensor<8x33xbf16>) -> tensor<8x33xbf16> {
  // expected-error @+1 {{'tp.expand' result #0 (tensor<9223372036854775807x8x33xbf16>) needs more than 2^47 bytes: tp-lower-to-cpu compiles static shapes of at most 2^47 bytes}}
  %e = tp.expand %x {size = array<i64: 9223372036854775807, 8, 33>} : (tensor<8x33xbf16>) -> tensor<9223372036854775807x8x33xbf16>
  %r = tp.sum %e {dim = array<i64: 0>} : (tensor<9223372036854775807x8x33xbf16>) -> tensor<8x33xbf16>
  return %r : tensor<8x33xbf16>
}

// -----

// expected-error @+1 {{argument #0 of @huge_argument (tensor<9223372036854775807x33xbf16>) needs more than 2^47 bytes}}
func.func @huge_argument(%x: tensor<9223372036854775807x33xbf16>) -> tensor<9223372036854775807x33xbf16> {
  %r = tp.relu %x : (tensor<9223372036854775807x33xbf16>) -> tensor<9223372036854775807x33xbf16>
  return %r : tensor<9223372036854775807x33xbf16>
}

// -----

// 2^43 bytes with a prime leading size: accepted, and tiled without a
// search over the size's divisors (that made the tiling hang).
func.func @big_prime(%x: tensor<1099511627791x2xf32>) -> tensor<1099511627791x2xf32> {
  %r = tp.relu %x : (tensor<1099511627791x2xf32>) -> tensor<1099511627791x2xf32>
  return %r : tensor<1099511627791x2xf32>
}

// -----

// A nested module is refused (tp-fuzz finding 002: the function passes ran
// on the top-level module's functions only, so the nested module's linalg
// ops were left half lowered and stopped verifying).
module {
  // expected-error @+1 {{nested module @inner: tp-lower-to-cpu compiles the functions of one module; lower each module on its own}}
  module @inner {
    func.func @g(%a: tensor<4x4xbf16>) -> tensor<4x4xbf16> {
      %m = tp.mm %a, %a : (tensor<4x4xbf16>, tensor<4x4xbf16>) -> tensor<4x4xbf16>
      return %m : tensor<4x4xbf16>
    }
  }
}
