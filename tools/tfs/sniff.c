/* sniff.c: is this input a model file at all, and if not, what does it look
 * like?  A decision of the command line only: the library's detection
 * (tfs_detect_format) and verdicts stay canonical.  Without --format:
 *   - a file whose first bytes are the GGUF magic is GGUF;
 *   - a model extension (.gguf, .safetensors; any case; also under a
 *     trailing .part / .partial of an unfinished download) decides next,
 *     so a damaged model file still gets its canonical verdict;
 *   - a file that is plausibly safetensors (8-byte size N, then '{', and
 *     8 + N within the file) is safetensors;
 *   - anything else is not a model file: verdict not_a_model, with what its
 *     first bytes look like (JSON index file, zip / PyTorch checkpoint,
 *     pickle, HTML, PNG, ...), instead of a safetensors rule about a "header
 *     size" that was never one. */
#include <string.h>
#include <strings.h>

#include "cli.h"

/* Does `s` end with `suffix`, ignoring ASCII case?  *stem_len receives the
 * length of s without it. */
static int ends_with_ci(const char *s, size_t len, const char *suffix, size_t *stem_len) {
    size_t n = strlen(suffix);
    if (len < n || strncasecmp(s + len - n, suffix, n) != 0) return 0;
    *stem_len = len - n;
    return 1;
}

tfs_format model_ext(const char *path) {
    if (!path) return TFS_FORMAT_UNKNOWN;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strlen(base), stem;
    /* an unfinished download: model.gguf.part, model.safetensors.partial */
    if (ends_with_ci(base, len, ".part", &stem) || ends_with_ci(base, len, ".partial", &stem)) len = stem;
    if (ends_with_ci(base, len, ".gguf", &stem) && stem > 0) return TFS_FORMAT_GGUF;
    if (ends_with_ci(base, len, ".safetensors", &stem) && stem > 0) return TFS_FORMAT_SAFETENSORS;
    return TFS_FORMAT_UNKNOWN;
}

static int starts(const uint8_t *p, size_t n, const void *magic, size_t m) {
    return n >= m && memcmp(p, magic, m) == 0;
}

/* Does the prefix contain `needle` (a short ASCII string)? */
static int contains(const uint8_t *p, size_t n, const char *needle) {
    size_t m = strlen(needle);
    for (size_t i = 0; i + m <= n; i++)
        if (memcmp(p + i, needle, m) == 0) return 1;
    return 0;
}

/* The first non-blank byte, lower-cased text after it compared by caller. */
static size_t skip_blank(const uint8_t *p, size_t n) {
    size_t i = 0;
    if (n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) i = 3; /* UTF-8 BOM */
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) i++;
    return i;
}

static int starts_ci(const uint8_t *p, size_t n, const char *s) {
    size_t m = strlen(s);
    return n >= m && strncasecmp((const char *)p, s, m) == 0;
}

/* Text: valid UTF-8 (a cut last character allowed) with no control bytes
 * other than tab, CR, LF and form feed. */
