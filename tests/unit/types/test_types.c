/*
** Tests of src/types, part 1: Hive type strings (parse, format, errors,
** depth), type construction, and the date, timestamp and decimal helpers.
** Vectors and batches are in test_vector.c, the Arrow export, stream and
** validator in test_arrow.c.
*/
#include "chv_test.h"
#include "types/types.h"

/* Parse text and return its canonical spelling in a static buffer, or the
** error message prefixed with "ERR ". */
static const char *roundtrip(const char *text) {
  static char out[4096];
  struct chv_type *t;
  struct chv_error err;
  if (chv_type_parse(text, &t, &err) != CHV_OK) {
    snprintf(out, sizeof out, "ERR %s", err.msg);
    return out;
  }
  struct chv_buf b;
  chv_buf_init(&b);
  if (chv_type_format(t, &b) != CHV_OK) {
    snprintf(out, sizeof out, "ERR format");
  } else {
    snprintf(out, sizeof out, "%s", b.data);
  }
  chv_buf_free(&b);
  chv_type_free(t);
  return out;
}

static void test_type_roundtrip(void) {
  static const struct {
    const char *in, *want;
  } cases[] = {
      {"boolean", "boolean"},
      {"TINYINT", "tinyint"},
      {"SmallInt", "smallint"},
      {"int", "int"},
      {"integer", "int"},
      {"bigint", "bigint"},
      {"float", "float"},
      {"double", "double"},
      {"double precision", "double"},
      {"DOUBLE   PRECISION", "double"},
      {"decimal", "decimal(10,0)"},
      {"decimal(5)", "decimal(5,0)"},
      {"decimal(10,2)", "decimal(10,2)"},
      {"DECIMAL ( 38 , 38 )", "decimal(38,38)"},
      {"dec(7,3)", "decimal(7,3)"},
      {"numeric(1,0)", "decimal(1,0)"},
      {"numeric", "decimal(10,0)"},
      {"string", "string"},
      {"varchar(20)", "varchar(20)"},
      {"varchar(65535)", "varchar(65535)"},
      {"char(5)", "char(5)"},
      {"char(255)", "char(255)"},
      {"binary", "binary"},
      {"date", "date"},
      {"timestamp", "timestamp"},
      {"  int  ", "int"},
      {"array<int>", "array<int>"},
      {"ARRAY < STRING >", "array<string>"},
      {"map<string,int>", "map<string,int>"},
      {" Map < String , Int > ", "map<string,int>"},
      {"map<decimal(5,1),date>", "map<decimal(5,1),date>"},
      {"struct<a:int>", "struct<a:int>"},
      {"struct< a : int , b : string >", "struct<a:int,b:string>"},
      {"struct<A:int,b_2:string>", "struct<A:int,b_2:string>"},
      {"struct<`a b`:int,`x``y`:string>", "struct<`a b`:int,`x``y`:string>"},
      {"struct<`select`:int>", "struct<select:int>"},
      {"struct<a$1:int,b.c:int>", "struct<`a$1`:int,`b.c`:int>"},
      {"struct<a:int comment 'the a',b:string>", "struct<a:int,b:string>"},
      {"map<string,array<struct<a:int,b:decimal(10,2)>>>",
       "map<string,array<struct<a:int,b:decimal(10,2)>>>"},
      {"MAP<STRING,ARRAY<STRUCT<A:INT,B:DECIMAL(10,2)>>>",
       "map<string,array<struct<A:int,B:decimal(10,2)>>>"},
      {"array<array<array<map<int,struct<x:array<timestamp>>>>>>",
       "array<array<array<map<int,struct<x:array<timestamp>>>>>>"},
      {"struct<a:struct<b:struct<c:map<bigint,varchar(3)>>>>",
       "struct<a:struct<b:struct<c:map<bigint,varchar(3)>>>>"},
      {"\tarray<\n  char(1)\n>", "array<char(1)>"},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cases); i++) {
    const char *got = roundtrip(cases[i].in);
    if (strcmp(got, cases[i].want) != 0) {
      fprintf(stderr, "  parse '%s': got '%s', want '%s'\n", cases[i].in, got,
              cases[i].want);
      chv_test_failed_ = 1;
    }
    /* The canonical form reads back to itself. */
    char again[4096];
    snprintf(again, sizeof again, "%s", cases[i].want);
    CHV_CHECK_STREQ(roundtrip(again), cases[i].want);
  }
}

