//===- TPLinalgOps.td - tp linear algebra, FFT, complex ----*- tablegen -*-===//
//
// torch.linalg and the older LAPACK-style ops, torch.fft, STFT, polar and
// view_as_complex, and fake quantization. These run in f32 under CPU autocast.
// Matrix operands are (..., M, N) batches.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_DIALECT_TP_IR_TPLINALGOPS_TD
#define TENSORPLAY_DIALECT_TP_IR_TPLINALGOPS_TD

include "tensorplay/Dialect/TP/IR/TPBase.td"

/// An op on a batch of matrices (shape rule `kind`, MatrixKind in C++).
class TP_MatrixOp<string mnemonic, string summaryText, dag operands,
                  string operandsFormat, dag attrs, string kind,
                  list<string> results = ["Value"], string example = "">
    : TP_ComputeOp<mnemonic, summaryText, TP_DtypeRule<"Same", results>,
        !con(operands, attrs), operandsFormat,
        !if(!eq(example, ""),
            "%r = tp." # mnemonic # " %a : (tensor<4x4xf32>) -> tensor<4x4xf32>",
            example),
        [Pure], "::mlir::tp::inferMatrixOpShape(op, ::mlir::tp::MatrixKind::" #
                kind # ")"> {
  let familyDescription =
      "An op on a batch of matrices (..., M, N): the trailing two dimensions "
      "are the matrix, the leading ones a batch (broadcast where the op takes "
      "several). Square factorizations require M = N.";
}

defvar TP_A = (ins TP_Tensor:$input);
defvar TP_AFormat = "$input";
defvar TP_AB = (ins TP_Tensor:$input, TP_Tensor:$other);
defvar TP_ABFormat = "$input `,` $other";

class TP_MatrixOp1<string mnemonic, string summaryText, dag operands,
                   string operandsFormat, dag attrs, string kind,
                   string kindOfResult = "Value", string example = "">
    : TP_MatrixOp<mnemonic, summaryText, operands, operandsFormat, attrs, kind,
                  [kindOfResult], example> {
  let results = (outs TP_Tensor:$result);
}

def TP_InverseOp : TP_MatrixOp1<"inverse", "Inverse of square matrices",
    TP_A, TP_AFormat, (ins), "Square">;
def TP_LinalgInvOp : TP_MatrixOp1<"linalg_inv", "Inverse of square matrices",
    TP_A, TP_AFormat, (ins), "Square">;
def TP_PinverseOp : TP_MatrixOp1<"pinverse", "Moore-Penrose pseudo-inverse",
    TP_A, TP_AFormat, (ins DefaultValuedAttr<F64Attr, "1e-15">:$rcond),
    "Transposed", "Value",
    "%r = tp.pinverse %a : (tensor<4x3xf32>) -> tensor<3x4xf32>">;
def TP_CholeskyInverseOp : TP_MatrixOp1<"cholesky_inverse",
    "Inverse of a matrix from its Cholesky factor", TP_A, TP_AFormat,
    (ins DefaultValuedAttr<BoolAttr, "false">:$upper), "Square">;
def TP_LinalgCholeskyOp : TP_MatrixOp1<"linalg_cholesky",
    "Cholesky factor of Hermitian positive-definite matrices", TP_A,
    TP_AFormat, (ins DefaultValuedAttr<BoolAttr, "false">:$upper), "Square">;
def TP_LinalgTensorinvOp : TP_MatrixOp1<"linalg_tensorinv",
    "Inverse of a tensor with respect to tensordot over ind dims", TP_A,
    TP_AFormat, (ins DefaultValuedAttr<I64Attr, "2">:$ind), "TensorInverse", "Value",
    "%r = tp.linalg_tensorinv %a : (tensor<4x6x8x3xf32>) -> tensor<8x3x4x6xf32>">;
