/*
** sql/exec/ops: the executor's operators (op.h) but Sort and TopN
** (sort.c): Scan with its stage on the reader threads, Values, Filter,
** Project, Aggregate, Limit, Union All, Derived and Sink, and the building
** of the operator tree.
**
** The stage of a scan (the nodes the physical plan put on_readers) runs as
** the scan's chv_scan_hook: per batch of a split, the filter, then the
** projection (its batch handed back in split order) or the aggregation
** (into a partial of the split, folded into the Aggregate operator's own
** in split order as each split ends) and, for an INSERT read on several
** threads, the write.
*/
#include "sql/exec/op.h"
#include "sql/exec/spill.h"

#include <pthread.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int oom(struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory");
}

int64_t sql_exec_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void sql_op_count(struct sql_op *op, int64_t rows, int64_t ns) {
  if (!op) return;
  __atomic_fetch_add(&op->rows, rows, __ATOMIC_RELAXED);
  __atomic_fetch_add(&op->ns, ns, __ATOMIC_RELAXED);
}

int sql_exec_cancelled(const struct sql_exec *x, struct chv_error *err) {
  if (x->cancel && __atomic_load_n(x->cancel, __ATOMIC_RELAXED))
    return chv_error_set(err, CHV_ECANCELED, "the statement was cancelled");
  return CHV_OK;
}

int sql_sel_reserve(struct sql_sel *s, int64_t n, struct chv_error *err) {
  if (n <= s->cap) return CHV_OK;
  uint32_t *ns = realloc(s->sel, sizeof *ns * (size_t)n);
  if (!ns) return oom(err);
  s->sel = ns;
  s->cap = n;
  return CHV_OK;
}

int sql_node_schema(const struct sql_node *nd, struct chv_type **out,
                    struct chv_error *err) {
  struct chv_type *st;
  if (chv_type_new(CHV_TYPE_STRUCT, &st) != CHV_OK) return oom(err);
  for (int c = 0; c < nd->ncols; c++) {
    struct chv_type *ct;
    char name[32];
    snprintf(name, sizeof name, "c%d", c);
    if (chv_type_clone(nd->cols[c].type, &ct) != CHV_OK ||
        chv_type_struct_add(st, name, ct) != CHV_OK) {
      chv_type_free(st);
      return oom(err);
    }
  }
  *out = st;
  return CHV_OK;
}

/* Rows sel[0, n) of the first ncols columns of in, densely into ob (a row
** may come more than once). */
static int gather_rows(const struct chv_batch *in, int ncols,
                       const uint32_t *sel, int64_t n, struct chv_batch *ob,
                       struct chv_error *err) {
  for (int c = 0; c < ncols; c++) {
    struct chv_expr col = {.kind = CHV_EXPR_COLUMN, .column = c,
                           .type = in->cols[c]->type};
    CHV_RETURN_IF_ERR(chv_expr_eval(&col, in, sel, n, ob->cols[c], err));
  }
  ob->nrows = n;
  return CHV_OK;
}

/* The projection of rows sel[0, n) of in by exprs into ob (dense), or,
** where a bare column of every row keeps its type, the input's own vector
** in view (a batch lending ob's and in's vectors). */
static int project_rows(struct chv_expr *const *exprs, int nout,
                        const struct chv_batch *in, const uint32_t *sel,
                        int64_t n, struct chv_batch *ob,
                        struct chv_batch *view, bool lend,
                        struct chv_error *err) {
  for (int c = 0; c < nout; c++) {
    const struct chv_expr *e = exprs[c];
    if (lend && !sel && e->kind == CHV_EXPR_COLUMN &&
        chv_type_equal(in->cols[e->column]->type, ob->schema->children[c])) {
      view->cols[c] = in->cols[e->column];
      continue;
    }
    CHV_RETURN_IF_ERR(chv_expr_eval(e, in, sel, n, ob->cols[c], err));
    view->cols[c] = ob->cols[c];
  }
  ob->nrows = view->nrows = n;
  return CHV_OK;
}

/* ---- Expand: a chunk once per grouping set ---------------------------------------- */

/* What expands the chunks of one thread: a chunk with a selection read
** densely (once for all its sets), and the batch of one set, whose
** columns of the input are the input's vectors, lent. */
struct expand_state {
  struct chv_type *in_schema, *schema;
  struct chv_batch *dense, *ob, view;
};

static int expand_state_init(const struct sql_node *nd,
                             struct expand_state *es, struct chv_error *err) {
  CHV_RETURN_IF_ERR(sql_node_schema(nd, &es->schema, err));
  CHV_RETURN_IF_ERR(sql_node_schema(nd->in[0], &es->in_schema, err));
  CHV_RETURN_IF_ERR(chv_batch_open(es->schema, 0, &es->ob, err));
  es->view = *es->ob;
  es->view.cols = calloc((size_t)nd->ncols + 1, sizeof *es->view.cols);
  return es->view.cols ? CHV_OK : oom(err);
}

static void expand_state_free(struct expand_state *es) {
  chv_batch_close(es->dense);
  chv_batch_close(es->ob);
  free(es->view.cols);
  chv_type_free(es->schema);
  chv_type_free(es->in_schema);
}

/* Rows sel[0, n) of b (sel NULL: all n) as a batch without a selection:
** b itself, or them gathered into es->dense. */
static int expand_input(const struct sql_node *nd, struct expand_state *es,
                        const struct chv_batch *b, const uint32_t *sel,
                        int64_t n, const struct chv_batch **out,
                        struct chv_error *err) {
  if (!sel && b->nrows == n) {
    *out = b;
    return CHV_OK;
  }
  if (!es->dense)
    CHV_RETURN_IF_ERR(chv_batch_open(es->in_schema, n, &es->dense, err));
  CHV_RETURN_IF_ERR(gather_rows(b, nd->in[0]->ncols, sel, n, es->dense, err));
  *out = es->dense;
  return CHV_OK;
}

/* Grouping set s of the n rows of in (no selection): es->view. */
static int expand_set(const struct sql_node *nd, struct expand_state *es,
                      const struct chv_batch *in, int64_t n, int s,
                      struct chv_error *err) {
  return project_rows(&nd->u.expand.exprs[(size_t)s * (size_t)nd->ncols],
                      nd->ncols, in, NULL, n, es->ob, &es->view, true, err);
}

/* ---- the stage of a scan, on the reader threads --------------------------------- */

struct agg_op;

struct stage {
  struct sql_op *scan, *filt, *proj, *agg, *sink; /* the staged operators */
  struct sql_op *expand;       /* an Expand under the Aggregate, or NULL */
  /* after the filter and projection: the joins probing the rows, each the
  ** one below's, and Projects of theirs (steps[0] a Join), or none */
  struct sql_op *steps[SQL_STAGE_MAX];
  struct chv_type *step_schema[SQL_STAGE_MAX]; /* a Project step's */
  int nsteps;
  const struct chv_expr *pred;
  struct chv_expr **ex;        /* the projection, or the identity */
  int nout;
  const struct chv_type *out_schema;
  struct agg_op *ag;
  bool analyze;
};

struct stage_state {
  struct sql_sel sel;
  struct sql_sel ksel;         /* the rows the join's keys keep */
  int64_t kseen, kkept;        /* ... of those tested so far */
  bool koff;                   /* most passed: no longer tested */
  struct chv_batch *ob;        /* kept while writing; else handed on */
  struct chv_batch view;
  chv_hash_agg *h;             /* the split's partial aggregate */
  struct chv_batch *inb;       /* the aggregation's inputs evaluated */
  struct chv_batch aview;
  struct expand_state es;      /* the Expand's, when staged */
  bool es_open;
  /* per step: a Join's probe, a Project's batch and view of it */
  void *jstate[SQL_STAGE_MAX];
  struct chv_batch *pob[SQL_STAGE_MAX], pview[SQL_STAGE_MAX];
};

static void stage_state_free(struct stage_state *st) {
  if (!st) return;
  free(st->sel.sel);
  free(st->ksel.sel);
  chv_batch_close(st->ob);
  free(st->view.cols);
  chv_hash_agg_close(st->h);
  chv_batch_close(st->inb);
  free(st->aview.cols);
  expand_state_free(&st->es);
  for (int k = 0; k < SQL_STAGE_MAX; k++) {
    sql_join_probe_free(st->jstate[k]);
    chv_batch_close(st->pob[k]);
    free(st->pview[k].cols);
  }
  free(st);
}

static int stage_agg_add(struct stage *g, struct stage_state *st,
                         const struct chv_batch *bt, const uint32_t *rows,
                         int64_t n, struct chv_error *err);
static int stage_agg_merge(struct stage *g, struct stage_state *st,
                           struct chv_error *err);

struct scan_op;
static int rowkeys_filter(struct scan_op *s, struct stage_state *st,
                          const struct chv_batch *b, const uint32_t **sel,
                          int64_t *n, struct chv_error *err);

/* The rows sel[0, n) of bt (filtered), projected, through the steps of g
** the joins below run (up to the first unstaged one): each Join's probe
** gives a batch of its own (owned), a Project its view of the rows; the
** last is handed back whole. */
static int stage_steps(struct stage *g, struct stage_state *st,
                       const struct chv_batch *bt, const uint32_t *sel,
                       int64_t n, int64_t t1, struct chv_batch **out,
                       struct chv_error *err) {
  const struct chv_batch *cur = bt;
  if (g->proj) { /* the first projection, lending the read columns */
    if (!st->ob) CHV_RETURN_IF_ERR(chv_batch_open(g->out_schema, n, &st->ob, err));
    if (!st->view.cols) {
      st->view = *st->ob;
      st->view.cols = calloc((size_t)g->nout + 1, sizeof *st->view.cols);
      if (!st->view.cols) return oom(err);
      st->view.schema = g->out_schema;
      st->view.ncols = g->nout;
    }
    CHV_RETURN_IF_ERR(project_rows(g->ex, g->nout, bt, sel, n, st->ob,
                                   &st->view, true, err));
    if (g->analyze) sql_op_count(g->proj, n, sql_exec_now() - t1);
    cur = &st->view;
    sel = NULL;
  }
  struct chv_batch *owned = NULL; /* the last join's rows */
  int last = 0;                   /* the steps that run */
  while (last < g->nsteps && !g->steps[last]->unstaged &&
         (g->steps[last]->node->kind != SQL_NODE_JOIN ||
          sql_join_probe_staged(g->steps[last])))
    last++;
  /* the last step a Project: its batch is handed back, not lent */
  int rc = CHV_OK;
  for (int k = 0; k < last && rc == CHV_OK; k++) {
    struct sql_op *op = g->steps[k];
    const struct sql_node *nd = op->node;
    if (nd->kind == SQL_NODE_JOIN) {
      struct chv_batch *jb;
      rc = sql_join_probe_batch(op, &st->jstate[k], cur, sel, n, &jb, err);
      if (rc != CHV_OK) break;
      chv_batch_close(owned);
      if (jb->nrows == 0) { /* nothing goes on */
        chv_batch_close(jb);
        *out = NULL;
        return CHV_OK;
      }
      owned = jb;
      cur = jb;
      sel = NULL;
      n = jb->nrows;
      continue;
    }
    int64_t t0 = g->analyze ? sql_exec_now() : 0;
    bool final = k == last - 1;
    struct chv_batch *pb = final ? NULL : st->pob[k];
    if (!pb) rc = chv_batch_open(g->step_schema[k], n, &pb, err);
    if (rc == CHV_OK && !final) st->pob[k] = pb;
    struct chv_batch *v = &st->pview[k];
    if (rc == CHV_OK && !v->cols) {
      *v = *pb;
      v->cols = calloc((size_t)nd->ncols + 1, sizeof *v->cols);
      if (!v->cols) rc = oom(err);
    }
    if (rc == CHV_OK) {
      v->schema = pb->schema;
      v->ncols = nd->ncols;
      rc = project_rows(nd->u.project.exprs, nd->ncols, cur, sel, n, pb, v,
                        !final, err);
    }
    if (final) { /* its batch holds every column: it goes on */
      if (rc == CHV_OK) {
        chv_batch_close(owned);
        owned = pb;
      } else {
        chv_batch_close(pb);
      }
    }
    cur = final ? owned : v;
    sel = NULL;
    if (g->analyze) sql_op_count(op, n, sql_exec_now() - t0);
  }
  if (rc == CHV_OK && last == g->nsteps && g->agg && !g->agg->unstaged) {
    /* the rows into the split's partial aggregate: nothing handed back */
    int64_t t0 = g->analyze ? sql_exec_now() : 0;
    if (n) rc = stage_agg_add(g, st, cur, NULL, n, err);
    if (g->analyze) sql_op_count(g->agg, 0, sql_exec_now() - t0);
    chv_batch_close(owned);
    return rc;
  }
  if (rc != CHV_OK) {
    chv_batch_close(owned);
    return rc;
  }
  *out = owned;
  return CHV_OK;
}

