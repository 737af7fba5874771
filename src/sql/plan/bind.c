/*
** sql/plan/bind: the binder from the parser's expressions
** (include/chive/sql.h) to the evaluator's typed IR (src/sql/exec/exec.h)
** over the columns of one table.  Each column an expression names joins
** the bind's scan list once; a bound COLUMN node refers to its place in
** that list, which is the projection the caller asks the scan for.
**
** INTERFACE
**   sql_bind_init()/sql_bind_free()  a binder over one table (and alias)
**   sql_bind_expr()                  AST expression -> struct chv_expr
**   sql_bind_column()                a table column by name into the list
**   sql_expr_text()                  AST expression as SQL text (EXPLAIN)
**
** A hook (struct sql_bind.hook) may bind nodes itself: the aggregation
** path of sql_dml.c maps GROUP BY expressions and aggregate calls to the
** columns of chv_hash_agg's result that way.  Uncorrelated sub-queries
** are run by the caller's hooks (scalar: a literal; rows: EXISTS a
** literal, IN an IN over the set of the values, chv_expr_in_values()).
**
** Functions are looked up by name in the registry (src/sql/func);
** COALESCE is exec's own node.  Errors name the construct: functions and
** operators the evaluator lacks, aggregates, sub-queries ("... is not
** supported yet"); type errors come from the exec constructors and the
** registry's overload resolution, naming the operator or function and the
** types.
*/
#include "sql/plan/plan.h"
#include "sql/func/func.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int sql_bind_init(struct sql_bind *b, const struct chv_table *t,
                  const char *alias, chv_arena *a, struct chv_sql_pos *pos,
                  struct chv_error *err) {
  memset(b, 0, sizeof *b);
  b->t = t;
  b->alias = alias;
  b->a = a;
  b->pos = pos;
  b->err = err;
  int n = t->ncols + t->npkeys;
  b->ttypes = calloc((size_t)n + 1, sizeof *b->ttypes);
  b->cols = chv_arena_alloc(a, sizeof *b->cols * ((size_t)n + 1));
  b->types = chv_arena_alloc(a, sizeof *b->types * ((size_t)n + 1));
  b->tcols = chv_arena_alloc(a, sizeof *b->tcols * ((size_t)n + 1));
  if (!b->ttypes || !b->cols || !b->types || !b->tcols)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  for (int i = 0; i < n; i++) {
    const struct chv_column *c =
        i < t->ncols ? &t->columns[i] : &t->pkeys[i - t->ncols];
    int rc = chv_type_parse(c->type, &b->ttypes[i], err);
    if (rc != CHV_OK) return rc;
  }
  return CHV_OK;
}

void sql_bind_free(struct sql_bind *b) {
  if (b->ttypes) {
    int n = b->t->ncols + b->t->npkeys;
    for (int i = 0; i < n; i++) chv_type_free(b->ttypes[i]);
    free(b->ttypes);
  }
  memset(b, 0, sizeof *b);
}

static int oom(struct sql_bind *b) {
  return chv_error_set(b->err, CHV_ENOMEM, "out of memory");
}

int sql_bind_column(struct sql_bind *b, int tcol, struct chv_expr **out) {
  const char *n = tcol < b->t->ncols ? b->t->columns[tcol].name
                                     : b->t->pkeys[tcol - b->t->ncols].name;
  int k = 0;
  while (k < b->ncols && b->tcols[k] != tcol) k++;
  if (k == b->ncols) {
    b->cols[k] = n;
    b->tcols[k] = tcol;
    b->types[k] = b->ttypes[tcol];
    b->ncols++;
  }
  return chv_expr_column(b->a, k, b->types[k], out, b->err);
}

/* True when the qualifier parts[0, nq) names relation r. */
static bool rel_named(const struct sql_rel_name *r,
                      const struct chv_sql_name *nm, int nq) {
  const char *last = nm->parts[nq - 1];
  if (r->alias) return nq == 1 && !strcasecmp(last, r->alias);
  return r->name && !strcasecmp(last, r->name) &&
         (nq < 2 || (r->db && !strcasecmp(nm->parts[nq - 2], r->db)));
}

static void rel_text(const struct sql_rel_name *r, char *buf, size_t n) {
  if (r->alias)
    snprintf(buf, n, "%s", r->alias);
  else
    snprintf(buf, n, "%s%s%s", r->db ? r->db : "", r->db ? "." : "",
             r->name ? r->name : "");
}

int sql_rels_find(const struct sql_rels *rels, int tcol) {
  for (int r = 0; r < rels->n; r++)
    if (tcol >= rels->r[r].first && tcol < rels->r[r].first + rels->r[r].ncols)
      return r;
  return -1;
}

