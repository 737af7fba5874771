/*
** sql/exec/dynfilter: dynamic filtering of a hash join's probe side (Flink's
** table.optimizer.dynamic-filtering.enabled).  The plan (sql/plan/joins.c)
** marks a join whose probe side is a table Scan keyed by its columns; that
** Scan's operator does not open with the others but waits for the join.
** As the join reads its build side it hands each chunk's evaluated keys to
** sql_dynfilter_add(), which sums up those of each marked column; once the
** build side has ended, sql_dynfilter_give() opens the scan with them:
**
**   build chunk's keys --add--> non-NULL values: least, greatest and, up
**                               to SQL_DYN_SET of them, the set of texts
**   end of the build   --give-> partition key: key IN (set), or BETWEEN
**                               least AND greatest past SQL_DYN_SET keys;
**                               data column: key >= least AND key <= greatest;
**                               up to SQL_DYN_ROWS keys, the set itself
**                           --> sql_op_scan_start(): the scan opens
**
** The set then filters the scan's rows (ops.c): a row passes when its
** value of each such column is among the build keys.  Where most rows
** pass (the first 64k rows a reader thread tests keep more than 3 in 4),
** the thread stops testing: the join tests them anyway.
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
** INTERFACE: sql_dynfilter_init()/_add()/_give()/_free() (op.h)
*/
#include "sql/exec/op.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int oom(struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory");
}

/* The integer x of a key of type id (an integer type or DATE) as text in
** Hive's canonical form, into out. */
static int int_text(enum chv_type_id id, int64_t x, struct chv_buf *out) {
  char buf[64];
  out->len = 0;
  if (id == CHV_TYPE_DATE)
    chv_date_format((int32_t)x, buf);
  else
    snprintf(buf, sizeof buf, "%lld", (long long)x);
  return chv_buf_puts(out, buf);
}

/* The order of row i of v (not NULL) and the key text t (strings). */
static int str_cmp(const struct chv_vector *v, int64_t i, const struct chv_buf *t) {
  size_t la = (size_t)(v->offsets[i + 1] - v->offsets[i]), lb = t->len;
  int c = memcmp(v->bytes + v->offsets[i], t->data ? t->data : "",
                 la < lb ? la : lb);
  return c ? c : (la > lb) - (la < lb);
}

/* Row i of v (not NULL, of an integer type or DATE) as an integer. */
static int64_t int_at(const struct chv_vector *v, int64_t i) {
  const void *d = v->data;
  switch (v->type->id) {
  case CHV_TYPE_TINYINT: return ((const int8_t *)d)[i];
  case CHV_TYPE_SMALLINT: return ((const int16_t *)d)[i];
  case CHV_TYPE_BIGINT: return ((const int64_t *)d)[i];
  default: return ((const int32_t *)d)[i]; /* INT, DATE */
  }
}

/* What one key's build values are.  The set holds integers (and dates) as
** their 8 bytes, strings as their bytes. */
struct sql_dyn_key {
  enum chv_type_id id;         /* the key's type (the probe column's) */
  bool have;                   /* a non-NULL value was seen */
  int64_t lo, hi;              /* the least and greatest (integers, dates) */
  struct chv_buf slo, shi;     /* ... (strings) */
  struct chv_keyset set;       /* distinct values, up to SQL_DYN_ROWS + 1
                               ** (integers: up to SQL_DYN_SET + 1) */
  int64_t *ints;               /* integers: as they came, duplicates too,
                               ** while they fit (ints_max()) */
  size_t nints, capints;
  struct chv_intset iset;      /* integers, once past ints: up to
                               ** SQL_DYN_INT_ROWS + 1 */
  bool big;                    /* more than SQL_DYN_SET distinct */
  bool huge;                   /* more than SQL_DYN_ROWS (set gone), or
                               ** integers past SQL_DYN_INT_ROWS or the cap
                               ** (iset gone): no rows are filtered */
  bool no_rows;                /* the join's dyn_no_rows: no set for rows
                               ** (that of SQL_DYN_SET keys, for the
                               ** predicates, only) */
};