static int stage_batch(void *ctx, void **state, const struct chv_batch *bt,
                       struct chv_batch **out, struct chv_error *err) {
  struct stage *g = ctx;
  struct stage_state *st = *state;
  *out = NULL;
  if (!st) {
    if (!(st = calloc(1, sizeof *st))) return oom(err);
    *state = st;
  }
  int64_t n = bt->nrows;
  const uint32_t *rows = NULL;
  int64_t t0 = g->analyze ? sql_exec_now() : 0, t1 = t0;
  if (g->analyze) sql_op_count(g->scan, n, 0);
  CHV_RETURN_IF_ERR(rowkeys_filter((struct scan_op *)g->scan, st, bt, &rows,
                                   &n, err));
  if (g->pred) {
    CHV_RETURN_IF_ERR(sql_sel_reserve(&st->sel, n, err));
    CHV_RETURN_IF_ERR(
        chv_expr_filter(g->pred, bt, rows, n, st->sel.sel, &n, err));
    rows = st->sel.sel;
    if (g->analyze) {
      t1 = sql_exec_now();
      sql_op_count(g->filt, n, t1 - t0);
    }
  }
  if (g->nsteps) { /* joins probe the rows (when the first does here) */
    if (sql_join_probe_staged(g->steps[0]))
      return stage_steps(g, st, bt, rows, n, t1, out, err);
  } else if (g->agg && g->expand) { /* each grouping set, aggregated */
    const struct sql_node *en = g->expand->node;
    int rc = CHV_OK;
    if (!st->es_open) {
      st->es_open = true;
      rc = expand_state_init(en, &st->es, err);
    }
    const struct chv_batch *in = NULL;
    if (rc == CHV_OK && n)
      rc = expand_input(en, &st->es, bt, rows, n, &in, err);
    for (int s = 0; rc == CHV_OK && n && s < en->u.expand.nsets; s++) {
      rc = expand_set(en, &st->es, in, n, s, err);
      if (rc == CHV_OK)
        rc = stage_agg_add(g, st, &st->es.view, NULL, n, err);
    }
    if (g->analyze && rc == CHV_OK)
      sql_op_count(g->expand, n * en->u.expand.nsets, 0);
    if (g->analyze) sql_op_count(g->agg, 0, sql_exec_now() - t1);
    return rc;
  }
  if (g->agg && !g->nsteps) {
    int rc = stage_agg_add(g, st, bt, rows, n, err);
    if (g->analyze) sql_op_count(g->agg, 0, sql_exec_now() - t1);
    return rc;
  }
  if (n == 0) return CHV_OK;
  struct chv_batch *ob = st->ob;
  if (!ob) CHV_RETURN_IF_ERR(chv_batch_open(g->out_schema, n, &ob, err));
  if (!st->view.cols) {
    st->view.cols = calloc((size_t)g->nout + 1, sizeof *st->view.cols);
    if (!st->view.cols) {
      if (!g->sink) chv_batch_close(ob);
      return oom(err);
    }
    st->view.schema = g->out_schema;
    st->view.ncols = g->nout;
  }
  int rc = project_rows(g->ex, g->nout, bt, rows, n, ob, &st->view,
                        g->sink != NULL, err);
  int64_t t2 = g->analyze ? sql_exec_now() : 0;
  if (g->analyze) sql_op_count(g->proj ? g->proj : g->filt, 0, t2 - t1);
  if (g->sink) {
    st->ob = ob;
    if (rc != CHV_OK) return rc;
    rc = g->scan->x->sink->write_shared(g->sink->node->u.sink.target,
                                        &st->view, err);
    if (g->analyze)
      sql_op_count(g->sink, rc == CHV_OK ? n : 0, sql_exec_now() - t2);
    if (g->analyze && g->proj) sql_op_count(g->proj, n, 0);
    return rc;
  }
  if (rc != CHV_OK) {
    chv_batch_close(ob);
    return rc;
  }
  *out = ob;
  return CHV_OK;
}

static int stage_done(void *ctx, void *state, bool ok, struct chv_error *err) {
  struct stage *g = ctx;
  struct stage_state *st = state;
  int rc = CHV_OK;
  if (ok && st && g->agg) {
    int64_t t0 = g->analyze ? sql_exec_now() : 0;
    rc = stage_agg_merge(g, st, err);
    if (g->analyze) sql_op_count(g->agg, 0, sql_exec_now() - t0);
  }
  stage_state_free(st);
  return rc;
}

/* ---- Scan ---------------------------------------------------------------------- */

struct scan_op {
  struct sql_op op;
  chv_scan *scan;
  chv_scan_bound *bound;
  struct stage stage;
  struct chv_scan_hook hook;
  struct chv_type *stage_schema; /* the stage's output, when not a node's */
  struct chv_expr *ident;        /* identity projection of a Filter stage */
  struct chv_expr **identp;
  /* dynamic filtering: opened not yet, its join's keys awaited (opens at
  ** sql_op_scan_start(), or at its first next without them) */
  bool deferred;
  /* the join's filter, held until the first next(): a stage whose joins
  ** probe opens only once they have all built */
  struct chv_part_filter *pfilter;
  const struct chv_pred *ppreds;
  int pnpreds;
  chv_arena *dyn;                /* the run-time filter, predicates, text */
  const char *dyn_text;          /* what EXPLAIN ANALYZE says of them */
  /* the join's key sets that filter rows, each with its column */
  struct sql_rowkeys *rk;
  int *rkcol;
  int nrk;
  int64_t rk_in, rk_out;         /* rows tested and kept (atomic) */
  struct stage_state *nstate;    /* not staged: the consumer's state */
};

/* ---- rows filtered by a join's build keys (dynamic filtering) ---------------- */

/* Whether joins probe in the stage of scan node nd. */
static bool stage_has_join(const struct sql_node *nd) {
  for (int i = 0; i < nd->u.scan.nstage; i++)
    if (nd->u.scan.stage[i]->kind == SQL_NODE_JOIN) return true;
  return false;
}

/* Whether rk's bloom bits (none: all) let a key of hash hv through. */
static inline bool rowkeys_bloom(const struct sql_rowkeys *rk, uint64_t hv) {
  uint64_t bit = (hv >> 20) & rk->bmask;
  return !rk->bloom || (rk->bloom[bit >> 6] >> (bit & 63) & 1);
}

/* The bloom hash of an integer key (not the intset's multiplier, so that
** its bits tell more than the slot's). */
static inline uint64_t rowkeys_int_hash(int64_t x) {
  return (uint64_t)x * 0xff51afd7ed558ccdull;
}

/* Whether integer x is in rk's set (rk->is_int). */
static inline bool rowkeys_has_int(const struct sql_rowkeys *rk, int64_t x) {
  if (rk->bits) {
    uint64_t off = (uint64_t)x - (uint64_t)rk->lo;
    return off < rk->range && (rk->bits[off >> 6] >> (off & 63) & 1);
  }
  if (rk->bloom) {
    uint64_t bit = rowkeys_int_hash(x) >> rk->bshift;
    if (!(rk->bloom[bit >> 6] >> (bit & 63) & 1)) return false;
  }
  return chv_intset_find(&rk->iset, x) != UINT32_MAX;
}

/* One key of an integer or DATE column: a loop of its own. */
static bool rowkeys_keep_int(const struct scan_op *s, const struct chv_batch *b,
                             const uint32_t *sel, int64_t n, uint32_t *out,
                             int64_t *m) {
  const struct chv_vector *v = b->cols[s->rkcol[0]];
  const struct sql_rowkeys *rk = &s->rk[0];
  if (s->nrk != 1 || !rk->is_int) return false;
  int64_t k = 0;
  /* the bit map: a load and a compare per row, the row written always and
  ** kept by advancing k (no branch on the key) */
  const uint64_t *bits = rk->bits;
  const uint8_t *valid = v->validity;
  uint64_t lo = (uint64_t)rk->lo, range = rk->range;
#define KEEP_(T)                                                               \
  do {                                                                         \
    const T *d_ = v->data;                                                     \
    if (bits) {                                                                \
      for (int64_t i = 0; i < n; i++) {                                        \
        uint32_t r = sel ? sel[i] : (uint32_t)i;                               \
        uint64_t off = (uint64_t)(int64_t)d_[r] - lo;                          \
        uint64_t in = off < range;                                             \
        uint64_t at = in ? off : 0;                                            \
        uint64_t hit = (bits[at >> 6] >> (at & 63)) & in;                      \
        if (valid) hit &= (uint64_t)(valid[r >> 3] >> (r & 7));                \
        out[k] = r;                                                            \
        k += (int64_t)(hit & 1);                                               \
      }                                                                        \
      break;                                                                   \
    }                                                                          \
    for (int64_t i = 0; i < n; i++) {                                          \
      uint32_t r = sel ? sel[i] : (uint32_t)i;                                 \
      if (!chv_vector_is_null(v, r) && rowkeys_has_int(rk, d_[r]))            \
        out[k++] = r;                                                          \
    }                                                                          \
  } while (0)
  switch (chv_type_fixed_width(v->type->id)) {
  case 1: KEEP_(int8_t); break;
  case 2: KEEP_(int16_t); break;
  case 4: KEEP_(int32_t); break;
  default: KEEP_(int64_t); break;
  }
#undef KEEP_
  *m = k;
  return true;
}

