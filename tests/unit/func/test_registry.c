/*
** sql/func registry: the table (sorted, unique, complete: every scalar
** overload has a kernel, every aggregate one an implementation), lookup by
** name and alias, overload resolution (result types, implicit casts, the
** errors and their order), signature text, aggregate result types.
*/
#include "chv_test.h"
#include "sql/func/func_int.h"


/* Table rows leave the fields of the other outcome out. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

/* Nested types parsed for a case, freed after it. */
static struct chv_type *nested[8];
static int nnested;

static void free_nested(void) {
  while (nnested > 0) chv_type_free(nested[--nnested]);
}

/* A type of the arena from Hive's spelling. */
static const struct chv_type *ty(chv_arena *a, const char *s) {
  struct chv_type *t0;
  if (chv_type_parse(s, &t0, NULL) != CHV_OK) return NULL;
  if (!chv_type_is_primitive(t0->id)) {
    if (nnested == (int)CHV_ARRAY_SIZE(nested)) {
      chv_type_free(t0);
      return NULL;
    }
    return nested[nnested++] = t0;
  }
  const struct chv_type *t = chv_func_type(
      a, t0->id, t0->id == CHV_TYPE_DECIMAL ? t0->precision : t0->length,
      t0->scale);
  chv_type_free(t0);
  return t;
}

static const char *tname(const struct chv_type *t, char *buf, size_t n) {
  if (t == NULL) return "(keep)";
  struct chv_buf b;
  chv_buf_init(&b);
  chv_type_format(t, &b);
  snprintf(buf, n, "%s", b.data ? b.data : "?");
  chv_buf_free(&b);
  return buf;
}

static void test_table_sorted_and_unique(void) {
  int n = chv_func_count();
  CHV_CHECK(n >= 21);
  for (int i = 0; i < n; i++) {
    const struct chv_func *f = chv_func_at(i);
    CHV_REQUIRE(f != NULL && f->name != NULL);
    for (const char *c = f->name; *c; c++)
      CHV_CHECK(!(*c >= 'A' && *c <= 'Z'));
    if (i > 0 && strcmp(chv_func_at(i - 1)->name, f->name) >= 0) {
      fprintf(stderr, "registry not sorted at %s, %s\n",
              chv_func_at(i - 1)->name, f->name);
      CHV_CHECK(0);
    }
  }
  CHV_CHECK(chv_func_at(n) == NULL);
  CHV_CHECK(chv_func_at(-1) == NULL);
}

/* Every row is usable: overloads well formed, a kernel for each scalar
** overload, an implementation for each aggregate one, aliases naming a
** function of their kind, cast targets and result types without
** parameters (the registry makes them with chv_func_type(id, 0, 0)). */
static void test_table_complete(void) {
  for (int i = 0; i < chv_func_count(); i++) {
    const struct chv_func *f = chv_func_at(i);
    if (f->alias_of) {
      const struct chv_func *t = chv_func_lookup(f->alias_of);
      CHV_CHECK(t != NULL && t->alias_of == NULL && t->kind == f->kind);
      CHV_CHECK(f->over == NULL);
      CHV_CHECK(chv_func_lookup(f->name) == t);
      continue;
    }
    CHV_CHECK(f->doc != NULL && f->doc[0] != '\0');
    CHV_CHECK(chv_func_lookup(f->name) == f);
    if (f->nover < 1 || f->over == NULL) {
      fprintf(stderr, "%s has no overload\n", f->name);
      CHV_CHECK(0);
      continue;
    }
    for (int k = 0; k < f->nover; k++) {
      const struct chv_func_overload *o = &f->over[k];
      bool ok = o->min_args >= 0 && o->min_args <= o->max_args &&
                o->nparams >= 0 && o->nparams <= CHV_FUNC_MAX_PARAMS &&
                o->max_args <= CHV_FUNC_MAX_ARGS &&
                (o->max_args <= o->nparams || o->nparams > 0) &&
                o->min_args <= o->nparams;
      if (f->kind == CHV_FUNC_SCALAR)
        ok = ok && o->kernel != NULL && o->agg == NULL &&
             o->form == CHV_AGG_PLAIN;
      else
        ok = ok && o->kernel == NULL && o->agg != NULL &&
             o->agg->name != NULL && o->agg->update != NULL &&
             o->agg->merge != NULL && o->agg->finalize != NULL;
      for (int p = 0; p < o->nparams; p++) {
        enum chv_type_id c = o->params[p].cast;
        ok = ok && (int)o->params[p].cls >= 0 && o->params[p].cls < CHV_FC_COUNT;
        ok = ok && (c == CHV_FUNC_KEEP ||
                    (chv_type_is_primitive(c) && c != CHV_TYPE_DECIMAL &&
                     c != CHV_TYPE_CHAR && c != CHV_TYPE_VARCHAR));
        if (o->params[p].cls == CHV_FC_CONST_INT)
          ok = ok && o->params[p].what != NULL && c == CHV_FUNC_KEEP;
      }
      if (!o->derive)
        ok = ok && (o->result == CHV_FUNC_SAME
                        ? o->nparams > 0
                        : chv_type_is_primitive(o->result) &&
                              o->result != CHV_TYPE_DECIMAL &&
                              o->result != CHV_TYPE_CHAR &&
                              o->result != CHV_TYPE_VARCHAR);
      if (!ok) {
        fprintf(stderr, "%s: overload %d is malformed\n", f->name, k);
        CHV_CHECK(0);
      }
    }
  }
}

