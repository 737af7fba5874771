/*
** sql/plan/node: constructors and walks of the plan's node tree
** (node.h), and the expression walks the rewrite passes share.
*/
#include "sql/plan/node.h"

#include <stdlib.h>
#include <string.h>

int sql_node_new(chv_arena *a, enum sql_node_kind kind,
                 struct sql_node *const *in, int n, struct sql_node **out,
                 struct chv_error *err) {
  struct sql_node *nd = chv_arena_alloc(a, sizeof *nd);
  struct sql_node **v = chv_arena_alloc(a, sizeof *v * (size_t)(n + 1));
  if (!nd || !v) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  memset(nd, 0, sizeof *nd);
  nd->kind = kind;
  for (int i = 0; i < n; i++) v[i] = in[i];
  nd->in = v;
  nd->nin = n;
  if (kind == SQL_NODE_SCAN) nd->u.scan.limit = -1;
  *out = nd;
  return CHV_OK;
}

int sql_node_cols(chv_arena *a, struct sql_node *nd, int n,
                  struct chv_error *err) {
  nd->cols = chv_arena_alloc(a, sizeof *nd->cols * (size_t)(n + 1));
  if (!nd->cols) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  memset(nd->cols, 0, sizeof *nd->cols * (size_t)(n + 1));
  nd->ncols = n;
  return CHV_OK;
}

int sql_node_pass_cols(chv_arena *a, struct sql_node *nd,
                       struct chv_error *err) {
  const struct sql_node *in = nd->in[0];
  CHV_RETURN_IF_ERR(sql_node_cols(a, nd, in->ncols, err));
  if (in->ncols)
    memcpy(nd->cols, in->cols, sizeof *nd->cols * (size_t)in->ncols);
  return CHV_OK;
}

static int number(struct sql_node *nd, int next) {
  nd->id = next++;
  for (int i = 0; i < nd->nin; i++) next = number(nd->in[i], next);
  return next;
}

int sql_node_number(struct sql_node *root) { return number(root, 0); }

const char *sql_node_kind_name(enum sql_node_kind k) {
  static const char *const names[] = {
      "Scan", "Values", "Filter", "Project", "Aggregate", "Sort",
      "TopN", "Limit", "Union All", "Derived", "Hash Join", "Insert",
      "Multi-insert", "Tee", "Repeat", "Expand", "Window"};
  return (size_t)k < sizeof names / sizeof names[0] ? names[k] : "?";
}

int sql_node_exprs(struct sql_node *nd,
                   int (*fn)(void *ctx, struct chv_expr **slot), void *ctx) {
  switch (nd->kind) {
  case SQL_NODE_FILTER:
    return fn(ctx, &nd->u.filter.pred);
  case SQL_NODE_PROJECT:
    for (int c = 0; c < nd->ncols; c++)
      CHV_RETURN_IF_ERR(fn(ctx, &nd->u.project.exprs[c]));
    return CHV_OK;
  case SQL_NODE_AGGREGATE:
    for (int k = 0; k < nd->u.agg.nkeys; k++)
      CHV_RETURN_IF_ERR(fn(ctx, &nd->u.agg.keys[k]));
    for (int j = 0; j < nd->u.agg.naggs; j++)
      if (nd->u.agg.args[j]) CHV_RETURN_IF_ERR(fn(ctx, &nd->u.agg.args[j]));
    return CHV_OK;
  case SQL_NODE_EXPAND:
    for (int k = 0; k < nd->u.expand.nsets * nd->ncols; k++)
      CHV_RETURN_IF_ERR(fn(ctx, &nd->u.expand.exprs[k]));
    return CHV_OK;
  case SQL_NODE_SORT:
  case SQL_NODE_TOPN:
    for (int k = 0; k < nd->u.sort.nkeys; k++)
      CHV_RETURN_IF_ERR(fn(ctx, &nd->u.sort.keys[k].expr));
    return CHV_OK;
  case SQL_NODE_JOIN: /* over both inputs: see node.h */
    for (int k = 0; k < nd->u.join.nkeys; k++) {
      CHV_RETURN_IF_ERR(fn(ctx, &nd->u.join.lkeys[k]));
      CHV_RETURN_IF_ERR(fn(ctx, &nd->u.join.rkeys[k]));
    }
    if (nd->u.join.cond) CHV_RETURN_IF_ERR(fn(ctx, &nd->u.join.cond));
    return CHV_OK;
  case SQL_NODE_WINDOW:
    for (int k = 0; k < nd->u.window.nkeys; k++)
      CHV_RETURN_IF_ERR(fn(ctx, &nd->u.window.keys[k].expr));
    for (int j = 0; j < nd->u.window.ncalls; j++) {
      struct sql_win_call *wc = &nd->u.window.calls[j];
      if (wc->arg) CHV_RETURN_IF_ERR(fn(ctx, &wc->arg));
      if (wc->dflt) CHV_RETURN_IF_ERR(fn(ctx, &wc->dflt));
    }
    return CHV_OK;
  default:
    return CHV_OK;
  }
}

int sql_expr_remap(chv_arena *a, const struct chv_expr *e, const int *map,
                   struct chv_expr **out, struct chv_error *err) {
  struct chv_expr *c = chv_arena_alloc(a, sizeof *c);
  if (!c) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  *c = *e;
  if (e->kind == CHV_EXPR_COLUMN) c->column = map[e->column];
  if (e->nargs) {
    c->args = chv_arena_alloc(a, sizeof *c->args * (size_t)e->nargs);
    if (!c->args) return chv_error_set(err, CHV_ENOMEM, "out of memory");
    for (int i = 0; i < e->nargs; i++)
      CHV_RETURN_IF_ERR(sql_expr_remap(a, e->args[i], map, &c->args[i], err));
  }
  if (e->lowered) {
    struct chv_expr *l;
    CHV_RETURN_IF_ERR(sql_expr_remap(a, e->lowered, map, &l, err));
    c->lowered = l;
  }
  *out = c;
  return CHV_OK;
}

void sql_expr_columns(const struct chv_expr *e, bool *used) {
  if (!e) return;
  if (e->kind == CHV_EXPR_COLUMN) used[e->column] = true;
  for (int i = 0; i < e->nargs; i++) sql_expr_columns(e->args[i], used);
  if (e->lowered) sql_expr_columns(e->lowered, used);
}

bool sql_expr_constant(const struct chv_expr *e) {
  if (e->kind == CHV_EXPR_COLUMN) return false;
  for (int i = 0; i < e->nargs; i++)
    if (!sql_expr_constant(e->args[i])) return false;
  return !e->lowered || sql_expr_constant(e->lowered);
}
