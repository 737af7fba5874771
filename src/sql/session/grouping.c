/*
** sql/session/grouping: GROUP BY with GROUPING SETS, ROLLUP, CUBE and (),
** and the functions of its groups, GROUPING() and Hive's GROUPING__ID.
**
** A query's grouping sets are those of its GROUP BY's elements crossed
** (the SQL standard's and Flink's meaning: GROUP BY a, ROLLUP (b, c) is
** GROUPING SETS ((a, b, c), (a, b), (a))), or in Hive's forms those of
** WITH ROLLUP, WITH CUBE or GROUPING SETS (...) over the keys listed
** before it.  The keys are the distinct GROUP BY expressions, in the order
** first written.  The plan is one Aggregate over an Expand node:
**
**   Aggregate (keys, GROUPING__ID [, $set]) <- Expand <- [Filter] <- input
**
** The Expand gives each input row once per set: the input's columns (the
** aggregates read them: a rolled-up key still counts in COUNT(key)), the
** keys with those the set leaves out NULL, the set's GROUPING__ID and,
** when a set is repeated, which repetition it is (repeated sets give
** repeated rows).  The id tells a NULL of the data from one of a rolled-up
** key, which GROUPING() reads.
**
** GROUPING__ID is Hive's since 2.3 (HIVE-16102), the bits of GROUPING()
** over every key: key k of n is bit n-1-k, 1 when the set leaves it out
** (GROUP BY a, b WITH ROLLUP gives 0, 1 and 3).  GROUPING(x, y, ...) is
** those bits of its arguments, the first the most significant.  Both are
** BIGINT (Hive's current GROUPING__ID; GROUPING in Flink and DuckDB).
**
** INTERFACE
**   sql_grouping_sets()    the keys and sets of a query's GROUP BY
**   sql_grouping_expand()  the Expand node and the Aggregate's seeds
**   sql_grouping_bind()    GROUPING() and GROUPING__ID over the groups
*/
#include "sql/session/session_int.h"

#include <string.h>
#include <strings.h>

/* Sets a query may expand into (CUBE of 12 keys), and its keys: the
** Aggregate takes 64 keys, one of them the id, and the id's bits fit a
** BIGINT. */
#define MAX_SETS 4096
#define MAX_KEYS 63

static int oom(struct chv_error *err) {
  return sql_err(err, CHV_ENOMEM, "out of memory");
}


/* The key whose qualified text is qtext, or -1. */
static int key_of(const struct sql_grouping *g, const char *qtext) {
  for (int k = 0; k < g->nkeys; k++)
    if (!strcmp(g->key_qtext[k], qtext)) return k;
  return -1;
}

/* e as a key of g: the one of its text, or a new one (add). */
static int add_key(chv_arena *a, struct sql_grouping *g,
                   const struct chv_sql_expr *e, bool add, int *out,
                   struct chv_sql_pos *pos, struct chv_error *err) {
  const char *t = sql_expr_text_in(a, e);
  const char *qt = sql_expr_text_qualified_in(a, e);
  if (!t || !qt) return oom(err);
  *out = key_of(g, qt);
  if (*out >= 0) return CHV_OK;
  *pos = e->pos;
  if (!add)
    return sql_err(err, CHV_EINVAL, "grouping set expression %s is not in "
                   "GROUP BY", t);
  if (g->nkeys == MAX_KEYS)
    return sql_err(err, CHV_ENOTSUP, "GROUP BY with grouping sets takes at "
                   "most %d expressions", MAX_KEYS);
  g->keys[g->nkeys] = e;
  g->key_text[g->nkeys] = t;
  g->key_qtext[g->nkeys] = qt;
  *out = g->nkeys++;
  return CHV_OK;
}

