/*
** The canonical S-expression form of a parsed statement, one line, for
** golden tests and debugging: (kind field ...).  Names print as written
** (backquoted when they are not plain words), strings in double quotes with
** C escapes, expressions in prefix form: (+ a (int 1)), (call f x),
** (in a (int 1) (int 2)).  docs/sql.md shows the form of every statement.
**
** INTERFACE
**   chv_sql_ast_print()
*/
#include "sql/parse/parse_int.h"

#include <ctype.h>
#include <stdio.h>

struct printer {
  struct chv_buf *out;
  int rc; /* first failure; later output is skipped */
};

static void put(struct printer *w, const char *s) {
  if (w->rc == CHV_OK) w->rc = chv_buf_puts(w->out, s);
}

static void putn(struct printer *w, const char *s, size_t n) {
  if (w->rc == CHV_OK) w->rc = chv_buf_append(w->out, s, n);
}

static void put_str_n(struct printer *w, const char *s, size_t n) {
  put(w, "\"");
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    char tmp[8];
    if (c == '"' || c == '\\') {
      tmp[0] = '\\';
      tmp[1] = (char)c;
      putn(w, tmp, 2);
    } else if (c == '\n') {
      put(w, "\\n");
    } else if (c == '\t') {
      put(w, "\\t");
    } else if (c < 0x20 || c == 0x7f) {
      snprintf(tmp, sizeof tmp, "\\x%02x", c);
      put(w, tmp);
    } else {
      putn(w, (const char *)&s[i], 1);
    }
  }
  put(w, "\"");
}

static void put_str(struct printer *w, const char *s) {
  if (s == NULL)
    put(w, "nil");
  else
    put_str_n(w, s, strlen(s));
}

static void put_ident(struct printer *w, const char *s) {
  bool plain = s[0] != '\0' && !isdigit((unsigned char)s[0]);
  for (const char *c = s; *c; c++)
    if (!isalnum((unsigned char)*c) && *c != '_' && *c != '$') plain = false;
  if (plain) {
    put(w, s);
    return;
  }
  put(w, "`");
  for (const char *c = s; *c; c++) {
    if (*c == '`') put(w, "`");
    putn(w, c, 1);
  }
  put(w, "`");
}

static void put_name(struct printer *w, const struct chv_sql_name *n) {
  for (int i = 0; i < n->nparts; i++) {
    if (i) put(w, ".");
    put_ident(w, n->parts[i]);
  }
}

static void put_props(struct printer *w, const char *tag,
                      const struct chv_sql_props *ps) {
  put(w, " (");
  put(w, tag);
  for (size_t i = 0; i < ps->n; i++) {
    put(w, " (");
    put_str(w, ps->items[i].key);
    if (ps->items[i].value) {
      put(w, " ");
      put_str(w, ps->items[i].value);
    }
    put(w, ")");
  }
  put(w, ")");
}

static void put_hints(struct printer *w, const struct chv_sql_hints *hs) {
  if (hs->n == 0) return;
  put(w, " (hints");
  for (size_t i = 0; i < hs->n; i++) {
    put(w, " ");
    put(w, "(");
    put_ident(w, hs->items[i].name);
    put_props(w, "args", &hs->items[i].args);
    put(w, ")");
  }
  put(w, ")");
}

static void put_expr(struct printer *w, const struct chv_sql_expr *e);
static void put_window(struct printer *w, const struct chv_sql_window *win);
static void put_query(struct printer *w, const struct chv_sql_query *q);
static void put_stmt(struct printer *w, const struct chv_sql_stmt *s);

static const char *const op_names[] = {
#define CHV_X_(k, s) s,
    CHV_SQL_OPS(CHV_X_)
#undef CHV_X_
};

static const char *const lit_names[] = {
#define CHV_X_(k, s) s,
    CHV_SQL_LIT_KINDS(CHV_X_)
#undef CHV_X_
};

static const char *const stmt_names[] = {
#define CHV_X_(k, s) s,
    CHV_SQL_STMT_KINDS(CHV_X_)
#undef CHV_X_
};

