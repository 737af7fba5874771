/*
** The ORC file tail, stripe footers and index streams read and written
** through the protobuf codec (see orc_int.h for the model and its
** contracts).
**
** Decoding.  One function per protobuf message reads its fields in
** whatever order they come, keeps the ones the model has and skips the
** others (also a known field whose wire type is not the expected one, as
** protobuf's parsers do).  A message with repeated fields is read twice:
** the first pass counts each repeated field's elements (packed scalars by
** their varints), the arrays are allocated from the arena at that size,
** the second pass fills them.  Counts come from bytes actually present, so
** a hostile input cannot ask for a large allocation: the arena grows at
** most by a constant factor of the input.  Strings and binaries are copied
** into the arena.
**
** Validation of a decoded footer (the type tree) and of the tail (lengths,
** stripes, rows) is done after decoding, so that messages can name the
** type or stripe at fault.
**
** Writing mirrors decoding field by field, in field number order, with the
** optional fields that are set.
**
** INTERFACE: chv_orc_input_*(), chv_orc_tail_open/_parse/_read/_close(),
** chv_orc_postscript_decode(), chv_orc_footer_decode(),
** chv_orc_types_check(), chv_orc_metadata_open/_close(),
** chv_orc_stripe_footer_read/_decode(), chv_orc_stripe_find_stream(),
** chv_orc_row_index_decode(), chv_orc_bloom_index_decode(),
** chv_orc_*_write(), chv_orc_tail_write(), chv_orc_*_name() (orc_int.h).
*/
#include "format/orc/orc_int.h"

#include "codec/protobuf.h"

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

NAME_FN(chv_orc_compression_name, CHV_ORC_COMPRESSION_MAP)
NAME_FN(chv_orc_stream_kind_name, CHV_ORC_STREAM_MAP)
NAME_FN(chv_orc_encoding_name, CHV_ORC_ENCODING_MAP)
NAME_FN(chv_orc_calendar_name, CHV_ORC_CALENDAR_MAP)

const char *chv_orc_kind_name(int32_t v) {
  switch (v) {
#define CHV_X_(name, val, text)                                                \
  case val:                                                                    \
    return text;
    CHV_ORC_KIND_MAP(CHV_X_)
#undef CHV_X_
  default:
    return "?";
  }
}

/* ---- file input -------------------------------------------------------- */

void chv_orc_input_memory(struct chv_orc_input *in, const void *data,
                          size_t size, const char *path) {
  in->data = data;
  in->file = NULL;
  in->size = (int64_t)size;
  in->path = path ? path : "(orc)";
}

int chv_orc_input_file(struct chv_orc_input *in, struct chv_file *f,
                       int64_t size, const char *path, struct chv_error *err) {
  if (size < 0) CHV_RETURN_IF_ERR(chv_file_size(f, &size, err));
  in->data = NULL;
  in->file = f;
  in->size = size;
  in->path = path ? path : (f->path ? f->path : "(orc)");
  return CHV_OK;
}

int chv_orc_input_read(const struct chv_orc_input *in, int64_t off, size_t n,
                       struct chv_buf *buf, const uint8_t **p,
                       struct chv_error *err) {
  if (off < 0 || off > in->size || (int64_t)n > in->size - off)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: bytes %" PRId64 " .. +%zu lie outside the file "
                         "of %" PRId64 " bytes",
                         in->path, off, n, in->size);
  if (in->data) {
    *p = in->data + off;
    return CHV_OK;
  }
  chv_buf_reset(buf);
  if (chv_buf_reserve(buf, n) != CHV_OK)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  size_t got;
  CHV_RETURN_IF_ERR(chv_file_pread(in->file, buf->data, n, off, &got, err));
  if (got != n)
    return chv_error_set(err, CHV_EIO,
                         "%s: short read of %zu bytes at offset %" PRId64
                         " (file shrank?)",
                         in->path, n, off);
  buf->len = n;
  buf->data[n] = '\0';
  *p = (const uint8_t *)buf->data;
  return CHV_OK;
}

/* ---- decoding helpers -------------------------------------------------- */

/* What a field callback returns, beside a status, to have the value passed
** over: an unknown field, or a known one with another wire type. */
#define SKIP 1

struct rd {
  chv_arena *arena;
  struct chv_error *err;
};

typedef int (*field_fn)(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                        unsigned w, void *obj);

static int oom(struct rd *d) {
  return chv_error_set(d->err, CHV_ENOMEM, "out of memory");
}

/* Read message m to its end, field by field. */
static int rd_fields(struct rd *d, struct chv_pb_reader *m, field_fn fn,
                     void *obj) {
  while (!chv_pb_reader_done(m)) {
    uint32_t f;
    unsigned w;
    CHV_RETURN_IF_ERR(chv_pb_read_key(m, &f, &w));
    int rc = fn(d, m, f, w, obj);
    if (rc == SKIP) rc = chv_pb_skip(m, w);
    if (rc != CHV_OK) return rc;
  }
  return CHV_OK;
}

/* A repeated field to count: its number, and the wire type of one element
** (LEN for messages, strings and bytes; VARINT, I32 or I64 for scalars,
** which may also come packed). */
struct rep {
  uint32_t field;
  unsigned elem;
  uint32_t count;
};

/* Count the elements of the repeated fields reps[0, n) in the message m
** (read from a copy: m is not moved). */
static int count_reps(struct chv_pb_reader m, struct rep *reps, int n) {
  for (int i = 0; i < n; i++)
    reps[i].count = 0;
  while (!chv_pb_reader_done(&m)) {
    uint32_t f;
    unsigned w;
    CHV_RETURN_IF_ERR(chv_pb_read_key(&m, &f, &w));
    struct rep *r = NULL;
    for (int i = 0; i < n; i++)
      if (reps[i].field == f) r = &reps[i];
    if (r && r->elem != CHV_PB_LEN && w == CHV_PB_LEN) {
      const uint8_t *p;
      size_t len;
      CHV_RETURN_IF_ERR(chv_pb_read_bytes(&m, &p, &len));
      if (r->elem == CHV_PB_VARINT) {
        r->count += (uint32_t)chv_pb_count_varints(p, len);
      } else {
        size_t width = r->elem == CHV_PB_I64 ? 8 : 4;
        if (len % width)
          return chv_pb_fail(&m,
                             "packed field %u of %zu bytes is not a "
                             "multiple of %zu",
                             f, len, width);
        r->count += (uint32_t)(len / width);
      }
      continue;
    }
    if (r && w == r->elem) r->count++;
    CHV_RETURN_IF_ERR(chv_pb_skip(&m, w));
  }
  return CHV_OK;
}

/* An array of n zeroed elements from the arena (NULL for n == 0). */
static int arr(struct rd *d, uint32_t n, size_t size, void *out) {
  void *p = NULL;
  if (n > 0) {
    if (size != 0 && n > SIZE_MAX / size) return oom(d);
    p = chv_arena_alloc(d->arena, (size_t)n * size);
    if (p == NULL) return oom(d);
    memset(p, 0, (size_t)n * size);
  }
  memcpy(out, &p, sizeof p);
  return CHV_OK;
}

static int f_u64(struct chv_pb_reader *m, unsigned w, uint64_t *v, bool *has) {
  if (w != CHV_PB_VARINT) return SKIP;
  if (has) *has = true;
  return chv_pb_read_varint(m, v);
}

static int f_u32(struct chv_pb_reader *m, unsigned w, uint32_t *v, bool *has) {
  if (w != CHV_PB_VARINT) return SKIP;
  if (has) *has = true;
  return chv_pb_read_uint32(m, v);
}

/* Enums are int32 varints. */
static int f_enum(struct chv_pb_reader *m, unsigned w, int32_t *v, bool *has) {
  if (w != CHV_PB_VARINT) return SKIP;
  if (has) *has = true;
  return chv_pb_read_int32(m, v);
}

static int f_s64(struct chv_pb_reader *m, unsigned w, int64_t *v, bool *has) {
  if (w != CHV_PB_VARINT) return SKIP;
  if (has) *has = true;
  return chv_pb_read_sint64(m, v);
}

static int f_s32(struct chv_pb_reader *m, unsigned w, int32_t *v, bool *has) {
  if (w != CHV_PB_VARINT) return SKIP;
  if (has) *has = true;
  return chv_pb_read_sint32(m, v);
}

static int f_bool(struct chv_pb_reader *m, unsigned w, bool *v, bool *has) {
  if (w != CHV_PB_VARINT) return SKIP;
  if (has) *has = true;
  return chv_pb_read_bool(m, v);
}

static int f_double(struct chv_pb_reader *m, unsigned w, double *v, bool *has) {
  if (w != CHV_PB_I64) return SKIP;
  if (has) *has = true;
  return chv_pb_read_double(m, v);
}

/* A LEN value copied into the arena, NUL-terminated. */
static int v_bytes(struct rd *d, struct chv_pb_reader *m,
                   struct chv_orc_bytes *out) {
  const uint8_t *p;
  size_t n;
  CHV_RETURN_IF_ERR(chv_pb_read_bytes(m, &p, &n));
  char *c = chv_arena_strndup(d->arena, (const char *)p, n);
  if (c == NULL) return oom(d);
  out->data = (const uint8_t *)c;
  out->len = (uint32_t)n;
  return CHV_OK;
}

static int f_bytes(struct rd *d, struct chv_pb_reader *m, unsigned w,
                   struct chv_orc_bytes *out, bool *has) {
  if (w != CHV_PB_LEN) return SKIP;
  if (has) *has = true;
  return v_bytes(d, m, out);
}

static int f_string(struct rd *d, struct chv_pb_reader *m, unsigned w,
                    const char **out) {
  if (w != CHV_PB_LEN) return SKIP;
  struct chv_orc_bytes b = {NULL, 0};
  CHV_RETURN_IF_ERR(v_bytes(d, m, &b));
  *out = (const char *)b.data;
  return CHV_OK;
}

typedef int (*msg_fn)(struct rd *d, struct chv_pb_reader *m, void *obj);