def TP_LinalgCondOp : TP_MatrixOp1<"linalg_cond",
    "Condition number in the p-norm (2 when absent)", TP_A, TP_AFormat,
    (ins OptionalAttr<F64Attr>:$p), "BatchScalar", "Real",
    "%r = tp.linalg_cond %a : (tensor<2x4x4xf32>) -> tensor<2xf32>">;
def TP_LinalgMatrixRankOp : TP_MatrixOp1<"linalg_matrix_rank",
    "Numerical rank of matrices", TP_A, TP_AFormat,
    (ins OptionalAttr<F64Attr>:$atol, OptionalAttr<F64Attr>:$rtol,
         DefaultValuedAttr<BoolAttr, "false">:$hermitian), "BatchScalar", "I64",
    "%r = tp.linalg_matrix_rank %a : (tensor<2x4x4xf32>) -> tensor<2xi64>">;
def TP_LinalgSvdvalsOp : TP_MatrixOp1<"linalg_svdvals",
    "Singular values of matrices", TP_A, TP_AFormat,
    (ins OptionalAttr<StrAttr>:$driver), "BatchVectorMin", "Real",
    "%r = tp.linalg_svdvals %a : (tensor<4x3xf32>) -> tensor<3xf32>">;
def TP_LinalgEigvalsOp : TP_MatrixOp1<"linalg_eigvals",
    "Eigenvalues of square matrices (complex)", TP_A, TP_AFormat, (ins),
    "BatchVector", "Complex",
    "%r = tp.linalg_eigvals %a : (tensor<4x4xf32>) -> tensor<4xcomplex<f32>>">;
def TP_LinalgEigvalshOp : TP_MatrixOp1<"linalg_eigvalsh",
    "Eigenvalues of Hermitian matrices (real)", TP_A, TP_AFormat,
    (ins DefaultValuedStrAttr<StrAttr, "L">:$UPLO), "BatchVector", "Real",
    "%r = tp.linalg_eigvalsh %a : (tensor<4x4xf32>) -> tensor<4xf32>">;

def TP_LinalgSolveOp : TP_MatrixOp1<"linalg_solve",
    "Solve A X = B (left) or X A = B", (ins TP_Tensor:$A, TP_Tensor:$B),
    "$A `,` $B", (ins DefaultValuedAttr<BoolAttr, "true">:$left), "Solve",
    "Value",
    "%r = tp.linalg_solve %a, %b : (tensor<4x4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>">;
def TP_CholeskySolveOp : TP_MatrixOp1<"cholesky_solve",
    "Solve with a Cholesky factor: self is B, input2 the factor",
    (ins TP_Tensor:$input, TP_Tensor:$input2), "$input `,` $input2",
    (ins DefaultValuedAttr<BoolAttr, "false">:$upper), "SolveRhsFirst",
    "Value",
    "%r = tp.cholesky_solve %b, %l : (tensor<4x2xf32>, tensor<4x4xf32>) -> tensor<4x2xf32>">;
def TP_LuSolveOp : TP_MatrixOp1<"lu_solve",
    "Solve with an LU factorization and its pivots",
    (ins TP_Tensor:$input, TP_Tensor:$LU_data, TP_Tensor:$LU_pivots),
    "$input `,` $LU_data `,` $LU_pivots", (ins), "SolveRhsFirst", "Value",
    "%r = tp.lu_solve %b, %lu, %p : (tensor<4x2xf32>, tensor<4x4xf32>, tensor<4xi32>) -> tensor<4x2xf32>">;
def TP_LinalgHouseholderProductOp : TP_MatrixOp1<"linalg_householder_product",
    "First n columns of a product of Householder matrices",
    (ins TP_Tensor:$input, TP_Tensor:$tau), "$input `,` $tau", (ins),
    "Same", "Value",
    "%r = tp.linalg_householder_product %a, %t : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>">;
def TP_OrgqrOp : TP_MatrixOp1<"orgqr",
    "Q of a QR factorization from geqrf's output (alias of householder_product)",
    (ins TP_Tensor:$input, TP_Tensor:$input2), "$input `,` $input2", (ins),
    "Same", "Value",
    "%r = tp.orgqr %a, %t : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>">;
