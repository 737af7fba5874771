/* Tests of the Parquet reader (src/format/parquet/pq_reader.c, pq_column.c,
** pq_values.c, pq_assemble.c): every parquet-testing fixture with an
** expected/<name>.jsonl read at batch capacities 1, 7 and 4096 and printed
** as chive's JSON Lines must give those lines (floats compared at their
** precision); the fixtures without one as their README documents them; the
** malformed fixtures fail cleanly, naming file, column, row group and page;
** projection, table schemas (missing columns, widening, names without
** case, CHAR/VARCHAR), predicates skipping row groups, page checksums,
** levels that contradict each other, dictionaries, v1 and v2 pages on
** files written page by page (pq_build.h); split ranges cut anywhere read
** every row once, each split the row groups anchored in it (midpoint or
** first data page); mutated fixtures never crash;
** every allocation failing in turn gives CHV_ENOMEM. */
#include "chv_test.h"
#include "pq_build.h"

#include "chive/jsonl.h"
#include "chive/parquet.h"

#include <dirent.h>
#include <math.h>
#include <sys/stat.h>

/* ---- helpers ----------------------------------------------------------- */

static const char *fx(const char *name) {
  static char p[4][1024];
  static int k;
  k = (k + 1) % 4;
  snprintf(p[k], sizeof p[k], "%s/parquet/%s", chv_test_fixtures(), name);
  return p[k];
}

/* Read every row of path as JSON Lines into out (rows counted in *rows);
** batches of `cap` rows, each checked to hold at most cap. */
static int read_jsonl(const char *path, const struct chv_pq_read_options *o,
                      int64_t cap, struct chv_buf *out, int64_t *rows,
                      struct chv_error *err) {
  chv_pq_reader *r;
  CHV_RETURN_IF_ERR(chv_pq_reader_open(chv_fs_local(), path, o, &r, err));
  struct chv_batch *b;
  int rc = chv_batch_open(chv_pq_reader_schema(r), cap, &b, err);
  if (rc != CHV_OK) {
    chv_pq_reader_close(r);
    return rc;
  }
  *rows = 0;
  for (;;) {
    int64_t n;
    rc = chv_pq_reader_next(r, b, &n, err);
    if (rc != CHV_OK || n == 0) break;
    if (n > cap) {
      rc = chv_error_set(err, CHV_EINTERNAL, "batch of %lld rows > %lld",
                         (long long)n, (long long)cap);
      break;
    }
    for (int64_t i = 0; out && i < n; i++)
      chv_jsonl_row(b, i, out);
    *rows += n;
  }
  if (rc == CHV_OK) {
    struct chv_pq_read_stats st;
    chv_pq_reader_stats(r, &st);
    if (st.rows != *rows)
      rc = chv_error_set(err, CHV_EINTERNAL, "stats say %lld rows, read %lld",
                         (long long)st.rows, (long long)*rows);
  }
  chv_batch_close(b);
  chv_pq_reader_close(r);
  return rc;
}

/* JSON tokens: strings (raw, quotes included), numbers, the rest. */
static size_t json_tok(const char *p, char *kind) {
  if (*p == '"') {
    size_t i = 1;
    while (p[i] && p[i] != '"')
      i += p[i] == '\\' && p[i + 1] ? 2 : 1;
    *kind = 's';
    return p[i] ? i + 1 : i;
  }
  if (*p == '-' || (*p >= '0' && *p <= '9')) {
    size_t i = 1;
    while (p[i] && strchr("0123456789.eE+-", p[i]))
      i++;
    *kind = 'n';
    return i;
  }
  if (*p >= 'a' && *p <= 'z') {
    size_t i = 0;
    while (p[i] >= 'a' && p[i] <= 'z')
      i++;
    *kind = 'l';
    return i;
  }
  *kind = 'p';
  return *p ? 1 : 0;
}

static bool same_number(const char *a, size_t la, const char *b, size_t lb) {
  if (la == lb && !memcmp(a, b, la)) return true;
  char x[64], y[64];
  if (la >= sizeof x || lb >= sizeof y) return false;
  memcpy(x, a, la);
  x[la] = 0;
  memcpy(y, b, lb);
  y[lb] = 0;
  double dx = strtod(x, NULL), dy = strtod(y, NULL);
  /* Integers must be exact; floats equal at float precision at least. */
  if (!strpbrk(x, ".eE") && !strpbrk(y, ".eE"))
    return dx == 0 && dy == 0; /* -0 as DuckDB prints it: 0 */
  return dx == dy || (float)dx == (float)dy;
}

/* One JSON line against another: same tokens, numbers at their precision,
** a number equal to a string holding its digits (an unsigned BIGINT read
** as decimal(20,0)). */
static bool json_same(const char *a, size_t la, const char *b, size_t lb) {
  size_t i = 0, j = 0;
  while (i < la && j < lb) {
    char ka, kb;
    size_t na = json_tok(a + i, &ka), nb = json_tok(b + j, &kb);
    if (na == 0 || nb == 0) return false;
    bool ok;
    if (ka == 'n' && kb == 'n')
      ok = same_number(a + i, na, b + j, nb);
    else if (ka == 's' && kb == 'n')
      ok = na == nb + 2 && !memcmp(a + i + 1, b + j, nb);
    else if (ka == 'n' && kb == 's')
      ok = nb == na + 2 && !memcmp(b + j + 1, a + i, na);
    else
      ok = ka == kb && na == nb && !memcmp(a + i, b + j, na);
    if (!ok) return false;
    i += na;
    j += nb;
  }
  return i == la && j == lb;
}

/* got against want, line by line; prints the first difference. */
static bool lines_same(const char *name, const char *got, size_t glen,
                       const char *want, size_t wlen) {
  size_t gi = 0, wi = 0;
  int line = 1;
  while (gi < glen || wi < wlen) {
    const char *ge = memchr(got + gi, '\n', glen - gi);
    const char *we = memchr(want + wi, '\n', wlen - wi);
    size_t gl = ge ? (size_t)(ge - got - gi) : glen - gi;
    size_t wl = we ? (size_t)(we - want - wi) : wlen - wi;
    if (gi >= glen || wi >= wlen || !json_same(got + gi, gl, want + wi, wl)) {
      fprintf(stderr, "%s line %d:\n  got  %.*s\n  want %.*s\n", name, line,
              (int)CHV_MIN(gl, 300u), gi < glen ? got + gi : "(end)",
              (int)CHV_MIN(wl, 300u), wi < wlen ? want + wi : "(end)");
      return false;
    }
    gi += gl + 1;
    wi += wl + 1;
    line++;
  }
  return true;
}

static char *load_text(const char *path, size_t *len) {
  char *data = NULL;
  if (chv_fs_read_all(chv_fs_local(), path, &data, len, -1, NULL) != CHV_OK)
    return NULL;
  return data;
}

/* ---- every fixture with expected rows ---------------------------------- */

/* The expected rows, patched where the oracle (DuckDB) is wrong. */
static char *expected_rows(const char *name, size_t *len) {
  char p[1024];
  snprintf(p, sizeof p, "%s/parquet/expected/%s.jsonl", chv_test_fixtures(),
           name);
  char *t = load_text(p, len);
  if (t && !strcmp(name, "int96_from_spark")) {
    /* Spark stored 290000-12-31T01:00:00+02:00 with wrapping 64-bit
    ** microsecond arithmetic (data/int96_from_spark.md); DuckDB prints
    ** the wrapped value as a year BC. */
    const char *bad = "226414-01-07 (BC) 22:21:39.416064";
    char *at = strstr(t, bad);
    if (at) {
      struct chv_buf b;
      chv_buf_init(&b);
      chv_buf_append(&b, t, (size_t)(at - t));
      chv_buf_puts(&b, "290000-12-30 23:00:00");
      chv_buf_puts(&b, at + strlen(bad));
      chv_free(t);
      *len = b.len;
      t = chv_buf_detach(&b);
    }
  }
  return t;
}

static void check_fixture(const char *name, bool no_crc) {
  size_t wlen;
  char *want = expected_rows(name, &wlen);
  CHV_REQUIRE(want != NULL);
  char file[300];
  snprintf(file, sizeof file, "%s.parquet", name);
  static const int64_t caps[] = {1, 7, 4096};
  for (size_t c = 0; c < CHV_ARRAY_SIZE(caps); c++) {
    struct chv_pq_read_options o;
    chv_pq_read_options_init(&o);
    o.no_checksums = no_crc;
    struct chv_buf got;
    chv_buf_init(&got);
    struct chv_error err;
    int64_t rows;
    int rc = read_jsonl(fx(file), &o, caps[c], &got, &rows, &err);
    if (rc != CHV_OK) fprintf(stderr, "%s: %s\n", name, err.msg);
    CHV_CHECK(rc == CHV_OK);
    char label[400];
    snprintf(label, sizeof label, "%s (batches of %lld)", name,
             (long long)caps[c]);
    CHV_CHECK(rc != CHV_OK ||
              lines_same(label, got.data ? got.data : "", got.len, want, wlen));
    chv_buf_free(&got);
  }
  chv_free(want);
}

static void test_fixtures_expected(void) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/parquet/expected", chv_test_fixtures());
  DIR *d = opendir(dir);
  CHV_REQUIRE(d != NULL);
  struct dirent *e;
  int n = 0;
  while ((e = readdir(d)) != NULL) {
    size_t l = strlen(e->d_name);
    if (l < 7 || strcmp(e->d_name + l - 6, ".jsonl")) continue;
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)(l - 6), e->d_name);
    /* Malformed (the README): checked in test_malformed_fixtures. */
    if (!strcmp(name, "nation.dict-malformed")) continue;
    bool corrupt_crc = strstr(name, "corrupt-checksum") != NULL;
    check_fixture(name, corrupt_crc);
    n++;
  }
  closedir(d);
  CHV_CHECK(n >= 50);
}

/* ---- fixtures without expected rows ------------------------------------ */

static int64_t rows_of(const char *file) {
  struct chv_buf b;
  chv_buf_init(&b);
  int64_t rows = -1;
  struct chv_error err;
  if (read_jsonl(fx(file), NULL, 100, &b, &rows, &err) != CHV_OK) {
    fprintf(stderr, "%s\n", err.msg);
    rows = -1;
  }
  chv_buf_free(&b);
  return rows;
}

