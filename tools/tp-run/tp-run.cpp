//===- tp-run.cpp - Compile a tp module and run its functions -------------===//
//
//   tp-run model.mlir [--entry=f]... [--input=x.npy]... [--seed=N]
//          [--init=uniform|fan-in] [--npy-dir=DIR [--input-sets]]
//          [--output-dir=DIR] [--print]
//          [--autocast=cpu:bf16] [--repeat=N --warmup=M]
//          [--pipeline-options="use-onednn=0"] [--num-threads=N]
//          [--device=cpu|cuda] [--dynamic-size=N]
//
// Compiles the module with tp-lower-to-cpu (after autocast when asked),
// JIT-compiles it for the host and runs each entry function. With
// --device=cuda it compiles with tp-lower-to-nvvm and runs on the GPU
// (inputs copied to device buffers, results back); without a GPU it says
// so after compiling and exits 1. Arguments come
// from --input files (in order, for a single entry), from
// <npy-dir>/<entry>.arg<i>.npy, or are generated from --seed (Generate.h:
// floats uniform in [-1, 1), or scaled by 1/sqrt(last dim) with
// --init=fan-in; integers in [0, --int-max)). Results go to
// <output-dir or npy-dir>/<entry>.out<k>.npy and/or stdout (--print);
// --input-sets runs each entry again on every input set
// <npy-dir>/<entry>@<tag>.arg<i>.npy (one compile, many inputs: results
// <entry>@<tag>.out<k>.npy); with
// --repeat, the timings of the repeated runs are printed (on the CPU
// they write into one set of result buffers allocated before them: the
// time is the compiled code's alone). A function with
// `?` argument dimensions is first specialized to its input files' shapes
// (or every `?` to --dynamic-size for generated arguments), with
// tp-specialize-shapes: compiled for those shapes, as if written so. Every
// failure
// (parse, unknown function, wrong .npy shape or dtype, an op without a CPU
// lowering, a runtime error) is a message on stderr and exit status 1.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/HostIO/Generate.h"
#include "tensorplay/HostIO/Npy.h"

#include "tensorplay/Compiler/CompileCacheOption.h"
#include "tensorplay/Compiler/Compiler.h"
#include "tensorplay/Compiler/Executable.h"
#include "tensorplay/Dialect/TP/IR/TPDialect.h"
#include "tensorplay/Runtime/Codegen.h"
#include "tensorplay/Transforms/SpecializeShapes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>

using namespace mlir;
using namespace mlir::tp;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<module.mlir>"),
                                      cl::Required);
static cl::list<std::string> entries("entry",
                                     cl::desc("Function to run (repeatable; "
                                              "default: every public one)"));
static cl::list<std::string>
    inputs("input", cl::desc("An argument .npy file, in order (one entry)"));
static cl::opt<std::string>
    npyDir("npy-dir", cl::desc("Read <dir>/<entry>.arg<i>.npy where present, "
                               "write <dir>/<entry>.out<k>.npy"));
static cl::opt<bool> inputSets(
    "input-sets",
    cl::desc("With --npy-dir: also run each entry once per input set "
             "<dir>/<entry>@<tag>.arg<i>.npy (every argument given), "
             "writing <entry>@<tag>.out<k>.npy: one compile, many inputs"));
static cl::opt<std::string>
    outputDir("output-dir", cl::desc("Write <dir>/<entry>.out<k>.npy"));
static cl::opt<unsigned> seed("seed", cl::desc("Seed of generated arguments"),
                              cl::init(0));
static cl::opt<int64_t> intMax("int-max",
                               cl::desc("Generated integers lie in [0, N)"),
                               cl::init(10));
static cl::opt<InitKind> init(
    "init", cl::desc("Generated floating-point arguments"),
    cl::values(clEnumValN(InitKind::Uniform, "uniform", "uniform in [-1, 1)"),
               clEnumValN(InitKind::FanIn, "fan-in",
                          "rank >= 2: uniform in +-1/sqrt(last dim) "
                          "(PyTorch's Linear init); lower ranks uniform")),
    cl::init(InitKind::Uniform));