static void test_type_errors(void) {
  static const struct {
    const char *in;
    int code;
    const char *msg; /* substring of the message */
  } cases[] = {
      {"", CHV_ESYNTAX, "column 0: expected a type name, found end of text"},
      {"   ", CHV_ESYNTAX, "expected a type name"},
      {"strin", CHV_ESYNTAX, "column 0: unknown type 'strin'"},
      {"array<strin>", CHV_ESYNTAX, "column 6: unknown type 'strin'"},
      {"uniontype<int,string>", CHV_ENOTSUP,
       "column 0: Hive type uniontype is not supported"},
      {"array<interval_day_time>", CHV_ENOTSUP,
       "column 6: Hive type interval_day_time is not supported"},
      {"timestamp with local time zone", CHV_ENOTSUP,
       "timestamp with local time zone is not supported"},
      {"array<int", CHV_ESYNTAX,
       "column 9: expected '>' after array element type, found end of text"},
      {"array<", CHV_ESYNTAX, "column 6: expected a type name"},
      {"array int", CHV_ESYNTAX, "column 5: expected '<' after array"},
      {"map<string int>", CHV_ESYNTAX,
       "type 'map<string int>' column 10: expected ',' after map key type"},
      {"map<string,int", CHV_ESYNTAX, "expected '>' after map value type"},
      {"map<array<int>,int>", CHV_ESYNTAX,
       "column 4: map key must be a primitive type, not array"},
      {"map<struct<a:int>,int>", CHV_ESYNTAX, "map key must be a primitive"},
      {"decimal(39,0)", CHV_ESYNTAX,
       "column 8: decimal precision 39 is outside 1..38"},
      {"decimal(0)", CHV_ESYNTAX, "decimal precision 0 is outside 1..38"},
      {"decimal(5,6)", CHV_ESYNTAX,
       "column 10: decimal scale 6 is larger than the precision 5"},
      {"decimal(5,", CHV_ESYNTAX, "expected a decimal scale"},
      {"decimal(5,2", CHV_ESYNTAX, "expected ')' after decimal parameters"},
      {"decimal(x)", CHV_ESYNTAX, "expected a decimal precision, found 'x'"},
      {"char(0)", CHV_ESYNTAX, "column 5: char length 0 is outside 1..255"},
      {"char(256)", CHV_ESYNTAX, "char length 256 is outside 1..255"},
      {"char", CHV_ESYNTAX, "expected '(' after char (a length is required)"},
      {"varchar(65536)", CHV_ESYNTAX,
       "varchar length 65536 is outside 1..65535"},
      {"varchar(0)", CHV_ESYNTAX, "varchar length 0 is outside 1..65535"},
      {"varchar(99999999999)", CHV_ESYNTAX, "outside 1..65535"},
      {"varchar", CHV_ESYNTAX, "expected '(' after varchar"},
      {"struct<a:int,a:int>", CHV_ESYNTAX,
       "column 13: duplicate field name 'a'"},
      {"struct<a:int,A:string>", CHV_ESYNTAX, "duplicate field name 'A'"},
      {"struct<>", CHV_ESYNTAX, "column 7: expected a field name in struct"},
      {"struct<a int>", CHV_ESYNTAX, "expected ':' after struct field name"},
      {"struct<a:int;b:int>", CHV_ESYNTAX,
       "column 12: expected '>' or ',' after struct field, found ';'"},
      {"struct<`a:int>", CHV_ESYNTAX, "column 7: unterminated back quote"},
      {"struct<``:int>", CHV_ESYNTAX, "empty field name"},
      {"int int", CHV_ESYNTAX, "column 3: unexpected 'i' after the type"},
      {"array<int>>", CHV_ESYNTAX, "column 10: unexpected '>'"},
      {"int,", CHV_ESYNTAX, "unexpected ','"},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cases); i++) {
    struct chv_type *t = NULL;
    struct chv_error err = {0};
    int rc = chv_type_parse(cases[i].in, &t, &err);
    if (rc != cases[i].code || strstr(err.msg, cases[i].msg) == NULL) {
      fprintf(stderr, "  parse '%s': rc %d msg '%s', want %d '%s'\n",
              cases[i].in, rc, err.msg, cases[i].code, cases[i].msg);
      chv_test_failed_ = 1;
    }
    CHV_CHECK(t == NULL); /* out written only on success */
    CHV_CHECK_EQ_INT(err.code, cases[i].code);
    CHV_CHECK_STREQ(err.sqlstate,
                    cases[i].code == CHV_ENOTSUP ? "0A000" : "42601");
  }
}

/* n nested array<...> around int. */
static char *nested_arrays(int n) {
  struct chv_buf b;
  chv_buf_init(&b);
  for (int i = 0; i < n; i++) chv_buf_puts(&b, "array<");
  chv_buf_puts(&b, "int");
  for (int i = 0; i < n; i++) chv_buf_putc(&b, '>');
  return chv_buf_detach(&b);
}

