/*
** The source API (chive/source.h): a builder over a table, its splits, its
** statistics (stats.c), the split serializer and readers of single splits.
**
** A serialized split is "CHVS", a varint version (1), then one Protocol
** Buffers message (codec/protobuf) with these fields:
**
**   1 db, 2 table, 3 location (string)   4 table type (varint)
**   5 input format, 6 output format, 7 SerDe library (string)
**   8 SerDe parameter, 9 table parameter (KV {1 key, 2 value})
**   10 data column, 11 partition key (Column {1 name, 2 type, 3 comment})
**   12 partition value (Value {1 value}; no field 1 = the default partition)
**   13 path (string)   14 start, 15 length, 16 file size (sint64)
**   17 projected column (string)   18 limit (sint64)
**   19 predicate (Pred {1 column, 2 op (varint), 3 value})
**   20 projection given (bool; without it every column is read)
**
** Reading checks every length against the bytes left (the codec), builds
** arrays as the fields arrive (nothing is sized from a count the bytes
** claim), refuses strings holding NUL, and checks that the parts agree
** (as many partition values as keys, a range inside the file, known
** operators).  Unknown fields are skipped, so later versions may add some.
*/
#include "chive/source.h"
#include "codec/protobuf.h"
#include "connector/connector_int.h"

#include <stdio.h>

#define SPLIT_MAGIC "CHVS"
#define SPLIT_VERSION 1

struct chv_source {
  chv_catalog *cat;
  const chv_config *cfg;
  struct chv_table table; /* with the builder's table options merged */
  const struct chv_part_filter *filter;
  int *fields;            /* projection (NULL = all) */
  int nfields;
  int64_t limit;
  struct chv_pred *preds; /* owned, strings too */
  int npreds;
  struct chv_type *schema; /* produced rows, made on demand */
};

static int oom(struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory");
}

/* ---- predicates ---------------------------------------------------------- */

static void preds_free(struct chv_pred *p, int n) {
  for (int i = 0; i < n; i++) {
    chv_free((char *)p[i].column);
    chv_free((char *)p[i].value);
  }
  chv_free(p);
}

static int preds_copy(const struct chv_pred *src, int n, struct chv_pred **out,
                      struct chv_error *err) {
  *out = NULL;
  if (n == 0) return CHV_OK;
  struct chv_pred *p = chv_calloc((size_t)n, sizeof *p);
  if (p == NULL) return oom(err);
  for (int i = 0; i < n; i++) {
    p[i].op = src[i].op;
    p[i].column = chv_strdup(src[i].column ? src[i].column : "");
    p[i].value = src[i].value ? chv_strdup(src[i].value) : NULL;
    if (p[i].column == NULL || (src[i].value && p[i].value == NULL)) {
      preds_free(p, n);
      return oom(err);
    }
  }
  *out = p;
  return CHV_OK;
}

/* ---- the builder ---------------------------------------------------------- */

/* Set key to value in the table's parameters (copies). */
static int table_param_set(struct chv_table *t, const char *key,
                           const char *value, struct chv_error *err) {
  char *v = chv_strdup(value ? value : "");
  if (v == NULL) return oom(err);
  for (int i = 0; i < t->nparams; i++)
    if (!strcmp(t->params[i].key, key)) {
      chv_free(t->params[i].value);
      t->params[i].value = v;
      return CHV_OK;
    }
  char *k = chv_strdup(key);
  struct chv_kv *kv =
      k ? chv_realloc(t->params, sizeof *kv * ((size_t)t->nparams + 1)) : NULL;
  if (kv == NULL) {
    chv_free(k);
    chv_free(v);
    return oom(err);
  }
  t->params = kv;
  kv[t->nparams].key = k;
  kv[t->nparams].value = v;
  t->nparams++;
  return CHV_OK;
}

