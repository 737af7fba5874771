/*
** sql/exec sort.c: the Sort and TopN operators (ORDER BY, ORDER BY with a
** LIMIT).
**
** Both read their whole input on the first next(): each chunk's keys are
** evaluated (chv_expr_eval()) and the chunk's rows, every input column and
** the keys, are copied into vectors the operator holds.  Then the held
** rows are ordered by a stable merge sort of entries holding each row's
** number and its first key reduced to 64 ordered bits (struct sort_ent),
** and given in chunks of at most SORT_OUT_ROWS dense rows.
**
**   open: the input opened, the held vectors made
**   next: (first call) read -> [TopN: compact ...] -> sort; then give
**         rows, then b == NULL
**   close: everything freed
**
** The order is Hive's (sql_sort_cmp()): NULLS FIRST for ASC and NULLS LAST
** for DESC unless the key says otherwise; rows whose keys tie keep the
** order they came in.  FLOAT and DOUBLE order NaN above every number, as
** Hive's sort keys (BinarySortableSerDe) do.
**
** Sort holds its rows until the held columns and keys take more than
** x->memory bytes (chive.exec.operator-memory; 0: no bound); then they
** are sorted into a run written to a spill file (spill.h), and so on; at
** the end the runs are merged, SORT_FANIN neighbours at a time, by a heap
** whose ties go to the earlier run, so that ties keep input order across
** runs (an external merge sort giving the in-memory order).  A TopN past
** the bound first compacts, and sorts as a Sort only when its best limit
** rows alone pass it.  TopN holds about 2 * limit + TOPN_SLACK rows at most: when
** the held rows reach the threshold they are compacted to the best limit
** rows, in order; from then on a row enters only when its keys sort
** strictly before the last of them (a tie came later, so it loses), which
** is decided before its columns are copied.  After each compaction the
** last kept row's first key tightens the scan's bound (sql_op_bound()),
** so that the readers skip row groups none of whose rows can enter.
**
** Cancel: the flag (x->cancel) is looked at before each input chunk, each
** output chunk, and every SORT_CANCEL_EVERY comparisons of a sort, so a
** sort of millions of rows ends within a fraction of a millisecond of it;
** the operator then fails with sql_exec_cancelled()'s CHV_ECANCELED.
**
** Under x->analyze each next() counts the rows it gives and its time,
** the input's time included (op.h).
**
** INTERFACE: sql_op_sort_new(), sql_sort_cmp(), sql_sort_perm() (op.h).
*/
#include "sql/exec/op.h"
#include "sql/exec/spill.h"

#include <math.h>
#include <stdio.h>

#define SORT_OUT_ROWS 2048      /* rows of each chunk given */
#define SORT_CANCEL_EVERY 4096  /* comparisons between looks at the flag */
#define SORT_RUN 32             /* rows of the insertion-sorted runs */
#define TOPN_SLACK 4096         /* rows a TopN holds beyond 2 * limit */
#define SORT_FANIN 16           /* runs merged at once */

/* A run being merged: its file and the frame read last. */
struct sort_cursor {
  struct sql_spill *f;          /* borrowed from runs */
  struct chv_vector **cols;     /* ncols + nkeys: columns, then keys */
  int64_t n, pos;               /* the frame's rows; the next one */
  int run;                      /* its place among the merged runs (ties) */
};

/* A k-way merge of runs: a binary heap of cursors, the least row on top,
** ties to the earlier run (which holds earlier input rows: stable). */
struct sort_merge {
  struct sort_cursor *cur;
  int ncur;
  int *heap;                    /* cursors with rows left */
  int nheap;
};

struct sort_op {
  struct sql_op op;             /* first: what the executor holds */
  const struct sql_sort_key *keys;  /* the node's (borrowed) */
  int nkeys;
  int ncols;                    /* the input's columns: held and given */
  int64_t limit;                /* TopN: rows given at most; -1: Sort */
  /* the held rows: ncols input columns, then nkeys keys (NULL once a
  ** Sort has sorted: the keys are no longer needed) */
  struct chv_vector **held;
  int64_t nheld;
  struct chv_vector **ck;       /* the keys of the chunk being read */
  /* TopN: held are exactly the best limit rows so far, in order */
  bool full;
  bool read;                    /* the input was read and sorted */
  uint32_t *perm;               /* the held rows in order */
  int64_t at, ngive;            /* the next row of perm to give; how many */
  uint32_t *enter, *rows;       /* TopN: chunk rows that enter; their input rows */
  int64_t entercap;
  struct chv_type *schema;      /* the output batch's (sql_node_schema()) */
  struct chv_batch *ob;         /* the output batch, reused */
  struct chv_buf text;          /* the bound's value */
  /* External sort: the sorted runs written (in input order), and the
  ** merge of the last pass that gives the rows. */
  struct sql_spill **runs;
  int nruns, runcap;
  bool spilling;                /* a TopN past its memory sorts as a Sort */
  struct sort_merge merge;
  bool merging;
};

/* ---- the order ---------------------------------------------------------- */

