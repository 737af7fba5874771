/*
** What the file-reader fuzz targets share: one input served as a whole
** file from memory through a chv_fs, the set of clean error codes, and a
** loop that reads every row of a reader in small batches, prints each row
** as JSON Lines and checks every batch against the Arrow invariants.
*/
#ifndef CHV_FUZZ_MEMFILE_H
#define CHV_FUZZ_MEMFILE_H

#include "chive/fs.h"
#include "chive/types.h"

#include <stdlib.h>

#define CHECK(x)                                                               \
  do {                                                                         \
    if (!(x)) abort();                                                         \
  } while (0)

/* The file the next reader opens through fuzz_mem_fs (any path). */
void fuzz_mem_set(const uint8_t *data, size_t size);
extern const struct chv_fs fuzz_mem_fs;

/* The codes a malformed input may give. */
bool fuzz_clean(int rc);

/* A reader's next(): rows into the batch, 0 at the end. */
typedef int (*fuzz_next_fn)(void *reader, struct chv_batch *b, int64_t *n,
                            struct chv_error *err);

/* Read up to about max_rows rows of the reader in batches of cap rows of
** the schema; aborts on an unclean error, a batch of the wrong shape, a
** vector Arrow would reject, or an error that is not sticky. */
void fuzz_drain(fuzz_next_fn next, void *reader, const struct chv_type *schema,
                int64_t cap, int64_t max_rows);

#endif