def TP_OrmqrOp : TP_MatrixOp1<"ormqr",
    "Multiply by the Q of a QR factorization from geqrf's output",
    (ins TP_Tensor:$input, TP_Tensor:$input2, TP_Tensor:$input3),
    "$input `,` $input2 `,` $input3",
    (ins DefaultValuedAttr<BoolAttr, "true">:$left,
         DefaultValuedAttr<BoolAttr, "false">:$transpose), "ThirdOperand",
    "Value",
    "%r = tp.ormqr %a, %t, %c : (tensor<4x4xf32>, tensor<4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>">;
def TP_LinalgTensorsolveOp : TP_MatrixOp1<"linalg_tensorsolve",
    "Solve tensordot(self, x, other.dim()) = other", TP_AB, TP_ABFormat,
    (ins OptionalAttr<DenseI64ArrayAttr>:$dims), "TensorInverse", "Value",
    "%r = tp.linalg_tensorsolve %a, %b : (tensor<2x3x6xf32>, tensor<2x3xf32>) -> tensor<6xf32>">;

/// Multi-result factorizations.
class TP_FactorOp<string mnemonic, string summaryText, dag operands,
                  string operandsFormat, dag attrs, list<string> kinds,
                  dag resultsDag, string example>
    : TP_MatrixOp<mnemonic, summaryText, operands, operandsFormat, attrs,
                  "Factor", kinds, example> {
  let familyDescription =
      "A factorization with several results, shaped as PyTorch shapes them "
      "for an (..., m, n) input with k = min(m, n).";
  let results = resultsDag;
}

def TP_LinalgCholeskyExOp : TP_FactorOp<"linalg_cholesky_ex",
    "Cholesky factor without error checks: returns (L, info)", TP_A,
    TP_AFormat, (ins DefaultValuedAttr<BoolAttr, "false">:$upper,
                     DefaultValuedAttr<BoolAttr, "false">:$check_errors),
    ["Value", "I32"], (outs TP_Tensor:$L, TP_Tensor:$info),
    "%l, %i = tp.linalg_cholesky_ex %a : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)">;
def TP_LinalgInvExOp : TP_FactorOp<"linalg_inv_ex",
    "Inverse without error checks: returns (inverse, info)", TP_A, TP_AFormat,
    (ins DefaultValuedAttr<BoolAttr, "false">:$check_errors),
    ["Value", "I32"], (outs TP_Tensor:$inverse, TP_Tensor:$info),
    "%r, %i = tp.linalg_inv_ex %a : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<i32>)">;
def TP_LinalgQrOp : TP_FactorOp<"linalg_qr", "QR factorization: returns (Q, R)",
    TP_A, TP_AFormat, (ins DefaultValuedStrAttr<StrAttr, "reduced">:$mode),
    ["Value", "Value"], (outs TP_Tensor:$Q, TP_Tensor:$R),
    "%q, %r = tp.linalg_qr %a : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3x3xf32>)">;
def TP_LinalgSvdOp : TP_FactorOp<"linalg_svd",
    "Singular value decomposition: returns (U, S, Vh)", TP_A, TP_AFormat,
    (ins DefaultValuedAttr<BoolAttr, "true">:$full_matrices,
         OptionalAttr<StrAttr>:$driver),
    ["Value", "Real", "Value"], (outs TP_Tensor:$U, TP_Tensor:$S, TP_Tensor:$Vh),
    "%u, %s, %v = tp.linalg_svd %a : (tensor<4x3xf32>) -> (tensor<4x4xf32>, tensor<3xf32>, tensor<3x3xf32>)">;
def TP_SvdOp : TP_FactorOp<"svd",
    "Singular value decomposition (torch.svd): returns (U, S, V)", TP_A,
    TP_AFormat, (ins DefaultValuedAttr<BoolAttr, "true">:$some,
                     DefaultValuedAttr<BoolAttr, "true">:$compute_uv),
    ["Value", "Real", "Value"], (outs TP_Tensor:$U, TP_Tensor:$S, TP_Tensor:$V),
    "%u, %s, %v = tp.svd %a : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3x3xf32>)">;
