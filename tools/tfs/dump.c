/* dump.c: `tfs dump`: what a file holds, read through the library's
 * accessors, for people, or with --json as the expected-content form
 * (dump_json.c). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tfs/lint.h"

static void dump_usage(FILE *f) {
    fputs(dump_usage_line, f);
    fprintf(f, "\n"
               "Shows what FILE holds: header fields, every KV pair or __metadata__ entry\n"
               "with its type and value (long arrays: their length and first elements),\n"
               "every tensor in numbered columns (type, shape, elements, bytes, offset in\n"
               "the data section, file offset), then the totals: tensors, parameters and\n"
               "bytes, per type.  On an invalid file, what was read before the violation,\n"
               "then the violation.  FILE may be - (standard input).\n"
               "\n"
               "  --json        the complete typed content as one JSON object, with the\n"
               "                file name, data_offset, and per tensor n_elements, n_bytes\n"
               "                and file_offset (bytes)\n"
               "  --content-only  with --json: only the conformance suite's expected-content\n"
               "                form (no file name, sizes, offsets)\n"
               "  --keys GLOB   only the KV pairs / __metadata__ entries whose key matches\n"
               "                GLOB (shell pattern, e.g. 'tokenizer.*')\n"
               "  --tensors GLOB  only the tensors whose name matches GLOB ('blk.0.*')\n"
               "  --no-tensors  metadata only\n"
               "  --sort KEY    tensors by file (order, default), offset, size (largest\n"
               "                first) or name\n"
               "  --tree        tensors grouped by layer (blk.N., model.layers.N.: the\n"
               "                layers, tensors, parameters and bytes of each group)\n"
               "  --full        human output: show whole strings and every array element\n"
               "                (else strings are cut after 60 bytes, arrays after 8 elements)\n"
               "  --strict, --header-only, --format: as for `tfs check`\n"
               "\n"
               "A stream (FILE -, a pipe) cannot be read again: it keeps the first 65536\n"
               "bytes of each array and strings of up to 256 bytes; what it leaves out is\n"
               "counted in \"left_out\" (and \"complete\" is false) and on stderr.\n"
               "A file that is not a model file is not parsed (as `tfs check`: not_a_model).\n"
               "An index (*.safetensors.index.json) or the first part of a GGUF split\n"
               "shows the whole model first: each file with its verdict, tensors,\n"
               "parameters and bytes, then the totals per type (with --json one object\n"
               "with \"set\": true); a first part then shows its own content.\n"
               "\n"
               "exit status: 0 valid, 1 invalid or not a model file, 2 usage or I/O error,\n"
               "or out of memory\n");
}

/* Where the violation lies in the listing: the record the failing fields
 * belong to, else the record err->index names (a KV / __metadata__ entry or
 * a tensor); -1 when none. */
static void fail_mark(const tfs_header *h, const tfs_error *e, int64_t *kv, int64_t *tensor) {
    *kv = *tensor = -1;
    if (h && h->n_fail_fields) {
        const tfs_field *f = &h->fail_fields[0];
        switch (f->kind) {
        case TFS_FIELD_KV:
        case TFS_FIELD_KEY_LEN:
        case TFS_FIELD_KEY:
        case TFS_FIELD_VALUE_TYPE:
        case TFS_FIELD_ELEM_TYPE:
        case TFS_FIELD_COUNT:
        case TFS_FIELD_STR_LEN:
        case TFS_FIELD_STR:
        case TFS_FIELD_VALUE:
        case TFS_FIELD_ARRAY_DATA:
        case TFS_FIELD_META_KEY:
        case TFS_FIELD_META_VALUE: *kv = f->record; return;
        case TFS_FIELD_TENSOR_INFO:
        case TFS_FIELD_NAME_LEN:
        case TFS_FIELD_NAME:
        case TFS_FIELD_N_DIMS:
        case TFS_FIELD_DIM:
        case TFS_FIELD_TYPE:
        case TFS_FIELD_OFFSET:
        case TFS_FIELD_ENTRY:
        case TFS_FIELD_DTYPE:
        case TFS_FIELD_SHAPE:
        case TFS_FIELD_DATA_OFFSETS:
        case TFS_FIELD_BEGIN:
        case TFS_FIELD_END:
        case TFS_FIELD_MEMBER_KEY:
        case TFS_FIELD_DATA: *tensor = f->record; return;
        default: break;
        }
    }
    if (e->index < 0) return;
    const char *id = tfs_rule_id(e->rule);
    switch (tfs_rule_index_kind(e->rule)) {
    case TFS_INDEX_KV:
    case TFS_INDEX_METADATA: *kv = e->index; break;
    case TFS_INDEX_TENSOR: *tensor = e->index; break;
    case TFS_INDEX_KV_OR_TENSOR: /* GG1xx: KV pairs; GG2xx..: tensor infos */
        if (id[2] == '1')
            *kv = e->index;
        else
            *tensor = e->index;
        break;
    case TFS_INDEX_TENSOR_OR_METADATA: /* ST4xx: __metadata__ */
        if (id[2] == '4')
            *kv = e->index;
        else
            *tensor = e->index;
        break;
    case TFS_INDEX_NONE: break;
    }
}