/* Each *_byte_stream_split column equals its *_plain twin. */
static void test_byte_stream_split_extended(void) {
  struct chv_error err;
  chv_pq_reader *r;
  CHV_REQUIRE_OK(
      chv_pq_reader_open(chv_fs_local(),
                         fx("byte_stream_split_extended.gzip.parquet"), NULL,
                         &r, &err),
      &err);
  const struct chv_type *s = chv_pq_reader_schema(r);
  CHV_CHECK_EQ_INT(s->nchildren, 14);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(s, 64, &b, &err), &err);
  int64_t n, total = 0;
  struct chv_buf x, y;
  chv_buf_init(&x);
  chv_buf_init(&y);
  while (chv_pq_reader_next(r, b, &n, &err) == CHV_OK && n > 0) {
    for (int c = 0; c + 1 < s->nchildren; c += 2) {
      CHV_CHECK(strstr(s->names[c], "_plain") != NULL);
      CHV_CHECK(strstr(s->names[c + 1], "_byte_stream_split") != NULL);
      for (int64_t i = 0; i < n; i++) {
        chv_buf_reset(&x);
        chv_buf_reset(&y);
        chv_jsonl_value(b->cols[c], i, &x);
        chv_jsonl_value(b->cols[c + 1], i, &y);
        if (strcmp(x.data, y.data)) {
          fprintf(stderr, "%s row %lld: %s vs %s\n", s->names[c],
                  (long long)(total + i), x.data, y.data);
          CHV_CHECK(false);
        }
      }
    }
    total += n;
  }
  CHV_CHECK_EQ_INT(total, 200);
  chv_buf_free(&x);
  chv_buf_free(&y);
  chv_batch_close(b);
  chv_pq_reader_close(r);
}

static void check_dump(const char *file, int64_t cap, const char *want) {
  struct chv_buf b;
  chv_buf_init(&b);
  int64_t rows;
  struct chv_error err;
  CHV_CHECK_OK(read_jsonl(fx(file), NULL, cap, &b, &rows, &err), &err);
  CHV_CHECK(lines_same(file, b.data ? b.data : "", b.len, want, strlen(want)));
  chv_buf_free(&b);
}

/* The legacy LZ4 files: 4 rows (c0 int64, c1 binary, v11 double) as the
** parquet-testing README documents them, with Hadoop framing and without;
** the larger one 10000 strings. */
static void test_lz4_legacy(void) {
  const char *want = "{\"c0\":1593604800,\"c1\":\"YWJj\",\"v11\":42}\n"
                     "{\"c0\":1593604800,\"c1\":\"ZGVm\",\"v11\":7.7}\n"
                     "{\"c0\":1593604801,\"c1\":\"YWJj\",\"v11\":42.125}\n"
                     "{\"c0\":1593604801,\"c1\":\"ZGVm\",\"v11\":7.7}\n";
  check_dump("hadoop_lz4_compressed.parquet", 3, want);
  check_dump("non_hadoop_lz4_compressed.parquet", 3, want);
  CHV_CHECK_EQ_INT(rows_of("hadoop_lz4_compressed_larger.parquet"), 10000);
  struct chv_pq_read_options o;
  chv_pq_read_options_init(&o);
  struct chv_buf b;
  chv_buf_init(&b);
  int64_t rows;
  struct chv_error err;
  CHV_CHECK_OK(read_jsonl(fx("hadoop_lz4_compressed_larger.parquet"), &o, 4096,
                          &b, &rows, &err),
               &err);
  CHV_CHECK(b.data &&
            !strncmp(b.data,
                     "{\"a\":\"c7ce6bef-d5b0-4863-b199-8ea8c7fb117b\"}\n", 44));
  chv_buf_free(&b);
}

/* A MAP whose key/value group has no value reads as an array of keys. */
static void test_map_no_value(void) {
  struct chv_error err;
  chv_pq_reader *r;
  CHV_REQUIRE_OK(chv_pq_reader_open(chv_fs_local(), fx("map_no_value.parquet"),
                                    NULL, &r, &err),
                 &err);
  struct chv_buf t;
  chv_buf_init(&t);
  chv_type_format(chv_pq_reader_schema(r), &t);
  CHV_CHECK_STREQ(t.data, "struct<my_map:map<int,int>,my_map_no_v:array<int>,"
                          "my_list:array<int>>");
  chv_buf_free(&t);
  chv_pq_reader_close(r);
  check_dump(
      "map_no_value.parquet", 2,
      "{\"my_map\":[{\"key\":1,\"value\":null},{\"key\":2,\"value\":null},"
      "{\"key\":3,\"value\":null}],\"my_map_no_v\":[1,2,3],"
      "\"my_list\":[1,2,3]}\n"
      "{\"my_map\":[{\"key\":4,\"value\":null},{\"key\":5,\"value\":null},"
      "{\"key\":6,\"value\":null}],\"my_map_no_v\":[4,5,6],"
      "\"my_list\":[4,5,6]}\n"
      "{\"my_map\":[{\"key\":7,\"value\":null},{\"key\":8,\"value\":null},"
      "{\"key\":9,\"value\":null}],\"my_map_no_v\":[7,8,9],"
      "\"my_list\":[7,8,9]}\n");
}

/* The 2 GiB brotli map: its first page is over the page limit (fails
** before anything is allocated for it); with a limit it fits, it is read
** only when memory allows, so not here. */
static void test_large_brotli(void) {
  struct chv_error err;
  chv_pq_reader *r;
  CHV_REQUIRE_OK(chv_pq_reader_open(chv_fs_local(),
                                    fx("large_string_map.brotli.parquet"), NULL,
                                    &r, &err),
                 &err);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(chv_pq_reader_schema(r), 16, &b, &err), &err);
  int64_t n;
  int rc = chv_pq_reader_next(r, b, &n, &err);
  CHV_CHECK_EQ_INT(rc, CHV_ERANGE);
  CHV_CHECK_CONTAINS(err.msg, "large_string_map.brotli.parquet: column "
                              "arr.key_value.key, row group 0, page 0");
  CHV_CHECK_CONTAINS(err.msg, "exceeds the limit");
  /* The failure is sticky. */
  CHV_CHECK_EQ_INT(chv_pq_reader_next(r, b, &n, &err), CHV_ERANGE);
  chv_batch_close(b);
  chv_pq_reader_close(r);
}

/* ---- malformed fixtures ------------------------------------------------ */

/* Open and read every row; the status of the first failure. */
static int read_status(const char *path, const struct chv_pq_read_options *o,
                       struct chv_error *err, int64_t *rows) {
  int64_t n = 0;
  int rc = read_jsonl(path, o, 100, NULL, &n, err);
  if (rows) *rows = n;
  return rc;
}

static void test_malformed_fixtures(void) {
  static const struct {
    const char *file;
    int code;
    const char *msg;
  } bad[] = {
      {"bad_data/ARROW-GH-41317.parquet", CHV_ECORRUPT, "ColumnMetaData"},
      {"bad_data/ARROW-GH-41321.parquet", CHV_ECORRUPT,
       "column int64, row group 0, page 1: dictionary index bit width"},
      {"bad_data/ARROW-GH-45185.parquet", CHV_ECORRUPT,
       "column x.list.element, row group 0, page 0: the column chunk starts "
       "with repetition level 1"},
      {"bad_data/ARROW-GH-47662.parquet", CHV_ECORRUPT,
       "column flba_field, row group 0, page 0: PLAIN"},
      {"bad_data/ARROW-RS-GH-6229-DICTHEADER.parquet", CHV_ECORRUPT,
       "column name"},
      {"bad_data/ARROW-RS-GH-6229-LEVELS.parquet", CHV_ECORRUPT,
       "column outer.list.item.c, row group 0, page 1: RLE data ends"},
      {"bad_data/PARQUET-1481.parquet", CHV_ECORRUPT, "invalid physical type"},
      {"nation.dict-malformed.parquet", CHV_ECORRUPT,
       "column name, row group 0, page 1"},
      {"datapage_v1-corrupt-checksum.parquet", CHV_ECORRUPT,
       "column a, row group 0, page 0: page checksum mismatch"},
      {"rle-dict-uncompressed-corrupt-checksum.parquet", CHV_ECORRUPT,
       "column long_field, row group 0, page 0: page checksum mismatch"},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(bad); i++) {
    struct chv_error err;
    memset(&err, 0, sizeof err);
    int rc = read_status(fx(bad[i].file), NULL, &err, NULL);
    if (rc != bad[i].code)
      fprintf(stderr, "%s: status %d: %s\n", bad[i].file, rc, err.msg);
    CHV_CHECK_EQ_INT(rc, bad[i].code);
    CHV_CHECK_CONTAINS(err.msg, bad[i].msg);
  }
  /* Bit width 0 dictionary indices are valid: every value is entry 0. */
  int64_t rows;
  struct chv_error err;
  CHV_CHECK_OK(
      read_status(fx("bad_data/ARROW-GH-43605.parquet"), NULL, &err, &rows),
      &err);
  CHV_CHECK_EQ_INT(rows, 21186);
}

/* ---- projection and table schemas -------------------------------------- */

