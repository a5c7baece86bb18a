# tfs_add_sharded_test(NAME SHARDS COMMAND cmd... [RUN M] [LABELS label...]
#                      [PROPERTIES prop value...])
# One long test as SHARDS ctest tests NAME_1ofN ... NAME_NofN, each running
# COMMAND with `--shard K/N` appended (tfs conform, run_diff.sh,
# check_template.py and the test scripts that take it): between them they run
# every case once, and ctest -j spreads them over the cores; each stays well
# under a minute (issue 37: no test over 60 s in any stage of ci/test.sh on an
# idle machine).  `ctest -R '^NAME_'` runs all shards.  With RUN M only the
# first M shards are registered (a sample of 1/N .. M/N of the cases, for the
# sanitizer builds; the caller says why).  SHARDS 1: one test NAME, no --shard.
function(tfs_add_sharded_test name shards)
  cmake_parse_arguments(S "" "RUN" "COMMAND;LABELS;PROPERTIES" ${ARGN})
  if(NOT S_RUN)
    set(S_RUN ${shards})
  endif()
  foreach(k RANGE 1 ${S_RUN})
    if(shards EQUAL 1)
      set(t ${name})
      add_test(NAME ${t} COMMAND ${S_COMMAND})
    else()
      set(t ${name}_${k}of${shards})
      add_test(NAME ${t} COMMAND ${S_COMMAND} --shard ${k}/${shards})
    endif()
    if(S_LABELS)
      set_tests_properties(${t} PROPERTIES LABELS "${S_LABELS}")
    endif()
    if(S_PROPERTIES)
      set_tests_properties(${t} PROPERTIES ${S_PROPERTIES})
    endif()
  endforeach()
endfunction()
