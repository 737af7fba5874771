/*
** sql/plan expr.c: building typed expression trees with Hive's typing.
**
** Every constructor checks its arguments, derives the result type as Hive's
** GenericUDF* classes do (hive.compat=0.12, Hive's default) and wraps
** arguments in CAST nodes where Hive converts implicitly, so that the
** evaluator (eval.c) sees operands of exactly one common type.
**
** Functions are the registry's (src/sql/func): chv_expr_func() resolves an
** overload there and inserts the casts to its parameter types.
**
** INTERFACE: the chv_expr_*() constructors of exec.h, chv_exec_type(),
** chv_expr_same().
*/
#include "sql/plan/expr.h"

#include <stdio.h>
#include <string.h>

static const char *const fn_names[] = {
#define CHV_X_(id, name) name,
    CHV_FN_MAP(CHV_X_)
#undef CHV_X_
};

const char *chv_fn_name(enum chv_fn fn) {
  return fn >= 0 && fn < CHV_FN_COUNT ? fn_names[fn] : "?";
}

const struct chv_type *chv_exec_type(chv_arena *a, enum chv_type_id id,
                                     int precision_or_length, int scale) {
  return chv_func_type(a, id, precision_or_length, scale);
}

static int oom(struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory building expression");
}

/* "decimal(10,2)" etc. into buf. */
static const char *tname(const struct chv_type *t, char *buf, size_t n) {
  if (t->id == CHV_TYPE_DECIMAL)
    snprintf(buf, n, "decimal(%d,%d)", t->precision, t->scale);
  else if (t->id == CHV_TYPE_CHAR || t->id == CHV_TYPE_VARCHAR)
    snprintf(buf, n, "%s(%d)", chv_type_id_name(t->id), t->length);
  else
    snprintf(buf, n, "%s", chv_type_id_name(t->id));
  return buf;
}

static int type_err2(struct chv_error *err, const char *op,
                     const struct chv_type *l, const struct chv_type *r) {
  char a[48], b[48];
  return chv_error_set(err, CHV_ETYPE, "cannot apply '%s' to %s and %s", op,
                       tname(l, a, sizeof a), tname(r, b, sizeof b));
}

static int type_err1(struct chv_error *err, const char *op,
                     const struct chv_type *t) {
  char a[48];
  return chv_error_set(err, CHV_ETYPE, "cannot apply '%s' to %s", op,
                       tname(t, a, sizeof a));
}

static struct chv_expr *node(chv_arena *a, enum chv_expr_kind k,
                             const struct chv_type *t, int nargs) {
  struct chv_expr *e = chv_arena_alloc(a, sizeof *e);
  if (e == NULL) return NULL;
  memset(e, 0, sizeof *e);
  e->kind = k;
  e->type = t;
  e->nargs = nargs;
  if (nargs > 0) {
    e->args = chv_arena_alloc(a, sizeof *e->args * (size_t)nargs);
    if (e->args == NULL) return NULL;
  }
  return e;
}

int chv_expr_column(chv_arena *a, int column, const struct chv_type *type,
                    struct chv_expr **out, struct chv_error *err) {
  if (column < 0 || type == NULL)
    return chv_error_set(err, CHV_EINVAL, "column reference %d: bad column",
                         column);
  struct chv_expr *e = node(a, CHV_EXPR_COLUMN, type, 0);
  if (e == NULL) return oom(err);
  e->column = column;
  *out = e;
  return CHV_OK;
}

int chv_expr_literal(chv_arena *a, const struct chv_type *type,
                     const struct chv_value *v, struct chv_expr **out,
                     struct chv_error *err) {
  if (type == NULL || !chv_type_is_primitive(type->id))
    return chv_error_set(err, CHV_EINVAL, "literal of a non-primitive type");
  struct chv_expr *e = node(a, CHV_EXPR_LITERAL, type, 0);
  if (e == NULL) return oom(err);
  e->value = *v;
  if (!v->is_null && chv_type_is_string_like(type->id)) {
    char *s = chv_arena_strndup(a, v->str ? v->str : "", (size_t)v->len);
    if (s == NULL) return oom(err);
    e->value.str = s;
  }
  *out = e;
  return CHV_OK;
}

/* ---- Hive's type rules ------------------------------------------------- */

/* Decimal precision of an integer type (HiveDecimalUtils). */
static int int_precision(enum chv_type_id id) {
  switch (id) {
  case CHV_TYPE_TINYINT: return 3;
  case CHV_TYPE_SMALLINT: return 5;
  case CHV_TYPE_INT: return 10;
  default: return 19;
  }
}

