/* Tests of src/format/text: LazySimpleSerDe reading and writing. Values are
** compared through the JSON Lines printer, which is tested here too. */
#include "chv_test.h"
#include "format/text/jsonl.h"
#include "format/text/text.h"

#include <lz4.h>
#include <lz4frame.h>
#include <snappy-c.h>
#include <zstd.h>

static char *write_tmp(const char *name, const void *p, size_t n) {
  static char path[700];
  snprintf(path, sizeof path, "%s/%s", chv_test_tmpdir(), name);
  FILE *f = fopen(path, "wb");
  if (f == NULL) return NULL;
  fwrite(p, 1, n, f);
  fclose(f);
  return path;
}

/* Read the whole file (or range) as JSON Lines into a malloc'd string. */
static char *read_jsonl(const char *path, const char *columns,
                        const struct chv_text_options *o,
                        struct chv_text_stats *st, int64_t batch_cap,
                        struct chv_error *err) {
  struct chv_type *schema;
  if (chv_type_parse_columns(columns, &schema, err) != CHV_OK) return NULL;
  chv_text_reader *r = NULL;
  struct chv_batch *b = NULL;
  struct chv_buf out;
  chv_buf_init(&out);
  char *res = NULL;
  if (chv_text_reader_open(chv_fs_local(), path, schema, o, &r, err) != CHV_OK)
    goto done;
  /* A fresh batch each time, exported and checked against Arrow's rules. */
  for (;;) {
    int64_t n;
    if (chv_batch_open(chv_text_reader_schema(r), batch_cap, &b, err) !=
        CHV_OK)
      goto done;
    if (chv_text_reader_next(r, b, &n, err) != CHV_OK) goto done;
    if (n == 0) break;
    for (int64_t i = 0; i < n; i++) chv_jsonl_row(b, i, &out);
    struct ArrowSchema as;
    struct ArrowArray aa;
    if (chv_batch_export_schema(b, &as, err) != CHV_OK) goto done;
    if (chv_batch_export(&b, &aa, err) != CHV_OK) {
      as.release(&as);
      goto done;
    }
    int vrc = chv_arrow_validate(&as, &aa, err);
    aa.release(&aa);
    as.release(&as);
    if (vrc != CHV_OK) {
      fprintf(stderr, "invalid batch: %s\n", err->msg);
      goto done;
    }
  }
  if (st) chv_text_reader_stats(r, st);
  res = out.data ? chv_buf_detach(&out) : chv_strdup("");
done:
  chv_buf_free(&out);
  chv_batch_close(b);
  chv_text_reader_close(r);
  chv_type_free(schema);
  return res;
}

#define CHECK_JSONL(path, cols, opts, want)                                   \
  do {                                                                        \
    struct chv_error e_;                                                      \
    char *got_ = read_jsonl(path, cols, opts, NULL, 1024, &e_);               \
    if (got_ == NULL) fprintf(stderr, "read failed: %s\n", e_.msg);           \
    CHV_CHECK_STREQ(got_, want);                                              \
    chv_free(got_);                                                           \
  } while (0)

static void test_primitives_default(void) {
  const char data[] =
      "true\0011\0012\0013\0014\0011.5\0012.25\00112.3\001hi\001v\001c"
      "\001aGk=\0012020-02-29\0012020-01-02 03:04:05.120\n"
      "FALSE\001-128\001-32768\001-2147483648\001-9223372036854775808\001NaN"
      "\001-Infinity\001-0.005\001\001toolongvarchar\001c\001\0010001-01-01"
      "\0019999-12-31 23:59:59.999999\n"
      "\\N\001\\N\001\\N\001\\N\001\\N\001\\N\001\\N\001\\N\001\\N\001\\N"
      "\001\\N\001\\N\001\\N\001\\N\n";
  char *p = write_tmp("prim.txt", data, sizeof data - 1);
  CHECK_JSONL(p,
              "b boolean, t tinyint, s smallint, i int, l bigint, f float, "
              "d double, m decimal(5,2), st string, vc varchar(4), ch char(3), "
              "bi binary, dt date, ts timestamp",
              NULL,
              "{\"b\":true,\"t\":1,\"s\":2,\"i\":3,\"l\":4,\"f\":1.5,\"d\":2.25,"
              "\"m\":\"12.30\",\"st\":\"hi\",\"vc\":\"v\",\"ch\":\"c  \","
              "\"bi\":\"aGk=\",\"dt\":\"2020-02-29\",\"ts\":\"2020-01-02 "
              "03:04:05.12\"}\n"
              "{\"b\":false,\"t\":-128,\"s\":-32768,\"i\":-2147483648,"
              "\"l\":-9223372036854775808,\"f\":\"NaN\",\"d\":\"-Infinity\","
              "\"m\":\"-0.01\",\"st\":\"\",\"vc\":\"tool\",\"ch\":\"c  \","
              "\"bi\":\"\",\"dt\":\"0001-01-01\",\"ts\":\"9999-12-31 "
              "23:59:59.999999\"}\n"
              "{\"b\":null,\"t\":null,\"s\":null,\"i\":null,\"l\":null,"
              "\"f\":null,\"d\":null,\"m\":null,\"st\":null,\"vc\":null,"
              "\"ch\":null,\"bi\":null,\"dt\":null,\"ts\":null}\n");
}

static void test_malformed_counted(void) {
  const char data[] = "128\001x\0011.9\001yes\001123456.5\0012020-13-01\n"
                      "\001\001-1.\001True\0011e2\001\n"
                      "+5\0012147483648\001.\001false\001\\N\001x\n";
  char *p = write_tmp("bad.txt", data, sizeof data - 1);
  struct chv_error err;
  struct chv_text_stats st;
  char *got = read_jsonl(p, "a tinyint, b int, c int, d boolean, "
                         "e decimal(6,1), f date", NULL, &st, 1024, &err);
  CHV_CHECK_STREQ(got,
                  "{\"a\":null,\"b\":null,\"c\":1,\"d\":null,\"e\":null,"
                  "\"f\":null}\n"
                  "{\"a\":null,\"b\":null,\"c\":-1,\"d\":true,\"e\":\"100.0\","
                  "\"f\":null}\n"
                  "{\"a\":5,\"b\":null,\"c\":0,\"d\":false,\"e\":null,"
                  "\"f\":null}\n");
  /* 128, x, yes, 123456.5, 2020-13-01; 2147483648, x; empty fields and
  ** \N are NULL without being malformed. */
  CHV_CHECK_EQ_INT(st.malformed, 7);
  CHV_CHECK_EQ_INT(st.first_malformed_line, 1);
  CHV_CHECK_EQ_INT(st.first_malformed_column, 0);
  CHV_CHECK_EQ_INT(st.rows, 3);
  chv_free(got);
}