/* Compares non-NULL row i of v with non-NULL row j of w (primitive vectors
** of one type). */
static int cell_cmp(const struct chv_vector *v, int64_t i,
                    const struct chv_vector *w, int64_t j) {
#define CMP_(T)                                                               \
  do {                                                                        \
    T x_ = ((const T *)v->data)[i], y_ = ((const T *)w->data)[j];             \
    return x_ < y_ ? -1 : x_ > y_;                                            \
  } while (0)
  /* NaN above every number (and equal to NaN) */
#define CMP_REAL_(T)                                                          \
  do {                                                                        \
    T x_ = ((const T *)v->data)[i], y_ = ((const T *)w->data)[j];             \
    if (x_ < y_) return -1;                                                   \
    if (x_ > y_) return 1;                                                    \
    return (isnan(x_) != 0) - (isnan(y_) != 0);                             \
  } while (0)
  switch (v->type->id) {
  case CHV_TYPE_BOOLEAN:
    return (int)chv_bit_get(v->data, i) - (int)chv_bit_get(w->data, j);
  case CHV_TYPE_TINYINT: CMP_(int8_t);
  case CHV_TYPE_SMALLINT: CMP_(int16_t);
  case CHV_TYPE_INT:
  case CHV_TYPE_DATE: CMP_(int32_t);
  case CHV_TYPE_BIGINT: CMP_(int64_t);
  case CHV_TYPE_FLOAT: CMP_REAL_(float);
  case CHV_TYPE_DOUBLE: CMP_REAL_(double);
  case CHV_TYPE_DECIMAL: CMP_(chv_i128);
  case CHV_TYPE_TIMESTAMP: {
    const struct chv_timestamp *x = (const struct chv_timestamp *)v->data + i,
                               *y = (const struct chv_timestamp *)w->data + j;
    if (x->seconds != y->seconds) return x->seconds < y->seconds ? -1 : 1;
    return x->nanos < y->nanos ? -1 : x->nanos > y->nanos;
  }
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
  case CHV_TYPE_BINARY: {
    int32_t xl = v->offsets[i + 1] - v->offsets[i];
    int32_t yl = w->offsets[j + 1] - w->offsets[j];
    int c = memcmp(v->bytes + v->offsets[i], w->bytes + w->offsets[j],
                   (size_t)(xl < yl ? xl : yl));
    if (c) return c < 0 ? -1 : 1;
    return xl < yl ? -1 : xl > yl;
  }
  default: /* nested keys never get here: the binder refuses them */
    return 0;
  }
#undef CMP_
#undef CMP_REAL_
}

int sql_sort_cmp(struct chv_vector *const *ka, int64_t i,
                 struct chv_vector *const *kb, int64_t j,
                 const struct sql_sort_key *keys, int nkeys) {
  for (int k = 0; k < nkeys; k++) {
    bool desc = keys[k].desc;
    /* Hive: NULLS FIRST for ASC, NULLS LAST for DESC unless given */
    bool nulls_first = keys[k].nulls ? keys[k].nulls == 1 : !desc;
    bool ni = chv_vector_is_null(ka[k], i), nj = chv_vector_is_null(kb[k], j);
    if (ni || nj) {
      if (ni && nj) continue;
      return (ni ? -1 : 1) * (nulls_first ? 1 : -1);
    }
    int c = cell_cmp(ka[k], i, kb[k], j);
    if (c) return desc ? -c : c;
  }
  return 0;
}

/* ---- the merge sort ----------------------------------------------------- */

/* A held row as the sort moves it: its first key reduced to 64 bits that
** order as the key does (DESC and the NULL order folded in), so that most
** comparisons read two entries side by side instead of the key vectors at
** two random rows.  Where the prefixes tie and do not decide (a longer
** string, a timestamp's nanoseconds, a wide decimal, the keys after the
** first), the rows' keys are compared. */
struct sort_ent {
  uint64_t p;                   /* the first key, ordered */
  uint32_t row;                 /* the held row */
  uint8_t cls;                  /* 0 NULLs first, 1 values, 2 NULLs last */
  uint8_t exact;                /* p equal means the first keys tie */
};

/* The bits of a signed value, ordered as unsigned. */
static inline uint64_t flip64(int64_t v) {
  return (uint64_t)v ^ ((uint64_t)1 << 63);
}

/* The IEEE bits of a double ordered as unsigned: -0.0 as 0.0, NaN above
** everything. */
static inline uint64_t real_bits(double d) {
  if (isnan(d)) return UINT64_MAX;
  if (d == 0) d = 0;
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u >> 63 ? ~u : u | ((uint64_t)1 << 63);
}

