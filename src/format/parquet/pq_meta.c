/*
** The Parquet footer, page headers and page index read and written through
** the Thrift compact codec (see pq_int.h for the model and its contracts).
**
** Decoding.  One function per Thrift struct reads its fields in whatever
** order they come, keeps the ones the model has, skips the others (also a
** known field whose wire type is not the expected one, as Thrift's own
** generated code does) and then checks that its required fields were seen.
** Lists are allocated from the footer's arena only after the codec has
** checked that their element count fits the bytes left, so a hostile count
** cannot make a large allocation.  Strings and binaries of the footer are
** copied into the arena (the caller's buffer may go); those of a page
** header are views of the page bytes.
**
** Validation of a decoded footer is done in one place, validate(), after
** the schema tree is built (pq_schema.c), so that every message can name
** the row group and column at fault.
**
** Writing mirrors decoding field by field, in field id order, with only
** the optional fields that are set.
**
** INTERFACE: chv_pq_footer_parse(), chv_pq_footer_read(),
** chv_pq_file_meta_decode(), chv_pq_file_meta_close(),
** chv_pq_file_meta_write(), chv_pq_footer_write(),
** chv_pq_page_header_parse(), chv_pq_page_header_write(),
** chv_pq_offset_index_parse()/_write(), chv_pq_column_index_parse()/_write(),
** chv_pq_*_name() (pq_int.h).
*/
#include "format/parquet/pq_int.h"

#include "codec/thrift.h"

#include <inttypes.h>
#include <stdio.h>

/* ---- enum names -------------------------------------------------------- */

#define NAME_FN(fn, MAP)                                                       \
  const char *fn(int32_t v) {                                                  \
    switch (v) { MAP(NAME_CASE_) }                                             \
    return "?";                                                                \
  }
#define NAME_CASE_(name, v)                                                    \
  case v:                                                                      \
    return #name;

NAME_FN(chv_pq_type_name, CHV_PQ_TYPE_MAP)
NAME_FN(chv_pq_converted_name, CHV_PQ_CONVERTED_MAP)
NAME_FN(chv_pq_repetition_name, CHV_PQ_REPETITION_MAP)
NAME_FN(chv_pq_encoding_name, CHV_PQ_ENCODING_MAP)
NAME_FN(chv_pq_codec_name, CHV_PQ_CODEC_MAP)
NAME_FN(chv_pq_page_type_name, CHV_PQ_PAGE_MAP)
NAME_FN(chv_pq_logical_name, CHV_PQ_LOGICAL_MAP)

/* ---- decoding helpers -------------------------------------------------- */

struct rd {
  struct chv_thrift_reader t;
  chv_arena *arena; /* copies go here; NULL: binaries are views */
  struct chv_error *err;
  int16_t cur_id; /* id of the field being read */
  /* The last known field passed over for its wire type, for messages. */
  int16_t odd_id;
  uint8_t odd_type, odd_want;
};

static void rd_init(struct rd *r, const void *p, size_t len, chv_arena *arena,
                    struct chv_error *err) {
  chv_thrift_reader_init(&r->t, p, len, err);
  r->arena = arena;
  r->err = err;
  r->cur_id = r->odd_id = 0;
  r->odd_type = r->odd_want = 0;
}

/* What a field callback returns, beside a status, when it passed over the
** value: an unknown field, or a known one whose wire type is not the
** expected one (which Thrift's generated code skips as well). */
#define SKIPPED 1

/* Reads the value of field `id` (wire type `ty`) into obj, or skips it. */
typedef int (*field_fn)(struct rd *r, int16_t id, uint8_t ty, void *obj);

static int oom(struct rd *r) {
  return chv_error_set(r->err, CHV_ENOMEM, "out of memory");
}

static int bad(struct rd *r, const char *fmt, ...) CHV_PRINTF(2, 3);
static int bad(struct rd *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  chv_error_setv(r->err, r->t.corrupt_code, fmt, ap);
  va_end(ap);
  return r->t.corrupt_code;
}

static int skip_other(struct rd *r, uint8_t ty) {
  int rc = chv_thrift_skip(&r->t, ty);
  return rc != CHV_OK ? rc : SKIPPED;
}

/* Reads one struct, handing every field to fn; *seen gets a bit for each
** field id (1..31) that fn read. */
static int rd_struct(struct rd *r, field_fn fn, void *obj, uint32_t *seen) {
  uint32_t s = 0;
  CHV_RETURN_IF_ERR(chv_thrift_read_struct_begin(&r->t));
  for (;;) {
    int16_t id;
    uint8_t ty;
    CHV_RETURN_IF_ERR(chv_thrift_read_field(&r->t, &id, &ty));
    if (ty == CHV_THRIFT_STOP) break;
    r->cur_id = id;
    int rc = fn(r, id, ty, obj);
    if (rc < 0) return rc;
    if (rc == CHV_OK && id > 0 && id < 32) s |= 1u << id;
  }
  CHV_RETURN_IF_ERR(chv_thrift_read_struct_end(&r->t));
  if (seen) *seen = s;
  return CHV_OK;
}

/* Checks the required fields of a struct: required[id] names field id. */
static int require(struct rd *r, const char *st, uint32_t seen,
                   const char *const *required, int n) {
  for (int id = 1; id < n; id++) {
    if (!required[id] || (seen & (1u << id))) continue;
    if (r->odd_id == id)
      return bad(r,
                 "%s lacks its required field %s: it came as %s, not %s "
                 "(struct ending at offset %zu)",
                 st, required[id], chv_thrift_type_name(r->odd_type),
                 chv_thrift_type_name(r->odd_want), r->t.pos);
    return bad(r,
               "%s lacks its required field %s (struct ending at offset "
               "%zu)",
               st, required[id], r->t.pos);
  }
  return CHV_OK;
}

/* Passes over the field being read, known but not of the expected wire
** type `want`. */
static int skip_odd(struct rd *r, uint8_t ty, uint8_t want) {
  r->odd_id = r->cur_id;
  r->odd_type = ty;
  r->odd_want = want;
  return skip_other(r, ty);
}

static void *arena_array(struct rd *r, uint32_t n, size_t size) {
  if (n == 0) return NULL;
  if ((size_t)n > SIZE_MAX / size) return NULL;
  void *p = chv_arena_alloc(r->arena, (size_t)n * size);
  if (p) memset(p, 0, (size_t)n * size);
  return p;
}

/* Each f_* reads a field value of the expected wire type into *out and
** sets *has (may be NULL), or skips a value of another type (SKIPPED). */
static int f_i32(struct rd *r, uint8_t ty, int32_t *out, bool *has) {
  if (ty != CHV_THRIFT_I32) return skip_odd(r, ty, CHV_THRIFT_I32);
  CHV_RETURN_IF_ERR(chv_thrift_read_i32(&r->t, out));
  if (has) *has = true;
  return CHV_OK;
}

static int f_i64(struct rd *r, uint8_t ty, int64_t *out, bool *has) {
  if (ty != CHV_THRIFT_I64) return skip_odd(r, ty, CHV_THRIFT_I64);
  CHV_RETURN_IF_ERR(chv_thrift_read_i64(&r->t, out));
  if (has) *has = true;
  return CHV_OK;
}

static int f_i16(struct rd *r, uint8_t ty, int16_t *out, bool *has) {
  if (ty != CHV_THRIFT_I16) return skip_odd(r, ty, CHV_THRIFT_I16);
  CHV_RETURN_IF_ERR(chv_thrift_read_i16(&r->t, out));
  if (has) *has = true;
  return CHV_OK;
}

static int f_i8(struct rd *r, uint8_t ty, int8_t *out) {
  if (ty != CHV_THRIFT_I8) return skip_odd(r, ty, CHV_THRIFT_I8);
  return chv_thrift_read_i8(&r->t, out);
}

static int f_bool(struct rd *r, uint8_t ty, bool *out, bool *has) {
  if (ty != CHV_THRIFT_BOOL) return skip_odd(r, ty, CHV_THRIFT_BOOL);
  CHV_RETURN_IF_ERR(chv_thrift_read_bool(&r->t, out));
  if (has) *has = true;
  return CHV_OK;
}

/* A struct-typed field read by rd (with `has` set), or skipped. */
static int f_struct(struct rd *r, uint8_t ty, int (*rd)(struct rd *, void *),
                    void *obj, bool *has) {
  if (ty != CHV_THRIFT_STRUCT) return skip_odd(r, ty, CHV_THRIFT_STRUCT);
  CHV_RETURN_IF_ERR(rd(r, obj));
  if (has) *has = true;
  return CHV_OK;
}

/* Binary value (no type check): copied into the arena, NUL-terminated, or a
** view when there is no arena. */
static int v_bytes(struct rd *r, struct chv_pq_bytes *out) {
  const uint8_t *p;
  uint32_t n;
  CHV_RETURN_IF_ERR(chv_thrift_read_binary(&r->t, &p, &n));
  if (r->arena) {
    char *c = chv_arena_strndup(r->arena, (const char *)p, n);
    if (c == NULL) return oom(r);
    p = (const uint8_t *)c;
  }
  out->data = p;
  out->len = n;
  return CHV_OK;
}

static int f_bytes(struct rd *r, uint8_t ty, struct chv_pq_bytes *out,
                   bool *has) {
  if (ty != CHV_THRIFT_BINARY) return skip_odd(r, ty, CHV_THRIFT_BINARY);
  CHV_RETURN_IF_ERR(v_bytes(r, out));
  if (has) *has = true;
  return CHV_OK;
}

/* A string in the arena (the footer only). */
static int f_string(struct rd *r, uint8_t ty, const char **out, uint32_t *len) {
  if (ty != CHV_THRIFT_BINARY) return skip_odd(r, ty, CHV_THRIFT_BINARY);
  struct chv_pq_bytes b;
  CHV_RETURN_IF_ERR(v_bytes(r, &b));
  *out = (const char *)b.data;
  if (len) *len = b.len;
  return CHV_OK;
}