void dump_put_violation(FILE *out, const tfs_error *e) {
    fprintf(out, "%s (%s) at byte %" PRIu64, tfs_rule_id(e->rule), tfs_rule_category(e->rule), e->offset);
    if (e->index >= 0) fprintf(out, ", %s %" PRId64, index_kind(e->rule), e->index);
    fprintf(out, ": %s", e->message ? e->message : tfs_rule_message(e->rule));
}

#define MARK "      ^^^ " /* the line under a failing record */

static void print_content_human(FILE *out, const char *file, const tfs_header *h, tfs_status st, const tfs_error *e,
                                const char *not_model, const char *hint, int full, const dump_view *view) {
    size_t max_str = full ? SIZE_MAX : DUMP_STR_SHORT;
    uint64_t max_elems = full ? UINT64_MAX : DUMP_ELEMS_SHORT;
    int64_t mkv = -1, mt = -1;
    if (st == TFS_INVALID) fail_mark(h, e, &mkv, &mt);
    fput_safe(out, file, strlen(file));
    fputs(":\n", out);
    if (not_model) {
        fprintf(out,
                "  not a model file: looks like %s\n"
                "  (neither GGUF nor safetensors, and no .gguf / .safetensors name; --format parses it anyway)\n",
                not_model);
        return;
    }
    if (h) {
        if (h->format == TFS_FORMAT_GGUF) {
            fprintf(out, "  format      gguf v%" PRIu32, h->version);
            if (h->complete) fprintf(out, ", alignment %" PRIu32, h->alignment);
            fputc('\n', out);
        } else {
            if (h->header_size || h->complete)
                fprintf(out, "  format      safetensors, header %" PRIu64 " bytes of JSON\n", h->header_size);
            else /* the 8-byte size field was missing or rejected: no JSON read */
                fputs("  format      safetensors, header not read (its size field was rejected)\n", out);
        }
        if (h->complete) {
            uint64_t extent = data_extent(h);
            fprintf(out, "  data        %" PRIu64 " bytes at file offset %" PRIu64, extent, h->data_offset);
            if (extent != h->data_size) fprintf(out, " (%" PRIu64 " with padding)", h->data_size);
            if (h->file_size)
                fprintf(out, "; file %" PRIu64 " bytes\n", h->file_size);
            else
                fputs("; file size unknown (stream not read to its end)\n", out);
        }
        if (h->format == TFS_FORMAT_SAFETENSORS && !h->has_metadata && h->complete)
            fputs("  metadata    no __metadata__\n", out);
        else {
            size_t shown = 0;
            for (size_t i = 0; i < h->n_kv; i++)
                shown += dump_glob_match(view->keys_glob, h->kv[i].key.ptr, h->kv[i].key.len);
            fprintf(out, "  metadata    %zu entr%s%s", h->n_kv, h->n_kv == 1 ? "y" : "ies",
                    h->complete ? "" : " read before the violation");
            if (shown < h->n_kv) fprintf(out, " (%zu shown: --keys)", shown);
            fputc('\n', out);
        }
        for (size_t i = 0; i < h->n_kv; i++) {
            const tfs_kv *kv = &h->kv[i];
            if (!dump_glob_match(view->keys_glob, kv->key.ptr, kv->key.len)) continue;
            const char *tn = tfs_gg_vtype_name(kv->type);
            fputs("    ", out);
            fput_safe(out, kv->key.ptr, kv->key.len);
            if (kv->key_size > kv->key.len) fprintf(out, "... (key of %" PRIu64 " bytes)", kv->key_size);
            fprintf(out, " (%s) = ", tn ? tn : "?");
            kv_print(out, h, kv, max_str, max_elems);
            fputc('\n', out);
            if ((int64_t)i == mkv) {
                fputs(MARK, out);
                dump_put_violation(out, e);
                fputc('\n', out);
            }
        }
        if (mkv >= 0 && (uint64_t)mkv >= h->n_kv) {
            fprintf(out, "    [entry %" PRId64 ", not read whole]\n" MARK, mkv);
            dump_put_violation(out, e);
            fputc('\n', out);
        }
        fprintf(out, "  tensors     %zu%s", h->n_tensors, h->complete ? "" : " read before the violation");
        size_t n = 0;
        size_t *idx = dump_tensor_order(h, view, &n);
        if (!idx) {
            fputs(" (out of memory)\n", out);
        } else {
            if (view->no_tensors)
                fputs(" (not listed: --no-tensors)", out);
            else if (n < h->n_tensors)
                fprintf(out, " (%zu shown: --tensors)", n);
            fputc('\n', out);
            if (view->no_tensors) {
            } else if (view->tree) {
                if (dump_tree(out, h, idx, n) != 0) fputs("    (out of memory)\n", out);
            } else
                dump_table(out, h, idx, n, mt, e);
            if (!view->no_tensors && n) dump_totals(out, h, idx, n);
            free(idx);
        }
        if (mt >= 0 && (uint64_t)mt >= h->n_tensors) {
            fprintf(out, "    [tensor %" PRId64 ", not read whole]\n" MARK, mt);
            dump_put_violation(out, e);
            fputc('\n', out);
        }
    }
    if (st == TFS_INVALID) {
        fputs("  INVALID     ", out);
        dump_put_violation(out, e);
        fputc('\n', out);
        for (size_t i = 0; h && i < h->n_fail_fields; i++) {
            const tfs_field *f = &h->fail_fields[i];
            fprintf(out, "%s%-12s bytes %" PRIu64 "..%" PRIu64 " (%" PRIu64 ")\n",
                    i ? "              " : "  read        ", tfs_field_kind_name(f->kind), f->offset,
                    f->offset + f->width < f->offset ? UINT64_MAX : f->offset + f->width, f->width);
        }
        if (hint) fprintf(out, "  looks like  %s\n", hint);
    } else if (st != TFS_OK) {
        fprintf(out, "  error       %s\n",
                st == TFS_EIO && e->sys_errno == EISDIR
                    ? "Is a directory (tfs dump reads one file; tfs check -r walks a folder)"
                : st == TFS_EIO    ? io_error_text(e->sys_errno)
                : st == TFS_ENOMEM ? "out of memory"
                                   : tfs_status_name(st));
    }
}