/* The entry of row i of the first key v. */
static void sort_ent_make(const struct chv_vector *v, const struct sql_sort_key *k,
                          uint32_t i, struct sort_ent *e) {
  e->row = i;
  e->p = 0;
  e->exact = 1;
  if (chv_vector_is_null(v, i)) {
    e->cls = (k->nulls ? k->nulls == 1 : !k->desc) ? 0 : 2;
    return;
  }
  e->cls = 1;
  const void *d = v->data;
  switch (v->type->id) {
  case CHV_TYPE_BOOLEAN: e->p = chv_bit_get(d, i); break;
  case CHV_TYPE_TINYINT: e->p = flip64(((const int8_t *)d)[i]); break;
  case CHV_TYPE_SMALLINT: e->p = flip64(((const int16_t *)d)[i]); break;
  case CHV_TYPE_INT:
  case CHV_TYPE_DATE: e->p = flip64(((const int32_t *)d)[i]); break;
  case CHV_TYPE_BIGINT: e->p = flip64(((const int64_t *)d)[i]); break;
  case CHV_TYPE_FLOAT: e->p = real_bits(((const float *)d)[i]); break;
  case CHV_TYPE_DOUBLE: e->p = real_bits(((const double *)d)[i]); break;
  case CHV_TYPE_DECIMAL: { /* clamped to 64 bits: ties outside decide nothing */
    chv_i128 x = ((const chv_i128 *)d)[i];
    e->p = flip64(x > INT64_MAX ? INT64_MAX : x < INT64_MIN ? INT64_MIN
                                                             : (int64_t)x);
    e->exact = x > INT64_MIN && x < INT64_MAX;
    break;
  }
  case CHV_TYPE_TIMESTAMP:
    e->p = flip64(((const struct chv_timestamp *)d)[i].seconds);
    e->exact = 0;
    break;
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
  case CHV_TYPE_BINARY: { /* the first 8 bytes, big-endian */
    const unsigned char *b = (const unsigned char *)v->bytes + v->offsets[i];
    int32_t n = v->offsets[i + 1] - v->offsets[i];
    for (int32_t j = 0; j < 8; j++)
      e->p = e->p << 8 | (j < n ? b[j] : 0);
    e->exact = 0;
    break;
  }
  default:
    e->exact = 0;
  }
  if (k->desc) e->p = ~e->p;
}

/* A sort of entries by the keys of their rows that gives up once the
** statement is cancelled. */
struct sorter {
  struct chv_vector *const *keys;
  const struct sql_sort_key *k;
  int nkeys;
  const volatile int *cancel;   /* or NULL */
  int budget;                   /* comparisons left before the next look */
  bool cancelled;
};

static inline int sorter_cmp(struct sorter *s, const struct sort_ent *a,
                             const struct sort_ent *b) {
  if (--s->budget <= 0) {
    s->budget = SORT_CANCEL_EVERY;
    if (s->cancel && __atomic_load_n(s->cancel, __ATOMIC_RELAXED))
      s->cancelled = true;
  }
  if (a->cls != b->cls) return a->cls < b->cls ? -1 : 1;
  if (a->p != b->p) return a->p < b->p ? -1 : 1;
  if (a->exact && s->nkeys == 1) return 0;
  if (a->exact) /* the first keys tie: the others decide */
    return sql_sort_cmp(s->keys + 1, a->row, s->keys + 1, b->row, s->k + 1,
                        s->nkeys - 1);
  return sql_sort_cmp(s->keys, a->row, s->keys, b->row, s->k, s->nkeys);
}

/* Merges the sorted runs a[lo, mid) and a[mid, hi) into b[lo, hi), the left
** run first on ties (stable). */
static void merge(struct sorter *s, const struct sort_ent *a,
                  struct sort_ent *b, int64_t lo, int64_t mid, int64_t hi) {
  int64_t i = lo, j = mid, o = lo;
  if (mid < hi && mid > lo && sorter_cmp(s, &a[mid - 1], &a[mid]) <= 0) {
    memcpy(b + lo, a + lo, sizeof *a * (size_t)(hi - lo)); /* in order */
    return;
  }
  while (i < mid && j < hi && !s->cancelled)
    b[o++] = sorter_cmp(s, &a[j], &a[i]) < 0 ? a[j++] : a[i++];
  if (s->cancelled) return; /* b is not read */
  while (i < mid) b[o++] = a[i++];
  while (j < hi) b[o++] = a[j++];
}

/* Sorts p[0, n) stably (tmp: room for n); false when cancelled, p then in
** no particular order. */
static bool sorter_run(struct sorter *s, struct sort_ent *p,
                       struct sort_ent *tmp, int64_t n) {
  s->budget = SORT_CANCEL_EVERY;
  for (int64_t lo = 0; lo < n && !s->cancelled; lo += SORT_RUN) {
    int64_t hi = lo + SORT_RUN < n ? lo + SORT_RUN : n;
    for (int64_t i = lo + 1; i < hi; i++) {
      struct sort_ent x = p[i];
      int64_t j = i;
      while (j > lo && sorter_cmp(s, &p[j - 1], &x) > 0) {
        p[j] = p[j - 1];
        j--;
      }
      p[j] = x;
    }
  }
  struct sort_ent *a = p, *b = tmp;
  for (int64_t w = SORT_RUN; w < n && !s->cancelled; w *= 2) {
    for (int64_t lo = 0; lo < n && !s->cancelled; lo += 2 * w) {
      int64_t mid = lo + w < n ? lo + w : n;
      int64_t hi = lo + 2 * w < n ? lo + 2 * w : n;
      merge(s, a, b, lo, mid, hi);
    }
    struct sort_ent *t = a;
    a = b;
    b = t;
  }
  if (s->cancelled) return false;
  if (a != p) memcpy(p, a, sizeof *p * (size_t)n);
  return true;
}

