//===- ConvertMPIToLLVM.cpp - mpi dialect ops to calls of the MPI library -===//
//
// tp.all_reduce lowers to mpi.allreduce (convert-tp-to-linalg); this pass
// turns the mpi ops into calls of the MPI C API with upstream MLIR's
// MPIToLLVM patterns. They follow the ABI the module names in its
// `dlti.map` ("MPI:Implementation" = "OpenMPI" or "MPICH": handles are
// pointers to library globals in Open MPI, integer constants in MPICH); the
// pass sets it from its `implementation` option when the module does not,
// and that option defaults to the MPI the project was built against. The
// symbols resolve when the program runs in a process linked with that MPI
// (tp-train).
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Codegen/CPU/Passes.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MPIToLLVM/MPIToLLVM.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace tp {
#define GEN_PASS_DEF_TPCONVERTMPITOLLVMPASS
#include "tensorplay/Codegen/CPU/Passes.h.inc"
} // namespace tp
} // namespace mlir

using namespace mlir;

// TP_MPI_IMPLEMENTATION: set by CMake from the MPI it found.
const char *tp::defaultMPIImplementation() {
#ifdef TP_MPI_IMPLEMENTATION
  return TP_MPI_IMPLEMENTATION;
#else
  return "OpenMPI";
#endif
}

namespace {

constexpr llvm::StringLiteral kImplementationKey = "MPI:Implementation";

struct ConvertMPIToLLVMPass
    : public tp::impl::TPConvertMPIToLLVMPassBase<ConvertMPIToLLVMPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool any = false;
    module.walk([&](Operation *op) {
      if (isa<mpi::MPIDialect>(op->getDialect())) {
        any = true;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (!any)
      return;
    if (implementation != "OpenMPI" && implementation != "MPICH") {
      module.emitError("tp-convert-mpi-to-llvm: implementation must be "
                       "OpenMPI or MPICH, got '")
          << implementation << "'";
      return signalPassFailure();
    }
    MLIRContext *ctx = &getContext();
    if (!module->hasAttr(DLTIDialect::kMapAttrName)) {
      auto entry =
          DataLayoutEntryAttr::get(StringAttr::get(ctx, kImplementationKey),
                                   StringAttr::get(ctx, implementation));
      module->setAttr(DLTIDialect::kMapAttrName, MapAttr::get(ctx, {entry}));
    }
    LLVMTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    mpi::populateMPIToLLVMConversionPatterns(converter, patterns);
    ConversionTarget target(*ctx);
    target.addIllegalDialect<mpi::MPIDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    if (failed(renameOpenMPIOps(module)))
      return signalPassFailure();
  }

  /// MLIR 22's patterns declare Open MPI's predefined reduction ops as
  /// `ompi_mpi_sum`, `ompi_mpi_max`, ..., but Open MPI's library exports
  /// them as `ompi_mpi_op_sum`, `ompi_mpi_op_max` (mpi.h: MPI_SUM is
  /// &ompi_mpi_op_sum), so the program would not link. The globals of type
  /// `ompi_predefined_op_t` get the library's names.
  static LogicalResult renameOpenMPIOps(ModuleOp module) {
    SymbolTable symbols(module);
    for (auto global :
         llvm::make_early_inc_range(module.getOps<LLVM::GlobalOp>())) {
      auto type = dyn_cast<LLVM::LLVMStructType>(global.getGlobalType());
      StringRef name = global.getSymName();
      if (!type || !type.isIdentified() ||
          type.getName() != "ompi_predefined_op_t" ||
          !name.starts_with("ompi_mpi_") || name.starts_with("ompi_mpi_op_"))
        continue;
      std::string fixed = ("ompi_mpi_op_" + name.drop_front(9)).str();
      if (failed(symbols.rename(global, fixed)))
        return global.emitError("tp-convert-mpi-to-llvm: cannot rename @")
               << name << " to Open MPI's @" << fixed;
    }
    return success();
  }
};

} // namespace
