//===- Executable.cpp - Compile and run tp functions (CPU or CUDA) -------===//
//
// See Executable.h. Public functions are compiled with the C interface and
// results as out-parameters, so a call is `_mlir_ciface_f(&arg0_desc, ...,
// &res0_desc, ...)` with MLIR ranked memref descriptors built here for any
// rank.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Compiler/Executable.h"
#include "HostJit.h"
#include "JitPerfMap.h"
#include "tensorplay/Codegen/CPU/Donation.h"
#include "tensorplay/Compiler/CompileCache.h"
#include "tensorplay/Compiler/Compiler.h"

#include "tensorplay/Pipelines/CPUPipeline.h"
#include "tensorplay/Runtime/Codegen.h"
#include "tensorplay/Runtime/Float8.h"
#include "tensorplay/Runtime/FloatRounding.h"
#include "tensorplay/Runtime/Gpu.h"
#include "tensorplay/Transforms/Passes.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Support/Format.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <pthread.h>

using namespace mlir;
using namespace mlir::tp;

/// Prefix of the JIT symbol of every function of a module (a '.' no C
/// symbol contains).
static constexpr llvm::StringLiteral kSymbolPrefix = "tp.fn.";

size_t tp::elementSize(ElementKind kind) {
  switch (kind) {
#define TP_ELEMENT_TYPE(KIND, NAME, BYTES, DTYPE, NPY)                         \
  case ElementKind::KIND:                                                      \
    return BYTES;
#include "tensorplay/Runtime/ElementTypes.def"
  }
  return 1;
}

const char *tp::elementKindName(ElementKind kind) {
  switch (kind) {
#define TP_ELEMENT_TYPE(KIND, NAME, BYTES, DTYPE, NPY)                         \
  case ElementKind::KIND:                                                      \
    return NAME;
#include "tensorplay/Runtime/ElementTypes.def"
  }
  return "?";
}

const char *tp::elementKindDtypeName(ElementKind kind) {
  switch (kind) {
#define TP_ELEMENT_TYPE(KIND, NAME, BYTES, DTYPE, NPY)                         \
  case ElementKind::KIND:                                                      \
    return DTYPE;
#include "tensorplay/Runtime/ElementTypes.def"
  }
  return "?";
}

llvm::ArrayRef<ElementKind> tp::allElementKinds() {
  static const ElementKind kinds[] = {
#define TP_ELEMENT_TYPE(KIND, NAME, BYTES, DTYPE, NPY) ElementKind::KIND,
#include "tensorplay/Runtime/ElementTypes.def"
  };
  return kinds;
}

std::optional<ElementKind> tp::elementKindNamed(llvm::StringRef name) {
  for (ElementKind kind : allElementKinds())
    if (name == elementKindName(kind))
      return kind;
  return std::nullopt;
}

bool tp::isComplexKind(ElementKind kind) {
  return kind == ElementKind::C64 || kind == ElementKind::C128;
}

std::optional<ElementKind> tp::elementKindOf(Type type) {
  // The table's names are MLIR's spellings.
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  return elementKindNamed(name);
}

HostTensor::HostTensor(ElementKind kind, std::vector<int64_t> shape)
    : elementKind(kind), dims(std::move(shape)) {
  size_t bytes = std::max<size_t>(byteSize(), 1);
  size_t rounded = (bytes + 63) / 64 * 64;
  void *p = std::aligned_alloc(64, rounded);
  std::memset(p, 0, rounded);
  storage = std::shared_ptr<uint8_t>(static_cast<uint8_t *>(p), std::free);
}