static void test_lookup(void) {
  const struct chv_func *up = chv_func_lookup("upper");
  CHV_REQUIRE(up != NULL);
  CHV_CHECK_STREQ(up->name, "upper");
  CHV_CHECK(up->kind == CHV_FUNC_SCALAR);
  CHV_CHECK(chv_func_lookup("UPPER") == up);
  CHV_CHECK(chv_func_lookup("Upper") == up);
  CHV_CHECK(chv_func_lookup("ucase") == up);
  CHV_CHECK(chv_func_lookup("UCase") == up);
  CHV_CHECK_STREQ(chv_func_lookup("substring")->name, "substr");
  CHV_CHECK_STREQ(chv_func_lookup("DAYOFMONTH")->name, "day");
  CHV_CHECK_STREQ(chv_func_lookup("lcase")->name, "lower");
  CHV_CHECK(chv_func_lookup("Count")->kind == CHV_FUNC_AGGREGATE);
  CHV_CHECK(chv_func_lookup("nosuchfn") == NULL);
  CHV_CHECK(chv_func_lookup("") == NULL);
  CHV_CHECK(chv_func_lookup("coalesce") == NULL); /* exec's own node */
  CHV_CHECK(chv_func_lookup("upperx") == NULL);
  CHV_CHECK(chv_func_lookup("uppe") == NULL);
  char longname[200];
  memset(longname, 'a', sizeof longname - 1);
  longname[sizeof longname - 1] = '\0';
  CHV_CHECK(chv_func_lookup(longname) == NULL);
  /* every name of the table is found, in any case */
  for (int i = 0; i < chv_func_count(); i++) {
    char u[64];
    const char *n = chv_func_at(i)->name;
    size_t k = 0;
    for (; n[k] && k + 1 < sizeof u; k++)
      u[k] = (char)(n[k] >= 'a' && n[k] <= 'z' ? n[k] - 32 : n[k]);
    u[k] = '\0';
    CHV_CHECK(chv_func_lookup(u) != NULL);
  }
  static const char *const scalars[] = {
      "concat", "upper", "ucase", "lower", "lcase", "length", "abs", "substr",
      "substring", "trim", "round", "year", "month", "day", "dayofmonth",
      "to_date"};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(scalars); i++) {
    const struct chv_func *f = chv_func_lookup(scalars[i]);
    CHV_CHECK(f != NULL && f->kind == CHV_FUNC_SCALAR);
  }
  static const char *const aggs[] = {"count", "sum", "min", "max", "avg"};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(aggs); i++) {
    const struct chv_func *f = chv_func_lookup(aggs[i]);
    CHV_CHECK(f != NULL && f->kind == CHV_FUNC_AGGREGATE);
  }
  CHV_CHECK_STREQ(chv_func_kind_name(CHV_FUNC_SCALAR), "scalar");
  CHV_CHECK_STREQ(chv_func_kind_name(CHV_FUNC_AGGREGATE), "aggregate");
}

