/*
** sql/func registry.c: the table of functions, one row per name, kept
** sorted so that a name is found by binary search; overload resolution
** with Hive's type rules; the text of signatures.
**
** A row names a function, its kind, its overloads (written in the row)
** and a sentence of documentation; an alias row names the function it is
** instead (lookup returns that one, so messages name it as before:
** substring's errors say 'substr').  Overloads are tried in order: the
** first whose parameters accept every argument wins, and its parameters'
** cast targets say which implicit CASTs sql/exec inserts.  docs/func.md
** has the rules and how to add a function.
**
** INTERFACE: chv_func_lookup(), chv_func_count(), chv_func_at(),
** chv_func_kind_name(), chv_func_signature(),
** chv_func_resolve() (func.h).
*/
#include "sql/func/func_int.h"

#include <stdio.h>

/* ---- the table ---------------------------------------------------------------- */

#define P(cls, cast) {CHV_FC_##cls, cast, NULL}
#define KEEP CHV_FUNC_KEEP
#define SAME CHV_FUNC_SAME
/* The overloads of a row, written in the row. */
#define OVERLOADS(...)                                                        \
  .over = (const struct chv_func_overload[]){__VA_ARGS__},                    \
  .nover = (int)(sizeof((const struct chv_func_overload[]){__VA_ARGS__}) /    \
                 sizeof(struct chv_func_overload))
#define SCALAR(nm, doc_, ...)                                                 \
  {.name = nm, .kind = CHV_FUNC_SCALAR, .doc = doc_, OVERLOADS(__VA_ARGS__)}
#define AGGREGATE(nm, doc_, ...)                                              \
  {.name = nm, .kind = CHV_FUNC_AGGREGATE, .doc = doc_,                       \
   OVERLOADS(__VA_ARGS__)}
#define ALIAS(nm, of, kind_) {.name = nm, .kind = kind_, .alias_of = of}
/* A scalar overload: kernel, result type, arity, parameters. */
#define FN(kernel_, result_, lo, hi, ...)                                     \
  {.min_args = lo, .max_args = hi,                                            \
   .nparams = (int)(sizeof((const struct chv_func_param[]){__VA_ARGS__}) /    \
                    sizeof(struct chv_func_param)),                           \
   .params = {__VA_ARGS__}, .result = result_, .kernel = kernel_}
/* The same with the result type derived by a function. */
#define FN_DERIVED(kernel_, derive_, lo, hi, ...)                             \
  {.min_args = lo, .max_args = hi,                                            \
   .nparams = (int)(sizeof((const struct chv_func_param[]){__VA_ARGS__}) /    \
                    sizeof(struct chv_func_param)),                           \
   .params = {__VA_ARGS__}, .derive = derive_, .kernel = kernel_}
/* An aggregate overload of one argument; AGG_DERIVED derives the result. */
#define AGG(impl_, form_, result_, param)                                     \
  {.min_args = 1, .max_args = 1, .nparams = 1, .params = {param},            \
   .result = result_, .agg = &impl_, .form = form_}
#define AGG_DERIVED(impl_, derive_, param)                                    \
  {.min_args = 1, .max_args = 1, .nparams = 1, .params = {param},            \
   .derive = derive_, .agg = &impl_, .form = CHV_AGG_PLAIN}

#define ROUND_PLACES                                                          \
  {CHV_FC_CONST_INT, CHV_FUNC_KEEP, "the number of decimal places"}