static void test_type_depth(void) {
  struct chv_type *t;
  struct chv_error err;
  char *ok = nested_arrays(CHV_TYPE_MAX_DEPTH);
  CHV_CHECK_OK(chv_type_parse(ok, &t, &err), &err);
  if (t) {
    struct chv_buf b;
    chv_buf_init(&b);
    CHV_CHECK_OK(chv_type_format(t, &b), NULL);
    CHV_CHECK_STREQ(b.data, ok);
    chv_buf_free(&b);
    chv_type_free(t);
  }
  chv_free(ok);

  char *deep = nested_arrays(CHV_TYPE_MAX_DEPTH + 1);
  CHV_CHECK_EQ_INT(chv_type_parse(deep, &t, &err), CHV_ESYNTAX);
  CHV_CHECK_CONTAINS(err.msg, "nested deeper than 64 levels");
  CHV_CHECK_CONTAINS(err.msg, "column 384:");
  chv_free(deep);

  deep = nested_arrays(200);
  CHV_CHECK_EQ_INT(chv_type_parse(deep, &t, &err), CHV_ESYNTAX);
  CHV_CHECK_CONTAINS(err.msg, "nested deeper than 64 levels");
  CHV_CHECK_CONTAINS(err.msg, "..."); /* long text is abbreviated */
  CHV_CHECK(strlen(err.msg) < 300);
  chv_free(deep);

  /* Mixed nesting counts too. */
  struct chv_buf b;
  chv_buf_init(&b);
  for (int i = 0; i < 100; i++)
    chv_buf_puts(&b, i % 3 == 0 ? "map<int," : i % 3 == 1 ? "struct<f:" : "array<");
  CHV_CHECK_EQ_INT(chv_type_parse(b.data, &t, &err), CHV_ESYNTAX);
  CHV_CHECK_CONTAINS(err.msg, "nested deeper");
  chv_buf_free(&b);
}

static void test_type_columns(void) {
  struct chv_type *t;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_type_parse_columns(
                     "a int, b map<string,int>,c  array<struct<x:date>>, "
                     "`d e` decimal(4,2) COMMENT 'money, really'",
                     &t, &err),
                 &err);
  CHV_CHECK_EQ_INT(t->id, CHV_TYPE_STRUCT);
  CHV_CHECK_EQ_INT(t->nchildren, 4);
  CHV_CHECK_STREQ(t->names[3], "d e");
  CHV_CHECK_EQ_INT(chv_type_field_index(t, "B"), 1);
  CHV_CHECK_EQ_INT(chv_type_field_index(t, "zz"), -1);
  struct chv_buf b;
  chv_buf_init(&b);
  chv_type_format(t, &b);
  CHV_CHECK_STREQ(b.data, "struct<a:int,b:map<string,int>,c:array<struct<x:"
                          "date>>,`d e`:decimal(4,2)>");
  chv_buf_free(&b);
  chv_type_free(t);

  CHV_CHECK_EQ_INT(chv_type_parse_columns("a int, A string", &t, &err),
                   CHV_ESYNTAX);
  CHV_CHECK_CONTAINS(err.msg, "column 7: duplicate field name 'A'");
  CHV_CHECK_EQ_INT(chv_type_parse_columns("a int b string", &t, &err),
                   CHV_ESYNTAX);
  CHV_CHECK_CONTAINS(err.msg, "column 5:");
  CHV_CHECK_EQ_INT(chv_type_parse_columns("", &t, &err), CHV_ESYNTAX);
  CHV_CHECK_EQ_INT(chv_type_parse_columns("a", &t, &err), CHV_ESYNTAX);
  CHV_CHECK_CONTAINS(err.msg, "expected a type name");
  CHV_CHECK_EQ_INT(chv_type_parse_columns("a int,", &t, &err), CHV_ESYNTAX);
  CHV_CHECK_OK(chv_type_parse_columns("x:int", &t, &err), &err);
  chv_type_free(t);
}