/* Resolution: function, form, argument types (a trailing "=N" makes the
** argument an integer constant N), the result type and the casts. */
struct resolve_case {
  const char *fn;
  enum chv_agg_form form;
  const char *args[4];
  const char *result; /* NULL: an error */
  const char *casts;  /* "string,-": the cast of each argument, - to keep */
  int code;           /* the error's code */
  const char *msg;    /* the error's message */
};

static const struct resolve_case resolve_cases[] = {
    {"upper", CHV_AGG_PLAIN, {"string"}, "string", "-"},
    {"upper", CHV_AGG_PLAIN, {"int"}, "string", "string"},
    {"ucase", CHV_AGG_PLAIN, {"varchar(5)"}, "string", "string"},
    {"lower", CHV_AGG_PLAIN, {"date"}, "string", "string"},
    {"length", CHV_AGG_PLAIN, {"char(3)"}, "int", "string"},
    {"trim", CHV_AGG_PLAIN, {"decimal(5,2)"}, "string", "string"},
    {"concat", CHV_AGG_PLAIN, {"int", "boolean", "string", "double"},
     "string", "string,string,-,string"},
    {"concat", CHV_AGG_PLAIN, {"string"}, "string", "-"},
    {"concat", CHV_AGG_PLAIN, {"binary", "binary"}, "binary", "-,-"},
    {"concat", CHV_AGG_PLAIN, {"string", "binary"}, "string", "-,string"},
    {"substr", CHV_AGG_PLAIN, {"binary", "int"}, "binary", "-,-"},
    {"locate", CHV_AGG_PLAIN, {"string", "boolean", "string"}, "int",
     "-,string,int"},
    {"elt", CHV_AGG_PLAIN, {"string", "int", "double"}, "string",
     "int,string,string"},
    {"char_length", CHV_AGG_PLAIN, {"string"}, "int", "-"},
    {"substr", CHV_AGG_PLAIN, {"string", "tinyint"}, "string", "-,int"},
    {"substring", CHV_AGG_PLAIN, {"varchar(9)", "bigint", "int"}, "string",
     "string,int,-"},
    {"abs", CHV_AGG_PLAIN, {"string"}, "double", "double"},
    {"abs", CHV_AGG_PLAIN, {"char(2)"}, "double", "double"},
    {"abs", CHV_AGG_PLAIN, {"smallint"}, "smallint", "-"},
    {"abs", CHV_AGG_PLAIN, {"decimal(7,2)"}, "decimal(7,2)", "-"},
    {"round", CHV_AGG_PLAIN, {"double"}, "double", "-"},
    {"round", CHV_AGG_PLAIN, {"float", "int=1"}, "float", "-,-"},
    {"round", CHV_AGG_PLAIN, {"string", "int=2"}, "double", "double,-"},
    {"round", CHV_AGG_PLAIN, {"bigint", "int=-2"}, "bigint", "-,-"},
    {"round", CHV_AGG_PLAIN, {"decimal(5,3)"}, "decimal(3,0)", "-"},
    {"round", CHV_AGG_PLAIN, {"decimal(5,3)", "int=1"}, "decimal(4,1)", "-,-"},
    {"round", CHV_AGG_PLAIN, {"decimal(5,2)", "int=5"}, "decimal(8,5)", "-,-"},
    {"round", CHV_AGG_PLAIN, {"decimal(5,2)", "tinyint=-1"}, "decimal(4,0)",
     "-,-"},
    {"round", CHV_AGG_PLAIN, {"decimal(38,2)", "int=1"}, "decimal(38,1)",
     "-,-"},
    {"round", CHV_AGG_PLAIN, {"decimal(10,0)", "bigint=99"}, "decimal(38,38)",
     "-,-"},
    {"year", CHV_AGG_PLAIN, {"date"}, "int", "-"},
    {"year", CHV_AGG_PLAIN, {"timestamp"}, "int", "date"},
    {"month", CHV_AGG_PLAIN, {"string"}, "int", "date"},
    {"dayofmonth", CHV_AGG_PLAIN, {"varchar(10)"}, "int", "date"},
    {"to_date", CHV_AGG_PLAIN, {"timestamp"}, "date", "date"},
    {"to_date", CHV_AGG_PLAIN, {"date"}, "date", "-"},
    {"count", CHV_AGG_STAR, {NULL}, "bigint", ""},
    {"count", CHV_AGG_PLAIN, {"binary"}, "bigint", "-"},
    {"count", CHV_AGG_DISTINCT, {"decimal(5,2)"}, "bigint", "-"},
    {"sum", CHV_AGG_PLAIN, {"tinyint"}, "bigint", "-"},
    {"sum", CHV_AGG_PLAIN, {"float"}, "double", "-"},
    {"sum", CHV_AGG_PLAIN, {"decimal(10,2)"}, "decimal(20,2)", "-"},
    {"sum", CHV_AGG_PLAIN, {"decimal(30,5)"}, "decimal(38,5)", "-"},
    {"avg", CHV_AGG_PLAIN, {"bigint"}, "double", "-"},
    {"avg", CHV_AGG_PLAIN, {"decimal(10,2)"}, "decimal(14,6)", "-"},
    {"min", CHV_AGG_PLAIN, {"varchar(3)"}, "varchar(3)", "-"},
    {"max", CHV_AGG_PLAIN, {"timestamp"}, "timestamp", "-"},
    /* errors: arity first, then constants, then types */
    {"substr", CHV_AGG_PLAIN, {"string"}, NULL, NULL, CHV_EINVAL,
     "'substr' takes 2 or more arguments, not 1"},
    {"upper", CHV_AGG_PLAIN, {"string", "string"}, NULL, NULL, CHV_EINVAL,
     "'upper' takes 1 argument, not 2"},
    {"ucase", CHV_AGG_PLAIN, {NULL}, NULL, NULL, CHV_EINVAL,
     "'upper' takes 1 argument, not 0"},
    {"round", CHV_AGG_PLAIN, {"double", "int", "int"}, NULL, NULL, CHV_EINVAL,
     "'round' takes 1 or more argument, not 3"},
    {"concat", CHV_AGG_PLAIN, {NULL}, NULL, NULL, CHV_EINVAL,
     "'concat' takes 1 or more argument, not 0"},
    {"round", CHV_AGG_PLAIN, {"boolean", "int"}, NULL, NULL, CHV_ETYPE,
     "'round': the number of decimal places must be an integer constant"},
    {"round", CHV_AGG_PLAIN, {"double", "double=1"}, NULL, NULL, CHV_ETYPE,
     "'round': the number of decimal places must be an integer constant"},
    {"round", CHV_AGG_PLAIN, {"boolean"}, NULL, NULL, CHV_ETYPE,
     "cannot apply 'round' to boolean"},
    {"upper", CHV_AGG_PLAIN, {"boolean"}, NULL, NULL, CHV_ETYPE,
     "cannot apply 'upper' to boolean"},
    {"ucase", CHV_AGG_PLAIN, {"binary"}, NULL, NULL, CHV_ETYPE,
     "cannot apply 'upper' to binary"},
    {"length", CHV_AGG_PLAIN, {"array<int>"}, NULL, NULL, CHV_ETYPE,
     "cannot apply 'length' to array"},
    {"trim", CHV_AGG_PLAIN, {"string", "string", "string"}, NULL, NULL,
     CHV_EINVAL, "'trim' takes 1 or more argument, not 3"},
    {"lpad", CHV_AGG_PLAIN, {"string", "string", "string"}, NULL, NULL,
     CHV_ETYPE, "cannot apply 'lpad' to string and string"},
    {"concat_ws", CHV_AGG_PLAIN, {"string", "int"}, NULL, NULL, CHV_ETYPE,
     "cannot apply 'concat_ws' to int"},
    {"substr", CHV_AGG_PLAIN, {"string", "string"}, NULL, NULL, CHV_ETYPE,
     "cannot apply 'substr' to string and string"},
    {"substr", CHV_AGG_PLAIN, {"varchar(4)", "int", "decimal(3,1)"}, NULL, NULL,
     CHV_ETYPE, "cannot apply 'substr' to varchar(4) and decimal(3,1)"},
    {"substr", CHV_AGG_PLAIN, {"boolean", "int"}, NULL, NULL, CHV_ETYPE,
     "cannot apply 'substr' to boolean"},
    {"abs", CHV_AGG_PLAIN, {"date"}, NULL, NULL, CHV_ETYPE,
     "cannot apply 'abs' to date"},
    {"year", CHV_AGG_PLAIN, {"int"}, NULL, NULL, CHV_ETYPE,
     "cannot apply 'year' to int"},
    {"sum", CHV_AGG_PLAIN, {"string"}, NULL, NULL, CHV_ETYPE,
     "cannot apply 'sum' to string"},
    {"avg", CHV_AGG_PLAIN, {"varchar(3)"}, NULL, NULL, CHV_ETYPE,
     "cannot apply 'avg' to varchar"},
    {"sum", CHV_AGG_PLAIN, {"array<int>"}, NULL, NULL, CHV_ETYPE,
     "sum needs a primitive argument"},
    {"count", CHV_AGG_DISTINCT, {"map<string,int>"}, NULL, NULL, CHV_ETYPE,
     "count(distinct) needs a primitive argument"},
    {"sum", CHV_AGG_STAR, {NULL}, NULL, NULL, CHV_EINVAL,
     "sum cannot be called as sum(*...)"},
};