int sql_sort_perm(const struct sql_exec *x, struct chv_vector *const *keys,
                  const struct sql_sort_key *k, int nkeys, int64_t n,
                  uint32_t *perm, struct chv_error *err) {
  if (nkeys == 0) {
    for (int64_t i = 0; i < n; i++) perm[i] = (uint32_t)i;
    return CHV_OK;
  }
  struct sort_ent *e = chv_malloc(sizeof *e * (size_t)(2 * n + 1));
  if (!e) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  struct sorter so = {keys, k, nkeys, x->cancel, SORT_CANCEL_EVERY, false};
  for (int64_t i = 0; i < n && !so.cancelled; i++) {
    sort_ent_make(keys[0], &k[0], (uint32_t)i, &e[i]);
    if (i % SORT_CANCEL_EVERY == 0 && so.cancel &&
        __atomic_load_n(so.cancel, __ATOMIC_RELAXED))
      so.cancelled = true;
  }
  bool done = !so.cancelled && sorter_run(&so, e, e + n, n);
  for (int64_t i = 0; done && i < n; i++) perm[i] = e[i].row;
  chv_free(e);
  return done ? CHV_OK : sql_exec_cancelled(x, err);
}

/* perm[0, nheld) := the held rows in order. */
static int sort_held(struct sort_op *s, struct chv_error *err) {
  int64_t n = s->nheld;
  uint32_t *perm = chv_realloc(s->perm, sizeof *perm * (size_t)(n + 1));
  if (!perm) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  s->perm = perm;
  return sql_sort_perm(s->op.x, s->held + s->ncols, s->keys, s->nkeys, n,
                       perm, err);
}

/* ---- reading ------------------------------------------------------------ */

/* Row i of the key v as the bound's value: as chv_vector_text() prints it
** (which lives in sql/session, above this module), doubles with the digits
** that read back as the same value; false when v's row gives no bound (a
** NULL, NaN, BINARY). */
static bool bound_text(const struct chv_vector *v, int64_t i,
                       struct chv_buf *out, bool *oom) {
  char buf[64];
  const void *d = v->data;
  *oom = false;
  if (chv_vector_is_null(v, i)) return false;
  switch (v->type->id) {
  case CHV_TYPE_BOOLEAN:
    snprintf(buf, sizeof buf, "%s", chv_bit_get(d, i) ? "true" : "false");
    break;
  case CHV_TYPE_TINYINT: snprintf(buf, sizeof buf, "%d", ((const int8_t *)d)[i]); break;
  case CHV_TYPE_SMALLINT: snprintf(buf, sizeof buf, "%d", ((const int16_t *)d)[i]); break;
  case CHV_TYPE_INT: snprintf(buf, sizeof buf, "%d", ((const int32_t *)d)[i]); break;
  case CHV_TYPE_BIGINT:
    snprintf(buf, sizeof buf, "%lld", (long long)((const int64_t *)d)[i]);
    break;
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DOUBLE: {
    double x = v->type->id == CHV_TYPE_FLOAT ? ((const float *)d)[i]
                                             : ((const double *)d)[i];
    if (isnan(x)) return false;
    if (isinf(x))
      snprintf(buf, sizeof buf, "%s", x > 0 ? "Infinity" : "-Infinity");
    else
      snprintf(buf, sizeof buf, "%.17g", x);
    break;
  }
  case CHV_TYPE_DECIMAL:
    chv_decimal_format(((const chv_i128 *)d)[i], v->type->scale, buf);
    break;
  case CHV_TYPE_DATE: chv_date_format(((const int32_t *)d)[i], buf); break;
  case CHV_TYPE_TIMESTAMP:
    chv_timestamp_format(((const struct chv_timestamp *)d)[i], buf);
    break;
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
    *oom = chv_buf_append(out, v->bytes + v->offsets[i],
                          (size_t)(v->offsets[i + 1] - v->offsets[i])) !=
           CHV_OK;
    return !*oom;
  default:
    return false;
  }
  *oom = chv_buf_puts(out, buf) != CHV_OK;
  return !*oom;
}

