/* test_wbuf.c: the writer's output buffer (parsers/core/wbuf.c) and its file
 * output (parsers/core/posix_wbuf_file.c) through the public API
 * (tfs/write.h), against a model kept by the test: the file as plain bytes
 * (holes as zeros) and which bytes are materialised.  Expectations follow
 * the header's contract, not recorded output: size and len, segments in
 * file order that cover [0, size) with adjacent ones of different kinds,
 * materialised bytes in file order in p; tfs_wbuf_at non-NULL exactly for a
 * range of materialised bytes, pointing at them; flatten and the written
 * file equal the model; integers little-endian byte by byte; truncate cuts
 * the model; errors are sticky; the field map finds the first match. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tfs/write.h"

enum { MAXF = 4096 };
typedef struct model {
    uint8_t b[MAXF];
    uint8_t mat[MAXF]; /* 1: materialised */
    size_t size;
} model;

static void m_bytes(model *m, const uint8_t *p, size_t n) {
    memcpy(m->b + m->size, p, n);
    memset(m->mat + m->size, 1, n);
    m->size += n;
}

static void m_hole(model *m, size_t n) {
    memset(m->b + m->size, 0, n);
    memset(m->mat + m->size, 0, n);
    m->size += n;
}

static int g_quiet; /* build() checks only its result */

static void check(const tfs_wbuf *w, const model *m) {
    static size_t pre[MAXF + 1]; /* pre[o]: materialised bytes before o */
    for (size_t i = 0; i < m->size; i++) pre[i + 1] = pre[i] + m->mat[i];
    assert_int_equal(w->err, TFS_OK);
    assert_int_equal(w->size, m->size);
    assert_int_equal(w->len, pre[m->size]);
    assert_true(w->len <= w->cap);
    /* segments: contiguous from 0, alternating kinds, bytes as the model */
    uint64_t off = 0;
    size_t pos = 0;
    for (size_t i = 0; i < w->n_segs; i++) {
        const tfs_wseg *s = &w->segs[i];
        assert_true(s->offset == off);
        assert_true(s->len > 0);
        assert_true(s->hole == 0 || s->hole == 1); /* write.h: 1 for a hole */
        if (i) assert_int_not_equal(s->hole, w->segs[i - 1].hole);
        for (uint64_t k = 0; k < s->len; k++) assert_int_equal(m->mat[off + k], s->hole ? 0 : 1);
        if (!s->hole) {
            assert_int_equal(s->pos, pos);
            assert_memory_equal(w->p + s->pos, m->b + off, (size_t)s->len);
            pos += (size_t)s->len;
        }
        off += s->len;
    }
    assert_true(off == m->size);
    assert_int_equal(pos, w->len);
    /* tfs_wbuf_at: every range of up to 12 bytes, and up to the end */
    for (size_t o = 0; o <= m->size + 1; o++) {
        for (size_t n = 1; n <= 12; n++) {
            int want = o + n <= m->size;
            for (size_t k = o; want && k < o + n; k++) want = m->mat[k];
            uint8_t *at = tfs_wbuf_at(w, o, n);
            if (!want) {
                assert_null(at);
                continue;
            }
            assert_ptr_equal(at, w->p + pre[o]);
            assert_memory_equal(at, m->b + o, n);
        }
    }
    /* zero bytes at the end: the end of p (NULL while nothing is materialised) */
    if (w->p)
        assert_ptr_equal(tfs_wbuf_at(w, m->size, 0), w->p + w->len);
    else
        assert_null(tfs_wbuf_at(w, m->size, 0));
    assert_null(tfs_wbuf_at(w, m->size + 1, 0));
    assert_null(tfs_wbuf_at(w, UINT64_MAX, 1));
    assert_null(tfs_wbuf_at(w, 0, m->size + 1));
    if (m->size > 0) assert_null(tfs_wbuf_at(w, 1, SIZE_MAX));
    /* flatten: the model; max_bytes is inclusive */
    uint8_t *flat = NULL;
    size_t flat_len = 99;
    assert_int_equal(tfs_wbuf_flatten(w, m->size, &flat, &flat_len), TFS_OK);
    assert_int_equal(flat_len, m->size);
    if (m->size) assert_memory_equal(flat, m->b, m->size);
    free(flat);
    if (m->size) assert_int_equal(tfs_wbuf_flatten(w, m->size - 1, &flat, &flat_len), TFS_EARG);
}

/* libtfs's realloc calls come here (-Wl,--wrap=realloc, tests/write/tests.cmake):
 * the g_fail_realloc-th call from now returns NULL */
static int g_fail_realloc;
void tfs__wbuf_reserve(tfs_wbuf *w, size_t bytes, size_t fields); /* internal.h */
void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n) {
    if (g_fail_realloc > 0 && --g_fail_realloc == 0) return NULL;
    return __real_realloc(p, n);
}

/* malloc (-Wl,--wrap=malloc): a request no machine can grant fails at once,
 * also under AddressSanitizer (which would abort on it) */
