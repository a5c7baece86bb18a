# install.cmake: what `cmake --install` puts under the prefix (GNUInstallDirs):
#   include/tfs/*.h, *.def     public headers (+ the generated tfs/version.h)
#   lib/libtfs.a               static library      (CMake target tfs::tfs_static)
#   lib/libtfs.so.X.Y.Z        shared library, SONAME libtfs.so.X, links
#                              libtfs.so.X and libtfs.so (target tfs::tfs)
#   bin/tfs                    the command line (TFS_BUILD_TOOLS)
#   share/man/man1/tfs.1       its manual page (TFS_BUILD_TOOLS)
#   share/bash-completion/completions/tfs   its bash completion (TFS_BUILD_TOOLS)
#   lib/cmake/tfs/             tfsConfig.cmake, tfsConfigVersion.cmake,
#                              tfsTargets*.cmake: find_package(tfs)
#   lib/pkgconfig/tfs.pc       pkg-config --cflags --libs tfs (relocatable:
#                              paths relative to the .pc file)
#   share/tfs/conformance/     (TFS_BUILD_TOOLS) the conformance suite: gguf/,
#                              safetensors/, real/ (MANIFEST.tsv, fixtures,
#                              expected/), README.md, adapters/; with
#                              lib/cmake/tfs/tfsConformance.cmake:
#                              tfs_add_conformance_tests()
#   lib/libtfs_mutator.a       the structure-aware mutators (tfs::mutator,
#                              header tfs/mutate.h; needs libtfs.a)
#   lib/tfs/tfs_mutator_libfuzzer.o   ready object: LLVMFuzzerCustomMutator +
#                              LLVMFuzzerCustomCrossOver with their own
#                              uninstrumented libtfs (tfs::mutator_libfuzzer)
#   lib/tfs/libtfs_afl_mutator.so     AFL++ custom mutator (tfs_AFL_MUTATOR)
#   lib/pkgconfig/tfs-mutator.pc, tfs-mutator-libfuzzer.pc
# tests/install/test_install.sh installs into a temporary prefix and builds
# examples/consumer against it (ctest test_install_consumer_lib, _suite).
include(CMakePackageConfigHelpers)

set(TFS_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/tfs CACHE STRING
    "Where tfsConfig.cmake is installed, relative to the prefix")

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/tfs/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tfs
        COMPONENT tfs_dev
        FILES_MATCHING PATTERN "*.h" PATTERN "*.def")
install(FILES ${TFS_GENERATED_INCLUDE_DIR}/tfs/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tfs COMPONENT tfs_dev)

install(TARGETS tfs_static tfs_shared EXPORT tfsTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT tfs_dev
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT tfs_runtime NAMELINK_COMPONENT tfs_dev
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tfs_runtime)
set(TFS_INSTALL_CONFORMANCEDIR ${CMAKE_INSTALL_DATADIR}/tfs/conformance CACHE STRING
    "Where the conformance suite (fixtures, manifests, expected contents) is installed, relative to the prefix")
