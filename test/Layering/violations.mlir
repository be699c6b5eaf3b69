// The layering check on a made-up tree (Inputs/tree): A includes B's header
// through a private header without linking B, includes a header nobody owns,
// and B claims a header that does not exist. B links A (through CMake's
// $<LINK_ONLY:...>), so its include of A's header is fine.
// RUN: not %python %S/check-layering.py %S/Inputs/tree/layering.json %S/Inputs/tree | FileCheck %s
// CHECK-DAG: layering violation: B owns tensorplay/Missing.h, which does not exist
// CHECK-DAG: layering violation: A: lib/A/a.cpp includes tensorplay/C/C.h, which no library owns (tensorplay_target_headers)
// CHECK-DAG: layering violation: A: lib/A/Private.h includes tensorplay/B/B.h (of B) but A does not link B
// CHECK-NOT: layering violation: B:
