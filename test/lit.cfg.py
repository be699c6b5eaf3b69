# -*- Python -*-
# lit configuration of the tensorplay tests.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "TENSORPLAY"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tensorplay_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "Inputs", "Runtime", "LitSuite.cmake"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%tp_src_root", config.tensorplay_src_root))
config.substitutions.append(("%tp_obj_root", config.tensorplay_obj_root))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
# The tools' compile cache (on by default) lives in the build tree, never
# in the user's ~/.cache; a rebuilt compiler never reads its predecessor's
# entries (their keys name the binary).
config.environment["TENSORPLAY_MLIR_CACHE_DIR"] = os.path.join(
    config.tensorplay_obj_root, "test", "compile-cache")
llvm_config.use_default_substitutions()

tool_dirs = [config.tensorplay_tools_dir, config.llvm_tools_dir]
tools = ["tp-opt", ToolSubst("not", unresolved="fatal")]
# CPU code generation: tp-run, and the Python (with NumPy) that
# runs the numerics checks of test/Integration/CPU.
tools.append("tp-run")
tools.append("tp-train")
import sys
config.substitutions.append(("%python", sys.executable))
llvm_config.add_tool_substitutions(tools, tool_dirs)

if config.enable_onednn:
    config.available_features.add("onednn")

# The CUDA toolkit's ptxas, for the checks of the PTX tp-lower-to-nvvm emits
# (test/Codegen/GPU): tools/scripts/ptxas-check.py assembles every kernel.
import shutil
ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
config.substitutions.append(
    ("%tp_scripts", os.path.join(config.tensorplay_src_root, "tools", "scripts")))

# MPI (tp-train --distributed): the tests run two ranks on this machine with
# mpirun; "mpi" when tp-train was built with MPI and mpirun exists. Open MPI
# refuses root without the two variables (CI runs as root), and in
# containers its single-copy shared memory (CMA) may be forbidden.
mpirun = shutil.which("mpirun")
if config.mpi_implementation and mpirun:
    config.available_features.add("mpi")
    config.substitutions.append(
        ("%mpirun2", f"{mpirun} -np 2 --oversubscribe --bind-to none"))
    for name, value in (("OMPI_ALLOW_RUN_AS_ROOT", "1"),
                        ("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"),
                        ("OMPI_MCA_btl_vader_single_copy_mechanism", "none")):
        config.environment[name] = value

# A usable CUDA device (nvidia-smi lists one): test/Integration/GPU runs on
# it; without one those tests are unsupported and no-device.mlir checks the
# message instead.
import subprocess
try:
    smi = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True,
                         timeout=30)
    if config.enable_cuda and smi.returncode == 0 and "GPU" in smi.stdout:
        config.available_features.add("cuda-device")
except (OSError, subprocess.TimeoutExpired):
    pass
