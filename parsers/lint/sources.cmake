# lint and model sets (include/tfs/lint.h, docs/lint.md)
set(TFS_LINT_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/report.c
  ${CMAKE_CURRENT_LIST_DIR}/json.c
  ${CMAKE_CURRENT_LIST_DIR}/names.c
  ${CMAKE_CURRENT_LIST_DIR}/shard_name.c
  ${CMAKE_CURRENT_LIST_DIR}/lint.c
  ${CMAKE_CURRENT_LIST_DIR}/lint_gguf.c
  ${CMAKE_CURRENT_LIST_DIR}/lint_mlx.c
  ${CMAKE_CURRENT_LIST_DIR}/lint_st.c
  ${CMAKE_CURRENT_LIST_DIR}/lint_bytes.c
  ${CMAKE_CURRENT_LIST_DIR}/set.c
  ${CMAKE_CURRENT_LIST_DIR}/set_io.c
  ${CMAKE_CURRENT_LIST_DIR}/set_st.c
  ${CMAKE_CURRENT_LIST_DIR}/set_series.c
  ${CMAKE_CURRENT_LIST_DIR}/set_gg.c
)
