/*
** The Parquet file writer (include/chive/parquet.h): table properties, the
** Parquet schema of a Hive row type, row groups and the footer.  Column
** chunks are written by pq_wcolumn.c.
**
** Schema.  As Hive's HiveSchemaConverter writes it: a message
** "hive_schema" with one OPTIONAL field per column; tinyint and smallint as
** INT32 annotated INT(8)/INT(16) (INT_8/INT_16); int INT32; bigint INT64;
** float, double, boolean as themselves; string, varchar(n) and char(n) as
** BYTE_ARRAY UTF8 (char without its trailing spaces, as Hive writes it);
** binary BYTE_ARRAY; date INT32 DATE; decimal(p,s) FIXED_LEN_BYTE_ARRAY of
** the fewest bytes that hold p digits, DECIMAL(p,s); timestamp INT96, or
** INT64 TIMESTAMP(isAdjustedToUTC=false, unit) with
** hive.parquet.write.int64.timestamp (Hive 4's choice; the ConvertedType
** TIMESTAMP_MILLIS/MICROS is added as LogicalTypes.md asks of writers);
** array<T> as
**
**   optional group <name> (LIST) { repeated group bag {
**     optional T array_element; } }
**
** and map<K,V> as
**
**   optional group <name> (MAP) { repeated group key_value (MAP_KEY_VALUE) {
**     required K key; optional V value; } }
**
** and struct as an optional group of its fields.  Logical types are
** written beside the ConvertedTypes.
**
** File layout: "PAR1", then per row group each column chunk (dictionary
** page, data pages), then the footer.  A row group is written when the
** estimate of its size (finished pages as stored, the current pages as
** encoded, dictionaries) reaches parquet.block.size; rows are handed to
** the columns in runs sized from the bytes per row seen, so a row group
** overshoots by a fraction of a run.  Memory: the row group's encoded and
** compressed pages, one page of values per column and the dictionaries.
**
** Footer: version 1 (as parquet-mr, whatever the page version), created_by
** "chive version <CHV_VERSION>" (parquet-mr's VersionParser form, so that no
** reader applies its parquet-mr bug workarounds), TYPE_ORDER for every
** column, and key_value_metadata writer.time.zone=UTC (INT96 values hold
** the timestamp as if it were UTC, as Hive 3 and Flink's writer for Hive 3
** do; Hive 3.1.2+ readers then read them back unchanged whatever their own
** time zone) and writer.date.proleptic=true (dates and timestamps are
** proleptic Gregorian), then the caller's entries.  Row groups carry
** num_rows, total_byte_size (uncompressed page bytes, headers included: the
** rawDataSize Hive's statistics add up), total_compressed_size, file_offset
** and ordinal; column chunks their encodings, encoding_stats, statistics,
** data and dictionary page offsets.
**
** INTERFACE: chv_pq_write_options_init/_set(), chv_pq_writer_open/_write/
** _stats/_finish/_close() (include/chive/parquet.h).
*/
#include "format/parquet/pq_write.h"

#include <stdio.h>
#include <stdlib.h>

#define OUT_BUF (1 << 20) /* bytes gathered before a write to the fs */
#define FIRST_RUN 128     /* rows of the first run of a row group */
#define MAX_RUN 65536     /* rows of a run at most */

struct chv_pq_writer {
  const struct chv_fs *fs;
  struct chv_file *file;
  char *path;
  const struct chv_type *schema; /* borrowed */
  struct chv_pq_write_options o; /* metadata points into arena */
  struct pq_wctx cx;
  chv_arena *arena; /* schema, leaf paths, footer pieces */
  int nels;
  struct chv_pq_schema_element *els;
  int ncols;
  struct pq_wcol *cols; /* leaves, in schema order */
  int nkv;
  struct chv_pq_kv *kv;
  int nrg, rg_cap;
  struct chv_pq_row_group *rgs;
  int64_t rg_rows;    /* rows of the row group being buffered */
  struct chv_buf out; /* bytes not yet handed to the fs */
  int64_t pos;        /* file offset after out */
  struct chv_pq_write_stats st;
  int failed;           /* status of the failure that broke the file */
  char failed_msg[256]; /* its message */
  bool finished;
};

/* ---- options ------------------------------------------------------------ */

void chv_pq_write_options_init(struct chv_pq_write_options *o) {
  memset(o, 0, sizeof *o);
  o->codec = CHV_PQ_CODEC_SNAPPY;
  o->block_size = (int64_t)128 << 20;
  o->page_size = (int64_t)1 << 20;
  o->page_row_limit = 20000;
  o->dictionary_page_size = (int64_t)1 << 20;
  o->dictionary = true;
  o->data_page_v2 = false;
  o->page_checksum = true;
  o->timestamp_int64 = false;
  o->timestamp_unit = CHV_PQ_TS_MICROS;
}

#define MAX_PAGE ((int64_t)1 << 30)
#define MAX_BLOCK ((int64_t)1 << 62)

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
    s++;
    break;
  case 'm':
  case 'M':
    shift = 20;
    s++;
    break;
  case 'g':
  case 'G':
    shift = 30;
    s++;
    break;
  case 't':
  case 'T':
    shift = 40;
    s++;
    break;
  default:
    break;
  }
  if (shift && (*s == 'b' || *s == 'B')) s++;
  while (*s == ' ' || *s == '\t')
    s++;
  if (*s) return false;
  if (shift && v > (INT64_MAX >> shift)) return false;
  v <<= shift;
  if (v < lo || v > hi) return false;
  *out = v;
  return true;
}

static bool parse_bool(const char *s, bool *out) {
  if (chv_str_ieq(s, "true")) return *out = true, true;
  if (chv_str_ieq(s, "false")) return *out = false, true;
  return false;
}

