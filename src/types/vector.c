/*
** Column vectors: typed buffers laid out as the Arrow C Data Interface lays
** them out (see "Physical layout" in types.h), grown by amortized doubling so
** that appending a value costs a bounds check and a store.
**
** Invariants kept here:
**   - fixed-width data holds `capacity` slots; BOOLEAN (capacity+7)/8 bytes,
**     zeroed when allocated;
**   - variable-width and ARRAY/MAP vectors always have an offsets buffer of
**     capacity + 1 entries with offsets[0] == 0 (even at capacity 0), and
**     string-like vectors always have a (possibly empty) byte heap;
**   - validity, once allocated, covers (capacity+7)/8 bytes and every bit at
**     or beyond `length` is set unless set_null() cleared it;
**   - a STRUCT vector's fields have at least its capacity.
** A failed call returns CHV_ENOMEM (or CHV_ERANGE) with length, null_count and
** the values unchanged; only capacities may have grown.
**
** INTERFACE
**   chv_vector_open() chv_vector_close() chv_vector_reset()
**   chv_vector_reserve() chv_vector_reserve_bytes()
**   chv_vector_set_null() chv_vector_set_valid()
**   chv_vector_append_value() chv_vector_append_bytes()
**   chv_vector_append_null() chv_vector_append_nested()
**   chv_vector_append_string() chv_utf8_prefix()
*/
#include "types/types.h"

#define VEC_MIN_ROWS 8
#define VEC_MIN_BYTES 64
#define VEC_MAX_ROWS ((int64_t)INT32_MAX - 1)

static int64_t bitmap_bytes(int64_t rows) { return (rows + 7) / 8; }

static bool has_offsets(enum chv_type_id id) {
  return chv_type_is_string_like(id) || id == CHV_TYPE_ARRAY ||
         id == CHV_TYPE_MAP;
}

static int oom(struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory");
}

/* Grow the vector's own buffers (not children) from v->capacity to cap. */
static int grow_buffers(struct chv_vector *v, int64_t cap) {
  enum chv_type_id id = v->type->id;
  int64_t old = v->capacity;
  size_t w = chv_type_fixed_width(id);
  if (v->validity) {
    int64_t ob = bitmap_bytes(old), nb = bitmap_bytes(cap);
    uint8_t *p = chv_realloc(v->validity, (size_t)nb);
    if (p == NULL) return CHV_ENOMEM;
    if (nb > ob) memset(p + ob, 0xff, (size_t)(nb - ob));
    v->validity = p;
  }
  if (id == CHV_TYPE_BOOLEAN) {
    int64_t ob = v->data ? bitmap_bytes(old) : 0, nb = bitmap_bytes(cap);
    uint8_t *p = chv_realloc(v->data, (size_t)nb);
    if (p == NULL) return CHV_ENOMEM;
    if (nb > ob) memset(p + ob, 0, (size_t)(nb - ob));
    v->data = p;
  } else if (w > 0) {
    void *p = chv_realloc(v->data, (size_t)cap * w);
    if (p == NULL) return CHV_ENOMEM;
    v->data = p;
  }
  if (has_offsets(id)) {
    int32_t *p = chv_realloc(v->offsets, ((size_t)cap + 1) * sizeof *p);
    if (p == NULL) return CHV_ENOMEM;
    if (v->offsets == NULL) p[0] = 0;
    v->offsets = p;
  }
  v->capacity = cap;
  return CHV_OK;
}