/* TopN: the held rows become the best min(nheld, limit) of them, in order;
** the scan's bound is tightened to the last one's first key. */
static int topn_compact(struct sort_op *s, struct chv_error *err) {
  CHV_RETURN_IF_ERR(sort_held(s, err));
  int64_t keep = s->nheld < s->limit ? s->nheld : s->limit;
  for (int c = 0; c < s->ncols + s->nkeys; c++) {
    struct chv_vector *nv = NULL;
    int rc = chv_vector_open(s->held[c]->type, keep, &nv, err);
    if (rc == CHV_OK)
      rc = chv_vector_append_rows(nv, s->held[c], s->perm, 0, keep, err);
    if (rc != CHV_OK) {
      chv_vector_close(nv);
      return rc;
    }
    chv_vector_close(s->held[c]);
    s->held[c] = nv;
  }
  s->nheld = keep;
  s->full = keep == s->limit && keep > 0;
  chv_scan_bound *bound = s->full ? (s->op.x->find_bound ? s->op.x->find_bound(&s->op) : sql_op_bound(&s->op)) : NULL;
  if (bound) {
    bool oom = false;
    chv_buf_reset(&s->text);
    if (bound_text(s->held[s->ncols], keep - 1, &s->text, &oom))
      CHV_RETURN_IF_ERR(
          chv_scan_bound_set(bound, s->text.data ? s->text.data : "", err));
    if (oom) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  return CHV_OK;
}

/* Bytes the held rows take. */
static size_t sort_held_bytes(const struct sort_op *s) {
  size_t held = 0;
  for (int c = 0; c < s->ncols + s->nkeys; c++)
    held += chv_vector_bytes(s->held[c]);
  return held;
}

/* ---- the external sort -------------------------------------------------- */

/* Rows of each frame a run is written in: about the memory bound over
** twice the fan-in, so that a merge's frames stay within the bound
** (between 16 and SORT_OUT_ROWS). */
static int64_t sort_frame_rows(const struct sort_op *s, size_t held) {
  size_t per_row = s->nheld ? held / (size_t)s->nheld + 1 : 1;
  size_t rows = s->op.x->memory / (2 * SORT_FANIN) / per_row;
  return rows < 16 ? 16 : rows > SORT_OUT_ROWS ? SORT_OUT_ROWS : (int64_t)rows;
}

static int sort_add_run(struct sort_op *s, struct sql_spill *f,
                        struct chv_error *err) {
  if (s->nruns == s->runcap) {
    int cap = s->runcap ? 2 * s->runcap : 8;
    struct sql_spill **r = chv_realloc(s->runs, sizeof *r * (size_t)cap);
    if (!r) {
      sql_spill_close(f);
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    }
    s->runs = r;
    s->runcap = cap;
  }
  s->runs[s->nruns++] = f;
  return CHV_OK;
}

/* The held rows sorted into a new run; nothing is held after. */
static int sort_spill_run(struct sort_op *s, struct chv_error *err) {
  if (s->nheld == 0) return CHV_OK;
  int64_t frame = sort_frame_rows(s, sort_held_bytes(s));
  CHV_RETURN_IF_ERR(sort_held(s, err));
  struct sql_spill *f = NULL;
  CHV_RETURN_IF_ERR(sql_spill_open(&s->op, &f, err));
  CHV_RETURN_IF_ERR(sort_add_run(s, f, err));
  for (int64_t at = 0; at < s->nheld; at += frame) {
    CHV_RETURN_IF_ERR(sql_exec_cancelled(s->op.x, err));
    int64_t k = s->nheld - at < frame ? s->nheld - at : frame;
    CHV_RETURN_IF_ERR(sql_spill_write(f, s->held, s->ncols + s->nkeys,
                                      s->perm + at, k, err));
  }
  CHV_RETURN_IF_ERR(sql_spill_rewind(f, err));
  for (int c = 0; c < s->ncols + s->nkeys; c++) chv_vector_reset(s->held[c]);
  s->nheld = 0;
  return CHV_OK;
}

/* Sort: once the held rows take more than the operator's memory they go
** to a run (a TopN from then on sorts as a Sort does). */
static int sort_check_memory(struct sort_op *s, struct chv_error *err) {
  size_t limit = s->op.x->memory;
  if (limit == 0 || sort_held_bytes(s) <= limit) return CHV_OK;
  s->spilling = true;
  s->full = false;
  return sort_spill_run(s, err);
}

static void merge_free(struct sort_merge *m, int ncols) {
  for (int i = 0; i < m->ncur; i++) {
    if (m->cur[i].cols)
      for (int c = 0; c < ncols; c++) chv_vector_close(m->cur[i].cols[c]);
    chv_free(m->cur[i].cols);
  }
  chv_free(m->cur);
  chv_free(m->heap);
  memset(m, 0, sizeof *m);
}

/* a's row before b's (ties: the earlier run). */
static bool merge_less(const struct sort_op *s, const struct sort_cursor *a,
                       const struct sort_cursor *b) {
  int c = sql_sort_cmp(a->cols + s->ncols, a->pos, b->cols + s->ncols, b->pos,
                       s->keys, s->nkeys);
  return c < 0 || (c == 0 && a->run < b->run);
}

static void merge_down(const struct sort_op *s, struct sort_merge *m, int i) {
  for (;;) {
    int l = 2 * i + 1, r = l + 1, b = i;
    if (l < m->nheap && merge_less(s, &m->cur[m->heap[l]], &m->cur[m->heap[b]]))
      b = l;
    if (r < m->nheap && merge_less(s, &m->cur[m->heap[r]], &m->cur[m->heap[b]]))
      b = r;
    if (b == i) return;
    int t = m->heap[i];
    m->heap[i] = m->heap[b];
    m->heap[b] = t;
    i = b;
  }
}

/* A merge of runs[lo, hi). */
static int merge_start(struct sort_op *s, struct sort_merge *m, int lo, int hi,
                       struct chv_error *err) {
  int nc = s->ncols + s->nkeys, k = hi - lo;
  m->cur = chv_calloc((size_t)k, sizeof *m->cur);
  m->heap = chv_calloc((size_t)k, sizeof *m->heap);
  if (!m->cur || !m->heap) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  m->ncur = k;
  for (int i = 0; i < k; i++) {
    struct sort_cursor *c = &m->cur[i];
    c->f = s->runs[lo + i];
    c->run = i;
    c->cols = chv_calloc((size_t)nc, sizeof *c->cols);
    if (!c->cols) return chv_error_set(err, CHV_ENOMEM, "out of memory");
    for (int j = 0; j < nc; j++) {
      const struct chv_type *t =
          j < s->ncols ? s->held[j]->type : s->keys[j - s->ncols].expr->type;
      CHV_RETURN_IF_ERR(chv_vector_open(t, 0, &c->cols[j], err));
    }
    CHV_RETURN_IF_ERR(sql_spill_read(c->f, c->cols, nc, &c->n, err));
    if (c->n > 0) m->heap[m->nheap++] = i;
  }
  for (int i = m->nheap / 2 - 1; i >= 0; i--) merge_down(s, m, i);
  return CHV_OK;
}

/* Up to max rows of the merge, in order, appended to dst (the first ndst
** columns of the runs); *got of them (0: the merge ended). */
static int merge_fill(struct sort_op *s, struct sort_merge *m,
                      struct chv_vector **dst, int ndst, int64_t max,
                      int64_t *got, struct chv_error *err) {
  int nc = s->ncols + s->nkeys;
  int64_t k = 0;
  while (k < max && m->nheap > 0) {
    struct sort_cursor *c = &m->cur[m->heap[0]];
    for (int j = 0; j < ndst; j++)
      CHV_RETURN_IF_ERR(
          chv_vector_append_rows(dst[j], c->cols[j], NULL, c->pos, 1, err));
    k++;
    if (++c->pos == c->n) {
      CHV_RETURN_IF_ERR(sql_exec_cancelled(s->op.x, err));
      CHV_RETURN_IF_ERR(sql_spill_read(c->f, c->cols, nc, &c->n, err));
      c->pos = 0;
      if (c->n == 0) m->heap[0] = m->heap[--m->nheap];
    }
    merge_down(s, m, 0);
  }
  *got = k;
  return CHV_OK;
}

/* Merges the runs SORT_FANIN at a time (neighbours, so that ties keep
** their order) until at most SORT_FANIN are left, then starts the merge
** that gives the rows. */
static int sort_merge_runs(struct sort_op *s, struct chv_error *err) {
  int nc = s->ncols + s->nkeys;
  while (s->nruns > SORT_FANIN) {
    int n = 0; /* runs of the next pass, written over the front of runs */
    for (int lo = 0; lo < s->nruns; lo += SORT_FANIN) {
      int hi = lo + SORT_FANIN < s->nruns ? lo + SORT_FANIN : s->nruns;
      struct sql_spill *out = NULL;
      struct sort_merge m = {0};
      int rc = sql_spill_open(&s->op, &out, err);
      if (rc == CHV_OK) rc = merge_start(s, &m, lo, hi, err);
      int64_t got = 1;
      while (rc == CHV_OK && got > 0) {
        for (int c = 0; c < nc; c++) chv_vector_reset(s->held[c]);
        rc = merge_fill(s, &m, s->held, nc, SORT_OUT_ROWS, &got, err);
        if (rc == CHV_OK) rc = sql_spill_write(out, s->held, nc, NULL, got, err);
      }
      merge_free(&m, nc);
      if (rc == CHV_OK) rc = sql_spill_rewind(out, err);
      for (int i = lo; i < hi; i++) {
        sql_spill_close(s->runs[i]);
        s->runs[i] = NULL;
      }
      s->runs[n++] = out; /* n <= lo: a slot already emptied */
      if (rc != CHV_OK) {
        for (int i = hi; i < s->nruns; i++) s->runs[n++] = s->runs[i];
        s->nruns = n;
        return rc;
      }
    }
    s->nruns = n;
  }
  for (int c = 0; c < nc; c++) chv_vector_reset(s->held[c]);
  s->merging = true;
  return merge_start(s, &s->merge, 0, s->nruns, err);
}

/* TopN, once full: the rows of the chunk's n rows (sel: its rows in the
** batch, or NULL) whose keys sort before the last kept row, into
** s->enter (places in the chunk) and s->rows (rows of the batch); *m of
** them. */
static int topn_enter(struct sort_op *s, const uint32_t *sel, int64_t n,
                      int64_t *m, struct chv_error *err) {
  if (n > s->entercap) {
    uint32_t *e = chv_realloc(s->enter, sizeof *e * (size_t)n);
    if (!e) return chv_error_set(err, CHV_ENOMEM, "out of memory");
    s->enter = e;
    uint32_t *r = chv_realloc(s->rows, sizeof *r * (size_t)n);
    if (!r) return chv_error_set(err, CHV_ENOMEM, "out of memory");
    s->rows = r;
    s->entercap = n;
  }
  struct chv_vector *const *last = s->held + s->ncols;
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++)
    if (sql_sort_cmp(s->ck, i, last, s->limit - 1, s->keys, s->nkeys) < 0) {
      s->enter[k] = (uint32_t)i;
      s->rows[k] = sel ? sel[i] : (uint32_t)i;
      k++;
    }
  *m = k;
  return CHV_OK;
}

