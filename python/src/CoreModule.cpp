//===- CoreModule.cpp - tensorplay_mlir._core: the compiler API in Python -===//
//
// The Python binding (nanobind) of the compiler's C++ API
// (tensorplay/Compiler): transform a tp module's text (autocast, autodiff)
// and compile it for the CPU into an Executable whose functions run on
// caller-owned memory: each tensor crosses as (address, dtype name, shape),
// so the backend passes tensorplay tensors and NumPy arrays of every dtype,
// bf16 included, without copies. The GIL is released while compiled code
// runs. Diagnostics become RuntimeError messages with their locations.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Compiler/Compiler.h"
#include "tensorplay/Compiler/Executable.h"
#include "tensorplay/Runtime/Codegen.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <deque>
#include <dlfcn.h>

namespace nb = nanobind;
using namespace mlir;
using namespace mlir::tp;

namespace {

/// Collects a context's diagnostics as "loc: error: message" lines.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(MLIRContext &context)
      : handler(&context, [this](Diagnostic &diag) {
          llvm::raw_string_ostream os(text);
          if (!text.empty())
            os << "\n";
          os << diag.getLocation() << ": ";
          switch (diag.getSeverity()) {
          case DiagnosticSeverity::Error:
            os << "error: ";
            break;
          case DiagnosticSeverity::Warning:
            os << "warning: ";
            break;
          default:
            os << "note: ";
            break;
          }
          os << diag;
          for (Diagnostic &note : diag.getNotes())
            os << "\n" << note.getLocation() << ": note: " << note;
          return success();
        }) {}

  /// Raises RuntimeError with `what`, the diagnostics and `error`'s text.
  [[noreturn]] void raise(const std::string &what, llvm::Error error) {
    std::string message = what;
    if (!text.empty())
      message += "\n" + text;
    if (error) {
      std::string detail = llvm::toString(std::move(error));
      if (message.find(detail) == std::string::npos)
        message += "\n" + detail;
    } else {
      llvm::consumeError(std::move(error));
    }
    throw std::runtime_error(message);
  }
  [[noreturn]] void raise(const std::string &what) {
    raise(what, llvm::Error::success());
  }

private:
  std::string text;
  ScopedDiagnosticHandler handler;
};

ElementKind kindNamed(const std::string &name) {
  if (std::optional<ElementKind> kind = elementKindNamed(name))
    return *kind;
  std::string known;
  for (ElementKind kind : allElementKinds())
    known += (known.empty() ? "" : ", ") + std::string(elementKindName(kind));
  throw nb::value_error(
      ("unsupported dtype '" + name + "' (" + known + ")").c_str());
}

using Spec = std::tuple<std::string, std::vector<int64_t>>;
using Buffer = std::tuple<uintptr_t, std::string, std::vector<int64_t>>;

Spec specTuple(const TensorSpec &spec) {
  return {elementKindName(spec.kind), spec.shape};
}

/// A parsed module in its own context, transformed stage by stage.
OwningOpRef<ModuleOp> parse(MLIRContext &context, DiagnosticCollector &diags,
                            const std::string &source) {
  OwningOpRef<ModuleOp> module = parseModuleString(context, source);
  if (!module)
    diags.raise("tensorplay_mlir: the tp module does not parse");
  return module;
}

struct TransformOptions {
  std::string autocast;
  bool keepIoTypes = false;
  std::vector<std::string> autodiff;
  std::vector<unsigned> wrt;
  std::vector<std::string> castFunctions;
  std::vector<unsigned> castArgs;
};

void transform(ModuleOp module, DiagnosticCollector &diags,
               const TransformOptions &options) {
  if (!options.autocast.empty() &&
      failed(autocastModule(module, options.autocast, options.keepIoTypes)))
    diags.raise("tensorplay_mlir: autocast '" + options.autocast + "' failed");
  if (!options.autodiff.empty() &&
      failed(autodiffModule(module, options.autodiff, options.wrt)))
    diags.raise("tensorplay_mlir: autodiff failed");
  if (!options.castFunctions.empty() &&
      failed(
          castArgumentsModule(module, options.castFunctions, options.castArgs)))
    diags.raise("tensorplay_mlir: tp-cast-arguments failed");
}