int sql_dynfilter_init(struct sql_dynfilter *d, const struct sql_exec *x,
                       const struct sql_node *nd, struct chv_error *err) {
  memset(d, 0, sizeof *d);
  if (!nd->u.join.dyn_scan || x->explain) return CHV_OK;
  int n = nd->u.join.nkeys;
  d->keys = calloc((size_t)n + 1, sizeof *d->keys);
  if (!d->keys) return oom(err);
  d->join = nd;
  d->nkeys = n;
  /* a quarter of the operator's memory, but at least what a set of bytes
  ** of SQL_DYN_ROWS keys takes anyway (4 MiB) */
  d->cap = !x->memory ? SIZE_MAX
           : x->memory / 4 > ((size_t)4 << 20) ? x->memory / 4
                                                : (size_t)4 << 20;
  for (int k = 0; k < n; k++) {
    chv_buf_init(&d->keys[k].slo);
    chv_buf_init(&d->keys[k].shi);
    d->keys[k].no_rows = nd->u.join.dyn_no_rows;
  }
  return CHV_OK;
}

/* How many integers a key keeps as they come (8 bytes each, duplicates
** too) before it takes them into a chv_intset: most build sides end
** before, and the scan then makes its bit map straight from the array
** (ops.c), with no hash table grown, zeroed and rehashed on the way. */
static size_t ints_max(size_t cap) {
  return CHV_MIN((size_t)SQL_DYN_INT_ROWS, cap / sizeof(int64_t));
}

/* Moves k's array of integers into its iset (k->iset.n > 0 after, since the
** array holds at least one); past its bounds no rows are filtered. */
static int ints_fold(struct sql_dyn_key *k, struct chv_error *err) {
  int rc = chv_intset_put_all(&k->iset, k->ints, k->nints) == CHV_OK
               ? CHV_OK
               : oom(err);
  chv_free(k->ints);
  k->ints = NULL;
  k->nints = k->capints = 0;
  if (rc == CHV_OK && k->iset.n > SQL_DYN_INT_ROWS) k->huge = true;
  if (rc != CHV_OK || k->huge) chv_intset_free(&k->iset);
  return rc;
}

/* Adds rows [0, n) of v, the key k's values of a build chunk. */
static int key_add(struct sql_dyn_key *k, const struct chv_vector *v, int64_t n,
                   size_t cap, struct chv_error *err) {
  k->id = v->type->id;
  bool str = k->id == CHV_TYPE_STRING || k->id == CHV_TYPE_VARCHAR;
  if (!str && !chv_type_is_integer(k->id) && k->id != CHV_TYPE_DATE)
    return chv_error_set(err, CHV_EINTERNAL,
                         "dynamic filter on a key of type %s",
                         chv_type_id_name(k->id)); /* the plan marks none */
  if (k->no_rows) k->huge = true; /* the rows go unfiltered */
  if (!str && !k->huge && !k->iset.n && k->nints + (size_t)n > ints_max(cap))
    CHV_RETURN_IF_ERR(ints_fold(k, err)); /* the array is full: to iset */
  if (!str && !k->huge && k->iset.n) {
    if (chv_intset_reserve(&k->iset, (size_t)n) != CHV_OK) return oom(err);
    if (chv_intset_memory(&k->iset) > cap) { /* past the bound: no rows */
      k->huge = true; /* filtered; set, of SQL_DYN_SET keys at most, stays */
      chv_intset_free(&k->iset);
    }
  } else if (!str && !k->huge && k->nints + (size_t)n > k->capints) {
    size_t want = CHV_MAX(k->capints * 2, k->nints + (size_t)n);
    int64_t *p = chv_realloc(k->ints, want * sizeof *p);
    if (!p) return oom(err);
    k->ints = p;
    k->capints = want;
  }
  for (int64_t i = 0; i < n; i++) {
    if (chv_vector_is_null(v, i)) continue; /* matches nothing */
    const void *key;
    size_t len;
    int64_t x = 0;
    if (str) {
      key = v->bytes + v->offsets[i];
      len = (size_t)(v->offsets[i + 1] - v->offsets[i]);
      if (!k->have || str_cmp(v, i, &k->slo) < 0) {
        k->slo.len = 0;
        if (chv_buf_append(&k->slo, key, len)) return oom(err);
      }
      if (!k->have || str_cmp(v, i, &k->shi) > 0) {
        k->shi.len = 0;
        if (chv_buf_append(&k->shi, key, len)) return oom(err);
      }
    } else {
      x = int_at(v, i);
      if (!k->have || x < k->lo) k->lo = x;
      if (!k->have || x > k->hi) k->hi = x;
      key = &x;
      len = sizeof x;
    }
    k->have = true;
    if (str && k->huge && (!k->no_rows || k->big)) continue;
    if (!str && !k->huge && !k->iset.n) { /* all in ints or iset; the */
      k->ints[k->nints++] = x;              /* first SQL_DYN_SET + 1 in set */
    } else if (!str && !k->huge) {
      chv_intset_put(&k->iset, x);
      if (k->iset.n > SQL_DYN_INT_ROWS) {
        k->huge = true;
        chv_intset_free(&k->iset);
      }
    }
    if (!str && k->big) continue;
    uint32_t id;
    bool added;
    if (chv_keyset_put(&k->set, len ? key : "", len, &id, &added))
      return oom(err);
    if (k->set.n > SQL_DYN_SET) k->big = true;
    if (!str && k->big) chv_keyset_free(&k->set); /* iset says the rest */
    if (str && k->set.n > SQL_DYN_ROWS) {
      k->huge = true;
      chv_keyset_free(&k->set);
    }
  }
  return CHV_OK;
}