static int64_t numElementsOf(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

int64_t HostTensor::numElements() const { return numElementsOf(dims); }

double HostTensor::get(int64_t i) const {
  switch (elementKind) {
  case ElementKind::F32:
    return as<float>()[i];
  case ElementKind::F64:
    return as<double>()[i];
  case ElementKind::F16:
    return tp_rt_f16_to_f32(as<uint16_t>()[i]);
  case ElementKind::BF16:
    return tp_rt_bf16_to_f32(as<uint16_t>()[i]);
  case ElementKind::I64:
    return (double)as<int64_t>()[i];
  case ElementKind::I32:
    return as<int32_t>()[i];
  case ElementKind::I16:
    return as<int16_t>()[i];
  case ElementKind::I8:
    return as<int8_t>()[i];
  case ElementKind::U8:
    return as<uint8_t>()[i];
  case ElementKind::Bool:
    return as<uint8_t>()[i] != 0;
  case ElementKind::C64:
    return as<float>()[2 * i];
  case ElementKind::C128:
    return as<double>()[2 * i];
  case ElementKind::F8E4M3FN:
    return tp_rt_f8_to_f32(as<uint8_t>()[i], &TP_RT_F8E4M3FN);
  case ElementKind::F8E5M2:
    return tp_rt_f8_to_f32(as<uint8_t>()[i], &TP_RT_F8E5M2);
  }
  return 0;
}

double HostTensor::getImag(int64_t i) const {
  if (elementKind == ElementKind::C64)
    return as<float>()[2 * i + 1];
  if (elementKind == ElementKind::C128)
    return as<double>()[2 * i + 1];
  return 0;
}

void HostTensor::set(int64_t i, double v, double imag) {
  switch (elementKind) {
  case ElementKind::C64:
    as<float>()[2 * i] = (float)v;
    as<float>()[2 * i + 1] = (float)imag;
    return;
  case ElementKind::C128:
    as<double>()[2 * i] = v;
    as<double>()[2 * i + 1] = imag;
    return;
  case ElementKind::F32:
    as<float>()[i] = (float)v;
    return;
  case ElementKind::F64:
    as<double>()[i] = v;
    return;
  case ElementKind::F16:
    as<uint16_t>()[i] = tp_rt_f32_to_f16((float)v);
    return;
  case ElementKind::BF16:
    as<uint16_t>()[i] = tp_rt_f32_to_bf16((float)v);
    return;
  case ElementKind::I64:
    as<int64_t>()[i] = (int64_t)v;
    return;
  case ElementKind::I32:
    as<int32_t>()[i] = (int32_t)v;
    return;
  case ElementKind::I16:
    as<int16_t>()[i] = (int16_t)v;
    return;
  case ElementKind::I8:
    as<int8_t>()[i] = (int8_t)v;
    return;
  case ElementKind::U8:
    as<uint8_t>()[i] = (uint8_t)v;
    return;
  case ElementKind::Bool:
    as<uint8_t>()[i] = v != 0;
    return;
  case ElementKind::F8E4M3FN:
    as<uint8_t>()[i] = tp_rt_f64_to_f8(v, &TP_RT_F8E4M3FN, /*saturate=*/0);
    return;
  case ElementKind::F8E5M2:
    as<uint8_t>()[i] = tp_rt_f64_to_f8(v, &TP_RT_F8E5M2, /*saturate=*/0);
    return;
  }
}

namespace mlir::tp::detail {
/// What Executable keeps to generate a function's code at its first
/// call.
struct PendingCode {
  explicit PendingCode(const CompileOptions &options)
      : options(options), cache(options.cache) {}
  CompileOptions options;
  CompileCache cache;
  /// Empty without a cache.
  std::string moduleKey;
  std::unique_ptr<llvm::TargetMachine> tm;
  /// At O0, for the first tier.
  std::unique_ptr<llvm::TargetMachine> quickTm;
  /// The module, before lowering until `translated` is set; both are
  /// released once every function has code.
  OwningOpRef<ModuleOp> module;
  llvm::LLVMContext llvmContext;
  /// The lowered module in LLVM IR (translateForJit).
  std::unique_ptr<llvm::Module> translated;
  std::mutex mutex;
};
} // namespace mlir::tp::detail

Executable::Executable() = default;
Executable::~Executable() { waitForBackground(); }

llvm::Error Executable::generateAll() {
  for (size_t i = 0; i < sigs.size(); ++i)
    if (llvm::Error e = generate(i))
      return e;
  return llvm::Error::success();
}

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static std::string describe(const TensorSpec &spec) {
  std::string s = "tensor<";
  for (int64_t d : spec.shape)
    s += std::to_string(d) + "x";
  return s + elementKindName(spec.kind) + ">";
}

llvm::Expected<std::unique_ptr<Executable>>
Executable::compile(OwningOpRef<ModuleOp> module,
                    const CompileOptions &options) {
  auto clock = std::chrono::steady_clock::now();
  auto lap = [&](double &seconds) {
    auto now = std::chrono::steady_clock::now();
    seconds = std::chrono::duration<double>(now - clock).count();
    clock = now;
  };
  MLIRContext *ctx = module->getContext();
  prepareCompilerContext(*ctx);

  if (!options.autocast.empty() &&
      failed(autocastModule(*module, options.autocast,
                            options.autocastKeepIoTypes)))
    return makeError("autocast (" + options.autocast + ") failed");

  std::unique_ptr<Executable> exe(new Executable());
  for (auto fn : module->getOps<func::FuncOp>()) {
    if (fn.isExternal() || !fn.isPublic())
      continue;
    FunctionSignature sig;
    sig.name = fn.getSymName().str();
    auto collect = [&](TypeRange types, std::vector<TensorSpec> &out,
                       const char *what) -> llvm::Error {
      for (auto [i, t] : llvm::enumerate(types)) {
        auto tensor = dyn_cast<RankedTensorType>(t);
        std::optional<ElementKind> kind =
            tensor ? elementKindOf(tensor.getElementType()) : std::nullopt;
        if (!tensor || !tensor.hasStaticShape() || !kind) {
          std::string type;
          llvm::raw_string_ostream os(type);
          os << t;
          return makeError("function @" + sig.name + ": " + what + " #" +
                           llvm::Twine(i) + " has type " + type +
                           ", which tp-run cannot pass (static shapes of "
                           "real or complex<f32/f64> element types only)");
        }
        out.push_back({*kind, std::vector<int64_t>(tensor.getShape().begin(),
                                                   tensor.getShape().end())});
      }
      return llvm::Error::success();
    };
    if (llvm::Error e =
            collect(fn.getArgumentTypes(), sig.arguments, "argument"))
      return std::move(e);
    if (failed(verifyDonation(fn)))
      return makeError("function @" + sig.name + ": invalid " +
                       kDonateAttrName);
    SmallVector<int64_t> donors = donatedArguments(fn).value_or(
        SmallVector<int64_t>(fn.getNumResults(), -1));
    SmallVector<Type> returned;
    for (auto [type, donor] : llvm::zip(fn.getResultTypes(), donors)) {
      if (donor < 0)
        returned.push_back(type);
      else
        sig.updatedArguments.push_back(static_cast<unsigned>(donor));
    }
    if (llvm::Error e = collect(returned, sig.results, "result"))
      return std::move(e);
    exe->sigs.push_back(std::move(sig));
  }

  // The functions' own symbols get a prefix no C library symbol has: a
  // function named exp or sin must not become the target of the libm calls
  // compiled code makes (exp of subnormal results, sin of huge arguments).
  SymbolTable symbols(*module);
  for (auto fn : llvm::make_early_inc_range(module->getOps<func::FuncOp>())) {
    if (fn.isExternal())
      continue;
    if (failed(symbols.rename(fn, (kSymbolPrefix + fn.getSymName()).str())))
      return makeError("cannot rename @" + fn.getSymName());
  }

  exe->compiledFor = options.target;
  auto pending = std::make_unique<detail::PendingCode>(options);
  auto tm = detail::createHostTargetMachine(options.optLevel);
  if (!tm)
    return tm.takeError();
  pending->tm = std::move(*tm);

  // The persistent cache: the module's bytecode and everything else the
  // machine code depends on make the key.
  if (pending->cache.enabled()) {
    std::string bytecode;
    llvm::raw_string_ostream os(bytecode);
    if (succeeded(writeBytecodeToFile(*module, os)))
      pending->moduleKey = CompileCache::key(
          {"tensorplay-autocast object v1", CompileCache::compilerIdentity(),
           detail::describeTarget(*pending->tm),
           options.target == ExecutionTarget::CUDA ? "cuda" : "cpu",
           options.pipelineOptions, std::to_string(options.optLevel),
           bytecode});
  }
  CompileTimes &times = exe->times;
  lap(times.cacheKey);
  pending->module = std::move(module);
  // A module the same compiler lowered before (the cache's marker says so)
  // is lowered again only if a function's code is missing from the cache:
  // its lowering cannot fail. Any other is lowered now, so that its errors
  // are the compile's.
  std::string marker;
  if (!pending->moduleKey.empty())
    marker = CompileCache::key({pending->moduleKey, "lowered"});
  exe->cached = !marker.empty() && pending->cache.contains(marker);
  exe->pending = std::move(pending);
  if (!exe->cached) {
    if (llvm::Error e = exe->lower())
      return e;
    if (!marker.empty())
      exe->storeInCache(marker, llvm::MemoryBufferRef("", "marker"));
  }
  exe->entries.reset(new std::atomic<Entry>[exe->sigs.size()]);
  for (size_t i = 0; i < exe->sigs.size(); ++i)
    exe->entries[i] = nullptr;
  exe->reportTimes("compile");
  // The GPU's code is one object (its kernel modules load in tp.init), made
  // now; the CPU's one object per function, at the function's first call.
  if (options.target == ExecutionTarget::CUDA)
    if (llvm::Error e = exe->generate(0))
      return e;
  return std::move(exe);
}

void Executable::storeInCache(llvm::StringRef key,
                              llvm::MemoryBufferRef object) {
  if (llvm::Error e = pending->cache.store(key, object))
    // A cache that cannot be written costs time, not correctness.
    llvm::errs() << "tensorplay: compile cache: "
                 << llvm::toString(std::move(e)) << "\n";
}

llvm::Error Executable::lower() {
  detail::PendingCode &p = *pending;
  auto start = std::chrono::steady_clock::now();
  if (llvm::Error lowered =
          compiledFor == ExecutionTarget::CUDA
              ? lowerModuleForNVVM(*p.module, p.options.pipelineOptions,
                                   /*forJit=*/true)
              : lowerModuleForCPU(*p.module, p.options.pipelineOptions,
                                  /*forJit=*/true))
    return lowered;
  auto translated = detail::translateForJit(*p.module, p.llvmContext, *p.tm);
  if (!translated)
    return translated.takeError();
  p.translated = std::move(*translated);
  times.lower +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return llvm::Error::success();
}

llvm::Error Executable::generate(size_t index) {
  std::lock_guard<std::mutex> lock(pending->mutex);
  if (entries[index])
    return llvm::Error::success();
  detail::PendingCode &p = *pending;
  // The GPU's object holds every function.
  bool whole = compiledFor == ExecutionTarget::CUDA;
  std::string function = (kSymbolPrefix + sigs[index].name).str();
  std::string key;
  if (!p.moduleKey.empty())
    key = CompileCache::key({p.moduleKey, whole ? "*" : function});
  std::unique_ptr<llvm::MemoryBuffer> object;
  if (!key.empty())
    object = p.cache.lookup(key);
  // Tiered: code at O0 now, at the asked level in the background.
  bool tiered = p.options.tiered && p.options.optLevel > 0 && !whole;
  std::string bitcode;
  if (object) {
    ++functionsFromCache;
  } else {
    if (!p.translated)
      if (llvm::Error e = lower())
        return e;
    std::unique_ptr<llvm::Module> part =
        whole ? llvm::CloneModule(*p.translated)
              : detail::extractFunction(*p.translated, function);
    unsigned level = tiered ? 0 : p.options.optLevel;
    if (tiered) {
      llvm::raw_string_ostream os(bitcode);
      llvm::WriteBitcodeToFile(*part, os);
      if (!p.quickTm) {
        auto quick = detail::createHostTargetMachine(0);
        if (!quick)
          return quick.takeError();
        p.quickTm = std::move(*quick);
      }
    }
    detail::ObjectCompileTimes objectTimes;
    auto emitted = detail::emitObject(*part, tiered ? *p.quickTm : *p.tm, level,
                                      &objectTimes);
    if (!emitted)
      return emitted.takeError();
    object = std::move(*emitted);
    {
      std::lock_guard<std::mutex> state(stateMutex);
      times.optimize += objectTimes.optimize;
      times.codegen += objectTimes.codegen;
    }
    if (!key.empty() && !tiered)
      storeInCache(key, object->getMemBufferRef());
  }
  if (llvm::Error e = link(std::move(object), index, whole))
    return e;
  reportTimes(("@" + sigs[index].name).c_str());
  if (!bitcode.empty())
    optimizeInBackground(index, std::move(bitcode), std::move(key));
  // Every function has code (a background compile works on its own
  // bitcode): the modules it was generated from are not needed again.
  if (std::all_of(entries.get(), entries.get() + sigs.size(),
                  [](const std::atomic<Entry> &e) { return e.load(); })) {
    p.translated.reset();
    p.module = nullptr;
  }
  return llvm::Error::success();
}

llvm::Error Executable::link(std::unique_ptr<llvm::MemoryBuffer> object,
                             size_t index, bool whole) {
  // TP_JIT_PERF=1: name the generated functions for `perf` (JitPerfMap.h).
  auto start = std::chrono::steady_clock::now();
  std::string perfMap = tensorplay::compiler::jitPerfMapPath();
  std::unique_ptr<llvm::MemoryBuffer> perfCopy;
  if (!perfMap.empty())
    perfCopy = llvm::MemoryBuffer::getMemBufferCopy(object->getBuffer());
  auto loaded = detail::LoadedObject::load(std::move(object));
  // The kernel modules load in tp.init; without a device that fails, which
  // run() reports (requireCudaDevice) before any call.
  if (compiledFor == ExecutionTarget::CUDA)
    tp_rt_codegen_clear_error();
  if (!loaded)
    return loaded.takeError();
  detail::LoadedObject &code = **loaded;
  std::vector<std::pair<size_t, Entry>> found;
  for (size_t i = 0; i < sigs.size(); ++i) {
    if (!whole && i != index)
      continue;
    auto entry = code.lookupPacked((kSymbolPrefix + sigs[i].name).str());
    if (!entry)
      return entry.takeError();
    found.push_back({i, *entry});
  }
  if (perfCopy)
    tensorplay::compiler::writeJitPerfMap(
        perfCopy->getMemBufferRef(),
        [&](llvm::StringRef name) { return code.lookup(name); }, perfMap);
  std::lock_guard<std::mutex> state(stateMutex);
  // Code a call may still be running is never unloaded: a replaced object
  // stays linked until the executable goes.
  objects.push_back(std::move(*loaded));
  for (auto [i, entry] : found)
    entries[i] = entry;
  times.load +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return llvm::Error::success();
}

namespace {
/// The background compiles of every executable, which the process waits
/// for at exit (a compile still running while LLVM's statics are destroyed
/// would crash) and before a fork (a child would inherit LLVM's locks held
/// by a thread it does not have, and hang at its first compile).
class BackgroundCompiles {
public:
  static BackgroundCompiles &get() {
    // Never destroyed; the exit handler runs before the statics LLVM made
    // (it is registered after them).
    static BackgroundCompiles *all = [] {
      auto *created = new BackgroundCompiles();
      std::atexit([] { get().waitForAll(); });
      pthread_atfork([] { get().waitForAll(); }, nullptr, nullptr);
      return created;
    }();
    return *all;
  }
  void started() {
    std::lock_guard<std::mutex> lock(mutex);
    ++running;
  }
  void finished() {
    std::lock_guard<std::mutex> lock(mutex);
    --running;
    done.notify_all();
  }
  void waitForAll() {
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, [&] { return running == 0; });
  }

private:
  std::mutex mutex;
  std::condition_variable done;
  int running = 0;
};
} // namespace