static void test_resolve(void) {
  for (size_t i = 0; i < CHV_ARRAY_SIZE(resolve_cases); i++) {
    const struct resolve_case *c = &resolve_cases[i];
    chv_arena *a;
    CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
    struct chv_func_argdesc d[4];
    struct chv_value k[4];
    int n = 0;
    for (; n < 4 && c->args[n]; n++) {
      char t[64];
      snprintf(t, sizeof t, "%s", c->args[n]);
      char *eq = strchr(t, '=');
      if (eq) *eq = '\0';
      d[n].type = ty(a, t);
      d[n].constant = NULL;
      if (eq) {
        memset(&k[n], 0, sizeof k[n]);
        k[n].i64 = atoll(eq + 1);
        d[n].constant = &k[n];
      }
      CHV_REQUIRE(d[n].type != NULL);
    }
    const struct chv_func *f = chv_func_lookup(c->fn);
    CHV_REQUIRE(f != NULL);
    struct chv_func_bound b;
    struct chv_error err = {0};
    int rc = chv_func_resolve(a, f, c->form, d, n, &b, &err);
    char tb[64], got[256] = "";
    if (c->result) {
      if (rc != CHV_OK) {
        fprintf(stderr, "case %zu (%s): %s\n", i, c->fn, err.msg);
        CHV_CHECK(0);
      } else {
        for (int j = 0; j < n; j++) {
          size_t o = strlen(got);
          snprintf(got + o, sizeof got - o, "%s%s", j ? "," : "",
                   b.casts[j] ? tname(b.casts[j], tb, sizeof tb) : "-");
        }
        if (strcmp(tname(b.result, tb, sizeof tb), c->result) != 0 ||
            strcmp(got, c->casts) != 0) {
          fprintf(stderr, "case %zu (%s): %s (casts %s), want %s (casts %s)\n",
                  i, c->fn, tb, got, c->result, c->casts);
          CHV_CHECK(0);
        }
        if (f->kind == CHV_FUNC_AGGREGATE) CHV_CHECK(b.ov->agg != NULL);
        else CHV_CHECK(b.ov->kernel != NULL);
      }
    } else if (rc != c->code || strcmp(err.msg, c->msg) != 0) {
      fprintf(stderr, "case %zu (%s): rc %d '%s', want %d '%s'\n", i, c->fn,
              rc, err.msg, c->code, c->msg);
      CHV_CHECK(0);
    }
    chv_arena_close(a);
    free_nested();
  }
}

