/*
** sql/session/winbuild: the window calls of a SELECT (f(...) OVER (...))
** and the Window nodes that compute them (sql/plan/node.h).
**
** While the select items and the ORDER BY keys are bound, a hook of the
** binder (sql_wins_on()) takes each window call: its arguments, partition
** and order keys are bound over what the SELECT reads before its window
** calls (the rows of FROM and WHERE, or of GROUP BY and HAVING), and the
** call becomes a COLUMN of the Window nodes' output whose number is known
** once everything is bound (the binder may still add scan columns):
** sql_wins_nodes() then numbers them and stacks the nodes over the
** input:
**
**   Project <- [Sort] <- Window ... <- Window <- [Filter: HAVING] <- ...
**
** one Window per sort: calls with the same PARTITION BY whose ORDER BY
** keys are a prefix of one another share a node, sorted by the longest.
** A node gives its input's columns, then one per call.
**
** The rules, Flink's (Calcite's) where Hive's and Flink's differ:
** ROW_NUMBER, RANK, DENSE_RANK and NTILE give BIGINT, PERCENT_RANK and
** CUME_DIST DOUBLE; RANK, DENSE_RANK, PERCENT_RANK and CUME_DIST need an
** ORDER BY; no ranking function, NTILE, LAG or LEAD takes a frame; NTILE's
** count and LAG's and LEAD's offset are integer literals; the default
** frame is RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW with an ORDER
** BY and the whole partition without, as in Hive and SQL; a RANGE
** frame's n PRECEDING or FOLLOWING needs one ORDER BY key, a number (the
** offset a literal the key's type holds exactly) or a DATE or TIMESTAMP
** (an INTERVAL), and becomes its offset in the key's terms.
**
** INTERFACE: sql_wins_on(), sql_wins_off(), sql_wins_nodes()
** (session_int.h).
*/
#include "sql/session/session_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One distinct window call of the SELECT. */
struct sql_win_item {
  const char *text;             /* as sql_expr_text() writes it */
  struct sql_win_call call;     /* npart/norder set; keys below */
  struct chv_expr *col;         /* the COLUMN the items read, numbered last */
  const struct chv_type *type;
  struct sql_sort_key *part, *order;
  const char **part_text, **order_text;
  int group;                    /* its Window node (sql_wins_nodes()) */
};

static int oomw(struct sql_wins *w) {
  return sql_err(w->err, CHV_ENOMEM, "out of memory");
}

static const char *arena_text(chv_arena *a, const struct chv_buf *b) {
  const char *s = b->data ? b->data : "";
  size_t n = strlen(s);
  char *p = chv_arena_alloc(a, n + 1);
  if (p) memcpy(p, s, n + 1);
  return p;
}

/* e's text: qualified (t.a, as written) where it tells calls and keys
** apart (a.s and b.s of a join are two), else as EXPLAIN shows it. */
static const char *text_in(struct sql_wins *w, const struct chv_sql_expr *e,
                           bool qualified) {
  struct chv_buf t;
  chv_buf_init(&t);
  if (qualified)
    sql_expr_text_qualified(e, &t);
  else
    sql_expr_text(e, &t);
  char *p = NULL;
  if (t.data && (p = chv_arena_alloc(w->a, t.len + 1)))
    memcpy(p, t.data, t.len + 1);
  chv_buf_free(&t);
  return p;
}

static const char *text_of(struct sql_wins *w, const struct chv_sql_expr *e) {
  return text_in(w, e, true);
}

/* A non-negative integer literal (what: how the error names it). */
static int int_literal(struct sql_wins *w, const struct chv_sql_expr *e,
                       const char *what, int64_t min, int64_t *out) {
  *w->pos = e->pos;
  if (e->kind == CHV_SQL_EXPR_LITERAL && e->u.lit.kind == CHV_SQL_LIT_INTEGER &&
      e->u.lit.value) {
    errno = 0;
    char *end;
    long long x = strtoll(e->u.lit.value, &end, 10);
    if (errno == 0 && *end == '\0' && x >= min) {
      *out = x;
      return CHV_OK;
    }
  }
  return sql_err(w->err, CHV_EINVAL, "%s takes %s integer literal", what,
                 min > 0 ? "a positive" : "a non-negative");
}