void Executable::optimizeInBackground(size_t index, std::string bitcode,
                                      std::string key) {
  BackgroundCompiles::get().started();
  std::lock_guard<std::mutex> state(stateMutex);
  background.emplace_back([this, index, bitcode = std::move(bitcode),
                           key = std::move(key)] {
    // One at a time: the machine's cores are the user's too.
    std::lock_guard<std::mutex> serial(backgroundMutex);
    llvm::Error e = [&]() -> llvm::Error {
      // A context and a target machine of its own: neither is shared
      // between threads.
      llvm::LLVMContext ctx;
      auto part =
          llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, "part"), ctx);
      if (!part)
        return part.takeError();
      auto tm = detail::createHostTargetMachine(pending->options.optLevel);
      if (!tm)
        return tm.takeError();
      detail::ObjectCompileTimes objectTimes;
      auto object = detail::emitObject(**part, **tm, pending->options.optLevel,
                                       &objectTimes);
      if (!object)
        return object.takeError();
      if (!key.empty())
        storeInCache(key, (*object)->getMemBufferRef());
      {
        std::lock_guard<std::mutex> state(stateMutex);
        times.optimize += objectTimes.optimize;
        times.codegen += objectTimes.codegen;
      }
      if (llvm::Error linked = link(std::move(*object), index, false))
        return linked;
      std::lock_guard<std::mutex> state(stateMutex);
      ++optimizedInBackground;
      return llvm::Error::success();
    }();
    if (e)
      llvm::errs() << "tensorplay: the background compile of @"
                   << sigs[index].name << " failed (its O0 code stays): "
                   << llvm::toString(std::move(e)) << "\n";
    else
      reportTimes(
          ("@" + sigs[index].name + " (optimized in the background)").c_str());
    BackgroundCompiles::get().finished();
  });
}

