//===- tp-fuzz.cpp - libFuzzer target over tp-opt's pipeline --------------===//
//
// One input is the text of an MLIR module. It is parsed in a context with
// every dialect tp-opt registers (diagnostics are captured, not printed),
// verified, printed and parsed again (the round trip), then on a clone:
//
//   tp-autocast{target=<t>}   t from cuda:fp16, cpu:bf16, xpu:bf16, ""
//   tp-lower-to-cpu{...}      to-llvm, use-onednn, parallel, vectorize,
//                             vector-width, emit-c-interface
//   translation to LLVM IR    when to-llvm is on
//
// The choices come from a hash of the input's non-comment bytes, or from a
// line `// tp-fuzz: key=value ...` in the input (reproducers use it; keys as
// in --help of this file: target, keep-io, report, to-llvm, onednn,
// parallel, vectorize, vector-width, c-interface, translate).
//
// Failing is allowed only with a diagnostic. Everything else is a finding:
// a crash, an abort, a sanitizer report, a hang (-timeout). With
// TP_FUZZ_STRICT=1 (the default) so are: a pass that succeeds but leaves IR
// that does not verify (tp-opt reports that as a verifier error), a printed
// module that does not parse and verify again, a pass pipeline or the
// translation failing without an error diagnostic. Such checks abort() with
// a "tp-fuzz: FINDING:" line on stderr. TP_FUZZ_STRICT=0 keeps only the
// crashes (the passes are then verified as tp-opt does it, and a failed
// verification is an ordinary diagnostic).
//
// Environment: TP_FUZZ_VERBOSE=1 prints the choices, the diagnostics and
// the stage reached of every input (for triage). TP_FUZZ_KNOWN=<file>: a
// strict-check finding whose message contains a line of that file (not
// empty, not starting with '#') is a known one: the input then counts as
// failed (a pass that broke the IR: the function or module it ran on is
// emptied, so the rest of the pipeline never sees invalid IR) and fuzzing
// goes on. Crashes and sanitizer reports cannot be filtered.
//
// Built with -fsanitize=fuzzer this is a libFuzzer binary; without libFuzzer
// (TENSORPLAY_FUZZ_REPLAY) main() below replays files and directories given
// on the command line (flags starting with '-' are ignored), so the seed
// corpus still runs as a test.
//
//===----------------------------------------------------------------------===//

#include "tensorplay/Conversion/Passes.h"
#include "tensorplay/Dialect/TP/IR/TPDialect.h"
#include "tensorplay/Dialect/TP/Transforms/Passes.h"
#include "tensorplay/Pipelines/CPUPipeline.h"
#include "tensorplay/Transforms/Passes.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace mlir;

namespace {

bool verbose() {
  static const bool v = [] {
    const char *env = std::getenv("TP_FUZZ_VERBOSE");
    return env && *env && std::string(env) != "0";
  }();
  return v;
}

bool strict() {
  static const bool v = [] {
    const char *env = std::getenv("TP_FUZZ_STRICT");
    return !env || !*env || std::string(env) != "0";
  }();
  return v;
}

[[noreturn]] void finding(const llvm::Twine &what) {
  llvm::errs() << "tp-fuzz: FINDING: " << what << "\n";
  llvm::errs().flush();
  std::abort();
}

const std::vector<std::string> &knownFindings() {
  static const std::vector<std::string> known = [] {
    std::vector<std::string> lines;
    const char *path = std::getenv("TP_FUZZ_KNOWN");
    if (!path || !*path)
      return lines;
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
        llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
    if (!file) {
      llvm::errs() << "tp-fuzz: cannot read TP_FUZZ_KNOWN=" << path << "\n";
      std::exit(2);
    }
    llvm::SmallVector<llvm::StringRef> split;
    (*file)->getBuffer().split(split, '\n', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef line : split) {
      line = line.trim();
      if (!line.empty() && !line.starts_with("#"))
        lines.push_back(line.str());
    }
    return lines;
  }();
  return known;
}

// A strict-check finding: aborts unless it is a known one (returns then).
void strictFinding(const std::string &what) {
  for (const std::string &known : knownFindings())
    if (what.find(known) != std::string::npos) {
      if (verbose())
        llvm::errs() << "  known finding: " << what << "\n";
      return;
    }
  finding(what);
}

// What one input runs. Defaults are tp-opt's.
struct Choices {
  std::string target = "cuda:fp16";
  bool keepIo = false;
  bool report = false; // JSON report to /dev/null
  bool toLLVM = true;
  bool oneDNN = true;
  bool parallel = true;
  bool vectorize = true;
  int64_t vectorWidth = 16;
  bool cInterface = true;
  bool translate = true;