int chv_source_open(chv_catalog *cat, const char *db, const char *table,
                    const struct chv_kv *table_options, int n,
                    const chv_config *cfg, chv_source **out,
                    struct chv_error *err) {
  *out = NULL;
  chv_source *s = chv_calloc(1, sizeof *s);
  if (s == NULL) return oom(err);
  s->cat = cat;
  s->cfg = cfg;
  s->limit = -1;
  int rc = conn_get_table(cat, db, table, "read", &s->table, err);
  for (int i = 0; rc == CHV_OK && i < n; i++)
    rc = table_param_set(&s->table, table_options[i].key,
                         table_options[i].value, err);
  if (rc == CHV_OK) {
    /* The format must be one chive reads, and its options valid. */
    struct conn_format f;
    rc = conn_table_format(&s->table, cfg, &f, err);
  }
  if (rc != CHV_OK) {
    chv_source_close(s);
    return rc;
  }
  *out = s;
  return CHV_OK;
}

void chv_source_set_partitions(chv_source *s,
                               const struct chv_part_filter *filter) {
  s->filter = filter;
}

int chv_source_set_projected_fields(chv_source *s, const int *fields, int n,
                                    struct chv_error *err) {
  int nall = s->table.ncols + s->table.npkeys;
  for (int i = 0; i < n; i++) {
    if (fields[i] < 0 || fields[i] >= nall)
      return chv_error_set(err, CHV_EINVAL,
                           "projected field %d of table %s.%s: out of range "
                           "(the table has %d fields)",
                           fields[i], s->table.db, s->table.name, nall);
    for (int j = 0; j < i; j++)
      if (fields[j] == fields[i])
        return chv_error_set(err, CHV_EINVAL,
                             "projected field %d of table %s.%s: given twice",
                             fields[i], s->table.db, s->table.name);
  }
  int *v = NULL;
  if (fields) {
    v = chv_malloc(sizeof *v * (size_t)(n + 1));
    if (v == NULL) return oom(err);
    if (n > 0) memcpy(v, fields, sizeof *v * (size_t)n);
  }
  chv_free(s->fields);
  s->fields = v;
  s->nfields = n;
  chv_type_free(s->schema);
  s->schema = NULL;
  return CHV_OK;
}

void chv_source_set_limit(chv_source *s, int64_t limit) {
  s->limit = limit < 0 ? -1 : limit;
}

int chv_source_set_predicates(chv_source *s, const struct chv_pred *preds,
                              int n, struct chv_error *err) {
  struct chv_pred *p;
  CHV_RETURN_IF_ERR(preds_copy(preds, n, &p, err));
  preds_free(s->preds, s->npreds);
  s->preds = p;
  s->npreds = n;
  return CHV_OK;
}

static const char *field_name(const struct chv_table *t, int i) {
  return i < t->ncols ? t->columns[i].name : t->pkeys[i - t->ncols].name;
}

const struct chv_type *chv_source_schema(chv_source *s, struct chv_error *err) {
  if (s->schema) return s->schema;
  struct chv_type *all;
  if (conn_table_schema(&s->table, true, &all, err) != CHV_OK) return NULL;
  if (s->fields == NULL) return s->schema = all;
  struct chv_type *st;
  if (chv_type_new(CHV_TYPE_STRUCT, &st) != CHV_OK) {
    chv_type_free(all);
    oom(err);
    return NULL;
  }
  for (int i = 0; i < s->nfields; i++) {
    struct chv_type *ct;
    if (chv_type_clone(all->children[s->fields[i]], &ct) != CHV_OK ||
        chv_type_struct_add(st, all->names[s->fields[i]], ct) != CHV_OK) {
      chv_type_free(st);
      chv_type_free(all);
      oom(err);
      return NULL;
    }
  }
  chv_type_free(all);
  return s->schema = st;
}

void chv_source_close(chv_source *s) {
  if (s == NULL) return;
  chv_table_free(&s->table);
  chv_free(s->fields);
  preds_free(s->preds, s->npreds);
  chv_type_free(s->schema);
  chv_free(s);
}

/* ---- splits ---------------------------------------------------------------- */

void chv_source_split_free(struct chv_source_split *sp) {
  if (sp == NULL) return;
  if (sp->part_values)
    for (int i = 0; i < sp->table.npkeys; i++) chv_free(sp->part_values[i]);
  chv_free(sp->part_values);
  chv_table_free(&sp->table);
  chv_free(sp->path);
  chv_strv_free(sp->columns, sp->ncolumns);
  preds_free(sp->preds, sp->npreds);
  chv_free(sp);
}

