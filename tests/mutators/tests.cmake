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