int sql_dynfilter_add(struct sql_dynfilter *d, struct chv_vector *const *kv,
                      int64_t n, struct chv_error *err) {
  if (!d->keys) return CHV_OK;
  for (int k = 0; k < d->nkeys; k++)
    if (d->join->u.join.dyn_cols[k])
      CHV_RETURN_IF_ERR(key_add(&d->keys[k], kv[k], n, d->cap, err));
  return CHV_OK;
}

/* The text of b in the arena; NULL on out-of-memory. */
static const char *buf_text(chv_arena *a, const struct chv_buf *b) {
  return chv_arena_strndup(a, b->data ? b->data : "", b->len);
}

/* A key's value (its set's bytes: key, len) as text in the arena; NULL on
** out-of-memory. */
static const char *value_text(chv_arena *a, const struct sql_dyn_key *k,
                              const void *key, size_t len) {
  if (k->id == CHV_TYPE_STRING || k->id == CHV_TYPE_VARCHAR)
    return chv_arena_strndup(a, len ? key : "", len);
  int64_t x;
  memcpy(&x, key, sizeof x);
  struct chv_buf t;
  chv_buf_init(&t);
  const char *s = int_text(k->id, x, &t) == CHV_OK ? buf_text(a, &t) : NULL;
  chv_buf_free(&t);
  return s;
}