/* An embedded message read by fn into obj. */
static int f_msg(struct rd *d, struct chv_pb_reader *m, unsigned w, msg_fn fn,
                 void *obj) {
  if (w != CHV_PB_LEN) return SKIP;
  struct chv_pb_reader sub;
  CHV_RETURN_IF_ERR(chv_pb_read_message(m, &sub));
  return fn(d, &sub, obj);
}

/* The next slot of a counted array. */
static void *slot(void *base, uint32_t *n, uint32_t cap, size_t size) {
  if (*n >= cap) return NULL;
  return (char *)base + (size_t)(*n)++ * size;
}

static int overfull(struct rd *d) {
  return chv_error_set(d->err, CHV_EINTERNAL,
                       "orc: a repeated field outgrew its count");
}

/* Elements of a repeated scalar (packed or not) appended to a counted
** array: varints as uint64 or uint32, or fixed64. */
static int f_rep_u64(struct rd *d, struct chv_pb_reader *m, unsigned w,
                     uint64_t *a, uint32_t *n, uint32_t cap) {
  if (w != CHV_PB_LEN && w != CHV_PB_VARINT) return SKIP;
  struct chv_pb_reader sub;
  CHV_RETURN_IF_ERR(chv_pb_read_repeated_begin(m, w, CHV_PB_VARINT, &sub));
  while (!chv_pb_reader_done(&sub)) {
    /* The value first: a malformed one is an error of its own, while the
    ** count (from the same bytes) bounds the ones that read. */
    uint64_t v;
    CHV_RETURN_IF_ERR(chv_pb_read_varint(&sub, &v));
    uint64_t *s = slot(a, n, cap, sizeof *a);
    if (s == NULL) return overfull(d);
    *s = v;
  }
  return CHV_OK;
}

static int f_rep_u32(struct rd *d, struct chv_pb_reader *m, unsigned w,
                     uint32_t *a, uint32_t *n, uint32_t cap) {
  if (w != CHV_PB_LEN && w != CHV_PB_VARINT) return SKIP;
  struct chv_pb_reader sub;
  CHV_RETURN_IF_ERR(chv_pb_read_repeated_begin(m, w, CHV_PB_VARINT, &sub));
  while (!chv_pb_reader_done(&sub)) {
    /* The value first: a malformed one is an error of its own, while the
    ** count (from the same bytes) bounds the ones that read. */
    uint32_t v;
    CHV_RETURN_IF_ERR(chv_pb_read_uint32(&sub, &v));
    uint32_t *s = slot(a, n, cap, sizeof *a);
    if (s == NULL) return overfull(d);
    *s = v;
  }
  return CHV_OK;
}

static int f_rep_fixed64(struct rd *d, struct chv_pb_reader *m, unsigned w,
                         uint64_t *a, uint32_t *n, uint32_t cap) {
  if (w != CHV_PB_LEN && w != CHV_PB_I64) return SKIP;
  struct chv_pb_reader sub;
  CHV_RETURN_IF_ERR(chv_pb_read_repeated_begin(m, w, CHV_PB_I64, &sub));
  while (!chv_pb_reader_done(&sub)) {
    /* The value first: a malformed one is an error of its own, while the
    ** count (from the same bytes) bounds the ones that read. */
    uint64_t v;
    CHV_RETURN_IF_ERR(chv_pb_read_fixed64(&sub, &v));
    uint64_t *s = slot(a, n, cap, sizeof *a);
    if (s == NULL) return overfull(d);
    *s = v;
  }
  return CHV_OK;
}

/* ---- statistics -------------------------------------------------------- */

static int int_stats_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                           unsigned w, void *obj) {
  struct chv_orc_int_stats *s = obj;
  switch (f) {
  case 1:
    return f_s64(m, w, &s->min, &s->has_min);
  case 2:
    return f_s64(m, w, &s->max, &s->has_max);
  case 3:
    return f_s64(m, w, &s->sum, &s->has_sum);
  default:
    return SKIP;
  }
}

static int double_stats_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                              unsigned w, void *obj) {
  struct chv_orc_double_stats *s = obj;
  switch (f) {
  case 1:
    return f_double(m, w, &s->min, &s->has_min);
  case 2:
    return f_double(m, w, &s->max, &s->has_max);
  case 3:
    return f_double(m, w, &s->sum, &s->has_sum);
  default:
    return SKIP;
  }
}

static int string_stats_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                              unsigned w, void *obj) {
  struct chv_orc_string_stats *s = obj;
  switch (f) {
  case 1:
    return f_bytes(d, m, w, &s->min, &s->has_min);
  case 2:
    return f_bytes(d, m, w, &s->max, &s->has_max);
  case 3:
    return f_s64(m, w, &s->sum, &s->has_sum);
  case 4:
    return f_bytes(d, m, w, &s->lower_bound, &s->has_lower_bound);
  case 5:
    return f_bytes(d, m, w, &s->upper_bound, &s->has_upper_bound);
  default:
    return SKIP;
  }
}

struct bucket_ctx {
  struct chv_orc_bucket_stats *s;
  uint32_t cap;
};

static int bucket_stats_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                              unsigned w, void *obj) {
  struct bucket_ctx *c = obj;
  if (f != 1) return SKIP;
  return f_rep_u64(d, m, w, c->s->count, &c->s->ncount, c->cap);
}

static int decimal_stats_field(struct rd *d, struct chv_pb_reader *m,
                               uint32_t f, unsigned w, void *obj) {
  struct chv_orc_decimal_stats *s = obj;
  switch (f) {
  case 1:
    return f_string(d, m, w, &s->min);
  case 2:
    return f_string(d, m, w, &s->max);
  case 3:
    return f_string(d, m, w, &s->sum);
  default:
    return SKIP;
  }
}

static int date_stats_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                            unsigned w, void *obj) {
  struct chv_orc_date_stats *s = obj;
  switch (f) {
  case 1:
    return f_s32(m, w, &s->min, &s->has_min);
  case 2:
    return f_s32(m, w, &s->max, &s->has_max);
  default:
    return SKIP;
  }
}

static int timestamp_stats_field(struct rd *d, struct chv_pb_reader *m,
                                 uint32_t f, unsigned w, void *obj) {
  struct chv_orc_timestamp_stats *s = obj;
  switch (f) {
  case 1:
    return f_s64(m, w, &s->min, &s->has_min);
  case 2:
    return f_s64(m, w, &s->max, &s->has_max);
  case 3:
    return f_s64(m, w, &s->min_utc, &s->has_min_utc);
  case 4:
    return f_s64(m, w, &s->max_utc, &s->has_max_utc);
  case 5:
    return f_enum(m, w, &s->min_nanos, &s->has_min_nanos);
  case 6:
    return f_enum(m, w, &s->max_nanos, &s->has_max_nanos);
  default:
    return SKIP;
  }
}

static int binary_stats_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                              unsigned w, void *obj) {
  struct chv_orc_binary_stats *s = obj;
  if (f == 1) return f_s64(m, w, &s->sum, &s->has_sum);
  return SKIP;
}

static int collection_stats_field(struct rd *d, struct chv_pb_reader *m,
                                  uint32_t f, unsigned w, void *obj) {
  struct chv_orc_collection_stats *s = obj;
  switch (f) {
  case 1:
    return f_u64(m, w, &s->min_children, &s->has_min_children);
  case 2:
    return f_u64(m, w, &s->max_children, &s->has_max_children);
  case 3:
    return f_u64(m, w, &s->total_children, &s->has_total_children);
  default:
    return SKIP;
  }
}

/* A sub-message whose fields go to fn; *has is set. */
static int f_sub(struct rd *d, struct chv_pb_reader *m, unsigned w, field_fn fn,
                 void *obj, bool *has) {
  if (w != CHV_PB_LEN) return SKIP;
  struct chv_pb_reader sub;
  CHV_RETURN_IF_ERR(chv_pb_read_message(m, &sub));
  *has = true;
  return rd_fields(d, &sub, fn, obj);
}

static int rd_bucket(struct rd *d, struct chv_pb_reader *m,
                     struct chv_orc_bucket_stats *s) {
  struct rep r[1] = {{1, CHV_PB_VARINT, 0}};
  CHV_RETURN_IF_ERR(count_reps(*m, r, 1));
  /* A second occurrence of the field merges into the first (protobuf's
  ** rule for repeated fields): keep what is there and append. */
  uint32_t had = s->ncount;
  uint64_t *old = s->count;
  uint64_t *a;
  CHV_RETURN_IF_ERR(arr(d, had + r[0].count, sizeof *a, &a));
  if (had) memcpy(a, old, had * sizeof *a);
  s->count = a;
  struct bucket_ctx c = {s, had + r[0].count};
  return rd_fields(d, m, bucket_stats_field, &c);
}

static int column_stats_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                              unsigned w, void *obj) {
  struct chv_orc_column_stats *s = obj;
  switch (f) {
  case 1:
    return f_u64(m, w, &s->number_of_values, &s->has_number_of_values);
  case 2:
    return f_sub(d, m, w, int_stats_field, &s->int_stats, &s->has_int);
  case 3:
    return f_sub(d, m, w, double_stats_field, &s->double_stats, &s->has_double);
  case 4:
    return f_sub(d, m, w, string_stats_field, &s->string_stats, &s->has_string);
  case 5: {
    if (w != CHV_PB_LEN) return SKIP;
    struct chv_pb_reader sub;
    CHV_RETURN_IF_ERR(chv_pb_read_message(m, &sub));
    s->has_bucket = true;
    return rd_bucket(d, &sub, &s->bucket_stats);
  }
  case 6:
    return f_sub(d, m, w, decimal_stats_field, &s->decimal_stats,
                 &s->has_decimal);
  case 7:
    return f_sub(d, m, w, date_stats_field, &s->date_stats, &s->has_date);
  case 8:
    return f_sub(d, m, w, binary_stats_field, &s->binary_stats, &s->has_binary);
  case 9:
    return f_sub(d, m, w, timestamp_stats_field, &s->timestamp_stats,
                 &s->has_timestamp);
  case 10:
    return f_bool(m, w, &s->has_null, &s->has_has_null);
  case 11:
    return f_u64(m, w, &s->bytes_on_disk, &s->has_bytes_on_disk);
  case 12:
    return f_sub(d, m, w, collection_stats_field, &s->collection_stats,
                 &s->has_collection);
  case 13:
    if (w != CHV_PB_LEN) return SKIP;
    s->has_geospatial = true;
    return SKIP;
  default:
    return SKIP;
  }
}

