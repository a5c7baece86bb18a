# Corpus manifests, checked by run_manifest (manifests and sha256 through the one
# manifest reader, conformance/runner/manifest.h; verdict/rule/category via libtfs).
find_package(OpenSSL REQUIRED)
add_executable(run_manifest ${CMAKE_CURRENT_LIST_DIR}/run_manifest.c)
target_link_libraries(run_manifest PRIVATE tfs_static tfs_manifest tfs_bytepaths)

foreach(part safetensors gguf real)
  add_test(NAME test_corpus_${part} COMMAND run_manifest ${PROJECT_SOURCE_DIR}/corpus/${part}/MANIFEST.tsv)
  set_tests_properties(test_corpus_${part} PROPERTIES LABELS "corpus;${part}" SKIP_RETURN_CODE 77)
endforeach()
# The real files of ../shared (a user's clone has none: skipped there, run in CI).
add_test(NAME test_shared_real COMMAND run_manifest --shared-real ${PROJECT_SOURCE_DIR}/../shared/real/MANIFEST.tsv)
set_tests_properties(test_shared_real PROPERTIES LABELS "corpus;real" SKIP_RETURN_CODE 77)

# The committed fixtures are exactly what the generators write (no hand edits, no stale files);
# audit: the coverage audit of docs/fixtures.md names only manifest ids, its rule table is current.
foreach(gen st_fixtures gg_fixtures audit)
  add_test(NAME test_generator_${gen} COMMAND ${TFS_PYTHON3} ${PROJECT_SOURCE_DIR}/generators/${gen}.py --check)
  set_tests_properties(test_generator_${gen} PROPERTIES LABELS "corpus;generators")
endforeach()

# Writer x parser property test: hypothesis strategies of valid models (generators/tfsgen/strategies.py)
# written by tfsgen must be valid for `tfs dump --json` (default + strict) with the model's content.
if(TARGET tfs)
  add_test(NAME test_generator_strategies
           COMMAND ${TFS_PYTHON3} ${PROJECT_SOURCE_DIR}/generators/test_strategies.py $<TARGET_FILE:tfs>)
  set_tests_properties(test_generator_strategies PROPERTIES LABELS "corpus;generators" SKIP_RETURN_CODE 77)
endif()
# Per-rule "break rule X and only X" strategies (generators/tfsgen/breakers.py, issue 19): every file
# drawn is rejected with that rule (or a listed implied one) in the strategy's profile; 8 examples a
# rule here, the longer run is documented in docs/mint.md.
if(TARGET tfs AND TARGET tfs_shared)
  # 8 examples per rule; 3 in sanitizer builds (the strategies are judged in
  # the plain build; there a sanitized libtfs reads fewer of their files)
  if(TFS_SANITIZE)
    set(_breaker_examples 3)
  else()
    set(_breaker_examples 8)
  endif()
  add_test(NAME test_generator_breakers
           COMMAND ${TFS_PYTHON3} ${PROJECT_SOURCE_DIR}/generators/test_breakers.py $<TARGET_FILE:tfs>
                   --lib $<TARGET_FILE:tfs_shared> --examples ${_breaker_examples})
  set_tests_properties(test_generator_breakers PROPERTIES LABELS "corpus;generators" SKIP_RETURN_CODE 77)
endif()

# The Rust crate's verdicts, recorded as data by maint/crate_verdicts.py (the crate cannot be built
# in CI): every safetensors fixture has one, and its manifest line agrees with it outside the
# strict-only (implementation-defined) rules.
add_test(NAME test_crate_verdicts
         COMMAND ${TFS_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/test_crate_verdicts.py ${PROJECT_SOURCE_DIR})
set_tests_properties(test_crate_verdicts PROPERTIES LABELS "corpus;safetensors")

# Expected contents checked against a decoder that shares nothing with libtfs (indep_decode.py),
# whose ggml type table is checked against ggml's own (npm libggml-base.so; skipped without it).
add_test(NAME test_expected_independent
         COMMAND ${TFS_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/test_expected_independent.py ${PROJECT_SOURCE_DIR})
set_tests_properties(test_expected_independent PROPERTIES LABELS "corpus;expected")
# (conformance/ defines the TFS_GGML_LIB cache entry after tests/ on a first configure: same default)
if(DEFINED TFS_GGML_LIB)
  set(_ggml_lib "${TFS_GGML_LIB}")
else()
  set(_ggml_lib "${CMAKE_BINARY_DIR}/npm/node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/libggml-base.so")
endif()
add_test(NAME test_ggml_type_table
         COMMAND ${TFS_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/test_ggml_type_table.py "${_ggml_lib}")
set_tests_properties(test_ggml_type_table PROPERTIES LABELS "corpus;gguf;ggml-diff" SKIP_RETURN_CODE 77)

# mint's byte minimiser keeps a valid GGUF file valid for ggml's data mode (issue 38, item 6): the
# last tensor's padding is never cut; with TFS_GGML_LIB ggml's data mode must accept every result.
if(TARGET tfs_shared)
  add_test(NAME test_generator_mint_padding
           COMMAND ${TFS_PYTHON3} ${PROJECT_SOURCE_DIR}/generators/test_mint_padding.py --lib $<TARGET_FILE:tfs_shared>)
  set_tests_properties(test_generator_mint_padding PROPERTIES LABELS "corpus;generators" SKIP_RETURN_CODE 77)
  if(DEFINED TFS_GGML_LIB AND NOT TFS_GGML_LIB STREQUAL "")
    set_tests_properties(test_generator_mint_padding PROPERTIES ENVIRONMENT "TFS_GGML_LIB=${TFS_GGML_LIB};GGML_NO_BACKTRACE=1")
  endif()
endif()