static void test_projection(void) {
  struct chv_pq_read_options o;
  chv_pq_read_options_init(&o);
  const char *cols[] = {"string_col", "ID"};
  o.columns = cols;
  o.ncolumns = 2;
  struct chv_error err;
  chv_pq_reader *r;
  CHV_REQUIRE_OK(chv_pq_reader_open(chv_fs_local(),
                                    fx("alltypes_plain.parquet"), &o, &r, &err),
                 &err);
  struct chv_buf t;
  chv_buf_init(&t);
  chv_type_format(chv_pq_reader_schema(r), &t);
  CHV_CHECK_STREQ(t.data, "struct<string_col:binary,id:int>");
  chv_buf_free(&t);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(chv_pq_reader_schema(r), 4, &b, &err), &err);
  int64_t n;
  CHV_REQUIRE_OK(chv_pq_reader_next(r, b, &n, &err), &err);
  CHV_CHECK_EQ_INT(n, 4);
  CHV_CHECK_EQ_INT(((int32_t *)b->cols[1]->data)[0], 4);
  struct chv_pq_read_stats st;
  chv_pq_reader_stats(r, &st);
  chv_batch_close(b);
  chv_pq_reader_close(r);
  /* Only the projected chunks were read: far fewer bytes than a full scan. */
  struct chv_pq_read_stats full;
  CHV_REQUIRE_OK(chv_pq_reader_open(chv_fs_local(),
                                    fx("alltypes_plain.parquet"), NULL, &r,
                                    &err),
                 &err);
  CHV_REQUIRE_OK(chv_batch_open(chv_pq_reader_schema(r), 4, &b, &err), &err);
  CHV_REQUIRE_OK(chv_pq_reader_next(r, b, &n, &err), &err);
  chv_pq_reader_stats(r, &full);
  chv_batch_close(b);
  chv_pq_reader_close(r);
  CHV_CHECK(st.bytes_read < full.bytes_read);
  CHV_CHECK(st.pages < full.pages);

  /* Unknown and repeated names. */
  const char *unknown[] = {"nope"};
  o.columns = unknown;
  o.ncolumns = 1;
  CHV_CHECK_EQ_INT(chv_pq_reader_open(chv_fs_local(),
                                      fx("alltypes_plain.parquet"), &o, &r,
                                      &err),
                   CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "no column 'nope'");
  const char *twice[] = {"id", "Id"};
  o.columns = twice;
  o.ncolumns = 2;
  CHV_CHECK_EQ_INT(chv_pq_reader_open(chv_fs_local(),
                                      fx("alltypes_plain.parquet"), &o, &r,
                                      &err),
                   CHV_EINVAL);
  /* No column at all: rows are counted from the row groups. */
  o.columns = cols;
  o.ncolumns = 0;
  o.batch_rows = 3;
  CHV_REQUIRE_OK(chv_pq_reader_open(chv_fs_local(),
                                    fx("repeated_no_annotation.parquet"), &o,
                                    &r, &err),
                 &err);
  CHV_REQUIRE_OK(chv_batch_open(chv_pq_reader_schema(r), 0, &b, &err), &err);
  int64_t total = 0;
  while (chv_pq_reader_next(r, b, &n, &err) == CHV_OK && n > 0) {
    CHV_CHECK(n <= 3);
    total += n;
  }
  CHV_CHECK_EQ_INT(total, 6);
  chv_pq_reader_stats(r, &st);
  CHV_CHECK_EQ_INT(st.pages, 0);
  chv_batch_close(b);
  chv_pq_reader_close(r);
}

static void check_table(const char *path, const char *table,
                        const char *const *cols, int ncols, const char *want,
                        int64_t limit) {
  struct chv_type *t;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_type_parse_columns(table, &t, &err), &err);
  struct chv_pq_read_options o;
  chv_pq_read_options_init(&o);
  o.table_schema = t;
  o.columns = cols;
  o.ncolumns = ncols;
  chv_pq_reader *r;
  int rc = chv_pq_reader_open(chv_fs_local(), path, &o, &r, &err);
  CHV_CHECK_OK(rc, &err);
  if (rc == CHV_OK) {
    struct chv_batch *b;
    CHV_REQUIRE_OK(chv_batch_open(chv_pq_reader_schema(r), limit, &b, &err),
                   &err);
    int64_t n;
    CHV_CHECK_OK(chv_pq_reader_next(r, b, &n, &err), &err);
    struct chv_buf out;
    chv_buf_init(&out);
    for (int64_t i = 0; i < n; i++)
      chv_jsonl_row(b, i, &out);
    CHV_CHECK(lines_same(path, out.data ? out.data : "", out.len, want,
                         strlen(want)));
    chv_buf_free(&out);
    chv_batch_close(b);
    chv_pq_reader_close(r);
  }
  chv_type_free(t);
}

static void test_table_schema(void) {
  /* Names without case, a missing column, integer and float widenings,
  ** binary as string, VARCHAR and CHAR cut and padded as Hive does. */
  check_table(
      fx("alltypes_tiny_pages.parquet"),
      "ID bigint, missing string, Tinyint_Col int, smallint_col "
      "bigint, int_col double, float_col double, date_string_col "
      "varchar(4), string_col char(3), bigint_col decimal(20,0)",
      NULL, 0,
      "{\"ID\":122,\"missing\":null,\"Tinyint_Col\":2,"
      "\"smallint_col\":2,\"int_col\":2,\"float_col\":2.200000047683716,"
      "\"date_string_col\":\"01/1\",\"string_col\":\"2  \","
      "\"bigint_col\":\"20\"}\n"
      "{\"ID\":123,\"missing\":null,\"Tinyint_Col\":3,"
      "\"smallint_col\":3,\"int_col\":3,\"float_col\":3.299999952316284,"
      "\"date_string_col\":\"01/1\",\"string_col\":\"3  \","
      "\"bigint_col\":\"30\"}\n",
      2);
  /* Decimal scale and precision widened; binary read as string. */
  check_table(fx("int32_decimal.parquet"), "value decimal(12,4)", NULL, 0,
              "{\"value\":\"1.0000\"}\n{\"value\":\"2.0000\"}\n", 2);
  check_table(fx("byte_array_decimal.parquet"), "value decimal(6,3)", NULL, 0,
              "{\"value\":\"1.000\"}\n", 1);
  check_table(fx("binary.parquet"), "foo string", NULL, 0,
              "{\"foo\":\"\\u0000\"}\n{\"foo\":\"\\u0001\"}\n", 2);
  /* Projection of a table schema, in its own order. */
  const char *cols[] = {"c", "A"};
  check_table(fx("nested_maps.snappy.parquet"),
              "a map<string,map<int,boolean>>, b int, c double", cols, 2,
              "{\"c\":1,\"a\":[{\"key\":\"a\",\"value\":[{\"key\":1,\"value\":"
              "true},{\"key\":2,\"value\":false}]}]}\n",
              1);
  /* Struct members by name at depth; a member the file lacks is NULL;
  ** nested values widened. */
  check_table(
      fx("nullable.impala.parquet"),
      "id bigint, nested_struct struct<x:string, a:bigint, "
      "c:struct<d:array<array<struct<f:string,e:bigint,zz:int>>>>>",
      NULL, 0,
      "{\"id\":1,\"nested_struct\":{\"x\":null,\"a\":1,\"c\":{\"d\":"
      "[[{\"f\":\"aaa\",\"e\":10,\"zz\":null},{\"f\":\"bbb\",\"e\":-10,"
      "\"zz\":null}],[{\"f\":\"c\",\"e\":11,\"zz\":null}]]}}}\n"
      "{\"id\":2,\"nested_struct\":{\"x\":null,\"a\":null,\"c\":{\"d\":"
      "[[{\"f\":null,\"e\":null,\"zz\":null},{\"f\":\"aaa\",\"e\":10,"
      "\"zz\":null},{\"f\":null,\"e\":null,\"zz\":null},{\"f\":\"bbb\","
      "\"e\":-10,\"zz\":null},{\"f\":null,\"e\":null,\"zz\":null}],"
      "[{\"f\":\"c\",\"e\":11,\"zz\":null},null],[],null]}}}\n"
      "{\"id\":3,\"nested_struct\":{\"x\":null,\"a\":null,\"c\":{\"d\":"
      "[]}}}\n"
      "{\"id\":4,\"nested_struct\":{\"x\":null,\"a\":null,\"c\":{\"d\":"
      "null}}}\n"
      "{\"id\":5,\"nested_struct\":{\"x\":null,\"a\":null,\"c\":null}}\n"
      "{\"id\":6,\"nested_struct\":null}\n",
      6);
  /* A struct none of whose members is in the file: NULL exactly where the
  ** file's struct is. */
  check_table(fx("nullable.impala.parquet"), "nested_struct struct<q:int>",
              NULL, 0,
              "{\"nested_struct\":{\"q\":null}}\n"
              "{\"nested_struct\":{\"q\":null}}\n"
              "{\"nested_struct\":{\"q\":null}}\n"
              "{\"nested_struct\":{\"q\":null}}\n"
              "{\"nested_struct\":{\"q\":null}}\n"
              "{\"nested_struct\":null}\n",
              6);

  /* Types that cannot be read as the table's. */
  static const struct {
    const char *file, *table, *msg;
  } bad[] = {
      {"alltypes_plain.parquet", "id string",
       "alltypes_plain.parquet: column id: the file's int cannot be read as "
       "the table's string"},
      {"alltypes_plain.parquet", "bigint_col int",
       "column bigint_col: the file's bigint cannot be read as the table's "
       "int"},
      {"alltypes_plain.parquet", "double_col float", "the file's double"},
      {"int64_decimal.parquet", "value decimal(10,1)",
       "the file's decimal(10,2) cannot be read as the table's decimal(10,1)"},
      {"int64_decimal.parquet", "value decimal(10,3)",
       "the file's decimal(10,2) cannot be read as the table's decimal(10,3)"},
      {"list_columns.parquet", "int64_list array<string>",
       "column int64_list.list.item: the file's bigint cannot be read as "
       "the "
       "table's string"},
      {"list_columns.parquet", "int64_list map<int,int>",
       "the file's array<bigint>"},
      {"nested_maps.snappy.parquet", "b struct<x:int>", "the file's int"},
      {"alltypes_plain.parquet", "timestamp_col date", "timestamp"},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(bad); i++) {
    struct chv_type *t;
    struct chv_error err;
    CHV_REQUIRE_OK(chv_type_parse_columns(bad[i].table, &t, &err), &err);
    struct chv_pq_read_options o;
    chv_pq_read_options_init(&o);
    o.table_schema = t;
    chv_pq_reader *r = NULL;
    CHV_CHECK_EQ_INT(
        chv_pq_reader_open(chv_fs_local(), fx(bad[i].file), &o, &r, &err),
        CHV_ETYPE);
    CHV_CHECK_CONTAINS(err.msg, bad[i].msg);
    chv_type_free(t);
  }
}

