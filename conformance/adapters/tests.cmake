# The adapters through the runner (tfs conform), each with its expected
# failures (strict: an entry that passes or an unlisted failure fails):
#   test_adapter_tfs[_header_only]_KofN  our parser via tfs dump --json: every
#                                 case passes, content of every valid fixture compared
#   test_adapter_example_c        example_adapter.c (libtfs default profile): every case passes
#   test_adapter_example_py_KofN  example_adapter.py: its false accepts are exactly
#                                 example_adapter_py.xfail
#   test_adapter_ggml_meta/_data  ggml's gguf.cpp: only the documented divergences
#                                 (ggml-meta.xfail, ggml-data.xfail)
if(NOT TARGET tfs_conform)
  return() # tfs built without `tfs conform` (no jansson or OpenSSL)
endif()
# --timeout: tfs dump of a 4 MB vocab file takes seconds in sanitizer builds on a loaded machine
set(_cf $<TARGET_FILE:tfs> conform -j 2 -q --timeout 120)
set(_dir ${CMAKE_CURRENT_SOURCE_DIR})
# the spawning runs are split in shards (--shard K/N, cmake/shards.cmake): one
# process (or two) per fixture, each shard well under a minute in every stage.
# Sanitizer builds run a third of the fixtures through these adapters (the
# first 2 of 6 shards): a sanitized process per fixture costs 3x, and what a
# sanitizer checks here, libtfs and `tfs dump --json`, it checks on every
# fixture in test_conform_inprocess_* and test_dump_real_*.
if(TFS_SANITIZE)
  set(_n 6)
  set(_run RUN 2)
else()
  set(_n 6)
  set(_run)
endif()
set(_adapter_labels conformance adapters)
tfs_add_sharded_test(test_adapter_tfs ${_n} ${_run}
  COMMAND ${_cf} --adapter "${_dir}/tfs-adapter --tfs $<TARGET_FILE:tfs> {file}"
  LABELS ${_adapter_labels} PROPERTIES TIMEOUT 300)
tfs_add_sharded_test(test_adapter_tfs_header_only ${_n} ${_run}
  COMMAND ${_cf} --profile header-only --adapter "${_dir}/tfs-adapter --tfs $<TARGET_FILE:tfs> --header-only {file}"
  LABELS ${_adapter_labels} PROPERTIES TIMEOUT 300)
if(TFS_SANITIZE)
  tfs_add_sharded_test(test_adapter_example_c 6 RUN 2
    COMMAND ${_cf} --adapter "$<TARGET_FILE:tfs_example_adapter> {file}"
    LABELS ${_adapter_labels} PROPERTIES TIMEOUT 300)
else()
  tfs_add_sharded_test(test_adapter_example_c 1
    COMMAND ${_cf} --adapter "$<TARGET_FILE:tfs_example_adapter> {file}"
    LABELS ${_adapter_labels} PROPERTIES TIMEOUT 300)
endif()
# (sanitizer builds: the first of the 4 shards; the adapter is Python, the
# runner's spawn-and-compare is what a sanitizer sees, on every case of
# test_adapter_tfs_* and test_conform_runner_*)
if(TFS_SANITIZE)
  set(_py_run RUN 1)
else()
  set(_py_run)
endif()
tfs_add_sharded_test(test_adapter_example_py 4 ${_py_run}
  COMMAND ${_cf} --format safetensors --adapter "${TFS_PYTHON3} ${_dir}/example_adapter.py {file}"
          --expected-failures ${_dir}/example_adapter_py.xfail
  LABELS ${_adapter_labels} PROPERTIES TIMEOUT 300)
if(TFS_HAVE_GGML_PARTS AND TFS_GGML_DIFF)
  # --timeout 120: ggml reads GG111-duplicate-after-131072-keys-of-6-bytes in time quadratic in n_kv
  # (10-15 s on a 2-core VM, past conform's default of 10 s per case)
  add_test(NAME test_adapter_ggml_meta
           COMMAND ${_cf} --format gguf --profile header-only --adapter "$<TARGET_FILE:tfs_ggml_adapter> --meta {file}"
                   --expected-failures ${_dir}/ggml-meta.xfail --timeout 120)
  add_test(NAME test_adapter_ggml_data
           COMMAND ${_cf} --format gguf --adapter "$<TARGET_FILE:tfs_ggml_adapter> --data {file}"
                   --expected-failures ${_dir}/ggml-data.xfail --timeout 120)
  set_tests_properties(test_adapter_ggml_meta test_adapter_ggml_data PROPERTIES
                       LABELS "conformance;adapters;ggml-diff" TIMEOUT 300
                       ENVIRONMENT "TFS_GGML_LIB=${TFS_GGML_LIB}")