static void put_literal(struct printer *w, const struct chv_sql_expr *e) {
  switch (e->u.lit.kind) {
  case CHV_SQL_LIT_NULL:
    put(w, "null");
    return;
  case CHV_SQL_LIT_BOOLEAN:
    put(w, e->u.lit.value[0] == 'T' ? "true" : "false");
    return;
  default:
    break;
  }
  put(w, "(");
  put(w, lit_names[e->u.lit.kind]);
  put(w, " ");
  switch (e->u.lit.kind) {
  case CHV_SQL_LIT_INTEGER:
  case CHV_SQL_LIT_DECIMAL:
  case CHV_SQL_LIT_DOUBLE:
    put(w, e->u.lit.value);
    if (e->u.lit.suffix) {
      put(w, " ");
      put(w, e->u.lit.suffix);
    }
    break;
  default:
    put_str_n(w, e->u.lit.value, e->u.lit.value_len);
    if (e->u.lit.unit) {
      put(w, " ");
      put(w, e->u.lit.unit);
    }
    break;
  }
  put(w, ")");
}

static void put_exprs(struct printer *w, struct chv_sql_expr *const *v,
                      size_t n) {
  for (size_t i = 0; i < n; i++) {
    put(w, " ");
    put_expr(w, v[i]);
  }
}

/* A grouping set: (a b), (), or its one expression as it is. */
static void put_gset(struct printer *w, const struct chv_sql_query *q,
                     const struct chv_sql_grouping_set *set) {
  put(w, " ");
  if (set->paren) put(w, "(");
  for (size_t i = 0; i < set->n; i++) {
    if (i) put(w, " ");
    put_expr(w, q->group_by[set->keys[i]]);
  }
  if (set->paren) put(w, ")");
}

/* GROUP BY with grouping sets: its elements, (rollup ..), (cube ..),
** (grouping-sets ..), Hive's (with-rollup), (with-cube), (hive-sets ..). */
static void put_group_elems(struct printer *w, const struct chv_sql_query *q) {
  static const char *const kinds[] = {"",          "rollup",    "cube",
                                      "grouping-sets", "with-rollup",
                                      "with-cube", "hive-sets"};
  put(w, " (group-by");
  for (size_t i = 0; i < q->ngroup_elems; i++) {
    const struct chv_sql_group_elem *el = &q->group_elems[i];
    if (el->kind == CHV_SQL_GROUP_KEY) {
      put_gset(w, q, &el->sets[0]);
      continue;
    }
    put(w, " (");
    put(w, kinds[el->kind]);
    for (size_t k = 0; k < el->nsets; k++) put_gset(w, q, &el->sets[k]);
    put(w, ")");
  }
  put(w, ")");
}

