# tests/lint: lint rules (LTnnn) and model sets (SETnnn), docs/lint.md.
# lint_mkfiles writes the fixtures of corpus/lint with the C writer;
# test_lint.sh checks that they are what is committed, runs every case
# through `tfs check --lint` (expected ids), the done-when cases, and the
# real files (no lint error).
add_executable(lint_mkfiles ${PROJECT_SOURCE_DIR}/tests/lint/lint_mkfiles.c ${PROJECT_SOURCE_DIR}/tests/common/st_model.c)
target_link_libraries(lint_mkfiles PRIVATE tfs_static)
target_include_directories(lint_mkfiles PRIVATE ${PROJECT_SOURCE_DIR}/tests)
add_test(NAME test_lint
         COMMAND ${PROJECT_SOURCE_DIR}/tests/lint/test_lint.sh $<TARGET_FILE:tfs> $<TARGET_FILE:lint_mkfiles>
                 ${PROJECT_SOURCE_DIR})
set_tests_properties(test_lint PROPERTIES LABELS "lint;cli;corpus" SKIP_RETURN_CODE 77)
# test_lint_findings: what each corpus/lint finding names (file, tensor, key,
# numbers), written by hand from the rules; the JSON reader of index.json.
tfs_add_test(test_lint_findings SOURCES lint/test_lint_findings.c common/files.c common/sources.c common/st_model.c common/writes.c LABELS lint)
target_include_directories(test_lint_findings PRIVATE ${PROJECT_SOURCE_DIR}/parsers/lint)
# libtfs's qsort through a checking, reversing one (test_lint_findings.c): comparators must be total orders
# and no answer may depend on the order a sort keeps for equal elements
target_link_options(test_lint_findings PRIVATE -Wl,--wrap=qsort)
# test_lint_nomem: every allocation of the lint entry points failing in turn
tfs_add_test(test_lint_nomem SOURCES lint/test_lint_nomem.c common/files.c common/sources.c LABELS lint)
target_include_directories(test_lint_nomem PRIVATE ${PROJECT_SOURCE_DIR}/parsers/lint)
# (tfs_test_nomem of tests/CMakeLists.txt, defined after this file is included)
target_sources(test_lint_nomem PRIVATE ${PROJECT_SOURCE_DIR}/tests/common/nomem.c)
target_link_options(test_lint_nomem PRIVATE -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=aligned_alloc)
# test_lint_io: lint.c's read loops through a pread (-Wl,--wrap=pread64) that
# reads short, is interrupted (EINTR) or meets an early end
tfs_add_test(test_lint_io SOURCES lint/test_lint_io.c common/files.c LABELS lint)
target_include_directories(test_lint_io PRIVATE ${PROJECT_SOURCE_DIR}/parsers/lint)
target_link_options(test_lint_io PRIVATE -Wl,--wrap=pread64)
# test_lint_bytes: GGUF bytes no structure owns (LT113 trailing, LT114 padding), on files made by tfs_gg_write, offsets counted by hand
tfs_add_test(test_lint_bytes SOURCES lint/test_lint_bytes.c common/files.c common/sources.c LABELS lint)
# test_set_io: tfs_set_check_io / tfs_set_entries_io over files in memory give what the POSIX ones give
tfs_add_test(test_set_io SOURCES lint/test_set_io.c LABELS lint POSIX)
