/*
** sql/exec expressions: typing (Hive's result types and implicit casts),
** evaluation of each operator per type with NULLs, overflow, division by
** zero, CAST, LIKE, CASE/COALESCE/IN/BETWEEN, filters, and allocation
** failure at every step.
*/
#include "exec_fixture.h"

#include <math.h>

/* ---- binary operators on two columns, table-driven --------------------- */

struct bin_case {
  const char *cols;     /* "a <type>, b <type>" */
  const char *a, *b;    /* column values */
  enum chv_fn fn;
  const char *type;     /* expected result type */
  const char *want;     /* expected rows */
};

/* The same for registered functions of two arguments. */
struct fn2_case {
  const char *cols, *a, *b;
  const char *func;
  const char *type, *want;
};

static const struct bin_case bin_cases[] = {
    /* integers: Java's wrapping, NULL in -> NULL out */
    {"a int, b int", "1|2147483647|NULL|-7", "2|1|3|2", CHV_FN_ADD, "int",
     "3|-2147483648|NULL|-5"},
    {"a int, b int", "-2147483648|5|NULL", "1|7|1", CHV_FN_SUB, "int",
     "2147483647|-2|NULL"},
    {"a int, b int", "65536|-3|46341", "65536|4|46341", CHV_FN_MUL, "int",
     "0|-12|-2147479015"},
    {"a tinyint, b tinyint", "127|-128|10", "1|-1|12", CHV_FN_ADD, "tinyint",
     "-128|127|22"},
    {"a smallint, b smallint", "32767|300", "2|300", CHV_FN_MUL, "smallint",
     "-2|24464"},
    {"a bigint, b bigint", "9223372036854775807|-9223372036854775808",
     "1|-1", CHV_FN_ADD, "bigint", "-9223372036854775808|9223372036854775807"},
    {"a bigint, b bigint", "4611686018427387904|3", "2|3", CHV_FN_MUL, "bigint",
     "-9223372036854775808|9"},
    /* % keeps the common type, sign of the dividend, by zero NULL */
    {"a int, b int", "7|-7|7|7|-2147483648|NULL", "3|3|0|-3|-1|1", CHV_FN_MOD,
     "int", "1|-1|NULL|1|0|NULL"},
    {"a int, b bigint", "7|5", "2|0", CHV_FN_MOD, "bigint", "1|NULL"},
    /* / on integers is DOUBLE; by zero NULL */
    {"a int, b int", "7|1|5|NULL", "2|0|-2|1", CHV_FN_DIV, "double",
     "3.5|NULL|-2.5|NULL"},
    /* DIV: integer division to BIGINT, by zero NULL */
    {"a int, b int", "7|-7|7|NULL", "2|2|0|2", CHV_FN_IDIV, "bigint",
     "3|-3|NULL|NULL"},
    {"a bigint, b bigint", "-9223372036854775808", "-1", CHV_FN_IDIV, "bigint",
     "-9223372036854775808"},
    /* mixed: int op bigint bigint, int op double double, float stays */
    {"a int, b bigint", "2147483647", "1", CHV_FN_ADD, "bigint", "2147483648"},
    {"a int, b double", "1|NULL", "0.5|1", CHV_FN_ADD, "double", "1.5|NULL"},
    {"a float, b int", "1.5", "2", CHV_FN_MUL, "float", "3.0"},
    {"a double, b double", "1|5.5|-1", "0|2|0", CHV_FN_DIV, "double",
     "NULL|2.75|NULL"},
    {"a double, b double", "5.5|-5.5|1", "2|2|0", CHV_FN_MOD, "double",
     "1.5|-1.5|NULL"},
    /* strings in arithmetic are doubles */
    {"a string, b int", "1.5|x|10", "1|1|2", CHV_FN_ADD, "double",
     "2.5|NULL|12.0"},
    /* decimals: Hive's precision/scale, rounding half up, overflow NULL */
    {"a decimal(10,2), b decimal(5,3)", "1.25|NULL|-99999999.99",
     "2.5|1|-99.999", CHV_FN_ADD, "decimal(12,3)", "3.750|NULL|-100000099.989"},
    {"a decimal(10,2), b decimal(5,3)", "1.25", "2.5", CHV_FN_SUB,
     "decimal(12,3)", "-1.250"},
    {"a decimal(10,2), b decimal(5,3)", "1.25|-3.00", "2.005|0.5", CHV_FN_MUL,
     "decimal(16,5)", "2.50625|-1.50000"},
    {"a decimal(10,0), b decimal(10,0)", "1|2|1|-2", "3|3|0|3", CHV_FN_DIV,
     "decimal(21,11)", "0.33333333333|0.66666666667|NULL|-0.66666666667"},
    {"a decimal(10,2), b decimal(5,3)", "7.50|7.50", "2|0", CHV_FN_MOD,
     "decimal(5,3)", "1.500|NULL"},
    {"a int, b decimal(5,2)", "3|NULL", "1.25|1", CHV_FN_ADD, "decimal(13,2)",
     "4.25|NULL"},
    {"a decimal(38,0), b decimal(38,0)",
     "99999999999999999999999999999999999999|1",
     "1|1", CHV_FN_ADD, "decimal(38,0)",
     "NULL|2"},
    {"a decimal(38,10), b decimal(38,10)", "1.5", "2.25", CHV_FN_MUL,
     "decimal(38,6)", "3.375000"},
    {"a decimal(5,2), b double", "1.5", "0.25", CHV_FN_ADD, "double", "1.75"},
    {"a decimal(5,2), b float", "1.5", "0.25", CHV_FN_ADD, "double", "1.75"},
    /* comparisons */
    {"a int, b int", "1|2|3|NULL", "2|2|2|2", CHV_FN_LT, "boolean",
     "true|false|false|NULL"},
    {"a int, b int", "1|2|NULL|NULL", "2|2|2|NULL", CHV_FN_NSEQ, "boolean",
     "false|true|false|true"},
    {"a bigint, b int", "3000000000|5", "5|5", CHV_FN_GE, "boolean",
     "true|true"},
    {"a double, b double", "NaN|NaN|NaN|1", "NaN|1|1|NaN", CHV_FN_EQ,
     "boolean", "false|false|false|false"},
    {"a double, b double", "NaN|NaN|0|-0", "NaN|1|NaN|0", CHV_FN_NE, "boolean",
     "true|true|true|false"},
    {"a double, b double", "NaN|1", "1|NaN", CHV_FN_GT, "boolean",
     "false|false"},
    {"a string, b string", "abc|abc|ab|NULL|", "abc|abd|abc|x|", CHV_FN_EQ,
     "boolean", "true|false|false|NULL|true"},
    {"a string, b string", "abc|abc|ab|b", "abc|abd|abc|abc", CHV_FN_LT,
     "boolean", "false|true|true|false"},
    {"a string, b int", "10|9.0|x|010", "9|9|9|10", CHV_FN_GT, "boolean",
     "true|false|NULL|false"},
    {"a string, b date", "2024-01-02|2024-1-2|junk", "2024-01-02|2024-01-02|"
     "2024-01-02", CHV_FN_EQ, "boolean", "true|true|NULL"},
    {"a date, b timestamp", "2024-01-02|2024-01-02", "2024-01-02 00:00:00|"
     "2024-01-02 00:00:01", CHV_FN_LT, "boolean", "false|true"},
    {"a decimal(5,2), b int", "3.00|2.99", "3|3", CHV_FN_EQ, "boolean",
     "true|false"},
    {"a boolean, b boolean", "true|false|NULL", "true|true|true", CHV_FN_EQ,
     "boolean", "true|false|NULL"},
    {"a timestamp, b timestamp", "2020-01-01 00:00:00.5|2020-01-01 00:00:00",
     "2020-01-01 00:00:00.25|2020-01-01 00:00:00", CHV_FN_GT, "boolean",
     "true|false"},
};