static void put_expr(struct printer *w, const struct chv_sql_expr *e) {
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
  case CHV_SQL_EXPR_UNARY:
    put(w, "(");
    put(w, op_names[e->u.unary.op]);
    put(w, " ");
    put_expr(w, e->u.unary.arg);
    put(w, ")");
    break;
  case CHV_SQL_EXPR_BINARY:
    put(w, "(");
    put(w, op_names[e->u.binary.op]);
    put(w, " ");
    put_expr(w, e->u.binary.left);
    put(w, " ");
    put_expr(w, e->u.binary.right);
    put(w, ")");
    break;
  case CHV_SQL_EXPR_IN:
    put(w, e->u.in.negated ? "(not-in " : "(in ");
    put_expr(w, e->u.in.arg);
    put_exprs(w, e->u.in.list, e->u.in.n);
    put(w, ")");
    break;
  case CHV_SQL_EXPR_BETWEEN:
    put(w, e->u.between.negated ? "(not-between " : "(between ");
    put_expr(w, e->u.between.arg);
    put(w, " ");
    put_expr(w, e->u.between.low);
    put(w, " ");
    put_expr(w, e->u.between.high);
    put(w, ")");
    break;
  case CHV_SQL_EXPR_LIKE:
    put(w, e->u.like.negated ? "(not-" : "(");
    put(w, e->u.like.regex ? "rlike " : "like ");
    put_expr(w, e->u.like.arg);
    put(w, " ");
    put_expr(w, e->u.like.pattern);
    put(w, ")");
    break;
  case CHV_SQL_EXPR_IS:
    put(w, e->u.is.negated ? "(is-not-" : "(is-");
    put(w, e->u.is.what == CHV_SQL_IS_NULL   ? "null "
           : e->u.is.what == CHV_SQL_IS_TRUE ? "true "
                                             : "false ");
    put_expr(w, e->u.is.arg);
    put(w, ")");
    break;
  case CHV_SQL_EXPR_CASE:
    put(w, "(case");
    if (e->u.case_.operand) {
      put(w, " ");
      put_expr(w, e->u.case_.operand);
    }
    for (size_t i = 0; i < e->u.case_.n; i++) {
      put(w, " (when ");
      put_expr(w, e->u.case_.when[i]);
      put(w, " ");
      put_expr(w, e->u.case_.then[i]);
      put(w, ")");
    }
    if (e->u.case_.else_) {
      put(w, " (else ");
      put_expr(w, e->u.case_.else_);
      put(w, ")");
    }
    put(w, ")");
    break;
  case CHV_SQL_EXPR_CAST:
    put(w, "(cast ");
    put_expr(w, e->u.cast.arg);
    put(w, " ");
    put_str(w, e->u.cast.type_text);
    put(w, ")");
    break;
  case CHV_SQL_EXPR_FUNC:
    put(w, "(call ");
    put_ident(w, e->u.func.name);
    if (e->u.func.distinct) put(w, " distinct");
    if (e->u.func.star) put(w, " *");
    put_exprs(w, e->u.func.args, e->u.func.n);
    if (e->u.func.over) {
      put(w, " ");
      put_window(w, e->u.func.over);
    }
    put(w, ")");
    break;
  case CHV_SQL_EXPR_SUBQUERY:
    put(w, "(subquery ");
    put_query(w, e->u.subquery);
    put(w, ")");
    break;
  case CHV_SQL_EXPR_EXISTS:
    put(w, "(exists ");
    put_query(w, e->u.subquery);
    put(w, ")");
    break;
  }
}

static void put_frame_bound(struct printer *w, enum chv_sql_frame_bound b,
                            const struct chv_sql_expr *n) {
  static const char *const names[] = {"unbounded-preceding", "preceding",
                                      "current-row", "following",
                                      "unbounded-following"};
  if (n) {
    put(w, " (");
    put(w, names[b]);
    put(w, " ");
    put_expr(w, n);
    put(w, ")");
  } else {
    put(w, " ");
    put(w, names[b]);
  }
}

/* (over [w] (partition-by ...) (order-by ...) (rows|range start end)) */
static void put_window(struct printer *w, const struct chv_sql_window *win) {
  put(w, "(over");
  if (win->name) {
    put(w, " ");
    put_ident(w, win->name);
  }
  if (win->npartition_by) {
    put(w, " (partition-by");
    put_exprs(w, win->partition_by, win->npartition_by);
    put(w, ")");
  }
  if (win->norder_by) {
    put(w, " (order-by");
    for (size_t i = 0; i < win->norder_by; i++) {
      put(w, win->order_by[i].desc ? " (desc " : " (asc ");
      put_expr(w, win->order_by[i].expr);
      if (win->order_by[i].nulls)
        put(w, win->order_by[i].nulls == 1 ? " nulls-first" : " nulls-last");
      put(w, ")");
    }
    put(w, ")");
  }
  if (win->frame != CHV_SQL_FRAME_NONE) {
    put(w, win->frame == CHV_SQL_FRAME_ROWS ? " (rows" : " (range");
    put_frame_bound(w, win->start, win->start_n);
    put_frame_bound(w, win->end, win->end_n);
    put(w, ")");
  }
  put(w, ")");
}

/* (sample rows 10), (sample percent 0.5), (sample bytes 100M),
** (sample bucket 3 32 [(on e ...)]) */
static void put_sample(struct printer *w, const struct chv_sql_sample *sm) {
  static const char *const kinds[] = {"rows", "percent", "bytes", "bucket"};
  put(w, " (sample ");
  put(w, kinds[sm->kind]);
  put(w, " ");
  put(w, sm->value);
  if (sm->out_of) {
    put(w, " ");
    put(w, sm->out_of);
  }
  if (sm->non) {
    put(w, " (on");
    put_exprs(w, sm->on, sm->non);
    put(w, ")");
  }
  put(w, ")");
}