/* The keys set names, as bits (key k: bit k). */
static int set_bits(chv_arena *a, struct sql_grouping *g,
                    const struct chv_sql_query *q,
                    const struct chv_sql_grouping_set *set, bool add,
                    uint64_t *out, struct chv_sql_pos *pos,
                    struct chv_error *err) {
  uint64_t m = 0;
  for (size_t i = 0; i < set->n; i++) {
    int k;
    CHV_RETURN_IF_ERR(add_key(a, g, q->group_by[set->keys[i]], add, &k, pos,
                              err));
    m |= (uint64_t)1 << k;
  }
  *out = m;
  return CHV_OK;
}

/* The sets of element el, as bits of the keys each holds, into *out (*n
** of them; the arena).  Hive's WITH ROLLUP and WITH CUBE take the keys
** 0..nkeys as their items. */
static int elem_sets(chv_arena *a, struct sql_grouping *g,
                     const struct chv_sql_query *q,
                     const struct chv_sql_group_elem *el, bool add,
                     uint64_t **out, size_t *n, struct chv_sql_pos *pos,
                     struct chv_error *err) {
  size_t ni = el->nsets;
  bool keys = el->kind == CHV_SQL_GROUP_WITH_ROLLUP ||
              el->kind == CHV_SQL_GROUP_WITH_CUBE;
  if (keys) ni = (size_t)g->nkeys;
  uint64_t *items = chv_arena_alloc(a, sizeof *items * (ni + 1));
  if (!items) return oom(err);
  for (size_t i = 0; i < ni; i++) {
    if (keys)
      items[i] = (uint64_t)1 << i;
    else
      CHV_RETURN_IF_ERR(set_bits(a, g, q, &el->sets[i], add, &items[i], pos,
                                 err));
  }
  bool cube = el->kind == CHV_SQL_GROUP_CUBE ||
              el->kind == CHV_SQL_GROUP_WITH_CUBE;
  bool rollup = el->kind == CHV_SQL_GROUP_ROLLUP ||
                el->kind == CHV_SQL_GROUP_WITH_ROLLUP;
  size_t ns = ni;
  if (rollup) ns = ni + 1;
  if (cube) {
    *pos = el->pos;
    if (ni > 12)
      return sql_err(err, CHV_ENOTSUP, "CUBE of %zu items gives more than %d "
                     "grouping sets", ni, MAX_SETS);
    ns = (size_t)1 << ni;
  }
  uint64_t *sets = chv_arena_alloc(a, sizeof *sets * (ns + 1));
  if (!sets) return oom(err);
  for (size_t s = 0; s < ns; s++) {
    uint64_t m = 0;
    if (rollup) { /* the first ni - s items */
      for (size_t i = 0; i + s < ni; i++) m |= items[i];
    } else if (cube) { /* item i when bit ni-1-i of its complement is set */
      size_t inv = ns - 1 - s;
      for (size_t i = 0; i < ni; i++)
        if (inv >> (ni - 1 - i) & 1) m |= items[i];
    } else {
      m = items[s];
    }
    sets[s] = m;
  }
  *out = sets;
  *n = ns;
  return CHV_OK;
}