static int rd_column_stats(struct rd *d, struct chv_pb_reader *m, void *obj) {
  return rd_fields(d, m, column_stats_field, obj);
}

/* ---- PostScript -------------------------------------------------------- */

struct ps_ctx {
  struct chv_orc_postscript *ps;
  bool bad_magic;
};

static int ps_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                    unsigned w, void *obj) {
  struct ps_ctx *c = obj;
  struct chv_orc_postscript *ps = c->ps;
  switch (f) {
  case 1:
    return f_u64(m, w, &ps->footer_length, NULL);
  case 2:
    return f_enum(m, w, &ps->compression, &ps->has_compression);
  case 3:
    return f_u64(m, w, &ps->compression_block_size,
                 &ps->has_compression_block_size);
  case 4: {
    if (w != CHV_PB_LEN && w != CHV_PB_VARINT) return SKIP;
    struct chv_pb_reader sub;
    CHV_RETURN_IF_ERR(chv_pb_read_repeated_begin(m, w, CHV_PB_VARINT, &sub));
    while (!chv_pb_reader_done(&sub)) {
      uint32_t v;
      CHV_RETURN_IF_ERR(chv_pb_read_uint32(&sub, &v));
      if (ps->nversion < 2) ps->version[ps->nversion] = v;
      if (ps->nversion < UINT32_MAX) ps->nversion++;
    }
    return CHV_OK;
  }
  case 5:
    return f_u64(m, w, &ps->metadata_length, NULL);
  case 6:
    return f_u32(m, w, &ps->writer_version, &ps->has_writer_version);
  case 7:
    return f_u64(m, w, &ps->stripe_statistics_length, NULL);
  case 8000: {
    if (w != CHV_PB_LEN) return SKIP;
    const uint8_t *p;
    size_t n;
    CHV_RETURN_IF_ERR(chv_pb_read_bytes(m, &p, &n));
    ps->has_magic = n == 3 && memcmp(p, CHV_ORC_MAGIC, 3) == 0;
    c->bad_magic = !ps->has_magic;
    return CHV_OK;
  }
  default:
    return SKIP;
  }
}

int chv_orc_postscript_decode(const void *p, size_t len, const char *path,
                              struct chv_orc_postscript *out,
                              struct chv_error *err) {
  if (path == NULL) path = "(orc)";
  struct chv_orc_postscript ps;
  memset(&ps, 0, sizeof ps);
  struct ps_ctx c = {&ps, false};
  struct rd d = {NULL, err};
  struct chv_pb_reader m;
  chv_pb_reader_init(&m, p, len, err);
  int rc = rd_fields(&d, &m, ps_field, &c);
  if (rc != CHV_OK) {
    if (rc != CHV_ENOMEM) chv_error_wrap(err, "%s: PostScript", path);
    return rc;
  }
  if (c.bad_magic)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: not an ORC file: the PostScript's magic is not "
                         "\"ORC\"",
                         path);
  *out = ps;
  return CHV_OK;
}

/* ---- Footer ------------------------------------------------------------ */

static int stripe_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                        unsigned w, void *obj) {
  struct chv_orc_stripe_info *s = obj;
  switch (f) {
  case 1:
    return f_u64(m, w, &s->offset, NULL);
  case 2:
    return f_u64(m, w, &s->index_length, NULL);
  case 3:
    return f_u64(m, w, &s->data_length, NULL);
  case 4:
    return f_u64(m, w, &s->footer_length, NULL);
  case 5:
    return f_u64(m, w, &s->number_of_rows, NULL);
  case 6:
    return f_u64(m, w, &s->encrypt_stripe_id, &s->has_encrypt_stripe_id);
  case 7:
    if (w == CHV_PB_LEN) s->nencrypted_local_keys++;
    return SKIP;
  default:
    return SKIP;
  }
}

static int rd_stripe(struct rd *d, struct chv_pb_reader *m, void *obj) {
  return rd_fields(d, m, stripe_field, obj);
}

static int kv_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                    unsigned w, void *obj) {
  struct chv_orc_kv *kv = obj;
  switch (f) {
  case 1: {
    struct chv_orc_bytes b = {NULL, 0};
    int rc = f_bytes(d, m, w, &b, NULL);
    if (rc == CHV_OK) {
      kv->key = (const char *)b.data;
      kv->key_len = b.len;
    }
    return rc;
  }
  case 2:
    return f_bytes(d, m, w, &kv->value, NULL);
  default:
    return SKIP;
  }
}

static int rd_kv(struct rd *d, struct chv_pb_reader *m, void *obj) {
  struct chv_orc_kv *kv = obj;
  kv->key = "";
  kv->value.data = (const uint8_t *)"";
  return rd_fields(d, m, kv_field, obj);
}

struct type_ctx {
  struct chv_orc_type *t;
  uint32_t cap_sub, cap_names, cap_attr;
};

static int type_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                      unsigned w, void *obj) {
  struct type_ctx *c = obj;
  struct chv_orc_type *t = c->t;
  switch (f) {
  case 1:
    return f_enum(m, w, &t->kind, NULL);
  case 2:
    return f_rep_u32(d, m, w, t->subtypes, &t->nsubtypes, c->cap_sub);
  case 3: {
    if (w != CHV_PB_LEN) return SKIP;
    const char **s =
        slot(t->field_names, &t->nfield_names, c->cap_names, sizeof *s);
    if (s == NULL) return overfull(d);
    return f_string(d, m, w, s);
  }
  case 4:
    return f_u32(m, w, &t->maximum_length, &t->has_maximum_length);
  case 5:
    return f_u32(m, w, &t->precision, &t->has_precision);
  case 6:
    return f_u32(m, w, &t->scale, &t->has_scale);
  case 7: {
    if (w != CHV_PB_LEN) return SKIP;
    struct chv_orc_kv *kv =
        slot(t->attributes, &t->nattributes, c->cap_attr, sizeof *kv);
    if (kv == NULL) return overfull(d);
    return f_msg(d, m, w, rd_kv, kv);
  }
  default:
    return SKIP;
  }
}

static int rd_type(struct rd *d, struct chv_pb_reader *m, void *obj) {
  struct chv_orc_type *t = obj;
  struct rep r[3] = {
      {2, CHV_PB_VARINT, 0}, {3, CHV_PB_LEN, 0}, {7, CHV_PB_LEN, 0}};
  CHV_RETURN_IF_ERR(count_reps(*m, r, 3));
  CHV_RETURN_IF_ERR(arr(d, r[0].count, sizeof *t->subtypes, &t->subtypes));
  CHV_RETURN_IF_ERR(
      arr(d, r[1].count, sizeof *t->field_names, &t->field_names));
  CHV_RETURN_IF_ERR(arr(d, r[2].count, sizeof *t->attributes, &t->attributes));
  struct type_ctx c = {t, r[0].count, r[1].count, r[2].count};
  return rd_fields(d, m, type_field, &c);
}

struct footer_ctx {
  struct chv_orc_footer *f;
  uint32_t cap_stripes, cap_types, cap_meta, cap_stats;
};

static int footer_field(struct rd *d, struct chv_pb_reader *m, uint32_t fn,
                        unsigned w, void *obj) {
  struct footer_ctx *c = obj;
  struct chv_orc_footer *f = c->f;
  void *s;
  switch (fn) {
  case 1:
    return f_u64(m, w, &f->header_length, &f->has_header_length);
  case 2:
    return f_u64(m, w, &f->content_length, &f->has_content_length);
  case 3:
    if (w != CHV_PB_LEN) return SKIP;
    if ((s = slot(f->stripes, &f->nstripes, c->cap_stripes,
                  sizeof *f->stripes)) == NULL)
      return overfull(d);
    return f_msg(d, m, w, rd_stripe, s);
  case 4:
    if (w != CHV_PB_LEN) return SKIP;
    if ((s = slot(f->types, &f->ntypes, c->cap_types, sizeof *f->types)) ==
        NULL)
      return overfull(d);
    return f_msg(d, m, w, rd_type, s);
  case 5:
    if (w != CHV_PB_LEN) return SKIP;
    if ((s = slot(f->metadata, &f->nmetadata, c->cap_meta,
                  sizeof *f->metadata)) == NULL)
      return overfull(d);
    return f_msg(d, m, w, rd_kv, s);
  case 6:
    return f_u64(m, w, &f->number_of_rows, &f->has_number_of_rows);
  case 7:
    if (w != CHV_PB_LEN) return SKIP;
    if ((s = slot(f->statistics, &f->nstatistics, c->cap_stats,
                  sizeof *f->statistics)) == NULL)
      return overfull(d);
    return f_msg(d, m, w, rd_column_stats, s);
  case 8:
    return f_u32(m, w, &f->row_index_stride, &f->has_row_index_stride);
  case 9:
    return f_u32(m, w, &f->writer, &f->has_writer);
  case 10:
    if (w == CHV_PB_LEN) f->has_encryption = true;
    return SKIP;
  case 11:
    return f_enum(m, w, &f->calendar, &f->has_calendar);
  case 12:
    return f_string(d, m, w, &f->software_version);
  default:
    return SKIP;
  }
}

int chv_orc_footer_decode(const void *p, size_t len, chv_arena *arena,
                          const char *path, struct chv_orc_footer *out,
                          struct chv_error *err) {
  if (path == NULL) path = "(orc)";
  struct chv_orc_footer f;
  memset(&f, 0, sizeof f);
  struct rd d = {arena, err};
  struct chv_pb_reader m;
  chv_pb_reader_init(&m, p, len, err);
  struct rep r[4] = {{3, CHV_PB_LEN, 0},
                     {4, CHV_PB_LEN, 0},
                     {5, CHV_PB_LEN, 0},
                     {7, CHV_PB_LEN, 0}};
  int rc = count_reps(m, r, 4);
  if (rc == CHV_OK) rc = arr(&d, r[0].count, sizeof *f.stripes, &f.stripes);
  if (rc == CHV_OK) rc = arr(&d, r[1].count, sizeof *f.types, &f.types);
  if (rc == CHV_OK) rc = arr(&d, r[2].count, sizeof *f.metadata, &f.metadata);
  if (rc == CHV_OK)
    rc = arr(&d, r[3].count, sizeof *f.statistics, &f.statistics);
  if (rc == CHV_OK) {
    struct footer_ctx c = {&f, r[0].count, r[1].count, r[2].count, r[3].count};
    rc = rd_fields(&d, &m, footer_field, &c);
  }
  if (rc != CHV_OK) {
    if (rc != CHV_ENOMEM) chv_error_wrap(err, "%s: footer", path);
    return rc;
  }
  CHV_RETURN_IF_ERR(chv_orc_types_check(&f, path, err));
  *out = f;
  return CHV_OK;
}

