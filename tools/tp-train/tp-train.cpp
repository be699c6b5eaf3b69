//===- tp-train.cpp - Train a tp module's loss function on .npy data ------===//
//
//   tp-train model.mlir --data=x.npy --data=y.npy [--test-data=...]...
//            [--function=f] [--autocast=cpu:bf16]
//            [--optimizer=sgd|adamw --lr=... --momentum=... ...]
//            [--grad-scaler [--init-scale=65536 --growth-factor=2
//              --backoff-factor=0.5 --growth-interval=2000]]
//            [--steps=N] [--batch=B] [--seed=S] [--print-every=K]
//            [--save=DIR] [--resume=DIR] [--inject-nonfinite=STEP[:RANK]]...
//   mpirun -np N tp-train ... --distributed [--save-all-ranks] [--timeout=S]
//
// Autocasts the module (when asked), builds @f_train_step with tp-train-step
// (forward, backward, GradScaler, fused optimizer in one function),
// compiles it for the CPU and runs it once per step on batches drawn from
// the --data files (one per leading argument of @f, samples along dim 0,
// reshuffled every epoch from --seed). Parameters are the remaining
// arguments, initialised from --seed (weights uniform in +-1/sqrt(fan-in),
// normalization weights one, other vectors zero) or read from --resume. Prints
// the loss, the scale and the skipped steps every --print-every steps, and the
// test accuracy (argmax of @f's second result) on --test-data at the end. The
// step updates the parameters and the optimizer and scaler state in place
// (tp.donate); the bf16/f16 weights of an autocast step are kept as state
// too and written by the optimizer (--param-copies). --save writes the
// parameters, the optimizer and scaler state and the step reached as .npy
// files (not the weight copies: they are the parameters rounded); --resume
// continues from them bit-identically.
//
// --distributed (under mpirun, one process per rank): data parallel. Every
// rank compiles the same step with world-size N (its gradients, loss and
// found_inf all-reduced in the compiled code, tp.all_reduce), starts from
// the same parameters, and trains on its part of each global batch of N x B
// samples (rank r takes rows r*B .. r*B+B-1 of the batch one process would
// draw for N x B), so the ranks keep identical state. Rank 0 prints and
// writes --save (--save-all-ranks: every rank writes DIR/rank<r>/). A step
// or barrier that waits longer than --timeout for the others ends the job
// with an error (Distributed.h).
//
//===----------------------------------------------------------------------===//

#include "Distributed.h"

#include "tensorplay/HostIO/Generate.h"
#include "tensorplay/HostIO/Npy.h"

#include "tensorplay/Codegen/CPU/Donation.h"
#include "tensorplay/Compiler/CompileCacheOption.h"
#include "tensorplay/Compiler/Compiler.h"
#include "tensorplay/Compiler/Executable.h"
#include "tensorplay/Dialect/TP/IR/TPFunctionAttrs.h"
#include "tensorplay/Dialect/TP/IR/TPOps.h"
#include "tensorplay/Runtime/Codegen.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <thread>

using namespace mlir;
using namespace mlir::tp;
namespace cl = llvm::cl;

static cl::OptionCategory category("tp-train options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<module.mlir>"),
                                      cl::Required, cl::cat(category));
static cl::opt<std::string>
    function("function", cl::desc("The loss function (default: the only one)"),
             cl::cat(category));
static cl::list<std::string>
    data("data",
         cl::desc("Training data: one .npy per leading argument of the loss "
                  "function (samples along dim 0)"),
         cl::cat(category));
static cl::list<std::string>
    testData("test-data",
             cl::desc("Test data, like --data: prints the accuracy at the "
                      "end"),
             cl::cat(category));
static cl::opt<std::string>
    autocast("autocast", cl::desc("tp-autocast target (cpu:bf16, cpu:fp16)"),
             cl::cat(category));
static cl::opt<std::string> optimizer("optimizer", cl::desc("sgd or adamw"),
                                      cl::init("sgd"), cl::cat(category));
static cl::opt<double> lr("lr", cl::desc("Learning rate"), cl::init(1e-3),
                          cl::cat(category));
static cl::opt<double> momentum("momentum", cl::desc("SGD momentum"),
                                cl::init(0.0), cl::cat(category));
static cl::opt<double> dampening("dampening", cl::desc("SGD dampening"),
                                 cl::init(0.0), cl::cat(category));
static cl::opt<bool> nesterov("nesterov", cl::desc("SGD Nesterov momentum"),
                              cl::cat(category));
static cl::opt<double>
    weightDecay("weight-decay",
                cl::desc("Weight decay (default: sgd 0, adamw 0.01)"),
                cl::init(-1.0), cl::cat(category));
