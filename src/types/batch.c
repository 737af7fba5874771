/*
** Column batches: a row count and one vector per field of a STRUCT schema.
**
** INTERFACE
**   chv_batch_open() chv_batch_close() chv_batch_reset()
*/
#include "types/types.h"

int chv_batch_open(const struct chv_type *schema, int64_t capacity,
                   struct chv_batch **out, struct chv_error *err) {
  if (schema == NULL || schema->id != CHV_TYPE_STRUCT)
    return chv_error_set(err, CHV_EINVAL, "a batch schema must be a struct");
  struct chv_batch *b = chv_calloc(1, sizeof *b);
  if (b == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  b->schema = schema;
  int rc = CHV_OK;
  if (schema->nchildren > 0) {
    b->cols = chv_calloc((size_t)schema->nchildren, sizeof *b->cols);
    if (b->cols == NULL) {
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      goto out_close;
    }
    for (int i = 0; i < schema->nchildren; i++) {
      b->ncols = i + 1;
      rc = chv_vector_open(schema->children[i], capacity, &b->cols[i], err);
      if (rc != CHV_OK) {
        chv_error_wrap(err, "column %s", schema->names[i]);
        goto out_close;
      }
    }
  }
  *out = b;
  return CHV_OK;
out_close:
  chv_batch_close(b);
  return rc;
}

void chv_batch_close(struct chv_batch *b) {
  if (b == NULL) return;
  for (int i = 0; i < b->ncols; i++) chv_vector_close(b->cols[i]);
  chv_free(b->cols);
  chv_free(b);
}

void chv_batch_reset(struct chv_batch *b) {
  b->nrows = 0;
  for (int i = 0; i < b->ncols; i++) chv_vector_reset(b->cols[i]);
}