void *__real_malloc(size_t n);
void *__wrap_malloc(size_t n);
/* above 2^48 bytes on 64-bit builds, above half the address space on 32-bit ones */
#if SIZE_MAX > UINT32_MAX
#define MALLOC_REFUSED_ABOVE ((size_t)1 << 48)
#else
#define MALLOC_REFUSED_ABOVE (SIZE_MAX / 2)
#endif
void *__wrap_malloc(size_t n) { return n > MALLOC_REFUSED_ABOVE ? NULL : __real_malloc(n); }

/* pwrite (-Wl,--wrap=pwrite64): g_pw_mode 0 writes; 1 writes at most g_pw_max
 * bytes per call (a short write); 2 fails the first call with EINTR; 3 writes
 * nothing but records each call (for segments larger than the machine could
 * write); 4 fails with ENOSPC; 5 returns 0 (nothing written, errno ENOSPC) */
static int g_pw_mode;
static size_t g_pw_max = 5;
static size_t g_pw_calls;
static struct {
    const void *buf;
    size_t len;
    off_t off;
} g_pw[16];
/* libtfs is built with _FILE_OFFSET_BITS=64 (CMakeLists.txt): its calls are
 * to pwrite64 */
static ssize_t pw_real(int fd, const void *buf, size_t len, off_t off);
static ssize_t pw(int fd, const void *buf, size_t len, off_t off) {
    size_t k = g_pw_calls++;
    switch (g_pw_mode) {
    case 1: return pw_real(fd, buf, len < g_pw_max ? len : g_pw_max, off);
    case 4: errno = ENOSPC; return -1;
    case 5: errno = ENOSPC; return 0;
    case 2:
        if (k == 0) {
            errno = EINTR;
            return -1;
        }
        return pw_real(fd, buf, len, off);
    case 3:
        if (k < 16) {
            g_pw[k].buf = buf;
            g_pw[k].len = len;
            g_pw[k].off = off;
        }
        return (ssize_t)len;
    default: return pw_real(fd, buf, len, off);
    }
}
ssize_t __real_pwrite64(int fd, const void *buf, size_t len, int64_t off);
ssize_t __wrap_pwrite64(int fd, const void *buf, size_t len, int64_t off);
ssize_t __wrap_pwrite64(int fd, const void *buf, size_t len, int64_t off) { return pw(fd, buf, len, (off_t)off); }
static ssize_t pw_real(int fd, const void *buf, size_t len, off_t off) {
    return __real_pwrite64(fd, buf, len, (int64_t)off);
}

/* close (-Wl,--wrap=close): with g_close_fail the descriptor is closed and
 * EIO reported (as NFS may on a delayed write error) */
static int g_close_fail;
int __real_close(int fd);
int __wrap_close(int fd);
int __wrap_close(int fd) {
    int r = __real_close(fd);
    if (g_close_fail && r == 0) {
        errno = EIO;
        return -1;
    }
    return r;
}

