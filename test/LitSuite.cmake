# The lit suites (Dialect/, Transforms/, Integration/...) and, as the suite
# TENSORPLAY-Unit (test/Unit/lit.cfg.py), the GoogleTest binaries: `ninja
# check-tensorplay` runs them all. ctest runs the lit suites as one test
# (lit-suite, without TENSORPLAY-Unit) and each gtest on its own.
configure_lit_site_cfg(
  ${CMAKE_CURRENT_SOURCE_DIR}/lit.site.cfg.py.in
  ${CMAKE_CURRENT_BINARY_DIR}/lit.site.cfg.py
  MAIN_CONFIG
  ${CMAKE_CURRENT_SOURCE_DIR}/lit.cfg.py
)
configure_lit_site_cfg(
  ${CMAKE_CURRENT_SOURCE_DIR}/Unit/lit.site.cfg.py.in
  ${CMAKE_CURRENT_BINARY_DIR}/Unit/lit.site.cfg.py
  MAIN_CONFIG
  ${CMAKE_CURRENT_SOURCE_DIR}/Unit/lit.cfg.py
)
set(TENSORPLAY_TEST_DEPENDS FileCheck count not tp-opt tp-run tp-train
  TensorplayUnitTests TensorplayCpuCodegenTests TensorplayRuntimeTests)
add_lit_testsuite(check-tensorplay "Running the tensorplay lit tests"
  ${CMAKE_CURRENT_BINARY_DIR}
  DEPENDS ${TENSORPLAY_TEST_DEPENDS}
)
add_test(NAME lit-suite
  COMMAND ${LLVM_EXTERNAL_LIT} -sv --filter-out "^TENSORPLAY-Unit ::"
          ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(lit-suite PROPERTIES TIMEOUT 2700)