static void test_file_stats(void) {
  struct chv_pq_file_stats s;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_pq_file_stats(chv_fs_local(),
                                   fx("repeated_no_annotation.parquet"), &s,
                                   &err),
                 &err);
  CHV_CHECK_EQ_INT(s.num_rows, 6); /* the footer's num_rows says 0 */
  CHV_CHECK_EQ_INT(s.row_groups, 1);
  CHV_CHECK(s.raw_data_size > 0);
  CHV_REQUIRE_OK(
      chv_pq_file_stats(chv_fs_local(), fx("sort_columns.parquet"), &s, &err),
      &err);
  CHV_CHECK_EQ_INT(s.num_rows, 6);
  CHV_CHECK_EQ_INT(s.row_groups, 2);
  chv_pq_reader *r;
  CHV_CHECK_EQ_INT(chv_pq_reader_open(chv_fs_local(), fx("nonexistent.parquet"),
                                      NULL, &r, &err),
                   CHV_ENOENT);
  CHV_CHECK_EQ_INT(
      chv_pq_reader_open(chv_fs_local(), fx("../README.md"), NULL, &r, &err),
      CHV_ECORRUPT);
}

/* ---- predicates on sort_columns (2 row groups) ------------------------- */

static int skipped(const char *file, const struct chv_pred *p, int np,
                   int64_t *rows) {
  struct chv_pq_read_options o;
  chv_pq_read_options_init(&o);
  o.preds = p;
  o.npreds = np;
  struct chv_buf b;
  chv_buf_init(&b);
  struct chv_error err;
  chv_pq_reader *r;
  if (chv_pq_reader_open(chv_fs_local(), file, &o, &r, &err) != CHV_OK) {
    fprintf(stderr, "%s\n", err.msg);
    return -1;
  }
  struct chv_pq_read_stats st;
  chv_pq_reader_stats(r, &st);
  chv_pq_reader_close(r);
  int64_t n;
  if (read_jsonl(file, &o, 100, &b, &n, &err) != CHV_OK) n = -1;
  if (rows) *rows = n;
  chv_buf_free(&b);
  return st.row_groups_skipped;
}

static void test_predicates_sort_columns(void) {
  const char *f = fx("sort_columns.parquet");
  /* Both groups hold a in {NULL, 1, 2} and b in {a, b, c}. */
  struct chv_pred p1[] = {{"a", CHV_PRED_GT, "5"}};
  int64_t rows;
  CHV_CHECK_EQ_INT(skipped(f, p1, 1, &rows), 2);
  CHV_CHECK_EQ_INT(rows, 0);
  struct chv_pred p2[] = {{"A", CHV_PRED_EQ, "2"}};
  CHV_CHECK_EQ_INT(skipped(f, p2, 1, &rows), 0);
  CHV_CHECK_EQ_INT(rows, 6);
  struct chv_pred p3[] = {{"a", CHV_PRED_IS_NULL, NULL}};
  CHV_CHECK_EQ_INT(skipped(f, p3, 1, NULL), 0);
  struct chv_pred p4[] = {{"a", CHV_PRED_LT, "1"}};
  CHV_CHECK_EQ_INT(skipped(f, p4, 1, NULL), 2);
  struct chv_pred p5[] = {{"a", CHV_PRED_LE, "1"}};
  CHV_CHECK_EQ_INT(skipped(f, p5, 1, NULL), 0);
  /* A literal that is not an integer, a column not in the file: unusable. */
  struct chv_pred p6[] = {{"a", CHV_PRED_GT, "x"}, {"zz", CHV_PRED_EQ, "1"}};
  CHV_CHECK_EQ_INT(skipped(f, p6, 2, NULL), 0);
  struct chv_pred p7[] = {{"a", CHV_PRED_GT, "1.5"}};
  CHV_CHECK_EQ_INT(skipped(f, p7, 1, NULL), 0);
}

/* ---- the page index ---------------------------------------------------- */

/* Rows of a JSON Lines text, split (the text is modified). */
static int split_lines(char *t, char **lines, int max) {
  int n = 0;
  for (char *p = t; p && *p && n < max;) {
    lines[n++] = p;
    char *e = strchr(p, '\n');
    if (e) *e++ = 0;
    p = e;
  }
  return n;
}

/* Predicates over alltypes_tiny_pages (7300 rows in many pages, with a
** page index): the rows produced are rows of the file, in order, and hold
** every row that matches; pages and rows are skipped. */
static void test_page_index(void) {
  const char *f = fx("alltypes_tiny_pages.parquet");
  struct chv_buf all;
  chv_buf_init(&all);
  int64_t nall;
  struct chv_error err;
  CHV_REQUIRE_OK(read_jsonl(f, NULL, 4096, &all, &nall, &err), &err);
  CHV_REQUIRE(nall == 7300);
  static char *rows[7300];
  int n = split_lines(all.data, rows, 7300);
  CHV_REQUIRE(n == 7300);
  static const struct {
    struct chv_pred p;
    const char *match; /* text every matching row holds */
    int64_t matches;
    bool skips; /* the page index rules pages out */
  } cases[] = {
      {{"id", CHV_PRED_EQ, "100"}, "{\"id\":100,", 1, true},
      {{"id", CHV_PRED_LT, "50"}, NULL, 50, true},
      {{"id", CHV_PRED_GE, "7250"}, NULL, 50, true},
      {{"ID", CHV_PRED_GT, "7000"}, NULL, 299, true},
      {{"int_col", CHV_PRED_EQ, "3"}, "\"int_col\":3,", 730, false},
      {{"string_col", CHV_PRED_EQ, "3"}, "\"string_col\":\"3\",", 730, false},
      /* INT96 has no usable order */
      {{"timestamp_col", CHV_PRED_EQ, "2009-01-13 01:02:05.41"},
       NULL,
       1,
       false},
  };
  for (size_t c = 0; c < CHV_ARRAY_SIZE(cases); c++) {
    for (int64_t cap = 1; cap <= 4096; cap *= 64) {
      struct chv_pq_read_options o;
      chv_pq_read_options_init(&o);
      o.preds = &cases[c].p;
      o.npreds = 1;
      chv_pq_reader *r;
      CHV_REQUIRE_OK(chv_pq_reader_open(chv_fs_local(), f, &o, &r, &err), &err);
      struct chv_batch *b;
      CHV_REQUIRE_OK(chv_batch_open(chv_pq_reader_schema(r), cap, &b, &err),
                     &err);
      struct chv_buf line;
      chv_buf_init(&line);
      int at = 0, produced = 0;
      int64_t got;
      bool in_order = true;
      while (chv_pq_reader_next(r, b, &got, &err) == CHV_OK && got > 0) {
        for (int64_t i = 0; i < got; i++) {
          chv_buf_reset(&line);
          chv_jsonl_row(b, i, &line);
          line.data[line.len - 1] = 0;
          /* The row is the next file row with this text. */
          while (at < n && strcmp(rows[at], line.data))
            at++;
          if (at == n) in_order = false;
          at++;
          produced++;
        }
      }
      CHV_CHECK(in_order);
      struct chv_pq_read_stats st;
      chv_pq_reader_stats(r, &st);
      CHV_CHECK_EQ_INT(st.rows, produced);
      CHV_CHECK_EQ_INT(st.rows + st.rows_skipped, 7300);
      if (cases[c].skips != (st.pages_skipped > 0))
        fprintf(stderr, "page index case %zu: %lld pages skipped\n", c,
                (long long)st.pages_skipped);
      CHV_CHECK(cases[c].skips == (st.pages_skipped > 0));
      CHV_CHECK(cases[c].skips == (produced < 7300));
      chv_buf_free(&line);
      chv_batch_close(b);
      chv_pq_reader_close(r);
      if (cap == 1 && cases[c].match) {
        /* Every matching row was produced (counted by a second read). */
        struct chv_buf out;
        chv_buf_init(&out);
        int64_t m;
        CHV_CHECK_OK(read_jsonl(f, &o, 100, &out, &m, &err), &err);
        int64_t hits = 0;
        for (const char *p = out.data; p && (p = strstr(p, cases[c].match));
             p++)
          hits++;
        CHV_CHECK_EQ_INT(hits, cases[c].matches);
        chv_buf_free(&out);
      }
    }
  }
  chv_buf_free(&all);
}

/* ---- files written page by page ---------------------------------------- */

static const char *tmpfile_path(const char *name) {
  static char p[4][800];
  static int k;
  k = (k + 1) % 4;
  snprintf(p[k], sizeof p[k], "%s/%s", chv_test_tmpdir(), name);
  return p[k];
}

static void plain_i64(struct chv_buf *b, const int64_t *v, size_t n) {
  chv_pq_plain_encode_fixed(v, n, 8, b, NULL);
}

static void plain_f64(struct chv_buf *b, const double *v, size_t n) {
  chv_pq_plain_encode_fixed(v, n, 8, b, NULL);
}

static void plain_str(struct chv_buf *b, const char *const *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint32_t l = (uint32_t)strlen(v[i]);
    chv_buf_append(b, &l, 4);
    chv_buf_append(b, v[i], l);
  }
}

static struct chv_pq_bytes pbytes(const void *p, size_t n) {
  struct chv_pq_bytes b = {p, (uint32_t)n};
  return b;
}

