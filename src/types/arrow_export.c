/*
** Export of types, vectors and batches through the Arrow C Data Interface.
**
** Schemas: one private block per ArrowSchema node holds its format and name
** strings and its children.  Formats: b c s i l f g, d:p,s (decimal128),
** u (STRING/VARCHAR/CHAR), z (BINARY), tdD, tsn:/tsu:, +l (child "item"),
** +m (child "entries" +s of "key", non-nullable, and "value"), +s.
**
** Arrays: export is zero-copy except for TIMESTAMP, whose seconds + nanos
** are converted into a new int64 buffer.  It runs in two phases so that a
** failure leaves the caller's batch untouched:
**   1. build: allocate every node (and converted buffer), pointing the
**      buffers at the vectors' memory without owning it; may fail;
**   2. steal: move each vector's buffers into its node's private block and
**      free the emptied vector shells; cannot fail.
** Each node frees only its own buffers and releases its children that are
** still set, so a consumer may move children out independently, as the
** specification allows.
**
** INTERFACE
**   chv_type_export_schema() chv_batch_export_schema()
**   chv_batch_export() chv_vector_export() chv_vector_export_schema()
**   chv_types_ts_unit() chv_types_export_batch_schema()
**   chv_types_export_batch()                         (types_int.h)
*/
#include "types/types_int.h"

#include <stdio.h>

/* ---- schemas ----------------------------------------------------------- */

struct schema_priv {
  char *format;   /* owned */
  char *name;     /* owned */
  char *metadata; /* owned, or NULL */
};

static void schema_release(struct ArrowSchema *s) {
  for (int64_t i = 0; i < s->n_children; i++) {
    struct ArrowSchema *c = s->children[i];
    if (c->release) c->release(c);
  }
  struct schema_priv *p = s->private_data;
  if (p) {
    chv_free(p->format);
    chv_free(p->name);
    chv_free(p->metadata);
  }
  chv_free(p); /* the children live in the same block */
  s->release = NULL;
}

/* Allocate a schema node with n zeroed children; *out is releasable even if
** the children are never filled in. */
static int schema_node(struct ArrowSchema *out, const char *format,
                       const char *name, int64_t flags, int64_t n) {
  memset(out, 0, sizeof *out);
  size_t sz = sizeof(struct schema_priv) +
              (size_t)n * (sizeof(struct ArrowSchema *) +
                           sizeof(struct ArrowSchema));
  struct schema_priv *p = chv_calloc(1, sz);
  if (p == NULL) return CHV_ENOMEM;
  p->format = chv_strdup(format);
  p->name = chv_strdup(name ? name : "");
  out->private_data = p;
  out->release = schema_release;
  if (p->format == NULL || p->name == NULL) {
    schema_release(out);
    return CHV_ENOMEM;
  }
  struct ArrowSchema **ptrs = (struct ArrowSchema **)(p + 1);
  struct ArrowSchema *mem = (struct ArrowSchema *)(ptrs + n);
  for (int64_t i = 0; i < n; i++) ptrs[i] = &mem[i];
  out->format = p->format;
  out->name = p->name;
  out->flags = flags;
  out->children = n ? ptrs : NULL;
  out->n_children = n;
  return CHV_OK;
}

static int schema_of(const struct chv_type *t, const char *name,
                     int64_t flags, enum chv_ts_unit unit,
                     struct ArrowSchema *out);

/* Fill the children of an already allocated node; the node is released by
** the caller on failure. */
static int schema_children(const struct chv_type *t, enum chv_ts_unit unit,
                           struct ArrowSchema *out) {
  const int64_t nullable = ARROW_FLAG_NULLABLE;
  switch (t->id) {
  case CHV_TYPE_ARRAY:
    return schema_of(t->children[0], "item", nullable, unit, out->children[0]);
  case CHV_TYPE_MAP: {
    struct ArrowSchema *e = out->children[0];
    CHV_RETURN_IF_ERR(schema_node(e, "+s", "entries", 0, 2));
    CHV_RETURN_IF_ERR(schema_of(t->children[0], "key", 0, unit, e->children[0]));
    return schema_of(t->children[1], "value", nullable, unit, e->children[1]);
  }
  case CHV_TYPE_STRUCT:
    for (int i = 0; i < t->nchildren; i++)
      CHV_RETURN_IF_ERR(schema_of(t->children[i], t->names[i], nullable, unit,
                                  out->children[i]));
    return CHV_OK;
  default: return CHV_OK;
  }
}