/* Hive's numeric order: tinyint < smallint < int < bigint < float < double
** < decimal (FunctionRegistry numeric type list). */
static int num_rank(enum chv_type_id id) {
  switch (id) {
  case CHV_TYPE_TINYINT: return 1;
  case CHV_TYPE_SMALLINT: return 2;
  case CHV_TYPE_INT: return 3;
  case CHV_TYPE_BIGINT: return 4;
  case CHV_TYPE_FLOAT: return 5;
  case CHV_TYPE_DOUBLE: return 6;
  case CHV_TYPE_DECIMAL: return 7;
  default: return 0;
  }
}

/* GenericUDFBaseNumeric.adjustPrecScale. */
static void adjust_prec_scale(int *p, int *s) {
  if (*p <= 38) return;
  int int_digits = *p - *s;
  int min_scale = CHV_MIN(*s, 6);
  int adj = 38 - int_digits;
  *s = CHV_MAX(adj, min_scale);
  *p = 38;
}

static void dec_ps(const struct chv_type *t, int *p, int *s) {
  if (t->id == CHV_TYPE_DECIMAL) {
    *p = t->precision;
    *s = t->scale;
  } else {
    *p = int_precision(t->id);
    *s = 0;
  }
}

/* Wrap x in a CAST to t unless it already has that type. */
static int coerce(chv_arena *a, struct chv_expr **x, const struct chv_type *t,
                  struct chv_error *err) {
  if (chv_type_equal((*x)->type, t)) return CHV_OK;
  struct chv_expr *c;
  CHV_RETURN_IF_ERR(chv_expr_cast(a, *x, t, &c, err));
  if ((*x)->kind == CHV_EXPR_LITERAL) /* fold: evaluation sees literals */
    return chv_exec_fold(a, c, x, err);
  *x = c;
  return CHV_OK;
}

/* Common type for comparing l and r (FunctionRegistry.
** getCommonClassForComparison); NULL when Hive has none. */
static const struct chv_type *compare_type(chv_arena *a,
                                           const struct chv_type *l,
                                           const struct chv_type *r) {
  enum chv_type_id x = l->id, y = r->id;
  if (chv_type_equal(l, r)) return l;
  if (chv_func_is_string(x) && chv_func_is_string(y))
    return chv_exec_type(a, CHV_TYPE_STRING, 0, 0);
  bool xd = x == CHV_TYPE_DATE || x == CHV_TYPE_TIMESTAMP;
  bool yd = y == CHV_TYPE_DATE || y == CHV_TYPE_TIMESTAMP;
  if (chv_func_is_string(x) && yd) return r;
  if (chv_func_is_string(y) && xd) return l;
  if (xd && yd) return chv_exec_type(a, CHV_TYPE_TIMESTAMP, 0, 0);
  if ((chv_func_is_string(x) && chv_func_is_numeric(y)) ||
      (chv_func_is_string(y) && chv_func_is_numeric(x)))
    return chv_exec_type(a, CHV_TYPE_DOUBLE, 0, 0);
  if (chv_func_is_numeric(x) && chv_func_is_numeric(y)) {
    if (x == CHV_TYPE_DECIMAL || y == CHV_TYPE_DECIMAL) {
      if (x == CHV_TYPE_FLOAT || x == CHV_TYPE_DOUBLE ||
          y == CHV_TYPE_FLOAT || y == CHV_TYPE_DOUBLE)
        return chv_exec_type(a, CHV_TYPE_DOUBLE, 0, 0);
      int p1, s1, p2, s2;
      dec_ps(l, &p1, &s1);
      dec_ps(r, &p2, &s2);
      int s = CHV_MAX(s1, s2);
      int p = CHV_MIN(38, CHV_MAX(p1 - s1, p2 - s2) + s);
      return chv_exec_type(a, CHV_TYPE_DECIMAL, p, s);
    }
    return num_rank(x) >= num_rank(y) ? l : r;
  }
  return NULL;
}

