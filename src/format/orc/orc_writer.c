/*
** The ORC file writer (include/chive/orc.h): table properties, the ORC
** types of a Hive row type, batches cut into row groups, stripes, and the
** file's tail.  Columns are written by orc_wcolumn.c.
**
** Types.  Each Hive type becomes the ORC kind of the same name (tinyint
** BYTE, smallint SHORT, bigint LONG, array LIST, the rest alike), VARCHAR
** and CHAR with their maximumLength, DECIMAL with precision and scale; the
** root is a STRUCT of the table's columns with their names, in pre-order
** as ORC numbers columns.
**
** Layout of a file:
**
**   "ORC"
**   stripe: index streams   per column: ROW_INDEX, BLOOM_FILTER_UTF8
**           data streams    per column: PRESENT, DATA, LENGTH,
**                           DICTIONARY_DATA, SECONDARY (those in use)
**           stripe footer   streams, column encodings, writerTimezone
**                           "UTC" when the schema has a timestamp
**   ... more stripes
**   Metadata (each stripe's column statistics), Footer, PostScript, its
**   length byte
**
** Stripes.  Rows are written into the columns' streams as they come, cut at
** row-group boundaries (orc.row.index.stride rows); after each piece the
** bytes the stripe holds (streams as compressed so far, pending chunks,
** string dictionaries) are added up, and the stripe is written when they
** reach orc.stripe.size.  Memory is therefore about one stripe plus one
** compression chunk per stream.
**
** Compression (orc.compress) as Hive's ORC writer uses it with its default
** compression strategy (SPEED): every stream cut into chunks of the
** compression size; ZLIB at level 2 for DATA, DICTIONARY_DATA and bloom
** filters, level 1 for PRESENT, LENGTH, SECONDARY and row indexes, and the
** default level 6 for stripe footers, Metadata and Footer; ZSTD at level 3.
**
** The tail: PostScript version 0.12 and writerVersion 6; the Footer's
** writer is 2147483647, the code ORC Java gives an unknown writer (chive
** has no code in ORC's registry of writers, and only ORC Java may write
** writer versions under 6), so that readers know the file is not ORC
** Java's and apply none of its bug workarounds: ORC Java reads such files as
** from a writer with every fix (version FUTURE), ORC C++ reads version 6 as
** ORC-135 (UTC timestamp statistics).  softwareVersion "chive <version>",
** calendar PROLEPTIC_GREGORIAN (chive's dates and timestamps are), the row
** index stride, the types, the stripes and the file's column statistics.
**
** INTERFACE: chv_orc_write_options_init/_set(), chv_orc_writer_open/_write/
** _stats/_finish/_close() (include/chive/orc.h).
*/
#include "format/orc/orc_write.h"

#include "chive/orc.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define OUT_BUF (1 << 20)     /* bytes gathered before a write to the fs */
#define CHUNK_ROWS 4096       /* rows written between size checks at most */
#define SCRATCH 1024          /* values of a column run encoded at once */
#define WRITER_ID 2147483647u /* ORC Java's id of an unknown writer */
#define WRITER_VERSION 6      /* the first version of non-Java writers */
#define HEADER_LEN 3

struct chv_orc_writer {
  const struct chv_fs *fs;
  struct chv_file *file;
  char *path;
  const struct chv_type *schema;  /* borrowed */
  struct chv_orc_write_options o; /* bloom_filter_columns: in arena */
  chv_orc_codec *codec;           /* the file's, default level */
  chv_orc_codec *codec_text;      /* ZLIB level 2 (or codec) */
  chv_orc_codec *codec_bin;       /* ZLIB level 1 (or codec) */
  struct ow_ctx cx;
  chv_arena *arena; /* types, names, stripes' statistics */
  uint32_t ncols;
  struct ow_col *cols;  /* [0] the root, pre-order */
  struct ow_col **kids; /* children pointers of all columns */
  struct chv_orc_type *types;
  bool has_timestamp;
  int64_t rows_in_rg; /* rows of the group being written */
  int64_t rows_in_stripe;
  uint32_t nstripes, stripe_cap;
  struct chv_orc_stripe_info *stripes;
  struct chv_orc_stripe_stats *sstats;
  struct chv_buf out; /* bytes not yet handed to the fs */
  int64_t pos;        /* file offset after out */
  struct chv_orc_write_stats st;
  int failed; /* status of the failure that broke it */
  char failed_msg[256];
  bool finished;
};

/* ---- options ------------------------------------------------------------- */

#define MAX_STRIPE ((int64_t)1 << 62)
#define MAX_STRIDE INT32_MAX

void chv_orc_write_options_init(struct chv_orc_write_options *o) {
  memset(o, 0, sizeof *o);
  o->compression = CHV_ORC_COMP_ZLIB;
  o->compress_size = 256 * 1024;
  o->stripe_size = (int64_t)64 << 20;
  o->row_index_stride = 10000;
  o->create_index = true;
  o->dictionary_key_threshold = 0.8;
  o->bloom_filter_columns = NULL;
  o->bloom_filter_fpp = 0.05;
}

static int bad_value(struct chv_error *err, const char *key, const char *value,
                     const char *want) {
  return chv_error_set(err, CHV_EINVAL,
                       "table property %s: invalid value '%s' (%s)", key, value,
                       want);
}