static bool parse_int(const char *s, int lo, int hi, int *out) {
  while (*s == ' ' || *s == '\t')
    s++;
  if (*s < '0' || *s > '9') return false;
  long v = 0;
  for (; *s >= '0' && *s <= '9'; s++) {
    v = v * 10 + (*s - '0');
    if (v > hi) return false;
  }
  while (*s == ' ' || *s == '\t')
    s++;
  if (*s || v < lo) return false;
  *out = (int)v;
  return true;
}

int chv_pq_write_options_set(struct chv_pq_write_options *o, const char *key,
                             const char *value, struct chv_error *err) {
  if (o == NULL || key == NULL || value == NULL)
    return chv_error_set(err, CHV_EINVAL, "table property %s: no value",
                         key ? key : "(null)");
  if (strcmp(key, "parquet.compression") == 0) {
    static const struct {
      const char *name;
      int id;
    } codecs[] = {{"UNCOMPRESSED", CHV_PQ_CODEC_UNCOMPRESSED},
                  {"NONE", CHV_PQ_CODEC_UNCOMPRESSED},
                  {"SNAPPY", CHV_PQ_CODEC_SNAPPY},
                  {"GZIP", CHV_PQ_CODEC_GZIP},
                  {"BROTLI", CHV_PQ_CODEC_BROTLI},
                  {"ZSTD", CHV_PQ_CODEC_ZSTD},
                  {"LZ4_RAW", CHV_PQ_CODEC_LZ4_RAW}};
    for (size_t i = 0; i < CHV_ARRAY_SIZE(codecs); i++)
      if (chv_str_ieq(value, codecs[i].name)) {
        o->codec = codecs[i].id;
        return CHV_OK;
      }
    return bad_value(err, key, value,
                     "UNCOMPRESSED, SNAPPY, GZIP, BROTLI, ZSTD or LZ4_RAW; "
                     "LZO and the deprecated LZ4 are not written");
  }
  int64_t v;
  if (strcmp(key, "parquet.block.size") == 0) {
    if (!parse_size(value, 1, MAX_BLOCK, &v))
      return bad_value(err, key, value, "a size in bytes");
    o->block_size = v;
    return CHV_OK;
  }
  if (strcmp(key, "parquet.page.size") == 0) {
    if (!parse_size(value, 1, MAX_PAGE, &v))
      return bad_value(err, key, value, "a size in bytes, at most 1 GiB");
    o->page_size = v;
    return CHV_OK;
  }
  if (strcmp(key, "parquet.dictionary.page.size") == 0) {
    if (!parse_size(value, 1, MAX_PAGE, &v))
      return bad_value(err, key, value, "a size in bytes, at most 1 GiB");
    o->dictionary_page_size = v;
    return CHV_OK;
  }
  if (strcmp(key, "parquet.page.row.count.limit") == 0) {
    if (!parse_size(value, 1, INT32_MAX, &v))
      return bad_value(err, key, value, "a positive number of rows");
    o->page_row_limit = v;
    return CHV_OK;
  }
  bool b;
  if (strcmp(key, "parquet.enable.dictionary") == 0) {
    if (!parse_bool(value, &b))
      return bad_value(err, key, value, "true or false");
    o->dictionary = b;
    return CHV_OK;
  }
  if (strcmp(key, "parquet.page.write-checksum.enabled") == 0) {
    if (!parse_bool(value, &b))
      return bad_value(err, key, value, "true or false");
    o->page_checksum = b;
    return CHV_OK;
  }
  if (strcmp(key, "hive.parquet.write.int64.timestamp") == 0) {
    if (!parse_bool(value, &b))
      return bad_value(err, key, value, "true or false");
    o->timestamp_int64 = b;
    return CHV_OK;
  }
  if (strcmp(key, "parquet.writer.version") == 0) {
    if (chv_str_ieq(value, "v1") || chv_str_ieq(value, "PARQUET_1_0"))
      o->data_page_v2 = false;
    else if (chv_str_ieq(value, "v2") || chv_str_ieq(value, "PARQUET_2_0"))
      o->data_page_v2 = true;
    else
      return bad_value(err, key, value, "v1 or v2");
    return CHV_OK;
  }
  if (strcmp(key, "hive.parquet.timestamp.time.unit") == 0) {
    if (chv_str_ieq(value, "millis"))
      o->timestamp_unit = CHV_PQ_TS_MILLIS;
    else if (chv_str_ieq(value, "micros"))
      o->timestamp_unit = CHV_PQ_TS_MICROS;
    else if (chv_str_ieq(value, "nanos"))
      o->timestamp_unit = CHV_PQ_TS_NANOS;
    else
      return bad_value(err, key, value, "millis, micros or nanos");
    return CHV_OK;
  }
  int n;
  if (strcmp(key, "parquet.compression.codec.zstd.level") == 0) {
    if (!parse_int(value, 1, 22, &n))
      return bad_value(err, key, value, "a level from 1 to 22");
    o->zstd_level = n;
    return CHV_OK;
  }
  if (strcmp(key, "zlib.compress.level") == 0) {
    if (chv_str_ieq(value, "BEST_SPEED"))
      n = 1;
    else if (chv_str_ieq(value, "BEST_COMPRESSION"))
      n = 9;
    else if (chv_str_ieq(value, "DEFAULT_COMPRESSION"))
      n = 6;
    else if (!parse_int(value, 1, 9, &n))
      return bad_value(err, key, value,
                       "a level from 1 to 9, BEST_SPEED, DEFAULT_COMPRESSION "
                       "or BEST_COMPRESSION");
    o->gzip_level = n;
    return CHV_OK;
  }
  return CHV_OK; /* not a property of the writer */
}

