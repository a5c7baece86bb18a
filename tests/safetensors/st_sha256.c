/* st_sha256.c: SHA-256 of a buffer as lowercase hex, through OpenSSL's EVP
 * interface (used to check fixture hashes against MANIFEST.tsv). */
#include "st_test_util.h"

#include <stdio.h>

#include <openssl/evp.h>

void stt_sha256_hex(const uint8_t *data, size_t len, char out[65]) {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    out[0] = '\0';
    if (EVP_Digest(data, len, md, &n, EVP_sha256(), NULL) != 1 || n != 32) return; /* empty: mismatch */
    for (unsigned i = 0; i < 32; i++) snprintf(out + 2 * i, 3, "%02x", md[i]);
}