/* rk's integer keys (its array ints or its iset, their range from rk->lo)
** as a bit map of the range, or in the iset with bloom bits past 1024
** keys; false out of memory. */
static bool rowkeys_make_int(struct sql_rowkeys *rk) {
  const struct chv_intset *is = &rk->iset;
  size_t nk = is->n ? is->n : rk->nints; /* the array: duplicates too */
  uint64_t lo = (uint64_t)rk->lo;
  /* a bit map of the range when it takes at most 128 bits a key (or 64
  ** KiB) and 16 MiB (range 0: all of int64's): no more than the iset it
  ** replaces (16-byte slots, at most half full), and one load a row where
  ** the iset takes a multiply, a bloom load and (for a row the bloom lets
  ** through) a probe */
  uint64_t range = rk->range;
  if (range != 0 && range <= ((uint64_t)1 << 27) &&
      range <= 128 * (uint64_t)nk + ((uint64_t)1 << 19)) {
    uint64_t *bits = calloc((size_t)(range + 63) / 64, sizeof *bits);
    if (bits) {
      for (size_t i = 0; i < rk->nints; i++) {
        uint64_t off = (uint64_t)rk->ints[i] - lo;
        bits[off >> 6] |= 1ull << (off & 63);
      }
      for (size_t i = 0; i < is->nslots; i++) {
        if (!is->slots[i].id1) continue;
        uint64_t off = (uint64_t)is->slots[i].key - lo;
        bits[off >> 6] |= 1ull << (off & 63);
      }
      rk->bits = bits;
      rk->is_int = true;
      chv_intset_free(&rk->iset);
      chv_free(rk->ints);
      rk->ints = NULL;
      rk->nints = 0;
      return true;
    }
  }
  if (rk->nints) { /* a set of them after all */
    int rc = chv_intset_put_all(&rk->iset, rk->ints, rk->nints);
    chv_free(rk->ints);
    rk->ints = NULL;
    rk->nints = 0;
    if (rc != CHV_OK) return false;
    nk = is->n;
  }
  if (nk > 1024) {
    int lg = 12;
    while (((size_t)1 << lg) < nk * 16 && lg < 24) lg++;
    uint64_t *bloom = calloc(((size_t)1 << lg) / 64, sizeof *bloom);
    if (!bloom) return false;
    rk->bshift = 64 - lg;
    for (size_t i = 0; i < is->nslots; i++) {
      if (!is->slots[i].id1) continue;
      uint64_t bit = rowkeys_int_hash(is->slots[i].key) >> rk->bshift;
      bloom[bit >> 6] |= 1ull << (bit & 63);
    }
    rk->bloom = bloom;
  }
  rk->is_int = true;
  return true;
}

void sql_rowkeys_free(struct sql_rowkeys *rk) {
  chv_keyset_free(&rk->set);
  chv_intset_free(&rk->iset);
  chv_free(rk->ints);
  free(rk->bits);
  free(rk->bloom);
  memset(rk, 0, sizeof *rk);
}

/* Rows sel[0, n) (NULL: all n) of b whose values of the key columns are
** all among the build keys, into out[0, *m). */
static void rowkeys_keep(const struct scan_op *s, const struct chv_batch *b,
                         const uint32_t *sel, int64_t n, uint32_t *out,
                         int64_t *m) {
  if (rowkeys_keep_int(s, b, sel, n, out, m)) return;
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++) {
    uint32_t r = sel ? sel[i] : (uint32_t)i;
    bool keep = true;
    for (int f = 0; f < s->nrk && keep; f++) {
      const struct chv_vector *v = b->cols[s->rkcol[f]];
      if (chv_vector_is_null(v, r)) {
        keep = false;
        break;
      }
      const void *key;
      size_t len;
      int64_t x;
      switch (v->type->id) {
      case CHV_TYPE_TINYINT: x = ((const int8_t *)v->data)[r]; break;
      case CHV_TYPE_SMALLINT: x = ((const int16_t *)v->data)[r]; break;
      case CHV_TYPE_INT:
      case CHV_TYPE_DATE: x = ((const int32_t *)v->data)[r]; break;
      case CHV_TYPE_BIGINT: x = ((const int64_t *)v->data)[r]; break;
      default: x = 0; break;
      }
      if (v->offsets) {
        key = v->bytes + v->offsets[r];
        len = (size_t)(v->offsets[r + 1] - v->offsets[r]);
        if (!len) key = "";
      } else {
        key = &x;
        len = sizeof x;
      }
      size_t slot;
      const struct sql_rowkeys *rk = &s->rk[f];
      if (rk->is_int) {
        keep = rowkeys_has_int(rk, x);
        continue;
      }
      uint64_t hv = chv_keyset_hash(key, len);
      keep = rk->set.n && rowkeys_bloom(rk, hv) &&
             chv_keyset_find(&rk->set, key, len, hv, &slot) != UINT32_MAX;
    }
    if (keep) out[k++] = r;
  }
  *m = k;
}

/* Filters rows *sel[0, *n) of b (*sel NULL: all) by the build keys, unless
** st has stopped testing: *sel then points into st's selection. */
static int rowkeys_filter(struct scan_op *s, struct stage_state *st,
                          const struct chv_batch *b, const uint32_t **sel,
                          int64_t *n, struct chv_error *err) {
  if (!s->nrk || st->koff || *n == 0) return CHV_OK;
  CHV_RETURN_IF_ERR(sql_sel_reserve(&st->ksel, *n, err));
  int64_t m;
  rowkeys_keep(s, b, *sel, *n, st->ksel.sel, &m);
  __atomic_fetch_add(&s->rk_in, *n, __ATOMIC_RELAXED);
  __atomic_fetch_add(&s->rk_out, m, __ATOMIC_RELAXED);
  st->kseen += *n;
  st->kkept += m;
  if (st->kseen >= 65536 && st->kkept * 4 > st->kseen * 3) st->koff = true;
  *sel = st->ksel.sel;
  *n = m;
  return CHV_OK;
}

void sql_scan_node_options(const struct sql_node *nd, const struct sql_exec *x,
                           struct chv_scan_options *so) {
  chv_scan_options_init(so);
  if (x) {
    so->cfg = x->cfg;
    so->cancel = x->cancel;
    so->progress = x->progress;
    so->progress_ctx = x->progress_ctx;
  }
  so->filter = nd->u.scan.filter;
  static const char *const none[1] = {NULL};
  so->columns = nd->ncols ? nd->u.scan.columns : none;
  so->ncolumns = nd->ncols;
  so->limit = nd->u.scan.limit;
  so->preds = nd->u.scan.preds;
  so->npreds = nd->u.scan.npreds;
  so->table_options = nd->u.scan.options;
  so->ntable_options = nd->u.scan.noptions;
  so->threads = nd->u.scan.threads;
  so->sample = nd->u.scan.sample;
}

/* Opens the scan: the node's options, with filter AND-ed to its partition
** filter and preds after its own (dynamic filtering). */
static int scan_start(struct scan_op *s, struct chv_part_filter *filter,
                      const struct chv_pred *preds, int npreds,
                      struct chv_error *err) {
  struct sql_op *op = &s->op;
  const struct sql_node *nd = op->node;
  struct chv_scan_options so;
  sql_scan_node_options(nd, op->x, &so);
  s->deferred = false;
  if (filter && so.filter) {
    filter = chv_pf_and(s->dyn, (struct chv_part_filter *)so.filter, filter);
    if (!filter) return oom(err);
  }
  if (filter) so.filter = filter;
  if (npreds) {
    struct chv_pred *v =
        chv_arena_alloc(s->dyn, sizeof *v * (size_t)(so.npreds + npreds));
    if (!v) return oom(err);
    if (so.npreds) memcpy(v, so.preds, sizeof *v * (size_t)so.npreds);
    memcpy(v + so.npreds, preds, sizeof *v * (size_t)npreds);
    so.preds = v;
    so.npreds += npreds;
  }
  if (nd->u.scan.bound_column) {
    CHV_RETURN_IF_ERR(chv_scan_bound_open(nd->u.scan.bound_column,
                                          (enum chv_pred_op)nd->u.scan.bound_op,
                                          &s->bound, err));
    so.bound = s->bound;
  }
  if (nd->u.scan.nstage) so.hook = &s->hook;
  int64_t t0 = op->x->analyze ? sql_exec_now() : 0;
  int rc = chv_scan_open(nd->u.scan.cat, nd->u.scan.t->db, nd->u.scan.t->name,
                         &so, &s->scan, err);
  if (op->x->analyze) sql_op_count(op, 0, sql_exec_now() - t0);
  return rc;
}

/* A scan a join filters at run time opens once the join has built
** (sql_op_scan_start()); under EXPLAIN at once. */
static int scan_open(struct sql_op *op, struct chv_error *err) {
  struct scan_op *s = (struct scan_op *)op;
  /* (a join probing in its stage: not before it built) */
  if ((op->node->u.scan.dyn_join || stage_has_join(op->node)) && !op->x->explain) {
    s->deferred = true;
    return CHV_OK;
  }
  return scan_start(s, NULL, NULL, 0, err);
}

static int scan_next(struct sql_op *op, struct sql_chunk *out,
                     struct chv_error *err) {
  struct scan_op *s = (struct scan_op *)op;
  if (s->deferred) /* its join's filter held, or no keys: all of it */
    CHV_RETURN_IF_ERR(scan_start(s, s->pfilter, s->ppreds, s->pnpreds, err));
  int64_t t0 = op->x->analyze ? sql_exec_now() : 0;
  struct chv_batch *b;
  int rc = chv_scan_next(s->scan, &b, err);
  out->b = rc == CHV_OK ? b : NULL;
  out->sel = NULL;
  out->n = out->b ? b->nrows : 0;
  if (out->b && s->nrk && !op->node->u.scan.nstage) {
    if (!s->nstate && !(s->nstate = calloc(1, sizeof *s->nstate))) rc = oom(err);
    if (rc == CHV_OK) rc = rowkeys_filter(s, s->nstate, b, &out->sel, &out->n, err);
  }
  /* staged: the stage counted the rows read */
  if (op->x->analyze)
    sql_op_count(op, op->node->u.scan.nstage ? 0 : out->n,
                 sql_exec_now() - t0);
  return rc;
}

