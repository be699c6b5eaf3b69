"""One OpenMP runtime per process.

tensorplay's wheel bundles its own copy of GNU OpenMP (libgomp-<hash>.so);
the compiled code and oneDNN use the system's libgomp.so.1. Two runtimes
mean two thread teams on the same cores, and each team's threads spin-wait
after a parallel region (GOMP_SPINCOUNT, milliseconds by default) while the
other team works: a compiled call right after an eager op (an optimizer
step) ran about 30% slower. Making the bundled copy global before the
extension loads lets the dynamic linker bind oneDNN's and the compiled
code's OpenMP calls to it (symbol lookup searches the global scope first),
so the process has one team. Where tensorplay brings no libgomp of its own
this does nothing; TENSORPLAY_MLIR_SHARE_OPENMP=0 turns it off.
"""

import ctypes
import os
import re


def _loaded_libraries():
    try:
        with open("/proc/self/maps") as maps:
            return {line.split()[-1] for line in maps if "/" in line}
    except OSError:
        return set()


def share_openmp_runtime():
    if os.environ.get("TENSORPLAY_MLIR_SHARE_OPENMP", "1") == "0":
        return None
    for path in sorted(_loaded_libraries()):
        name = os.path.basename(path)
        if re.fullmatch(r"libgomp-[0-9a-f]+\.so(\.\d+)*", name):
            ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
            return path
    return None