/* resolve() over the relations of a join: the one relation the qualifier
** names (none: every one the name may be seen in) that has the column. */
static int resolve_rels(struct sql_bind *b, const struct chv_sql_name *nm,
                        int *tcol) {
  const struct sql_rels *rs = b->rels;
  int nq = nm->nparts - 1;
  const char *n = nm->parts[nq];
  int found = -1, fr = -1, named = 0, unseen = -1;
  for (int r = 0; r < rs->n; r++) {
    const struct sql_rel_name *rn = &rs->r[r];
    if (nq > 0 && !rel_named(rn, nm, nq)) continue;
    /* a sub-query's relations (qualified) are named by qualifier only */
    if (nq == 0 && rn->qualified_only) continue;
    bool seen = b->on_seen ? b->on_seen[r] : !rn->hidden;
    named++;
    for (int c = 0; c < rn->ncols; c++) {
      const char *cn = b->t->columns[rn->first + c].name;
      if (strcasecmp(cn, n)) continue;
      char t1[256], t2[256];
      if (!seen) { /* an error only when no relation seen has it */
        if (unseen < 0) unseen = r;
        break;
      }
      if (found >= 0) {
        rel_text(&rs->r[fr], t1, sizeof t1);
        rel_text(rn, t2, sizeof t2);
        return chv_error_set(b->err, CHV_EINVAL,
                             "column reference '%s' is ambiguous: a column "
                             "of %s and of %s", n, t1, t2);
      }
      found = rn->first + c;
      fr = r;
      break;
    }
  }
  if (found >= 0) return *tcol = found, CHV_OK;
  if (unseen >= 0) {
    char t1[256];
    rel_text(&rs->r[unseen], t1, sizeof t1);
    return chv_error_set(b->err, CHV_EINVAL, b->on_seen ?
        "column '%s' of %s cannot be used in this ON: it names the "
        "relations of its own join only" :
        "column '%s' of %s cannot be used here: the right side of a "
        "LEFT SEMI or ANTI JOIN is seen only in its ON", n, t1);
  }
  if (nq > 0 && !named) {
    const char *last = nm->parts[nq - 1];
    return chv_error_set(b->err, CHV_ENOENT,
                         "unknown table qualifier '%s' in %s.%s", last, last,
                         n);
  }
  struct chv_buf t;
  chv_buf_init(&t);
  for (int r = 0, k = 0; r < rs->n; r++) {
    if (nq > 0 && !rel_named(&rs->r[r], nm, nq)) continue;
    char t1[256];
    rel_text(&rs->r[r], t1, sizeof t1);
    chv_buf_printf(&t, "%s%s", k++ ? ", " : "", t1);
  }
  int rc = chv_error_set(b->err, CHV_ENOENT, "column '%s' does not exist in %s",
                         n, t.data ? t.data : "");
  chv_buf_free(&t);
  return rc;
}

const char sql_merge_qual[] = "$using";

/* Whether merge m takes side x (a table column >= 0, merge -1 - m'). */
static bool merge_has(const struct sql_rels *rs, int m, int x) {
  for (int i = 0; i < 2; i++) {
    int s = rs->m[m].side[i];
    if (s == x || (s < 0 && merge_has(rs, -1 - s, x))) return true;
  }
  return false;
}

/* Whether merge m is seen where b binds: in an ON, every relation of its
** join is one the ON sees; elsewhere one of them is not hidden. */
static bool merge_seen(const struct sql_bind *b, int m) {
  const struct sql_rels *rs = b->rels;
  bool any = false;
  for (int r = rs->m[m].lo; r < rs->m[m].hi; r++) {
    if (b->on_seen && !b->on_seen[r]) return false;
    any |= b->on_seen || !rs->r[r].hidden;
  }
  return any;
}

/* The merge an unqualified name n names (*m, -1: none): the outermost seen
** merge of that name; CHV_EINVAL when another relation seen has a column n
** the merge does not take, or two merges of the name are outermost. */
static int merge_named(struct sql_bind *b, const char *n, int *m) {
  const struct sql_rels *rs = b->rels;
  *m = -1;
  for (int i = 0; i < rs->nm; i++) {
    if (strcasecmp(rs->m[i].name, n) || !merge_seen(b, i)) continue;
    bool inner = false;
    for (int k = 0; k < rs->nm && !inner; k++)
      inner = k != i && !strcasecmp(rs->m[k].name, n) && merge_seen(b, k) &&
              merge_has(rs, k, -1 - i);
    if (inner) continue;
    if (*m >= 0)
      return chv_error_set(b->err, CHV_EINVAL,
                           "column reference '%s' is ambiguous: two joins "
                           "USING it give it", n);
    *m = i;
  }
  if (*m < 0) return CHV_OK;
  for (int r = 0; r < rs->n; r++) {
    const struct sql_rel_name *rn = &rs->r[r];
    bool seen = b->on_seen ? b->on_seen[r] : !rn->hidden;
    if (!seen || rn->qualified_only) continue;
    for (int c = 0; c < rn->ncols; c++)
      if (!strcasecmp(b->t->columns[rn->first + c].name, n) &&
          !merge_has(rs, *m, rn->first + c)) {
        char t1[256];
        rel_text(rn, t1, sizeof t1);
        return chv_error_set(b->err, CHV_EINVAL,
                             "column reference '%s' is ambiguous: a column "
                             "of a join USING it and of %s", n, t1);
      }
  }
  return CHV_OK;
}

static int bind_side(struct sql_bind *b, int x, struct chv_expr **out) {
  return x >= 0 ? sql_bind_column(b, x, out) : sql_bind_merge(b, -1 - x, out);
}

int sql_bind_merge(struct sql_bind *b, int m, struct chv_expr **out) {
  const struct sql_rel_merge *mg = &b->rels->m[m];
  if (mg->kind == CHV_SQL_JOIN_RIGHT) return bind_side(b, mg->side[1], out);
  if (mg->kind != CHV_SQL_JOIN_FULL) return bind_side(b, mg->side[0], out);
  struct chv_expr **args = chv_arena_alloc(b->a, sizeof *args * 2);
  if (!args) return oom(b);
  CHV_RETURN_IF_ERR(bind_side(b, mg->side[0], &args[0]));
  CHV_RETURN_IF_ERR(bind_side(b, mg->side[1], &args[1]));
  return chv_expr_coalesce(b->a, args, 2, out, b->err);
}