/* ---- the type tree ----------------------------------------------------- */

static bool kind_known(int32_t k) {
  return k >= CHV_ORC_KIND_BOOLEAN && k <= CHV_ORC_KIND_GEOGRAPHY;
}

/* Check the subtree of type id (its subtypes must be the ids that follow
** it in pre-order) and set its derived fields; *end gets the id after the
** subtree.  Recursion depth is bounded by CHV_ORC_MAX_DEPTH. */
static int check_type(struct chv_orc_footer *f, uint32_t id, uint32_t parent,
                      int depth, const char *path, uint32_t *end,
                      struct chv_error *err) {
  struct chv_orc_type *t = &f->types[id];
  const char *kn = chv_orc_kind_name(t->kind);
  if (!kind_known(t->kind))
    return chv_error_set(err, CHV_ENOTSUP,
                         "%s: type %" PRIu32 " has the unknown kind %d", path,
                         id, (int)t->kind);
  if (depth > CHV_ORC_MAX_DEPTH)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: types nest deeper than %d at type %" PRIu32, path,
                         CHV_ORC_MAX_DEPTH, id);
  t->id = id;
  t->parent = parent;
  t->depth = depth;
  uint32_t n = t->nsubtypes;
  switch (t->kind) {
  case CHV_ORC_KIND_LIST:
    if (n != 1)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: type %" PRIu32 " (array) has %" PRIu32
                           " subtypes, not 1",
                           path, id, n);
    break;
  case CHV_ORC_KIND_MAP:
    if (n != 2)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: type %" PRIu32 " (map) has %" PRIu32
                           " subtypes, not 2",
                           path, id, n);
    break;
  case CHV_ORC_KIND_UNION:
    if (n < 1 || n > CHV_ORC_MAX_UNION)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: type %" PRIu32 " (uniontype) has %" PRIu32
                           " variants, not 1..%d",
                           path, id, n, CHV_ORC_MAX_UNION);
    break;
  case CHV_ORC_KIND_STRUCT:
    if (t->nfield_names != n)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: type %" PRIu32 " (struct) has %" PRIu32
                           " subtypes and %" PRIu32 " field names",
                           path, id, n, t->nfield_names);
    break;
  default:
    if (n != 0)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: type %" PRIu32 " (%s) has %" PRIu32
                           " subtypes, not 0",
                           path, id, kn, n);
  }
  uint32_t next = id + 1;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t sub = t->subtypes[i];
    if (sub >= f->ntypes)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: type %" PRIu32 " (%s): subtype %" PRIu32
                           " is out of range (%" PRIu32 " types)",
                           path, id, kn, sub, f->ntypes);
    if (sub <= id)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: type %" PRIu32 " (%s): subtype %" PRIu32
                           " does not come after it",
                           path, id, kn, sub);
    if (sub != next)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: type %" PRIu32 " (%s): subtype %" PRIu32
                           " is not the next id (%" PRIu32 ")",
                           path, id, kn, sub, next);
    CHV_RETURN_IF_ERR(check_type(f, sub, id, depth + 1, path, &next, err));
  }
  t->end = next;
  *end = next;
  return CHV_OK;
}

int chv_orc_types_check(struct chv_orc_footer *f, const char *path,
                        struct chv_error *err) {
  if (path == NULL) path = "(orc)";
  if (f->ntypes == 0)
    return chv_error_set(err, CHV_ECORRUPT, "%s: the footer has no types",
                         path);
  uint32_t end;
  CHV_RETURN_IF_ERR(check_type(f, 0, UINT32_MAX, 0, path, &end, err));
  if (end != f->ntypes)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: types %" PRIu32 " .. %" PRIu32
                         " are not in the type tree",
                         path, end, f->ntypes - 1);
  return CHV_OK;
}

/* ---- the tail ---------------------------------------------------------- */

static int empty_tail(chv_arena *arena, const char *path,
                      struct chv_orc_tail **out, struct chv_error *err) {
  struct chv_orc_tail *t = chv_arena_alloc(arena, sizeof *t);
  struct chv_orc_type *root = chv_arena_alloc(arena, sizeof *root);
  const char *p = chv_arena_strndup(arena, path, strlen(path));
  if (t == NULL || root == NULL || p == NULL) {
    chv_arena_close(arena);
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  memset(t, 0, sizeof *t);
  memset(root, 0, sizeof *root);
  root->kind = CHV_ORC_KIND_STRUCT;
  root->parent = UINT32_MAX;
  root->end = 1;
  t->path = p;
  t->empty_file = true;
  t->footer.ntypes = 1;
  t->footer.types = root;
  t->version = CHV_ORC_V0_12;
  t->compression = CHV_ORC_COMP_NONE;
  t->block_size = CHV_ORC_DEFAULT_BLOCK_SIZE;
  t->arena = arena;
  *out = t;
  return CHV_OK;
}

static int check_version(struct chv_orc_tail *t, struct chv_error *err) {
  const struct chv_orc_postscript *ps = &t->ps;
  if (ps->nversion == 0) {
    t->version = CHV_ORC_V0_11;
    return CHV_OK;
  }
  if (ps->nversion >= 2) {
    uint32_t a = ps->version[0], b = ps->version[1];
    if (a == 0 && b == 11) {
      t->version = CHV_ORC_V0_11;
      return CHV_OK;
    }
    if (a == 0 && b == 12) {
      t->version = CHV_ORC_V0_12;
      return CHV_OK;
    }
    if (a == 1 && b == 9999) {
      t->version = CHV_ORC_V_UNSTABLE_2;
      return CHV_OK;
    }
    return chv_error_set(err, CHV_ENOTSUP,
                         "%s: written by a future ORC version %" PRIu32
                         ".%" PRIu32 " (this reader knows 0.11, 0.12 and "
                         "1.9999)",
                         t->path, a, b);
  }
  return chv_error_set(err, CHV_ENOTSUP,
                       "%s: written by an unknown ORC version %" PRIu32,
                       t->path, ps->version[0]);
}

/* Lengths of the PostScript's sections, against the file. */
static int check_layout(struct chv_orc_tail *t, struct chv_error *err) {
  const struct chv_orc_postscript *ps = &t->ps;
  int64_t room = t->file_size - 1 - (int64_t)t->postscript_length -
                 (int64_t)strlen(CHV_ORC_MAGIC);
  const struct {
    const char *what;
    uint64_t len;
  } parts[3] = {{"footer", ps->footer_length},
                {"metadata", ps->metadata_length},
                {"stripe statistics", ps->stripe_statistics_length}};
  for (int i = 0; i < 3; i++) {
    if (parts[i].len > (uint64_t)room)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: %s length %" PRIu64 " exceeds the %" PRId64
                           " bytes between the header and the PostScript",
                           t->path, parts[i].what, parts[i].len, room);
    if ((int64_t)parts[i].len > CHV_ORC_MAX_SECTION)
      return chv_error_set(
          err, CHV_ECORRUPT,
          "%s: %s length %" PRIu64 " exceeds the limit of %" PRId64 " bytes",
          t->path, parts[i].what, parts[i].len, CHV_ORC_MAX_SECTION);
    room -= (int64_t)parts[i].len;
  }
  t->footer_offset = t->file_size - 1 - (int64_t)t->postscript_length -
                     (int64_t)ps->footer_length;
  t->metadata_offset = t->footer_offset - (int64_t)ps->metadata_length;
  t->stripe_statistics_offset =
      t->metadata_offset - (int64_t)ps->stripe_statistics_length;
  t->content_end = t->stripe_statistics_offset;
  return CHV_OK;
}

/* Stripes inside [3, content_end), ascending, not overlapping; rows. */
static int check_stripes(struct chv_orc_tail *t, struct chv_error *err) {
  const struct chv_orc_footer *f = &t->footer;
  uint64_t prev_end = strlen(CHV_ORC_MAGIC);
  uint64_t rows = 0;
  for (uint32_t i = 0; i < f->nstripes; i++) {
    struct chv_orc_stripe_info *s = &f->stripes[i];
    uint64_t len = s->index_length, end = s->offset;
    bool over = __builtin_add_overflow(len, s->data_length, &len) ||
                __builtin_add_overflow(len, s->footer_length, &len) ||
                __builtin_add_overflow(end, len, &end);
    if (over || end > (uint64_t)t->content_end)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: stripe %" PRIu32 " at offset %" PRIu64
                           " (index %" PRIu64 ", data %" PRIu64
                           ", footer %" PRIu64 " bytes) runs past the "
                           "stripes' end at %" PRId64,
                           t->path, i, s->offset, s->index_length,
                           s->data_length, s->footer_length, t->content_end);
    if (s->offset < prev_end)
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: stripe %" PRIu32 " at offset %" PRIu64
                           " overlaps %s ending at %" PRIu64,
                           t->path, i, s->offset,
                           i ? "the stripe before it" : "the header", prev_end);
    prev_end = end;
    s->first_row = rows;
    if (__builtin_add_overflow(rows, s->number_of_rows, &rows))
      return chv_error_set(err, CHV_ECORRUPT,
                           "%s: the stripes' row counts overflow", t->path);
  }
  if (f->has_number_of_rows && f->number_of_rows != rows)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: the footer says %" PRIu64
                         " rows, its stripes hold %" PRIu64,
                         t->path, f->number_of_rows, rows);
  t->nrows = rows;
  return CHV_OK;
}