/* Result type of + - * / % on l and r (GenericUDFOP*), or NULL. */
static const struct chv_type *arith_type(chv_arena *a, enum chv_fn fn,
                                         const struct chv_type *l,
                                         const struct chv_type *r,
                                         const struct chv_type **operand) {
  enum chv_type_id x = l->id, y = r->id;
  bool xs = chv_func_is_string(x), ys = chv_func_is_string(y);
  if ((!chv_func_is_numeric(x) && !xs) || (!chv_func_is_numeric(y) && !ys))
    return NULL;
  bool exact = !xs && !ys && x != CHV_TYPE_FLOAT && x != CHV_TYPE_DOUBLE &&
               y != CHV_TYPE_FLOAT && y != CHV_TYPE_DOUBLE;
  if (!exact) {
    /* strings count as double; float op float/integer stays float, any
    ** other mix (decimal among them) is double. */
    enum chv_type_id cx = xs ? CHV_TYPE_DOUBLE : x, cy = ys ? CHV_TYPE_DOUBLE : y;
    const struct chv_type *t;
    if (fn != CHV_FN_DIV && cx != CHV_TYPE_DECIMAL && cy != CHV_TYPE_DECIMAL &&
        cx != CHV_TYPE_DOUBLE && cy != CHV_TYPE_DOUBLE)
      t = chv_exec_type(a, CHV_TYPE_FLOAT, 0, 0);
    else
      t = chv_exec_type(a, CHV_TYPE_DOUBLE, 0, 0);
    *operand = t;
    return t;
  }
  if (x != CHV_TYPE_DECIMAL && y != CHV_TYPE_DECIMAL) {
    if (fn == CHV_FN_DIV) {
      const struct chv_type *d = chv_exec_type(a, CHV_TYPE_DOUBLE, 0, 0);
      *operand = d;
      return d;
    }
    *operand = num_rank(x) >= num_rank(y) ? l : r;
    return *operand;
  }
  int p1, s1, p2, s2, p, s;
  dec_ps(l, &p1, &s1);
  dec_ps(r, &p2, &s2);
  switch (fn) {
  case CHV_FN_ADD:
  case CHV_FN_SUB:
    s = CHV_MAX(s1, s2);
    p = CHV_MAX(p1 - s1, p2 - s2) + s + 1;
    break;
  case CHV_FN_MUL:
    s = s1 + s2;
    p = p1 + p2 + 1;
    break;
  case CHV_FN_DIV:
    s = CHV_MAX(6, s1 + p2 + 1);
    p = p1 - s1 + s2 + s;
    break;
  default: /* MOD */
    s = CHV_MAX(s1, s2);
    p = CHV_MIN(p1 - s1, p2 - s2) + s;
    break;
  }
  adjust_prec_scale(&p, &s);
  /* Operands keep their own decimal type (the kernels rescale); integers
  ** become decimals of their precision. */
  *operand = NULL;
  return chv_exec_type(a, CHV_TYPE_DECIMAL, p, s);
}

static int to_decimal_operand(chv_arena *a, struct chv_expr **x,
                              struct chv_error *err) {
  if ((*x)->type->id == CHV_TYPE_DECIMAL) return CHV_OK;
  const struct chv_type *t =
      chv_exec_type(a, CHV_TYPE_DECIMAL, int_precision((*x)->type->id), 0);
  if (t == NULL) return oom(err);
  return coerce(a, x, t, err);
}

int chv_expr_call(chv_arena *a, enum chv_fn fn, struct chv_expr **args,
                  int nargs, struct chv_expr **out, struct chv_error *err) {
  const char *name = chv_fn_name(fn);
  for (int i = 0; i < nargs; i++)
    if (args[i] == NULL)
      return chv_error_set(err, CHV_EINVAL, "'%s': missing argument", name);
  int want = fn == CHV_FN_NEG ? 1 : 2;
  if (nargs != want)
    return chv_error_set(err, CHV_EINVAL, "'%s' takes %d argument%s, not %d",
                         name, want, want == 1 ? "" : "s", nargs);
  struct chv_expr *e = node(a, CHV_EXPR_CALL, NULL, nargs);
  if (e == NULL) return oom(err);
  e->fn = fn;
  memcpy(e->args, args, sizeof *args * (size_t)nargs);
  const struct chv_type *l = args[0]->type, *r = nargs > 1 ? args[1]->type : NULL;
  const struct chv_type *t = NULL, *operand = NULL;
  switch (fn) {
  case CHV_FN_ADD:
  case CHV_FN_SUB:
  case CHV_FN_MUL:
  case CHV_FN_DIV:
  case CHV_FN_MOD:
    t = arith_type(a, fn, l, r, &operand);
    if (t == NULL) return type_err2(err, name, l, r);
    if (operand) {
      CHV_RETURN_IF_ERR(coerce(a, &e->args[0], operand, err));
      CHV_RETURN_IF_ERR(coerce(a, &e->args[1], operand, err));
    } else {
      CHV_RETURN_IF_ERR(to_decimal_operand(a, &e->args[0], err));
      CHV_RETURN_IF_ERR(to_decimal_operand(a, &e->args[1], err));
    }
    break;
  case CHV_FN_IDIV:
    if (!chv_func_is_integral(l->id) || !chv_func_is_integral(r->id))
      return type_err2(err, name, l, r);
    t = chv_exec_type(a, CHV_TYPE_BIGINT, 0, 0);
    if (t == NULL) return oom(err);
    CHV_RETURN_IF_ERR(coerce(a, &e->args[0], t, err));
    CHV_RETURN_IF_ERR(coerce(a, &e->args[1], t, err));
    break;
  case CHV_FN_NEG:
    if (chv_func_is_string(l->id)) {
      t = chv_exec_type(a, CHV_TYPE_DOUBLE, 0, 0);
      if (t == NULL) return oom(err);
      CHV_RETURN_IF_ERR(coerce(a, &e->args[0], t, err));
    } else if (chv_func_is_numeric(l->id)) {
      t = l;
    } else {
      return type_err1(err, name, l);
    }
    break;
  case CHV_FN_EQ:
  case CHV_FN_NE:
  case CHV_FN_LT:
  case CHV_FN_LE:
  case CHV_FN_GT:
  case CHV_FN_GE:
  case CHV_FN_NSEQ: {
    const struct chv_type *c = compare_type(a, l, r);
    if (c == NULL || c->id == CHV_TYPE_BINARY)
      return type_err2(err, name, l, r);
    if (chv_func_is_string(c->id) && (c->id != CHV_TYPE_STRING) &&
        !chv_type_equal(l, r))
      c = chv_exec_type(a, CHV_TYPE_STRING, 0, 0);
    if (c == NULL) return oom(err);
    CHV_RETURN_IF_ERR(coerce(a, &e->args[0], c, err));
    CHV_RETURN_IF_ERR(coerce(a, &e->args[1], c, err));
    t = chv_exec_type(a, CHV_TYPE_BOOLEAN, 0, 0);
    break;
  }
  default:
    return chv_error_set(err, CHV_EINVAL, "unknown operator %d", (int)fn);
  }
  if (t == NULL) return oom(err);
  e->type = t;
  *out = e;
  return CHV_OK;
}