static const uint8_t PAT[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/* a mix of every append, checked after each */
static void check_b(const tfs_wbuf *w, const model *m) {
    if (!g_quiet) check(w, m);
}

static void build(tfs_wbuf *w, model *m) {
    uint8_t le[8];
    tfs_wbuf_init(w);
    memset(m, 0, sizeof *m);
    check_b(w, m);
    assert_int_equal(tfs_wbuf_hole(w, 3), TFS_OK); /* a file that starts with a hole */
    m_hole(m, 3);
    check_b(w, m);
    assert_int_equal(tfs_wbuf_bytes(w, PAT, 5), TFS_OK);
    m_bytes(m, PAT, 5);
    check_b(w, m);
    assert_int_equal(tfs_wbuf_u8(w, 0xE1), TFS_OK);
    le[0] = 0xE1;
    m_bytes(m, le, 1);
    assert_int_equal(tfs_wbuf_u16(w, 0xA1B2), TFS_OK);
    le[0] = 0xB2, le[1] = 0xA1;
    m_bytes(m, le, 2);
    assert_int_equal(tfs_wbuf_u32(w, 0x01020304u), TFS_OK);
    le[0] = 4, le[1] = 3, le[2] = 2, le[3] = 1;
    m_bytes(m, le, 4);
    assert_int_equal(tfs_wbuf_u64(w, UINT64_C(0xF1E2D3C4B5A69788)), TFS_OK);
    static const uint8_t u64le[8] = {0x88, 0x97, 0xA6, 0xB5, 0xC4, 0xD3, 0xE2, 0xF1};
    m_bytes(m, u64le, 8);
    check_b(w, m);
    assert_int_equal(tfs_wbuf_hole(w, 1), TFS_OK);
    m_hole(m, 1);
    assert_int_equal(tfs_wbuf_hole(w, 0), TFS_OK); /* nothing */
    assert_int_equal(tfs_wbuf_hole(w, 6), TFS_OK); /* merges with the last hole */
    m_hole(m, 6);
    check_b(w, m);
    assert_int_equal(tfs_wbuf_fill(w, 0x7E, 9), TFS_OK);
    memset(le, 0x7E, 8);
    m_bytes(m, le, 8);
    m_bytes(m, le, 1);
    assert_int_equal(tfs_wbuf_fill(w, 0x11, 0), TFS_OK);
    assert_int_equal(tfs_wbuf_bytes(w, NULL, 0), TFS_OK);
    check_b(w, m);
    /* growth past the first capacity, in pieces of every size */
    for (size_t n = 1; n < 40; n++) {
        assert_int_equal(tfs_wbuf_bytes(w, PAT + (n % 20), n), TFS_OK);
        m_bytes(m, PAT + (n % 20), n);
        if (n % 7 == 0) {
            assert_int_equal(tfs_wbuf_hole(w, n), TFS_OK);
            m_hole(m, n);
        }
    }
    check_b(w, m);
    assert_int_equal(tfs_wbuf_hole(w, 2), TFS_OK); /* ends with a hole */
    m_hole(m, 2);
    check_b(w, m);
}

static void test_appends(void **state) {
    (void)state;
    tfs_wbuf w;
    model m;
    build(&w, &m);
    tfs_wbuf_free(&w);
    assert_null(w.p);
    assert_int_equal(w.size, 0);
    assert_int_equal(w.n_segs, 0);
    tfs_wbuf_free(NULL);
    tfs_wbuf_init(NULL);
}

/* cut at every size, then append again after the cut */
static void test_truncate_every_size(void **state) {
    (void)state;
    tfs_wbuf w;
    model m;
    build(&w, &m);
    size_t full = m.size;
    tfs_wbuf_free(&w);
    g_quiet = 1;
    for (size_t cut = 0; cut <= full; cut++) {
        build(&w, &m);
        assert_int_equal(tfs_wbuf_truncate(&w, cut), TFS_OK);
        m.size = cut;
        check(&w, &m);
        assert_int_equal(tfs_wbuf_bytes(&w, PAT, 3), TFS_OK);
        m_bytes(&m, PAT, 3);
        assert_int_equal(tfs_wbuf_hole(&w, 2), TFS_OK);
        m_hole(&m, 2);
        assert_int_equal(tfs_wbuf_u8(&w, 0x42), TFS_OK);
        uint8_t b = 0x42;
        m_bytes(&m, &b, 1);
        check(&w, &m);
        tfs_wbuf_free(&w);
    }
    g_quiet = 0;
    build(&w, &m);
    assert_int_equal(tfs_wbuf_truncate(&w, full + 1), TFS_EARG);
    assert_int_equal(w.err, TFS_EARG); /* sticky */
    assert_int_equal(w.size, full);
    tfs_wbuf_free(&w);
    assert_int_equal(tfs_wbuf_truncate(NULL, 0), TFS_EARG);
}

static void test_sticky_errors_and_limits(void **state) {
    (void)state;
    tfs_wbuf w = {0};
    assert_int_equal(tfs_wbuf_bytes(&w, PAT, 2), TFS_OK);
    assert_int_equal(tfs_wbuf_bytes(&w, NULL, 1), TFS_EARG); /* src NULL with n > 0 */
    assert_int_equal(w.err, TFS_EARG);
    assert_int_equal(tfs_wbuf_bytes(&w, PAT, 1), TFS_EARG);
    assert_int_equal(tfs_wbuf_bytes(&w, PAT, 0), TFS_EARG);
    assert_int_equal(tfs_wbuf_fill(&w, 1, 1), TFS_EARG);
    assert_int_equal(tfs_wbuf_fill(&w, 1, 0), TFS_EARG);
    assert_int_equal(tfs_wbuf_hole(&w, 1), TFS_EARG);
    assert_int_equal(tfs_wbuf_hole(&w, 0), TFS_EARG);
    assert_int_equal(tfs_wbuf_u8(&w, 1), TFS_EARG);
    assert_int_equal(tfs_wbuf_u16(&w, 1), TFS_EARG);
    assert_int_equal(tfs_wbuf_u32(&w, 1), TFS_EARG);
    assert_int_equal(tfs_wbuf_u64(&w, 1), TFS_EARG);
    assert_int_equal(tfs_wbuf_field(&w, 1, 0, 0, 0, 1), TFS_EARG);
    assert_int_equal(w.size, 2);
    assert_int_equal(w.len, 2);
    assert_int_equal(w.n_fields, 0);
    uint8_t *out = NULL;
    size_t out_len = 0;
    assert_int_equal(tfs_wbuf_flatten(&w, 100, &out, &out_len), TFS_EARG);
    tfs_wbuf_free(&w);

    /* the file size may reach UINT64_MAX, not pass it */
    tfs_wbuf_init(&w);
    assert_int_equal(tfs_wbuf_hole(&w, UINT64_MAX - 2), TFS_OK);
    assert_int_equal(tfs_wbuf_bytes(&w, PAT, 2), TFS_OK);
    assert_true(w.size == UINT64_MAX);
    assert_int_equal(w.n_segs, 2);
    assert_int_equal(tfs_wbuf_u8(&w, 1), TFS_EARG);
    assert_int_equal(w.err, TFS_EARG);
    assert_true(w.size == UINT64_MAX);
    assert_int_equal(w.len, 2);
    tfs_wbuf_free(&w);
    tfs_wbuf_init(&w);
    assert_int_equal(tfs_wbuf_bytes(&w, PAT, 2), TFS_OK);
    assert_int_equal(tfs_wbuf_hole(&w, UINT64_MAX - 2), TFS_OK);
    assert_int_equal(tfs_wbuf_hole(&w, 2), TFS_EARG);
    assert_true(w.size == UINT64_MAX - 0);
    tfs_wbuf_free(&w);
    tfs_wbuf_init(&w);
    assert_int_equal(tfs_wbuf_hole(&w, UINT64_MAX), TFS_OK);
    assert_int_equal(tfs_wbuf_flatten(&w, UINT64_MAX, &out, &out_len), TFS_EARG); /* more than SIZE_MAX - 1 */
    assert_int_equal(tfs_wbuf_fill(&w, 0, 1), TFS_EARG);
    tfs_wbuf_free(&w);
    /* SIZE_MAX - 1 bytes pass the size check; the allocation then fails */
    tfs_wbuf_init(&w);
    assert_int_equal(tfs_wbuf_hole(&w, SIZE_MAX - 1), TFS_OK);
    assert_int_equal(tfs_wbuf_flatten(&w, UINT64_MAX, &out, &out_len), TFS_ENOMEM);
    assert_int_equal(tfs_wbuf_flatten(&w, SIZE_MAX - 2, &out, &out_len), TFS_EARG);
    tfs_wbuf_free(&w);
    /* ranges near the end of a UINT64_MAX-byte file whose length would wrap */
    tfs_wbuf_init(&w);
    assert_int_equal(tfs_wbuf_hole(&w, UINT64_MAX - 5), TFS_OK);
    assert_int_equal(tfs_wbuf_bytes(&w, PAT, 5), TFS_OK);
    assert_ptr_equal(tfs_wbuf_at(&w, UINT64_MAX - 5, 5), w.p);
    assert_ptr_equal(tfs_wbuf_at(&w, UINT64_MAX - 2, 2), w.p + 3);
    assert_null(tfs_wbuf_at(&w, UINT64_MAX - 1, 2));
    for (size_t k = 1; k <= 8; k++) assert_null(tfs_wbuf_at(&w, UINT64_MAX - 1, SIZE_MAX - k));
    assert_null(tfs_wbuf_at(&w, UINT64_MAX - 6, 1)); /* the hole */
    tfs_wbuf_free(&w);

    assert_int_equal(tfs_wbuf_bytes(NULL, PAT, 1), TFS_EARG);
    assert_int_equal(tfs_wbuf_fill(NULL, 0, 1), TFS_EARG);
    assert_int_equal(tfs_wbuf_hole(NULL, 1), TFS_EARG);
    assert_int_equal(tfs_wbuf_u8(NULL, 1), TFS_EARG);
    assert_int_equal(tfs_wbuf_u16(NULL, 1), TFS_EARG);
    assert_int_equal(tfs_wbuf_field(NULL, 1, 0, 0, 0, 1), TFS_EARG);
    assert_null(tfs_wbuf_at(NULL, 0, 0));
    assert_null(tfs_wbuf_find(NULL, 1, 0, 0));
    tfs_wbuf_init(&w);
    assert_int_equal(tfs_wbuf_flatten(NULL, 1, &out, &out_len), TFS_EARG);
    assert_int_equal(tfs_wbuf_flatten(&w, 1, NULL, &out_len), TFS_EARG);
    assert_int_equal(tfs_wbuf_flatten(&w, 1, &out, NULL), TFS_EARG);
    /* an empty file: one byte allocated, length 0 */
    out = NULL;
    out_len = 9;
    assert_int_equal(tfs_wbuf_flatten(&w, 0, &out, &out_len), TFS_OK);
    assert_non_null(out);
    assert_int_equal(out_len, 0);
    free(out);
    assert_null(tfs_wbuf_at(&w, 0, 0)); /* nothing materialised */
    assert_null(tfs_wbuf_at(&w, 0, 1));
    tfs_wbuf_free(&w);
}

static void test_fields(void **state) {
    (void)state;
    tfs_wbuf w = {0};
    assert_null(tfs_wbuf_find(&w, 1, 0, 0));
    for (int32_t r = -1; r < 40; r++) {
        assert_int_equal(tfs_wbuf_field(&w, 3, r, 0, 100u + (uint64_t)(r + 1), 4), TFS_OK);
        assert_int_equal(tfs_wbuf_field(&w, 3, r, 1, 200u + (uint64_t)(r + 1), 8), TFS_OK);
        assert_int_equal(tfs_wbuf_field(&w, 5, r, 0, 300u + (uint64_t)(r + 1), 2), TFS_OK);
    }
    /* a second field with the same key: find gives the first */
    assert_int_equal(tfs_wbuf_field(&w, 3, 7, 0, 999, 1), TFS_OK);
    assert_int_equal(w.n_fields, 41 * 3 + 1);
    for (int32_t r = -1; r < 40; r++) {
        const tfs_field *f = tfs_wbuf_find(&w, 3, r, 0);
        assert_non_null(f);
        assert_int_equal(f->kind, 3);
        assert_int_equal(f->record, r);
        assert_int_equal(f->sub, 0);
        assert_int_equal(f->offset, 100u + (uint64_t)(r + 1));
        assert_int_equal(f->width, 4);
        f = tfs_wbuf_find(&w, 3, r, 1);
        assert_non_null(f);
        assert_int_equal(f->offset, 200u + (uint64_t)(r + 1));
        assert_int_equal(f->width, 8);
        f = tfs_wbuf_find(&w, 5, r, 0);
        assert_non_null(f);
        assert_int_equal(f->offset, 300u + (uint64_t)(r + 1));
    }
    assert_null(tfs_wbuf_find(&w, 4, 0, 0));  /* no such kind */
    assert_null(tfs_wbuf_find(&w, 3, 40, 0)); /* no such record */
    assert_null(tfs_wbuf_find(&w, 5, 0, 1));  /* no such sub */
    /* the last field is found too */
    assert_int_equal(tfs_wbuf_field(&w, 9, 2, 3, 4, 5), TFS_OK);
    assert_non_null(tfs_wbuf_find(&w, 9, 2, 3));
    assert_int_equal(w.size, 0); /* fields write no bytes */
    tfs_wbuf_free(&w);
    assert_null(w.fields);
    assert_int_equal(w.n_fields, 0);
}

/* reserve is only a hint: the same file, capacity at least what was asked */
static void test_reserve_hint(void **state) {
    (void)state;
    tfs_wbuf w = {0};
    model m = {0};
    assert_int_equal(tfs_wbuf_bytes(&w, PAT, 10), TFS_OK);
    m_bytes(&m, PAT, 10);
    tfs__wbuf_reserve(&w, 1000, 50);
    assert_true(w.cap >= 1010);
    assert_true(w.fields_cap >= 50);
    size_t cap = w.cap;
    for (int i = 0; i < 100; i++) {
        assert_int_equal(tfs_wbuf_bytes(&w, PAT, 10), TFS_OK);
        m_bytes(&m, PAT, 10);
    }
    assert_int_equal(w.cap, cap); /* no growth needed */
    check(&w, &m);
    tfs__wbuf_reserve(&w, 0, 0);
    assert_int_equal(w.cap, cap);
    tfs__wbuf_reserve(&w, SIZE_MAX, SIZE_MAX); /* overflow: nothing */
    assert_int_equal(w.cap, cap);
    /* sums that wrap to a small count: nothing (never a shrink below what is held) */
    for (int i = 0; i < 3; i++) assert_int_equal(tfs_wbuf_field(&w, 7, i, 0, 0, 1), TFS_OK);
    size_t fcap = w.fields_cap;
    tfs__wbuf_reserve(&w, SIZE_MAX - w.len + 2, SIZE_MAX - 1);
    assert_int_equal(w.cap, cap);
    assert_int_equal(w.fields_cap, fcap);
    for (int i = 0; i < 3; i++) assert_non_null(tfs_wbuf_find(&w, 7, i, 0));
    check(&w, &m);
    tfs__wbuf_reserve(NULL, 1, 1);
    tfs_wbuf_free(&w);
}

/* allocation failures: TFS_ENOMEM, kept as the first error; a failed hint
 * changes nothing */
static void test_allocation_failures(void **state) {
    (void)state;
    /* the bytes' buffer */
    tfs_wbuf w = {0};
    g_fail_realloc = 1;
    assert_int_equal(tfs_wbuf_bytes(&w, PAT, 10), TFS_ENOMEM);
    assert_int_equal(w.err, TFS_ENOMEM);
    assert_int_equal(w.size, 0);
    assert_int_equal(w.len, 0);
    /* later failures of another kind do not replace the first */
    assert_int_equal(tfs_wbuf_bytes(&w, NULL, 1), TFS_ENOMEM);
    assert_int_equal(tfs_wbuf_truncate(&w, 1), TFS_ENOMEM);
    assert_int_equal(w.err, TFS_ENOMEM);
    tfs_wbuf_free(&w);
    /* the segment array (the second allocation of the first append) */
    g_fail_realloc = 2;
    assert_int_equal(tfs_wbuf_bytes(&w, PAT, 10), TFS_ENOMEM);
    assert_int_equal(w.err, TFS_ENOMEM);
    assert_int_equal(w.n_segs, 0);
    assert_int_equal(w.size, 0);
    tfs_wbuf_free(&w);
    g_fail_realloc = 1;
    assert_int_equal(tfs_wbuf_hole(&w, 10), TFS_ENOMEM);
    assert_int_equal(w.n_segs, 0);
    assert_int_equal(w.size, 0);
    tfs_wbuf_free(&w);
    /* the field map */
    g_fail_realloc = 1;
    assert_int_equal(tfs_wbuf_field(&w, 1, 2, 3, 4, 5), TFS_ENOMEM);
    assert_int_equal(w.n_fields, 0);
    assert_int_equal(w.err, TFS_ENOMEM);
    tfs_wbuf_free(&w);
    /* more than half the address space at once: the capacity search ends
     * (the allocation then fails: ENOMEM) */
    g_fail_realloc = 1;
    assert_int_equal(tfs_wbuf_fill(&w, 0, SIZE_MAX - 10), TFS_ENOMEM);
    assert_int_equal(w.size, 0);
    tfs_wbuf_free(&w);
    g_fail_realloc = 0;
    assert_int_equal(tfs_wbuf_bytes(&w, PAT, 1), TFS_OK);
    g_fail_realloc = 1;
    assert_int_equal(tfs_wbuf_fill(&w, 0, SIZE_MAX / 2 + 7), TFS_ENOMEM);
    assert_int_equal(w.size, 1);
    tfs_wbuf_free(&w);
    g_fail_realloc = 0;
    /* empty appends to an empty buffer: nothing, no error */
    assert_int_equal(tfs_wbuf_bytes(&w, PAT, 0), TFS_OK);
    assert_int_equal(tfs_wbuf_fill(&w, 7, 0), TFS_OK);
    assert_int_equal(tfs_wbuf_hole(&w, 3), TFS_OK);
    assert_int_equal(tfs_wbuf_bytes(&w, NULL, 0), TFS_OK);
    assert_int_equal(tfs_wbuf_fill(&w, 7, 0), TFS_OK);
    assert_int_equal(w.size, 3);
    assert_int_equal(w.len, 0);
    assert_int_equal(w.n_segs, 1);
    tfs_wbuf_free(&w);
    /* a failed reserve hint: the same buffer, the same capacity, appends go on */
    model m = {0};
    assert_int_equal(tfs_wbuf_bytes(&w, PAT, 10), TFS_OK);
    assert_int_equal(tfs_wbuf_field(&w, 1, 0, 0, 0, 1), TFS_OK);
    m_bytes(&m, PAT, 10);
    uint8_t *p = w.p;
    size_t cap = w.cap, fcap = w.fields_cap;
    g_fail_realloc = 1;
    tfs__wbuf_reserve(&w, 100000, 0);
    assert_ptr_equal(w.p, p);
    assert_int_equal(w.cap, cap);
    g_fail_realloc = 1;
    tfs__wbuf_reserve(&w, 0, 100000);
    assert_int_equal(w.fields_cap, fcap);
    assert_int_equal(w.err, TFS_OK);
    g_fail_realloc = 0;
    assert_int_equal(tfs_wbuf_bytes(&w, PAT, 20), TFS_OK);
    m_bytes(&m, PAT, 20);
    check(&w, &m);
    assert_non_null(tfs_wbuf_find(&w, 1, 0, 0));
    tfs_wbuf_free(&w);
}

static void read_file(const char *path, uint8_t *dst, size_t cap, size_t *n) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    *n = fread(dst, 1, cap, f);
    fclose(f);
}