/* The window a call's OVER gives: a named window of the WINDOW clause with
** what the OVER adds to it (its own PARTITION BY, ORDER BY or frame). */
static int resolve_window(struct sql_wins *w, const struct chv_sql_window *o,
                          struct chv_sql_window *out) {
  *out = *o;
  const char *name = o->name;
  for (int depth = 0; name; depth++) {
    const struct chv_sql_window *nw = NULL;
    for (size_t i = 0; i < w->q->nwindows && !nw; i++)
      if (!strcasecmp(w->q->windows[i].name, name)) nw = w->q->windows[i].window;
    *w->pos = o->pos;
    if (!nw) return sql_err(w->err, CHV_EINVAL, "window %s is not defined", name);
    if (depth > 16)
      return sql_err(w->err, CHV_EINVAL, "window %s refers to itself", name);
    if (!out->npartition_by) {
      out->partition_by = nw->partition_by;
      out->npartition_by = nw->npartition_by;
    }
    if (!out->norder_by) {
      out->order_by = nw->order_by;
      out->norder_by = nw->norder_by;
    }
    if (out->frame == CHV_SQL_FRAME_NONE) {
      out->frame = nw->frame;
      out->start = nw->start;
      out->end = nw->end;
      out->start_n = nw->start_n;
      out->end_n = nw->end_n;
      out->frame_pos = nw->frame_pos;
    }
    name = nw->name;
  }
  return CHV_OK;
}

/* The function of a call named n; false when it is none. */
static bool win_fn(const char *n, enum sql_win_fn *fn) {
  static const struct {
    const char *name;
    enum sql_win_fn fn;
  } fns[] = {{"row_number", SQL_WIN_ROW_NUMBER},
             {"rank", SQL_WIN_RANK},
             {"dense_rank", SQL_WIN_DENSE_RANK},
             {"percent_rank", SQL_WIN_PERCENT_RANK},
             {"cume_dist", SQL_WIN_CUME_DIST},
             {"ntile", SQL_WIN_NTILE},
             {"lag", SQL_WIN_LAG},
             {"lead", SQL_WIN_LEAD},
             {"first_value", SQL_WIN_FIRST_VALUE},
             {"last_value", SQL_WIN_LAST_VALUE}};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(fns); i++)
    if (!strcasecmp(n, fns[i].name)) {
      *fn = fns[i].fn;
      return true;
    }
  if (!sql_is_aggregate(n)) return false;
  *fn = SQL_WIN_AGG;
  return true;
}

/* The keys of a window: bound over b, primitive, with their texts. */
static int bind_keys(struct sql_wins *w, const struct chv_sql_window *win,
                     struct sql_win_item *it) {
  size_t np = win->npartition_by, no = win->norder_by;
  it->part = chv_arena_alloc(w->a, sizeof *it->part * (np + 1));
  it->order = chv_arena_alloc(w->a, sizeof *it->order * (no + 1));
  it->part_text = chv_arena_alloc(w->a, sizeof *it->part_text * (np + 1));
  it->order_text = chv_arena_alloc(w->a, sizeof *it->order_text * (no + 1));
  if (!it->part || !it->order || !it->part_text || !it->order_text)
    return oomw(w);
  for (size_t k = 0; k < np + no; k++) {
    const struct chv_sql_expr *e =
        k < np ? win->partition_by[k] : win->order_by[k - np].expr;
    struct chv_expr *x;
    CHV_RETURN_IF_ERR(sql_bind_expr(w->b, e, &x));
    if (!chv_type_is_primitive(x->type->id)) {
      *w->pos = e->pos;
      return sql_err(w->err, CHV_ENOTSUP, "%s BY a nested type in a window",
                     k < np ? "PARTITION" : "ORDER");
    }
    const char *t = text_of(w, e);
    if (!t) return oomw(w);
    if (k < np) {
      it->part[k] = (struct sql_sort_key){x, false, 0};
      it->part_text[k] = t;
    } else {
      const struct chv_sql_order_item *o = &win->order_by[k - np];
      it->order[k - np] = (struct sql_sort_key){x, o->desc, o->nulls};
      it->order_text[k - np] = t;
    }
  }
  it->call.npart = (int)np;
  it->call.norder = (int)no;
  return CHV_OK;
}