/* A section [off, off + len) of the file, decompressed into out; tail
** holds the last tail_len bytes of the file (read already). */
static int read_section(const struct chv_orc_input *in, chv_orc_codec *codec,
                        int64_t off, uint64_t len, const uint8_t *tail,
                        size_t tail_len, const char *what, struct chv_buf *tmp,
                        struct chv_buf *out, struct chv_error *err) {
  const uint8_t *p;
  int64_t tail_off = in->size - (int64_t)tail_len;
  if (tail && off >= tail_off)
    p = tail + (off - tail_off);
  else
    CHV_RETURN_IF_ERR(chv_orc_input_read(in, off, (size_t)len, tmp, &p, err));
  char name[600];
  snprintf(name, sizeof name, "%s: %s", in->path, what);
  return chv_orc_decompress_all(codec, p, (size_t)len, CHV_ORC_MAX_SECTION,
                                name, out, err);
}

int chv_orc_tail_open(const struct chv_orc_input *in, struct chv_orc_tail **out,
                      struct chv_error *err) {
  const char *path = in->path ? in->path : "(orc)";
  chv_arena *arena;
  if (chv_arena_open(0, &arena) != CHV_OK)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  if (in->size == 0) return empty_tail(arena, path, out, err);

  struct chv_buf tailbuf, tmp, sect;
  chv_buf_init(&tailbuf);
  chv_buf_init(&tmp);
  chv_buf_init(&sect);
  chv_orc_codec *codec = NULL;
  int rc;
  struct chv_orc_tail *t = chv_arena_alloc(arena, sizeof *t);
  const char *pcopy = chv_arena_strndup(arena, path, strlen(path));
  if (t == NULL || pcopy == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out_free;
  }
  memset(t, 0, sizeof *t);
  t->path = pcopy;
  t->arena = arena;
  t->file_size = in->size;

  size_t tail_len = (size_t)CHV_MIN(in->size, (int64_t)CHV_ORC_TAIL_READ_SIZE);
  const uint8_t *tail;
  rc = chv_orc_input_read(in, in->size - (int64_t)tail_len, tail_len, &tailbuf,
                          &tail, err);
  if (rc != CHV_OK) goto out_free;
  uint32_t pslen = tail[tail_len - 1];
  if (pslen == 0 || (size_t)pslen + 1 > tail_len) {
    rc = chv_error_set(err, CHV_ECORRUPT,
                       "%s: not an ORC file: PostScript length %" PRIu32
                       " in a file of %" PRId64 " bytes",
                       path, pslen, in->size);
    goto out_free;
  }
  t->postscript_length = pslen;
  rc = chv_orc_postscript_decode(tail + tail_len - 1 - pslen, pslen, path,
                                 &t->ps, err);
  if (rc != CHV_OK) goto out_free;
  if (!t->ps.has_magic) {
    /* Early Hive 0.11 writers left the magic out of the PostScript: the
    ** file must then start with it. */
    const uint8_t *head;
    if (in->size < 3 ||
        chv_orc_input_read(in, 0, 3, &tmp, &head, NULL) != CHV_OK ||
        memcmp(head, CHV_ORC_MAGIC, 3) != 0) {
      rc = chv_error_set(err, CHV_ECORRUPT,
                         "%s: not an ORC file: no \"ORC\" magic", path);
      goto out_free;
    }
  }
  rc = check_version(t, err);
  if (rc != CHV_OK) goto out_free;
  t->compression = t->ps.compression;
  if (t->compression < CHV_ORC_COMP_NONE ||
      t->compression > CHV_ORC_COMP_BROTLI) {
    rc = chv_error_set(err, CHV_ENOTSUP, "%s: unknown compression kind %d",
                       path, (int)t->compression);
    goto out_free;
  }
  t->block_size = t->ps.has_compression_block_size
                      ? t->ps.compression_block_size
                      : CHV_ORC_DEFAULT_BLOCK_SIZE;
  if (t->compression != CHV_ORC_COMP_NONE) {
    if (t->block_size == 0) {
      rc = chv_error_set(err, CHV_ECORRUPT, "%s: compression block size 0",
                         path);
      goto out_free;
    }
    if (t->block_size > CHV_ORC_MAX_BLOCK_SIZE) {
      rc = chv_error_set(err, CHV_ENOTSUP,
                         "%s: compression block size %" PRIu64
                         " exceeds the supported %d bytes",
                         path, t->block_size, CHV_ORC_MAX_BLOCK_SIZE);
      goto out_free;
    }
  } else if (t->block_size == 0 || t->block_size > CHV_ORC_MAX_BLOCK_SIZE) {
    /* Not used without compression. */
    t->block_size = CHV_ORC_DEFAULT_BLOCK_SIZE;
  }
  rc = check_layout(t, err);
  if (rc != CHV_OK) goto out_free;

  rc = chv_orc_tail_codec_open(t, &codec, err);
  if (rc != CHV_OK) goto out_free;
  rc = read_section(in, codec, t->footer_offset, t->ps.footer_length, tail,
                    tail_len, "footer", &tmp, &sect, err);
  if (rc != CHV_OK) goto out_free;
  rc = chv_orc_footer_decode(sect.data, sect.len, arena, path, &t->footer, err);
  if (rc != CHV_OK) goto out_free;
  if (t->footer.has_encryption) {
    rc = chv_error_set(err, CHV_ENOTSUP,
                       "%s: ORC column encryption is not supported", path);
    goto out_free;
  }
  rc = check_stripes(t, err);
  if (rc != CHV_OK) goto out_free;
  *out = t;
  arena = NULL;
out_free:
  chv_orc_codec_close(codec);
  chv_buf_free(&sect);
  chv_buf_free(&tmp);
  chv_buf_free(&tailbuf);
  chv_arena_close(arena);
  return rc;
}

int chv_orc_tail_parse(const void *file, size_t size, const char *path,
                       struct chv_orc_tail **out, struct chv_error *err) {
  struct chv_orc_input in;
  chv_orc_input_memory(&in, file, size, path);
  return chv_orc_tail_open(&in, out, err);
}

int chv_orc_tail_read(struct chv_file *f, int64_t size, const char *path,
                      struct chv_orc_tail **out, struct chv_error *err) {
  struct chv_orc_input in;
  CHV_RETURN_IF_ERR(chv_orc_input_file(&in, f, size, path, err));
  return chv_orc_tail_open(&in, out, err);
}

void chv_orc_tail_close(struct chv_orc_tail *t) {
  if (t) chv_arena_close(t->arena);
}

/* ---- Metadata ---------------------------------------------------------- */

struct sstats_ctx {
  struct chv_orc_stripe_stats *s;
  uint32_t cap;
};

static int sstats_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                        unsigned w, void *obj) {
  struct sstats_ctx *c = obj;
  if (f != 1 || w != CHV_PB_LEN) return SKIP;
  void *s = slot(c->s->columns, &c->s->ncolumns, c->cap, sizeof *c->s->columns);
  if (s == NULL) return overfull(d);
  return f_msg(d, m, w, rd_column_stats, s);
}

static int rd_sstats(struct rd *d, struct chv_pb_reader *m, void *obj) {
  struct chv_orc_stripe_stats *s = obj;
  struct rep r[1] = {{1, CHV_PB_LEN, 0}};
  CHV_RETURN_IF_ERR(count_reps(*m, r, 1));
  CHV_RETURN_IF_ERR(arr(d, r[0].count, sizeof *s->columns, &s->columns));
  struct sstats_ctx c = {s, r[0].count};
  return rd_fields(d, m, sstats_field, &c);
}

struct meta_ctx {
  struct chv_orc_metadata *m;
  uint32_t cap;
};

static int meta_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                      unsigned w, void *obj) {
  struct meta_ctx *c = obj;
  if (f != 1 || w != CHV_PB_LEN) return SKIP;
  void *s = slot(c->m->stripes, &c->m->nstripes, c->cap, sizeof *c->m->stripes);
  if (s == NULL) return overfull(d);
  return f_msg(d, m, w, rd_sstats, s);
}

int chv_orc_metadata_open(const struct chv_orc_tail *t,
                          const struct chv_orc_input *in,
                          struct chv_orc_metadata **out,
                          struct chv_error *err) {
  chv_arena *arena;
  if (chv_arena_open(0, &arena) != CHV_OK)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  struct chv_buf tmp, sect;
  chv_buf_init(&tmp);
  chv_buf_init(&sect);
  chv_orc_codec *codec = NULL;
  int rc = CHV_OK;
  struct chv_orc_metadata *md = chv_arena_alloc(arena, sizeof *md);
  if (md == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out_free;
  }
  memset(md, 0, sizeof *md);
  md->arena = arena;
  if (!t->empty_file && t->ps.metadata_length > 0) {
    rc = chv_orc_tail_codec_open(t, &codec, err);
    if (rc != CHV_OK) goto out_free;
    rc = read_section(in, codec, t->metadata_offset, t->ps.metadata_length,
                      NULL, 0, "metadata", &tmp, &sect, err);
    if (rc != CHV_OK) goto out_free;
    struct rd d = {arena, err};
    struct chv_pb_reader m;
    chv_pb_reader_init(&m, sect.data, sect.len, err);
    struct rep r[1] = {{1, CHV_PB_LEN, 0}};
    rc = count_reps(m, r, 1);
    if (rc == CHV_OK)
      rc = arr(&d, r[0].count, sizeof *md->stripes, &md->stripes);
    if (rc == CHV_OK) {
      struct meta_ctx c = {md, r[0].count};
      rc = rd_fields(&d, &m, meta_field, &c);
    }
    if (rc != CHV_OK) {
      if (rc != CHV_ENOMEM) chv_error_wrap(err, "%s: metadata", t->path);
      goto out_free;
    }
    if (md->nstripes != 0 && md->nstripes != t->footer.nstripes) {
      rc = chv_error_set(err, CHV_ECORRUPT,
                         "%s: metadata: statistics of %" PRIu32
                         " stripes for %" PRIu32 " stripes",
                         t->path, md->nstripes, t->footer.nstripes);
      goto out_free;
    }
  }
  *out = md;
  arena = NULL;
out_free:
  chv_orc_codec_close(codec);
  chv_buf_free(&sect);
  chv_buf_free(&tmp);
  chv_arena_close(arena);
  return rc;
}