/* A size: digits with an optional k, m, g or t suffix (binary). */
static bool parse_size(const char *s, int64_t lo, int64_t hi, int64_t *out) {
  while (*s == ' ' || *s == '\t')
    s++;
  if (*s < '0' || *s > '9') return false;
  int64_t v = 0;
  for (; *s >= '0' && *s <= '9'; s++) {
    if (v > (INT64_MAX - 9) / 10) return false;
    v = v * 10 + (*s - '0');
  }
  int shift = 0;
  switch (*s) {
  case 'k':
  case 'K':
    shift = 10;
    break;
  case 'm':
  case 'M':
    shift = 20;
    break;
  case 'g':
  case 'G':
    shift = 30;
    break;
  case 't':
  case 'T':
    shift = 40;
    break;
  default:
    break;
  }
  if (shift) {
    s++;
    if (*s == 'b' || *s == 'B') s++;
  }
  while (*s == ' ' || *s == '\t')
    s++;
  if (*s) return false;
  if (shift && v > (INT64_MAX >> shift)) return false;
  v <<= shift;
  if (v < lo || v > hi) return false;
  *out = v;
  return true;
}

static bool parse_double(const char *s, double *out) {
  char *end;
  double v = strtod(s, &end);
  if (end == s) return false;
  while (*end == ' ' || *end == '\t')
    end++;
  if (*end || !isfinite(v)) return false;
  *out = v;
  return true;
}

int chv_orc_write_options_set(struct chv_orc_write_options *o, const char *key,
                              const char *value, struct chv_error *err) {
  if (o == NULL || key == NULL || value == NULL)
    return chv_error_set(err, CHV_EINVAL, "table property %s: no value",
                         key ? key : "(null)");
  if (strcmp(key, "orc.compress") == 0) {
    static const struct {
      const char *name;
      int kind;
    } kinds[] = {{"NONE", CHV_ORC_COMP_NONE},     {"ZLIB", CHV_ORC_COMP_ZLIB},
                 {"SNAPPY", CHV_ORC_COMP_SNAPPY}, {"LZO", CHV_ORC_COMP_LZO},
                 {"LZ4", CHV_ORC_COMP_LZ4},       {"ZSTD", CHV_ORC_COMP_ZSTD}};
    for (size_t i = 0; i < CHV_ARRAY_SIZE(kinds); i++)
      if (chv_str_ieq(value, kinds[i].name)) {
        o->compression = kinds[i].kind;
        return CHV_OK;
      }
    return bad_value(err, key, value, "NONE, ZLIB, SNAPPY, LZO, LZ4 or ZSTD");
  }
  int64_t v;
  if (strcmp(key, "orc.compress.size") == 0) {
    if (!parse_size(value, 1, CHV_ORC_MAX_CHUNK, &v))
      return bad_value(err, key, value, "a size in bytes, at most 8388607");
    o->compress_size = v;
    return CHV_OK;
  }
  if (strcmp(key, "orc.stripe.size") == 0) {
    if (!parse_size(value, 1, MAX_STRIPE, &v))
      return bad_value(err, key, value, "a size in bytes");
    o->stripe_size = v;
    return CHV_OK;
  }
  if (strcmp(key, "orc.row.index.stride") == 0) {
    if (!parse_size(value, 0, MAX_STRIDE, &v))
      return bad_value(err, key, value, "a number of rows, 0 for none");
    o->row_index_stride = v;
    return CHV_OK;
  }
  if (strcmp(key, "orc.create.index") == 0) {
    if (chv_str_ieq(value, "true"))
      o->create_index = true;
    else if (chv_str_ieq(value, "false"))
      o->create_index = false;
    else
      return bad_value(err, key, value, "true or false");
    return CHV_OK;
  }
  double d;
  if (strcmp(key, "orc.dictionary.key.threshold") == 0) {
    if (!parse_double(value, &d) || d < 0)
      return bad_value(err, key, value, "a fraction, 0 to 1");
    o->dictionary_key_threshold = d;
    return CHV_OK;
  }
  if (strcmp(key, "orc.bloom.filter.fpp") == 0) {
    if (!parse_double(value, &d) || !(d > 0 && d < 1))
      return bad_value(err, key, value, "a probability between 0 and 1");
    o->bloom_filter_fpp = d;
    return CHV_OK;
  }
  if (strcmp(key, "orc.bloom.filter.columns") == 0) {
    o->bloom_filter_columns = value;
    return CHV_OK;
  }
  return CHV_OK; /* not a property of the writer */
}

static int check_options(const struct chv_orc_write_options *o,
                         struct chv_error *err) {
  const char *bad = NULL;
  if (o->compression != CHV_ORC_COMP_NONE &&
      o->compression != CHV_ORC_COMP_ZLIB &&
      o->compression != CHV_ORC_COMP_SNAPPY &&
      o->compression != CHV_ORC_COMP_LZO &&
      o->compression != CHV_ORC_COMP_LZ4 && o->compression != CHV_ORC_COMP_ZSTD)
    bad = "compression";
  else if (o->compress_size < 1 || o->compress_size > CHV_ORC_MAX_CHUNK)
    bad = "compress_size";
  else if (o->stripe_size < 1 || o->stripe_size > MAX_STRIPE)
    bad = "stripe_size";
  else if (o->row_index_stride < 0 || o->row_index_stride > MAX_STRIDE)
    bad = "row_index_stride";
  else if (!(o->dictionary_key_threshold >= 0) ||
           !isfinite(o->dictionary_key_threshold))
    bad = "dictionary_key_threshold";
  else if (!(o->bloom_filter_fpp > 0 && o->bloom_filter_fpp < 1))
    bad = "bloom_filter_fpp";
  if (bad)
    return chv_error_set(err, CHV_EINVAL,
                         "ORC write options: %s is out of "
                         "range",
                         bad);
  return CHV_OK;
}

/* ORC Java's compression size: the option, or less when the stripe size
** spread over 20 chunks per column is less (a power of two, 4..256 KiB). */
static uint64_t block_size(const struct chv_orc_write_options *o,
                           uint32_t ncols) {
  int64_t est = o->stripe_size / (20 * (int64_t)ncols);
  int64_t b = 4 * 1024;
  while (b < est && b < 256 * 1024)
    b *= 2;
  return (uint64_t)CHV_MIN(b, o->compress_size);
}

/* ---- the schema ---------------------------------------------------------- */

