//===- BenchSupport.h - Helpers of the benchmark programs -------*- C++ -*-===//
//
// What tp-cpu-bench and tp-gpu-bench share: a clock, medians, compiling a
// module (or dying with the message), inputs as tp-run --init=fan-in makes
// them, running a function, and interleaved timing of variants.
//
//===----------------------------------------------------------------------===//

#ifndef TENSORPLAY_BENCH_COMMON_BENCHSUPPORT_H
#define TENSORPLAY_BENCH_COMMON_BENCHSUPPORT_H

#include "tensorplay/HostIO/Generate.h"

#include "tensorplay/Compiler/Compiler.h"
#include "tensorplay/Compiler/Executable.h"

#include "mlir/IR/MLIRContext.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace tensorplay::bench {

using namespace mlir;
using namespace mlir::tp;

inline double now() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Compiled {
  MLIRContext context;
  std::unique_ptr<Executable> exe;
};

inline std::unique_ptr<Compiled> compile(const std::string &source, bool isFile,
                                         const CompileOptions &options) {
  auto c = std::make_unique<Compiled>();
  OwningOpRef<ModuleOp> module = isFile ? parseModuleFile(c->context, source)
                                        : parseModuleString(c->context, source);
  if (!module) {
    std::fprintf(stderr, "cannot parse %s\n",
                 isFile ? source.c_str() : "module");
    std::exit(1);
  }
  auto exe = Executable::compile(std::move(module), options);
  if (!exe) {
    std::fprintf(stderr, "%s\n", llvm::toString(exe.takeError()).c_str());
    std::exit(1);
  }
  c->exe = std::move(*exe);
  return c;
}

/// Inputs for `sig` as `tp-run --init=fan-in` makes them: integers in
/// [0, 10) (labels), matrices with PyTorch's Linear init scale, the rest
/// uniform in [-1, 1).
inline std::vector<HostTensor> makeInputs(const FunctionSignature &sig,
                                          std::mt19937_64 &rng) {
  std::vector<HostTensor> inputs;
  for (const TensorSpec &spec : sig.arguments)
    inputs.push_back(generateArgument(spec, InitKind::FanIn, 10, rng));
  return inputs;
}

inline void runOrDie(Executable &exe, const std::string &name,
                     const std::vector<HostTensor> &inputs,
                     std::vector<HostTensor> &results) {
  std::vector<const HostTensor *> args;
  for (const HostTensor &t : inputs)
    args.push_back(&t);
  if (llvm::Error e = exe.run(name, args, results)) {
    std::fprintf(stderr, "%s\n", llvm::toString(std::move(e)).c_str());
    std::exit(1);
  }
}

/// Runs the variants interleaved: `rounds` rounds, each calling every
/// variant `block` times in a row and timing the last of those calls (the
/// ones before it leave the caches as a program calling that function
/// again and again has them); returns the median of each variant.
inline std::vector<double>
interleaved(std::vector<std::function<void()>> variants, int rounds, int warmup,
            int block = 1) {
  std::vector<std::vector<double>> times(variants.size());
  for (int r = 0; r < warmup + rounds; ++r)
    for (size_t v = 0; v < variants.size(); ++v) {
      for (int i = 1; i < block; ++i)
        variants[v]();
      double t0 = now();
      variants[v]();
      double t1 = now();
      if (r >= warmup)
        times[v].push_back(t1 - t0);
    }
  std::vector<double> medians;
  for (auto &t : times)
    medians.push_back(median(t));
  return medians;
}

/// The options both benchmark programs take.
struct BenchArgs {
  int rounds = 21;
  std::string examples;
  bool examplesOnly = false;
};

/// Parses --rounds N, --examples DIR and (when `examplesOnlyFlag`)
/// --examples-only into `args`; prints the usage of `tool` and returns
/// false on anything else or on --rounds below 1.
inline bool parseBenchArgs(int argc, char **argv, const char *tool,
                           bool examplesOnlyFlag, BenchArgs &args) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--rounds" && i + 1 < argc)
      args.rounds = std::atoi(argv[++i]);
    else if (arg == "--examples" && i + 1 < argc)
      args.examples = argv[++i];
    else if (examplesOnlyFlag && arg == "--examples-only")
      args.examplesOnly = true;
    else {
      std::fprintf(stderr, "usage: %s [--rounds N] [--examples DIR]%s\n", tool,
                   examplesOnlyFlag ? " [--examples-only]" : "");
      return false;
    }
  }
  if (args.rounds < 1) {
    std::fprintf(stderr, "%s: --rounds must be at least 1\n", tool);
    return false;
  }
  return true;
}

} // namespace tensorplay::bench

#endif // TENSORPLAY_BENCH_COMMON_BENCHSUPPORT_H