  void print(llvm::raw_ostream &os) const {
    os << "target=" << (target.empty() ? "none" : target)
       << " keep-io=" << keepIo << " report=" << report
       << " to-llvm=" << toLLVM << " onednn=" << oneDNN
       << " parallel=" << parallel << " vectorize=" << vectorize
       << " vector-width=" << vectorWidth << " c-interface=" << cInterface
       << " translate=" << translate;
  }
};

const char *const kTargets[] = {"cuda:fp16", "cpu:bf16", "xpu:bf16", ""};
const int64_t kWidths[] = {16, 8, 4, 1};

// FNV-1a over the bytes outside `//` comment lines, so a reproducer keeps
// its choices when comments are added to it.
uint64_t hashCode(llvm::StringRef text) {
  uint64_t h = 14695981039346656037ull;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    if (line.ltrim().starts_with("//"))
      continue;
    for (unsigned char c : line) {
      h ^= c;
      h *= 1099511628211ull;
    }
    h ^= '\n';
    h *= 1099511628211ull;
  }
  return h;
}

Choices choose(llvm::StringRef text) {
  uint64_t h = hashCode(text);
  auto bits = [&](unsigned n) {
    uint64_t v = h & ((1u << n) - 1);
    h >>= n;
    return v;
  };
  Choices c;
  c.target = kTargets[bits(2)];
  c.keepIo = bits(2) == 0;    // 1 in 4
  c.report = bits(2) == 0;    // 1 in 4
  c.toLLVM = bits(1);         // 1 in 2
  c.oneDNN = bits(2) != 0;    // 3 in 4
  c.parallel = bits(2) != 0;  // 3 in 4
  c.vectorize = bits(2) != 0; // 3 in 4
  c.vectorWidth = kWidths[bits(2)];
  c.cInterface = bits(2) != 0; // 3 in 4
  c.translate = bits(2) != 0;  // 3 in 4

  // Explicit choices: `// tp-fuzz: key=value ...`.
  size_t pos = text.find("// tp-fuzz:");
  if (pos != llvm::StringRef::npos) {
    llvm::StringRef line =
        text.substr(pos + strlen("// tp-fuzz:")).split('\n').first;
    llvm::SmallVector<llvm::StringRef> words;
    line.split(words, ' ', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef word : words) {
      auto [key, value] = word.split('=');
      bool on = value == "1" || value == "true" || value == "on";
      if (key == "target")
        c.target = value == "none" ? "" : value.str();
      else if (key == "keep-io")
        c.keepIo = on;
      else if (key == "report")
        c.report = on;
      else if (key == "to-llvm")
        c.toLLVM = on;
      else if (key == "onednn")
        c.oneDNN = on;
      else if (key == "parallel")
        c.parallel = on;
      else if (key == "vectorize")
        c.vectorize = on;
      else if (key == "vector-width")
        value.getAsInteger(10, c.vectorWidth);
      else if (key == "c-interface")
        c.cInterface = on;
      else if (key == "translate")
        c.translate = on;
    }
  }
  return c;
}

const DialectRegistry &getRegistry() {
  static const DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    // tp-opt's registry: its own list plus the CPU codegen dialects (a
    // superset of that list) and their interfaces and translations.
    tp::registerCPUCodegenDialects(*r);
    return r;
  }();
  return *registry;
}

// Captures every diagnostic; counts the errors, keeps the last one's text.
struct Diagnostics {
  explicit Diagnostics(MLIRContext &ctx)
      : handler(&ctx, [this](Diagnostic &diag) {
          if (diag.getSeverity() == DiagnosticSeverity::Error) {
            ++errors;
            lastError = diag.str();
          }
          if (verbose())
            llvm::errs() << "  diag: " << diag.getLocation() << ": "
                         << diag.str() << "\n";
          return success();
        }) {}
  unsigned errors = 0;
  std::string lastError;
  ScopedDiagnosticHandler handler;
};