/* A name: a string without NUL bytes. */
static int v_name(struct rd *r, const char **out) {
  struct chv_pq_bytes b;
  size_t at = r->t.pos;
  CHV_RETURN_IF_ERR(v_bytes(r, &b));
  if (memchr(b.data, 0, b.len) != NULL)
    return bad(r, "a name holds a NUL byte at offset %zu", at);
  *out = (const char *)b.data;
  return CHV_OK;
}

/* Starts a list field of elements of type `elem`: *n elements follow on
** CHV_OK.  A field of another type, or a list of other elements, is
** skipped whole (SKIPPED). */
static int f_list(struct rd *r, uint8_t ty, uint8_t elem, uint32_t *n) {
  if (ty != CHV_THRIFT_LIST && ty != CHV_THRIFT_SET)
    return skip_odd(r, ty, CHV_THRIFT_LIST);
  uint8_t e;
  CHV_RETURN_IF_ERR(chv_thrift_read_list_begin(&r->t, &e, n));
  if (*n > 0 && e != elem) {
    for (uint32_t i = 0; i < *n; i++)
      CHV_RETURN_IF_ERR(chv_thrift_skip(&r->t, e));
    return SKIPPED;
  }
  return CHV_OK;
}

/* A list of structs: the element pointer at `out` (a `T **` passed as
** void *) gets an arena array of n elements of `size` bytes, each read by
** rd. */
static int f_struct_list(struct rd *r, uint8_t ty, size_t size,
                         int (*rd)(struct rd *, void *), void *out,
                         int32_t *count) {
  uint32_t n;
  int rc = f_list(r, ty, CHV_THRIFT_STRUCT, &n);
  if (rc != CHV_OK) return rc;
  char *a = arena_array(r, n, size);
  if (n && a == NULL) return oom(r);
  for (uint32_t i = 0; i < n; i++)
    CHV_RETURN_IF_ERR(rd(r, a + (size_t)i * size));
  /* out is the address of the caller's element pointer. */
  memcpy(out, &a, sizeof a);
  *count = (int32_t)n;
  return CHV_OK;
}

static int f_i32_list(struct rd *r, uint8_t ty, int32_t **out, int32_t *count) {
  uint32_t n;
  int rc = f_list(r, ty, CHV_THRIFT_I32, &n);
  if (rc != CHV_OK) return rc;
  int32_t *a = arena_array(r, n, sizeof *a);
  if (n && a == NULL) return oom(r);
  for (uint32_t i = 0; i < n; i++)
    CHV_RETURN_IF_ERR(chv_thrift_read_i32(&r->t, &a[i]));
  *out = a;
  *count = (int32_t)n;
  return CHV_OK;
}

/* list<i64>; *count is set even for an empty list (to tell it from an
** absent one). */
static int f_i64_list(struct rd *r, uint8_t ty, int64_t **out, int32_t *count) {
  uint32_t n;
  int rc = f_list(r, ty, CHV_THRIFT_I64, &n);
  if (rc != CHV_OK) return rc;
  int64_t *a = arena_array(r, n, sizeof *a);
  if (n && a == NULL) return oom(r);
  for (uint32_t i = 0; i < n; i++)
    CHV_RETURN_IF_ERR(chv_thrift_read_i64(&r->t, &a[i]));
  *out = a;
  *count = (int32_t)n;
  return CHV_OK;
}

static int f_name_list(struct rd *r, uint8_t ty, const char ***out,
                       int32_t *count) {
  uint32_t n;
  int rc = f_list(r, ty, CHV_THRIFT_BINARY, &n);
  if (rc != CHV_OK) return rc;
  const char **a = arena_array(r, n, sizeof *a);
  if (n && a == NULL) return oom(r);
  for (uint32_t i = 0; i < n; i++)
    CHV_RETURN_IF_ERR(v_name(r, &a[i]));
  *out = a;
  *count = (int32_t)n;
  return CHV_OK;
}

/* ---- struct decoders --------------------------------------------------- */

/* An empty struct (or one whose fields are all unknown). */
static int any_field(struct rd *r, int16_t id, uint8_t ty, void *obj) {
  (void)id;
  (void)obj;
  return skip_other(r, ty);
}

static int rd_empty(struct rd *r, void *obj) {
  (void)obj;
  return rd_struct(r, any_field, NULL, NULL);
}

/* A union: the id of its (last) member, every member skipped. */
static int union_field(struct rd *r, int16_t id, uint8_t ty, void *obj) {
  *(int16_t *)obj = id;
  return skip_other(r, ty);
}

static int rd_union_id(struct rd *r, int16_t *member) {
  *member = 0;
  return rd_struct(r, union_field, member, NULL);
}

static int statistics_field(struct rd *r, int16_t id, uint8_t ty, void *obj) {
  struct chv_pq_statistics *s = obj;
  switch (id) {
  case 1:
    return f_bytes(r, ty, &s->max, &s->has_max);
  case 2:
    return f_bytes(r, ty, &s->min, &s->has_min);
  case 3:
    return f_i64(r, ty, &s->null_count, &s->has_null_count);
  case 4:
    return f_i64(r, ty, &s->distinct_count, &s->has_distinct_count);
  case 5:
    return f_bytes(r, ty, &s->max_value, &s->has_max_value);
  case 6:
    return f_bytes(r, ty, &s->min_value, &s->has_min_value);
  case 7:
    return f_bool(r, ty, &s->is_max_value_exact, &s->has_is_max_value_exact);
  case 8:
    return f_bool(r, ty, &s->is_min_value_exact, &s->has_is_min_value_exact);
  case 9:
    return f_i64(r, ty, &s->nan_count, &s->has_nan_count);
  default:
    return skip_other(r, ty);
  }
}

static int rd_statistics(struct rd *r, void *obj) {
  memset(obj, 0, sizeof(struct chv_pq_statistics));
  return rd_struct(r, statistics_field, obj, NULL);
}

/* TimeUnit union. */
static int rd_time_unit(struct rd *r, void *obj) {
  int32_t *unit = obj;
  int16_t m;
  CHV_RETURN_IF_ERR(rd_union_id(r, &m));
  *unit = (m >= CHV_PQ_UNIT_MILLIS && m <= CHV_PQ_UNIT_NANOS)
              ? m
              : CHV_PQ_UNIT_UNKNOWN;
  return CHV_OK;
}

/* TimeType and TimestampType (the same fields). */
static int time_type_field(struct rd *r, int16_t id, uint8_t ty, void *obj) {
  struct chv_pq_logical *lt = obj;
  switch (id) {
  case 1:
    return f_bool(r, ty, &lt->utc_adjusted, NULL);
  case 2:
    return f_struct(r, ty, rd_time_unit, &lt->unit, NULL);
  default:
    return skip_other(r, ty);
  }
}

static int decimal_type_field(struct rd *r, int16_t id, uint8_t ty, void *obj) {
  struct chv_pq_logical *lt = obj;
  switch (id) {
  case 1:
    return f_i32(r, ty, &lt->scale, NULL);
  case 2:
    return f_i32(r, ty, &lt->precision, NULL);
  default:
    return skip_other(r, ty);
  }
}

static int int_type_field(struct rd *r, int16_t id, uint8_t ty, void *obj) {
  struct chv_pq_logical *lt = obj;
  switch (id) {
  case 1:
    return f_i8(r, ty, &lt->bit_width);
  case 2:
    return f_bool(r, ty, &lt->is_signed, NULL);
  default:
    return skip_other(r, ty);
  }
}

/* LogicalType union: the member's id is its kind; members this code does
** not know become FUTURE. */
static int logical_field(struct rd *r, int16_t id, uint8_t ty, void *obj) {
  struct chv_pq_logical *lt = obj;
  if (ty != CHV_THRIFT_STRUCT) return skip_odd(r, ty, CHV_THRIFT_STRUCT);
  memset(lt, 0, sizeof *lt);
  uint32_t seen;
  switch (id) {
  case CHV_PQ_LT_STRING:
  case CHV_PQ_LT_MAP:
  case CHV_PQ_LT_LIST:
  case CHV_PQ_LT_ENUM:
  case CHV_PQ_LT_DATE:
  case CHV_PQ_LT_UNKNOWN:
  case CHV_PQ_LT_JSON:
  case CHV_PQ_LT_BSON:
  case CHV_PQ_LT_UUID:
  case CHV_PQ_LT_FLOAT16:
  case CHV_PQ_LT_VARIANT:
  case CHV_PQ_LT_GEOMETRY:
  case CHV_PQ_LT_GEOGRAPHY:
  case CHV_PQ_LT_VECTOR:
    lt->kind = id;
    return rd_empty(r, NULL);
  case CHV_PQ_LT_DECIMAL: {
    static const char *const req[] = {NULL, "scale", "precision"};
    lt->kind = id;
    CHV_RETURN_IF_ERR(rd_struct(r, decimal_type_field, lt, &seen));
    return require(r, "DecimalType", seen, req, 3);
  }
  case CHV_PQ_LT_TIME:
  case CHV_PQ_LT_TIMESTAMP: {
    static const char *const req[] = {NULL, "isAdjustedToUTC", "unit"};
    lt->kind = id;
    CHV_RETURN_IF_ERR(rd_struct(r, time_type_field, lt, &seen));
    return require(r, id == CHV_PQ_LT_TIME ? "TimeType" : "TimestampType", seen,
                   req, 3);
  }
  case CHV_PQ_LT_INTEGER: {
    static const char *const req[] = {NULL, "bitWidth", "isSigned"};
    lt->kind = id;
    CHV_RETURN_IF_ERR(rd_struct(r, int_type_field, lt, &seen));
    return require(r, "IntType", seen, req, 3);
  }
  default:
    lt->kind = CHV_PQ_LT_FUTURE;
    lt->future_id = id;
    return rd_empty(r, NULL);
  }
}