static void scan_close(struct sql_op *op) {
  struct scan_op *s = (struct scan_op *)op;
  chv_scan_close(s->scan);
  for (int i = 0; i < s->nrk; i++) sql_rowkeys_free(&s->rk[i]);
  free(s->rk);
  free(s->rkcol);
  stage_state_free(s->nstate);
  chv_scan_bound_close(s->bound);
  chv_arena_close(s->dyn);
  chv_type_free(s->stage_schema);
  for (int k = 0; k < s->stage.nsteps; k++) chv_type_free(s->stage.step_schema[k]);
  free(s->ident);
  free(s->identp);
}

static const struct sql_op_vt scan_vt = {scan_open, scan_next, scan_close};

int sql_op_scan_start(struct sql_op *op, chv_arena *a,
                      struct chv_part_filter *filter,
                      const struct chv_pred *preds, int npreds,
                      struct sql_rowkeys *rk, int nrk,
                      const char *text, struct chv_error *err) {
  struct scan_op *s = op && op->vt == &scan_vt ? (struct scan_op *)op : NULL;
  if (!s || !s->deferred) {
    for (int i = 0; i < nrk; i++) sql_rowkeys_free(&rk[i]);
    free(rk);
    chv_arena_close(a);
    return CHV_OK;
  }
  chv_arena_close(s->dyn);
  s->dyn = a;
  s->dyn_text = text;
  /* the key sets, each at its column of the scan's batches */
  const struct sql_node *nd = op->node;
  s->rk = rk;
  s->rkcol = calloc((size_t)nrk + 1, sizeof *s->rkcol);
  if (!s->rkcol) {
    s->nrk = nrk; /* freed with the operator */
    return oom(err);
  }
  for (int i = 0; i < nrk; i++) {
    int c = -1;
    for (int j = 0; j < nd->ncols && c < 0; j++)
      if (!strcasecmp(nd->u.scan.columns[j], rk[i].column)) c = j;
    if (c < 0 || nd->cols[c].type->id != rk[i].id) { /* not this scan's */
      sql_rowkeys_free(&rk[i]);
      continue;
    }
    /* integers: a bit map or their iset; a set of bytes past the caches
    ** gets its bloom bits (a small one needs none) */
    size_t nk = rk[i].set.n;
    enum chv_type_id id = rk[i].id;
    if (chv_type_is_integer(id) || id == CHV_TYPE_DATE) {
      if ((!rk[i].iset.n && !rk[i].nints) || !rowkeys_make_int(&rk[i])) {
        /* out of memory: the rows go unfiltered (the join drops them) */
        sql_rowkeys_free(&rk[i]);
        continue;
      }
    } else if (nk > 1024) {
      uint64_t bits = 1u << 12;
      while (bits < nk * 16 && bits < (1u << 24)) bits <<= 1;
      rk[i].bloom = calloc(bits / 64, sizeof *rk[i].bloom);
      rk[i].bmask = bits - 1;
      for (size_t e = 0; rk[i].bloom && e < nk; e++) {
        uint64_t bit = (rk[i].set.hashes[e] >> 20) & rk[i].bmask;
        rk[i].bloom[bit >> 6] |= 1ull << (bit & 63);
      }
    }
    s->rkcol[s->nrk] = c;
    s->rk[s->nrk++] = rk[i];
  }
  if (stage_has_join(nd)) {
    /* joins probe in its stage: it opens at the first next(), which comes
    ** once they have built (sql_stage_prepare()) */
    s->pfilter = filter;
    s->ppreds = preds;
    s->pnpreds = npreds;
    return CHV_OK;
  }
  int rc = scan_start(s, filter, preds, npreds, err);
  if (rc != CHV_OK && !op->x->failed) op->x->failed = op; /* its WHERE's */
  return rc;
}

const char *sql_op_scan_dynamic(const struct sql_op *op) {
  if (!op || op->vt != &scan_vt) return NULL;
  const struct scan_op *s = (const struct scan_op *)op;
  if (!s->nrk || !s->dyn_text) return s->dyn_text;
  char buf[160];
  snprintf(buf, sizeof buf, "; rows by the keys' set: %lld of %lld kept",
           (long long)s->rk_out, (long long)s->rk_in);
  size_t n = strlen(s->dyn_text);
  char *t = chv_arena_alloc(s->dyn, n + strlen(buf) + 1);
  if (!t) return s->dyn_text;
  memcpy(t, s->dyn_text, n);
  strcpy(t + n, buf);
  return t;
}

chv_scan *sql_op_scan(const struct sql_op *op) {
  return op && op->vt == &scan_vt ? ((const struct scan_op *)op)->scan : NULL;
}

chv_scan_bound *sql_op_bound(struct sql_op *op) {
  op = op && op->nin == 1 ? op->in[0] : NULL;
  while (op && op->node->kind == SQL_NODE_FILTER && op->nin == 1)
    op = op->in[0];
  return op && op->vt == &scan_vt ? ((struct scan_op *)op)->bound : NULL;
}

/* ---- Values -------------------------------------------------------------------- */

struct values_op {
  struct sql_op op;
  struct chv_batch *b;
  bool given;
};

static int values_open(struct sql_op *op, struct chv_error *err) {
  struct values_op *v = (struct values_op *)op;
  if (op->node->u.values.rows) return CHV_OK; /* given as they are */
  struct chv_type *st;
  CHV_RETURN_IF_ERR(sql_node_schema(op->node, &st, err));
  int rc = chv_batch_open(st, 1, &v->b, err);
  if (rc != CHV_OK) {
    chv_type_free(st);
    return rc;
  }
  const struct sql_node *nd = op->node;
  int64_t n = nd->u.values.nrows;
  struct chv_batch one = {.nrows = 1}; /* the rows' constants read nothing */
  struct chv_vector *cell = NULL;
  for (int c = 0; c < v->b->ncols && rc == CHV_OK; c++) {
    for (int64_t r = 0; r < n && rc == CHV_OK; r++) {
      if (!nd->u.values.exprs) {
        rc = chv_vector_append_null(v->b->cols[c], err);
        continue;
      }
      const struct chv_expr *e = nd->u.values.exprs[r * nd->ncols + c];
      if (!cell) rc = chv_vector_open(e->type, 1, &cell, err);
      if (rc == CHV_OK) rc = chv_expr_eval(e, &one, NULL, 1, cell, err);
      if (rc == CHV_OK)
        rc = chv_vector_append_from(v->b->cols[c], cell, 0, err);
    }
    chv_vector_close(cell);
    cell = NULL;
  }
  if (rc == CHV_OK) v->b->nrows = n;
  return rc;
}

static int values_next(struct sql_op *op, struct sql_chunk *out,
                       struct chv_error *err) {
  (void)err;
  struct values_op *v = (struct values_op *)op;
  const struct chv_batch *b = op->node->u.values.rows ? op->node->u.values.rows : v->b;
  out->sel = NULL;
  /* a chunk's batch is not written by the operators above */
  out->b = v->given || b->nrows == 0 ? NULL : (struct chv_batch *)b;
  out->n = out->b ? b->nrows : 0;
  v->given = true;
  if (op->x->analyze) sql_op_count(op, out->n, 0);
  return CHV_OK;
}

static void values_close(struct sql_op *op) {
  struct values_op *v = (struct values_op *)op;
  if (!v->b) return;
  struct chv_type *st = (struct chv_type *)v->b->schema;
  chv_batch_close(v->b);
  chv_type_free(st);
}

static const struct sql_op_vt values_vt = {values_open, values_next,
                                           values_close};

/* ---- Filter -------------------------------------------------------------------- */

struct filter_op {
  struct sql_op op;
  struct sql_sel sel;
};

static int filter_next(struct sql_op *op, struct sql_chunk *out,
                       struct chv_error *err) {
  struct filter_op *f = (struct filter_op *)op;
  if (op->node->on_readers) return sql_op_next(op->in[0], out, err);
  int64_t t0 = op->x->analyze ? sql_exec_now() : 0;
  int rc;
  for (;;) {
    struct sql_chunk in;
    rc = sql_op_next(op->in[0], &in, err);
    if (rc != CHV_OK || !in.b) {
      out->b = NULL;
      break;
    }
    rc = sql_sel_reserve(&f->sel, in.n, err);
    int64_t n = 0;
    if (rc == CHV_OK)
      rc = chv_expr_filter(op->node->u.filter.pred, in.b, in.sel, in.n,
                           f->sel.sel, &n, err);
    if (rc != CHV_OK) break;
    if (n == 0) continue;
    *out = (struct sql_chunk){in.b, f->sel.sel, n};
    break;
  }
  if (op->x->analyze)
    sql_op_count(op, rc == CHV_OK && out->b ? out->n : 0,
                 sql_exec_now() - t0);
  return rc;
}

static void filter_close(struct sql_op *op) {
  free(((struct filter_op *)op)->sel.sel);
}

static const struct sql_op_vt filter_vt = {NULL, filter_next, filter_close};

/* ---- Project ------------------------------------------------------------------- */

struct project_op {
  struct sql_op op;
  bool prepared;               /* staged over a join: sql_stage_prepare() */
  struct chv_type *schema;
  struct chv_batch *ob, view;
};

/* Whether a staged Project's rows are counted by the stage: in a stage
** with a join (its steps count each node), not in one without (the rows
** it hands back are the Project's). */
static bool project_counted(const struct sql_op *op) {
  const struct sql_node *nd = op->node;
  while (nd->kind != SQL_NODE_SCAN && nd->nin)
    nd = nd->kind == SQL_NODE_JOIN ? nd->in[nd->u.join.build_left ? 1 : 0] : nd->in[0];
  return nd->kind == SQL_NODE_SCAN && stage_has_join(nd);
}

static int project_open(struct sql_op *op, struct chv_error *err) {
  struct project_op *p = (struct project_op *)op;
  CHV_RETURN_IF_ERR(sql_node_schema(op->node, &p->schema, err));
  /* (staged above a join, it may come to run here: unstaged) */
  if (op->node->on_readers && op->node->in[0]->kind != SQL_NODE_JOIN) return CHV_OK;
  CHV_RETURN_IF_ERR(chv_batch_open(p->schema, 0, &p->ob, err));
  p->view = *p->ob;
  p->view.cols = calloc((size_t)op->node->ncols + 1, sizeof *p->view.cols);
  return p->view.cols ? CHV_OK : oom(err);
}

static int project_next(struct sql_op *op, struct sql_chunk *out,
                        struct chv_error *err) {
  struct project_op *p = (struct project_op *)op;
  if (op->node->on_readers && op->node->in[0]->kind == SQL_NODE_JOIN &&
      !p->prepared) {
    p->prepared = true;
    CHV_RETURN_IF_ERR(sql_stage_prepare(op, err));
  }
  if (op->node->on_readers && !op->unstaged) {
    int rc = sql_op_next(op->in[0], out, err);
    /* the stage counted it, but for a Project it hands back as it is */
    if (rc == CHV_OK && out->b && op->x->analyze && !project_counted(op))
      sql_op_count(op, out->n, 0);
    return rc;
  }
  struct sql_chunk in;
  int rc = sql_op_next(op->in[0], &in, err);
  if (rc != CHV_OK || !in.b) {
    out->b = NULL;
    return rc;
  }
  int64_t t0 = op->x->analyze ? sql_exec_now() : 0;
  rc = project_rows(op->node->u.project.exprs, op->node->ncols, in.b, in.sel,
                    in.n, p->ob, &p->view, true, err);
  if (rc != CHV_OK) return rc;
  *out = (struct sql_chunk){&p->view, NULL, in.n};
  if (op->x->analyze) sql_op_count(op, in.n, sql_exec_now() - t0);
  return CHV_OK;
}

