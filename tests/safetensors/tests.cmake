# safetensors parser tests (included by tests/CMakeLists.txt).
set(_st_dir ${CMAKE_CURRENT_LIST_DIR})
set(_st_util ${_st_dir}/st_test_util.c ${_st_dir}/st_sha256.c ${PROJECT_SOURCE_DIR}/tests/common/sources.c)
tfs_add_test(test_st_rules SOURCES ${_st_dir}/test_st_rules.c ${_st_util} LABELS safetensors)
tfs_add_test(test_st_json SOURCES ${_st_dir}/test_st_json.c ${_st_util} LABELS safetensors)
tfs_add_test(test_st_valid SOURCES ${_st_dir}/test_st_valid.c ${_st_util} LABELS safetensors)
tfs_add_test(test_st_manifest SOURCES ${_st_dir}/test_st_manifest.c ${_st_util} LABELS safetensors corpus POSIX)
tfs_add_test(test_st_order SOURCES ${_st_dir}/test_st_order.c ${_st_util} LABELS safetensors)
tfs_add_test(test_st_nomem SOURCES ${_st_dir}/test_st_nomem.c ${_st_util} LABELS safetensors)
tfs_test_nomem(test_st_nomem)
# duplicate names and keys whose hashes collide: a fixed hash seed (tests/gguf/test_gg_collide.c)
tfs_add_test(test_st_collide SOURCES ${_st_dir}/test_st_collide.c ${_st_util} LABELS safetensors)
target_link_options(test_st_collide PRIVATE -Wl,--wrap=tfs__hash_seed)
find_package(OpenSSL REQUIRED)
foreach(t test_st_rules test_st_json test_st_valid test_st_manifest test_st_order test_st_nomem test_st_collide)
  target_link_libraries(${t} PRIVATE OpenSSL::Crypto)
endforeach()

# Two-fault headers against the Rust crate (generators/st_twofault.py): needs a
# message-printing st-oracle in $ST_ORACLE at test time, so it is skipped in CI.
if(TARGET tfs)
  add_test(NAME test_st_twofault COMMAND ${TFS_PYTHON3} ${PROJECT_SOURCE_DIR}/generators/st_twofault.py
           --tfs $<TARGET_FILE:tfs> --count 2000 --show 5)
  set_tests_properties(test_st_twofault PROPERTIES LABELS "safetensors;oracle" SKIP_RETURN_CODE 77)
endif()

# The fast entry path changes nothing: one probe linked against libtfs, one against tfs_generic
# (parsers/CMakeLists.txt: the fast path compiled out), same output on the corpus and on generated
# headers.  Not in TFS_RULE_OFF / TFS_BUG builds (those flags change libtfs only).
if(TFS_POSIX AND TARGET tfs_generic AND NOT TFS_RULE_OFF AND NOT TFS_BUG)
  add_executable(st_probe_fast ${_st_dir}/st_path_probe.c)
  target_link_libraries(st_probe_fast PRIVATE tfs_static)
  # the dtype-name lookups counted: a canonical entry the fast path gives up on costs one more
  target_compile_definitions(st_probe_fast PRIVATE ST_PROBE_LOOKUPS)
  target_link_options(st_probe_fast PRIVATE -Wl,--wrap=tfs_st_dtype_from_name)
  add_executable(st_probe_generic ${_st_dir}/st_path_probe.c)
  target_link_libraries(st_probe_generic PRIVATE tfs_generic)
  add_test(NAME test_st_fast_entry
           COMMAND ${TFS_PYTHON3} ${_st_dir}/test_st_fast_entry.py $<TARGET_FILE:st_probe_fast>
                   $<TARGET_FILE:st_probe_generic> ${PROJECT_SOURCE_DIR})
  set_tests_properties(test_st_fast_entry PROPERTIES LABELS "safetensors;fast-entry")
endif()