static int check_options(const struct chv_pq_write_options *o,
                         struct chv_error *err) {
  const char *bad = NULL;
  if (o->codec != CHV_PQ_CODEC_UNCOMPRESSED &&
      o->codec != CHV_PQ_CODEC_SNAPPY && o->codec != CHV_PQ_CODEC_GZIP &&
      o->codec != CHV_PQ_CODEC_BROTLI && o->codec != CHV_PQ_CODEC_ZSTD &&
      o->codec != CHV_PQ_CODEC_LZ4_RAW)
    bad = "codec";
  else if (o->block_size < 1 || o->block_size > MAX_BLOCK)
    bad = "block_size";
  else if (o->page_size < 1 || o->page_size > MAX_PAGE)
    bad = "page_size";
  else if (o->dictionary_page_size < 1 || o->dictionary_page_size > MAX_PAGE)
    bad = "dictionary_page_size";
  else if (o->page_row_limit < 1 || o->page_row_limit > INT32_MAX)
    bad = "page_row_limit";
  else if (o->zstd_level < 0 || o->zstd_level > 22)
    bad = "zstd_level";
  else if (o->gzip_level < 0 || o->gzip_level > 9)
    bad = "gzip_level";
  else if (o->timestamp_int64 && (o->timestamp_unit < CHV_PQ_TS_MILLIS ||
                                  o->timestamp_unit > CHV_PQ_TS_NANOS))
    bad = "timestamp_unit";
  else if (o->nmetadata < 0 || (o->nmetadata > 0 && o->metadata == NULL))
    bad = "metadata";
  if (bad)
    return chv_error_set(err, CHV_EINVAL,
                         "Parquet write options: %s is out of range", bad);
  for (int i = 0; i < o->nmetadata; i++)
    if (o->metadata[i].key == NULL)
      return chv_error_set(
          err, CHV_EINVAL,
          "Parquet write options: metadata entry %d has no key", i);
  return CHV_OK;
}

/* ---- the schema --------------------------------------------------------- */

/* Fewest bytes whose two's complement holds every p-digit number. */
static int decimal_bytes(int p) {
  unsigned __int128 m = 1;
  for (int i = 0; i < p; i++)
    m *= 10;
  m -= 1; /* largest magnitude */
  for (int k = 1; k < 16; k++)
    if (m < ((unsigned __int128)1 << (8 * k - 1))) return k;
  return 16;
}

/* Count elements and leaves; check the types the writer takes. */
static int count_schema(const struct chv_type *t, const char *name, int depth,
                        int *nels, int *nleaves, const char *path,
                        struct chv_error *err) {
  if (t == NULL)
    return chv_error_set(err, CHV_EINVAL, "%s: column %s has no type", path,
                         name);
  if (depth > CHV_PQ_MAX_DEPTH)
    return chv_error_set(err, CHV_ENOTSUP,
                         "%s: column %s nests deeper than Parquet readers "
                         "take (%d levels)",
                         path, name, CHV_PQ_MAX_DEPTH);
  (*nels)++;
  switch (t->id) {
  case CHV_TYPE_DECIMAL:
    if (t->precision < 1 || t->precision > CHV_DECIMAL_MAX_PRECISION ||
        t->scale < 0 || t->scale > t->precision)
      return chv_error_set(err, CHV_EINVAL, "%s: column %s: bad decimal(%d,%d)",
                           path, name, t->precision, t->scale);
    (*nleaves)++;
    return CHV_OK;
  case CHV_TYPE_ARRAY:
    if (t->nchildren != 1 || t->children == NULL)
      return chv_error_set(err, CHV_EINVAL,
                           "%s: column %s: malformed array type", path, name);
    (*nels)++; /* bag */
    return count_schema(t->children[0], name, depth + 2, nels, nleaves, path,
                        err);
  case CHV_TYPE_MAP:
    if (t->nchildren != 2 || t->children == NULL)
      return chv_error_set(err, CHV_EINVAL, "%s: column %s: malformed map type",
                           path, name);
    (*nels)++; /* key_value */
    CHV_RETURN_IF_ERR(count_schema(t->children[0], name, depth + 2, nels,
                                   nleaves, path, err));
    return count_schema(t->children[1], name, depth + 2, nels, nleaves, path,
                        err);
  case CHV_TYPE_STRUCT:
    if (t->nchildren < 1)
      return chv_error_set(err, CHV_ENOTSUP,
                           "%s: column %s: Parquet has no empty groups (a "
                           "struct needs a field)",
                           path, name);
    if (t->children == NULL || t->names == NULL)
      return chv_error_set(err, CHV_EINVAL,
                           "%s: column %s: malformed struct type", path, name);
    for (int i = 0; i < t->nchildren; i++) {
      if (t->names[i] == NULL || t->names[i][0] == '\0')
        return chv_error_set(err, CHV_EINVAL,
                             "%s: column %s: field %d has no name", path, name,
                             i);
      CHV_RETURN_IF_ERR(count_schema(t->children[i], t->names[i], depth + 1,
                                     nels, nleaves, path, err));
    }
    return CHV_OK;
  default:
    if ((unsigned)t->id >= CHV_TYPE_COUNT)
      return chv_error_set(err, CHV_EINVAL, "%s: column %s: unknown type %d",
                           path, name, (int)t->id);
    (*nleaves)++;
    return CHV_OK;
  }
}

struct sbuild {
  chv_pq_writer *w;
  struct chv_error *err;
  int top;
  int nsteps;
  struct pq_wstep steps[CHV_PQ_MAX_DEPTH + 1];
  int nnames;
  const char *names[CHV_PQ_MAX_DEPTH + 1];
  int16_t def, rep;
};

static struct chv_pq_schema_element *new_el(struct sbuild *b, const char *name,
                                            int32_t repetition) {
  struct chv_pq_schema_element *e = &b->w->els[b->w->nels++];
  memset(e, 0, sizeof *e);
  e->name = chv_arena_strndup(b->w->arena, name, strlen(name));
  if (e->name == NULL) return NULL;
  e->has_repetition = true;
  e->repetition = repetition;
  return e;
}