// Verifies the IR after every pass that succeeded: a pass may fail (with a
// diagnostic) but must not succeed and leave IR that does not verify.
struct VerifyAfterPass : public PassInstrumentation {
  VerifyAfterPass(Diagnostics &diags, bool &broken)
      : diags(diags), broken(broken) {}
  void runAfterPass(Pass *pass, Operation *op) override {
    unsigned before = diags.errors;
    if (succeeded(verify(op)))
      return;
    std::string what = "pass '" + pass->getArgument().str() +
                       "' succeeded but the IR does not verify: " +
                       (diags.errors == before ? std::string("(no message)")
                                               : diags.lastError);
    strictFinding(what); // returns only for a known finding
    // Known: empty what the pass ran on, so that the passes after it see
    // valid IR; the pipeline then counts as failed.
    broken = true;
    if (auto func = dyn_cast<FunctionOpInterface>(op)) {
      Region &body = func.getFunctionBody();
      body.dropAllReferences();
      body.getBlocks().clear();
      SymbolTable::setSymbolVisibility(func, SymbolTable::Visibility::Private);
    } else if (auto module = dyn_cast<ModuleOp>(op)) {
      module.getBody()->clear();
    } else {
      finding(what + " (known, but on '" + op->getName().getStringRef() +
              "', which tp-fuzz cannot empty)");
    }
    if (failed(verify(op)))
      finding(what + " (known, and still invalid once emptied)");
  }
  Diagnostics &diags;
  bool &broken;
};


void note(const llvm::Twine &stage) {
  if (verbose())
    llvm::errs() << "  stage: " << stage << "\n";
}

OwningOpRef<ModuleOp> parse(llvm::StringRef text, MLIRContext &ctx,
                            const char *name) {
  llvm::SourceMgr sourceMgr;
  // A copy with a terminating NUL, as the lexer expects of its buffer.
  sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(text, name),
                               llvm::SMLoc());
  ParserConfig config(&ctx, /*verifyAfterParse=*/false);
  return parseSourceFile<ModuleOp>(sourceMgr, config);
}

