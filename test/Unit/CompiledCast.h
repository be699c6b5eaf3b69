//===- CompiledCast.h - compile and run one tp.cast -------------*- C++ -*-===//
//
// Shared by the exhaustive cast tests (Float8CastTest, NarrowFloatCastTest):
// a function @cast holding one tp.cast of a 1-D tensor, compiled for the
// CPU by Executable and run on a HostTensor.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_TEST_UNIT_COMPILEDCAST_H
#define TENSORPLAY_TEST_UNIT_COMPILEDCAST_H

#include "tensorplay/Compiler/Compiler.h"
#include "tensorplay/Compiler/Executable.h"

#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <memory>
#include <string>
#include <vector>

namespace tensorplay_test {

/// The module of `@cast(%x: tensor<n x from>) -> tensor<n x to>`.
inline std::string castModule(const char *from, const char *to, int64_t n,
                              bool saturate = false) {
  std::string shape = std::to_string(n);
  return "func.func @cast(%x: tensor<" + shape + "x" + from + ">) -> tensor<" +
         shape + "x" + to + "> {\n  %y = tp.cast %x " +
         (saturate ? "{saturate} " : "") + ": tensor<" + shape + "x" + from +
         "> to tensor<" + shape + "x" + to + ">\n  return %y : tensor<" +
         shape + "x" + to + ">\n}\n";
}

class CompiledCastTest : public ::testing::Test {
public:
  /// `source` compiled for the CPU; null (with a test failure) if it does
  /// not compile.
  std::unique_ptr<mlir::tp::Executable> compile(const std::string &source) {
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::tp::parseModuleString(ctx, source);
    if (!module) {
      ADD_FAILURE() << "does not parse:\n" << source;
      return nullptr;
    }
    auto exe = mlir::tp::Executable::compile(std::move(module),
                                             mlir::tp::CompileOptions());
    if (!exe) {
      ADD_FAILURE() << llvm::toString(exe.takeError());
      return nullptr;
    }
    return std::move(*exe);
  }
  /// Runs @cast of `exe` on `input`, returning its result.
  mlir::tp::HostTensor run(mlir::tp::Executable &exe,
                           const mlir::tp::HostTensor &input) {
    std::vector<mlir::tp::HostTensor> results;
    llvm::Error error = exe.run("cast", {&input}, results);
    if (error) {
      ADD_FAILURE() << llvm::toString(std::move(error));
      return mlir::tp::HostTensor();
    }
    return results.front();
  }

  mlir::MLIRContext ctx;
};

} // namespace tensorplay_test

#endif // TENSORPLAY_TEST_UNIT_COMPILEDCAST_H
