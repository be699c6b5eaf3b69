#!/usr/bin/env bash
# Fuzzes tp-fuzz (parse + verify + tp-autocast + tp-lower-to-cpu, see
# docs/Testing.md "Fuzzing") for a given time:
#
#   tools/scripts/run-fuzzer.sh [seconds]      (default 600; 0: build only)
#
# Installs what is missing (setup.sh's packages, clang-22 and its libFuzzer
# and sanitizer runtimes), configures and builds its own build directory
# ($TENSORPLAY_FUZZ_BUILD_DIR, default build-fuzz/) with clang-22 and the
# project's code compiled with -fsanitize=fuzzer-no-link,address,undefined
# (coverage guidance and sanitizers in our code; LLVM/MLIR are the
# uninstrumented Debian libraries), regenerates the seed corpus from the lit
# inputs, then runs libFuzzer (restarted after each crash, timeout or
# out-of-memory, so they do not stop the run) on $TENSORPLAY_FUZZ_JOBS
# processes (default 1). The corpus it grows stays in <build>/tp-fuzz/work-corpus and
# is reused by the next run; crash/timeout/oom files go to
# <build>/tp-fuzz/artifacts/. At the end it prints the executions, coverage
# and corpus size, then replays every artifact and groups them by message.
# Exit status: 0 when no artifact exists, 1 otherwise.
#
# Environment: TENSORPLAY_JOBS (build jobs, default nproc), TP_FUZZ_STRICT
# (default 1, see tools/tp-fuzz/tp-fuzz.cpp), TP_FUZZ_KNOWN (default
# tools/tp-fuzz/findings/known.txt: known strict-check findings, which do
# not stop the fuzzer; empty: none), TP_FUZZ_FLAGS (more libFuzzer flags).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SECONDS_TO_RUN="${1:-600}"
BUILD="${TENSORPLAY_FUZZ_BUILD_DIR:-$ROOT/build-fuzz}"
JOBS="${TENSORPLAY_FUZZ_JOBS:-1}"
BUILD_JOBS="${TENSORPLAY_JOBS:-$(nproc)}"
LLVM_DIR=/usr/lib/llvm-22
export TP_FUZZ_STRICT="${TP_FUZZ_STRICT:-1}"
export TP_FUZZ_KNOWN="${TP_FUZZ_KNOWN-$ROOT/tools/tp-fuzz/findings/known.txt}"

source "$ROOT/tools/scripts/packages.sh"
tp_install_missing "${TENSORPLAY_PACKAGES[@]}" "${TENSORPLAY_SANITIZER_PACKAGES[@]}"

SAN="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
tp_configure_clang22 "$BUILD" "$SAN" -DTENSORPLAY_ENABLE_CUDA=OFF -DTENSORPLAY_ENABLE_FUZZER=ON
echo "== building tp-fuzz and its seed corpus"
ninja -C "$BUILD" -j "$BUILD_JOBS" tp-fuzz tp-fuzz-corpus

FUZZ="$BUILD/tp-fuzz"
SEEDS="$FUZZ/corpus"
WORK="$FUZZ/work-corpus"
ART="$FUZZ/artifacts"
mkdir -p "$WORK" "$ART"
if [ "$SECONDS_TO_RUN" = 0 ]; then
  echo "== built $BUILD/bin/tp-fuzz; seeds: $(ls "$SEEDS" | wc -l) in $SEEDS"
  exit 0
fi

# Sanitizer reports abort (libFuzzer records the input); libFuzzer checks
# the inputs that add coverage for leaks (LeakSanitizer).
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:symbolize=1:detect_stack_use_after_return=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:abort_on_error=1}"
export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-$LLVM_DIR/bin/llvm-symbolizer}"