/* The result type of SAME is the argument's own type, not a copy. */
static void test_resolve_same_type(void) {
  chv_arena *a;
  CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
  const struct chv_type *t = ty(a, "decimal(9,3)");
  struct chv_func_argdesc d = {t, NULL};
  struct chv_func_bound b;
  CHV_REQUIRE_OK(chv_func_resolve(a, chv_func_lookup("max"), CHV_AGG_PLAIN,
                                  &d, 1, &b, NULL), NULL);
  CHV_CHECK(b.result == t);
  CHV_CHECK(b.ov->agg == &chv_agg_max_impl);
  chv_arena_close(a);
}

static void test_signatures(void) {
  static const struct {
    const char *fn, *want;
  } cases[] = {
      {"substr", "substr(binary, integral[, integral]) -> binary; "
                 "substr(string, integral[, integral]) -> string"},
      {"substring", "substring(binary, integral[, integral]) -> binary; "
                    "substring(string, integral[, integral]) -> string"},
      {"concat", "concat(binary, ...) -> binary; concat(any, ...) -> string"},
      {"locate", "locate(value, value[, int]) -> int"},
      {"concat_ws", "concat_ws(string, string, ...) -> string"},
      {"upper", "upper(string) -> string"},
      {"length", "length(string) -> int"},
      {"abs", "abs(string) -> double; abs(numeric) -> numeric"},
      {"round", "round(string[, integer constant]) -> double; "
                "round(decimal[, integer constant]) -> decimal; "
                "round(numeric[, integer constant]) -> numeric"},
      {"year", "year(date) -> int"},
      {"to_date", "to_date(date) -> date"},
      {"count", "count(*) -> bigint; count(any) -> bigint; "
                "count(DISTINCT any) -> bigint"},
      {"sum", "sum(integral) -> bigint; sum(floating) -> double; "
              "sum(decimal) -> decimal"},
      {"max", "max(any) -> any"},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cases); i++) {
    const struct chv_func *f = NULL;
    for (int k = 0; k < chv_func_count(); k++)
      if (!strcmp(chv_func_at(k)->name, cases[i].fn)) f = chv_func_at(k);
    CHV_REQUIRE(f != NULL);
    struct chv_buf b;
    chv_buf_init(&b);
    CHV_CHECK_OK(chv_func_signature(f, &b), NULL);
    CHV_CHECK_STREQ(b.data ? b.data : "", cases[i].want);
    chv_buf_free(&b);
  }
  /* every row has one */
  for (int k = 0; k < chv_func_count(); k++) {
    struct chv_buf b;
    chv_buf_init(&b);
    CHV_CHECK_OK(chv_func_signature(chv_func_at(k), &b), NULL);
    CHV_CHECK(b.len > strlen(chv_func_at(k)->name) + 2);
    CHV_CHECK(strncmp(b.data, chv_func_at(k)->name,
                      strlen(chv_func_at(k)->name)) == 0);
    chv_buf_free(&b);
  }
}