static cl::opt<bool> print("print", cl::desc("Print the results"));
static cl::opt<std::string>
    autocast("autocast", cl::desc("Run tp-autocast first (e.g. cpu:bf16)"));
static cl::opt<bool> keepIoTypes(
    "autocast-keep-io-types",
    cl::desc("With --autocast: results keep their original dtypes"));
static cl::opt<std::string>
    pipelineOptions("pipeline-options",
                    cl::desc("tp-lower-to-cpu options, e.g. "
                             "\"use-onednn=0 parallel=0\""));
static cl::opt<unsigned> repeat("repeat",
                                cl::desc("Timed runs per entry (prints "
                                         "median/min/mean; CPU runs reuse "
                                         "one set of result buffers)"),
                                cl::init(0));
static cl::opt<unsigned> warmup("warmup", cl::desc("Untimed runs first"),
                                cl::init(1));
static cl::opt<ExecutionTarget> device(
    "device", cl::desc("Where the functions compute"),
    cl::values(clEnumValN(ExecutionTarget::CPU, "cpu",
                          "the host CPU (tp-lower-to-cpu; the default)"),
               clEnumValN(ExecutionTarget::CUDA, "cuda",
                          "a CUDA GPU (tp-lower-to-nvvm; --pipeline-options "
                          "are that pipeline's); without a GPU the module "
                          "still compiles, then tp-run says why it cannot "
                          "run and exits 1")),
    cl::init(ExecutionTarget::CPU));
static cl::opt<unsigned> threads("num-threads",
                                 cl::desc("Threads of compiled code and "
                                          "oneDNN (0: all cores)"),
                                 cl::init(0));

static cl::opt<int64_t> dynamicSize(
    "dynamic-size",
    cl::desc("The size of every ? argument dimension without an input "
             "file (the functions are specialized to their arguments' "
             "shapes before compiling; default: input files must give them)"),
    cl::init(-1));

static int failWith(const llvm::Twine &message) {
  llvm::errs() << "tp-run: " << message << "\n";
  return 1;
}

static void printTensor(llvm::raw_ostream &os, const HostTensor &t) {
  const std::vector<int64_t> &shape = t.shape();
  int64_t n = t.numElements();
  // blocks[d]: elements in one [...] of dimension d.
  std::vector<int64_t> blocks(shape.size(), 1);
  for (int64_t d = (int64_t)shape.size() - 1; d >= 0; --d)
    blocks[d] = shape[d] * (d + 1 < (int64_t)shape.size() ? blocks[d + 1] : 1);
  for (int64_t i = 0; i < n; ++i) {
    for (size_t d = 0; d < shape.size(); ++d)
      if (i % blocks[d] == 0)
        os << "[";
    char buf[64];
    if (isComplexKind(t.kind())) // as NumPy prints complex numbers
      std::snprintf(buf, sizeof(buf), "(%.7g%+.7gj)", t.get(i), t.getImag(i));
    else
      std::snprintf(buf, sizeof(buf), "%.7g", t.get(i));
    os << buf;
    int closes = 0;
    for (size_t d = 0; d < shape.size(); ++d)
      if ((i + 1) % blocks[d] == 0)
        ++closes;
    for (int c = 0; c < closes; ++c)
      os << "]";
    if (i + 1 < n)
      os << ", ";
  }
  if (n == 0)
    os << "[]";
  os << "\n";
}

/// The .npy file of argument `i` of `name` (an entry, or entry@tag for an
/// input set): --input (which names the arguments of the one function
/// run), else <npy-dir>/<name>.arg<i>.npy where it exists, else "".
static std::string argumentFile(const std::string &name, size_t i) {
  if (!inputs.empty())
    return i < inputs.size() ? inputs[i] : std::string();
  if (npyDir.empty())
    return "";
  llvm::SmallString<256> p(npyDir);
  llvm::sys::path::append(p, name + ".arg" + std::to_string(i) + ".npy");
  return llvm::sys::fs::exists(p) ? p.str().str() : std::string();
}