static int is_text(const uint8_t *p, size_t n) {
    size_t ok = tfs_utf8_valid_up_to(p, n);
    if (n - ok > 3) return 0;
    for (size_t i = 0; i < ok; i++)
        if ((p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' && p[i] != '\r' && p[i] != '\f') || p[i] == 0x7f) return 0;
    return 1;
}

/* One byte of the GGUF magic wrong, the other three right, and a GGUF
 * version (1-3) after it: a GGUF file whose magic was damaged. */
static int near_gguf(const uint8_t *p, size_t n) {
    if (n < 8) return 0;
    int same = 0;
    for (int i = 0; i < 4; i++) same += p[i] == (uint8_t) "GGUF"[i];
    uint32_t v = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
    return same == 3 && v >= 1 && v <= 3;
}

const char *looks_like(const uint8_t *p, size_t n, uint64_t size, int size_known) {
    if (size_known ? size == 0 : n == 0) return "an empty file";
    if (n >= 1 && n < 4 && memcmp(p, "GGUF", n) == 0)
        return "the first bytes of a GGUF file, cut short (give --format gguf)";
    if ((n >= 4 && strncasecmp((const char *)p, "GGUF", 4) == 0) || near_gguf(p, n))
        return "a GGUF file with a damaged magic (give --format gguf)";
    if (starts(p, n, "FUGG", 4)) return "a GGUF file with its magic reversed (give --format gguf)";
    if (starts(p, n, "lmgg", 4) || starts(p, n, "fmgg", 4) || starts(p, n, "tjgg", 4) || starts(p, n, "algg", 4))
        return "a GGML / GGJT file (llama.cpp's format before GGUF)";
    if (starts(p, n, "PK\003\004", 4) || starts(p, n, "PK\005\006", 4))
        return contains(p, n, "data.pkl") || contains(p, n, "/data/")
                   ? "a zip archive holding a pickle: a PyTorch checkpoint (torch.save)"
                   : "a zip archive";
    if (n >= 2 && p[0] == 0x80 && p[1] >= 2 && p[1] <= 5) return "a Python pickle (a legacy PyTorch checkpoint?)";
    if (starts(p, n, "\x89PNG\r\n\x1a\n", 8)) return "a PNG image";
    if (starts(p, n, "\xff\xd8\xff", 3)) return "a JPEG image";
    if (starts(p, n, "GIF87a", 6) || starts(p, n, "GIF89a", 6)) return "a GIF image";
    if (starts(p, n, "%PDF-", 5)) return "a PDF document";
    if (starts(p, n, "\x89HDF\r\n\x1a\n", 8)) return "an HDF5 file (Keras .h5 weights?)";
    if (starts(p, n, "\x93NUMPY", 6)) return "a NumPy .npy array";
    if (starts(p, n, "\x1f\x8b", 2)) return "gzip-compressed data";
    if (starts(p, n,
               "\xfd"
               "7zXZ\0",
               6))
        return "xz-compressed data";
    if (starts(p, n, "\x28\xb5\x2f\xfd", 4)) return "zstd-compressed data";
    if (starts(p, n, "BZh", 3)) return "bzip2-compressed data";
    if (starts(p, n, "7z\xbc\xaf\x27\x1c", 6)) return "a 7-Zip archive";
    if (n >= 262 && memcmp(p + 257, "ustar", 5) == 0) return "a tar archive";
    if (starts(p, n,
               "\x7f"
               "ELF",
               4))
        return "an ELF executable or library";
    if (starts(p, n, "version https://git-lfs.github.com/spec/", 40))
        return "a Git LFS pointer (the real file was not downloaded: git lfs pull)";
    size_t b = skip_blank(p, n);
    const uint8_t *q = p + b;
    size_t m = n - b;
    if (starts_ci(q, m, "<!doctype html") || starts_ci(q, m, "<html") || starts_ci(q, m, "<head") ||
        (starts_ci(q, m, "<!doctype") && contains(q, m, "html")))
        return "an HTML page (an error or login page saved instead of the file?)";
    if (starts_ci(q, m, "<?xml")) return "an XML document";
    if (m >= 1 && (q[0] == '{' || q[0] == '[') && is_text(p, n))
        return contains(q, m, "\"weight_map\"") ? "a JSON file: a sharded model's index (model.safetensors.index.json)"
                                                : "a JSON file (a config or index, not the weights)";
    if (is_text(p, n)) return "text";
    return "binary data of no known kind";
}

const char *error_hint(const uint8_t *p, size_t n, uint64_t size, int size_known) {
    if (sniff_format(p, n, size, size_known, NULL) != TFS_FORMAT_UNKNOWN) return NULL;
    const char *k = looks_like(p, n, size, size_known);
    /* no kind; or advice to give --format, which was in effect */
    if (strcmp(k, "binary data of no known kind") == 0 || strstr(k, "--format")) return NULL;
    return k;
}

/* The library's little-endian reader is internal; eight bytes by shifts. */
static uint64_t le64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

tfs_format sniff_format(const uint8_t *p, size_t n, uint64_t size, int size_known, const char *path) {
    if (starts(p, n, "GGUF", 4)) return TFS_FORMAT_GGUF;
    tfs_format ext = model_ext(path);
    if (ext != TFS_FORMAT_UNKNOWN) return ext;
    /* plausibly safetensors: 8-byte N, then '{', and the header within the file */
    if (n >= 9 && p[8] == '{') {
        uint64_t hn = le64(p);
        if (hn >= 1 && (!size_known || (size >= 8 && hn <= size - 8))) return TFS_FORMAT_SAFETENSORS;
    }
    return TFS_FORMAT_UNKNOWN;
}

tfs_format sniff_decide(tfs_format forced, const uint8_t *p, size_t n, uint64_t size, int size_known, const char *path,
                        const char **not_model, const char **hint) {
    tfs_format f = forced;
    if (f == TFS_FORMAT_UNKNOWN) {
        f = sniff_format(p, n, size, size_known, path);
        if (f == TFS_FORMAT_UNKNOWN) {
            *not_model = looks_like(p, n, size, size_known);
            return f;
        }
    }
    /* parsed because of its name or --format: what the content alone looks
     * like, kept only for an error verdict (parse_one) */
    *hint = error_hint(p, n, size, size_known);
    /* a GGUF passed through a text-mode transfer (a download saved as text,
     * an editor): every byte sequence that was not UTF-8 became EF BF BD,
     * U+FFFD, so lengths and counts read wrong; shown with an error verdict */
    if (!*hint && starts(p, n, "GGUF", 4))
        for (size_t i = 4; i + 3 <= n; i++)
            if (p[i] == 0xef && p[i + 1] == 0xbf && p[i + 2] == 0xbd) {
                *hint = "a GGUF damaged by a text-mode transfer: it holds EF BF BD (U+FFFD, the UTF-8 replacement "
                        "character) where bytes that were not UTF-8 stood; fetch the file again in binary mode";
                break;
            }
    /* --format against the content (issue 18): a GGUF magic read as
     * safetensors, or plausible safetensors read as GGUF */
    tfs_format content = sniff_format(p, n, size, size_known, NULL);
    if (forced == TFS_FORMAT_SAFETENSORS && content == TFS_FORMAT_GGUF)
        *hint = "a GGUF file (it starts with the magic GGUF): drop --format, or give --format gguf";
    else if (forced == TFS_FORMAT_GGUF && content == TFS_FORMAT_SAFETENSORS)
        *hint = "a safetensors file (8-byte header size, then '{'): drop --format, or give --format safetensors";
    return f;
}