static void test_custom_delimiters(void) {
  const char data[] = "1|a#b|k=1#j=2\n2,x,y|\\N|\n";
  char *p = write_tmp("pipe.txt", data, sizeof data - 1);
  struct chv_text_param params[] = {{"serialization.format", ","},
                                    {"field.delim", "|"},
                                    {"colelction.delim", "%"},
                                    {"collection.delim", "#"},
                                    {"mapkey.delim", "61"}};
  struct chv_text_options o;
  CHV_REQUIRE_OK(chv_text_options_from_serde(&o, params, 5, NULL), NULL);
  CHV_CHECK_EQ_INT(o.separators[0], '|');
  CHV_CHECK_EQ_INT(o.separators[1], '#');
  CHV_CHECK_EQ_INT(o.separators[2], '=');
  CHV_CHECK_EQ_INT(o.separators[3], 4);
  CHV_CHECK_EQ_INT(o.separators[7], 8);
  CHV_CHECK_EQ_INT(o.separators[8], 11);
  CHV_CHECK_EQ_INT(o.separators[9], 14);
  CHV_CHECK_EQ_INT(o.separators[21], 26);
  CHV_CHECK_EQ_INT(o.separators[22], 28);
  CHV_CHECK_EQ_INT(o.separators[26], 128);
  CHV_CHECK_EQ_INT(o.separators[153], 255);
  CHV_CHECK_EQ_INT(o.nlevels, 8);
  CHECK_JSONL(p, "a string, b array<string>, c map<string,int>", &o,
              "{\"a\":\"1\",\"b\":[\"a\",\"b\"],\"c\":[{\"key\":\"k\","
              "\"value\":1},{\"key\":\"j\",\"value\":2}]}\n"
              "{\"a\":\"2,x,y\",\"b\":null,\"c\":[]}\n");
  /* Numeric delimiters; Hive 2's misspelt key alone; a number too large
  ** for a Java byte is its first character. */
  struct chv_text_param p2[] = {{"field.delim", "44"},
                                {"colelction.delim", "59"},
                                {"mapkey.delim", "300"},
                                {"serialization.null.format", "NULL"}};
  CHV_REQUIRE_OK(chv_text_options_from_serde(&o, p2, 4, NULL), NULL);
  CHV_CHECK_EQ_INT(o.separators[0], ',');
  CHV_CHECK_EQ_INT(o.separators[1], ';');
  CHV_CHECK_EQ_INT(o.separators[2], '3');
  const char d2[] = "1,a;b,NULL,\\N\n";
  p = write_tmp("comma.txt", d2, sizeof d2 - 1);
  CHECK_JSONL(p, "a int, b array<string>, c string, d string", &o,
              "{\"a\":1,\"b\":[\"a\",\"b\"],\"c\":null,\"d\":\"\\\\N\"}\n");
  /* An empty null format. */
  struct chv_text_param p3[] = {{"serialization.null.format", ""},
                                {"field.delim", "\t"}};
  CHV_REQUIRE_OK(chv_text_options_from_serde(&o, p3, 2, NULL), NULL);
  const char d3[] = "\tx\t\n";
  p = write_tmp("tab.txt", d3, sizeof d3 - 1);
  CHECK_JSONL(p, "a string, b string, c int", &o,
              "{\"a\":null,\"b\":\"x\",\"c\":null}\n");
}

static void test_escapes(void) {
  struct chv_text_param params[] = {{"field.delim", ","},
                                    {"escape.delim", "\\"},
                                    {"collection.delim", ":"}};
  struct chv_text_options o;
  CHV_REQUIRE_OK(chv_text_options_from_serde(&o, params, 3, NULL), NULL);
  /* escape+'n' and escape+'r' read as newline and CR with or without
  ** serialization.escape.crlf (which only changes writing); escape+'x' is
  ** 'x'; a lone escape at the end stays; numbers are not unescaped. */
  const char data[] = "a\\,b,x\\:y:z,\\\\,q\\n\\r\\t\\,1\\\n";
  char *p = write_tmp("esc.txt", data, sizeof data - 1);
  const char *want = "{\"a\":\"a,b\",\"b\":[\"x:y\",\"z\"],\"c\":\"\\\\\","
                     "\"d\":\"q\\n\\rt,1\\\\\"}\n";
  CHECK_JSONL(p, "a string, b array<string>, c string, d string", &o, want);
  o.escape_crlf = true;
  CHECK_JSONL(p, "a string, b array<string>, c string, d string", &o, want);
  const char d2[] = "1\\2,3\n";
  p = write_tmp("esc2.txt", d2, sizeof d2 - 1);
  CHECK_JSONL(p, "a int, b int", &o, "{\"a\":null,\"b\":3}\n");
}

static void test_nested_deep(void) {
  /* array<map<string,array<struct<a:int,b:array<int>>>>>: levels 1..6 use
  ** \002 (array), \003/\004 (map), \005 (inner array), \006 (struct),
  ** \007 (innermost array). */
  const char data[] = "1\001k\0041\0067\0078\0052\006\\N\003j\004\002\001x\n"
                      "2\001\\N\001\n";
  char *p = write_tmp("nest.txt", data, sizeof data - 1);
  CHECK_JSONL(p,
              "id int, v array<map<string,array<struct<a:int,b:array<int>>>>>,"
              " s string",
              NULL,
              "{\"id\":1,\"v\":[[{\"key\":\"k\",\"value\":[{\"a\":1,\"b\":[7,"
              "8]},{\"a\":2,\"b\":null}]},{\"key\":\"j\",\"value\":[]}],[]],"
              "\"s\":\"x\"}\n"
              "{\"id\":2,\"v\":null,\"s\":\"\"}\n");
  /* Duplicate map keys: the first wins, compared as values ("01" is 1). */
  const char d3[] = "1\0031\0021\0032\00201\0033\0022\0034\001a\003x\002"
                    "b\003y\002a\003z\n";
  p = write_tmp("dup.txt", d3, sizeof d3 - 1);
  CHECK_JSONL(p, "m map<int,int>, s map<string,string>", NULL,
              "{\"m\":[{\"key\":1,\"value\":1},{\"key\":2,\"value\":4}],"
              "\"s\":[{\"key\":\"a\",\"value\":\"x\"},{\"key\":\"b\","
              "\"value\":\"y\"}]}\n");
  /* struct with missing and extra fields; map entry without a value and a
  ** NULL key (dropped). */
  const char d2[] = "1\0022\0023\0024\001a\003\002\\N\0031\002b\0032\n"
                    "5\001\n";
  p = write_tmp("st.txt", d2, sizeof d2 - 1);
  CHECK_JSONL(p, "s struct<x:int,y:int,z:int>, m map<string,int>", NULL,
              "{\"s\":{\"x\":1,\"y\":2,\"z\":3},\"m\":[{\"key\":\"a\","
              "\"value\":null},{\"key\":\"b\",\"value\":2}]}\n"
              "{\"s\":{\"x\":5,\"y\":null,\"z\":null},\"m\":[]}\n");
}

