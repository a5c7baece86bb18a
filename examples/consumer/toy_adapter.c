/* toy_adapter.c: the toy reader in the conformance adapter protocol
 * (share/tfs/conformance/README.md): exit 0 accepted, 1 rejected (first
 * stdout line: the category), 77 unsupported (not GGUF: skipped). */
#include <stdio.h>
#include <string.h>

#include "toy_reader.h"

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    size_t n = strlen(argv[1]);
    if (n < 5 || strcmp(argv[1] + n - 5, ".gguf") != 0) return 77;
    toy_model m;
    const char *why = NULL;
    int rc = toy_read(argv[1], &m, &why);
    if (rc == 1) printf("{\"category\":\"%s\"}\n", why);
    return rc; /* 2: cannot read: a crash for the runner */
}
