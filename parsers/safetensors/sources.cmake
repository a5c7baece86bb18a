# safetensors reference parser (tensor.rs read_metadata + Metadata::validate)
set(TFS_ST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/parse.c
  ${CMAKE_CURRENT_LIST_DIR}/st_json.c
  ${CMAKE_CURRENT_LIST_DIR}/st_entries.c
  ${CMAKE_CURRENT_LIST_DIR}/st_validate.c
  ${CMAKE_CURRENT_LIST_DIR}/st_view.c
  ${CMAKE_CURRENT_LIST_DIR}/write.c
)