static const struct fn2_case fn2_cases[] = {
    /* concat: NULL if any argument is */
    {"a string, b int", "x|NULL|", "1|2|3", "concat", "string", "x1|NULL|3"},
    {"a double, b boolean", "1.0E7|0.001", "true|false", "concat", "string",
     "1.0E7true|0.001false"},
};

/* Case i: a call of fn (or of the function func) on columns a and b must
** have type `type` and rows `want`, also through a selection of every
** other row. */
static void check_binary(size_t i, const char *cols, const char *a,
                         const char *b, enum chv_fn fn, const char *func,
                         const char *type, const char *want) {
  struct fx f;
  const char *data[2] = {a, b};
  if (fx_open(&f, cols, data) != CHV_OK) {
    fprintf(stderr, "case %zu: fixture: %s\n", i, f.err.msg);
    CHV_CHECK(0);
    fx_close(&f);
    return;
  }
  struct chv_expr *e =
      func ? fx_fn(&f, func, fx_col(&f, 0), fx_col(&f, 1), NULL)
           : fx_call2(&f, fn, fx_col(&f, 0), fx_col(&f, 1));
  const char *what = func ? func : chv_fn_name(fn);
  char tb[64];
  if (e == NULL || strcmp(fx_type(e->type, tb), type) != 0) {
    fprintf(stderr, "case %zu (%s %s): type %s, want %s (%s)\n", i, cols,
            what, e ? tb : "-", type, f.err.msg);
    CHV_CHECK(0);
  } else {
    const char *got = fx_eval(&f, e, NULL, 0);
    if (strcmp(got, want) != 0) {
      fprintf(stderr, "case %zu (%s %s): got %s, want %s\n", i, cols, what,
              got, want);
      CHV_CHECK(0);
    }
    /* the same through a selection of every other row, and with the
    ** right side a literal where it is one value */
    uint32_t sel[8];
    int64_t ns = 0;
    for (int64_t r = f.b->nrows - 1; r >= 0; r -= 2) sel[ns++] = (uint32_t)r;
    for (int64_t x = 0; x < ns / 2; x++) { /* ascending */
      uint32_t t = sel[x];
      sel[x] = sel[ns - 1 - x];
      sel[ns - 1 - x] = t;
    }
    char want_sel[512] = "";
    const char *p = want;
    for (int64_t r = 0, k = 0; r < f.b->nrows; r++) {
      const char *q = strchr(p, '|');
      size_t n = q ? (size_t)(q - p) : strlen(p);
      if (k < ns && sel[k] == r) {
        size_t o = strlen(want_sel);
        snprintf(want_sel + o, sizeof want_sel - o, "%s%.*s", k ? "|" : "",
                 (int)n, p);
        k++;
      }
      p = q ? q + 1 : p + n;
    }
    got = fx_eval(&f, e, sel, ns);
    if (strcmp(got, want_sel) != 0) {
      fprintf(stderr, "case %zu (%s %s) selected: got %s, want %s\n", i, cols,
              what, got, want_sel);
      CHV_CHECK(0);
    }
  }
  fx_close(&f);
}

static void test_binary_table(void) {
  for (size_t i = 0; i < CHV_ARRAY_SIZE(bin_cases); i++) {
    const struct bin_case *c = &bin_cases[i];
    check_binary(i, c->cols, c->a, c->b, c->fn, NULL, c->type, c->want);
  }
  for (size_t i = 0; i < CHV_ARRAY_SIZE(fn2_cases); i++) {
    const struct fn2_case *c = &fn2_cases[i];
    check_binary(CHV_ARRAY_SIZE(bin_cases) + i, c->cols, c->a, c->b,
                 CHV_FN_ADD, c->func, c->type, c->want);
  }
}

/* column op literal, literal op column: the constant-operand loops */
static void test_literal_operands(void) {
  struct fx f;
  const char *data[] = {"1|5|NULL|-3", "1.5|2.5|NULL|0", "a|b|NULL|c"};
  CHV_REQUIRE_OK(fx_open(&f, "x int, d double, s string", data), &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, fx_call2(&f, CHV_FN_GT, fx_col(&f, 0),
                                       fx_lit(&f, "int", "1")), NULL, 0),
                  "false|true|NULL|false");
  CHV_CHECK_STREQ(fx_eval(&f, fx_call2(&f, CHV_FN_GT, fx_lit(&f, "int", "1"),
                                       fx_col(&f, 0)), NULL, 0),
                  "false|false|NULL|true");
  /* literal widened at build time: bigint literal vs int column */
  CHV_CHECK_STREQ(fx_eval(&f, fx_call2(&f, CHV_FN_SUB,
                                       fx_lit(&f, "bigint", "10"),
                                       fx_col(&f, 0)), NULL, 0),
                  "9|5|NULL|13");
  CHV_CHECK_STREQ(fx_eval(&f, fx_call2(&f, CHV_FN_DIV, fx_col(&f, 1),
                                       fx_lit(&f, "int", "0")), NULL, 0),
                  "NULL|NULL|NULL|NULL");
  CHV_CHECK_STREQ(fx_eval(&f, fx_call2(&f, CHV_FN_MUL, fx_col(&f, 0),
                                       fx_lit(&f, "int", NULL)), NULL, 0),
                  "NULL|NULL|NULL|NULL");
  CHV_CHECK_STREQ(fx_eval(&f, fx_call2(&f, CHV_FN_EQ, fx_col(&f, 2),
                                       fx_lit(&f, "string", "b")), NULL, 0),
                  "false|true|NULL|false");
  CHV_CHECK_STREQ(fx_eval(&f, fx_call2(&f, CHV_FN_NSEQ, fx_col(&f, 2),
                                       fx_lit(&f, "string", NULL)), NULL, 0),
                  "false|false|true|false");
  struct chv_expr *neg, *abs1, *arg = fx_col(&f, 0);
  CHV_REQUIRE_OK(chv_expr_call(f.a, CHV_FN_NEG, &arg, 1, &neg, &f.err), &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, neg, NULL, 0), "-1|-5|NULL|3");
  CHV_REQUIRE_OK(chv_expr_func(f.a, chv_func_lookup("abs"), &arg, 1, &abs1,
                               &f.err), &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, abs1, NULL, 0), "1|5|NULL|3");
  struct chv_expr *up, *len, *sarg = fx_col(&f, 2);
  CHV_REQUIRE_OK(chv_expr_func(f.a, chv_func_lookup("upper"), &sarg, 1, &up,
                               &f.err), &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, up, NULL, 0), "A|B|NULL|C");
  CHV_REQUIRE_OK(chv_expr_func(f.a, chv_func_lookup("length"), &sarg, 1, &len,
                               &f.err), &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, len, NULL, 0), "1|1|NULL|1");
  fx_close(&f);
}

