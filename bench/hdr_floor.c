/*
 * hdr_floor.c: the hardware floor of a header check, as a whole process:
 * what it costs to start a process and bring the header bytes of a file
 * into memory, with no parsing.  `tfs check` cannot be faster than this;
 * bench/whole.sh times it beside `tfs check`.
 *
 *   tfs_hdr_floor MODE [-b BYTES] FILE
 *
 * The header range: for safetensors, the 8-byte size N and then N bytes
 * (8 + N in all); for GGUF (magic "GGUF"), the whole file unless -b BYTES
 * says how many bytes from the start (the vocab files hold no tensor data,
 * so their header is the file).
 * MODE:
 *   none      open and fstat the file only (process start, libc, exit)
 *   read      malloc one buffer of the header size, read it with pread
 *             (safetensors: 8 bytes, then exactly N bytes), sum the bytes
 *   populate  the same into an anonymous mapping made with MAP_POPULATE
 *             (its pages are faulted in by one system call, not one fault
 *             per page during the copy)
 *   thp       the same into an anonymous mapping aligned to 2 MiB and
 *             madvise(MADV_HUGEPAGE) (transparent huge pages in "madvise"
 *             mode: one fault per 2 MiB instead of per 4 KiB)
 *   mmap      map the header range of the file with MAP_POPULATE, sum
 *   chunk     pread the header range through one fixed 64 KiB buffer, sum
 *             (the floor of a bounded-memory, fixed-window reader)
 * The byte sum is a one-pass read of the bytes (as a parser must do at
 * least once); it is printed so the compiler keeps it.
 * Output: "<MODE> <header bytes> <sum>" (exit 0); exit 1 on an I/O error or
 * a file shorter than its header, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { CHUNK = 64 * 1024 };

static int pread_all(int fd, uint8_t *p, size_t n, uint64_t off) {
    while (n > 0) {
        ssize_t r = pread(fd, p, n, (off_t)off);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        p += r;
        n -= (size_t)r;
        off += (uint64_t)r;
    }
    return 0;
}

static uint64_t sum(const uint8_t *p, size_t n) {
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) s += p[i];
    return s;
}

static int usage(void) {
    fprintf(stderr, "usage: tfs_hdr_floor none|read|populate|thp|mmap|chunk [-b BYTES] FILE\n");
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 3) return usage();
    const char *mode = argv[1], *file = NULL;
    uint64_t bytes = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "-b") == 0 && i + 1 < argc)
            bytes = strtoull(argv[++i], NULL, 10);
        else if (!file)
            file = argv[i];
        else
            return usage();
    }
    if (!file) return usage();
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "tfs_hdr_floor: %s: %s\n", file, strerror(errno));
        return 1;
    }
    uint64_t size = (uint64_t)st.st_size;
    if (strcmp(mode, "none") == 0) {
        printf("none 0 0\n");
        return 0;
    }
    uint8_t head[8];
    uint64_t start = 0; /* bytes already in head[] that belong to the header */
    if (!bytes) {
        if (size < 8 || pread_all(fd, head, 8, 0) != 0) {
            fprintf(stderr, "tfs_hdr_floor: %s: shorter than 8 bytes\n", file);
            return 1;
        }
        if (memcmp(head, "GGUF", 4) == 0)
            bytes = size;
        else {
            uint64_t n = 0;
            for (int i = 7; i >= 0; i--) n = n << 8 | head[i];
            if (n > size - 8) {
                fprintf(stderr, "tfs_hdr_floor: %s: header size %llu past the end\n", file, (unsigned long long)n);
                return 1;
            }
            bytes = 8 + n;
            start = 8; /* safetensors: the 8 bytes are read; read the N that follow */
        }
    }
    if (bytes > size || bytes > SIZE_MAX) {
        fprintf(stderr, "tfs_hdr_floor: %s: %llu header bytes past the end\n", file, (unsigned long long)bytes);
        return 1;
    }
    size_t n = (size_t)(bytes - start);
    uint64_t s = 0;
    if (strcmp(mode, "read") == 0 || strcmp(mode, "populate") == 0 || strcmp(mode, "thp") == 0) {
        uint8_t *p;
        if (mode[0] == 'r')
            p = malloc(n ? n : 1);
        else if (mode[0] == 't') {
            /* over-allocate by 2 MiB and start at the first 2 MiB boundary */
            size_t huge = (size_t)2 << 20, hn = ((n ? n : 1) + huge - 1) & ~(huge - 1), len = hn + huge;
            uint8_t *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (m == MAP_FAILED)
                p = NULL;
            else {
                p = (uint8_t *)(((uintptr_t)m + huge - 1) & ~(uintptr_t)(huge - 1));
                madvise(p, hn, MADV_HUGEPAGE); /* advice only: 4 KiB pages if refused */
            }
        } else {
            p = mmap(NULL, n ? n : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
            if (p == MAP_FAILED) p = NULL;
        }
        if (!p || pread_all(fd, p, n, start) != 0) {
            fprintf(stderr, "tfs_hdr_floor: %s: %s\n", file, p ? "read failed" : "out of memory");
            return 1;
        }
        s = sum(p, n);
        if (mode[0] == 'r') free(p); /* as tfs check frees its window before exiting */
    } else if (strcmp(mode, "mmap") == 0) {
        if (bytes == 0) {
            printf("mmap 0 0\n");
            return 0;
        }
        uint8_t *p = mmap(NULL, (size_t)bytes, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        if (p == MAP_FAILED) {
            fprintf(stderr, "tfs_hdr_floor: %s: mmap: %s\n", file, strerror(errno));
            return 1;
        }
        s = sum(p + start, n);
    } else if (strcmp(mode, "chunk") == 0) {
        static uint8_t buf[CHUNK];
        for (size_t done = 0; done < n;) {
            size_t k = n - done < CHUNK ? n - done : CHUNK;
            if (pread_all(fd, buf, k, start + done) != 0) {
                fprintf(stderr, "tfs_hdr_floor: %s: read failed\n", file);
                return 1;
            }
            s += sum(buf, k);
            done += k;
        }
    } else
        return usage();
    printf("%s %llu %llu\n", mode, (unsigned long long)bytes, (unsigned long long)s);
    return 0;
}
