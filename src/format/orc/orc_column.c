/*
** The column readers of the ORC reader: one file column's streams in a
** stripe (ORCv1.md, "Column Encodings") decoded into the vector of the
** value it produces, with the conversions a table schema asks for.
**
** Rows and values.  A column has an entry for every row whose parent value
** exists (top-level columns: every row; a STRUCT member: the rows where the
** struct is not NULL; a LIST element: the elements its lengths count; a
** UNION variant: the rows whose tag names it).  Its PRESENT stream, when
** the stripe has one, holds a bit per entry; its other streams hold values
** for the entries whose bit is set only.  or_col_read() therefore takes,
** with the rows to append, the mask of the rows that have an entry, reads
** the PRESENT bits of those, and decodes as many values as are left; every
** other row is NULL.  Columns decode at most OR_SLICE rows at a time into
** scratch buffers of their own, so that a nested column's reads can run
** while its parent's mask is live.
**
** Values (file kind -> what is decoded):
**   BOOLEAN             boolean RLE
**   BYTE                byte RLE (signed bytes)
**   SHORT, INT, LONG,   signed integer RLE v1/v2 (DIRECT, DIRECT_V2);
**   DATE                Java narrows to the type's width, so does chive
**   FLOAT, DOUBLE       IEEE 754 little-endian, 4 or 8 bytes
**   STRING, VARCHAR,    DIRECT: LENGTH (unsigned RLE) and DATA bytes;
**   CHAR, BINARY        DICTIONARY: ids in DATA, the dictionary (LENGTH +
**                       DICTIONARY_DATA) loaded when the stripe begins;
**                       CHAR values lose trailing spaces (Hive's HiveChar
**                       semantics), then the produced type's length rule
**   DECIMAL             DATA: zigzag varints, SECONDARY: each value's scale;
**                       rescaled to the produced scale (half up), NULL when
**                       the value exceeds its precision, as Hive's
**                       enforcePrecisionScale makes it; in files of the ORC
**                       v2 draft (version 1.9999) a decimal of precision <= 18
**                       is one DATA stream of RLE v2 integers at its scale
**   TIMESTAMP           DATA: seconds from 2015-01-01 00:00:00 in the
**                       writer's zone (the stripe footer's writerTimezone),
**                       SECONDARY: nanoseconds (trailing zeros cut); see
**                       ts_convert()
**   LIST, MAP           LENGTH per non-NULL value; the children read the sum
**   STRUCT              its members read the rows where it is not NULL
**   UNION               DATA: a tag byte per non-NULL value
**
** Every length, id, tag and count from the file is checked before it is
** used; a stream that ends early, or a stream the encoding needs that the
** stripe lacks, is CHV_ECORRUPT "x.orc: column a.b, stripe 2: ...".
**
** INTERFACE: or_col_build(), or_col_free(), or_col_include(),
** or_col_begin(), or_col_seek(), or_col_read(), or_append_nulls()
** (orc_read.h).
*/
#include "format/orc/orc_read.h"
#include "types/types.h"

#include <inttypes.h>
#include <stdio.h>

static int oom(struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory");
}

/* Errors raised by this column's own decoding get its context. */
#define OWN(expr)                                                              \
  do {                                                                         \
    int own_rc_ = (expr);                                                      \
    if (own_rc_ != CHV_OK) return or_wrap(c, err);                             \
  } while (0)

int or_wrap(const struct or_col *c, struct chv_error *err) {
  const struct chv_orc_reader *r = c->r;
  return chv_error_wrap(err, "%s: column %s, stripe %" PRId64, r->path,
                        c->name, r->cur_stripe);
}

/* ---- type pairing ------------------------------------------------------ */

/* The Hive type of file column id (built once, kept by the reader). */
static int file_type(struct chv_orc_reader *r, uint32_t id,
                     const struct chv_type **out, struct chv_error *err) {
  if (r->ftypes[id] == NULL)
    CHV_RETURN_IF_ERR(chv_orc_hive_type(r->tail, id, &r->ftypes[id], err));
  *out = r->ftypes[id];
  return CHV_OK;
}

static char *join(const char *a, const char *b) {
  return a && *a ? chv_asprintf("%s.%s", a, b) : chv_strdup(b);
}

static bool is_string_kind(int32_t k) {
  return k == CHV_ORC_KIND_STRING || k == CHV_ORC_KIND_VARCHAR ||
         k == CHV_ORC_KIND_CHAR || k == CHV_ORC_KIND_BINARY ||
         k == CHV_ORC_KIND_GEOMETRY || k == CHV_ORC_KIND_GEOGRAPHY;
}

/* Scratch for slices of n rows (grown on demand, so that a column costs
** memory in proportion to the rows it is asked for). */
static int scratch_reserve(struct or_col *c, int64_t n, struct chv_error *err) {
  if (n <= c->scratch_cap) return CHV_OK;
  size_t m = (size_t)n;
  bool wide = c->kind == CHV_ORC_KIND_DECIMAL ||
              c->kind == CHV_ORC_KIND_TIMESTAMP ||
              c->kind == CHV_ORC_KIND_TIMESTAMP_INSTANT ||
              c->kind == CHV_ORC_KIND_UNION;
  uint8_t *a = chv_realloc(c->valid, m), *b = a ? chv_realloc(c->u8, m) : NULL;
  if (a) c->valid = a;
  if (b) c->u8 = b;
  int64_t *x = b ? chv_realloc(c->i64, m * sizeof *x) : NULL;
  if (x) c->i64 = x;
  if (x == NULL) return oom(err);
  if (wide) {
    int64_t *y = chv_realloc(c->i64b, m * sizeof *y);
    if (y == NULL) return oom(err);
    c->i64b = y;
  }
  if (c->kind == CHV_ORC_KIND_DECIMAL) {
    chv_i128 *d = chv_realloc(c->dec, m * sizeof *d);
    if (d == NULL) return oom(err);
    c->dec = d;
  }
  if (c->kind == CHV_ORC_KIND_UNION) {
    uint8_t *k = chv_realloc(c->mask, m);
    if (k == NULL) return oom(err);
    c->mask = k;
  }
  c->scratch_cap = n;
  return CHV_OK;
}

/* Set up an integer decoder (allocated on first use: only the kinds with
** integer streams pay for one). */
static int int_init(struct chv_orc_int_rle **d, struct chv_orc_stream *s,
                    int version, bool is_signed, struct chv_error *err) {
  if (*d == NULL && (*d = chv_malloc(sizeof **d)) == NULL) return oom(err);
  return chv_orc_int_rle_init(*d, s, version, is_signed, err);
}

/* A UNION's field name "fieldN" with N below nvariants: N, else -1. */
static int variant_of(const char *name, uint32_t nvariants) {
  if (!chv_str_nieq(name, "field", 5) || name[5] == '\0') return -1;
  long v = 0;
  for (const char *p = name + 5; *p; p++) {
    if (*p < '0' || *p > '9' || v > 1000) return -1;
    v = v * 10 + (*p - '0');
  }
  return v < (long)nvariants ? (int)v : -1;
}