/* The file at path holds exactly the model's bytes. */
static void assert_file_is(const char *path, const model *m) {
    static uint8_t got[MAXF + 16];
    size_t n;
    read_file(path, got, sizeof got, &n);
    assert_int_equal(n, m->size); /* a trailing hole counts */
    assert_memory_equal(got, m->b, m->size);
}

/* w written to path: TFS_OK, errno out-parameter 0 */
static void write_file_ok(const tfs_wbuf *w, const char *path) {
    int e = -7;
    assert_int_equal(tfs_wbuf_write_file(w, path, &e), TFS_OK);
    assert_int_equal(e, 0);
}

/* dir (a "...XXXXXX" template) made a new temporary folder, path dir/name in it */
static void temp_path(char *dir, char *path, size_t cap, const char *name) {
    assert_non_null(mkdtemp(dir));
    snprintf(path, cap, "%s/%s", dir, name);
}

/* the buffer of build() and its model, and dir/out.bin to write it to */
static void build_out(tfs_wbuf *w, model *m, char *dir, char *path, size_t cap) {
    build(w, m);
    temp_path(dir, path, cap, "out.bin");
}

/* short writes and EINTR: the loop writes the rest where it belongs */
static void test_write_fd_short_and_interrupted(void **state) {
    (void)state;
    char dir[] = "/tmp/tfs-wbuf-XXXXXX", path[256];
    tfs_wbuf w;
    model m;
    build_out(&w, &m, dir, path, sizeof path);
    for (int mode = 0; mode <= 2; mode++) {
        g_pw_mode = mode ? mode : 1;
        g_pw_max = mode ? 5 : 1; /* mode 0 here: one byte per call */
        g_pw_calls = 0;
        write_file_ok(&w, path);
        g_pw_mode = 0;
        assert_file_is(path, &m);
    }
    g_pw_max = 5;
    /* a failing write: its errno; a write of nothing: EIO */
    for (int mode = 4; mode <= 5; mode++) {
        g_pw_mode = mode;
        int e = 0;
        assert_int_equal(tfs_wbuf_write_file(&w, path, &e), TFS_EIO);
        assert_int_equal(e, mode == 4 ? ENOSPC : EIO);
        g_pw_mode = 0;
    }
    /* the final size cannot be set (a file size limit): EFBIG */
    struct rlimit old_lim, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old_lim), 0);
    void (*old_sig)(int) = signal(SIGXFSZ, SIG_IGN);
    tfs_wbuf big = {0};
    assert_int_equal(tfs_wbuf_bytes(&big, PAT, 10), TFS_OK);
    assert_int_equal(tfs_wbuf_hole(&big, 1 << 20), TFS_OK);
    lim = old_lim;
    lim.rlim_cur = 4096;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    int e = 0;
    tfs_status st = tfs_wbuf_write_file(&big, path, &e);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old_lim), 0);
    signal(SIGXFSZ, old_sig);
    assert_int_equal(st, TFS_EIO);
    assert_int_equal(e, EFBIG);
    tfs_wbuf_free(&big);
    /* close fails: EIO */
    g_close_fail = 1;
    e = 0;
    st = tfs_wbuf_write_file(&w, path, &e);
    g_close_fail = 0;
    assert_int_equal(st, TFS_EIO);
    assert_int_equal(e, EIO);
    /* a new file: mode 0644 (umask 022) */
    unlink(path);
    mode_t old_mask = umask(022);
    assert_int_equal(tfs_wbuf_write_file(&w, path, &e), TFS_OK);
    umask(old_mask);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0644);
    /* the file opened as descriptor 0 (stdin closed) */
    int saved = dup(0);
    assert_true(saved >= 0);
    __real_close(0);
    e = -7;
    st = tfs_wbuf_write_file(&w, path, &e);
    assert_int_equal(dup2(saved, 0), 0);
    __real_close(saved);
    assert_int_equal(st, TFS_OK);
    assert_int_equal(e, 0);
    /* refusals reset the errno out-parameter */
    e = -7;
    assert_int_equal(tfs_wbuf_write_file(NULL, path, &e), TFS_EARG);
    assert_int_equal(e, 0);
    e = -7;
    assert_int_equal(tfs_wbuf_write_fd(NULL, 1, &e), TFS_EARG);
    assert_int_equal(e, 0);
    tfs_wbuf_free(&w);
    unlink(path);
    rmdir(dir);
}

