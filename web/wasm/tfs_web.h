/* tfs_web.h: what the two files of tfs.wasm share (web/wasm/tfs_web.c: one
 * file; tfs_web_set.c: several files, sets, config.json). */
#ifndef TFS_WEB_H
#define TFS_WEB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define WEB_EXPORT(name) __attribute__((export_name(#name)))

/* The JSON result of an export, kept until the next call: result_open
 * drops the previous one and returns a stream (NULL: out of memory);
 * result_close returns the text (NUL-terminated) or NULL. */
FILE *result_open(void);
const char *result_close(FILE *f);

/* The config.json beside `name` (same folder) among the host's files, read
 * whole into a malloc'ed buffer (*out, *len), as tfs_lint_path reads the one
 * beside a file; 0, or -1 when there is none or it cannot be read (more
 * than 16 MiB: ignored, as the command line does). */
int web_config_beside(const char *name, char **out, size_t *len);

#endif