int chv_expr_func(chv_arena *a, const struct chv_func *f,
                  struct chv_expr **args, int nargs, struct chv_expr **out,
                  struct chv_error *err) {
  if (f == NULL || f->kind != CHV_FUNC_SCALAR)
    return chv_error_set(err, CHV_EINVAL, "%s is not a scalar function",
                         f ? f->name : "(null)");
  if (nargs < 0 || nargs > CHV_FUNC_MAX_ARGS)
    return chv_error_set(err, CHV_EINVAL, "'%s': %d arguments", f->name,
                         nargs);
  for (int i = 0; i < nargs; i++)
    if (args[i] == NULL)
      return chv_error_set(err, CHV_EINVAL, "'%s': missing argument",
                           f->name);
  struct chv_func_argdesc *d =
      chv_arena_alloc(a, sizeof *d * (size_t)(nargs > 0 ? nargs : 1));
  struct chv_expr *e = node(a, CHV_EXPR_FUNC, NULL, nargs);
  if (d == NULL || e == NULL) return oom(err);
  for (int i = 0; i < nargs; i++) {
    d[i].type = args[i]->type;
    d[i].constant = args[i]->kind == CHV_EXPR_LITERAL ? &args[i]->value : NULL;
  }
  struct chv_func_bound b;
  CHV_RETURN_IF_ERR(chv_func_resolve(a, f, CHV_AGG_PLAIN, d, nargs, &b, err));
  if (b.ov->kernel == NULL)
    return chv_error_set(err, CHV_EINTERNAL, "'%s' has no kernel", f->name);
  e->func = f;
  e->impl = b.ov;
  e->type = b.result;
  if (nargs) memcpy(e->args, args, sizeof *args * (size_t)nargs);
  for (int i = 0; i < nargs; i++)
    if (b.casts[i]) CHV_RETURN_IF_ERR(coerce(a, &e->args[i], b.casts[i], err));
  *out = e;
  return CHV_OK;
}

static int bool_arg(chv_arena *a, struct chv_expr **x, const char *op,
                    struct chv_error *err) {
  if ((*x)->type->id == CHV_TYPE_BOOLEAN) return CHV_OK;
  if ((*x)->kind == CHV_EXPR_LITERAL && (*x)->value.is_null) {
    const struct chv_type *b = chv_exec_type(a, CHV_TYPE_BOOLEAN, 0, 0);
    if (b == NULL) return oom(err);
    return coerce(a, x, b, err);
  }
  return type_err1(err, op, (*x)->type);
}

static int logic(chv_arena *a, enum chv_expr_kind k, const char *op,
                 struct chv_expr *l, struct chv_expr *r,
                 struct chv_expr **out, struct chv_error *err) {
  const struct chv_type *b = chv_exec_type(a, CHV_TYPE_BOOLEAN, 0, 0);
  struct chv_expr *e = node(a, k, b, r ? 2 : 1);
  if (b == NULL || e == NULL) return oom(err);
  e->args[0] = l;
  CHV_RETURN_IF_ERR(bool_arg(a, &e->args[0], op, err));
  if (r) {
    e->args[1] = r;
    CHV_RETURN_IF_ERR(bool_arg(a, &e->args[1], op, err));
  }
  *out = e;
  return CHV_OK;
}