/// The tags of --input-sets' files <npy-dir>/<entry>@<tag>.arg<i>.npy,
/// sorted.
static llvm::Expected<std::vector<std::string>>
inputSetTags(const std::string &entry) {
  std::vector<std::string> tags;
  std::error_code ec;
  std::string prefix = entry + "@";
  for (llvm::sys::fs::directory_iterator it(npyDir, ec), end; !ec && it != end;
       it.increment(ec)) {
    llvm::StringRef file = llvm::sys::path::filename(it->path());
    if (!file.consume_front(prefix))
      continue;
    size_t arg = file.rfind(".arg");
    if (arg == llvm::StringRef::npos || !file.ends_with(".npy"))
      continue;
    std::string tag = file.take_front(arg).str();
    if (!llvm::is_contained(tags, tag))
      tags.push_back(tag);
  }
  if (ec)
    return llvm::createStringError("--input-sets: reading " + npyDir + ": " +
                                   ec.message());
  std::sort(tags.begin(), tags.end());
  return tags;
}

/// Dynamic shapes: each public function with ? argument dimensions is
/// specialized to the shapes of its input files (or --dynamic-size) before
/// compiling (tp-specialize-shapes).
static llvm::Error specializeDynamicFunctions(ModuleOp module) {
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (!fn.isPublic() || fn.isExternal() || !hasDynamicArguments(fn))
      continue;
    std::string name = fn.getSymName().str();
    if (!entries.empty() && !llvm::is_contained(entries, name))
      continue;
    // --input belongs to the one function run.
    if (!inputs.empty() && entries.size() != 1 &&
        llvm::count_if(module.getOps<func::FuncOp>(), [](func::FuncOp f) {
          return f.isPublic() && !f.isExternal();
        }) != 1)
      return llvm::createStringError("--input needs exactly one --entry");
    SmallVector<Type> types;
    for (auto [i, t] : llvm::enumerate(fn.getArgumentTypes())) {
      auto tensor = dyn_cast<RankedTensorType>(t);
      if (!tensor || tensor.hasStaticShape()) {
        types.push_back(t);
        continue;
      }
      std::string path = argumentFile(name, i);
      SmallVector<int64_t> shape(tensor.getShape());
      if (!path.empty()) {
        auto file = readNpy(path, nullptr);
        if (!file)
          return file.takeError();
        if (file->shape().size() != shape.size())
          return llvm::createStringError(
              "@" + name + " argument #" + std::to_string(i) + ": " + path +
              " has rank " + std::to_string(file->shape().size()) +
              ", the argument rank " + std::to_string(shape.size()));
        shape.assign(file->shape().begin(), file->shape().end());
      } else if (dynamicSize >= 0) {
        for (int64_t &d : shape)
          if (ShapedType::isDynamic(d))
            d = dynamicSize;
      } else {
        std::string type;
        llvm::raw_string_ostream os(type);
        os << t;
        return llvm::createStringError(
            "@" + name + " argument #" + std::to_string(i) + " has type " +
            type +
            ": give the sizes of its ? dimensions with an input file "
            "(--input, --npy-dir) or --dynamic-size");
      }
      types.push_back(RankedTensorType::get(shape, tensor.getElementType()));
    }
    if (failed(specializeShapes(fn, types)))
      return llvm::createStringError("@" + name +
                                     ": specializing its dynamic shapes "
                                     "failed");
  }
  return llvm::Error::success();
}

