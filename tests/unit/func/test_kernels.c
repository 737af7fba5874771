/*
** sql/func kernels and aggregate implementations, called the way the
** evaluator calls them: every kernel over its arguments as a column under a
** selection, as a dense vector and as a constant (also a NULL one), with
** the same rows each way; allocation failure at every step; an aggregate
** of its own (state bytes per group, an initial state, merge) through the
** state API.
*/
#include "chv_test.h"
#include "sql/func/func_int.h"

#include <stdlib.h>

/* Table rows leave `constant` out where no argument is one. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

static const struct chv_type t_string = {.id = CHV_TYPE_STRING};
static const struct chv_type t_int = {.id = CHV_TYPE_INT};
static const struct chv_type t_bigint = {.id = CHV_TYPE_BIGINT};
static const struct chv_type t_double = {.id = CHV_TYPE_DOUBLE};
static const struct chv_type t_date = {.id = CHV_TYPE_DATE};
static const struct chv_type t_dec = {.id = CHV_TYPE_DECIMAL, .precision = 6,
                                      .scale = 2};

/* A vector of type t from "v1|v2|NULL": strings as they are, integers,
** doubles, dates yyyy-mm-dd, decimals at the type's scale. */
static struct chv_vector *vec(const struct chv_type *t, const char *vals) {
  struct chv_vector *v;
  if (chv_vector_open(t, 4, &v, NULL) != CHV_OK) return NULL;
  const char *p = vals;
  while (p) {
    const char *e = strchr(p, '|');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    char buf[64];
    snprintf(buf, sizeof buf, "%.*s", (int)n, p);
    struct chv_value x = {0};
    if (!strcmp(buf, "NULL")) {
      x.is_null = true;
    } else if (chv_type_is_string_like(t->id)) {
      x.str = p;
      x.len = (int64_t)n;
    } else if (t->id == CHV_TYPE_DOUBLE) {
      x.f64 = strtod(buf, NULL);
    } else if (t->id == CHV_TYPE_DATE) {
      int32_t d = 0;
      chv_date_parse(buf, n, &d);
      x.i64 = d;
    } else if (t->id == CHV_TYPE_DECIMAL) {
      chv_decimal_parse(buf, n, t->precision, t->scale, &x.dec);
    } else {
      x.i64 = atoll(buf);
    }
    if (chv_func_append_value(v, &x, NULL) != CHV_OK) {
      chv_vector_close(v);
      return NULL;
    }
    p = e ? e + 1 : NULL;
  }
  return v;
}

/* v's rows as "x|y|NULL". */
static const char *render(const struct chv_vector *v, char *out, size_t cap) {
  size_t o = 0;
  out[0] = '\0';
  for (int64_t i = 0; i < v->length; i++) {
    struct chv_value x;
    char b[64];
    chv_func_get_value(v, i, &x);
    const char *s = b;
    int n;
    if (x.is_null) {
      s = "NULL";
      n = 4;
    } else if (chv_type_is_string_like(v->type->id)) {
      s = x.str;
      n = (int)x.len;
    } else if (v->type->id == CHV_TYPE_DOUBLE) {
      n = chv_func_format_double(x.f64, b);
    } else if (v->type->id == CHV_TYPE_DATE) {
      n = chv_date_format((int32_t)x.i64, b);
    } else if (v->type->id == CHV_TYPE_DECIMAL) {
      n = chv_decimal_format(x.dec, v->type->scale, b);
    } else {
      n = snprintf(b, sizeof b, "%lld", (long long)x.i64);
    }
    o += (size_t)snprintf(out + o, cap - o, "%s%.*s", i ? "|" : "", n, s);
  }
  return out;
}

/* How an argument is handed over. */
enum shape { DENSE, SELECTED, CONSTANT };

/* One kernel case: function, result type, arguments (type and rows), the
** rows wanted.  Each argument is handed over DENSE, SELECTED (the rows put
** at odd places of a vector twice as long, read through a selection) and,
** where it has one row repeated, CONSTANT. */
struct kcase {
  chv_func_kernel k;
  const struct chv_type *result;
  int nargs;
  const struct chv_type *types[3];
  const char *rows[3];
  const char *want;
  unsigned constant; /* bit a: argument a is always a constant (CONST_INT) */
};

/* rows doubled: "a|b" -> "x|a|x|b" (x = a filler). */
static void spread(const char *rows, char *out, size_t cap) {
  size_t o = 0;
  const char *p = rows;
  while (p) {
    const char *e = strchr(p, '|');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    o += (size_t)snprintf(out + o, cap - o, "%s0|%.*s", o ? "|" : "", (int)n, p);
    p = e ? e + 1 : NULL;
  }
}