static void test_extra_missing_fields(void) {
  const char data[] = "1\0012\0013\0014\n5\n\n6\0017";
  char *p = write_tmp("em.txt", data, sizeof data - 1);
  CHECK_JSONL(p, "a int, b int, c string", NULL,
              "{\"a\":1,\"b\":2,\"c\":\"3\"}\n"
              "{\"a\":5,\"b\":null,\"c\":null}\n"
              "{\"a\":null,\"b\":null,\"c\":null}\n"
              "{\"a\":6,\"b\":7,\"c\":null}\n");
  struct chv_text_options o;
  chv_text_options_init(&o);
  o.last_column_takes_rest = true;
  CHECK_JSONL(p, "a int, b int, c string", &o,
              "{\"a\":1,\"b\":2,\"c\":\"3\\u00014\"}\n"
              "{\"a\":5,\"b\":null,\"c\":null}\n"
              "{\"a\":null,\"b\":null,\"c\":null}\n"
              "{\"a\":6,\"b\":7,\"c\":null}\n");
}

static void test_line_ends(void) {
  const char data[] = "a\r\nb\rc\n\r\nd\r";
  char *p = write_tmp("crlf.txt", data, sizeof data - 1);
  CHECK_JSONL(p, "s string", NULL,
              "{\"s\":\"a\"}\n{\"s\":\"b\"}\n{\"s\":\"c\"}\n{\"s\":\"\"}\n"
              "{\"s\":\"d\"}\n");
  /* The '\r' at a buffer boundary: a tiny buffer forces refills. */
  struct chv_text_options o;
  chv_text_options_init(&o);
  o.buffer_size = 64;
  struct chv_buf b;
  chv_buf_init(&b);
  struct chv_buf want;
  chv_buf_init(&want);
  for (int i = 0; i < 300; i++) {
    chv_buf_printf(&b, "%0*d%s", i % 97, i, i % 3 ? "\r\n" : "\n");
    chv_buf_printf(&want, "{\"s\":\"%0*d\"}\n", i % 97, i);
  }
  p = write_tmp("crlf2.txt", b.data, b.len);
  CHECK_JSONL(p, "s string", &o, want.data);
  /* Empty file, file of one newline, no trailing newline. */
  p = write_tmp("empty.txt", "", 0);
  CHECK_JSONL(p, "s string", NULL, "");
  p = write_tmp("nl.txt", "\n", 1);
  CHECK_JSONL(p, "s string", NULL, "{\"s\":\"\"}\n");
  p = write_tmp("notrail.txt", "x\ny", 3);
  CHECK_JSONL(p, "s string", NULL, "{\"s\":\"x\"}\n{\"s\":\"y\"}\n");
  /* A custom line delimiter: '\r' is data then. */
  chv_text_options_init(&o);
  CHV_CHECK_OK(chv_text_options_set(&o, "line.delim", ";", NULL), NULL);
  p = write_tmp("semi.txt", "a\rb;c", 5);
  CHECK_JSONL(p, "s string", &o, "{\"s\":\"a\\rb\"}\n{\"s\":\"c\"}\n");
  chv_buf_free(&b);
  chv_buf_free(&want);
}

/* Rows of a test table and their expected JSON. */
static void make_rows(int n, struct chv_buf *text, struct chv_buf *json) {
  for (int i = 0; i < n; i++) {
    chv_buf_printf(text, "%d\001name-%d\001%d\002%d\n", i, i * 7, i, i + 1);
    chv_buf_printf(json, "{\"id\":%d,\"name\":\"name-%d\",\"xs\":[%d,%d]}\n", i,
                   i * 7, i, i + 1);
  }
}

static const char *cols3 = "id int, name string, xs array<int>";

