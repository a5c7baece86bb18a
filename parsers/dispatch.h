/*
 * dispatch.h: the layer above core/ and the format parsers (parsers/api.c,
 * parsers/posix_file.c): the format parsers' entry points and the dispatch
 * between them.  core/ includes nothing of this file.
 */
#ifndef TFS_DISPATCH_H
#define TFS_DISPATCH_H

#include "internal.h"

/* Dispatch a source to its format's parser (api.c); on success hands the
 * window and the reader to the header. */
tfs_status tfs__dispatch(tfs_src *src, const char *path, tfs_format format, unsigned flags, tfs_header **out,
                         tfs_error *err);

/* Format parsers.  On TFS_OK, *out (if out != NULL) receives the header; in
 * file mode the parser does not take the window (api.c moves it into priv). */
tfs_status tfs__st_parse(tfs_src *src, unsigned flags, tfs_header **out, tfs_error *err);
tfs_status tfs__gg_parse(tfs_src *src, unsigned flags, tfs_header **out, tfs_error *err);

#endif /* TFS_DISPATCH_H */
