/*
** sql/plan/pushdown: what of a WHERE the source itself can apply, for the
** pushdown pass (rewrite.c) and the filter strings of chv_source_filter_parse():
** the conjuncts a partition filter expresses (comparisons of partition
** keys with literals, AND, OR, NOT, IN, BETWEEN, IS NULL) prune
** partitions; the comparisons of a data column with a literal are pushed
** into the columnar readers, which skip row groups and stripes by them
** (the rows are still filtered by the conjuncts themselves).
*/
#include "sql/plan/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define sql_err chv_error_set

int sql_literal_text(const struct chv_sql_expr *e, chv_arena *a,
                     const char **out, struct chv_error *err) {
  bool neg = false;
  if (e->kind == CHV_SQL_EXPR_UNARY &&
      (e->u.unary.op == CHV_SQL_OP_NEG || e->u.unary.op == CHV_SQL_OP_PLUS) &&
      e->u.unary.arg->kind == CHV_SQL_EXPR_LITERAL) {
    neg = e->u.unary.op == CHV_SQL_OP_NEG;
    e = e->u.unary.arg;
    enum chv_sql_lit_kind k = e->u.lit.kind;
    if (k != CHV_SQL_LIT_INTEGER && k != CHV_SQL_LIT_DECIMAL &&
        k != CHV_SQL_LIT_DOUBLE)
      return sql_err(err, CHV_ETYPE, "a sign before a non-number literal");
  }
  if (e->kind != CHV_SQL_EXPR_LITERAL)
    return sql_err(err, CHV_ENOTSUP,
                   "an expression here is not supported yet: expected a "
                   "literal");
  CHV_RETURN_IF_ERR(sql_literal_check(e, NULL, err));
  if (e->u.lit.kind == CHV_SQL_LIT_NULL) {
    *out = NULL;
    return CHV_OK;
  }
  if (e->u.lit.kind == CHV_SQL_LIT_INTERVAL ||
      e->u.lit.kind == CHV_SQL_LIT_BINARY)
    return sql_err(err, CHV_ENOTSUP, "a %s literal is not supported here",
                   e->u.lit.kind == CHV_SQL_LIT_BINARY ? "binary" : "interval");
  const char *v = e->u.lit.value;
  size_t n = e->u.lit.kind == CHV_SQL_LIT_STRING ? e->u.lit.value_len
                                                 : strlen(v);
  if (e->u.lit.kind == CHV_SQL_LIT_BOOLEAN) {
    *out = !strcasecmp(v, "true") ? "true" : "false";
    return CHV_OK;
  }
  char *r = chv_arena_alloc(a, n + 2);
  if (!r) return sql_err(err, CHV_ENOMEM, "out of memory");
  size_t k = 0;
  if (neg) r[k++] = '-';
  memcpy(r + k, v, n);
  r[k + n] = '\0';
  *out = r;
  return CHV_OK;
}

int sql_find_column(const struct chv_table *t, const char *n,
                       const char **canon) {
  for (int c = 0; c < t->ncols; c++)
    if (!strcasecmp(t->columns[c].name, n)) {
      *canon = t->columns[c].name;
      return CHV_OK;
    }
  for (int k = 0; k < t->npkeys; k++)
    if (!strcasecmp(t->pkeys[k].name, n)) {
      *canon = t->pkeys[k].name;
      return CHV_OK;
    }
  return CHV_ENOENT;
}


bool sql_table_columnar(const struct chv_table *t) {
  return t->input_format && (strcasestr(t->input_format, "parquet") ||
                             strcasestr(t->input_format, "orc"));
}


struct where_ctx {
  const struct chv_table *t;
  chv_arena *a;
  struct chv_buf *text; /* the predicate as text, for EXPLAIN */
  struct chv_sql_pos *pos;
  struct chv_error *err;
};