static cl::opt<double> beta1("beta1", cl::desc("AdamW beta1"), cl::init(0.9),
                             cl::cat(category));
static cl::opt<double> beta2("beta2", cl::desc("AdamW beta2"), cl::init(0.999),
                             cl::cat(category));
static cl::opt<double> eps("eps", cl::desc("AdamW epsilon"), cl::init(1e-8),
                           cl::cat(category));
static cl::opt<bool> amsgrad("amsgrad", cl::desc("AdamW AMSGrad"),
                             cl::cat(category));
static cl::opt<bool> gradScaler("grad-scaler",
                                cl::desc("Dynamic loss scaling (GradScaler)"),
                                cl::cat(category));
static cl::opt<bool> paramCopies(
    "param-copies",
    cl::desc("Keep the bf16/f16 weights of an autocast step as state that "
             "the optimizer writes, instead of casting the f32 parameters "
             "in every forward (tp-train-step param-copies; same numbers). "
             "Default on; --param-copies=false casts"),
    cl::init(true), cl::cat(category));
static cl::opt<double> initScale("init-scale",
                                 cl::desc("GradScaler initial scale"),
                                 cl::init(65536.0), cl::cat(category));
static cl::opt<double> growthFactor("growth-factor",
                                    cl::desc("GradScaler growth factor"),
                                    cl::init(2.0), cl::cat(category));
static cl::opt<double> backoffFactor("backoff-factor",
                                     cl::desc("GradScaler backoff factor"),
                                     cl::init(0.5), cl::cat(category));
static cl::opt<int64_t>
    growthInterval("growth-interval",
                   cl::desc("GradScaler growth interval (steps)"),
                   cl::init(2000), cl::cat(category));
static cl::opt<int64_t> steps("steps", cl::desc("Steps to reach"),
                              cl::init(100), cl::cat(category));
static cl::opt<int64_t>
    batch("batch",
          cl::desc("Batch size (must be the loss function's dim 0; default: "
                   "that)"),
          cl::init(0), cl::cat(category));
static cl::opt<uint64_t> seed("seed",
                              cl::desc("Seed of the initial parameters and "
                                       "of the data order"),
                              cl::init(0), cl::cat(category));
static cl::opt<int64_t> printEvery("print-every",
                                   cl::desc("Print every N steps"),
                                   cl::init(10), cl::cat(category));
static cl::opt<std::string>
    saveDir("save", cl::desc("Write parameters and state to DIR at the end"),
            cl::cat(category));
static cl::opt<std::string>
    resumeDir("resume", cl::desc("Continue from the state --save wrote"),
              cl::cat(category));
static cl::list<std::string>
    injectNonFinite("inject-nonfinite",
                    cl::desc("Put an inf into the batch of step N, with "
                             "--distributed of rank RANK only (N[:RANK]; "
                             "repeatable; needs --grad-scaler)"),
                    cl::cat(category));
static cl::opt<bool> distributed(
    "distributed",
    cl::desc("Data parallel under mpirun -np N: every rank trains on its "
             "part of each global batch of N x batch samples; gradients, "
             "loss and found_inf are all-reduced in the compiled step"),
    cl::cat(category));
static cl::opt<bool> overlap(
    "overlap",
    cl::desc("With --distributed: start each bucket's all-reduce as soon as "
             "the backward has made its gradients (on a communication "
             "thread) and wait for it only before the optimizer"),
    cl::cat(category));
static cl::opt<int64_t> bucketBytes(
    "bucket-bytes",
    cl::desc("With --distributed: the most gradient bytes one all-reduce "
             "carries (default 25 MiB)"),
    cl::init(25 * 1024 * 1024), cl::cat(category));
static cl::opt<bool>
    saveAllRanks("save-all-ranks",
                 cl::desc("With --distributed and --save=DIR: every rank "
                          "writes DIR/rank<r>/ (to compare the replicas)"),
                 cl::cat(category));
static cl::opt<double> timeout(
    "timeout",
    cl::desc("With --distributed: seconds a step or barrier may wait for "
             "the other ranks before the job ends with an error (a rank "
             "died or hangs; 0: wait forever)"),
    cl::init(300.0), cl::cat(category));
static cl::list<std::string> simulateFailure(
    "simulate-failure",
    cl::desc("Testing aid for --distributed: STEP:RANK:exit makes rank RANK "
             "exit (status 3) before step STEP, STEP:RANK:hang makes it "
             "stop responding there"),
    cl::cat(category));
static cl::opt<std::string>
    pipelineOptions("pipeline-options",
                    cl::desc("The pipeline's options (tp-lower-to-cpu, or "
                             "tp-lower-to-nvvm with --device=cuda)"),
                    cl::cat(category));