/* Three row groups of (a bigint, b string, c double, d date), two rows
** each, with statistics; group 2 holds only NULLs in a. */
static const char *pred_file(void) {
  static char path[800];
  if (path[0]) return path;
  snprintf(path, sizeof path, "%s", tmpfile_path("preds.parquet"));
  struct chv_pq_schema_element s[5] = {
      pb_group("schema", -1, 4, -1),
      pb_leaf("a", CHV_PQ_REP_OPTIONAL, CHV_PQ_TYPE_INT64, -1),
      pb_leaf("b", CHV_PQ_REP_OPTIONAL, CHV_PQ_TYPE_BYTE_ARRAY, CHV_PQ_CT_UTF8),
      pb_leaf("c", CHV_PQ_REP_OPTIONAL, CHV_PQ_TYPE_DOUBLE, -1),
      pb_leaf("d", CHV_PQ_REP_OPTIONAL, CHV_PQ_TYPE_INT32, CHV_PQ_CT_DATE),
  };
  static const int64_t a[3][2] = {{1, 10}, {11, 20}, {0, 0}};
  static const char *b[3][2] = {
      {"apple", "banana"}, {"cherry", "date"}, {"egg", "fig"}};
  static const double c[3][2] = {{0.5, 1.5}, {2.5, NAN}, {-1, 1}};
  static const int32_t d[3][2] = {{0, 1}, {19000, 19001}, {20000, 20001}};
  static const uint8_t all[2] = {1, 1}, none[2] = {0, 0};
  static struct chv_buf vals[3][4];
  static struct pb_page pages[3][4];
  static struct pb_chunk ch[12];
  for (int g = 0; g < 3; g++) {
    for (int l = 0; l < 4; l++)
      chv_buf_init(&vals[g][l]);
    if (g != 2) plain_i64(&vals[g][0], a[g], 2);
    plain_str(&vals[g][1], b[g], 2);
    plain_f64(&vals[g][2], c[g], 2);
    chv_pq_plain_encode_fixed(d[g], 2, 4, &vals[g][3], NULL);
    for (int l = 0; l < 4; l++) {
      struct pb_page pg = PG(CHV_PQ_PAGE_DATA_PAGE, 2, all, NULL, &vals[g][l]);
      if (g == 2 && l == 0) pg.def = none;
      pages[g][l] = pg;
      struct pb_chunk *k = &ch[g * 4 + l];
      k->npages = 1;
      k->pages = &pages[g][l];
      k->max_def = 1;
      k->has_stats = true;
      struct chv_pq_statistics *st = &k->stats;
      st->has_null_count = true;
      st->null_count = (g == 2 && l == 0) ? 2 : 0;
      switch (l) {
      case 0:
        if (g == 2) break;
        st->has_min = st->has_max = true;
        st->min = pbytes(&a[g][0], 8);
        st->max = pbytes(&a[g][1], 8);
        break;
      case 1:
        st->has_min_value = st->has_max_value = true;
        st->min_value = pbytes(b[g][0], strlen(b[g][0]));
        st->max_value = pbytes(b[g][1], strlen(b[g][1]));
        st->has_is_min_value_exact = st->has_is_max_value_exact = true;
        st->is_min_value_exact = st->is_max_value_exact = true;
        break;
      case 2:
        st->has_min = st->has_max = true;
        st->min = pbytes(&c[g][0], 8);
        st->max = pbytes(&c[g][g == 1 ? 0 : 1], 8);
        st->has_nan_count = true;
        st->nan_count = g == 1 ? 1 : 0;
        break;
      default:
        st->has_min_value = st->has_max_value = true;
        st->min_value = pbytes(&d[g][0], 4);
        st->max_value = pbytes(&d[g][1], 4);
        break;
      }
    }
  }
  const int64_t rows[3] = {2, 2, 2};
  struct pb_file f = {s, 5, 3, rows, ch, true};
  struct chv_error err;
  if (pb_write(path, &f, &err) != CHV_OK) {
    fprintf(stderr, "pred_file: %s\n", err.msg);
    path[0] = 0;
  }
  return path;
}

static void test_predicates(void) {
  const char *f = pred_file();
  CHV_REQUIRE(f[0]);
  static const struct {
    struct chv_pred p;
    int skipped;
  } cases[] = {
      {{"a", CHV_PRED_EQ, "5"}, 2},  /* groups 1 and 2 (all NULL) */
      {{"a", CHV_PRED_GT, "10"}, 2}, /* 0, 2 */
      {{"a", CHV_PRED_GE, "10"}, 1}, /* 2 */
      {{"a", CHV_PRED_LT, "11"}, 2}, /* 1, 2 */
      {{"a", CHV_PRED_LE, "0"}, 3},
      {{"a", CHV_PRED_NE, "1"}, 1}, /* 2 */
      {{"a", CHV_PRED_IS_NULL, NULL}, 2},
      {{"a", CHV_PRED_IS_NOT_NULL, NULL}, 1},
      {{"a", CHV_PRED_EQ, "1e1"}, 1},    /* not an integer: only the NULLs */
      {{"b", CHV_PRED_EQ, "cherry"}, 2}, /* byte order: 0 and 2 ruled out */
      {{"b", CHV_PRED_LT, "b"}, 2},
      {{"b", CHV_PRED_GE, "egg"}, 2},
      {{"b", CHV_PRED_NE, "apple"}, 0},
      {{"c", CHV_PRED_LT, "0"}, 2}, /* group 2 holds -1 */
      {{"c", CHV_PRED_GT, "2"}, 2}, /* group 1 holds NaN: kept */
      {{"c", CHV_PRED_GT, "3"}, 2}, /* ... whatever its max */
      {{"c", CHV_PRED_EQ, "2"}, 3},
      {{"c", CHV_PRED_EQ, "nan"}, 0},
      {{"d", CHV_PRED_GE, "2022-01-01"}, 1},
      {{"d", CHV_PRED_EQ, "1970-01-02"}, 2},
      {{"d", CHV_PRED_EQ, "1970-13-02"}, 0},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cases); i++) {
    int64_t rows;
    int n = skipped(f, &cases[i].p, 1, &rows);
    if (n != cases[i].skipped)
      fprintf(stderr, "predicate %zu (%s %d %s): %d groups skipped, not %d\n",
              i, cases[i].p.column, cases[i].p.op,
              cases[i].p.value ? cases[i].p.value : "-", n, cases[i].skipped);
    CHV_CHECK_EQ_INT(n, cases[i].skipped);
    CHV_CHECK_EQ_INT(rows, 2 * (3 - cases[i].skipped));
  }
  /* A conjunction: each predicate rules out its own groups. */
  struct chv_pred both[] = {{"a", CHV_PRED_LE, "10"}, {"b", CHV_PRED_GT, "c"}};
  CHV_CHECK_EQ_INT(skipped(f, both, 2, NULL), 3);
  /* A CHAR table column changes values: its predicates are not used. */
  struct chv_type *t;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_type_parse_columns("b char(2), a bigint", &t, &err), &err);
  struct chv_pq_read_options o;
  chv_pq_read_options_init(&o);
  o.table_schema = t;
  struct chv_pred pb[] = {{"b", CHV_PRED_EQ, "ch"}};
  o.preds = pb;
  o.npreds = 1;
  chv_pq_reader *r;
  CHV_REQUIRE_OK(chv_pq_reader_open(chv_fs_local(), f, &o, &r, &err), &err);
  struct chv_pq_read_stats st;
  chv_pq_reader_stats(r, &st);
  CHV_CHECK_EQ_INT(st.row_groups_skipped, 0);
  CHV_CHECK_EQ_INT(st.row_groups, 3);
  chv_pq_reader_close(r);
  chv_type_free(t);
}

/* A list<bigint> column whose records cross pages, read in batches of
** every size: the records and the NULLs at both levels come back. */
static void test_records_across_pages(void) {
  const char *path = tmpfile_path("lists.parquet");
  struct chv_pq_schema_element s[4] = {
      pb_group("schema", -1, 1, -1),
      pb_group("l", CHV_PQ_REP_OPTIONAL, 1, CHV_PQ_CT_LIST),
      pb_group("list", CHV_PQ_REP_REPEATED, 1, -1),
      pb_leaf("element", CHV_PQ_REP_OPTIONAL, CHV_PQ_TYPE_INT64, -1),
  };
  /* Rows: [1,2,3], null, [], [null, 4], [5] -- the first page ends inside
  ** row 0, the second inside row 3. */
  static const uint8_t d0[] = {3, 3}, r0[] = {0, 1};
  static const uint8_t d1[] = {3, 0, 1, 2}, r1[] = {1, 0, 0, 0};
  static const uint8_t d2[] = {3, 3}, r2[] = {1, 0};
  static const int64_t v0[] = {1, 2}, v1[] = {3}, v2[] = {4, 5};
  struct chv_buf b0, b1, b2;
  chv_buf_init(&b0);
  chv_buf_init(&b1);
  chv_buf_init(&b2);
  plain_i64(&b0, v0, 2);
  plain_i64(&b1, v1, 1);
  plain_i64(&b2, v2, 2);
  struct pb_page pg[3] = {PG(CHV_PQ_PAGE_DATA_PAGE, 2, d0, r0, &b0),
                          PG(CHV_PQ_PAGE_DATA_PAGE, 4, d1, r1, &b1),
                          PG(CHV_PQ_PAGE_DATA_PAGE, 2, d2, r2, &b2)};
  struct pb_chunk ch = {3, pg, 3, 1, CHV_PQ_CODEC_SNAPPY, false, {0}, false};
  const int64_t rows[1] = {5};
  struct pb_file f = {s, 4, 1, rows, &ch, false};
  struct chv_error err;
  CHV_REQUIRE_OK(pb_write(path, &f, &err), &err);
  const char *want = "{\"l\":[1,2,3]}\n{\"l\":null}\n{\"l\":[]}\n"
                     "{\"l\":[null,4]}\n{\"l\":[5]}\n";
  for (int64_t cap = 1; cap <= 6; cap++) {
    struct chv_buf out;
    chv_buf_init(&out);
    int64_t n;
    CHV_CHECK_OK(read_jsonl(path, NULL, cap, &out, &n, &err), &err);
    CHV_CHECK(lines_same("lists", out.data ? out.data : "", out.len, want,
                         strlen(want)));
    chv_buf_free(&out);
  }
  /* The same levels in v2 pages, checksummed. */
  for (int i = 0; i < 3; i++) {
    pg[i].type = CHV_PQ_PAGE_DATA_PAGE_V2;
    pg[i].crc = true;
  }
  CHV_REQUIRE_OK(pb_write(path, &f, &err), &err);
  struct chv_buf out;
  chv_buf_init(&out);
  int64_t n;
  CHV_CHECK_OK(read_jsonl(path, NULL, 2, &out, &n, &err), &err);
  CHV_CHECK(lines_same("lists v2", out.data ? out.data : "", out.len, want,
                       strlen(want)));
  chv_buf_free(&out);
  /* A wrong checksum on the second page: an error unless not verified. */
  pg[1].bad_crc = true;
  CHV_REQUIRE_OK(pb_write(path, &f, &err), &err);
  CHV_CHECK_EQ_INT(read_status(path, NULL, &err, NULL), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "lists.parquet: column l.list.element, row "
                              "group 0, page 1: page checksum mismatch");
  struct chv_pq_read_options o;
  chv_pq_read_options_init(&o);
  o.no_checksums = true;
  CHV_CHECK_OK(read_status(path, &o, &err, &n), &err);
  CHV_CHECK_EQ_INT(n, 5);
  chv_buf_free(&b0);
  chv_buf_free(&b1);
  chv_buf_free(&b2);
}