/* The partition key a column expression names; errors for data columns and
** unknown names. */
static int where_key(struct where_ctx *w, const struct chv_sql_expr *e,
                     const char **key) {
  if (w->pos) *w->pos = e->pos;
  if (e->kind == CHV_SQL_EXPR_FUNC)
    return sql_err(w->err, CHV_ENOTSUP,
                   "function %s in WHERE is not supported yet", e->u.func.name);
  if (e->kind == CHV_SQL_EXPR_CAST)
    return sql_err(w->err, CHV_ENOTSUP, "CAST in WHERE is not supported yet");
  if (e->kind != CHV_SQL_EXPR_COLUMN)
    return sql_err(w->err, CHV_ENOTSUP,
                   "this WHERE predicate is not supported yet: expected a "
                   "partition column compared with literals");
  const char *n = e->u.column.parts[e->u.column.nparts - 1];
  for (int k = 0; k < w->t->npkeys; k++)
    if (!strcasecmp(w->t->pkeys[k].name, n)) {
      *key = w->t->pkeys[k].name;
      return CHV_OK;
    }
  for (int c = 0; c < w->t->ncols; c++)
    if (!strcasecmp(w->t->columns[c].name, n))
      return sql_err(w->err, CHV_ENOTSUP,
                     "WHERE on data column '%s' is not supported yet (only "
                     "partition columns)", w->t->columns[c].name);
  return sql_err(w->err, CHV_ENOENT, "column '%s' does not exist in %s.%s", n,
                 w->t->db, w->t->name);
}

static int where_lit(struct where_ctx *w, const struct chv_sql_expr *e,
                     const char **lit) {
  if (w->pos) *w->pos = e->pos;
  int rc = sql_literal_text(e, w->a, lit, w->err);
  if (rc != CHV_OK) return rc;
  if (!*lit)
    return sql_err(w->err, CHV_ENOTSUP,
                   "a comparison with NULL is never true: use IS [NOT] NULL");
  const struct chv_sql_expr *l = e->kind == CHV_SQL_EXPR_UNARY ? e->u.unary.arg : e;
  if (l->u.lit.kind == CHV_SQL_LIT_STRING || l->u.lit.kind == CHV_SQL_LIT_DATE ||
      l->u.lit.kind == CHV_SQL_LIT_TIMESTAMP) {
    chv_buf_putc(w->text, '\'');
    for (const char *c = *lit; *c; c++) {
      if (*c == '\'') chv_buf_putc(w->text, '\'');
      chv_buf_putc(w->text, *c);
    }
    chv_buf_putc(w->text, '\'');
  } else {
    chv_buf_puts(w->text, *lit);
  }
  return CHV_OK;
}

static const char *cmp_text[] = {"=", "<>", "<", "<=", ">", ">="};