# libFuzzer in-process (fork mode reloads its seeds every few seconds,
# which costs most of the time with inputs of 10 ms to 2 s), restarted after
# each crash/timeout/oom until the time is up: the crashing input is not in
# the corpus, so the next run goes on from there. The seeds are copied into
# the corpus first (same sha1 names); a corpus input that crashes while the
# corpus is loaded is moved out of it.
cp -n "$SEEDS"/* "$WORK"/
STAMP=$(date +%Y%m%d-%H%M%S)
fuzz_loop() { # worker number
  local w=$1 n=0 log now left rc unit
  while :; do
    now=$(date +%s); left=$(( deadline - now ))
    ((left > 0)) || break
    n=$((n + 1))
    log="$FUZZ/logs/$STAMP-w$w-$n.log"
    set +e
    # shellcheck disable=SC2086
    "$BUILD/bin/tp-fuzz" -max_total_time="$left" -max_len=4096 -timeout=60 \
      -rss_limit_mb=4096 -dict="$ROOT/tools/tp-fuzz/tp.dict" -reload=30 \
      -artifact_prefix="$ART/" -print_final_stats=1 ${TP_FUZZ_FLAGS:-} \
      "$WORK" > "$log" 2>&1
    rc=$?
    set -e
    ((rc != 0)) || break
    unit=$(sed -n 's/.*Test unit written to //p' "$log" | tail -1)
    echo "   [worker $w, run $n] exit status $rc: ${unit:-no artifact}" \
      "$(grep -m1 -oE 'tp-fuzz: FINDING: .{0,100}|SUMMARY: [A-Za-z]+: [^ ]+ ?[^ ]*|ERROR: libFuzzer: [a-z -]+' "$log" || true)"
    if [ -z "$unit" ]; then
      echo "   no artifact: stopping worker $w (see $log)"; break
    fi
    if ! grep -q INITED "$log"; then
      rm -f "$WORK/$(basename "$unit" | sed -E 's/^[a-z-]+-//')"
    fi
  done
}

mkdir -p "$FUZZ/logs"
echo "== fuzzing for ${SECONDS_TO_RUN} s on $JOBS process(es); logs: $FUZZ/logs/$STAMP-*"
echo "   seeds: $(ls "$SEEDS" | wc -l), corpus: $(ls "$WORK" | wc -l), artifacts so far: $(ls "$ART" | wc -l)"
start=$(date +%s)
deadline=$(( start + SECONDS_TO_RUN ))
pids=()
for w in $(seq 1 "$JOBS"); do
  fuzz_loop "$w" &
  pids+=($!)
done
wait "${pids[@]}"
elapsed=$(( $(date +%s) - start ))

execs=0
for log in "$FUZZ/logs/$STAMP"-*.log; do
  e=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  execs=$(( execs + ${e:-0} ))
done
echo "== done in ${elapsed} s: $execs executions ($(( execs / (elapsed > 0 ? elapsed : 1) )) exec/s)," \
     "$(ls "$FUZZ/logs/$STAMP"-*.log | wc -l) libFuzzer run(s)"
last=$(grep -hE '^#[0-9]+.*(NEW|REDUCE|pulse|DONE|INITED).*cov:' "$FUZZ/logs/$STAMP"-*.log | tail -1 || true)
echo "   last status: ${last:-none}"
echo "   corpus: $(ls "$WORK" | wc -l) inputs in $WORK"

# Triage: replay every artifact, group by its message.
mapfile -t artifacts < <(find "$ART" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | sort)
echo "   artifacts: ${#artifacts[@]} in $ART"
if ((${#artifacts[@]})); then
  declare -A groups=()
  declare -A first=()
  for a in "${artifacts[@]}"; do
    out=$(timeout 300 "$BUILD/bin/tp-fuzz" -timeout=60 -rss_limit_mb=4096 "$a" 2>&1 || true)
    msg=$(printf '%s\n' "$out" | grep -m1 -E 'tp-fuzz: FINDING:|SUMMARY: (AddressSanitizer|UndefinedBehaviorSanitizer|libFuzzer)|ERROR: libFuzzer: (timeout|out-of-memory)|runtime error:' || true)
    [ -n "$msg" ] || msg="(does not reproduce alone)"
    # The first frame in the project's sources, if any.
    frame=$(printf '%s\n' "$out" | grep -v 'tools/tp-fuzz/' | grep -m1 -E '#[0-9]+ .* in .*/(dialects|lib|runtime|tools)/' | sed -E 's/^ *#[0-9]+ 0x[0-9a-f]+ in //' | cut -c1-160 || true)
    key="$msg | ${frame:-}"
    groups["$key"]=$(( ${groups["$key"]:-0} + 1 ))
    [ -n "${first[$key]:-}" ] || first["$key"]="$a"
  done
  echo "== distinct findings (count, message | first project frame, example):"
  for key in "${!groups[@]}"; do
    printf '  %4d  %s\n        %s\n' "${groups[$key]}" "$key" "${first[$key]}"
  done
  echo "   reproduce: TP_FUZZ_VERBOSE=1 $BUILD/bin/tp-fuzz <file>; minimise: $BUILD/bin/tp-fuzz -minimize_crash=1 -runs=10000 <file>"
  exit 1
fi
exit 0