std::string transformText(const std::string &source,
                          const TransformOptions &options, bool locations) {
  MLIRContext context;
  prepareCompilerContext(context);
  DiagnosticCollector diags(context);
  OwningOpRef<ModuleOp> module = parse(context, diags, source);
  transform(*module, diags, options);
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  if (locations)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false)
        .useLocalScope();
  module->print(os, flags);
  return text;
}

/// A compiled module: its context (which outlives the engine) and the JIT.
class PyExecutable {
public:
  PyExecutable(const std::string &source, const TransformOptions &transforms,
               const std::string &pipelineOptions, unsigned optLevel,
               bool useCache, bool tiered) {
    prepareCompilerContext(context);
    DiagnosticCollector diags(context);
    OwningOpRef<ModuleOp> module = parse(context, diags, source);
    transform(*module, diags, transforms);
    CompileOptions options;
    options.pipelineOptions = pipelineOptions;
    options.optLevel = optLevel;
    options.tiered = tiered;
    if (useCache) {
      std::string error;
      options.cache = CompileCacheConfig::fromEnvironment(&error);
      if (!error.empty())
        throw std::invalid_argument("tensorplay_mlir: " + error);
    }
    auto compiled = Executable::compile(std::move(module), options);
    if (!compiled)
      diags.raise("tensorplay_mlir: CPU compilation failed",
                  compiled.takeError());
    exe = std::move(*compiled);
  }

  bool fromCache() const { return exe->fromCache(); }
  unsigned functionsCached() const { return exe->functionsCached(); }
  unsigned functionsOptimizedInBackground() const {
    return exe->functionsOptimizedInBackground();
  }
  void waitForBackground() {
    nb::gil_scoped_release release;
    exe->waitForBackground();
  }
  std::map<std::string, double> compileTimes() const {
    CompileTimes t = exe->compileTimes();
    return {{"cache_key", t.cacheKey}, {"lower", t.lower},
            {"optimize", t.optimize},  {"codegen", t.codegen},
            {"load", t.load},          {"total", t.total()}};
  }

  std::vector<std::string> functions() const {
    std::vector<std::string> names;
    for (const FunctionSignature &sig : exe->functions())
      names.push_back(sig.name);
    return names;
  }

  const FunctionSignature &signature(const std::string &name) const {
    const FunctionSignature *sig = exe->lookup(name);
    if (!sig)
      throw nb::key_error(("no public function @" + name).c_str());
    return *sig;
  }

  std::tuple<std::vector<Spec>, std::vector<Spec>, std::vector<unsigned>>
  describe(const std::string &name) const {
    const FunctionSignature &sig = signature(name);
    std::vector<Spec> args, results;
    for (const TensorSpec &spec : sig.arguments)
      args.push_back(specTuple(spec));
    for (const TensorSpec &spec : sig.results)
      results.push_back(specTuple(spec));
    return {args, results, sig.updatedArguments};
  }

  void run(const std::string &name, const std::vector<Buffer> &args,
           const std::vector<Buffer> &results) {
    std::deque<std::vector<int64_t>> shapes;
    call(name, refs(args, shapes), refs(results, shapes));
  }

  /// run() with the buffers' dtypes and shapes taken from the signature:
  /// the addresses only, which the caller allocated (or checked) for it.
  void runAddresses(const std::string &name, const std::vector<uintptr_t> &args,
                    const std::vector<uintptr_t> &results) {
    const FunctionSignature &sig = signature(name);
    call(name, refs(sig.arguments, args, name, "argument"),
         refs(sig.results, results, name, "result"));
  }

private:
  void call(const std::string &name, const std::vector<TensorRef> &argRefs,
            const std::vector<TensorRef> &resultRefs) {
    llvm::Error error = llvm::Error::success();
    {
      // Threads run compiled calls concurrently: the codegen runtime keeps
      // one error status per calling thread.
      nb::gil_scoped_release release;
      error = exe->run(name, argRefs, resultRefs);
    }
    if (error)
      throw std::runtime_error("tensorplay_mlir: " +
                               llvm::toString(std::move(error)));
  }