int or_col_build(struct chv_orc_reader *r, const struct chv_type *t, int64_t id,
                 const char *name, int depth, struct or_col **out,
                 struct chv_error *err) {
  *out = NULL;
  if (id < 0) return CHV_OK;
  if (depth > CHV_ORC_MAX_DEPTH)
    return chv_error_set(err, CHV_ENOTSUP,
                         "%s: column %s nests deeper than %d levels", r->path,
                         name, CHV_ORC_MAX_DEPTH);
  const struct chv_orc_type *ot = &r->tail->footer.types[id];
  const struct chv_type *ft;
  CHV_RETURN_IF_ERR(file_type(r, (uint32_t)id, &ft, err));
  struct or_col *c = chv_calloc(1, sizeof *c);
  if (c == NULL) return oom(err);
  c->r = r;
  c->id = (uint32_t)id;
  c->kind = ot->kind;
  c->ftype = ft;
  c->target = t;
  c->union_tag_field = -1;
  c->name = chv_strdup(name);
  chv_buf_init(&c->dict_blob);
  chv_buf_init(&c->sbuf);
  int rc = CHV_OK;
  if (c->name == NULL) {
    rc = oom(err);
    goto out_free;
  }
  if (chv_type_is_primitive(t->id)) {
    if (!chv_type_is_primitive(ft->id) || !chv_type_widens(ft, t)) {
      rc = chv_type_widen_error(r->path, name, ft, t, err);
      goto out_free;
    }
    c->decimal64 = c->kind == CHV_ORC_KIND_DECIMAL &&
                   r->tail->version == CHV_ORC_V_UNSTABLE_2 &&
                   ft->precision <= 18;
    c->trim_char = c->kind == CHV_ORC_KIND_CHAR;
    *out = c;
    return CHV_OK;
  }
  bool ok = (t->id == CHV_TYPE_STRUCT && (c->kind == CHV_ORC_KIND_STRUCT ||
                                          c->kind == CHV_ORC_KIND_UNION)) ||
            (t->id == CHV_TYPE_ARRAY && c->kind == CHV_ORC_KIND_LIST) ||
            (t->id == CHV_TYPE_MAP && c->kind == CHV_ORC_KIND_MAP);
  if (!ok) {
    rc = chv_type_widen_error(r->path, name, ft, t, err);
    goto out_free;
  }
  c->nchildren = t->nchildren;
  c->children = chv_calloc((size_t)(t->nchildren ? t->nchildren : 1),
                           sizeof *c->children);
  if (c->children == NULL) {
    rc = oom(err);
    goto out_free;
  }
  if (c->kind == CHV_ORC_KIND_UNION) {
    c->nvariants = ot->nsubtypes;
    c->union_field = chv_malloc(sizeof(int) * (ot->nsubtypes + 1));
    if (c->union_field == NULL) {
      rc = oom(err);
      goto out_free;
    }
    for (uint32_t j = 0; j < ot->nsubtypes; j++) c->union_field[j] = -1;
  }
  for (int i = 0; i < t->nchildren && rc == CHV_OK; i++) {
    int64_t sub = -1;
    const char *cn;
    if (t->id == CHV_TYPE_STRUCT) {
      cn = t->names[i];
      if (c->kind == CHV_ORC_KIND_STRUCT) {
        for (uint32_t j = 0; j < ot->nsubtypes && j < ot->nfield_names; j++)
          if (chv_str_ieq(ot->field_names[j], cn)) sub = ot->subtypes[j];
      } else if (chv_str_ieq(cn, "tag")) {
        struct chv_type tag = {.id = CHV_TYPE_TINYINT};
        if (!chv_type_is_primitive(t->children[i]->id) ||
            !chv_type_widens(&tag, t->children[i])) {
          char *nm = join(name, cn);
          rc = nm ? chv_type_widen_error(r->path, nm, &tag, t->children[i], err) : oom(err);
          chv_free(nm);
          break;
        }
        c->union_tag_field = i;
        continue;
      } else {
        int v = variant_of(cn, c->nvariants);
        if (v >= 0 && c->union_field[v] < 0) {
          c->union_field[v] = i;
          sub = ot->subtypes[v];
        }
      }
    } else {
      cn = t->id == CHV_TYPE_ARRAY ? "element" : i == 0 ? "key" : "value";
      sub = ot->subtypes[i];
    }
    char *nm = join(name, cn);
    if (nm == NULL) {
      rc = oom(err);
      break;
    }
    rc = or_col_build(r, t->children[i], sub, nm, depth + 1, &c->children[i],
                      err);
    chv_free(nm);
  }
  if (rc != CHV_OK) goto out_free;
  *out = c;
  return CHV_OK;
out_free:
  or_col_free(c);
  return rc;
}

void or_col_free(struct or_col *c) {
  if (c == NULL) return;
  for (int i = 0; i < c->nchildren; i++) or_col_free(c->children[i]);
  chv_free(c->children);
  chv_free(c->union_field);
  chv_orc_stream_free(&c->present.s);
  chv_orc_stream_free(&c->data.s);
  chv_orc_stream_free(&c->length.s);
  chv_orc_stream_free(&c->secondary.s);
  chv_orc_stream_free(&c->dict.s);
  chv_buf_free(&c->dict_blob);
  chv_buf_free(&c->sbuf);
  chv_free(c->dict_off);
  chv_free(c->valid);
  chv_free(c->u8);
  chv_free(c->mask);
  chv_free(c->i64);
  chv_free(c->i64b);
  chv_free(c->dec);
  chv_free(c->ints);
  chv_free(c->lens);
  chv_free(c->secs);
  chv_free(c->name);
  chv_free(c);
}

void or_col_include(const struct or_col *c, bool *included) {
  if (c == NULL) return;
  included[c->id] = true;
  for (int i = 0; i < c->nchildren; i++)
    or_col_include(c->children[i], included);
}

/* ---- a stripe begins --------------------------------------------------- */

static void stream_open(struct or_col *c, struct or_stream *st, int32_t kind,
                        const char *name) {
  const uint8_t *p = NULL;
  size_t len = 0;
  st->present = or_reader_stream(c->r, c->id, kind, &p, &len);
  chv_orc_stream_free(&st->s);
  chv_orc_stream_init(&st->s, c->r->codec, p, len, name);
}

/* Bytes the stream inflated, for the reader's statistics. */
static uint64_t produced(const struct or_stream *st) { return st->s.produced; }

uint64_t or_col_produced(const struct or_col *c) {
  if (c == NULL) return 0;
  uint64_t n = produced(&c->present) + produced(&c->data) +
               produced(&c->length) + produced(&c->secondary) +
               produced(&c->dict);
  for (int i = 0; i < c->nchildren; i++) n += or_col_produced(c->children[i]);
  return n;
}

static int need(const struct or_stream *st, const char *kind,
                struct chv_error *err) {
  if (st->present) return CHV_OK;
  return chv_error_set(err, CHV_ECORRUPT, "the stripe has no %s stream", kind);
}

