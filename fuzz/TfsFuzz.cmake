# TfsFuzz.cmake: tfs_add_fuzz_target(NAME SOURCES src... FORMAT gguf|safetensors)
# adds one fuzz target in every form the build asks for:
#
#   NAME            replay form, always built: the target + fuzz/replay_main.c.
#                   With testing enabled, ctest test NAME (label "fuzz") runs it
#                   on the format's seed corpus (fuzz/seeds/FORMAT.list: folders
#                   of the source tree) and on fuzz/crashers/NAME/, so every CI
#                   stage (incl. asan-ubsan, m32, noposix) replays them.
#   NAME_fuzzer     engine form, when TFS_FUZZ_ENGINE is libfuzzer, afl or
#                   ossfuzz: linked with TFS_FUZZ_ENGINE_FLAGS (libfuzzer and
#                   afl: -fsanitize=fuzzer; with afl-clang-fast that links
#                   AFL++'s libAFLDriver; ossfuzz: $LIB_FUZZING_ENGINE), by the
#                   C++ compiler as OSS-Fuzz requires.
#                   All engine forms: custom target tfs_fuzzers.
#   NAME_sa_fuzzer  structure-aware engine form (libfuzzer, ossfuzz): the same
#                   plus the object library tfs_mutator_libfuzzer
#                   (LLVMFuzzerCustomMutator / CustomCrossOver from mutators/),
#                   when that target exists.  AFL++ uses the same NAME_fuzzer
#                   binary with the tfs_afl_mutator shared library instead.
#
# The library and the targets are compiled with the build's flags: the fuzz
# preset adds -fsanitize=fuzzer-no-link,address,undefined; the afl presets use
# afl-clang-fast (CMPLOG: AFL_LLVM_CMPLOG=1 in the build environment).
set(TFS_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR})

function(tfs_add_fuzz_target name)
  cmake_parse_arguments(F "" "FORMAT" "SOURCES" ${ARGN})
  if(F_FORMAT STREQUAL "gguf")
    set(fmt 2) # TFS_FORMAT_GGUF
  elseif(F_FORMAT STREQUAL "safetensors")
    set(fmt 1) # TFS_FORMAT_SAFETENSORS
  else()
    message(FATAL_ERROR "tfs_add_fuzz_target(${name}): FORMAT must be gguf or safetensors")
  endif()
  set(common ${TFS_FUZZ_DIR}/fuzz.c)

  # replay form
  add_executable(${name} ${F_SOURCES} ${common} ${TFS_FUZZ_DIR}/replay_main.c)
  target_link_libraries(${name} PRIVATE tfs_static)
  target_include_directories(${name} PRIVATE ${TFS_FUZZ_DIR})
  target_compile_definitions(${name} PRIVATE TFS_FUZZ_FORMAT=${fmt})
  if(TFS_FUZZ_TESTS)
    file(STRINGS ${TFS_FUZZ_DIR}/seeds/${F_FORMAT}.list seed_lines REGEX "^[^#]")
    set(paths)
    foreach(rel ${seed_lines})
      if(EXISTS ${PROJECT_SOURCE_DIR}/${rel})
        list(APPEND paths ${PROJECT_SOURCE_DIR}/${rel})
      endif()
    endforeach()
    list(APPEND paths ${TFS_FUZZ_DIR}/crashers/${name})
    add_test(NAME ${name} COMMAND ${name} --quiet ${paths})
    set_tests_properties(${name} PROPERTIES LABELS "fuzz;${F_FORMAT}")
  endif()

  # engine forms
  if(TFS_FUZZ_ENGINE STREQUAL "none" OR TFS_FUZZ_ENGINE STREQUAL "")
    return()
  endif()
  separate_arguments(engine_flags UNIX_COMMAND "${TFS_FUZZ_ENGINE_FLAGS}")
  set(forms ${name}_fuzzer)
  if(TARGET tfs_mutator_libfuzzer AND NOT TFS_FUZZ_ENGINE STREQUAL "afl")
    list(APPEND forms ${name}_sa_fuzzer)
  endif()
  if(NOT TARGET tfs_fuzzers)
    add_custom_target(tfs_fuzzers) # every engine form: cmake --build ... --target tfs_fuzzers
  endif()
  foreach(t ${forms})
    add_executable(${t} ${F_SOURCES} ${common})
    add_dependencies(tfs_fuzzers ${t})
    target_link_libraries(${t} PRIVATE tfs_static)
    target_include_directories(${t} PRIVATE ${TFS_FUZZ_DIR})
    target_compile_definitions(${t} PRIVATE TFS_FUZZ_FORMAT=${fmt})
    target_link_options(${t} PRIVATE ${engine_flags})
    set_target_properties(${t} PROPERTIES LINKER_LANGUAGE CXX RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzzers)
  endforeach()
  if(TARGET tfs_mutator_libfuzzer AND NOT TFS_FUZZ_ENGINE STREQUAL "afl")
    target_link_libraries(${name}_sa_fuzzer PRIVATE tfs_mutator_libfuzzer)
  endif()
endfunction()