static cl::opt<ExecutionTarget> device(
    "device", cl::desc("Where the train step computes"),
    cl::values(clEnumValN(ExecutionTarget::CPU, "cpu", "the host CPU"),
               clEnumValN(ExecutionTarget::CUDA, "cuda",
                          "a CUDA GPU (tp-lower-to-nvvm; parameters, state "
                          "and batches are copied to the device and back "
                          "each step)")),
    cl::init(ExecutionTarget::CPU), cl::cat(category));
static cl::opt<unsigned> threads("num-threads",
                                 cl::desc("Threads (0: all cores)"),
                                 cl::init(0), cl::cat(category));

/// "rank R: " in a distributed run (errors name the rank they happened on).
static std::string rankPrefix;

static int failWith(const llvm::Twine &message) {
  llvm::errs() << "tp-train: " << rankPrefix << message << "\n";
  return 1;
}

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The layout tp-train-step recorded on @f_train_step.
struct Layout {
  std::string function;
  unsigned numInputs = 0;
  std::vector<int64_t> params;
  std::vector<std::string> state;
  bool gradScaler = false;
  /// Per parameter: whether it is a normalization's weight (initialised to
  /// ones, as PyTorch's LayerNorm, GroupNorm and BatchNorm are).
  std::vector<bool> normalizationWeight;
  /// The parameters (0-based numbers) whose low-precision copies are the
  /// step's last state arguments (param-copies), in order.
  std::vector<int64_t> paramCopies;
};

/// Whether `value` (through autocast's casts) is the weight of a
/// layer_norm, group_norm or batch_norm.
static bool isNormalizationWeight(Value value) {
  for (Operation *user : value.getUsers()) {
    if (auto cast = dyn_cast<CastOp>(user)) {
      if (isNormalizationWeight(cast.getResult()))
        return true;
      continue;
    }
    Value weight;
    if (auto ln = dyn_cast<LayerNormOp>(user))
      weight = ln.getWeight();
    else if (auto gn = dyn_cast<GroupNormOp>(user))
      weight = gn.getWeight();
    else if (auto bn = dyn_cast<BatchNormOp>(user))
      weight = bn.getWeight();
    if (weight == value)
      return true;
  }
  return false;
}

static llvm::Expected<Layout> readLayout(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func->hasAttr(kTrainStepAttrName))
      continue;
    // (The dialect verified it when the module was parsed.)
    std::optional<TrainStepLayout> step = getTrainStep(func);
    if (!step)
      return error("malformed tp.train_step on @" + func.getName());
    Layout layout;
    layout.function = step->function.str();
    layout.numInputs = step->numInputs;
    layout.params.assign(step->params.begin(), step->params.end());
    for (StringRef name : step->state)
      layout.state.push_back(name.str());
    layout.gradScaler = step->gradScaler;
    if (step->paramCopies)
      layout.paramCopies.assign(step->paramCopies->begin(),
                                step->paramCopies->end());
    for (size_t i = 0; i < layout.params.size(); ++i)
      layout.normalizationWeight.push_back(isNormalizationWeight(
          func.getArgument(layout.numInputs + static_cast<unsigned>(i))));
    return layout;
  }
  return error("tp-train-step built no train step");
}

/// A dataset: one tensor per leading argument, samples along dim 0.
struct Dataset {
  std::vector<HostTensor> columns;
  int64_t size = 0;
};

static llvm::Expected<Dataset>
readDataset(const std::vector<std::string> &paths, const FunctionSignature &sig,
            unsigned numInputs, const char *what) {
  if (paths.size() != numInputs)
    return error(llvm::Twine(what) + ": @" + sig.name + " takes " +
                 llvm::Twine(numInputs) + " batch arguments, got " +
                 llvm::Twine(paths.size()) + " files");
  Dataset set;
  for (unsigned i = 0; i < numInputs; ++i) {
    auto t = readNpy(paths[i]);
    if (!t)
      return t.takeError();
    const TensorSpec &spec = sig.arguments[i];
    std::vector<int64_t> trailing(spec.shape.begin() + 1, spec.shape.end());
    if (t->kind() != spec.kind || t->shape().empty() ||
        std::vector<int64_t>(t->shape().begin() + 1, t->shape().end()) !=
            trailing)
      return error(paths[i] + ": expected " + elementKindName(spec.kind) +
                   " samples of shape [N" +
                   [&] {
                     std::string s;
                     for (int64_t d : trailing)
                       s += ", " + std::to_string(d);
                     return s;
                   }() +
                   "], got a " + elementKindName(t->kind()) +
                   " array of rank " + std::to_string(t->shape().size()));
    if (i > 0 && t->shape()[0] != set.size)
      return error(paths[i] + " has " + std::to_string(t->shape()[0]) +
                   " samples, " + paths[0] + " " + std::to_string(set.size));
    set.size = t->shape()[0];
    set.columns.push_back(std::move(*t));
  }
  return set;
}