static int nrows(const char *rows) {
  int n = 1;
  for (const char *c = rows; *c; c++) n += *c == '|';
  return n;
}

/* Runs c with every argument in shape s (CONSTANT only for arguments whose
** rows are all alike); "SKIP" when it does not apply. */
static const char *run(const struct kcase *c, enum shape s, char *out,
                       size_t cap) {
  struct chv_func_arg args[3];
  struct chv_vector *vs[3] = {0};
  struct chv_value ks[3];
  uint32_t sel[64];
  int n = nrows(c->want);
  const char *r = out;
  for (int i = 0; i < n; i++) sel[i] = (uint32_t)(2 * i + 1);
  for (int a = 0; a < c->nargs; a++) {
    args[a].type = c->types[a];
    args[a].sel = NULL;
    args[a].k = NULL;
    args[a].v = NULL;
    if (s == CONSTANT || (c->constant >> a & 1)) {
      /* the first row, if every row is it */
      char first[64];
      const char *bar = strchr(c->rows[a], '|');
      size_t fl = bar ? (size_t)(bar - c->rows[a]) : strlen(c->rows[a]);
      snprintf(first, sizeof first, "%.*s", (int)fl, c->rows[a]);
      char rep[256] = "";
      for (int i = 0; i < n; i++)
        snprintf(rep + strlen(rep), sizeof rep - strlen(rep), "%s%s",
                 i ? "|" : "", first);
      if (strcmp(rep, c->rows[a]) != 0) {
        r = "SKIP";
        goto out_free;
      }
      vs[a] = vec(c->types[a], first);
      chv_func_get_value(vs[a], 0, &ks[a]);
      args[a].k = &ks[a];
    } else if (s == SELECTED) {
      char sp[512];
      spread(c->rows[a], sp, sizeof sp);
      vs[a] = vec(c->types[a], sp);
      args[a].v = vs[a];
      args[a].sel = sel;
    } else {
      vs[a] = vec(c->types[a], c->rows[a]);
      args[a].v = vs[a];
    }
  }
  struct chv_vector *o;
  struct chv_error err;
  if (chv_vector_open(c->result, 1, &o, &err) != CHV_OK) {
    r = "ERR: vector";
    goto out_free;
  }
  if (c->k(args, c->nargs, n, o, &err) != CHV_OK) {
    snprintf(out, cap, "ERR: %.200s", err.msg);
  } else {
    render(o, out, cap);
    CHV_CHECK(o->length == n);
    int64_t nulls = 0;
    for (int64_t i = 0; i < o->length; i++) nulls += chv_vector_is_null(o, i);
    CHV_CHECK(nulls == o->null_count);
  }
  chv_vector_close(o);
out_free:
  for (int a = 0; a < c->nargs; a++) chv_vector_close(vs[a]);
  return r;
}

