# The writer (include/tfs/write.h): write -> parse equality, field maps, knobs
# -> rule ids, and the round trip over every valid fixture and real file.
tfs_add_test(test_write_gguf SOURCES write/test_write_gguf.c write/wt_util.c write/wt_expect.c LABELS write gguf)
tfs_add_test(test_write_gg_limits SOURCES write/test_write_gg_limits.c common/sources.c common/writes.c LABELS
             write gguf)
tfs_add_test(test_write_st SOURCES write/test_write_st.c write/wt_util.c write/wt_expect.c LABELS write safetensors)
tfs_add_test(test_write_st_bytes SOURCES write/test_write_st_bytes.c write/wt_util.c common/writes.c LABELS write
             safetensors)

add_executable(write_roundtrip ${CMAKE_CURRENT_LIST_DIR}/roundtrip.c ${CMAKE_CURRENT_LIST_DIR}/wt_util.c)
target_link_libraries(write_roundtrip PRIVATE tfs_static)
if(NOT TFS_POSIX)
  target_link_libraries(write_roundtrip PRIVATE tfs_test_seed)
endif()
add_test(NAME test_write_roundtrip
         COMMAND write_roundtrip --manifest ${PROJECT_SOURCE_DIR}/corpus/safetensors/MANIFEST.tsv
                 --manifest ${PROJECT_SOURCE_DIR}/corpus/gguf/MANIFEST.tsv
                 --manifest ${PROJECT_SOURCE_DIR}/corpus/real/MANIFEST.tsv
                 --dir ${PROJECT_SOURCE_DIR}/corpus/real)
set_tests_properties(test_write_roundtrip PROPERTIES LABELS "write;corpus")
# ../shared/real (absent in a user's clone: skipped there)
add_test(NAME test_write_roundtrip_shared_real COMMAND write_roundtrip --dir ${PROJECT_SOURCE_DIR}/../shared/real)
set_tests_properties(test_write_roundtrip_shared_real PROPERTIES LABELS "write;real" SKIP_RETURN_CODE 77)
# the output buffer and its file output against a model of the file (tfs/write.h)
tfs_add_test(test_wbuf SOURCES write/test_wbuf.c LABELS write POSIX)
if(TARGET test_wbuf)
  target_link_options(test_wbuf PRIVATE -Wl,--wrap=realloc,--wrap=malloc,--wrap=pwrite64,--wrap=close) # allocation failures on demand
endif()
# every allocation of the writers and of view -> model failing in turn
tfs_add_test(test_write_nomem SOURCES write/test_write_nomem.c common/sources.c LABELS write)
tfs_test_nomem(test_write_nomem)