/* The frame of an aggregate, FIRST_VALUE or LAST_VALUE: given or the
** default one; checked. */
static int frame_of(struct sql_wins *w, const struct chv_sql_window *win,
                    struct sql_win_call *wc) {
  if (win->frame == CHV_SQL_FRAME_NONE) {
    wc->range = win->norder_by > 0;
    wc->start = CHV_SQL_FRAME_UNBOUNDED_PRECEDING;
    wc->end = win->norder_by ? CHV_SQL_FRAME_CURRENT_ROW
                             : CHV_SQL_FRAME_UNBOUNDED_FOLLOWING;
    return CHV_OK;
  }
  *w->pos = win->frame_pos;
  wc->range = win->frame == CHV_SQL_FRAME_RANGE;
  wc->start = (int)win->start;
  wc->end = (int)win->end;
  if (win->start == CHV_SQL_FRAME_UNBOUNDED_FOLLOWING)
    return sql_err(w->err, CHV_EINVAL,
                   "a window frame cannot start at UNBOUNDED FOLLOWING");
  if (win->end == CHV_SQL_FRAME_UNBOUNDED_PRECEDING)
    return sql_err(w->err, CHV_EINVAL,
                   "a window frame cannot end at UNBOUNDED PRECEDING");
  if (win->start > win->end)
    return sql_err(w->err, CHV_EINVAL,
                   "a window frame cannot start after its end (%s before %s)",
                   win->start == CHV_SQL_FRAME_FOLLOWING ? "FOLLOWING"
                                                         : "CURRENT ROW",
                   win->end == CHV_SQL_FRAME_PRECEDING ? "PRECEDING"
                                                       : "CURRENT ROW");
  if (wc->range) return CHV_OK; /* offsets: range_offsets() */
  if (win->start_n)
    CHV_RETURN_IF_ERR(
        int_literal(w, win->start_n, "a ROWS frame", 0, &wc->start_n));
  if (win->end_n)
    CHV_RETURN_IF_ERR(int_literal(w, win->end_n, "a ROWS frame", 0, &wc->end_n));
  return CHV_OK;
}

