/* mutate_once IN OUT SEED [FAMILIES]: one structure-aware mutation of a
 * safetensors or GGUF file through tfs::mutator (<tfs/mutate.h>); prints the
 * input's format and the mutations applied. */
#include <stdio.h>
#include <stdlib.h>
#include <tfs/mutate.h>
#include <tfs/tfs.h>

int main(int argc, char **argv) {
    static uint8_t buf[1 << 20];
    if (argc < 4) return 2;
    FILE *f = fopen(argv[1], "rb");
    if (!f) return 2;
    size_t n = fread(buf, 1, sizeof buf / 2, f);
    fclose(f);
    char chain[256];
    tfs_mutate_options o = TFS_MUTATE_OPTIONS_INIT;
    o.families = argc > 4 ? argv[4] : NULL;
    o.chain = chain;
    o.chain_size = sizeof chain;
    int format = tfs_mutate_format(buf, n);
    size_t out = tfs_mutate(buf, n, sizeof buf, strtoull(argv[3], NULL, 10), &o);
    f = fopen(argv[2], "wb");
    if (!f || fwrite(buf, 1, out, f) != out || fclose(f) != 0) return 2;
    printf("%s %zu -> %zu bytes: %s\n", tfs_format_name((tfs_format)format), n, out, chain);
    return 0;
}