/// Copies samples `rows` of every column into `batch` (one tensor each).
static void gather(const Dataset &set, const std::vector<int64_t> &rows,
                   std::vector<HostTensor> &batch) {
  for (size_t c = 0; c < set.columns.size(); ++c) {
    const HostTensor &column = set.columns[c];
    size_t rowBytes = column.byteSize() / column.shape()[0];
    auto *dst = static_cast<uint8_t *>(batch[c].data());
    const auto *src = static_cast<const uint8_t *>(column.data());
    for (size_t r = 0; r < rows.size(); ++r)
      std::memcpy(dst + r * rowBytes, src + rows[r] * rowBytes, rowBytes);
  }
}

/// An --inject-nonfinite entry: the step, and the rank (-1: every rank).
struct Injection {
  int64_t step;
  int rank;
};

/// A --simulate-failure entry.
struct SimulatedFailure {
  int64_t step;
  int rank;
  bool hang;
};

/// Parses "N[:RANK]" (--inject-nonfinite; `hang` null) or
/// "N:RANK:exit|hang" (--simulate-failure; `*hang` says which).
static bool parseStepRank(llvm::StringRef text, int64_t &step, int &rank,
                          bool *hang) {
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ':');
  rank = -1;
  if (parts.empty() || parts[0].getAsInteger(10, step) || step < 1)
    return false;
  if (hang) {
    if (parts.size() != 3 || parts[1].getAsInteger(10, rank) || rank < 0 ||
        (parts[2] != "exit" && parts[2] != "hang"))
      return false;
    *hang = parts[2] == "hang";
    return true;
  }
  if (parts.size() > 2 ||
      (parts.size() == 2 && (parts[1].getAsInteger(10, rank) || rank < 0)))
    return false;
  return true;
}

/// The samples of `step` (1-based): epoch e = (step-1) / (N / B) visits a
/// permutation of the samples drawn from (seed, e) by Fisher-Yates with
/// SplitMix64, so that a resumed run draws the same batches.
static std::vector<int64_t> batchRows(int64_t step, int64_t n, int64_t b) {
  int64_t perEpoch = n / b;
  int64_t epoch = (step - 1) / perEpoch, within = (step - 1) % perEpoch;
  std::vector<int64_t> order(n);
  for (int64_t i = 0; i < n; ++i)
    order[i] = i;
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + epoch + 1;
  auto next = [&]() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  for (int64_t i = n - 1; i > 0; --i)
    std::swap(order[i], order[next() % (uint64_t)(i + 1)]);
  return std::vector<int64_t>(order.begin() + within * b,
                              order.begin() + (within + 1) * b);
}

/// Accuracy of @f's second result (logits [B, C]) on `set`, batch by batch
/// (the last one padded with the first samples, which are not counted).
static llvm::Expected<double>
testAccuracy(Executable &exe, const FunctionSignature &sig, const Dataset &set,
             const std::vector<HostTensor> &params, unsigned numInputs,
             int64_t b) {
  if (sig.results.size() < 2 || sig.results[1].shape.size() != 2 ||
      sig.arguments[1].kind != ElementKind::I64)
    return error("--test-data needs @" + sig.name +
                 " to take class labels (i64) second and to return logits "
                 "[B, C] second");
  std::vector<HostTensor> inputs;
  for (unsigned i = 0; i < numInputs; ++i)
    inputs.emplace_back(sig.arguments[i].kind, sig.arguments[i].shape);
  int64_t correct = 0;
  for (int64_t start = 0; start < set.size; start += b) {
    std::vector<int64_t> rows;
    for (int64_t r = 0; r < b; ++r)
      rows.push_back(start + r < set.size ? start + r : r % set.size);
    gather(set, rows, inputs);
    std::vector<const HostTensor *> args;
    for (const HostTensor &t : inputs)
      args.push_back(&t);
    for (const HostTensor &t : params)
      args.push_back(&t);
    std::vector<HostTensor> results;
    if (llvm::Error e = exe.run(sig.name, args, results))
      return std::move(e);
    const HostTensor &logits = results[1];
    int64_t classes = logits.shape()[1];
    for (int64_t r = 0; r < b && start + r < set.size; ++r) {
      int64_t best = 0;
      for (int64_t c = 1; c < classes; ++c)
        if (logits.get(r * classes + c) > logits.get(r * classes + best))
          best = c;
      correct += best == set.columns[1].as<int64_t>()[start + r];
    }
  }
  return double(correct) / double(set.size);
}