static void test_type_construct(void) {
  struct chv_type *st, *t, *k, *v, *m, *c;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_type_new(CHV_TYPE_STRUCT, &st), NULL);
  CHV_REQUIRE_OK(chv_type_new(CHV_TYPE_INT, &t), NULL);
  CHV_CHECK_OK(chv_type_struct_add(st, "id", t), NULL);
  CHV_REQUIRE_OK(chv_type_new(CHV_TYPE_STRING, &t), NULL);
  CHV_CHECK_EQ_INT(chv_type_struct_add(st, "ID", t), CHV_EEXIST); /* freed */
  CHV_REQUIRE_OK(chv_type_new_decimal(12, 4, &t, &err), &err);
  CHV_CHECK_OK(chv_type_struct_add(st, "amount", t), NULL);
  CHV_REQUIRE_OK(chv_type_new(CHV_TYPE_STRING, &k), NULL);
  CHV_REQUIRE_OK(chv_type_new_char(CHV_TYPE_VARCHAR, 7, &v, &err), &err);
  CHV_REQUIRE_OK(chv_type_new_array(v, &v), NULL);
  CHV_REQUIRE_OK(chv_type_new_map(k, v, &m, &err), &err);
  CHV_CHECK_OK(chv_type_struct_add(st, "tags", m), NULL);

  struct chv_buf b;
  chv_buf_init(&b);
  chv_type_format(st, &b);
  CHV_CHECK_STREQ(b.data,
                  "struct<id:int,amount:decimal(12,4),tags:map<string,array<"
                  "varchar(7)>>>");
  CHV_REQUIRE_OK(chv_type_clone(st, &c), NULL);
  CHV_CHECK(chv_type_equal(st, c));
  struct chv_type *p;
  CHV_REQUIRE_OK(chv_type_parse(b.data, &p, &err), &err);
  CHV_CHECK(chv_type_equal(st, p));
  c->children[1]->scale = 3;
  CHV_CHECK(!chv_type_equal(st, c));
  chv_type_free(p);
  chv_type_free(c);
  chv_buf_free(&b);
  chv_type_free(st);

  /* Errors of the constructors. */
  CHV_CHECK_EQ_INT(chv_type_new_decimal(39, 0, &t, &err), CHV_EINVAL);
  CHV_CHECK_EQ_INT(chv_type_new_decimal(5, 6, &t, &err), CHV_EINVAL);
  CHV_CHECK_EQ_INT(chv_type_new_char(CHV_TYPE_CHAR, 256, &t, &err), CHV_EINVAL);
  CHV_CHECK_EQ_INT(chv_type_new_char(CHV_TYPE_INT, 2, &t, &err), CHV_EINVAL);
  CHV_CHECK_EQ_INT(chv_type_new(CHV_TYPE_ARRAY, &t), CHV_EINVAL);
  CHV_REQUIRE_OK(chv_type_new(CHV_TYPE_INT, &v), NULL);
  CHV_REQUIRE_OK(chv_type_new_array(v, &k), NULL);
  CHV_REQUIRE_OK(chv_type_new(CHV_TYPE_INT, &v), NULL);
  CHV_CHECK_EQ_INT(chv_type_new_map(k, v, &m, &err), CHV_ETYPE); /* both freed */
  CHV_REQUIRE_OK(chv_type_new(CHV_TYPE_DECIMAL, &t), NULL);
  CHV_CHECK_EQ_INT(t->precision, 10);
  CHV_CHECK_EQ_INT(t->scale, 0);
  chv_type_free(t);

  /* Names and widths. */
  CHV_CHECK_STREQ(chv_type_id_name(CHV_TYPE_BIGINT), "bigint");
  CHV_CHECK_STREQ(chv_type_id_name(CHV_TYPE_COUNT), "unknown");
  CHV_CHECK_EQ_INT(chv_type_fixed_width(CHV_TYPE_DECIMAL), 16);
  CHV_CHECK_EQ_INT(chv_type_fixed_width(CHV_TYPE_TIMESTAMP), 16);
  CHV_CHECK_EQ_INT(chv_type_fixed_width(CHV_TYPE_BOOLEAN), 0);
  CHV_CHECK_EQ_INT(chv_type_fixed_width(CHV_TYPE_STRING), 0);
  CHV_CHECK(chv_type_is_string_like(CHV_TYPE_CHAR));
  CHV_CHECK(!chv_type_is_string_like(CHV_TYPE_DATE));
  CHV_CHECK(chv_type_is_primitive(CHV_TYPE_TIMESTAMP));
  CHV_CHECK(!chv_type_is_primitive(CHV_TYPE_MAP));
}

/* Every allocation failure while parsing and cloning is CHV_ENOMEM with
** nothing leaked (leaks are caught by LeakSanitizer). */
static void test_type_oom(void) {
  const char *text =
      "struct<a:map<string,array<struct<a:int,b:decimal(10,2)>>>,`q r`:int>";
  int fails = 0;
  for (long n = 1; n < 1000; n++) {
    struct chv_type *t = NULL, *c = NULL;
    struct chv_error err;
    chv_alloc_fail_after(n);
    int rc = chv_type_parse(text, &t, &err);
    if (rc == CHV_OK) rc = chv_type_clone(t, &c);
    chv_alloc_fail_after(0);
    if (rc == CHV_OK) {
      CHV_CHECK(chv_type_equal(t, c));
      chv_type_free(t);
      chv_type_free(c);
      break;
    }
    CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
    chv_type_free(t);
    fails++;
  }
  CHV_CHECK(fails > 10);
}

/* ---- dates ------------------------------------------------------------- */

static void test_date_ymd(void) {
  CHV_CHECK_EQ_INT(chv_date_from_ymd(1970, 1, 1), 0);
  CHV_CHECK_EQ_INT(chv_date_from_ymd(1969, 12, 31), -1);
  CHV_CHECK_EQ_INT(chv_date_from_ymd(2000, 3, 1), 11017);
  CHV_CHECK_EQ_INT(chv_date_from_ymd(1, 1, 1), -719162);
  CHV_CHECK_EQ_INT(chv_date_from_ymd(9999, 12, 31), 2932896);
  CHV_CHECK_EQ_INT(chv_date_from_ymd(1582, 10, 15), -141427);
  CHV_CHECK_EQ_INT(chv_date_from_ymd(1582, 10, 4), -141438); /* proleptic */
  /* Every day of 0001..9999 converts back to itself, in order. */
  int32_t prev = chv_date_from_ymd(1, 1, 1) - 1;
  int bad = 0;
  for (int y = 1; y <= 9999 && !bad; y++) {
    for (int m = 1; m <= 12; m++) {
      int dim = m == 2 ? ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28)
                : (m == 4 || m == 6 || m == 9 || m == 11) ? 30
                                                          : 31;
      for (int d = 1; d <= dim; d++) {
        int32_t days = chv_date_from_ymd(y, m, d);
        int yy, mm, dd;
        chv_date_to_ymd(days, &yy, &mm, &dd);
        if (days != prev + 1 || yy != y || mm != m || dd != d) bad = 1;
        prev = days;
      }
    }
  }
  CHV_CHECK(!bad);
}