void chv_source_splits_free(struct chv_source_split **v, int n) {
  if (v == NULL) return;
  for (int i = 0; i < n; i++) chv_source_split_free(v[i]);
  chv_free(v);
}

/* One planned split as a self-contained chv_source_split. */
static int make_split(const chv_source *s, const struct chv_split_plan *p,
                      const struct chv_split *in, struct chv_source_split **out,
                      struct chv_error *err) {
  struct chv_source_split *sp = chv_calloc(1, sizeof *sp);
  if (sp == NULL) return oom(err);
  bool ok = conn_table_copy(&s->table, &sp->table);
  int np = sp->table.npkeys;
  if (ok && np > 0) {
    sp->part_values = chv_calloc((size_t)np, sizeof(char *));
    ok = sp->part_values != NULL;
    const struct chv_partition *part = &p->partitions[in->partition];
    for (int i = 0; ok && i < np && i < part->nvalues; i++)
      sp->part_values[i] = conn_dup_or_null(part->values[i], &ok);
  }
  sp->path = conn_dup_or_null(in->path, &ok);
  sp->start = in->start;
  sp->length = in->length;
  sp->file_size = in->file_size;
  sp->limit = s->limit;
  if (ok && s->fields) {
    sp->columns = chv_calloc((size_t)s->nfields + 1, sizeof(char *));
    ok = sp->columns != NULL;
    sp->ncolumns = ok ? s->nfields : 0;
    for (int i = 0; ok && i < s->nfields; i++)
      sp->columns[i] = conn_dup_or_null(field_name(&s->table, s->fields[i]), &ok);
  }
  if (ok && preds_copy(s->preds, s->npreds, &sp->preds, err) == CHV_OK)
    sp->npreds = s->npreds;
  else
    ok = false;
  if (!ok) {
    chv_source_split_free(sp);
    return oom(err);
  }
  *out = sp;
  return CHV_OK;
}

int chv_source_splits(chv_source *s, int min_splits,
                      struct chv_source_split ***out, int *n,
                      struct chv_split_plan **plan, struct chv_error *err) {
  *out = NULL;
  *n = 0;
  if (plan) *plan = NULL;
  struct chv_split_options o = {
      .filter = s->filter, .min_splits = min_splits, .cfg = s->cfg};
  struct chv_split_plan *p;
  CHV_RETURN_IF_ERR(conn_split_plan(s->cat, &s->table, &o, &p, err));
  struct chv_source_split **v =
      chv_calloc((size_t)p->nsplits + 1, sizeof *v);
  int rc = v ? CHV_OK : oom(err);
  for (int i = 0; rc == CHV_OK && i < p->nsplits; i++)
    rc = make_split(s, p, &p->splits[i], &v[i], err);
  if (rc != CHV_OK) {
    chv_source_splits_free(v, p->nsplits);
    chv_split_plan_free(p);
    return rc;
  }
  *out = v;
  *n = p->nsplits;
  if (plan)
    *plan = p;
  else
    chv_split_plan_free(p);
  return CHV_OK;
}

int chv_source_report_statistics(chv_source *s, struct chv_source_stats *out,
                                 struct chv_error *err) {
  return conn_report_statistics(s->cat, &s->table, s->cfg, s->filter,
                                s->limit, out, err);
}

/* ---- serializer ------------------------------------------------------------- */

enum {
  F_DB = 1, F_TABLE, F_LOCATION, F_TYPE, F_INPUT, F_OUTPUT, F_SERDE,
  F_SERDE_PARAM, F_PARAM, F_COLUMN, F_PKEY, F_PART_VALUE, F_PATH, F_START,
  F_LENGTH, F_FILE_SIZE, F_PROJECTED, F_LIMIT, F_PRED, F_PROJECTION
};

static void put_str(struct chv_pb_writer *w, uint32_t field, const char *s) {
  if (s) chv_pb_write_string(w, field, s);
}