static int load_dictionary(struct or_col *c, const struct chv_orc_encoding *e,
                           struct chv_error *err) {
  struct chv_orc_reader *r = c->r;
  c->dict_n = 0;
  uint32_t n = e->has_dictionary_size ? e->dictionary_size : 0;
  if (c->dict_cap < 1) {
    c->dict_off = chv_malloc(sizeof *c->dict_off);
    if (c->dict_off == NULL) return oom(err);
    c->dict_cap = 1;
  }
  c->dict_off[0] = 0;
  chv_buf_reset(&c->dict_blob);
  if (n == 0) return CHV_OK;
  CHV_RETURN_IF_ERR(need(&c->dict, "DICTIONARY_DATA", err));
  CHV_RETURN_IF_ERR(need(&c->length, "LENGTH", err));
  for (;;) {
    const uint8_t *p;
    size_t k;
    CHV_RETURN_IF_ERR(chv_orc_stream_next(&c->dict.s, SIZE_MAX, &p, &k, err));
    if (k == 0) break;
    if ((int64_t)k > r->o.max_stream_bytes - (int64_t)c->dict_blob.len)
      return chv_error_set(err, CHV_ERANGE,
                           "the dictionary exceeds max_stream_bytes (%" PRId64
                           " bytes)",
                           r->o.max_stream_bytes);
    if (chv_buf_append(&c->dict_blob, p, k) != CHV_OK) return oom(err);
  }
  size_t blob = c->dict_blob.len;
  /* Entries are distinct: at most one is empty. */
  if ((uint64_t)n > (uint64_t)blob + 1)
    return chv_error_set(err, CHV_ECORRUPT,
                         "a dictionary of %" PRIu32 " entries cannot be held "
                         "in %zu bytes of DICTIONARY_DATA",
                         n, blob);
  if (c->dict_cap < n + 1) {
    uint32_t *o = chv_realloc(c->dict_off, sizeof *o * ((size_t)n + 1));
    if (o == NULL) return oom(err);
    c->dict_off = o;
    c->dict_cap = n + 1;
  }
  uint64_t off = 0;
  CHV_RETURN_IF_ERR(scratch_reserve(c, CHV_MIN((int64_t)n, OR_SLICE), err));
  for (uint32_t i = 0; i < n;) {
    size_t m = CHV_MIN((size_t)(n - i), (size_t)c->scratch_cap);
    CHV_RETURN_IF_ERR(chv_orc_int_rle_read(c->lens, c->i64, m, err));
    for (size_t j = 0; j < m; j++, i++) {
      int64_t len = c->i64[j];
      if (len < 0)
        return chv_error_set(err, CHV_ECORRUPT,
                             "dictionary entry %" PRIu32 " has a negative "
                             "length (%" PRId64 ")",
                             i, len);
      off += (uint64_t)len;
      if (off > blob)
        return chv_error_set(err, CHV_ECORRUPT,
                             "dictionary entry %" PRIu32 " ends at byte %" PRIu64
                             ", past the %zu bytes of DICTIONARY_DATA",
                             i, off, blob);
      c->dict_off[i + 1] = (uint32_t)off;
    }
  }
  c->dict_n = n;
  return CHV_OK;
}

static bool encoding_known(int32_t kind, int32_t enc) {
  if (enc == CHV_ORC_ENC_DIRECT || enc == CHV_ORC_ENC_DIRECT_V2) return true;
  return (enc == CHV_ORC_ENC_DICTIONARY || enc == CHV_ORC_ENC_DICTIONARY_V2) &&
         (kind == CHV_ORC_KIND_STRING || kind == CHV_ORC_KIND_VARCHAR ||
          kind == CHV_ORC_KIND_CHAR);
}

static int begin_own(struct or_col *c, struct chv_error *err) {
  struct chv_orc_reader *r = c->r;
  const struct chv_orc_encoding *e = &r->sf.columns[c->id];
  c->encoding = e->kind;
  if (!encoding_known(c->kind, e->kind))
    return chv_error_set(err, CHV_ENOTSUP,
                         "encoding %s (%" PRId32 ") of a %s column is not one "
                         "this reader knows",
                         chv_orc_encoding_name(e->kind), e->kind,
                         chv_orc_kind_name(c->kind));
  c->rle = e->kind == CHV_ORC_ENC_DIRECT_V2 ||
                   e->kind == CHV_ORC_ENC_DICTIONARY_V2
               ? 2
               : 1;
  bool dict = e->kind == CHV_ORC_ENC_DICTIONARY ||
              e->kind == CHV_ORC_ENC_DICTIONARY_V2;
  stream_open(c, &c->present, CHV_ORC_STREAM_PRESENT, "PRESENT");
  chv_orc_bool_rle_init(&c->pbits, &c->present.s);
  switch (c->kind) {
  case CHV_ORC_KIND_BOOLEAN:
    stream_open(c, &c->data, CHV_ORC_STREAM_DATA, "DATA");
    chv_orc_bool_rle_init(&c->bools, &c->data.s);
    break;
  case CHV_ORC_KIND_BYTE:
  case CHV_ORC_KIND_UNION:
    stream_open(c, &c->data, CHV_ORC_STREAM_DATA, "DATA");
    chv_orc_byte_rle_init(&c->bytes, &c->data.s);
    break;
  case CHV_ORC_KIND_SHORT:
  case CHV_ORC_KIND_INT:
  case CHV_ORC_KIND_LONG:
  case CHV_ORC_KIND_DATE:
    stream_open(c, &c->data, CHV_ORC_STREAM_DATA, "DATA");
    CHV_RETURN_IF_ERR(
        int_init(&c->ints, &c->data.s, c->rle, true, err));
    break;
  case CHV_ORC_KIND_FLOAT:
  case CHV_ORC_KIND_DOUBLE:
    stream_open(c, &c->data, CHV_ORC_STREAM_DATA, "DATA");
    break;
  case CHV_ORC_KIND_DECIMAL:
    stream_open(c, &c->data, CHV_ORC_STREAM_DATA, "DATA");
    if (c->decimal64) {
      CHV_RETURN_IF_ERR(
          int_init(&c->ints, &c->data.s, 2, true, err));
    } else {
      stream_open(c, &c->secondary, CHV_ORC_STREAM_SECONDARY, "SECONDARY");
      CHV_RETURN_IF_ERR(
          int_init(&c->secs, &c->secondary.s, c->rle, true, err));
    }
    break;
  case CHV_ORC_KIND_TIMESTAMP:
  case CHV_ORC_KIND_TIMESTAMP_INSTANT: {
    stream_open(c, &c->data, CHV_ORC_STREAM_DATA, "DATA");
    stream_open(c, &c->secondary, CHV_ORC_STREAM_SECONDARY, "SECONDARY");
    CHV_RETURN_IF_ERR(
        int_init(&c->ints, &c->data.s, c->rle, true, err));
    CHV_RETURN_IF_ERR(
        int_init(&c->secs, &c->secondary.s, c->rle, false, err));
    c->tz = NULL; /* resolved when a value needs it */
    break;
  }
  case CHV_ORC_KIND_LIST:
  case CHV_ORC_KIND_MAP:
    stream_open(c, &c->length, CHV_ORC_STREAM_LENGTH, "LENGTH");
    CHV_RETURN_IF_ERR(
        int_init(&c->lens, &c->length.s, c->rle, false, err));
    break;
  case CHV_ORC_KIND_STRUCT:
    break;
  default:
    if (!is_string_kind(c->kind))
      return chv_error_set(err, CHV_ENOTSUP, "a %s column cannot be read",
                           chv_orc_kind_name(c->kind));
    stream_open(c, &c->data, CHV_ORC_STREAM_DATA, "DATA");
    stream_open(c, &c->length, CHV_ORC_STREAM_LENGTH, "LENGTH");
    CHV_RETURN_IF_ERR(
        int_init(&c->lens, &c->length.s, c->rle, false, err));
    if (dict) {
      stream_open(c, &c->dict, CHV_ORC_STREAM_DICTIONARY_DATA,
                  "DICTIONARY_DATA");
      CHV_RETURN_IF_ERR(
          int_init(&c->ints, &c->data.s, c->rle, false, err));
      CHV_RETURN_IF_ERR(load_dictionary(c, e, err));
    }
    break;
  }
  return CHV_OK;
}

