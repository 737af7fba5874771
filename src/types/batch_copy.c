/*
** Deep copies of vector rows and batches: what a consumer that must own its
** data (an Arrow stream over a scan whose batches are borrowed views) needs.
**
** INTERFACE
**   chv_vector_append_from()   one row of a vector onto another of its type
**   chv_vector_append_rows()   chosen rows of a vector onto another, in bulk
**   chv_batch_copy()           a batch's rows into a fresh batch
*/
#include "types/types.h"

int chv_vector_append_from(struct chv_vector *dst, const struct chv_vector *src,
                           int64_t row, struct chv_error *err) {
  enum chv_type_id id = dst->type->id;
  if (src->type->id != id || row < 0 || row >= src->length)
    return chv_error_set(err, CHV_EINVAL,
                         "cannot copy row %lld of a %s vector of %lld rows "
                         "into a %s vector",
                         (long long)row, chv_type_id_name(src->type->id),
                         (long long)src->length, chv_type_id_name(id));
  if (chv_vector_is_null(src, row)) return chv_vector_append_null(dst, err);
  switch (id) {
  case CHV_TYPE_BOOLEAN: {
    bool b = chv_bit_get(src->data, row);
    return chv_vector_append_value(dst, &b, err);
  }
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
  case CHV_TYPE_BINARY: {
    /* The bytes as they are: they already obey the length rule. */
    int32_t lo = src->offsets[row], hi = src->offsets[row + 1];
    return chv_vector_append_bytes(dst, src->bytes + lo, (size_t)(hi - lo),
                                   err);
  }
  case CHV_TYPE_ARRAY:
  case CHV_TYPE_MAP:
    for (int32_t e = src->offsets[row]; e < src->offsets[row + 1]; e++)
      for (int c = 0; c < src->nchildren; c++)
        CHV_RETURN_IF_ERR(
            chv_vector_append_from(dst->children[c], src->children[c], e, err));
    return chv_vector_append_nested(dst, err);
  case CHV_TYPE_STRUCT:
    if (dst->nchildren != src->nchildren)
      return chv_error_set(err, CHV_EINVAL,
                           "cannot copy a struct of %d fields into one of %d",
                           src->nchildren, dst->nchildren);
    for (int c = 0; c < src->nchildren; c++)
      CHV_RETURN_IF_ERR(
          chv_vector_append_from(dst->children[c], src->children[c], row, err));
    return chv_vector_append_nested(dst, err);
  default: {
    size_t w = chv_type_fixed_width(id);
    return chv_vector_append_value(
        dst, (const char *)src->data + (size_t)row * w, err);
  }
  }
}

/* Fixed-width values of rows (or start ..) of s into slots at..at+n of d,
** w bytes each: constant-size copies for the common widths. */
static void gather_fixed(char *d, const char *s, size_t w,
                         const uint32_t *rows, int64_t start, int64_t n) {
  if (rows == NULL) {
    memcpy(d, s + (size_t)start * w, (size_t)n * w);
    return;
  }
#define GATHER_(W)                                                             \
  for (int64_t i = 0; i < n; i++)                                              \
    memcpy(d + (size_t)i * (W), s + (size_t)rows[i] * (W), (W));               \
  break
  switch (w) {
  case 1: GATHER_(1);
  case 2: GATHER_(2);
  case 4: GATHER_(4);
  case 8: GATHER_(8);
  case 16: GATHER_(16);
  default: GATHER_(w);
  }
#undef GATHER_
}

