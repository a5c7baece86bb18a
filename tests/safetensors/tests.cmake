# safetensors parser tests (included by tests/CMakeLists.txt).
set(_st_dir ${CMAKE_CURRENT_LIST_DIR})
set(_st_util ${_st_dir}/st_test_util.c ${_st_dir}/st_sha256.c)
tfs_add_test(test_st_rules SOURCES ${_st_dir}/test_st_rules.c ${_st_util} LABELS safetensors)
tfs_add_test(test_st_json SOURCES ${_st_dir}/test_st_json.c ${_st_util} LABELS safetensors)
tfs_add_test(test_st_valid SOURCES ${_st_dir}/test_st_valid.c ${_st_util} LABELS safetensors)
tfs_add_test(test_st_manifest SOURCES ${_st_dir}/test_st_manifest.c ${_st_util} LABELS safetensors corpus)