int or_col_begin(struct or_col *c, struct chv_error *err) {
  OWN(begin_own(c, err));
  for (int i = 0; i < c->nchildren; i++)
    if (c->children[i]) CHV_RETURN_IF_ERR(or_col_begin(c->children[i], err));
  return CHV_OK;
}

/* ---- seeking to a row group -------------------------------------------- */

static int take(const uint64_t *pos, uint32_t npos, uint32_t *i, uint64_t *v,
                struct chv_error *err) {
  if (*i >= npos)
    return chv_error_set(err, CHV_ECORRUPT,
                         "the row index has %" PRIu32 " positions, too few "
                         "for the column's streams",
                         npos);
  *v = pos[(*i)++];
  return CHV_OK;
}

static int seek_stream(struct or_stream *st, const uint64_t *pos,
                       uint32_t npos, uint32_t *i, struct chv_error *err) {
  return chv_orc_stream_seek_positions(&st->s, pos, npos, i, err);
}

static int seek_ints(struct or_stream *st, struct chv_orc_int_rle *d,
                     const uint64_t *pos, uint32_t npos, uint32_t *i,
                     struct chv_error *err) {
  uint64_t v = 0;
  CHV_RETURN_IF_ERR(seek_stream(st, pos, npos, i, err));
  CHV_RETURN_IF_ERR(take(pos, npos, i, &v, err));
  return chv_orc_int_rle_seek(d, v, err);
}

static int seek_own(struct or_col *c, uint32_t g, struct chv_error *err) {
  const struct chv_orc_row_index *ri = &c->r->ri[c->id];
  if (ri->entries == NULL || g >= ri->nentries)
    return chv_error_set(err, CHV_ECORRUPT,
                         "the row index has no entry for row group %" PRIu32,
                         g);
  const uint64_t *pos = ri->entries[g].positions;
  uint32_t npos = ri->entries[g].npositions, i = 0;
  uint64_t a = 0, b = 0;
  if (c->present.present) {
    CHV_RETURN_IF_ERR(seek_stream(&c->present, pos, npos, &i, err));
    CHV_RETURN_IF_ERR(take(pos, npos, &i, &a, err));
    CHV_RETURN_IF_ERR(take(pos, npos, &i, &b, err));
    CHV_RETURN_IF_ERR(chv_orc_bool_rle_seek(&c->pbits, a, b, err));
  }
  bool dict = c->encoding == CHV_ORC_ENC_DICTIONARY ||
              c->encoding == CHV_ORC_ENC_DICTIONARY_V2;
  switch (c->kind) {
  case CHV_ORC_KIND_BOOLEAN:
    CHV_RETURN_IF_ERR(seek_stream(&c->data, pos, npos, &i, err));
    CHV_RETURN_IF_ERR(take(pos, npos, &i, &a, err));
    CHV_RETURN_IF_ERR(take(pos, npos, &i, &b, err));
    return chv_orc_bool_rle_seek(&c->bools, a, b, err);
  case CHV_ORC_KIND_BYTE:
  case CHV_ORC_KIND_UNION:
    CHV_RETURN_IF_ERR(seek_stream(&c->data, pos, npos, &i, err));
    CHV_RETURN_IF_ERR(take(pos, npos, &i, &a, err));
    return chv_orc_byte_rle_seek(&c->bytes, a, err);
  case CHV_ORC_KIND_SHORT:
  case CHV_ORC_KIND_INT:
  case CHV_ORC_KIND_LONG:
  case CHV_ORC_KIND_DATE:
    return seek_ints(&c->data, c->ints, pos, npos, &i, err);
  case CHV_ORC_KIND_FLOAT:
  case CHV_ORC_KIND_DOUBLE:
    return seek_stream(&c->data, pos, npos, &i, err);
  case CHV_ORC_KIND_DECIMAL:
    if (c->decimal64) return seek_ints(&c->data, c->ints, pos, npos, &i, err);
    CHV_RETURN_IF_ERR(seek_stream(&c->data, pos, npos, &i, err));
    return seek_ints(&c->secondary, c->secs, pos, npos, &i, err);
  case CHV_ORC_KIND_TIMESTAMP:
  case CHV_ORC_KIND_TIMESTAMP_INSTANT:
    CHV_RETURN_IF_ERR(seek_ints(&c->data, c->ints, pos, npos, &i, err));
    return seek_ints(&c->secondary, c->secs, pos, npos, &i, err);
  case CHV_ORC_KIND_LIST:
  case CHV_ORC_KIND_MAP:
    return seek_ints(&c->length, c->lens, pos, npos, &i, err);
  case CHV_ORC_KIND_STRUCT:
    return CHV_OK;
  default: /* strings and binaries */
    if (dict) return seek_ints(&c->data, c->ints, pos, npos, &i, err);
    CHV_RETURN_IF_ERR(seek_stream(&c->data, pos, npos, &i, err));
    return seek_ints(&c->length, c->lens, pos, npos, &i, err);
  }
}

int or_col_seek(struct or_col *c, uint32_t g, struct chv_error *err) {
  OWN(seek_own(c, g, err));
  for (int i = 0; i < c->nchildren; i++)
    if (c->children[i]) CHV_RETURN_IF_ERR(or_col_seek(c->children[i], g, err));
  return CHV_OK;
}

/* ---- vectors ----------------------------------------------------------- */

static int ensure_validity(struct chv_vector *v, struct chv_error *err) {
  if (v->validity) return CHV_OK;
  size_t nb = (size_t)((v->capacity + 7) / 8);
  v->validity = chv_malloc(nb ? nb : 1);
  if (v->validity == NULL) return oom(err);
  memset(v->validity, 0xff, nb ? nb : 1);
  return CHV_OK;
}