int chv_expr_and(chv_arena *a, struct chv_expr *l, struct chv_expr *r,
                 struct chv_expr **out, struct chv_error *err) {
  return logic(a, CHV_EXPR_AND, "and", l, r, out, err);
}
int chv_expr_or(chv_arena *a, struct chv_expr *l, struct chv_expr *r,
                struct chv_expr **out, struct chv_error *err) {
  return logic(a, CHV_EXPR_OR, "or", l, r, out, err);
}
int chv_expr_not(chv_arena *a, struct chv_expr *x, struct chv_expr **out,
                 struct chv_error *err) {
  return logic(a, CHV_EXPR_NOT, "not", x, NULL, out, err);
}

int chv_expr_is_null(chv_arena *a, struct chv_expr *x, bool negated,
                     struct chv_expr **out, struct chv_error *err) {
  const struct chv_type *b = chv_exec_type(a, CHV_TYPE_BOOLEAN, 0, 0);
  struct chv_expr *e = node(a, negated ? CHV_EXPR_IS_NOT_NULL : CHV_EXPR_IS_NULL,
                            b, 1);
  if (b == NULL || e == NULL) return oom(err);
  e->args[0] = x;
  *out = e;
  return CHV_OK;
}

/* x IN (list) with items that are not literals: the literals an IN node
** (if any), OR-ed with x = item for each other item, all at the list's
** common comparison type; NOT of that when negated.  SQL's three-valued
** OR gives IN's NULLs. */
static int in_as_or(chv_arena *a, struct chv_expr *x, struct chv_expr **list,
                    int n, const struct chv_type *c, bool negated,
                    struct chv_expr **out, struct chv_error *err) {
  struct chv_expr **lits = chv_arena_alloc(a, sizeof *lits * (size_t)n);
  if (lits == NULL) return oom(err);
  CHV_RETURN_IF_ERR(coerce(a, &x, c, err));
  int nlit = 0;
  struct chv_expr *acc = NULL;
  for (int i = 0; i < n; i++)
    if (list[i]->kind == CHV_EXPR_LITERAL) lits[nlit++] = list[i];
  if (nlit) CHV_RETURN_IF_ERR(chv_expr_in(a, x, lits, nlit, false, &acc, err));
  for (int i = 0; i < n; i++) {
    if (list[i]->kind == CHV_EXPR_LITERAL) continue;
    struct chv_expr *args[2] = {x, list[i]}, *eq;
    CHV_RETURN_IF_ERR(coerce(a, &args[1], c, err));
    CHV_RETURN_IF_ERR(chv_expr_call(a, CHV_FN_EQ, args, 2, &eq, err));
    if (acc) CHV_RETURN_IF_ERR(chv_expr_or(a, acc, eq, &eq, err));
    acc = eq;
  }
  if (negated) return chv_expr_not(a, acc, out, err);
  *out = acc;
  return CHV_OK;
}

int chv_expr_in(chv_arena *a, struct chv_expr *x, struct chv_expr **list,
                int n, bool negated, struct chv_expr **out,
                struct chv_error *err) {
  if (n < 1) return chv_error_set(err, CHV_EINVAL, "IN needs a list");
  const struct chv_type *c = x->type;
  bool all_lit = true;
  for (int i = 0; i < n; i++) {
    all_lit = all_lit && list[i]->kind == CHV_EXPR_LITERAL;
    c = compare_type(a, c, list[i]->type);
    if (c == NULL) return type_err2(err, "in", x->type, list[i]->type);
  }
  if (!all_lit) return in_as_or(a, x, list, n, c, negated, out, err);
  const struct chv_type *b = chv_exec_type(a, CHV_TYPE_BOOLEAN, 0, 0);
  struct chv_expr *e = node(a, CHV_EXPR_IN, b, n + 1);
  if (b == NULL || e == NULL) return oom(err);
  e->negated = negated;
  e->args[0] = x;
  CHV_RETURN_IF_ERR(coerce(a, &e->args[0], c, err));
  for (int i = 0; i < n; i++) {
    e->args[i + 1] = list[i];
    CHV_RETURN_IF_ERR(coerce(a, &e->args[i + 1], c, err));
  }
  *out = e;
  return CHV_OK;
}