int chv_vector_open(const struct chv_type *type, int64_t capacity,
                    struct chv_vector **out, struct chv_error *err) {
  if (capacity < 0 || capacity > VEC_MAX_ROWS)
    return chv_error_set(err, CHV_EINVAL, "vector capacity %lld out of range",
                         (long long)capacity);
  struct chv_vector *v = chv_calloc(1, sizeof *v);
  if (v == NULL) return oom(err);
  v->type = type;
  if (grow_buffers(v, capacity) != CHV_OK) goto out_close;
  if (chv_type_is_string_like(type->id)) {
    int64_t cap = capacity * 16;
    if (cap < VEC_MIN_BYTES) cap = VEC_MIN_BYTES;
    if (cap > (1 << 20)) cap = 1 << 20;
    v->bytes = chv_malloc((size_t)cap);
    if (v->bytes == NULL) goto out_close;
    v->bytes_cap = cap;
  }
  if (type->nchildren > 0) {
    v->children = chv_calloc((size_t)type->nchildren, sizeof *v->children);
    if (v->children == NULL) goto out_close;
    for (int i = 0; i < type->nchildren; i++) {
      v->nchildren = i + 1;
      int rc = chv_vector_open(type->children[i], capacity, &v->children[i],
                               err);
      if (rc != CHV_OK) {
        chv_vector_close(v);
        return rc;
      }
    }
  }
  *out = v;
  return CHV_OK;
out_close:
  chv_vector_close(v);
  return oom(err);
}

void chv_vector_close(struct chv_vector *v) {
  if (v == NULL) return;
  for (int i = 0; i < v->nchildren; i++) chv_vector_close(v->children[i]);
  chv_free(v->children);
  chv_free(v->validity);
  chv_free(v->data);
  chv_free(v->offsets);
  chv_free(v->bytes);
  chv_free(v);
}

void chv_vector_reset(struct chv_vector *v) {
  v->length = 0;
  v->null_count = 0;
  v->bytes_len = 0;
  if (v->offsets) v->offsets[0] = 0;
  if (v->validity)
    memset(v->validity, 0xff, (size_t)bitmap_bytes(v->capacity));
  for (int i = 0; i < v->nchildren; i++) chv_vector_reset(v->children[i]);
}

int chv_vector_reserve(struct chv_vector *v, int64_t rows,
                       struct chv_error *err) {
  if (rows <= v->capacity) return CHV_OK;
  if (rows > VEC_MAX_ROWS)
    return chv_error_set(err, CHV_ERANGE, "vector of %lld rows is too long",
                         (long long)rows);
  if (v->type->id == CHV_TYPE_STRUCT)
    for (int i = 0; i < v->nchildren; i++)
      CHV_RETURN_IF_ERR(chv_vector_reserve(v->children[i], rows, err));
  int64_t cap = v->capacity * 2;
  if (cap < rows) cap = rows;
  if (cap < VEC_MIN_ROWS) cap = VEC_MIN_ROWS;
  if (cap > VEC_MAX_ROWS) cap = VEC_MAX_ROWS;
  if (grow_buffers(v, cap) != CHV_OK) return oom(err);
  return CHV_OK;
}

int chv_vector_reserve_bytes(struct chv_vector *v, int64_t extra,
                             struct chv_error *err) {
  if (extra < 0 || v->bytes_len + extra > INT32_MAX)
    return chv_error_set(err, CHV_ERANGE,
                         "string data of one vector exceeds 2 GiB");
  int64_t need = v->bytes_len + extra;
  if (need <= v->bytes_cap) return CHV_OK;
  int64_t cap = v->bytes_cap * 2;
  if (cap < need) cap = need;
  if (cap < VEC_MIN_BYTES) cap = VEC_MIN_BYTES;
  if (cap > INT32_MAX) cap = INT32_MAX;
  char *p = chv_realloc(v->bytes, (size_t)cap);
  if (p == NULL) return oom(err);
  v->bytes = p;
  v->bytes_cap = cap;
  return CHV_OK;
}

/* Allocate the validity bitmap, all rows valid. */
static int ensure_validity(struct chv_vector *v) {
  if (v->validity) return CHV_OK;
  int64_t nb = bitmap_bytes(v->capacity);
  v->validity = chv_malloc((size_t)(nb > 0 ? nb : 1));
  if (v->validity == NULL) return CHV_ENOMEM;
  memset(v->validity, 0xff, (size_t)(nb > 0 ? nb : 1));
  return CHV_OK;
}

int chv_vector_set_null(struct chv_vector *v, int64_t i,
                        struct chv_error *err) {
  CHV_ASSERT(i >= 0 && i < v->capacity);
  if (ensure_validity(v) != CHV_OK) return oom(err);
  if (chv_bit_get(v->validity, i)) {
    chv_bit_set(v->validity, i, false);
    v->null_count++;
  }
  return CHV_OK;
}

