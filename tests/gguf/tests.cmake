# GGUF parser unit tests (cmocka).  Each test function carries the rule id it
# triggers (test_GG204_n_dims_5): `grep -r GG204` finds rule, check and test.
set(TFS_GG_TEST_HELPERS gguf/gg_build.c common/sources.c)
tfs_add_test(test_gg_header SOURCES gguf/test_gg_header.c ${TFS_GG_TEST_HELPERS} LABELS gguf)
tfs_add_test(test_gg_kv SOURCES gguf/test_gg_kv.c ${TFS_GG_TEST_HELPERS} LABELS gguf)
tfs_add_test(test_gg_arrays SOURCES gguf/test_gg_arrays.c ${TFS_GG_TEST_HELPERS} LABELS gguf)
tfs_add_test(test_gg_collide SOURCES gguf/test_gg_collide.c ${TFS_GG_TEST_HELPERS} LABELS gguf)
target_link_options(test_gg_collide PRIVATE -Wl,--wrap=tfs__hash_seed)
tfs_add_test(test_gg_find SOURCES gguf/test_gg_find.c ${TFS_GG_TEST_HELPERS} LABELS gguf)
tfs_add_test(test_gg_cursor SOURCES gguf/test_gg_cursor.c ${TFS_GG_TEST_HELPERS} LABELS gguf)
tfs_add_test(test_gg_strings SOURCES gguf/test_gg_strings.c ${TFS_GG_TEST_HELPERS} LABELS gguf)
tfs_add_test(test_gg_nomem SOURCES gguf/test_gg_nomem.c ${TFS_GG_TEST_HELPERS} LABELS gguf)
tfs_test_nomem(test_gg_nomem)
tfs_add_test(test_gg_tensor SOURCES gguf/test_gg_tensor.c ${TFS_GG_TEST_HELPERS} LABELS gguf)
tfs_add_test(test_gg_layout SOURCES gguf/test_gg_layout.c ${TFS_GG_TEST_HELPERS} LABELS gguf POSIX)
tfs_add_test(test_gg_strict SOURCES gguf/test_gg_strict.c ${TFS_GG_TEST_HELPERS} LABELS gguf POSIX)
# shared real files (read-only reference set); the test skips when absent
set(TFS_GG_REAL_DIR "${PROJECT_SOURCE_DIR}/../shared/real" CACHE PATH "folder with MANIFEST.tsv and gguf/ real files")
target_compile_definitions(test_gg_strict PRIVATE TFS_GG_REAL_DIR="${TFS_GG_REAL_DIR}")