  static std::vector<TensorRef> refs(const std::vector<TensorSpec> &specs,
                                     const std::vector<uintptr_t> &addresses,
                                     const std::string &name,
                                     const char *what) {
    if (addresses.size() != specs.size())
      throw nb::value_error(("tensorplay_mlir: @" + name + " has " +
                             std::to_string(specs.size()) + " " + what +
                             "s, got " + std::to_string(addresses.size()))
                                .c_str());
    std::vector<TensorRef> out;
    for (size_t i = 0; i < specs.size(); ++i)
      out.push_back({specs[i].kind, specs[i].shape,
                     reinterpret_cast<void *>(addresses[i])});
    return out;
  }

  static std::vector<TensorRef>
  refs(const std::vector<Buffer> &buffers,
       std::deque<std::vector<int64_t>> &shapes) {
    std::vector<TensorRef> out;
    for (const Buffer &b : buffers) {
      shapes.push_back(std::get<2>(b));
      out.push_back({kindNamed(std::get<1>(b)), shapes.back(),
                     reinterpret_cast<void *>(std::get<0>(b))});
    }
    return out;
  }

  MLIRContext context{MLIRContext::Threading::DISABLED};
  std::unique_ptr<Executable> exe;
};

/// Makes the codegen runtime's symbols visible to the JIT's symbol lookup
/// (the process's global scope): Python loads extensions RTLD_LOCAL, and
/// with them the libraries they need.
void exposeRuntimeSymbols() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&tp_rt_codegen_clear_error), &info) &&
      info.dli_fname)
    dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
}

} // namespace