static void put_kvs(struct chv_pb_writer *w, uint32_t field,
                    const struct chv_kv *kv, int n) {
  for (int i = 0; i < n; i++) {
    size_t m;
    chv_pb_write_message_begin(w, field, &m);
    put_str(w, 1, kv[i].key);
    put_str(w, 2, kv[i].value);
    chv_pb_write_message_end(w, m);
  }
}

static void put_cols(struct chv_pb_writer *w, uint32_t field,
                     const struct chv_column *c, int n) {
  for (int i = 0; i < n; i++) {
    size_t m;
    chv_pb_write_message_begin(w, field, &m);
    put_str(w, 1, c[i].name);
    put_str(w, 2, c[i].type);
    put_str(w, 3, c[i].comment);
    chv_pb_write_message_end(w, m);
  }
}

int chv_source_split_serialize(const struct chv_source_split *sp,
                               struct chv_buf *out, struct chv_error *err) {
  if (chv_buf_append(out, SPLIT_MAGIC, 4) != CHV_OK) return oom(err);
  struct chv_pb_writer w;
  chv_pb_writer_init(&w, out);
  chv_pb_write_varint(&w, SPLIT_VERSION);
  const struct chv_table *t = &sp->table;
  put_str(&w, F_DB, t->db);
  put_str(&w, F_TABLE, t->name);
  put_str(&w, F_LOCATION, t->location);
  chv_pb_write_uint32(&w, F_TYPE, (uint32_t)t->type);
  put_str(&w, F_INPUT, t->input_format);
  put_str(&w, F_OUTPUT, t->output_format);
  put_str(&w, F_SERDE, t->serde_lib);
  put_kvs(&w, F_SERDE_PARAM, t->serde_params, t->nserde_params);
  put_kvs(&w, F_PARAM, t->params, t->nparams);
  put_cols(&w, F_COLUMN, t->columns, t->ncols);
  put_cols(&w, F_PKEY, t->pkeys, t->npkeys);
  for (int i = 0; i < t->npkeys; i++) {
    size_t m;
    chv_pb_write_message_begin(&w, F_PART_VALUE, &m);
    put_str(&w, 1, sp->part_values ? sp->part_values[i] : NULL);
    chv_pb_write_message_end(&w, m);
  }
  put_str(&w, F_PATH, sp->path);
  chv_pb_write_sint64(&w, F_START, sp->start);
  chv_pb_write_sint64(&w, F_LENGTH, sp->length);
  chv_pb_write_sint64(&w, F_FILE_SIZE, sp->file_size);
  if (sp->columns) chv_pb_write_bool(&w, F_PROJECTION, true);
  for (int i = 0; i < sp->ncolumns; i++)
    put_str(&w, F_PROJECTED, sp->columns[i]);
  chv_pb_write_sint64(&w, F_LIMIT, sp->limit);
  for (int i = 0; i < sp->npreds; i++) {
    size_t m;
    chv_pb_write_message_begin(&w, F_PRED, &m);
    put_str(&w, 1, sp->preds[i].column);
    chv_pb_write_uint32(&w, 2, (uint32_t)sp->preds[i].op);
    put_str(&w, 3, sp->preds[i].value);
    chv_pb_write_message_end(&w, m);
  }
  int rc = chv_pb_writer_status(&w);
  return rc == CHV_OK ? CHV_OK : chv_error_set(err, rc, "split: out of memory");
}

/* Reading: the reader r reports errors to err with offsets. */

/* A string field's value, copied; NUL inside is corrupt. */
static int get_str(struct chv_pb_reader *r, unsigned wire, char **out) {
  if (wire != CHV_PB_LEN)
    return chv_pb_fail(r, "split: field %u is not a string", r->field);
  const uint8_t *p;
  size_t n;
  CHV_RETURN_IF_ERR(chv_pb_read_bytes(r, &p, &n));
  if (memchr(p, 0, n))
    return chv_pb_fail(r, "split: field %u holds a NUL byte", r->field);
  char *s = chv_strndup((const char *)p, n);
  if (s == NULL) return chv_error_set(r->err, CHV_ENOMEM, "out of memory");
  chv_free(*out); /* a repeated singular field: the last one wins */
  *out = s;
  return CHV_OK;
}

