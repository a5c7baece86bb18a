/* pc_main.c: a one-file program built with nothing but
 *   cc pc_main.c $(pkg-config --cflags --libs tfs)
 * (tests/ship/test_install.sh): prints the library version and the rule
 * table's size, and checks the headers' version against the library's. */
#include <stdio.h>
#include <string.h>

#include <tfs/tfs.h>

int main(void) {
    printf("tfs %s, %zu rules\n", tfs_version(), tfs_rule_count());
    return strcmp(tfs_version(), TFS_VERSION_STRING) == 0 && tfs_rule_count() > 0 ? 0 : 1;
}