def TP_LinalgEigOp : TP_FactorOp<"linalg_eig",
    "Eigendecomposition of square matrices: returns (eigenvalues, eigenvectors)",
    TP_A, TP_AFormat, (ins), ["Complex", "Complex"],
    (outs TP_Tensor:$eigenvalues, TP_Tensor:$eigenvectors),
    "%w, %v = tp.linalg_eig %a : (tensor<4x4xf32>) -> (tensor<4xcomplex<f32>>, tensor<4x4xcomplex<f32>>)">;
def TP_LinalgEighOp : TP_FactorOp<"linalg_eigh",
    "Eigendecomposition of Hermitian matrices: returns (eigenvalues, eigenvectors)",
    TP_A, TP_AFormat, (ins DefaultValuedStrAttr<StrAttr, "L">:$UPLO),
    ["Real", "Value"], (outs TP_Tensor:$eigenvalues, TP_Tensor:$eigenvectors),
    "%w, %v = tp.linalg_eigh %a : (tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4x4xf32>)">;
def TP_LinalgLstsqOp : TP_FactorOp<"linalg_lstsq",
    "Least squares: returns (solution, residuals, rank, singular_values)",
    TP_AB, TP_ABFormat,
    (ins OptionalAttr<F64Attr>:$rcond, OptionalAttr<StrAttr>:$driver),
    ["Value", "Real", "I64", "Real"],
    (outs TP_Tensor:$solution, TP_Tensor:$residuals, TP_Tensor:$rank,
          TP_Tensor:$singular_values),
    "%x, %r, %k, %s = tp.linalg_lstsq %a, %b : (tensor<4x3xf32>, tensor<4x2xf32>) -> (tensor<3x2xf32>, tensor<0xf32>, tensor<i64>, tensor<0xf32>)">;
def TP_GeqrfOp : TP_FactorOp<"geqrf",
    "LAPACK geqrf QR factorization: returns (a, tau)", TP_A, TP_AFormat, (ins),
    ["Value", "Value"], (outs TP_Tensor:$a, TP_Tensor:$tau),
    "%a2, %t = tp.geqrf %a : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>)">;
def TP_LuWithInfoOp : TP_FactorOp<"lu_with_info",
    "aten::_lu_with_info: returns (LU, pivots, infos)", TP_A, TP_AFormat,
    (ins DefaultValuedAttr<BoolAttr, "true">:$pivot,
         DefaultValuedAttr<BoolAttr, "true">:$check_errors),
    ["Value", "I32", "I32"],
    (outs TP_Tensor:$LU, TP_Tensor:$pivots, TP_Tensor:$infos),
    "%lu, %p, %i = tp.lu_with_info %a : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xi32>, tensor<i32>)">;
def TP_TriangularSolveOp : TP_FactorOp<"triangular_solve",
    "Solve A X = b for triangular A: returns (solution, cloned_coefficient)",
    (ins TP_Tensor:$input, TP_Tensor:$A), "$input `,` $A",
    (ins DefaultValuedAttr<BoolAttr, "true">:$upper,
         DefaultValuedAttr<BoolAttr, "false">:$transpose,
         DefaultValuedAttr<BoolAttr, "false">:$unitriangular),
    ["Value", "Value"], (outs TP_Tensor:$solution, TP_Tensor:$cloned_coefficient),
    "%x, %c = tp.triangular_solve %b, %a : (tensor<4x2xf32>, tensor<4x4xf32>) -> (tensor<4x2xf32>, tensor<4x4xf32>)">;

//===----------------------------------------------------------------------===//
// FFT
//===----------------------------------------------------------------------===//