/* The built-in aggregate forms resolve through the registry to their own
** implementations. */
static void test_agg_forms(void) {
  static const struct {
    enum chv_agg_fn fn;
    const char *name;
  } forms[] = {
      {CHV_AGG_COUNT_STAR, "count"}, {CHV_AGG_COUNT, "count"},
      {CHV_AGG_COUNT_DISTINCT, "count(distinct)"}, {CHV_AGG_SUM, "sum"},
      {CHV_AGG_MIN, "min"}, {CHV_AGG_MAX, "max"}, {CHV_AGG_AVG, "avg"}};
  chv_arena *a;
  CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
  const struct chv_type *it = ty(a, "int");
  for (size_t i = 0; i < CHV_ARRAY_SIZE(forms); i++) {
    const struct chv_agg_impl *impl = chv_agg_impl_of(forms[i].fn);
    CHV_REQUIRE(impl != NULL);
    CHV_CHECK_STREQ(impl->name, forms[i].name);
    const struct chv_type *rt;
    CHV_CHECK_OK(chv_agg_result_type(a, forms[i].fn,
                                     forms[i].fn == CHV_AGG_COUNT_STAR ? NULL
                                                                        : it,
                                     &rt, NULL), NULL);
  }
  CHV_CHECK(chv_agg_impl_of((enum chv_agg_fn)99) == NULL);
  struct chv_error err;
  const struct chv_type *rt;
  CHV_CHECK(chv_agg_result_type(a, CHV_AGG_COUNT, NULL, &rt, &err) ==
            CHV_ETYPE);
  CHV_CHECK_STREQ(err.msg, "count needs a primitive argument");
  chv_arena_close(a);
}