void Executable::waitForBackground() {
  std::vector<std::thread> threads;
  {
    std::lock_guard<std::mutex> state(stateMutex);
    threads.swap(background);
  }
  for (std::thread &t : threads)
    t.join();
}

CompileTimes Executable::compileTimes() const {
  std::lock_guard<std::mutex> state(stateMutex);
  return times;
}

unsigned Executable::functionsOptimizedInBackground() const {
  std::lock_guard<std::mutex> state(stateMutex);
  return optimizedInBackground;
}

void Executable::reportTimes(const char *what) const {
  const char *v = std::getenv("TP_COMPILE_TIMING");
  if (!v || !*v || *v == '0')
    return;
  CompileTimes times = compileTimes();
  llvm::errs() << llvm::format(
      "tensorplay: %s: %.3f s so far: key %.3f, lower %.3f, optimize %.3f, "
      "codegen %.3f, load %.3f; functions from the compile cache: %u%s\n",
      what, times.total(), times.cacheKey, times.lower, times.optimize,
      times.codegen, times.load, functionsFromCache,
      cached ? " (lowered before: skipped)" : "");
}

const FunctionSignature *Executable::lookup(llvm::StringRef name) const {
  for (const FunctionSignature &sig : sigs)
    if (sig.name == name)
      return &sig;
  return nullptr;
}