/// torch.fft ops. `results` is "Complex" or "Real"; `dims` is the number of
/// transformed dimensions (0: any, the n-dimensional forms).
class TP_FftOp<string mnemonic, string summaryText, string resultKind,
               dag sizeAttrs, string example>
    : TP_SingleResultOp<mnemonic, summaryText,
        TP_DtypeRule<"Float", [resultKind]>,
        !con((ins TP_Tensor:$input), sizeAttrs,
             (ins OptionalAttr<StrAttr>:$norm)), "$input", example, [],
        "::mlir::tp::inferFftShape(op)"> {
  let familyDescription =
      "A discrete Fourier transform (torch.fft) over the dimensions `dim`, "
      "with signal sizes `s` (or `n`) trimming or zero-padding the input and "
      "`norm` choosing the scaling (backward, ortho, forward).";
}

defvar TP_Fft1dAttrs = (ins OptionalAttr<I64Attr>:$n,
                            DefaultValuedAttr<I64Attr, "-1">:$dim);
defvar TP_FftNdAttrs = (ins OptionalAttr<DenseI64ArrayAttr>:$s,
                            OptionalAttr<DenseI64ArrayAttr>:$dim);

def TP_FftFftOp : TP_FftOp<"fft_fft", "1-D discrete Fourier transform",
    "Complex", TP_Fft1dAttrs,
    "%r = tp.fft_fft %x : (tensor<8xf32>) -> tensor<8xcomplex<f32>>">;
def TP_FftIfftOp : TP_FftOp<"fft_ifft", "1-D inverse DFT", "Complex",
    TP_Fft1dAttrs,
    "%r = tp.fft_ifft %x : (tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>">;
def TP_FftRfftOp : TP_FftOp<"fft_rfft", "1-D DFT of a real signal (one-sided)",
    "Complex", TP_Fft1dAttrs,
    "%r = tp.fft_rfft %x : (tensor<8xf32>) -> tensor<5xcomplex<f32>>">;
def TP_FftIrfftOp : TP_FftOp<"fft_irfft", "Inverse of rfft (real output)",
    "Real", TP_Fft1dAttrs,
    "%r = tp.fft_irfft %x : (tensor<5xcomplex<f32>>) -> tensor<8xf32>">;
def TP_FftHfftOp : TP_FftOp<"fft_hfft",
    "1-D DFT of a Hermitian-symmetric signal (real output)", "Real",
    TP_Fft1dAttrs,
    "%r = tp.fft_hfft %x : (tensor<5xcomplex<f32>>) -> tensor<8xf32>">;
def TP_FftIhfftOp : TP_FftOp<"fft_ihfft", "Inverse of hfft (one-sided)",
    "Complex", TP_Fft1dAttrs,
    "%r = tp.fft_ihfft %x : (tensor<8xf32>) -> tensor<5xcomplex<f32>>">;
def TP_FftFft2Op : TP_FftOp<"fft_fft2", "2-D discrete Fourier transform",
    "Complex", TP_FftNdAttrs,
    "%r = tp.fft_fft2 %x : (tensor<4x8xf32>) -> tensor<4x8xcomplex<f32>>">;
def TP_FftIfft2Op : TP_FftOp<"fft_ifft2", "2-D inverse DFT", "Complex",
    TP_FftNdAttrs,
    "%r = tp.fft_ifft2 %x : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>">;
def TP_FftRfft2Op : TP_FftOp<"fft_rfft2", "2-D DFT of a real signal",
    "Complex", TP_FftNdAttrs,
    "%r = tp.fft_rfft2 %x : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>">;
def TP_FftIrfft2Op : TP_FftOp<"fft_irfft2", "Inverse of rfft2", "Real",
    TP_FftNdAttrs,
    "%r = tp.fft_irfft2 %x : (tensor<4x5xcomplex<f32>>) -> tensor<4x8xf32>">;
def TP_FftFftnOp : TP_FftOp<"fft_fftn", "N-D discrete Fourier transform",
    "Complex", TP_FftNdAttrs,
    "%r = tp.fft_fftn %x : (tensor<2x4x8xf32>) -> tensor<2x4x8xcomplex<f32>>">;