static void test_date_parse_format(void) {
  static const struct {
    const char *in;
    int rc;
    const char *out;
  } cases[] = {
      {"1970-01-01", CHV_OK, "1970-01-01"},
      {"2024-02-29", CHV_OK, "2024-02-29"},
      {"2000-02-29", CHV_OK, "2000-02-29"},
      {"1900-02-29", CHV_EINVAL, NULL},
      {"2023-02-29", CHV_EINVAL, NULL},
      {"2023-02-30", CHV_EINVAL, NULL},
      {"2023-04-31", CHV_EINVAL, NULL},
      {"2023-13-01", CHV_EINVAL, NULL},
      {"2023-00-10", CHV_EINVAL, NULL},
      {"2023-01-00", CHV_EINVAL, NULL},
      {"0001-01-01", CHV_OK, "0001-01-01"},
      {"9999-12-31", CHV_OK, "9999-12-31"},
      {"0000-12-31", CHV_EINVAL, NULL},
      {"10000-01-01", CHV_EINVAL, NULL},
      {"2020-1-5", CHV_OK, "2020-01-05"},
      {"  2020-01-05  ", CHV_OK, "2020-01-05"},
      {"2020-01-05 12:34:56", CHV_OK, "2020-01-05"},
      {"2020-01-05T12:34:56.789", CHV_OK, "2020-01-05"},
      {"2020-01-05T09:39:27Z", CHV_OK, "2020-01-05"},
      {"2020-01-05T09:39:27+00:00", CHV_OK, "2020-01-05"},
      {"2020-01-05 25:00:00", CHV_OK, "2020-01-05"}, /* dropped unread */
      {"2020-01-05x", CHV_OK, "2020-01-05"},
      {"2023-08-0800", CHV_EINVAL, NULL},
      {"2023-08-123", CHV_EINVAL, NULL},
      {"12345-01-01", CHV_EINVAL, NULL},
      {"2020/01/05", CHV_EINVAL, NULL},
      {"2020-01-", CHV_EINVAL, NULL},
      {"", CHV_EINVAL, NULL},
      {"abc", CHV_EINVAL, NULL},
      {"-2020-01-01", CHV_EINVAL, NULL},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cases); i++) {
    int32_t d = 12345;
    int rc = chv_date_parse(cases[i].in, strlen(cases[i].in), &d);
    if (rc != cases[i].rc) {
      fprintf(stderr, "  date '%s': rc %d, want %d\n", cases[i].in, rc,
              cases[i].rc);
      chv_test_failed_ = 1;
      continue;
    }
    if (rc != CHV_OK) {
      CHV_CHECK_EQ_INT(d, 12345); /* untouched */
      continue;
    }
    char buf[16];
    int n = chv_date_format(d, buf);
    CHV_CHECK_STREQ(buf, cases[i].out);
    CHV_CHECK_EQ_INT(n, 10);
  }
  /* Parsing honours the length, not a NUL. */
  int32_t d;
  CHV_CHECK_OK(chv_date_parse("2021-03-04|junk", 10, &d), NULL);
  CHV_CHECK_EQ_INT(d, chv_date_from_ymd(2021, 3, 4));
}

/* ---- timestamps -------------------------------------------------------- */