void chv_orc_metadata_close(struct chv_orc_metadata *m) {
  if (m) chv_arena_close(m->arena);
}

/* ---- stripe footers ---------------------------------------------------- */

static int stream_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                        unsigned w, void *obj) {
  struct chv_orc_stream_info *s = obj;
  switch (f) {
  case 1:
    return f_enum(m, w, &s->kind, NULL);
  case 2:
    return f_u32(m, w, &s->column, NULL);
  case 3:
    return f_u64(m, w, &s->length, NULL);
  default:
    return SKIP;
  }
}

static int rd_stream(struct rd *d, struct chv_pb_reader *m, void *obj) {
  return rd_fields(d, m, stream_field, obj);
}

static int encoding_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                          unsigned w, void *obj) {
  struct chv_orc_encoding *e = obj;
  switch (f) {
  case 1:
    return f_enum(m, w, &e->kind, NULL);
  case 2:
    return f_u32(m, w, &e->dictionary_size, &e->has_dictionary_size);
  case 3:
    return f_u32(m, w, &e->bloom_encoding, &e->has_bloom_encoding);
  default:
    return SKIP;
  }
}

static int rd_encoding(struct rd *d, struct chv_pb_reader *m, void *obj) {
  return rd_fields(d, m, encoding_field, obj);
}

struct sf_ctx {
  struct chv_orc_stripe_footer *sf;
  uint32_t cap_streams, cap_columns;
};

static int sf_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                    unsigned w, void *obj) {
  struct sf_ctx *c = obj;
  struct chv_orc_stripe_footer *sf = c->sf;
  void *s;
  switch (f) {
  case 1:
    if (w != CHV_PB_LEN) return SKIP;
    if ((s = slot(sf->streams, &sf->nstreams, c->cap_streams,
                  sizeof *sf->streams)) == NULL)
      return overfull(d);
    return f_msg(d, m, w, rd_stream, s);
  case 2:
    if (w != CHV_PB_LEN) return SKIP;
    if ((s = slot(sf->columns, &sf->ncolumns, c->cap_columns,
                  sizeof *sf->columns)) == NULL)
      return overfull(d);
    return f_msg(d, m, w, rd_encoding, s);
  case 3:
    return f_string(d, m, w, &sf->writer_timezone);
  case 4:
    if (w == CHV_PB_LEN) sf->nencryption++;
    return SKIP;
  default:
    return SKIP;
  }
}

int chv_orc_stripe_footer_decode(const struct chv_orc_tail *t,
                                 chv_orc_codec *codec, uint32_t stripe,
                                 const void *p, size_t len, chv_arena *arena,
                                 struct chv_orc_stripe_footer *out,
                                 struct chv_error *err) {
  if (stripe >= t->footer.nstripes)
    return chv_error_set(err, CHV_EINVAL, "%s: stripe %" PRIu32 " of %" PRIu32,
                         t->path, stripe, t->footer.nstripes);
  const struct chv_orc_stripe_info *si = &t->footer.stripes[stripe];
  char what[600];
  snprintf(what, sizeof what, "%s: stripe %" PRIu32 " footer", t->path, stripe);
  struct chv_buf sect;
  chv_buf_init(&sect);
  int rc = chv_orc_decompress_all(codec, p, len, CHV_ORC_MAX_SECTION, what,
                                  &sect, err);
  if (rc != CHV_OK) goto out_free;
  struct chv_orc_stripe_footer sf;
  memset(&sf, 0, sizeof sf);
  struct rd d = {arena, err};
  struct chv_pb_reader m;
  chv_pb_reader_init(&m, sect.data, sect.len, err);
  struct rep r[2] = {{1, CHV_PB_LEN, 0}, {2, CHV_PB_LEN, 0}};
  rc = count_reps(m, r, 2);
  if (rc == CHV_OK) rc = arr(&d, r[0].count, sizeof *sf.streams, &sf.streams);
  if (rc == CHV_OK) rc = arr(&d, r[1].count, sizeof *sf.columns, &sf.columns);
  if (rc == CHV_OK) {
    struct sf_ctx c = {&sf, r[0].count, r[1].count};
    rc = rd_fields(&d, &m, sf_field, &c);
  }
  if (rc != CHV_OK) {
    if (rc != CHV_ENOMEM) chv_error_wrap(err, "%s", what);
    goto out_free;
  }
  if (sf.ncolumns != t->footer.ntypes) {
    rc = chv_error_set(err, CHV_ECORRUPT,
                       "%s: %" PRIu32 " column encodings for %" PRIu32
                       " columns",
                       what, sf.ncolumns, t->footer.ntypes);
    goto out_free;
  }
  /* Streams lie back to back from the stripe's start, index streams
  ** first; together they fill the index and data parts exactly. */
  uint64_t off = si->offset, total = 0;
  uint64_t parts = si->index_length + si->data_length; /* checked by tail */
  for (uint32_t i = 0; i < sf.nstreams; i++) {
    struct chv_orc_stream_info *s = &sf.streams[i];
    if (s->column >= t->footer.ntypes) {
      rc = chv_error_set(err, CHV_ECORRUPT,
                         "%s: stream %" PRIu32 " (%s) names column %" PRIu32
                         " of %" PRIu32,
                         what, i, chv_orc_stream_kind_name(s->kind), s->column,
                         t->footer.ntypes);
      goto out_free;
    }
    if (s->length > parts - total) {
      rc = chv_error_set(err, CHV_ECORRUPT,
                         "%s: stream %" PRIu32 " (column %" PRIu32
                         " %s, %" PRIu64 " bytes) runs past the stripe's "
                         "%" PRIu64 " bytes of index and data",
                         what, i, s->column, chv_orc_stream_kind_name(s->kind),
                         s->length, parts);
      goto out_free;
    }
    s->offset = off;
    off += s->length;
    total += s->length;
  }
  if (total != parts) {
    rc = chv_error_set(err, CHV_ECORRUPT,
                       "%s: streams of %" PRIu64 " bytes for %" PRIu64
                       " bytes of index and data",
                       what, total, parts);
    goto out_free;
  }
  *out = sf;
out_free:
  chv_buf_free(&sect);
  return rc;
}

int chv_orc_stripe_footer_read(const struct chv_orc_tail *t,
                               const struct chv_orc_input *in,
                               chv_orc_codec *codec, uint32_t stripe,
                               chv_arena *arena,
                               struct chv_orc_stripe_footer *out,
                               struct chv_error *err) {
  if (stripe >= t->footer.nstripes)
    return chv_error_set(err, CHV_EINVAL, "%s: stripe %" PRIu32 " of %" PRIu32,
                         t->path, stripe, t->footer.nstripes);
  const struct chv_orc_stripe_info *si = &t->footer.stripes[stripe];
  if ((int64_t)si->footer_length > CHV_ORC_MAX_SECTION)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: stripe %" PRIu32 " footer length %" PRIu64
                         " exceeds the limit of %" PRId64 " bytes",
                         t->path, stripe, si->footer_length,
                         CHV_ORC_MAX_SECTION);
  struct chv_buf tmp;
  chv_buf_init(&tmp);
  const uint8_t *p;
  int64_t off = (int64_t)(si->offset + si->index_length + si->data_length);
  int rc =
      chv_orc_input_read(in, off, (size_t)si->footer_length, &tmp, &p, err);
  if (rc == CHV_OK)
    rc = chv_orc_stripe_footer_decode(
        t, codec, stripe, p, (size_t)si->footer_length, arena, out, err);
  chv_buf_free(&tmp);
  return rc;
}

const struct chv_orc_stream_info *
chv_orc_stripe_find_stream(const struct chv_orc_stripe_footer *sf,
                           uint32_t column, int32_t kind) {
  for (uint32_t i = 0; i < sf->nstreams; i++)
    if (sf->streams[i].column == column && sf->streams[i].kind == kind)
      return &sf->streams[i];
  return NULL;
}

/* ---- index streams ----------------------------------------------------- */

struct entry_ctx {
  struct chv_orc_row_index_entry *e;
  uint32_t cap;
};

static int entry_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                       unsigned w, void *obj) {
  struct entry_ctx *c = obj;
  switch (f) {
  case 1:
    return f_rep_u64(d, m, w, c->e->positions, &c->e->npositions, c->cap);
  case 2:
    if (w != CHV_PB_LEN) return SKIP;
    if (c->e->statistics == NULL) {
      CHV_RETURN_IF_ERR(arr(d, 1, sizeof *c->e->statistics, &c->e->statistics));
    }
    return f_msg(d, m, w, rd_column_stats, c->e->statistics);
  default:
    return SKIP;
  }
}

static int rd_entry(struct rd *d, struct chv_pb_reader *m, void *obj) {
  struct chv_orc_row_index_entry *e = obj;
  struct rep r[1] = {{1, CHV_PB_VARINT, 0}};
  CHV_RETURN_IF_ERR(count_reps(*m, r, 1));
  CHV_RETURN_IF_ERR(arr(d, r[0].count, sizeof *e->positions, &e->positions));
  struct entry_ctx c = {e, r[0].count};
  return rd_fields(d, m, entry_field, &c);
}

struct ri_ctx {
  struct chv_orc_row_index *x;
  uint32_t cap;
};

static int ri_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                    unsigned w, void *obj) {
  struct ri_ctx *c = obj;
  if (f != 1 || w != CHV_PB_LEN) return SKIP;
  void *s = slot(c->x->entries, &c->x->nentries, c->cap, sizeof *c->x->entries);
  if (s == NULL) return overfull(d);
  return f_msg(d, m, w, rd_entry, s);
}

struct bf_ctx {
  struct chv_orc_bloom_filter *b;
  uint32_t cap;
};

static int bf_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                    unsigned w, void *obj) {
  struct bf_ctx *c = obj;
  switch (f) {
  case 1:
    return f_u32(m, w, &c->b->num_hash_functions, NULL);
  case 2:
    return f_rep_fixed64(d, m, w, c->b->bitset, &c->b->nbitset, c->cap);
  case 3:
    return f_bytes(d, m, w, &c->b->utf8bitset, NULL);
  default:
    return SKIP;
  }
}