/* Offset e of a RANGE frame over an ORDER BY key of type kt into *o: a
** non-negative number (an integer for integer keys, of at most the
** key's decimal places for decimals) or, for DATE and TIMESTAMP, an
** INTERVAL of one unit or of a range of them (YEAR TO MONTH, DAY TO
** SECOND ...). */
static int range_offset(struct sql_wins *w, const struct chv_sql_expr *e,
                        const struct chv_type *kt, struct sql_win_offset *o) {
  char tn[64];
  sql_type_name(kt, tn, sizeof tn);
  *w->pos = e->pos;
  memset(o, 0, sizeof *o);
  enum chv_type_id id = kt->id;
  bool lit = e->kind == CHV_SQL_EXPR_LITERAL && e->u.lit.value;
  enum chv_sql_lit_kind lk = lit ? e->u.lit.kind : CHV_SQL_LIT_NULL;
  const char *v = lit ? e->u.lit.value : "";
  if (id == CHV_TYPE_DATE || id == CHV_TYPE_TIMESTAMP) {
    if (lk != CHV_SQL_LIT_INTERVAL)
      return sql_err(w->err, CHV_EINVAL,
                     "a RANGE frame over an ORDER BY key of type %s takes an "
                     "INTERVAL offset (INTERVAL '1' DAY)", tn);
    static const struct {
      const char *unit;
      int32_t months;
      int64_t nanos;
    } units[] = {{"YEAR", 12, 0},
                 {"MONTH", 1, 0},
                 {"WEEK", 0, 7 * 86400LL * 1000000000},
                 {"DAY", 0, 86400LL * 1000000000},
                 {"HOUR", 0, 3600LL * 1000000000},
                 {"MINUTE", 0, 60LL * 1000000000},
                 {"SECOND", 0, 1000000000}};
    /* the unit, or the units of "DAY TO SECOND", "YEAR TO MONTH" ... */
    const char *u = e->u.lit.unit ? e->u.lit.unit : "";
    int from = -1, to = -1;
    for (int part = 0; part < 2; part++) {
      const char *end = part ? u + strlen(u) : strchr(u, ' ');
      if (!end) end = u + strlen(u);
      size_t ul = (size_t)(end - u);
      if (ul > 1 && (u[ul - 1] == 's' || u[ul - 1] == 'S')) ul--;
      int k = 0;
      while (k < (int)CHV_ARRAY_SIZE(units) &&
             (strlen(units[k].unit) != ul || strncasecmp(units[k].unit, u, ul)))
        k++;
      if (k == (int)CHV_ARRAY_SIZE(units)) break;
      *(part ? &to : &from) = k;
      if (!*end) {
        if (!part) to = from;
        break;
      }
      if (strncasecmp(end, " TO ", 4)) break;
      u = end + 4;
    }
    u = e->u.lit.unit ? e->u.lit.unit : "";
    if (from < 0 || to < 0 || to < from || (from == 2) != (to == 2) ||
        (from <= 1 && to > 1) || (from > 2 && to <= 2))
      return sql_err(w->err, CHV_ENOTSUP,
                     "a RANGE frame's INTERVAL of %s is not supported yet "
                     "(YEAR, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, YEAR TO "
                     "MONTH, or DAY, HOUR or MINUTE TO a smaller unit)", u);
    /* one field of digits per unit, apart by ' ', ':' or '-' ('1 02:30'
    ** DAY TO MINUTE), and for SECOND a fraction of up to nine digits */
    chv_i128 nanos = 0;
    int64_t months = 0;
    const char *c = v;
    while (*c == ' ') c++;
    bool ok = true;
    for (int k = from; k <= to && ok; k++) {
      if (k > from) ok = *c == ' ' || *c == ':' || *c == '-';
      if (k > from) c++;
      int64_t f = 0;
      ok = ok && *c >= '0' && *c <= '9';
      for (; ok && *c >= '0' && *c <= '9'; c++)
        if ((f = f * 10 + (*c - '0')) > INT32_MAX) ok = false;
      int64_t frac = 0;
      int nf = 0;
      if (ok && *c == '.' && k == to && units[k].nanos == 1000000000)
        for (c++; *c >= '0' && *c <= '9'; c++)
          if (nf < 9) frac = frac * 10 + (*c - '0'), nf++;
      while (nf < 9) frac *= 10, nf++;
      months += f * units[k].months;
      nanos += (chv_i128)f * units[k].nanos + (units[k].nanos == 1000000000
                                                   ? frac : 0);
    }
    while (*c == ' ') c++;
    if (!ok || *c)
      return sql_err(w->err, CHV_EINVAL,
                     "a RANGE frame's offset is a non-negative INTERVAL of "
                     "whole numbers (each up to %d), not '%s' %s", INT32_MAX,
                     v, u);
    if (months > INT32_MAX)
      return sql_err(w->err, CHV_ERANGE, "a RANGE frame's INTERVAL is too "
                     "large");
    o->months = (int32_t)months;
    o->nanos = nanos;
    return CHV_OK;
  }
  bool isint = chv_type_is_integer(id);
  if (!isint && id != CHV_TYPE_DECIMAL && id != CHV_TYPE_FLOAT &&
      id != CHV_TYPE_DOUBLE)
    return sql_err(w->err, CHV_EINVAL,
                   "a RANGE frame with an offset orders by a number, a DATE "
                   "or a TIMESTAMP, not by %s", tn);
  bool num = lk == CHV_SQL_LIT_INTEGER || lk == CHV_SQL_LIT_DECIMAL ||
             lk == CHV_SQL_LIT_DOUBLE;
  if (!num || (isint && lk != CHV_SQL_LIT_INTEGER) ||
      (id == CHV_TYPE_DECIMAL && lk == CHV_SQL_LIT_DOUBLE))
    return sql_err(w->err, CHV_EINVAL,
                   "a RANGE frame over an ORDER BY key of type %s takes a "
                   "non-negative %s literal as its offset", tn,
                   isint ? "integer" : id == CHV_TYPE_DECIMAL
                                           ? "integer or decimal"
                                           : "number");
  if (id == CHV_TYPE_FLOAT || id == CHV_TYPE_DOUBLE) {
    o->d = strtod(v, NULL);
    return CHV_OK;
  }
  int scale = isint ? 0 : kt->scale;
  const char *dot = strchr(v, '.');
  int places = 0;
  for (const char *c = dot ? dot + 1 : v + strlen(v); *c >= '0' && *c <= '9';
       c++)
    places++;
  if (places > scale)
    return sql_err(w->err, CHV_EINVAL,
                   "the offset %s of a RANGE frame has more decimal places "
                   "than its ORDER BY key of type %s", e->u.lit.text, tn);
  if (chv_decimal_parse(v, strlen(v), CHV_DECIMAL_MAX_PRECISION, scale,
                        &o->n) != CHV_OK)
    return sql_err(w->err, CHV_ERANGE,
                   "the offset %s of a RANGE frame is out of range for its "
                   "ORDER BY key of type %s", e->u.lit.text, tn);
  return CHV_OK;
}