static void test_timestamp(void) {
  static const struct {
    const char *in;
    int rc;
    const char *out;
  } cases[] = {
      {"2020-01-01 00:00:00", CHV_OK, "2020-01-01 00:00:00"},
      {"2020-01-01 00:00:00.5", CHV_OK, "2020-01-01 00:00:00.5"},
      {"2020-01-01 00:00:00.500", CHV_OK, "2020-01-01 00:00:00.5"},
      {"2020-01-01 00:00:00.000", CHV_OK, "2020-01-01 00:00:00"},
      {"2020-01-01 00:00:00.123456789", CHV_OK,
       "2020-01-01 00:00:00.123456789"},
      {"2020-01-01 00:00:00.000000001", CHV_OK,
       "2020-01-01 00:00:00.000000001"},
      {"2020-01-01 00:00:00.1234567891", CHV_EINVAL, NULL},
      {"2020-01-01 00:00:00.", CHV_EINVAL, NULL},
      {"2020-01-01T10:20:30", CHV_OK, "2020-01-01 10:20:30"},
      {"2020-01-01", CHV_OK, "2020-01-01 00:00:00"},
      {"2020-1-2 3:4:5", CHV_OK, "2020-01-02 03:04:05"},
      {"2020-01-02 03:04", CHV_EINVAL, NULL}, /* seconds needed here */
      {"2020-01-02T03:04", CHV_OK, "2020-01-02 03:04:00"}, /* not in ISO */
      {" 2020-01-02 03:04:05 ", CHV_OK, "2020-01-02 03:04:05"},
      {"1969-12-31 23:59:59.999", CHV_OK, "1969-12-31 23:59:59.999"},
      {"0001-01-01 00:00:00", CHV_OK, "0001-01-01 00:00:00"},
      {"9999-12-31 23:59:59.999999999", CHV_OK,
       "9999-12-31 23:59:59.999999999"},
      {"2024-02-29 12:00:00", CHV_OK, "2024-02-29 12:00:00"},
      {"2023-02-29 12:00:00", CHV_EINVAL, NULL},
      {"2020-01-01 24:00:00", CHV_EINVAL, NULL},
      {"2020-01-01 23:60:00", CHV_EINVAL, NULL},
      {"2020-01-01 23:59:60", CHV_EINVAL, NULL},
      {"2020-01-01 12", CHV_EINVAL, NULL},
      {"2020-01-01 12:00:00 x", CHV_EINVAL, NULL},
      {"2020-01-01  12:00:00", CHV_EINVAL, NULL},
      {"not a time", CHV_EINVAL, NULL},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cases); i++) {
    struct chv_timestamp ts = {0, 0, 0};
    int rc = chv_timestamp_parse(cases[i].in, strlen(cases[i].in), &ts);
    if (rc != cases[i].rc) {
      fprintf(stderr, "  timestamp '%s': rc %d, want %d\n", cases[i].in, rc,
              cases[i].rc);
      chv_test_failed_ = 1;
      continue;
    }
    if (rc != CHV_OK) continue;
    char buf[40];
    chv_timestamp_format(ts, buf);
    CHV_CHECK_STREQ(buf, cases[i].out);
    CHV_CHECK_EQ_INT(ts.pad_, 0);
    CHV_CHECK(ts.nanos >= 0 && ts.nanos < 1000000000);
  }
  struct chv_timestamp ts;
  CHV_REQUIRE_OK(chv_timestamp_parse("1970-01-01 00:00:01.25", 22, &ts), NULL);
  CHV_CHECK_EQ_INT(ts.seconds, 1);
  CHV_CHECK_EQ_INT(ts.nanos, 250000000);
  CHV_REQUIRE_OK(chv_timestamp_parse("1969-12-31 23:59:59.75", 22, &ts), NULL);
  CHV_CHECK_EQ_INT(ts.seconds, -1);
  CHV_CHECK_EQ_INT(ts.nanos, 750000000);
  CHV_REQUIRE_OK(chv_timestamp_parse("0001-01-01 00:00:00", 19, &ts), NULL);
  CHV_CHECK_EQ_INT(ts.seconds, -62135596800LL);
  CHV_REQUIRE_OK(chv_timestamp_parse("9999-12-31 23:59:59", 19, &ts), NULL);
  CHV_CHECK_EQ_INT(ts.seconds, 253402300799LL);
}

/* ---- decimals ---------------------------------------------------------- */

