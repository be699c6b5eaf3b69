# The lit suites (Dialect/, Transforms/, Integration/...), run by ctest as
# one test and by `ninja check-tensorplay`.
configure_lit_site_cfg(
  ${CMAKE_CURRENT_SOURCE_DIR}/lit.site.cfg.py.in
  ${CMAKE_CURRENT_BINARY_DIR}/lit.site.cfg.py
  MAIN_CONFIG
  ${CMAKE_CURRENT_SOURCE_DIR}/lit.cfg.py
)
set(TENSORPLAY_TEST_DEPENDS FileCheck count not tp-opt tp-run)
add_lit_testsuite(check-tensorplay "Running the tensorplay lit tests"
  ${CMAKE_CURRENT_BINARY_DIR}
  DEPENDS ${TENSORPLAY_TEST_DEPENDS}
)
add_test(NAME lit-suite
  COMMAND ${LLVM_EXTERNAL_LIT} -sv ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(lit-suite PROPERTIES TIMEOUT 1200)