/* The filter (partition key) or predicates (data column) of column col
** from k, and what EXPLAIN ANALYZE says of them appended to text. */
static int key_filter(chv_arena *a, const char *col, bool part,
                      const struct sql_dyn_key *k, struct chv_part_filter **pf,
                      struct chv_pred *preds, int *npreds, struct chv_buf *text,
                      struct chv_error *err) {
  int64_t nset = (int64_t)k->set.n;
  if (!k->have) { /* no key: nothing matches */
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
  bool str = k->id == CHV_TYPE_STRING || k->id == CHV_TYPE_VARCHAR;
  const char *lo = str ? buf_text(a, &k->slo)
                       : value_text(a, k, &k->lo, sizeof k->lo);
  const char *hi = str ? buf_text(a, &k->shi)
                       : value_text(a, k, &k->hi, sizeof k->hi);
  if (!lo || !hi) return oom(err);
  if (part && !k->big) {
    const char **lits = chv_arena_alloc(a, sizeof *lits * (size_t)(nset + 1));
    if (!lits) return oom(err);
    for (int64_t i = 0; i < nset; i++) {
      size_t len;
      const char *s = chv_keyset_key(&k->set, (uint32_t)i, &len);
      if (!(lits[i] = value_text(a, k, s, len))) return oom(err);
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
  if (!part && nset == 1) { /* an equality: ORC's bloom filters test it */
    preds[(*npreds)++] = (struct chv_pred){col, CHV_PRED_EQ, lo};
    chv_buf_printf(text, "%s = '%s' (1 key)", col, lo);
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

int sql_dynfilter_give(struct sql_dynfilter *d, struct sql_exec *x,
                       struct chv_error *err) {
  if (!d->keys) return CHV_OK;
  const struct sql_node *nd = d->join, *sn = nd->u.join.dyn_scan;
  if (!x->ops || sn->id >= x->nops) return CHV_OK;
  struct sql_op *scan = x->ops[sn->id];
  if (!scan || scan->node != sn) return CHV_OK;
  chv_arena *a;
  if (chv_arena_open(4096, &a) != CHV_OK) return oom(err);
  struct chv_pred *preds =
      chv_arena_alloc(a, sizeof *preds * (size_t)(2 * d->nkeys + 1));
  struct chv_part_filter *pf = NULL;
  int npreds = 0, rc = preds ? CHV_OK : oom(err);
  struct chv_buf text;
  chv_buf_init(&text);
  for (int k = 0; k < d->nkeys && rc == CHV_OK; k++) {
    const char *col = nd->u.join.dyn_cols[k];
    if (!col) continue;
    struct chv_part_filter *f = NULL;
    if (text.len) chv_buf_puts(&text, " AND ");
    rc = key_filter(a, col, nd->u.join.dyn_part[k], &d->keys[k], &f, preds,
                    &npreds, &text, err);
    if (rc == CHV_OK && f && !(pf = pf ? chv_pf_and(a, pf, f) : f))
      rc = oom(err);
  }
  /* the sets that filter rows, moved to the scan */
  struct sql_rowkeys *rk = NULL;
  int nrk = 0;
  if (rc == CHV_OK && !(rk = calloc((size_t)d->nkeys + 1, sizeof *rk)))
    rc = oom(err);
  for (int k = 0; k < d->nkeys && rc == CHV_OK; k++) {
    struct sql_dyn_key *dk = &d->keys[k];
    if (!nd->u.join.dyn_cols[k] || !dk->have || dk->huge) continue;
    if (nd->u.join.dyn_part[k] && !dk->big) continue; /* pruned exactly */
    rk[nrk].column = nd->u.join.dyn_cols[k];
    rk[nrk].id = dk->id;
    rk[nrk].iset = dk->iset;
    memset(&dk->iset, 0, sizeof dk->iset);
    rk[nrk].ints = dk->ints;
    rk[nrk].nints = dk->nints;
    dk->ints = NULL;
    dk->nints = dk->capints = 0;
    if (rk[nrk].iset.n || rk[nrk].nints) { /* the integers' range, known here */
      rk[nrk].lo = dk->lo;
      rk[nrk].range = (uint64_t)dk->hi - (uint64_t)dk->lo + 1;
    }
    rk[nrk++].set = dk->set;
    memset(&dk->set, 0, sizeof dk->set);
  }
  const char *t = NULL;
  if (rc == CHV_OK && !(t = buf_text(a, &text))) rc = oom(err);
  chv_buf_free(&text);
  if (rc != CHV_OK) {
    for (int i = 0; i < nrk; i++) sql_rowkeys_free(&rk[i]);
    free(rk);
    chv_arena_close(a);
    return rc;
  }
  return sql_op_scan_start(scan, a, pf, preds, npreds, rk, nrk, t, err);
}

void sql_dynfilter_free(struct sql_dynfilter *d) {
  for (int k = 0; d->keys && k < d->nkeys; k++) {
    chv_buf_free(&d->keys[k].slo);
    chv_buf_free(&d->keys[k].shi);
    chv_keyset_free(&d->keys[k].set);
    chv_intset_free(&d->keys[k].iset);
    chv_free(d->keys[k].ints);
  }
  free(d->keys);
  memset(d, 0, sizeof *d);
}