static int rd_bf(struct rd *d, struct chv_pb_reader *m, void *obj) {
  struct chv_orc_bloom_filter *b = obj;
  struct rep r[1] = {{2, CHV_PB_I64, 0}};
  CHV_RETURN_IF_ERR(count_reps(*m, r, 1));
  CHV_RETURN_IF_ERR(arr(d, r[0].count, sizeof *b->bitset, &b->bitset));
  struct bf_ctx c = {b, r[0].count};
  /* Odd filters (some early Hive writers used other fields) decode as
  ** they are; chv_orc_bloom_filter_usable() tells whether to use them. */
  return rd_fields(d, m, bf_field, &c);
}

bool chv_orc_bloom_filter_usable(const struct chv_orc_bloom_filter *b) {
  if (b->num_hash_functions == 0 ||
      b->num_hash_functions > CHV_ORC_MAX_BLOOM_HASHES)
    return false;
  if (b->utf8bitset.len > 0) return b->utf8bitset.len % 8 == 0;
  return b->nbitset > 0;
}

struct bi_ctx {
  struct chv_orc_bloom_index *x;
  uint32_t cap;
};

static int bi_field(struct rd *d, struct chv_pb_reader *m, uint32_t f,
                    unsigned w, void *obj) {
  struct bi_ctx *c = obj;
  if (f != 1 || w != CHV_PB_LEN) return SKIP;
  void *s = slot(c->x->filters, &c->x->nfilters, c->cap, sizeof *c->x->filters);
  if (s == NULL) return overfull(d);
  return f_msg(d, m, w, rd_bf, s);
}

/* Decompress an index stream and decode its message with the top-level
** repeated field 1 (entries or filters) counted first. */
static int index_decode(chv_orc_codec *codec, const void *p, size_t len,
                        chv_arena *arena, const char *what, bool bloom,
                        void *out, struct chv_error *err) {
  if (what == NULL) what = "(orc index)";
  struct chv_buf sect;
  chv_buf_init(&sect);
  int rc = chv_orc_decompress_all(codec, p, len, CHV_ORC_MAX_SECTION, what,
                                  &sect, err);
  if (rc != CHV_OK) goto out_free;
  struct rd d = {arena, err};
  struct chv_pb_reader m;
  chv_pb_reader_init(&m, sect.data, sect.len, err);
  struct rep r[1] = {{1, CHV_PB_LEN, 0}};
  rc = count_reps(m, r, 1);
  if (rc == CHV_OK && bloom) {
    struct chv_orc_bloom_index x;
    memset(&x, 0, sizeof x);
    rc = arr(&d, r[0].count, sizeof *x.filters, &x.filters);
    struct bi_ctx c = {&x, r[0].count};
    if (rc == CHV_OK) rc = rd_fields(&d, &m, bi_field, &c);
    if (rc == CHV_OK) memcpy(out, &x, sizeof x);
  } else if (rc == CHV_OK) {
    struct chv_orc_row_index x;
    memset(&x, 0, sizeof x);
    rc = arr(&d, r[0].count, sizeof *x.entries, &x.entries);
    struct ri_ctx c = {&x, r[0].count};
    if (rc == CHV_OK) rc = rd_fields(&d, &m, ri_field, &c);
    if (rc == CHV_OK) memcpy(out, &x, sizeof x);
  }
  if (rc != CHV_OK && rc != CHV_ENOMEM)
    chv_error_wrap(err, "%s: %s", what, bloom ? "bloom filter" : "row index");
out_free:
  chv_buf_free(&sect);
  return rc;
}

int chv_orc_row_index_decode(chv_orc_codec *codec, const void *p, size_t len,
                             chv_arena *arena, const char *what,
                             struct chv_orc_row_index *out,
                             struct chv_error *err) {
  return index_decode(codec, p, len, arena, what, false, out, err);
}

int chv_orc_bloom_index_decode(chv_orc_codec *codec, const void *p, size_t len,
                               chv_arena *arena, const char *what,
                               struct chv_orc_bloom_index *out,
                               struct chv_error *err) {
  return index_decode(codec, p, len, arena, what, true, out, err);
}

/* ---- writing ----------------------------------------------------------- */

static int wr_status(struct chv_pb_writer *w, struct chv_error *err) {
  int rc = chv_pb_writer_status(w);
  if (rc == CHV_ENOMEM) return chv_error_set(err, rc, "out of memory");
  if (rc != CHV_OK)
    return chv_error_set(err, rc, "orc: protobuf writer misuse");
  return CHV_OK;
}

static void w_bytes(struct chv_pb_writer *w, uint32_t f,
                    const struct chv_orc_bytes *b) {
  chv_pb_write_bytes(w, f, b->data, b->len);
}

/* The fields of a ColumnStatistics message. */
static void w_stats_body(struct chv_pb_writer *w,
                         const struct chv_orc_column_stats *s) {
  size_t k;
  if (s->has_number_of_values) chv_pb_write_uint64(w, 1, s->number_of_values);
  if (s->has_int) {
    const struct chv_orc_int_stats *x = &s->int_stats;
    chv_pb_write_message_begin(w, 2, &k);
    if (x->has_min) chv_pb_write_sint64(w, 1, x->min);
    if (x->has_max) chv_pb_write_sint64(w, 2, x->max);
    if (x->has_sum) chv_pb_write_sint64(w, 3, x->sum);
    chv_pb_write_message_end(w, k);
  }
  if (s->has_double) {
    const struct chv_orc_double_stats *x = &s->double_stats;
    chv_pb_write_message_begin(w, 3, &k);
    if (x->has_min) chv_pb_write_double(w, 1, x->min);
    if (x->has_max) chv_pb_write_double(w, 2, x->max);
    if (x->has_sum) chv_pb_write_double(w, 3, x->sum);
    chv_pb_write_message_end(w, k);
  }
  if (s->has_string) {
    const struct chv_orc_string_stats *x = &s->string_stats;
    chv_pb_write_message_begin(w, 4, &k);
    if (x->has_min) w_bytes(w, 1, &x->min);
    if (x->has_max) w_bytes(w, 2, &x->max);
    if (x->has_sum) chv_pb_write_sint64(w, 3, x->sum);
    if (x->has_lower_bound) w_bytes(w, 4, &x->lower_bound);
    if (x->has_upper_bound) w_bytes(w, 5, &x->upper_bound);
    chv_pb_write_message_end(w, k);
  }
  if (s->has_bucket) {
    size_t p;
    chv_pb_write_message_begin(w, 5, &k);
    if (s->bucket_stats.ncount > 0) {
      chv_pb_write_message_begin(w, 1, &p);
      for (uint32_t i = 0; i < s->bucket_stats.ncount; i++)
        chv_pb_write_varint(w, s->bucket_stats.count[i]);
      chv_pb_write_message_end(w, p);
    }
    chv_pb_write_message_end(w, k);
  }
  if (s->has_decimal) {
    const struct chv_orc_decimal_stats *x = &s->decimal_stats;
    chv_pb_write_message_begin(w, 6, &k);
    if (x->min) chv_pb_write_string(w, 1, x->min);
    if (x->max) chv_pb_write_string(w, 2, x->max);
    if (x->sum) chv_pb_write_string(w, 3, x->sum);
    chv_pb_write_message_end(w, k);
  }
  if (s->has_date) {
    const struct chv_orc_date_stats *x = &s->date_stats;
    chv_pb_write_message_begin(w, 7, &k);
    if (x->has_min) chv_pb_write_sint32(w, 1, x->min);
    if (x->has_max) chv_pb_write_sint32(w, 2, x->max);
    chv_pb_write_message_end(w, k);
  }
  if (s->has_binary) {
    chv_pb_write_message_begin(w, 8, &k);
    if (s->binary_stats.has_sum) chv_pb_write_sint64(w, 1, s->binary_stats.sum);
    chv_pb_write_message_end(w, k);
  }
  if (s->has_timestamp) {
    const struct chv_orc_timestamp_stats *x = &s->timestamp_stats;
    chv_pb_write_message_begin(w, 9, &k);
    if (x->has_min) chv_pb_write_sint64(w, 1, x->min);
    if (x->has_max) chv_pb_write_sint64(w, 2, x->max);
    if (x->has_min_utc) chv_pb_write_sint64(w, 3, x->min_utc);
    if (x->has_max_utc) chv_pb_write_sint64(w, 4, x->max_utc);
    if (x->has_min_nanos) chv_pb_write_int32(w, 5, x->min_nanos);
    if (x->has_max_nanos) chv_pb_write_int32(w, 6, x->max_nanos);
    chv_pb_write_message_end(w, k);
  }
  if (s->has_has_null) chv_pb_write_bool(w, 10, s->has_null);
  if (s->has_bytes_on_disk) chv_pb_write_uint64(w, 11, s->bytes_on_disk);
  if (s->has_collection) {
    const struct chv_orc_collection_stats *x = &s->collection_stats;
    chv_pb_write_message_begin(w, 12, &k);
    if (x->has_min_children) chv_pb_write_uint64(w, 1, x->min_children);
    if (x->has_max_children) chv_pb_write_uint64(w, 2, x->max_children);
    if (x->has_total_children) chv_pb_write_uint64(w, 3, x->total_children);
    chv_pb_write_message_end(w, k);
  }
}

static void w_stats(struct chv_pb_writer *w, uint32_t field,
                    const struct chv_orc_column_stats *s) {
  size_t m;
  chv_pb_write_message_begin(w, field, &m);
  w_stats_body(w, s);
  chv_pb_write_message_end(w, m);
}

int chv_orc_column_stats_write(const struct chv_orc_column_stats *s,
                               struct chv_buf *out, struct chv_error *err) {
  struct chv_pb_writer w;
  chv_pb_writer_init(&w, out);
  w_stats_body(&w, s);
  return wr_status(&w, err);
}