static void test_type_errors(void) {
  struct fx f;
  const char *data[] = {"x", "true", "2024-01-01", "1"};
  CHV_REQUIRE_OK(fx_open(&f, "s string, b boolean, d date, i int", data),
                 &f.err);
  CHV_CHECK(fx_call2(&f, CHV_FN_ADD, fx_col(&f, 0), fx_col(&f, 1)) == NULL);
  CHV_CHECK_EQ_INT(f.err.code, CHV_ETYPE);
  CHV_CHECK_STREQ(f.err.msg, "cannot apply '+' to string and boolean");
  CHV_CHECK(fx_call2(&f, CHV_FN_LT, fx_col(&f, 1), fx_col(&f, 3)) == NULL);
  CHV_CHECK_STREQ(f.err.msg, "cannot apply '<' to boolean and int");
  CHV_CHECK(fx_call2(&f, CHV_FN_IDIV, fx_col(&f, 0), fx_col(&f, 3)) == NULL);
  CHV_CHECK_STREQ(f.err.msg, "cannot apply 'div' to string and int");
  CHV_CHECK(fx_call2(&f, CHV_FN_MUL, fx_col(&f, 2), fx_col(&f, 3)) == NULL);
  CHV_CHECK_STREQ(f.err.msg, "cannot apply '*' to date and int");
  struct chv_expr *e;
  CHV_CHECK(chv_expr_and(f.a, fx_col(&f, 3), fx_col(&f, 1), &e, &f.err) ==
            CHV_ETYPE);
  CHV_CHECK_STREQ(f.err.msg, "cannot apply 'and' to int");
  const struct chv_type *dt = chv_exec_type(f.a, CHV_TYPE_DATE, 0, 0);
  CHV_CHECK(chv_expr_cast(f.a, fx_col(&f, 3), dt, &e, &f.err) == CHV_ETYPE);
  CHV_CHECK_STREQ(f.err.msg, "cannot cast int to date");
  fx_close(&f);
}

/* ---- AND / OR / NOT / IS NULL: three-valued truth tables --------------- */

static void test_logic(void) {
  struct fx f;
  const char *data[] = {"true|true|true|false|false|false|NULL|NULL|NULL",
                        "true|false|NULL|true|false|NULL|true|false|NULL"};
  CHV_REQUIRE_OK(fx_open(&f, "p boolean, q boolean", data), &f.err);
  struct chv_expr *e;
  CHV_REQUIRE_OK(chv_expr_and(f.a, fx_col(&f, 0), fx_col(&f, 1), &e, &f.err),
                 &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0),
                  "true|false|NULL|false|false|false|NULL|false|NULL");
  CHV_REQUIRE_OK(chv_expr_or(f.a, fx_col(&f, 0), fx_col(&f, 1), &e, &f.err),
                 &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0),
                  "true|true|true|true|false|NULL|true|NULL|NULL");
  CHV_REQUIRE_OK(chv_expr_not(f.a, fx_col(&f, 0), &e, &f.err), &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0),
                  "false|false|false|true|true|true|NULL|NULL|NULL");
  CHV_REQUIRE_OK(chv_expr_is_null(f.a, fx_col(&f, 1), false, &e, &f.err),
                 &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0),
                  "false|false|true|false|false|true|false|false|true");
  CHV_REQUIRE_OK(chv_expr_is_null(f.a, fx_col(&f, 1), true, &e, &f.err),
                 &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0),
                  "true|true|false|true|true|false|true|true|false");
  /* with literals on one side (AND NULL, OR TRUE) */
  CHV_REQUIRE_OK(chv_expr_and(f.a, fx_col(&f, 0), fx_lit(&f, "boolean", NULL),
                              &e, &f.err), &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0),
                  "NULL|NULL|NULL|false|false|false|NULL|NULL|NULL");
  CHV_REQUIRE_OK(chv_expr_or(f.a, fx_lit(&f, "boolean", "true"), fx_col(&f, 1),
                             &e, &f.err), &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0),
                  "true|true|true|true|true|true|true|true|true");
  fx_close(&f);
}

/* ---- LIKE ----------------------------------------------------------------- */

static void test_like(void) {
  static const struct {
    const char *pattern, *subject;
    bool match;
  } cases[] = {
      {"abc", "abc", true},        {"abc", "abcd", false},
      {"a%", "abc", true},         {"a%", "ba", false},
      {"%c", "abc", true},         {"%b%", "abc", true},
      {"%x%", "abc", false},       {"a_c", "abc", true},
      {"a_c", "ac", false},        {"a_c", "a\xc3\xa9" "c", true},
      {"__", "\xc3\xa9\xe2\x82\xac", true}, {"_", "\xc3\xa9\xe2\x82\xac", false},
      {"%", "", true},             {"", "", true},
      {"_%", "", false},           {"a%b%c", "aXXbYYc", true},
      {"a%b%c", "aXXcYYb", false}, {"%ab%ab", "xabyabab", true},
      {"100\\%", "100%", true},    {"100\\%", "1000", false},
      {"a\\_b", "a_b", true},      {"a\\_b", "axb", false},
      {"a\\\\b", "a\\b", true},    {"%\\%%", "5% off", true},
      {"%\\%%", "5 off", false},   {"a%%%b", "ab", true},
      {"%a_", "bab", true},        {"%a_", "ba", false},
      {"ab\\", "ab\\", true},
      /* literals between '%'s: leftmost after the one before, anchored ends */
      {"%special%requests%", "x special y requests z", true},
      {"%special%requests%", "x requests y special z", false},
      {"%special%requests%", "specialrequests", true},
      {"%aa%aa%", "aaa", false},   {"%aa%aa%", "aaaa", true},
      {"ab%ab", "ab", false},      {"ab%ab", "abab", true},
      {"ab%b%ab", "abbab", true},  {"ab%b%ab", "abab", false},
      {"a%b%", "acb", true},       {"%a%b", "xaxb", true},
      {"%a%b", "xaxbx", false},    {"a%%b%", "ab", true},
  };
  struct fx f;
  const char *data[] = {"x"};
  CHV_REQUIRE_OK(fx_open(&f, "s string", data), &f.err);
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cases); i++) {
    struct chv_expr *e, *pat = fx_lit(&f, "string", cases[i].pattern);
    chv_batch_reset(f.b);
    CHV_REQUIRE_OK(chv_vector_append_string(f.b->cols[0], cases[i].subject,
                                            strlen(cases[i].subject), NULL),
                   NULL);
    CHV_REQUIRE_OK(chv_vector_append_null(f.b->cols[0], NULL), NULL);
    f.b->nrows = 2;
    CHV_REQUIRE_OK(chv_expr_like(f.a, fx_col(&f, 0), pat, false, &e, &f.err),
                   &f.err);
    char want[32];
    snprintf(want, sizeof want, "%s|NULL", cases[i].match ? "true" : "false");
    const char *got = fx_eval(&f, e, NULL, 0);
    if (strcmp(got, want) != 0) {
      fprintf(stderr, "'%s' LIKE '%s': got %s\n", cases[i].subject,
              cases[i].pattern, got);
      CHV_CHECK(0);
    }
    CHV_REQUIRE_OK(chv_expr_like(f.a, fx_col(&f, 0), pat, true, &e, &f.err),
                   &f.err);
    snprintf(want, sizeof want, "%s|NULL", cases[i].match ? "false" : "true");
    CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), want);
  }
  /* a NULL pattern gives NULL; a number is matched as its text */
  struct chv_expr *e;
  CHV_REQUIRE_OK(chv_expr_like(f.a, fx_col(&f, 0), fx_lit(&f, "string", NULL),
                               false, &e, &f.err), &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "NULL|NULL");
  CHV_CHECK(chv_expr_like(f.a, fx_col(&f, 0), fx_col(&f, 0), false, &e,
                          &f.err) == CHV_ENOTSUP);
  fx_close(&f);
  const char *d2[] = {"15|25|NULL"};
  CHV_REQUIRE_OK(fx_open(&f, "i int", d2), &f.err);
  CHV_REQUIRE_OK(chv_expr_like(f.a, fx_col(&f, 0), fx_lit(&f, "string", "1%"),
                               false, &e, &f.err), &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "true|false|NULL");
  fx_close(&f);
}