/* string constructors */
static void test_wstr(void **state) {
    (void)state;
    static const char lit[] = "abc";
    tfs_wstr a = tfs_wstr_c(lit);
    assert_ptr_equal(a.ptr, lit);
    assert_int_equal(a.len, 3);
    assert_int_equal(a.hole, 0);
    tfs_wstr b = tfs_wstr_c(NULL);
    assert_null(b.ptr);
    assert_int_equal(b.len, 0);
    tfs_wstr c = tfs_wstr_n("xyz", 2);
    assert_int_equal(c.len, 2);
    assert_memory_equal(c.ptr, "xy", 2);
    tfs_wstr d = tfs_wstr_hole(12345);
    assert_null(d.ptr);
    assert_int_equal(d.len, 0);
    assert_int_equal(d.hole, 12345);
}

/* a materialised segment of 1.75 GiB (read-only zero pages, never written:
 * pwrite only records its calls) and one of 3 bytes after a hole: every call
 * stays inside its segment, at the matching file offset, and together they
 * cover each segment once */
static void test_write_fd_large_segment(void **state) {
    (void)state;
    const size_t big = (size_t)7 << 28;
    uint8_t *p = mmap(NULL, big + 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) skip();
    tfs_wseg segs[3] = {{.offset = 0, .len = big, .pos = 0, .hole = 0},
                        {.offset = big, .len = 100, .pos = big, .hole = 1},
                        {.offset = big + 100, .len = 3, .pos = big, .hole = 0}};
    tfs_wbuf w = {
        .p = p, .len = big + 3, .cap = big + 4096, .size = big + 103, .segs = segs, .n_segs = 3, .segs_cap = 3};
    char dir[] = "/tmp/tfs-wbuf-XXXXXX", path[256];
    temp_path(dir, path, sizeof path, "big.bin");
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    /* only with the wrapper in place: else 1.75 GiB would be written */
    tfs_wbuf tiny = {0};
    assert_int_equal(tfs_wbuf_bytes(&tiny, PAT, 3), TFS_OK);
    g_pw_mode = 3;
    g_pw_calls = 0;
    int e = -7;
    assert_int_equal(tfs_wbuf_write_fd(&tiny, fd, &e), TFS_OK);
    tfs_wbuf_free(&tiny);
    if (g_pw_calls != 1) {
        g_pw_mode = 0;
        close(fd);
        unlink(path);
        rmdir(dir);
        munmap(p, big + 4096);
        fail_msg("pwrite is not wrapped (%zu calls seen)", g_pw_calls);
    }
    g_pw_calls = 0;
    tfs_status st = tfs_wbuf_write_fd(&w, fd, &e);
    g_pw_mode = 0;
    assert_int_equal(st, TFS_OK);
    assert_int_equal(e, 0);
    assert_true(g_pw_calls >= 2 && g_pw_calls <= 16);
    uint64_t covered0 = 0;
    int last_seen = 0;
    for (size_t k = 0; k < g_pw_calls; k++) {
        const uint8_t *b = g_pw[k].buf;
        size_t len = g_pw[k].len;
        assert_true(len > 0 && len <= 0x7ffff000); /* Linux transfers at most this per call */
        if (b == p + big) {                        /* the small segment */
            assert_int_equal(len, 3);
            assert_int_equal(g_pw[k].off, (off_t)(big + 100));
            last_seen++;
            continue;
        }
        assert_true(b >= p && b + len <= p + big);     /* inside the big segment */
        assert_int_equal(g_pw[k].off, (off_t)(b - p)); /* at its own file offset */
        assert_int_equal(b - p, (ptrdiff_t)covered0);  /* in order, no gap, no overlap */
        covered0 += len;
    }
    assert_true(covered0 == big);
    assert_int_equal(last_seen, 1);
    struct stat sb;
    assert_int_equal(fstat(fd, &sb), 0);
    assert_int_equal((uint64_t)sb.st_size, big + 103); /* the final ftruncate */
    close(fd);
    unlink(path);
    rmdir(dir);
    munmap(p, big + 4096);
}