static int rd_logical(struct rd *r, void *obj) {
  memset(obj, 0, sizeof(struct chv_pq_logical));
  return rd_struct(r, logical_field, obj, NULL);
}

static int schema_element_field(struct rd *r, int16_t id, uint8_t ty,
                                void *obj) {
  struct chv_pq_schema_element *e = obj;
  switch (id) {
  case 1:
    return f_i32(r, ty, &e->type, &e->has_type);
  case 2:
    return f_i32(r, ty, &e->type_length, &e->has_type_length);
  case 3:
    return f_i32(r, ty, &e->repetition, &e->has_repetition);
  case 4:
    if (ty != CHV_THRIFT_BINARY) return skip_odd(r, ty, CHV_THRIFT_BINARY);
    return v_name(r, &e->name);
  case 5:
    return f_i32(r, ty, &e->num_children, &e->has_num_children);
  case 6:
    return f_i32(r, ty, &e->converted_type, &e->has_converted_type);
  case 7:
    return f_i32(r, ty, &e->scale, &e->has_scale);
  case 8:
    return f_i32(r, ty, &e->precision, &e->has_precision);
  case 9:
    return f_i32(r, ty, &e->field_id, &e->has_field_id);
  case 10:
    return f_struct(r, ty, rd_logical, &e->logical, NULL);
  default:
    return skip_other(r, ty);
  }
}

static int rd_schema_element(struct rd *r, void *obj) {
  static const char *const req[] = {NULL, NULL, NULL, NULL, "name"};
  uint32_t seen;
  CHV_RETURN_IF_ERR(rd_struct(r, schema_element_field, obj, &seen));
  return require(r, "SchemaElement", seen, req, 5);
}

static int kv_field(struct rd *r, int16_t id, uint8_t ty, void *obj) {
  struct chv_pq_kv *kv = obj;
  switch (id) {
  case 1:
    return f_string(r, ty, &kv->key, &kv->key_len);
  case 2:
    return f_string(r, ty, &kv->value, &kv->value_len);
  default:
    return skip_other(r, ty);
  }
}

static int rd_kv(struct rd *r, void *obj) {
  static const char *const req[] = {NULL, "key"};
  uint32_t seen;
  CHV_RETURN_IF_ERR(rd_struct(r, kv_field, obj, &seen));
  return require(r, "KeyValue", seen, req, 2);
}

static int page_encoding_stats_field(struct rd *r, int16_t id, uint8_t ty,
                                     void *obj) {
  struct chv_pq_page_encoding_stats *s = obj;
  switch (id) {
  case 1:
    return f_i32(r, ty, &s->page_type, NULL);
  case 2:
    return f_i32(r, ty, &s->encoding, NULL);
  case 3:
    return f_i32(r, ty, &s->count, NULL);
  default:
    return skip_other(r, ty);
  }
}

static int rd_page_encoding_stats(struct rd *r, void *obj) {
  static const char *const req[] = {NULL, "page_type", "encoding", "count"};
  uint32_t seen;
  CHV_RETURN_IF_ERR(rd_struct(r, page_encoding_stats_field, obj, &seen));
  return require(r, "PageEncodingStats", seen, req, 4);
}

static int column_meta_field(struct rd *r, int16_t id, uint8_t ty, void *obj) {
  struct chv_pq_column_meta *c = obj;
  switch (id) {
  case 1:
    return f_i32(r, ty, &c->type, NULL);
  case 2:
    return f_i32_list(r, ty, &c->encodings, &c->nencodings);
  case 3:
    return f_name_list(r, ty, &c->path_in_schema, &c->npath);
  case 4:
    return f_i32(r, ty, &c->codec, NULL);
  case 5:
    return f_i64(r, ty, &c->num_values, NULL);
  case 6:
    return f_i64(r, ty, &c->total_uncompressed_size, NULL);
  case 7:
    return f_i64(r, ty, &c->total_compressed_size, NULL);
  case 8:
    return f_struct_list(r, ty, sizeof *c->kv, rd_kv, (void *)&c->kv, &c->nkv);
  case 9:
    return f_i64(r, ty, &c->data_page_offset, NULL);
  case 10:
    return f_i64(r, ty, &c->index_page_offset, &c->has_index_page_offset);
  case 11:
    return f_i64(r, ty, &c->dictionary_page_offset,
                 &c->has_dictionary_page_offset);
  case 12:
    return f_struct(r, ty, rd_statistics, &c->statistics, &c->has_statistics);
  case 13:
    return f_struct_list(r, ty, sizeof *c->encoding_stats,
                         rd_page_encoding_stats, (void *)&c->encoding_stats,
                         &c->nencoding_stats);
  case 14:
    return f_i64(r, ty, &c->bloom_filter_offset, &c->has_bloom_filter_offset);
  case 15:
    return f_i32(r, ty, &c->bloom_filter_length, &c->has_bloom_filter_length);
  default:
    return skip_other(r, ty);
  }
}

static int rd_column_meta(struct rd *r, void *obj) {
  static const char *const req[] = {NULL,
                                    "type",
                                    "encodings",
                                    "path_in_schema",
                                    "codec",
                                    "num_values",
                                    "total_uncompressed_size",
                                    "total_compressed_size",
                                    NULL,
                                    "data_page_offset"};
  uint32_t seen;
  CHV_RETURN_IF_ERR(rd_struct(r, column_meta_field, obj, &seen));
  return require(r, "ColumnMetaData", seen, req, 10);
}

static int column_chunk_field(struct rd *r, int16_t id, uint8_t ty, void *obj) {
  struct chv_pq_column_chunk *c = obj;
  switch (id) {
  case 1:
    return f_string(r, ty, &c->file_path, NULL);
  case 2:
    return f_i64(r, ty, &c->file_offset, NULL);
  case 3: {
    if (ty != CHV_THRIFT_STRUCT) return skip_odd(r, ty, CHV_THRIFT_STRUCT);
    struct chv_pq_column_meta *m = arena_array(r, 1, sizeof *m);
    if (m == NULL) return oom(r);
    CHV_RETURN_IF_ERR(rd_column_meta(r, m));
    c->meta_data = m;
    return CHV_OK;
  }
  case 4:
    return f_i64(r, ty, &c->offset_index_offset, NULL);
  case 5:
    return f_i32(r, ty, &c->offset_index_length, NULL);
  case 6:
    return f_i64(r, ty, &c->column_index_offset, NULL);
  case 7:
    return f_i32(r, ty, &c->column_index_length, NULL);
  case 8:
  case 9:
    c->encrypted = true;
    return skip_other(r, ty);
  default:
    return skip_other(r, ty);
  }
}

static int rd_column_chunk(struct rd *r, void *obj) {
  static const char *const req[] = {NULL, NULL, "file_offset"};
  struct chv_pq_column_chunk *c = obj;
  uint32_t seen;
  CHV_RETURN_IF_ERR(rd_struct(r, column_chunk_field, c, &seen));
  uint32_t oi = 1u << 4 | 1u << 5, ci = 1u << 6 | 1u << 7;
  c->has_offset_index = (seen & oi) == oi;
  c->has_column_index = (seen & ci) == ci;
  return require(r, "ColumnChunk", seen, req, 3);
}

static int sorting_column_field(struct rd *r, int16_t id, uint8_t ty,
                                void *obj) {
  struct chv_pq_sorting_column *s = obj;
  switch (id) {
  case 1:
    return f_i32(r, ty, &s->column_idx, NULL);
  case 2:
    return f_bool(r, ty, &s->descending, NULL);
  case 3:
    return f_bool(r, ty, &s->nulls_first, NULL);
  default:
    return skip_other(r, ty);
  }
}

static int rd_sorting_column(struct rd *r, void *obj) {
  static const char *const req[] = {NULL, "column_idx", "descending",
                                    "nulls_first"};
  uint32_t seen;
  CHV_RETURN_IF_ERR(rd_struct(r, sorting_column_field, obj, &seen));
  return require(r, "SortingColumn", seen, req, 4);
}

static int row_group_field(struct rd *r, int16_t id, uint8_t ty, void *obj) {
  struct chv_pq_row_group *g = obj;
  switch (id) {
  case 1:
    return f_struct_list(r, ty, sizeof *g->columns, rd_column_chunk,
                         (void *)&g->columns, &g->ncolumns);
  case 2:
    return f_i64(r, ty, &g->total_byte_size, NULL);
  case 3:
    return f_i64(r, ty, &g->num_rows, NULL);
  case 4:
    return f_struct_list(r, ty, sizeof *g->sorting_columns, rd_sorting_column,
                         (void *)&g->sorting_columns, &g->nsorting_columns);
  case 5:
    return f_i64(r, ty, &g->file_offset, &g->has_file_offset);
  case 6:
    return f_i64(r, ty, &g->total_compressed_size,
                 &g->has_total_compressed_size);
  case 7:
    return f_i16(r, ty, &g->ordinal, &g->has_ordinal);
  default:
    return skip_other(r, ty);
  }
}

static int rd_row_group(struct rd *r, void *obj) {
  static const char *const req[] = {NULL, "columns", "total_byte_size",
                                    "num_rows"};
  uint32_t seen;
  CHV_RETURN_IF_ERR(rd_struct(r, row_group_field, obj, &seen));
  return require(r, "RowGroup", seen, req, 4);
}

/* ColumnOrder union: the member's id, or UNKNOWN. */
static int rd_column_order(struct rd *r, void *obj) {
  int32_t *order = obj;
  int16_t m;
  CHV_RETURN_IF_ERR(rd_union_id(r, &m));
  *order = (m >= CHV_PQ_ORDER_TYPE_DEFINED && m <= CHV_PQ_ORDER_INT96_TIMESTAMP)
               ? m
               : CHV_PQ_ORDER_UNKNOWN;
  return CHV_OK;
}

