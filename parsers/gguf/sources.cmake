# GGUF reference parser (see gg.h for the file map).
set(TFS_GG_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/parse.c
  ${CMAKE_CURRENT_LIST_DIR}/read.c
  ${CMAKE_CURRENT_LIST_DIR}/kv.c
  ${CMAKE_CURRENT_LIST_DIR}/tensor_info.c
  ${CMAKE_CURRENT_LIST_DIR}/layout.c
  ${CMAKE_CURRENT_LIST_DIR}/strict.c
  ${CMAKE_CURRENT_LIST_DIR}/view.c
  ${CMAKE_CURRENT_LIST_DIR}/write.c)