static const struct kcase kcases[] = {
    {chv_fn_concat, &t_string, 3, {&t_string, &t_string, &t_string},
     {"a|b|NULL|", "-|-|-|-", "x|yy||z"}, "a-x|b-yy|NULL|-z"},
    {chv_fn_concat, &t_string, 2, {&t_string, &t_string},
     {"NULL|NULL", "a|b"}, "NULL|NULL"},
    {chv_fn_concat, &t_string, 1, {&t_string}, {"k|k"}, "k|k"},
    {chv_fn_upper, &t_string, 1, {&t_string}, {"aBc|NULL|h\xc3\xa9|z1"},
     "ABC|NULL|H\xc3\xa9|Z1"},
    {chv_fn_upper, &t_string, 1, {&t_string}, {"x|x|x"}, "X|X|X"},
    {chv_fn_lower, &t_string, 1, {&t_string}, {"AbC|NULL|"}, "abc|NULL|"},
    {chv_fn_length, &t_int, 1, {&t_string}, {"abc|NULL||h\xc3\xa9llo"},
     "3|NULL|0|5"},
    {chv_fn_length, &t_int, 1, {&t_string}, {"NULL|NULL"}, "NULL|NULL"},
    {chv_fn_substr, &t_string, 3, {&t_string, &t_int, &t_int},
     {"hello|hello|hello|NULL|h\xc3\xa9llo", "2|-3|0|1|2", "3|2|9|1|NULL"},
     "ell|ll|hello|NULL|NULL"},
    {chv_fn_substr, &t_string, 2, {&t_string, &t_int},
     {"hello|abc|", "2|2|2"}, "ello|bc|"},
    {chv_fn_substr, &t_string, 3, {&t_string, &t_int, &t_int},
     {"hello|hello", "9|1", "1|0"}, "|"},
    {chv_fn_trim, &t_string, 1, {&t_string}, {"  a b  |NULL|   |x"},
     "a b|NULL||x"},
    {chv_fn_trim, &t_string, 2, {&t_string, &t_string},
     {"xxaxyx|NULL|\xc3\xa9" "a\xc3\xa9|yy", "xy|x|\xc3\xa9|NULL"},
     "a|NULL|a|NULL"},
    {chv_fn_ltrim, &t_string, 1, {&t_string}, {"  a  |NULL"}, "a  |NULL"},
    {chv_fn_rtrim, &t_string, 2, {&t_string, &t_string},
     {"  a  |0120", " |0"}, "  a|012"},
    {chv_fn_lpad, &t_string, 3, {&t_string, &t_int, &t_string},
     {"hi|hi|hi|h\xc3\xa9|hi|NULL", "1|5|-1|3|4|2", "?|ab|x|\xc3\xa9|||x"},
     "h|abahi|NULL|\xc3\xa9h\xc3\xa9|NULL|NULL"},
    {chv_fn_rpad, &t_string, 3, {&t_string, &t_int, &t_string},
     {"hi|hi", "6|0", "123|x"}, "hi1231|"},
    {chv_fn_repeat, &t_string, 2, {&t_string, &t_int},
     {"ab|x|ab|NULL", "3|0|-1|2"}, "ababab|||NULL"},
    {chv_fn_space, &t_string, 1, {&t_int}, {"2|0|NULL"}, "  ||NULL"},
    {chv_fn_reverse, &t_string, 1, {&t_string}, {"ab\xc3\xa9|NULL|"},
     "\xc3\xa9" "ba|NULL|"},
    {chv_fn_initcap, &t_string, 1, {&t_string}, {"hELLO wo|NULL"},
     "Hello Wo|NULL"},
    {chv_fn_ascii, &t_int, 1, {&t_string}, {"A||NULL|\xc3\xa9"},
     "65|0|NULL|-61"},
    {chv_fn_chr, &t_string, 1, {&t_bigint}, {"65|-1|322|NULL"}, "A||B|NULL"},
    {chv_fn_octet_length, &t_int, 1, {&t_string}, {"\xc3\xa9|NULL|"},
     "2|NULL|0"},
    {chv_fn_concat_ws, &t_string, 3, {&t_string, &t_string, &t_string},
     {"-|NULL|,", "a|a|NULL", "b|b|c"}, "a-b|NULL|c"},
    {chv_fn_elt, &t_string, 3, {&t_int, &t_string, &t_string},
     {"1|2|3|NULL|0", "a|a|a|a|a", "b|b|b|b|b"}, "a|b|NULL|NULL|NULL"},
    {chv_fn_quote, &t_string, 1, {&t_string}, {"it's|NULL|a\\b"},
     "'it\\'s'|NULL|'a\\\\b'"},
    {chv_fn_instr, &t_int, 2, {&t_string, &t_string},
     {"abcabc|abc|NULL|x", "ca|z|a|"}, "3|0|NULL|1"},
    {chv_fn_locate, &t_int, 3, {&t_string, &t_string, &t_int},
     {"bar|bar|bar|NULL", "foobarbar|foobarbar|foo|x", "5|NULL|0|1"},
     "7|0|0|NULL"},
    {chv_fn_find_in_set, &t_int, 2, {&t_string, &t_string},
     {"ab|a,b||NULL|c", "abc,b,ab|a,b|a,,b|x|a,b"}, "3|0|2|NULL|0"},
    {chv_fn_replace, &t_string, 3, {&t_string, &t_string, &t_string},
     {"aXbXc|abc|NULL|a\xc3\xa9", "X|||", "--|-|x|."},
     "a--b--c|-a-b-c-|NULL|.a.\xc3\xa9."},
    {chv_fn_translate, &t_string, 3, {&t_string, &t_string, &t_string},
     {"abcdef|\xc3\x80" "b|NULL", "adc|\xc3\x80|a", "19|\xc3\x83|b"},
     "1b9ef|\xc3\x83" "b|NULL"},
    {chv_fn_substring_index, &t_string, 3, {&t_string, &t_string, &t_int},
     {"a.b.c|a.b.c|a.b.c|a.b.c|NULL", ".|.|.|.|.", "2|-2|9|0|1"},
     "a.b|b.c|a.b.c||NULL"},
    {chv_fn_levenshtein, &t_int, 2, {&t_string, &t_string},
     {"kitten||\xc3\xa9|NULL", "sitting|abc|e|a"}, "3|3|1|NULL"},
    {chv_fn_soundex, &t_string, 1, {&t_string}, {"Miller|Ashcraft||NULL|m"},
     "M460|A261||NULL|M000"},
    {chv_fn_abs, &t_int, 1, {&t_int}, {"-3|NULL|4|-2147483648"},
     "3|NULL|4|-2147483648"},
    {chv_fn_abs, &t_int, 1, {&t_int}, {"-7|-7"}, "7|7"},
    {chv_fn_abs, &t_double, 1, {&t_double}, {"-1.5|NULL|0"}, "1.5|NULL|0.0"},
    {chv_fn_abs, &t_dec, 1, {&t_dec}, {"-1.25|3.00"}, "1.25|3.00"},
    {chv_fn_round, &t_double, 2, {&t_double, &t_int},
     {"1.005|-2.5|NULL", "2|2|2"}, "1.01|-2.5|NULL", 2},
    {chv_fn_round, &t_bigint, 2, {&t_bigint, &t_int},
     {"1250|-1250|5", "-2|-2|-2"}, "1300|-1300|0", 2},
    {chv_fn_round, &t_dec, 1, {&t_dec}, {"1.25|-1.25|NULL"}, "1.00|-1.00|NULL"},
    {chv_fn_year, &t_int, 1, {&t_date}, {"2024-02-29|NULL|1969-12-31"},
     "2024|NULL|1969"},
    {chv_fn_month, &t_int, 1, {&t_date}, {"2024-02-29|1969-12-31"}, "2|12"},
    {chv_fn_day, &t_int, 1, {&t_date}, {"2024-02-29|NULL"}, "29|NULL"},
    {chv_fn_to_date, &t_date, 1, {&t_date}, {"2024-02-29|NULL"},
     "2024-02-29|NULL"},
    {chv_fn_year, &t_int, 1, {&t_date}, {"NULL|NULL"}, "NULL|NULL"},
};