/* The Arrow format string of a type. */
static void format_of(const struct chv_type *t, enum chv_ts_unit unit,
                      char *fmt, size_t n) {
  const char *f = "n";
  switch (t->id) {
  case CHV_TYPE_BOOLEAN: f = "b"; break;
  case CHV_TYPE_TINYINT: f = "c"; break;
  case CHV_TYPE_SMALLINT: f = "s"; break;
  case CHV_TYPE_INT: f = "i"; break;
  case CHV_TYPE_BIGINT: f = "l"; break;
  case CHV_TYPE_FLOAT: f = "f"; break;
  case CHV_TYPE_DOUBLE: f = "g"; break;
  case CHV_TYPE_DECIMAL:
    snprintf(fmt, n, "d:%d,%d", t->precision, t->scale);
    return;
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR: f = "u"; break;
  case CHV_TYPE_BINARY: f = "z"; break;
  case CHV_TYPE_DATE: f = "tdD"; break;
  case CHV_TYPE_TIMESTAMP: f = unit == CHV_TS_MICRO ? "tsu:" : "tsn:"; break;
  case CHV_TYPE_ARRAY: f = "+l"; break;
  case CHV_TYPE_MAP: f = "+m"; break;
  case CHV_TYPE_STRUCT: f = "+s"; break;
  default: break;
  }
  snprintf(fmt, n, "%s", f);
}

/* Arrow metadata {key: value} in the C Data Interface encoding: int32
** count, then int32 length + bytes for each key and value. */
static char *metadata_one(const char *key, const char *value) {
  int32_t kl = (int32_t)strlen(key), vl = (int32_t)strlen(value), one = 1;
  char *m = chv_malloc(12 + (size_t)kl + (size_t)vl);
  if (m == NULL) return NULL;
  char *p = m;
  memcpy(p, &one, 4);
  memcpy(p + 4, &kl, 4);
  memcpy(p + 8, key, (size_t)kl);
  p += 8 + kl;
  memcpy(p, &vl, 4);
  memcpy(p + 4, value, (size_t)vl);
  return m;
}

static int schema_of(const struct chv_type *t, const char *name,
                     int64_t flags, enum chv_ts_unit unit,
                     struct ArrowSchema *out) {
  char fmt[32];
  format_of(t, unit, fmt, sizeof fmt);
  int64_t n = t->id == CHV_TYPE_STRUCT ? t->nchildren
              : (t->id == CHV_TYPE_ARRAY || t->id == CHV_TYPE_MAP) ? 1
                                                                   : 0;
  CHV_RETURN_IF_ERR(schema_node(out, fmt, name, flags, n));
  if (t->id == CHV_TYPE_CHAR || t->id == CHV_TYPE_VARCHAR) {
    /* Arrow strings have no length: keep the Hive type beside them. */
    char hive[32];
    snprintf(hive, sizeof hive, "%s(%d)", chv_type_id_name(t->id), t->length);
    struct schema_priv *p = out->private_data;
    p->metadata = metadata_one(CHV_ARROW_HIVE_TYPE_KEY, hive);
    if (p->metadata == NULL) {
      out->release(out);
      return CHV_ENOMEM;
    }
    out->metadata = p->metadata;
  }
  int rc = schema_children(t, unit, out);
  if (rc != CHV_OK) out->release(out);
  return rc;
}

int chv_type_export_schema(const struct chv_type *t, const char *name,
                           struct ArrowSchema *out, struct chv_error *err) {
  struct ArrowSchema tmp;
  int64_t flags = t->id == CHV_TYPE_STRUCT ? 0 : ARROW_FLAG_NULLABLE;
  if (schema_of(t, name, flags, CHV_TS_NANO, &tmp) != CHV_OK)
    return chv_error_set(err, CHV_ENOMEM, "out of memory exporting a schema");
  *out = tmp;
  return CHV_OK;
}

