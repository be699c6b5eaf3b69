/*===- ReleaseLLVMStatistics.h - llvm::Statistic as Debian's libLLVM has it -===
 *
 * Force-included (-include) by the instrumented builds (packages.sh,
 * tp_configure_clang22), which compile the project without -DNDEBUG to keep
 * its asserts. llvm/ADT/Statistic.h picks TrackingStatistic without NDEBUG
 * and NoopStatistic with it, and mlir::Pass::Statistic's constructor lives
 * in Debian's release libMLIR, built with NDEBUG: a project TU that saw
 * TrackingStatistic then reads fields the library never initialised (UBSan:
 * "load of value 190 ... bool" in TrackingStatistic::init). Including the
 * header once with NDEBUG defined gives every TU that sees LLVM the
 * library's layout (the others, such as CMake's compiler probes, skip it); the
 * include guard keeps it, and NDEBUG is undefined again for everything else.
 *
 *===----------------------------------------------------------------------===*/
#if defined(__cplusplus) && !defined(NDEBUG) && defined(__has_include)
#if __has_include("llvm/ADT/Statistic.h")
#define NDEBUG
#include "llvm/ADT/Statistic.h"
#undef NDEBUG
#endif
#endif