/* A damaged page index costs only its skipping. */
static void test_page_index_damaged(void) {
  size_t len;
  char *data = load_text(fx("alltypes_tiny_pages.parquet"), &len);
  CHV_REQUIRE(data != NULL);
  struct chv_pq_file_meta *m;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_pq_footer_parse(data, len, "t", &m, &err), &err);
  const struct chv_pq_column_chunk *cc = &m->row_groups[0].columns[0];
  CHV_REQUIRE(cc->has_column_index && cc->has_offset_index);
  memset(data + cc->column_index_offset, 0xff, (size_t)cc->column_index_length);
  memset(data + cc->offset_index_offset + 1, 0x7f, 8);
  chv_pq_file_meta_close(m);
  const char *path = tmpfile_path("damaged_index.parquet");
  CHV_REQUIRE_OK(chv_fs_write_atomic(chv_fs_local(), path, data, len, &err),
                 &err);
  chv_free(data);
  struct chv_pred p = {"id", CHV_PRED_EQ, "100"};
  struct chv_pq_read_options o;
  chv_pq_read_options_init(&o);
  o.preds = &p;
  o.npreds = 1;
  struct chv_buf a, b;
  chv_buf_init(&a);
  chv_buf_init(&b);
  int64_t na, nb;
  CHV_CHECK_OK(read_jsonl(path, &o, 100, &a, &na, &err), &err);
  CHV_CHECK_OK(
      read_jsonl(fx("alltypes_tiny_pages.parquet"), NULL, 100, &b, &nb, &err),
      &err);
  CHV_CHECK_EQ_INT(na, 7300);
  CHV_CHECK(a.len == b.len && !memcmp(a.data, b.data, a.len));
  chv_buf_free(&a);
  chv_buf_free(&b);
}

/* Pages skipped by the page index in a flat column (v1, whole pages
** passed over), a list column (v2 pages, which begin records, passed
** over) and a column whose pages straddle the rows kept (decoded and
** skipped). */
static void test_page_skipping(void) {
  const char *path = tmpfile_path("pageskip.parquet");
  struct chv_pq_schema_element s[6] = {
      pb_group("schema", -1, 3, -1),
      pb_leaf("x", CHV_PQ_REP_REQUIRED, CHV_PQ_TYPE_INT64, -1),
      pb_group("l", CHV_PQ_REP_OPTIONAL, 1, CHV_PQ_CT_LIST),
      pb_group("list", CHV_PQ_REP_REPEATED, 1, -1),
      pb_leaf("element", CHV_PQ_REP_OPTIONAL, CHV_PQ_TYPE_INT64, -1),
      pb_leaf("s", CHV_PQ_REP_OPTIONAL, CHV_PQ_TYPE_BYTE_ARRAY, CHV_PQ_CT_UTF8),
  };
  static const int64_t xv[6] = {1, 2, 3, 4, 5, 6};
  struct chv_buf xb[3], lb[3], sb[2];
  struct pb_page xp[3], lp[3], sp[2];
  for (int i = 0; i < 3; i++) {
    chv_buf_init(&xb[i]);
    plain_i64(&xb[i], xv + 2 * i, 2);
    xp[i] = PG(CHV_PQ_PAGE_DATA_PAGE, 2, NULL, NULL, &xb[i]);
    xp[i].min = pbytes(&xv[2 * i], 8);
    xp[i].max = pbytes(&xv[2 * i + 1], 8);
  }
  /* l: [1,2], NULL | [], [3] | [4,5,6], [NULL] */
  static const uint8_t ld0[] = {3, 3, 0}, lr0[] = {0, 1, 0};
  static const uint8_t ld1[] = {1, 3}, lr1[] = {0, 0};
  static const uint8_t ld2[] = {3, 3, 3, 2}, lr2[] = {0, 1, 1, 0};
  static const int64_t lv0[] = {1, 2}, lv1[] = {3}, lv2[] = {4, 5, 6};
  const uint8_t *ld[3] = {ld0, ld1, ld2}, *lr[3] = {lr0, lr1, lr2};
  const int64_t *lv[3] = {lv0, lv1, lv2};
  const int ln[3] = {3, 2, 4}, lvn[3] = {2, 1, 3};
  for (int i = 0; i < 3; i++) {
    chv_buf_init(&lb[i]);
    plain_i64(&lb[i], lv[i], (size_t)lvn[i]);
    lp[i] = PG(CHV_PQ_PAGE_DATA_PAGE_V2, ln[i], ld[i], lr[i], &lb[i]);
    lp[i].rows = 2;
  }
  /* s: "a", NULL, "c" | "d", "e", NULL */
  static const uint8_t sd0[] = {1, 0, 1}, sd1[] = {1, 1, 0};
  static const char *sv0[] = {"a", "c"}, *sv1[] = {"d", "e"};
  chv_buf_init(&sb[0]);
  chv_buf_init(&sb[1]);
  plain_str(&sb[0], sv0, 2);
  plain_str(&sb[1], sv1, 2);
  sp[0] = PG(CHV_PQ_PAGE_DATA_PAGE, 3, sd0, NULL, &sb[0]);
  sp[1] = PG(CHV_PQ_PAGE_DATA_PAGE, 3, sd1, NULL, &sb[1]);
  struct pb_chunk ch[3] = {
      {3, xp, 0, 0, CHV_PQ_CODEC_SNAPPY, false, {0}, true},
      {3, lp, 3, 1, CHV_PQ_CODEC_ZSTD, false, {0}, true},
      {2, sp, 1, 0, CHV_PQ_CODEC_UNCOMPRESSED, false, {0}, true},
  };
  const int64_t rows[1] = {6};
  struct pb_file f = {s, 6, 1, rows, ch, true};
  struct chv_error err;
  CHV_REQUIRE_OK(pb_write(path, &f, &err), &err);
  /* Without predicates: everything. */
  const char *all = "{\"x\":1,\"l\":[1,2],\"s\":\"a\"}\n"
                    "{\"x\":2,\"l\":null,\"s\":null}\n"
                    "{\"x\":3,\"l\":[],\"s\":\"c\"}\n"
                    "{\"x\":4,\"l\":[3],\"s\":\"d\"}\n"
                    "{\"x\":5,\"l\":[4,5,6],\"s\":\"e\"}\n"
                    "{\"x\":6,\"l\":[null],\"s\":null}\n";
  struct chv_buf out;
  chv_buf_init(&out);
  int64_t n;
  CHV_CHECK_OK(read_jsonl(path, NULL, 4, &out, &n, &err), &err);
  CHV_CHECK(lines_same("pageskip", out.data ? out.data : "", out.len, all,
                       strlen(all)));
  /* x = 3: its pages 0 and 2 are ruled out, rows 2 and 3 are read. */
  static const struct {
    struct chv_pred p;
    const char *want;
    int64_t pages_skipped;
  } cases[] = {
      {{"x", CHV_PRED_EQ, "3"},
       "{\"x\":3,\"l\":[],\"s\":\"c\"}\n"
       "{\"x\":4,\"l\":[3],\"s\":\"d\"}\n",
       4},
      {{"x", CHV_PRED_GE, "5"},
       "{\"x\":5,\"l\":[4,5,6],\"s\":\"e\"}\n"
       "{\"x\":6,\"l\":[null],\"s\":null}\n",
       5},
      {{"x", CHV_PRED_LT, "3"},
       "{\"x\":1,\"l\":[1,2],\"s\":\"a\"}\n"
       "{\"x\":2,\"l\":null,\"s\":null}\n",
       5},
  };
  for (size_t c = 0; c < CHV_ARRAY_SIZE(cases); c++) {
    for (int64_t cap = 1; cap <= 3; cap++) {
      struct chv_pq_read_options o;
      chv_pq_read_options_init(&o);
      o.preds = &cases[c].p;
      o.npreds = 1;
      chv_buf_reset(&out);
      CHV_CHECK_OK(read_jsonl(path, &o, cap, &out, &n, &err), &err);
      CHV_CHECK(lines_same("pageskip", out.data ? out.data : "", out.len,
                           cases[c].want, strlen(cases[c].want)));
      chv_pq_reader *r;
      CHV_REQUIRE_OK(chv_pq_reader_open(chv_fs_local(), path, &o, &r, &err),
                     &err);
      struct chv_batch *b;
      CHV_REQUIRE_OK(chv_batch_open(chv_pq_reader_schema(r), cap, &b, &err),
                     &err);
      while (chv_pq_reader_next(r, b, &n, &err) == CHV_OK && n > 0) {
      }
      struct chv_pq_read_stats st;
      chv_pq_reader_stats(r, &st);
      CHV_CHECK_EQ_INT(st.rows_skipped, 4);
      CHV_CHECK_EQ_INT(st.pages_skipped, cases[c].pages_skipped);
      chv_batch_close(b);
      chv_pq_reader_close(r);
    }
  }
  chv_buf_free(&out);
  for (int i = 0; i < 3; i++) {
    chv_buf_free(&xb[i]);
    chv_buf_free(&lb[i]);
  }
  chv_buf_free(&sb[0]);
  chv_buf_free(&sb[1]);
}