static void project_close(struct sql_op *op) {
  struct project_op *p = (struct project_op *)op;
  chv_batch_close(p->ob);
  free(p->view.cols);
  chv_type_free(p->schema);
}

static const struct sql_op_vt project_vt = {project_open, project_next,
                                            project_close};

/* ---- Aggregate ----------------------------------------------------------------- */

#define AGG_PARTS 16            /* partitions of a level of spilling */
#define AGG_MAX_LEVEL 8         /* levels of partitions at most */

/* The partition files of one level of a spilling aggregation: the rows
** (the aggregation's inputs: keys, then arguments) of groups that were
** not in memory, by the hash of their keys. */
struct agg_level {
  struct sql_spill *f[AGG_PARTS];
  int level;
};

/* A partition waiting to be aggregated. */
struct agg_part {
  struct sql_spill *f;
  int level;
};

struct agg_op {
  struct sql_op op;
  struct chv_type *in_type;      /* keys, then aggregate arguments */
  struct chv_expr **inx;
  int ncol;
  int *key_cols, *agg_cols;
  struct chv_hash_agg_spec spec;
  bool plain;                    /* every input a plain column */
  bool total;                    /* no input can fail (chv_expr_total()) */
  chv_hash_agg *h;
  struct chv_batch *rb;
  bool done, given;
  /* on the consuming thread */
  struct chv_batch *inb, view;
  /* Spilling (chive.exec.operator-memory, with keys): once h or a split's
  ** partial passes the bound, spilling is set; from then on rows of
  ** groups the aggregate does not hold go to the partitions of top (mu:
  ** reader threads write them), which are aggregated one at a time once
  ** the input ended, each giving its groups. */
  size_t bound;
  int spilling;                  /* atomic */
  pthread_mutex_t mu;
  bool mu_init;
  struct agg_level top;
  struct agg_part *parts;        /* waiting: parts[at, nparts) */
  int nparts, partcap, at;
  struct chv_batch *pb;          /* a partition's frame */
  struct chv_buf kb;             /* scratch of the partition hash */
  chv_hash_agg *rh;              /* the aggregate whose result rb is */
};

static int agg_open(struct sql_op *op, struct chv_error *err) {
  struct agg_op *g = (struct agg_op *)op;
  const struct sql_node *nd = op->node;
  int nk = nd->u.agg.nkeys, na = nd->u.agg.naggs;
  g->inx = calloc((size_t)(nk + na) + 1, sizeof *g->inx);
  g->key_cols = calloc((size_t)nk + 1, sizeof *g->key_cols);
  g->agg_cols = calloc((size_t)na + 1, sizeof *g->agg_cols);
  if (!g->inx || !g->key_cols || !g->agg_cols ||
      chv_type_new(CHV_TYPE_STRUCT, &g->in_type) != CHV_OK)
    return oom(err);
  g->plain = g->total = true;
  for (int i = 0; i < nk + na; i++) {
    struct chv_expr *x = i < nk ? nd->u.agg.keys[i] : nd->u.agg.args[i - nk];
    /* an argument computed already (SUM(x) and AVG(x)) is read from its
    ** column; only where it cannot fail, so that no call of a registered
    ** function (which may come to be one of varying results) is merged */
    int same = -1;
    bool total = x && chv_expr_total(x);
    for (int c = 0; total && i >= nk && c < g->ncol && same < 0; c++)
      if (chv_expr_same(g->inx[c], x)) same = c;
    if (i < nk)
      g->key_cols[i] = g->ncol;
    else
      g->agg_cols[i - nk] = !x ? -1 : same >= 0 ? same : g->ncol;
    if (!x || same >= 0) continue;
    char fname[32];
    snprintf(fname, sizeof fname, "c%d", g->ncol);
    struct chv_type *ft;
    if (chv_type_clone(x->type, &ft) != CHV_OK ||
        chv_type_struct_add(g->in_type, fname, ft) != CHV_OK)
      return oom(err);
    g->plain = g->plain && x->kind == CHV_EXPR_COLUMN;
    g->total = g->total && total;
    g->inx[g->ncol++] = x;
  }
  /* with keys the bound is the operator's, which spills past it; without,
  ** the one group fails the aggregation past it */
  g->bound = nk ? op->x->memory : 0;
  g->spec = (struct chv_hash_agg_spec){nk, g->key_cols, na, nd->u.agg.fns,
                                       g->agg_cols, nk ? 0 : op->x->memory};
  chv_buf_init(&g->kb);
  if (pthread_mutex_init(&g->mu, NULL) != 0) return oom(err);
  g->mu_init = true;
  CHV_RETURN_IF_ERR(chv_hash_agg_open(g->in_type, &g->spec, &g->h, err));
  if (nd->on_readers && nd->in[0]->kind != SQL_NODE_JOIN &&
      nd->in[0]->kind != SQL_NODE_PROJECT)
    return CHV_OK; /* (over a staged join it may come to run here) */
  CHV_RETURN_IF_ERR(chv_batch_open(g->in_type, 0, &g->inb, err));
  g->view = *g->inb;
  g->view.cols = calloc((size_t)g->ncol + 1, sizeof *g->view.cols);
  return g->view.cols ? CHV_OK : oom(err);
}

/* The inputs of rows sel[0, n) of bt into h: a plain column read where
** its batch holds it (sel as the selection) unless an expression must be
** evaluated over the selected rows, which then all are, densely. */
static int agg_rows(struct agg_op *g, chv_hash_agg *h, struct chv_batch *inb,
                    struct chv_batch *view, const struct chv_batch *bt,
                    const uint32_t *sel, int64_t n, struct chv_error *err);

/* Adds a partition file of level to the waiting ones (taken over). */
static int agg_part_push(struct agg_op *g, struct sql_spill *f, int level,
                         struct chv_error *err) {
  if (g->nparts == g->partcap) {
    int cap = g->partcap ? 2 * g->partcap : 32;
    struct agg_part *p = realloc(g->parts, sizeof *p * (size_t)cap);
    if (!p) {
      sql_spill_close(f);
      return oom(err);
    }
    g->parts = p;
    g->partcap = cap;
  }
  g->parts[g->nparts++] = (struct agg_part){f, level};
  return CHV_OK;
}

/* Rows rows[0, n) of view (the aggregation's inputs) to the partitions of
** lv by their keys' hash. */
static int agg_spill_rows(struct agg_op *g, struct agg_level *lv,
                          const struct chv_batch *view, const uint32_t *rows,
                          int64_t n, struct chv_error *err) {
  if (n == 0) return CHV_OK;
  uint8_t *part = malloc((size_t)n + 1);
  uint32_t *sel = malloc(sizeof *sel * (size_t)n + 1);
  int rc = part && sel ? CHV_OK : oom(err);
  if (rc == CHV_OK &&
      chv_hash_agg_partition(g->h, view, rows, n, lv->level, AGG_PARTS, part,
                             &g->kb) != CHV_OK)
    rc = oom(err);
  for (int p = 0; p < AGG_PARTS && rc == CHV_OK; p++) {
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++)
      if (part[i] == p) sel[m++] = rows ? rows[i] : (uint32_t)i;
    if (m == 0) continue;
    if (!lv->f[p]) rc = sql_spill_open(&g->op, &lv->f[p], err);
    if (rc == CHV_OK)
      rc = sql_spill_write(lv->f[p], view->cols, g->ncol, sel, m, err);
  }
  free(part);
  free(sel);
  return rc;
}

/* Spilling: the rows of groups h holds into h, the others to lv (under
** mu when shared). */
static int agg_rows_known(struct agg_op *g, chv_hash_agg *h,
                          struct agg_level *lv, bool shared,
                          const struct chv_batch *view, const uint32_t *sel,
                          int64_t n, struct chv_error *err) {
  if (n == 0) return CHV_OK;
  uint32_t *miss = malloc(sizeof *miss * (size_t)n);
  if (!miss) return oom(err);
  int64_t nm = 0;
  int rc = chv_hash_agg_add_known(h, view, sel, n, miss, &nm, err);
  if (rc == CHV_OK && nm) {
    if (shared) pthread_mutex_lock(&g->mu);
    rc = agg_spill_rows(g, lv, view, miss, nm, err);
    if (shared) pthread_mutex_unlock(&g->mu);
  }
  free(miss);
  return rc;
}

/* Whether the aggregation runs in a scan's stage (partials on the reader
** threads): its node there, not unstaged by a join below it. */
static bool agg_staged(const struct agg_op *g) {
  return g->op.node->on_readers && !g->op.unstaged;
}

/* Sets spilling once h passes the bound. */
static void agg_check_bound(struct agg_op *g, const chv_hash_agg *h) {
  if (g->bound && chv_hash_agg_memory(h) > g->bound)
    __atomic_store_n(&g->spilling, 1, __ATOMIC_RELAXED);
}

/* The view of the aggregation's inputs of rows sel[0, n) of bt: a plain
** column read where its batch holds it (*vsel: sel) unless an expression
** must be evaluated over the selected rows, which then all are, densely
** (*vsel: NULL).  When no input can fail and the selection keeps at least
** half the batch, the expressions are evaluated over the whole batch
** instead (*vsel: sel): that costs less than gathering every column they
** read. */
static int agg_view(struct agg_op *g, struct chv_batch *inb,
                    struct chv_batch *view, const struct chv_batch *bt,
                    const uint32_t *sel, int64_t n, const uint32_t **vsel,
                    struct chv_error *err) {
  bool borrow = !sel || g->plain || (g->total && 2 * n >= bt->nrows);
  for (int i = 0; i < g->ncol; i++) {
    if (borrow && g->inx[i]->kind == CHV_EXPR_COLUMN) {
      view->cols[i] = bt->cols[g->inx[i]->column];
      continue;
    }
    CHV_RETURN_IF_ERR(chv_expr_eval(g->inx[i], bt, borrow ? NULL : sel,
                                    borrow ? bt->nrows : n, inb->cols[i],
                                    err));
    view->cols[i] = inb->cols[i];
  }
  view->nrows = borrow ? bt->nrows : n;
  *vsel = borrow ? sel : NULL;
  return CHV_OK;
}

