# tfsConformance.cmake: tfs_add_conformance_tests(), the conformance suite as
# ctests of an outside project.  Included by tfsConfig.cmake (find_package(tfs)),
# which sets
#   tfs_EXECUTABLE       the installed `tfs` (the runner: tfs conform)
#   tfs_CONFORMANCE_DIR  the installed fixtures: <dir>/{gguf,safetensors,real}/
#                        MANIFEST.tsv, the fixtures, expected/<id>.json
#
# tfs_add_conformance_tests(NAME <name> ADAPTER <command word>...
#                           [FORMAT gguf|safetensors...]
#                           [PROFILE default|strict|header-only...]
#                           [EXPECTED_FAILURES <file>] [LABELS <label>...]
#                           [TIMEOUT <seconds>] [FIXTURES <dir>])
#
# Reads the manifests at configure time and registers one ctest per fixture
# line and profile, running
#   tfs conform --fixtures <dir> --id <id> --profile <profile> --adapter '<command>'
#               [--expected-failures <file>] --timeout <seconds>
# ADAPTER is the adapter command, one word per argument; `{file}` marks where
# the fixture path goes (appended as the last word when no word has it).  A
# first word that names an executable target of the project is replaced by
# its file.  FORMAT keeps the fixtures of those formats (default: both);
# PROFILE the profiles to run (default: default), each selecting the lines
# `tfs conform --profile` selects (a line of that mode, a default line of a
# file with no line of that mode, every implementation_defined line).
# EXPECTED_FAILURES is an expected-failures file of `tfs conform` (a fixture id
# per line, optional TAB and result; `tfs conform --write-expected-failures`
# writes one); TIMEOUT (default 30) is the per-case timeout of the runner; the
# ctest TIMEOUT is that plus 30.  FIXTURES overrides tfs_CONFORMANCE_DIR.
# Relative paths all mean the same folder, the calling CMakeLists.txt's
# (CMAKE_CURRENT_SOURCE_DIR): EXPECTED_FAILURES and FIXTURES are resolved
# from it, and each test runs there (WORKING_DIRECTORY), so an adapter word
# such as ./my_adapter.py or adapters/x.py is found in the source folder too.
#
# Test names: <name>/<profile>/<format>/<expect>/<fixture id>
#   e.g. toy/default/gguf/parser_error/GG204-G1-n-dims-5
# Labels: <name>, conformance, the format, the expectation, the profile,
# every rule id of the line (GG204, ...), and LABELS; so
#   ctest -L GG204         the fixtures of rule GG204
#   ctest -L parser_error  the invalid fixtures
#   ctest -R '^toy/'       this adapter
#   ctest --output-junit conformance.xml   one JUnit testcase per fixture
include_guard(GLOBAL)

function(_tfs_conformance_quote out word)
  # one word for tfs conform's command splitting (no shell): plain when it has
  # no space, tab, quote or backslash; else in '...', with ' as '\''
  if(word MATCHES "[ \t'\"\\\\]" OR word STREQUAL "")
    string(REPLACE "'" "'\\''" word "${word}")
    set(word "'${word}'")
  endif()
  set(${out} "${word}" PARENT_SCOPE)
endfunction()

