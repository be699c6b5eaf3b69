//===- AutocastBench.cpp - Cost of the autocast pass ----------------------===//
//
// Generates synthetic transformer-like tp modules of about 10k, 100k and 1M
// ops and times, in one run, parse + print alone, --cse, --canonicalize and
// --autocast=cuda:fp16 on each (each pass on a freshly parsed module, the
// median of several repetitions). Prints the autocast cost as a ratio to cse
// and its growth per 10x ops. Usage: tp-autocast-bench [max-ops] [reps]
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Dialect/TP/IR/TPDialect.h"
#include "tensorplay/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

using namespace mlir;

/// One encoder-like block per iteration: 15 ops (projections, attention
/// scores, softmax, residual, layer_norm, FFN with gelu).
static std::string generateModule(int64_t targetOps, int64_t &numOps) {
  const char *t = "tensor<16x64xf32>";
  const char *w = "tensor<64x64xf32>";
  const char *s = "tensor<16x16xf32>";
  std::string out;
  out.reserve(targetOps * 130);
  out += "func.func @model(%x: tensor<16x64xf32>, %wq: tensor<64x64xf32>, "
         "%wk: tensor<64x64xf32>, %wo: tensor<64x64xf32>, %g: "
         "tensor<64xf32>, %b: tensor<64xf32>) -> tensor<16x64xf32> {\n";
  std::string cur = "%x";
  numOps = 0;
  char buf[512];
  for (int64_t i = 0; numOps + 15 <= targetOps; ++i) {
    auto emit = [&](const char *fmt, auto... args) {
      std::snprintf(buf, sizeof(buf), fmt, args...);
      out += buf;
      ++numOps;
    };
    const char *c = cur.c_str();
    emit("  %%q%ld = tp.linear %s, %%wq : (%s, %s) -> %s\n", i, c, t, w, t);
    emit("  %%k%ld = tp.linear %s, %%wk : (%s, %s) -> %s\n", i, c, t, w, t);
    emit("  %%kt%ld = tp.transpose %%k%ld {dim0 = 0 : i64, dim1 = 1 : i64} : "
         "(%s) -> tensor<64x16xf32>\n",
         i, i, t);
    emit("  %%s%ld = tp.matmul %%q%ld, %%kt%ld : (%s, tensor<64x16xf32>) -> "
         "%s\n",
         i, i, i, t, s);
    emit("  %%p%ld = tp.softmax %%s%ld {dim = 1 : i64} : (%s) -> %s\n", i, i, s,
         s);
    emit("  %%a%ld = tp.matmul %%p%ld, %%q%ld : (%s, %s) -> %s\n", i, i, i, s,
         t, t);
    emit("  %%o%ld = tp.linear %%a%ld, %%wo : (%s, %s) -> %s\n", i, i, t, w, t);
    emit("  %%r%ld = tp.add %s, %%o%ld : (%s, %s) -> %s\n", i, c, i, t, t, t);
    emit("  %%n%ld = tp.layer_norm %%r%ld weight(%%g) bias(%%b) "
         "{normalized_shape = array<i64: 64>} : (%s, tensor<64xf32>, "
         "tensor<64xf32>) -> %s\n",
         i, i, t, t);
    emit("  %%f%ld = tp.linear %%n%ld, %%wo : (%s, %s) -> %s\n", i, i, t, w, t);
    emit("  %%e%ld = tp.gelu %%f%ld : (%s) -> %s\n", i, i, t, t);
    emit("  %%d%ld = tp.dropout %%e%ld {p = 1.000000e-01 : f64} : (%s) -> %s\n",
         i, i, t, t);
    emit("  %%m%ld = tp.mul %%d%ld, %%n%ld : (%s, %s) -> %s\n", i, i, i, t, t,
         t);
    emit("  %%l%ld = tp.log_softmax %%m%ld {dim = 1 : i64} : (%s) -> %s\n", i,
         i, t, t);
    emit("  %%y%ld = tp.add %%l%ld, %%n%ld : (%s, %s) -> %s\n", i, i, i, t, t,
         t);
    cur = "%y" + std::to_string(i);
  }
  out += "  return " + cur + " : tensor<16x64xf32>\n}\n";
  return out;
}

using Clock = std::chrono::steady_clock;

static double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char **argv) {
  int64_t maxOps = argc > 1 ? std::atoll(argv[1]) : 1000000;
  int reps = argc > 2 ? std::atoi(argv[2]) : 3;
  DialectRegistry registry;
  registry.insert<tp::TPDialect, func::FuncDialect>();
  MLIRContext ctx(registry);
  ctx.disableMultithreading();
  ctx.loadAllAvailableDialects();

  using Setup = std::function<void(PassManager &)>;
  std::vector<std::pair<const char *, Setup>> passes = {
      {"cse", [](PassManager &pm) { pm.addPass(createCSEPass()); }},
      {"canonicalize",
       [](PassManager &pm) { pm.addPass(createCanonicalizerPass()); }},
      {"autocast=cuda:fp16", [](PassManager &pm) {
         tp::AutocastPassOptions options;
         options.target = "cuda:fp16";
         pm.addPass(tp::createAutocastPass(options));
       }}};

  std::printf("%-10s %12s %12s %12s %14s %12s %14s\n", "ops", "parse+print",
              "cse", "canonicalize", "autocast", "autocast/cse", "autocast/op");
  double previousAutocast = 0, previousOps = 0;
  for (int64_t target = 10000; target <= maxOps; target *= 10) {
    int64_t numOps = 0;
    std::string text = generateModule(target, numOps);
    std::vector<double> parsePrint;
    std::vector<std::vector<double>> passTimes(passes.size());
    for (int rep = 0; rep < reps; ++rep) {
      // Interleave the measurements so that machine noise hits all alike.
      auto t0 = Clock::now();
      OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
      if (!module) {
        llvm::errs() << "failed to parse the generated module\n";
        return 1;
      }
      std::string printed;
      llvm::raw_string_ostream os(printed);
      module->print(os);
      parsePrint.push_back(seconds(t0, Clock::now()));
      for (auto [index, pass] : llvm::enumerate(passes)) {
        OwningOpRef<ModuleOp> fresh = parseSourceString<ModuleOp>(text, &ctx);
        PassManager pm(&ctx);
        pm.enableVerifier(false);
        pass.second(pm);
        auto p0 = Clock::now();
        if (failed(pm.run(*fresh))) {
          llvm::errs() << "pass " << pass.first << " failed\n";
          return 1;
        }
        passTimes[index].push_back(seconds(p0, Clock::now()));
      }
    }
    double pp = median(parsePrint), cse = median(passTimes[0]),
           canon = median(passTimes[1]), autocast = median(passTimes[2]);
    std::printf("%-10ld %11.3fs %11.3fs %11.3fs %13.3fs %12.2f %11.2f us",
                numOps, pp, cse, canon, autocast, autocast / cse,
                autocast / numOps * 1e6);
    if (previousAutocast > 0)
      std::printf("   growth x%.1f for x%.1f ops", autocast / previousAutocast,
                  numOps / previousOps);
    std::printf("\n");
    std::fflush(stdout);
    previousAutocast = autocast;
    previousOps = numOps;
  }
  return 0;
}