static void test_keyset(void) {
  struct chv_keyset h = {0};
  uint32_t id;
  bool added;
  char key[16];
  for (int i = 0; i < 1000; i++) {
    int n = snprintf(key, sizeof key, "k%d", i);
    CHV_REQUIRE_OK(chv_keyset_put(&h, key, (size_t)n, &id, &added), NULL);
    CHV_CHECK(added && id == (uint32_t)i);
  }
  for (int i = 999; i >= 0; i--) {
    int n = snprintf(key, sizeof key, "k%d", i);
    CHV_REQUIRE_OK(chv_keyset_put(&h, key, (size_t)n, &id, &added), NULL);
    CHV_CHECK(!added && id == (uint32_t)i);
    size_t len;
    const char *k = chv_keyset_key(&h, id, &len);
    CHV_CHECK(len == (size_t)n && memcmp(k, key, len) == 0);
  }
  CHV_CHECK(h.n == 1000);
  CHV_CHECK(chv_keyset_memory(&h) > 1000);
  /* keys of several lengths (the offsets read), then one of them found */
  struct chv_keyset g = {0};
  CHV_REQUIRE_OK(chv_keyset_put(&g, "abcdefghi", 9, &id, &added), NULL);
  CHV_REQUIRE_OK(chv_keyset_put(&g, "abc", 3, &id, &added), NULL);
  CHV_REQUIRE_OK(chv_keyset_put(&g, "abcdefghi", 9, &id, &added), NULL);
  CHV_CHECK(!added && id == 0);
  CHV_REQUIRE_OK(chv_keyset_put(&g, "abd", 3, &id, &added), NULL);
  CHV_CHECK(added && id == 2);
  chv_keyset_free(&g);
  /* the empty key is a key */
  CHV_REQUIRE_OK(chv_keyset_put(&h, "", 0, &id, &added), NULL);
  CHV_CHECK(added && id == 1000);
  chv_keyset_free(&h);
  CHV_CHECK(h.n == 0 && h.slots == NULL);
  /* -0.0 and 0.0 encode alike, so do two NaNs; NULL differs from both */
  struct chv_type dt = {.id = CHV_TYPE_DOUBLE};
  struct chv_vector *v;
  CHV_REQUIRE_OK(chv_vector_open(&dt, 8, &v, NULL), NULL);
  double xs[] = {0.0, -0.0, __builtin_nan(""), -__builtin_nan("")};
  for (size_t i = 0; i < 4; i++)
    CHV_REQUIRE_OK(chv_vector_append_value(v, &xs[i], NULL), NULL);
  CHV_REQUIRE_OK(chv_vector_append_null(v, NULL), NULL);
  struct chv_buf b[5];
  for (int i = 0; i < 5; i++) {
    chv_buf_init(&b[i]);
    CHV_REQUIRE_OK(chv_keyset_encode(&b[i], v, i), NULL);
  }
  CHV_CHECK(b[0].len == b[1].len && !memcmp(b[0].data, b[1].data, b[0].len));
  CHV_CHECK(b[2].len == b[3].len && !memcmp(b[2].data, b[3].data, b[2].len));
  CHV_CHECK(b[4].len == 1 && b[4].data[0] == 0);
  CHV_CHECK(b[0].len != b[4].len);
  for (int i = 0; i < 5; i++) chv_buf_free(&b[i]);
  chv_vector_close(v);
}