static void test_kernel_shapes(void) {
  for (size_t i = 0; i < CHV_ARRAY_SIZE(kcases); i++) {
    const struct kcase *c = &kcases[i];
    static const char *const names[] = {"dense", "selected", "constant"};
    for (int s = DENSE; s <= CONSTANT; s++) {
      char out[512];
      const char *got = run(c, (enum shape)s, out, sizeof out);
      if (!strcmp(got, "SKIP")) continue;
      if (strcmp(got, c->want) != 0) {
        fprintf(stderr, "kernel case %zu (%s): got %s, want %s\n", i,
                names[s], got, c->want);
        CHV_CHECK(0);
      }
    }
  }
}

/* The kernel of every scalar overload of the registry is one of those
** tested above. */
static void test_every_kernel_tested(void) {
  for (int i = 0; i < chv_func_count(); i++) {
    const struct chv_func *f = chv_func_at(i);
    if (f->alias_of || f->kind != CHV_FUNC_SCALAR) continue;
    for (int k = 0; k < f->nover; k++) {
      bool found = false;
      for (size_t j = 0; j < CHV_ARRAY_SIZE(kcases) && !found; j++)
        found = kcases[j].k == f->over[k].kernel;
      if (!found) {
        fprintf(stderr, "the kernel of %s (overload %d) is not tested\n",
                f->name, k);
        CHV_CHECK(0);
      }
    }
  }
}

/* Every failing allocation of a kernel is CHV_ENOMEM; the cases end in
** success. */
static void test_kernel_oom(void) {
  for (size_t i = 0; i < CHV_ARRAY_SIZE(kcases); i++) {
    const struct kcase *c = &kcases[i];
    struct chv_func_arg args[3];
    struct chv_vector *vs[3] = {0};
    struct chv_value ks[3];
    for (int a = 0; a < c->nargs; a++) {
      vs[a] = vec(c->types[a], c->rows[a]);
      CHV_REQUIRE(vs[a] != NULL);
      args[a] = (struct chv_func_arg){c->types[a], vs[a], NULL, NULL};
      if (c->constant >> a & 1) {
        chv_func_get_value(vs[a], 0, &ks[a]);
        args[a].v = NULL;
        args[a].k = &ks[a];
      }
    }
    int n = nrows(c->want), ok = 0;
    for (long k = 1; k < 200 && !ok; k++) {
      struct chv_vector *o;
      CHV_REQUIRE_OK(chv_vector_open(c->result, 1, &o, NULL), NULL);
      struct chv_error err;
      chv_alloc_fail_after(k);
      int rc = c->k(args, c->nargs, n, o, &err);
      chv_alloc_fail_after(0);
      if (rc == CHV_OK) {
        char out[512];
        CHV_CHECK_STREQ(render(o, out, sizeof out), c->want);
        ok = 1;
      } else {
        CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
      }
      chv_vector_close(o);
    }
    CHV_CHECK(ok);
    for (int a = 0; a < c->nargs; a++) chv_vector_close(vs[a]);
  }
}