static void test_compressed_variants(void) {
  struct chv_buf text, json, z;
  chv_buf_init(&text);
  chv_buf_init(&json);
  chv_buf_init(&z);
  make_rows(20000, &text, &json);
  struct chv_error err;
  /* gzip, two members */
  chv_comp *c;
  CHV_REQUIRE_OK(chv_comp_open(CHV_CODEC_GZIP, 0, &c, &err), &err);
  chv_comp_run(c, text.data, 1000, &z, &err);
  chv_comp_finish(c, &z, &err);
  chv_comp_close(c);
  CHV_REQUIRE_OK(chv_comp_open(CHV_CODEC_GZIP, 0, &c, &err), &err);
  chv_comp_run(c, text.data + 1000, text.len - 1000, &z, &err);
  chv_comp_finish(c, &z, &err);
  chv_comp_close(c);
  char *p = write_tmp("t.gz", z.data, z.len);
  CHECK_JSONL(p, cols3, NULL, json.data);
  /* truncated: an error naming the file */
  p = write_tmp("trunc.gz", z.data, z.len - 7);
  char *got = read_jsonl(p, cols3, NULL, NULL, 1024, &err);
  CHV_CHECK(got == NULL);
  CHV_CHECK_CONTAINS(err.msg, "trunc.gz");
  CHV_CHECK_CONTAINS(err.msg, "truncated gzip");
  chv_free(got);
  /* The decompression limit. */
  struct chv_text_options o;
  chv_text_options_init(&o);
  o.max_decompressed = 1000;
  p = write_tmp("t2.gz", z.data, z.len);
  got = read_jsonl(p, cols3, &o, NULL, 1024, &err);
  CHV_CHECK(got == NULL);
  CHV_CHECK_CONTAINS(err.msg, "limit");
  chv_free(got);
  /* zstd */
  chv_buf_reset(&z);
  chv_buf_reserve(&z, ZSTD_compressBound(text.len));
  z.len = ZSTD_compress(z.data, ZSTD_compressBound(text.len), text.data,
                        text.len, 3);
  p = write_tmp("t.zst", z.data, z.len);
  CHECK_JSONL(p, cols3, NULL, json.data);
  /* lz4 frame */
  chv_buf_reset(&z);
  size_t cap = LZ4F_compressFrameBound(text.len, NULL);
  chv_buf_reserve(&z, cap);
  z.len = LZ4F_compressFrame(z.data, cap, text.data, text.len, NULL);
  p = write_tmp("t.lz4", z.data, z.len);
  CHECK_JSONL(p, cols3, NULL, json.data);
  /* Hadoop block streams: snappy and lz4 */
  for (int k = 0; k < 2; k++) {
    chv_buf_reset(&z);
    for (size_t off = 0; off < text.len; off += 65536) {
      size_t bl = CHV_MIN((size_t)65536, text.len - off);
      static char tmp[100000];
      size_t tl = sizeof tmp;
      if (k == 0)
        snappy_compress(text.data + off, bl, tmp, &tl);
      else
        tl = (size_t)LZ4_compress_default(text.data + off, tmp, (int)bl,
                                          (int)sizeof tmp);
      uint8_t h[8] = {(uint8_t)(bl >> 24), (uint8_t)(bl >> 16),
                      (uint8_t)(bl >> 8),  (uint8_t)bl,
                      (uint8_t)(tl >> 24), (uint8_t)(tl >> 16),
                      (uint8_t)(tl >> 8),  (uint8_t)tl};
      chv_buf_append(&z, h, 8);
      chv_buf_append(&z, tmp, tl);
    }
    p = write_tmp(k == 0 ? "t.snappy" : "h.lz4", z.data, z.len);
    CHECK_JSONL(p, cols3, NULL, json.data);
  }
  chv_buf_free(&text);
  chv_buf_free(&json);
  chv_buf_free(&z);
}

static void test_splits(void) {
  struct chv_buf text, json;
  chv_buf_init(&text);
  chv_buf_init(&json);
  make_rows(3000, &text, &json);
  /* Make some lines CRLF-terminated and one very long. */
  char *p = write_tmp("split.txt", text.data, text.len);
  int64_t size = (int64_t)text.len;
  int64_t sizes[] = {1, 7, 100, 4096, size / 3, size - 1, size, size * 2};
  for (size_t s = 0; s < CHV_ARRAY_SIZE(sizes); s++) {
    int64_t len = sizes[s];
    if (len < 50 && size > 20000) len = len * 997; /* keep it quick */
    struct chv_buf all;
    chv_buf_init(&all);
    for (int64_t start = 0; start < size; start += len) {
      struct chv_text_options o;
      chv_text_options_init(&o);
      o.range_start = start;
      o.range_length = len;
      o.buffer_size = 256;
      struct chv_error err;
      char *got = read_jsonl(p, cols3, &o, NULL, 100, &err);
      CHV_REQUIRE(got != NULL);
      chv_buf_puts(&all, got);
      chv_free(got);
    }
    CHV_CHECK_STREQ(all.data, json.data);
    chv_buf_free(&all);
  }
  chv_buf_free(&text);
  chv_buf_free(&json);
}

static void test_splits_crlf(void) {
  const char data[] = "aa\r\nbbb\r\nc\r\n\r\ndddd\r\ne";
  char *p = write_tmp("split2.txt", data, sizeof data - 1);
  const char *want = "{\"s\":\"aa\"}\n{\"s\":\"bbb\"}\n{\"s\":\"c\"}\n"
                     "{\"s\":\"\"}\n{\"s\":\"dddd\"}\n{\"s\":\"e\"}\n";
  for (int64_t len = 1; len <= 24; len++) {
    struct chv_buf all;
    chv_buf_init(&all);
    for (int64_t start = 0; start < (int64_t)sizeof data - 1; start += len) {
      struct chv_text_options o;
      chv_text_options_init(&o);
      o.range_start = start;
      o.range_length = len;
      struct chv_error err;
      char *got = read_jsonl(p, "s string", &o, NULL, 3, &err);
      CHV_REQUIRE(got != NULL);
      chv_buf_puts(&all, got);
      chv_free(got);
    }
    if (strcmp(all.data ? all.data : "", want) != 0)
      fprintf(stderr, "split length %lld\n", (long long)len);
    CHV_CHECK_STREQ(all.data ? all.data : "", want);
    chv_buf_free(&all);
  }
}

static void test_projection(void) {
  const char data[] = "1\001bad\001x\0012.5\n2\001\\N\001y\001zz\n";
  char *p = write_tmp("proj.txt", data, sizeof data - 1);
  struct chv_text_options o;
  chv_text_options_init(&o);
  int cols[] = {3, 0};
  o.columns = cols;
  o.ncolumns = 2;
  struct chv_error err;
  struct chv_text_stats st;
  char *got = read_jsonl(p, "a int, b int, c string, d double", &o, &st, 1024,
                         &err);
  CHV_CHECK_STREQ(got, "{\"d\":2.5,\"a\":1}\n{\"d\":null,\"a\":2}\n");
  CHV_CHECK_EQ_INT(st.malformed, 1); /* "zz"; the unprojected "bad" is not */
  CHV_CHECK_EQ_INT(st.first_malformed_column, 3);
  chv_free(got);
  /* No columns at all: row counting. */
  o.ncolumns = 0;
  o.batch_rows = 1;
  got = read_jsonl(p, "a int, b int, c string, d double", &o, &st, 1, &err);
  CHV_CHECK_STREQ(got, "{}\n{}\n");
  chv_free(got);
  /* Bad projections. */
  int badc[] = {0, 0};
  o.columns = badc;
  o.ncolumns = 2;
  chv_text_reader *r;
  struct chv_type *schema;
  CHV_REQUIRE_OK(chv_type_parse_columns("a int", &schema, &err), &err);
  CHV_CHECK_EQ_INT(chv_text_reader_open(chv_fs_local(), p, schema, &o, &r, &err),
                   CHV_EINVAL);
  chv_type_free(schema);
  CHV_CHECK_EQ_INT(chv_text_reader_open(chv_fs_local(), "/nonexistent/x.txt",
                                        NULL, NULL, &r, &err),
                   CHV_EINVAL);
}