/* Level streams that contradict the schema or each other. */
static void test_bad_levels(void) {
  const char *path = tmpfile_path("badlevels.parquet");
  struct chv_pq_schema_element s[5] = {
      pb_group("schema", -1, 1, -1),
      pb_group("l", CHV_PQ_REP_OPTIONAL, 1, CHV_PQ_CT_LIST),
      pb_group("list", CHV_PQ_REP_REPEATED, 2, -1),
      pb_leaf("x", CHV_PQ_REP_OPTIONAL, CHV_PQ_TYPE_INT64, -1),
      pb_leaf("y", CHV_PQ_REP_OPTIONAL, CHV_PQ_TYPE_INT64, -1),
  };
  static const int64_t v[] = {1, 2, 3};
  struct chv_buf b;
  chv_buf_init(&b);
  plain_i64(&b, v, 3);
  const int64_t rows[1] = {1};
  static const struct {
    uint8_t dx[3], rx[3], dy[3], ry[3];
    int nx, ny;
    const char *msg;
  } cases[] = {
      /* a repeated entry whose list is NULL */
      {{3, 0, 3},
       {0, 1, 1},
       {3, 3, 3},
       {0, 1, 1},
       3,
       3,
       "column l.list.x, row group 0, page 0: repetition level 1 with "
       "definition level 0"},
      /* x has 3 elements, y 2: the struct's members disagree */
      {{3, 3, 3},
       {0, 1, 1},
       {3, 3, 0},
       {0, 1, 0},
       3,
       2,
       "badlevels.parquet: column l.list.y, row group 0: its leaf "
       "columns disagree on the structure (2 values where 3 are "
       "expected)"},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cases); i++) {
    struct pb_page px =
        PG(CHV_PQ_PAGE_DATA_PAGE, cases[i].nx, cases[i].dx, cases[i].rx, &b);
    struct pb_page py =
        PG(CHV_PQ_PAGE_DATA_PAGE, cases[i].ny, cases[i].dy, cases[i].ry, &b);
    struct pb_chunk ch[2] = {{1, &px, 3, 1, 0, false, {0}, false},
                             {1, &py, 3, 1, 0, false, {0}, false}};
    struct pb_file f = {s, 5, 1, rows, ch, false};
    struct chv_error err;
    CHV_REQUIRE_OK(pb_write(path, &f, &err), &err);
    CHV_CHECK_EQ_INT(read_status(path, NULL, &err, NULL), CHV_ECORRUPT);
    CHV_CHECK_CONTAINS(err.msg, cases[i].msg);
  }
  /* More rows in a chunk than its row group says; fewer. */
  static const uint8_t d[3] = {3, 3, 3}, r2[3] = {0, 0, 0};
  struct pb_page p = PG(CHV_PQ_PAGE_DATA_PAGE, 3, d, r2, &b);
  struct pb_chunk ch[2] = {{1, &p, 3, 1, 0, false, {0}, false},
                           {1, &p, 3, 1, 0, false, {0}, false}};
  struct pb_file f = {s, 5, 1, rows, ch, false};
  struct chv_error err;
  CHV_REQUIRE_OK(pb_write(path, &f, &err), &err);
  CHV_CHECK_EQ_INT(read_status(path, NULL, &err, NULL), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "holds more values than its row group's 1 rows");
  const int64_t four[1] = {4};
  f.rows = four;
  CHV_REQUIRE_OK(pb_write(path, &f, &err), &err);
  CHV_CHECK_EQ_INT(read_status(path, NULL, &err, NULL), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "ends 1 rows before its row group's 4");

  /* A definition level above the maximum the schema allows (2, which
  ** takes 2 bits). */
  struct chv_pq_schema_element s2[3] = {
      pb_group("schema", -1, 1, -1),
      pb_group("s", CHV_PQ_REP_OPTIONAL, 1, -1),
      pb_leaf("x", CHV_PQ_REP_OPTIONAL, CHV_PQ_TYPE_INT64, -1),
  };
  static const uint8_t d3[2] = {2, 3};
  struct pb_page p3 = PG(CHV_PQ_PAGE_DATA_PAGE, 2, d3, NULL, &b);
  struct pb_chunk c3 = {1, &p3, 2, 0, 0, false, {0}, false};
  const int64_t two[1] = {2};
  struct pb_file f3 = {s2, 3, 1, two, &c3, false};
  CHV_REQUIRE_OK(pb_write(path, &f3, &err), &err);
  CHV_CHECK_EQ_INT(read_status(path, NULL, &err, NULL), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "column s.x, row group 0, page 0: definition "
                              "level 3 exceeds the column's maximum 2");
  chv_buf_free(&b);
}

/* Dictionary pages: shared by pages, converted once, indexes checked. */
static void test_dictionary(void) {
  const char *path = tmpfile_path("dict.parquet");
  struct chv_pq_schema_element s[2] = {
      pb_group("schema", -1, 1, -1),
      pb_leaf("s", CHV_PQ_REP_OPTIONAL, CHV_PQ_TYPE_BYTE_ARRAY, CHV_PQ_CT_UTF8),
  };
  static const char *words[] = {"zero", "one", "two"};
  struct chv_buf dict, i0, i1;
  chv_buf_init(&dict);
  chv_buf_init(&i0);
  chv_buf_init(&i1);
  plain_str(&dict, words, 3);
  uint32_t x0[] = {2, 0, 1}, x1[] = {1, 1, 2};
  chv_pq_rle_encode_dict(x0, 3, 2, &i0, NULL);
  chv_pq_rle_encode_dict(x1, 3, 2, &i1, NULL);
  static const uint8_t d0[] = {1, 1, 0, 1}, d1[] = {1, 1, 1};
  struct pb_page pg[3] = {
      PG(CHV_PQ_PAGE_DICTIONARY_PAGE, 3, NULL, NULL, &dict),
      PG(CHV_PQ_PAGE_DATA_PAGE, 4, d0, NULL, &i0),
      PG(CHV_PQ_PAGE_DATA_PAGE_V2, 3, d1, NULL, &i1),
  };
  pg[1].enc = pg[2].enc = CHV_PQ_ENC_RLE_DICTIONARY;
  struct pb_chunk ch = {3, pg, 1, 0, CHV_PQ_CODEC_GZIP, false, {0}, false};
  const int64_t rows[1] = {7};
  struct pb_file f = {s, 2, 1, rows, &ch, false};
  struct chv_error err;
  CHV_REQUIRE_OK(pb_write(path, &f, &err), &err);
  /* VARCHAR applied to the dictionary's entries. */
  check_table(path, "S varchar(2)", NULL, 0,
              "{\"S\":\"tw\"}\n{\"S\":\"ze\"}\n{\"S\":null}\n", 3);
  struct chv_buf out;
  chv_buf_init(&out);
  int64_t n;
  CHV_CHECK_OK(read_jsonl(path, NULL, 3, &out, &n, &err), &err);
  const char *want = "{\"s\":\"two\"}\n{\"s\":\"zero\"}\n{\"s\":null}\n"
                     "{\"s\":\"one\"}\n{\"s\":\"one\"}\n{\"s\":\"one\"}\n"
                     "{\"s\":\"two\"}\n";
  CHV_CHECK(lines_same("dict", out.data ? out.data : "", out.len, want,
                       strlen(want)));
  chv_buf_free(&out);
  /* An index past the dictionary. */
  uint32_t x2[] = {1, 3, 2};
  chv_buf_reset(&i1);
  chv_pq_rle_encode_dict(x2, 3, 2, &i1, NULL);
  CHV_REQUIRE_OK(pb_write(path, &f, &err), &err);
  CHV_CHECK_EQ_INT(read_status(path, NULL, &err, NULL), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "row group 0, page 2: dictionary index 3 is "
                              "not below the dictionary size 3");
  /* Dictionary-encoded values without a dictionary page. */
  ch.pages = pg + 1;
  ch.npages = 2;
  CHV_REQUIRE_OK(pb_write(path, &f, &err), &err);
  CHV_CHECK_EQ_INT(read_status(path, NULL, &err, NULL), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "page 0: values are dictionary encoded but "
                              "the column chunk has no dictionary page");
  chv_buf_free(&dict);
  chv_buf_free(&i0);
  chv_buf_free(&i1);
}

/* ---- robustness -------------------------------------------------------- */

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* Fixtures with bytes changed and cut: rows or a clean error. */
static void test_mutations(void) {
  static const char *files[] = {
      "alltypes_plain.snappy.parquet", "nullable.impala.parquet",
      "datapage_v2.snappy.parquet",    "nested_maps.snappy.parquet",
      "delta_byte_array.parquet",      "byte_stream_split.zstd.parquet",
      "list_columns.parquet",          "repeated_no_annotation.parquet",
      "rle_boolean_encoding.parquet",  "fixed_length_decimal.parquet",
  };
  const char *tmp = tmpfile_path("mutant.parquet");
  int runs = 0;
  for (size_t fi = 0; fi < CHV_ARRAY_SIZE(files); fi++) {
    size_t len;
    char *data = load_text(fx(files[fi]), &len);
    CHV_REQUIRE(data != NULL);
    for (int k = 0; k < 60; k++) {
      char *m = chv_malloc(len);
      memcpy(m, data, len);
      size_t mlen = len;
      int flips = 1 + (int)(rnd() % 4);
      for (int j = 0; j < flips; j++) {
        size_t at = 4 + (size_t)(rnd() % (len - 12));
        m[at] = (char)(rnd() & 0xff);
      }
      if (k % 10 == 9) mlen = 8 + (size_t)(rnd() % (len - 8));
      CHV_REQUIRE_OK(chv_fs_write_atomic(chv_fs_local(), tmp, m, mlen, NULL),
                     NULL);
      struct chv_pq_read_options o;
      chv_pq_read_options_init(&o);
      o.max_page_bytes = 1 << 20;
      struct chv_error err;
      int rc = read_status(tmp, &o, &err, NULL);
      if (rc != CHV_OK && rc != CHV_ECORRUPT && rc != CHV_ERANGE &&
          rc != CHV_ENOTSUP && rc != CHV_EINVAL) {
        fprintf(stderr, "%s mutant %d: status %d: %s\n", files[fi], k, rc,
                err.msg);
        CHV_CHECK(false);
      }
      chv_free(m);
      runs++;
    }
    chv_free(data);
  }
  CHV_CHECK_EQ_INT(runs, 600);
}

/* Every allocation failing in turn: CHV_ENOMEM, until it succeeds. */
static void test_out_of_memory(void) {
  const char *files[] = {"nullable.impala.parquet",
                         "datapage_v2.snappy.parquet"};
  for (size_t fi = 0; fi < CHV_ARRAY_SIZE(files); fi++) {
    int64_t rows = 0;
    int rc = CHV_ENOMEM;
    long n = 1;
    for (; rc == CHV_ENOMEM && n < 5000; n++) {
      struct chv_error err;
      chv_alloc_fail_after(n);
      rc = read_status(fx(files[fi]), NULL, &err, &rows);
      chv_alloc_fail_after(0);
      if (rc != CHV_OK && rc != CHV_ENOMEM) {
        fprintf(stderr, "%s, allocation %ld failing: %d %s\n", files[fi], n, rc,
                err.msg);
        CHV_CHECK(false);
      }
    }
    CHV_CHECK_EQ_INT(rc, CHV_OK);
    CHV_CHECK(n > 10);
  }
}