int or_append_nulls(struct chv_vector *v, int64_t k, struct chv_error *err) {
  if (k <= 0) return CHV_OK;
  int64_t pos = v->length;
  CHV_RETURN_IF_ERR(chv_vector_reserve(v, pos + k, err));
  CHV_RETURN_IF_ERR(ensure_validity(v, err));
  for (int64_t i = pos; i < pos + k; i++) chv_bit_set(v->validity, i, false);
  v->null_count += k;
  enum chv_type_id id = v->type->id;
  switch (id) {
  case CHV_TYPE_BOOLEAN:
    for (int64_t i = pos; i < pos + k; i++) chv_bit_set(v->data, i, false);
    break;
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
  case CHV_TYPE_BINARY:
  case CHV_TYPE_ARRAY:
  case CHV_TYPE_MAP:
    for (int64_t i = pos; i < pos + k; i++) v->offsets[i + 1] = v->offsets[pos];
    break;
  case CHV_TYPE_STRUCT:
    for (int c = 0; c < v->nchildren; c++)
      CHV_RETURN_IF_ERR(or_append_nulls(v->children[c], k, err));
    break;
  default: {
    size_t w = chv_type_fixed_width(id);
    memset((char *)v->data + pos * (int64_t)w, 0, (size_t)k * w);
    break;
  }
  }
  v->length = pos + k;
  return CHV_OK;
}

/* Rows [pos, pos + n): those with valid[i] == 0 (valid NULL: none) NULL. */
static int set_nulls(struct chv_vector *v, int64_t pos, int64_t n,
                     const uint8_t *valid, int64_t k, struct chv_error *err) {
  if (valid == NULL || k == n) return CHV_OK;
  CHV_RETURN_IF_ERR(ensure_validity(v, err));
  for (int64_t i = 0; i < n; i++)
    if (!valid[i]) chv_bit_set(v->validity, pos + i, false);
  v->null_count += n - k;
  return CHV_OK;
}

static int64_t count(const uint8_t *m, int64_t n) {
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++) k += m[i] != 0;
  return k;
}

/* Which of the n rows hold a value: *valid (NULL: all) and their count. */
static int presence(struct or_col *c, int64_t n, const uint8_t *pm,
                    const uint8_t **valid, int64_t *k, struct chv_error *err) {
  if (!c->present.present) {
    *valid = pm;
    *k = pm ? count(pm, n) : n;
    return CHV_OK;
  }
  if (pm == NULL) {
    CHV_RETURN_IF_ERR(
        chv_orc_bool_rle_read(&c->pbits, c->valid, (size_t)n, err));
  } else {
    int64_t m = count(pm, n);
    CHV_RETURN_IF_ERR(chv_orc_bool_rle_read(&c->pbits, c->u8, (size_t)m, err));
    for (int64_t i = 0, j = 0; i < n; i++)
      c->valid[i] = pm[i] ? c->u8[j++] : 0;
  }
  *k = count(c->valid, n);
  *valid = *k == n ? NULL : c->valid;
  return CHV_OK;
}

int or_col_mask(struct or_col *c, int64_t n, const uint8_t **valid,
                struct chv_error *err) {
  int64_t k;
  OWN(scratch_reserve(c, n, err));
  OWN(presence(c, n, NULL, valid, &k, err));
  return CHV_OK;
}

/* How much one batch may decode into a column. */
static int budget(const struct or_col *c, int64_t have, int64_t add,
                  const char *what, struct chv_error *err) {
  int64_t lim = c->r->o.max_stream_bytes;
  if (add >= 0 && add <= lim - have) return CHV_OK;
  return chv_error_set(err, CHV_ERANGE,
                       "one batch's %s exceed max_stream_bytes (%" PRId64
                       "); read smaller batches",
                       what, lim);
}

/* ---- fixed-width values ------------------------------------------------ */

/* Write n rows from dense values src (one per valid row) as T. */
#define SCATTER(T, CONV)                                                       \
  do {                                                                         \
    T *d_ = (T *)v->data + pos;                                                \
    if (valid == NULL) {                                                       \
      for (int64_t i_ = 0; i_ < n; i_++) d_[i_] = CONV(src[i_]);               \
    } else {                                                                   \
      int64_t j_ = 0;                                                          \
      for (int64_t i_ = 0; i_ < n; i_++)                                       \
        d_[i_] = valid[i_] ? CONV(src[j_++]) : (T)0;                           \
    }                                                                          \
  } while (0)

#define AS_I8(x) ((int8_t)(x))
#define AS_I16(x) ((int16_t)(x))
#define AS_I32(x) ((int32_t)(x))
#define AS_I64(x) ((int64_t)(x))
#define AS_F32(x) ((float)(x))
#define AS_F64(x) ((double)(x))
#define AS_I128(x) ((chv_i128)(x))

/* Integers (dense in src) into a vector of an integer, floating point or
** decimal type. */
static void store_ints(struct chv_vector *v, int64_t pos, int64_t n,
                       const uint8_t *valid, const int64_t *src) {
  switch (v->type->id) {
  case CHV_TYPE_TINYINT:
    SCATTER(int8_t, AS_I8);
    break;
  case CHV_TYPE_SMALLINT:
    SCATTER(int16_t, AS_I16);
    break;
  case CHV_TYPE_INT:
  case CHV_TYPE_DATE:
    SCATTER(int32_t, AS_I32);
    break;
  case CHV_TYPE_FLOAT:
    SCATTER(float, AS_F32);
    break;
  case CHV_TYPE_DOUBLE:
    SCATTER(double, AS_F64);
    break;
  case CHV_TYPE_DECIMAL: {
    SCATTER(chv_i128, AS_I128);
    chv_i128 m = chv_decimal_pow10(v->type->scale);
    chv_i128 *d = (chv_i128 *)v->data + pos;
    for (int64_t i = 0; i < n; i++)
      d[i] = (chv_i128)((unsigned __int128)d[i] * (unsigned __int128)m);
    break;
  }
  default: /* BIGINT */
    SCATTER(int64_t, AS_I64);
    break;
  }
}

static int read_ints(struct or_col *c, int64_t n, const uint8_t *valid,
                     int64_t k, struct chv_vector *v, int64_t pos,
                     struct chv_error *err) {
  if (k > 0) {
    CHV_RETURN_IF_ERR(need(&c->data, "DATA", err));
    if (c->kind == CHV_ORC_KIND_BYTE) {
      CHV_RETURN_IF_ERR(chv_orc_byte_rle_read(&c->bytes, c->u8, (size_t)k, err));
      for (int64_t i = 0; i < k; i++) c->i64[i] = (int8_t)c->u8[i];
    } else {
      CHV_RETURN_IF_ERR(chv_orc_int_rle_read(c->ints, c->i64, (size_t)k, err));
    }
  }
  store_ints(v, pos, n, valid, c->i64);
  return CHV_OK;
}