/* A read-only copy of h in the arena. */
static int keyset_copy(chv_arena *a, const struct chv_keyset *h,
                       struct chv_keyset *out) {
  memset(out, 0, sizeof *out);
  if (h->n == 0) return CHV_OK;
  uint64_t *slots = chv_arena_alloc(a, sizeof *slots * h->nslots);
  uint64_t *hashes = chv_arena_alloc(a, sizeof *hashes * h->n);
  uint32_t *offs = chv_arena_alloc(a, sizeof *offs * (h->n + 1));
  char *keys = chv_arena_alloc(a, h->keys.len ? h->keys.len : 1);
  if (!slots || !hashes || !offs || !keys) return CHV_ENOMEM;
  memcpy(slots, h->slots, sizeof *slots * h->nslots);
  memcpy(hashes, h->hashes, sizeof *hashes * h->n);
  memcpy(offs, h->offs, sizeof *offs * (h->n + 1));
  memcpy(keys, h->keys.data, h->keys.len);
  *out = (struct chv_keyset){.slots = slots,
                             .hashes = hashes,
                             .offs = offs,
                             .nslots = h->nslots,
                             .n = h->n,
                             .ecap = h->n,
                             .klen = h->klen,
                             .keys = {keys, h->keys.len, h->keys.len}};
  return CHV_OK;
}

int chv_expr_in_values(chv_arena *a, struct chv_expr *x,
                       const struct chv_vector *vals, bool negated,
                       struct chv_expr **out, struct chv_error *err) {
  const struct chv_type *c = compare_type(a, x->type, vals->type);
  if (c == NULL) return type_err2(err, "in", x->type, vals->type);
  const struct chv_type *b = chv_exec_type(a, CHV_TYPE_BOOLEAN, 0, 0);
  struct chv_expr *e = node(a, CHV_EXPR_IN, b, 1);
  struct chv_inset *set = chv_arena_alloc(a, sizeof *set);
  if (b == NULL || e == NULL || set == NULL) return oom(err);
  memset(set, 0, sizeof *set);
  e->negated = negated;
  e->args[0] = x;
  CHV_RETURN_IF_ERR(coerce(a, &e->args[0], c, err));
  bool same = chv_type_equal(vals->type, c);
  struct chv_keyset h = {0};
  struct chv_buf key, cbuf;
  chv_buf_init(&key);
  chv_buf_init(&cbuf);
  int rc = CHV_OK;
  for (int64_t i = 0; i < vals->length && rc == CHV_OK; i++) {
    struct chv_value v, cv;
    chv_func_get_value(vals, i, &v);
    if (!v.is_null && !same) { /* a value the cast cannot take is NULL */
      chv_buf_reset(&cbuf);
      if (!chv_exec_cast_value(vals->type, &v, c, &cv, &cbuf, &rc)) {
        cv.is_null = true;
      }
      v = cv;
    }
    if (rc != CHV_OK) break;
    if (v.is_null) {
      set->has_null = true;
      continue;
    }
    chv_buf_reset(&key);
    uint32_t id;
    bool added;
    rc = chv_keyset_encode_value(&key, c->id, &v);
    if (rc == CHV_OK) rc = chv_keyset_put(&h, key.data, key.len, &id, &added);
  }
  set->rows = vals->length;
  if (rc == CHV_OK) rc = keyset_copy(a, &h, &set->keys);
  chv_keyset_free(&h);
  chv_buf_free(&key);
  chv_buf_free(&cbuf);
  if (rc != CHV_OK) return oom(err);
  e->set = set;
  *out = e;
  return CHV_OK;
}

int chv_expr_between(chv_arena *a, struct chv_expr *x, struct chv_expr *lo,
                     struct chv_expr *hi, bool negated, struct chv_expr **out,
                     struct chv_error *err) {
  const struct chv_type *c = compare_type(a, x->type, lo->type);
  if (c) c = compare_type(a, c, hi->type);
  if (c == NULL) return type_err2(err, "between", x->type, lo->type);
  const struct chv_type *b = chv_exec_type(a, CHV_TYPE_BOOLEAN, 0, 0);
  struct chv_expr *e = node(a, CHV_EXPR_BETWEEN, b, 3);
  if (b == NULL || e == NULL) return oom(err);
  e->negated = negated;
  e->args[0] = x;
  e->args[1] = lo;
  e->args[2] = hi;
  for (int i = 0; i < 3; i++)
    CHV_RETURN_IF_ERR(coerce(a, &e->args[i], c, err));
  /* evaluated as x >= lo AND x <= hi, NOT of that when negated */
  struct chv_expr *ge, *le, *both, *args[2] = {e->args[0], e->args[1]};
  CHV_RETURN_IF_ERR(chv_expr_call(a, CHV_FN_GE, args, 2, &ge, err));
  args[1] = e->args[2];
  CHV_RETURN_IF_ERR(chv_expr_call(a, CHV_FN_LE, args, 2, &le, err));
  CHV_RETURN_IF_ERR(chv_expr_and(a, ge, le, &both, err));
  if (negated) CHV_RETURN_IF_ERR(chv_expr_not(a, both, &both, err));
  e->lowered = both;
  *out = e;
  return CHV_OK;
}