static int32_t kind_of(enum chv_type_id id) {
  switch (id) {
  case CHV_TYPE_BOOLEAN:
    return CHV_ORC_KIND_BOOLEAN;
  case CHV_TYPE_TINYINT:
    return CHV_ORC_KIND_BYTE;
  case CHV_TYPE_SMALLINT:
    return CHV_ORC_KIND_SHORT;
  case CHV_TYPE_INT:
    return CHV_ORC_KIND_INT;
  case CHV_TYPE_BIGINT:
    return CHV_ORC_KIND_LONG;
  case CHV_TYPE_FLOAT:
    return CHV_ORC_KIND_FLOAT;
  case CHV_TYPE_DOUBLE:
    return CHV_ORC_KIND_DOUBLE;
  case CHV_TYPE_DECIMAL:
    return CHV_ORC_KIND_DECIMAL;
  case CHV_TYPE_STRING:
    return CHV_ORC_KIND_STRING;
  case CHV_TYPE_VARCHAR:
    return CHV_ORC_KIND_VARCHAR;
  case CHV_TYPE_CHAR:
    return CHV_ORC_KIND_CHAR;
  case CHV_TYPE_BINARY:
    return CHV_ORC_KIND_BINARY;
  case CHV_TYPE_DATE:
    return CHV_ORC_KIND_DATE;
  case CHV_TYPE_TIMESTAMP:
    return CHV_ORC_KIND_TIMESTAMP;
  case CHV_TYPE_ARRAY:
    return CHV_ORC_KIND_LIST;
  case CHV_TYPE_MAP:
    return CHV_ORC_KIND_MAP;
  case CHV_TYPE_STRUCT:
    return CHV_ORC_KIND_STRUCT;
  default:
    return -1;
  }
}

/* Count the ORC types of t and check what the writer takes. */
static int count_types(const struct chv_type *t, const char *name, int depth,
                       uint32_t *n, const char *path, struct chv_error *err) {
  if (t == NULL)
    return chv_error_set(err, CHV_EINVAL, "%s: column %s has no type", path,
                         name);
  if (depth > CHV_ORC_MAX_DEPTH)
    return chv_error_set(err, CHV_ENOTSUP,
                         "%s: column %s nests deeper than %d levels", path,
                         name, CHV_ORC_MAX_DEPTH);
  if (*n >= (uint32_t)INT32_MAX)
    return chv_error_set(err, CHV_ENOTSUP, "%s: too many columns", path);
  (*n)++;
  switch (t->id) {
  case CHV_TYPE_DECIMAL:
    if (t->precision < 1 || t->precision > CHV_DECIMAL_MAX_PRECISION ||
        t->scale < 0 || t->scale > t->precision)
      return chv_error_set(err, CHV_EINVAL, "%s: column %s: bad decimal(%d,%d)",
                           path, name, t->precision, t->scale);
    return CHV_OK;
  case CHV_TYPE_CHAR:
  case CHV_TYPE_VARCHAR:
    if (t->length < 1)
      return chv_error_set(err, CHV_EINVAL, "%s: column %s: bad length %d",
                           path, name, t->length);
    return CHV_OK;
  case CHV_TYPE_ARRAY:
  case CHV_TYPE_MAP: {
    int want = t->id == CHV_TYPE_ARRAY ? 1 : 2;
    if (t->nchildren != want || t->children == NULL)
      return chv_error_set(err, CHV_EINVAL, "%s: column %s: malformed %s type",
                           path, name, chv_type_id_name(t->id));
    for (int i = 0; i < want; i++)
      CHV_RETURN_IF_ERR(
          count_types(t->children[i], name, depth + 1, n, path, err));
    return CHV_OK;
  }
  case CHV_TYPE_STRUCT:
    if (t->nchildren > 0 && (t->children == NULL || t->names == NULL))
      return chv_error_set(err, CHV_EINVAL,
                           "%s: column %s: malformed struct type", path, name);
    for (int i = 0; i < t->nchildren; i++) {
      if (t->names[i] == NULL)
        return chv_error_set(err, CHV_EINVAL,
                             "%s: column %s: field %d has no name", path, name,
                             i);
      CHV_RETURN_IF_ERR(
          count_types(t->children[i], t->names[i], depth + 1, n, path, err));
    }
    return CHV_OK;
  default:
    if (kind_of(t->id) < 0)
      return chv_error_set(err, CHV_EINVAL, "%s: column %s: unknown type %d",
                           path, name, (int)t->id);
    return CHV_OK;
  }
}

struct tbuild {
  chv_orc_writer *w;
  uint32_t next;  /* next column id */
  uint32_t nkids; /* children pointers used */
  struct chv_error *err;
};

static const char *join_name(chv_arena *a, const char *parent,
                             const char *name) {
  size_t pn = parent ? strlen(parent) : 0, n = strlen(name);
  char *s = chv_arena_alloc(a, pn + n + 2);
  if (s == NULL) return NULL;
  if (pn) {
    memcpy(s, parent, pn);
    s[pn++] = '.';
  }
  memcpy(s + pn, name, n + 1);
  return s;
}