static int get_i64(struct chv_pb_reader *r, unsigned wire, int64_t *v) {
  if (wire != CHV_PB_VARINT)
    return chv_pb_fail(r, "split: field %u is not a number", r->field);
  return chv_pb_read_sint64(r, v);
}

/* Grow an array of elem-byte items to hold one more (*n + 1). */
static int grow(void **v, int n, size_t elem, struct chv_pb_reader *r) {
  if (n >= (1 << 20))
    return chv_pb_fail(r, "split: more than %d items of field %u", 1 << 20,
                       r->field);
  if ((n & (n - 1)) == 0) { /* 0, 1, 2, 4, ...: double */
    void *p = chv_realloc(*v, elem * (size_t)(n ? 2 * n : 1));
    if (p == NULL) return chv_error_set(r->err, CHV_ENOMEM, "out of memory");
    *v = p;
  }
  memset((char *)*v + elem * (size_t)n, 0, elem);
  return CHV_OK;
}

/* An embedded message of string fields 1..nf into f[]; other fields of it
** are skipped.  *absent: field 1 was not present. */
static int get_strings(struct chv_pb_reader *r, unsigned wire, char **f,
                       int nf, bool *absent1) {
  if (wire != CHV_PB_LEN)
    return chv_pb_fail(r, "split: field %u is not a message", r->field);
  struct chv_pb_reader sub;
  CHV_RETURN_IF_ERR(chv_pb_read_message(r, &sub));
  if (absent1) *absent1 = true;
  while (!chv_pb_reader_done(&sub)) {
    uint32_t field;
    unsigned w;
    CHV_RETURN_IF_ERR(chv_pb_read_key(&sub, &field, &w));
    if (field >= 1 && (int)field <= nf) {
      CHV_RETURN_IF_ERR(get_str(&sub, w, &f[field - 1]));
      if (field == 1 && absent1) *absent1 = false;
    } else {
      CHV_RETURN_IF_ERR(chv_pb_skip(&sub, w));
    }
  }
  return CHV_OK;
}

struct parts {
  char **values; /* partition values as they came */
  int nvalues;
};

static int read_pred(struct chv_pb_reader *r, unsigned wire,
                     struct chv_pred *p) {
  if (wire != CHV_PB_LEN)
    return chv_pb_fail(r, "split: field %u is not a message", r->field);
  struct chv_pb_reader sub;
  CHV_RETURN_IF_ERR(chv_pb_read_message(r, &sub));
  char *column = NULL, *value = NULL;
  uint32_t op = 0;
  int rc = CHV_OK;
  while (rc == CHV_OK && !chv_pb_reader_done(&sub)) {
    uint32_t field;
    unsigned w;
    rc = chv_pb_read_key(&sub, &field, &w);
    if (rc != CHV_OK) break;
    if (field == 1)
      rc = get_str(&sub, w, &column);
    else if (field == 3)
      rc = get_str(&sub, w, &value);
    else if (field == 2 && w == CHV_PB_VARINT)
      rc = chv_pb_read_uint32(&sub, &op);
    else
      rc = chv_pb_skip(&sub, w);
  }
  if (rc == CHV_OK && column == NULL)
    rc = chv_pb_fail(r, "split: a predicate without a column");
  if (rc == CHV_OK && op > CHV_PRED_IS_NOT_NULL)
    rc = chv_pb_fail(r, "split: predicate on %s: unknown operator %u", column,
                     op);
  if (rc == CHV_OK && (op < CHV_PRED_IS_NULL) != (value != NULL))
    rc = chv_pb_fail(r, "split: predicate on %s: %s", column,
                     value ? "IS [NOT] NULL with a value"
                           : "a comparison without a value");
  if (rc != CHV_OK) {
    chv_free(column);
    chv_free(value);
    return rc;
  }
  p->column = column;
  p->value = value;
  p->op = (enum chv_pred_op)op;
  return CHV_OK;
}