/* The inputs of rows sel[0, n) of bt into h, or, spilling, to the
** partitions those of groups h does not hold (shared: from a reader
** thread); h passing the bound sets spilling. */
static int agg_rows(struct agg_op *g, chv_hash_agg *h, struct chv_batch *inb,
                    struct chv_batch *view, const struct chv_batch *bt,
                    const uint32_t *sel, int64_t n, struct chv_error *err) {
  const uint32_t *vsel;
  CHV_RETURN_IF_ERR(agg_view(g, inb, view, bt, sel, n, &vsel, err));
  if (__atomic_load_n(&g->spilling, __ATOMIC_RELAXED))
    return agg_rows_known(g, h, &g->top, agg_staged(g), view, vsel,
                          n, err);
  CHV_RETURN_IF_ERR(chv_hash_agg_add(h, view, vsel, n, err));
  agg_check_bound(g, h);
  return CHV_OK;
}

static int stage_agg_add(struct stage *g, struct stage_state *st,
                         const struct chv_batch *bt, const uint32_t *rows,
                         int64_t n, struct chv_error *err) {
  struct agg_op *ag = g->ag;
  if (!st->h) {
    CHV_RETURN_IF_ERR(chv_hash_agg_open(ag->in_type, &ag->spec, &st->h, err));
    CHV_RETURN_IF_ERR(chv_batch_open(ag->in_type, 0, &st->inb, err));
    st->aview = *st->inb;
    st->aview.cols = calloc((size_t)ag->ncol + 1, sizeof *st->aview.cols);
    if (!st->aview.cols) return oom(err);
  }
  return agg_rows(ag, st->h, st->inb, &st->aview, bt, rows, n, err);
}

static int stage_agg_merge(struct stage *g, struct stage_state *st,
                           struct chv_error *err) {
  /* the partials of the splits read before spilling began merge whole */
  if (!st->h) return CHV_OK;
  if (g->ag->spec.nkeys && chv_hash_agg_ngroups(g->ag->h) == 0) {
    /* the first partial becomes the operator's (the same spec), whole;
    ** under the lock of the spilling rows, which read the pointer */
    pthread_mutex_lock(&g->ag->mu);
    chv_hash_agg *t = g->ag->h;
    g->ag->h = st->h;
    st->h = t;
    pthread_mutex_unlock(&g->ag->mu);
  } else {
    CHV_RETURN_IF_ERR(chv_hash_agg_merge(g->ag->h, st->h, err));
  }
  agg_check_bound(g->ag, g->ag->h);
  return CHV_OK;
}

/* The seed groups of the node (an empty grouping set's, there also for no
** input), added once the input ended when no row made them. */
static int agg_seed(struct agg_op *g, struct chv_error *err) {
  const struct sql_node *nd = g->op.node;
  int nk = nd->u.agg.nkeys;
  struct chv_batch *sb;
  CHV_RETURN_IF_ERR(chv_batch_open(g->in_type, 1, &sb, err));
  struct chv_batch one = {.nrows = 1}; /* the constants read nothing */
  int rc = CHV_OK;
  for (int s = 0; s < nd->u.agg.nseeds && rc == CHV_OK; s++) {
    for (int c = 0; c < g->ncol && rc == CHV_OK; c++) {
      if (c < nk)
        rc = chv_expr_eval(nd->u.agg.seeds[s * nk + c], &one, NULL, 1,
                           sb->cols[c], err);
      else
        rc = chv_expr_eval(&(struct chv_expr){.kind = CHV_EXPR_LITERAL,
                                              .type = sb->cols[c]->type,
                                              .value = {.is_null = true}},
                           &one, NULL, 1, sb->cols[c], err);
    }
    sb->nrows = 1;
    if (rc == CHV_OK) rc = chv_hash_agg_touch(g->h, sb, 0, err);
  }
  chv_batch_close(sb);
  return rc;
}

/* Reader threads spilled the rows of groups their split's partial did
** not hold, some of which the partials merged into h hold: those rows go
** into h now, and the partitions keep only groups h does not hold (so
** that no group is given twice). */
static int agg_filter_top(struct agg_op *g, struct chv_error *err) {
  struct agg_level lv = {.level = 0};
  int rc = CHV_OK;
  if (!g->pb) rc = chv_batch_open(g->in_type, 0, &g->pb, err);
  for (int p = 0; p < AGG_PARTS && rc == CHV_OK; p++) {
    if (!g->top.f[p]) continue;
    rc = sql_spill_rewind(g->top.f[p], err);
    while (rc == CHV_OK) {
      int64_t n = 0;
      rc = sql_exec_cancelled(g->op.x, err);
      if (rc == CHV_OK)
        rc = sql_spill_read(g->top.f[p], g->pb->cols, g->ncol, &n, err);
      if (rc != CHV_OK || n == 0) break;
      g->pb->nrows = n;
      rc = agg_rows_known(g, g->h, &lv, false, g->pb, NULL, n, err);
    }
    sql_spill_close(g->top.f[p]);
    g->top.f[p] = NULL;
  }
  for (int p = 0; p < AGG_PARTS; p++) {
    if (rc == CHV_OK) {
      g->top.f[p] = lv.f[p];
    } else {
      sql_spill_close(lv.f[p]);
    }
  }
  return rc;
}

/* Aggregates the next waiting partition alone into g->rb: its rows into a
** fresh aggregate until that passes the bound, then those of groups it
** does not hold to the partitions of the next level (a different hash). */
static int agg_part_run(struct agg_op *g, struct chv_error *err) {
  /* the last pushed first (depth first): the files open at once stay
  ** within AGG_PARTS a level */
  struct agg_part pt = g->parts[--g->nparts];
  struct agg_level lv = {.level = pt.level + 1};
  int rc = CHV_OK;
  bool over = false;
  chv_hash_agg *h = g->h; /* empty: the one the groups in memory left */
  if (!g->pb) rc = chv_batch_open(g->in_type, 0, &g->pb, err);
  while (rc == CHV_OK) {
    int64_t n = 0;
    rc = sql_exec_cancelled(g->op.x, err);
    if (rc == CHV_OK) rc = sql_spill_read(pt.f, g->pb->cols, g->ncol, &n, err);
    if (rc != CHV_OK || n == 0) break;
    g->pb->nrows = n;
    if (over) {
      rc = agg_rows_known(g, h, &lv, false, g->pb, NULL, n, err);
      continue;
    }
    rc = chv_hash_agg_add(h, g->pb, NULL, n, err);
    if (rc == CHV_OK && chv_hash_agg_memory(h) > g->bound) {
      if (lv.level >= AGG_MAX_LEVEL)
        rc = chv_error_set(err, CHV_ENOMEM,
                           "hash aggregation (GROUP BY): its groups pass its "
                           "memory limit of %zu bytes after %d levels of "
                           "partitions (%zu bytes for %lld groups; see "
                           "chive.exec.operator-memory)",
                           g->bound, AGG_MAX_LEVEL, chv_hash_agg_memory(h),
                           (long long)chv_hash_agg_ngroups(h));
      over = true;
    }
  }
  sql_spill_close(pt.f);
  for (int p = 0; p < AGG_PARTS; p++) {
    if (!lv.f[p]) continue;
    if (rc == CHV_OK) rc = sql_spill_rewind(lv.f[p], err);
    if (rc == CHV_OK)
      rc = agg_part_push(g, lv.f[p], lv.level, err);
    else
      sql_spill_close(lv.f[p]);
  }
  if (rc != CHV_OK) return rc;
  chv_batch_close(g->rb);
  g->rb = NULL;
  chv_hash_agg_close(g->rh); /* the schema of the batch given last */
  g->rh = NULL;
  CHV_RETURN_IF_ERR(chv_hash_agg_result(h, &g->rb, err));
  g->rh = h;
  g->h = NULL;
  return chv_hash_agg_open(g->in_type, &g->spec, &g->h, err);
}

static int agg_next(struct sql_op *op, struct sql_chunk *out,
                    struct chv_error *err) {
  struct agg_op *g = (struct agg_op *)op;
  out->b = NULL;
  out->sel = NULL;
  int rc = CHV_OK;
  while (!g->done) {
    struct sql_chunk in;
    rc = sql_op_next(op->in[0], &in, err);
    if (rc != CHV_OK) return rc;
    if (!in.b) {
      g->done = true;
      break;
    }
    if (agg_staged(g)) continue; /* the stage aggregates */
    int64_t t0 = op->x->analyze ? sql_exec_now() : 0;
    rc = agg_rows(g, g->h, g->inb, &g->view, in.b, in.sel, in.n, err);
    if (op->x->analyze) sql_op_count(op, 0, sql_exec_now() - t0);
    if (rc != CHV_OK) return rc;
  }
  if (!g->given) {
    g->given = true;
    int64_t t0 = op->x->analyze ? sql_exec_now() : 0;
    /* spilling, some row came: the seed groups (grouping sets' grand
    ** totals, which every row enters) have their rows already */
    if (op->node->u.agg.nseeds && !g->spilling)
      CHV_RETURN_IF_ERR(agg_seed(g, err));
    if (g->spilling && agg_staged(g))
      CHV_RETURN_IF_ERR(agg_filter_top(g, err));
    rc = chv_hash_agg_result(g->h, &g->rb, err);
    if (rc != CHV_OK) return rc;
    for (int p = 0; p < AGG_PARTS && rc == CHV_OK; p++) {
      if (!g->top.f[p]) continue;
      rc = sql_spill_rewind(g->top.f[p], err);
      if (rc == CHV_OK) rc = agg_part_push(g, g->top.f[p], 0, err);
      g->top.f[p] = NULL;
    }
    if (rc != CHV_OK) return rc;
    /* rb's schema is h's: h is kept until rb is given; a fresh one takes
    ** the partitions */
    if (g->nparts > 0) {
      g->rh = g->h;
      g->h = NULL;
      CHV_RETURN_IF_ERR(chv_hash_agg_open(g->in_type, &g->spec, &g->h, err));
    }
    if (op->x->analyze) sql_op_count(op, g->rb->nrows, sql_exec_now() - t0);
    if (g->rb->nrows) {
      *out = (struct sql_chunk){g->rb, NULL, g->rb->nrows};
      return CHV_OK;
    }
  }
  while (g->at < g->nparts) { /* the partitions, one at a time */
    int64_t t0 = op->x->analyze ? sql_exec_now() : 0;
    CHV_RETURN_IF_ERR(agg_part_run(g, err));
    if (op->x->analyze) sql_op_count(op, g->rb->nrows, sql_exec_now() - t0);
    if (g->rb->nrows) {
      *out = (struct sql_chunk){g->rb, NULL, g->rb->nrows};
      return CHV_OK;
    }
  }
  return CHV_OK;
}

static void agg_close(struct sql_op *op) {
  struct agg_op *g = (struct agg_op *)op;
  for (int p = 0; p < AGG_PARTS; p++) sql_spill_close(g->top.f[p]);
  for (int i = g->at; i < g->nparts; i++) sql_spill_close(g->parts[i].f);
  free(g->parts);
  chv_batch_close(g->pb);
  chv_buf_free(&g->kb);
  if (g->mu_init) pthread_mutex_destroy(&g->mu);
  chv_batch_close(g->rb);
  chv_hash_agg_close(g->rh);
  chv_hash_agg_close(g->h);
  chv_batch_close(g->inb);
  free(g->view.cols);
  free(g->inx);
  free(g->key_cols);
  free(g->agg_cols);
  chv_type_free(g->in_type);
}

