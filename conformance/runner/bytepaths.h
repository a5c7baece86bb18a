/*
 * bytepaths.h: one fixture through every byte path of libtfs.
 *
 * A file is parsed three times, with the same format and flags:
 *   file    tfs_parse_file (pread on a descriptor, the CLI's path);
 *   buffer  tfs_parse_buffer over the whole file read into an allocation of
 *           exactly its size (the zero-copy path every fuzz target takes);
 *   stream  tfs_parse_source with a forward-only reader of unknown size
 *           (forward = 1, size = TFS_SIZE_UNKNOWN) that refuses any read not
 *           starting where the previous one ended (ESPIPE), as a pipe would.
 * The three must give the same status, rule, offset and index.  When all
 * three accept, their headers must agree as well: version, header and data
 * offsets and sizes, alignment, every tensor (name, type, shape, n_bytes,
 * offset, file_offset) and every KV entry (key, key_size, type, element type,
 * count, value_offset, value_len).  One thing a stream cannot always give is
 * compared only when it has it: file_size, which is 0 for a forward-only
 * source parsed with TFS_HEADER_ONLY that stops before the end (tfs.h).
 * Then every KV element (tfs_kv_next: type, integer and float values, file
 * offset, string bytes) of the buffer and stream paths must equal the file
 * path's.  A forward-only source cannot re-read a value: it must give
 * exactly what tfs.h promises it keeps (string scalars of at most 256
 * bytes; of each array its first TFS_ARRAY_KEEP bytes of whole elements, a
 * string element counting its 8-byte length, 64 MiB for all arrays
 * together; all of a safetensors header) and TFS_EIO for the next element.
 *
 * Not part of libtfs: used by `tfs conform` (inproc.c) and by
 * tests/corpus/run_manifest.c.  POSIX builds only (tfs_parse_file).
 */
#ifndef TFS_CF_BYTEPATHS_H
#define TFS_CF_BYTEPATHS_H

#include <stddef.h>

#include "tfs/tfs.h"

/* Parse `path` through the three byte paths (above).
 *   fmt, flags : as for tfs_parse_file (TFS_STRICT | TFS_HEADER_ONLY).
 *   st, err    : receive the file path's outcome (what a caller reports).
 *   why, n     : on disagreement, a message of at most n bytes naming the
 *                path that differs and both outcomes.
 * Returns 0 when the three paths agree, 1 when they do not, -1 when the
 * file cannot be read into memory for the buffer path (why says so). */
int cf_parse_all_paths(const char *path, tfs_format fmt, unsigned flags, tfs_status *st, tfs_error *err, char *why,
                       size_t n);

#endif
