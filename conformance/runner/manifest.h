/*
 * manifest.h: the one reader of fixture manifests (docs/fixtures.md) and the
 * SHA-256 check of fixture bytes.  Used by `tfs conform` (conformance/runner)
 * and by the ctest manifest runner (tests/corpus/run_manifest.c).
 *
 * A manifest is a TSV file: one header row naming the columns, then one row
 * per line; blank lines and lines starting with '#' are ignored; a trailing
 * CR is removed.  Every row must have as many fields as the header.
 *
 * Not part of libtfs: a static library (tfs_manifest) linked by tools and
 * tests.  Needs OpenSSL's libcrypto (SHA-256).
 */
#ifndef TFS_CF_MANIFEST_H
#define TFS_CF_MANIFEST_H

#include <stddef.h>
#include <stdint.h>

/* ---- generic TSV table ---- */
typedef struct cf_tsv {
    char **cols; /* header names, n_cols of them */
    size_t n_cols;
    char ***rows; /* rows[i][c]: field c of row i (NUL-terminated, owned) */
    int *linenos; /* 1-based line number of each row in the file */
    size_t n_rows;
    char *path; /* the file read (owned copy) */
} cf_tsv;

/* Read a TSV file.  Returns 0 on success; -1 with a message in err (n bytes)
 * when the file cannot be read, has no header row, or a row has the wrong
 * number of fields (err then names the line).  *out is zeroed on failure;
 * errno is kept from a failed open (ENOENT: the file does not exist). */
int cf_tsv_read(const char *path, cf_tsv *out, char *err, size_t n);
/* Index of column `name`, or -1. */
int cf_tsv_col(const cf_tsv *t, const char *name);
void cf_tsv_free(cf_tsv *t);

/* ---- fixture manifests ---- */
/* One fixture line.  All strings point into the owning cf_manifest. */
typedef struct cf_line {
    const char *id, *relpath, *sha256, *format, *expect, *rule, *category, *mode, *description, *provenance;
    char *path;              /* manifest folder + "/" + relpath (owned by the manifest) */
    uint64_t size;           /* bytes, from the size column */
    const char *folder;      /* the manifest's folder as given ("corpus/gguf") */
    const char *folder_name; /* its last component ("gguf") */
    const char *manifest;    /* path of MANIFEST.tsv */
    int lineno;
    int has_offset;  /* the optional offset column holds a value for this line */
    uint64_t offset; /* byte offset from the file's start where the reader must report the violation */
    int has_index;   /* the optional index column holds a value for this line */
    int64_t index;   /* the record the reader must name (tfs_error.index): -1 for the file as a whole */
} cf_line;

typedef struct cf_manifest {
    cf_tsv tsv;
    cf_line *lines;
    size_t n;
    char *folder, *folder_name;
} cf_manifest;

/* Read a fixture manifest (columns id path sha256 size format expect rule
 * category mode; description, provenance, offset and index optional).
 * offset: a decimal byte offset, or empty / "-" for none (sets has_offset,
 * offset).  index: -1 or a decimal record index below 2^63, or empty / "-"
 * for none (sets has_index, index).  Neither on a valid line.
 * Checks each line:
 * format safetensors|gguf, expect valid|parser_error|implementation_defined,
 * mode default|strict|header-only, size a decimal number, sha256 64 lowercase
 * hex digits, id unique within the file.  0 on success, -1 with a message. */
int cf_manifest_read(const char *path, cf_manifest *out, char *err, size_t n);
void cf_manifest_free(cf_manifest *m);

/* A decimal number of 1-20 digits that fits 64 bits, nothing else (no sign,
 * no space) -> *v.  0 ok; -1 otherwise (*v untouched). */
int cf_parse_u64(const char *s, uint64_t *v);

/* Is `word` one of the '|'-separated alternatives of `list`? */
int cf_in_alternatives(const char *word, const char *list);

/* SHA-256 of a file as 64 lowercase hex digits, and its size in bytes.
 * 0 on success; -1 (errno set) when it cannot be opened or read. */
int cf_sha256_file(const char *path, char hex[65], uint64_t *size);

/* Check a fixture's bytes against its manifest line: size and SHA-256.
 * 0 when they match; -1 with a message in err (missing, unreadable, size or
 * digest differs: the fixture must be refused). */
int cf_verify_line(const cf_line *l, char *err, size_t n);

#endif