/* ---- CASE, COALESCE, IN, BETWEEN ----------------------------------------- */

static void test_case_coalesce_in_between(void) {
  struct fx f;
  const char *data[] = {"1|2|3|NULL|5", "10|NULL|30|40|NULL",
                        "a|b|NULL|d|e"};
  CHV_REQUIRE_OK(fx_open(&f, "x int, y bigint, s string", data), &f.err);
  struct chv_expr *e, *w[2], *t[2];
  /* CASE WHEN x < 2 THEN y WHEN x < 4 THEN x * 100 ELSE -1 END: bigint */
  w[0] = fx_call2(&f, CHV_FN_LT, fx_col(&f, 0), fx_lit(&f, "int", "2"));
  w[1] = fx_call2(&f, CHV_FN_LT, fx_col(&f, 0), fx_lit(&f, "int", "4"));
  t[0] = fx_col(&f, 1);
  t[1] = fx_call2(&f, CHV_FN_MUL, fx_col(&f, 0), fx_lit(&f, "int", "100"));
  CHV_REQUIRE_OK(chv_expr_case(f.a, w, t, 2, fx_lit(&f, "int", "-1"), &e,
                               &f.err), &f.err);
  CHV_CHECK_EQ_INT(e->type->id, CHV_TYPE_BIGINT);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "10|200|300|-1|-1");
  uint32_t sel[] = {1, 3, 4};
  CHV_CHECK_STREQ(fx_eval(&f, e, sel, 3), "200|-1|-1");
  /* no ELSE: NULL; THEN with a string and an int: string */
  t[0] = fx_col(&f, 2);
  t[1] = fx_col(&f, 0);
  CHV_REQUIRE_OK(chv_expr_case(f.a, w, t, 2, NULL, &e, &f.err), &f.err);
  CHV_CHECK_EQ_INT(e->type->id, CHV_TYPE_STRING);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "a|2|3|NULL|NULL");
  /* simple CASE s WHEN 'a' THEN 1 WHEN 'e' THEN 2 END (NULL s: ELSE) */
  struct chv_expr *v[2] = {fx_lit(&f, "string", "a"), fx_lit(&f, "string", "e")};
  t[0] = fx_lit(&f, "int", "1");
  t[1] = fx_lit(&f, "int", "2");
  CHV_REQUIRE_OK(chv_expr_case_simple(f.a, fx_col(&f, 2), v, t, 2,
                                      fx_lit(&f, "int", "0"), &e, &f.err),
                 &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "1|0|0|0|2");
  /* COALESCE(y, x, 7) is bigint */
  struct chv_expr *c[3] = {fx_col(&f, 1), fx_col(&f, 0), fx_lit(&f, "int", "7")};
  CHV_REQUIRE_OK(chv_expr_coalesce(f.a, c, 3, &e, &f.err), &f.err);
  CHV_CHECK_EQ_INT(e->type->id, CHV_TYPE_BIGINT);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "10|2|30|40|5");
  c[1] = fx_lit(&f, "int", NULL);
  CHV_REQUIRE_OK(chv_expr_coalesce(f.a, c, 2, &e, &f.err), &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "10|NULL|30|40|NULL");
  /* a NULL literal (of whatever type the binder gave it) does not decide
  ** the type: CASE WHEN .. THEN NULL ELSE x END is an int */
  t[0] = fx_lit(&f, "string", NULL);
  CHV_REQUIRE_OK(chv_expr_case(f.a, w, t, 1, fx_col(&f, 0), &e, &f.err),
                 &f.err);
  CHV_CHECK_EQ_INT(e->type->id, CHV_TYPE_INT);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "NULL|2|3|NULL|5");
  c[0] = fx_lit(&f, "string", NULL);
  c[1] = fx_lit(&f, "string", NULL);
  CHV_REQUIRE_OK(chv_expr_coalesce(f.a, c, 2, &e, &f.err), &f.err);
  CHV_CHECK_EQ_INT(e->type->id, CHV_TYPE_STRING);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "NULL|NULL|NULL|NULL|NULL");
  /* IN: NULL when not found and the list or the value has a NULL */
  struct chv_expr *l[3] = {fx_lit(&f, "int", "1"), fx_lit(&f, "bigint", "5"),
                           fx_lit(&f, "int", NULL)};
  CHV_REQUIRE_OK(chv_expr_in(f.a, fx_col(&f, 0), l, 2, false, &e, &f.err),
                 &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "true|false|false|NULL|true");
  CHV_REQUIRE_OK(chv_expr_in(f.a, fx_col(&f, 0), l, 3, false, &e, &f.err),
                 &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "true|NULL|NULL|NULL|true");
  CHV_REQUIRE_OK(chv_expr_in(f.a, fx_col(&f, 0), l, 2, true, &e, &f.err),
                 &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "false|true|true|NULL|false");
  struct chv_expr *ls[2] = {fx_lit(&f, "string", "b"), fx_lit(&f, "string", "e")};
  CHV_REQUIRE_OK(chv_expr_in(f.a, fx_col(&f, 2), ls, 2, false, &e, &f.err),
                 &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "false|true|NULL|false|true");
  /* BETWEEN with NULL bounds: x BETWEEN 2 AND NULL is NULL or FALSE */
  CHV_REQUIRE_OK(chv_expr_between(f.a, fx_col(&f, 0), fx_lit(&f, "int", "2"),
                                  fx_lit(&f, "int", "3"), false, &e, &f.err),
                 &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "false|true|true|NULL|false");
  CHV_REQUIRE_OK(chv_expr_between(f.a, fx_col(&f, 0), fx_lit(&f, "int", "2"),
                                  fx_lit(&f, "int", "3"), true, &e, &f.err),
                 &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "true|false|false|NULL|true");
  CHV_REQUIRE_OK(chv_expr_between(f.a, fx_col(&f, 0), fx_lit(&f, "int", "2"),
                                  fx_lit(&f, "int", NULL), false, &e, &f.err),
                 &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "false|NULL|NULL|NULL|NULL");
  CHV_REQUIRE_OK(chv_expr_between(f.a, fx_col(&f, 0), fx_col(&f, 0),
                                  fx_col(&f, 1), false, &e, &f.err), &f.err);
  CHV_CHECK_EQ_INT(e->args[0]->type->id, CHV_TYPE_BIGINT);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "true|NULL|true|NULL|NULL");
  fx_close(&f);
}

/* ---- CAST ------------------------------------------------------------------ */

struct cast_case {
  const char *from, *vals, *to, *want;
};