int chv_types_export_batch_schema(const struct chv_type *schema,
                                  const uint8_t *units,
                                  struct ArrowSchema *out,
                                  struct chv_error *err) {
  if (schema->id != CHV_TYPE_STRUCT)
    return chv_error_set(err, CHV_EINVAL, "a batch schema must be a struct");
  struct ArrowSchema tmp;
  int rc = schema_node(&tmp, "+s", "", 0, schema->nchildren);
  for (int i = 0; rc == CHV_OK && i < schema->nchildren; i++) {
    enum chv_ts_unit u = units ? (enum chv_ts_unit)units[i] : CHV_TS_NANO;
    rc = schema_of(schema->children[i], schema->names[i], ARROW_FLAG_NULLABLE,
                   u, tmp.children[i]);
    if (rc != CHV_OK) tmp.release(&tmp);
  }
  if (rc != CHV_OK)
    return chv_error_set(err, CHV_ENOMEM, "out of memory exporting a schema");
  *out = tmp;
  return CHV_OK;
}

/* ---- timestamps -------------------------------------------------------- */

static bool ts_to_nanos(struct chv_timestamp ts, int64_t *out) {
  int64_t ns;
  if (__builtin_mul_overflow(ts.seconds, (int64_t)1000000000, &ns)) return false;
  if (__builtin_add_overflow(ns, (int64_t)ts.nanos, &ns)) return false;
  *out = ns;
  return true;
}

static bool ts_to_micros(struct chv_timestamp ts, int64_t *out) {
  int64_t us;
  if (__builtin_mul_overflow(ts.seconds, (int64_t)1000000, &us)) return false;
  if (__builtin_add_overflow(us, (int64_t)(ts.nanos / 1000), &us))
    return false;
  *out = us;
  return true;
}

enum chv_ts_unit chv_types_ts_unit(const struct chv_vector *v) {
  if (v->type->id == CHV_TYPE_TIMESTAMP) {
    const struct chv_timestamp *d = v->data;
    int64_t ns;
    for (int64_t i = 0; i < v->length; i++)
      if (!chv_vector_is_null(v, i) && !ts_to_nanos(d[i], &ns))
        return CHV_TS_MICRO;
    return CHV_TS_NANO;
  }
  for (int i = 0; i < v->nchildren; i++)
    if (chv_types_ts_unit(v->children[i]) == CHV_TS_MICRO) return CHV_TS_MICRO;
  return CHV_TS_NANO;
}

/* ---- arrays ------------------------------------------------------------ */

enum { OWN_VALIDITY, OWN_DATA, OWN_OFFSETS, OWN_BYTES, OWN_CONVERTED, OWN_N };

struct array_priv {
  void *owned[OWN_N];  /* freed on release */
  const void *bufs[3]; /* what buffers points at */
};

static void array_release(struct ArrowArray *a) {
  for (int64_t i = 0; i < a->n_children; i++) {
    struct ArrowArray *c = a->children[i];
    if (c->release) c->release(c);
  }
  struct array_priv *p = a->private_data;
  if (p)
    for (int i = 0; i < OWN_N; i++) chv_free(p->owned[i]);
  chv_free(p); /* the children live in the same block */
  a->release = NULL;
}

static int array_node(struct ArrowArray *out, int64_t length,
                      int64_t n_buffers, int64_t n) {
  memset(out, 0, sizeof *out);
  size_t sz = sizeof(struct array_priv) +
              (size_t)n * (sizeof(struct ArrowArray *) +
                           sizeof(struct ArrowArray));
  struct array_priv *p = chv_calloc(1, sz);
  if (p == NULL) return CHV_ENOMEM;
  struct ArrowArray **ptrs = (struct ArrowArray **)(p + 1);
  struct ArrowArray *mem = (struct ArrowArray *)(ptrs + n);
  for (int64_t i = 0; i < n; i++) ptrs[i] = &mem[i];
  out->length = length;
  out->n_buffers = n_buffers;
  out->buffers = p->bufs;
  out->n_children = n;
  out->children = n ? ptrs : NULL;
  out->private_data = p;
  out->release = array_release;
  return CHV_OK;
}

/* Context of one export: the column being exported, for messages. */
struct export_ctx {
  const char *column;
  enum chv_ts_unit unit;
  struct chv_error *err;
};

static const char empty_heap[1];