static void put_from(struct printer *w, const struct chv_sql_from *f) {
  static const char *const joins[] = {"inner", "left", "right", "full",
                                      "cross", "semi", "anti", "not-in"};
  switch (f->kind) {
  case CHV_SQL_FROM_TABLE:
    put(w, "(table ");
    put_name(w, &f->table);
    put_hints(w, &f->hints);
    if (f->sample) put_sample(w, f->sample);
    if (f->system_time) {
      put(w, " (system-time ");
      put_expr(w, f->system_time);
      put(w, ")");
    }
    break;
  case CHV_SQL_FROM_SUBQUERY:
    put(w, "(derived ");
    put_query(w, f->subquery);
    put_hints(w, &f->hints);
    break;
  case CHV_SQL_FROM_JOIN:
    put(w, "(join ");
    if (f->natural) put(w, "natural ");
    put(w, joins[f->join]);
    put(w, " ");
    put_from(w, f->left);
    put(w, " ");
    put_from(w, f->right);
    if (f->on) {
      put(w, " (on ");
      put_expr(w, f->on);
      put(w, ")");
    }
    if (f->nusing) {
      put(w, " (using");
      for (size_t i = 0; i < f->nusing; i++) {
        put(w, " ");
        put(w, f->using_cols[i]);
      }
      put(w, ")");
    }
    break;
  }
  if (f->alias) {
    put(w, " (alias ");
    put_ident(w, f->alias);
    put(w, ")");
  }
  for (size_t i = 0; i < f->ncolumns; i++) {
    put(w, i ? " " : " (columns ");
    put_ident(w, f->columns[i]);
    if (i + 1 == f->ncolumns) put(w, ")");
  }
  put(w, ")");
}

static void put_query(struct printer *w, const struct chv_sql_query *q) {
  switch (q->kind) {
  case CHV_SQL_QUERY_SELECT:
    put(w, q->distinct ? "(select distinct" : "(select");
    break;
  case CHV_SQL_QUERY_UNION: {
    static const char *const ops[] = {"(union", "(intersect", "(except"};
    put(w, ops[q->setop]);
    if (q->all) put(w, "-all");
    break;
  }
  case CHV_SQL_QUERY_VALUES:
    put(w, "(values");
    break;
  }
  if (q->nctes) {
    put(w, " (with");
    for (size_t i = 0; i < q->nctes; i++) {
      put(w, " (");
      put_ident(w, q->ctes[i].name);
      put(w, " ");
      put_query(w, q->ctes[i].query);
      put(w, ")");
    }
    put(w, ")");
  }
  switch (q->kind) {
  case CHV_SQL_QUERY_SELECT:
    put(w, " (items");
    for (size_t i = 0; i < q->nitems; i++) {
      put(w, " ");
      if (q->items[i].alias) {
        put(w, "(as ");
        put_expr(w, q->items[i].expr);
        put(w, " ");
        put_ident(w, q->items[i].alias);
        put(w, ")");
      } else {
        put_expr(w, q->items[i].expr);
      }
    }
    put(w, ")");
    if (q->from) {
      put(w, " (from ");
      put_from(w, q->from);
      put(w, ")");
    }
    if (q->where) {
      put(w, " (where ");
      put_expr(w, q->where);
      put(w, ")");
    }
    if (q->ngroup_elems) {
      put_group_elems(w, q);
    } else if (q->ngroup_by) {
      put(w, " (group-by");
      put_exprs(w, q->group_by, q->ngroup_by);
      put(w, ")");
    }
    if (q->having) {
      put(w, " (having ");
      put_expr(w, q->having);
      put(w, ")");
    }
    if (q->nwindows) {
      put(w, " (window");
      for (size_t i = 0; i < q->nwindows; i++) {
        put(w, " (");
        put_ident(w, q->windows[i].name);
        put(w, " ");
        put_window(w, q->windows[i].window);
        put(w, ")");
      }
      put(w, ")");
    }
    break;
  case CHV_SQL_QUERY_UNION:
    put(w, " ");
    put_query(w, q->left);
    put(w, " ");
    put_query(w, q->right);
    break;
  case CHV_SQL_QUERY_VALUES:
    for (size_t i = 0; i < q->nrows; i++) {
      put(w, " (row");
      put_exprs(w, q->rows[i], q->row_lens[i]);
      put(w, ")");
    }
    break;
  }
  if (q->norder_by) {
    put(w, " (order-by");
    for (size_t i = 0; i < q->norder_by; i++) {
      put(w, q->order_by[i].desc ? " (desc " : " (asc ");
      put_expr(w, q->order_by[i].expr);
      if (q->order_by[i].nulls)
        put(w, q->order_by[i].nulls == 1 ? " nulls-first" : " nulls-last");
      put(w, ")");
    }
    put(w, ")");
  }
  if (q->ndistribute_by) {
    put(w, " (distribute-by");
    for (size_t i = 0; i < q->ndistribute_by; i++) {
      put(w, " ");
      put_expr(w, q->distribute_by[i]);
    }
    put(w, ")");
  }
  if (q->order_kind != CHV_SQL_ORDER_BY)
    put(w, q->order_kind == CHV_SQL_SORT_BY ? " (sort-by)" : " (cluster-by)");
  if (q->limit) {
    put(w, " (limit ");
    put_expr(w, q->limit);
    put(w, ")");
  }
  if (q->offset) {
    put(w, " (offset ");
    put_expr(w, q->offset);
    put(w, ")");
  }
  put(w, ")");
}