/* A column reference to a merge of a USING join (*m; -1: not one). */
static int column_merge(struct sql_bind *b, const struct chv_sql_expr *e,
                        int *m) {
  const struct chv_sql_name *nm = &e->u.column;
  *m = -1;
  if (!b->rels || !b->rels->nm) return CHV_OK;
  if (nm->nparts == 3 && nm->parts[0] == sql_merge_qual) {
    *m = atoi(nm->parts[1]);
    return CHV_OK;
  }
  if (nm->nparts != 1) return CHV_OK;
  return merge_named(b, nm->parts[0], m);
}

/* The table column a column reference names (data columns first). */
static int resolve(struct sql_bind *b, const struct chv_sql_expr *e,
                   int *tcol) {
  const struct chv_sql_name *nm = &e->u.column;
  if (b->rels) return resolve_rels(b, nm, tcol);
  int nq = nm->nparts - 1;
  const char *n = nm->parts[nq];
  if (!b->t->name)
    return chv_error_set(b->err, CHV_ENOENT,
                   "column '%s' cannot be resolved: the query has no FROM "
                   "clause", n);
  if (nq > 0) {
    const char *last = nm->parts[nq - 1];
    bool ok;
    if (b->alias)
      ok = nq == 1 && !strcasecmp(last, b->alias);
    else
      ok = !strcasecmp(last, b->t->name) &&
           (nq < 2 || !strcasecmp(nm->parts[nq - 2], b->t->db));
    if (!ok)
      return chv_error_set(b->err, CHV_ENOENT,
                     "unknown table qualifier '%s' in %s.%s", last, last, n);
  }
  for (int c = 0; c < b->t->ncols; c++)
    if (!strcasecmp(b->t->columns[c].name, n)) return *tcol = c, CHV_OK;
  for (int k = 0; k < b->t->npkeys; k++)
    if (!strcasecmp(b->t->pkeys[k].name, n))
      return *tcol = b->t->ncols + k, CHV_OK;
  char tn[512];
  if (!b->what)
    snprintf(tn, sizeof tn, "%s.%s", b->t->db ? b->t->db : "",
             b->t->name ? b->t->name : "");
  return chv_error_set(b->err, CHV_ENOENT, "column '%s' does not exist in %s",
                       n, b->what ? b->what : tn);
}

static int str_lit(struct sql_bind *b, const char *s, size_t n,
                   struct chv_expr **out) {
  const struct chv_type *st = chv_exec_type(b->a, CHV_TYPE_STRING, 0, 0);
  if (!st) return oom(b);
  struct chv_value v = {.str = s, .len = (int64_t)n};
  return chv_expr_literal(b->a, st, &v, out, b->err);
}

static int cast_to(struct sql_bind *b, struct chv_expr *x, enum chv_type_id id,
                   int p, int s, struct chv_expr **out) {
  const struct chv_type *t = chv_exec_type(b->a, id, p, s);
  if (!t) return oom(b);
  return chv_expr_cast(b->a, x, t, out, b->err);
}

int sql_literal_check(const struct chv_sql_expr *e, struct chv_sql_pos *pos,
                      struct chv_error *err) {
  const char *val = e->u.lit.value, *text = e->u.lit.text;
  const char *sfx = e->u.lit.suffix;
  char c = sfx ? (char)toupper((unsigned char)sfx[0]) : '\0';
  int digits = 0; /* as written: the precision of a DECIMAL literal */
  for (const char *d = val; d && *d; d++) digits += *d >= '0' && *d <= '9';
  int rc = CHV_OK;
  switch (e->u.lit.kind) {
  case CHV_SQL_LIT_INTEGER: {
    static const struct {
      char sfx;
      const char *type;
      long long lo, hi;
    } ranges[] = {{'Y', "TINYINT", INT8_MIN, INT8_MAX},
                  {'S', "SMALLINT", INT16_MIN, INT16_MAX},
                  {'L', "BIGINT", INT64_MIN, INT64_MAX}};
    errno = 0;
    long long x = strtoll(val, NULL, 10);
    bool big = errno == ERANGE;
    for (size_t i = 0; i < CHV_ARRAY_SIZE(ranges); i++)
      if (c == ranges[i].sfx && (big || x < ranges[i].lo || x > ranges[i].hi))
        rc = chv_error_set(err, CHV_ERANGE, "%s literal %s is out of range [%lld, "
                     "%lld]", ranges[i].type, text, ranges[i].lo,
                     ranges[i].hi);
    /* past BIGINT, a DECIMAL(p, 0), as Hive and Calcite type it */
    if (rc == CHV_OK && !c && big && digits > CHV_DECIMAL_MAX_PRECISION)
      rc = chv_error_set(err, CHV_ERANGE, "integer literal %s is out of range: more "
                   "than the %d digits of a DECIMAL", text,
                   CHV_DECIMAL_MAX_PRECISION);
    break;
  }
  case CHV_SQL_LIT_DECIMAL:
    if (digits > CHV_DECIMAL_MAX_PRECISION)
      rc = chv_error_set(err, CHV_ERANGE, "decimal literal %s has more than %d "
                   "digits", text, CHV_DECIMAL_MAX_PRECISION);
    break;
  case CHV_SQL_LIT_DOUBLE: /* 1e10, 2D */
    /* too small rounds to 0 or a subnormal, as Java's Double.valueOf */
    if (isinf(strtod(val, NULL)))
      rc = chv_error_set(err, CHV_ERANGE, "DOUBLE literal %s is out of range", text);
    break;
  case CHV_SQL_LIT_DATE: {
    int32_t d;
    if (chv_date_parse(val, e->u.lit.value_len, &d) != CHV_OK)
      rc = chv_error_set(err, CHV_EINVAL, "invalid DATE literal %s: not a date "
                   "yyyy-mm-dd", text);
    break;
  }
  case CHV_SQL_LIT_TIMESTAMP: {
    struct chv_timestamp ts;
    if (chv_timestamp_parse(val, e->u.lit.value_len, &ts) != CHV_OK)
      rc = chv_error_set(err, CHV_EINVAL, "invalid TIMESTAMP literal %s: not a "
                   "timestamp yyyy-mm-dd[ hh:mm:ss[.fffffffff]]", text);
    break;
  }
  default:
    break;
  }
  if (rc != CHV_OK && pos) *pos = e->pos;
  return rc;
}