static const struct cast_case cast_cases[] = {
    {"string", " 7 |12.5|-12.9|x|2147483648|-2147483648|1e3||+3", "int",
     "7|12|-12|NULL|NULL|-2147483648|NULL|NULL|3"},
    {"string", "127|128|-128", "tinyint", "127|NULL|-128"},
    {"string", "9223372036854775807|9223372036854775808", "bigint",
     "9223372036854775807|NULL"},
    {"string", "1.5| 2e3 |abc|NaN|-Infinity|1d|0x10|inf", "double",
     "1.5|2000.0|NULL|NaN|-Infinity|1.0|NULL|NULL"},
    {"string", "1.005|1234.5|-0.004|x|1e2", "decimal(5,2)",
     "1.01|NULL|0.00|NULL|100.00"},
    {"string", "2024-02-29|2023-02-29|2024-1-5|x", "date",
     "2024-02-29|NULL|2024-01-05|NULL"},
    {"string", "2024-02-29 10:11:12.5|x|2024-02-29", "timestamp",
     "2024-02-29 10:11:12.5|NULL|2024-02-29 00:00:00"},
    {"string", "true|FALSE|yes", "boolean", "true|false|NULL"},
    {"double", "-1.9|1.9|1e10|-1e10|NaN", "int",
     "-1|1|2147483647|-2147483648|0"},
    {"double", "1e19|-1e19", "bigint",
     "9223372036854775807|-9223372036854775808"},
    {"double", "300.7", "tinyint", "44"},
    {"int", "300|-129|NULL", "tinyint", "44|127|NULL"},
    {"double", "1.0|1e7|123456.789|0.001|0.0001|-0.0|1e-5|1.0E21|0.1", "string",
     "1.0|1.0E7|123456.789|0.001|1.0E-4|-0.0|1.0E-5|1.0E21|0.1"},
    {"double", "9999999.0|12345678.9|100|3.141592653589793", "string",
     "9999999.0|1.23456789E7|100.0|3.141592653589793"},
    {"float", "0.1|1e10|3.4028235e38", "string", "0.1|1.0E10|3.4028235E38"},
    {"decimal(10,3)", "1.5|-0.001|NULL", "string", "1.500|-0.001|NULL"},
    {"decimal(10,3)", "1.5|-2.5|0.0005", "decimal(5,0)", "2|-3|0"},
    {"decimal(10,3)", "1234567.891", "decimal(5,2)", "NULL"},
    {"decimal(10,3)", "-7.999|3000000.5", "int", "-7|3000000"},
    {"decimal(38,0)", "99999999999999999999", "bigint", "NULL"},
    {"decimal(5,2)", "1.25", "double", "1.25"},
    {"double", "1.005|NaN|1e3", "decimal(5,2)", "1.01|NULL|NULL"},
    {"int", "123|-5", "decimal(3,0)", "123|-5"},
    {"int", "1234", "decimal(3,0)", "NULL"},
    {"boolean", "true|false", "string", "true|false"},
    {"boolean", "true|false", "int", "1|0"},
    {"int", "0|7", "boolean", "false|true"},
    {"date", "2024-03-01", "string", "2024-03-01"},
    {"date", "2024-03-01", "timestamp", "2024-03-01 00:00:00"},
    {"timestamp", "2024-03-01 23:59:59|1969-12-31 23:00:00", "date",
     "2024-03-01|1969-12-31"},
    {"bigint", "-9223372036854775808", "string", "-9223372036854775808"},
    {"string", "abcdef|ab", "varchar(3)", "abc|ab"},
    {"string", "ab|abcdef", "char(4)", "ab|abcd"}, /* padding: below */
    {"char(4)", "ab", "string", "ab"},
};

static void test_cast_matrix(void) {
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cast_cases); i++) {
    const struct cast_case *c = &cast_cases[i];
    struct fx f;
    char cols[64];
    snprintf(cols, sizeof cols, "v %s", c->from);
    const char *data[] = {c->vals};
    if (fx_open(&f, cols, data) != CHV_OK) {
      fprintf(stderr, "cast case %zu: fixture %s\n", i, f.err.msg);
      CHV_CHECK(0);
      fx_close(&f);
      continue;
    }
    struct chv_type *t0;
    CHV_REQUIRE_OK(chv_type_parse(c->to, &t0, NULL), NULL);
    const struct chv_type *to = chv_exec_type(
        f.a, t0->id, t0->id == CHV_TYPE_DECIMAL ? t0->precision : t0->length,
        t0->scale);
    chv_type_free(t0);
    struct chv_expr *e;
    CHV_REQUIRE_OK(chv_expr_cast(f.a, fx_col(&f, 0), to, &e, &f.err), &f.err);
    const char *got = fx_eval(&f, e, NULL, 0);
    if (strcmp(got, c->want) != 0) {
      fprintf(stderr, "CAST(%s AS %s) of %s: got %s, want %s\n", c->from,
              c->to, c->vals, got, c->want);
      CHV_CHECK(0);
    }
    fx_close(&f);
  }
  /* CHAR(4) holds its padding (the renderer's CAST to STRING drops it) */
  struct fx f;
  const char *data[] = {"ab"};
  CHV_REQUIRE_OK(fx_open(&f, "v string", data), &f.err);
  struct chv_expr *e;
  CHV_REQUIRE_OK(chv_expr_cast(f.a, fx_col(&f, 0),
                               chv_exec_type(f.a, CHV_TYPE_CHAR, 4, 0), &e,
                               &f.err), &f.err);
  struct chv_vector *v;
  CHV_REQUIRE_OK(chv_vector_open(e->type, 1, &v, NULL), NULL);
  CHV_CHECK_OK(chv_expr_eval(e, f.b, NULL, 1, v, &f.err), &f.err);
  CHV_CHECK(v->bytes_len == 4 && memcmp(v->bytes, "ab  ", 4) == 0);
  chv_vector_close(v);
  fx_close(&f);
}

static void test_format_double(void) {
  char b[64];
  static const struct {
    double d;
    const char *s;
  } cases[] = {{0.0, "0.0"},         {1.0, "1.0"},
               {-2.5, "-2.5"},       {1e7, "1.0E7"},
               {9999999.999, "9999999.999"}, {1e-3, "0.001"},
               {9.99e-4, "9.99E-4"}, {123e300, "1.23E302"},
               {5e-324, "4.9E-324"}, {1.7976931348623157e308, "1.7976931348623157E308"},
               {0.3, "0.3"},         {2.0 / 3, "0.6666666666666666"},
               {100.0, "100.0"},     {1234567.0, "1234567.0"}};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cases); i++) {
    chv_func_format_double(cases[i].d, b);
    CHV_CHECK_STREQ(b, cases[i].s);
  }
  double d;
  CHV_CHECK(chv_exec_parse_double(" -1.5e2 ", 8, &d) && d == -150);
  CHV_CHECK(!chv_exec_parse_double("1.5x", 4, &d));
  CHV_CHECK(!chv_exec_parse_double("", 0, &d));
}

/* ---- filters ------------------------------------------------------------------ */

static void check_sel(const uint32_t *got, int64_t n, const char *want) {
  char b[1024] = "";
  for (int64_t i = 0; i < n; i++) {
    size_t o = strlen(b);
    snprintf(b + o, sizeof b - o, "%s%u", i ? "," : "", got[i]);
  }
  CHV_CHECK_STREQ(b, want);
}