static void put_spec(struct printer *w, const struct chv_sql_part_spec *sp) {
  put(w, " (partition");
  for (size_t i = 0; i < sp->n; i++) {
    put(w, " (");
    put_ident(w, sp->items[i].key);
    if (sp->items[i].value) {
      put(w, " ");
      put_expr(w, sp->items[i].value);
    }
    put(w, ")");
  }
  put(w, ")");
}

static void put_tagged_str(struct printer *w, const char *tag, const char *s) {
  if (s == NULL) return;
  put(w, " (");
  put(w, tag);
  put(w, " ");
  put_str(w, s);
  put(w, ")");
}

static void put_columns(struct printer *w, const char *tag,
                        const struct chv_sql_column *c, size_t n) {
  put(w, " (");
  put(w, tag);
  for (size_t i = 0; i < n; i++) {
    put(w, " ");
    if (c[i].type_text == NULL && c[i].computed == NULL &&
        c[i].comment == NULL) {
      put_ident(w, c[i].name);
      continue;
    }
    put(w, "(");
    put_ident(w, c[i].name);
    if (c[i].type_text || c[i].computed) put(w, " ");
    if (c[i].type_text == NULL && c[i].computed == NULL) {
      /* a name with a comment: a view's column */
    } else if (c[i].computed) {
      put(w, "(as ");
      put_expr(w, c[i].computed);
      put(w, ")");
    } else {
      put_str(w, c[i].type_text);
    }
    if (c[i].not_null) put(w, " not-null");
    put_tagged_str(w, "comment", c[i].comment);
    put(w, ")");
  }
  put(w, ")");
}

static void put_storage(struct printer *w,
                        const struct chv_sql_create_table *ct);

static void put_create_table(struct printer *w,
                             const struct chv_sql_create_table *ct) {
  if (ct->temporary) put(w, " temporary");
  if (ct->external) put(w, " external");
  if (ct->if_not_exists) put(w, " if-not-exists");
  put(w, ct->form == CHV_SQL_FORM_FLINK ? " (form flink)" : " (form hive)");
  if (ct->ncolumns) put_columns(w, "columns", ct->columns, ct->ncolumns);
  if (ct->nprimary_key) {
    put(w, " (primary-key");
    for (size_t i = 0; i < ct->nprimary_key; i++) {
      put(w, " ");
      put_ident(w, ct->primary_key[i]);
    }
    put(w, ct->pk_not_enforced ? " not-enforced)" : ")");
  }
  if (ct->watermark) {
    put(w, " (watermark ");
    put_ident(w, ct->watermark_column);
    put(w, " ");
    put_expr(w, ct->watermark);
    put(w, ")");
  }
  put_tagged_str(w, "comment", ct->comment);
  if (ct->npart_columns)
    put_columns(w, "partitioned-by", ct->part_columns, ct->npart_columns);
  put_storage(w, ct);
  put_tagged_str(w, "location", ct->location);
  if (ct->tblproperties.items) put_props(w, "tblproperties", &ct->tblproperties);
  if (ct->with.items || ct->form == CHV_SQL_FORM_FLINK) {
    if (ct->with.n || ct->with.items) put_props(w, "with", &ct->with);
  }
  if (ct->like.nparts) {
    put(w, " (like ");
    put_name(w, &ct->like);
    put(w, ")");
  }
  if (ct->as_query) {
    put(w, " (as ");
    put_query(w, ct->as_query);
    put(w, ")");
  }
}

