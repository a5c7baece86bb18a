/* conform_rate_adapter.c: the trivial external adapter of bench/conform_rate.sh:
 * reads the first 8 bytes of FILE and exits 0 (accept) when they start with
 * "GGUF" or hold a plausible safetensors header size, else 1.  It decides
 * nothing real: it measures the runner (fork, exec, pipes, classification). */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    FILE *f = fopen(argv[1], "rb");
    if (!f) return 1;
    unsigned char b[8];
    size_t n = fread(b, 1, sizeof b, f);
    fclose(f);
    if (n >= 4 && memcmp(b, "GGUF", 4) == 0) return 0;
    return n == 8 && b[7] == 0 && b[6] == 0 && b[5] == 0 && b[4] == 0 ? 0 : 1;
}