static std::string joinPath(llvm::StringRef dir, const llvm::Twine &name) {
  llvm::SmallString<256> p(dir);
  llvm::sys::path::append(p, name);
  return p.str().str();
}

/// The files of a saved state: the parameters, their optimizer state, the
/// scaler state, in the order of the train step's arguments after the
/// batch.
static std::vector<std::string> stateFiles(const Layout &layout) {
  std::vector<std::string> names;
  for (int64_t p : layout.params)
    names.push_back("arg" + std::to_string(p) + ".npy");
  for (int64_t p : layout.params)
    for (const std::string &s : layout.state)
      names.push_back("arg" + std::to_string(p) + "." + s + ".npy");
  if (layout.gradScaler) {
    names.push_back("scale.npy");
    names.push_back("growth_tracker.npy");
  }
  return names;
}

static void hideForeignOptions() {
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.second;
    if (!llvm::is_contained(option->Categories, &category) &&
        !isCompileCacheOption(option) && entry.first != "help" &&
        entry.first != "version")
      option->setHiddenFlag(cl::ReallyHidden);
  }
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  hideForeignOptions();
  cl::ParseCommandLineOptions(argc, argv,
                              "tp-train: train a tp module's loss function "
                              "as one compiled step per batch\n");
  if (data.empty())
    return failWith("--data is required (one .npy per batch argument)");
  if (steps < 0 || printEvery <= 0)
    return failWith("--steps must be >= 0 and --print-every > 0");
  if (!injectNonFinite.empty() && !gradScaler)
    return failWith("--inject-nonfinite needs --grad-scaler (without it the "
                    "step would apply the non-finite gradients)");
  std::vector<Injection> injections;
  for (const std::string &text : injectNonFinite) {
    Injection inj{};
    if (!parseStepRank(text, inj.step, inj.rank, nullptr))
      return failWith("--inject-nonfinite=" + text +
                      ": expected STEP or STEP:RANK (STEP >= 1)");
    injections.push_back(inj);
  }
  std::vector<SimulatedFailure> failures;
  for (const std::string &text : simulateFailure) {
    SimulatedFailure f{};
    if (!parseStepRank(text, f.step, f.rank, &f.hang))
      return failWith("--simulate-failure=" + text +
                      ": expected STEP:RANK:exit or STEP:RANK:hang");
    failures.push_back(f);
  }
  if (!distributed && (saveAllRanks || overlap || !failures.empty()))
    return failWith(std::string(saveAllRanks ? "--save-all-ranks"
                                : overlap    ? "--overlap"
                                             : "--simulate-failure") +
                    " needs --distributed");
  if (saveAllRanks && saveDir.empty())
    return failWith("--save-all-ranks needs --save=DIR");
  if (distributed && device != ExecutionTarget::CPU)
    return failWith("--distributed trains on the CPU (the collectives are "
                    "MPI calls from the compiled host code)");
  if (!(timeout >= 0.0))
    return failWith("--timeout must be >= 0 seconds");
  auto world = tp_train::startWorld(distributed, overlap);
  if (!world)
    return failWith(llvm::toString(world.takeError()));
  const int rank = world->rank;
  const bool speaker = rank == 0;
  if (world->distributed)
    rankPrefix = "rank " + std::to_string(rank) + " of " +
                 std::to_string(world->size) + ": ";
  for (const Injection &inj : injections)
    if (inj.rank >= world->size)
      return failWith("--inject-nonfinite: rank " + std::to_string(inj.rank) +
                      " does not exist (" + std::to_string(world->size) +
                      " ranks)");
  tp_train::Watchdog watchdog(*world, timeout);
  if (gradScaler && !(initScale > 0.0 && std::isfinite(initScale)))
    return failWith("--init-scale must be a finite number > 0");
  if (threads > 0 && tp_rt_set_num_threads((int32_t)std::min<unsigned>(
                         threads, INT32_MAX)) != TP_RT_SUCCESS)
    return failWith("--num-threads must be from 1 to 1024 (0: all cores)");

  auto compileStart = std::chrono::steady_clock::now();
  MLIRContext context;
  std::string message;
  auto source = parseSourceFileModule(context, inputFile, message);
  if (!source)
    return failWith(message);
  OwningOpRef<ModuleOp> module = std::move(source->module);
  if (!autocast.empty() && failed(autocastModule(*module, autocast)))
    return failWith("tp-autocast failed");
  TrainStepPassOptions stepOptions;
  stepOptions.function = function;
  stepOptions.numInputs = data.size();
  stepOptions.optimizer = optimizer;
  stepOptions.lr = lr;
  stepOptions.momentum = momentum;
  stepOptions.dampening = dampening;
  stepOptions.nesterov = nesterov;
  stepOptions.weightDecay = weightDecay;
  stepOptions.beta1 = beta1;
  stepOptions.beta2 = beta2;
  stepOptions.eps = eps;
  stepOptions.amsgrad = amsgrad;
  stepOptions.gradScaler = gradScaler;
  stepOptions.growthFactor = growthFactor;
  stepOptions.backoffFactor = backoffFactor;
  stepOptions.growthInterval = growthInterval;
  stepOptions.paramCopies = paramCopies;
  stepOptions.worldSize = world->size;
  stepOptions.bucketBytes = bucketBytes;
  stepOptions.overlap = overlap;
  if (failed(trainStepModule(*module, stepOptions)))
    return failWith("tp-train-step failed");
  auto layout = readLayout(*module);
  if (!layout)
    return failWith(llvm::toString(layout.takeError()));
  // The step updates the parameters and the optimizer and scaler state in
  // place: its results after the loss are donated to the state arguments
  // (the compiled code then neither copies nor returns them).
  {
    auto stepFunc =
        module->lookupSymbol<func::FuncOp>(layout->function + "_train_step");
    unsigned numState = stepFunc.getNumArguments() - layout->numInputs;
    SmallVector<int64_t> donate(stepFunc.getNumResults(), -1);
    for (unsigned i = 0; i < numState; ++i)
      donate[1 + i] = layout->numInputs + i;
    stepFunc->setAttr(kDonateAttrName,
                      DenseI64ArrayAttr::get(&context, donate));
  }
  CompileOptions compileOptions;
  compileOptions.target = device;
  compileOptions.pipelineOptions = pipelineOptions;
  std::string cacheError;
  compileOptions.cache = compileCacheFromOptions(cacheError);
  if (!cacheError.empty())
    return failWith(cacheError);
  auto exe = Executable::compile(std::move(module), compileOptions);
  if (!exe)
    return failWith(llvm::toString(exe.takeError()));
  if (device == ExecutionTarget::CUDA)
    if (llvm::Error e = requireCudaDevice())
      return failWith("--device=cuda: the train step compiled for the GPU, "
                      "but " +
                      llvm::toString(std::move(e)));
  double compileSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - compileStart)
                              .count();
  const FunctionSignature *forward = (*exe)->lookup(layout->function);
  const FunctionSignature *step =
      (*exe)->lookup(layout->function + "_train_step");
  if (!forward || !step)
    return failWith("internal error: the compiled module lacks @" +
                    layout->function + " or its train step");

  unsigned k = layout->numInputs;
  int64_t b =
      step->arguments[0].shape.empty() ? 0 : step->arguments[0].shape[0];
  if (b <= 0)
    return failWith("the loss function's first argument must have a batch "
                    "dimension first");
  if (batch != 0 && batch != b)
    return failWith("--batch=" + llvm::Twine(batch.getValue()) + " but @" +
                    layout->function + " is compiled for batch " +
                    llvm::Twine(b) +
                    " (shapes are static: write the module for that batch)");
  auto train = readDataset(data, *step, k, "--data");
  if (!train)
    return failWith(llvm::toString(train.takeError()));
  // The global batch: one batch per rank.
  int64_t globalBatch = b * world->size;
  if (train->size < globalBatch)
    return failWith("--data has " + llvm::Twine(train->size) +
                    " samples, fewer than one " +
                    (world->distributed ? "global " : "") + "batch of " +
                    llvm::Twine(globalBatch));
  std::optional<Dataset> test;
  if (!testData.empty()) {
    auto t = readDataset(testData, *step, k, "--test-data");
    if (!t)
      return failWith(llvm::toString(t.takeError()));
    if (t->size == 0)
      return failWith("--test-data has no samples");
    test = std::move(*t);
  }

  // The state: the train step's arguments after the batch.
  std::vector<HostTensor> state;
  std::vector<std::string> files = stateFiles(*layout);
  int64_t done = 0;
  if (!resumeDir.empty()) {
    for (size_t i = 0; i < files.size(); ++i) {
      auto t = readNpy(joinPath(resumeDir, files[i]), &step->arguments[k + i]);
      if (!t)
        return failWith("--resume: " + llvm::toString(t.takeError()));
      state.push_back(std::move(*t));
    }
    auto progress =
        llvm::MemoryBuffer::getFile(joinPath(resumeDir, "progress.txt"));
    unsigned long long savedSeed = 0;
    long long savedSteps = 0;
    if (!progress ||
        std::sscanf((*progress)->getBufferStart(), "steps %lld seed %llu",
                    &savedSteps, &savedSeed) != 2)
      return failWith("--resume: cannot read " +
                      joinPath(resumeDir, "progress.txt"));
    if (savedSeed != seed)
      return failWith("--resume: the state was trained with --seed=" +
                      llvm::Twine(savedSeed) +
                      "; resume with the same seed "
                      "to draw the same batches");
    done = savedSteps;
  } else {
    std::mt19937_64 rng(seed);
    for (size_t i = 0; i < files.size(); ++i) {
      const TensorSpec &spec = step->arguments[k + i];
      if (i < layout->params.size() && spec.shape.size() >= 2) {
        state.push_back(generateArgument(spec, InitKind::FanIn, 1, rng));
        continue;
      }
      state.emplace_back(spec.kind, spec.shape); // zeros
      if (i < layout->params.size() && layout->normalizationWeight[i])
        for (int64_t j = 0; j < state.back().numElements(); ++j)
          state.back().set(j, 1.0);
    }
    if (layout->gradScaler)
      state[state.size() - 2].set(0, initScale);
  }
  // The parameter copies (not saved): each parameter rounded, which the
  // step keeps true.
  for (size_t j = 0; j < layout->paramCopies.size(); ++j) {
    const HostTensor &param = state[layout->paramCopies[j]];
    HostTensor copy(step->arguments[k + files.size() + j].kind, param.shape());
    for (int64_t i = 0; i < param.numElements(); ++i)
      copy.set(i, param.get(i));
    state.push_back(std::move(copy));
  }

  // Every rank compiled; the first step's collective would otherwise count
  // a slower peer's compile time as waiting.
  watchdog.enter("the barrier before step", done + 1);
  tp_train::barrier(*world);
  watchdog.leave();
  if (speaker) {
    std::printf("tp-train: @%s, %zu parameters, %s, %s%s, batch %lld, "
                "%lld samples; compiled in %.2f s\n",
                layout->function.c_str(), layout->params.size(),
                autocast.empty() ? "f32" : autocast.c_str(), optimizer.c_str(),
                layout->gradScaler ? " + GradScaler" : "", (long long)b,
                (long long)train->size, compileSeconds);
    if (world->distributed)
      std::printf("data parallel: %d ranks (%s), global batch %lld\n",
                  world->size, tp_train::mpiLibraryVersion().c_str(),
                  (long long)globalBatch);
  }
  std::vector<HostTensor> inputs;
  for (unsigned i = 0; i < k; ++i)
    inputs.emplace_back(step->arguments[i].kind, step->arguments[i].shape);
  size_t numParams = layout->params.size();
  int64_t skipped = 0;
  double lossSum = 0;
  int64_t lossCount = 0;
  auto trainStart = std::chrono::steady_clock::now();
  std::vector<HostTensor> results;
  std::vector<double> stepTimes;
  for (int64_t s = done + 1; s <= steps; ++s) {
    for (const SimulatedFailure &f : failures) {
      if (f.step != s || f.rank != rank)
        continue;
      std::fprintf(stderr,
                   "tp-train: %s--simulate-failure: %s before step "
                   "%lld\n",
                   rankPrefix.c_str(), f.hang ? "hanging" : "exiting",
                   (long long)s);
      std::fflush(stderr);
      std::fflush(stdout);
      if (!f.hang)
        std::_Exit(3);
      for (;;)
        std::this_thread::sleep_for(std::chrono::seconds(60));
    }
    std::vector<int64_t> rows = batchRows(s, train->size, globalBatch);
    gather(*train,
           std::vector<int64_t>(rows.begin() + rank * b,
                                rows.begin() + (rank + 1) * b),
           inputs);
    bool inject = llvm::any_of(injections, [&](const Injection &inj) {
      return inj.step == s && (inj.rank < 0 || inj.rank == rank);
    });
    if (inject) {
      if (inputs[0].kind() == ElementKind::I64 ||
          inputs[0].kind() == ElementKind::I32)
        return failWith("--inject-nonfinite needs a floating first input");
      inputs[0].set(0, std::numeric_limits<double>::infinity());
    }
    std::vector<const HostTensor *> args;
    for (const HostTensor &t : inputs)
      args.push_back(&t);
    for (const HostTensor &t : state)
      args.push_back(&t);
    auto stepStart = std::chrono::steady_clock::now();
    watchdog.enter("step", s);
    if (llvm::Error e = (*exe)->run(step->name, args, results))
      return failWith("step " + llvm::Twine(s) + ": " +
                      llvm::toString(std::move(e)));
    watchdog.leave();
    stepTimes.push_back(std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - stepStart)
                            .count());
    double loss = results[0].get(0);
    bool found = layout->gradScaler && results.back().get(0) != 0.0;
    skipped += found;
    if (std::isfinite(loss)) {
      lossSum += loss;
      ++lossCount;
    }
    // (The state was updated in place.)
    if (inject && !speaker)
      std::printf("step %5lld  %sinjected an inf into its batch\n",
                  (long long)s, rankPrefix.c_str());
    if (speaker && (inject || found))
      std::printf("step %5lld  %s%s\n", (long long)s,
                  inject ? "injected an inf into the batch; " : "",
                  found ? "found_inf: step skipped" : "no inf found");
    if (speaker && (s % printEvery == 0 || s == steps)) {
      std::printf("step %5lld  loss %.6f", (long long)s,
                  lossCount ? lossSum / lossCount : loss);
      if (layout->gradScaler)
        std::printf("  scale %g  skipped %lld", state[files.size() - 2].get(0),
                    (long long)skipped);
      std::printf("\n");
      lossSum = 0;
      lossCount = 0;
    }
  }
  double trainSeconds = std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - trainStart)
                            .count();
  int64_t ran = std::max<int64_t>(0, steps - done);
  if (speaker)
    std::printf("trained %lld steps in %.2f s, %d threads", (long long)ran,
                trainSeconds, (int)tp_rt_num_threads());
  if (speaker && world->distributed)
    std::printf(" per rank x %d ranks", world->size);
  // The median step after the first (the first call also generates code
  // and creates the oneDNN primitives); the only one when there is one.
  double medianStep = 0;
  if (!stepTimes.empty()) {
    std::vector<double> later(stepTimes.begin() + (stepTimes.size() > 1),
                              stepTimes.end());
    std::sort(later.begin(), later.end());
    medianStep = later[later.size() / 2];
  }
  if (speaker && stepTimes.size() >= 2)
    std::printf(": first step %.1f ms (with the JIT's code generation), "
                "then median %.3f ms/step",
                stepTimes[0], medianStep);
  if (speaker)
    std::printf("\n");
  if (world->distributed && !stepTimes.empty()) {
    // The step's all-reduce (gradients, loss, found_inf), timed alone.
    int64_t floats = 1 + layout->gradScaler;
    for (size_t i = 0; i < numParams; ++i) {
      int64_t n = 1;
      for (int64_t d : step->arguments[k + i].shape)
        n *= d;
      floats += n;
    }
    watchdog.enter("the collective timing after step", steps);
    double ms = tp_train::timeAllReduce(*world, floats, 50);
    watchdog.leave();
    if (speaker)
      std::printf("all-reduce of %lld bytes per step: median %.3f ms alone "
                  "(%.1f%% of the median step)\n",
                  (long long)(floats * 4), ms, 100.0 * ms / medianStep);
    tp_train::OverlapStats o = tp_train::overlapStats();
    if (speaker && overlap && o.reductions > 0 && o.runMs > 0)
      std::printf("overlap: %lld all-reduces, %.3f ms each on the "
                  "communication thread, %.3f ms of it waited for by the "
                  "step (%.0f%% hidden behind the backward)\n",
                  (long long)o.reductions, o.runMs / o.reductions,
                  o.waitMs / o.reductions,
                  std::max(0.0, 100.0 * (1.0 - o.waitMs / o.runMs)));
  }

  if (test && speaker) {
    std::vector<HostTensor> params(state.begin(), state.begin() + numParams);
    auto accuracy = testAccuracy(**exe, *forward, *test, params, k, b);
    if (!accuracy)
      return failWith(llvm::toString(accuracy.takeError()));
    std::printf("test accuracy %.2f%% (%lld samples)\n", 100.0 * *accuracy,
                (long long)test->size);
  }
  // Rank 0 writes --save; with --save-all-ranks every rank also writes
  // its own replica to DIR/rank<r>/.
  std::vector<std::string> saveDirs;
  if (!saveDir.empty() && speaker)
    saveDirs.push_back(saveDir);
  if (!saveDir.empty() && saveAllRanks)
    saveDirs.push_back(joinPath(saveDir, "rank" + std::to_string(rank)));
  for (const std::string &dir : saveDirs) {
    if (std::error_code ec = llvm::sys::fs::create_directories(dir))
      return failWith("--save: cannot create " + dir + ": " + ec.message());
    for (size_t i = 0; i < files.size(); ++i)
      if (llvm::Error e = writeNpy(joinPath(dir, files[i]), state[i]))
        return failWith("--save: " + llvm::toString(std::move(e)));
    std::string progress = joinPath(dir, "progress.txt");
    std::error_code ec;
    llvm::raw_fd_ostream os(progress, ec);
    if (ec)
      return failWith("--save: cannot write " + progress + ": " + ec.message());
    os << "steps " << std::max<int64_t>(steps, done) << " seed " << seed
       << "\n";
  }
  std::fflush(stdout);
  watchdog.enter("the barrier after step", steps);
  tp_train::barrier(*world);
  watchdog.leave();
  tp_train::finishWorld(*world);
  return 0;
}