static void test_write_file(void **state) {
    (void)state;
    char dir[] = "/tmp/tfs-wbuf-XXXXXX", path[256];
    tfs_wbuf w;
    model m;
    build_out(&w, &m, dir, path, sizeof path);
    for (int pass = 0; pass < 2; pass++) {
        write_file_ok(&w, path);
        assert_file_is(path, &m); /* the trailing hole counts */
        /* a shorter file over a longer one: truncated first */
        assert_int_equal(tfs_wbuf_truncate(&w, m.size - 20), TFS_OK);
        m.size -= 20;
    }
    /* through an fd already holding longer content */
    int fd = open(path, O_RDWR);
    assert_true(fd >= 0);
    static const uint8_t ff[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    assert_int_equal(write(fd, ff, 8), 8); /* old bytes where the file starts with a hole */
    int e = -7;
    assert_int_equal(tfs_wbuf_write_fd(&w, fd, &e), TFS_OK);
    assert_int_equal(e, 0);
    assert_int_equal(tfs_wbuf_write_fd(&w, fd, NULL), TFS_OK);
    close(fd);
    assert_file_is(path, &m);
    /* refusals */
    assert_int_equal(tfs_wbuf_write_fd(&w, -1, &e), TFS_EARG);
    assert_int_equal(tfs_wbuf_write_fd(NULL, 1, &e), TFS_EARG);
    assert_int_equal(tfs_wbuf_write_file(NULL, path, &e), TFS_EARG);
    assert_int_equal(tfs_wbuf_write_file(&w, NULL, &e), TFS_EARG);
    char bad[300];
    snprintf(bad, sizeof bad, "%s/no/such/dir", dir);
    e = 0;
    assert_int_equal(tfs_wbuf_write_file(&w, bad, &e), TFS_EIO);
    assert_int_equal(e, ENOENT);
    assert_int_equal(tfs_wbuf_write_file(&w, bad, NULL), TFS_EIO);
    /* a read-only fd: the first ftruncate fails, with its errno */
    fd = open(path, O_RDONLY);
    errno = 0;
    assert_int_not_equal(ftruncate(fd, 0), 0);
    int want = errno;
    e = 0;
    assert_int_equal(tfs_wbuf_write_fd(&w, fd, &e), TFS_EIO);
    assert_int_equal(e, want);
    close(fd);
    /* descriptor 0 is a descriptor like any other */
    int saved = dup(0);
    assert_true(saved >= 0);
    fd = open(path, O_RDWR);
    assert_true(fd >= 0);
    assert_int_equal(dup2(fd, 0), 0);
    close(fd);
    assert_int_equal(tfs_wbuf_write_fd(&w, 0, &e), TFS_OK);
    assert_int_equal(dup2(saved, 0), 0);
    close(saved);
    assert_file_is(path, &m);
    tfs_wbuf_free(&w);
    /* a file larger than INT64_MAX: refused; exactly INT64_MAX is not refused
     * as too large (the file system may refuse it: EIO, EFBIG) */
    tfs_wbuf_init(&w);
    assert_int_equal(tfs_wbuf_hole(&w, (uint64_t)INT64_MAX + 1u), TFS_OK);
    assert_int_equal(tfs_wbuf_write_file(&w, path, &e), TFS_EARG);
    tfs_wbuf_free(&w);
    tfs_wbuf_init(&w);
    assert_int_equal(tfs_wbuf_hole(&w, (uint64_t)INT64_MAX), TFS_OK);
    assert_int_not_equal(tfs_wbuf_write_file(&w, path, &e), TFS_EARG);
    tfs_wbuf_free(&w);
    /* a sticky error: refused */
    tfs_wbuf_init(&w);
    assert_int_equal(tfs_wbuf_bytes(&w, NULL, 1), TFS_EARG);
    assert_int_equal(tfs_wbuf_write_file(&w, path, &e), TFS_EARG);
    tfs_wbuf_free(&w);
    unlink(path);
    rmdir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_appends),
        cmocka_unit_test(test_truncate_every_size),
        cmocka_unit_test(test_sticky_errors_and_limits),
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_reserve_hint),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_write_file),
        cmocka_unit_test(test_write_fd_short_and_interrupted),
        cmocka_unit_test(test_write_fd_large_segment),
        cmocka_unit_test(test_wstr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
