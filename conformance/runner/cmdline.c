/* cmdline.c: an adapter command split into words without a shell.
 *
 * Rules (docs/conform.md): words are separated by spaces or tabs; inside
 * '...' every character is literal; inside "..." a backslash escapes only
 * " \ $ and `; outside quotes a backslash makes the next character literal.
 * Nothing else is special: no variables, globs, pipes or redirections.
 * {file} is replaced by the fixture path wherever it appears in a word. */
#include <stdlib.h>
#include <string.h>

#include "conform.h"

void cf_argv_free(char **argv) {
    if (!argv) return;
    for (char **p = argv; *p; p++) free(*p);
    free(argv);
}

char **cf_split_command(const char *cmd, char *err, size_t n) {
    size_t len = strlen(cmd), cap = 8, nw = 0;
    char **words = calloc(cap, sizeof *words);
    char *w = malloc(len + 1);
    if (!words || !w) goto oom;
    const char *p = cmd;
    for (;;) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        size_t k = 0;
        while (*p && *p != ' ' && *p != '\t') {
            if (*p == '\'') {
                const char *end = strchr(p + 1, '\'');
                if (!end) {
                    snprintf(err, n, "adapter command: unterminated ' quote");
                    goto fail;
                }
                memcpy(w + k, p + 1, (size_t)(end - p - 1));
                k += (size_t)(end - p - 1);
                p = end + 1;
            } else if (*p == '"') {
                p++;
                while (*p && *p != '"') {
                    if (*p == '\\' && p[1] && strchr("\"\\$`", p[1])) p++;
                    w[k++] = *p++;
                }
                if (*p != '"') {
                    snprintf(err, n, "adapter command: unterminated \" quote");
                    goto fail;
                }
                p++;
            } else if (*p == '\\') {
                if (!p[1]) {
                    snprintf(err, n, "adapter command: trailing backslash");
                    goto fail;
                }
                w[k++] = p[1];
                p += 2;
            } else {
                w[k++] = *p++;
            }
        }
        if (nw + 2 > cap) {
            cap *= 2;
            char **nwords = realloc(words, cap * sizeof *words);
            if (!nwords) goto oom;
            words = nwords;
        }
        if (!(words[nw] = strndup(w, k))) goto oom;
        words[++nw] = NULL;
    }
    free(w);
    if (nw == 0) {
        snprintf(err, n, "adapter command is empty");
        cf_argv_free(words);
        return NULL;
    }
    return words;
oom:
    snprintf(err, n, "out of memory");
fail:
    free(w);
    cf_argv_free(words);
    return NULL;
}

/* s with every {file} replaced by rep (malloc'ed); *hit set when one was. */
static char *replace(const char *s, const char *rep, int *hit) {
    size_t count = 0, rl = strlen(rep);
    for (const char *q = strstr(s, "{file}"); q; q = strstr(q + 6, "{file}")) count++;
    char *out = malloc(strlen(s) + count * rl + 1);
    if (!out) return NULL;
    char *o = out;
    while (*s) {
        if (strncmp(s, "{file}", 6) == 0) {
            memcpy(o, rep, rl);
            o += rl;
            s += 6;
        } else {
            *o++ = *s++;
        }
    }
    *o = '\0';
    if (count) *hit = 1;
    return out;
}

/* path in single quotes for sh: ' becomes '\'' */
static char *sh_quote(const char *path) {
    size_t n = 3;
    for (const char *p = path; *p; p++) n += *p == '\'' ? 4 : 1;
    char *q = malloc(n), *o = q;
    if (!q) return NULL;
    *o++ = '\'';
    for (const char *p = path; *p; p++) {
        if (*p == '\'') {
            memcpy(o, "'\\''", 4);
            o += 4;
        } else
            *o++ = *p;
    }
    *o++ = '\'';
    *o = '\0';
    return q;
}

char **cf_expand_command(char *const *words, const char *cmd, int shell, const char *path) {
    int hit = 0;
    if (shell) {
        char **argv = calloc(4, sizeof *argv);
        char *q = sh_quote(path);
        char *body = q ? replace(cmd, q, &hit) : NULL;
        if (body && !hit) {
            char *full = malloc(strlen(body) + strlen(q) + 2);
            if (full) sprintf(full, "%s %s", body, q);
            free(body);
            body = full;
        }
        free(q);
        if (!argv || !body) {
            free(argv);
            free(body);
            return NULL;
        }
        argv[0] = strdup("/bin/sh");
        argv[1] = strdup("-c");
        argv[2] = body;
        if (!argv[0] || !argv[1]) {
            cf_argv_free(argv);
            return NULL;
        }
        return argv;
    }
    size_t nw = 0;
    while (words[nw]) nw++;
    char **argv = calloc(nw + 2, sizeof *argv);
    if (!argv) return NULL;
    for (size_t i = 0; i < nw; i++)
        if (!(argv[i] = replace(words[i], path, &hit))) {
            cf_argv_free(argv);
            return NULL;
        }
    if (!hit && !(argv[nw] = strdup(path))) {
        cf_argv_free(argv);
        return NULL;
    }
    return argv;
}