std::string print(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

// Runs `build`'s passes on `module`; a failure must come with an error.
LogicalResult runPasses(ModuleOp module, Diagnostics &diags,
                        llvm::function_ref<void(PassManager &)> build,
                        const char *what) {
  PassManager pm(module->getContext());
  bool broken = false;
  if (strict()) {
    // VerifyAfterPass verifies instead, telling a pass's own failure apart
    // from a pass that broke the IR.
    pm.enableVerifier(false);
    pm.addInstrumentation(std::make_unique<VerifyAfterPass>(diags, broken));
  }
  build(pm);
  unsigned before = diags.errors;
  if (succeeded(pm.run(module)))
    return failure(broken);
  if (strict() && !broken && diags.errors == before)
    strictFinding(std::string(what) + " failed without an error diagnostic");
  return failure();
}

void runOne(llvm::StringRef text) {
  Choices choices = choose(text);
  if (verbose()) {
    llvm::errs() << "tp-fuzz: ";
    choices.print(llvm::errs());
    llvm::errs() << "\n";
  }

  MLIRContext ctx(getRegistry(), MLIRContext::Threading::DISABLED);
  Diagnostics diags(ctx);

  // Parse and verify.
  OwningOpRef<ModuleOp> module = parse(text, ctx, "input");
  if (!module) {
    note("parse failed");
    return;
  }
  if (failed(verify(*module))) {
    note("verify failed");
    return;
  }

  // What verifies prints as something that parses and verifies again.
  {
    std::string printed = print(*module);
    unsigned before = diags.errors;
    OwningOpRef<ModuleOp> again = parse(printed, ctx, "printed");
    if (strict() && (!again || failed(verify(*again)))) {
      if (verbose())
        llvm::errs() << "printed:\n" << printed << "\n";
      strictFinding(std::string("the printed module does not ") +
                    (again ? "verify" : "parse") + " again: " +
                    (diags.errors == before ? std::string("(no message)")
                                            : diags.lastError));
      return;
    }
  }
  note("parsed and verified");

  // Autocast on a clone.
  OwningOpRef<ModuleOp> work = module->clone();
  if (failed(runPasses(
          *work, diags,
          [&](PassManager &pm) {
            tp::AutocastPassOptions options;
            options.target = choices.target;
            options.keepIoTypes = choices.keepIo;
            if (choices.report)
              options.report = "/dev/null";
            pm.addPass(tp::createAutocastPass(options));
          },
          "tp-autocast"))) {
    note("autocast failed");
    return;
  }
  note("autocast done");

  // tp-lower-to-cpu.
  tp::TPLowerToCPUOptions options;
  options.toLLVM = choices.toLLVM;
  options.useOneDNN = choices.oneDNN;
  options.parallel = choices.parallel;
  options.vectorize = choices.vectorize;
  options.vectorWidth = choices.vectorWidth;
  options.emitCInterface = choices.cInterface;
  if (failed(tp::verifyTPLowerToCPUOptions(options, [&](const llvm::Twine &m) {
        return emitError(UnknownLoc::get(&ctx)) << m;
      })))
    finding("the fuzzer chose options verifyTPLowerToCPUOptions rejects");
  if (failed(runPasses(
          *work, diags,
          [&](PassManager &pm) { tp::buildTPLowerToCPUPipeline(pm, options); },
          "tp-lower-to-cpu"))) {
    note("lowering failed");
    return;
  }
  note("lowering done");

  if (!choices.toLLVM || !choices.translate)
    return;
  llvm::LLVMContext llvmContext;
  unsigned before = diags.errors;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*work, llvmContext);
  if (!llvmModule) {
    if (strict() && diags.errors == before)
      strictFinding(
          "translation to LLVM IR failed without an error diagnostic");
    note("translation failed");
    return;
  }
  note("translated to LLVM IR");
}

void fatalErrorHandler(void *, const char *reason, bool) {
  // Abort (not exit) so that libFuzzer and the sanitizers report a stack.
  fprintf(stderr, "tp-fuzz: FINDING: LLVM fatal error: %s\n", reason);
  fflush(stderr);
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::install_fatal_error_handler(fatalErrorHandler);
  tp::registerTensorplayPasses();
  tp::registerTensorplayConversionPasses();
  tp::registerTPTransformsPasses();
  tp::registerCPUCodegenPassesAndPipelines();
  (void)getRegistry();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  runOne(llvm::StringRef(reinterpret_cast<const char *>(data), size));
  return 0;
}

#ifdef TENSORPLAY_FUZZ_REPLAY
// Replay-only driver (no libFuzzer): runs every file named on the command
// line and every file in the directories named there, in sorted order.
#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <vector>

int main(int argc, char **argv) {
  LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg.starts_with("-"))
      continue; // libFuzzer flags: meaningless here
    if (llvm::sys::fs::is_directory(arg)) {
      std::error_code ec;
      std::vector<std::string> inDir;
      for (llvm::sys::fs::directory_iterator it(arg, ec), end;
           it != end && !ec; it.increment(ec))
        if (llvm::sys::fs::is_regular_file(it->path()))
          inDir.push_back(it->path());
      std::sort(inDir.begin(), inDir.end());
      files.insert(files.end(), inDir.begin(), inDir.end());
    } else {
      files.push_back(arg.str());
    }
  }
  size_t done = 0;
  for (const std::string &file : files) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
    if (!buffer) {
      llvm::errs() << "tp-fuzz: cannot read " << file << "\n";
      return 1;
    }
    if (verbose())
      llvm::errs() << "tp-fuzz: running " << file << "\n";
    LLVMFuzzerTestOneInput(
        reinterpret_cast<const uint8_t *>((*buffer)->getBufferStart()),
        (*buffer)->getBufferSize());
    ++done;
  }
  llvm::outs() << "tp-fuzz (replay only, no libFuzzer): ran " << done
               << " inputs, no finding\n";
  return 0;
}
#endif
