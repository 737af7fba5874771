/*
** sql/exec/dynfilter: dynamic filtering of a hash join's probe side (Flink's
** table.optimizer.dynamic-filtering.enabled).  The plan (sql/plan/joins.c)
** marks a join whose probe side is a table Scan keyed by its columns; that
** Scan's operator does not open with the others but waits for the join.
** Once the join has read its build side, sql_dynfilter_give() sums up the
** build keys of each marked column:
**
**   build rows --> each key evaluated --> non-NULL values: min, max and,
**                                         up to SQL_DYN_SET of them, the set
**              --> partition key: key IN (set), or BETWEEN min AND max
**                  data column:   key >= min AND key <= max (predicates)
**              --> sql_op_scan_start(): the scan opens with them
**
** A partition filter is evaluated by the catalog (the partitions the keys
** leave out are never listed); the predicates skip Parquet row groups and
** ORC stripes and row groups by their statistics, as those of a WHERE do.
** Neither drops a row the join could match: the keys are the very values
** the join compares (the plan allows only a probe key that is the column
** itself, of a type whose text compares as the files and partitions do),
** and NULL keys, which match nothing, are left out.  With no key at all
** the filter is one nothing passes (k IS NULL AND k IS NOT NULL).
**
** INTERFACE: sql_dynfilter_give() (op.h)
*/
#include "sql/exec/op.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int oom(struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory");
}

/* Row i of v (not NULL) as text in Hive's canonical form, into out. */
static int key_text(const struct chv_vector *v, int64_t i, struct chv_buf *out) {
  char buf[64];
  const void *d = v->data;
  out->len = 0;
  switch (v->type->id) {
  case CHV_TYPE_TINYINT: snprintf(buf, sizeof buf, "%d", ((const int8_t *)d)[i]); break;
  case CHV_TYPE_SMALLINT: snprintf(buf, sizeof buf, "%d", ((const int16_t *)d)[i]); break;
  case CHV_TYPE_INT: snprintf(buf, sizeof buf, "%d", ((const int32_t *)d)[i]); break;
  case CHV_TYPE_BIGINT:
    snprintf(buf, sizeof buf, "%lld", (long long)((const int64_t *)d)[i]);
    break;
  case CHV_TYPE_DATE: chv_date_format(((const int32_t *)d)[i], buf); break;
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
    return chv_buf_append(out, v->bytes + v->offsets[i],
                          (size_t)(v->offsets[i + 1] - v->offsets[i]));
  default:
    return CHV_EINTERNAL; /* the plan marks no other type */
  }
  return chv_buf_puts(out, buf);
}

/* The order of rows i and j of v (neither NULL). */
static int key_cmp(const struct chv_vector *v, int64_t i, int64_t j) {
  const void *d = v->data;
  int64_t a, b;
  switch (v->type->id) {
  case CHV_TYPE_TINYINT: a = ((const int8_t *)d)[i]; b = ((const int8_t *)d)[j]; break;
  case CHV_TYPE_SMALLINT: a = ((const int16_t *)d)[i]; b = ((const int16_t *)d)[j]; break;
  case CHV_TYPE_INT:
  case CHV_TYPE_DATE: a = ((const int32_t *)d)[i]; b = ((const int32_t *)d)[j]; break;
  case CHV_TYPE_BIGINT: a = ((const int64_t *)d)[i]; b = ((const int64_t *)d)[j]; break;
  default: {
    size_t la = (size_t)(v->offsets[i + 1] - v->offsets[i]);
    size_t lb = (size_t)(v->offsets[j + 1] - v->offsets[j]);
    int c = memcmp(v->bytes + v->offsets[i], v->bytes + v->offsets[j],
                   la < lb ? la : lb);
    return c ? c : (la > lb) - (la < lb);
  }
  }
  return (a > b) - (a < b);
}

/* What one key's build values are. */
struct keys {
  int64_t nulls;             /* rows whose key is NULL */
  int64_t min, max;          /* rows of the least and greatest, or -1 */
  struct chv_keyset set;     /* distinct texts, up to SQL_DYN_SET + 1 */
  bool big;                  /* more than SQL_DYN_SET distinct */
};

static int summarize(const struct chv_vector *v, int64_t n, struct keys *k,
                     struct chv_error *err) {
  struct chv_buf t;
  chv_buf_init(&t);
  k->min = k->max = -1;
  int rc = CHV_OK;
  for (int64_t i = 0; i < n && rc == CHV_OK; i++) {
    if (chv_vector_is_null(v, i)) {
      k->nulls++;
      continue;
    }
    if (k->min < 0 || key_cmp(v, i, k->min) < 0) k->min = i;
    if (k->max < 0 || key_cmp(v, i, k->max) > 0) k->max = i;
    if (k->big) continue;
    if ((rc = key_text(v, i, &t)) != CHV_OK) break;
    uint32_t id;
    bool added;
    if (chv_keyset_put(&k->set, t.data ? t.data : "", t.len, &id, &added) !=
        CHV_OK)
      rc = CHV_ENOMEM;
    else if (k->set.n > SQL_DYN_SET)
      k->big = true;
  }
  chv_buf_free(&t);
  if (rc == CHV_ENOMEM) return oom(err);
  if (rc != CHV_OK)
    return chv_error_set(err, CHV_EINTERNAL,
                         "dynamic filter on a key of type %s",
                         chv_type_id_name(v->type->id));
  return CHV_OK;
}