/* Common type of CASE/COALESCE branches (FunctionRegistry.getCommonClass):
** NULL literals take the other's type; otherwise the comparison rule, but
** strings with numbers are strings... Hive makes them string too. */
static const struct chv_type *branch_type(chv_arena *a,
                                          const struct chv_type *t,
                                          const struct chv_expr *x) {
  if (x->kind == CHV_EXPR_LITERAL && x->value.is_null) return t;
  if (t == NULL) return x->type;
  if (chv_type_equal(t, x->type)) return t;
  if (chv_func_is_string(t->id) || chv_func_is_string(x->type->id)) {
    if ((chv_func_is_string(t->id) || chv_type_is_primitive(t->id)) &&
        x->type->id != CHV_TYPE_BINARY && t->id != CHV_TYPE_BINARY)
      return chv_exec_type(a, CHV_TYPE_STRING, 0, 0);
    return NULL;
  }
  return compare_type(a, t, x->type);
}

const struct chv_type *chv_exec_union_type(chv_arena *a,
                                           const struct chv_type *l,
                                           const struct chv_type *r) {
  if (chv_type_equal(l, r)) return l;
  if (!chv_type_is_primitive(l->id) || !chv_type_is_primitive(r->id))
    return NULL;
  if (chv_func_is_string(l->id) || chv_func_is_string(r->id))
    return l->id == CHV_TYPE_BINARY || r->id == CHV_TYPE_BINARY
               ? NULL
               : chv_exec_type(a, CHV_TYPE_STRING, 0, 0);
  return compare_type(a, l, r);
}

int chv_expr_case(chv_arena *a, struct chv_expr **whens,
                  struct chv_expr **thens, int n, struct chv_expr *els,
                  struct chv_expr **out, struct chv_error *err) {
  if (n < 1) return chv_error_set(err, CHV_EINVAL, "CASE needs a WHEN");
  const struct chv_type *t = NULL;
  for (int i = 0; i <= n; i++) {
    struct chv_expr *x = i < n ? thens[i] : els;
    if (x == NULL) continue;
    const struct chv_type *nt = branch_type(a, t, x);
    if (nt == NULL && t) return type_err2(err, "case", t, x->type);
    t = nt;
  }
  if (t == NULL) t = thens[0]->type; /* every branch a NULL literal */
  struct chv_expr *e = node(a, CHV_EXPR_CASE, t, 2 * n + 1);
  if (e == NULL) return oom(err);
  for (int i = 0; i < n; i++) {
    e->args[2 * i] = whens[i];
    CHV_RETURN_IF_ERR(bool_arg(a, &e->args[2 * i], "case", err));
    e->args[2 * i + 1] = thens[i];
    CHV_RETURN_IF_ERR(coerce(a, &e->args[2 * i + 1], t, err));
  }
  if (els == NULL) {
    struct chv_value nv = {.is_null = true};
    CHV_RETURN_IF_ERR(chv_expr_literal(a, t, &nv, &els, err));
  }
  e->args[2 * n] = els;
  CHV_RETURN_IF_ERR(coerce(a, &e->args[2 * n], t, err));
  *out = e;
  return CHV_OK;
}

int chv_expr_case_simple(chv_arena *a, struct chv_expr *x,
                         struct chv_expr **vals, struct chv_expr **thens,
                         int n, struct chv_expr *els, struct chv_expr **out,
                         struct chv_error *err) {
  if (n < 1) return chv_error_set(err, CHV_EINVAL, "CASE needs a WHEN");
  struct chv_expr **whens = chv_arena_alloc(a, sizeof *whens * (size_t)n);
  if (whens == NULL) return oom(err);
  for (int i = 0; i < n; i++) {
    struct chv_expr *args[2] = {x, vals[i]};
    CHV_RETURN_IF_ERR(chv_expr_call(a, CHV_FN_EQ, args, 2, &whens[i], err));
  }
  return chv_expr_case(a, whens, thens, n, els, out, err);
}

int chv_expr_coalesce(chv_arena *a, struct chv_expr **args, int n,
                      struct chv_expr **out, struct chv_error *err) {
  if (n < 1) return chv_error_set(err, CHV_EINVAL, "COALESCE needs arguments");
  const struct chv_type *t = NULL;
  for (int i = 0; i < n; i++) {
    const struct chv_type *nt = branch_type(a, t, args[i]);
    if (nt == NULL && t) return type_err2(err, "coalesce", t, args[i]->type);
    t = nt;
  }
  if (t == NULL) t = args[0]->type; /* every argument a NULL literal */
  struct chv_expr *e = node(a, CHV_EXPR_COALESCE, t, n);
  if (e == NULL) return oom(err);
  for (int i = 0; i < n; i++) {
    e->args[i] = args[i];
    CHV_RETURN_IF_ERR(coerce(a, &e->args[i], t, err));
  }
  *out = e;
  return CHV_OK;
}