/* ---- an aggregate of its own: the product of doubles ------------------- */

static double *prod_of(chv_agg_state *s) { return (double *)s->ext; }

static void prod_init(chv_agg_state *s, int64_t from, int64_t to) {
  for (int64_t g = from; g < to; g++) prod_of(s)[g] = 1.0;
}

static int prod_update(chv_agg_state *s, const struct chv_vector *col,
                       const uint32_t *sel, int64_t n, const uint32_t *groups,
                       struct chv_error *err) {
  for (int64_t i = 0; i < n; i++) {
    int64_t r = sel ? sel[i] : i, g = groups ? groups[i] : 0;
    if (chv_vector_is_null(col, r)) continue;
    prod_of(s)[g] *= ((const double *)col->data)[r];
    s->count[g]++;
  }
  return CHV_OK;
}

static int prod_merge(chv_agg_state *s, const chv_agg_state *o,
                      const uint32_t *map, struct chv_error *err) {
  for (int64_t g = 0; g < o->ngroups; g++) {
    int64_t t = map ? map[g] : g;
    prod_of(s)[t] *= ((const double *)o->ext)[g];
    s->count[t] += o->count[g];
  }
  return CHV_OK;
}

static int prod_finalize(const chv_agg_state *s, struct chv_vector *out,
                         struct chv_error *err) {
  for (int64_t g = 0; g < s->ngroups; g++) {
    struct chv_value v = {.is_null = s->count[g] == 0,
                          .f64 = ((const double *)s->ext)[g]};
    CHV_RETURN_IF_ERR(chv_func_append_value(out, &v, err));
  }
  return CHV_OK;
}

static const struct chv_agg_impl prod_impl = {
    .name = "product", .group_bytes = sizeof(double), .init = prod_init,
    .update = prod_update, .merge = prod_merge, .finalize = prod_finalize};

static void test_custom_aggregate(void) {
  struct chv_vector *x = vec(&t_double, "2|3|NULL|5|0.5|4");
  uint32_t groups[] = {0, 1, 0, 1, 2, 2}, sel[] = {0, 1, 3};
  chv_agg_state *s, *t;
  CHV_REQUIRE_OK(chv_agg_state_open_impl(&prod_impl, &t_double, &t_double, &s,
                                         NULL), NULL);
  CHV_REQUIRE_OK(chv_agg_state_open_impl(&prod_impl, &t_double, &t_double, &t,
                                         NULL), NULL);
  CHV_CHECK(chv_agg_state_impl(s) == &prod_impl);
  CHV_CHECK(chv_agg_state_result(s) == &t_double);
  CHV_REQUIRE_OK(chv_agg_update(s, x, NULL, 6, groups, NULL), NULL);
  CHV_CHECK(chv_agg_ngroups(s) == 3);
  size_t m3 = chv_agg_memory(s);
  CHV_REQUIRE_OK(chv_agg_ensure_groups(s, 4, NULL), NULL); /* empty group 3 */
  CHV_REQUIRE_OK(chv_agg_update(t, x, sel, 3, NULL, NULL), NULL); /* 2*3*5 */
  uint32_t map[] = {3};
  CHV_REQUIRE_OK(chv_agg_merge(s, t, map, NULL), NULL);
  struct chv_vector *out;
  CHV_REQUIRE_OK(chv_vector_open(&t_double, 1, &out, NULL), NULL);
  CHV_REQUIRE_OK(chv_agg_finalize(s, out, NULL), NULL);
  char buf[128];
  CHV_CHECK_STREQ(render(out, buf, sizeof buf), "2.0|15.0|2.0|30.0");
  /* a state counts its own bytes per group */
  CHV_CHECK(m3 >= (size_t)s->cap * sizeof(double));
  /* merging another implementation is refused */
  chv_agg_state *c;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_agg_state_open(CHV_AGG_SUM, &t_double, &t_double, &c,
                                    NULL), NULL);
  CHV_CHECK(chv_agg_merge(s, c, NULL, &err) == CHV_EINVAL);
  chv_agg_state_close(c);
  chv_vector_close(out);
  chv_agg_state_close(s);
  chv_agg_state_close(t);
  chv_vector_close(x);
}

CHV_TEST_MAIN("func_kernels", test_kernel_shapes, test_every_kernel_tested,
              test_kernel_oom, test_custom_aggregate)