static int read_field(struct chv_pb_reader *r, uint32_t field, unsigned wire,
                      struct chv_source_split *sp, struct parts *pv) {
  struct chv_table *t = &sp->table;
  switch (field) {
  case F_DB: return get_str(r, wire, &t->db);
  case F_TABLE: return get_str(r, wire, &t->name);
  case F_LOCATION: return get_str(r, wire, &t->location);
  case F_TYPE: {
    int64_t v;
    if (wire != CHV_PB_VARINT)
      return chv_pb_fail(r, "split: field %u is not a number", field);
    CHV_RETURN_IF_ERR(chv_pb_read_int64(r, &v));
    if (v < CHV_MANAGED_TABLE || v > CHV_VIRTUAL_VIEW)
      return chv_pb_fail(r, "split: unknown table type %lld", (long long)v);
    t->type = (enum chv_table_type)v;
    return CHV_OK;
  }
  case F_INPUT: return get_str(r, wire, &t->input_format);
  case F_OUTPUT: return get_str(r, wire, &t->output_format);
  case F_SERDE: return get_str(r, wire, &t->serde_lib);
  case F_SERDE_PARAM:
  case F_PARAM: {
    struct chv_kv **kv = field == F_PARAM ? &t->params : &t->serde_params;
    int *n = field == F_PARAM ? &t->nparams : &t->nserde_params;
    CHV_RETURN_IF_ERR(grow((void **)kv, *n, sizeof **kv, r));
    char *f[2] = {NULL, NULL};
    int rc = get_strings(r, wire, f, 2, NULL);
    (*kv)[*n].key = f[0];
    (*kv)[*n].value = f[1];
    (*n)++;
    if (rc == CHV_OK && (f[0] == NULL || f[1] == NULL))
      rc = chv_pb_fail(r, "split: a parameter without a key or value");
    return rc;
  }
  case F_COLUMN:
  case F_PKEY: {
    struct chv_column **c = field == F_COLUMN ? &t->columns : &t->pkeys;
    int *n = field == F_COLUMN ? &t->ncols : &t->npkeys;
    CHV_RETURN_IF_ERR(grow((void **)c, *n, sizeof **c, r));
    char *f[3] = {NULL, NULL, NULL};
    int rc = get_strings(r, wire, f, 3, NULL);
    (*c)[*n].name = f[0];
    (*c)[*n].type = f[1];
    (*c)[*n].comment = f[2];
    (*n)++;
    if (rc == CHV_OK && (f[0] == NULL || f[1] == NULL))
      rc = chv_pb_fail(r, "split: a column without a name or type");
    return rc;
  }
  case F_PART_VALUE: {
    CHV_RETURN_IF_ERR(grow((void **)&pv->values, pv->nvalues, sizeof(char *),
                           r));
    char *f[1] = {NULL};
    bool absent;
    int rc = get_strings(r, wire, f, 1, &absent);
    pv->values[pv->nvalues++] = f[0];
    return rc;
  }
  case F_PATH: return get_str(r, wire, &sp->path);
  case F_START: return get_i64(r, wire, &sp->start);
  case F_LENGTH: return get_i64(r, wire, &sp->length);
  case F_FILE_SIZE: return get_i64(r, wire, &sp->file_size);
  case F_LIMIT: return get_i64(r, wire, &sp->limit);
  case F_PROJECTION:
    if (wire != CHV_PB_VARINT)
      return chv_pb_fail(r, "split: field %u is not a number", field);
    return chv_pb_read_bool(r, &sp->projected);
  case F_PROJECTED: {
    CHV_RETURN_IF_ERR(grow((void **)&sp->columns, sp->ncolumns,
                           sizeof(char *), r));
    sp->columns[sp->ncolumns] = NULL;
    int rc = get_str(r, wire, &sp->columns[sp->ncolumns]);
    sp->ncolumns++;
    return rc;
  }
  case F_PRED: {
    CHV_RETURN_IF_ERR(grow((void **)&sp->preds, sp->npreds,
                           sizeof *sp->preds, r));
    CHV_RETURN_IF_ERR(read_pred(r, wire, &sp->preds[sp->npreds]));
    sp->npreds++;
    return CHV_OK;
  }
  default: return chv_pb_skip(r, wire);
  }
}