/* Place t (named name) as column b->next and its subtree after it. */
static int place(struct tbuild *b, const struct chv_type *t, const char *name) {
  chv_orc_writer *w = b->w;
  uint32_t id = b->next++;
  struct ow_col *c = &w->cols[id];
  struct chv_orc_type *ot = &w->types[id];
  c->id = id;
  c->kind = kind_of(t->id);
  c->type = t;
  c->name = name;
  c->nullable = id != 0;
  ot->kind = c->kind;
  ot->id = id;
  if (t->id == CHV_TYPE_TIMESTAMP) w->has_timestamp = true;
  switch (t->id) {
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
    ot->has_maximum_length = true;
    ot->maximum_length = (uint32_t)t->length;
    break;
  case CHV_TYPE_DECIMAL:
    ot->has_precision = ot->has_scale = true;
    ot->precision = (uint32_t)t->precision;
    ot->scale = (uint32_t)t->scale;
    break;
  default:
    break;
  }
  int nk = t->id == CHV_TYPE_ARRAY    ? 1
           : t->id == CHV_TYPE_MAP    ? 2
           : t->id == CHV_TYPE_STRUCT ? t->nchildren
                                      : 0;
  if (nk == 0) return CHV_OK;
  c->nchildren = nk;
  c->children = &w->kids[b->nkids];
  b->nkids += (uint32_t)nk;
  ot->nsubtypes = (uint32_t)nk;
  ot->subtypes = chv_arena_alloc(w->arena, sizeof *ot->subtypes * (size_t)nk);
  if (ot->subtypes == NULL) return CHV_ENOMEM;
  if (t->id == CHV_TYPE_STRUCT) {
    ot->nfield_names = (uint32_t)nk;
    ot->field_names =
        chv_arena_alloc(w->arena, sizeof *ot->field_names * (size_t)nk);
    if (ot->field_names == NULL) return CHV_ENOMEM;
  }
  static const char *const list_names[] = {"_elem"};
  static const char *const map_names[] = {"_key", "_value"};
  for (int i = 0; i < nk; i++) {
    const char *cn = t->id == CHV_TYPE_STRUCT  ? t->names[i]
                     : t->id == CHV_TYPE_ARRAY ? list_names[0]
                                               : map_names[i];
    const char *full = join_name(w->arena, id == 0 ? NULL : name, cn);
    if (full == NULL) return CHV_ENOMEM;
    if (t->id == CHV_TYPE_STRUCT) ot->field_names[i] = t->names[i];
    ot->subtypes[i] = b->next;
    c->children[i] = &w->cols[b->next];
    CHV_RETURN_IF_ERR(place(b, t->children[i], full));
  }
  return CHV_OK;
}