/// Hides LLVM's own options from --help: only tp-run's are listed.
static void hideForeignOptions() {
  const cl::Option *ours[] = {
      std::addressof(inputFile),   std::addressof(entries),
      std::addressof(inputs),      std::addressof(npyDir),
      std::addressof(inputSets),   std::addressof(dynamicSize),
      std::addressof(outputDir),   std::addressof(seed),
      std::addressof(intMax),      std::addressof(init),
      std::addressof(print),       std::addressof(autocast),
      std::addressof(keepIoTypes), std::addressof(pipelineOptions),
      std::addressof(repeat),      std::addressof(warmup),
      std::addressof(threads),     std::addressof(device)};
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.second;
    if (!llvm::is_contained(ours, option) && !isCompileCacheOption(option) &&
        entry.first != "help" && entry.first != "version")
      option->setHiddenFlag(cl::ReallyHidden);
  }
}

/// Runs entry `name` of `exe` on the arguments of `file` (the entry's name,
/// or entry@tag for an input set, whose files must all exist), with the
/// --repeat timings, and writes and prints its results.
static llvm::Error runEntry(Executable &exe, const std::string &name,
                            const FunctionSignature *sig,
                            const std::string &file, bool inputSet,
                            std::mt19937_64 &rng) {
  auto fail = [](const llvm::Twine &message) {
    return llvm::createStringError(message.str());
  };
  std::vector<HostTensor> args;
  for (size_t i = 0; i < sig->arguments.size(); ++i) {
    std::string path = argumentFile(file, i);
    if (path.empty() && inputSet)
      return fail("input set @" + file + " has no file " + file + ".arg" +
                  llvm::Twine(i) +
                  ".npy (an input set gives every "
                  "argument)");
    if (path.empty()) {
      args.push_back(generateArgument(sig->arguments[i], init, intMax, rng));
      continue;
    }
    auto t = readNpy(path, &sig->arguments[i]);
    if (!t)
      return fail("@" + file + " argument #" + llvm::Twine(i) + ": " +
                  llvm::toString(t.takeError()));
    args.push_back(std::move(*t));
  }
  std::vector<const HostTensor *> argPtrs;
  for (const HostTensor &t : args)
    argPtrs.push_back(&t);
  std::vector<HostTensor> results;
  for (unsigned i = 0, n = repeat > 0 ? (unsigned)warmup : 0u; i < n; ++i)
    if (llvm::Error e = exe.run(name, argPtrs, results))
      return e;
  // Timed CPU runs write into one set of result buffers, allocated here
  // (as a caller that keeps its result buffers does): the time is the
  // compiled code's, not that of allocating and clearing fresh results. A
  // GPU run copies results back each time.
  bool reuse = repeat > 0 && exe.target() == ExecutionTarget::CPU;
  std::vector<TensorRef> argRefs, resultRefs;
  if (reuse) {
    results.clear();
    for (const TensorSpec &spec : sig->results)
      results.emplace_back(spec.kind, spec.shape);
    for (const HostTensor &t : args)
      argRefs.push_back({t.kind(), t.shape(), const_cast<void *>(t.data())});
    for (HostTensor &t : results)
      resultRefs.push_back({t.kind(), t.shape(), t.data()});
  }
  std::vector<double> times;
  unsigned runs = std::max(1u, (unsigned)repeat);
  for (unsigned i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    if (llvm::Error e = reuse ? exe.run(name, argRefs, resultRefs)
                              : exe.run(name, argPtrs, results))
      return e;
    times.push_back(std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - start)
                        .count());
  }
  if (repeat > 0) {
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    double mean = 0;
    for (double t : times)
      mean += t / times.size();
    char buf[160];
    std::snprintf(buf, sizeof(buf),
                  "@%s: median %.3f ms, min %.3f ms, mean %.3f ms over %u "
                  "runs, %d threads\n",
                  file.c_str(), sorted[sorted.size() / 2], sorted.front(), mean,
                  runs, (int)tp_rt_num_threads());
    llvm::outs() << buf;
  }
  std::string dir =
      !outputDir.empty() ? outputDir.getValue() : npyDir.getValue();
  for (size_t k = 0; k < results.size(); ++k) {
    if (print) {
      llvm::outs() << "@" << file << " result #" << k << ": ";
      printTensor(llvm::outs(), results[k]);
    }
    if (!dir.empty()) {
      llvm::SmallString<256> p(dir);
      llvm::sys::path::append(p, file + ".out" + std::to_string(k) + ".npy");
      if (llvm::Error e = writeNpy(p, results[k]))
        return e;
    }
  }
  return llvm::Error::success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  hideForeignOptions();
  cl::ParseCommandLineOptions(argc, argv,
                              "tp-run: compile a tp module for the CPU (or "
                              "a CUDA GPU) and run its functions\n");
  if (intMax <= 0)
    return failWith("--int-max must be positive (generated integers lie in "
                    "[0, N)), got " +
                    llvm::Twine(intMax.getValue()));
  // OpenMP (oneDNN's threads) read OMP_NUM_THREADS when it was loaded:
  // the runtime sets its team size and the CPU pool's directly.
  if (threads > 0) {
    auto n = (int32_t)std::min<unsigned>(threads, INT32_MAX);
    if (tp_rt_set_num_threads(n) != TP_RT_SUCCESS)
      return failWith("--num-threads must be from 1 to 1024 (0: all cores), "
                      "got " +
                      llvm::Twine(threads.getValue()));
  }

  MLIRContext context;
  std::string error;
  auto source = parseSourceFileModule(context, inputFile, error);
  if (!source)
    return failWith(error);
  OwningOpRef<ModuleOp> module = std::move(source->module);

  if (dynamicSize < -1)
    return failWith("--dynamic-size must be non-negative, got " +
                    llvm::Twine(dynamicSize.getValue()));
  if (llvm::Error e = specializeDynamicFunctions(*module))
    return failWith(llvm::toString(std::move(e)));

  CompileOptions options;
  options.target = device;
  options.autocast = autocast;
  options.autocastKeepIoTypes = keepIoTypes;
  options.pipelineOptions = pipelineOptions;
  std::string cacheError;
  options.cache = compileCacheFromOptions(cacheError);
  if (!cacheError.empty())
    return failWith(cacheError);
  auto exe = Executable::compile(std::move(module), options);
  if (!exe)
    return failWith(llvm::toString(exe.takeError()));
  if (device == ExecutionTarget::CUDA)
    if (llvm::Error e = requireCudaDevice())
      return failWith("--device=cuda: the module compiled for the GPU, but " +
                      llvm::toString(std::move(e)));

  std::vector<std::string> toRun(entries.begin(), entries.end());
  if (toRun.empty())
    for (const FunctionSignature &sig : (*exe)->functions())
      toRun.push_back(sig.name);
  if (!inputs.empty() && toRun.size() != 1)
    return failWith("--input needs exactly one --entry");
  if (inputSets && (npyDir.empty() || !inputs.empty()))
    return failWith("--input-sets reads its files from --npy-dir (and not "
                    "--input): give --npy-dir alone");

  std::mt19937_64 rng(seed);
  for (const std::string &name : toRun) {
    const FunctionSignature *sig = (*exe)->lookup(name);
    if (!sig) {
      std::string known;
      for (const FunctionSignature &s : (*exe)->functions())
        known += (known.empty() ? "@" : ", @") + s.name;
      return failWith("no public function @" + name + " in " + inputFile +
                      " (functions: " + (known.empty() ? "none" : known) + ")");
    }
    if (!inputs.empty() && inputs.size() != sig->arguments.size())
      return failWith("@" + name + " takes " +
                      llvm::Twine(sig->arguments.size()) +
                      " arguments, --input gave " + llvm::Twine(inputs.size()));
    if (llvm::Error e = runEntry(**exe, name, sig, name, false, rng))
      return failWith(llvm::toString(std::move(e)));
    if (!inputSets)
      continue;
    auto tags = inputSetTags(name);
    if (!tags)
      return failWith(llvm::toString(tags.takeError()));
    for (const std::string &tag : *tags)
      if (llvm::Error e =
              runEntry(**exe, name, sig, name + "@" + tag, true, rng))
        return failWith(llvm::toString(std::move(e)));
  }
  return 0;
}