/* Sorted by name (strcmp); tests/unit/func checks it. */
static const struct chv_func funcs[] = {
    SCALAR("abs", "the absolute value of x",
           FN(chv_fn_abs, CHV_TYPE_DOUBLE, 1, 1, P(STRING, CHV_TYPE_DOUBLE)),
           FN(chv_fn_abs, SAME, 1, 1, P(NUMERIC, KEEP))),
    SCALAR("ascii", "the first byte of s as a signed number, 0 for ''",
           FN(chv_fn_ascii, CHV_TYPE_INT, 1, 1, P(TEXT, CHV_TYPE_STRING))),
    AGGREGATE("avg", "the mean of the non-NULL values",
              AGG(chv_agg_avg_impl, CHV_AGG_PLAIN, CHV_TYPE_DOUBLE,
                  P(INTEGRAL, KEEP)),
              AGG(chv_agg_avg_impl, CHV_AGG_PLAIN, CHV_TYPE_DOUBLE,
                  P(FLOATING, KEEP)),
              AGG_DERIVED(chv_agg_avg_impl, chv_agg_avg_decimal_type,
                          P(DECIMAL, KEEP))),
    ALIAS("char_length", "length", CHV_FUNC_SCALAR),
    ALIAS("character_length", "length", CHV_FUNC_SCALAR),
    SCALAR("chr", "the character of code x mod 256; '' for a negative x",
           FN(chv_fn_chr, CHV_TYPE_STRING, 1, 1, P(NUMERIC, CHV_TYPE_BIGINT))),
    SCALAR("concat", "its arguments' text, one after the other",
           FN(chv_fn_concat, CHV_TYPE_BINARY, 1, CHV_FUNC_MAX_ARGS,
              P(BINARY, KEEP)),
           FN(chv_fn_concat, CHV_TYPE_STRING, 1, CHV_FUNC_MAX_ARGS,
              P(ANY, CHV_TYPE_STRING))),
    SCALAR("concat_ws", "the non-NULL strings with sep between them",
           FN(chv_fn_concat_ws, CHV_TYPE_STRING, 2, CHV_FUNC_MAX_ARGS,
              P(STRING, CHV_TYPE_STRING), P(STRING, CHV_TYPE_STRING))),
    AGGREGATE("count", "the number of rows, of non-NULL values, or of "
              "distinct non-NULL values",
              {.min_args = 0, .max_args = 0, .nparams = 0,
               .result = CHV_TYPE_BIGINT, .agg = &chv_agg_count_star_impl,
               .form = CHV_AGG_STAR},
              AGG(chv_agg_count_impl, CHV_AGG_PLAIN, CHV_TYPE_BIGINT,
                  P(ANY, KEEP)),
              AGG(chv_agg_count_distinct_impl, CHV_AGG_DISTINCT,
                  CHV_TYPE_BIGINT, P(ANY, KEEP))),
    SCALAR("day", "the day of the month of a date",
           FN(chv_fn_day, CHV_TYPE_INT, 1, 1, P(DATE, CHV_TYPE_DATE))),
    ALIAS("dayofmonth", "day", CHV_FUNC_SCALAR),
    SCALAR("elt", "the k-th of the strings after k, NULL outside them",
           FN(chv_fn_elt, CHV_TYPE_STRING, 2, CHV_FUNC_MAX_ARGS,
              P(TO_INT, CHV_TYPE_INT), P(TEXT, CHV_TYPE_STRING))),
    SCALAR("find_in_set", "the place of s among the comma-separated items "
           "of list, 0 when absent",
           FN(chv_fn_find_in_set, CHV_TYPE_INT, 2, 2, P(TEXT, CHV_TYPE_STRING), P(TEXT, CHV_TYPE_STRING))),
    SCALAR("initcap", "s with each word's first letter in upper case and "
           "the others in lower case",
           FN(chv_fn_initcap, CHV_TYPE_STRING, 1, 1, P(TEXT, CHV_TYPE_STRING))),
    SCALAR("instr", "the 1-based byte place of sub's first occurrence in "
           "s, 0 when absent",
           FN(chv_fn_instr, CHV_TYPE_INT, 2, 2, P(VALUE, CHV_TYPE_STRING),
              P(VALUE, CHV_TYPE_STRING))),
    ALIAS("lcase", "lower", CHV_FUNC_SCALAR),
    SCALAR("length", "the number of characters (UTF-8 code points)",
           FN(chv_fn_length, CHV_TYPE_INT, 1, 1, P(TEXT, CHV_TYPE_STRING))),
    SCALAR("levenshtein", "the edit distance between two strings",
           FN(chv_fn_levenshtein, CHV_TYPE_INT, 2, 2, P(TEXT, CHV_TYPE_STRING), P(TEXT, CHV_TYPE_STRING))),
    SCALAR("locate", "the 1-based byte place of sub in s from pos (1 by "
           "default), 0 when absent",
           FN(chv_fn_locate, CHV_TYPE_INT, 2, 3, P(VALUE, CHV_TYPE_STRING),
              P(VALUE, CHV_TYPE_STRING), P(TO_INT, CHV_TYPE_INT))),
    SCALAR("lower", "the string with ASCII letters in lower case",
           FN(chv_fn_lower, CHV_TYPE_STRING, 1, 1, P(TEXT, CHV_TYPE_STRING))),
    SCALAR("lpad", "s filled on the left with pad to len characters, or "
           "cut to them",
           FN(chv_fn_lpad, CHV_TYPE_STRING, 3, 3, P(TEXT, CHV_TYPE_STRING), P(INTEGRAL, CHV_TYPE_INT), P(TEXT, CHV_TYPE_STRING))),
    SCALAR("ltrim", "s without the spaces (or the characters of chars) at its start",
           FN(chv_fn_ltrim, CHV_TYPE_STRING, 1, 2, P(TEXT, CHV_TYPE_STRING),
              P(TEXT, CHV_TYPE_STRING))),
    AGGREGATE("max", "the greatest non-NULL value",
              AGG(chv_agg_max_impl, CHV_AGG_PLAIN, SAME, P(ANY, KEEP))),
    AGGREGATE("min", "the least non-NULL value",
              AGG(chv_agg_min_impl, CHV_AGG_PLAIN, SAME, P(ANY, KEEP))),
    SCALAR("month", "the month of a date, 1 to 12",
           FN(chv_fn_month, CHV_TYPE_INT, 1, 1, P(DATE, CHV_TYPE_DATE))),
    SCALAR("octet_length", "the number of bytes of s",
           FN(chv_fn_octet_length, CHV_TYPE_INT, 1, 1, P(TEXT, CHV_TYPE_STRING))),
    SCALAR("quote", "s in single quotes, its quotes and backslashes escaped",
           FN(chv_fn_quote, CHV_TYPE_STRING, 1, 1, P(TEXT, CHV_TYPE_STRING))),
    SCALAR("repeat", "s repeated n times",
           FN(chv_fn_repeat, CHV_TYPE_STRING, 2, 2, P(TEXT, CHV_TYPE_STRING), P(INTEGRAL, CHV_TYPE_INT))),
    SCALAR("replace", "s with every occurrence of search replaced by rep",
           FN(chv_fn_replace, CHV_TYPE_STRING, 3, 3, P(TEXT, CHV_TYPE_STRING), P(TEXT, CHV_TYPE_STRING), P(TEXT, CHV_TYPE_STRING))),
    SCALAR("reverse", "the characters of s in reverse order",
           FN(chv_fn_reverse, CHV_TYPE_STRING, 1, 1, P(TEXT, CHV_TYPE_STRING))),
    SCALAR("round", "x rounded half away from zero to d decimal places "
           "(0 by default)",
           FN(chv_fn_round, CHV_TYPE_DOUBLE, 1, 2, P(STRING, CHV_TYPE_DOUBLE),
              ROUND_PLACES),
           FN_DERIVED(chv_fn_round, chv_fn_round_decimal_type, 1, 2,
                      P(DECIMAL, KEEP), ROUND_PLACES),
           FN(chv_fn_round, SAME, 1, 2, P(NUMERIC, KEEP), ROUND_PLACES)),
    SCALAR("rpad", "s filled on the right with pad to len characters, or "
           "cut to them",
           FN(chv_fn_rpad, CHV_TYPE_STRING, 3, 3, P(TEXT, CHV_TYPE_STRING), P(INTEGRAL, CHV_TYPE_INT), P(TEXT, CHV_TYPE_STRING))),
    SCALAR("rtrim", "s without the spaces (or the characters of chars) at its end",
           FN(chv_fn_rtrim, CHV_TYPE_STRING, 1, 2, P(TEXT, CHV_TYPE_STRING),
              P(TEXT, CHV_TYPE_STRING))),
    SCALAR("soundex", "the American Soundex code of s",
           FN(chv_fn_soundex, CHV_TYPE_STRING, 1, 1, P(TEXT, CHV_TYPE_STRING))),
    SCALAR("space", "n spaces",
           FN(chv_fn_space, CHV_TYPE_STRING, 1, 1, P(INTEGRAL, CHV_TYPE_INT))),
    SCALAR("substr", "len characters of s from pos (1-based; negative: "
           "from the end)",
           FN(chv_fn_substr, CHV_TYPE_BINARY, 2, 3, P(BINARY, KEEP),
              P(INTEGRAL, CHV_TYPE_INT), P(INTEGRAL, CHV_TYPE_INT)),
           FN(chv_fn_substr, CHV_TYPE_STRING, 2, 3, P(TEXT, CHV_TYPE_STRING),
              P(INTEGRAL, CHV_TYPE_INT), P(INTEGRAL, CHV_TYPE_INT))),
    ALIAS("substring", "substr", CHV_FUNC_SCALAR),
    SCALAR("substring_index", "s before the k-th delim (after the k-th "
           "from the end for a negative k)",
           FN(chv_fn_substring_index, CHV_TYPE_STRING, 3, 3, P(TEXT, CHV_TYPE_STRING), P(TEXT, CHV_TYPE_STRING), P(INTEGRAL, CHV_TYPE_INT))),
    AGGREGATE("sum", "the sum of the non-NULL values",
              AGG(chv_agg_sum_impl, CHV_AGG_PLAIN, CHV_TYPE_BIGINT,
                  P(INTEGRAL, KEEP)),
              AGG(chv_agg_sum_impl, CHV_AGG_PLAIN, CHV_TYPE_DOUBLE,
                  P(FLOATING, KEEP)),
              AGG_DERIVED(chv_agg_sum_impl, chv_agg_sum_decimal_type,
                          P(DECIMAL, KEEP))),
    SCALAR("to_date", "the date of a date, timestamp or string",
           FN(chv_fn_to_date, CHV_TYPE_DATE, 1, 1, P(DATE, CHV_TYPE_DATE))),
    SCALAR("translate", "s with each character of from replaced by the one "
           "at its place in to, or dropped",
           FN(chv_fn_translate, CHV_TYPE_STRING, 3, 3, P(TEXT, CHV_TYPE_STRING), P(TEXT, CHV_TYPE_STRING), P(TEXT, CHV_TYPE_STRING))),
    SCALAR("trim", "s without the spaces (or the characters of chars) at both ends",
           FN(chv_fn_trim, CHV_TYPE_STRING, 1, 2, P(TEXT, CHV_TYPE_STRING),
              P(TEXT, CHV_TYPE_STRING))),
    ALIAS("ucase", "upper", CHV_FUNC_SCALAR),
    SCALAR("upper", "the string with ASCII letters in upper case",
           FN(chv_fn_upper, CHV_TYPE_STRING, 1, 1, P(TEXT, CHV_TYPE_STRING))),
    SCALAR("year", "the year of a date",
           FN(chv_fn_year, CHV_TYPE_INT, 1, 1, P(DATE, CHV_TYPE_DATE))),
};

