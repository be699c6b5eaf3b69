# -*- Python -*-
# lit configuration of the GoogleTest binaries (test/Unit, test/Runtime), as
# CIRCT's test/Unit: `ninja check-tensorplay` and `lit build/test` run them
# beside the lit suites. ctest runs them through gtest_discover_tests and
# filters them out of its lit-suite entry.

import os

import lit.formats

config.name = "TENSORPLAY-Unit"
config.suffixes = []
# The binaries are in build/test/Unit and build/test/Runtime.
config.test_exec_root = os.path.join(config.tensorplay_obj_root, "test")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest("Unit;Runtime", "Tests")

for var in ["TMP", "TEMP", "HOME", "ASAN_OPTIONS", "UBSAN_OPTIONS",
            "LSAN_OPTIONS", "ASAN_SYMBOLIZER_PATH"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