/* CASTs Hive allows explicitly between primitive types (chive's subset). */
static bool castable(enum chv_type_id f, enum chv_type_id t) {
  if (f == t) return true;
  if (t == CHV_TYPE_BINARY) return chv_func_is_string(f);
  if (f == CHV_TYPE_BINARY) return chv_func_is_string(t);
  if (chv_func_is_string(t) || chv_func_is_string(f)) return true;
  bool fn = chv_func_is_numeric(f) || f == CHV_TYPE_BOOLEAN;
  bool tn = chv_func_is_numeric(t) || t == CHV_TYPE_BOOLEAN;
  if (fn && tn) return true;
  if ((f == CHV_TYPE_DATE || f == CHV_TYPE_TIMESTAMP) &&
      (t == CHV_TYPE_DATE || t == CHV_TYPE_TIMESTAMP))
    return true;
  return false;
}

int chv_expr_cast(chv_arena *a, struct chv_expr *x,
                  const struct chv_type *to, struct chv_expr **out,
                  struct chv_error *err) {
  if (!chv_type_is_primitive(to->id) || !chv_type_is_primitive(x->type->id) ||
      !castable(x->type->id, to->id)) {
    char s1[48], s2[48];
    return chv_error_set(err, CHV_ETYPE, "cannot cast %s to %s",
                         tname(x->type, s1, sizeof s1), tname(to, s2, sizeof s2));
  }
  struct chv_expr *e = node(a, CHV_EXPR_CAST, to, 1);
  if (e == NULL) return oom(err);
  e->args[0] = x;
  *out = e;
  return CHV_OK;
}

int chv_expr_like(chv_arena *a, struct chv_expr *x, struct chv_expr *pattern,
                  bool negated, struct chv_expr **out, struct chv_error *err) {
  if (pattern->kind != CHV_EXPR_LITERAL ||
      !chv_func_is_string(pattern->type->id))
    return chv_error_set(err, CHV_ENOTSUP, "LIKE needs a string literal "
                         "pattern");
  if (!chv_func_is_string(x->type->id) && !chv_func_is_numeric(x->type->id) &&
      x->type->id != CHV_TYPE_DATE && x->type->id != CHV_TYPE_TIMESTAMP)
    return type_err1(err, "like", x->type);
  const struct chv_type *b = chv_exec_type(a, CHV_TYPE_BOOLEAN, 0, 0);
  const struct chv_type *s = chv_exec_type(a, CHV_TYPE_STRING, 0, 0);
  struct chv_expr *e = node(a, CHV_EXPR_LIKE, b, 1);
  if (b == NULL || s == NULL || e == NULL) return oom(err);
  e->negated = negated;
  e->args[0] = x;
  CHV_RETURN_IF_ERR(coerce(a, &e->args[0], s, err));
  if (!pattern->value.is_null) {
    struct chv_like *lk;
    CHV_RETURN_IF_ERR(chv_like_compile(a, pattern->value.str,
                                       (size_t)pattern->value.len, &lk, err));
    e->like = lk;
  } /* a NULL pattern: like stays NULL and every row is NULL */
  *out = e;
  return CHV_OK;
}

bool chv_expr_same(const struct chv_expr *a, const struct chv_expr *b) {
  if (a == b) return true;
  if (a->kind != b->kind || a->nargs != b->nargs || a->negated != b->negated ||
      !chv_type_equal(a->type, b->type))
    return false;
  switch (a->kind) {
  case CHV_EXPR_COLUMN: return a->column == b->column;
  case CHV_EXPR_LITERAL: {
    if (a->value.is_null || b->value.is_null)
      return a->value.is_null == b->value.is_null;
    if (chv_type_is_string_like(a->type->id))
      return a->value.len == b->value.len &&
             !memcmp(a->value.str, b->value.str, (size_t)a->value.len);
    return !memcmp(&a->value, &b->value, sizeof a->value);
  }
  case CHV_EXPR_CALL:
    if (a->fn != b->fn) return false;
    if ((a->fn == CHV_FN_EQ || a->fn == CHV_FN_NE || a->fn == CHV_FN_NSEQ) &&
        chv_expr_same(a->args[0], b->args[1]) && chv_expr_same(a->args[1], b->args[0]))
      return true; /* a = b is b = a */
    break;
  case CHV_EXPR_FUNC:
    if (a->func != b->func || a->impl != b->impl) return false;
    break;
  case CHV_EXPR_LIKE:
    if (a->like != b->like) return false;
    break;
  default:
    break;
  }
  for (int i = 0; i < a->nargs; i++)
    if (!chv_expr_same(a->args[i], b->args[i])) return false;
  return true;
}
