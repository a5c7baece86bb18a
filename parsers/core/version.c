/* version.c: tfs_version(), the version the library was built as
 * (include/tfs/version.h, generated from project(VERSION) by CMake). */
#include "tfs/version.h"

const char *tfs_version(void) { return TFS_VERSION_STRING; }