/* Reads the input to its end, holding its rows, then orders them. */
static int sort_read(struct sort_op *s, struct chv_error *err) {
  struct sql_op *in = s->op.in[0];
  for (;;) {
    CHV_RETURN_IF_ERR(sql_exec_cancelled(s->op.x, err));
    struct sql_chunk ch = {0};
    CHV_RETURN_IF_ERR(sql_op_next(in, &ch, err));
    if (!ch.b) break;
    if (ch.n <= 0) continue;
    if (ch.b->ncols < s->ncols)
      return chv_error_set(err, CHV_EINTERNAL,
                           "sort: its input gave %d columns, not %d",
                           ch.b->ncols, s->ncols);
    if (s->nheld + ch.n > (int64_t)UINT32_MAX)
      return chv_error_set(err, CHV_ENOMEM,
                           "sort (ORDER BY): more than %lld rows to hold",
                           (long long)UINT32_MAX);
    for (int k = 0; k < s->nkeys; k++)
      CHV_RETURN_IF_ERR(chv_expr_eval(s->keys[k].expr, ch.b, ch.sel, ch.n,
                                      s->ck[k], err));
    const uint32_t *rows = ch.sel, *enter = NULL;
    int64_t n = ch.n;
    if (s->full) {
      CHV_RETURN_IF_ERR(topn_enter(s, ch.sel, ch.n, &n, err));
      if (n == 0) continue;
      rows = s->rows;
      enter = s->enter;
    }
    for (int c = 0; c < s->ncols; c++)
      CHV_RETURN_IF_ERR(
          chv_vector_append_rows(s->held[c], ch.b->cols[c], rows, 0, n, err));
    for (int k = 0; k < s->nkeys; k++)
      CHV_RETURN_IF_ERR(chv_vector_append_rows(s->held[s->ncols + k],
                                               s->ck[k], enter, 0, n, err));
    s->nheld += n;
    if (s->limit < 0 || s->spilling) {
      CHV_RETURN_IF_ERR(sort_check_memory(s, err));
    } else {
      /* a TopN past its memory first cuts its rows to the best limit; only
      ** when those alone pass it does it sort as a Sort */
      bool over = s->op.x->memory && sort_held_bytes(s) > s->op.x->memory;
      if (s->nheld >= (s->full ? 2 * s->limit + TOPN_SLACK
                               : CHV_MAX(s->limit, TOPN_SLACK)) ||
          (over && s->nheld > s->limit))
        CHV_RETURN_IF_ERR(topn_compact(s, err));
      if (over) CHV_RETURN_IF_ERR(sort_check_memory(s, err));
    }
  }
  if (s->nruns > 0) { /* the rest as the last run, then merge them */
    CHV_RETURN_IF_ERR(sort_spill_run(s, err));
    for (int k = 0; k < s->nkeys; k++) {
      chv_vector_close(s->ck[k]);
      s->ck[k] = NULL;
    }
    s->ngive = s->limit >= 0 ? s->limit : INT64_MAX;
    return sort_merge_runs(s, err);
  }
  CHV_RETURN_IF_ERR(sort_held(s, err));
  s->ngive = s->limit >= 0 && s->nheld > s->limit ? s->limit : s->nheld;
  /* the keys have served: what is given is the columns through perm */
  for (int k = 0; k < s->nkeys; k++) {
    chv_vector_close(s->held[s->ncols + k]);
    s->held[s->ncols + k] = NULL;
    chv_vector_close(s->ck[k]);
    s->ck[k] = NULL;
  }
  return CHV_OK;
}