static void test_filter(void) {
  struct fx f;
  const char *data[] = {"1|7|8|NULL|9|3|10", "5|1|NULL|0|2|0|9",
                        "0.5|1.5|2.5|NaN|NULL|-1|3"};
  CHV_REQUIRE_OK(fx_open(&f, "x bigint, y int, d double", data), &f.err);
  uint32_t out[16], sel[16];
  int64_t n;
  struct chv_expr *gt = fx_call2(&f, CHV_FN_GT, fx_col(&f, 0),
                                 fx_lit(&f, "int", "5"));
  struct chv_expr *lt = fx_call2(&f, CHV_FN_LT, fx_col(&f, 1),
                                 fx_lit(&f, "int", "3"));
  struct chv_expr *e;
  CHV_REQUIRE_OK(chv_expr_filter(gt, f.b, NULL, 7, out, &n, &f.err), &f.err);
  check_sel(out, n, "1,2,4,6");
  CHV_REQUIRE_OK(chv_expr_and(f.a, gt, lt, &e, &f.err), &f.err);
  CHV_REQUIRE_OK(chv_expr_filter(e, f.b, NULL, 7, out, &n, &f.err), &f.err);
  check_sel(out, n, "1,4");
  CHV_REQUIRE_OK(chv_expr_or(f.a, gt, lt, &e, &f.err), &f.err);
  CHV_REQUIRE_OK(chv_expr_filter(e, f.b, NULL, 7, out, &n, &f.err), &f.err);
  check_sel(out, n, "1,2,3,4,5,6");
  /* NOT (x > 5): NULL stays out */
  CHV_REQUIRE_OK(chv_expr_not(f.a, gt, &e, &f.err), &f.err);
  CHV_REQUIRE_OK(chv_expr_filter(e, f.b, NULL, 7, out, &n, &f.err), &f.err);
  check_sel(out, n, "0,5");
  /* from a selection, in place */
  sel[0] = 0, sel[1] = 2, sel[2] = 3, sel[3] = 6;
  CHV_REQUIRE_OK(chv_expr_filter(gt, f.b, sel, 4, sel, &n, &f.err), &f.err);
  check_sel(sel, n, "2,6");
  /* literal on the left, double column with NaN and NULL */
  struct chv_expr *dl = fx_call2(&f, CHV_FN_LE, fx_lit(&f, "double", "1"),
                                 fx_col(&f, 2));
  CHV_REQUIRE_OK(chv_expr_filter(dl, f.b, NULL, 7, out, &n, &f.err), &f.err);
  check_sel(out, n, "1,2,6");
  /* y IS NULL OR d < 0 (generic path) */
  struct chv_expr *isn, *dn;
  CHV_REQUIRE_OK(chv_expr_is_null(f.a, fx_col(&f, 1), false, &isn, &f.err),
                 &f.err);
  dn = fx_call2(&f, CHV_FN_LT, fx_col(&f, 2), fx_lit(&f, "int", "0"));
  CHV_REQUIRE_OK(chv_expr_or(f.a, isn, dn, &e, &f.err), &f.err);
  CHV_REQUIRE_OK(chv_expr_filter(e, f.b, NULL, 7, out, &n, &f.err), &f.err);
  check_sel(out, n, "2,5");
  /* literal predicates, and a non-boolean is refused */
  CHV_REQUIRE_OK(chv_expr_filter(fx_lit(&f, "boolean", NULL), f.b, NULL, 7,
                                 out, &n, &f.err), &f.err);
  CHV_CHECK_EQ_INT(n, 0);
  CHV_CHECK(chv_expr_filter(fx_col(&f, 0), f.b, NULL, 7, out, &n, &f.err) ==
            CHV_ETYPE);
  fx_close(&f);
}

/* The fast column-vs-literal filter agrees with evaluation, on random data
** with NULLs, for every operator and type it covers. */
static void test_filter_matches_eval(void) {
  struct fx f;
  const char *data[] = {"", "", "", ""};
  CHV_REQUIRE_OK(fx_open(&f, "i int, b bigint, d double, t date", data),
                 &f.err);
  unsigned seed = 7;
  for (int r = 0; r < 300; r++) {
    for (int c = 0; c < 4; c++) {
      seed = seed * 1103515245u + 12345u;
      int v = (int)((seed >> 16) % 21) - 10;
      if ((seed >> 8) % 9 == 0) {
        CHV_REQUIRE_OK(chv_vector_append_null(f.b->cols[c], NULL), NULL);
      } else if (c == 2) {
        double d = v / 2.0;
        CHV_REQUIRE_OK(chv_vector_append_value(f.b->cols[c], &d, NULL), NULL);
      } else if (c == 1) {
        int64_t x = v;
        CHV_REQUIRE_OK(chv_vector_append_value(f.b->cols[c], &x, NULL), NULL);
      } else {
        int32_t x = v;
        CHV_REQUIRE_OK(chv_vector_append_value(f.b->cols[c], &x, NULL), NULL);
      }
    }
  }
  f.b->nrows = 300;
  static const char *types[] = {"int", "bigint", "double", "date"};
  static const char *lits[] = {"2", "-3", "1.5", "1970-01-03"};
  uint32_t *out = malloc(300 * sizeof *out), *sel = malloc(300 * sizeof *sel);
  int64_t ns = 0;
  for (uint32_t r = 0; r < 300; r += 3) sel[ns++] = r;
  struct chv_vector *v;
  const struct chv_type *bt = chv_exec_type(f.a, CHV_TYPE_BOOLEAN, 0, 0);
  CHV_REQUIRE_OK(chv_vector_open(bt, 300, &v, NULL), NULL);
  for (int c = 0; c < 4; c++)
    for (int fn = CHV_FN_EQ; fn <= CHV_FN_NSEQ; fn++)
      for (int swap = 0; swap < 2; swap++)
        for (int use_sel = 0; use_sel < 2; use_sel++) {
          struct chv_expr *col = fx_col(&f, c), *lit = fx_lit(&f, types[c], lits[c]);
          struct chv_expr *e = swap ? fx_call2(&f, (enum chv_fn)fn, lit, col)
                                    : fx_call2(&f, (enum chv_fn)fn, col, lit);
          CHV_REQUIRE(e != NULL);
          const uint32_t *s = use_sel ? sel : NULL;
          int64_t n = use_sel ? ns : 300, got;
          CHV_REQUIRE_OK(chv_expr_filter(e, f.b, s, n, out, &got, NULL), NULL);
          CHV_REQUIRE_OK(chv_expr_eval(e, f.b, s, n, v, NULL), NULL);
          int64_t k = 0;
          bool same = true;
          for (int64_t i = 0; i < n; i++)
            if (!chv_vector_is_null(v, i) && chv_bit_get(v->data, i))
              same &= k < got && out[k++] == (s ? s[i] : (uint32_t)i);
          if (!same || k != got) {
            fprintf(stderr, "filter differs: %s %s swap %d sel %d\n", types[c],
                    chv_fn_name((enum chv_fn)fn), swap, use_sel);
            CHV_CHECK(0);
          }
        }
  chv_vector_close(v);
  free(out);
  free(sel);
  fx_close(&f);
}

/* ---- substr, trim, round, year/month/day, to_date ---------------------------- */

static struct chv_expr *call_n(struct fx *f, const char *fn,
                               struct chv_expr *a0, struct chv_expr *a1,
                               struct chv_expr *a2) {
  return fx_fn(f, fn, a0, a1, a2);
}

