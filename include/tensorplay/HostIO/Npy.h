//===- Npy.h - Reading and writing .npy files -------------------*- C++ -*-===//
//
// The NumPy .npy format (versions 1.0-3.0, little-endian, C order) for the
// element kinds tp-run passes. NumPy has no bfloat16: a bf16 tensor is
// written as float32 and read from float32 (rounded to nearest even).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_HOSTIO_NPY_H
#define TENSORPLAY_HOSTIO_NPY_H

#include "tensorplay/Compiler/Executable.h"

#include "llvm/Support/Error.h"

namespace mlir {
namespace tp {

/// Reads `path`. With `expected`, the file must hold that shape and dtype
/// (float32 is accepted for bf16 and converted); the error names both.
llvm::Expected<HostTensor> readNpy(llvm::StringRef path,
                                   const TensorSpec *expected = nullptr);

/// Writes `t` to `path` (bf16 as float32).
llvm::Error writeNpy(llvm::StringRef path, const HostTensor &t);

/// The .npy descr string of a kind ("<f4", "|b1", ...).
const char *npyDescr(ElementKind kind);

} // namespace tp
} // namespace mlir

#endif // TENSORPLAY_HOSTIO_NPY_H