void chv_vector_set_valid(struct chv_vector *v, int64_t i) {
  CHV_ASSERT(i >= 0 && i < v->capacity);
  if (v->validity && !chv_bit_get(v->validity, i)) {
    chv_bit_set(v->validity, i, true);
    v->null_count--;
  }
}

int chv_vector_append_value(struct chv_vector *v, const void *p,
                            struct chv_error *err) {
  if (CHV_UNLIKELY(v->length >= v->capacity))
    CHV_RETURN_IF_ERR(chv_vector_reserve(v, v->length + 1, err));
  char *d = v->data;
  int64_t i = v->length;
  /* Constant-size copies compile to single moves. */
  switch (v->type->id) {
  case CHV_TYPE_BOOLEAN: chv_bit_set(v->data, i, *(const bool *)p); break;
  case CHV_TYPE_TINYINT: memcpy(d + i, p, 1); break;
  case CHV_TYPE_SMALLINT: memcpy(d + i * 2, p, 2); break;
  case CHV_TYPE_INT:
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DATE: memcpy(d + i * 4, p, 4); break;
  case CHV_TYPE_BIGINT:
  case CHV_TYPE_DOUBLE: memcpy(d + i * 8, p, 8); break;
  case CHV_TYPE_DECIMAL:
  case CHV_TYPE_TIMESTAMP: memcpy(d + i * 16, p, 16); break;
  default:
    return chv_error_set(err, CHV_EINVAL, "%s is not a fixed-width type",
                         chv_type_id_name(v->type->id));
  }
  v->length++;
  return CHV_OK;
}

int chv_vector_append_bytes(struct chv_vector *v, const void *p, size_t n,
                            struct chv_error *err) {
  CHV_ASSERT(chv_type_is_string_like(v->type->id));
  if (CHV_UNLIKELY(v->length >= v->capacity))
    CHV_RETURN_IF_ERR(chv_vector_reserve(v, v->length + 1, err));
  if (CHV_UNLIKELY((int64_t)n > v->bytes_cap - v->bytes_len)) {
    if (n > (size_t)INT32_MAX)
      return chv_error_set(err, CHV_ERANGE,
                           "string data of one vector exceeds 2 GiB");
    CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(v, (int64_t)n, err));
  }
  if (n) memcpy(v->bytes + v->bytes_len, p, n);
  v->bytes_len += (int64_t)n;
  v->offsets[v->length + 1] = (int32_t)v->bytes_len;
  v->length++;
  return CHV_OK;
}

size_t chv_utf8_prefix(const char *s, size_t n, int64_t chars,
                       int64_t *count) {
  int64_t k = 0;
  size_t i = 0;
  for (; i < n; i++) {
    if (((unsigned char)s[i] & 0xc0) == 0x80) continue; /* continuation */
    if (k == chars) break;
    k++;
  }
  if (count) *count = k;
  return i;
}

int chv_vector_append_string(struct chv_vector *v, const char *p, size_t n,
                             struct chv_error *err) {
  enum chv_type_id id = v->type->id;
  if (id != CHV_TYPE_CHAR && id != CHV_TYPE_VARCHAR)
    return chv_vector_append_bytes(v, p, n, err);
  int64_t count;
  n = chv_utf8_prefix(p, n, v->type->length, &count);
  if (id == CHV_TYPE_VARCHAR || count >= v->type->length)
    return chv_vector_append_bytes(v, p, n, err);
  size_t pad = (size_t)(v->type->length - count);
  if (CHV_UNLIKELY(v->length >= v->capacity))
    CHV_RETURN_IF_ERR(chv_vector_reserve(v, v->length + 1, err));
  CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(v, (int64_t)(n + pad), err));
  if (n) memcpy(v->bytes + v->bytes_len, p, n);
  memset(v->bytes + v->bytes_len + n, ' ', pad);
  v->bytes_len += (int64_t)(n + pad);
  v->offsets[v->length + 1] = (int32_t)v->bytes_len;
  v->length++;
  return CHV_OK;
}

