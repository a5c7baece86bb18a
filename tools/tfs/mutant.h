/*
 * mutant.h: one mutant of `tfs mutate` held as an image (tools/tfs/mutant.c):
 * its materialised bytes (the header) and its holes (the data section, never
 * materialised), so a mutant of a 15 GB model takes the memory of its
 * header.  The image is classified in every profile through a byte source
 * over it, then written to a file (holes left sparse) or a stream.
 */
#ifndef TFS_CLI_MUTANT_H
#define TFS_CLI_MUTANT_H

#include <stdint.h>
#include <stdio.h>

#include "tfs/tfs.h"

/* One segment: len bytes at offset, from bytes (malloc'd), or zeros (NULL). */
typedef struct mutant_seg {
    uint64_t offset, len;
    uint8_t *bytes;
} mutant_seg;

typedef struct mutant {
    mutant_seg *segs;
    size_t n, cap;
    uint64_t size; /* bytes */
    int nomem;
} mutant;

/* The profiles a mutant is classified in, in report order. */
#define MUTANT_N_PROFILES 3
extern const char *const mutant_profile_names[MUTANT_N_PROFILES]; /* "default", "strict", "header-only" */
extern const unsigned mutant_profile_flags[MUTANT_N_PROFILES];    /* 0, TFS_STRICT, TFS_HEADER_ONLY */
/* Index of a profile name, or -1. */
int mutant_profile_find(const char *name);

/* The verdict of a mutant in one profile. */
typedef struct mutant_verdict {
    tfs_status status; /* TFS_OK, TFS_INVALID, else an internal failure */
    tfs_error err;
} mutant_verdict;

/* tfs_mutate_sink that appends to a mutant (ctx: mutant *); copies bytes. */
int mutant_sink(void *ctx, uint64_t offset, const uint8_t *bytes, uint64_t len);
/* Free the segments; the mutant is empty again. */
void mutant_clear(mutant *m);
/* Parse the mutant as format `format` with `flags` (TFS_STRICT,
 * TFS_HEADER_ONLY) through a random-access source over it. */
void mutant_classify(const mutant *m, tfs_format format, unsigned flags, mutant_verdict *v);
/* Write the mutant to fd: a regular file gets its bytes with pwrite and its
 * holes left sparse (ftruncate to the size); anything else (a pipe,
 * standard output) gets every byte in order, holes as zeros written in
 * 64 KiB pieces.  0, or an errno value. */
int mutant_write_fd(const mutant *m, int fd);

#endif