static const struct sql_op_vt agg_vt = {agg_open, agg_next, agg_close};

/* ---- Limit, Union All, Derived ------------------------------------------------- */

struct limit_op {
  struct sql_op op;
  int64_t left;                /* rows still to give; < 0: all */
  int64_t skip;                /* rows of the OFFSET still to skip */
  struct sql_sel sel;          /* a chunk's rows past the offset */
};

static int limit_open(struct sql_op *op, struct chv_error *err) {
  (void)err;
  struct limit_op *l = (struct limit_op *)op;
  l->left = op->node->u.limit.n;
  l->skip = op->node->u.limit.offset;
  return CHV_OK;
}

static int limit_next(struct sql_op *op, struct sql_chunk *out,
                      struct chv_error *err) {
  struct limit_op *l = (struct limit_op *)op;
  out->b = NULL;
  while (l->left != 0) {
    int rc = sql_op_next(op->in[0], out, err);
    if (rc != CHV_OK || !out->b) return rc;
    if (l->skip >= out->n) { /* all of it skipped */
      l->skip -= out->n;
      continue;
    }
    if (l->skip) { /* the rows past the offset */
      int64_t k = out->n - l->skip;
      CHV_RETURN_IF_ERR(sql_sel_reserve(&l->sel, k, err));
      for (int64_t i = 0; i < k; i++)
        l->sel.sel[i] = out->sel ? out->sel[l->skip + i]
                                 : (uint32_t)(l->skip + i);
      out->sel = l->sel.sel;
      out->n = k;
      l->skip = 0;
    }
    if (l->left > 0 && out->n > l->left) out->n = l->left;
    if (l->left > 0) l->left -= out->n;
    if (op->x->analyze) sql_op_count(op, out->n, 0);
    return CHV_OK;
  }
  out->b = NULL;
  return CHV_OK;
}

static void limit_close(struct sql_op *op) {
  free(((struct limit_op *)op)->sel.sel);
}

static const struct sql_op_vt limit_vt = {limit_open, limit_next,
                                          limit_close};

struct union_op {
  struct sql_op op;
  int at;
};

static int union_next(struct sql_op *op, struct sql_chunk *out,
                      struct chv_error *err) {
  struct union_op *u = (struct union_op *)op;
  out->b = NULL;
  while (u->at < op->nin) {
    int rc = sql_op_next(op->in[u->at], out, err);
    if (rc != CHV_OK) return rc;
    if (out->b) {
      if (op->x->analyze) sql_op_count(op, out->n, 0);
      return CHV_OK;
    }
    u->at++;
  }
  return CHV_OK;
}

static const struct sql_op_vt union_vt = {NULL, union_next, NULL};

struct derived_op {
  struct sql_op op;
  struct chv_batch view;
};

static int derived_open(struct sql_op *op, struct chv_error *err) {
  struct derived_op *d = (struct derived_op *)op;
  d->view.cols = calloc((size_t)op->node->ncols + 1, sizeof *d->view.cols);
  d->view.ncols = op->node->ncols;
  return d->view.cols ? CHV_OK : oom(err);
}

static int derived_next(struct sql_op *op, struct sql_chunk *out,
                        struct chv_error *err) {
  struct derived_op *d = (struct derived_op *)op;
  struct sql_chunk in;
  int rc = sql_op_next(op->in[0], &in, err);
  out->b = NULL;
  if (rc != CHV_OK || !in.b) return rc;
  for (int c = 0; c < d->view.ncols; c++)
    d->view.cols[c] = in.b->cols[op->node->u.derived.map[c]];
  d->view.nrows = in.b->nrows;
  *out = (struct sql_chunk){&d->view, in.sel, in.n};
  if (op->x->analyze) sql_op_count(op, in.n, 0);
  return CHV_OK;
}

static void derived_close(struct sql_op *op) {
  free(((struct derived_op *)op)->view.cols);
}

static const struct sql_op_vt derived_vt = {derived_open, derived_next,
                                            derived_close};

/* ---- Sink ---------------------------------------------------------------------- */

struct sink_op {
  struct sql_op op;
  struct chv_type *schema;
  struct chv_batch *ob;        /* a chunk's selected rows, densely */
};

static int sink_next(struct sql_op *op, struct sql_chunk *out,
                     struct chv_error *err) {
  struct sink_op *s = (struct sink_op *)op;
  out->b = NULL;
  out->sel = NULL;
  for (;;) {
    struct sql_chunk in;
    CHV_RETURN_IF_ERR(sql_op_next(op->in[0], &in, err));
    if (!in.b) return CHV_OK;
    if (op->node->on_readers) continue; /* written by the stage */
    int64_t t0 = op->x->analyze ? sql_exec_now() : 0;
    struct chv_batch *b = in.b;
    if (in.sel || b->nrows != in.n) {
      if (!s->schema) CHV_RETURN_IF_ERR(sql_node_schema(op->node, &s->schema, err));
      if (!s->ob) CHV_RETURN_IF_ERR(chv_batch_open(s->schema, in.n, &s->ob, err));
      CHV_RETURN_IF_ERR(gather_rows(b, b->ncols, in.sel, in.n, s->ob, err));
      b = s->ob;
    }
    struct chv_batch view = *b; /* on the target's columns */
    view.schema = op->node->u.sink.schema;
    int rc = op->x->sink->write(op->node->u.sink.target, &view, in.n, err);
    if (op->x->analyze)
      sql_op_count(op, rc == CHV_OK ? in.n : 0, sql_exec_now() - t0);
    if (rc != CHV_OK) return rc;
  }
}

static void sink_close(struct sql_op *op) {
  struct sink_op *s = (struct sink_op *)op;
  chv_batch_close(s->ob);
  chv_type_free(s->schema);
}

static const struct sql_op_vt sink_vt = {NULL, sink_next, sink_close};

/* ---- Repeat ------------------------------------------------------------------- */

/* Each input row as many times as its last column says (none for 0 or
** NULL), the other columns given densely, 2,048 rows a chunk. */
struct repeat_op {
  struct sql_op op;
  struct chv_type *schema;
  struct chv_batch *ob;
  struct sql_chunk in;         /* the input chunk being repeated */
  int64_t at, left;            /* its row at (of in.n), copies still due */
  struct sql_sel sel;
};

static int repeat_open(struct sql_op *op, struct chv_error *err) {
  struct repeat_op *r = (struct repeat_op *)op;
  CHV_RETURN_IF_ERR(sql_node_schema(op->node, &r->schema, err));
  CHV_RETURN_IF_ERR(chv_batch_open(r->schema, 2048, &r->ob, err));
  return sql_sel_reserve(&r->sel, 2048, err);
}

static int repeat_next(struct sql_op *op, struct sql_chunk *out,
                       struct chv_error *err) {
  struct repeat_op *r = (struct repeat_op *)op;
  int nc = op->node->ncols;
  int64_t n = 0;
  out->b = NULL;
  while (n < 2048) {
    if (!r->in.b || (r->at >= r->in.n && r->left == 0)) {
      if (n) break; /* give what is gathered first: its rows are in.b's */
      CHV_RETURN_IF_ERR(sql_op_next(op->in[0], &r->in, err));
      if (!r->in.b) return CHV_OK;
      r->at = 0;
      r->left = 0;
      continue;
    }
    if (r->left == 0) {
      uint32_t row = r->in.sel ? r->in.sel[r->at] : (uint32_t)r->at;
      const struct chv_vector *cv = r->in.b->cols[nc];
      r->left = chv_vector_is_null(cv, row) ? 0
                                            : ((const int64_t *)cv->data)[row];
      if (r->left < 0) r->left = 0;
      r->at++;
      if (r->left == 0) continue;
    }
    uint32_t row = r->in.sel ? r->in.sel[r->at - 1] : (uint32_t)(r->at - 1);
    while (r->left > 0 && n < 2048) {
      r->sel.sel[n++] = row;
      r->left--;
    }
  }
  CHV_RETURN_IF_ERR(gather_rows(r->in.b, nc, r->sel.sel, n, r->ob, err));
  *out = (struct sql_chunk){r->ob, NULL, n};
  if (op->x->analyze) sql_op_count(op, n, 0);
  return CHV_OK;
}

static void repeat_close(struct sql_op *op) {
  struct repeat_op *r = (struct repeat_op *)op;
  chv_batch_close(r->ob);
  chv_type_free(r->schema);
  free(r->sel.sel);
}

static const struct sql_op_vt repeat_vt = {repeat_open, repeat_next,
                                           repeat_close};

/* ---- Expand ------------------------------------------------------------------- */

/* Each input chunk once per grouping set (the sets in order), densely;
** in the stage of a scan (on_readers) it only passes on what the stage
** gives. */
struct expand_op {
  struct sql_op op;
  struct expand_state es;
  const struct chv_batch *in;  /* the chunk being expanded, densely */
  int64_t n;
  int set;                     /* the next set of it */
};

static int expand_open(struct sql_op *op, struct chv_error *err) {
  struct expand_op *e = (struct expand_op *)op;
  if (op->node->on_readers) return CHV_OK;
  return expand_state_init(op->node, &e->es, err);
}

static int expand_next(struct sql_op *op, struct sql_chunk *out,
                       struct chv_error *err) {
  struct expand_op *e = (struct expand_op *)op;
  const struct sql_node *nd = op->node;
  if (nd->on_readers) return sql_op_next(op->in[0], out, err);
  out->b = NULL;
  while (!e->in || e->set >= nd->u.expand.nsets) {
    struct sql_chunk in;
    CHV_RETURN_IF_ERR(sql_op_next(op->in[0], &in, err));
    if (!in.b) return CHV_OK;
    if (in.n == 0) continue;
    CHV_RETURN_IF_ERR(expand_input(nd, &e->es, in.b, in.sel, in.n, &e->in,
                                   err));
    e->n = in.n;
    e->set = 0;
  }
  int64_t t0 = op->x->analyze ? sql_exec_now() : 0;
  CHV_RETURN_IF_ERR(expand_set(nd, &e->es, e->in, e->n, e->set++, err));
  *out = (struct sql_chunk){&e->es.view, NULL, e->n};
  if (op->x->analyze) sql_op_count(op, e->n, sql_exec_now() - t0);
  return CHV_OK;
}

static void expand_close(struct sql_op *op) {
  expand_state_free(&((struct expand_op *)op)->es);
}

static const struct sql_op_vt expand_vt = {expand_open, expand_next,
                                           expand_close};

/* ---- Multi and Tee: one source, several branches --------------------------------- */