/* Make room for one more NULL row in v and (for STRUCT) its fields, so that
** append_null_prepared() cannot fail. */
static int prepare_null(struct chv_vector *v, struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_vector_reserve(v, v->length + 1, err));
  if (ensure_validity(v) != CHV_OK) return oom(err);
  if (v->type->id == CHV_TYPE_STRUCT)
    for (int i = 0; i < v->nchildren; i++)
      CHV_RETURN_IF_ERR(prepare_null(v->children[i], err));
  return CHV_OK;
}

static void append_null_prepared(struct chv_vector *v) {
  int64_t i = v->length;
  enum chv_type_id id = v->type->id;
  chv_bit_set(v->validity, i, false);
  v->null_count++;
  if (id == CHV_TYPE_BOOLEAN) {
    chv_bit_set(v->data, i, false);
  } else if (has_offsets(id)) {
    v->offsets[i + 1] = v->offsets[i];
  } else if (id == CHV_TYPE_STRUCT) {
    for (int c = 0; c < v->nchildren; c++)
      append_null_prepared(v->children[c]);
  } else {
    size_t w = chv_type_fixed_width(id);
    memset((char *)v->data + (size_t)i * w, 0, w);
  }
  v->length++;
}

int chv_vector_append_null(struct chv_vector *v, struct chv_error *err) {
  CHV_RETURN_IF_ERR(prepare_null(v, err));
  append_null_prepared(v);
  return CHV_OK;
}

int chv_vector_append_nested(struct chv_vector *v, struct chv_error *err) {
  enum chv_type_id id = v->type->id;
  if (id == CHV_TYPE_STRUCT) {
    for (int c = 0; c < v->nchildren; c++)
      if (v->children[c]->length != v->length + 1)
        return chv_error_set(err, CHV_EINTERNAL,
                             "struct field %d has %lld rows, expected %lld", c,
                             (long long)v->children[c]->length,
                             (long long)v->length + 1);
    if (CHV_UNLIKELY(v->length >= v->capacity))
      CHV_RETURN_IF_ERR(chv_vector_reserve(v, v->length + 1, err));
    v->length++;
    return CHV_OK;
  }
  if (id != CHV_TYPE_ARRAY && id != CHV_TYPE_MAP)
    return chv_error_set(err, CHV_EINVAL, "%s is not a nested type",
                         chv_type_id_name(id));
  int64_t n = v->children[0]->length;
  if (id == CHV_TYPE_MAP && v->children[1]->length != n)
    return chv_error_set(err, CHV_EINTERNAL,
                         "map has %lld keys but %lld values", (long long)n,
                         (long long)v->children[1]->length);
  if (n > INT32_MAX)
    return chv_error_set(err, CHV_ERANGE, "too many elements in one vector");
  if (CHV_UNLIKELY(v->length >= v->capacity))
    CHV_RETURN_IF_ERR(chv_vector_reserve(v, v->length + 1, err));
  v->offsets[v->length + 1] = (int32_t)n;
  v->length++;
  return CHV_OK;
}

size_t chv_vector_bytes(const struct chv_vector *v) {
  size_t n = (size_t)v->length, w;
  switch (v->type->id) {
  case CHV_TYPE_BOOLEAN: w = 0; n = n / 8 + 1; break;
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
  case CHV_TYPE_BINARY:
  case CHV_TYPE_ARRAY:
  case CHV_TYPE_MAP: w = sizeof(int32_t); break;
  case CHV_TYPE_STRUCT: w = 0; break;
  default: w = chv_type_fixed_width(v->type->id);
  }
  size_t b = n * w + (size_t)v->length / 8 + (size_t)v->bytes_len;
  for (int c = 0; c < v->nchildren; c++) b += chv_vector_bytes(v->children[c]);
  return b;
}

size_t chv_batch_bytes(const struct chv_batch *b) {
  size_t m = 0;
  for (int c = 0; c < b->ncols; c++) m += chv_vector_bytes(b->cols[c]);
  return m;
}