static int read_booleans(struct or_col *c, int64_t n, const uint8_t *valid,
                         int64_t k, struct chv_vector *v, int64_t pos,
                         struct chv_error *err) {
  if (k > 0) {
    CHV_RETURN_IF_ERR(need(&c->data, "DATA", err));
    CHV_RETURN_IF_ERR(chv_orc_bool_rle_read(&c->bools, c->u8, (size_t)k, err));
  }
  uint8_t *d = v->data;
  for (int64_t i = 0, j = 0; i < n; i++) {
    bool b = valid == NULL || valid[i] ? c->u8[j++] != 0 : false;
    chv_bit_set(d, pos + i, b);
  }
  return CHV_OK;
}

static int read_reals(struct or_col *c, int64_t n, const uint8_t *valid,
                      int64_t k, struct chv_vector *v, int64_t pos,
                      struct chv_error *err) {
  bool single = c->kind == CHV_ORC_KIND_FLOAT;
  if (k > 0) {
    CHV_RETURN_IF_ERR(need(&c->data, "DATA", err));
    CHV_RETURN_IF_ERR(chv_orc_stream_read(&c->data.s, c->i64,
                                          (size_t)k * (single ? 4 : 8), err));
  }
  if (single) {
    const float *src = (const float *)c->i64;
    if (v->type->id == CHV_TYPE_FLOAT)
      SCATTER(float, AS_F32);
    else
      SCATTER(double, AS_F64);
  } else {
    const double *src = (const double *)c->i64;
    SCATTER(double, AS_F64);
  }
  return CHV_OK;
}

/* ---- decimals ---------------------------------------------------------- */

/* v at scale `from` to scale `to` (half up), then within `precision`
** digits; false when it does not fit. */
static bool rescale(chv_i128 *v, int64_t from, int to, int precision) {
  chv_i128 x = *v;
  static const chv_i128 lim38 =
      (chv_i128)10000000000000000000ULL * (chv_i128)10000000000000000000ULL;
  if (from < to) {
    int64_t up = (int64_t)to - from;
    if (x != 0) {
      if (up > 38) return false;
      chv_i128 m = chv_decimal_pow10((int)up);
      chv_i128 ax = x < 0 ? -x : x;
      if (ax > lim38 / m) return false;
      x *= m;
    }
  } else if (from > to) {
    int64_t down = from - to;
    if (down > 38) {
      x = 0;
    } else {
      chv_i128 p = chv_decimal_pow10((int)down);
      chv_i128 q = x / p, r = x % p;
      chv_i128 ar = r < 0 ? -r : r;
      if (ar * 2 >= p) q += x < 0 ? -1 : 1;
      x = q;
    }
  }
  chv_i128 bound = chv_decimal_pow10(precision);
  if (x >= bound || x <= -bound) return false;
  *v = x;
  return true;
}

static int read_decimals(struct or_col *c, int64_t n, const uint8_t *valid,
                         int64_t k, struct chv_vector *v, int64_t pos,
                         struct chv_error *err) {
  const struct chv_type *t = v->type;
  if (k > 0) {
    CHV_RETURN_IF_ERR(need(&c->data, "DATA", err));
    if (c->decimal64) {
      CHV_RETURN_IF_ERR(chv_orc_int_rle_read(c->ints, c->i64, (size_t)k, err));
      for (int64_t i = 0; i < k; i++) {
        c->dec[i] = c->i64[i];
        c->i64b[i] = c->ftype->scale;
      }
    } else {
      CHV_RETURN_IF_ERR(need(&c->secondary, "SECONDARY", err));
      for (int64_t i = 0; i < k; i++)
        CHV_RETURN_IF_ERR(chv_orc_decimal_read(&c->data.s, &c->dec[i], err));
      CHV_RETURN_IF_ERR(
          chv_orc_int_rle_read(c->secs, c->i64b, (size_t)k, err));
    }
  }
  chv_i128 *d = (chv_i128 *)v->data + pos;
  int64_t bad = 0;
  for (int64_t i = 0, j = 0; i < n; i++) {
    if (valid && !valid[i]) {
      d[i] = 0;
      continue;
    }
    chv_i128 x = c->dec[j];
    if (!rescale(&x, c->i64b[j], t->scale, t->precision)) {
      /* Hive makes a value its type cannot hold NULL. */
      CHV_RETURN_IF_ERR(ensure_validity(v, err));
      chv_bit_set(v->validity, pos + i, false);
      x = 0;
      bad++;
    }
    d[i] = x;
    j++;
  }
  v->null_count += bad;
  return CHV_OK;
}

/* ---- timestamps -------------------------------------------------------- */

/* A TIMESTAMP value as Hive 3 reads it: ORC's reader rebuilds the instant
** (seconds + the zone's 2015-01-01, one second less for a negative time
** with more than 999,999 nanoseconds, the writer's quirk) and Hive, reading
** in UTC, shifts it by the writer zone's offset at that instant: the
** result is the wall-clock time the writer saw. */
static struct chv_timestamp ts_convert(struct or_col *c, int64_t secs,
                                       int32_t nanos) {
  int64_t s = (int64_t)((uint64_t)secs + (uint64_t)c->ts_base);
  if (s < 0 && nanos > 999999) s--;
  if (!c->ts_utc) s = (int64_t)((uint64_t)s + (uint64_t)or_tz_offset(c->tz, s));
  struct chv_timestamp t = {s, nanos, 0};
  return t;
}

static int read_timestamps(struct or_col *c, int64_t n, const uint8_t *valid,
                           int64_t k, struct chv_vector *v, int64_t pos,
                           struct chv_error *err) {
  if (k > 0) {
    CHV_RETURN_IF_ERR(need(&c->data, "DATA", err));
    CHV_RETURN_IF_ERR(need(&c->secondary, "SECONDARY", err));
    CHV_RETURN_IF_ERR(chv_orc_int_rle_read(c->ints, c->i64, (size_t)k, err));
    CHV_RETURN_IF_ERR(chv_orc_int_rle_read(c->secs, c->i64b, (size_t)k, err));
    if (c->tz == NULL) {
      /* The stripe's writer zone; none (Hive 0.11) reads as UTC, and
      ** TIMESTAMP_INSTANT values are instants. */
      const char *zone = c->r->sf.writer_timezone;
      if (c->kind == CHV_ORC_KIND_TIMESTAMP_INSTANT || zone == NULL ||
          *zone == '\0')
        zone = "UTC";
      CHV_RETURN_IF_ERR(or_reader_tz(c->r, zone, &c->tz, err));
      c->ts_base = or_tz_base(c->tz);
      c->ts_utc = or_tz_is_utc(c->tz);
    }
  }
  struct chv_timestamp *d = (struct chv_timestamp *)v->data + pos;
  for (int64_t i = 0, j = 0; i < n; i++) {
    if (valid && !valid[i]) {
      memset(&d[i], 0, sizeof d[i]);
      continue;
    }
    int32_t ns;
    CHV_RETURN_IF_ERR(chv_orc_nanos_decode((uint64_t)c->i64b[j], &ns, err));
    d[i] = ts_convert(c, c->i64[j], ns);
    j++;
  }
  return CHV_OK;
}

/* ---- strings and binaries ---------------------------------------------- */

static bool is_dict(const struct or_col *c) {
  return c->encoding == CHV_ORC_ENC_DICTIONARY ||
         c->encoding == CHV_ORC_ENC_DICTIONARY_V2;
}