/* A RANGE frame's n PRECEDING and n FOLLOWING, over the call's one ORDER
** BY key (the standard's rule: with more keys, or none, an error). */
static int range_offsets(struct sql_wins *w, const struct chv_sql_window *win,
                         struct sql_win_item *it) {
  struct sql_win_call *wc = &it->call;
  if (!wc->range || (!win->start_n && !win->end_n)) return CHV_OK;
  *w->pos = win->frame_pos;
  if (win->norder_by != 1)
    return sql_err(w->err, CHV_EINVAL,
                   "a RANGE frame with an offset (n PRECEDING or n "
                   "FOLLOWING) needs exactly one ORDER BY key, not %zu",
                   win->norder_by);
  const struct chv_type *kt = it->order[0].expr->type;
  if (win->start_n)
    CHV_RETURN_IF_ERR(range_offset(w, win->start_n, kt, &wc->off[0]));
  if (win->end_n)
    CHV_RETURN_IF_ERR(range_offset(w, win->end_n, kt, &wc->off[1]));
  return CHV_OK;
}

/* Binds the window call e (a FUNC with over) into a new item. */
static int bind_call(struct sql_wins *w, const struct chv_sql_expr *e,
                     struct sql_win_item *it) {
  const char *n = e->u.func.name;
  struct sql_win_call *wc = &it->call;
  enum sql_win_fn fn;
  *w->pos = e->pos;
  if (!win_fn(n, &fn))
    return sql_err(w->err, CHV_EINVAL,
                   "%s is not a window function: OVER follows an aggregate "
                   "or ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, "
                   "CUME_DIST, NTILE, LAG, LEAD, FIRST_VALUE or LAST_VALUE",
                   n);
  wc->fn = fn;
  struct chv_sql_window win;
  CHV_RETURN_IF_ERR(resolve_window(w, e->u.func.over, &win));
  size_t na = e->u.func.n;
  *w->pos = e->pos;
  if (e->u.func.distinct && !(fn == SQL_WIN_AGG && !strcasecmp(n, "count")))
    return sql_err(w->err, CHV_ENOTSUP,
                   "%s(DISTINCT ...) OVER is not supported yet", n);
  switch (fn) {
  case SQL_WIN_ROW_NUMBER:
  case SQL_WIN_RANK:
  case SQL_WIN_DENSE_RANK:
  case SQL_WIN_PERCENT_RANK:
  case SQL_WIN_CUME_DIST:
    if (na || e->u.func.star)
      return sql_err(w->err, CHV_EINVAL, "%s takes no arguments", n);
    if (fn != SQL_WIN_ROW_NUMBER && !win.norder_by)
      return sql_err(w->err, CHV_EINVAL,
                     "%s needs an ORDER BY in its window", n);
    it->type = chv_exec_type(w->a, fn == SQL_WIN_PERCENT_RANK ||
                                           fn == SQL_WIN_CUME_DIST
                                       ? CHV_TYPE_DOUBLE
                                       : CHV_TYPE_BIGINT, 0, 0);
    break;
  case SQL_WIN_NTILE:
    if (na != 1)
      return sql_err(w->err, CHV_EINVAL, "NTILE takes one argument");
    CHV_RETURN_IF_ERR(int_literal(w, e->u.func.args[0], "NTILE", 1, &wc->n));
    it->type = chv_exec_type(w->a, CHV_TYPE_BIGINT, 0, 0);
    break;
  case SQL_WIN_LAG:
  case SQL_WIN_LEAD:
    if (na < 1 || na > 3 || e->u.func.star)
      return sql_err(w->err, CHV_EINVAL,
                     "%s takes one to three arguments (value, offset, "
                     "default)", n);
    CHV_RETURN_IF_ERR(sql_bind_expr(w->b, e->u.func.args[0], &wc->arg));
    wc->n = 1;
    if (na >= 2)
      CHV_RETURN_IF_ERR(int_literal(w, e->u.func.args[1], n, 0, &wc->n));
    if (na == 3) {
      struct chv_expr *d;
      CHV_RETURN_IF_ERR(sql_bind_expr(w->b, e->u.func.args[2], &d));
      *w->pos = e->u.func.args[2]->pos;
      if (chv_type_equal(d->type, wc->arg->type))
        wc->dflt = d;
      else
        CHV_RETURN_IF_ERR(chv_expr_cast(w->a, d, wc->arg->type, &wc->dflt,
                                        w->err));
    }
    it->type = wc->arg->type;
    break;
  case SQL_WIN_FIRST_VALUE:
  case SQL_WIN_LAST_VALUE:
    if (na < 1 || na > 2 || e->u.func.star)
      return sql_err(w->err, CHV_EINVAL,
                     "%s takes one or two arguments (value, skip NULLs)", n);
    CHV_RETURN_IF_ERR(sql_bind_expr(w->b, e->u.func.args[0], &wc->arg));
    if (na == 2) {
      const struct chv_sql_expr *s = e->u.func.args[1];
      *w->pos = s->pos;
      if (s->kind != CHV_SQL_EXPR_LITERAL ||
          s->u.lit.kind != CHV_SQL_LIT_BOOLEAN)
        return sql_err(w->err, CHV_EINVAL,
                       "%s's second argument is TRUE or FALSE (skip NULLs)",
                       n);
      wc->skip_nulls = !strcasecmp(s->u.lit.value, "TRUE");
    }
    it->type = wc->arg->type;
    break;
  case SQL_WIN_AGG: {
    if (!strcasecmp(n, "count"))
      wc->agg = e->u.func.star       ? CHV_AGG_COUNT_STAR
                : e->u.func.distinct ? CHV_AGG_COUNT_DISTINCT
                                     : CHV_AGG_COUNT;
    else if (!strcasecmp(n, "sum")) wc->agg = CHV_AGG_SUM;
    else if (!strcasecmp(n, "min")) wc->agg = CHV_AGG_MIN;
    else if (!strcasecmp(n, "max")) wc->agg = CHV_AGG_MAX;
    else wc->agg = CHV_AGG_AVG;
    if (wc->agg != CHV_AGG_COUNT_STAR && na != 1)
      return sql_err(w->err, CHV_EINVAL, "%s takes one argument", n);
    if (wc->agg != CHV_AGG_COUNT_STAR) {
      CHV_RETURN_IF_ERR(sql_bind_expr(w->b, e->u.func.args[0], &wc->arg));
      if (!chv_type_is_primitive(wc->arg->type->id)) {
        *w->pos = e->u.func.args[0]->pos;
        return sql_err(w->err, CHV_ENOTSUP, "%s OVER of a nested type", n);
      }
    }
    *w->pos = e->pos;
    CHV_RETURN_IF_ERR(chv_agg_result_type(w->a, wc->agg,
                                          wc->arg ? wc->arg->type : NULL,
                                          &it->type, w->err));
    break;
  }
  }
  if (!it->type) return oomw(w);
  if (win.frame != CHV_SQL_FRAME_NONE && fn != SQL_WIN_AGG &&
      fn != SQL_WIN_FIRST_VALUE && fn != SQL_WIN_LAST_VALUE) {
    *w->pos = win.frame_pos;
    return sql_err(w->err, CHV_EINVAL, "%s does not take a window frame "
                   "(ROWS or RANGE)", n);
  }
  if (fn == SQL_WIN_AGG || fn == SQL_WIN_FIRST_VALUE ||
      fn == SQL_WIN_LAST_VALUE)
    CHV_RETURN_IF_ERR(frame_of(w, &win, wc));
  CHV_RETURN_IF_ERR(bind_keys(w, &win, it));
  return range_offsets(w, &win, it);
}