/* ---- the operator ------------------------------------------------------- */

static int sort_open(struct sql_op *op, struct chv_error *err) {
  struct sort_op *s = (struct sort_op *)op;
  if (op->nin != 1 || !op->in[0])
    return chv_error_set(err, CHV_EINTERNAL, "sort: no input");
  if (!op->in[0]->opened) CHV_RETURN_IF_ERR(sql_op_open(op->in[0], err));
  const struct sql_node *nd = op->node, *inn = nd->in[0];
  s->held = chv_calloc((size_t)(s->ncols + s->nkeys) + 1, sizeof *s->held);
  s->ck = chv_calloc((size_t)s->nkeys + 1, sizeof *s->ck);
  if (!s->held || !s->ck)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  for (int c = 0; c < s->ncols; c++)
    CHV_RETURN_IF_ERR(chv_vector_open(inn->cols[c].type, 0, &s->held[c], err));
  for (int k = 0; k < s->nkeys; k++) {
    const struct chv_type *t = s->keys[k].expr->type;
    CHV_RETURN_IF_ERR(chv_vector_open(t, 0, &s->held[s->ncols + k], err));
    CHV_RETURN_IF_ERR(chv_vector_open(t, 0, &s->ck[k], err));
  }
  CHV_RETURN_IF_ERR(sql_node_schema(nd, &s->schema, err));
  return chv_batch_open(s->schema, SORT_OUT_ROWS, &s->ob, err);
}

