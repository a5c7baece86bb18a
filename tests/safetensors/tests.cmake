# safetensors parser tests (included by tests/CMakeLists.txt).
set(_st_dir ${CMAKE_CURRENT_LIST_DIR})
set(_st_util ${_st_dir}/st_test_util.c ${_st_dir}/st_sha256.c ${PROJECT_SOURCE_DIR}/tests/common/sources.c)
tfs_add_test(test_st_rules SOURCES ${_st_dir}/test_st_rules.c ${_st_util} LABELS safetensors)
tfs_add_test(test_st_json SOURCES ${_st_dir}/test_st_json.c ${_st_util} LABELS safetensors)
tfs_add_test(test_st_valid SOURCES ${_st_dir}/test_st_valid.c ${_st_util} LABELS safetensors)
tfs_add_test(test_st_manifest SOURCES ${_st_dir}/test_st_manifest.c ${_st_util} LABELS safetensors corpus POSIX)
tfs_add_test(test_st_order SOURCES ${_st_dir}/test_st_order.c ${_st_util} LABELS safetensors)
find_package(OpenSSL REQUIRED)
foreach(t test_st_rules test_st_json test_st_valid test_st_manifest test_st_order)
  target_link_libraries(${t} PRIVATE OpenSSL::Crypto)
endforeach()

# Two-fault headers against the Rust crate (generators/st_twofault.py): needs a
# message-printing st-oracle in $ST_ORACLE at test time, so it is skipped in CI.
if(TARGET tfs_cli)
  add_test(NAME test_st_twofault COMMAND ${TFS_PYTHON3} ${PROJECT_SOURCE_DIR}/generators/st_twofault.py
           --tfs $<TARGET_FILE:tfs_cli> --count 2000 --show 5)
  set_tests_properties(test_st_twofault PROPERTIES LABELS "safetensors;oracle" SKIP_RETURN_CODE 77)
endif()