static int file_meta_field(struct rd *r, int16_t id, uint8_t ty, void *obj) {
  struct chv_pq_file_meta *m = obj;
  switch (id) {
  case 1:
    return f_i32(r, ty, &m->version, NULL);
  case 2:
    return f_struct_list(r, ty, sizeof *m->schema, rd_schema_element,
                         (void *)&m->schema, &m->nschema);
  case 3:
    return f_i64(r, ty, &m->num_rows, NULL);
  case 4:
    return f_struct_list(r, ty, sizeof *m->row_groups, rd_row_group,
                         (void *)&m->row_groups, &m->nrow_groups);
  case 5:
    return f_struct_list(r, ty, sizeof *m->kv, rd_kv, (void *)&m->kv, &m->nkv);
  case 6:
    return f_string(r, ty, &m->created_by, NULL);
  case 7:
    return f_struct_list(r, ty, sizeof *m->column_orders, rd_column_order,
                         (void *)&m->column_orders, &m->ncolumn_orders);
  case 8:
    m->has_encryption_algorithm = true;
    return skip_other(r, ty);
  default:
    return skip_other(r, ty);
  }
}

static int rd_file_meta(struct rd *r, struct chv_pq_file_meta *m) {
  static const char *const req[] = {NULL, "version", "schema", "num_rows",
                                    "row_groups"};
  uint32_t seen;
  CHV_RETURN_IF_ERR(rd_struct(r, file_meta_field, m, &seen));
  return require(r, "FileMetaData", seen, req, 5);
}

static int data_page_header_field(struct rd *r, int16_t id, uint8_t ty,
                                  void *obj) {
  struct chv_pq_data_page_header *h = obj;
  switch (id) {
  case 1:
    return f_i32(r, ty, &h->num_values, NULL);
  case 2:
    return f_i32(r, ty, &h->encoding, NULL);
  case 3:
    return f_i32(r, ty, &h->definition_level_encoding, NULL);
  case 4:
    return f_i32(r, ty, &h->repetition_level_encoding, NULL);
  case 5:
    return f_struct(r, ty, rd_statistics, &h->statistics, &h->has_statistics);
  default:
    return skip_other(r, ty);
  }
}

static int rd_data_page_header(struct rd *r, void *obj) {
  static const char *const req[] = {NULL, "num_values", "encoding",
                                    "definition_level_encoding",
                                    "repetition_level_encoding"};
  uint32_t seen;
  CHV_RETURN_IF_ERR(rd_struct(r, data_page_header_field, obj, &seen));
  return require(r, "DataPageHeader", seen, req, 5);
}

static int dictionary_page_header_field(struct rd *r, int16_t id, uint8_t ty,
                                        void *obj) {
  struct chv_pq_dictionary_page_header *h = obj;
  switch (id) {
  case 1:
    return f_i32(r, ty, &h->num_values, NULL);
  case 2:
    return f_i32(r, ty, &h->encoding, NULL);
  case 3:
    return f_bool(r, ty, &h->is_sorted, &h->has_is_sorted);
  default:
    return skip_other(r, ty);
  }
}

static int rd_dictionary_page_header(struct rd *r, void *obj) {
  static const char *const req[] = {NULL, "num_values", "encoding"};
  uint32_t seen;
  CHV_RETURN_IF_ERR(rd_struct(r, dictionary_page_header_field, obj, &seen));
  return require(r, "DictionaryPageHeader", seen, req, 3);
}

static int data_page_header_v2_field(struct rd *r, int16_t id, uint8_t ty,
                                     void *obj) {
  struct chv_pq_data_page_header_v2 *h = obj;
  switch (id) {
  case 1:
    return f_i32(r, ty, &h->num_values, NULL);
  case 2:
    return f_i32(r, ty, &h->num_nulls, NULL);
  case 3:
    return f_i32(r, ty, &h->num_rows, NULL);
  case 4:
    return f_i32(r, ty, &h->encoding, NULL);
  case 5:
    return f_i32(r, ty, &h->definition_levels_byte_length, NULL);
  case 6:
    return f_i32(r, ty, &h->repetition_levels_byte_length, NULL);
  case 7:
    return f_bool(r, ty, &h->is_compressed, NULL);
  case 8:
    return f_struct(r, ty, rd_statistics, &h->statistics, &h->has_statistics);
  default:
    return skip_other(r, ty);
  }
}

static int rd_data_page_header_v2(struct rd *r, void *obj) {
  static const char *const req[] = {NULL,
                                    "num_values",
                                    "num_nulls",
                                    "num_rows",
                                    "encoding",
                                    "definition_levels_byte_length",
                                    "repetition_levels_byte_length"};
  struct chv_pq_data_page_header_v2 *h = obj;
  h->is_compressed = true;
  uint32_t seen;
  CHV_RETURN_IF_ERR(rd_struct(r, data_page_header_v2_field, h, &seen));
  return require(r, "DataPageHeaderV2", seen, req, 7);
}

static int page_header_field(struct rd *r, int16_t id, uint8_t ty, void *obj) {
  struct chv_pq_page_header *h = obj;
  int32_t crc;
  int rc;
  switch (id) {
  case 1:
    return f_i32(r, ty, &h->type, NULL);
  case 2:
    return f_i32(r, ty, &h->uncompressed_page_size, NULL);
  case 3:
    return f_i32(r, ty, &h->compressed_page_size, NULL);
  case 4:
    rc = f_i32(r, ty, &crc, &h->has_crc);
    if (rc == CHV_OK) h->crc = (uint32_t)crc;
    return rc;
  case 5:
    return f_struct(r, ty, rd_data_page_header, &h->data_page,
                    &h->has_data_page);
  case 6:
    return f_struct(r, ty, rd_empty, NULL, &h->has_index_page);
  case 7:
    return f_struct(r, ty, rd_dictionary_page_header, &h->dictionary_page,
                    &h->has_dictionary_page);
  case 8:
    return f_struct(r, ty, rd_data_page_header_v2, &h->data_page_v2,
                    &h->has_data_page_v2);
  default:
    return skip_other(r, ty);
  }
}

static int rd_page_header(struct rd *r, struct chv_pq_page_header *h) {
  static const char *const req[] = {NULL, "type", "uncompressed_page_size",
                                    "compressed_page_size"};
  uint32_t seen;
  CHV_RETURN_IF_ERR(rd_struct(r, page_header_field, h, &seen));
  return require(r, "PageHeader", seen, req, 4);
}

/* ---- footer validation ------------------------------------------------- */

void chv_pq_chunk_range(const struct chv_pq_column_meta *cm, int64_t *start,
                        int64_t *len) {
  int64_t s = cm->data_page_offset;
  int64_t d = cm->has_dictionary_page_offset ? cm->dictionary_page_offset : 0;
  /* Offsets below 4 point into the magic: "none" (dictionary_page_offset 0
  ** from some writers; data_page_offset 0 in a chunk of a dictionary page
  ** alone). */
  if (d >= 4 && (d < s || s < 4)) s = d;
  *start = s;
  *len = cm->total_compressed_size;
}

/* ---- footer validation ------------------------------------------------- */

struct vctx {
  const struct chv_pq_file_meta *m;
  const char *path;
  int64_t data_end; /* first byte past the column data, or -1 unknown */
  struct chv_error *err;
  char where[512]; /* "row group 1, column a.b" */
};

