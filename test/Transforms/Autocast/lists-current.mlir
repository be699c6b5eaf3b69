// The per-list tests in lists/ are generated from docs/tensorplay-amp.md and
// the round-trip test: this fails when one of them is out of date with its
// generator (or a generator input changed without regenerating them).
// RUN: %python %tp_src_root/test/Transforms/Autocast/lists/generate.py --check | FileCheck %s
// CHECK-NOT: out of date:
// CHECK: 9 list files, 0 out of date