static int convert_timestamps(const struct chv_vector *v,
                              struct export_ctx *x, int64_t **out) {
  int64_t *conv = chv_malloc((size_t)(v->length > 0 ? v->length : 1) * 8);
  if (conv == NULL) return chv_error_set(x->err, CHV_ENOMEM, "out of memory");
  const struct chv_timestamp *d = v->data;
  for (int64_t i = 0; i < v->length; i++) {
    conv[i] = 0;
    if (chv_vector_is_null(v, i)) continue;
    bool ok;
    const char *why;
    if (x->unit == CHV_TS_NANO) {
      ok = ts_to_nanos(d[i], &conv[i]);
      why = "is outside the range of Arrow nanoseconds (1677..2262)";
    } else {
      ok = ts_to_micros(d[i], &conv[i]) && d[i].nanos % 1000 == 0;
      why = "has sub-microsecond digits that Arrow microseconds (needed "
            "for this column's range) cannot hold";
    }
    if (!ok) {
      char buf[48];
      chv_timestamp_format(d[i], buf);
      chv_free(conv);
      return chv_error_set(x->err, CHV_ERANGE, "column %s: timestamp %s %s",
                           x->column, buf, why);
    }
  }
  *out = conv;
  return CHV_OK;
}

static int build(const struct chv_vector *v, struct export_ctx *x,
                 struct ArrowArray *out);

static int build_children(const struct chv_vector *v, struct export_ctx *x,
                          struct ArrowArray *out) {
  struct array_priv *p = out->private_data;
  enum chv_type_id id = v->type->id;
  switch (id) {
  case CHV_TYPE_BOOLEAN:
  case CHV_TYPE_TINYINT:
  case CHV_TYPE_SMALLINT:
  case CHV_TYPE_INT:
  case CHV_TYPE_BIGINT:
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DOUBLE:
  case CHV_TYPE_DECIMAL:
  case CHV_TYPE_DATE: p->bufs[1] = v->data; return CHV_OK;
  case CHV_TYPE_TIMESTAMP: {
    int64_t *conv = NULL;
    CHV_RETURN_IF_ERR(convert_timestamps(v, x, &conv));
    p->owned[OWN_CONVERTED] = conv;
    p->bufs[1] = conv;
    return CHV_OK;
  }
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
  case CHV_TYPE_BINARY:
    p->bufs[1] = v->offsets;
    p->bufs[2] = v->bytes ? v->bytes : empty_heap;
    return CHV_OK;
  case CHV_TYPE_ARRAY:
    p->bufs[1] = v->offsets;
    return build(v->children[0], x, out->children[0]);
  case CHV_TYPE_MAP: {
    p->bufs[1] = v->offsets;
    const struct chv_vector *k = v->children[0], *val = v->children[1];
    if (k->null_count > 0)
      return chv_error_set(x->err, CHV_EINVAL,
                           "column %s: a map key is NULL, which Arrow maps "
                           "do not allow",
                           x->column);
    if (val->length < k->length)
      return chv_error_set(x->err, CHV_EINTERNAL,
                           "column %s: map has %lld keys but %lld values",
                           x->column, (long long)k->length,
                           (long long)val->length);
    struct ArrowArray *e = out->children[0];
    if (array_node(e, k->length, 1, 2) != CHV_OK)
      return chv_error_set(x->err, CHV_ENOMEM, "out of memory");
    CHV_RETURN_IF_ERR(build(k, x, e->children[0]));
    return build(val, x, e->children[1]);
  }
  case CHV_TYPE_STRUCT:
    for (int i = 0; i < v->nchildren; i++) {
      if (v->children[i]->length < v->length)
        return chv_error_set(x->err, CHV_EINTERNAL,
                             "column %s: struct field %s has %lld rows, the "
                             "struct %lld",
                             x->column, v->type->names[i],
                             (long long)v->children[i]->length,
                             (long long)v->length);
      CHV_RETURN_IF_ERR(build(v->children[i], x, out->children[i]));
    }
    return CHV_OK;
  default:
    return chv_error_set(x->err, CHV_EINTERNAL, "column %s: bad type id %d",
                         x->column, (int)id);
  }
}

/* Phase 1: a node for v and its children, borrowing the vectors' buffers.
** On failure *out is left released. */
static int build(const struct chv_vector *v, struct export_ctx *x,
                 struct ArrowArray *out) {
  enum chv_type_id id = v->type->id;
  int64_t nbuf = id == CHV_TYPE_STRUCT ? 1 : chv_type_is_string_like(id) ? 3 : 2;
  int64_t nch = id == CHV_TYPE_STRUCT ? v->nchildren
                : (id == CHV_TYPE_ARRAY || id == CHV_TYPE_MAP) ? 1
                                                               : 0;
  if (array_node(out, v->length, nbuf, nch) != CHV_OK)
    return chv_error_set(x->err, CHV_ENOMEM, "out of memory");
  struct array_priv *p = out->private_data;
  out->null_count = v->validity ? v->null_count : 0;
  p->bufs[0] = out->null_count > 0 ? v->validity : NULL;
  int rc = build_children(v, x, out);
  if (rc != CHV_OK) out->release(out);
  return rc;
}