def TP_FftIfftnOp : TP_FftOp<"fft_ifftn", "N-D inverse DFT", "Complex",
    TP_FftNdAttrs,
    "%r = tp.fft_ifftn %x : (tensor<2x4x8xcomplex<f32>>) -> tensor<2x4x8xcomplex<f32>>">;
def TP_FftRfftnOp : TP_FftOp<"fft_rfftn", "N-D DFT of a real signal",
    "Complex", TP_FftNdAttrs,
    "%r = tp.fft_rfftn %x : (tensor<2x4x8xf32>) -> tensor<2x4x5xcomplex<f32>>">;
def TP_FftIrfftnOp : TP_FftOp<"fft_irfftn", "Inverse of rfftn", "Real",
    TP_FftNdAttrs,
    "%r = tp.fft_irfftn %x : (tensor<2x4x5xcomplex<f32>>) -> tensor<2x4x8xf32>">;

def TP_StftOp : TP_SingleResultOp<"stft", "Short-time Fourier transform",
    TP_DtypeRule<"Float", ["Complex"]>,
    (ins TP_Tensor:$input, I64Attr:$n_fft, OptionalAttr<I64Attr>:$hop_length,
         OptionalAttr<I64Attr>:$win_length, Optional<TP_Tensor>:$window,
         DefaultValuedAttr<BoolAttr, "false">:$normalized,
         OptionalAttr<BoolAttr>:$onesided,
         OptionalAttr<BoolAttr>:$return_complex),
    "$input (`window` `(` $window^ `)`)?",
    "%r = tp.stft %x {hop_length = 4 : i64, n_fft = 16 : i64} : (tensor<64xf32>) -> tensor<9x13xcomplex<f32>>",
    [AttrSizedOperandSegments], "::mlir::tp::inferStftShape(op)">;

def TP_PolarOp : TP_SingleResultOp<"polar",
    "Complex tensor from magnitude and angle", TP_DtypeRule<"Same", ["Complex"]>,
    (ins TP_Tensor:$abs, TP_Tensor:$angle), "$abs `,` $angle",
    "%r = tp.polar %m, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f32>>",
    [], "::mlir::tp::inferElementwiseShape(op, {adaptor.getAbs(), adaptor.getAngle()})">;

def TP_ViewAsComplexOp : TP_SingleResultOp<"view_as_complex",
    "View a (..., 2) real tensor as complex", TP_DtypeRule<"First", ["Complex"]>,
    (ins TP_Tensor:$input), "$input",
    "%r = tp.view_as_complex %x : (tensor<4x2xf32>) -> tensor<4xcomplex<f32>>",
    [], "::mlir::tp::inferViewAsComplexShape(op)">;

def TP_ViewAsRealOp : TP_SingleResultOp<"view_as_real",
    "View a complex tensor as (..., 2) real pairs", TP_DtypeRule<"First", ["Real"]>,
    (ins TP_Tensor:$input), "$input",
    "%r = tp.view_as_real %z : (tensor<4xcomplex<f32>>) -> tensor<4x2xf32>",
    [], "::mlir::tp::inferViewAsRealShape(op)">;

def TP_FakeQuantizePerTensorAffineOp : TP_SingleResultOp<
    "fake_quantize_per_tensor_affine",
    "Quantize and dequantize with one scale and zero point",
    TP_DtypeRule<"First">,
    (ins TP_Tensor:$input, F64Attr:$scale, I64Attr:$zero_point,
         I64Attr:$quant_min, I64Attr:$quant_max),
    "$input",
    "%r = tp.fake_quantize_per_tensor_affine %x {quant_max = 127 : i64, quant_min = -128 : i64, scale = 0.1 : f64, zero_point = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>",
    [], "::mlir::tp::inferFakeQuantizeShape(op)">;

#endif // TENSORPLAY_DIALECT_TP_IR_TPLINALGOPS_TD