int chv_source_split_deserialize(const void *data, size_t n,
                                 struct chv_source_split **out,
                                 struct chv_error *err) {
  *out = NULL;
  const uint8_t *p = data;
  if (n < 4 || memcmp(p, SPLIT_MAGIC, 4) != 0)
    return chv_error_set(err, CHV_ECORRUPT,
                         "split: not a chive split (no \"" SPLIT_MAGIC
                         "\" at byte 0)");
  uint64_t version;
  size_t k = chv_pb_varint_decode(p + 4, n - 4, &version);
  if (k == 0)
    return chv_error_set(err, CHV_ECORRUPT, "split: bad version at byte 4");
  if (version != SPLIT_VERSION)
    return chv_error_set(err, CHV_ENOTSUP,
                         "split: version %llu (this chive reads version %d)",
                         (unsigned long long)version, SPLIT_VERSION);
  struct chv_source_split *sp = chv_calloc(1, sizeof *sp);
  if (sp == NULL) return oom(err);
  sp->limit = -1;
  sp->length = -1;
  struct parts pv = {0};
  struct chv_pb_reader r;
  chv_pb_reader_init(&r, p + 4 + k, n - 4 - k, err);
  r.base = 4 + k;
  int rc = CHV_OK;
  while (rc == CHV_OK && !chv_pb_reader_done(&r)) {
    uint32_t field;
    unsigned wire;
    rc = chv_pb_read_key(&r, &field, &wire);
    if (rc == CHV_OK) rc = read_field(&r, field, wire, sp, &pv);
  }
  if (rc != CHV_OK && rc != CHV_ENOMEM && strncmp(err->msg, "split", 5))
    chv_error_wrap(err, "split");
  /* The parts must agree. */
  struct chv_table *t = &sp->table;
  if (rc == CHV_OK && (!t->db || !t->name || !t->location || !sp->path))
    rc = chv_error_set(err, CHV_ECORRUPT,
                       "split: no %s", !t->db     ? "database"
                                       : !t->name ? "table"
                                       : !t->location ? "location"
                                                      : "path");
  if (rc == CHV_OK && pv.nvalues != t->npkeys)
    rc = chv_error_set(err, CHV_ECORRUPT,
                       "split of %s.%s: %d partition values for %d keys",
                       t->db, t->name, pv.nvalues, t->npkeys);
  if (rc == CHV_OK && (sp->start < 0 || sp->file_size < 0 ||
                       sp->length < -1 ||
                       (sp->length >= 0 && sp->length > INT64_MAX - sp->start)))
    rc = chv_error_set(err, CHV_ECORRUPT,
                       "split of %s.%s: bad range start %lld length %lld",
                       t->db, t->name, (long long)sp->start,
                       (long long)sp->length);
  if (rc != CHV_OK) {
    for (int i = 0; i < pv.nvalues; i++) chv_free(pv.values[i]);
    chv_free(pv.values);
    chv_source_split_free(sp);
    return rc;
  }
  sp->part_values = pv.values;
  if (sp->projected && sp->columns == NULL &&
      (sp->columns = chv_calloc(1, sizeof(char *))) == NULL) {
    chv_source_split_free(sp);
    return oom(err);
  }
  *out = sp;
  return CHV_OK;
}

/* ---- reading a split ------------------------------------------------------- */

int chv_source_split_open(const struct chv_source_split *sp,
                          int64_t batch_rows, chv_scan **out,
                          struct chv_error *err) {
  *out = NULL;
  struct chv_table t;
  if (!conn_table_copy(&sp->table, &t)) {
    chv_table_free(&t);
    return oom(err);
  }
  struct chv_scan_options o;
  chv_scan_options_init(&o);
  o.columns = (const char *const *)sp->columns;
  o.ncolumns = sp->ncolumns;
  o.limit = sp->limit;
  o.batch_rows = batch_rows;
  o.preds = sp->preds;
  o.npreds = sp->npreds;
  int64_t length = sp->length;
  if (sp->start == 0 && length >= sp->file_size) length = -1; /* whole */
  return conn_scan_open_split(&t, sp->part_values, sp->path, sp->start, length,
                              &o, out, err);
}