static int where_conv(struct where_ctx *w, const struct chv_sql_expr *e,
                      struct chv_part_filter **out) {
  if (w->pos) *w->pos = e->pos;
  const char *key;
  int rc;
  switch (e->kind) {
  case CHV_SQL_EXPR_BINARY: {
    enum chv_sql_op op = e->u.binary.op;
    if (op == CHV_SQL_OP_AND || op == CHV_SQL_OP_OR) {
      struct chv_part_filter *l, *r;
      chv_buf_putc(w->text, '(');
      rc = where_conv(w, e->u.binary.left, &l);
      if (rc != CHV_OK) return rc;
      chv_buf_puts(w->text, op == CHV_SQL_OP_AND ? " AND " : " OR ");
      rc = where_conv(w, e->u.binary.right, &r);
      if (rc != CHV_OK) return rc;
      chv_buf_putc(w->text, ')');
      *out = op == CHV_SQL_OP_AND ? chv_pf_and(w->a, l, r) : chv_pf_or(w->a, l, r);
      break;
    }
    enum chv_pf_cmp c;
    switch (op) {
    case CHV_SQL_OP_EQ: c = CHV_PF_EQ; break;
    case CHV_SQL_OP_NE: c = CHV_PF_NE; break;
    case CHV_SQL_OP_LT: c = CHV_PF_LT; break;
    case CHV_SQL_OP_LE: c = CHV_PF_LE; break;
    case CHV_SQL_OP_GT: c = CHV_PF_GT; break;
    case CHV_SQL_OP_GE: c = CHV_PF_GE; break;
    default:
      return sql_err(w->err, CHV_ENOTSUP,
                     "operator %s in WHERE is not supported yet",
                     op == CHV_SQL_OP_NULL_EQ ? "<=>" : "arithmetic");
    }
    const struct chv_sql_expr *col = e->u.binary.left, *lit = e->u.binary.right;
    if (col->kind != CHV_SQL_EXPR_COLUMN && lit->kind == CHV_SQL_EXPR_COLUMN) {
      const struct chv_sql_expr *x = col;
      col = lit;
      lit = x;
      static const enum chv_pf_cmp flip[] = {CHV_PF_EQ, CHV_PF_NE, CHV_PF_GT,
                                             CHV_PF_GE, CHV_PF_LT, CHV_PF_LE};
      c = flip[c];
    }
    rc = where_key(w, col, &key);
    if (rc != CHV_OK) return rc;
    chv_buf_puts(w->text, key);
    chv_buf_putc(w->text, ' ');
    chv_buf_puts(w->text, cmp_text[c]);
    chv_buf_putc(w->text, ' ');
    const char *v;
    rc = where_lit(w, lit, &v);
    if (rc != CHV_OK) return rc;
    *out = chv_pf_cmp(w->a, key, c, v);
    break;
  }
  case CHV_SQL_EXPR_UNARY:
    if (e->u.unary.op != CHV_SQL_OP_NOT)
      return sql_err(w->err, CHV_ENOTSUP,
                     "this WHERE predicate is not supported yet");
    {
      struct chv_part_filter *x;
      chv_buf_puts(w->text, "NOT ");
      rc = where_conv(w, e->u.unary.arg, &x);
      if (rc != CHV_OK) return rc;
      *out = chv_pf_not(w->a, x);
    }
    break;
  case CHV_SQL_EXPR_IN: {
    rc = where_key(w, e->u.in.arg, &key);
    if (rc != CHV_OK) return rc;
    const char **lits = chv_arena_alloc(w->a, sizeof *lits * (e->u.in.n + 1));
    if (!lits) return sql_err(w->err, CHV_ENOMEM, "out of memory");
    chv_buf_puts(w->text, key);
    chv_buf_puts(w->text, e->u.in.negated ? " NOT IN (" : " IN (");
    for (size_t i = 0; i < e->u.in.n; i++) {
      if (i) chv_buf_puts(w->text, ", ");
      rc = where_lit(w, e->u.in.list[i], &lits[i]);
      if (rc != CHV_OK) return rc;
    }
    chv_buf_putc(w->text, ')');
    *out = chv_pf_in(w->a, key, lits, (int)e->u.in.n, e->u.in.negated);
    break;
  }
  case CHV_SQL_EXPR_BETWEEN: {
    rc = where_key(w, e->u.between.arg, &key);
    if (rc != CHV_OK) return rc;
    const char *lo, *hi;
    chv_buf_puts(w->text, key);
    chv_buf_puts(w->text, e->u.between.negated ? " NOT BETWEEN " : " BETWEEN ");
    rc = where_lit(w, e->u.between.low, &lo);
    if (rc != CHV_OK) return rc;
    chv_buf_puts(w->text, " AND ");
    rc = where_lit(w, e->u.between.high, &hi);
    if (rc != CHV_OK) return rc;
    *out = chv_pf_between(w->a, key, lo, hi, e->u.between.negated);
    break;
  }
  case CHV_SQL_EXPR_IS:
    if (e->u.is.what != CHV_SQL_IS_NULL)
      return sql_err(w->err, CHV_ENOTSUP,
                     "IS TRUE/FALSE in WHERE is not supported yet");
    rc = where_key(w, e->u.is.arg, &key);
    if (rc != CHV_OK) return rc;
    chv_buf_puts(w->text, key);
    chv_buf_puts(w->text, e->u.is.negated ? " IS NOT NULL" : " IS NULL");
    *out = chv_pf_is_null(w->a, key, e->u.is.negated);
    break;
  case CHV_SQL_EXPR_COLUMN: {
    rc = where_key(w, e, &key);
    if (rc != CHV_OK) return rc;
    return sql_err(w->err, CHV_ENOTSUP,
                   "a bare column as a WHERE predicate is not supported yet");
  }
  case CHV_SQL_EXPR_FUNC:
    return sql_err(w->err, CHV_ENOTSUP,
                   "function %s in WHERE is not supported yet", e->u.func.name);
  case CHV_SQL_EXPR_LIKE:
    return sql_err(w->err, CHV_ENOTSUP, "LIKE in WHERE is not supported yet");
  case CHV_SQL_EXPR_SUBQUERY:
    return sql_err(w->err, CHV_ENOTSUP,
                   "sub-queries in WHERE are not supported yet");
  default:
    return sql_err(w->err, CHV_ENOTSUP,
                   "this WHERE predicate is not supported yet: expected "
                   "comparisons of partition columns with literals");
  }
  if (!*out) return sql_err(w->err, CHV_ENOMEM, "out of memory");
  return CHV_OK;
}