/* Phase 2: move v's buffers (and its children's) into the nodes. */
static void steal(struct chv_vector *v, struct ArrowArray *a) {
  struct array_priv *p = a->private_data;
  p->owned[OWN_VALIDITY] = v->validity;
  p->owned[OWN_DATA] = v->data;
  p->owned[OWN_OFFSETS] = v->offsets;
  p->owned[OWN_BYTES] = v->bytes;
  v->validity = NULL;
  v->data = NULL;
  v->offsets = NULL;
  v->bytes = NULL;
  if (v->type->id == CHV_TYPE_MAP) {
    struct ArrowArray *e = a->children[0];
    steal(v->children[0], e->children[0]);
    steal(v->children[1], e->children[1]);
  } else {
    for (int i = 0; i < v->nchildren; i++) steal(v->children[i], a->children[i]);
  }
}

int chv_types_export_batch(struct chv_batch **bp, const uint8_t *units,
                           struct ArrowArray *out, struct chv_error *err) {
  struct chv_batch *b = *bp;
  if (b->nrows < 0)
    return chv_error_set(err, CHV_EINVAL, "batch has %lld rows",
                         (long long)b->nrows);
  struct ArrowArray tmp;
  if (array_node(&tmp, b->nrows, 1, b->ncols) != CHV_OK)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  for (int i = 0; i < b->ncols; i++) {
    const char *name = b->schema->names[i];
    if (b->cols[i]->length < b->nrows) {
      tmp.release(&tmp);
      return chv_error_set(err, CHV_EINTERNAL,
                           "column %s has %lld rows, the batch %lld", name,
                           (long long)b->cols[i]->length, (long long)b->nrows);
    }
    struct export_ctx x = {name,
                           units ? (enum chv_ts_unit)units[i]
                                 : chv_types_ts_unit(b->cols[i]),
                           err};
    int rc = build(b->cols[i], &x, tmp.children[i]);
    if (rc != CHV_OK) {
      tmp.release(&tmp);
      return rc;
    }
  }
  for (int i = 0; i < b->ncols; i++) steal(b->cols[i], tmp.children[i]);
  chv_batch_close(b);
  *bp = NULL;
  *out = tmp;
  return CHV_OK;
}

int chv_batch_export(struct chv_batch **b, struct ArrowArray *out,
                     struct chv_error *err) {
  return chv_types_export_batch(b, NULL, out, err);
}

int chv_batch_export_schema(const struct chv_batch *b, struct ArrowSchema *out,
                            struct chv_error *err) {
  uint8_t *units = chv_malloc((size_t)(b->ncols > 0 ? b->ncols : 1));
  if (units == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  for (int i = 0; i < b->ncols; i++)
    units[i] = (uint8_t)chv_types_ts_unit(b->cols[i]);
  int rc = chv_types_export_batch_schema(b->schema, units, out, err);
  chv_free(units);
  return rc;
}

int chv_vector_export_schema(const struct chv_vector *v, const char *name,
                             struct ArrowSchema *out, struct chv_error *err) {
  struct ArrowSchema tmp;
  int64_t flags = v->type->id == CHV_TYPE_STRUCT ? 0 : ARROW_FLAG_NULLABLE;
  if (schema_of(v->type, name, flags, chv_types_ts_unit(v), &tmp) != CHV_OK)
    return chv_error_set(err, CHV_ENOMEM, "out of memory exporting a schema");
  *out = tmp;
  return CHV_OK;
}

int chv_vector_export(struct chv_vector **vp, struct ArrowArray *out,
                      struct chv_error *err) {
  struct chv_vector *v = *vp;
  struct export_ctx x = {"(vector)", chv_types_ts_unit(v), err};
  struct ArrowArray tmp;
  int rc = build(v, &x, &tmp);
  if (rc != CHV_OK) return rc;
  steal(v, &tmp);
  chv_vector_close(v);
  *vp = NULL;
  *out = tmp;
  return CHV_OK;
}