int cmd_dump(int argc, char **argv, int first) {
    int json = 0, full = 0, content_only = 0;
    dump_view view = {0};
    check_opts o;
    /* the options of check, plus --full (removed before check's parser sees it) */
    int n = first;
    for (int i = first; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) { /* the rest are FILEs, for check's parser as they are */
            while (i < argc) argv[n++] = argv[i++];
            break;
        }
        if (strcmp(argv[i], "--full") == 0)
            full = 1;
        else if (strcmp(argv[i], "--content-only") == 0)
            content_only = 1;
        else if (strcmp(argv[i], "--no-tensors") == 0)
            view.no_tensors = 1;
        else if (strcmp(argv[i], "--tree") == 0)
            view.tree = 1;
        else if (strcmp(argv[i], "--tensors") == 0 || strcmp(argv[i], "--keys") == 0 ||
                 strcmp(argv[i], "--sort") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "tfs dump: %s needs a value (tfs dump --help)\n", argv[i]);
                return 2;
            }
            const char *val = argv[++i];
            if (strcmp(argv[i - 1], "--tensors") == 0)
                view.tensors_glob = val;
            else if (strcmp(argv[i - 1], "--keys") == 0)
                view.keys_glob = val;
            else if (dump_sort_parse(val, &view.sort) != 0) {
                fprintf(stderr, "tfs dump: --sort %s: one of file, offset, size, name\n", val);
                return 2;
            }
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            dump_usage(stdout);
            return stdout_done("dump", 0);
        } else
            argv[n++] = argv[i];
    }
    argc = n;
    int rc = check_parse_args(argc, argv, first, &o);
    if (rc != 0) return 2;
    json = o.json;
    if (content_only && !json) {
        fprintf(stderr, "tfs dump: --content-only goes with --json\n");
        return 2;
    }
    if (json && (view.keys_glob || view.tensors_glob || view.no_tensors || view.tree || view.sort)) {
        fprintf(stderr, "tfs dump: --keys, --tensors, --no-tensors, --tree and --sort shape the text form; "
                        "--json prints everything (select with jq)\n");
        return 2;
    }
    if (argc - o.first_file != 1) {
        fprintf(stderr, "tfs dump: exactly one FILE, please\n");
        return 2;
    }
    const char *file = argv[o.first_file];
    /* an index or a first GGUF split: the whole model first (dump_set.c);
     * an index holds no tensors itself, a first part then shows its own */
    tfs_set_kind sk = o.format == TFS_FORMAT_UNKNOWN && !content_only ? tfs_set_kind_of(file) : TFS_SET_NONE;
    int set_rc = -1;
    if (sk == TFS_SET_INDEX || sk == TFS_SET_SPLIT) {
        set_rc = dump_set(stdout, file, &o, json);
        if (set_rc >= 0 && (sk == TFS_SET_INDEX || json || set_rc == 2)) return stdout_done("dump", set_rc);
        if (set_rc >= 0) fputc('\n', stdout);
    }
    tfs_header *h = NULL;
    tfs_error e;
    const char *not_model, *hint;
    tfs_status st = parse_one(file, &o, o.flags | TFS_PARTIAL, &h, &e, &not_model, &hint);
    int bad = 0;
    uint64_t left_out = 0;
    if (json)
        bad = content_only ? print_content_json_hint(stdout, h, st, &e, not_model, hint, &left_out)
                           : print_dump_json(stdout, file, h, st, &e, not_model, hint, &left_out);
    else {
        print_content_human(stdout, file, h, st, &e, not_model, hint, full, &view);
        for (size_t i = 0; h && i < h->n_kv; i++) left_out += !kv_available(h, &h->kv[i]);
    }
    tfs_header_free(h);
    if (stdout_done("dump", 0) != 0) return 2;
    if (bad || (left_out && !input_streamed())) { /* a file is read again: that failed */
        fprintf(stderr, "tfs dump: a value could not be read again from %s\n", file);
        return 2;
    }
    if (left_out)
        fprintf(stderr,
                "tfs dump: %" PRIu64 " value%s not shown: a stream cannot be read again, and only the first "
                "%u bytes of each array and strings of up to 256 bytes are kept%s\n",
                left_out, left_out == 1 ? "" : "s", (unsigned)TFS_ARRAY_KEEP,
                json ? " (\"left_out\" in the JSON)" : "");
    int file_rc = st == TFS_OK ? 0 : st == TFS_INVALID ? 1 : 2;
    return set_rc > file_rc ? set_rc : file_rc;
}