static void converted(struct chv_pq_schema_element *e, int32_t ct) {
  e->has_converted_type = true;
  e->converted_type = ct;
}

static void group(struct chv_pq_schema_element *e, int n) {
  e->has_num_children = true;
  e->num_children = n;
}

static void leaf_type(struct chv_pq_schema_element *e, int32_t type) {
  e->has_type = true;
  e->type = type;
}

/* The leaf element e of Hive type t and its column writer. */
static int add_leaf(struct sbuild *b, struct chv_pq_schema_element *e,
                    const struct chv_type *t) {
  chv_pq_writer *w = b->w;
  struct pq_wcol *c = &w->cols[w->ncols++];
  memset(c, 0, sizeof *c);
  c->type = t;
  c->top = b->top;
  c->max_def = b->def;
  c->max_rep = b->rep;
  switch (t->id) {
  case CHV_TYPE_BOOLEAN:
    leaf_type(e, CHV_PQ_TYPE_BOOLEAN);
    c->conv = PQ_W_BOOL;
    break;
  case CHV_TYPE_TINYINT:
  case CHV_TYPE_SMALLINT:
    leaf_type(e, CHV_PQ_TYPE_INT32);
    converted(e,
              t->id == CHV_TYPE_TINYINT ? CHV_PQ_CT_INT_8 : CHV_PQ_CT_INT_16);
    e->logical.kind = CHV_PQ_LT_INTEGER;
    e->logical.bit_width = t->id == CHV_TYPE_TINYINT ? 8 : 16;
    e->logical.is_signed = true;
    c->conv = t->id == CHV_TYPE_TINYINT ? PQ_W_I8 : PQ_W_I16;
    c->width = 4;
    break;
  case CHV_TYPE_INT:
    leaf_type(e, CHV_PQ_TYPE_INT32);
    c->conv = PQ_W_I32;
    c->width = 4;
    break;
  case CHV_TYPE_DATE:
    leaf_type(e, CHV_PQ_TYPE_INT32);
    converted(e, CHV_PQ_CT_DATE);
    e->logical.kind = CHV_PQ_LT_DATE;
    c->conv = PQ_W_I32;
    c->width = 4;
    break;
  case CHV_TYPE_BIGINT:
    leaf_type(e, CHV_PQ_TYPE_INT64);
    c->conv = PQ_W_I64;
    c->width = 8;
    break;
  case CHV_TYPE_FLOAT:
    leaf_type(e, CHV_PQ_TYPE_FLOAT);
    c->conv = PQ_W_F32;
    c->width = 4;
    break;
  case CHV_TYPE_DOUBLE:
    leaf_type(e, CHV_PQ_TYPE_DOUBLE);
    c->conv = PQ_W_F64;
    c->width = 8;
    break;
  case CHV_TYPE_DECIMAL:
    leaf_type(e, CHV_PQ_TYPE_FIXED_LEN_BYTE_ARRAY);
    e->has_type_length = true;
    e->type_length = decimal_bytes(t->precision);
    converted(e, CHV_PQ_CT_DECIMAL);
    e->has_scale = e->has_precision = true;
    e->scale = t->scale;
    e->precision = t->precision;
    e->logical.kind = CHV_PQ_LT_DECIMAL;
    e->logical.scale = t->scale;
    e->logical.precision = t->precision;
    c->conv = PQ_W_DEC;
    c->width = e->type_length;
    break;
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
    leaf_type(e, CHV_PQ_TYPE_BYTE_ARRAY);
    converted(e, CHV_PQ_CT_UTF8);
    e->logical.kind = CHV_PQ_LT_STRING;
    c->conv = t->id == CHV_TYPE_CHAR ? PQ_W_CHAR : PQ_W_BYTES;
    break;
  case CHV_TYPE_BINARY:
    leaf_type(e, CHV_PQ_TYPE_BYTE_ARRAY);
    c->conv = PQ_W_BYTES;
    break;
  case CHV_TYPE_TIMESTAMP:
    if (!w->o.timestamp_int64) {
      leaf_type(e, CHV_PQ_TYPE_INT96);
      c->conv = PQ_W_TS96;
      c->width = 12;
      break;
    }
    leaf_type(e, CHV_PQ_TYPE_INT64);
    e->logical.kind = CHV_PQ_LT_TIMESTAMP;
    e->logical.utc_adjusted = false;
    c->width = 8;
    switch (w->o.timestamp_unit) {
    case CHV_PQ_TS_MILLIS:
      e->logical.unit = CHV_PQ_UNIT_MILLIS;
      converted(e, CHV_PQ_CT_TIMESTAMP_MILLIS);
      c->conv = PQ_W_TS_MILLIS;
      break;
    case CHV_PQ_TS_NANOS:
      e->logical.unit = CHV_PQ_UNIT_NANOS;
      c->conv = PQ_W_TS_NANOS;
      break;
    default:
      e->logical.unit = CHV_PQ_UNIT_MICROS;
      converted(e, CHV_PQ_CT_TIMESTAMP_MICROS);
      c->conv = PQ_W_TS_MICROS;
      break;
    }
    break;
  default:
    return chv_error_set(b->err, CHV_EINTERNAL, "no leaf for type %d",
                         (int)t->id);
  }
  c->ptype = e->type;
  c->nsteps = b->nsteps;
  c->npath = b->nnames;
  c->steps =
      chv_arena_alloc(w->arena, sizeof *c->steps * (size_t)(b->nsteps + 1));
  c->path_in_schema =
      chv_arena_alloc(w->arena, sizeof *c->path_in_schema * (size_t)b->nnames);
  struct chv_buf name;
  chv_buf_init(&name);
  for (int i = 0; i < b->nnames; i++)
    if ((i && chv_buf_putc(&name, '.')) || chv_buf_puts(&name, b->names[i]))
      break;
  c->name = name.len ? chv_arena_strndup(w->arena, name.data, name.len) : NULL;
  chv_buf_free(&name);
  if (c->steps == NULL || c->path_in_schema == NULL || c->name == NULL)
    return chv_error_set(b->err, CHV_ENOMEM, "out of memory");
  memcpy(c->steps, b->steps, sizeof *c->steps * (size_t)b->nsteps);
  memcpy(c->path_in_schema, b->names,
         sizeof *c->path_in_schema * (size_t)b->nnames);
  if (pq_wcol_init(c, &w->o) != CHV_OK)
    return chv_error_set(b->err, CHV_ENOMEM, "out of memory");
  return CHV_OK;
}

