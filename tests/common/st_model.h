/* st_model.h: a safetensors model for the C writer (tfs/write.h) from a
 * small table: each tensor's name, dtype and shape, and __metadata__ as a
 * NULL-ended list of key, value, key, value, ...  Shared by the lint tests
 * and lint_mkfiles (a generator, not a cmocka test: no assertions here). */
#ifndef TFS_TEST_ST_MODEL_H
#define TFS_TEST_ST_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "tfs/write.h"

/* One tensor: its shape's first nd of 17 dimensions (a rank past the
 * writer's usual 16 is allowed on purpose). */
typedef struct tfs_test_st_tensor {
    const char *name;
    uint32_t dtype; /* TFS_ST_* */
    uint32_t nd;
    uint64_t shape[17];
} tfs_test_st_tensor;

/* The model of the n tensors ts and the pairs of kv (NULL: none): e gets n
 * entries, meta one per pair (the caller's arrays, large enough; they and
 * the strings must outlive the model).  __metadata__ is an object when kv
 * has a pair, else absent; every other field of the model is 0 for the
 * caller to set (pad_to, trailing_ws, ...). */
tfs_st_model tfs_test_st_model(const tfs_test_st_tensor *ts, size_t n, const char *const *kv, tfs_st_wentry *e,
                               tfs_st_wmeta *meta);

#endif