endif()
# The Rust crate (st-oracle, a development command built from a fetched copy of
# the crate: ../shared/oracles/st-oracle) on every safetensors fixture, when
# configured with -DTFS_ST_ORACLE=<path to st-oracle>; CI cannot build the
# crate, so without it the test is not registered.  Run it with
#   cmake --preset dev -DTFS_ST_ORACLE=/path/to/st-oracle && ctest --preset dev -R test_adapter_st_oracle
# (its summary line gives the counts; CI checks the same verdicts offline
# through corpus/CRATE_VERDICTS.tsv, ctest test_crate_verdicts).
set(TFS_ST_ORACLE "" CACHE FILEPATH "st-oracle binary (the Rust safetensors crate as a command), for test_adapter_st_oracle")
if(TFS_ST_ORACLE)
  add_test(NAME test_adapter_st_oracle
           COMMAND ${_cf} --format safetensors --adapter "${_dir}/st-oracle-adapter {file}")
  set_tests_properties(test_adapter_st_oracle PROPERTIES LABELS "conformance;adapters;oracle" TIMEOUT 300
                       ENVIRONMENT "ST_ORACLE=${TFS_ST_ORACLE}")
endif()
# ggml b4234 (npm @node-llama-cpp/linux-x64@3.3.0, installed on first use into
# the reader cache; skipped without npm): the adapter loads the older library
# and does not free its data context twice (test_ggml_b4234.sh)
if(TFS_HAVE_GGML_PARTS)
  add_test(NAME test_adapter_ggml_b4234
           COMMAND sh ${_dir}/test_ggml_b4234.sh $<TARGET_FILE:tfs> $<TARGET_FILE:tfs_ggml_adapter>)
  set_tests_properties(test_adapter_ggml_b4234 PROPERTIES LABELS "conformance;adapters;npm" TIMEOUT 300 SKIP_RETURN_CODE 77)
endif()
# the type tables adapters read (types/tfs-types.json) are what include/tfs/*.def give
add_test(NAME test_adapter_types_json
         COMMAND sh -c "\"$1\" \"$2/types/gen_types.py\" \"$3\" | diff -u \"$2/types/tfs-types.json\" - && echo '1 passed, 0 failed'"
                 sh ${TFS_PYTHON3} ${_dir} ${PROJECT_SOURCE_DIR}/include/tfs)
set_tests_properties(test_adapter_types_json PROPERTIES LABELS "conformance;adapters" TIMEOUT 600)
# lib.mjs: the adapter's own failures (reader cache, import, a fixture it cannot open) exit 3, never 1
add_test(NAME test_adapter_js_lib COMMAND sh ${_dir}/js/test_lib.sh)
set_tests_properties(test_adapter_js_lib PROPERTIES LABELS "conformance;adapters" TIMEOUT 120 SKIP_RETURN_CODE 77)

# What follows tests readers and pages in other languages (npm readers, the
# adapter templates, the matrix scripts and page): in the runner, `tfs
# conform` does for them what it does for the C and Python adapters above, so
# sanitizer builds (TFS_SANITIZE) do not run them again; the dev stage does.
if(TFS_SANITIZE)
  return()