static int bind_literal(struct sql_bind *b, const struct chv_sql_expr *e,
                        struct chv_expr **out) {
  struct chv_value v = {0};
  const char *val = e->u.lit.value;
  const char *sfx = e->u.lit.suffix;
  enum chv_type_id id;
  CHV_RETURN_IF_ERR(sql_literal_check(e, b->pos, b->err));
  switch (e->u.lit.kind) {
  case CHV_SQL_LIT_INTEGER: {
    errno = 0;
    long long x = strtoll(val, NULL, 10);
    if (errno == ERANGE && !sfx) goto decimal; /* checked: up to 38 digits */
    v.i64 = x;
    if (sfx && (*sfx == 'Y' || *sfx == 'y'))
      id = CHV_TYPE_TINYINT;
    else if (sfx && (*sfx == 'S' || *sfx == 's'))
      id = CHV_TYPE_SMALLINT;
    else if (sfx && (*sfx == 'L' || *sfx == 'l'))
      id = CHV_TYPE_BIGINT;
    else if (sfx && !strcasecmp(sfx, "BD"))
      goto decimal;
    else if (sfx && (*sfx == 'D' || *sfx == 'd'))
      goto dbl;
    else
      id = x >= INT32_MIN && x <= INT32_MAX ? CHV_TYPE_INT : CHV_TYPE_BIGINT;
    break;
  }
  case CHV_SQL_LIT_DECIMAL:
    if (sfx && (*sfx == 'D' || *sfx == 'd')) goto dbl;
  decimal: {
    /* decimal(p,s) of the digits as written, as Hive 3 types 1.50 */
    int p = 0, s = 0;
    bool frac = false;
    for (const char *c = val; *c; c++) {
      if (*c == '.') frac = true;
      else if (*c >= '0' && *c <= '9') p++, s += frac;
    }
    if (p < 1) p = 1;
    struct chv_expr *x;
    CHV_RETURN_IF_ERR(str_lit(b, val, strlen(val), &x));
    return cast_to(b, x, CHV_TYPE_DECIMAL, p, s, out);
  }
  case CHV_SQL_LIT_DOUBLE:
  dbl:
    v.f64 = strtod(val, NULL);
    id = CHV_TYPE_DOUBLE;
    break;
  case CHV_SQL_LIT_STRING:
    return str_lit(b, val, e->u.lit.value_len, out);
  case CHV_SQL_LIT_BOOLEAN:
    v.b = !strcasecmp(val, "true");
    id = CHV_TYPE_BOOLEAN;
    break;
  case CHV_SQL_LIT_NULL:
    v.is_null = true;
    id = CHV_TYPE_STRING;
    break;
  case CHV_SQL_LIT_DATE:
  case CHV_SQL_LIT_TIMESTAMP: {
    struct chv_expr *x;
    CHV_RETURN_IF_ERR(str_lit(b, val, e->u.lit.value_len, &x));
    return cast_to(b, x,
                   e->u.lit.kind == CHV_SQL_LIT_DATE ? CHV_TYPE_DATE
                                                     : CHV_TYPE_TIMESTAMP,
                   0, 0, out);
  }
  default:
    return chv_error_set(b->err, CHV_ENOTSUP, "%s literals are not supported yet",
                   e->u.lit.kind == CHV_SQL_LIT_INTERVAL ? "INTERVAL"
                                                         : "binary");
  }
  const struct chv_type *t = chv_exec_type(b->a, id, 0, 0);
  if (!t) return oom(b);
  return chv_expr_literal(b->a, t, &v, out, b->err);
}

/* Aggregates are the registry's functions of that kind (src/sql/func). */
bool sql_is_aggregate(const char *n) {
  const struct chv_func *f = chv_func_lookup(n);
  return f && f->kind == CHV_FUNC_AGGREGATE;
}

static int bind_args(struct sql_bind *b, struct chv_sql_expr **in, size_t n,
                     struct chv_expr ***out) {
  struct chv_expr **v = chv_arena_alloc(b->a, sizeof *v * (n + 1));
  if (!v) return oom(b);
  for (size_t i = 0; i < n; i++)
    CHV_RETURN_IF_ERR(sql_bind_expr(b, in[i], &v[i]));
  *out = v;
  return CHV_OK;
}

/* The functions that are only window functions (they need OVER). */
static bool window_only(const char *n) {
  static const char *const names[] = {
      "row_number", "rank", "dense_rank", "percent_rank", "cume_dist",
      "ntile", "lag", "lead", "first_value", "last_value"};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(names); i++)
    if (!strcasecmp(n, names[i])) return true;
  return false;
}