if(TFS_BUILD_TOOLS)
  install(TARGETS tfs RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tfs_tools)
  if(TARGET tfs-conform) # `tfs conform` runs it from beside tfs
    install(TARGETS tfs-conform RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tfs_tools)
  endif()
  install(FILES ${PROJECT_SOURCE_DIR}/tools/tfs/tfs.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT tfs_tools)
  install(FILES ${PROJECT_SOURCE_DIR}/tools/tfs/tfs.bash DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/bash-completion/completions
          RENAME tfs COMPONENT tfs_tools)
  # the fixtures of the runner (tfs conform): an installed `tfs` finds them
  # by default (conformance/runner/CMakeLists.txt: <bindir>/../share/tfs/conformance)
  foreach(part gguf safetensors real minted)
    install(DIRECTORY ${PROJECT_SOURCE_DIR}/corpus/${part} DESTINATION ${TFS_INSTALL_CONFORMANCEDIR}
            COMPONENT tfs_conformance)
  endforeach()
  install(FILES ${PROJECT_SOURCE_DIR}/conformance/README.md DESTINATION ${TFS_INSTALL_CONFORMANCEDIR}
          COMPONENT tfs_conformance)
  install(PROGRAMS ${PROJECT_SOURCE_DIR}/conformance/adapters/tfs-adapter
                   ${PROJECT_SOURCE_DIR}/conformance/adapters/example_adapter.py
          DESTINATION ${TFS_INSTALL_CONFORMANCEDIR}/adapters COMPONENT tfs_conformance)
  file(GLOB _tfs_xfail ${PROJECT_SOURCE_DIR}/conformance/adapters/*.xfail)
  install(FILES ${PROJECT_SOURCE_DIR}/conformance/adapters/example_adapter.c ${_tfs_xfail}
          DESTINATION ${TFS_INSTALL_CONFORMANCEDIR}/adapters COMPONENT tfs_conformance)
  install(FILES ${PROJECT_SOURCE_DIR}/conformance/package/tfsConformance.cmake
          DESTINATION ${TFS_INSTALL_CMAKEDIR} COMPONENT tfs_dev)
endif()

# the mutators: static library + ready libFuzzer object + AFL++ module
install(TARGETS tfs_mutators EXPORT tfsTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT tfs_dev)
set(TFS_INSTALL_MUTATOR_OBJECT "")
if(TFS_MUTATOR_BUNDLE)
  install(FILES ${TFS_MUTATOR_BUNDLE_FILE} DESTINATION ${CMAKE_INSTALL_LIBDIR}/tfs COMPONENT tfs_dev)
  set(TFS_INSTALL_MUTATOR_OBJECT ${CMAKE_INSTALL_LIBDIR}/tfs/tfs_mutator_libfuzzer.o)
endif()
set(TFS_INSTALL_AFL_MUTATOR "")
if(TARGET tfs_afl_mutator)
  install(TARGETS tfs_afl_mutator LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/tfs COMPONENT tfs_runtime)
  set(TFS_INSTALL_AFL_MUTATOR ${CMAKE_INSTALL_LIBDIR}/tfs/libtfs_afl_mutator.so)
endif()

install(EXPORT tfsTargets NAMESPACE tfs:: DESTINATION ${TFS_INSTALL_CMAKEDIR} COMPONENT tfs_dev)
set(TFS_INSTALL_BINDIR ${CMAKE_INSTALL_BINDIR})
set(TFS_INSTALL_LIBDIR_ ${CMAKE_INSTALL_LIBDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/tfsConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/cmake/tfsConfig.cmake
                              INSTALL_DESTINATION ${TFS_INSTALL_CMAKEDIR}
                              PATH_VARS TFS_INSTALL_BINDIR TFS_INSTALL_CONFORMANCEDIR TFS_INSTALL_LIBDIR_ CMAKE_INSTALL_INCLUDEDIR)
# 0.x: a minor release may change the API, so only the same MAJOR.MINOR matches.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cmake/tfsConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cmake/tfsConfig.cmake ${PROJECT_BINARY_DIR}/cmake/tfsConfigVersion.cmake
        DESTINATION ${TFS_INSTALL_CMAKEDIR} COMPONENT tfs_dev)

# pkg-config: paths relative to the .pc file (${pcfiledir}), so the file is
# right whatever prefix `cmake --install --prefix` is given.
function(_tfs_pc_path var dir)
  if(IS_ABSOLUTE "${dir}")
    set(${var} "${dir}" PARENT_SCOPE)
  else()
    set(${var} "\${prefix}/${dir}" PARENT_SCOPE)
  endif()
endfunction()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(TFS_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _rel "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
  string(REGEX REPLACE "/$" "" _rel "${_rel}")
  set(TFS_PC_PREFIX "\${pcfiledir}/${_rel}")
endif()
_tfs_pc_path(TFS_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
_tfs_pc_path(TFS_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
set(TFS_PC_CFLAGS "")
if(NOT TFS_POSIX)
  set(TFS_PC_CFLAGS " -DTFS_NO_POSIX")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/tfs.pc.in ${PROJECT_BINARY_DIR}/tfs.pc @ONLY)
configure_file(${PROJECT_SOURCE_DIR}/cmake/tfs-mutator.pc.in ${PROJECT_BINARY_DIR}/tfs-mutator.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/tfs.pc ${PROJECT_BINARY_DIR}/tfs-mutator.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT tfs_dev)
if(TFS_MUTATOR_BUNDLE)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/tfs-mutator-libfuzzer.pc.in ${PROJECT_BINARY_DIR}/tfs-mutator-libfuzzer.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/tfs-mutator-libfuzzer.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT tfs_dev)
endif()
# the licence of tfs, and the licences of the third-party files of corpus/real
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/NOTICE DESTINATION ${CMAKE_INSTALL_DOCDIR}
        COMPONENT tfs_runtime)