static void test_decimal_parse(void) {
  static const struct {
    const char *in;
    int p, s;
    int rc;
    const char *out;
  } cases[] = {
      {"12.3", 10, 2, CHV_OK, "12.30"},
      {"-0.05", 10, 2, CHV_OK, "-0.05"},
      {"+7", 5, 0, CHV_OK, "7"},
      {"12.345", 10, 2, CHV_OK, "12.35"},   /* half up */
      {"12.344", 10, 2, CHV_OK, "12.34"},
      {"-12.345", 10, 2, CHV_OK, "-12.35"}, /* away from zero */
      {"-1.005", 10, 2, CHV_OK, "-1.01"},
      {"0.005", 10, 2, CHV_OK, "0.01"},
      {"0.004999", 10, 2, CHV_OK, "0.00"},
      /* HiveDecimal keeps 38 digits, rounding at the 39th, before the
      ** scale is enforced: 0.00 followed by 36 nines and more rounds to
      ** 0.005 first and then to 0.01. */
      {"0.00499999999999999999999999999999999999", 10, 2, CHV_OK, "0.00"},
      {"0.004999999999999999999999999999999999999", 10, 2, CHV_OK, "0.01"},
      {"0.0049999999999999999999999999999999999999999", 10, 2, CHV_OK,
       "0.01"},
      {"0.00000000000000000000000000000000000000000001", 38, 38, CHV_OK,
       "0.00000000000000000000000000000000000000"},
      {"0.000000000000000000000000000000000000005", 38, 38, CHV_OK,
       "0.00000000000000000000000000000000000001"},
      {"123456789012345678901234567890123456789e-5", 38, 0, CHV_ERANGE,
       NULL}, /* 39 integer digits are too many before the exponent too */
      {"12345678901234567890123456789012345678e-5", 38, 5, CHV_OK,
       "123456789012345678901234567890123.45678"},
      {"1e99", 38, 0, CHV_ERANGE, NULL},
      {"1e-99", 38, 10, CHV_OK, "0.0000000000"},
      {"1e007", 10, 0, CHV_OK, "10000000"},
      {"2.5", 10, 0, CHV_OK, "3"},
      {"-2.5", 10, 0, CHV_OK, "-3"},
      {"0.5", 1, 0, CHV_OK, "1"},
      {"0.4", 1, 0, CHV_OK, "0"},
      {"-0", 5, 2, CHV_OK, "0.00"},
      {"000123.4500", 10, 3, CHV_OK, "123.450"},
      {".5", 4, 2, CHV_OK, "0.50"},
      {"5.", 4, 2, CHV_OK, "5.00"},
      {"1e3", 10, 2, CHV_OK, "1000.00"},
      {"1.5E-2", 10, 3, CHV_OK, "0.015"},
      {"1.5e-3", 10, 2, CHV_OK, "0.00"},
      {"-9e-1", 10, 0, CHV_OK, "-1"},
      {"123e-5", 10, 5, CHV_OK, "0.00123"},
      {"1e+2", 3, 0, CHV_OK, "100"},
      {"1e3", 3, 0, CHV_ERANGE, NULL},
      {"1e100", 38, 0, CHV_EINVAL, NULL}, /* Hive: 2 exponent digits */
      {"1e-100000000", 38, 10, CHV_EINVAL, NULL},
      {"99.99", 4, 2, CHV_OK, "99.99"},
      {"100", 4, 2, CHV_ERANGE, NULL},
      {"99.995", 4, 2, CHV_ERANGE, NULL}, /* rounds to 100.00 */
      {"99.994", 4, 2, CHV_OK, "99.99"},
      {"-99.995", 4, 2, CHV_ERANGE, NULL},
      {" 42 ", 5, 1, CHV_OK, "42.0"},
      {"\t42", 5, 1, CHV_EINVAL, NULL}, /* blanks only, as HiveDecimal */
      {"99999999999999999999999999999999999999", 38, 0, CHV_OK,
       "99999999999999999999999999999999999999"},
      {"-99999999999999999999999999999999999999", 38, 0, CHV_OK,
       "-99999999999999999999999999999999999999"},
      {"100000000000000000000000000000000000000", 38, 0, CHV_ERANGE, NULL},
      {"99999999999999999999999999999999999999.5", 38, 0, CHV_ERANGE, NULL},
      {"0.12345678901234567890123456789012345678", 38, 38, CHV_OK,
       "0.12345678901234567890123456789012345678"},
      {"0.123456789012345678901234567890123456785", 38, 38, CHV_OK,
       "0.12345678901234567890123456789012345679"},
      {"1.23456789012345678901234567890123456789", 38, 37, CHV_OK,
       "1.2345678901234567890123456789012345679"},
      {"1", 38, 38, CHV_ERANGE, NULL},
      {"", 10, 2, CHV_EINVAL, NULL},
      {".", 10, 2, CHV_EINVAL, NULL},
      {"-", 10, 2, CHV_EINVAL, NULL},
      {"1.2.3", 10, 2, CHV_EINVAL, NULL},
      {"1e", 10, 2, CHV_EINVAL, NULL},
      {"e5", 10, 2, CHV_EINVAL, NULL},
      {"12a", 10, 2, CHV_EINVAL, NULL},
      {"1 2", 10, 2, CHV_EINVAL, NULL},
      {"nan", 10, 2, CHV_EINVAL, NULL},
      {"1", 0, 0, CHV_EINVAL, NULL},
      {"1", 39, 0, CHV_EINVAL, NULL},
      {"1", 5, 6, CHV_EINVAL, NULL},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cases); i++) {
    chv_i128 v = 77;
    int rc = chv_decimal_parse(cases[i].in, strlen(cases[i].in), cases[i].p,
                               cases[i].s, &v);
    if (rc != cases[i].rc) {
      fprintf(stderr, "  decimal '%s' (%d,%d): rc %d, want %d\n", cases[i].in,
              cases[i].p, cases[i].s, rc, cases[i].rc);
      chv_test_failed_ = 1;
      continue;
    }
    if (rc != CHV_OK) {
      CHV_CHECK(v == 77);
      continue;
    }
    char buf[48];
    chv_decimal_format(v, cases[i].s, buf);
    if (strcmp(buf, cases[i].out) != 0) {
      fprintf(stderr, "  decimal '%s' (%d,%d): got %s, want %s\n",
              cases[i].in, cases[i].p, cases[i].s, buf, cases[i].out);
      chv_test_failed_ = 1;
    }
  }
}

static void test_decimal_format(void) {
  char buf[48];
  CHV_CHECK_EQ_INT(chv_decimal_format(1230, 2, buf), 5);
  CHV_CHECK_STREQ(buf, "12.30");
  chv_decimal_format(-5, 2, buf);
  CHV_CHECK_STREQ(buf, "-0.05");
  chv_decimal_format(0, 0, buf);
  CHV_CHECK_STREQ(buf, "0");
  chv_decimal_format(0, 3, buf);
  CHV_CHECK_STREQ(buf, "0.000");
  chv_decimal_format(-7, 0, buf);
  CHV_CHECK_STREQ(buf, "-7");
  chv_decimal_format(1, 38, buf);
  CHV_CHECK_STREQ(buf, "0.00000000000000000000000000000000000001");
  /* The extremes of the 128-bit range print without overflow. */
  chv_i128 min = (chv_i128)((unsigned __int128)1 << 127);
  chv_decimal_format(min, 0, buf);
  CHV_CHECK_STREQ(buf, "-170141183460469231731687303715884105728");
  chv_decimal_format(min, 38, buf);
  CHV_CHECK_STREQ(buf, "-1.70141183460469231731687303715884105728");
  chv_decimal_format(-(min + 1), 10, buf);
  CHV_CHECK_STREQ(buf, "17014118346046923173168730371.5884105727");
}