/* k DIRECT lengths into c->i64, checked; *total their sum. */
static int direct_lengths(struct or_col *c, int64_t k, int64_t *total,
                          struct chv_error *err) {
  *total = 0;
  if (k == 0) return CHV_OK;
  CHV_RETURN_IF_ERR(need(&c->length, "LENGTH", err));
  CHV_RETURN_IF_ERR(chv_orc_int_rle_read(c->lens, c->i64, (size_t)k, err));
  int64_t sum = 0;
  for (int64_t i = 0; i < k; i++) {
    int64_t len = c->i64[i];
    if (len < 0 || len > INT32_MAX)
      return chv_error_set(err, CHV_ECORRUPT,
                           "a value's length %" PRId64 " is out of range",
                           len);
    sum += len;
    if (sum > INT64_MAX / 2) sum = INT64_MAX / 2;
  }
  *total = sum;
  return CHV_OK;
}

/* k dictionary ids into c->i64 (checked), their lengths replacing nothing:
** *total the bytes they reference. */
static int dict_ids(struct or_col *c, int64_t k, int64_t *total,
                    struct chv_error *err) {
  *total = 0;
  if (k == 0) return CHV_OK;
  CHV_RETURN_IF_ERR(need(&c->data, "DATA", err));
  CHV_RETURN_IF_ERR(chv_orc_int_rle_read(c->ints, c->i64, (size_t)k, err));
  int64_t sum = 0;
  for (int64_t i = 0; i < k; i++) {
    uint64_t id = (uint64_t)c->i64[i];
    if (id >= c->dict_n)
      return chv_error_set(err, CHV_ECORRUPT,
                           "dictionary id %" PRIu64 " is not below the "
                           "dictionary's %" PRIu32 " entries",
                           id, c->dict_n);
    sum += c->dict_off[id + 1] - c->dict_off[id];
    if (sum > INT64_MAX / 2) sum = INT64_MAX / 2;
  }
  *total = sum;
  return CHV_OK;
}

/* Append `total` bytes of the DATA stream to dst (grown as they come, so
** that nothing is allocated for bytes the stream does not hold). */
static int copy_data(struct or_col *c, int64_t total, char **base,
                     int64_t *len, int64_t *cap, struct chv_error *err) {
  if (total > 0) CHV_RETURN_IF_ERR(need(&c->data, "DATA", err));
  while (total > 0) {
    const uint8_t *p;
    size_t got;
    CHV_RETURN_IF_ERR(
        chv_orc_stream_next(&c->data.s, (size_t)total, &p, &got, err));
    if (got == 0)
      return chv_error_set(err, CHV_ECORRUPT,
                           "DATA: the stream ends %" PRId64 " bytes early",
                           total);
    if (*len + (int64_t)got > *cap) {
      int64_t nc = *cap * 2;
      if (nc < *len + (int64_t)got) nc = *len + (int64_t)got;
      if (nc < 64) nc = 64;
      char *b = chv_realloc(*base, (size_t)nc);
      if (b == NULL) return oom(err);
      *base = b;
      *cap = nc;
    }
    memcpy(*base + *len, p, got);
    *len += (int64_t)got;
    total -= (int64_t)got;
  }
  return CHV_OK;
}

/* STRING and BINARY targets: bytes straight into the vector's heap. */
static int read_bytes_bulk(struct or_col *c, int64_t n, const uint8_t *valid,
                           int64_t k, struct chv_vector *v, int64_t pos,
                           struct chv_error *err) {
  int64_t total;
  bool dict = is_dict(c);
  CHV_RETURN_IF_ERR(dict ? dict_ids(c, k, &total, err)
                         : direct_lengths(c, k, &total, err));
  CHV_RETURN_IF_ERR(budget(c, v->bytes_len, total, "string bytes", err));
  if (dict) {
    CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(v, total, err));
    char *h = v->bytes + v->bytes_len;
    for (int64_t i = 0; i < k; i++) {
      uint64_t id = (uint64_t)c->i64[i];
      uint32_t a = c->dict_off[id], len = c->dict_off[id + 1] - a;
      memcpy(h, c->dict_blob.data + a, len);
      h += len;
      c->i64[i] = len;
    }
    v->bytes_len += total;
  } else {
    int64_t cap = v->bytes_cap;
    char *b = v->bytes;
    int rc = copy_data(c, total, &b, &v->bytes_len, &cap, err);
    v->bytes = b;
    v->bytes_cap = cap;
    CHV_RETURN_IF_ERR(rc);
  }
  int32_t *o = v->offsets + pos;
  int64_t run = o[0];
  for (int64_t i = 0, j = 0; i < n; i++) {
    if (valid == NULL || valid[i]) run += c->i64[j++];
    o[i + 1] = (int32_t)run;
  }
  return CHV_OK;
}

/* CHAR and VARCHAR targets, and CHAR files: value by value under Hive's
** length rule (and without a CHAR's trailing spaces). */
static int read_bytes_rows(struct or_col *c, int64_t n, const uint8_t *valid,
                           int64_t k, struct chv_vector *v,
                           struct chv_error *err) {
  int64_t total;
  bool dict = is_dict(c);
  CHV_RETURN_IF_ERR(dict ? dict_ids(c, k, &total, err)
                         : direct_lengths(c, k, &total, err));
  CHV_RETURN_IF_ERR(budget(c, v->bytes_len, total, "string bytes", err));
  const char *base;
  if (dict) {
    base = c->dict_blob.data;
  } else {
    chv_buf_reset(&c->sbuf);
    int64_t len = 0, cap = (int64_t)c->sbuf.cap;
    char *b = c->sbuf.data;
    int rc = copy_data(c, total, &b, &len, &cap, err);
    c->sbuf.data = b;
    c->sbuf.cap = (size_t)cap;
    c->sbuf.len = (size_t)len;
    CHV_RETURN_IF_ERR(rc);
    base = c->sbuf.data;
  }
  int64_t at = 0;
  for (int64_t i = 0, j = 0; i < n; i++) {
    if (valid && !valid[i]) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(v, err));
      continue;
    }
    const char *p;
    size_t len;
    if (dict) {
      uint64_t id = (uint64_t)c->i64[j++];
      p = base + c->dict_off[id];
      len = c->dict_off[id + 1] - c->dict_off[id];
    } else {
      p = base + at;
      len = (size_t)c->i64[j++];
      at += (int64_t)len;
    }
    if (c->trim_char)
      while (len > 0 && p[len - 1] == ' ') len--;
    CHV_RETURN_IF_ERR(chv_vector_append_string(v, p, len, err));
  }
  return CHV_OK;
}

/* ---- nested values ----------------------------------------------------- */