int chv_orc_postscript_write(const struct chv_orc_postscript *ps,
                             struct chv_buf *out, struct chv_error *err) {
  struct chv_pb_writer w;
  chv_pb_writer_init(&w, out);
  chv_pb_write_uint64(&w, 1, ps->footer_length);
  if (ps->has_compression) chv_pb_write_int32(&w, 2, ps->compression);
  if (ps->has_compression_block_size)
    chv_pb_write_uint64(&w, 3, ps->compression_block_size);
  if (ps->nversion > 0) {
    size_t m;
    chv_pb_write_message_begin(&w, 4, &m);
    for (uint32_t i = 0; i < ps->nversion && i < 2; i++)
      chv_pb_write_varint(&w, ps->version[i]);
    chv_pb_write_message_end(&w, m);
  }
  chv_pb_write_uint64(&w, 5, ps->metadata_length);
  if (ps->has_writer_version) chv_pb_write_uint32(&w, 6, ps->writer_version);
  if (ps->stripe_statistics_length)
    chv_pb_write_uint64(&w, 7, ps->stripe_statistics_length);
  if (ps->has_magic) chv_pb_write_string(&w, 8000, CHV_ORC_MAGIC);
  return wr_status(&w, err);
}

static void w_kv(struct chv_pb_writer *w, uint32_t field,
                 const struct chv_orc_kv *kv) {
  size_t m;
  chv_pb_write_message_begin(w, field, &m);
  chv_pb_write_bytes(w, 1, kv->key,
                     kv->key_len ? kv->key_len : strlen(kv->key));
  w_bytes(w, 2, &kv->value);
  chv_pb_write_message_end(w, m);
}

int chv_orc_footer_write(const struct chv_orc_footer *f, struct chv_buf *out,
                         struct chv_error *err) {
  struct chv_pb_writer w;
  chv_pb_writer_init(&w, out);
  size_t m, k;
  if (f->has_header_length) chv_pb_write_uint64(&w, 1, f->header_length);
  if (f->has_content_length) chv_pb_write_uint64(&w, 2, f->content_length);
  for (uint32_t i = 0; i < f->nstripes; i++) {
    const struct chv_orc_stripe_info *s = &f->stripes[i];
    chv_pb_write_message_begin(&w, 3, &m);
    chv_pb_write_uint64(&w, 1, s->offset);
    chv_pb_write_uint64(&w, 2, s->index_length);
    chv_pb_write_uint64(&w, 3, s->data_length);
    chv_pb_write_uint64(&w, 4, s->footer_length);
    chv_pb_write_uint64(&w, 5, s->number_of_rows);
    if (s->has_encrypt_stripe_id)
      chv_pb_write_uint64(&w, 6, s->encrypt_stripe_id);
    chv_pb_write_message_end(&w, m);
  }
  for (uint32_t i = 0; i < f->ntypes; i++) {
    const struct chv_orc_type *t = &f->types[i];
    chv_pb_write_message_begin(&w, 4, &m);
    chv_pb_write_int32(&w, 1, t->kind);
    if (t->nsubtypes > 0) {
      chv_pb_write_message_begin(&w, 2, &k);
      for (uint32_t j = 0; j < t->nsubtypes; j++)
        chv_pb_write_varint(&w, t->subtypes[j]);
      chv_pb_write_message_end(&w, k);
    }
    for (uint32_t j = 0; j < t->nfield_names; j++)
      chv_pb_write_string(&w, 3, t->field_names[j]);
    if (t->has_maximum_length) chv_pb_write_uint32(&w, 4, t->maximum_length);
    if (t->has_precision) chv_pb_write_uint32(&w, 5, t->precision);
    if (t->has_scale) chv_pb_write_uint32(&w, 6, t->scale);
    for (uint32_t j = 0; j < t->nattributes; j++)
      w_kv(&w, 7, &t->attributes[j]);
    chv_pb_write_message_end(&w, m);
  }
  for (uint32_t i = 0; i < f->nmetadata; i++)
    w_kv(&w, 5, &f->metadata[i]);
  if (f->has_number_of_rows) chv_pb_write_uint64(&w, 6, f->number_of_rows);
  for (uint32_t i = 0; i < f->nstatistics; i++)
    w_stats(&w, 7, &f->statistics[i]);
  if (f->has_row_index_stride) chv_pb_write_uint32(&w, 8, f->row_index_stride);
  if (f->has_writer) chv_pb_write_uint32(&w, 9, f->writer);
  if (f->has_calendar) chv_pb_write_int32(&w, 11, f->calendar);
  if (f->software_version) chv_pb_write_string(&w, 12, f->software_version);
  return wr_status(&w, err);
}

int chv_orc_metadata_write(const struct chv_orc_metadata *md,
                           struct chv_buf *out, struct chv_error *err) {
  struct chv_pb_writer w;
  chv_pb_writer_init(&w, out);
  for (uint32_t i = 0; i < md->nstripes; i++) {
    size_t m;
    chv_pb_write_message_begin(&w, 1, &m);
    for (uint32_t j = 0; j < md->stripes[i].ncolumns; j++)
      w_stats(&w, 1, &md->stripes[i].columns[j]);
    chv_pb_write_message_end(&w, m);
  }
  return wr_status(&w, err);
}

int chv_orc_stripe_footer_write(const struct chv_orc_stripe_footer *sf,
                                struct chv_buf *out, struct chv_error *err) {
  struct chv_pb_writer w;
  chv_pb_writer_init(&w, out);
  size_t m;
  for (uint32_t i = 0; i < sf->nstreams; i++) {
    const struct chv_orc_stream_info *s = &sf->streams[i];
    chv_pb_write_message_begin(&w, 1, &m);
    chv_pb_write_int32(&w, 1, s->kind);
    chv_pb_write_uint32(&w, 2, s->column);
    chv_pb_write_uint64(&w, 3, s->length);
    chv_pb_write_message_end(&w, m);
  }
  for (uint32_t i = 0; i < sf->ncolumns; i++) {
    const struct chv_orc_encoding *e = &sf->columns[i];
    chv_pb_write_message_begin(&w, 2, &m);
    chv_pb_write_int32(&w, 1, e->kind);
    if (e->has_dictionary_size) chv_pb_write_uint32(&w, 2, e->dictionary_size);
    if (e->has_bloom_encoding) chv_pb_write_uint32(&w, 3, e->bloom_encoding);
    chv_pb_write_message_end(&w, m);
  }
  if (sf->writer_timezone) chv_pb_write_string(&w, 3, sf->writer_timezone);
  return wr_status(&w, err);
}

int chv_orc_row_index_write(const struct chv_orc_row_index *x,
                            struct chv_buf *out, struct chv_error *err) {
  struct chv_pb_writer w;
  chv_pb_writer_init(&w, out);
  for (uint32_t i = 0; i < x->nentries; i++) {
    const struct chv_orc_row_index_entry *e = &x->entries[i];
    size_t m, k;
    chv_pb_write_message_begin(&w, 1, &m);
    if (e->npositions > 0) {
      chv_pb_write_message_begin(&w, 1, &k);
      for (uint32_t j = 0; j < e->npositions; j++)
        chv_pb_write_varint(&w, e->positions[j]);
      chv_pb_write_message_end(&w, k);
    }
    if (e->statistics) w_stats(&w, 2, e->statistics);
    chv_pb_write_message_end(&w, m);
  }
  return wr_status(&w, err);
}

int chv_orc_bloom_index_write(const struct chv_orc_bloom_index *x,
                              struct chv_buf *out, struct chv_error *err) {
  struct chv_pb_writer w;
  chv_pb_writer_init(&w, out);
  for (uint32_t i = 0; i < x->nfilters; i++) {
    const struct chv_orc_bloom_filter *b = &x->filters[i];
    size_t m, k;
    chv_pb_write_message_begin(&w, 1, &m);
    chv_pb_write_uint32(&w, 1, b->num_hash_functions);
    if (b->nbitset > 0) {
      chv_pb_write_message_begin(&w, 2, &k);
      for (uint32_t j = 0; j < b->nbitset; j++)
        chv_pb_write_raw_fixed64(&w, b->bitset[j]);
      chv_pb_write_message_end(&w, k);
    }
    if (b->utf8bitset.data) w_bytes(&w, 3, &b->utf8bitset);
    chv_pb_write_message_end(&w, m);
  }
  return wr_status(&w, err);
}

int chv_orc_tail_write(chv_orc_codec *codec, const struct chv_orc_footer *f,
                       const struct chv_orc_metadata *md,
                       uint32_t writer_version, struct chv_buf *out,
                       struct chv_error *err) {
  size_t len0 = out->len;
  struct chv_buf tmp;
  chv_buf_init(&tmp);
  struct chv_orc_postscript ps;
  memset(&ps, 0, sizeof ps);
  int rc = CHV_OK;
  size_t start = out->len;
  if (md) {
    rc = chv_orc_metadata_write(md, &tmp, err);
    if (rc == CHV_OK)
      rc = chv_orc_compress_all(codec, tmp.data, tmp.len, out, err);
    ps.metadata_length = out->len - start;
  }
  if (rc == CHV_OK) {
    chv_buf_reset(&tmp);
    start = out->len;
    rc = chv_orc_footer_write(f, &tmp, err);
    if (rc == CHV_OK)
      rc = chv_orc_compress_all(codec, tmp.data, tmp.len, out, err);
    ps.footer_length = out->len - start;
  }
  if (rc == CHV_OK) {
    ps.has_compression = true;
    ps.compression = chv_orc_codec_kind(codec);
    ps.has_compression_block_size = true;
    ps.compression_block_size = chv_orc_codec_block_size(codec);
    ps.nversion = 2;
    ps.version[0] = 0;
    ps.version[1] = 12;
    ps.has_writer_version = true;
    ps.writer_version = writer_version;
    ps.has_magic = true;
    start = out->len;
    rc = chv_orc_postscript_write(&ps, out, err);
  }
  if (rc == CHV_OK) {
    size_t pslen = out->len - start;
    if (pslen > 255)
      rc = chv_error_set(err, CHV_EINTERNAL, "orc: PostScript of %zu bytes",
                         pslen);
    else if (chv_buf_putc(out, (char)pslen) != CHV_OK)
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  chv_buf_free(&tmp);
  if (rc != CHV_OK) {
    out->len = len0;
    if (out->cap) out->data[len0] = '\0';
  }
  return rc;
}