static void test_builtins(void) {
  struct fx f;
  const char *data[] = {"hello|NULL|NULL|  a b  ",
                        "2.5|-2.5|1.005|1234.5678", "1.235|-1.235|9.999|NULL",
                        "1250|-1250|5|NULL",
                        "2024-02-29|1969-12-31|NULL|2000-01-01",
                        "2024-02-29 10:00:00|x|NULL|1999-12-31 23:59:59"};
  CHV_REQUIRE_OK(fx_open(&f, "s string, d double, m decimal(5,3), i int, "
                         "dt date, ts string", data), &f.err);
  /* s again, with "h\u00e9llo" (UTF-8) in row 1 */
  {
    struct chv_vector *v = f.b->cols[0];
    chv_vector_reset(v);
    CHV_REQUIRE_OK(chv_vector_append_string(v, "hello", 5, NULL), NULL);
    CHV_REQUIRE_OK(chv_vector_append_string(v, "h\xc3\xa9llo", 6, NULL), NULL);
    CHV_REQUIRE_OK(chv_vector_append_null(v, NULL), NULL);
    CHV_REQUIRE_OK(chv_vector_append_string(v, "  a b  ", 7, NULL), NULL);
  }
  static const struct {
    const char *pos, *len, *want;
  } sub[] = {
      {"2", NULL, "ello|\xc3\xa9llo|NULL| a b  "},
      {"2", "3", "ell|\xc3\xa9ll|NULL| a "},
      {"-3", NULL, "llo|llo|NULL|b  "},
      {"-3", "2", "ll|ll|NULL|b "},
      {"0", NULL, "hello|h\xc3\xa9llo|NULL|  a b  "},
      {"5", NULL, "o|o|NULL|b  "},
      {"6", NULL, "||NULL|  "},
      {"-6", NULL, "||NULL| a b  "},
      {"1", "0", "||NULL|"},
      {"2", "-1", "||NULL|"},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(sub); i++) {
    struct chv_expr *e = call_n(&f, "substr", fx_col(&f, 0),
                                fx_lit(&f, "int", sub[i].pos),
                                sub[i].len ? fx_lit(&f, "int", sub[i].len) : NULL);
    const char *got = fx_eval(&f, e, NULL, 0);
    if (strcmp(got, sub[i].want) != 0) {
      fprintf(stderr, "substr(s, %s, %s): got %s, want %s\n", sub[i].pos,
              sub[i].len ? sub[i].len : "-", got, sub[i].want);
      CHV_CHECK(0);
    }
  }
  CHV_CHECK_STREQ(fx_eval(&f, call_n(&f, "trim", fx_col(&f, 0), NULL, NULL),
                          NULL, 0), "hello|h\xc3\xa9llo|NULL|a b");
  /* round: half up on the digits Double.toString prints */
  struct chv_expr *e = call_n(&f, "round", fx_col(&f, 1), NULL, NULL);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "3.0|-3.0|1.0|1235.0");
  e = call_n(&f, "round", fx_col(&f, 1), fx_lit(&f, "int", "2"), NULL);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "2.5|-2.5|1.01|1234.57");
  e = call_n(&f, "round", fx_col(&f, 1), fx_lit(&f, "int", "-2"), NULL);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "0.0|0.0|0.0|1200.0");
  e = call_n(&f, "round", fx_col(&f, 2), fx_lit(&f, "int", "2"), NULL);
  char tb[64];
  CHV_CHECK_STREQ(fx_type(e->type, tb), "decimal(5,2)");
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "1.24|-1.24|10.00|NULL");
  e = call_n(&f, "round", fx_col(&f, 2), NULL, NULL);
  CHV_CHECK_STREQ(fx_type(e->type, tb), "decimal(3,0)");
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "1|-1|10|NULL");
  e = call_n(&f, "round", fx_col(&f, 2), fx_lit(&f, "int", "5"), NULL);
  CHV_CHECK_STREQ(fx_type(e->type, tb), "decimal(7,5)");
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "1.23500|-1.23500|9.99900|NULL");
  e = call_n(&f, "round", fx_col(&f, 2), fx_lit(&f, "int", "-1"), NULL);
  CHV_CHECK_STREQ(fx_type(e->type, tb), "decimal(3,0)");
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "0|0|10|NULL");
  e = call_n(&f, "round", fx_col(&f, 3), fx_lit(&f, "int", "-2"), NULL);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "1300|-1300|0|NULL");
  CHV_CHECK(call_n(&f, "round", fx_col(&f, 1), fx_col(&f, 3), NULL) == NULL);
  CHV_CHECK_EQ_INT(f.err.code, CHV_ETYPE);
  CHV_CHECK(chv_func_round_double(0.5, 0) == 1.0);
  CHV_CHECK(chv_func_round_double(99.95, 1) == 100.0);
  CHV_CHECK(chv_func_round_double(0.0049, 2) == 0.0);
  /* date parts of a DATE, and of strings (cast to DATE: junk is NULL) */
  CHV_CHECK_STREQ(fx_eval(&f, call_n(&f, "year", fx_col(&f, 4), NULL, NULL),
                          NULL, 0), "2024|1969|NULL|2000");
  CHV_CHECK_STREQ(fx_eval(&f, call_n(&f, "month", fx_col(&f, 4), NULL, NULL),
                          NULL, 0), "2|12|NULL|1");
  CHV_CHECK_STREQ(fx_eval(&f, call_n(&f, "day", fx_col(&f, 5), NULL, NULL),
                          NULL, 0), "29|NULL|NULL|31");
  e = call_n(&f, "to_date", fx_col(&f, 5), NULL, NULL);
  CHV_CHECK_EQ_INT(e->type->id, CHV_TYPE_DATE);
  CHV_CHECK_STREQ(fx_eval(&f, e, NULL, 0), "2024-02-29|NULL|NULL|1999-12-31");
  CHV_CHECK(call_n(&f, "year", fx_col(&f, 3), NULL, NULL) == NULL);
  CHV_CHECK_STREQ(f.err.msg, "cannot apply 'year' to int");
  CHV_CHECK(call_n(&f, "substr", fx_col(&f, 0), NULL, NULL) == NULL);
  CHV_CHECK_EQ_INT(f.err.code, CHV_EINVAL);
  fx_close(&f);
}