static int vfail(struct vctx *v, const char *fmt, ...) CHV_PRINTF(2, 3);
static int vfail(struct vctx *v, const char *fmt, ...) {
  char msg[CHV_ERROR_MSG_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return chv_error_set(v->err, CHV_ECORRUPT, "%s: %s: %s", v->path, v->where,
                       msg);
}

/* A byte range [off, off + len) of the file must lie in the data. */
static int check_range(struct vctx *v, const char *what, int64_t off,
                       int64_t len) {
  if (off < 0) return vfail(v, "%s %" PRId64 " is negative", what, off);
  if (len < 0)
    return vfail(v, "length %" PRId64 " of %s is negative", len, what);
  if (v->data_end < 0) return CHV_OK;
  if (off > v->data_end || len > v->data_end - off)
    return vfail(v,
                 "%s %" PRId64 " (+%" PRId64 " bytes) is past the data "
                 "(footer at %" PRId64 ")",
                 what, off, len, v->data_end);
  return CHV_OK;
}

static int check_chunk(struct vctx *v, const struct chv_pq_column_chunk *c,
                       const struct chv_pq_node *leaf) {
  const struct chv_pq_column_meta *cm = c->meta_data;
  if (cm == NULL) {
    if (c->encrypted)
      return chv_error_set(v->err, CHV_ENOTSUP,
                           "%s: %s: encrypted Parquet files are not "
                           "supported",
                           v->path, v->where);
    return vfail(v, "the column chunk has no meta_data");
  }
  /* The path must name the leaf, from the root's child down. */
  bool same = cm->npath == leaf->depth;
  const struct chv_pq_node *n = leaf;
  for (int i = cm->npath - 1; same && i >= 0; i--, n = n->parent)
    same = strcmp(cm->path_in_schema[i], n->el->name) == 0;
  if (!same) {
    struct chv_buf b;
    chv_buf_init(&b);
    for (int i = 0; i < cm->npath; i++) {
      if (i) chv_buf_putc(&b, '.');
      chv_buf_puts(&b, cm->path_in_schema[i]);
    }
    int rc = vfail(v, "path_in_schema '%s' does not match the schema",
                   b.data ? b.data : "");
    chv_buf_free(&b);
    return rc;
  }
  if (cm->type != leaf->el->type)
    return vfail(v, "chunk type %s differs from the schema's %s",
                 chv_pq_type_name(cm->type), chv_pq_type_name(leaf->el->type));
  if (cm->num_values < 0)
    return vfail(v, "num_values %" PRId64 " is negative", cm->num_values);
  if (cm->total_uncompressed_size < 0)
    return vfail(v, "total_uncompressed_size %" PRId64 " is negative",
                 cm->total_uncompressed_size);
  if (cm->total_compressed_size < 0)
    return vfail(v, "total_compressed_size %" PRId64 " is negative",
                 cm->total_compressed_size);
  if (c->file_path == NULL) {
    if (cm->has_dictionary_page_offset)
      CHV_RETURN_IF_ERR(check_range(v, "dictionary_page_offset",
                                    cm->dictionary_page_offset, 0));
    CHV_RETURN_IF_ERR(
        check_range(v, "data_page_offset", cm->data_page_offset, 0));
    int64_t start, len;
    chv_pq_chunk_range(cm, &start, &len);
    CHV_RETURN_IF_ERR(check_range(v, "column chunk", start, len));
    if (c->has_offset_index)
      CHV_RETURN_IF_ERR(check_range(v, "offset_index_offset",
                                    c->offset_index_offset,
                                    c->offset_index_length));
    if (c->has_column_index)
      CHV_RETURN_IF_ERR(check_range(v, "column_index_offset",
                                    c->column_index_offset,
                                    c->column_index_length));
    if (cm->has_bloom_filter_offset)
      CHV_RETURN_IF_ERR(check_range(
          v, "bloom_filter_offset", cm->bloom_filter_offset,
          cm->has_bloom_filter_length ? cm->bloom_filter_length : 0));
  }
  return CHV_OK;
}

static int validate(struct chv_pq_file_meta *m, const char *path,
                    int64_t data_end, struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_pq_schema_build(m, path, err));
  struct vctx v = {m, path, data_end, err, "footer"};
  if (m->num_rows < 0)
    return vfail(&v, "num_rows %" PRId64 " is negative", m->num_rows);
  if (m->ncolumn_orders != 0 && m->ncolumn_orders != m->nleaves)
    return vfail(&v, "%d column orders for %d columns", m->ncolumn_orders,
                 m->nleaves);
  struct chv_buf colpath;
  chv_buf_init(&colpath);
  int rc = CHV_OK;
  for (int g = 0; g < m->nrow_groups && rc == CHV_OK; g++) {
    const struct chv_pq_row_group *rg = &m->row_groups[g];
    snprintf(v.where, sizeof v.where, "row group %d", g);
    if (rg->num_rows < 0) {
      rc = vfail(&v, "num_rows %" PRId64 " is negative", rg->num_rows);
      break;
    }
    if (rg->total_byte_size < 0) {
      rc = vfail(&v, "total_byte_size %" PRId64 " is negative",
                 rg->total_byte_size);
      break;
    }
    if (rg->ncolumns != m->nleaves) {
      rc = vfail(&v, "%d column chunks for %d columns", rg->ncolumns,
                 m->nleaves);
      break;
    }
    for (int s = 0; s < rg->nsorting_columns; s++) {
      int32_t ci = rg->sorting_columns[s].column_idx;
      if (ci < 0 || ci >= m->nleaves) {
        rc = vfail(&v, "sorting column %d is not a column", ci);
        break;
      }
    }
    for (int c = 0; c < rg->ncolumns && rc == CHV_OK; c++) {
      chv_buf_reset(&colpath);
      if (chv_pq_node_path(m->leaves[c], &colpath) != CHV_OK) {
        rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
        break;
      }
      snprintf(v.where, sizeof v.where, "row group %d, column %s", g,
               colpath.data);
      rc = check_chunk(&v, &rg->columns[c], m->leaves[c]);
    }
  }
  chv_buf_free(&colpath);
  return rc;
}

/* ---- footer entry points ----------------------------------------------- */

int chv_pq_file_meta_decode(const void *p, size_t len, int64_t file_size,
                            const char *path, struct chv_pq_file_meta **out,
                            struct chv_error *err) {
  if (path == NULL) path = "(parquet)";
  chv_arena *arena;
  if (chv_arena_open(0, &arena) != CHV_OK)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  struct rd r;
  rd_init(&r, p, len, arena, err);
  struct chv_pq_file_meta *m = arena_array(&r, 1, sizeof *m);
  int rc;
  if (m == NULL) {
    rc = oom(&r);
    goto out_close;
  }
  m->arena = arena;
  m->footer_length = (int64_t)len;
  m->footer_offset =
      file_size >= 0 ? file_size - 8 - (int64_t)len : (int64_t)-1;
  rc = rd_file_meta(&r, m);
  if (rc != CHV_OK) {
    if (rc != CHV_ENOMEM) {
      if (m->footer_offset >= 0)
        chv_error_wrap(err, "%s: footer at file offset %" PRId64, path,
                       m->footer_offset);
      else
        chv_error_wrap(err, "%s: footer", path);
    }
    goto out_close;
  }
  rc = validate(m, path, m->footer_offset, err);
  if (rc != CHV_OK) goto out_close;
  *out = m;
  return CHV_OK;
out_close:
  chv_arena_close(arena);
  return rc;
}

void chv_pq_file_meta_close(struct chv_pq_file_meta *m) {
  if (m) chv_arena_close(m->arena);
}

static uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
}

/* Checks the trailing 8 bytes (length + magic) of a file of `size` bytes;
** *footer_len gets the FileMetaData length. */
static int check_tail(const uint8_t tail[8], int64_t size, const char *path,
                      uint32_t *footer_len, struct chv_error *err) {
  if (memcmp(tail + 4, CHV_PQ_MAGIC_ENCRYPTED, 4) == 0)
    return chv_error_set(err, CHV_ENOTSUP,
                         "%s: encrypted Parquet files are not supported", path);
  if (memcmp(tail + 4, CHV_PQ_MAGIC, 4) != 0)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: not a Parquet file: it does not end with "
                         "\"PAR1\" (last bytes %02x %02x %02x %02x)",
                         path, tail[4], tail[5], tail[6], tail[7]);
  uint32_t n = le32(tail);
  if ((int64_t)n > size)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: footer length %" PRIu32
                         " exceeds file size %" PRId64,
                         path, n, size);
  if ((int64_t)n > size - 12)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: footer length %" PRIu32
                         " leaves no room for the magic in a file of %" PRId64
                         " bytes",
                         path, n, size);
  if ((int64_t)n > CHV_PQ_MAX_FOOTER)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: footer length %" PRIu32
                         " exceeds the limit of %" PRId64 " bytes",
                         path, n, CHV_PQ_MAX_FOOTER);
  *footer_len = n;
  return CHV_OK;
}

static int check_size(int64_t size, const char *path, struct chv_error *err) {
  if (size < 12)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: file of %" PRId64
                         " bytes is too small to be Parquet (at least 12)",
                         path, size);
  return CHV_OK;
}

static int check_head(const uint8_t head[4], const char *path,
                      struct chv_error *err) {
  if (memcmp(head, CHV_PQ_MAGIC, 4) == 0) return CHV_OK;
  return chv_error_set(err, CHV_ECORRUPT,
                       "%s: not a Parquet file: it does not start with "
                       "\"PAR1\"",
                       path);
}

int chv_pq_footer_parse(const void *file, size_t size, const char *path,
                        struct chv_pq_file_meta **out, struct chv_error *err) {
  if (path == NULL) path = "(parquet)";
  const uint8_t *p = file;
  int64_t sz = (int64_t)size;
  uint32_t n;
  CHV_RETURN_IF_ERR(check_size(sz, path, err));
  CHV_RETURN_IF_ERR(check_tail(p + size - 8, sz, path, &n, err));
  CHV_RETURN_IF_ERR(check_head(p, path, err));
  return chv_pq_file_meta_decode(p + size - 8 - n, n, sz, path, out, err);
}

/* pread exactly n bytes at off. */
static int read_exact(struct chv_file *f, void *buf, size_t n, int64_t off,
                      const char *path, struct chv_error *err) {
  size_t got;
  CHV_RETURN_IF_ERR(chv_file_pread(f, buf, n, off, &got, err));
  if (got != n)
    return chv_error_set(err, CHV_EIO,
                         "%s: short read of %zu bytes at offset %" PRId64
                         " (file shrank?)",
                         path, n, off);
  return CHV_OK;
}