/* ---- split ranges ------------------------------------------------------ */

#define RANGE_ROWS 30000

/* The cut points' own generator (the mutations keep their sequence). */
static uint64_t rrng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rrnd(void) {
  rrng_state ^= rrng_state << 13;
  rrng_state ^= rrng_state >> 7;
  rrng_state ^= rrng_state << 17;
  return rrng_state;
}

/* (id bigint, s string, d double) in many small row groups, s dictionary
** encoded (its chunks start with a dictionary page) and id first, written
** by chive's writer; ids 0..RANGE_ROWS-1 in order. */
static void write_ranges_file(const char *path) {
  struct chv_error err;
  struct chv_type *schema;
  CHV_REQUIRE_OK(chv_type_parse_columns("s string, id bigint, d double",
                                        &schema, &err), &err);
  struct chv_pq_write_options o;
  chv_pq_write_options_init(&o);
  o.block_size = 6000;
  o.page_size = 2048;
  chv_pq_writer *w;
  CHV_REQUIRE_OK(chv_pq_writer_open(chv_fs_local(), path, schema, &o, &w,
                                    &err), &err);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(schema, 1000, &b, &err), &err);
  for (int64_t id = 0; id < RANGE_ROWS; id++) {
    char text[16];
    int n = snprintf(text, sizeof text, "k%d", (int)(id % 37));
    double d = (double)(id * 7 % 1000) / 8;
    CHV_REQUIRE_OK(chv_vector_append_string(b->cols[0], text, (size_t)n, &err),
                   &err);
    CHV_REQUIRE_OK(chv_vector_append_value(b->cols[1], &id, &err), &err);
    CHV_REQUIRE_OK(chv_vector_append_value(b->cols[2], &d, &err), &err);
    if (++b->nrows == 1000 || id == RANGE_ROWS - 1) {
      CHV_REQUIRE_OK(chv_pq_writer_write(w, b, &err), &err);
      chv_batch_reset(b);
    }
  }
  CHV_REQUIRE_OK(chv_pq_writer_finish(w, NULL, &err), &err);
  chv_pq_writer_close(w);
  chv_batch_close(b);
  chv_type_free(schema);
}

static const char *ranges_file(void) {
  static char path[800];
  if (path[0]) return path;
  snprintf(path, sizeof path, "%s", tmpfile_path("ranges.parquet"));
  write_ranges_file(path);
  struct stat st;
  if (stat(path, &st) != 0 || st.st_size == 0) path[0] = '\0';
  return path;
}

/* Each row group's anchor worked out from the footer: parquet-mr's
** midpoint (getOffset() of the first chunk plus half the group's
** compressed size) or Hive's first data page of the first chunk. */
static int64_t *anchors(const char *path, enum chv_pq_range_rule rule,
                        int *n, int64_t *size) {
  struct chv_error err;
  struct chv_file *f;
  struct chv_pq_file_meta *m;
  if (chv_fs_local()->open(chv_fs_local(), path, &f, &err) != CHV_OK ||
      chv_file_size(f, size, &err) != CHV_OK ||
      chv_pq_footer_read(f, *size, path, &m, &err) != CHV_OK) {
    fprintf(stderr, "%s: %s\n", path, err.msg);
    exit(1);
  }
  int64_t *a = chv_calloc((size_t)m->nrow_groups + 1, sizeof *a);
  for (int g = 0; g < m->nrow_groups; g++) {
    const struct chv_pq_row_group *rg = &m->row_groups[g];
    const struct chv_pq_column_meta *cm = rg->columns[0].meta_data;
    if (rule == CHV_PQ_RANGE_FIRST_DATA_PAGE) {
      a[g] = cm->data_page_offset;
      continue;
    }
    int64_t off = cm->data_page_offset;
    if (cm->has_dictionary_page_offset && cm->dictionary_page_offset < off)
      off = cm->dictionary_page_offset;
    int64_t total = 0;
    for (int c = 0; c < rg->ncolumns; c++)
      total += rg->columns[c].meta_data->total_compressed_size;
    if (rg->has_total_compressed_size) CHV_CHECK_EQ_INT(rg->total_compressed_size, total);
    a[g] = off + total / 2;
  }
  *n = m->nrow_groups;
  chv_pq_file_meta_close(m);
  chv_file_close(f);
  return a;
}

/* Read the ids of [start, start + len) into seen (each must be new) and
** check the split reads exactly the groups whose anchor lies in it. */
static void read_range(const char *path, enum chv_pq_range_rule rule,
                       int64_t start, int64_t len, const int64_t *anchor,
                       int ngroups, uint8_t *seen, int64_t *total) {
  struct chv_pq_read_options o;
  chv_pq_read_options_init(&o);
  static const char *const cols[] = {"id"};
  o.columns = cols;
  o.ncolumns = 1;
  o.range_start = start;
  o.range_length = len;
  o.range_rule = rule;
  struct chv_error err;
  chv_pq_reader *r;
  CHV_REQUIRE_OK(chv_pq_reader_open(chv_fs_local(), path, &o, &r, &err), &err);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(chv_pq_reader_schema(r), 777, &b, &err), &err);
  int64_t n, rows = 0;
  while (chv_pq_reader_next(r, b, &n, &err) == CHV_OK && n > 0) {
    const int64_t *ids = b->cols[0]->data;
    for (int64_t k = 0; k < n; k++) {
      CHV_REQUIRE(ids[k] >= 0 && ids[k] < RANGE_ROWS);
      CHV_CHECK(!seen[ids[k]]);
      seen[ids[k]] = 1;
    }
    rows += n;
  }
  int want = 0;
  for (int g = 0; g < ngroups; g++)
    want += anchor[g] >= start && anchor[g] < start + len;
  struct chv_pq_read_stats st;
  chv_pq_reader_stats(r, &st);
  CHV_CHECK_EQ_INT(st.row_groups, want);
  CHV_CHECK_EQ_INT(st.rows, rows);
  *total += rows;
  chv_batch_close(b);
  chv_pq_reader_close(r);
}

/* Splits cut at arbitrary points (at anchors, next to them, at the first
** and last byte, inside the footer, randomly) read every row once under
** either rule, each split reading the groups anchored in it. */
static void test_ranges(void) {
  const char *path = ranges_file();
  CHV_REQUIRE(path[0]);
  for (int rule = 0; rule < 2; rule++) {
    int ng;
    int64_t size;
    int64_t *anchor = anchors(path, (enum chv_pq_range_rule)rule, &ng, &size);
    CHV_REQUIRE(ng >= 20);
    uint8_t *seen = chv_calloc(RANGE_ROWS, 1);
    for (int round = 0; round < 40; round++) {
      /* Sorted distinct cut points in (0, size). */
      int64_t cuts[64];
      int nc = 0;
      int want = round < 4 ? round * 7 : 1 + (int)(rrnd() % 40);
      while (nc < want) {
        int64_t c;
        switch (rrnd() % 4) {
        case 0: c = anchor[rrnd() % (uint64_t)ng]; break;
        case 1: c = anchor[rrnd() % (uint64_t)ng] + 1; break;
        case 2: c = rrnd() % 2 ? 1 : size - 1; break;
        default: c = 1 + (int64_t)(rrnd() % (uint64_t)(size - 1)); break;
        }
        bool dup = c <= 0 || c >= size;
        for (int k = 0; k < nc && !dup; k++) dup = cuts[k] == c;
        if (!dup) cuts[nc++] = c;
      }
      for (int i = 1; i < nc; i++)
        for (int j = i; j > 0 && cuts[j - 1] > cuts[j]; j--) {
          int64_t t = cuts[j];
          cuts[j] = cuts[j - 1];
          cuts[j - 1] = t;
        }
      memset(seen, 0, RANGE_ROWS);
      int64_t total = 0, at = 0;
      for (int k = 0; k <= nc; k++) {
        int64_t end = k < nc ? cuts[k] : size;
        read_range(path, (enum chv_pq_range_rule)rule, at, end - at, anchor,
                   ng, seen, &total);
        at = end;
      }
      CHV_CHECK_EQ_INT(total, RANGE_ROWS);
    }
    chv_free(seen);
    chv_free(anchor);
  }
  int ng;
  int64_t size;
  int64_t *mid = anchors(path, CHV_PQ_RANGE_MIDPOINT, &ng, &size);
  int64_t *first = anchors(path, CHV_PQ_RANGE_FIRST_DATA_PAGE, &ng, &size);
  /* The rules differ on every group: half a group lies past its first
  ** data page. */
  for (int g = 0; g < ng; g++) CHV_CHECK(mid[g] > first[g]);
  /* A range holding no anchor reads nothing; range_length <= 0 reads to
  ** the end; the whole file is every group. */
  uint8_t *seen = chv_calloc(RANGE_ROWS, 1);
  int64_t total = 0;
  read_range(path, CHV_PQ_RANGE_MIDPOINT, mid[3] + 1, mid[4] - mid[3] - 1,
             mid, ng, seen, &total);
  CHV_CHECK_EQ_INT(total, 0);
  struct chv_pq_read_options o;
  chv_pq_read_options_init(&o);
  o.range_start = mid[ng - 2];
  int64_t rows;
  struct chv_error err;
  CHV_REQUIRE_OK(read_jsonl(path, &o, 4096, NULL, &rows, &err), &err);
  CHV_CHECK(rows > 0 && rows < RANGE_ROWS);
  o.range_start = 0;
  CHV_REQUIRE_OK(read_jsonl(path, &o, 4096, NULL, &rows, &err), &err);
  CHV_CHECK_EQ_INT(rows, RANGE_ROWS);
  chv_free(seen);
  chv_free(mid);
  chv_free(first);
}

CHV_TEST_MAIN("pq_reader", test_fixtures_expected,
              test_byte_stream_split_extended, test_lz4_legacy,
              test_map_no_value, test_large_brotli, test_malformed_fixtures,
              test_projection, test_table_schema, test_file_stats,
              test_predicates_sort_columns, test_predicates, test_page_index,
              test_page_index_damaged, test_page_skipping,
              test_records_across_pages, test_bad_levels, test_dictionary,
              test_ranges, test_mutations, test_out_of_memory)