/* The next chunk of the sorted rows (the input read on the first call). */
static int sort_give(struct sort_op *s, struct sql_chunk *out,
                     struct chv_error *err) {
  out->b = NULL;
  out->sel = NULL;
  out->n = 0;
  CHV_RETURN_IF_ERR(sql_exec_cancelled(s->op.x, err));
  if (!s->read) {
    if (s->limit != 0) CHV_RETURN_IF_ERR(sort_read(s, err));
    s->read = true; /* LIMIT 0: nothing to read */
  }
  if (s->at >= s->ngive) return CHV_OK;
  int64_t k = s->ngive - s->at < SORT_OUT_ROWS ? s->ngive - s->at
                                               : SORT_OUT_ROWS;
  chv_batch_reset(s->ob);
  if (s->merging) {
    CHV_RETURN_IF_ERR(
        merge_fill(s, &s->merge, s->ob->cols, s->ncols, k, &k, err));
    if (k == 0) return CHV_OK;
    s->ob->nrows = k;
    s->at += k;
    out->b = s->ob;
    out->n = k;
    return CHV_OK;
  }
  for (int c = 0; c < s->ncols; c++)
    CHV_RETURN_IF_ERR(chv_vector_append_rows(s->ob->cols[c], s->held[c],
                                             s->perm + s->at, 0, k, err));
  s->ob->nrows = k;
  s->at += k;
  out->b = s->ob;
  out->n = k;
  return CHV_OK;
}

static int sort_next(struct sql_op *op, struct sql_chunk *out,
                     struct chv_error *err) {
  struct sort_op *s = (struct sort_op *)op;
  int64_t t0 = op->x->analyze ? sql_exec_now() : 0;
  int rc = sort_give(s, out, err);
  if (op->x->analyze)
    sql_op_count(op, rc == CHV_OK && out->b ? out->n : 0,
                 sql_exec_now() - t0);
  return rc;
}

static void sort_close(struct sql_op *op) {
  struct sort_op *s = (struct sort_op *)op;
  if (!s) return;
  if (s->held)
    for (int c = 0; c < s->ncols + s->nkeys; c++) chv_vector_close(s->held[c]);
  if (s->ck)
    for (int k = 0; k < s->nkeys; k++) chv_vector_close(s->ck[k]);
  merge_free(&s->merge, s->ncols + s->nkeys);
  for (int i = 0; i < s->nruns; i++) sql_spill_close(s->runs[i]);
  chv_free(s->runs);
  chv_free(s->held);
  chv_free(s->ck);
  chv_free(s->perm);
  chv_free(s->enter);
  chv_free(s->rows);
  chv_batch_close(s->ob);
  chv_type_free(s->schema);
  chv_buf_free(&s->text);
}

static const struct sql_op_vt sort_vt = {sort_open, sort_next, sort_close};

int sql_op_sort_new(struct sql_exec *x, const struct sql_node *nd,
                    struct sql_op **out, struct chv_error *err) {
  if ((nd->kind != SQL_NODE_SORT && nd->kind != SQL_NODE_TOPN) ||
      nd->nin != 1 || nd->u.sort.nkeys < 1 ||
      (nd->kind == SQL_NODE_TOPN && nd->u.sort.limit < 0))
    return chv_error_set(err, CHV_EINTERNAL, "sort: not a Sort or TopN node");
  if (nd->in[0]->ncols != nd->ncols)
    return chv_error_set(err, CHV_EINTERNAL,
                         "sort: %d columns over an input of %d", nd->ncols,
                         nd->in[0]->ncols);
  struct sort_op *s = chv_calloc(1, sizeof *s);
  if (!s) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  s->op.vt = &sort_vt;
  s->op.node = nd;
  s->op.x = x;
  s->keys = nd->u.sort.keys;
  s->nkeys = nd->u.sort.nkeys;
  s->ncols = nd->ncols;
  s->limit = nd->kind == SQL_NODE_TOPN ? nd->u.sort.limit : -1;
  chv_buf_init(&s->text);
  *out = &s->op;
  return CHV_OK;
}
