/* ggml_reasons.h: ggml's first logged error message -> the GGUF failure
 * category it stands for (../shared/design.md: one category per distinct
 * ggml message; spec/gguf.md).  Used by the differential test (gguf_diff.c)
 * and the ggml adapter (conformance/adapters/ggml_adapter.c). */
#ifndef TFS_GGML_REASONS_H
#define TFS_GGML_REASONS_H

/* The category of ggml's error text `msg` (a substring match against the
 * known messages, first match wins): "BAD_MAGIC", ..., "DATA_MISSING", or
 * "ALLOC" for data mode's failure to size or allocate its context (not a
 * category of design.md: tfs says GG304, data missing).  NULL for NULL, "-"
 * or an unknown message.  The returned string is static. */
const char *ggml_reason_category(const char *msg);

#endif