/* The binder's hook: a window call becomes its item's COLUMN; anything
** else goes to the hook that was there before (the aggregation's). */
static int win_hook(struct sql_bind *b, const struct chv_sql_expr *e,
                    struct chv_expr **out, bool *done) {
  struct sql_wins *w = b->hook_ctx;
  if (e->kind != CHV_SQL_EXPR_FUNC || !e->u.func.over) {
    if (!w->prev) return CHV_OK;
    b->hook_ctx = w->prev_ctx;
    int rc = w->prev(b, e, out, done);
    b->hook_ctx = w;
    return rc;
  }
  *w->pos = e->pos;
  if (w->inside)
    return sql_err(w->err, CHV_EINVAL,
                   "a window function inside a window function's arguments "
                   "or keys");
  const char *text = text_of(w, e);
  if (!text) return oomw(w);
  *done = true;
  for (int i = 0; i < w->n; i++)
    if (!strcmp(w->items[i].text, text)) {
      *out = w->items[i].col;
      return CHV_OK;
    }
  if (w->n == w->cap) {
    int cap = w->cap ? 2 * w->cap : 8;
    struct sql_win_item *v = chv_arena_alloc(w->a, sizeof *v * (size_t)cap);
    if (!v) return oomw(w);
    if (w->n) memcpy(v, w->items, sizeof *v * (size_t)w->n);
    w->items = v;
    w->cap = cap;
  }
  struct sql_win_item *it = &w->items[w->n];
  memset(it, 0, sizeof *it);
  it->text = text;
  it->call.text = text_in(w, e, false); /* EXPLAIN's */
  if (!it->call.text) return oomw(w);
  w->inside = true;
  int rc = bind_call(w, e, it);
  w->inside = false;
  if (rc != CHV_OK) return rc;
  /* numbered by sql_wins_nodes() */
  CHV_RETURN_IF_ERR(chv_expr_column(w->a, 0, it->type, &it->col, w->err));
  w->n++;
  *out = it->col;
  return CHV_OK;
}