/* Write a batch read from `text` with the writer and read it back. */
static char *roundtrip(const char *cols, const char *text, size_t n,
                       const struct chv_text_options *o, bool gzip,
                       char **written, size_t *wlen) {
  struct chv_error err;
  char *src = write_tmp("rt-src.txt", text, n);
  struct chv_type *schema;
  if (chv_type_parse_columns(cols, &schema, &err) != CHV_OK) return NULL;
  chv_text_reader *r;
  struct chv_batch *b;
  char *res = NULL;
  if (chv_text_reader_open(chv_fs_local(), src, schema, o, &r, &err)) {
    fprintf(stderr, "%s\n", err.msg);
    chv_type_free(schema);
    return NULL;
  }
  chv_batch_open(chv_text_reader_schema(r), 7, &b, &err);
  struct chv_text_options wo = o ? *o : (struct chv_text_options){0};
  if (!o) chv_text_options_init(&wo);
  wo.compress = gzip;
  char out[700];
  snprintf(out, sizeof out, "%s/rt-out.txt%s", chv_test_tmpdir(),
           gzip ? ".gz" : "");
  chv_text_writer *w;
  if (chv_text_writer_open(chv_fs_local(), out, chv_text_reader_schema(r), &wo,
                           &w, &err) != CHV_OK) {
    fprintf(stderr, "%s\n", err.msg);
    goto done;
  }
  int64_t k;
  while (chv_text_reader_next(r, b, &k, &err) == CHV_OK && k > 0)
    CHV_CHECK_OK(chv_text_writer_write(w, b, &err), &err);
  struct chv_text_write_stats ws;
  CHV_CHECK_OK(chv_text_writer_finish(w, &ws, &err), &err);
  chv_text_writer_close(w);
  if (gzip) CHV_CHECK(ws.file_bytes < ws.raw_bytes || ws.raw_bytes < 100);
  if (written) chv_fs_read_all(chv_fs_local(), out, written, wlen, 1 << 30, &err);
  res = read_jsonl(out, cols, o, NULL, 1024, &err);
done:
  chv_batch_close(b);
  chv_text_reader_close(r);
  chv_type_free(schema);
  return res;
}

static void test_writer_roundtrip(void) {
  const char data[] =
      "true\0011\001-2\0013\0014\0010.1\0011e300\00112.30\001a\\b\001xyz\001"
      "aGk=\0012020-02-29\0012020-01-02 03:04:05.5\001k\0031\002j\003\\N\001"
      "1\0022\n"
      "\\N\001\\N\001\\N\001\\N\001\\N\001\\N\001\\N\001\\N\001\\N\001\\N\001"
      "\\N\001\\N\001\\N\001\\N\001\\N\n"
      "false\001-1\0010\0010\0010\001-Infinity\001NaN\001-0.5\001\001\001"
      "\001\0011970-01-01\001\001\001\002\\N\n";
  const char *cols =
      "b boolean, t tinyint, s smallint, i int, l bigint, f float, d double, "
      "m decimal(10,2), st string, c char(5), bi binary, dt date, "
      "ts timestamp, mp map<string,int>, st2 struct<x:int,y:int>";
  struct chv_error err;
  char *want = read_jsonl(write_tmp("rt-want.txt", data, sizeof data - 1),
                          cols, NULL, NULL, 1024, &err);
  char *written = NULL;
  size_t wlen;
  char *got = roundtrip(cols, data, sizeof data - 1, NULL, false, &written,
                        &wlen);
  CHV_CHECK_STREQ(got, want);
  /* Java's number spelling and Hive's decimal scale in the text. */
  CHV_CHECK(written && strstr(written, "\0010.1\0011.0E300\00112.30\001"));
  CHV_CHECK(written && strstr(written, "\001-Infinity\001NaN\001-0.50\001"));
  CHV_CHECK(written && strstr(written, "\001xyz  \001aGk=\001"));
  chv_free(written);
  chv_free(got);
  got = roundtrip(cols, data, sizeof data - 1, NULL, true, NULL, NULL);
  CHV_CHECK_STREQ(got, want);
  chv_free(got);
  chv_free(want);
}

static void test_writer_escapes_nested(void) {
  struct chv_text_param params[] = {{"field.delim", ","},
                                    {"escape.delim", "\\"},
                                    {"serialization.escape.crlf", "true"}};
  struct chv_text_options o;
  CHV_REQUIRE_OK(chv_text_options_from_serde(&o, params, 3, NULL), NULL);
  const char data[] = "a\\,b\\\\c\\n\\r\002x\\\002y,1\n";
  const char *cols = "a array<string>, b int";
  struct chv_error err;
  char *want = read_jsonl(write_tmp("rte.txt", data, sizeof data - 1), cols,
                          &o, NULL, 1024, &err);
  CHV_CHECK_STREQ(want, "{\"a\":[\"a,b\\\\c\\n\\r\",\"x\\u0002y\"],\"b\":1}\n");
  char *written = NULL;
  size_t wlen;
  char *got = roundtrip(cols, data, sizeof data - 1, &o, false, &written,
                        &wlen);
  CHV_CHECK_STREQ(got, want);
  CHV_CHECK_STREQ(written, data);
  chv_free(written);
  chv_free(got);
  chv_free(want);
  /* Deep nesting round trip with default separators. */
  const char d2[] = "1\001k\0041\0067\0078\0052\006\\N\003j\004\002\001x\n";
  const char *c2 =
      "id int, v array<map<string,array<struct<a:int,b:array<int>>>>>, s "
      "string";
  want = read_jsonl(write_tmp("rtn.txt", d2, sizeof d2 - 1), c2, NULL, NULL,
                    1024, &err);
  got = roundtrip(c2, d2, sizeof d2 - 1, NULL, false, &written, &wlen);
  CHV_CHECK_STREQ(got, want);
  CHV_CHECK_STREQ(written, d2);
  chv_free(written);
  chv_free(got);
  chv_free(want);
}

