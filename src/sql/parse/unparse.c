/*
** A query of the syntax tree back to SQL text, the form a view's expanded
** text is kept in (what Hive and chive read when the view is named):
**
**   SELECT `t`.`a`, count(*) AS `n` FROM `default`.`t` WHERE `t`.`b` > 1
**   GROUP BY `t`.`a` ORDER BY `n` DESC LIMIT 10
**
** Keywords are upper-case, every name is backquoted, a function name is
** written plain when it is a word the parser takes before '(' (backquoted
** otherwise), strings are quoted as the Hive dialect reads them ('it\'s',
** '\\'), numbers as written (10Y, 1.5, 2D).  Parentheses appear only where
** the parser's precedence needs them, so the text reads back, in the Hive
** dialect, into the same tree.
**
** INTERFACE
**   chv_sql_query_format()
*/
#include "sql/parse/parse_int.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Binding strength, loosest first, as parser.c reads expressions. */
enum {
  P_OR = 1,
  P_AND,
  P_NOT,
  P_PRED,   /* comparisons, IN, BETWEEN, LIKE, IS */
  P_CONCAT,
  P_ADD,
  P_MUL,
  P_UNARY,  /* - + ~ */
  P_POSTFIX, /* e[i] */
  P_PRIMARY
};

struct writer {
  struct chv_buf *out;
  int rc; /* first failure; later output is skipped */
};

static void put(struct writer *w, const char *s) {
  if (w->rc == CHV_OK) w->rc = chv_buf_puts(w->out, s);
}

static void putn(struct writer *w, const char *s, size_t n) {
  if (w->rc == CHV_OK) w->rc = chv_buf_append(w->out, s, n);
}

static void put_ident(struct writer *w, const char *s) {
  put(w, "`");
  for (const char *c = s; *c; c++) {
    if (*c == '`') put(w, "`");
    putn(w, c, 1);
  }
  put(w, "`");
}

static void put_name(struct writer *w, const struct chv_sql_name *n) {
  for (int i = 0; i < n->nparts; i++) {
    if (i) put(w, ".");
    put_ident(w, n->parts[i]);
  }
}

/* s[0, n) as a Hive string literal: \' \\ \000 \n \r \t, other control
** characters as \uXXXX. */
static void put_string(struct writer *w, const char *s, size_t n) {
  put(w, "'");
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    char tmp[8];
    switch (c) {
    case '\'': put(w, "\\'"); break;
    case '\\': put(w, "\\\\"); break;
    case '\0': put(w, "\\000"); break; /* never \0 before a digit */
    case '\n': put(w, "\\n"); break;
    case '\r': put(w, "\\r"); break;
    case '\t': put(w, "\\t"); break;
    default:
      if (c < 0x20 || c == 0x7f) {
        snprintf(tmp, sizeof tmp, "\\u%04x", c);
        put(w, tmp);
      } else {
        putn(w, (const char *)&s[i], 1);
      }
    }
  }
  put(w, "'");
}