/// An MLIR ranked memref descriptor for `t`: {allocated, aligned, offset,
/// sizes..., strides...} as 64-bit words.
static std::vector<int64_t> descriptorOf(void *data,
                                         llvm::ArrayRef<int64_t> shape) {
  std::vector<int64_t> d = {(int64_t)(intptr_t)data, (int64_t)(intptr_t)data,
                            0};
  for (int64_t s : shape)
    d.push_back(s);
  int64_t stride = 1;
  std::vector<int64_t> strides(shape.size());
  for (int64_t i = (int64_t)shape.size() - 1; i >= 0; --i) {
    strides[i] = stride;
    stride *= shape[i];
  }
  d.insert(d.end(), strides.begin(), strides.end());
  return d;
}

llvm::Error Executable::run(llvm::StringRef name,
                            const std::vector<const HostTensor *> &args,
                            std::vector<HostTensor> &results) {
  const FunctionSignature *sig = lookup(name);
  if (!sig)
    return makeError("no public function @" + name + " in the module");
  std::vector<TensorRef> argRefs;
  for (const HostTensor *t : args)
    argRefs.push_back({t->kind(), t->shape(), const_cast<void *>(t->data())});
  results.clear();
  for (const TensorSpec &spec : sig->results)
    results.emplace_back(spec.kind, spec.shape);
  if (compiledFor == ExecutionTarget::CUDA)
    return runOnDevice(*sig, args, results);
  std::vector<TensorRef> resultRefs;
  for (HostTensor &t : results)
    resultRefs.push_back({t.kind(), t.shape(), t.data()});
  return run(name, argRefs, resultRefs);
}