int chv_pq_footer_read(struct chv_file *f, int64_t size, const char *path,
                       struct chv_pq_file_meta **out, struct chv_error *err) {
  if (path == NULL) path = f->path ? f->path : "(parquet)";
  if (size < 0) CHV_RETURN_IF_ERR(chv_file_size(f, &size, err));
  CHV_RETURN_IF_ERR(check_size(size, path, err));
  size_t tail_len = (size_t)CHV_MIN(size, (int64_t)CHV_PQ_FOOTER_READ_SIZE);
  uint8_t *tail = chv_malloc(tail_len);
  if (tail == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  uint8_t *big = NULL;
  uint8_t head[4];
  uint32_t n = 0;
  int rc = read_exact(f, tail, tail_len, size - (int64_t)tail_len, path, err);
  if (rc == CHV_OK) rc = check_tail(tail + tail_len - 8, size, path, &n, err);
  if (rc == CHV_OK) rc = read_exact(f, head, 4, 0, path, err);
  if (rc == CHV_OK) rc = check_head(head, path, err);
  if (rc != CHV_OK) goto out_free;
  const uint8_t *meta;
  if ((size_t)n + 8 <= tail_len) {
    meta = tail + tail_len - 8 - n;
  } else {
    big = chv_malloc(n ? n : 1);
    if (big == NULL) {
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      goto out_free;
    }
    rc = read_exact(f, big, n, size - 8 - (int64_t)n, path, err);
    if (rc != CHV_OK) goto out_free;
    meta = big;
  }
  rc = chv_pq_file_meta_decode(meta, n, size, path, out, err);
out_free:
  chv_free(big);
  chv_free(tail);
  return rc;
}

/* ---- page headers ------------------------------------------------------ */

int chv_pq_page_header_parse(const void *p, size_t len, const char *path,
                             int64_t file_offset,
                             struct chv_pq_page_header *out, size_t *consumed,
                             struct chv_error *err) {
  char where[600];
  if (file_offset >= 0)
    snprintf(where, sizeof where, "%s: page header at offset %" PRId64,
             path ? path : "(parquet)", file_offset);
  else
    snprintf(where, sizeof where, "%s: page header", path ? path : "(parquet)");
  struct chv_pq_page_header h;
  memset(&h, 0, sizeof h);
  struct rd r;
  rd_init(&r, p, len, NULL, err);
  int rc = rd_page_header(&r, &h);
  if (rc != CHV_OK) {
    chv_error_wrap(err, "%s", where);
    return rc;
  }
  const char *bad_what = NULL;
  int64_t bad_val = 0;
#define CHECK_NONNEG(what, val)                                                \
  if (bad_what == NULL && (val) < 0) {                                         \
    bad_what = what;                                                           \
    bad_val = (val);                                                           \
  }
  CHECK_NONNEG("compressed_page_size", h.compressed_page_size);
  CHECK_NONNEG("uncompressed_page_size", h.uncompressed_page_size);
  if (h.has_data_page) CHECK_NONNEG("num_values", h.data_page.num_values);
  if (h.has_dictionary_page)
    CHECK_NONNEG("num_values", h.dictionary_page.num_values);
  if (h.has_data_page_v2) {
    const struct chv_pq_data_page_header_v2 *v2 = &h.data_page_v2;
    CHECK_NONNEG("num_values", v2->num_values);
    CHECK_NONNEG("num_nulls", v2->num_nulls);
    CHECK_NONNEG("num_rows", v2->num_rows);
    CHECK_NONNEG("definition_levels_byte_length",
                 v2->definition_levels_byte_length);
    CHECK_NONNEG("repetition_levels_byte_length",
                 v2->repetition_levels_byte_length);
  }
#undef CHECK_NONNEG
  if (bad_what)
    return chv_error_set(err, CHV_ECORRUPT, "%s: %s %" PRId64 " is negative",
                         where, bad_what, bad_val);
  switch (h.type) {
  case CHV_PQ_PAGE_DATA_PAGE:
    if (!h.has_data_page)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: DATA_PAGE without data_page_header", where);
    break;
  case CHV_PQ_PAGE_DICTIONARY_PAGE:
    if (!h.has_dictionary_page)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: DICTIONARY_PAGE without "
                           "dictionary_page_header",
                           where);
    break;
  case CHV_PQ_PAGE_DATA_PAGE_V2: {
    if (!h.has_data_page_v2)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: DATA_PAGE_V2 without data_page_header_v2",
                           where);
    const struct chv_pq_data_page_header_v2 *v2 = &h.data_page_v2;
    if (v2->num_nulls > v2->num_values)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: num_nulls %d exceeds num_values %d", where,
                           v2->num_nulls, v2->num_values);
    if (v2->num_rows > v2->num_values)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: num_rows %d exceeds num_values %d", where,
                           v2->num_rows, v2->num_values);
    int64_t levels = (int64_t)v2->definition_levels_byte_length +
                     v2->repetition_levels_byte_length;
    if (levels > h.compressed_page_size || levels > h.uncompressed_page_size)
      return chv_error_set(
          err, CHV_ECORRUPT,
          "%s: %" PRId64 " bytes of levels exceed the page (%d bytes "
          "stored, %d uncompressed)",
          where, levels, h.compressed_page_size, h.uncompressed_page_size);
    break;
  }
  default:
    break;
  }
  *out = h;
  *consumed = r.t.pos;
  return CHV_OK;
}

/* ---- page index -------------------------------------------------------- */

static int page_location_field(struct rd *r, int16_t id, uint8_t ty,
                               void *obj) {
  struct chv_pq_page_location *p = obj;
  switch (id) {
  case 1:
    return f_i64(r, ty, &p->offset, NULL);
  case 2:
    return f_i32(r, ty, &p->compressed_page_size, NULL);
  case 3:
    return f_i64(r, ty, &p->first_row_index, NULL);
  default:
    return skip_other(r, ty);
  }
}

static int rd_page_location(struct rd *r, void *obj) {
  static const char *const req[] = {NULL, "offset", "compressed_page_size",
                                    "first_row_index"};
  uint32_t seen;
  CHV_RETURN_IF_ERR(rd_struct(r, page_location_field, obj, &seen));
  return require(r, "PageLocation", seen, req, 4);
}

static int offset_index_field(struct rd *r, int16_t id, uint8_t ty, void *obj) {
  struct chv_pq_offset_index *x = obj;
  switch (id) {
  case 1:
    return f_struct_list(r, ty, sizeof *x->pages, rd_page_location,
                         (void *)&x->pages, &x->npages);
  case 2:
    return f_i64_list(r, ty, &x->unencoded_byte_array_data_bytes,
                      &x->nunencoded);
  default:
    return skip_other(r, ty);
  }
}

int chv_pq_offset_index_parse(const void *p, size_t len, chv_arena *arena,
                              const char *path, struct chv_pq_offset_index *out,
                              struct chv_error *err) {
  static const char *const req[] = {NULL, "page_locations"};
  if (path == NULL) path = "(parquet)";
  struct chv_pq_offset_index x;
  memset(&x, 0, sizeof x);
  struct rd r;
  rd_init(&r, p, len, arena, err);
  uint32_t seen;
  int rc = rd_struct(&r, offset_index_field, &x, &seen);
  if (rc == CHV_OK) rc = require(&r, "OffsetIndex", seen, req, 2);
  if (rc != CHV_OK) {
    if (rc != CHV_ENOMEM) chv_error_wrap(err, "%s: offset index", path);
    return rc;
  }
  for (int32_t i = 0; i < x.npages; i++) {
    const struct chv_pq_page_location *pl = &x.pages[i];
    if (pl->offset < 0 || pl->compressed_page_size < 0 ||
        pl->first_row_index < 0)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: offset index: page %d has a negative offset, "
                           "size or first row",
                           path, i);
    if (i > 0 && pl->first_row_index < x.pages[i - 1].first_row_index)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: offset index: first_row_index %" PRId64
                           " of page %d is below the previous page's",
                           path, pl->first_row_index, i);
  }
  if (x.nunencoded != 0 && x.nunencoded != x.npages)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: offset index: %d unencoded sizes for %d pages",
                         path, x.nunencoded, x.npages);
  *out = x;
  return CHV_OK;
}

/* What a ColumnIndex holds while it is read: list lengths are checked at
** the end (-1: list absent). */
struct column_index_rd {
  struct chv_pq_column_index *x;
  int32_t nmin, nmax, nnull, nnan;
};

static int column_index_field(struct rd *r, int16_t id, uint8_t ty, void *obj) {
  struct column_index_rd *c = obj;
  struct chv_pq_column_index *x = c->x;
  uint32_t n;
  int rc;
  switch (id) {
  case 1:
    rc = f_list(r, ty, CHV_THRIFT_BOOL, &n);
    if (rc != CHV_OK) return rc;
    x->null_pages = arena_array(r, n, sizeof *x->null_pages);
    if (n && x->null_pages == NULL) return oom(r);
    x->npages = (int32_t)n;
    for (uint32_t i = 0; i < n; i++)
      CHV_RETURN_IF_ERR(chv_thrift_read_bool(&r->t, &x->null_pages[i]));
    return CHV_OK;
  case 2:
  case 3: {
    rc = f_list(r, ty, CHV_THRIFT_BINARY, &n);
    if (rc != CHV_OK) return rc;
    struct chv_pq_bytes *a = arena_array(r, n, sizeof *a);
    if (n && a == NULL) return oom(r);
    for (uint32_t i = 0; i < n; i++)
      CHV_RETURN_IF_ERR(v_bytes(r, &a[i]));
    if (id == 2) {
      x->min_values = a;
      c->nmin = (int32_t)n;
    } else {
      x->max_values = a;
      c->nmax = (int32_t)n;
    }
    return CHV_OK;
  }
  case 4:
    return f_i32(r, ty, &x->boundary_order, NULL);
  case 5:
    return f_i64_list(r, ty, &x->null_counts, &c->nnull);
  case 6:
    return f_i64_list(r, ty, &x->repetition_level_histograms,
                      &x->nrep_histograms);
  case 7:
    return f_i64_list(r, ty, &x->definition_level_histograms,
                      &x->ndef_histograms);
  case 8:
    return f_i64_list(r, ty, &x->nan_counts, &c->nnan);
  default:
    return skip_other(r, ty);
  }
}

int chv_pq_column_index_parse(const void *p, size_t len, chv_arena *arena,
                              const char *path, struct chv_pq_column_index *out,
                              struct chv_error *err) {
  static const char *const req[] = {NULL, "null_pages", "min_values",
                                    "max_values", "boundary_order"};
  if (path == NULL) path = "(parquet)";
  struct chv_pq_column_index x;
  memset(&x, 0, sizeof x);
  struct column_index_rd c = {&x, -1, -1, -1, -1};
  struct rd r;
  rd_init(&r, p, len, arena, err);
  uint32_t seen;
  int rc = rd_struct(&r, column_index_field, &c, &seen);
  if (rc == CHV_OK) rc = require(&r, "ColumnIndex", seen, req, 5);
  if (rc == CHV_OK && (c.nmin != x.npages || c.nmax != x.npages ||
                       (c.nnull >= 0 && c.nnull != x.npages) ||
                       (c.nnan >= 0 && c.nnan != x.npages)))
    rc = bad(&r,
             "its per-page lists differ in length (%d null_pages, %d "
             "min_values, %d max_values)",
             x.npages, c.nmin, c.nmax);
  if (rc != CHV_OK) {
    if (rc != CHV_ENOMEM) chv_error_wrap(err, "%s: column index", path);
    return rc;
  }
  /* Absent lists stay NULL (an empty one is absent when there are no
  ** pages, which is the same). */
  if (c.nnull <= 0) x.null_counts = NULL;
  if (c.nnan <= 0) x.nan_counts = NULL;
  if (x.null_counts)
    for (int32_t i = 0; i < x.npages; i++)
      if (x.null_counts[i] < 0)
        return chv_error_set(err, CHV_ECORRUPT,
                             "%s: column index: null count %" PRId64
                             " of page %d is negative",
                             path, x.null_counts[i], i);
  *out = x;
  return CHV_OK;
}