/* Row i of v as text in the arena; NULL on out-of-memory. */
static const char *arena_text(chv_arena *a, const struct chv_vector *v,
                              int64_t i) {
  struct chv_buf t;
  chv_buf_init(&t);
  const char *s = NULL;
  if (key_text(v, i, &t) == CHV_OK)
    s = chv_arena_strndup(a, t.data ? t.data : "", t.len);
  chv_buf_free(&t);
  return s;
}

/* The filter (partition key) or predicates (data column) of column col
** from k, and what EXPLAIN ANALYZE says of them appended to text. */
static int key_filter(chv_arena *a, const char *col, bool part,
                      const struct chv_vector *v, const struct keys *k,
                      struct chv_part_filter **pf, struct chv_pred *preds,
                      int *npreds, struct chv_buf *text,
                      struct chv_error *err) {
  int64_t nset = (int64_t)k->set.n;
  if (k->min < 0) { /* no key: nothing matches */
    chv_buf_printf(text, "%s: no keys", col);
    if (part) {
      *pf = chv_pf_and(a, chv_pf_is_null(a, col, false),
                       chv_pf_is_null(a, col, true));
      return *pf ? CHV_OK : oom(err);
    }
    preds[(*npreds)++] = (struct chv_pred){col, CHV_PRED_IS_NULL, NULL};
    preds[(*npreds)++] = (struct chv_pred){col, CHV_PRED_IS_NOT_NULL, NULL};
    return CHV_OK;
  }
  const char *lo = arena_text(a, v, k->min), *hi = arena_text(a, v, k->max);
  if (!lo || !hi) return oom(err);
  if (part && !k->big) {
    const char **lits = chv_arena_alloc(a, sizeof *lits * (size_t)(nset + 1));
    if (!lits) return oom(err);
    for (int64_t i = 0; i < nset; i++) {
      size_t len;
      const char *s = chv_keyset_key(&k->set, (uint32_t)i, &len);
      if (!(lits[i] = chv_arena_strndup(a, s, len))) return oom(err);
    }
    *pf = chv_pf_in(a, col, lits, (int)nset, false);
    if (!*pf) return oom(err);
    chv_buf_printf(text, "%s IN (%lld key%s", col, (long long)nset,
                   nset == 1 ? "" : "s");
    for (int64_t i = 0; i < nset && i < 4; i++)
      chv_buf_printf(text, "%s'%s'", i ? ", " : ": ", lits[i]);
    chv_buf_puts(text, nset > 4 ? ", ...)" : ")");
    return CHV_OK;
  }
  if (part) {
    *pf = chv_pf_between(a, col, lo, hi, false);
    if (!*pf) return oom(err);
  } else {
    preds[(*npreds)++] = (struct chv_pred){col, CHV_PRED_GE, lo};
    preds[(*npreds)++] = (struct chv_pred){col, CHV_PRED_LE, hi};
  }
  if (k->big)
    chv_buf_printf(text, "%s BETWEEN '%s' AND '%s' (more than %d keys)", col,
                   lo, hi, SQL_DYN_SET);
  else
    chv_buf_printf(text, "%s BETWEEN '%s' AND '%s' (%lld key%s)", col, lo, hi,
                   (long long)nset, nset == 1 ? "" : "s");
  return CHV_OK;
}

int sql_dynfilter_give(struct sql_exec *x, const struct sql_node *nd,
                       const struct chv_batch *bb,
                       struct chv_expr *const *bkeys, struct chv_error *err) {
  const struct sql_node *sn = nd->u.join.dyn_scan;
  if (!sn || x->explain || !x->ops || sn->id >= x->nops) return CHV_OK;
  struct sql_op *scan = x->ops[sn->id];
  if (!scan || scan->node != sn) return CHV_OK;
  int nkeys = nd->u.join.nkeys;
  chv_arena *a;
  if (chv_arena_open(4096, &a) != CHV_OK) return oom(err);
  struct chv_pred *preds = chv_arena_alloc(a, sizeof *preds * (size_t)(2 * nkeys + 1));
  struct chv_part_filter *pf = NULL;
  int npreds = 0, rc = preds ? CHV_OK : oom(err);
  struct chv_buf text;
  chv_buf_init(&text);
  for (int k = 0; k < nkeys && rc == CHV_OK; k++) {
    const char *col = nd->u.join.dyn_cols[k];
    if (!col) continue;
    struct chv_vector *v = NULL;
    struct keys ks = {0};
    rc = chv_vector_open(bkeys[k]->type, bb->nrows, &v, err);
    if (rc == CHV_OK && bb->nrows)
      rc = chv_expr_eval(bkeys[k], bb, NULL, bb->nrows, v, err);
    if (rc == CHV_OK) rc = summarize(v, bb->nrows, &ks, err);
    struct chv_part_filter *f = NULL;
    if (rc == CHV_OK && text.len) chv_buf_puts(&text, " AND ");
    if (rc == CHV_OK)
      rc = key_filter(a, col, nd->u.join.dyn_part[k], v, &ks, &f, preds,
                      &npreds, &text, err);
    if (rc == CHV_OK && f && !(pf = pf ? chv_pf_and(a, pf, f) : f))
      rc = oom(err);
    chv_keyset_free(&ks.set);
    chv_vector_close(v);
  }
  const char *t = NULL;
  if (rc == CHV_OK &&
      !(t = chv_arena_strndup(a, text.data ? text.data : "", text.len)))
    rc = oom(err);
  chv_buf_free(&text);
  if (rc != CHV_OK) {
    chv_arena_close(a);
    return rc;
  }
  return sql_op_scan_start(scan, a, pf, preds, npreds, t, err);
}