/* The Multi operator reads its source a chunk at a time and hands each
** chunk to every branch: the branch's Tee gives it once, then nothing
** ("no more for now"), so the branch's Sink returns once it has written
** what the chunk gave.  Branches are streaming (Filter, Project, Limit,
** Sink); at the source's end the Tees end too. */
struct multi_op {
  struct sql_op op;
  struct sql_chunk cur;        /* what the Tees give; b NULL: nothing */
  bool ended;
};

struct tee_op {
  struct sql_op op;
  struct multi_op *m;
  const struct sql_chunk *given; /* the chunk given last */
};

/* True when nothing the branch below op can still write: a Limit reached. */
static bool branch_done(const struct sql_op *op) {
  while (op && op->node->kind != SQL_NODE_TEE) {
    if (op->node->kind == SQL_NODE_LIMIT)
      return ((const struct limit_op *)op)->left == 0;
    op = op->nin ? op->in[0] : NULL;
  }
  return false;
}

static int multi_next(struct sql_op *op, struct sql_chunk *out,
                      struct chv_error *err) {
  struct multi_op *m = (struct multi_op *)op;
  int nb = op->nin - 1;
  out->b = NULL;
  while (!m->ended) {
    bool more = false;
    for (int i = 0; i < nb; i++) more |= !branch_done(op->in[i]);
    if (!more) break; /* every branch's LIMIT is reached */
    CHV_RETURN_IF_ERR(sql_op_next(op->in[nb], &m->cur, err));
    if (!m->cur.b) break;
    for (int i = 0; i < nb; i++) {
      struct sql_chunk none;
      if (!branch_done(op->in[i]))
        CHV_RETURN_IF_ERR(sql_op_next(op->in[i], &none, err));
    }
  }
  m->ended = true;
  m->cur.b = NULL;
  return CHV_OK;
}

static const struct sql_op_vt multi_vt = {NULL, multi_next, NULL};

static int tee_next(struct sql_op *op, struct sql_chunk *out,
                    struct chv_error *err) {
  (void)err;
  struct tee_op *t = (struct tee_op *)op;
  out->b = NULL;
  if (!t->m->cur.b || t->given == &t->m->cur) {
    t->given = NULL; /* the next chunk of the source is new again */
    return CHV_OK;
  }
  *out = t->m->cur;
  t->given = &t->m->cur;
  if (op->x->analyze) sql_op_count(op, out->n, 0);
  return CHV_OK;
}

static const struct sql_op_vt tee_vt = {NULL, tee_next, NULL};

/* ---- the tree ------------------------------------------------------------------ */

static int op_new(struct sql_exec *x, const struct sql_node *nd,
                  struct sql_op **out, struct chv_error *err) {
  size_t size;
  const struct sql_op_vt *vt;
  switch (nd->kind) {
  case SQL_NODE_SCAN: size = sizeof(struct scan_op); vt = &scan_vt; break;
  case SQL_NODE_VALUES: size = sizeof(struct values_op); vt = &values_vt; break;
  case SQL_NODE_FILTER: size = sizeof(struct filter_op); vt = &filter_vt; break;
  case SQL_NODE_PROJECT:
    size = sizeof(struct project_op);
    vt = &project_vt;
    break;
  case SQL_NODE_AGGREGATE: size = sizeof(struct agg_op); vt = &agg_vt; break;
  case SQL_NODE_SORT:
  case SQL_NODE_TOPN: return sql_op_sort_new(x, nd, out, err);
  case SQL_NODE_JOIN: return sql_op_join_new(x, nd, out, err);
  case SQL_NODE_WINDOW: return sql_op_window_new(x, nd, out, err);
  case SQL_NODE_LIMIT: size = sizeof(struct limit_op); vt = &limit_vt; break;
  case SQL_NODE_UNION: size = sizeof(struct union_op); vt = &union_vt; break;
  case SQL_NODE_DERIVED:
    size = sizeof(struct derived_op);
    vt = &derived_vt;
    break;
  case SQL_NODE_SINK: size = sizeof(struct sink_op); vt = &sink_vt; break;
  case SQL_NODE_MULTI: size = sizeof(struct multi_op); vt = &multi_vt; break;
  case SQL_NODE_TEE: size = sizeof(struct tee_op); vt = &tee_vt; break;
  case SQL_NODE_REPEAT:
    size = sizeof(struct repeat_op);
    vt = &repeat_vt;
    break;
  case SQL_NODE_EXPAND:
    size = sizeof(struct expand_op);
    vt = &expand_vt;
    break;
  default:
    return chv_error_set(err, CHV_ENOTSUP, "%s is not supported yet",
                         sql_node_kind_name(nd->kind));
  }
  struct sql_op *op = calloc(1, size);
  if (!op) return oom(err);
  op->vt = vt;
  op->node = nd;
  op->x = x;
  *out = op;
  return CHV_OK;
}

static int build(struct sql_exec *x, const struct sql_node *nd,
                 struct sql_op **out, struct chv_error *err) {
  struct sql_op *op = NULL;
  CHV_RETURN_IF_ERR(op_new(x, nd, &op, err));
  op->x = x;
  op->node = nd;
  x->ops[nd->id] = op;
  op->in = calloc((size_t)nd->nin + 1, sizeof *op->in);
  if (!op->in) return oom(err);
  op->nin = nd->nin;
  for (int i = 0; i < nd->nin; i++)
    CHV_RETURN_IF_ERR(build(x, nd->in[i], &op->in[i], err));
  *out = op;
  return CHV_OK;
}

/* The stage of scan s: its on_readers nodes' operators, and the
** projection it hands back (a Filter's alone: each column as read). */
static int stage_init(struct sql_exec *x, struct scan_op *s,
                      struct chv_error *err) {
  const struct sql_node *nd = s->op.node;
  struct stage *g = &s->stage;
  g->scan = &s->op;
  g->analyze = x->analyze;
  for (int i = 0; i < nd->u.scan.nstage; i++) {
    struct sql_op *op = x->ops[nd->u.scan.stage[i]->id];
    switch (op->node->kind) {
    case SQL_NODE_FILTER:
      g->filt = op;
      g->pred = op->node->u.filter.pred;
      break;
    case SQL_NODE_PROJECT:
      if (g->nsteps) { /* over a join: a step of its own */
        CHV_RETURN_IF_ERR(sql_node_schema(op->node, &g->step_schema[g->nsteps], err));
        g->steps[g->nsteps++] = op;
        break;
      }
      g->proj = op;
      g->ex = op->node->u.project.exprs;
      g->nout = op->node->ncols;
      break;
    case SQL_NODE_AGGREGATE:
      g->agg = op;
      g->ag = (struct agg_op *)op;
      break;
    case SQL_NODE_SINK: g->sink = op; break;
    case SQL_NODE_EXPAND: g->expand = op; break;
    case SQL_NODE_JOIN: g->steps[g->nsteps++] = op; break;
    default:
      return chv_error_set(err, CHV_EINTERNAL, "%s in a scan's stage",
                           sql_node_kind_name(op->node->kind));
    }
  }
  if (!g->proj && (!g->agg || g->nsteps)) { /* a Filter alone: its rows */
    g->nout = nd->ncols;
    s->ident = calloc((size_t)g->nout + 1, sizeof *s->ident);
    s->identp = calloc((size_t)g->nout + 1, sizeof *s->identp);
    if (!s->ident || !s->identp) return oom(err);
    for (int c = 0; c < g->nout; c++) {
      s->ident[c] = (struct chv_expr){.kind = CHV_EXPR_COLUMN, .column = c,
                                      .type = nd->cols[c].type};
      s->identp[c] = &s->ident[c];
    }
    g->ex = s->identp;
  }
  if (g->sink) {
    g->out_schema = g->sink->node->u.sink.schema;
  } else if (!g->agg || g->nsteps) {
    const struct sql_node *top = g->proj ? g->proj->node : nd;
    CHV_RETURN_IF_ERR(sql_node_schema(top, &s->stage_schema, err));
    g->out_schema = s->stage_schema;
  }
  s->hook = (struct chv_scan_hook){g, stage_batch, stage_done};
  return CHV_OK;
}

int sql_exec_build(struct sql_exec *x, const struct sql_node *root,
                   struct sql_op **out, struct chv_error *err) {
  x->nops = sql_node_number((struct sql_node *)root);
  x->ops = calloc((size_t)x->nops + 1, sizeof *x->ops);
  if (!x->ops) return oom(err);
  struct sql_op *r = NULL;
  CHV_RETURN_IF_ERR(build(x, root, &r, err));
  x->threads = 1;
  for (int i = 0; i < x->nops; i++)
    if (x->ops[i] && x->ops[i]->vt == &scan_vt)
      x->threads = CHV_MAX(x->threads, x->ops[i]->node->u.scan.threads);
  for (int i = 0; i < x->nops; i++) {
    if (x->ops[i] && x->ops[i]->vt == &scan_vt &&
        x->ops[i]->node->u.scan.nstage)
      CHV_RETURN_IF_ERR(stage_init(x, (struct scan_op *)x->ops[i], err));
    if (x->ops[i] && x->ops[i]->vt == &tee_vt)
      ((struct tee_op *)x->ops[i])->m =
          (struct multi_op *)x->ops[x->ops[i]->node->u.tee.multi->id];
  }
  *out = r;
  return CHV_OK;
}

void sql_exec_free(struct sql_exec *x) {
  if (!x->ops) return;
  /* the scans first: their reader threads run the stages, which use the
  ** operators above */
  for (int i = 0; i < x->nops; i++)
    if (x->ops[i] && x->ops[i]->vt == &scan_vt && x->ops[i]->vt->close) {
      x->ops[i]->vt->close(x->ops[i]);
      x->ops[i]->vt = NULL;
    }
  for (int i = 0; i < x->nops; i++) {
    struct sql_op *op = x->ops[i];
    if (!op) continue;
    if (op->vt && op->vt->close) op->vt->close(op);
    free(op->in);
    free(op);
  }
  free(x->ops);
  x->ops = NULL;
  x->nops = 0;
}

static int failed(struct sql_op *op, int rc) {
  if (rc != CHV_OK && !op->x->failed) op->x->failed = op;
  return rc;
}

/* An operator opens before its inputs: a scan's reader threads start as
** it opens, and the stage they run uses the operators above. */
int sql_op_open(struct sql_op *op, struct chv_error *err) {
  if (op->opened) return CHV_OK;
  op->opened = true;
  CHV_RETURN_IF_ERR(failed(op, op->vt->open ? op->vt->open(op, err) : CHV_OK));
  for (int i = 0; i < op->nin; i++)
    CHV_RETURN_IF_ERR(sql_op_open(op->in[i], err));
  return CHV_OK;
}

int sql_op_next(struct sql_op *op, struct sql_chunk *out,
                struct chv_error *err) {
  out->b = NULL;
  out->sel = NULL;
  out->n = 0;
  CHV_RETURN_IF_ERR(sql_exec_cancelled(op->x, err));
  return failed(op, op->vt->next(op, out, err));
}
