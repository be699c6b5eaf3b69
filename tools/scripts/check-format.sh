#!/usr/bin/env bash
# Checks the formatting (clang-format 22, .clang-format: MLIR's) of the C++
# lines changed since a commit:
#
#   tools/scripts/check-format.sh [<commit>]     (default: HEAD, i.e. the
#                                                 uncommitted changes)
#   tools/scripts/check-format.sh origin/main    (a branch's changes)
#   tools/scripts/check-format.sh --all          (every C++ file of the tree)
#   tools/scripts/check-format.sh --fix [<commit>]   (reformat them instead)
#
# Installs clang-format-22 when missing. Prints the diff clang-format wants
# and exits 1 when there is one.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
source "$ROOT/tools/scripts/packages.sh"
tp_install_missing clang-format-22

fix=0
if [ "${1:-}" = "--fix" ]; then fix=1; shift; fi
if [ "${1:-}" = "--all" ]; then
  mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.cu' '*.cuh')
  if ((fix)); then
    clang-format-22 -i "${files[@]}"
    exit 0
  fi
  out=$(clang-format-22 --dry-run "${files[@]}" 2>&1 || true)
  if [ -n "$out" ]; then
    printf '%s\n' "$out" | grep 'warning:' | cut -d: -f1 | sort | uniq -c
    echo "== $(printf '%s\n' "$out" | grep -c 'warning:') lines to reformat (tools/scripts/check-format.sh --fix --all)"
    exit 1
  fi
  echo "== formatted: ${#files[@]} files"
  exit 0
fi

base="${1:-HEAD}"
if ((fix)); then
  # C++ only: clang-format also formats TableGen, which MLIR does not.
  git-clang-format-22 --force --binary clang-format-22 \
    --extensions cpp,h,cu,cuh "$base"
  exit 0
fi
diff=$(git-clang-format-22 --binary clang-format-22 --diff "$base" -- \
  '*.cpp' '*.h' '*.cu' '*.cuh' 2>&1 || true)
case "$diff" in
  ""|"no modified files to format"*|"clang-format did not modify any files"*)
    echo "== formatted: the C++ changes since $base"
    exit 0 ;;
esac
printf '%s\n' "$diff"
echo "== the C++ changes since $base need formatting (tools/scripts/check-format.sh --fix $base)"
exit 1