function(tfs_add_conformance_tests)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;EXPECTED_FAILURES;TIMEOUT;FIXTURES" "ADAPTER;FORMAT;PROFILE;LABELS")
  if(NOT arg_NAME OR NOT arg_ADAPTER)
    message(FATAL_ERROR "tfs_add_conformance_tests: NAME and ADAPTER are required")
  endif()
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tfs_add_conformance_tests: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  set(dir "${arg_FIXTURES}")
  if(dir)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  else()
    set(dir "${tfs_CONFORMANCE_DIR}")
  endif()
  if(NOT tfs_EXECUTABLE OR NOT EXISTS "${tfs_EXECUTABLE}")
    message(FATAL_ERROR "tfs_add_conformance_tests: no tfs runner (tfs_EXECUTABLE='${tfs_EXECUTABLE}'): "
                        "install tfs with TFS_BUILD_TOOLS=ON")
  endif()
  if(NOT arg_FORMAT)
    set(arg_FORMAT gguf safetensors)
  endif()
  if(NOT arg_PROFILE)
    set(arg_PROFILE default)
  endif()
  foreach(p IN LISTS arg_PROFILE)
    if(NOT p MATCHES "^(default|strict|header-only)$")
      message(FATAL_ERROR "tfs_add_conformance_tests: PROFILE ${p}: default, strict or header-only")
    endif()
  endforeach()
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 30)
  endif()
  set(xfail_args "")
  if(arg_EXPECTED_FAILURES)
    get_filename_component(xf "${arg_EXPECTED_FAILURES}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${xf}")
      message(FATAL_ERROR "tfs_add_conformance_tests: EXPECTED_FAILURES ${xf} does not exist")
    endif()
    set(xfail_args --expected-failures "${xf}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${xf}")
  endif()

  # the adapter command as one string for --adapter
  set(words "${arg_ADAPTER}")
  list(GET words 0 first)
  if(TARGET "${first}")
    list(REMOVE_AT words 0)
    list(PREPEND words "$<TARGET_FILE:${first}>")
  endif()
  set(has_file OFF)
  foreach(w IN LISTS words)
    if(w MATCHES "{file}")
      set(has_file ON)
    endif()
  endforeach()
  if(NOT has_file)
    list(APPEND words "{file}")
  endif()
  set(command "")
  foreach(w IN LISTS words)
    _tfs_conformance_quote(q "${w}")
    string(APPEND command " ${q}")
  endforeach()
  string(STRIP "${command}" command)

  # the manifests: <dir>/MANIFEST.tsv or <dir>/*/MANIFEST.tsv
  if(EXISTS "${dir}/MANIFEST.tsv")
    set(manifests "${dir}/MANIFEST.tsv")
  else()
    file(GLOB manifests "${dir}/*/MANIFEST.tsv")
    list(SORT manifests)
  endif()
  if(NOT manifests)
    message(FATAL_ERROR "tfs_add_conformance_tests: no MANIFEST.tsv in ${dir} or its subfolders")
  endif()
  set(count 0)
  foreach(manifest IN LISTS manifests)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${manifest}")
    file(READ "${manifest}" text)
    # CMake lists: ';' separates, '[' ']' group; neither may stay in the text
    string(REPLACE ";" "," text "${text}")
    string(REPLACE "[" "(" text "${text}")
    string(REPLACE "]" ")" text "${text}")
    string(REPLACE "\\" "/" text "${text}")
    string(REPLACE "\r" "" text "${text}")
    string(REPLACE "\n" ";" lines "${text}")
    set(rows "")
    set(header "")
    foreach(line IN LISTS lines)
      if(line STREQUAL "" OR line MATCHES "^#")
        continue()
      endif()
      string(REPLACE "\t" ";" cols "${line}")
      if(NOT header)
        set(header "${cols}")
        foreach(c id path format expect rule mode)
          list(FIND header ${c} i_${c})
          if(i_${c} LESS 0)
            message(FATAL_ERROR "tfs_add_conformance_tests: ${manifest} has no column ${c}")
          endif()
        endforeach()
        continue()
      endif()
      list(GET cols ${i_path} path)
      list(GET cols ${i_mode} mode)
      string(MAKE_C_IDENTIFIER "${path}" key)
      set(has_${mode}_${key} ON) # this file has a line of this mode
      list(APPEND rows "${line}")
    endforeach()
    foreach(line IN LISTS rows)
      string(REPLACE "\t" ";" cols "${line}")
      foreach(c id path format expect rule mode)
        list(GET cols ${i_${c}} ${c})
      endforeach()
      if(NOT format IN_LIST arg_FORMAT)
        continue()
      endif()
      string(MAKE_C_IDENTIFIER "${path}" key)
      foreach(profile IN LISTS arg_PROFILE)
        # the lines `tfs conform --profile` selects (conformance/runner/select.c)
        if(NOT (expect STREQUAL "implementation_defined" OR mode STREQUAL profile
                OR (mode STREQUAL "default" AND NOT has_${profile}_${key})))
          continue()
        endif()
        set(test "${arg_NAME}/${profile}/${format}/${expect}/${id}")
        add_test(NAME "${test}"
                 COMMAND "${tfs_EXECUTABLE}" conform --fixtures "${dir}" --id "${id}" --profile ${profile}
                         --timeout ${arg_TIMEOUT} ${xfail_args} --adapter "${command}"
                 WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}")
        set(labels ${arg_NAME} conformance ${format} ${expect} ${profile} ${arg_LABELS})
        if(NOT rule STREQUAL "-")
          string(REPLACE "|" ";" rules "${rule}")
          list(APPEND labels ${rules})
        endif()
        list(REMOVE_DUPLICATES labels)
        math(EXPR t "${arg_TIMEOUT} + 30")
        set_tests_properties("${test}" PROPERTIES LABELS "${labels}" TIMEOUT ${t})
        math(EXPR count "${count} + 1")
      endforeach()
    endforeach()
    # has_* of this manifest must not leak into the next one
    get_cmake_property(vars VARIABLES)
    foreach(v IN LISTS vars)
      if(v MATCHES "^has_")
        unset(${v})
      endif()
    endforeach()
  endforeach()
  message(STATUS "tfs_add_conformance_tests(${arg_NAME}): ${count} tests from ${dir}")
endfunction()