/* ---- writing ----------------------------------------------------------- */

typedef struct chv_thrift_writer wr;

static void wr_bytes_field(wr *w, int16_t id, struct chv_pq_bytes b) {
  chv_thrift_write_field_binary(w, id, b.data, b.len);
}

static void wr_statistics(wr *w, int16_t id,
                          const struct chv_pq_statistics *s) {
  chv_thrift_write_field(w, id, CHV_THRIFT_STRUCT);
  chv_thrift_write_struct_begin(w);
  if (s->has_max) wr_bytes_field(w, 1, s->max);
  if (s->has_min) wr_bytes_field(w, 2, s->min);
  if (s->has_null_count) chv_thrift_write_field_i64(w, 3, s->null_count);
  if (s->has_distinct_count)
    chv_thrift_write_field_i64(w, 4, s->distinct_count);
  if (s->has_max_value) wr_bytes_field(w, 5, s->max_value);
  if (s->has_min_value) wr_bytes_field(w, 6, s->min_value);
  if (s->has_is_max_value_exact)
    chv_thrift_write_field_bool(w, 7, s->is_max_value_exact);
  if (s->has_is_min_value_exact)
    chv_thrift_write_field_bool(w, 8, s->is_min_value_exact);
  if (s->has_nan_count) chv_thrift_write_field_i64(w, 9, s->nan_count);
  chv_thrift_write_struct_end(w);
}

static void wr_empty_struct_field(wr *w, int16_t id) {
  chv_thrift_write_field(w, id, CHV_THRIFT_STRUCT);
  chv_thrift_write_struct_begin(w);
  chv_thrift_write_struct_end(w);
}

static void wr_logical(wr *w, const struct chv_pq_logical *lt) {
  chv_thrift_write_field(w, 10, CHV_THRIFT_STRUCT);
  chv_thrift_write_struct_begin(w);
  int16_t member =
      lt->kind == CHV_PQ_LT_FUTURE ? lt->future_id : (int16_t)lt->kind;
  switch (lt->kind) {
  case CHV_PQ_LT_DECIMAL:
    chv_thrift_write_field(w, member, CHV_THRIFT_STRUCT);
    chv_thrift_write_struct_begin(w);
    chv_thrift_write_field_i32(w, 1, lt->scale);
    chv_thrift_write_field_i32(w, 2, lt->precision);
    chv_thrift_write_struct_end(w);
    break;
  case CHV_PQ_LT_TIME:
  case CHV_PQ_LT_TIMESTAMP:
    chv_thrift_write_field(w, member, CHV_THRIFT_STRUCT);
    chv_thrift_write_struct_begin(w);
    chv_thrift_write_field_bool(w, 1, lt->utc_adjusted);
    chv_thrift_write_field(w, 2, CHV_THRIFT_STRUCT);
    chv_thrift_write_struct_begin(w);
    if (lt->unit != CHV_PQ_UNIT_UNKNOWN)
      wr_empty_struct_field(w, (int16_t)lt->unit);
    chv_thrift_write_struct_end(w);
    chv_thrift_write_struct_end(w);
    break;
  case CHV_PQ_LT_INTEGER:
    chv_thrift_write_field(w, member, CHV_THRIFT_STRUCT);
    chv_thrift_write_struct_begin(w);
    chv_thrift_write_field(w, 1, CHV_THRIFT_I8);
    chv_thrift_write_i8(w, lt->bit_width);
    chv_thrift_write_field_bool(w, 2, lt->is_signed);
    chv_thrift_write_struct_end(w);
    break;
  default:
    /* Members without fields; a FUTURE member loses its contents. */
    wr_empty_struct_field(w, member);
    break;
  }
  chv_thrift_write_struct_end(w);
}

static void wr_schema_element(wr *w, const struct chv_pq_schema_element *e) {
  chv_thrift_write_struct_begin(w);
  if (e->has_type) chv_thrift_write_field_i32(w, 1, e->type);
  if (e->has_type_length) chv_thrift_write_field_i32(w, 2, e->type_length);
  if (e->has_repetition) chv_thrift_write_field_i32(w, 3, e->repetition);
  chv_thrift_write_field_string(w, 4, e->name ? e->name : "");
  if (e->has_num_children) chv_thrift_write_field_i32(w, 5, e->num_children);
  if (e->has_converted_type)
    chv_thrift_write_field_i32(w, 6, e->converted_type);
  if (e->has_scale) chv_thrift_write_field_i32(w, 7, e->scale);
  if (e->has_precision) chv_thrift_write_field_i32(w, 8, e->precision);
  if (e->has_field_id) chv_thrift_write_field_i32(w, 9, e->field_id);
  if (e->logical.kind != CHV_PQ_LT_NONE) wr_logical(w, &e->logical);
  chv_thrift_write_struct_end(w);
}

static void wr_kv_list(wr *w, int16_t id, const struct chv_pq_kv *kv,
                       int32_t n) {
  chv_thrift_write_field(w, id, CHV_THRIFT_LIST);
  chv_thrift_write_list_begin(w, CHV_THRIFT_STRUCT, (uint32_t)n);
  for (int32_t i = 0; i < n; i++) {
    chv_thrift_write_struct_begin(w);
    chv_thrift_write_field_binary(w, 1, kv[i].key, kv[i].key_len);
    if (kv[i].value)
      chv_thrift_write_field_binary(w, 2, kv[i].value, kv[i].value_len);
    chv_thrift_write_struct_end(w);
  }
}

static void wr_column_meta(wr *w, const struct chv_pq_column_meta *c) {
  chv_thrift_write_field(w, 3, CHV_THRIFT_STRUCT);
  chv_thrift_write_struct_begin(w);
  chv_thrift_write_field_i32(w, 1, c->type);
  chv_thrift_write_field(w, 2, CHV_THRIFT_LIST);
  chv_thrift_write_list_begin(w, CHV_THRIFT_I32, (uint32_t)c->nencodings);
  for (int32_t i = 0; i < c->nencodings; i++)
    chv_thrift_write_i32(w, c->encodings[i]);
  chv_thrift_write_field(w, 3, CHV_THRIFT_LIST);
  chv_thrift_write_list_begin(w, CHV_THRIFT_BINARY, (uint32_t)c->npath);
  for (int32_t i = 0; i < c->npath; i++)
    chv_thrift_write_string(w, c->path_in_schema[i]);
  chv_thrift_write_field_i32(w, 4, c->codec);
  chv_thrift_write_field_i64(w, 5, c->num_values);
  chv_thrift_write_field_i64(w, 6, c->total_uncompressed_size);
  chv_thrift_write_field_i64(w, 7, c->total_compressed_size);
  if (c->nkv) wr_kv_list(w, 8, c->kv, c->nkv);
  chv_thrift_write_field_i64(w, 9, c->data_page_offset);
  if (c->has_index_page_offset)
    chv_thrift_write_field_i64(w, 10, c->index_page_offset);
  if (c->has_dictionary_page_offset)
    chv_thrift_write_field_i64(w, 11, c->dictionary_page_offset);
  if (c->has_statistics) wr_statistics(w, 12, &c->statistics);
  if (c->nencoding_stats) {
    chv_thrift_write_field(w, 13, CHV_THRIFT_LIST);
    chv_thrift_write_list_begin(w, CHV_THRIFT_STRUCT,
                                (uint32_t)c->nencoding_stats);
    for (int32_t i = 0; i < c->nencoding_stats; i++) {
      chv_thrift_write_struct_begin(w);
      chv_thrift_write_field_i32(w, 1, c->encoding_stats[i].page_type);
      chv_thrift_write_field_i32(w, 2, c->encoding_stats[i].encoding);
      chv_thrift_write_field_i32(w, 3, c->encoding_stats[i].count);
      chv_thrift_write_struct_end(w);
    }
  }
  if (c->has_bloom_filter_offset)
    chv_thrift_write_field_i64(w, 14, c->bloom_filter_offset);
  if (c->has_bloom_filter_length)
    chv_thrift_write_field_i32(w, 15, c->bloom_filter_length);
  chv_thrift_write_struct_end(w);
}

static void wr_column_chunk(wr *w, const struct chv_pq_column_chunk *c) {
  chv_thrift_write_struct_begin(w);
  if (c->file_path) chv_thrift_write_field_string(w, 1, c->file_path);
  chv_thrift_write_field_i64(w, 2, c->file_offset);
  if (c->meta_data) wr_column_meta(w, c->meta_data);
  if (c->has_offset_index) {
    chv_thrift_write_field_i64(w, 4, c->offset_index_offset);
    chv_thrift_write_field_i32(w, 5, c->offset_index_length);
  }
  if (c->has_column_index) {
    chv_thrift_write_field_i64(w, 6, c->column_index_offset);
    chv_thrift_write_field_i32(w, 7, c->column_index_length);
  }
  chv_thrift_write_struct_end(w);
}

static void wr_row_group(wr *w, const struct chv_pq_row_group *g) {
  chv_thrift_write_struct_begin(w);
  chv_thrift_write_field(w, 1, CHV_THRIFT_LIST);
  chv_thrift_write_list_begin(w, CHV_THRIFT_STRUCT, (uint32_t)g->ncolumns);
  for (int32_t i = 0; i < g->ncolumns; i++)
    wr_column_chunk(w, &g->columns[i]);
  chv_thrift_write_field_i64(w, 2, g->total_byte_size);
  chv_thrift_write_field_i64(w, 3, g->num_rows);
  if (g->nsorting_columns) {
    chv_thrift_write_field(w, 4, CHV_THRIFT_LIST);
    chv_thrift_write_list_begin(w, CHV_THRIFT_STRUCT,
                                (uint32_t)g->nsorting_columns);
    for (int32_t i = 0; i < g->nsorting_columns; i++) {
      chv_thrift_write_struct_begin(w);
      chv_thrift_write_field_i32(w, 1, g->sorting_columns[i].column_idx);
      chv_thrift_write_field_bool(w, 2, g->sorting_columns[i].descending);
      chv_thrift_write_field_bool(w, 3, g->sorting_columns[i].nulls_first);
      chv_thrift_write_struct_end(w);
    }
  }
  if (g->has_file_offset) chv_thrift_write_field_i64(w, 5, g->file_offset);
  if (g->has_total_compressed_size)
    chv_thrift_write_field_i64(w, 6, g->total_compressed_size);
  if (g->has_ordinal) {
    chv_thrift_write_field(w, 7, CHV_THRIFT_I16);
    chv_thrift_write_i16(w, g->ordinal);
  }
  chv_thrift_write_struct_end(w);
}