static int place(struct sbuild *b, const struct chv_type *t, const char *name,
                 int32_t repetition);

/* A nested vector's child, reached by one more step. */
static int place_child(struct sbuild *b, struct pq_wstep st,
                       const struct chv_type *t, const char *name,
                       int32_t repetition) {
  b->steps[b->nsteps++] = st;
  int rc = place(b, t, name, repetition);
  b->nsteps--;
  return rc;
}

static int place(struct sbuild *b, const struct chv_type *t, const char *name,
                 int32_t repetition) {
  struct chv_pq_schema_element *e = new_el(b, name, repetition);
  if (e == NULL) return chv_error_set(b->err, CHV_ENOMEM, "out of memory");
  int16_t def = b->def, rep = b->rep;
  if (repetition != CHV_PQ_REP_REQUIRED) b->def++;
  b->names[b->nnames++] = e->name;
  int rc = CHV_OK;
  switch (t->id) {
  case CHV_TYPE_STRUCT:
    group(e, t->nchildren);
    for (int i = 0; i < t->nchildren && rc == CHV_OK; i++)
      rc = place_child(b, (struct pq_wstep){PQ_WS_STRUCT, (uint8_t)i, false, 0},
                       t->children[i], t->names[i], CHV_PQ_REP_OPTIONAL);
    break;
  case CHV_TYPE_ARRAY: {
    group(e, 1);
    converted(e, CHV_PQ_CT_LIST);
    e->logical.kind = CHV_PQ_LT_LIST;
    struct chv_pq_schema_element *bag = new_el(b, "bag", CHV_PQ_REP_REPEATED);
    if (bag == NULL) return chv_error_set(b->err, CHV_ENOMEM, "out of memory");
    group(bag, 1);
    b->def++;
    b->rep++;
    b->names[b->nnames++] = bag->name;
    rc = place_child(b, (struct pq_wstep){PQ_WS_LIST, 0, false, b->rep},
                     t->children[0], "array_element", CHV_PQ_REP_OPTIONAL);
    b->nnames--;
    break;
  }
  case CHV_TYPE_MAP: {
    group(e, 1);
    converted(e, CHV_PQ_CT_MAP);
    e->logical.kind = CHV_PQ_LT_MAP;
    struct chv_pq_schema_element *kv =
        new_el(b, "key_value", CHV_PQ_REP_REPEATED);
    if (kv == NULL) return chv_error_set(b->err, CHV_ENOMEM, "out of memory");
    group(kv, 2);
    converted(kv, CHV_PQ_CT_MAP_KEY_VALUE);
    b->def++;
    b->rep++;
    b->names[b->nnames++] = kv->name;
    rc = place_child(b, (struct pq_wstep){PQ_WS_MAP, 0, true, b->rep},
                     t->children[0], "key", CHV_PQ_REP_REQUIRED);
    if (rc == CHV_OK)
      rc = place_child(b, (struct pq_wstep){PQ_WS_MAP, 1, false, b->rep},
                       t->children[1], "value", CHV_PQ_REP_OPTIONAL);
    b->nnames--;
    break;
  }
  default:
    rc = add_leaf(b, e, t);
    break;
  }
  b->nnames--;
  b->def = def;
  b->rep = rep;
  return rc;
}

static int build_schema(chv_pq_writer *w, struct chv_error *err) {
  const struct chv_type *s = w->schema;
  if (s == NULL || s->id != CHV_TYPE_STRUCT)
    return chv_error_set(err, CHV_EINVAL,
                         "%s: the schema of a Parquet file must be a struct",
                         w->path);
  if (s->nchildren < 1)
    return chv_error_set(err, CHV_EINVAL,
                         "%s: a Parquet file needs at least one column",
                         w->path);
  int nels = 1, nleaves = 0;
  for (int i = 0; i < s->nchildren; i++) {
    if (s->names == NULL || s->children == NULL || s->names[i] == NULL ||
        s->names[i][0] == '\0')
      return chv_error_set(err, CHV_EINVAL, "%s: column %d has no name",
                           w->path, i);
    CHV_RETURN_IF_ERR(count_schema(s->children[i], s->names[i], 1, &nels,
                                   &nleaves, w->path, err));
  }
  w->els = chv_arena_alloc(w->arena, sizeof *w->els * (size_t)nels);
  w->cols = chv_calloc((size_t)nleaves, sizeof *w->cols);
  if (w->els == NULL || w->cols == NULL)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  struct chv_pq_schema_element *root = &w->els[w->nels++];
  memset(root, 0, sizeof *root);
  root->name = "hive_schema";
  group(root, s->nchildren);
  struct sbuild b;
  memset(&b, 0, sizeof b);
  b.w = w;
  b.err = err;
  for (int i = 0; i < s->nchildren; i++) {
    b.top = i;
    CHV_RETURN_IF_ERR(
        place(&b, s->children[i], s->names[i], CHV_PQ_REP_OPTIONAL));
  }
  CHV_ASSERT(w->nels == nels && w->ncols == nleaves);
  return CHV_OK;
}

/* ---- output ------------------------------------------------------------- */