/* Mark the columns orc.bloom.filter.columns names (each with its subtree),
** as ORC Java finds them: dotted names descending into structs,
** case-insensitively; "*" is every column. */
static int mark_bloom(chv_orc_writer *w, struct chv_error *err) {
  const char *spec = w->o.bloom_filter_columns;
  if (spec == NULL || *spec == '\0') return CHV_OK;
  if (strcmp(spec, "*") == 0) {
    for (uint32_t i = 0; i < w->ncols; i++)
      w->cols[i].bloom = true;
    return CHV_OK;
  }
  char *copy = chv_strdup(spec);
  if (copy == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  char *save = NULL;
  for (char *tok = strtok_r(copy, ",", &save); tok;
       tok = strtok_r(NULL, ",", &save)) {
    char *name = chv_str_trim(tok);
    uint32_t cur = 0;
    bool found = true;
    char *save2 = NULL;
    for (char *part = strtok_r(name, ".", &save2); part;
         part = strtok_r(NULL, ".", &save2)) {
      const struct ow_col *c = &w->cols[cur];
      if (c->kind != CHV_ORC_KIND_STRUCT) break;
      int k = -1;
      for (int i = 0; i < c->nchildren; i++)
        if (chv_str_ieq(c->type->names[i], part)) {
          k = i;
          break;
        }
      if (k < 0) {
        found = false;
        break;
      }
      cur = c->children[k]->id;
    }
    if (!found || cur == 0) continue;
    for (uint32_t i = cur; i < w->types[cur].end; i++)
      w->cols[i].bloom = true;
  }
  chv_free(copy);
  return CHV_OK;
}

static int build_schema(chv_orc_writer *w, struct chv_error *err) {
  const struct chv_type *s = w->schema;
  if (s == NULL || s->id != CHV_TYPE_STRUCT)
    return chv_error_set(err, CHV_EINVAL, "%s: the schema must be a STRUCT",
                         w->path);
  uint32_t n = 0;
  CHV_RETURN_IF_ERR(count_types(s, "(root)", 0, &n, w->path, err));
  w->ncols = n;
  w->cols = chv_calloc(n, sizeof *w->cols);
  w->kids = chv_calloc(n, sizeof *w->kids);
  w->types = chv_arena_alloc(w->arena, sizeof *w->types * n);
  if (w->cols == NULL || w->kids == NULL || w->types == NULL)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  memset(w->types, 0, sizeof *w->types * n);
  struct tbuild b = {w, 0, 0, err};
  if (place(&b, s, "(root)") != CHV_OK)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  struct chv_orc_footer f;
  memset(&f, 0, sizeof f);
  f.ntypes = n;
  f.types = w->types;
  CHV_RETURN_IF_ERR(chv_orc_types_check(&f, w->path, err));
  CHV_RETURN_IF_ERR(mark_bloom(w, err));
  for (uint32_t i = 0; i < n; i++)
    CHV_RETURN_IF_ERR(ow_col_init(&w->cols[i], &w->cx, err));
  /* Children follow their parents: decide bottom up. */
  for (uint32_t i = n; i-- > 0;) {
    struct ow_col *c = &w->cols[i];
    c->needs_check =
        c->kind == CHV_ORC_KIND_DECIMAL || c->kind == CHV_ORC_KIND_TIMESTAMP;
    for (int k = 0; k < c->nchildren; k++)
      c->needs_check |= c->children[k]->needs_check;
  }
  return CHV_OK;
}

/* ---- output -------------------------------------------------------------- */

static int out_flush(chv_orc_writer *w, struct chv_error *err) {
  if (w->out.len == 0) return CHV_OK;
  int rc = chv_file_write(w->file, w->out.data, w->out.len, err);
  chv_buf_reset(&w->out);
  return rc;
}

static int emit(chv_orc_writer *w, const void *p, size_t n,
                struct chv_error *err) {
  if (n == 0) return CHV_OK;
  if (w->out.len + n > OUT_BUF) {
    CHV_RETURN_IF_ERR(out_flush(w, err));
    if (n >= OUT_BUF) {
      CHV_RETURN_IF_ERR(chv_file_write(w->file, p, n, err));
      w->pos += (int64_t)n;
      return CHV_OK;
    }
  }
  if (chv_buf_append(&w->out, p, n))
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  w->pos += (int64_t)n;
  return CHV_OK;
}

/* ---- stripes ------------------------------------------------------------- */

static const int32_t stream_kinds[OW_NSTREAMS] = {
    CHV_ORC_STREAM_PRESENT, CHV_ORC_STREAM_DATA, CHV_ORC_STREAM_LENGTH,
    CHV_ORC_STREAM_DICTIONARY_DATA, CHV_ORC_STREAM_SECONDARY};

static bool stream_used(const struct ow_col *c, int k) {
  if (!c->has[k]) return false;
  if (k == OW_PRESENT) return c->nulls;
  if (k == OW_DICT) return c->encoding == CHV_ORC_ENC_DICTIONARY_V2;
  return true;
}

static int64_t buffered(const chv_orc_writer *w) {
  int64_t n = 0;
  for (uint32_t i = 0; i < w->ncols; i++)
    n += ow_col_buffered(&w->cols[i]);
  return n;
}

static int rg_begin_all(chv_orc_writer *w, struct chv_error *err) {
  for (uint32_t i = 0; i < w->ncols; i++)
    CHV_RETURN_IF_ERR(ow_col_rg_begin(&w->cols[i], &w->cx, err));
  return CHV_OK;
}

static int rg_end_all(chv_orc_writer *w, struct chv_error *err) {
  for (uint32_t i = 0; i < w->ncols; i++)
    CHV_RETURN_IF_ERR(ow_col_rg_end(&w->cols[i], &w->cx, err));
  w->rows_in_rg = 0;
  return CHV_OK;
}

static int flush_stripe(chv_orc_writer *w, struct chv_error *err) {
  if (w->rows_in_stripe == 0) return CHV_OK;
  if (w->cx.stride > 0 && w->rows_in_rg > 0)
    CHV_RETURN_IF_ERR(rg_end_all(w, err));
  for (uint32_t i = 0; i < w->ncols; i++)
    CHV_RETURN_IF_ERR(ow_col_finish_stripe(&w->cols[i], &w->cx, err));
  if (w->nstripes == w->stripe_cap) {
    uint32_t cap = w->stripe_cap ? w->stripe_cap * 2 : 8;
    struct chv_orc_stripe_info *s = chv_realloc(w->stripes, sizeof *s * cap);
    if (s == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
    w->stripes = s;
    struct chv_orc_stripe_stats *ss = chv_realloc(w->sstats, sizeof *ss * cap);
    if (ss == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
    w->sstats = ss;
    w->stripe_cap = cap;
  }
  chv_arena *sa = w->cx.stripe_arena;
  struct chv_orc_stripe_footer sf;
  memset(&sf, 0, sizeof sf);
  sf.streams =
      chv_arena_alloc(sa, sizeof *sf.streams * w->ncols * (OW_NSTREAMS + 2));
  sf.columns = chv_arena_alloc(sa, sizeof *sf.columns * w->ncols);
  struct chv_orc_stripe_stats *ss = &w->sstats[w->nstripes];
  ss->ncolumns = w->ncols;
  ss->columns = chv_arena_alloc(w->arena, sizeof *ss->columns * w->ncols);
  if (sf.streams == NULL || sf.columns == NULL || ss->columns == NULL)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  int64_t start = w->pos;
  uint64_t index_len = 0, data_len = 0;
  for (uint32_t i = 0; i < w->ncols; i++) {
    struct ow_col *c = &w->cols[i];
    if (w->cx.stride > 0) {
      sf.streams[sf.nstreams++] = (struct chv_orc_stream_info){
          CHV_ORC_STREAM_ROW_INDEX, i, c->index.len, 0};
      index_len += c->index.len;
      CHV_RETURN_IF_ERR(emit(w, c->index.data, c->index.len, err));
    }
    if (w->cx.stride > 0 && c->bloom) {
      sf.streams[sf.nstreams++] = (struct chv_orc_stream_info){
          CHV_ORC_STREAM_BLOOM_FILTER_UTF8, i, c->bloomx.len, 0};
      index_len += c->bloomx.len;
      CHV_RETURN_IF_ERR(emit(w, c->bloomx.data, c->bloomx.len, err));
    }
  }
  for (uint32_t i = 0; i < w->ncols; i++) {
    struct ow_col *c = &w->cols[i];
    for (int k = 0; k < OW_NSTREAMS; k++) {
      if (!stream_used(c, k)) continue;
      const struct chv_buf *b = &c->s[k].out;
      sf.streams[sf.nstreams++] =
          (struct chv_orc_stream_info){stream_kinds[k], i, b->len, 0};
      data_len += b->len;
      CHV_RETURN_IF_ERR(emit(w, b->data, b->len, err));
    }
    struct chv_orc_encoding *e = &sf.columns[i];
    memset(e, 0, sizeof *e);
    e->kind = c->encoding;
    if (c->encoding == CHV_ORC_ENC_DICTIONARY_V2) {
      e->has_dictionary_size = true;
      e->dictionary_size = c->dict_size;
    }
    if (c->bloom && w->cx.stride > 0) {
      e->has_bloom_encoding = true;
      e->bloom_encoding = 1; /* UTF8 bloom filters, UTC timestamps */
    }
    if (ow_stats_to_orc(&c->stripe_st, c->kind, c->type->scale,
                        c->type->precision, w->arena,
                        &ss->columns[i]) != CHV_OK)
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  sf.ncolumns = w->ncols;
  sf.writer_timezone = w->has_timestamp ? "UTC" : NULL;
  struct chv_buf *tmp = &w->cx.buf;
  chv_buf_reset(tmp);
  CHV_RETURN_IF_ERR(chv_orc_stripe_footer_write(&sf, tmp, err));
  struct chv_buf zf;
  chv_buf_init(&zf);
  int rc = chv_orc_compress_all(w->codec, tmp->data, tmp->len, &zf, err);
  if (rc == CHV_OK) rc = emit(w, zf.data, zf.len, err);
  uint64_t footer_len = zf.len;
  chv_buf_free(&zf);
  CHV_RETURN_IF_ERR(rc);
  struct chv_orc_stripe_info *si = &w->stripes[w->nstripes++];
  memset(si, 0, sizeof *si);
  si->offset = (uint64_t)start;
  si->index_length = index_len;
  si->data_length = data_len;
  si->footer_length = footer_len;
  si->number_of_rows = (uint64_t)w->rows_in_stripe;
  for (uint32_t i = 0; i < w->ncols; i++)
    ow_col_reset_stripe(&w->cols[i]);
  chv_arena_reset(sa);
  w->rows_in_stripe = 0;
  w->st.stripes = (int)w->nstripes;
  return CHV_OK;
}

/* rawDataSize as ORC's reader computes it from the file statistics (Java's
** 64-bit data model). */
static int64_t raw_size(const chv_orc_writer *w) {
  int64_t total = 0;
  for (uint32_t i = 0; i < w->ncols; i++) {
    const struct ow_col *c = &w->cols[i];
    const struct ow_stats *s = &c->file_st;
    int64_t n = (int64_t)s->count;
    switch (c->kind) {
    case CHV_ORC_KIND_BINARY:
      total += s->ssum;
      break;
    case CHV_ORC_KIND_STRING:
    case CHV_ORC_KIND_CHAR:
    case CHV_ORC_KIND_VARCHAR: {
      if (n == 0) n = 1;
      int32_t avg = (int32_t)(s->ssum / n);
      total += n * (32 + 4 * 3 + 40 + (int64_t)avg);
      break;
    }
    case CHV_ORC_KIND_TIMESTAMP:
      total += n * 40;
      break;
    case CHV_ORC_KIND_DATE:
      total += n * 56;
      break;
    case CHV_ORC_KIND_DECIMAL:
      total += n * 112;
      break;
    case CHV_ORC_KIND_DOUBLE:
    case CHV_ORC_KIND_LONG:
      total += n * 8;
      break;
    case CHV_ORC_KIND_FLOAT:
    case CHV_ORC_KIND_INT:
    case CHV_ORC_KIND_SHORT:
    case CHV_ORC_KIND_BOOLEAN:
    case CHV_ORC_KIND_BYTE:
      total += n * 4;
      break;
    default:
      break;
    }
  }
  return total;
}

/* ---- batches ------------------------------------------------------------- */

static int bad_batch(chv_orc_writer *w, struct chv_error *err, const char *col,
                     const char *what) {
  return chv_error_set(err, CHV_ETYPE, "%s: batch column %s: %s", w->path, col,
                       what);
}

/* Offsets [begin, end] of v are ascending from >= 0. */
static bool offsets_ok(const struct chv_vector *v, int64_t begin, int64_t end) {
  if (v->offsets == NULL) return false;
  if (v->offsets[begin] < 0) return false;
  for (int64_t i = begin; i < end; i++)
    if (v->offsets[i + 1] < v->offsets[i]) return false;
  return true;
}

/* Rows [begin, end) of v have the shape of column c. */
static int check_shape(chv_orc_writer *w, const struct chv_vector *v,
                       const struct ow_col *c, int64_t begin, int64_t end,
                       struct chv_error *err) {
  const struct chv_type *t = c->type;
  if (v == NULL) return bad_batch(w, err, c->name, "a vector is missing");
  if (v->type == NULL || v->type->id != t->id)
    return bad_batch(w, err, c->name,
                     "a vector has another type than the schema's");
  if (v->length < end || begin < 0)
    return bad_batch(w, err, c->name,
                     "a vector holds fewer rows than it should");
  if (end <= begin) return CHV_OK;
  switch (t->id) {
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
  case CHV_TYPE_BINARY:
    if (!offsets_ok(v, begin, end) || v->offsets[end] > v->bytes_len ||
        (v->offsets[end] > v->offsets[begin] && v->bytes == NULL))
      return bad_batch(w, err, c->name,
                       "string offsets are out of order or range");
    return CHV_OK;
  case CHV_TYPE_ARRAY:
  case CHV_TYPE_MAP: {
    int want = t->id == CHV_TYPE_ARRAY ? 1 : 2;
    if (v->nchildren != want || v->children == NULL ||
        !offsets_ok(v, begin, end))
      return bad_batch(w, err, c->name, "list or map offsets are out of order");
    for (int i = 0; i < want; i++)
      CHV_RETURN_IF_ERR(check_shape(w, v->children[i], c->children[i],
                                    v->offsets[begin], v->offsets[end], err));
    return CHV_OK;
  }
  case CHV_TYPE_STRUCT:
    if (v->nchildren != t->nchildren ||
        (t->nchildren > 0 && v->children == NULL))
      return bad_batch(w, err, c->name, "a struct vector lacks fields");
    for (int i = 0; i < t->nchildren; i++)
      CHV_RETURN_IF_ERR(
          check_shape(w, v->children[i], c->children[i], begin, end, err));
    return CHV_OK;
  default:
    if (v->data == NULL)
      return bad_batch(w, err, c->name, "values are missing");
    return CHV_OK;
  }
}

static int check_batch(chv_orc_writer *w, const struct chv_batch *b,
                       struct chv_error *err) {
  const struct chv_type *s = w->schema;
  if (b == NULL) return chv_error_set(err, CHV_EINVAL, "%s: no batch", w->path);
  if (b->schema != s && (b->schema == NULL || !chv_type_equal(b->schema, s)))
    return chv_error_set(err, CHV_ETYPE,
                         "%s: the batch's schema differs from the file's",
                         w->path);
  if (b->ncols != s->nchildren || (b->ncols && b->cols == NULL) || b->nrows < 0)
    return chv_error_set(err, CHV_ETYPE,
                         "%s: the batch has %d columns, the file %d", w->path,
                         b->ncols, s->nchildren);
  const struct ow_col *root = &w->cols[0];
  for (int i = 0; i < b->ncols; i++)
    CHV_RETURN_IF_ERR(
        check_shape(w, b->cols[i], root->children[i], 0, b->nrows, err));
  for (int i = 0; i < b->ncols; i++) {
    int rc = ow_col_check(root->children[i], b->cols[i], 0, b->nrows, -1, err);
    if (rc) return chv_error_wrap(err, "%s", w->path);
  }
  return CHV_OK;
}

static int broken(chv_orc_writer *w, struct chv_error *err) {
  return chv_error_set(err, w->failed, "%s: the writer failed earlier: %s",
                       w->path, w->failed_msg);
}

static int fail(chv_orc_writer *w, int rc, struct chv_error *err) {
  w->failed = rc;
  const char *m = err ? err->msg : chv_status_text(rc);
  size_t n = strlen(m);
  if (n >= sizeof w->failed_msg) n = sizeof w->failed_msg - 1;
  memcpy(w->failed_msg, m, n);
  w->failed_msg[n] = '\0';
  return rc;
}

static int write_rows(chv_orc_writer *w, const struct chv_batch *b,
                      struct chv_error *err) {
  const struct ow_col *root = &w->cols[0];
  int64_t stride = w->cx.stride;
  for (int64_t r = 0; r < b->nrows;) {
    int64_t n = CHV_MIN(b->nrows - r, (int64_t)CHUNK_ROWS);
    if (stride > 0) {
      n = CHV_MIN(n, stride - w->rows_in_rg);
      if (w->rows_in_rg == 0) CHV_RETURN_IF_ERR(rg_begin_all(w, err));
    }
    ow_col_count(&w->cols[0], n);
    for (int i = 0; i < b->ncols; i++)
      CHV_RETURN_IF_ERR(
          ow_col_write(root->children[i], &w->cx, b->cols[i], r, r + n, err));
    w->rows_in_rg += n;
    w->rows_in_stripe += n;
    w->st.rows += n;
    r += n;
    if (stride > 0 && w->rows_in_rg == stride)
      CHV_RETURN_IF_ERR(rg_end_all(w, err));
    if (buffered(w) >= w->o.stripe_size)
      CHV_RETURN_IF_ERR(flush_stripe(w, err));
  }
  return CHV_OK;
}

int chv_orc_writer_write(chv_orc_writer *w, const struct chv_batch *b,
                         struct chv_error *err) {
  if (w->failed) return broken(w, err);
  if (w->finished)
    return chv_error_set(err, CHV_EINVAL, "%s: the file was finished", w->path);
  CHV_RETURN_IF_ERR(check_batch(w, b, err));
  int rc = write_rows(w, b, err);
  if (rc) return fail(w, rc, err);
  return CHV_OK;
}

/* ---- open, finish, close ------------------------------------------------- */

static int open_codecs(chv_orc_writer *w, uint64_t block,
                       struct chv_error *err) {
  CHV_RETURN_IF_ERR(
      chv_orc_codec_open(w->o.compression, block, &w->codec, err));
  w->codec_text = w->codec_bin = w->codec;
  if (w->o.compression != CHV_ORC_COMP_ZLIB) return CHV_OK;
  CHV_RETURN_IF_ERR(
      chv_orc_codec_open(w->o.compression, block, &w->codec_text, err));
  CHV_RETURN_IF_ERR(
      chv_orc_codec_open(w->o.compression, block, &w->codec_bin, err));
  chv_orc_codec_set_level(w->codec_text, 2);
  chv_orc_codec_set_level(w->codec_bin, 1);
  return CHV_OK;
}

/* The bits and hash functions of ORC Java's bloom filters for n entries. */
static void bloom_shape(int64_t n, double fpp, uint32_t *bits, uint32_t *k) {
  if (n < 1) n = 1;
  double ln2 = log(2.0);
  int64_t nb = (int64_t)(-(double)n * log(fpp) / (ln2 * ln2));
  if (nb > ((int64_t)1 << 31) - 128) nb = ((int64_t)1 << 31) - 128;
  nb += 64 - nb % 64;
  double kk = floor((double)nb / (double)n * ln2 + 0.5);
  *bits = (uint32_t)nb;
  *k = kk < 1 ? 1 : (uint32_t)kk;
}

int chv_orc_writer_open(const struct chv_fs *fs, const char *path,
                        const struct chv_type *schema,
                        const struct chv_orc_write_options *opts,
                        chv_orc_writer **out, struct chv_error *err) {
  if (fs == NULL || path == NULL || out == NULL)
    return chv_error_set(err, CHV_EINVAL, "ORC writer: no file given");
  chv_orc_writer *w = chv_calloc(1, sizeof *w);
  if (w == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  int rc;
  w->fs = fs;
  w->schema = schema;
  chv_buf_init(&w->out);
  chv_buf_init(&w->cx.buf);
  if (opts)
    w->o = *opts;
  else
    chv_orc_write_options_init(&w->o);
  w->path = chv_strdup(path);
  if (w->path == NULL || chv_arena_open(64 << 10, &w->arena) != CHV_OK ||
      chv_arena_open(64 << 10, &w->cx.stripe_arena) != CHV_OK) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out_close;
  }
  if ((rc = check_options(&w->o, err)) != CHV_OK) {
    chv_error_wrap(err, "%s", path);
    goto out_close;
  }
  if (w->o.bloom_filter_columns) {
    w->o.bloom_filter_columns = chv_arena_strndup(
        w->arena, w->o.bloom_filter_columns, strlen(w->o.bloom_filter_columns));
    if (w->o.bloom_filter_columns == NULL) {
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      goto out_close;
    }
  }
  w->cx.path = w->path;
  w->cx.stride = w->o.create_index ? w->o.row_index_stride : 0;
  w->cx.dict_threshold = w->o.dictionary_key_threshold;
  if (w->cx.stride > 0)
    bloom_shape(w->cx.stride, w->o.bloom_filter_fpp, &w->cx.bloom_bits,
                &w->cx.bloom_k);
  w->cx.scratch_cap = SCRATCH;
  w->cx.i64 = chv_malloc(sizeof *w->cx.i64 * SCRATCH * 2);
  w->cx.u8 = chv_malloc(SCRATCH);
  if (w->cx.i64 == NULL || w->cx.u8 == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out_close;
  }
  /* The codecs need the column count: count first. */
  {
    uint32_t n = 0;
    if (schema == NULL || schema->id != CHV_TYPE_STRUCT) {
      rc = chv_error_set(err, CHV_EINVAL, "%s: the schema must be a STRUCT",
                         path);
      goto out_close;
    }
    if ((rc = count_types(schema, "(root)", 0, &n, path, err)) != CHV_OK)
      goto out_close;
    if ((rc = open_codecs(w, block_size(&w->o, n), err)) != CHV_OK)
      goto out_close;
  }
  w->cx.codec_text = w->codec_text;
  w->cx.codec_bin = w->codec_bin;
  if ((rc = build_schema(w, err)) != CHV_OK) goto out_close;
  if ((rc = fs->create(fs, path, false, &w->file, err)) != CHV_OK)
    goto out_close;
  if ((rc = emit(w, CHV_ORC_MAGIC, HEADER_LEN, err)) != CHV_OK) goto out_close;
  *out = w;
  return CHV_OK;
out_close:
  chv_orc_writer_close(w);
  return rc;
}

void chv_orc_writer_stats(const chv_orc_writer *w,
                          struct chv_orc_write_stats *out) {
  *out = w->st;
  out->file_bytes = w->pos;
  out->raw_bytes = raw_size(w);
  out->buffered_bytes = w->finished ? 0 : buffered(w);
}

static int write_tail(chv_orc_writer *w, struct chv_error *err) {
  struct chv_orc_footer f;
  memset(&f, 0, sizeof f);
  f.has_header_length = f.has_content_length = true;
  f.header_length = HEADER_LEN;
  f.content_length = (uint64_t)w->pos;
  f.nstripes = w->nstripes;
  f.stripes = w->stripes;
  f.ntypes = w->ncols;
  f.types = w->types;
  f.has_number_of_rows = true;
  f.number_of_rows = (uint64_t)w->st.rows;
  f.nstatistics = w->ncols;
  f.statistics = chv_arena_alloc(w->arena, sizeof *f.statistics * w->ncols);
  if (f.statistics == NULL)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  for (uint32_t i = 0; i < w->ncols; i++) {
    const struct ow_col *c = &w->cols[i];
    if (ow_stats_to_orc(&c->file_st, c->kind, c->type->scale,
                        c->type->precision, w->arena, &f.statistics[i]))
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  f.has_row_index_stride = true;
  f.row_index_stride = (uint32_t)w->cx.stride;
  f.has_writer = true;
  f.writer = WRITER_ID;
  f.has_calendar = true;
  f.calendar = CHV_ORC_CAL_PROLEPTIC_GREGORIAN;
  f.software_version = "chive " CHV_VERSION;
  struct chv_orc_metadata md;
  memset(&md, 0, sizeof md);
  md.nstripes = w->nstripes;
  md.stripes = w->sstats;
  struct chv_buf buf;
  chv_buf_init(&buf);
  int rc = chv_orc_tail_write(w->codec, &f, &md, WRITER_VERSION, &buf, err);
  if (rc == CHV_OK) rc = emit(w, buf.data, buf.len, err);
  chv_buf_free(&buf);
  return rc;
}

int chv_orc_writer_finish(chv_orc_writer *w, struct chv_orc_write_stats *out,
                          struct chv_error *err) {
  if (w->failed) return broken(w, err);
  if (!w->finished) {
    int rc = flush_stripe(w, err);
    if (rc == CHV_OK) rc = write_tail(w, err);
    if (rc == CHV_OK) rc = out_flush(w, err);
    if (rc == CHV_OK) rc = chv_file_sync(w->file, err);
    if (rc) return fail(w, rc, err);
    struct chv_file *f = w->file;
    w->file = NULL;
    chv_file_close(f);
    w->finished = true;
  }
  if (out) chv_orc_writer_stats(w, out);
  return CHV_OK;
}

void chv_orc_writer_close(chv_orc_writer *w) {
  if (w == NULL) return;
  if (w->file) chv_file_close(w->file);
  if (w->cols)
    for (uint32_t i = 0; i < w->ncols; i++)
      ow_col_free(&w->cols[i]);
  chv_free(w->cols);
  chv_free(w->kids);
  chv_free(w->stripes);
  chv_free(w->sstats);
  if (w->codec_text != w->codec) chv_orc_codec_close(w->codec_text);
  if (w->codec_bin != w->codec) chv_orc_codec_close(w->codec_bin);
  chv_orc_codec_close(w->codec);
  chv_free(w->cx.i64);
  chv_free(w->cx.u8);
  chv_buf_free(&w->cx.buf);
  chv_buf_free(&w->out);
  chv_arena_close(w->cx.stripe_arena);
  chv_arena_close(w->arena);
  chv_free(w->path);
  chv_free(w);
}