static void test_many_batches_long_lines(void) {
  struct chv_buf text, json;
  chv_buf_init(&text);
  chv_buf_init(&json);
  for (int i = 0; i < 500; i++) {
    int len = (i * 131) % 3000;
    chv_buf_printf(&text, "%d\001", i);
    chv_buf_printf(&json, "{\"id\":%d,\"s\":\"", i);
    for (int k = 0; k < len; k++) {
      chv_buf_putc(&text, (char)('a' + k % 26));
      chv_buf_putc(&json, (char)('a' + k % 26));
    }
    chv_buf_puts(&text, "\n");
    chv_buf_puts(&json, "\"}\n");
  }
  char *p = write_tmp("long.txt", text.data, text.len);
  struct chv_text_options o;
  chv_text_options_init(&o);
  o.buffer_size = 100;
  struct chv_error err;
  char *got = read_jsonl(p, "id int, s string", &o, NULL, 3, &err);
  CHV_CHECK_STREQ(got, json.data);
  chv_free(got);
  chv_buf_free(&text);
  chv_buf_free(&json);
}

static void test_jsonl_format(void) {
  char buf[32];
  chv_jsonl_real(0.1, false, buf);
  CHV_CHECK_STREQ(buf, "0.1");
  chv_jsonl_real(0.1f, true, buf);
  CHV_CHECK_STREQ(buf, "0.1");
  chv_jsonl_real(1e21, false, buf);
  CHV_CHECK_STREQ(buf, "1e+21");
  chv_jsonl_real(1000, false, buf);
  CHV_CHECK_STREQ(buf, "1000");
  chv_jsonl_real(-2.5e-7, false, buf);
  CHV_CHECK_STREQ(buf, "-2.5e-07");
  chv_jsonl_real(0.000123, false, buf);
  CHV_CHECK_STREQ(buf, "0.000123");
  chv_jsonl_real(1.7976931348623157e308, false, buf);
  CHV_CHECK_STREQ(buf, "1.7976931348623157e+308");
  const char data[] = "caf\xc3\xa9 \"q\" \xff\x1f\n";
  char *p = write_tmp("utf.txt", data, sizeof data - 1);
  CHECK_JSONL(p, "s string", NULL,
              "{\"s\":\"caf\xc3\xa9 \\\"q\\\" \xef\xbf\xbd\\u001f\"}\n");
}

static void test_base64(void) {
  struct chv_buf b;
  chv_buf_init(&b);
  const char *in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
  const char *want[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=",
                        "Zm9vYmFy"};
  for (int i = 0; i < 7; i++) {
    chv_buf_reset(&b);
    chv_base64_encode(in[i], strlen(in[i]), &b);
    CHV_CHECK_STREQ(b.data ? b.data : "", want[i]);
    uint8_t d[16];
    size_t n = chv_base64_decode(want[i], strlen(want[i]), d);
    CHV_CHECK(n == strlen(in[i]) && memcmp(d, in[i], n) == 0);
    CHV_CHECK(chv_base64_is_text(want[i], strlen(want[i])));
  }
  CHV_CHECK(!chv_base64_is_text("a b!", 4));
  chv_buf_free(&b);
  /* A BINARY field that is not base64 is its raw bytes, and so is one
  ** whose decoding is empty ("a", "="). */
  const char data[] = "a b!\na\n=\naGk\n";
  char *p = write_tmp("bin.txt", data, sizeof data - 1);
  CHECK_JSONL(p, "b binary", NULL,
              "{\"b\":\"YSBiIQ==\"}\n{\"b\":\"YQ==\"}\n{\"b\":\"PQ==\"}\n"
              "{\"b\":\"aGk=\"}\n");
}

/* The reader's fast number paths agree with strtod/strtof and with
** chv_decimal_parse() on many generated spellings. */
static void test_number_fast_paths(void) {
  struct chv_buf text;
  chv_buf_init(&text);
  uint64_t x = 12345;
  enum { N = 20000 };
  static char vals[N][40];
  for (int i = 0; i < N; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    int nd = 1 + (int)((x >> 33) % 19), pt = (int)((x >> 40) % (nd + 1));
    char *v = vals[i];
    int k = 0;
    if ((x >> 50) & 1) v[k++] = '-';
    uint64_t y = x;
    for (int d = 0; d < nd; d++) {
      if (d == pt && d > 0) v[k++] = '.';
      y = y * 6364136223846793005ull + 1;
      v[k++] = (char)('0' + (y >> 60) % 10);
    }
    v[k] = 0;
    chv_buf_printf(&text, "%s\001%s\001%s\n", v, v, v);
  }
  char *p = write_tmp("nums.txt", text.data, text.len);
  struct chv_type *schema;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_type_parse_columns("d double, f float, m decimal(18,4)",
                                        &schema, &err),
                 &err);
  chv_text_reader *r;
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_text_reader_open(chv_fs_local(), p, schema, NULL, &r, &err),
                 &err);
  CHV_REQUIRE_OK(chv_batch_open(schema, N, &b, &err), &err);
  int64_t n;
  CHV_REQUIRE_OK(chv_text_reader_next(r, b, &n, &err), &err);
  CHV_CHECK_EQ_INT(n, N);
  int bad = 0;
  for (int i = 0; i < n && bad < 5; i++) {
    double d = ((double *)b->cols[0]->data)[i];
    float f = ((float *)b->cols[1]->data)[i];
    if (d != strtod(vals[i], NULL) || f != strtof(vals[i], NULL)) {
      fprintf(stderr, "%s: got %.17g %.9g\n", vals[i], d, (double)f);
      bad++;
    }
    chv_i128 want;
    int rc = chv_decimal_parse(vals[i], strlen(vals[i]), 18, 4, &want);
    bool isnull = chv_vector_is_null(b->cols[2], i);
    if ((rc != CHV_OK) != isnull ||
        (!isnull && ((chv_i128 *)b->cols[2]->data)[i] != want)) {
      fprintf(stderr, "decimal %s differs\n", vals[i]);
      bad++;
    }
  }
  CHV_CHECK_EQ_INT(bad, 0);
  chv_batch_close(b);
  chv_text_reader_close(r);
  chv_type_free(schema);
  chv_buf_free(&text);
}

