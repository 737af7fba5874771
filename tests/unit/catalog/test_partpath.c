/* Tests of src/catalog/partpath.c: Hive's partition path escaping, names and
** default locations. */
#include "chv_test.h"
#include "catalog/catalog.h"

static char *esc(const char *v) {
  struct chv_buf b;
  chv_buf_init(&b);
  if (chv_partition_escape(v, &b) != CHV_OK) return NULL;
  return chv_buf_detach(&b);
}

static char *unesc(const char *s) {
  struct chv_buf b;
  chv_buf_init(&b);
  if (chv_partition_unescape(s, strlen(s), &b) != CHV_OK) return NULL;
  if (b.data == NULL) return chv_strdup("");
  return chv_buf_detach(&b);
}

static void test_escape_each_special_char(void) {
  /* Hive's FileUtils.charToEscape, with the escapes it writes */
  static const struct {
    char c;
    const char *want;
  } cases[] = {{'"', "%22"}, {'#', "%23"}, {'%', "%25"}, {'\'', "%27"},
               {'*', "%2A"}, {'/', "%2F"}, {':', "%3A"}, {'=', "%3D"},
               {'?', "%3F"}, {'\\', "%5C"}, {0x7F, "%7F"}, {'{', "%7B"},
               {'[', "%5B"}, {']', "%5D"}, {'^', "%5E"}};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cases); i++) {
    char in[4] = {'a', cases[i].c, 'b', 0};
    char want[8];
    snprintf(want, sizeof want, "a%sb", cases[i].want);
    char *got = esc(in);
    CHV_CHECK_STREQ(got, want);
    chv_free(got);
  }
  /* every control character 0x01-0x1F, upper-case hex */
  for (int c = 1; c < 0x20; c++) {
    char in[2] = {(char)c, 0}, want[4];
    snprintf(want, sizeof want, "%%%02X", c);
    char *got = esc(in);
    CHV_CHECK_STREQ(got, want);
    chv_free(got);
  }
  /* what is not escaped */
  const char *plain = " !$&()+,-.;<>@_`|}~azAZ09";
  char *got = esc(plain);
  CHV_CHECK_STREQ(got, plain);
  chv_free(got);
  got = esc("2020-01-01 10:00:00");
  CHV_CHECK_STREQ(got, "2020-01-01 10%3A00%3A00");
  chv_free(got);
}

static void test_escape_unicode_and_default(void) {
  const char *u = "caf\xc3\xa9 \xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x98\x80";
  char *got = esc(u);
  CHV_CHECK_STREQ(got, u);
  chv_free(got);
  got = esc(NULL);
  CHV_CHECK_STREQ(got, "__HIVE_DEFAULT_PARTITION__");
  chv_free(got);
  got = esc("");
  CHV_CHECK_STREQ(got, "__HIVE_DEFAULT_PARTITION__");
  chv_free(got);
}

static void test_round_trip(void) {
  char all[256];
  int n = 0;
  for (int c = 1; c < 256; c++) all[n++] = (char)c;
  all[n] = 0;
  char *e = esc(all);
  CHV_REQUIRE(e != NULL);
  CHV_CHECK(strchr(e, '/') == NULL && strchr(e, '=') == NULL);
  char *d = unesc(e);
  CHV_CHECK_STREQ(d, all);
  chv_free(e);
  chv_free(d);
  /* lower-case hex decodes too; a stray % stays */
  d = unesc("a%2fb%zz%4");
  CHV_CHECK_STREQ(d, "a/b%zz%4");
  chv_free(d);
  d = unesc("%41%");
  CHV_CHECK_STREQ(d, "A%");
  chv_free(d);
}

static void test_partition_path(void) {
  char *keys[] = {"DT", "Hr", "c"};
  char *vals[] = {"2024-01-02", "a/b=c", NULL};
  char *p = chv_partition_path(keys, vals, 3);
  CHV_CHECK_STREQ(p, "dt=2024-01-02/hr=a%2Fb%3Dc/c=__HIVE_DEFAULT_PARTITION__");
  char **k, **v;
  int n;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_partition_parse_path(p, &k, &v, &n, &err), &err);
  CHV_REQUIRE(n == 3);
  CHV_CHECK_STREQ(k[0], "dt");
  CHV_CHECK_STREQ(k[1], "hr");
  CHV_CHECK_STREQ(v[0], "2024-01-02");
  CHV_CHECK_STREQ(v[1], "a/b=c");
  CHV_CHECK(v[2] == NULL);
  chv_strv_free(k, n);
  chv_strv_free(v, n);
  chv_free(p);

  char *k1[] = {"a"}, *v1[] = {""};
  p = chv_partition_path(k1, v1, 1);
  CHV_CHECK_STREQ(p, "a=__HIVE_DEFAULT_PARTITION__");
  chv_free(p);

  CHV_REQUIRE_OK(chv_partition_parse_path("/a=1//b=x%2Fy/", &k, &v, &n, &err),
                 &err);
  CHV_REQUIRE(n == 2);
  CHV_CHECK_STREQ(v[1], "x/y");
  chv_strv_free(k, n);
  chv_strv_free(v, n);

  CHV_CHECK_EQ_INT(chv_partition_parse_path("a=1/nokey", &k, &v, &n, &err),
                   CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "nokey");
  CHV_CHECK_EQ_INT(chv_partition_parse_path("=1", &k, &v, &n, &err),
                   CHV_EINVAL);
}

static void test_default_locations(void) {
  char *p = chv_table_default_location("/wh", "default", "T1");
  CHV_CHECK_STREQ(p, "/wh/t1");
  chv_free(p);
  p = chv_table_default_location("/wh/", "Sales", "orders");
  CHV_CHECK_STREQ(p, "/wh/sales.db/orders");
  chv_free(p);
  p = chv_database_default_location("/wh", "DEFAULT");
  CHV_CHECK_STREQ(p, "/wh");
  chv_free(p);
  p = chv_database_default_location("/wh", "x");
  CHV_CHECK_STREQ(p, "/wh/x.db");
  chv_free(p);
}

CHV_TEST_MAIN("partpath", test_escape_each_special_char,
              test_escape_unicode_and_default, test_round_trip,
              test_partition_path, test_default_locations)