int sql_grouping_sets(chv_arena *a, const struct chv_sql_query *q,
                      struct sql_grouping *g, struct chv_sql_pos *pos,
                      struct chv_error *err) {
  memset(g, 0, sizeof *g);
  g->keys = chv_arena_alloc(a, sizeof *g->keys * (q->ngroup_by + 1));
  g->key_text = chv_arena_alloc(a, sizeof *g->key_text * (q->ngroup_by + 1));
  g->key_qtext =
      chv_arena_alloc(a, sizeof *g->key_qtext * (q->ngroup_by + 1));
  if (!g->keys || !g->key_text || !g->key_qtext) return oom(err);
  const struct chv_sql_group_elem *last = &q->group_elems[q->ngroup_elems - 1];
  bool hive = last->kind >= CHV_SQL_GROUP_WITH_ROLLUP;
  size_t nel = q->ngroup_elems - (hive ? 1 : 0);
  /* the keys: every expression of the clause (Hive: the listed ones) */
  if (hive) {
    for (size_t i = 0; i < nel; i++) {
      int k;
      CHV_RETURN_IF_ERR(add_key(a, g, q->group_by[q->group_elems[i].sets[0]
                                                     .keys[0]],
                                true, &k, pos, err));
    }
  } else {
    for (size_t i = 0; i < q->ngroup_by; i++) {
      int k;
      CHV_RETURN_IF_ERR(add_key(a, g, q->group_by[i], true, &k, pos, err));
    }
  }
  /* the sets: the last element's (Hive), or every element's crossed */
  uint64_t *cur = chv_arena_alloc(a, sizeof *cur);
  size_t ncur = 1;
  if (!cur) return oom(err);
  cur[0] = 0;
  for (size_t i = hive ? nel : 0; i < q->ngroup_elems; i++) {
    const struct chv_sql_group_elem *el = &q->group_elems[i];
    uint64_t *es = NULL;
    size_t nes = 0;
    CHV_RETURN_IF_ERR(elem_sets(a, g, q, el, !hive, &es, &nes, pos, err));
    if (ncur * nes > MAX_SETS) {
      *pos = el->pos;
      return sql_err(err, CHV_ENOTSUP, "GROUP BY gives more than %d grouping "
                     "sets", MAX_SETS);
    }
    uint64_t *nx = chv_arena_alloc(a, sizeof *nx * (ncur * nes + 1));
    if (!nx) return oom(err);
    for (size_t x = 0; x < ncur; x++)
      for (size_t y = 0; y < nes; y++) nx[x * nes + y] = cur[x] | es[y];
    cur = nx;
    ncur *= nes;
  }
  g->nsets = (int)ncur;
  g->id = chv_arena_alloc(a, sizeof *g->id * (ncur + 1));
  g->dup = chv_arena_alloc(a, sizeof *g->dup * (ncur + 1));
  if (!g->id || !g->dup) return oom(err);
  int n = g->nkeys;
  for (size_t s = 0; s < ncur; s++) {
    uint64_t id = 0;
    for (int k = 0; k < n; k++)
      if (!(cur[s] >> k & 1)) id |= (uint64_t)1 << (n - 1 - k);
    g->id[s] = (int64_t)id;
    g->dup[s] = 0;
    for (size_t t = 0; t < s; t++)
      if (g->id[t] == g->id[s]) g->dup[s]++;
    if (g->dup[s]) g->dups = true;
  }
  if (g->dups && n == MAX_KEYS) {
    *pos = q->group_elems[0].pos;
    return sql_err(err, CHV_ENOTSUP, "GROUP BY with a repeated grouping set "
                   "takes at most %d expressions", MAX_KEYS - 1);
  }
  /* EXPLAIN: (a, b), (a), () */
  struct chv_buf t;
  chv_buf_init(&t);
  for (int s = 0; s < g->nsets; s++) {
    chv_buf_puts(&t, s ? ", (" : "(");
    int m = 0;
    for (int k = 0; k < n; k++)
      if (!(g->id[s] >> (n - 1 - k) & 1))
        chv_buf_printf(&t, "%s%s", m++ ? ", " : "", g->key_text[k]);
    chv_buf_putc(&t, ')');
  }
  char *txt = chv_arena_alloc(a, t.len + 1);
  if (txt) memcpy(txt, t.data ? t.data : "", t.len + 1);
  chv_buf_free(&t);
  if (!txt) return oom(err);
  g->text = txt;
  return CHV_OK;
}

static int bigint_lit(chv_arena *a, int64_t v, struct chv_expr **out,
                      struct chv_error *err) {
  const struct chv_type *bt = chv_exec_type(a, CHV_TYPE_BIGINT, 0, 0);
  if (!bt) return oom(err);
  struct chv_value x = {.i64 = v};
  return chv_expr_literal(a, bt, &x, out, err);
}