/* The conjuncts of an AND tree, in order. */
int sql_conjuncts(const struct chv_sql_expr *e, const struct chv_sql_expr **v,
                     size_t *n) {
  if (e->kind == CHV_SQL_EXPR_BINARY && e->u.binary.op == CHV_SQL_OP_AND) {
    sql_conjuncts(e->u.binary.left, v, n);
    return sql_conjuncts(e->u.binary.right, v, n);
  }
  if (v) v[*n] = e;
  (*n)++;
  return CHV_OK;
}

/* WHERE as AND-ed conjuncts: those a partition filter expresses go into
** *filter (their text into where), the rest into resid[]. */
int sql_where_split(const struct chv_table *t, chv_arena *a,
                       const struct chv_sql_expr *e,
                       struct chv_part_filter **filter, struct chv_buf *where,
                       const struct chv_sql_expr ***resid, size_t *nresid,
                       struct chv_sql_pos *pos, struct chv_error *err) {
  size_t n = 0;
  sql_conjuncts(e, NULL, &n);
  const struct chv_sql_expr **v = chv_arena_alloc(a, sizeof *v * (n + 1));
  const struct chv_sql_expr **rv = chv_arena_alloc(a, sizeof *rv * (n + 1));
  if (!v || !rv) return sql_err(err, CHV_ENOMEM, "out of memory");
  n = 0;
  sql_conjuncts(e, v, &n);
  struct chv_part_filter *f = NULL;
  struct chv_buf text, one;
  chv_buf_init(&text);
  chv_buf_init(&one);
  size_t nr = 0;
  int nparts = 0, rc = CHV_OK;
  for (size_t i = 0; i < n; i++) {
    struct chv_part_filter *x;
    chv_buf_reset(&one);
    struct where_ctx w = {t, a, &one, pos, err};
    if (where_conv(&w, v[i], &x) != CHV_OK) {
      rv[nr++] = v[i];
      continue;
    }
    f = f ? chv_pf_and(a, f, x) : x;
    if (!f) {
      rc = sql_err(err, CHV_ENOMEM, "out of memory");
      goto out;
    }
    if (nparts++) chv_buf_puts(&text, " AND ");
    chv_buf_append(&text, one.data, one.len);
  }
  chv_buf_reset(where);
  if (nparts > 1) chv_buf_putc(where, '(');
  if (text.len) chv_buf_append(where, text.data, text.len);
  if (nparts > 1) chv_buf_putc(where, ')');
  *filter = f;
  *resid = rv;
  *nresid = nr;
out:
  chv_buf_free(&text);
  chv_buf_free(&one);
  return rc;
}