static int bind_func(struct sql_bind *b, const struct chv_sql_expr *e,
                     struct chv_expr **out) {
  const char *n = e->u.func.name;
  /* a window call the SELECT list's binding did not take: in WHERE, GROUP
  ** BY, HAVING or an aggregate's argument */
  if (e->u.func.over)
    return chv_error_set(b->err, CHV_EINVAL,
                         "window function %s(...) OVER is not allowed here "
                         "(only in the SELECT list and ORDER BY)", n);
  if (window_only(n))
    return chv_error_set(b->err, CHV_EINVAL,
                         "%s is a window function: it needs an OVER clause",
                         n);
  const struct chv_func *f = chv_func_lookup(n);
  if (f && f->kind == CHV_FUNC_AGGREGATE)
    return chv_error_set(b->err, CHV_ENOTSUP,
                   "aggregate function %s is not allowed here", n);
  struct chv_expr **args;
  if (!strcasecmp(n, "coalesce")) { /* exec's COALESCE: lazy arguments */
    CHV_RETURN_IF_ERR(bind_args(b, e->u.func.args, e->u.func.n, &args));
    *b->pos = e->pos;
    return chv_expr_coalesce(b->a, args, (int)e->u.func.n, out, b->err);
  }
  if (f == NULL && !strcasecmp(n, "grouping")) {
    *b->pos = e->pos;
    return chv_error_set(b->err, CHV_EINVAL,
                         "GROUPING() names keys of a GROUP BY, and the query "
                         "has none");
  }
  if (f == NULL)
    return chv_error_set(b->err, CHV_ENOTSUP, "function %s is not supported yet", n);
  if (e->u.func.distinct || e->u.func.star)
    return chv_error_set(b->err, CHV_ENOTSUP, "%s(%s...) is not supported", n,
                   e->u.func.star ? "*" : "DISTINCT ");
  CHV_RETURN_IF_ERR(bind_args(b, e->u.func.args, e->u.func.n, &args));
  *b->pos = e->pos;
  return chv_expr_func(b->a, f, args, (int)e->u.func.n, out, b->err);
}

static int bind_binary(struct sql_bind *b, const struct chv_sql_expr *e,
                       struct chv_expr **out) {
  enum chv_sql_op op = e->u.binary.op;
  enum chv_fn fn;
  switch (op) {
  case CHV_SQL_OP_EQ: fn = CHV_FN_EQ; break;
  case CHV_SQL_OP_NE: fn = CHV_FN_NE; break;
  case CHV_SQL_OP_LT: fn = CHV_FN_LT; break;
  case CHV_SQL_OP_LE: fn = CHV_FN_LE; break;
  case CHV_SQL_OP_GT: fn = CHV_FN_GT; break;
  case CHV_SQL_OP_GE: fn = CHV_FN_GE; break;
  case CHV_SQL_OP_NULL_EQ: fn = CHV_FN_NSEQ; break;
  case CHV_SQL_OP_CONCAT: fn = CHV_FN_COUNT; break; /* concat() */
  case CHV_SQL_OP_ADD: fn = CHV_FN_ADD; break;
  case CHV_SQL_OP_SUB: fn = CHV_FN_SUB; break;
  case CHV_SQL_OP_MUL: fn = CHV_FN_MUL; break;
  case CHV_SQL_OP_DIV: fn = CHV_FN_DIV; break;
  case CHV_SQL_OP_MOD: fn = CHV_FN_MOD; break;
  case CHV_SQL_OP_INTDIV: fn = CHV_FN_IDIV; break;
  case CHV_SQL_OP_AND:
  case CHV_SQL_OP_OR: fn = CHV_FN_COUNT; break;
  default:
    return chv_error_set(b->err, CHV_ENOTSUP, "the [] operator is not supported yet");
  }
  struct chv_expr *args[2];
  CHV_RETURN_IF_ERR(sql_bind_expr(b, e->u.binary.left, &args[0]));
  CHV_RETURN_IF_ERR(sql_bind_expr(b, e->u.binary.right, &args[1]));
  *b->pos = e->pos;
  if (op == CHV_SQL_OP_AND)
    return chv_expr_and(b->a, args[0], args[1], out, b->err);
  if (op == CHV_SQL_OP_OR)
    return chv_expr_or(b->a, args[0], args[1], out, b->err);
  struct chv_expr **v = chv_arena_alloc(b->a, sizeof *v * 2);
  if (!v) return oom(b);
  v[0] = args[0], v[1] = args[1];
  if (op == CHV_SQL_OP_CONCAT)
    return chv_expr_func(b->a, chv_func_lookup("concat"), v, 2, out, b->err);
  return chv_expr_call(b->a, fn, v, 2, out, b->err);
}