NB_MODULE(_core, m) {
  m.doc() = "tensorplay-autocast's compiler API: transform tp modules and "
            "compile them for the CPU";
  exposeRuntimeSymbols();
  // Compiled graphs live as long as the tensorplay objects that hold them
  // (autograd nodes, compile caches), some until after interpreter
  // shutdown has torn nanobind down: not leaks worth a report.
  nb::set_leak_warnings(false);

  m.def(
      "transform",
      [](const std::string &source, const std::string &autocast,
         bool keepIoTypes, const std::vector<std::string> &autodiff,
         const std::vector<unsigned> &wrt,
         const std::vector<std::string> &castFunctions,
         const std::vector<unsigned> &castArgs, bool locations) {
        return transformText(
            source,
            {autocast, keepIoTypes, autodiff, wrt, castFunctions, castArgs},
            locations);
      },
      nb::arg("source"), nb::arg("autocast") = "",
      nb::arg("keep_io_types") = false,
      nb::arg("autodiff") = std::vector<std::string>(),
      nb::arg("wrt") = std::vector<unsigned>(),
      nb::arg("cast_functions") = std::vector<std::string>(),
      nb::arg("cast_args") = std::vector<unsigned>(),
      nb::arg("locations") = false,
      "Runs tp-autocast (target 'cpu:bf16', ...), then tp-autodiff (for "
      "the named functions, w.r.t. the argument indices `wrt`), then "
      "tp-cast-arguments (in `cast_functions`, candidates `cast_args`) on a "
      "tp module's text; returns the transformed text (with every op's "
      "location inline when `locations`).");

  m.def(
      "compile_cache_stats",
      [] {
        CompileCacheStats s = CompileCache::stats();
        return std::map<std::string, uint64_t>{{"hits", s.hits},
                                               {"misses", s.misses},
                                               {"stores", s.stores},
                                               {"evictions", s.evictions},
                                               {"damaged", s.damaged}};
      },
      "This process's compile cache traffic: hits, misses, stores, "
      "evictions, damaged.");
  m.def(
      "compile_cache_config",
      [] {
        std::string error;
        CompileCacheConfig config = CompileCacheConfig::fromEnvironment(&error);
        if (!error.empty())
          throw std::invalid_argument("tensorplay_mlir: " + error);
        return std::make_tuple(config.directory, config.maxBytes);
      },
      "(directory, size bound in bytes) of the compile cache the "
      "environment configures (TENSORPLAY_MLIR_CACHE=0: no directory; "
      "TENSORPLAY_MLIR_CACHE_DIR, TENSORPLAY_MLIR_CACHE_MAX_MB).");

  m.def("has_onednn", &cpuLoweringHasOneDNN,
        "Whether the CPU lowering calls oneDNN.");

  m.def(
      "element_types",
      []() {
        std::vector<std::tuple<std::string, std::string, size_t>> rows;
        for (ElementKind kind : allElementKinds())
          rows.emplace_back(elementKindName(kind), elementKindDtypeName(kind),
                            elementSize(kind));
        return rows;
      },
      "The element types compiled functions take and return "
      "(ElementTypes.def): (name, tensorplay dtype name, bytes) per type.");

  nb::class_<PyExecutable>(m, "Executable",
                           "A tp module compiled for the host CPU.")
      .def(
          "__init__",
          [](PyExecutable *self, const std::string &source,
             const std::string &autocast, bool keepIoTypes,
             const std::vector<std::string> &autodiff,
             const std::vector<unsigned> &wrt,
             const std::vector<std::string> &castFunctions,
             const std::vector<unsigned> &castArgs,
             const std::string &pipelineOptions, unsigned optLevel, bool cache,
             bool tiered) {
            new (self) PyExecutable(
                source,
                {autocast, keepIoTypes, autodiff, wrt, castFunctions, castArgs},
                pipelineOptions, optLevel, cache, tiered);
          },
          nb::arg("source"), nb::arg("autocast") = "",
          nb::arg("keep_io_types") = false,
          nb::arg("autodiff") = std::vector<std::string>(),
          nb::arg("wrt") = std::vector<unsigned>(),
          nb::arg("cast_functions") = std::vector<std::string>(),
          nb::arg("cast_args") = std::vector<unsigned>(),
          nb::arg("pipeline_options") = "", nb::arg("opt_level") = 3,
          nb::arg("cache") = true, nb::arg("tiered") = false,
          "Parses `source`, applies `transform`'s stages and lowers it with "
          "tp-lower-to-cpu (`pipeline_options`); each function's machine "
          "code is generated at its first run, or read from the compile "
          "cache (`cache`: the one the environment configures, see "
          "compile_cache_config); `tiered`: at O0 first, at `opt_level` in "
          "a background thread that swaps it in (the same bits). Raises "
          "RuntimeError with the diagnostics.")
      .def("functions_optimized_in_background",
           &PyExecutable::functionsOptimizedInBackground,
           "How many functions' optimized code replaced their first tier.")
      .def("wait_for_background", &PyExecutable::waitForBackground,
           "Waits for the background compiles started so far.")
      .def("from_cache", &PyExecutable::fromCache,
           "Whether the compile cache knew the module (its lowering was "
           "skipped).")
      .def("functions_cached", &PyExecutable::functionsCached,
           "How many functions' code came from the compile cache so far.")
      .def("compile_times", &PyExecutable::compileTimes,
           "Seconds spent so far per stage: cache_key, lower, optimize, "
           "codegen, load, total.")
      .def("functions", &PyExecutable::functions,
           "The public functions' names, in module order.")
      .def("signature", &PyExecutable::describe, nb::arg("name"),
           "(arguments, results, updated argument indices) of `name`, each "
           "spec a (dtype name, shape) tuple.")
      .def("run", &PyExecutable::run, nb::arg("name"), nb::arg("args"),
           nb::arg("results"),
           "Runs `name` on (address, dtype name, shape) buffers the caller "
           "owns (dense, row-major), writing the results into `results`; "
           "checks them against the signature. Releases the GIL.")
      .def("run_addresses", &PyExecutable::runAddresses, nb::arg("name"),
           nb::arg("args"), nb::arg("results"),
           "Runs `name` on buffers given by address only, each of the dtype "
           "and shape its signature names (dense, row-major, the results "
           "overlapping no other buffer; the caller makes sure of them): "
           "run() without its per-call specs. "
           "Releases the GIL.");
}