/* The residual conjuncts that compare a data column with a literal, as
** predicates a columnar reader can test row groups against (the rows are
** still filtered by the conjuncts themselves). */
int sql_where_preds(const struct chv_table *t, chv_arena *a,
                       const struct chv_sql_expr *const *resid, size_t nresid,
                       struct chv_pred **out, int *nout) {
  *out = NULL;
  *nout = 0;
  if (!sql_table_columnar(t)) return CHV_OK; /* only columnar files use them */
  struct chv_pred *v = chv_arena_alloc(a, sizeof *v * (2 * nresid + 1));
  if (!v) return CHV_ENOMEM;
  int n = 0;
  struct chv_error ignored;
  for (size_t i = 0; i < nresid; i++) {
    const struct chv_sql_expr *e = resid[i], *col = NULL, *lit = NULL;
    enum chv_pred_op op = CHV_PRED_EQ;
    bool flip = false;
    if (e->kind == CHV_SQL_EXPR_BINARY) {
      switch (e->u.binary.op) {
      case CHV_SQL_OP_EQ: op = CHV_PRED_EQ; break;
      case CHV_SQL_OP_NE: op = CHV_PRED_NE; break;
      case CHV_SQL_OP_LT: op = CHV_PRED_LT; break;
      case CHV_SQL_OP_LE: op = CHV_PRED_LE; break;
      case CHV_SQL_OP_GT: op = CHV_PRED_GT; break;
      case CHV_SQL_OP_GE: op = CHV_PRED_GE; break;
      default: continue;
      }
      col = e->u.binary.left;
      lit = e->u.binary.right;
      if (col->kind != CHV_SQL_EXPR_COLUMN) {
        col = e->u.binary.right;
        lit = e->u.binary.left;
        flip = true;
      }
    } else if (e->kind == CHV_SQL_EXPR_IS && !e->u.is.what) {
      col = e->u.is.arg;
      op = e->u.is.negated ? CHV_PRED_IS_NOT_NULL : CHV_PRED_IS_NULL;
    } else if (e->kind == CHV_SQL_EXPR_BETWEEN && !e->u.between.negated) {
      col = e->u.between.arg;
      const char *lo, *hi;
      if (col->kind != CHV_SQL_EXPR_COLUMN ||
          sql_literal_text(e->u.between.low, a, &lo, &ignored) != CHV_OK ||
          sql_literal_text(e->u.between.high, a, &hi, &ignored) != CHV_OK ||
          !lo || !hi)
        continue;
      const char *name;
      if (sql_find_column(t, col->u.column.parts[col->u.column.nparts - 1],
                      &name) != CHV_OK)
        continue;
      v[n++] = (struct chv_pred){name, CHV_PRED_GE, lo};
      v[n++] = (struct chv_pred){name, CHV_PRED_LE, hi};
      continue;
    } else {
      continue;
    }
    if (col->kind != CHV_SQL_EXPR_COLUMN) continue;
    const char *name, *text = NULL;
    if (sql_find_column(t, col->u.column.parts[col->u.column.nparts - 1], &name) !=
        CHV_OK)
      continue;
    bool key = false; /* partition keys are pruned, not tested */
    for (int k = 0; k < t->npkeys; k++) key |= t->pkeys[k].name == name;
    if (key) continue;
    if (lit && (sql_literal_text(lit, a, &text, &ignored) != CHV_OK || !text))
      continue;
    if (flip) {
      static const enum chv_pred_op mirror[] = {
          [CHV_PRED_EQ] = CHV_PRED_EQ, [CHV_PRED_NE] = CHV_PRED_NE,
          [CHV_PRED_LT] = CHV_PRED_GT, [CHV_PRED_LE] = CHV_PRED_GE,
          [CHV_PRED_GT] = CHV_PRED_LT, [CHV_PRED_GE] = CHV_PRED_LE};
      op = mirror[op];
    }
    v[n++] = (struct chv_pred){name, op, text};
  }
  *out = v;
  *nout = n;
  return CHV_OK;
}
int sql_where_filter(const struct chv_table *t, chv_arena *a,
                     const struct chv_sql_expr *e,
                     struct chv_part_filter **out, struct chv_buf *text,
                     struct chv_sql_pos *pos, struct chv_error *err) {
  struct where_ctx w = {t, a, text, pos, err};
  return where_conv(&w, e, out);
}
