# tests/mutators: the mutation core and its front ends (label mutators).
tfs_add_test(test_mutators SOURCES mutators/test_mutators.c mutators/mut_seeds.c LABELS mutators)
target_link_libraries(test_mutators PRIVATE tfs_mutators tfs_mutator_libfuzzer)
if(TFS_POSIX)
  # the AFL++ custom mutator through dlopen, as afl-fuzz loads it
  tfs_add_test(test_afl_mutator SOURCES mutators/test_afl_mutator.c mutators/mut_seeds.c LABELS mutators afl)
  target_link_libraries(test_afl_mutator PRIVATE ${CMAKE_DL_LIBS})
  target_compile_definitions(test_afl_mutator PRIVATE TFS_AFL_MUTATOR_SO="$<TARGET_FILE:tfs_afl_mutator>")
  add_dependencies(test_afl_mutator tfs_afl_mutator)
endif()
if(TFS_BUILD_TOOLS)
  add_test(NAME test_mutators_doc
           COMMAND ${PROJECT_SOURCE_DIR}/tests/mutators/test_mutators_doc.sh $<TARGET_FILE:tfs> ${PROJECT_SOURCE_DIR})
  set_tests_properties(test_mutators_doc PROPERTIES LABELS "mutators;docs")
endif()
# AFL++ for a few seconds with AFL_CUSTOM_MUTATOR_ONLY=1 (needs afl++: afl-clang-fast with
# clang 14 and afl-fuzz; plain 64-bit builds only, the harness is built by the script)
find_program(TFS_AFL_CLANG_FAST afl-clang-fast)
find_program(TFS_AFL_FUZZ afl-fuzz)
if(TFS_POSIX AND TFS_AFL_CLANG_FAST AND TFS_AFL_FUZZ AND NOT TFS_SANITIZE AND CMAKE_SIZEOF_VOID_P EQUAL 8)
  add_test(NAME test_afl_smoke
           COMMAND ${PROJECT_SOURCE_DIR}/tests/mutators/afl_smoke.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}
                   $<TARGET_FILE:tfs_afl_mutator> 5)
  set_tests_properties(test_afl_smoke PROPERTIES LABELS "mutators;afl" TIMEOUT 180)
endif()
# tfs_mutation_disable: the mutation-family switch of the fuzzing benchmark's ablation
tfs_add_test(test_mutation_disable SOURCES mutators/test_mutation_disable.c mutators/mut_seeds.c LABELS mutators bugs)
target_link_libraries(test_mutation_disable PRIVATE tfs_mutators)
# the computed mutations (calc.*) checked by an independent decoder, the
# tfs_mutate options, and the TFS_MUTATOR_TRACE file of the libFuzzer front end;
# TFS_MUTATOR_MIX: the front end's share of calls to LLVMFuzzerMutate
if(TFS_POSIX)
  tfs_add_test(test_mutate_calc SOURCES mutators/test_mutate_calc.c mutators/mut_seeds.c LABELS mutators)
  target_link_libraries(test_mutate_calc PRIVATE tfs_mutators tfs_mutator_libfuzzer)
  tfs_add_test(test_mutator_mix SOURCES mutators/test_mutator_mix.c mutators/mut_seeds.c LABELS mutators)
  target_link_libraries(test_mutator_mix PRIVATE tfs_mutators tfs_mutator_libfuzzer)
  # tfs_mutate_quick / tfs_crossover_quick against the writer's field map; TFS_MUTATOR_QUICK's share
  tfs_add_test(test_mutate_quick SOURCES mutators/test_mutate_quick.c mutators/mut_seeds.c LABELS mutators)
  target_link_libraries(test_mutate_quick PRIVATE tfs_mutators tfs_mutator_libfuzzer)
endif()