int chv_vector_append_rows(struct chv_vector *dst, const struct chv_vector *src,
                           const uint32_t *rows, int64_t start, int64_t n,
                           struct chv_error *err) {
  enum chv_type_id id = dst->type->id;
  if (n <= 0) return CHV_OK;
  bool bad = src->type->id != id || (rows == NULL && (start < 0 ||
                                     start + n > src->length));
  for (int64_t i = 0; rows && !bad && i < n; i++)
    bad = rows[i] >= src->length;
  if (bad)
    return chv_error_set(err, CHV_EINVAL,
                         "cannot copy %lld rows of a %s vector of %lld rows "
                         "into a %s vector",
                         (long long)n, chv_type_id_name(src->type->id),
                         (long long)src->length, chv_type_id_name(id));
  if (!chv_type_is_primitive(id)) {
    for (int64_t i = 0; i < n; i++)
      CHV_RETURN_IF_ERR(chv_vector_append_from(
          dst, src, rows ? (int64_t)rows[i] : start + i, err));
    return CHV_OK;
  }
  int64_t at = dst->length;
  CHV_RETURN_IF_ERR(chv_vector_reserve(dst, at + n, err));
  bool nulls = src->validity && src->null_count > 0;
  if (nulls) { /* the bitmap first, so that marking NULLs cannot fail */
    CHV_RETURN_IF_ERR(chv_vector_set_null(dst, at, err));
    chv_vector_set_valid(dst, at);
  }
#define ROW_(i) (rows ? (int64_t)rows[i] : start + (i))
  if (chv_type_is_string_like(id)) {
    int64_t total = 0;
    for (int64_t i = 0; i < n; i++) {
      int64_t r = ROW_(i);
      if (!nulls || !chv_vector_is_null(src, r))
        total += src->offsets[r + 1] - src->offsets[r];
    }
    CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(dst, total, err));
    int64_t len = dst->bytes_len;
    for (int64_t i = 0; i < n; i++) {
      int64_t r = ROW_(i);
      int32_t lo = src->offsets[r], m = src->offsets[r + 1] - lo;
      if (nulls && chv_vector_is_null(src, r)) m = 0;
      if (m > 0) memcpy(dst->bytes + len, src->bytes + lo, (size_t)m);
      len += m;
      dst->offsets[at + i + 1] = (int32_t)len;
    }
    dst->bytes_len = len;
  } else if (id == CHV_TYPE_BOOLEAN) {
    for (int64_t i = 0; i < n; i++)
      chv_bit_set(dst->data, at + i,
                  chv_bit_get(src->data, ROW_(i)) &&
                      !(nulls && chv_vector_is_null(src, ROW_(i))));
  } else {
    size_t w = chv_type_fixed_width(id);
    gather_fixed((char *)dst->data + (size_t)at * w, src->data, w, rows, start,
                 n);
    for (int64_t i = 0; nulls && i < n; i++)
      if (chv_vector_is_null(src, ROW_(i)))
        memset((char *)dst->data + (size_t)(at + i) * w, 0, w);
  }
  for (int64_t i = 0; nulls && i < n; i++)
    if (chv_vector_is_null(src, ROW_(i))) chv_vector_set_null(dst, at + i, NULL);
#undef ROW_
  dst->length = at + n;
  return CHV_OK;
}

/* Rows [0, n) of a flat vector (fixed-width other than BOOLEAN, or
** string-like) into the empty d, in bulk: the common columns of a scan
** then cost a memcpy instead of a call per value. */
static int copy_flat(struct chv_vector *d, const struct chv_vector *s,
                     int64_t n, struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_vector_reserve(d, n, err));
  enum chv_type_id id = s->type->id;
  if (chv_type_is_string_like(id)) {
    int32_t base = s->offsets[0];
    int64_t nb = s->offsets[n] - base;
    CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(d, nb, err));
    if (nb > 0) memcpy(d->bytes, s->bytes + base, (size_t)nb);
    for (int64_t i = 0; i <= n; i++)
      d->offsets[i] = s->offsets[i] - base;
    d->bytes_len = nb;
  } else {
    memcpy(d->data, s->data, (size_t)n * chv_type_fixed_width(id));
  }
  if (s->validity && s->null_count > 0)
    for (int64_t i = 0; i < n; i++)
      if (chv_vector_is_null(s, i))
        CHV_RETURN_IF_ERR(chv_vector_set_null(d, i, err));
  d->length = n;
  return CHV_OK;
}

int chv_batch_copy(const struct chv_batch *src, struct chv_batch **out,
                   struct chv_error *err) {
  struct chv_batch *b = NULL;
  int64_t n = src->nrows;
  CHV_RETURN_IF_ERR(chv_batch_open(src->schema, n > 0 ? n : 1, &b, err));
  int rc = CHV_OK;
  if (b->ncols != src->ncols)
    rc = chv_error_set(err, CHV_EINVAL, "batch has %d columns, its schema %d",
                       src->ncols, b->ncols);
  for (int i = 0; rc == CHV_OK && i < src->ncols; i++) {
    const struct chv_vector *s = src->cols[i];
    struct chv_vector *d = b->cols[i];
    if (s->length < n) {
      rc = chv_error_set(err, CHV_EINVAL,
                         "column %s has %lld rows, the batch "
                         "%lld",
                         src->schema->names[i], (long long)s->length,
                         (long long)n);
      break;
    }
    enum chv_type_id id = s->type->id;
    if (n == 0) continue;
    if (chv_type_is_primitive(id) && id != CHV_TYPE_BOOLEAN) {
      rc = copy_flat(d, s, n, err);
      continue;
    }
    for (int64_t r = 0; rc == CHV_OK && r < n; r++)
      rc = chv_vector_append_from(d, s, r, err);
  }
  if (rc != CHV_OK) {
    chv_batch_close(b);
    return rc;
  }
  b->nrows = n;
  *out = b;
  return CHV_OK;
}
