# ci/ scripts (included by tests/CMakeLists.txt):
#   test_ci_probe   ci/probe.sh: the runtime probe that makes ci/test.sh build a
#                   stage but skip its tests when this machine cannot run its
#                   programs (i386 without 32-bit emulation, a sanitizer runtime)
find_program(TFS_BASH bash)
if(TFS_BASH)
  add_test(NAME test_ci_probe COMMAND ${TFS_BASH} ${CMAKE_CURRENT_LIST_DIR}/test_probe.sh ${PROJECT_SOURCE_DIR})
  set_tests_properties(test_ci_probe PROPERTIES LABELS "ci" TIMEOUT 120)
endif()
# test_mutants_run: maint/mutants/run.py's cache key, corpus-only selection,
# reuse counts, stale equivalence lines, address-space limit (no build tree)
if(TFS_PYTHON3)
  add_test(NAME test_mutants_run COMMAND ${TFS_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/test_mutants_run.py ${PROJECT_SOURCE_DIR})
  set_tests_properties(test_mutants_run PROPERTIES LABELS "ci" TIMEOUT 120)
  # test_mutants_run_patch: run.py --patch end to end in this tree (a slip of
  # utf8.c killed by test_utf8, a reworded comment surviving)
  add_test(NAME test_mutants_run_patch COMMAND ${TFS_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/test_mutants_run.py
                                               ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR})
  set_tests_properties(test_mutants_run_patch PROPERTIES LABELS "ci" TIMEOUT 120 SKIP_RETURN_CODE 77)
endif()