static int wr_status(wr *w, struct chv_error *err, const char *what) {
  int rc = chv_thrift_writer_status(w);
  if (rc == CHV_ENOMEM) return chv_error_set(err, rc, "out of memory");
  if (rc != CHV_OK)
    return chv_error_set(err, rc,
                         "cannot serialize the %s (a count or "
                         "length is out of range)",
                         what);
  return CHV_OK;
}

int chv_pq_file_meta_write(const struct chv_pq_file_meta *m,
                           struct chv_buf *out, struct chv_error *err) {
  wr w;
  chv_thrift_writer_init(&w, out);
  chv_thrift_write_struct_begin(&w);
  chv_thrift_write_field_i32(&w, 1, m->version);
  chv_thrift_write_field(&w, 2, CHV_THRIFT_LIST);
  chv_thrift_write_list_begin(&w, CHV_THRIFT_STRUCT, (uint32_t)m->nschema);
  for (int32_t i = 0; i < m->nschema; i++)
    wr_schema_element(&w, &m->schema[i]);
  chv_thrift_write_field_i64(&w, 3, m->num_rows);
  chv_thrift_write_field(&w, 4, CHV_THRIFT_LIST);
  chv_thrift_write_list_begin(&w, CHV_THRIFT_STRUCT, (uint32_t)m->nrow_groups);
  for (int32_t i = 0; i < m->nrow_groups; i++)
    wr_row_group(&w, &m->row_groups[i]);
  if (m->nkv) wr_kv_list(&w, 5, m->kv, m->nkv);
  if (m->created_by) chv_thrift_write_field_string(&w, 6, m->created_by);
  if (m->ncolumn_orders) {
    chv_thrift_write_field(&w, 7, CHV_THRIFT_LIST);
    chv_thrift_write_list_begin(&w, CHV_THRIFT_STRUCT,
                                (uint32_t)m->ncolumn_orders);
    for (int32_t i = 0; i < m->ncolumn_orders; i++) {
      chv_thrift_write_struct_begin(&w);
      if (m->column_orders[i] != CHV_PQ_ORDER_UNKNOWN)
        wr_empty_struct_field(&w, (int16_t)m->column_orders[i]);
      chv_thrift_write_struct_end(&w);
    }
  }
  chv_thrift_write_struct_end(&w);
  return wr_status(&w, err, "footer");
}

int chv_pq_footer_write(const struct chv_pq_file_meta *m, struct chv_buf *out,
                        struct chv_error *err) {
  size_t start = out->len;
  CHV_RETURN_IF_ERR(chv_pq_file_meta_write(m, out, err));
  size_t n = out->len - start;
  if (n > UINT32_MAX)
    return chv_error_set(err, CHV_ERANGE, "footer of %zu bytes is too large",
                         n);
  uint8_t tail[8] = {(uint8_t)n,
                     (uint8_t)(n >> 8),
                     (uint8_t)(n >> 16),
                     (uint8_t)(n >> 24),
                     'P',
                     'A',
                     'R',
                     '1'};
  if (chv_buf_append(out, tail, 8) != CHV_OK)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  return CHV_OK;
}

int chv_pq_page_header_write(const struct chv_pq_page_header *h,
                             struct chv_buf *out, struct chv_error *err) {
  wr w;
  chv_thrift_writer_init(&w, out);
  chv_thrift_write_struct_begin(&w);
  chv_thrift_write_field_i32(&w, 1, h->type);
  chv_thrift_write_field_i32(&w, 2, h->uncompressed_page_size);
  chv_thrift_write_field_i32(&w, 3, h->compressed_page_size);
  if (h->has_crc) chv_thrift_write_field_i32(&w, 4, (int32_t)h->crc);
  if (h->has_data_page) {
    const struct chv_pq_data_page_header *d = &h->data_page;
    chv_thrift_write_field(&w, 5, CHV_THRIFT_STRUCT);
    chv_thrift_write_struct_begin(&w);
    chv_thrift_write_field_i32(&w, 1, d->num_values);
    chv_thrift_write_field_i32(&w, 2, d->encoding);
    chv_thrift_write_field_i32(&w, 3, d->definition_level_encoding);
    chv_thrift_write_field_i32(&w, 4, d->repetition_level_encoding);
    if (d->has_statistics) wr_statistics(&w, 5, &d->statistics);
    chv_thrift_write_struct_end(&w);
  }
  if (h->has_index_page) wr_empty_struct_field(&w, 6);
  if (h->has_dictionary_page) {
    const struct chv_pq_dictionary_page_header *d = &h->dictionary_page;
    chv_thrift_write_field(&w, 7, CHV_THRIFT_STRUCT);
    chv_thrift_write_struct_begin(&w);
    chv_thrift_write_field_i32(&w, 1, d->num_values);
    chv_thrift_write_field_i32(&w, 2, d->encoding);
    if (d->has_is_sorted) chv_thrift_write_field_bool(&w, 3, d->is_sorted);
    chv_thrift_write_struct_end(&w);
  }
  if (h->has_data_page_v2) {
    const struct chv_pq_data_page_header_v2 *d = &h->data_page_v2;
    chv_thrift_write_field(&w, 8, CHV_THRIFT_STRUCT);
    chv_thrift_write_struct_begin(&w);
    chv_thrift_write_field_i32(&w, 1, d->num_values);
    chv_thrift_write_field_i32(&w, 2, d->num_nulls);
    chv_thrift_write_field_i32(&w, 3, d->num_rows);
    chv_thrift_write_field_i32(&w, 4, d->encoding);
    chv_thrift_write_field_i32(&w, 5, d->definition_levels_byte_length);
    chv_thrift_write_field_i32(&w, 6, d->repetition_levels_byte_length);
    /* true is the default; written only when false. */
    if (!d->is_compressed) chv_thrift_write_field_bool(&w, 7, false);
    if (d->has_statistics) wr_statistics(&w, 8, &d->statistics);
    chv_thrift_write_struct_end(&w);
  }
  chv_thrift_write_struct_end(&w);
  return wr_status(&w, err, "page header");
}

static void wr_i64_list(wr *w, int16_t id, const int64_t *a, int32_t n) {
  chv_thrift_write_field(w, id, CHV_THRIFT_LIST);
  chv_thrift_write_list_begin(w, CHV_THRIFT_I64, (uint32_t)n);
  for (int32_t i = 0; i < n; i++)
    chv_thrift_write_i64(w, a[i]);
}

int chv_pq_offset_index_write(const struct chv_pq_offset_index *x,
                              struct chv_buf *out, struct chv_error *err) {
  wr w;
  chv_thrift_writer_init(&w, out);
  chv_thrift_write_struct_begin(&w);
  chv_thrift_write_field(&w, 1, CHV_THRIFT_LIST);
  chv_thrift_write_list_begin(&w, CHV_THRIFT_STRUCT, (uint32_t)x->npages);
  for (int32_t i = 0; i < x->npages; i++) {
    chv_thrift_write_struct_begin(&w);
    chv_thrift_write_field_i64(&w, 1, x->pages[i].offset);
    chv_thrift_write_field_i32(&w, 2, x->pages[i].compressed_page_size);
    chv_thrift_write_field_i64(&w, 3, x->pages[i].first_row_index);
    chv_thrift_write_struct_end(&w);
  }
  if (x->nunencoded)
    wr_i64_list(&w, 2, x->unencoded_byte_array_data_bytes, x->nunencoded);
  chv_thrift_write_struct_end(&w);
  return wr_status(&w, err, "offset index");
}

int chv_pq_column_index_write(const struct chv_pq_column_index *x,
                              struct chv_buf *out, struct chv_error *err) {
  wr w;
  chv_thrift_writer_init(&w, out);
  chv_thrift_write_struct_begin(&w);
  chv_thrift_write_field(&w, 1, CHV_THRIFT_LIST);
  chv_thrift_write_list_begin(&w, CHV_THRIFT_BOOL, (uint32_t)x->npages);
  for (int32_t i = 0; i < x->npages; i++)
    chv_thrift_write_bool(&w, x->null_pages[i]);
  for (int16_t id = 2; id <= 3; id++) {
    const struct chv_pq_bytes *a = id == 2 ? x->min_values : x->max_values;
    chv_thrift_write_field(&w, id, CHV_THRIFT_LIST);
    chv_thrift_write_list_begin(&w, CHV_THRIFT_BINARY, (uint32_t)x->npages);
    for (int32_t i = 0; i < x->npages; i++)
      chv_thrift_write_binary(&w, a[i].data, a[i].len);
  }
  chv_thrift_write_field_i32(&w, 4, x->boundary_order);
  if (x->null_counts) wr_i64_list(&w, 5, x->null_counts, x->npages);
  if (x->nrep_histograms)
    wr_i64_list(&w, 6, x->repetition_level_histograms, x->nrep_histograms);
  if (x->ndef_histograms)
    wr_i64_list(&w, 7, x->definition_level_histograms, x->ndef_histograms);
  if (x->nan_counts) wr_i64_list(&w, 8, x->nan_counts, x->npages);
  chv_thrift_write_struct_end(&w);
  return wr_status(&w, err, "column index");
}
