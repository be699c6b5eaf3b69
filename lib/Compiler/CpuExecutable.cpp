//===- CpuExecutable.cpp - Compile and run tp functions on the CPU --------===//
//
// See CpuExecutable.h. Public functions are compiled with the C interface and
// results as out-parameters, so a call is `_mlir_ciface_f(&arg0_desc, ...,
// &res0_desc, ...)` with MLIR ranked memref descriptors built here for any
// rank.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Compiler/CpuExecutable.h"
#include "JitPerfMap.h"
#include "tensorplay/Codegen/CPU/Donation.h"
#include "tensorplay/Compiler/Compiler.h"

#include "tensorplay/Pipelines/CPUPipeline.h"
#include "tensorplay/Runtime/Codegen.h"
#include "tensorplay/Runtime/Gpu.h"
#include "tensorplay/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/TargetSelect.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace mlir;
using namespace mlir::tp;

/// Prefix of the JIT symbol of every function of a module (a '.' no C
/// symbol contains).
static constexpr llvm::StringLiteral kSymbolPrefix = "tp.fn.";

size_t tp::elementSize(ElementKind kind) {
  switch (kind) {
  case ElementKind::C128:
    return 16;
  case ElementKind::C64:
  case ElementKind::F64:
  case ElementKind::I64:
    return 8;
  case ElementKind::F32:
  case ElementKind::I32:
    return 4;
  case ElementKind::F16:
  case ElementKind::BF16:
  case ElementKind::I16:
    return 2;
  case ElementKind::I8:
  case ElementKind::U8:
  case ElementKind::Bool:
    return 1;
  }
  return 1;
}

const char *tp::elementKindName(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
    return "f32";
  case ElementKind::F64:
    return "f64";
  case ElementKind::F16:
    return "f16";
  case ElementKind::BF16:
    return "bf16";
  case ElementKind::I64:
    return "i64";
  case ElementKind::I32:
    return "i32";
  case ElementKind::I16:
    return "i16";
  case ElementKind::I8:
    return "i8";
  case ElementKind::U8:
    return "ui8";
  case ElementKind::Bool:
    return "i1";
  case ElementKind::C64:
    return "complex<f32>";
  case ElementKind::C128:
    return "complex<f64>";
  }
  return "?";
}

bool tp::isComplexKind(ElementKind kind) {
  return kind == ElementKind::C64 || kind == ElementKind::C128;
}

