# Corpus manifests, checked by run_manifest (manifests and sha256 through the one
# manifest reader, conformance/runner/manifest.h; verdict/rule/category via libtfs).
find_package(OpenSSL REQUIRED)
add_executable(run_manifest ${CMAKE_CURRENT_LIST_DIR}/run_manifest.c)
target_link_libraries(run_manifest PRIVATE tfs tfs_manifest tfs_bytepaths)

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
if(TARGET tfs_cli)
  add_test(NAME test_generator_strategies
           COMMAND ${TFS_PYTHON3} ${PROJECT_SOURCE_DIR}/generators/test_strategies.py $<TARGET_FILE:tfs_cli>)
  set_tests_properties(test_generator_strategies PROPERTIES LABELS "corpus;generators" SKIP_RETURN_CODE 77)
endif()