int sql_grouping_expand(chv_arena *a, const struct sql_grouping *g,
                        struct sql_node *in, struct chv_expr *const *keys,
                        struct sql_node **out, struct chv_expr ***seeds,
                        int *nseeds, struct chv_error *err) {
  int nin = in->ncols, nk = g->nkeys, nh = g->dups ? 2 : 1;
  int nc = nin + nk + nh;
  struct sql_node *nd;
  CHV_RETURN_IF_ERR(sql_node_new(a, SQL_NODE_EXPAND, &in, 1, &nd, err));
  CHV_RETURN_IF_ERR(sql_node_cols(a, nd, nc, err));
  const struct chv_type *bt = chv_exec_type(a, CHV_TYPE_BIGINT, 0, 0);
  const struct chv_type *it = chv_exec_type(a, CHV_TYPE_INT, 0, 0);
  struct chv_expr **ex =
      chv_arena_alloc(a, sizeof *ex * ((size_t)g->nsets * (size_t)nc + 1));
  if (!bt || !it || !ex) return oom(err);
  for (int c = 0; c < nin; c++) nd->cols[c] = in->cols[c];
  for (int k = 0; k < nk; k++)
    nd->cols[nin + k] = (struct sql_col){g->key_text[k], keys[k]->type, {0}};
  nd->cols[nin + nk] = (struct sql_col){"GROUPING__ID", bt, {0}};
  if (g->dups) nd->cols[nin + nk + 1] = (struct sql_col){"$set", it, {0}};
  /* the empty sets: a seed group each (keys NULL, then its id) */
  int64_t none = nk ? (int64_t)(UINT64_MAX >> (64 - nk)) : 0;
  int ne = 0;
  for (int s = 0; s < g->nsets; s++) ne += g->id[s] == none;
  int nak = nk + nh; /* the Aggregate's keys */
  struct chv_expr **sd = chv_arena_alloc(a, sizeof *sd * ((size_t)(ne * nak) + 1));
  if (!sd) return oom(err);
  int e = 0;
  for (int s = 0; s < g->nsets; s++) {
    struct chv_expr **row = &ex[(size_t)s * (size_t)nc];
    for (int c = 0; c < nin; c++)
      CHV_RETURN_IF_ERR(chv_expr_column(a, c, in->cols[c].type, &row[c], err));
    for (int k = 0; k < nk; k++) {
      if (!(g->id[s] >> (nk - 1 - k) & 1)) {
        row[nin + k] = keys[k];
        continue;
      }
      struct chv_value null = {.is_null = true};
      CHV_RETURN_IF_ERR(
          chv_expr_literal(a, keys[k]->type, &null, &row[nin + k], err));
    }
    CHV_RETURN_IF_ERR(bigint_lit(a, g->id[s], &row[nin + nk], err));
    if (g->dups) {
      struct chv_value d = {.i64 = g->dup[s]};
      CHV_RETURN_IF_ERR(chv_expr_literal(a, it, &d, &row[nin + nk + 1], err));
    }
    if (g->id[s] != none) continue;
    for (int k = 0; k < nak; k++) sd[e * nak + k] = row[nin + k];
    e++;
  }
  nd->u.expand.nsets = g->nsets;
  nd->u.expand.exprs = ex;
  nd->text = g->text;
  *out = nd;
  *seeds = sd;
  *nseeds = ne;
  return CHV_OK;
}

/* bit k of n of the id column x: (x div 2^(n-1-k)) % 2, times 2^w. */
static int id_bit(chv_arena *a, struct chv_expr *x, int n, int k, int w,
                  struct chv_expr **out, struct chv_error *err) {
  struct chv_expr *v = x, *l, *args[2];
  int sh = n - 1 - k;
  if (sh) {
    CHV_RETURN_IF_ERR(bigint_lit(a, (int64_t)1 << sh, &l, err));
    args[0] = v, args[1] = l;
    CHV_RETURN_IF_ERR(chv_expr_call(a, CHV_FN_IDIV, args, 2, &v, err));
  }
  CHV_RETURN_IF_ERR(bigint_lit(a, 2, &l, err));
  args[0] = v, args[1] = l;
  CHV_RETURN_IF_ERR(chv_expr_call(a, CHV_FN_MOD, args, 2, &v, err));
  if (w) {
    CHV_RETURN_IF_ERR(bigint_lit(a, (int64_t)1 << w, &l, err));
    args[0] = v, args[1] = l;
    CHV_RETURN_IF_ERR(chv_expr_call(a, CHV_FN_MUL, args, 2, &v, err));
  }
  *out = v;
  return CHV_OK;
}