std::optional<ElementKind> tp::elementKindOf(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type)) {
    Type part = complex.getElementType();
    if (part.isF32())
      return ElementKind::C64;
    if (part.isF64())
      return ElementKind::C128;
    return std::nullopt;
  }
  if (type.isF32())
    return ElementKind::F32;
  if (type.isF64())
    return ElementKind::F64;
  if (type.isF16())
    return ElementKind::F16;
  if (type.isBF16())
    return ElementKind::BF16;
  if (auto i = dyn_cast<IntegerType>(type)) {
    if (i.isUnsigned() && i.getWidth() == 8)
      return ElementKind::U8;
    switch (i.getWidth()) {
    case 1:
      return ElementKind::Bool;
    case 8:
      return ElementKind::I8;
    case 16:
      return ElementKind::I16;
    case 32:
      return ElementKind::I32;
    case 64:
      return ElementKind::I64;
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
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

static float bitsToFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

static uint32_t floatToBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

static double halfToDouble(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0)
    v = std::ldexp((double)mant, -24);
  else if (exp == 31)
    v = mant ? NAN : INFINITY;
  else
    v = std::ldexp((double)(mant | 0x400), exp - 25);
  return sign ? -v : v;
}

static uint16_t floatToHalf(float f) {
  // Round to nearest even through the hardware-free path.
  uint32_t x = floatToBits(f);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t exp = ((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffff;
  if (((x >> 23) & 0xff) == 0xff)
    return sign | 0x7c00 | (mant ? 0x200 : 0);
  if (exp >= 31)
    return sign | 0x7c00;
  if (exp <= 0) {
    if (exp < -10)
      return sign;
    mant |= 0x800000;
    uint32_t shift = 14 - exp;
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1)))
      ++half;
    return sign | half;
  }
  uint32_t h = sign | (exp << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
    ++h;
  return h;
}

static uint16_t floatToBf16(float f) {
  uint32_t x = floatToBits(f);
  if ((x & 0x7fffffff) > 0x7f800000)
    return (x >> 16) | 0x40;
  uint32_t rounding = 0x7fff + ((x >> 16) & 1);
  return (x + rounding) >> 16;
}

double HostTensor::get(int64_t i) const {
  switch (elementKind) {
  case ElementKind::F32:
    return as<float>()[i];
  case ElementKind::F64:
    return as<double>()[i];
  case ElementKind::F16:
    return halfToDouble(as<uint16_t>()[i]);
  case ElementKind::BF16:
    return bitsToFloat((uint32_t)as<uint16_t>()[i] << 16);
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
    as<uint16_t>()[i] = floatToHalf((float)v);
    return;
  case ElementKind::BF16:
    as<uint16_t>()[i] = floatToBf16((float)v);
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
  }
}

CpuExecutable::~CpuExecutable() = default;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static std::string describe(const TensorSpec &spec) {
  std::string s = "tensor<";
  for (int64_t d : spec.shape)
    s += std::to_string(d) + "x";
  return s + elementKindName(spec.kind) + ">";
}

llvm::Expected<std::unique_ptr<CpuExecutable>>
CpuExecutable::compile(OwningOpRef<ModuleOp> module,
                       const CpuCompileOptions &options) {
  MLIRContext *ctx = module->getContext();
  prepareCompilerContext(*ctx);

  if (!options.autocast.empty() &&
      failed(autocastModule(*module, options.autocast,
                            options.autocastKeepIoTypes)))
    return makeError("autocast (" + options.autocast + ") failed");

  std::unique_ptr<CpuExecutable> exe(new CpuExecutable());
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
  if (llvm::Error lowered =
          options.target == ExecutionTarget::CUDA
              ? lowerModuleForNVVM(*module, options.pipelineOptions,
                                   /*forJit=*/true)
              : lowerModuleForCPU(*module, options.pipelineOptions,
                                  /*forJit=*/true))
    return std::move(lowered);

  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder)
    return tmBuilder.takeError();
  // LLVM 22's x86 type legalization aborts ("Do not know how to soft
  // promote this operator's operand") on loads and stores of bfloat vectors
  // of odd length (<9 x bfloat>) when AVX512-BF16 is on (Cooper Lake,
  // Sapphire Rapids). The generated code expands its bf16 conversions into
  // integer arithmetic (arith-expand), so it uses none of those
  // instructions: turn the feature off.
  tmBuilder->getFeatures().AddFeature("avx512bf16", false);
  llvm::CodeGenOptLevel codegenLevel = options.optLevel >= 3
                                           ? llvm::CodeGenOptLevel::Aggressive
                                           : llvm::CodeGenOptLevel::Default;
  tmBuilder->setCodeGenOptLevel(codegenLevel);
  auto tm = tmBuilder->createTargetMachine();
  if (!tm)
    return tm.takeError();
  auto transformer =
      makeOptimizingTransformer(options.optLevel, /*sizeLevel=*/0, tm->get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = codegenLevel;
  engineOptions.enableGDBNotificationListener = false;
  engineOptions.enablePerfNotificationListener = false;
  // TP_JIT_PERF=1: name the generated functions for `perf` (JitPerfMap.h).
  std::string perfMap = tensorplay::compiler::jitPerfMapPath();
  engineOptions.enableObjectDump = !perfMap.empty();
  auto engine = ExecutionEngine::create(*module, engineOptions, std::move(*tm));
  if (!engine)
    return engine.takeError();
  exe->engine = std::move(*engine);
  // Conversions to bf16 that x86 code generation calls on CPUs without bf16
  // instructions and that the system's libgcc may lack.
  exe->engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    symbols[interner("__truncsfbf2")] =
        llvm::orc::ExecutorSymbolDef::fromPtr(&tp_rt_truncsfbf2);
    symbols[interner("__truncdfbf2")] =
        llvm::orc::ExecutorSymbolDef::fromPtr(&tp_rt_truncdfbf2);
    return symbols;
  });
  exe->engine->initialize();
  // The kernel modules load in the JIT's constructors; without a device
  // that fails, which run() reports (requireCudaDevice) before any call.
  if (options.target == ExecutionTarget::CUDA)
    tp_rt_codegen_clear_error();
  if (!perfMap.empty() && !exe->sigs.empty())
    tensorplay::compiler::writeJitPerfMap(
        *exe->engine,
        ("_mlir_ciface_" + kSymbolPrefix + exe->sigs[0].name).str(), perfMap);
  return std::move(exe);
}

const FunctionSignature *CpuExecutable::lookup(llvm::StringRef name) const {
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

llvm::Error CpuExecutable::run(llvm::StringRef name,
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

llvm::Error CpuExecutable::run(llvm::StringRef name,
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
  tp_rt_codegen_clear_error();
  if (llvm::Error e = engine->invokePacked(
          ("_mlir_ciface_" + kSymbolPrefix + name).str(), packed))
    return e;
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

llvm::Error
CpuExecutable::runOnDevice(const FunctionSignature &sig,
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