/* ROW FORMAT and STORED AS of a CREATE TABLE or an INSERT ... DIRECTORY. */
static void put_storage(struct printer *w,
                        const struct chv_sql_create_table *ct) {
  if (ct->row_format == CHV_SQL_ROW_FORMAT_DELIMITED) {
    put(w, " (row-format delimited");
    put_tagged_str(w, "fields", ct->fields_terminated);
    put_tagged_str(w, "escaped", ct->escaped_by);
    put_tagged_str(w, "collection-items", ct->collection_terminated);
    put_tagged_str(w, "map-keys", ct->map_keys_terminated);
    put_tagged_str(w, "lines", ct->lines_terminated);
    put_tagged_str(w, "null", ct->null_defined_as);
    put(w, ")");
  } else if (ct->row_format == CHV_SQL_ROW_FORMAT_SERDE) {
    put(w, " (row-format serde ");
    put_str(w, ct->serde);
    if (ct->serde_props.n) put_props(w, "serdeproperties", &ct->serde_props);
    put(w, ")");
  }
  if (ct->stored_as) {
    put(w, " (stored-as ");
    put(w, ct->stored_as);
    put(w, ")");
  }
  put_tagged_str(w, "inputformat", ct->input_format);
  put_tagged_str(w, "outputformat", ct->output_format);
}

static void put_create_view(struct printer *w,
                            const struct chv_sql_create_view *cv) {
  if (cv->or_replace) put(w, " or-replace");
  if (cv->temporary) put(w, " temporary");
  if (cv->if_not_exists) put(w, " if-not-exists");
  if (cv->ncolumns) put_columns(w, "columns", cv->columns, cv->ncolumns);
  put_tagged_str(w, "comment", cv->comment);
  if (cv->tblproperties.items)
    put_props(w, "tblproperties", &cv->tblproperties);
  put(w, " (as ");
  put_query(w, cv->query);
  put(w, ")");
  put_tagged_str(w, "text", cv->query_text);
}