int sql_grouping_bind(chv_arena *a, const struct sql_grouping *g,
                      const char *const *key_text, int nkeys, int id_col,
                      const struct chv_sql_expr *e, struct chv_expr **out,
                      bool *done, struct chv_sql_pos *pos,
                      struct chv_error *err) {
  if (e->kind == CHV_SQL_EXPR_COLUMN && e->u.column.nparts == 1 &&
      !strcasecmp(e->u.column.parts[0], "grouping__id")) {
    *done = true;
    *pos = e->pos;
    if (!g)
      return sql_err(err, CHV_EINVAL, "GROUPING__ID needs GROUPING SETS, "
                     "ROLLUP or CUBE");
    const struct chv_type *bt = chv_exec_type(a, CHV_TYPE_BIGINT, 0, 0);
    if (!bt) return oom(err);
    return chv_expr_column(a, id_col, bt, out, err);
  }
  if (e->kind != CHV_SQL_EXPR_FUNC || strcasecmp(e->u.func.name, "grouping"))
    return CHV_OK;
  *done = true;
  *pos = e->pos;
  size_t n = e->u.func.n;
  if (n == 0 || e->u.func.star || e->u.func.distinct)
    return sql_err(err, CHV_EINVAL, "GROUPING takes one or more GROUP BY "
                   "expressions");
  if (n > MAX_KEYS)
    return sql_err(err, CHV_ENOTSUP, "GROUPING takes at most %d arguments",
                   MAX_KEYS);
  struct chv_expr *sum = NULL;
  for (size_t i = 0; i < n; i++) {
    const struct chv_sql_expr *x = e->u.func.args[i];
    const char *t = sql_expr_text_in(a, x);
    if (!t) return oom(err);
    /* the key of its text; of several (a.s, b.s), the one written so */
    int k = -1, same = 0;
    for (int j = 0; j < nkeys; j++)
      if (!strcmp(key_text[j], t) && same++ == 0) k = j;
    if (same > 1 && g && g->key_qtext) {
      const char *qt = sql_expr_text_qualified_in(a, x);
      if (!qt) return oom(err);
      for (int j = 0; j < g->nkeys && j < nkeys; j++)
        if (!strcmp(g->key_qtext[j], qt)) k = j;
    }
    if (k < 0) {
      *pos = x->pos;
      return sql_err(err, CHV_EINVAL, "GROUPING() of %s, which is not a GROUP "
                     "BY expression", t);
    }
    if (!g) continue; /* a plain GROUP BY: every key is in its one set */
    struct chv_expr *id, *b;
    const struct chv_type *bt = chv_exec_type(a, CHV_TYPE_BIGINT, 0, 0);
    if (!bt) return oom(err);
    CHV_RETURN_IF_ERR(chv_expr_column(a, id_col, bt, &id, err));
    CHV_RETURN_IF_ERR(id_bit(a, id, nkeys, k, (int)(n - 1 - i), &b, err));
    if (sum) {
      struct chv_expr *args[2] = {sum, b};
      CHV_RETURN_IF_ERR(chv_expr_call(a, CHV_FN_ADD, args, 2, &sum, err));
    } else {
      sum = b;
    }
  }
  *pos = e->pos;
  if (!sum) return bigint_lit(a, 0, out, err);
  *out = sum;
  return CHV_OK;
}
