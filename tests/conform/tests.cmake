# `tfs conform` (conformance/runner), ctest label conform:
#   test_conform_inprocess_*  the whole corpus through our parsers, in every profile
#   test_conform_runner_KofN  tests/conform/test_conform.py: hostile adapters
#                             (hostile.c), reports, expected failures, SIGINT
# what a forward-only source keeps of GGUF values, at tfs.h's bounds, through
# the byte-path comparison of conformance/runner/bytepaths.c
if(TARGET tfs_bytepaths)
  tfs_add_test(test_bytepaths_keep SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_bytepaths_keep.c LABELS conform POSIX)
  target_link_libraries(test_bytepaths_keep PRIVATE tfs_bytepaths)
endif()
if(TARGET tfs_conform AND TARGET tfs)
  add_executable(conform_hostile ${CMAKE_CURRENT_LIST_DIR}/hostile.c)
  target_link_libraries(conform_hostile PRIVATE tfs_static)
  # (in sanitizer builds it is instrumented too: its abort() is still SIGABRT,
  # and its fake reports are text on stderr)

  add_test(NAME test_conform_inprocess COMMAND tfs conform --fixtures ${PROJECT_SOURCE_DIR}/corpus -q)
  # (strict: default-profile valid lines stand for strict unless the file has a strict line)
  foreach(p default header-only strict)
    add_test(NAME test_conform_inprocess_${p} COMMAND tfs conform --fixtures ${PROJECT_SOURCE_DIR}/corpus --profile ${p} -q)
  endforeach()
  # the nine scenarios of test_conform.py in three shards (test_conform_runner_1of3 ...)
  tfs_add_sharded_test(test_conform_runner 3
    COMMAND ${TFS_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/test_conform.py $<TARGET_FILE:tfs>
            $<TARGET_FILE:conform_hostile> ${PROJECT_SOURCE_DIR}
    LABELS conform PROPERTIES TIMEOUT 600)
  set_tests_properties(test_conform_inprocess test_conform_inprocess_default test_conform_inprocess_header-only
                       test_conform_inprocess_strict PROPERTIES LABELS "conform")
  # the protocol's leniency (64-bit numbers, bits, partial content), adapter
  # sanity, category maps, descriptions (issue 17)
  add_test(NAME test_conform_protocol
           COMMAND ${TFS_PYTHON3} ${CMAKE_CURRENT_LIST_DIR}/test_conform_protocol.py $<TARGET_FILE:tfs> ${PROJECT_SOURCE_DIR})
  set_tests_properties(test_conform_protocol PROPERTIES LABELS "conform" TIMEOUT 900)
  # --fixtures repeated: folders combine, a duplicate id is exit 2
  add_test(NAME test_conform_folders
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_conform_folders.sh $<TARGET_FILE:tfs> ${PROJECT_SOURCE_DIR})
  set_tests_properties(test_conform_folders PROPERTIES LABELS "conform")
endif()
# the optional offset column of the manifests (issue 38, item 4)
if(TARGET tfs_conform AND TARGET tfs)
  add_test(NAME test_conform_offset
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/test_conform_offset.sh $<TARGET_FILE:tfs>)
  set_tests_properties(test_conform_offset PROPERTIES LABELS "conform")
endif()