int sql_bind_expr(struct sql_bind *b, const struct chv_sql_expr *e,
                  struct chv_expr **out) {
  *b->pos = e->pos;
  struct chv_expr *x, *y, *z, **list;
  if (b->hook) {
    bool done = false;
    int rc = b->hook(b, e, out, &done);
    if (rc != CHV_OK || done) return rc;
  }
  switch (e->kind) {
  case CHV_SQL_EXPR_LITERAL:
    return bind_literal(b, e, out);
  case CHV_SQL_EXPR_COLUMN: {
    int tcol = 0, m;
    CHV_RETURN_IF_ERR(column_merge(b, e, &m));
    if (m >= 0) return sql_bind_merge(b, m, out);
    CHV_RETURN_IF_ERR(resolve(b, e, &tcol));
    return sql_bind_column(b, tcol, out);
  }
  case CHV_SQL_EXPR_STAR:
    return chv_error_set(b->err, CHV_ENOTSUP, "* inside an expression");
  case CHV_SQL_EXPR_UNARY:
    if (e->u.unary.op == CHV_SQL_OP_BITNOT)
      return chv_error_set(b->err, CHV_ENOTSUP, "the ~ operator is not supported yet");
    CHV_RETURN_IF_ERR(sql_bind_expr(b, e->u.unary.arg, &x));
    *b->pos = e->pos;
    if (e->u.unary.op == CHV_SQL_OP_PLUS) return *out = x, CHV_OK;
    if (e->u.unary.op == CHV_SQL_OP_NOT)
      return chv_expr_not(b->a, x, out, b->err);
    list = chv_arena_alloc(b->a, sizeof *list);
    if (!list) return oom(b);
    list[0] = x;
    return chv_expr_call(b->a, CHV_FN_NEG, list, 1, out, b->err);
  case CHV_SQL_EXPR_BINARY:
    return bind_binary(b, e, out);
  case CHV_SQL_EXPR_IN:
    if (e->u.in.n == 1 && e->u.in.list[0]->kind == CHV_SQL_EXPR_SUBQUERY) {
      *b->pos = e->pos;
      if (!b->rows)
        return chv_error_set(b->err, CHV_ENOTSUP,
                             "IN (sub-query) is not supported here yet");
      CHV_RETURN_IF_ERR(sql_bind_expr(b, e->u.in.arg, &x));
      struct chv_vector *vals = NULL;
      bool any;
      *b->pos = e->pos;
      CHV_RETURN_IF_ERR(b->rows(b->scalar_ctx, e->u.in.list[0]->u.subquery,
                                false, &vals, &any));
      *b->pos = e->pos;
      int rc = chv_expr_in_values(b->a, x, vals, e->u.in.negated, out, b->err);
      chv_vector_close(vals);
      return rc;
    }
    CHV_RETURN_IF_ERR(sql_bind_expr(b, e->u.in.arg, &x));
    CHV_RETURN_IF_ERR(bind_args(b, e->u.in.list, e->u.in.n, &list));
    *b->pos = e->pos;
    return chv_expr_in(b->a, x, list, (int)e->u.in.n, e->u.in.negated, out,
                       b->err);
  case CHV_SQL_EXPR_BETWEEN:
    CHV_RETURN_IF_ERR(sql_bind_expr(b, e->u.between.arg, &x));
    CHV_RETURN_IF_ERR(sql_bind_expr(b, e->u.between.low, &y));
    CHV_RETURN_IF_ERR(sql_bind_expr(b, e->u.between.high, &z));
    *b->pos = e->pos;
    return chv_expr_between(b->a, x, y, z, e->u.between.negated, out, b->err);
  case CHV_SQL_EXPR_LIKE:
    if (e->u.like.regex)
      return chv_error_set(b->err, CHV_ENOTSUP, "RLIKE/REGEXP is not supported yet");
    CHV_RETURN_IF_ERR(sql_bind_expr(b, e->u.like.arg, &x));
    CHV_RETURN_IF_ERR(sql_bind_expr(b, e->u.like.pattern, &y));
    *b->pos = e->pos;
    return chv_expr_like(b->a, x, y, e->u.like.negated, out, b->err);
  case CHV_SQL_EXPR_IS:
    if (e->u.is.what != CHV_SQL_IS_NULL)
      return chv_error_set(b->err, CHV_ENOTSUP,
                     "IS [NOT] TRUE/FALSE is not supported yet");
    CHV_RETURN_IF_ERR(sql_bind_expr(b, e->u.is.arg, &x));
    *b->pos = e->pos;
    return chv_expr_is_null(b->a, x, e->u.is.negated, out, b->err);
  case CHV_SQL_EXPR_CASE: {
    size_t n = e->u.case_.n;
    struct chv_expr **whens, **thens, *els = NULL;
    x = NULL;
    if (e->u.case_.operand)
      CHV_RETURN_IF_ERR(sql_bind_expr(b, e->u.case_.operand, &x));
    CHV_RETURN_IF_ERR(bind_args(b, e->u.case_.when, n, &whens));
    CHV_RETURN_IF_ERR(bind_args(b, e->u.case_.then, n, &thens));
    if (e->u.case_.else_)
      CHV_RETURN_IF_ERR(sql_bind_expr(b, e->u.case_.else_, &els));
    *b->pos = e->pos;
    if (x)
      return chv_expr_case_simple(b->a, x, whens, thens, (int)n, els, out,
                                  b->err);
    return chv_expr_case(b->a, whens, thens, (int)n, els, out, b->err);
  }
  case CHV_SQL_EXPR_CAST: {
    CHV_RETURN_IF_ERR(sql_bind_expr(b, e->u.cast.arg, &x));
    *b->pos = e->u.cast.type_pos;
    struct chv_type *t;
    int rc = chv_type_parse(e->u.cast.type_text, &t, b->err);
    if (rc != CHV_OK) return rc;
    enum chv_type_id id = t->id;
    int p = id == CHV_TYPE_DECIMAL ? t->precision : t->length, s = t->scale;
    bool prim = chv_type_is_primitive(id);
    chv_type_free(t);
    if (!prim)
      return chv_error_set(b->err, CHV_ENOTSUP, "CAST to %s is not supported yet",
                     e->u.cast.type_text);
    *b->pos = e->pos;
    return cast_to(b, x, id, p, s, out);
  }
  case CHV_SQL_EXPR_FUNC:
    return bind_func(b, e, out);
  case CHV_SQL_EXPR_SUBQUERY:
    *b->pos = e->pos;
    if (!b->scalar)
      return chv_error_set(b->err, CHV_ENOTSUP,
                           "sub-queries are not supported here yet");
    return b->scalar(b->scalar_ctx, e->u.subquery, out);
  case CHV_SQL_EXPR_EXISTS: {
    *b->pos = e->pos;
    if (!b->rows)
      return chv_error_set(b->err, CHV_ENOTSUP,
                           "EXISTS is not supported here yet");
    bool any = false;
    CHV_RETURN_IF_ERR(b->rows(b->scalar_ctx, e->u.subquery, true, NULL, &any));
    struct chv_value v = {.b = any};
    const struct chv_type *bt = chv_exec_type(b->a, CHV_TYPE_BOOLEAN, 0, 0);
    if (!bt) return oom(b);
    return chv_expr_literal(b->a, bt, &v, out, b->err);
  }
  }
  return chv_error_set(b->err, CHV_ENOTSUP, "this expression is not supported yet");
}