void sql_wins_on(struct sql_wins *w, const struct chv_sql_query *q,
                 struct sql_bind *b, chv_arena *a, struct chv_sql_pos *pos,
                 struct chv_error *err) {
  if (w->b != b) {
    memset(w, 0, sizeof *w);
    w->q = q;
    w->b = b;
    w->a = a;
    w->pos = pos;
    w->err = err;
  }
  if (b->hook == win_hook) return;
  w->prev = b->hook;
  w->prev_ctx = b->hook_ctx;
  b->hook = win_hook;
  b->hook_ctx = w;
}

void sql_wins_off(struct sql_wins *w) {
  if (!w->b || w->b->hook != win_hook) return;
  w->b->hook = w->prev;
  w->b->hook_ctx = w->prev_ctx;
}

/* Whether item j can share group g's sort: the same partition keys, and
** order keys one a prefix of the other's. */
static bool shares(const struct sql_win_item *g, const struct sql_win_item *j) {
  if (g->call.npart != j->call.npart) return false;
  for (int k = 0; k < g->call.npart; k++)
    if (strcmp(g->part_text[k], j->part_text[k])) return false;
  int no = g->call.norder < j->call.norder ? g->call.norder : j->call.norder;
  for (int k = 0; k < no; k++)
    if (strcmp(g->order_text[k], j->order_text[k]) ||
        g->order[k].desc != j->order[k].desc ||
        g->order[k].nulls != j->order[k].nulls)
      return false;
  return true;
}