static void put_stmt(struct printer *w, const struct chv_sql_stmt *s) {
  put(w, "(");
  put(w, stmt_names[s->kind]);
  if (s->name.nparts && s->kind != CHV_SQL_STMT_SHOW_TABLES &&
      s->kind != CHV_SQL_STMT_SHOW_VIEWS) {
    put(w, " ");
    put_name(w, &s->name);
  }
  if (s->view) put(w, " view");
  switch (s->kind) {
  case CHV_SQL_STMT_CREATE_CATALOG:
    put_props(w, "with", &s->props);
    break;
  case CHV_SQL_STMT_CREATE_DATABASE:
    if (s->if_not_exists) put(w, " if-not-exists");
    put_tagged_str(w, "comment", s->comment);
    put_tagged_str(w, "location", s->location);
    if (s->props.items) put_props(w, "dbproperties", &s->props);
    break;
  case CHV_SQL_STMT_DROP_DATABASE:
    if (s->if_exists) put(w, " if-exists");
    if (s->cascade) put(w, " cascade");
    break;
  case CHV_SQL_STMT_SHOW_TABLES:
  case CHV_SQL_STMT_SHOW_VIEWS:
    if (s->name.nparts) {
      put(w, " (in ");
      put_name(w, &s->name);
      put(w, ")");
    }
    put_tagged_str(w, "like", s->like);
    break;
  case CHV_SQL_STMT_SHOW_PARTITIONS:
  case CHV_SQL_STMT_TRUNCATE_TABLE:
    if (s->partition.n) put_spec(w, &s->partition);
    break;
  case CHV_SQL_STMT_DESCRIBE:
    if (s->describe_mode) {
      put(w, " ");
      put(w, s->describe_mode[0] == 'F' ? "formatted" : "extended");
    }
    if (s->partition.n) put_spec(w, &s->partition);
    if (s->describe_column.nparts) {
      put(w, " (column ");
      put_name(w, &s->describe_column);
      put(w, ")");
    }
    break;
  case CHV_SQL_STMT_ANALYZE:
    if (s->partition.n) put_spec(w, &s->partition);
    if (s->noscan) put(w, " noscan");
    if (s->for_columns) {
      put(w, " (for-columns");
      if (s->nstat_columns == 0) put(w, " all");
      for (size_t i = 0; i < s->nstat_columns; i++) {
        put(w, " ");
        put_name(w, &s->stat_columns[i]);
      }
      put(w, ")");
    }
    break;
  case CHV_SQL_STMT_CREATE_TABLE:
    put_create_table(w, s->create_table);
    break;
  case CHV_SQL_STMT_CREATE_VIEW:
  case CHV_SQL_STMT_ALTER_VIEW:
    put_create_view(w, s->create_view);
    break;
  case CHV_SQL_STMT_DROP_TABLE:
    if (s->if_exists) put(w, " if-exists");
    break;
  case CHV_SQL_STMT_ADD_PARTITIONS:
    if (s->if_not_exists) put(w, " if-not-exists");
    for (size_t i = 0; i < s->nadd_parts; i++) {
      put_spec(w, &s->add_parts[i].spec);
      put_tagged_str(w, "location", s->add_parts[i].location);
    }
    break;
  case CHV_SQL_STMT_DROP_PARTITIONS:
    if (s->if_exists) put(w, " if-exists");
    for (size_t i = 0; i < s->ndrop_parts; i++) put_spec(w, &s->drop_parts[i]);
    break;
  case CHV_SQL_STMT_SET_TBLPROPERTIES:
    put_props(w, "tblproperties", &s->props);
    break;
  case CHV_SQL_STMT_RENAME_TABLE:
    put(w, " ");
    put_name(w, &s->new_name);
    break;
  case CHV_SQL_STMT_LOAD_DATA:
    if (s->local) put(w, " local");
    if (s->overwrite) put(w, " overwrite");
    put(w, " ");
    put_str(w, s->inpath);
    if (s->partition.n) put_spec(w, &s->partition);
    break;
  case CHV_SQL_STMT_INSERT:
    put(w, s->overwrite ? " overwrite" : " into");
    put_hints(w, &s->hints);
    if (s->partition.n) put_spec(w, &s->partition);
    if (s->ncolumns) {
      put(w, " (columns");
      for (size_t i = 0; i < s->ncolumns; i++) {
        put(w, " ");
        put_ident(w, s->columns[i]);
      }
      put(w, ")");
    }
    put(w, " ");
    put_query(w, s->query);
    break;
  case CHV_SQL_STMT_QUERY:
    put(w, " ");
    put_query(w, s->query);
    break;
  case CHV_SQL_STMT_SET:
  case CHV_SQL_STMT_RESET:
    if (s->key) {
      if (!s->quoted) put(w, " raw");
      put(w, " ");
      put_str(w, s->key);
      if (s->value) {
        put(w, " ");
        put_str(w, s->value);
      }
    }
    break;
  case CHV_SQL_STMT_EXPLAIN:
    if (s->analyze) put(w, " analyze");
    put(w, " ");
    put_stmt(w, s->explained);
    break;
  case CHV_SQL_STMT_INSERT_DIRECTORY:
    if (s->local) put(w, " local");
    put(w, " ");
    put_str(w, s->directory);
    if (s->storage) put_storage(w, s->storage);
    put(w, " ");
    put_query(w, s->query);
    break;
  case CHV_SQL_STMT_MULTI_INSERT:
    put(w, " (from ");
    put_from(w, s->source);
    put(w, ")");
    for (size_t i = 0; i < s->ninserts; i++) {
      put(w, " ");
      put_stmt(w, s->inserts[i]);
    }
    break;
  default:
    break;
  }
  put(w, ")");
}

int chv_sql_ast_print(const struct chv_sql_stmt *stmt, struct chv_buf *out) {
  if (stmt == NULL || out == NULL) return CHV_EINVAL;
  struct printer w = {out, CHV_OK};
  put_stmt(&w, stmt);
  return w.rc;
}