/// Checks `refs` against `specs`: "argument" or "result" `what`.
static llvm::Error checkRefs(llvm::StringRef name, llvm::StringRef what,
                             llvm::ArrayRef<TensorSpec> specs,
                             llvm::ArrayRef<TensorRef> refs) {
  if (refs.size() != specs.size())
    return makeError("@" + name + " has " + llvm::Twine(specs.size()) + " " +
                     what + "s, got " + llvm::Twine(refs.size()));
  for (size_t i = 0; i < refs.size(); ++i) {
    std::vector<int64_t> shape(refs[i].shape.begin(), refs[i].shape.end());
    if (refs[i].kind != specs[i].kind || shape != specs[i].shape)
      return makeError("@" + name + " " + what + " #" + llvm::Twine(i) +
                       " must be " + describe(specs[i]) + ", got " +
                       describe({refs[i].kind, shape}));
    if (!refs[i].data && numElementsOf(shape) != 0)
      return makeError("@" + name + " " + what + " #" + llvm::Twine(i) +
                       " has no data");
  }
  return llvm::Error::success();
}

llvm::Error Executable::run(llvm::StringRef name,
                            llvm::ArrayRef<TensorRef> args,
                            llvm::ArrayRef<TensorRef> results) {
  const FunctionSignature *sig = lookup(name);
  if (!sig)
    return makeError("no public function @" + name + " in the module");
  if (llvm::Error e = checkRefs(name, "argument", sig->arguments, args))
    return e;
  if (llvm::Error e = checkRefs(name, "result", sig->results, results))
    return e;

  std::vector<std::vector<int64_t>> descriptors;
  for (const TensorRef &t : args)
    descriptors.push_back(descriptorOf(t.data, t.shape));
  for (const TensorRef &t : results)
    descriptors.push_back(descriptorOf(t.data, t.shape));
  std::vector<void *> pointers(descriptors.size());
  std::vector<void *> packed(descriptors.size());
  for (size_t i = 0; i < descriptors.size(); ++i) {
    pointers[i] = descriptors[i].data();
    packed[i] = &pointers[i];
  }
  if (compiledFor == ExecutionTarget::CUDA)
    if (llvm::Error e = requireCudaDevice())
      return e;
  size_t index = sig - sigs.data();
  if (!entries[index])
    if (llvm::Error e = generate(index))
      return e;
  // The codegen runtime keeps one error status per calling thread, so CPU
  // calls from several threads run concurrently. GPU calls share one stream,
  // whose synchronization reports any call's failure: one at a time.
  static std::mutex gpuCalls;
  std::unique_lock<std::mutex> gpu(gpuCalls, std::defer_lock);
  if (compiledFor == ExecutionTarget::CUDA)
    gpu.lock();
  tp_rt_codegen_clear_error();
  entries[index].load()(packed.data());
  if (compiledFor == ExecutionTarget::CUDA && !*tp_rt_codegen_error())
    (void)tp_rt_gpu_synchronize(); // records a failure of the kernels
  if (*tp_rt_codegen_error())
    return makeError(llvm::Twine("runtime error in @") + name + ": " +
                     tp_rt_codegen_error());
  return llvm::Error::success();
}