endif()
# the matrix command on the npm readers (short selection; skipped without npm)
add_test(NAME test_matrix_npm COMMAND sh ${PROJECT_SOURCE_DIR}/conformance/matrix/test_matrix.sh ${TFS_PYTHON3} $<TARGET_FILE:tfs>)
set_tests_properties(test_matrix_npm PROPERTIES LABELS "conformance;adapters" TIMEOUT 600 SKIP_RETURN_CODE 77)
# the matrix page (docs/results.html) in headless Chromium (Debian's chromium +
# npm playwright-core): renders from file://, filters work, no console error;
# screenshot kept as build/.../results-page.png; skipped without Chromium
add_test(NAME test_findings_explained COMMAND sh ${PROJECT_SOURCE_DIR}/conformance/matrix/test_findings.sh ${TFS_PYTHON3})
set_tests_properties(test_findings_explained PROPERTIES LABELS "conformance;matrix" TIMEOUT 120)
add_test(NAME test_matrix_page
         COMMAND node ${PROJECT_SOURCE_DIR}/conformance/matrix/test_page.mjs ${PROJECT_SOURCE_DIR}/docs/results.html
                 ${CMAKE_CURRENT_BINARY_DIR}/results-page.png)
set_tests_properties(test_matrix_page PROPERTIES LABELS "conformance;matrix" TIMEOUT 300 SKIP_RETURN_CODE 77)
# the adapter kit (templates/): each template (one stand-in GGUF reader per
# language) on the GGUF corpus: no crash or misread, valid content equal, a
# bug in the reader a crash exit, and the same verdicts as the python one
# (check_template.py); skipped (77) where the language's toolchain is absent
set(_tpl ${CMAKE_CURRENT_BINARY_DIR}/templates)
add_test(NAME test_adapter_template_python
         COMMAND ${TFS_PYTHON3} ${_dir}/templates/check_template.py python $<TARGET_FILE:tfs> ${_tpl})
set_tests_properties(test_adapter_template_python PROPERTIES FIXTURES_SETUP tfs_template_ref)
set(_tpl_props TIMEOUT 900 SKIP_RETURN_CODE 77)
foreach(_lang c cpp rust go)
  add_test(NAME test_adapter_template_${_lang}
           COMMAND ${TFS_PYTHON3} ${_dir}/templates/check_template.py ${_lang} $<TARGET_FILE:tfs> ${_tpl} ${_tpl}/python.json)
  set_tests_properties(test_adapter_template_${_lang} PROPERTIES FIXTURES_REQUIRED tfs_template_ref ${_tpl_props}
                       LABELS "conformance;adapters;templates")
endforeach()
# node starts in ~0.2 s: the js template's 327 fixtures in two shards
tfs_add_sharded_test(test_adapter_template_js 2
  COMMAND ${TFS_PYTHON3} ${_dir}/templates/check_template.py js $<TARGET_FILE:tfs> ${_tpl} ${_tpl}/python.json
  LABELS conformance adapters templates PROPERTIES FIXTURES_REQUIRED tfs_template_ref ${_tpl_props})
set_tests_properties(test_adapter_template_python PROPERTIES ${_tpl_props} LABELS "conformance;adapters;templates")
# run.sh's exit status and its guard of docs/results.* (shell adapters, no npm)
add_test(NAME test_matrix_exit COMMAND sh ${PROJECT_SOURCE_DIR}/conformance/matrix/test_run_exit.sh ${TFS_PYTHON3}
                                       $<TARGET_FILE:tfs>)
set_tests_properties(test_matrix_exit PROPERTIES LABELS "conformance;matrix" TIMEOUT 300)
# the committed matrix covers the current corpus for every column CI can run
# (check_current.py; no reader run, no network), and fails on a planted gap
add_test(NAME test_matrix_current COMMAND sh ${PROJECT_SOURCE_DIR}/conformance/matrix/test_current.sh ${TFS_PYTHON3}
                                          $<TARGET_FILE:tfs>)
set_tests_properties(test_matrix_current PROPERTIES LABELS "conformance;matrix" TIMEOUT 120)
# the independent rerun (conformance/matrix/rerun.py, docs/matrix.md
# "Independent rerun"): its comparison on a committed sample (counts, class
# pairs, explanations, exit status), then one second adapter end to end
# against docs/results.json; that part skipped (77) without hyllama in the
# reader cache
add_test(NAME test_matrix_rerun COMMAND sh ${PROJECT_SOURCE_DIR}/conformance/matrix/test_rerun.sh ${TFS_PYTHON3}
                                        $<TARGET_FILE:tfs>)
set_tests_properties(test_matrix_rerun PROPERTIES LABELS "conformance;matrix" TIMEOUT 300 SKIP_RETURN_CODE 77)