/* ---- AST to SQL text ---------------------------------------------------- */

static const char *op_text(enum chv_sql_op op) {
  static const char *names[] = {
#define CHV_X_(k, s) s,
      CHV_SQL_OPS(CHV_X_)
#undef CHV_X_
  };
  switch (op) {
  case CHV_SQL_OP_AND: return "AND";
  case CHV_SQL_OP_OR: return "OR";
  case CHV_SQL_OP_NOT: return "NOT ";
  case CHV_SQL_OP_INTDIV: return "DIV";
  default: return names[op];
  }
}

static void expr_text(const struct chv_sql_expr *e, struct chv_buf *out,
                      bool qual);

static void list_text(struct chv_sql_expr **v, size_t n, struct chv_buf *out,
                      bool qual) {
  for (size_t i = 0; i < n; i++) {
    if (i) chv_buf_puts(out, ", ");
    expr_text(v[i], out, qual);
  }
}

static void bound_text(enum chv_sql_frame_bound b, const struct chv_sql_expr *n,
                       struct chv_buf *out) {
  if (n) {
    sql_expr_text(n, out);
    chv_buf_puts(out, b == CHV_SQL_FRAME_PRECEDING ? " PRECEDING" : " FOLLOWING");
    return;
  }
  chv_buf_puts(out, b == CHV_SQL_FRAME_UNBOUNDED_PRECEDING ? "UNBOUNDED PRECEDING"
                    : b == CHV_SQL_FRAME_UNBOUNDED_FOLLOWING
                        ? "UNBOUNDED FOLLOWING"
                        : "CURRENT ROW");
}

/* " OVER w" or " OVER ([w ]PARTITION BY ... ORDER BY ... ROWS ...)". */
static void window_text(const struct chv_sql_window *w, struct chv_buf *out,
                        bool qual) {
  chv_buf_puts(out, " OVER ");
  if (w->name && !w->npartition_by && !w->norder_by &&
      w->frame == CHV_SQL_FRAME_NONE) {
    chv_buf_puts(out, w->name);
    return;
  }
  chv_buf_putc(out, '(');
  const char *sep = "";
  if (w->name) {
    chv_buf_puts(out, w->name);
    sep = " ";
  }
  if (w->npartition_by) {
    chv_buf_printf(out, "%sPARTITION BY ", sep);
    list_text(w->partition_by, w->npartition_by, out, qual);
    sep = " ";
  }
  if (w->norder_by) {
    chv_buf_printf(out, "%sORDER BY ", sep);
    for (size_t i = 0; i < w->norder_by; i++) {
      if (i) chv_buf_puts(out, ", ");
      expr_text(w->order_by[i].expr, out, qual);
      if (w->order_by[i].desc) chv_buf_puts(out, " DESC");
      if (w->order_by[i].nulls)
        chv_buf_puts(out, w->order_by[i].nulls == 1 ? " NULLS FIRST"
                                                    : " NULLS LAST");
    }
    sep = " ";
  }
  if (w->frame != CHV_SQL_FRAME_NONE) {
    chv_buf_printf(out, "%s%s BETWEEN ", sep,
                   w->frame == CHV_SQL_FRAME_ROWS ? "ROWS" : "RANGE");
    bound_text(w->start, w->start_n, out);
    chv_buf_puts(out, " AND ");
    bound_text(w->end, w->end_n, out);
  }
  chv_buf_putc(out, ')');
}