llvm::Error mlir::tp::requireCudaDevice() {
  const char *reason = "";
  if (tp_rt_gpu_device_count(&reason) > 0)
    return llvm::Error::success();
  return makeError(llvm::Twine("no CUDA device is available: ") + reason);
}

namespace {
/// Device buffers, freed when it goes.
struct DeviceBuffers {
  std::vector<void *> pointers;
  ~DeviceBuffers() {
    for (void *p : pointers)
      (void)tp_rt_gpu_free(p);
  }
  llvm::Expected<void *> allocate(size_t bytes) {
    void *p = nullptr;
    if (tp_rt_gpu_alloc(bytes, &p) != TP_RT_SUCCESS)
      return makeError("cannot allocate " + llvm::Twine(bytes) +
                       " bytes on the GPU");
    pointers.push_back(p);
    return p;
  }
};
} // namespace

llvm::Error Executable::runOnDevice(const FunctionSignature &sig,
                                    const std::vector<const HostTensor *> &args,
                                    std::vector<HostTensor> &results) {
  if (llvm::Error e = requireCudaDevice())
    return e;
  if (args.size() != sig.arguments.size())
    return makeError("@" + sig.name + " has " +
                     llvm::Twine(sig.arguments.size()) + " arguments, got " +
                     llvm::Twine(args.size()));
  DeviceBuffers buffers;
  std::vector<TensorRef> argRefs, resultRefs;
  for (const HostTensor *t : args) {
    auto device = buffers.allocate(t->byteSize());
    if (!device)
      return device.takeError();
    if (tp_rt_gpu_copy(*device, t->data(), t->byteSize(), 1) != TP_RT_SUCCESS)
      return makeError("@" + sig.name +
                       ": copying an argument to the GPU "
                       "failed");
    argRefs.push_back({t->kind(), t->shape(), *device});
  }
  for (HostTensor &t : results) {
    auto device = buffers.allocate(t.byteSize());
    if (!device)
      return device.takeError();
    resultRefs.push_back({t.kind(), t.shape(), *device});
  }
  if (llvm::Error e = run(sig.name, argRefs, resultRefs))
    return e;
  for (size_t k = 0; k < results.size(); ++k)
    if (tp_rt_gpu_copy(results[k].data(), resultRefs[k].data,
                       results[k].byteSize(), 0) != TP_RT_SUCCESS)
      return makeError("@" + sig.name + ": copying result #" + llvm::Twine(k) +
                       " from the GPU failed");
  // Arguments updated in place come back too, as on the CPU.
  for (unsigned i : sig.updatedArguments)
    if (tp_rt_gpu_copy(const_cast<void *>(args[i]->data()), argRefs[i].data,
                       args[i]->byteSize(), 0) != TP_RT_SUCCESS)
      return makeError("@" + sig.name + ": copying argument #" +
                       llvm::Twine(i) + " from the GPU failed");
  return llvm::Error::success();
}