int sql_wins_nodes(struct sql_wins *w, struct sql_node **at) {
  sql_wins_off(w);
  if (!w->b || w->n == 0) return CHV_OK;
  /* the groups: lead[g] the item whose keys the node sorts by (the
  ** longest ORDER BY of its members) */
  int *lead = chv_arena_alloc(w->a, sizeof *lead * (size_t)(w->n + 1));
  if (!lead) return oomw(w);
  int ng = 0;
  for (int i = 0; i < w->n; i++) {
    struct sql_win_item *it = &w->items[i];
    int g = 0;
    while (g < ng && !shares(&w->items[lead[g]], it)) g++;
    if (g == ng) lead[ng++] = i;
    else if (it->call.norder > w->items[lead[g]].call.norder) lead[g] = i;
    it->group = g;
  }
  int col = (*at)->ncols;
  struct chv_buf t;
  chv_buf_init(&t);
  int rc = CHV_OK;
  for (int g = 0; g < ng && rc == CHV_OK; g++) {
    const struct sql_win_item *ld = &w->items[lead[g]];
    int nk = ld->call.npart + ld->call.norder, nc = 0;
    for (int i = 0; i < w->n; i++) nc += w->items[i].group == g;
    struct sql_node *nd, *in = *at;
    rc = sql_node_new(w->a, SQL_NODE_WINDOW, &in, 1, &nd, w->err);
    if (rc == CHV_OK) rc = sql_node_cols(w->a, nd, in->ncols + nc, w->err);
    if (rc != CHV_OK) break;
    if (in->ncols) memcpy(nd->cols, in->cols, sizeof *nd->cols * (size_t)in->ncols);
    nd->u.window.keys = chv_arena_alloc(w->a, sizeof *nd->u.window.keys * (size_t)(nk + 1));
    nd->u.window.calls = chv_arena_alloc(w->a, sizeof *nd->u.window.calls * (size_t)(nc + 1));
    if (!nd->u.window.keys || !nd->u.window.calls) {
      rc = oomw(w);
      break;
    }
    nd->u.window.nkeys = nk;
    nd->u.window.limit = -1;
    nd->pos = w->q->pos;
    chv_buf_reset(&t);
    for (int k = 0; k < nk; k++) {
      bool part = k < ld->call.npart;
      int o = k - ld->call.npart;
      nd->u.window.keys[k] = part ? ld->part[k] : ld->order[o];
      chv_buf_printf(&t, "%s%s", k ? ", " : "",
                     part ? ld->part_text[k] : ld->order_text[o]);
      if (!part && ld->order[o].desc) chv_buf_puts(&t, " DESC");
      if (!part && ld->order[o].nulls)
        chv_buf_puts(&t, ld->order[o].nulls == 1 ? " NULLS FIRST"
                                                 : " NULLS LAST");
    }
    nd->u.window.keys_text = arena_text(w->a, &t);
    chv_buf_reset(&t);
    int j = 0;
    for (int i = 0; i < w->n; i++) {
      struct sql_win_item *it = &w->items[i];
      if (it->group != g) continue;
      nd->u.window.calls[j] = it->call;
      nd->cols[in->ncols + j] =
          (struct sql_col){it->call.text, it->type, nd->pos};
      it->col->column = col++;
      chv_buf_printf(&t, "%s%s", j ? ", " : "", it->call.text);
      j++;
    }
    nd->u.window.ncalls = nc;
    nd->text = arena_text(w->a, &t);
    if (!nd->text || !nd->u.window.keys_text) rc = oomw(w);
    *at = nd;
  }
  chv_buf_free(&t);
  return rc;
}
