/*
 * rules.h: queries on the rules table (include/tfs/rules.def) beyond
 * tfs.h's id, category, message, ref and profile: which format a rule
 * belongs to, and what tfs_error.index counts when a file violates it.
 * Included by tfs/tfs.h; may also be included on its own.
 */
#ifndef TFS_RULES_H
#define TFS_RULES_H

#include "tfs/export.h"
#include "tfs/tfs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The format a rule belongs to (FORMAT column of rules.def: ST, GG):
 * TFS_FORMAT_SAFETENSORS for the ST rules, TFS_FORMAT_GGUF for the GG rules,
 * TFS_FORMAT_UNKNOWN for TFS_RULE_NONE and any value not in the table.
 * A TFS_INVALID result names the parser that ran through this (the format
 * detected or forced), whatever the file's extension. */
TFS_API tfs_format tfs_rule_format(tfs_rule rule);

/* What tfs_error.index counts for a rule (INDEX column of rules.def).  The
 * index is 0-based, in file order, and is the position of the record in the
 * parsed view's arrays (tfs_header.kv / tfs_header.tensors), so a record the
 * parser had already kept is found at that position. */
typedef enum tfs_index_kind {
    /* index is always -1: the violation is about the file as a whole
     * (framing, fixed header, data section, trailing bytes). */
    TFS_INDEX_NONE = 0,
    /* a GGUF KV pair (GG1xx, GG501, GG502, GG504-GG507). */
    TFS_INDEX_KV = 1,
    /* a tensor: a GGUF tensor info, or a safetensors tensor entry (after
     * the crate's last-wins rule for repeated names: a repeated name counts
     * at the position of its first occurrence). */
    TFS_INDEX_TENSOR = 2,
    /* a safetensors __metadata__ entry (a repeated key counts at the
     * position of its first occurrence). */
    TFS_INDEX_METADATA = 3,
    /* GG101, GG102 (a string's length): the KV pair when the string is a
     * key, a string value or an array element (KV pairs come first in the
     * file), the tensor when it is a tensor name. */
    TFS_INDEX_KV_OR_TENSOR = 4,
    /* ST110, ST111, ST113-ST117 (JSON grammar): the tensor entry or the __metadata__
     * entry whose value was being read, -1 when the fault lies outside both
     * (between entries, in a key of the top-level object, in the
     * __metadata__ object's own braces). */
    TFS_INDEX_TENSOR_OR_METADATA = 5,
} tfs_index_kind;

/* What tfs_error.index counts for `rule`; TFS_INDEX_NONE for TFS_RULE_NONE
 * and any value not in the table.  For TFS_INDEX_KV and TFS_INDEX_TENSOR and
 * TFS_INDEX_METADATA the index is >= 0 whenever the rule is reported; the two
 * mixed kinds name the possibilities and the index may be -1 for
 * TFS_INDEX_TENSOR_OR_METADATA. */
TFS_API tfs_index_kind tfs_rule_index_kind(tfs_rule rule);

/* Short lower-case name of an index kind, for messages and JSON: "none",
 * "kv", "tensor", "metadata", "kv-or-tensor", "tensor-or-metadata";
 * "?" for a value outside the enum.  Static storage. */
TFS_API const char *tfs_index_kind_name(tfs_index_kind kind);

#ifdef __cplusplus
}
#endif
#endif /* TFS_RULES_H */
