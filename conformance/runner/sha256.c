/* sha256.c: SHA-256 of fixture files with OpenSSL's libcrypto (manifest.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "manifest.h"

int cf_sha256_file(const char *path, char hex[65], uint64_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    unsigned char buf[1 << 16], md[EVP_MAX_MD_SIZE];
    unsigned mdlen = 0;
    int rc = -1;
    *size = 0;
    if (ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1) {
        size_t got;
        int ok = 1;
        while (ok && (got = fread(buf, 1, sizeof buf, f)) > 0) {
            ok = EVP_DigestUpdate(ctx, buf, got) == 1;
            *size += got;
        }
        if (ok && !ferror(f) && EVP_DigestFinal_ex(ctx, md, &mdlen) == 1 && mdlen == 32) {
            for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", md[i]);
            rc = 0;
        } else if (!errno) {
            errno = EIO;
        }
    }
    EVP_MD_CTX_free(ctx);
    fclose(f);
    return rc;
}

int cf_verify_line(const cf_line *l, char *err, size_t n) {
    char hex[65];
    uint64_t size;
    errno = 0;
    if (cf_sha256_file(l->path, hex, &size) != 0) {
        snprintf(err, n, "%s: fixture %s: cannot read %s: %s", l->manifest, l->id, l->path,
                 strerror(errno ? errno : EIO));
        return -1;
    }
    if (size != l->size) {
        snprintf(err, n, "%s: fixture %s: %s has %llu bytes, the manifest says %llu: refused", l->manifest, l->id,
                 l->path, (unsigned long long)size, (unsigned long long)l->size);
        return -1;
    }
    if (strcmp(hex, l->sha256) != 0) {
        snprintf(err, n, "%s: fixture %s: SHA-256 of %s is %s, the manifest says %s: refused", l->manifest, l->id,
                 l->path, hex, l->sha256);
        return -1;
    }
    return 0;
}