static int out_flush(chv_pq_writer *w, struct chv_error *err) {
  if (w->out.len == 0) return CHV_OK;
  int rc = chv_file_write(w->file, w->out.data, w->out.len, err);
  if (rc) return rc;
  chv_buf_reset(&w->out);
  return CHV_OK;
}

static int emit(chv_pq_writer *w, const void *p, size_t n,
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

/* ---- row groups --------------------------------------------------------- */

static int64_t buffered(const chv_pq_writer *w) {
  int64_t n = 0;
  for (int i = 0; i < w->ncols; i++)
    n += pq_wcol_buffered(&w->cols[i]);
  return n;
}

static void *arena_copy(chv_arena *a, const void *p, size_t n) {
  void *q = chv_arena_alloc(a, n ? n : 1);
  if (q && n) memcpy(q, p, n);
  return q;
}

/* The ColumnMetaData of chunk c written at [start, ...). */
static int chunk_meta(chv_pq_writer *w, const struct pq_wcol *c, int64_t start,
                      struct chv_pq_column_chunk *cc, struct chv_error *err) {
  struct chv_pq_column_meta *m = chv_arena_alloc(w->arena, sizeof *m);
  if (m == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  memset(m, 0, sizeof *m);
  m->type = c->ptype;
  int nenc = 0;
  for (int e = 0; e < 32; e++)
    if (c->encodings & (1u << e)) nenc++;
  m->encodings =
      chv_arena_alloc(w->arena, sizeof *m->encodings * (size_t)(nenc + 1));
  m->encoding_stats = chv_arena_alloc(w->arena, sizeof *m->encoding_stats *
                                                    (size_t)(c->ncounts + 1));
  if (m->encodings == NULL || m->encoding_stats == NULL)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  for (int e = 0; e < 32; e++)
    if (c->encodings & (1u << e)) m->encodings[m->nencodings++] = e;
  /* The dictionary page first, as it comes first in the chunk. */
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < c->ncounts; i++)
      if ((c->counts[i].page_type == CHV_PQ_PAGE_DICTIONARY_PAGE) ==
          (pass == 0)) {
        struct chv_pq_page_encoding_stats *es =
            &m->encoding_stats[m->nencoding_stats++];
        es->page_type = c->counts[i].page_type;
        es->encoding = c->counts[i].encoding;
        es->count = c->counts[i].count;
      }
  m->npath = c->npath;
  m->path_in_schema = c->path_in_schema;
  m->codec = w->o.codec;
  m->num_values = c->num_values;
  m->total_uncompressed_size = c->uncompressed + c->dict_uncompressed;
  m->total_compressed_size = (int64_t)c->dictpage.len + c->pages.len;
  m->data_page_offset = start + (int64_t)c->dictpage.len;
  if (c->dictpage.len) {
    m->has_dictionary_page_offset = true;
    m->dictionary_page_offset = start;
  }
  uint8_t mins[16], maxs[16];
  struct chv_pq_statistics s;
  pq_wcol_stats_bytes(c, &c->cst, c->chunk_nulls, mins, maxs, &s);
  if (s.has_min_value) {
    uint8_t *lo = arena_copy(w->arena, s.min_value.data, s.min_value.len);
    uint8_t *hi = arena_copy(w->arena, s.max_value.data, s.max_value.len);
    if (lo == NULL || hi == NULL)
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    s.min_value.data = s.min.data = lo;
    s.max_value.data = s.max.data = hi;
  }
  m->has_statistics = true;
  m->statistics = s;
  memset(cc, 0, sizeof *cc);
  cc->file_offset = start;
  cc->meta_data = m;
  return CHV_OK;
}

static int flush_row_group(chv_pq_writer *w, struct chv_error *err) {
  if (w->rg_rows == 0) return CHV_OK;
  for (int i = 0; i < w->ncols; i++)
    CHV_RETURN_IF_ERR(pq_wcol_finish(&w->cols[i], &w->cx, err));
  if (w->nrg == w->rg_cap) {
    int cap = w->rg_cap ? w->rg_cap * 2 : 8;
    struct chv_pq_row_group *g = chv_realloc(w->rgs, sizeof *g * (size_t)cap);
    if (g == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
    w->rgs = g;
    w->rg_cap = cap;
  }
  struct chv_pq_row_group *g = &w->rgs[w->nrg];
  memset(g, 0, sizeof *g);
  g->columns = chv_arena_alloc(w->arena, sizeof *g->columns * (size_t)w->ncols);
  if (g->columns == NULL)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  g->has_file_offset = true;
  g->file_offset = w->pos;
  for (int i = 0; i < w->ncols; i++) {
    struct pq_wcol *c = &w->cols[i];
    int64_t start = w->pos;
    CHV_RETURN_IF_ERR(emit(w, c->dictpage.data, c->dictpage.len, err));
    for (int k = 0; k < c->pages.used; k++)
      CHV_RETURN_IF_ERR(
          emit(w, c->pages.seg[k].data, c->pages.seg[k].len, err));
    CHV_RETURN_IF_ERR(chunk_meta(w, c, start, &g->columns[i], err));
    g->total_byte_size += g->columns[i].meta_data->total_uncompressed_size;
    g->total_compressed_size += g->columns[i].meta_data->total_compressed_size;
    pq_wcol_reset(c);
  }
  g->ncolumns = w->ncols;
  g->num_rows = w->rg_rows;
  g->has_total_compressed_size = true;
  if (w->nrg <= INT16_MAX) {
    g->has_ordinal = true;
    g->ordinal = (int16_t)w->nrg;
  }
  w->nrg++;
  w->st.row_groups = w->nrg;
  w->st.raw_bytes += g->total_byte_size;
  w->rg_rows = 0;
  return CHV_OK;
}

/* ---- batches ------------------------------------------------------------ */

static int bad_batch(chv_pq_writer *w, struct chv_error *err, const char *col,
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

/* Rows [begin, end) of v have the shape of type t. */
static int check_shape(chv_pq_writer *w, const struct chv_vector *v,
                       const struct chv_type *t, int64_t begin, int64_t end,
                       const char *col, struct chv_error *err) {
  if (v == NULL) return bad_batch(w, err, col, "a vector is missing");
  if (v->type == NULL || v->type->id != t->id)
    return bad_batch(w, err, col,
                     "a vector has another type than the schema's");
  if (v->length < end)
    return bad_batch(w, err, col, "a vector holds fewer rows than it should");
  if (end <= begin) return CHV_OK;
  switch (t->id) {
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
  case CHV_TYPE_BINARY:
    if (!offsets_ok(v, begin, end) || v->offsets[end] > v->bytes_len ||
        (v->offsets[end] > v->offsets[begin] && v->bytes == NULL))
      return bad_batch(w, err, col, "string offsets are out of order or range");
    return CHV_OK;
  case CHV_TYPE_ARRAY:
  case CHV_TYPE_MAP: {
    int want = t->id == CHV_TYPE_ARRAY ? 1 : 2;
    if (v->nchildren != want || v->children == NULL ||
        !offsets_ok(v, begin, end))
      return bad_batch(w, err, col, "list or map offsets are out of order");
    for (int i = 0; i < want; i++)
      CHV_RETURN_IF_ERR(check_shape(w, v->children[i], t->children[i],
                                    v->offsets[begin], v->offsets[end], col,
                                    err));
    return CHV_OK;
  }
  case CHV_TYPE_STRUCT:
    if (v->nchildren != t->nchildren || v->children == NULL)
      return bad_batch(w, err, col, "a struct vector lacks fields");
    for (int i = 0; i < t->nchildren; i++)
      CHV_RETURN_IF_ERR(
          check_shape(w, v->children[i], t->children[i], begin, end, col, err));
    return CHV_OK;
  default:
    if (v->data == NULL) return bad_batch(w, err, col, "values are missing");
    return CHV_OK;
  }
}

static int check_batch(chv_pq_writer *w, const struct chv_batch *b,
                       struct chv_error *err) {
  const struct chv_type *s = w->schema;
  if (b == NULL) return chv_error_set(err, CHV_EINVAL, "%s: no batch", w->path);
  if (b->schema != s && !chv_type_equal(b->schema, s))
    return chv_error_set(err, CHV_ETYPE,
                         "%s: the batch's schema differs from the file's",
                         w->path);
  if (b->ncols != s->nchildren || (b->ncols && b->cols == NULL) || b->nrows < 0)
    return chv_error_set(err, CHV_ETYPE,
                         "%s: the batch has %d columns, the file %d", w->path,
                         b->ncols, s->nchildren);
  for (int i = 0; i < b->ncols; i++)
    CHV_RETURN_IF_ERR(check_shape(w, b->cols[i], s->children[i], 0, b->nrows,
                                  s->names[i], err));
  for (int i = 0; i < w->ncols; i++)
    CHV_RETURN_IF_ERR(pq_wcol_check(&w->cols[i], b->cols[w->cols[i].top], 0,
                                    b->nrows, &w->cx, err));
  return CHV_OK;
}

static int broken(chv_pq_writer *w, struct chv_error *err) {
  return chv_error_set(err, w->failed, "%s: the writer failed earlier: %s",
                       w->path, w->failed_msg);
}

static int fail(chv_pq_writer *w, int rc, struct chv_error *err) {
  w->failed = rc;
  const char *m = err ? err->msg : chv_status_text(rc);
  size_t n = strlen(m);
  if (n >= sizeof w->failed_msg) n = sizeof w->failed_msg - 1;
  memcpy(w->failed_msg, m, n);
  w->failed_msg[n] = '\0';
  return rc;
}

int chv_pq_writer_write(chv_pq_writer *w, const struct chv_batch *b,
                        struct chv_error *err) {
  if (w->failed) return broken(w, err);
  if (w->finished)
    return chv_error_set(err, CHV_EINVAL, "%s: the file was finished", w->path);
  CHV_RETURN_IF_ERR(check_batch(w, b, err));
  for (int64_t r = 0; r < b->nrows;) {
    int64_t n = FIRST_RUN;
    if (w->rg_rows > 0) {
      int64_t have = buffered(w);
      int64_t per_row = have / w->rg_rows;
      n = per_row > 0 ? (w->o.block_size - have) / per_row : MAX_RUN;
      if (n < 1) n = 1;
      if (n > MAX_RUN) n = MAX_RUN;
    }
    if (n > b->nrows - r) n = b->nrows - r;
    for (int i = 0; i < w->ncols; i++) {
      int rc = pq_wcol_write(&w->cols[i], b->cols[w->cols[i].top], r, r + n,
                             &w->cx, err);
      if (rc) return fail(w, rc, err);
    }
    w->rg_rows += n;
    w->st.rows += n;
    r += n;
    if (buffered(w) >= w->o.block_size) {
      int rc = flush_row_group(w, err);
      if (rc) return fail(w, rc, err);
    }
  }
  return CHV_OK;
}

/* ---- open, finish, close ------------------------------------------------ */

int chv_pq_writer_open(const struct chv_fs *fs, const char *path,
                       const struct chv_type *schema,
                       const struct chv_pq_write_options *opts,
                       chv_pq_writer **out, struct chv_error *err) {
  if (fs == NULL || path == NULL || out == NULL)
    return chv_error_set(err, CHV_EINVAL, "Parquet writer: no file given");
  chv_pq_writer *w = chv_calloc(1, sizeof *w);
  if (w == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  int rc;
  w->fs = fs;
  w->schema = schema;
  chv_buf_init(&w->out);
  chv_buf_init(&w->cx.body);
  chv_buf_init(&w->cx.zbuf);
  chv_buf_init(&w->cx.hdr);
  chv_buf_init(&w->cx.lev);
  if (opts)
    w->o = *opts;
  else
    chv_pq_write_options_init(&w->o);
  w->path = chv_strdup(path);
  if (w->path == NULL || chv_arena_open(64 << 10, &w->arena) != CHV_OK) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out_close;
  }
  if ((rc = check_options(&w->o, err)) != CHV_OK) {
    chv_error_wrap(err, "%s", path);
    goto out_close;
  }
  /* Footer metadata: ours, then the caller's (whose keys win). */
  w->kv =
      chv_arena_alloc(w->arena, sizeof *w->kv * (size_t)(w->o.nmetadata + 2));
  if (w->kv == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out_close;
  }
  static const char *const ours[][2] = {{"writer.time.zone", "UTC"},
                                        {"writer.date.proleptic", "true"}};
  for (int i = 0; i < 2; i++) {
    bool given = false;
    for (int j = 0; j < w->o.nmetadata; j++)
      if (strcmp(w->o.metadata[j].key, ours[i][0]) == 0) given = true;
    if (given) continue;
    struct chv_pq_kv *kv = &w->kv[w->nkv++];
    kv->key = ours[i][0];
    kv->key_len = (uint32_t)strlen(kv->key);
    kv->value = ours[i][1];
    kv->value_len = (uint32_t)strlen(kv->value);
  }
  for (int j = 0; j < w->o.nmetadata; j++) {
    const struct chv_pq_write_kv *m = &w->o.metadata[j];
    struct chv_pq_kv *kv = &w->kv[w->nkv++];
    kv->key = chv_arena_strndup(w->arena, m->key, strlen(m->key));
    kv->key_len = (uint32_t)strlen(m->key);
    kv->value = m->value
                    ? chv_arena_strndup(w->arena, m->value, strlen(m->value))
                    : NULL;
    kv->value_len = m->value ? (uint32_t)strlen(m->value) : 0;
    if (kv->key == NULL || (m->value && kv->value == NULL)) {
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      goto out_close;
    }
  }
  w->o.metadata = NULL;
  w->o.nmetadata = 0;
  w->cx.o = &w->o;
  w->cx.path = w->path;
  w->cx.level = w->o.codec == CHV_PQ_CODEC_ZSTD   ? w->o.zstd_level
                : w->o.codec == CHV_PQ_CODEC_GZIP ? w->o.gzip_level
                                                  : 0;
  if ((rc = chv_block_ctx_open(&w->cx.bctx, err)) != CHV_OK) goto out_close;
  if ((rc = build_schema(w, err)) != CHV_OK) goto out_close;
  if ((rc = fs->create(fs, path, false, &w->file, err)) != CHV_OK)
    goto out_close;
  if ((rc = emit(w, CHV_PQ_MAGIC, 4, err)) != CHV_OK) goto out_close;
  *out = w;
  return CHV_OK;
out_close:
  chv_pq_writer_close(w);
  return rc;
}

void chv_pq_writer_stats(const chv_pq_writer *w,
                         struct chv_pq_write_stats *out) {
  *out = w->st;
  out->file_bytes = w->pos;
  out->buffered_bytes = w->finished ? 0 : buffered(w);
}

static int write_footer(chv_pq_writer *w, struct chv_error *err) {
  struct chv_pq_file_meta m;
  memset(&m, 0, sizeof m);
  m.version = 1;
  m.nschema = w->nels;
  m.schema = w->els;
  m.num_rows = w->st.rows;
  m.nrow_groups = w->nrg;
  m.row_groups = w->rgs;
  m.nkv = w->nkv;
  m.kv = w->kv;
  m.created_by = "chive version " CHV_VERSION;
  m.ncolumn_orders = w->ncols;
  m.column_orders =
      chv_arena_alloc(w->arena, sizeof *m.column_orders * (size_t)w->ncols);
  if (m.column_orders == NULL)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  for (int i = 0; i < w->ncols; i++)
    m.column_orders[i] = CHV_PQ_ORDER_TYPE_DEFINED;
  struct chv_buf buf;
  chv_buf_init(&buf);
  int rc = chv_pq_footer_write(&m, &buf, err);
  if (rc == CHV_OK) rc = emit(w, buf.data, buf.len, err);
  chv_buf_free(&buf);
  return rc;
}

int chv_pq_writer_finish(chv_pq_writer *w, struct chv_pq_write_stats *out,
                         struct chv_error *err) {
  if (w->failed) return broken(w, err);
  if (!w->finished) {
    int rc = flush_row_group(w, err);
    if (rc == CHV_OK) rc = write_footer(w, err);
    if (rc == CHV_OK) rc = out_flush(w, err);
    if (rc == CHV_OK) rc = chv_file_sync(w->file, err);
    if (rc) return fail(w, rc, err);
    struct chv_file *f = w->file;
    w->file = NULL;
    chv_file_close(f);
    w->finished = true;
  }
  if (out) chv_pq_writer_stats(w, out);
  return CHV_OK;
}

void chv_pq_writer_close(chv_pq_writer *w) {
  if (w == NULL) return;
  if (w->file) {
    /* Leave what was written (out is dropped: the file is not Parquet
    ** without its footer anyway). */
    chv_file_close(w->file);
  }
  for (int i = 0; i < w->ncols; i++)
    pq_wcol_free(&w->cols[i]);
  chv_free(w->cols);
  chv_free(w->rgs);
  chv_block_ctx_close(w->cx.bctx);
  chv_buf_free(&w->cx.body);
  chv_buf_free(&w->cx.zbuf);
  chv_buf_free(&w->cx.hdr);
  chv_buf_free(&w->cx.lev);
  chv_free(w->cx.u32);
  chv_buf_free(&w->out);
  chv_arena_close(w->arena);
  chv_free(w->path);
  chv_free(w);
}