int chv_func_count(void) { return (int)CHV_ARRAY_SIZE(funcs); }

const struct chv_func *chv_func_at(int i) {
  return i >= 0 && i < chv_func_count() ? &funcs[i] : NULL;
}

/* The row named exactly name (lower case), or NULL. */
static const struct chv_func *find(const char *name, size_t n) {
  size_t lo = 0, hi = CHV_ARRAY_SIZE(funcs);
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strncmp(funcs[mid].name, name, n);
    if (c == 0 && funcs[mid].name[n] != '\0') c = 1;
    if (c == 0) return &funcs[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

const struct chv_func *chv_func_lookup(const char *name) {
  char low[64];
  size_t n = strlen(name);
  if (n == 0 || n >= sizeof low) return NULL;
  for (size_t i = 0; i < n; i++)
    low[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i]);
  low[n] = '\0';
  const struct chv_func *f = find(low, n);
  if (f && f->alias_of) f = find(f->alias_of, strlen(f->alias_of));
  return f;
}

const char *chv_func_kind_name(enum chv_func_kind k) {
  return k == CHV_FUNC_AGGREGATE ? "aggregate" : "scalar";
}

/* ---- signatures ---------------------------------------------------------------- */

static const char *const class_names[] = {
#define CHV_X_(id, name) name,
    CHV_FUNC_CLASS_MAP(CHV_X_)
#undef CHV_X_
};

static const struct chv_func_param *param_of(const struct chv_func_overload *o,
                                             int i) {
  return &o->params[i < o->nparams ? i : o->nparams - 1];
}

int chv_func_signature(const struct chv_func *f, struct chv_buf *out) {
  const struct chv_func *impl = f->alias_of ? chv_func_lookup(f->name) : f;
  if (impl == NULL)
    return CHV_EINTERNAL;
  for (int k = 0; k < impl->nover; k++) {
    const struct chv_func_overload *o = &impl->over[k];
    if (k) CHV_RETURN_IF_ERR(chv_buf_puts(out, "; "));
    CHV_RETURN_IF_ERR(chv_buf_printf(out, "%s(", f->name));
    if (o->form == CHV_AGG_STAR) CHV_RETURN_IF_ERR(chv_buf_puts(out, "*"));
    if (o->form == CHV_AGG_DISTINCT)
      CHV_RETURN_IF_ERR(chv_buf_puts(out, "DISTINCT "));
    int open = 0;
    for (int i = 0; i < o->nparams; i++) {
      bool opt = i >= o->min_args;
      if (opt) open++;
      CHV_RETURN_IF_ERR(chv_buf_printf(out, "%s%s%s", opt ? "[" : "",
                                       i ? ", " : "",
                                       class_names[o->params[i].cls]));
    }
    if (o->max_args > o->nparams) CHV_RETURN_IF_ERR(chv_buf_puts(out, ", ..."));
    for (; open > 0; open--) CHV_RETURN_IF_ERR(chv_buf_putc(out, ']'));
    const char *res;
    if (o->derive || o->result == CHV_FUNC_SAME)
      res = o->nparams ? class_names[o->params[0].cls] : "?";
    else
      res = chv_type_id_name(o->result);
    CHV_RETURN_IF_ERR(chv_buf_printf(out, ") -> %s", res));
  }
  return CHV_OK;
}

/* ---- resolution ------------------------------------------------------------------ */

static bool accepts(enum chv_func_class c, const struct chv_func_argdesc *d) {
  enum chv_type_id id = d->type->id;
  if (!chv_type_is_primitive(id)) return false;
  /* a NULL literal is of every type, as Hive's void is */
  if (d->constant && d->constant->is_null && c != CHV_FC_CONST_INT)
    return true;
  switch (c) {
  case CHV_FC_ANY: return true;
  case CHV_FC_VALUE: return id != CHV_TYPE_BINARY;
  case CHV_FC_TEXT: return id != CHV_TYPE_BINARY && id != CHV_TYPE_BOOLEAN;
  case CHV_FC_STRING: return chv_func_is_string(id);
  case CHV_FC_NUMERIC: return chv_func_is_numeric(id);
  case CHV_FC_INTEGRAL: return chv_func_is_integral(id);
  case CHV_FC_TO_INT: return id != CHV_TYPE_BINARY;
  case CHV_FC_FLOATING: return id == CHV_TYPE_FLOAT || id == CHV_TYPE_DOUBLE;
  case CHV_FC_DECIMAL: return id == CHV_TYPE_DECIMAL;
  case CHV_FC_BINARY: return id == CHV_TYPE_BINARY;
  case CHV_FC_DATE:
    return chv_func_is_string(id) || id == CHV_TYPE_DATE ||
           id == CHV_TYPE_TIMESTAMP;
  case CHV_FC_CONST_INT:
    return d->constant && !d->constant->is_null && chv_func_is_integral(id);
  default: return false;
  }
}

/* "decimal(10,2)", "varchar(5)", "int" into buf. */
static const char *tname(const struct chv_type *t, char *buf, size_t n) {
  if (t->id == CHV_TYPE_DECIMAL)
    snprintf(buf, n, "decimal(%d,%d)", t->precision, t->scale);
  else if (t->id == CHV_TYPE_CHAR || t->id == CHV_TYPE_VARCHAR)
    snprintf(buf, n, "%s(%d)", chv_type_id_name(t->id), t->length);
  else
    snprintf(buf, n, "%s", chv_type_id_name(t->id));
  return buf;
}

/* The error for argument i, the first that overload o rejects. */
static int type_error(const struct chv_func *f, const struct chv_func_overload *o,
                      const struct chv_func_argdesc *args, int i,
                      struct chv_error *err) {
  char a[48], b[48];
  if (f->kind == CHV_FUNC_AGGREGATE) {
    const char *name = o->agg ? o->agg->name : f->name;
    if (!chv_type_is_primitive(args[i].type->id))
      return chv_error_set(err, CHV_ETYPE, "%s needs a primitive argument",
                           name);
    return chv_error_set(err, CHV_ETYPE, "cannot apply '%s' to %s", name,
                         chv_type_id_name(args[i].type->id));
  }
  if (i >= o->nparams - 1 && o->max_args > o->nparams) /* a repeated one */
    return chv_error_set(err, CHV_ETYPE, "cannot apply '%s' to %s", f->name,
                         tname(args[i].type, a, sizeof a));
  if (i == 0)
    return chv_error_set(err, CHV_ETYPE, "cannot apply '%s' to %s", f->name,
                         tname(args[0].type, a, sizeof a));
  return chv_error_set(err, CHV_ETYPE, "cannot apply '%s' to %s and %s",
                       f->name, tname(args[0].type, a, sizeof a),
                       tname(args[i].type, b, sizeof b));
}

static int resolve_oom(const struct chv_func *f, struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory typing %s", f->name);
}

int chv_func_resolve(chv_arena *a, const struct chv_func *f,
                     enum chv_agg_form form,
                     const struct chv_func_argdesc *args, int nargs,
                     struct chv_func_bound *out, struct chv_error *err) {
  if (f->alias_of) f = chv_func_lookup(f->alias_of);
  if (f == NULL)
    return chv_error_set(err, CHV_EINTERNAL, "an alias of no function");
  /* the arguments counts of the overloads called this way */
  int lo = -1, hi = -1;
  const struct chv_func_overload *first = NULL;
  for (int k = 0; k < f->nover; k++) {
    const struct chv_func_overload *o = &f->over[k];
    if (o->form != form) continue;
    if (lo < 0 || o->min_args < lo) lo = o->min_args;
    if (o->max_args > hi) hi = o->max_args;
    if (!first && nargs >= o->min_args && nargs <= o->max_args) first = o;
  }
  if (lo < 0)
    return chv_error_set(err, CHV_EINVAL, "%s cannot be called as %s(%s...)",
                         f->name, f->name,
                         form == CHV_AGG_STAR ? "*" : "DISTINCT ");
  if (first == NULL)
    return chv_error_set(err, CHV_EINVAL, "'%s' takes %d%s argument%s, not %d",
                         f->name, lo, hi > lo ? " or more" : "",
                         lo == 1 ? "" : "s", nargs);
  /* constants first, as Hive's initialize() checks them */
  for (int i = 0; i < nargs; i++) {
    const struct chv_func_param *p = param_of(first, i);
    if (p->cls == CHV_FC_CONST_INT && !accepts(p->cls, &args[i]))
      return chv_error_set(err, CHV_ETYPE, "'%s': %s must be an integer "
                           "constant", f->name, p->what ? p->what : "it");
  }
  const struct chv_func_overload *best = NULL, *failed = NULL;
  int failed_at = -1;
  for (int k = 0; k < f->nover && !best; k++) {
    const struct chv_func_overload *o = &f->over[k];
    if (o->form != form || nargs < o->min_args || nargs > o->max_args)
      continue;
    int i = 0;
    while (i < nargs && accepts(param_of(o, i)->cls, &args[i])) i++;
    if (i == nargs) best = o;
    else if (i > failed_at) failed = o, failed_at = i;
  }
  if (best == NULL) return type_error(f, failed, args, failed_at, err);
  const struct chv_type **casts =
      chv_arena_alloc(a, sizeof *casts * (size_t)(nargs > 0 ? nargs : 1));
  struct chv_func_argdesc *cast_args =
      chv_arena_alloc(a, sizeof *cast_args * (size_t)(nargs > 0 ? nargs : 1));
  if (casts == NULL || cast_args == NULL) return resolve_oom(f, err);
  for (int i = 0; i < nargs; i++) {
    enum chv_type_id to = param_of(best, i)->cast;
    casts[i] = NULL;
    cast_args[i] = args[i];
    if (to == CHV_FUNC_KEEP) continue;
    const struct chv_type *t = chv_func_type(a, to, 0, 0);
    if (t == NULL) return resolve_oom(f, err);
    if (chv_type_equal(t, args[i].type)) continue; /* already of it */
    casts[i] = cast_args[i].type = t;
  }
  const struct chv_type *t;
  if (best->derive) {
    CHV_RETURN_IF_ERR(best->derive(a, cast_args, nargs, &t, err));
  } else if (best->result == CHV_FUNC_SAME) {
    t = cast_args[0].type;
  } else if ((t = chv_func_type(a, best->result, 0, 0)) == NULL) {
    return resolve_oom(f, err);
  }
  out->ov = best;
  out->result = t;
  out->casts = casts;
  return CHV_OK;
}