static bool plain_word(const char *s) {
  if (!(isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
  for (const char *c = s; *c; c++)
    if (!isalnum((unsigned char)*c) && *c != '_' && *c != '$') return false;
  return !sql_is_reserved_word(s) || chv_str_ieq(s, "LEFT") ||
         chv_str_ieq(s, "RIGHT");
}

static void put_query(struct writer *w, const struct chv_sql_query *q);
static void put_expr(struct writer *w, const struct chv_sql_expr *e);
static void put_window(struct writer *w, const struct chv_sql_window *win);

static int prec(const struct chv_sql_expr *e) {
  switch (e->kind) {
  case CHV_SQL_EXPR_BINARY:
    switch (e->u.binary.op) {
    case CHV_SQL_OP_OR: return P_OR;
    case CHV_SQL_OP_AND: return P_AND;
    case CHV_SQL_OP_CONCAT: return P_CONCAT;
    case CHV_SQL_OP_ADD:
    case CHV_SQL_OP_SUB: return P_ADD;
    case CHV_SQL_OP_MUL:
    case CHV_SQL_OP_DIV:
    case CHV_SQL_OP_MOD:
    case CHV_SQL_OP_INTDIV: return P_MUL;
    case CHV_SQL_OP_SUBSCRIPT: return P_POSTFIX;
    default: return P_PRED;
    }
  case CHV_SQL_EXPR_UNARY:
    return e->u.unary.op == CHV_SQL_OP_NOT ? P_NOT : P_UNARY;
  case CHV_SQL_EXPR_IN:
  case CHV_SQL_EXPR_BETWEEN:
  case CHV_SQL_EXPR_LIKE:
  case CHV_SQL_EXPR_IS: return P_PRED;
  default: return P_PRIMARY;
  }
}

/* e where the parser reads an operand binding at least as tight as min. */
static void put_operand(struct writer *w, const struct chv_sql_expr *e,
                        int min) {
  if (prec(e) >= min) {
    put_expr(w, e);
    return;
  }
  put(w, "(");
  put_expr(w, e);
  put(w, ")");
}

static void put_list(struct writer *w, struct chv_sql_expr *const *v,
                     size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (i) put(w, ", ");
    put_expr(w, v[i]);
  }
}

/* A grouping set: (a, b), (), or its one expression as it is. */
static void put_gset(struct writer *w, const struct chv_sql_query *q,
                     const struct chv_sql_grouping_set *set) {
  if (set->paren) put(w, "(");
  for (size_t i = 0; i < set->n; i++) {
    if (i) put(w, ", ");
    put_expr(w, q->group_by[set->keys[i]]);
  }
  if (set->paren) put(w, ")");
}

/* GROUP BY's elements as written: a, (), ROLLUP (..), CUBE (..), GROUPING
** SETS (..), and Hive's WITH ROLLUP, WITH CUBE, GROUPING SETS (..) after
** its keys. */
static void put_group_elems(struct writer *w, const struct chv_sql_query *q) {
  static const char *const kinds[] = {"", "ROLLUP (", "CUBE (",
                                      "GROUPING SETS (", " WITH ROLLUP",
                                      " WITH CUBE", " GROUPING SETS ("};
  for (size_t i = 0; i < q->ngroup_elems; i++) {
    const struct chv_sql_group_elem *el = &q->group_elems[i];
    bool hive = el->kind >= CHV_SQL_GROUP_WITH_ROLLUP;
    if (i && !hive) put(w, ", ");
    if (el->kind == CHV_SQL_GROUP_KEY) {
      put_gset(w, q, &el->sets[0]);
      continue;
    }
    put(w, kinds[el->kind]);
    for (size_t k = 0; k < el->nsets; k++) {
      if (k) put(w, ", ");
      put_gset(w, q, &el->sets[k]);
    }
    if (el->nsets) put(w, ")");
  }
}

static void put_literal(struct writer *w, const struct chv_sql_expr *e) {
  switch (e->u.lit.kind) {
  case CHV_SQL_LIT_INTEGER:
  case CHV_SQL_LIT_DECIMAL:
  case CHV_SQL_LIT_DOUBLE:
    put(w, e->u.lit.text); /* as written: 10Y, .5, 1e10, 10BD */
    break;
  case CHV_SQL_LIT_STRING:
    put_string(w, e->u.lit.value, e->u.lit.value_len);
    break;
  case CHV_SQL_LIT_BOOLEAN:
    put(w, e->u.lit.value[0] == 'T' ? "TRUE" : "FALSE");
    break;
  case CHV_SQL_LIT_NULL:
    put(w, "NULL");
    break;
  case CHV_SQL_LIT_DATE:
  case CHV_SQL_LIT_TIMESTAMP:
    put(w, e->u.lit.kind == CHV_SQL_LIT_DATE ? "DATE " : "TIMESTAMP ");
    put_string(w, e->u.lit.value, e->u.lit.value_len);
    break;
  case CHV_SQL_LIT_INTERVAL:
    put(w, "INTERVAL ");
    put_string(w, e->u.lit.value, e->u.lit.value_len);
    put(w, " ");
    put(w, e->u.lit.unit);
    break;
  case CHV_SQL_LIT_BINARY: /* no backslash escapes in X'..', '' a quote */
    put(w, "X'");
    for (size_t i = 0; i < e->u.lit.value_len; i++) {
      if (e->u.lit.value[i] == '\'') put(w, "'");
      putn(w, &e->u.lit.value[i], 1);
    }
    put(w, "'");
    break;
  }
}

static const char *binary_op(enum chv_sql_op op) {
  switch (op) {
  case CHV_SQL_OP_OR: return " OR ";
  case CHV_SQL_OP_AND: return " AND ";
  case CHV_SQL_OP_EQ: return " = ";
  case CHV_SQL_OP_NE: return " <> ";
  case CHV_SQL_OP_LT: return " < ";
  case CHV_SQL_OP_LE: return " <= ";
  case CHV_SQL_OP_GT: return " > ";
  case CHV_SQL_OP_GE: return " >= ";
  case CHV_SQL_OP_NULL_EQ: return " <=> ";
  case CHV_SQL_OP_CONCAT: return " || ";
  case CHV_SQL_OP_ADD: return " + ";
  case CHV_SQL_OP_SUB: return " - ";
  case CHV_SQL_OP_MUL: return " * ";
  case CHV_SQL_OP_DIV: return " / ";
  case CHV_SQL_OP_MOD: return " % ";
  case CHV_SQL_OP_INTDIV: return " DIV ";
  default: return " ? ";
  }
}

static void put_expr(struct writer *w, const struct chv_sql_expr *e) {
  int p = prec(e);
  switch (e->kind) {
  case CHV_SQL_EXPR_LITERAL:
    put_literal(w, e);
    break;
  case CHV_SQL_EXPR_COLUMN:
    put_name(w, &e->u.column);
    break;
  case CHV_SQL_EXPR_STAR:
    put_name(w, &e->u.star);
    put(w, e->u.star.nparts ? ".*" : "*");
    break;
  case CHV_SQL_EXPR_UNARY: {
    const struct chv_sql_expr *a = e->u.unary.arg;
    switch (e->u.unary.op) {
    case CHV_SQL_OP_NOT: put(w, "NOT "); break;
    case CHV_SQL_OP_NEG: put(w, "-"); break;
    case CHV_SQL_OP_PLUS: put(w, "+"); break;
    default: put(w, "~"); break;
    }
    /* "- -x", never "--x" (a comment) */
    if (e->u.unary.op != CHV_SQL_OP_NOT && a->kind == CHV_SQL_EXPR_UNARY &&
        a->u.unary.op != CHV_SQL_OP_NOT)
      put(w, " ");
    put_operand(w, a, p);
    break;
  }
  case CHV_SQL_EXPR_BINARY:
    if (e->u.binary.op == CHV_SQL_OP_SUBSCRIPT) {
      put_operand(w, e->u.binary.left, P_POSTFIX);
      put(w, "[");
      put_expr(w, e->u.binary.right);
      put(w, "]");
      break;
    }
    /* left-associative: the right operand binds tighter */
    put_operand(w, e->u.binary.left, p);
    put(w, binary_op(e->u.binary.op));
    put_operand(w, e->u.binary.right, p + 1);
    break;
  case CHV_SQL_EXPR_IN:
    put_operand(w, e->u.in.arg, P_PRED);
    put(w, e->u.in.negated ? " NOT IN (" : " IN (");
    if (e->u.in.n == 1 && e->u.in.list[0]->kind == CHV_SQL_EXPR_SUBQUERY)
      put_query(w, e->u.in.list[0]->u.subquery);
    else
      put_list(w, e->u.in.list, e->u.in.n);
    put(w, ")");
    break;
  case CHV_SQL_EXPR_BETWEEN:
    put_operand(w, e->u.between.arg, P_PRED);
    put(w, e->u.between.negated ? " NOT BETWEEN " : " BETWEEN ");
    put_operand(w, e->u.between.low, P_CONCAT);
    put(w, " AND ");
    put_operand(w, e->u.between.high, P_CONCAT);
    break;
  case CHV_SQL_EXPR_LIKE:
    put_operand(w, e->u.like.arg, P_PRED);
    if (e->u.like.negated) put(w, " NOT");
    put(w, e->u.like.regex ? " RLIKE " : " LIKE ");
    put_operand(w, e->u.like.pattern, P_CONCAT);
    break;
  case CHV_SQL_EXPR_IS:
    put_operand(w, e->u.is.arg, P_PRED);
    put(w, e->u.is.negated ? " IS NOT " : " IS ");
    put(w, e->u.is.what == CHV_SQL_IS_NULL   ? "NULL"
           : e->u.is.what == CHV_SQL_IS_TRUE ? "TRUE"
                                             : "FALSE");
    break;
  case CHV_SQL_EXPR_CASE:
    put(w, "CASE");
    if (e->u.case_.operand) {
      put(w, " ");
      put_expr(w, e->u.case_.operand);
    }
    for (size_t i = 0; i < e->u.case_.n; i++) {
      put(w, " WHEN ");
      put_expr(w, e->u.case_.when[i]);
      put(w, " THEN ");
      put_expr(w, e->u.case_.then[i]);
    }
    if (e->u.case_.else_) {
      put(w, " ELSE ");
      put_expr(w, e->u.case_.else_);
    }
    put(w, " END");
    break;
  case CHV_SQL_EXPR_CAST:
    put(w, "CAST(");
    put_expr(w, e->u.cast.arg);
    put(w, " AS ");
    put(w, e->u.cast.type_text);
    put(w, ")");
    break;
  case CHV_SQL_EXPR_FUNC:
    if (plain_word(e->u.func.name))
      put(w, e->u.func.name);
    else
      put_ident(w, e->u.func.name);
    put(w, "(");
    if (e->u.func.distinct) put(w, "DISTINCT ");
    if (e->u.func.star) put(w, "*");
    put_list(w, e->u.func.args, e->u.func.n);
    put(w, ")");
    if (e->u.func.over) {
      put(w, " OVER ");
      put_window(w, e->u.func.over);
    }
    break;
  case CHV_SQL_EXPR_SUBQUERY:
  case CHV_SQL_EXPR_EXISTS:
    put(w, e->kind == CHV_SQL_EXPR_EXISTS ? "EXISTS (" : "(");
    put_query(w, e->u.subquery);
    put(w, ")");
    break;
  }
}

static void put_frame_bound(struct writer *w, enum chv_sql_frame_bound b,
                            const struct chv_sql_expr *n) {
  if (n) {
    put_operand(w, n, P_CONCAT);
    put(w, b == CHV_SQL_FRAME_PRECEDING ? " PRECEDING" : " FOLLOWING");
    return;
  }
  put(w, b == CHV_SQL_FRAME_UNBOUNDED_PRECEDING   ? "UNBOUNDED PRECEDING"
         : b == CHV_SQL_FRAME_UNBOUNDED_FOLLOWING ? "UNBOUNDED FOLLOWING"
                                                  : "CURRENT ROW");
}

/* A window as OVER writes it: w, or (w PARTITION BY ... ORDER BY ...
** ROWS BETWEEN ... AND ...). */
static void put_window(struct writer *w, const struct chv_sql_window *win) {
  put(w, "(");
  const char *sep = "";
  if (win->name) {
    put_ident(w, win->name);
    sep = " ";
  }
  if (win->npartition_by) {
    put(w, sep);
    put(w, "PARTITION BY ");
    put_list(w, win->partition_by, win->npartition_by);
    sep = " ";
  }
  if (win->norder_by) {
    put(w, sep);
    put(w, "ORDER BY ");
    for (size_t i = 0; i < win->norder_by; i++) {
      if (i) put(w, ", ");
      put_expr(w, win->order_by[i].expr);
      if (win->order_by[i].desc) put(w, " DESC");
      if (win->order_by[i].nulls)
        put(w, win->order_by[i].nulls == 1 ? " NULLS FIRST" : " NULLS LAST");
    }
    sep = " ";
  }
  if (win->frame != CHV_SQL_FRAME_NONE) {
    put(w, sep);
    put(w, win->frame == CHV_SQL_FRAME_ROWS ? "ROWS BETWEEN " : "RANGE BETWEEN ");
    put_frame_bound(w, win->start, win->start_n);
    put(w, " AND ");
    put_frame_bound(w, win->end, win->end_n);
  }
  put(w, ")");
}

static void put_hints(struct writer *w, const struct chv_sql_hints *hs) {
  if (hs->n == 0) return;
  put(w, " /*+ ");
  for (size_t i = 0; i < hs->n; i++) {
    if (i) put(w, ", ");
    put_ident(w, hs->items[i].name);
    put(w, "(");
    for (size_t k = 0; k < hs->items[i].args.n; k++) {
      const struct chv_sql_prop *a = &hs->items[i].args.items[k];
      if (k) put(w, ", ");
      put_string(w, a->key, strlen(a->key));
      if (a->value) {
        put(w, "=");
        put_string(w, a->value, strlen(a->value));
      }
    }
    put(w, ")");
  }
  put(w, " */");
}

/* TABLESAMPLE (10 ROWS), (0.5 PERCENT), (100M), (BUCKET 3 OUT OF 32 ON e) */
static void put_sample(struct writer *w, const struct chv_sql_sample *sm) {
  put(w, " TABLESAMPLE (");
  if (sm->kind == CHV_SQL_SAMPLE_BUCKET) put(w, "BUCKET ");
  put(w, sm->value);
  if (sm->kind == CHV_SQL_SAMPLE_ROWS) put(w, " ROWS");
  if (sm->kind == CHV_SQL_SAMPLE_PERCENT) put(w, " PERCENT");
  if (sm->out_of) {
    put(w, " OUT OF ");
    put(w, sm->out_of);
  }
  for (size_t i = 0; i < sm->non; i++) {
    put(w, i ? ", " : " ON ");
    put_expr(w, sm->on[i]);
  }
  put(w, ")");
}

static void put_from(struct writer *w, const struct chv_sql_from *f) {
  static const char *const joins[] = {" JOIN ", " LEFT JOIN ", " RIGHT JOIN ",
                                      " FULL JOIN ", " CROSS JOIN ",
                                      " LEFT SEMI JOIN ", " LEFT ANTI JOIN ",
                                      " LEFT ANTI JOIN "};
  switch (f->kind) {
  case CHV_SQL_FROM_TABLE:
    put_name(w, &f->table);
    put_hints(w, &f->hints);
    if (f->sample) put_sample(w, f->sample);
    if (f->system_time) {
      put(w, " FOR SYSTEM_TIME AS OF ");
      put_operand(w, f->system_time, P_CONCAT);
    }
    break;
  case CHV_SQL_FROM_SUBQUERY:
    put(w, "(");
    put_query(w, f->subquery);
    put(w, ")");
    put_hints(w, &f->hints);
    break;
  case CHV_SQL_FROM_JOIN:
    put_from(w, f->left);
    if (f->natural) put(w, " NATURAL");
    put(w, joins[f->join]);
    if (f->right->kind == CHV_SQL_FROM_JOIN) put(w, "(");
    put_from(w, f->right);
    if (f->right->kind == CHV_SQL_FROM_JOIN) put(w, ")");
    if (f->on) {
      put(w, " ON ");
      put_expr(w, f->on);
    }
    for (size_t i = 0; i < f->nusing; i++) {
      put(w, i ? ", " : " USING (");
      put_ident(w, f->using_cols[i]);
    }
    if (f->nusing) put(w, ")");
    return;
  }
  if (f->alias) {
    put(w, " ");
    put_ident(w, f->alias);
  }
  for (size_t i = 0; i < f->ncolumns; i++) {
    put(w, i ? ", " : " (");
    put_ident(w, f->columns[i]);
    if (i + 1 == f->ncolumns) put(w, ")");
  }
}

/* A branch of a UNION: in parentheses when it has clauses of its own that
** would otherwise belong to the UNION, or is a UNION on the right. */
static void put_branch(struct writer *w, const struct chv_sql_query *q,
                       bool right, enum chv_sql_setop parent) {
  bool set = q->kind == CHV_SQL_QUERY_UNION;
  /* INTERSECT binds tighter: a UNION or EXCEPT under it is parenthesized */
  bool paren = q->nctes || q->norder_by || q->limit || q->offset ||
               q->ndistribute_by || (right && set) ||
               (set && parent == CHV_SQL_SET_INTERSECT &&
                q->setop != CHV_SQL_SET_INTERSECT);
  if (paren) put(w, "(");
  put_query(w, q);
  if (paren) put(w, ")");
}

static void put_query(struct writer *w, const struct chv_sql_query *q) {
  if (q->nctes) {
    put(w, "WITH ");
    for (size_t i = 0; i < q->nctes; i++) {
      if (i) put(w, ", ");
      put_ident(w, q->ctes[i].name);
      put(w, " AS (");
      put_query(w, q->ctes[i].query);
      put(w, ")");
    }
    put(w, " ");
  }
  switch (q->kind) {
  case CHV_SQL_QUERY_SELECT:
    put(w, q->distinct ? "SELECT DISTINCT " : "SELECT ");
    for (size_t i = 0; i < q->nitems; i++) {
      if (i) put(w, ", ");
      put_expr(w, q->items[i].expr);
      if (q->items[i].alias) {
        put(w, " AS ");
        put_ident(w, q->items[i].alias);
      }
    }
    if (q->from) {
      put(w, " FROM ");
      put_from(w, q->from);
    }
    if (q->where) {
      put(w, " WHERE ");
      put_expr(w, q->where);
    }
    if (q->ngroup_elems) {
      put(w, " GROUP BY ");
      put_group_elems(w, q);
    } else if (q->ngroup_by) {
      put(w, " GROUP BY ");
      put_list(w, q->group_by, q->ngroup_by);
    }
    if (q->having) {
      put(w, " HAVING ");
      put_expr(w, q->having);
    }
    for (size_t i = 0; i < q->nwindows; i++) {
      put(w, i ? ", " : " WINDOW ");
      put_ident(w, q->windows[i].name);
      put(w, " AS ");
      put_window(w, q->windows[i].window);
    }
    break;
  case CHV_SQL_QUERY_UNION: {
    static const char *const ops[] = {" UNION", " INTERSECT", " EXCEPT"};
    put_branch(w, q->left, false, q->setop);
    put(w, ops[q->setop]);
    put(w, q->all ? " ALL " : " ");
    put_branch(w, q->right, true, q->setop);
    break;
  }
  case CHV_SQL_QUERY_VALUES:
    put(w, "VALUES ");
    for (size_t i = 0; i < q->nrows; i++) {
      if (i) put(w, ", ");
      put(w, "(");
      put_list(w, q->rows[i], q->row_lens[i]);
      put(w, ")");
    }
    break;
  }
  if (q->order_kind == CHV_SQL_CLUSTER_BY) {
    put(w, " CLUSTER BY ");
    put_list(w, q->distribute_by, q->ndistribute_by);
  } else if (q->ndistribute_by) {
    put(w, " DISTRIBUTE BY ");
    put_list(w, q->distribute_by, q->ndistribute_by);
  }
  if (q->norder_by && q->order_kind != CHV_SQL_CLUSTER_BY) {
    put(w, q->order_kind == CHV_SQL_SORT_BY ? " SORT BY " : " ORDER BY ");
    for (size_t i = 0; i < q->norder_by; i++) {
      if (i) put(w, ", ");
      put_expr(w, q->order_by[i].expr);
      if (q->order_by[i].desc) put(w, " DESC");
      if (q->order_by[i].nulls)
        put(w, q->order_by[i].nulls == 1 ? " NULLS FIRST" : " NULLS LAST");
    }
  }
  if (q->limit) {
    put(w, " LIMIT ");
    put_operand(w, q->limit, P_CONCAT);
  }
  if (q->offset) {
    put(w, " OFFSET ");
    put_operand(w, q->offset, P_CONCAT);
  }
}

int chv_sql_query_format(const struct chv_sql_query *q, struct chv_buf *out) {
  if (q == NULL || out == NULL) return CHV_EINVAL;
  struct writer w = {out, CHV_OK};
  put_query(&w, q);
  return w.rc;
}