static int read_lists(struct or_col *c, int64_t n, const uint8_t *valid,
                      int64_t k, struct chv_vector *v, int64_t pos,
                      struct chv_error *err) {
  if (k > 0) {
    CHV_RETURN_IF_ERR(need(&c->length, "LENGTH", err));
    CHV_RETURN_IF_ERR(chv_orc_int_rle_read(c->lens, c->i64, (size_t)k, err));
  }
  int32_t *o = v->offsets + pos;
  int64_t run = o[0];
  for (int64_t i = 0, j = 0; i < n; i++) {
    if (valid == NULL || valid[i]) {
      int64_t len = c->i64[j++];
      if (len < 0 || len > INT32_MAX)
        return chv_error_set(err, CHV_ECORRUPT,
                             "a length of %" PRId64 " elements is out of "
                             "range",
                             len);
      CHV_RETURN_IF_ERR(budget(c, run, len, "list and map elements", err));
      run += len;
      if (run > INT32_MAX - 1)
        return chv_error_set(err, CHV_ERANGE,
                             "more than 2^31 elements in one batch");
    }
    o[i + 1] = (int32_t)run;
  }
  return CHV_OK;
}

static int read_union_tags(struct or_col *c, int64_t n, const uint8_t *valid,
                           int64_t k, struct chv_error *err) {
  if (k > 0) {
    CHV_RETURN_IF_ERR(need(&c->data, "DATA", err));
    CHV_RETURN_IF_ERR(chv_orc_byte_rle_read(&c->bytes, c->u8, (size_t)k, err));
  }
  /* Slot tags in i64b's bytes; dense tags as integers in i64. */
  uint8_t *slot = (uint8_t *)c->i64b;
  for (int64_t i = 0, j = 0; i < n; i++) {
    if (valid && !valid[i]) {
      slot[i] = 0xff;
      continue;
    }
    uint8_t t = c->u8[j];
    if (t >= c->nvariants)
      return chv_error_set(err, CHV_ECORRUPT,
                           "tag %u of a union of %" PRIu32 " variants",
                           (unsigned)t, c->nvariants);
    c->i64[j++] = t;
    slot[i] = t;
  }
  return CHV_OK;
}

static int read_slice(struct or_col *c, int64_t n, const uint8_t *pm,
                      struct chv_vector *v, struct chv_error *err) {
  int64_t pos = v->length;
  const uint8_t *valid;
  int64_t k;
  enum chv_type_id tid = v->type->id;
  OWN(scratch_reserve(c, n, err));
  OWN(chv_vector_reserve(v, pos + n, err));
  OWN(presence(c, n, pm, &valid, &k, err));
  if (is_string_kind(c->kind) &&
      (tid == CHV_TYPE_CHAR || tid == CHV_TYPE_VARCHAR || c->trim_char)) {
    OWN(read_bytes_rows(c, n, valid, k, v, err));
    return CHV_OK;
  }
  OWN(set_nulls(v, pos, n, valid, k, err));
  switch (c->kind) {
  case CHV_ORC_KIND_BOOLEAN:
    OWN(read_booleans(c, n, valid, k, v, pos, err));
    break;
  case CHV_ORC_KIND_BYTE:
  case CHV_ORC_KIND_SHORT:
  case CHV_ORC_KIND_INT:
  case CHV_ORC_KIND_LONG:
  case CHV_ORC_KIND_DATE:
    OWN(read_ints(c, n, valid, k, v, pos, err));
    break;
  case CHV_ORC_KIND_FLOAT:
  case CHV_ORC_KIND_DOUBLE:
    OWN(read_reals(c, n, valid, k, v, pos, err));
    break;
  case CHV_ORC_KIND_DECIMAL:
    OWN(read_decimals(c, n, valid, k, v, pos, err));
    break;
  case CHV_ORC_KIND_TIMESTAMP:
  case CHV_ORC_KIND_TIMESTAMP_INSTANT:
    OWN(read_timestamps(c, n, valid, k, v, pos, err));
    break;
  case CHV_ORC_KIND_STRUCT:
    v->length = pos + n;
    for (int i = 0; i < c->nchildren; i++) {
      if (c->children[i])
        CHV_RETURN_IF_ERR(or_col_read(c->children[i], n, valid,
                                      v->children[i], err));
      else
        OWN(or_append_nulls(v->children[i], n, err));
    }
    return CHV_OK;
  case CHV_ORC_KIND_LIST:
  case CHV_ORC_KIND_MAP: {
    OWN(read_lists(c, n, valid, k, v, pos, err));
    int64_t e = v->offsets[pos + n] - v->offsets[pos];
    v->length = pos + n;
    for (int i = 0; i < c->nchildren; i++)
      CHV_RETURN_IF_ERR(or_col_read(c->children[i], e, NULL, v->children[i],
                                    err));
    return CHV_OK;
  }
  case CHV_ORC_KIND_UNION: {
    OWN(read_union_tags(c, n, valid, k, err));
    v->length = pos + n;
    const uint8_t *slot = (const uint8_t *)c->i64b;
    for (int i = 0; i < c->nchildren; i++) {
      struct chv_vector *f = v->children[i];
      if (i == c->union_tag_field) {
        int64_t fp = f->length;
        OWN(chv_vector_reserve(f, fp + n, err));
        OWN(set_nulls(f, fp, n, valid, k, err));
        store_ints(f, fp, n, valid, c->i64);
        f->length = fp + n;
        continue;
      }
      if (c->children[i] == NULL) {
        OWN(or_append_nulls(f, n, err));
        continue;
      }
      int var = -1;
      for (uint32_t j = 0; j < c->nvariants; j++)
        if (c->union_field[j] == i) var = (int)j;
      for (int64_t s = 0; s < n; s++)
        c->mask[s] = (valid == NULL || valid[s]) && slot[s] == var;
      CHV_RETURN_IF_ERR(or_col_read(c->children[i], n, c->mask, f, err));
    }
    return CHV_OK;
  }
  default: /* strings and binaries into STRING or BINARY */
    OWN(read_bytes_bulk(c, n, valid, k, v, pos, err));
    break;
  }
  v->length = pos + n;
  return CHV_OK;
}

/* A stream that inflates past max_stream_bytes (a decompression bomb, or
** a stripe larger than the caller accepts) is refused. */
static int inflate_limit(const struct or_col *c, struct chv_error *err) {
  const struct or_stream *st[] = {&c->present, &c->data, &c->length,
                                  &c->secondary};
  static const char *const name[] = {"PRESENT", "DATA", "LENGTH", "SECONDARY"};
  int64_t lim = c->r->o.max_stream_bytes;
  for (int i = 0; i < 4; i++)
    if (st[i]->s.produced > (uint64_t)lim)
      return chv_error_set(err, CHV_ERANGE,
                           "the %s stream inflates past max_stream_bytes "
                           "(%" PRId64 " bytes)",
                           name[i], lim);
  return CHV_OK;
}

int or_col_read(struct or_col *c, int64_t n, const uint8_t *pm,
                struct chv_vector *v, struct chv_error *err) {
  for (int64_t off = 0; off < n; off += OR_SLICE) {
    int64_t m = CHV_MIN(n - off, (int64_t)OR_SLICE);
    CHV_RETURN_IF_ERR(read_slice(c, m, pm ? pm + off : NULL, v, err));
    OWN(inflate_limit(c, err));
  }
  return CHV_OK;
}