/* Read and write with the Nth allocation failing, for every N until the
** whole run succeeds: each failure is CHV_ENOMEM and leaks nothing (ASan). */
static int read_write_once(const char *in, const char *out,
                           const struct chv_type *schema, bool gzip,
                           struct chv_error *err) {
  chv_text_reader *r = NULL;
  chv_text_writer *w = NULL;
  struct chv_batch *b = NULL;
  struct chv_text_options o;
  chv_text_options_init(&o);
  o.compress = gzip;
  int rc = chv_text_reader_open(chv_fs_local(), in, schema, &o, &r, err);
  if (rc == CHV_OK)
    rc = chv_batch_open(chv_text_reader_schema(r), 4, &b, err);
  if (rc == CHV_OK)
    rc = chv_text_writer_open(chv_fs_local(), out, schema, &o, &w, err);
  while (rc == CHV_OK) {
    int64_t n;
    rc = chv_text_reader_next(r, b, &n, err);
    if (rc != CHV_OK || n == 0) break;
    rc = chv_text_writer_write(w, b, err);
  }
  if (rc == CHV_OK) rc = chv_text_writer_finish(w, NULL, err);
  chv_text_writer_close(w);
  chv_batch_close(b);
  chv_text_reader_close(r);
  return rc;
}

static void test_oom(void) {
  struct chv_buf text;
  chv_buf_init(&text);
  for (int i = 0; i < 40; i++)
    chv_buf_printf(&text,
                   "%d\001k%d\0031\002j\003\\N\001%d\002x%d\0012.5\001"
                   "c\n",
                   i, i, i, i);
  struct chv_error err;
  struct chv_type *schema;
  CHV_REQUIRE_OK(chv_type_parse_columns("a int, m map<string,int>, "
                                        "s struct<x:int,y:string>, d double, "
                                        "c char(3)",
                                        &schema, &err),
                 &err);
  for (int gz = 0; gz < 2; gz++) {
    char in[700], out[700];
    snprintf(in, sizeof in, "%s", write_tmp(gz ? "oom.txt" : "oom.txt",
                                             text.data, text.len));
    snprintf(out, sizeof out, "%s/oom-out.txt%s", chv_test_tmpdir(),
             gz ? ".gz" : "");
    if (gz) { /* read the gzip file the first pass wrote */
      CHV_REQUIRE_OK(read_write_once(in, out, schema, true, &err), &err);
      snprintf(in, sizeof in, "%s", out);
      snprintf(out, sizeof out, "%s/oom-out2.txt", chv_test_tmpdir());
    }
    long n = 1;
    for (; n < 100000; n++) {
      chv_alloc_fail_after(n);
      int rc = read_write_once(in, out, schema, gz != 0, &err);
      chv_alloc_fail_after(0);
      if (rc == CHV_OK) break;
      if (rc != CHV_ENOMEM) {
        fprintf(stderr, "allocation %ld: rc %d: %s\n", n, rc, err.msg);
        CHV_CHECK_EQ_INT(rc, CHV_ENOMEM);
        break;
      }
    }
    CHV_CHECK(n > 5 && n < 100000);
  }
  chv_type_free(schema);
  chv_buf_free(&text);
}

/* Hive's nesting limits: 8 separator levels, 24 and 154 with the
** extend.nesting parameters. */
static void test_nesting_limits(void) {
  /* array^8 of int needs separators 0..8: nine levels. */
  const char *deep = "a array<array<array<array<array<array<array<array<int>>>>"
                     ">>>>";
  struct chv_type *schema;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_type_parse_columns(deep, &schema, &err), &err);
  const char data[] = "1\0132\0023\n";
  char *p = write_tmp("deep.txt", data, sizeof data - 1);
  chv_text_reader *r;
  CHV_CHECK_EQ_INT(chv_text_reader_open(chv_fs_local(), p, schema, NULL, &r,
                                        &err),
                   CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(err.msg, "extend.nesting.levels");
  chv_text_writer *w;
  char out[700];
  snprintf(out, sizeof out, "%s/deep-out.txt", chv_test_tmpdir());
  CHV_CHECK_EQ_INT(chv_text_writer_open(chv_fs_local(), out, schema, NULL, &w,
                                        &err),
                   CHV_ENOTSUP);
  struct chv_text_param params[] = {
      {"hive.serialization.extend.nesting.levels", "true"}};
  struct chv_text_options o;
  CHV_REQUIRE_OK(chv_text_options_from_serde(&o, params, 1, NULL), NULL);
  CHV_CHECK_EQ_INT(o.nlevels, 24);
  /* The column's array splits on \002 (level 1), the innermost array
  ** (level 8) on \013, the ninth separator. */
  CHECK_JSONL(p, deep, &o,
              "{\"a\":[[[[[[[[1,2]]]]]]],[[[[[[[3]]]]]]]]}\n");
  chv_type_free(schema);
  struct chv_text_param p2[] = {
      {"hive.serialization.extend.additional.nesting.levels", "TRUE"}};
  CHV_REQUIRE_OK(chv_text_options_from_serde(&o, p2, 1, NULL), NULL);
  CHV_CHECK_EQ_INT(o.nlevels, 154);
}

/* ---- split ranges against Hadoop's LineRecordReader --------------------- */

/* The lines of data[0, n) as Hadoop's LineReader ends them ('\n', "\r\n"
** or a lone '\r'; the last may be unterminated): starts and contents. */
struct model_line {
  int64_t start;
  int64_t len; /* without the terminator */
};

static int model_lines(const char *data, int64_t n, struct model_line *out,
                       int max) {
  int k = 0;
  int64_t i = 0;
  while (i < n && k < max) {
    int64_t s = i;
    while (i < n && data[i] != '\n' && data[i] != '\r') i++;
    out[k].start = s;
    out[k].len = i - s;
    k++;
    if (i < n && data[i] == '\r' && i + 1 < n && data[i + 1] == '\n') i++;
    if (i < n) i++;
  }
  return k;
}

/* What LineRecordReader gives the split [start, start + len): from a split
** at 0 every line starting at or before its end; from any other split, the
** line it starts in (or at) is discarded and the lines after it are read
** while they start at or before the end.  As JSON Lines of one string. */
static void model_split(const char *data, const struct model_line *lines,
                        int nlines, int64_t start, int64_t len,
                        struct chv_buf *out) {
  for (int k = 0; k < nlines; k++) {
    int64_t s = lines[k].start;
    bool mine = start == 0 ? s <= start + len : s > start && s <= start + len;
    if (!mine) continue;
    chv_buf_puts(out, "{\"s\":\"");
    chv_buf_append(out, data + s, (size_t)lines[k].len);
    chv_buf_puts(out, "\"}\n");
  }
}