/* Every kind of node evaluated over a selection gives the selected rows of
** its evaluation over all rows. */
static void test_selection_property(void) {
  struct fx f;
  const char *data[] = {"1|NULL|3|-4|5|6|0", "a|bb|NULL|dd|e|f%|",
                        "1.5|NULL|-2|3|4|0|7", "true|false|NULL|true|NULL|false|true",
                        "2024-01-31|NULL|1999-12-31|2000-02-29|2024-02-01|NULL|1970-01-01"};
  CHV_REQUIRE_OK(fx_open(&f, "x int, s string, d decimal(6,2), b boolean, "
                         "t date", data), &f.err);
  struct chv_expr *ex[24];
  int n = 0;
  struct chv_expr *w, *th, *list[3];
  const struct chv_type *st = chv_exec_type(f.a, CHV_TYPE_STRING, 0, 0);
  ex[n++] = fx_col(&f, 1);
  ex[n++] = fx_call2(&f, CHV_FN_MUL, fx_col(&f, 0), fx_col(&f, 2));
  ex[n++] = fx_call2(&f, CHV_FN_DIV, fx_lit(&f, "int", "10"), fx_col(&f, 0));
  ex[n++] = fx_call2(&f, CHV_FN_NSEQ, fx_col(&f, 1), fx_lit(&f, "string", "e"));
  ex[n++] = fx_fn(&f, "concat", fx_col(&f, 1), fx_col(&f, 4), NULL);
  CHV_REQUIRE_OK(chv_expr_and(f.a, fx_col(&f, 3), fx_call2(&f, CHV_FN_GT,
                 fx_col(&f, 0), fx_lit(&f, "int", "2")), &ex[n++], &f.err), &f.err);
  CHV_REQUIRE_OK(chv_expr_or(f.a, fx_col(&f, 3), fx_lit(&f, "boolean", NULL),
                             &ex[n++], &f.err), &f.err);
  CHV_REQUIRE_OK(chv_expr_not(f.a, fx_col(&f, 3), &ex[n++], &f.err), &f.err);
  CHV_REQUIRE_OK(chv_expr_is_null(f.a, fx_col(&f, 2), false, &ex[n++], &f.err),
                 &f.err);
  list[0] = fx_lit(&f, "int", "3");
  list[1] = fx_lit(&f, "int", "6");
  list[2] = fx_lit(&f, "int", NULL);
  CHV_REQUIRE_OK(chv_expr_in(f.a, fx_col(&f, 0), list, 3, false, &ex[n++],
                             &f.err), &f.err);
  CHV_REQUIRE_OK(chv_expr_between(f.a, fx_col(&f, 2), fx_lit(&f, "int", "0"),
                                  fx_col(&f, 0), false, &ex[n++], &f.err), &f.err);
  CHV_REQUIRE_OK(chv_expr_like(f.a, fx_col(&f, 1), fx_lit(&f, "string", "%\\%"),
                               false, &ex[n++], &f.err), &f.err);
  w = fx_call2(&f, CHV_FN_GE, fx_col(&f, 4), fx_lit(&f, "string", "2000-01-01"));
  th = fx_col(&f, 1);
  CHV_REQUIRE_OK(chv_expr_case(f.a, &w, &th, 1, fx_col(&f, 0), &ex[n++],
                               &f.err), &f.err);
  struct chv_expr *co[3] = {fx_col(&f, 2), fx_col(&f, 0), fx_lit(&f, "int", "9")};
  CHV_REQUIRE_OK(chv_expr_coalesce(f.a, co, 3, &ex[n++], &f.err), &f.err);
  CHV_REQUIRE_OK(chv_expr_cast(f.a, fx_col(&f, 2), st, &ex[n++], &f.err), &f.err);
  CHV_REQUIRE_OK(chv_expr_cast(f.a, fx_col(&f, 1),
                               chv_exec_type(f.a, CHV_TYPE_INT, 0, 0), &ex[n++],
                               &f.err), &f.err);
  struct chv_expr *arg = fx_col(&f, 4), *arg2[2] = {fx_col(&f, 2), fx_lit(&f, "int", "1")};
  CHV_REQUIRE_OK(chv_expr_func(f.a, chv_func_lookup("month"), &arg, 1,
                               &ex[n++], &f.err), &f.err);
  CHV_REQUIRE_OK(chv_expr_func(f.a, chv_func_lookup("round"), arg2, 2,
                               &ex[n++], &f.err), &f.err);
  arg = fx_col(&f, 0);
  CHV_REQUIRE_OK(chv_expr_call(f.a, CHV_FN_NEG, &arg, 1, &ex[n++], &f.err), &f.err);
  static const uint32_t sels[][4] = {{0, 2, 4, 6}, {1, 3, 5, 6}, {2, 0, 0, 0}};
  static const int nsels[] = {4, 4, 1};
  for (int i = 0; i < n; i++) {
    CHV_REQUIRE(ex[i] != NULL);
    char all[1024];
    snprintf(all, sizeof all, "%s", fx_eval(&f, ex[i], NULL, 0));
    CHV_CHECK(strncmp(all, "ERR", 3) != 0);
    if (getenv("CHV_EXEC_VERBOSE")) fprintf(stderr, "%d: %s\n", i, all);
    const char *rows[8];
    char *p = all;
    for (int r = 0; r < 7; r++) {
      rows[r] = p;
      char *q = strchr(p, '|');
      if (q) *q = '\0', p = q + 1;
      else p += strlen(p);
    }
    for (size_t k = 0; k < CHV_ARRAY_SIZE(nsels); k++) {
      char want[512] = "";
      for (int j = 0; j < nsels[k]; j++) {
        size_t o = strlen(want);
        snprintf(want + o, sizeof want - o, "%s%s", j ? "|" : "",
                 rows[sels[k][j]]);
      }
      const char *got = fx_eval(&f, ex[i], sels[k], nsels[k]);
      if (strcmp(got, want) != 0) {
        fprintf(stderr, "expression %d, selection %zu: got %s, want %s\n", i,
                k, got, want);
        CHV_CHECK(0);
      }
    }
  }
  fx_close(&f);
}

/* ---- allocation failure ------------------------------------------------------- */

static void test_eval_oom(void) {
  struct fx f;
  const char *data[] = {"1|2|NULL|4|5", "a|bb|NULL|dd|e", "1.5|NULL|2|3|4"};
  CHV_REQUIRE_OK(fx_open(&f, "x int, s string, d decimal(10,2)", data), &f.err);
  /* CASE WHEN x > 1 AND s LIKE '%d%' THEN concat(s, x) ELSE
  ** CAST(d * 2 AS string) END, plus COALESCE and IN in a filter */
  struct chv_expr *w, *like, *t, *el, *e, *cargs[2];
  CHV_REQUIRE_OK(chv_expr_like(f.a, fx_col(&f, 1), fx_lit(&f, "string", "%d%"),
                               false, &like, &f.err), &f.err);
  CHV_REQUIRE_OK(chv_expr_and(f.a, fx_call2(&f, CHV_FN_GT, fx_col(&f, 0),
                                            fx_lit(&f, "int", "1")),
                              like, &w, &f.err), &f.err);
  t = fx_fn(&f, "concat", fx_col(&f, 1), fx_col(&f, 0), NULL);
  const struct chv_type *st = chv_exec_type(f.a, CHV_TYPE_STRING, 0, 0);
  CHV_REQUIRE_OK(chv_expr_cast(f.a, fx_call2(&f, CHV_FN_MUL, fx_col(&f, 2),
                                             fx_lit(&f, "int", "2")),
                               st, &el, &f.err), &f.err);
  CHV_REQUIRE_OK(chv_expr_case(f.a, &w, &t, 1, el, &e, &f.err), &f.err);
  cargs[0] = e;
  cargs[1] = fx_lit(&f, "string", "none");
  struct chv_expr *co, *in, *l[2] = {fx_lit(&f, "string", "dd4"),
                                     fx_lit(&f, "string", "none")};
  CHV_REQUIRE_OK(chv_expr_coalesce(f.a, cargs, 2, &co, &f.err), &f.err);
  CHV_REQUIRE_OK(chv_expr_in(f.a, co, l, 2, false, &in, &f.err), &f.err);
  struct chv_expr *pred;
  CHV_REQUIRE_OK(chv_expr_or(f.a, in, fx_call2(&f, CHV_FN_EQ, fx_col(&f, 0),
                                               fx_lit(&f, "int", "1")),
                             &pred, &f.err), &f.err);
  CHV_CHECK_STREQ(fx_eval(&f, co, NULL, 0), "3.00|none|4.00|dd4|8.00");
  struct chv_vector *v;
  CHV_REQUIRE_OK(chv_vector_open(e->type, 1, &v, NULL), NULL);
  int failures = 0;
  for (long k = 1; k < 10000; k++) {
    chv_alloc_fail_after(k);
    int rc = chv_expr_eval(co, f.b, NULL, 5, v, &f.err);
    uint32_t sel[5];
    int64_t n = 0;
    int rc2 = chv_expr_filter(pred, f.b, NULL, 5, sel, &n, &f.err);
    chv_alloc_fail_after(0);
    if (rc == CHV_OK && rc2 == CHV_OK) {
      CHV_CHECK_STREQ(fx_render(&f, v), "3.00|none|4.00|dd4|8.00");
      check_sel(sel, n, "0,1,3");
      break;
    }
    CHV_CHECK(rc == CHV_OK || rc == CHV_ENOMEM);
    CHV_CHECK(rc2 == CHV_OK || rc2 == CHV_ENOMEM);
    failures++;
  }
  CHV_CHECK(failures > 5);
  chv_vector_close(v);
  fx_close(&f);
}

CHV_TEST_MAIN("exec_expr", test_binary_table, test_literal_operands,
              test_type_errors, test_logic, test_like,
              test_case_coalesce_in_between, test_cast_matrix,
              test_format_double, test_filter, test_filter_matches_eval,
              test_builtins, test_selection_property, test_eval_oom)