/* Deterministic pseudo-random numbers for the property tests. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* Mutated type strings either parse to something that formats and parses
** back to an equal type, or fail with a syntax error and a message. */
static void test_type_mutations(void) {
  static const char *const seeds[] = {
      "map<string,array<struct<a:int,b:decimal(10,2)>>>",
      "struct<`a b`:varchar(20),c:char(5),d:map<date,timestamp>>",
      "array<array<map<bigint,struct<x:double,y:binary>>>>",
      "decimal(38,37)",
  };
  static const char alphabet[] = "<>(),:` abcdeilmnprstuy0123456789";
  int ok = 0, bad = 0;
  for (int iter = 0; iter < 20000; iter++) {
    char buf[128];
    snprintf(buf, sizeof buf, "%s", seeds[rng() % CHV_ARRAY_SIZE(seeds)]);
    size_t n = strlen(buf);
    int edits = 1 + (int)(rng() % 3);
    for (int e = 0; e < edits && n > 0; e++) {
      size_t at = rng() % n;
      switch (rng() % 3) {
      case 0: buf[at] = alphabet[rng() % (sizeof alphabet - 1)]; break;
      case 1: memmove(buf + at, buf + at + 1, n - at); n--; break;
      default:
        if (n + 1 < sizeof buf) {
          memmove(buf + at + 1, buf + at, n - at + 1);
          buf[at] = alphabet[rng() % (sizeof alphabet - 1)];
          n++;
        }
      }
    }
    struct chv_type *t, *t2;
    struct chv_error err;
    int rc = chv_type_parse(buf, &t, &err);
    if (rc != CHV_OK) {
      if ((rc != CHV_ESYNTAX && rc != CHV_ENOTSUP) ||
          strstr(err.msg, " column ") == NULL) {
        fprintf(stderr, "  '%s': rc %d '%s'\n", buf, rc, err.msg);
        chv_test_failed_ = 1;
      }
      bad++;
      continue;
    }
    struct chv_buf f;
    chv_buf_init(&f);
    CHV_CHECK_OK(chv_type_format(t, &f), NULL);
    rc = chv_type_parse(f.data, &t2, &err);
    if (rc != CHV_OK || !chv_type_equal(t, t2)) {
      fprintf(stderr, "  '%s' -> '%s' does not read back\n", buf, f.data);
      chv_test_failed_ = 1;
    } else {
      chv_type_free(t2);
    }
    chv_buf_free(&f);
    chv_type_free(t);
    ok++;
  }
  CHV_CHECK(ok > 100 && bad > 100);
}

/* Random values format and parse back to themselves. */
static void test_value_roundtrips(void) {
  int bad = 0;
  for (int i = 0; i < 20000; i++) {
    /* Decimals of every precision and scale. */
    int p = 1 + (int)(rng() % 38), sc = (int)(rng() % (unsigned)(p + 1));
    unsigned __int128 lim = 1;
    for (int k = 0; k < p; k++) lim *= 10;
    unsigned __int128 r = ((unsigned __int128)rng() << 64 | rng()) % lim;
    chv_i128 v = (rng() & 1) ? -(chv_i128)r : (chv_i128)r, back;
    char buf[64];
    int n = chv_decimal_format(v, sc, buf);
    if (chv_decimal_parse(buf, (size_t)n, p, sc, &back) != CHV_OK || back != v)
      bad++;
    /* Dates of 0001..9999 and timestamps with nanoseconds. */
    int32_t lo = chv_date_from_ymd(1, 1, 1), hi = chv_date_from_ymd(9999, 12, 31);
    int32_t d = lo + (int32_t)(rng() % (uint64_t)(hi - lo + 1)), d2;
    n = chv_date_format(d, buf);
    if (chv_date_parse(buf, (size_t)n, &d2) != CHV_OK || d2 != d) bad++;
    struct chv_timestamp ts = {(int64_t)d * 86400 + (int64_t)(rng() % 86400),
                               (int32_t)(rng() % 1000000000), 0},
                         ts2;
    if (rng() & 1) ts.nanos = (ts.nanos / 1000) * 1000;
    n = chv_timestamp_format(ts, buf);
    if (chv_timestamp_parse(buf, (size_t)n, &ts2) != CHV_OK ||
        ts2.seconds != ts.seconds || ts2.nanos != ts.nanos)
      bad++;
  }
  CHV_CHECK_EQ_INT(bad, 0);
}

CHV_TEST_MAIN("types", test_type_mutations, test_value_roundtrips, test_type_roundtrip, test_type_errors, test_type_depth,
              test_type_columns, test_type_construct, test_type_oom,
              test_date_ymd, test_date_parse_format, test_timestamp,
              test_decimal_parse, test_decimal_format)