static void expr_text(const struct chv_sql_expr *e, struct chv_buf *out,
                      bool qual) {
  switch (e->kind) {
  case CHV_SQL_EXPR_LITERAL:
    if (e->u.lit.kind == CHV_SQL_LIT_DATE) chv_buf_puts(out, "DATE ");
    if (e->u.lit.kind == CHV_SQL_LIT_TIMESTAMP)
      chv_buf_puts(out, "TIMESTAMP ");
    if (e->u.lit.kind == CHV_SQL_LIT_NULL)
      chv_buf_puts(out, "NULL");
    else
      chv_buf_puts(out, e->u.lit.text);
    break;
  case CHV_SQL_EXPR_COLUMN: /* qual: as written, t.a (a join's) */
    if (e->u.column.parts[0] == sql_merge_qual) qual = false;
    for (int i = qual ? 0 : e->u.column.nparts - 1; i < e->u.column.nparts; i++)
      chv_buf_printf(out, "%s%s", i && qual ? "." : "", e->u.column.parts[i]);
    break;
  case CHV_SQL_EXPR_STAR:
    chv_buf_putc(out, '*');
    break;
  case CHV_SQL_EXPR_UNARY:
    chv_buf_puts(out, op_text(e->u.unary.op));
    expr_text(e->u.unary.arg, out, qual);
    break;
  case CHV_SQL_EXPR_BINARY:
    chv_buf_putc(out, '(');
    expr_text(e->u.binary.left, out, qual);
    chv_buf_putc(out, ' ');
    chv_buf_puts(out, op_text(e->u.binary.op));
    chv_buf_putc(out, ' ');
    expr_text(e->u.binary.right, out, qual);
    chv_buf_putc(out, ')');
    break;
  case CHV_SQL_EXPR_IN:
    expr_text(e->u.in.arg, out, qual);
    if (e->u.in.n == 1 && e->u.in.list[0]->kind == CHV_SQL_EXPR_SUBQUERY) {
      chv_buf_puts(out, e->u.in.negated ? " NOT IN " : " IN ");
      expr_text(e->u.in.list[0], out, qual);
      break;
    }
    chv_buf_puts(out, e->u.in.negated ? " NOT IN (" : " IN (");
    list_text(e->u.in.list, e->u.in.n, out, qual);
    chv_buf_putc(out, ')');
    break;
  case CHV_SQL_EXPR_BETWEEN:
    expr_text(e->u.between.arg, out, qual);
    chv_buf_puts(out, e->u.between.negated ? " NOT BETWEEN " : " BETWEEN ");
    expr_text(e->u.between.low, out, qual);
    chv_buf_puts(out, " AND ");
    expr_text(e->u.between.high, out, qual);
    break;
  case CHV_SQL_EXPR_LIKE:
    expr_text(e->u.like.arg, out, qual);
    chv_buf_puts(out, e->u.like.negated ? " NOT LIKE " : " LIKE ");
    expr_text(e->u.like.pattern, out, qual);
    break;
  case CHV_SQL_EXPR_IS:
    expr_text(e->u.is.arg, out, qual);
    chv_buf_puts(out, e->u.is.negated ? " IS NOT " : " IS ");
    chv_buf_puts(out, e->u.is.what == CHV_SQL_IS_NULL   ? "NULL"
                      : e->u.is.what == CHV_SQL_IS_TRUE ? "TRUE"
                                                        : "FALSE");
    break;
  case CHV_SQL_EXPR_CASE:
    chv_buf_puts(out, "CASE");
    if (e->u.case_.operand) {
      chv_buf_putc(out, ' ');
      expr_text(e->u.case_.operand, out, qual);
    }
    for (size_t i = 0; i < e->u.case_.n; i++) {
      chv_buf_puts(out, " WHEN ");
      expr_text(e->u.case_.when[i], out, qual);
      chv_buf_puts(out, " THEN ");
      expr_text(e->u.case_.then[i], out, qual);
    }
    if (e->u.case_.else_) {
      chv_buf_puts(out, " ELSE ");
      expr_text(e->u.case_.else_, out, qual);
    }
    chv_buf_puts(out, " END");
    break;
  case CHV_SQL_EXPR_CAST:
    chv_buf_puts(out, "CAST(");
    expr_text(e->u.cast.arg, out, qual);
    chv_buf_puts(out, " AS ");
    chv_buf_puts(out, e->u.cast.type_text);
    chv_buf_putc(out, ')');
    break;
  case CHV_SQL_EXPR_FUNC:
    chv_buf_puts(out, e->u.func.name);
    chv_buf_putc(out, '(');
    if (e->u.func.distinct) chv_buf_puts(out, "DISTINCT ");
    if (e->u.func.star) chv_buf_putc(out, '*');
    list_text(e->u.func.args, e->u.func.n, out, qual);
    chv_buf_putc(out, ')');
    if (e->u.func.over) window_text(e->u.func.over, out, qual);
    break;
  case CHV_SQL_EXPR_SUBQUERY: /* whole: two sub-queries are told apart */
    chv_buf_putc(out, '(');
    chv_sql_query_format(e->u.subquery, out);
    chv_buf_putc(out, ')');
    break;
  case CHV_SQL_EXPR_EXISTS:
    chv_buf_puts(out, "EXISTS (");
    chv_sql_query_format(e->u.subquery, out);
    chv_buf_putc(out, ')');
    break;
  }
}

void sql_expr_text(const struct chv_sql_expr *e, struct chv_buf *out) {
  expr_text(e, out, false);
}

/* e's text (qualified as written or not) copied into a; NULL: out of
** memory. */
static const char *text_in(chv_arena *a, const struct chv_sql_expr *e,
                           bool qualified) {
  struct chv_buf t;
  chv_buf_init(&t);
  if (qualified)
    sql_expr_text_qualified(e, &t);
  else
    sql_expr_text(e, &t);
  char *p = NULL;
  if (t.data && (p = chv_arena_alloc(a, t.len + 1)))
    memcpy(p, t.data, t.len + 1);
  chv_buf_free(&t);
  return p;
}

const char *sql_expr_text_in(chv_arena *a, const struct chv_sql_expr *e) {
  return text_in(a, e, false);
}

const char *sql_expr_text_qualified_in(chv_arena *a, const struct chv_sql_expr *e) {
  return text_in(a, e, true);
}

void sql_expr_text_qualified(const struct chv_sql_expr *e,
                             struct chv_buf *out) {
  expr_text(e, out, true);
}
