# A shippable libtfs (included by tests/CMakeLists.txt):
#   test_exports          nm -D of libtfs.so = the TFS_API declarations of include/tfs/*.h
#   test_install_consumer_lib, _suite  cmake --install into a temp prefix; examples/consumer via
#                         find_package(tfs); pkg-config --cflags --libs tfs; a pkg-config compile
#   test_minimal_build    configure + build with TFS_BUILD_TESTS=OFF and no cmocka,
#                         OpenSSL, pkg-config or Python to be found
#   test_no_posix         (TFS_POSIX=OFF) libtfs.a references no POSIX I/O, no getrandom
# Not in sanitizer builds: their libraries need the sanitizer runtime at link time.
string(REPLACE " " ";" _tfs_cflags_list "${CMAKE_C_FLAGS}")
if(NOT TFS_SANITIZE)
  add_test(NAME test_exports
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_exports.sh $<TARGET_FILE:tfs_shared> ${PROJECT_SOURCE_DIR}
                   ${TFS_GENERATED_INCLUDE_DIR} ${CMAKE_C_COMPILER} ${_tfs_cflags_list}
                   $<$<NOT:$<BOOL:${TFS_POSIX}>>:-DTFS_NO_POSIX>)
  set_tests_properties(test_exports PROPERTIES LABELS "ship")
  if(TFS_INSTALL)
    # in two parts run at once: the library as a package (lib), the conformance suite through it (suite)
    foreach(_part lib suite)
      add_test(NAME test_install_consumer_${_part}
               COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_install.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}
                       ${CMAKE_C_COMPILER} ${TFS_POSIX} ${TFS_BUILD_TOOLS} ${_tfs_cflags_list})
      set_tests_properties(test_install_consumer_${_part} PROPERTIES LABELS "ship;install" TIMEOUT 600
                           ENVIRONMENT "TFS_INSTALL_PART=${_part}")
    endforeach()
  endif()
  if(TFS_POSIX)
    add_test(NAME test_minimal_build
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_minimal_build.sh ${PROJECT_SOURCE_DIR} ${CMAKE_C_COMPILER}
                     ${_tfs_cflags_list})
    set_tests_properties(test_minimal_build PROPERTIES LABELS "ship" TIMEOUT 900)
  endif()
endif()
if(NOT TFS_POSIX)
  # every POSIX call lives in parsers/core/posix_*.c and parsers/posix_file.c, left out of this build
  set(TFS_NO_POSIX_FORBIDDEN "getrandom getentropy clock_gettime open open64 openat openat64 pread pread64 fstat fstat64 __fxstat __fxstat64 close read lseek mmap madvise ftruncate")
  set(TFS_NO_POSIX_PENDING "")
  add_test(NAME test_no_posix
           COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/test_no_posix.sh $<TARGET_FILE:tfs_static> "${TFS_NO_POSIX_FORBIDDEN}"
                   "${TFS_NO_POSIX_PENDING}")
  set_tests_properties(test_no_posix PROPERTIES LABELS "ship;nonposix")
endif()
# After maint/rename_internal.sh BUILD --apply: every external symbol of
# libtfs.a is public (tfs_*) or internal (tfs__*), so a program's own names
# cannot collide with the library's even in a static link.
if(NOT TFS_SANITIZE)
  add_test(NAME test_internal_prefix COMMAND bash ${PROJECT_SOURCE_DIR}/maint/rename_internal.sh ${PROJECT_BINARY_DIR} --check)
  set_tests_properties(test_internal_prefix PROPERTIES LABELS "ship")
endif()