/* Reads split [start, start + len) of path and compares it with the model;
** appends what was read to all. */
static bool check_split(const char *path, const char *data,
                        const struct model_line *lines, int nlines,
                        int64_t start, int64_t len, size_t bufsize,
                        struct chv_buf *all) {
  struct chv_text_options o;
  chv_text_options_init(&o);
  o.range_start = start;
  o.range_length = len;
  o.buffer_size = bufsize;
  struct chv_error err;
  char *got = read_jsonl(path, "s string", &o, NULL, 5, &err);
  if (got == NULL) {
    fprintf(stderr, "split %lld+%lld: %s\n", (long long)start,
            (long long)len, err.msg);
    return false;
  }
  struct chv_buf want;
  chv_buf_init(&want);
  model_split(data, lines, nlines, start, len, &want);
  bool same = strcmp(got, want.data ? want.data : "") == 0;
  if (!same)
    fprintf(stderr, "split %lld+%lld: read\n%s\nwanted\n%s\n",
            (long long)start, (long long)len, got, want.data ? want.data : "");
  chv_buf_puts(all, got);
  chv_buf_free(&want);
  chv_free(got);
  return same;
}

/* Reads the file cut at cuts[0..n) (sorted, inside the file) and checks
** every split against the model and the union against the whole file. */
static void check_cuts(const char *path, const char *data, int64_t size,
                       const struct model_line *lines, int nlines,
                       const int64_t *cuts, int n, size_t bufsize,
                       const char *whole) {
  struct chv_buf all;
  chv_buf_init(&all);
  int64_t at = 0;
  bool ok = true;
  for (int k = 0; k <= n && ok; k++) {
    int64_t end = k < n ? cuts[k] : size;
    ok = check_split(path, data, lines, nlines, at, end - at, bufsize, &all);
    at = end;
  }
  CHV_CHECK(ok);
  CHV_CHECK_STREQ(all.data ? all.data : "", whole);
  chv_buf_free(&all);
}

static uint64_t cut_rng = 0x2545F4914F6CDD1Dull;
static uint64_t cut_rnd(void) {
  cut_rng ^= cut_rng << 13;
  cut_rng ^= cut_rng >> 7;
  cut_rng ^= cut_rng << 17;
  return cut_rng;
}

/* Every set of one or two cut points of a small file with every kind of
** line end, empty lines and an unterminated last line; then random cut
** sets (cuts at line starts, on either byte of "\r\n", at the last byte)
** of a larger one read through a small buffer: each split reads the lines
** Hadoop's LineRecordReader gives it, and together every line once. */
static void test_split_cut_points(void) {
  const char small[] = "ab\ncd\r\n\r\nefg\rh\n\nij\r\r\nklmno\r\npq";
  int64_t n = (int64_t)sizeof small - 1;
  const char *path = write_tmp("cuts.txt", small, (size_t)n);
  struct model_line lines[4096];
  int nl = model_lines(small, n, lines, 4096);
  struct chv_buf whole;
  chv_buf_init(&whole);
  model_split(small, lines, nl, 0, n, &whole);
  CHV_CHECK_EQ_INT(nl, 10);
  for (int64_t a = 1; a < n; a++) {
    check_cuts(path, small, n, lines, nl, &a, 1, 64, whole.data);
    for (int64_t b = a + 1; b < n; b++) {
      int64_t c[2] = {a, b};
      check_cuts(path, small, n, lines, nl, c, 2, 64, whole.data);
    }
  }
  chv_buf_free(&whole);

  /* Lines of 0 to 300 bytes with random ends, the last unterminated. */
  struct chv_buf text;
  chv_buf_init(&text);
  for (int i = 0; i < 400; i++) {
    int len = (int)(cut_rnd() % 8 == 0 ? 0 : cut_rnd() % 300);
    for (int k = 0; k < len; k++) chv_buf_putc(&text, (char)('a' + (i + k) % 26));
    if (i == 399) break;
    switch (cut_rnd() % 3) {
    case 0: chv_buf_puts(&text, "\n"); break;
    case 1: chv_buf_puts(&text, "\r\n"); break;
    default: chv_buf_puts(&text, "\r"); break;
    }
  }
  chv_buf_puts(&text, "tail");
  n = (int64_t)text.len;
  path = write_tmp("cuts2.txt", text.data, text.len);
  nl = model_lines(text.data, n, lines, 4096);
  chv_buf_init(&whole);
  model_split(text.data, lines, nl, 0, n, &whole);
  for (int round = 0; round < 150; round++) {
    int64_t cuts[80];
    int nc = 0, want = 1 + (int)(cut_rnd() % 60);
    while (nc < want) {
      int64_t c;
      const struct model_line *l = &lines[cut_rnd() % (uint64_t)nl];
      switch (cut_rnd() % 5) {
      case 0: c = l->start; break;                 /* a line start */
      case 1: c = l->start + l->len; break;        /* its terminator */
      case 2: c = l->start + l->len + 1; break;    /* "\n" of "\r\n" */
      case 3: c = n - 1; break;                    /* the last byte */
      default: c = 1 + (int64_t)(cut_rnd() % (uint64_t)(n - 1)); break;
      }
      bool dup = c <= 0 || c >= n;
      for (int k = 0; k < nc && !dup; k++) dup = cuts[k] == c;
      if (!dup) cuts[nc++] = c;
    }
    for (int i = 1; i < nc; i++)
      for (int j = i; j > 0 && cuts[j - 1] > cuts[j]; j--) {
        int64_t t = cuts[j];
        cuts[j] = cuts[j - 1];
        cuts[j - 1] = t;
      }
    check_cuts(path, text.data, n, lines, nl, cuts, nc,
               round % 2 ? 64 : 4096, whole.data);
  }
  chv_buf_free(&whole);
  chv_buf_free(&text);
}

CHV_TEST_MAIN("text", test_primitives_default, test_malformed_counted,
              test_custom_delimiters, test_escapes, test_nested_deep,
              test_extra_missing_fields, test_line_ends,
              test_compressed_variants, test_splits, test_splits_crlf,
              test_split_cut_points,
              test_projection, test_writer_roundtrip,
              test_writer_escapes_nested, test_many_batches_long_lines,
              test_jsonl_format, test_base64, test_number_fast_paths,
              test_oom, test_nesting_limits)