/* Resolution under allocation failure: CHV_ENOMEM, nothing written. */
static void test_resolve_oom(void) {
  int failures = 0;
  for (long k = 1; k < 1000; k++) {
    chv_arena *a; /* small blocks: each allocation may fail */
    if (chv_arena_open(16, &a) != CHV_OK) continue;
    struct chv_type st = {.id = CHV_TYPE_INT};
    struct chv_func_argdesc d[2] = {{&st, NULL}, {&st, NULL}};
    struct chv_func_bound b = {0};
    struct chv_error err;
    chv_alloc_fail_after(k);
    int rc = chv_func_resolve(a, chv_func_lookup("concat"), CHV_AGG_PLAIN, d,
                              2, &b, &err);
    chv_alloc_fail_after(0);
    bool done = rc == CHV_OK;
    if (done) CHV_CHECK(b.result != NULL && b.result->id == CHV_TYPE_STRING);
    chv_arena_close(a);
    if (done) break;
    CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
    CHV_CHECK(b.ov == NULL);
    failures++;
  }
  CHV_CHECK(failures > 0);
}

/* The set of integer keys: ids in order of insertion across growths, keys
** of any sign and the extremes, ids the caller gives, the memory. */
static void test_intset(void) {
  struct chv_intset s = {0};
  CHV_CHECK(chv_intset_find(&s, 0) == UINT32_MAX); /* empty: no slots */
  int64_t odd[] = {0, -1, 1, INT64_MIN, INT64_MAX, (int64_t)1 << 40};
  size_t nodd = sizeof odd / sizeof *odd;
  for (size_t i = 0; i < nodd; i++) {
    CHV_REQUIRE_OK(chv_intset_reserve(&s, 1), NULL);
    CHV_CHECK(chv_intset_put(&s, odd[i]) == (uint32_t)i);
  }
  /* 100,000 consecutive keys, a batch's room at a time */
  for (int64_t b = 0; b < 100; b++) {
    CHV_REQUIRE_OK(chv_intset_reserve(&s, 1000), NULL);
    for (int64_t k = b * 1000; k < (b + 1) * 1000; k++)
      chv_intset_put(&s, 1000000 + k);
  }
  CHV_CHECK(s.n == nodd + 100000);
  CHV_CHECK(s.nslots >= 2 * s.n);
  CHV_CHECK(chv_intset_memory(&s) == s.nslots * sizeof(struct chv_intset_slot));
  for (size_t i = 0; i < nodd; i++) {
    CHV_CHECK(chv_intset_find(&s, odd[i]) == (uint32_t)i);
    CHV_CHECK(chv_intset_put(&s, odd[i]) == (uint32_t)i); /* held: no new id */
  }
  for (int64_t k = 0; k < 100000; k += 997)
    CHV_CHECK(chv_intset_find(&s, 1000000 + k) == (uint32_t)(nodd + (size_t)k));
  CHV_CHECK(chv_intset_find(&s, 999999) == UINT32_MAX);
  CHV_CHECK(chv_intset_find(&s, 1100000) == UINT32_MAX);
  CHV_CHECK(s.n == nodd + 100000);
  chv_intset_free(&s);
  CHV_CHECK(s.n == 0 && s.slots == NULL && s.nslots == 0);
  /* ids of the caller's */
  CHV_REQUIRE_OK(chv_intset_reserve(&s, 3), NULL);
  chv_intset_add(&s, 7, 40);
  chv_intset_add(&s, -7, 3);
  CHV_CHECK(chv_intset_find(&s, 7) == 40 && chv_intset_find(&s, -7) == 3);
  CHV_CHECK(chv_intset_find(&s, 0) == UINT32_MAX && s.n == 2);
  chv_intset_free(&s);
}

CHV_TEST_MAIN("func_registry", test_table_sorted_and_unique,
              test_table_complete, test_lookup, test_resolve,
              test_resolve_same_type, test_signatures, test_agg_forms,
              test_keyset, test_intset, test_resolve_oom)
