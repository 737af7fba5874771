/*
** Tests of the ORC reader (chive/orc.h): every fixture of orc/ read and
** compared with its expected rows (orc/expected/NAME.jsn.gz, ORC's own JSON
** dialect, normalised value by value against chive's canonical JSON), the
** fixtures without expected rows against what the fixtures' README and
** ORC's own tests say of them, the malformed files' errors, projection,
** table schemas (by position and by name, missing columns, widenings),
** predicates skipping stripes and row groups (with row index seeks), bloom
** filter hashing, split ranges, batch sizes, tail statistics and units.
*/
#include "chv_test.h"

#include "chive/jsonl.h"
#include "chive/orc.h"
#include "common/common.h"
#include "format/orc/orc_read.h"

#include <zlib.h>

static char path_buf[1024];

static const char *fx(const char *name) {
  snprintf(path_buf, sizeof path_buf, "%s/orc/%s", chv_test_fixtures(), name);
  return path_buf;
}

static bool have_zone(const char *name) {
  const char *dir = getenv("TZDIR");
  char p[512];
  snprintf(p, sizeof p, "%s/%s", dir && *dir ? dir : "/usr/share/zoneinfo",
           name);
  return access(p, R_OK) == 0;
}

/* ---- a small JSON reader (for both dialects) --------------------------- */

enum jk { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
  enum jk k;
  bool b;
  char *s; /* NUM: the text; STR: the bytes (NUL-terminated) */
  size_t n;
  int nitems;
  struct jv *items;
  char **keys; /* OBJ */
};

struct jp {
  const char *p, *end;
  chv_arena *a;
};

static void ws(struct jp *j) {
  while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' ||
                           *j->p == '\r'))
    j->p++;
}

static bool jparse(struct jp *j, struct jv *v);

static void put_utf8(struct chv_buf *b, unsigned cp) {
  char t[4];
  if (cp < 0x80) {
    t[0] = (char)cp;
    chv_buf_append(b, t, 1);
  } else if (cp < 0x800) {
    t[0] = (char)(0xc0 | cp >> 6);
    t[1] = (char)(0x80 | (cp & 63));
    chv_buf_append(b, t, 2);
  } else if (cp < 0x10000) {
    t[0] = (char)(0xe0 | cp >> 12);
    t[1] = (char)(0x80 | (cp >> 6 & 63));
    t[2] = (char)(0x80 | (cp & 63));
    chv_buf_append(b, t, 3);
  } else {
    t[0] = (char)(0xf0 | cp >> 18);
    t[1] = (char)(0x80 | (cp >> 12 & 63));
    t[2] = (char)(0x80 | (cp >> 6 & 63));
    t[3] = (char)(0x80 | (cp & 63));
    chv_buf_append(b, t, 4);
  }
}

static bool jstring(struct jp *j, char **out, size_t *n) {
  if (j->p >= j->end || *j->p != '"') return false;
  j->p++;
  struct chv_buf b;
  chv_buf_init(&b);
  while (j->p < j->end && *j->p != '"') {
    char c = *j->p++;
    if (c != '\\') {
      chv_buf_append(&b, &c, 1);
      continue;
    }
    if (j->p >= j->end) break;
    c = *j->p++;
    switch (c) {
    case 'n': chv_buf_putc(&b, '\n'); break;
    case 't': chv_buf_putc(&b, '\t'); break;
    case 'r': chv_buf_putc(&b, '\r'); break;
    case 'b': chv_buf_putc(&b, '\b'); break;
    case 'f': chv_buf_putc(&b, '\f'); break;
    case 'u': {
      unsigned cp = 0;
      for (int i = 0; i < 4 && j->p < j->end; i++) {
        char h = *j->p++;
        cp = cp * 16 + (unsigned)(h <= '9' ? h - '0' : (h | 32) - 'a' + 10);
      }
      if (cp >= 0xd800 && cp < 0xdc00 && j->end - j->p >= 6 && j->p[0] == '\\') {
        unsigned lo = 0;
        j->p += 2;
        for (int i = 0; i < 4; i++) {
          char h = *j->p++;
          lo = lo * 16 + (unsigned)(h <= '9' ? h - '0' : (h | 32) - 'a' + 10);
        }
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
      }
      put_utf8(&b, cp);
      break;
    }
    default: chv_buf_append(&b, &c, 1); break;
    }
  }
  if (j->p >= j->end) {
    chv_buf_free(&b);
    return false;
  }
  j->p++;
  *n = b.len;
  *out = chv_arena_alloc(j->a, b.len + 1);
  if (b.len) memcpy(*out, b.data, b.len);
  (*out)[b.len] = '\0';
  chv_buf_free(&b);
  return true;
}

static bool jparse(struct jp *j, struct jv *v) {
  memset(v, 0, sizeof *v);
  ws(j);
  if (j->p >= j->end) return false;
  char c = *j->p;
  if (c == 'n' && j->end - j->p >= 4 && !memcmp(j->p, "null", 4)) {
    j->p += 4;
    v->k = J_NULL;
    return true;
  }
  if (c == 't' && j->end - j->p >= 4 && !memcmp(j->p, "true", 4)) {
    j->p += 4;
    v->k = J_BOOL;
    v->b = true;
    return true;
  }
  if (c == 'f' && j->end - j->p >= 5 && !memcmp(j->p, "false", 5)) {
    j->p += 5;
    v->k = J_BOOL;
    return true;
  }
  if (c == '"') {
    v->k = J_STR;
    return jstring(j, &v->s, &v->n);
  }
  if (c == '[' || c == '{') {
    bool obj = c == '{';
    v->k = obj ? J_OBJ : J_ARR;
    j->p++;
    int cap = 0;
    for (;;) {
      ws(j);
      if (j->p < j->end && *j->p == (obj ? '}' : ']')) {
        j->p++;
        return true;
      }
      if (v->nitems) {
        if (j->p >= j->end || *j->p != ',') return false;
        j->p++;
        ws(j);
      }
      if (v->nitems == cap) {
        int nc = cap ? cap * 2 : 8;
        struct jv *it = chv_arena_alloc(j->a, sizeof *it * (size_t)nc);
        char **ks = chv_arena_alloc(j->a, sizeof *ks * (size_t)nc);
        if (cap) {
          memcpy(it, v->items, sizeof *it * (size_t)cap);
          memcpy(ks, v->keys, sizeof *ks * (size_t)cap);
        }
        v->items = it;
        v->keys = ks;
        cap = nc;
      }
      if (obj) {
        size_t kn;
        if (!jstring(j, &v->keys[v->nitems], &kn)) return false;
        ws(j);
        if (j->p >= j->end || *j->p != ':') return false;
        j->p++;
      }
      if (!jparse(j, &v->items[v->nitems])) return false;
      v->nitems++;
    }
  }
  const char *s = j->p;
  while (j->p < j->end && strchr("+-0123456789.eE", *j->p)) j->p++;
  if (j->p == s) return false;
  v->k = J_NUM;
  v->n = (size_t)(j->p - s);
  v->s = chv_arena_strndup(j->a, s, v->n);
  return true;
}

static bool jread(chv_arena *a, const char *s, size_t n, struct jv *v) {
  struct jp j = {s, s + n, a};
  return jparse(&j, v);
}

static const struct jv *jget(const struct jv *o, const char *key) {
  if (o->k != J_OBJ) return NULL;
  for (int i = 0; i < o->nitems; i++)
    if (!strcmp(o->keys[i], key)) return &o->items[i];
  return NULL;
}

/* ---- comparing a value of ORC's dialect with chive's ------------------- */

static bool b64_decode(const char *s, size_t n, uint8_t *out, size_t *len) {
  static const char *tab =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  uint32_t acc = 0;
  int bits = 0;
  *len = 0;
  for (size_t i = 0; i < n && s[i] != '='; i++) {
    const char *p = strchr(tab, s[i]);
    if (p == NULL || s[i] == '\0') return false;
    acc = acc << 6 | (uint32_t)(p - tab);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[(*len)++] = (uint8_t)(acc >> bits);
    }
  }
  return true;
}

/* Flags of one comparison. */
struct cmpctx {
  bool trunc6; /* Hive 0.11 decimals: ORC's tool printed 6 digits, cut */
  char what[256];
};

static bool same(const struct jv *e, const struct jv *a,
                 const struct chv_type *t, struct cmpctx *cx);

static bool same_num_text(const char *x, const char *y, bool single) {
  double dx = strtod(x, NULL), dy = strtod(y, NULL);
  if (dx == dy) return true;
  if (!single) return false;
  /* ORC's tool printed floats with 7 significant digits. */
  char bx[64], by[64];
  snprintf(bx, sizeof bx, "%.7g", dx);
  snprintf(by, sizeof by, "%.7g", (double)(float)dy);
  return !strcmp(bx, by);
}

static bool same(const struct jv *e, const struct jv *a,
                 const struct chv_type *t, struct cmpctx *cx) {
  if (e == NULL || a == NULL) {
    snprintf(cx->what, sizeof cx->what, "missing value");
    return false;
  }
  if (e->k == J_NULL || a->k == J_NULL) {
    if (e->k == a->k) return true;
    snprintf(cx->what, sizeof cx->what, "NULL on one side only");
    return false;
  }
  switch (t->id) {
  case CHV_TYPE_BOOLEAN:
    return e->k == J_BOOL && a->k == J_BOOL && e->b == a->b;
  case CHV_TYPE_TINYINT:
  case CHV_TYPE_SMALLINT:
  case CHV_TYPE_INT:
  case CHV_TYPE_BIGINT:
    if (e->k == J_NUM && a->k == J_NUM &&
        strtoll(e->s, NULL, 10) == strtoll(a->s, NULL, 10))
      return true;
    snprintf(cx->what, sizeof cx->what, "%s != %s", e->s, a->s);
    return false;
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DOUBLE:
    if (e->k == J_NUM && a->k == J_NUM &&
        same_num_text(e->s, a->s, t->id == CHV_TYPE_FLOAT))
      return true;
    snprintf(cx->what, sizeof cx->what, "%s != %s", e->s, a->s);
    return false;
  case CHV_TYPE_DECIMAL: {
    chv_i128 x, y;
    if (a->k != J_STR || e->k != J_NUM ||
        chv_decimal_parse(e->s, e->n, 38, t->scale, &x) != CHV_OK ||
        chv_decimal_parse(a->s, a->n, 38, t->scale, &y) != CHV_OK)
      return false;
    if (cx->trunc6 && t->scale > 6) {
      chv_i128 p = 1;
      for (int i = 6; i < t->scale; i++) p *= 10;
      y = y / p * p;
    }
    if (x == y) return true;
    snprintf(cx->what, sizeof cx->what, "%s != %s", e->s, a->s);
    return false;
  }
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
  case CHV_TYPE_DATE:
    if (e->k == J_STR && a->k == J_STR && e->n == a->n &&
        !memcmp(e->s, a->s, e->n))
      return true;
    snprintf(cx->what, sizeof cx->what, "\"%s\" != \"%s\"",
             e->k == J_STR ? e->s : "?", a->k == J_STR ? a->s : "?");
    return false;
  case CHV_TYPE_TIMESTAMP: {
    struct chv_timestamp x, y;
    if (e->k == J_STR && a->k == J_STR &&
        chv_timestamp_parse(e->s, e->n, &x) == CHV_OK &&
        chv_timestamp_parse(a->s, a->n, &y) == CHV_OK &&
        x.seconds == y.seconds && x.nanos == y.nanos)
      return true;
    snprintf(cx->what, sizeof cx->what, "%s != %s",
             e->k == J_STR ? e->s : "?", a->k == J_STR ? a->s : "?");
    return false;
  }
  case CHV_TYPE_BINARY: {
    if (e->k != J_ARR || a->k != J_STR) return false;
    uint8_t *buf = malloc(a->n + 1);
    size_t len;
    bool ok = b64_decode(a->s, a->n, buf, &len) && len == (size_t)e->nitems;
    for (int i = 0; ok && i < e->nitems; i++)
      ok = strtol(e->items[i].s, NULL, 10) == buf[i];
    free(buf);
    if (!ok) snprintf(cx->what, sizeof cx->what, "binary differs");
    return ok;
  }
  case CHV_TYPE_ARRAY:
  case CHV_TYPE_MAP:
    if (e->k != J_ARR || a->k != J_ARR || e->nitems != a->nitems) {
      snprintf(cx->what, sizeof cx->what, "list lengths differ");
      return false;
    }
    for (int i = 0; i < e->nitems; i++) {
      if (t->id == CHV_TYPE_ARRAY) {
        if (!same(&e->items[i], &a->items[i], t->children[0], cx)) return false;
      } else if (!same(jget(&e->items[i], "key"), jget(&a->items[i], "key"),
                       t->children[0], cx) ||
                 !same(jget(&e->items[i], "value"),
                       jget(&a->items[i], "value"), t->children[1], cx)) {
        return false;
      }
    }
    return true;
  case CHV_TYPE_STRUCT: {
    if (e->k != J_OBJ || a->k != J_OBJ) return false;
    if (jget(e, "tag") && jget(e, "value") && chv_type_field_index(t, "tag") >= 0) {
      /* A union: {"tag": n, "value": v} against struct<tag, field0, ...>. */
      const struct jv *tag = jget(e, "tag");
      char fname[32];
      snprintf(fname, sizeof fname, "field%s", tag->s);
      if (!same(tag, jget(a, "tag"), t->children[0], cx)) return false;
      for (int i = 0; i < t->nchildren; i++) {
        if (!strcmp(t->names[i], "tag")) continue;
        const struct jv *av = jget(a, t->names[i]);
        if (!strcmp(t->names[i], fname)) {
          if (!same(jget(e, "value"), av, t->children[i], cx)) return false;
        } else if (av == NULL || av->k != J_NULL) {
          snprintf(cx->what, sizeof cx->what, "%s is set", t->names[i]);
          return false;
        }
      }
      return true;
    }
    for (int i = 0; i < t->nchildren; i++)
      if (!same(jget(e, t->names[i]), jget(a, t->names[i]), t->children[i],
                cx)) {
        char tmp[sizeof cx->what];
        memcpy(tmp, cx->what, sizeof tmp);
        snprintf(cx->what, sizeof cx->what, "%.64s: %.180s", t->names[i], tmp);
        return false;
      }
    return true;
  }
  default:
    return false;
  }
}

/* ---- reading ----------------------------------------------------------- */

/* The expected file inflated; *lines one per row. */
static char *expected_text(const char *name, size_t *len) {
  char p[1024];
  snprintf(p, sizeof p, "%s/orc/expected/%s", chv_test_fixtures(), name);
  gzFile g = gzopen(p, "rb");
  if (g == NULL) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  int k;
  while ((k = gzread(g, buf + n, (unsigned)(cap - n - 1))) > 0) {
    n += (size_t)k;
    if (cap - n < 4096) buf = realloc(buf, cap *= 2);
  }
  gzclose(g);
  buf[n] = '\0';
  *len = n;
  return buf;
}

static int open_reader(const char *name, const struct chv_orc_read_options *o,
                       chv_orc_reader **r, struct chv_error *err) {
  return chv_orc_reader_open(chv_fs_local(), fx(name), o, r, err);
}

/* Every row of the reader as chive's JSON lines, in batches of cap rows;
** the status of the first failure. */
static int read_all(chv_orc_reader *r, int64_t cap, struct chv_buf *out,
                    int64_t *rows, struct chv_error *err) {
  struct chv_batch *b;
  CHV_RETURN_IF_ERR(chv_batch_open(chv_orc_reader_schema(r), cap, &b, err));
  int64_t n;
  int rc;
  *rows = 0;
  while ((rc = chv_orc_reader_next(r, b, &n, err)) == CHV_OK && n > 0) {
    CHV_CHECK(n <= cap);
    for (int c = 0; c < b->ncols; c++) CHV_CHECK(b->cols[c]->length == n);
    for (int64_t i = 0; i < n; i++) chv_jsonl_row(b, i, out);
    *rows += n;
  }
  chv_batch_close(b);
  return rc;
}

/* Compare a fixture with its expected rows, reading in batches of cap. */
static void check_expected(const char *file, const char *expected, int64_t cap,
                           bool trunc6) {
  struct chv_error err;
  chv_orc_reader *r;
  CHV_REQUIRE_OK(open_reader(file, NULL, &r, &err), &err);
  struct chv_buf got;
  chv_buf_init(&got);
  int64_t rows = 0;
  CHV_CHECK_OK(read_all(r, cap, &got, &rows, &err), &err);
  const struct chv_type *schema = chv_orc_reader_schema(r);
  size_t elen;
  char *exp = expected_text(expected, &elen);
  CHV_REQUIRE(exp != NULL);
  chv_arena *a;
  chv_arena_open(0, &a);
  const char *ep = exp, *gp = got.data ? got.data : "";
  int64_t line = 0, bad = 0;
  while (*ep) {
    const char *ee = strchr(ep, '\n');
    size_t el = ee ? (size_t)(ee - ep) : strlen(ep);
    if (el == 0) {
      ep += 1;
      continue;
    }
    const char *ge = strchr(gp, '\n');
    if (ge == NULL) {
      fprintf(stderr, "%s: %" PRId64 " rows read, more expected\n", file, line);
      bad++;
      break;
    }
    struct jv e, g;
    CHV_CHECK(jread(a, ep, el, &e));
    CHV_CHECK(jread(a, gp, (size_t)(ge - gp), &g));
    struct cmpctx cx = {.trunc6 = trunc6};
    bool ok;
    if (e.k == J_OBJ) {
      ok = same(&e, &g, schema, &cx);
    } else { /* a non-struct root prints bare values */
      ok = same(&e, jget(&g, "_col0"), schema->children[0], &cx);
    }
    if (!ok && bad++ < 3)
      fprintf(stderr, "%s row %" PRId64 " (batches of %" PRId64 "): %s\n  %.*s\n  %.*s\n",
              file, line, cap, cx.what, (int)el, ep, (int)(ge - gp), gp);
    line++;
    ep += el + (ee ? 1 : 0);
    gp = ge + 1;
    if ((line & 1023) == 0) chv_arena_reset(a);
  }
  CHV_CHECK(*gp == '\0');
  CHV_CHECK_EQ_INT(rows, line);
  CHV_CHECK_EQ_INT(bad, 0);
  struct chv_orc_read_stats st;
  chv_orc_reader_stats(r, &st);
  CHV_CHECK_EQ_INT(st.rows, rows);
  chv_arena_close(a);
  free(exp);
  chv_buf_free(&got);
  chv_orc_reader_close(r);
}

static const struct {
  const char *file;
  int64_t rows;
} expected_files[] = {
    {"TestOrcFile.emptyFile", 0},
    {"TestOrcFile.metaData", 1},
    {"TestOrcFile.test1", 2},
    {"TestOrcFile.testDate1900", 70000},
    {"TestOrcFile.testDate2038", 212000},
    {"TestOrcFile.testMemoryManagementV11", 2500},
    {"TestOrcFile.testMemoryManagementV12", 2500},
    {"TestOrcFile.testSnappy", 10000},
    {"TestOrcFile.testStringAndBinaryStatistics", 4},
    {"TestOrcFile.testStripeLevelStats", 11000},
    {"TestOrcFile.testTimestamp", 12},
    {"TestOrcFile.testUnionAndTimestamp", 5077},
    {"TestOrcFile.testWithoutIndex", 50000},
    {"TestStringDictionary.testRowIndex", 32768},
    {"TestVectorOrcFile.testLz4", 10000},
    {"TestVectorOrcFile.testLzo", 10000},
    {"decimal", 6000},
    {"nulls-at-end-snappy", 70000},
    {"orc-file-11-format", 7500},
    {"orc_index_int_string", 6000},
    {"over1k_bloom", 2098},
};

static void test_expected_files(void) {
  if (!have_zone("US/Pacific")) {
    fprintf(stderr, "# no time zone database: skipped\n");
    return;
  }
  for (size_t i = 0; i < CHV_ARRAY_SIZE(expected_files); i++) {
    char file[256], exp[256];
    snprintf(file, sizeof file, "%s.orc", expected_files[i].file);
    snprintf(exp, sizeof exp, "%s.jsn.gz", expected_files[i].file);
    /* Hive 0.11 decimals (decimal1 of orc-file-11-format) were printed by
    ** ORC's C++ tool at its forced scale of 6, the digits past it cut. */
    bool trunc6 = !strcmp(expected_files[i].file, "orc-file-11-format");
    check_expected(file, exp, 4096, trunc6);
    check_expected(file, exp, 7, trunc6);
    if (expected_files[i].rows <= 12000) check_expected(file, exp, 1, trunc6);
  }
}


/* ---- files without expected rows --------------------------------------- */

/* All rows of a file as one string of JSON lines (NULL on failure). */
static char *dump(const char *file, const struct chv_orc_read_options *o,
                  int64_t cap, int64_t *rows, int *rc, struct chv_error *err) {
  chv_orc_reader *r;
  *rows = 0;
  *rc = open_reader(file, o, &r, err);
  if (*rc != CHV_OK) return NULL;
  struct chv_buf out;
  chv_buf_init(&out);
  *rc = read_all(r, cap, &out, rows, err);
  chv_orc_reader_close(r);
  if (*rc != CHV_OK) {
    chv_buf_free(&out);
    return NULL;
  }
  return out.data ? chv_buf_detach(&out) : chv_strdup("");
}

static bool starts(const char *s, const char *prefix) {
  return s && !strncmp(s, prefix, strlen(prefix));
}

static const char *schema_text(chv_orc_reader *r) {
  static char buf[4096];
  struct chv_buf b;
  chv_buf_init(&b);
  chv_type_format(chv_orc_reader_schema(r), &b);
  snprintf(buf, sizeof buf, "%s", b.data ? b.data : "");
  chv_buf_free(&b);
  return buf;
}

static void test_edge_files(void) {
  struct chv_error err;
  int64_t rows;
  int rc;
  /* No compression block size in the PostScript, no row count in the
  ** Footer: 100 rows, 1 .. 100 (ORC's Java test). */
  char *s = dump("TestOrcFile.testWithoutCompressionBlockSize.orc", NULL, 4096,
                 &rows, &rc, &err);
  CHV_REQUIRE_OK(rc, &err);
  CHV_CHECK_EQ_INT(rows, 100);
  const char *p = s;
  for (int i = 1; i <= 100 && p; i++) {
    char want[32];
    snprintf(want, sizeof want, "{\"_col0\":%d}\n", i);
    CHV_CHECK(!strncmp(p, want, strlen(want)));
    p = strchr(p, '\n');
    if (p) p++;
  }
  chv_free(s);

  /* ZSTD: 10000 rows whose y counts up from 0, as in the LZ4 file. */
  chv_orc_reader *r;
  CHV_REQUIRE_OK(open_reader("TestVectorOrcFile.testZstd.0.12.orc", NULL, &r,
                             &err),
                 &err);
  CHV_CHECK_STREQ(schema_text(r), "struct<x:bigint,y:int,z:bigint>");
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(chv_orc_reader_schema(r), 999, &b, &err), &err);
  int64_t n, total = 0;
  bool ok = true;
  while (chv_orc_reader_next(r, b, &n, &err) == CHV_OK && n > 0) {
    const int32_t *y = b->cols[1]->data;
    for (int64_t i = 0; i < n; i++) ok = ok && y[i] == total + i;
    total += n;
  }
  CHV_CHECK(ok);
  CHV_CHECK_EQ_INT(total, 10000);
  chv_batch_close(b);
  chv_orc_reader_close(r);

  /* Iceberg's nested types with type attributes: its one row. */
  s = dump("complextypes_iceberg.orc", NULL, 4096, &rows, &rc, &err);
  CHV_REQUIRE_OK(rc, &err);
  CHV_CHECK_STREQ(
      s, "{\"id\":8,\"int_array\":[-1],\"int_array_array\":[[-1,-2],[]],"
         "\"int_map\":[{\"key\":\"k1\",\"value\":-1}],\"int_map_array\":[[],"
         "[{\"key\":\"k1\",\"value\":1}],[],[]],\"nested_struct\":{\"a\":-1,"
         "\"b\":[-1],\"c\":{\"d\":[[{\"e\":-1,\"f\":\"nonnullable\"}]]},"
         "\"g\":[]}}\n");
  chv_free(s);

  /* The ORC v2 draft's decimals (version 1.9999): precision <= 18 as RLE v2
  ** integers.  The rows ORC's C++ tool prints (TestFileContents). */
  s = dump("decimal64_v2.orc", NULL, 4, &rows, &rc, &err);
  CHV_REQUIRE_OK(rc, &err);
  CHV_CHECK_EQ_INT(rows, 10);
  CHV_CHECK(starts(s, "{\"a\":17292380420,\"b\":\"24\",\"c\":\"36164.16\","
                        "\"d\":\"0.03\",\"e\":\"0.01\"}\n"
                        "{\"a\":17292380421,\"b\":\"38\",\"c\":\"63351.70\","
                        "\"d\":\"0.08\",\"e\":\"0.01\"}\n"));
  CHV_CHECK(strstr(s, "{\"a\":17292380422,\"b\":\"38\",\"c\":\"47240.84\","
                      "\"d\":\"0.10\",\"e\":\"0.00\"}\n") != NULL);
  chv_free(s);
  /* The C++ one (ORC's Java test): a counts up from 17292380420, b starts at
  ** 164.16 and doubles, e = c + d. */
  CHV_REQUIRE_OK(open_reader("decimal64_v2_cplusplus.orc", NULL, &r, &err),
                 &err);
  CHV_CHECK_STREQ(schema_text(r), "struct<a:bigint,b:decimal(10,2),"
                                  "c:decimal(2,2),d:decimal(2,2),"
                                  "e:decimal(2,2)>");
  CHV_REQUIRE_OK(chv_batch_open(chv_orc_reader_schema(r), 100, &b, &err), &err);
  CHV_REQUIRE_OK(chv_orc_reader_next(r, b, &n, &err), &err);
  CHV_CHECK_EQ_INT(n, 10);
  for (int64_t i = 0; i < n; i++) {
    const chv_i128 *bv = b->cols[1]->data, *c = b->cols[2]->data,
                   *d = b->cols[3]->data, *e = b->cols[4]->data;
    CHV_CHECK_EQ_INT(((int64_t *)b->cols[0]->data)[i], 17292380420 + i);
    CHV_CHECK(bv[i] == (i == 0 ? 16416 : bv[i - 1] * 2));
    CHV_CHECK(e[i] == c[i] + d[i]);
  }
  CHV_CHECK_OK(chv_orc_reader_next(r, b, &n, &err), &err);
  CHV_CHECK_EQ_INT(n, 0);
  chv_batch_close(b);
  chv_orc_reader_close(r);

  /* No magic, no version in the PostScript (an early Hive 0.11 writer). */
  CHV_REQUIRE_OK(open_reader("orc_no_format.orc", NULL, &r, &err), &err);
  CHV_CHECK_STREQ(schema_text(r), "struct<_col0:array<string>,"
                                  "_col1:map<int,string>,"
                                  "_col2:struct<name:string,score:int>>");
  chv_orc_reader_close(r);
  s = dump("orc_no_format.orc", NULL, 2, &rows, &rc, &err);
  CHV_REQUIRE_OK(rc, &err);
  CHV_CHECK_EQ_INT(rows, 5);
  CHV_CHECK(starts(s, "{\"_col0\":[\"Java/C++/Linux,4306:Bob/4307:Jack,"
                        "Bob/90\"],\"_col1\":null,\"_col2\":null}\n"));
  chv_free(s);

  /* Bloom filters of ORC C++ 1.6.0 / 1.6.11: the rows read right. */
  const char *bad[] = {"bad_bloom_filter_1.6.0.orc",
                       "bad_bloom_filter_1.6.11.orc"};
  for (int i = 0; i < 2; i++) {
    s = dump(bad[i], NULL, 3, &rows, &rc, &err);
    CHV_REQUIRE_OK(rc, &err);
    CHV_CHECK_STREQ(s, "{\"id\":0,\"name\":\"Alice\"}\n"
                       "{\"id\":1,\"name\":\"Bob\"}\n"
                       "{\"id\":2,\"name\":\"a\"}\n"
                       "{\"id\":3,\"name\":\"b\"}\n"
                       "{\"id\":18000000000,\"name\":\"Mike\"}\n");
    chv_free(s);
  }

  /* An empty file; a file of 0 rows with its full nested schema. */
  s = dump("zero.orc", NULL, 5, &rows, &rc, &err);
  CHV_REQUIRE_OK(rc, &err);
  CHV_CHECK_EQ_INT(rows, 0);
  chv_free(s);
  CHV_REQUIRE_OK(open_reader("zero.orc", NULL, &r, &err), &err);
  CHV_CHECK_STREQ(schema_text(r), "struct<>");
  chv_orc_reader_close(r);
  CHV_REQUIRE_OK(open_reader("TestOrcFile.emptyFile.orc", NULL, &r, &err),
                 &err);
  CHV_CHECK(strstr(schema_text(r), "middle:struct<list:array<struct<int1:int,"
                                   "string1:string>>>") != NULL);
  chv_orc_reader_close(r);

  /* A future version is refused. */
  rc = open_reader("version1999.orc", NULL, &r, &err);
  CHV_CHECK_EQ_INT(rc, CHV_ENOTSUP);
  CHV_CHECK_CONTAINS(err.msg, "future ORC version 19.99");
}

/* demo-11-zlib (0.11: RLE v1, 385 stripes) and demo-12-zlib (0.12: RLE v2,
** 1 stripe) hold the same rows. */
static uint64_t row_hash(const char *p, size_t n) {
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)p[i]) * 1099511628211ULL;
  return h;
}

/* Hash of every row of a reader (at most max rows). */
static int64_t row_hashes(chv_orc_reader *r, int64_t cap, uint64_t *out,
                          int64_t max, struct chv_error *err) {
  struct chv_batch *b;
  if (chv_batch_open(chv_orc_reader_schema(r), cap, &b, err) != CHV_OK)
    return -1;
  int64_t n, total = 0;
  struct chv_buf line;
  chv_buf_init(&line);
  int rc;
  while ((rc = chv_orc_reader_next(r, b, &n, err)) == CHV_OK && n > 0) {
    for (int64_t i = 0; i < n; i++) {
      chv_buf_reset(&line);
      chv_jsonl_row(b, i, &line);
      if (total < max) out[total] = row_hash(line.data, line.len);
      total++;
    }
  }
  chv_buf_free(&line);
  chv_batch_close(b);
  return rc == CHV_OK ? total : -1;
}

#define DEMO_ROWS 1920800

static void test_demo_v11_v12(void) {
  struct chv_error err;
  uint64_t *a = malloc(sizeof *a * DEMO_ROWS), *b = malloc(sizeof *b * DEMO_ROWS);
  chv_orc_reader *r;
  CHV_REQUIRE_OK(open_reader("demo-11-zlib.orc", NULL, &r, &err), &err);
  CHV_CHECK_EQ_INT(row_hashes(r, 4096, a, DEMO_ROWS, &err), DEMO_ROWS);
  chv_orc_reader_close(r);
  CHV_REQUIRE_OK(open_reader("demo-12-zlib.orc", NULL, &r, &err), &err);
  CHV_CHECK_EQ_INT(row_hashes(r, 1000, b, DEMO_ROWS, &err), DEMO_ROWS);
  chv_orc_reader_close(r);
  CHV_CHECK(memcmp(a, b, sizeof *a * DEMO_ROWS) == 0);
  free(a);
  free(b);
}

/* ---- malformed files --------------------------------------------------- */

static void check_fails(const char *file, int code, const char *msg) {
  struct chv_error err;
  int64_t rows;
  int rc;
  for (int64_t cap = 1; cap <= 4096; cap *= 64) {
    char *s = dump(file, NULL, cap, &rows, &rc, &err);
    CHV_CHECK(s == NULL);
    chv_free(s);
    CHV_CHECK_EQ_INT(rc, code);
    CHV_CHECK_CONTAINS(err.msg, msg);
  }
}

static void test_corrupt_files(void) {
  check_fails("corrupt/missing_blob_stream_in_string_dict.orc", CHV_ECORRUPT,
              "missing_blob_stream_in_string_dict.orc: column string_col, "
              "stripe 0: the stripe has no DICTIONARY_DATA stream");
  check_fails("corrupt/missing_length_stream_in_string_dict.orc", CHV_ECORRUPT,
              "column date_string_col, stripe 0: the stripe has no LENGTH "
              "stream");
  check_fails("corrupt/negative_dict_entry_lengths.orc", CHV_ECORRUPT,
              "column date_string_col, stripe 0: dictionary entry 1 has a "
              "negative length");
  check_fails("corrupt/stripe_footer_bad_column_encodings.orc", CHV_ECORRUPT,
              "stripe 0 footer");
  /* A sticky error: the next call gives it again. */
  struct chv_error err;
  chv_orc_reader *r;
  CHV_REQUIRE_OK(open_reader("corrupt/negative_dict_entry_lengths.orc", NULL,
                             &r, &err),
                 &err);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(chv_orc_reader_schema(r), 10, &b, &err), &err);
  int64_t n;
  CHV_CHECK_EQ_INT(chv_orc_reader_next(r, b, &n, &err), CHV_ECORRUPT);
  err.msg[0] = '\0';
  CHV_CHECK_EQ_INT(chv_orc_reader_next(r, b, &n, &err), CHV_ECORRUPT);
  CHV_CHECK_CONTAINS(err.msg, "negative length");
  CHV_CHECK_EQ_INT(b->nrows, 0);
  chv_batch_close(b);
  chv_orc_reader_close(r);
  /* Streams inflating past max_stream_bytes; a dictionary past it. */
  struct chv_orc_read_options o;
  chv_orc_read_options_init(&o);
  o.max_stream_bytes = 10000;
  int64_t rows;
  int rc;
  char *s = dump("TestOrcFile.testSnappy.orc", &o, 4096, &rows, &rc, &err);
  CHV_CHECK(s == NULL && rc == CHV_ERANGE);
  CHV_CHECK_CONTAINS(err.msg, "TestOrcFile.testSnappy.orc: column int1, stripe "
                              "0: the DATA stream inflates past "
                              "max_stream_bytes (10000 bytes)");
  o.max_stream_bytes = 100;
  s = dump("TestOrcFile.testWithoutIndex.orc", &o, 4096, &rows, &rc, &err);
  CHV_CHECK(s == NULL && rc == CHV_ERANGE);
  CHV_CHECK_CONTAINS(err.msg, "dictionary exceeds max_stream_bytes");
  /* Not ORC at all; a missing file. */
  rc = chv_orc_reader_open(chv_fs_local(), fx("expected/decimal.jsn.gz"), NULL,
                           &r, &err);
  CHV_CHECK_EQ_INT(rc, CHV_ECORRUPT);
  rc = chv_orc_reader_open(chv_fs_local(), fx("no-such-file.orc"), NULL, &r,
                           &err);
  CHV_CHECK_EQ_INT(rc, CHV_ENOENT);
}

/* Every truncation and many flipped bytes of small files fail cleanly or
** read: never a crash (the sanitizer builds check the rest). */
static void test_damaged_bytes(void) {
  const char *files[] = {"TestOrcFile.test1.orc", "decimal64_v2.orc",
                         "TestOrcFile.testStringAndBinaryStatistics.orc",
                         "complextypes_iceberg.orc"};
  char tmp[700];
  snprintf(tmp, sizeof tmp, "%.600s/damaged.orc", chv_test_tmpdir());
  for (size_t f = 0; f < CHV_ARRAY_SIZE(files); f++) {
    char *data;
    size_t len;
    struct chv_error err;
    CHV_REQUIRE_OK(chv_fs_read_all(chv_fs_local(), fx(files[f]), &data, &len,
                                   -1, &err),
                   &err);
    uint64_t seed = 12345 + f;
    for (int round = 0; round < 300; round++) {
      char *copy = malloc(len);
      memcpy(copy, data, len);
      size_t n = len;
      if (round < 100) {
        n = (size_t)(round * (uint64_t)len / 100);
      } else {
        for (int k = 0; k < 1 + round % 4; k++) {
          seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
          copy[(seed >> 33) % len] ^= (char)(1 + (seed >> 20) % 255);
        }
      }
      FILE *fp = fopen(tmp, "wb");
      CHV_REQUIRE(fp != NULL);
      CHV_CHECK(fwrite(copy, 1, n, fp) == n);
      fclose(fp);
      chv_orc_reader *r;
      struct chv_orc_read_options o;
      chv_orc_read_options_init(&o);
      o.max_stream_bytes = 1 << 20;
      int rc = chv_orc_reader_open(chv_fs_local(), tmp, &o, &r, &err);
      if (rc == CHV_OK) {
        struct chv_buf out;
        chv_buf_init(&out);
        int64_t rows;
        rc = read_all(r, 1 + round % 5, &out, &rows, &err);
        chv_buf_free(&out);
        chv_orc_reader_close(r);
      }
      CHV_CHECK(rc == CHV_OK || rc == CHV_ECORRUPT || rc == CHV_ENOTSUP ||
                rc == CHV_ERANGE || rc == CHV_EIO);
      free(copy);
    }
    chv_free(data);
  }
}

/* ---- projection and table schemas -------------------------------------- */

static char *dump_with(const char *file, const char *table, const char *cols,
                       int *rc, struct chv_error *err) {
  struct chv_type *ts = NULL;
  if (table && chv_type_parse_columns(table, &ts, err) != CHV_OK) {
    *rc = CHV_ESYNTAX;
    return NULL;
  }
  const char *names[16];
  char copy[256];
  int nn = 0;
  if (cols) {
    snprintf(copy, sizeof copy, "%s", cols);
    for (char *t = strtok(copy, ","); t && nn < 16; t = strtok(NULL, ","))
      names[nn++] = t;
  }
  struct chv_orc_read_options o;
  chv_orc_read_options_init(&o);
  o.table_schema = ts;
  o.columns = cols ? names : NULL;
  o.ncolumns = nn;
  /* The first batch of 3 rows. */
  chv_orc_reader *r;
  char *s = NULL;
  *rc = open_reader(file, &o, &r, err);
  if (*rc == CHV_OK) {
    struct chv_batch *b = NULL;
    int64_t n;
    *rc = chv_batch_open(chv_orc_reader_schema(r), 3, &b, err);
    if (*rc == CHV_OK) *rc = chv_orc_reader_next(r, b, &n, err);
    if (*rc == CHV_OK) {
      struct chv_buf out;
      chv_buf_init(&out);
      for (int64_t i = 0; i < n; i++) chv_jsonl_row(b, i, &out);
      s = out.data ? chv_buf_detach(&out) : chv_strdup("");
    }
    chv_batch_close(b);
    chv_orc_reader_close(r);
  }
  chv_type_free(ts);
  return s;
}

/* The first line of s. */
static char *first_line(char *s) {
  if (s == NULL) return NULL;
  char *e = strchr(s, '\n');
  if (e) *e = '\0';
  return s;
}

static void test_projection(void) {
  struct chv_error err;
  int rc;
  char *s = first_line(dump_with("TestOrcFile.test1.orc", NULL,
                                 "string1,INT1,middle", &rc, &err));
  CHV_REQUIRE_OK(rc, &err);
  CHV_CHECK_STREQ(s, "{\"string1\":\"hi\",\"int1\":65536,\"middle\":{\"list\":"
                     "[{\"int1\":1,\"string1\":\"bye\"},{\"int1\":2,"
                     "\"string1\":\"sigh\"}]}}");
  chv_free(s);
  /* Only the projected columns' streams are read. */
  struct chv_orc_read_options o;
  chv_orc_read_options_init(&o);
  const char *one[] = {"_col0"};
  o.columns = one;
  o.ncolumns = 1;
  chv_orc_reader *r;
  CHV_REQUIRE_OK(open_reader("demo-12-zlib.orc", &o, &r, &err), &err);
  struct chv_buf out;
  chv_buf_init(&out);
  int64_t rows;
  CHV_CHECK_OK(read_all(r, 4096, &out, &rows, &err), &err);
  CHV_CHECK_EQ_INT(rows, DEMO_ROWS);
  struct chv_orc_read_stats st;
  chv_orc_reader_stats(r, &st);
  /* _col0's DATA stream is 5056 bytes of the 45979. */
  CHV_CHECK(st.bytes_read < 30000);
  CHV_CHECK(st.bytes_decompressed > 0);
  chv_buf_free(&out);
  chv_orc_reader_close(r);
  /* No column at all: rows are still counted, batch_rows at a time. */
  o.columns = one;
  o.ncolumns = 0;
  o.batch_rows = 1000;
  CHV_REQUIRE_OK(open_reader("TestOrcFile.testStripeLevelStats.orc", &o, &r,
                             &err),
                 &err);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(chv_orc_reader_schema(r), 1, &b, &err), &err);
  int64_t n, total = 0;
  while (chv_orc_reader_next(r, b, &n, &err) == CHV_OK && n > 0) {
    CHV_CHECK(n <= 1000);
    total += n;
  }
  CHV_CHECK_EQ_INT(total, 11000);
  chv_batch_close(b);
  chv_orc_reader_close(r);
  /* Unknown and repeated columns. */
  s = dump_with("TestOrcFile.test1.orc", NULL, "int1,nope", &rc, &err);
  CHV_CHECK(s == NULL && rc == CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "no column 'nope'");
  s = dump_with("TestOrcFile.test1.orc", NULL, "int1,Int1", &rc, &err);
  CHV_CHECK(s == NULL && rc == CHV_EINVAL);
  CHV_CHECK_CONTAINS(err.msg, "read twice");
}

static void test_table_schema(void) {
  struct chv_error err;
  int rc;
  /* _col0.. names: table columns by position, whatever their names; a
  ** column past the file's is NULL; widenings. */
  char *s = first_line(dump_with(
      "demo-12-zlib.orc",
      "id bigint, gender char(3), marital varchar(1), edu string, "
      "est decimal(12,2), rating binary, deps double, emp int, col int, "
      "extra string",
      NULL, &rc, &err));
  CHV_REQUIRE_OK(rc, &err);
  CHV_CHECK_STREQ(s, "{\"id\":1,\"gender\":\"M  \",\"marital\":\"M\","
                     "\"edu\":\"Primary\",\"est\":\"500.00\",\"rating\":"
                     "\"R29vZA==\",\"deps\":0,\"emp\":0,\"col\":0,"
                     "\"extra\":null}");
  chv_free(s);
  /* The projection of a table schema names table columns. */
  s = first_line(dump_with("demo-12-zlib.orc", "a int, b string, c string",
                           "c,a", &rc, &err));
  CHV_REQUIRE_OK(rc, &err);
  CHV_CHECK_STREQ(s, "{\"c\":\"M\",\"a\":1}");
  chv_free(s);
  /* By name (case-insensitively) in a file with real names; struct members
  ** by name at depth; missing members and columns NULL; map values
  ** widened. */
  s = first_line(dump_with(
      "TestOrcFile.test1.orc",
      "LONG1 decimal(38,0), nothere int, middle struct<list:array<struct<"
      "string1:string,zz:int,int1:bigint>>>, map map<string,struct<int1:"
      "double>>, byte1 smallint, float1 double",
      NULL, &rc, &err));
  CHV_REQUIRE_OK(rc, &err);
  CHV_CHECK_STREQ(s, "{\"LONG1\":\"9223372036854775807\",\"nothere\":null,"
                     "\"middle\":{\"list\":[{\"string1\":\"bye\",\"zz\":null,"
                     "\"int1\":1},{\"string1\":\"sigh\",\"zz\":null,"
                     "\"int1\":2}]},\"map\":[],\"byte1\":1,\"float1\":1}");
  chv_free(s);
  /* A union as a struct: fields by name, in any order. */
  s = first_line(dump_with("TestOrcFile.testUnionAndTimestamp.orc",
                           "`union` struct<field1:string,tag:int,field7:int>",
                           NULL, &rc, &err));
  CHV_REQUIRE_OK(rc, &err);
  CHV_CHECK_STREQ(s, "{\"union\":{\"field1\":null,\"tag\":0,\"field7\":null}}");
  chv_free(s);
  /* What does not widen. */
  const char *bad[] = {"string1 int", "int1 smallint", "long1 decimal(10,0)",
                       "double1 float", "middle string",
                       "list array<int>", "boolean1 int"};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(bad); i++) {
    s = dump_with("TestOrcFile.test1.orc", bad[i], NULL, &rc, &err);
    CHV_CHECK(s == NULL);
    CHV_CHECK_EQ_INT(rc, CHV_ETYPE);
    CHV_CHECK_CONTAINS(err.msg, "cannot be read as the table's");
    chv_free(s);
  }
  /* A decimal whose values exceed the table's precision: NULL, as Hive
  ** makes them (decimal(10,5) values up to 1000.5 in decimal(38,36) hold;
  ** in decimal(4,1)... do not widen, refused). */
  s = dump_with("decimal.orc", "_col0 decimal(6,1)", NULL, &rc, &err);
  CHV_CHECK(s == NULL && rc == CHV_ETYPE);
  s = first_line(dump_with("decimal.orc", "x decimal(20,8)", NULL, &rc, &err));
  CHV_REQUIRE_OK(rc, &err);
  CHV_CHECK_STREQ(s, "{\"x\":\"-1000.50000000\"}");
  chv_free(s);
}


/* ---- predicates -------------------------------------------------------- */

static int64_t read_count(const char *file, const struct chv_orc_read_options *o,
                          int64_t cap, struct chv_orc_read_stats *st) {
  struct chv_error err;
  chv_orc_reader *r;
  if (open_reader(file, o, &r, &err) != CHV_OK) {
    fprintf(stderr, "%s: %s\n", file, err.msg);
    return -1;
  }
  struct chv_buf out;
  chv_buf_init(&out);
  int64_t rows = -1;
  if (read_all(r, cap, &out, &rows, &err) != CHV_OK) {
    fprintf(stderr, "%s: %s\n", file, err.msg);
    rows = -1;
  }
  chv_orc_reader_stats(r, st);
  chv_buf_free(&out);
  chv_orc_reader_close(r);
  return rows;
}

static int64_t count_with(const char *file, const struct chv_pred *p, int np,
                          struct chv_orc_read_stats *st) {
  struct chv_orc_read_options o;
  chv_orc_read_options_init(&o);
  o.preds = p;
  o.npreds = np;
  return read_count(file, &o, 4096, st);
}

static void test_stripe_predicates(void) {
  const char *f = "TestOrcFile.testStripeLevelStats.orc";
  struct chv_orc_read_stats st;
  /* Stripes: 5000 rows of (1, "one"), 5000 of (2, "two"), 1000 of (3,
  ** "three"). */
  struct chv_pred eq2 = {"int1", CHV_PRED_EQ, "2"};
  CHV_CHECK_EQ_INT(count_with(f, &eq2, 1, &st), 5000);
  CHV_CHECK_EQ_INT(st.stripes, 3);
  CHV_CHECK_EQ_INT(st.stripes_skipped, 2);
  struct chv_pred three = {"STRING1", CHV_PRED_EQ, "three"};
  CHV_CHECK_EQ_INT(count_with(f, &three, 1, &st), 1000);
  CHV_CHECK_EQ_INT(st.stripes_skipped, 2);
  struct chv_pred two[] = {{"int1", CHV_PRED_GE, "2"},
                           {"string1", CHV_PRED_NE, "two"}};
  CHV_CHECK_EQ_INT(count_with(f, two, 2, &st), 1000);
  struct chv_pred lt[] = {{"int1", CHV_PRED_LT, "1"}};
  CHV_CHECK_EQ_INT(count_with(f, lt, 1, &st), 0);
  CHV_CHECK_EQ_INT(st.stripes_skipped, 3);
  struct chv_pred le[] = {{"int1", CHV_PRED_LE, "1"}};
  CHV_CHECK_EQ_INT(count_with(f, le, 1, &st), 5000);
  struct chv_pred gt[] = {{"int1", CHV_PRED_GT, "2"}};
  CHV_CHECK_EQ_INT(count_with(f, gt, 1, &st), 1000);
  struct chv_pred str[] = {{"string1", CHV_PRED_LT, "three"}};
  CHV_CHECK_EQ_INT(count_with(f, str, 1, &st), 5000); /* "one" */
  struct chv_pred isnull[] = {{"int1", CHV_PRED_IS_NULL, NULL}};
  CHV_CHECK_EQ_INT(count_with(f, isnull, 1, &st), 0);
  struct chv_pred notnull[] = {{"int1", CHV_PRED_IS_NOT_NULL, NULL}};
  CHV_CHECK_EQ_INT(count_with(f, notnull, 1, &st), 11000);
  /* Unusable predicates skip nothing. */
  struct chv_pred odd[] = {{"int1", CHV_PRED_EQ, "abc"},
                           {"int1", CHV_PRED_EQ, "1.5"},
                           {"nope", CHV_PRED_EQ, "1"},
                           {NULL, CHV_PRED_EQ, "1"},
                           {"int1", CHV_PRED_EQ, NULL}};
  CHV_CHECK_EQ_INT(count_with(f, odd, 5, &st), 11000);
  CHV_CHECK_EQ_INT(st.stripes_skipped, 0);
  /* A predicate column that is not projected; a table schema that widens
  ** the column (the literal is the table type's). */
  struct chv_orc_read_options o;
  chv_orc_read_options_init(&o);
  struct chv_type *ts;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_type_parse_columns("int1 bigint, string1 string", &ts,
                                        &err),
                 &err);
  const char *cols[] = {"string1"};
  o.table_schema = ts;
  o.columns = cols;
  o.ncolumns = 1;
  o.preds = &eq2;
  o.npreds = 1;
  CHV_CHECK_EQ_INT(read_count(f, &o, 100, &st), 5000);
  struct chv_pred big = {"int1", CHV_PRED_EQ, "5000000000"};
  o.preds = &big;
  CHV_CHECK_EQ_INT(read_count(f, &o, 100, &st), 0);
  chv_type_free(ts);
  /* The range keeps its stripes' statistics apart. */
  struct chv_orc_unit *u;
  int nu;
  CHV_REQUIRE_OK(chv_orc_file_units(chv_fs_local(), fx(f), &u, &nu, &err), &err);
  CHV_REQUIRE(nu == 3);
  chv_orc_read_options_init(&o);
  o.range_start = u[1].offset;
  o.range_length = u[1].length;
  o.preds = &eq2;
  o.npreds = 1;
  CHV_CHECK_EQ_INT(read_count(f, &o, 100, &st), 5000);
  CHV_CHECK_EQ_INT(st.stripes, 1);
  CHV_CHECK_EQ_INT(st.stripes_skipped, 0);
  o.range_start = u[2].offset;
  CHV_CHECK_EQ_INT(read_count(f, &o, 100, &st), 0);
  CHV_CHECK_EQ_INT(st.stripes_skipped, 1);
  chv_free(u);
}

/* The rows of a file read with options o equal expected rows
** [ranges[2i], ranges[2i + 1]) in order. */
static void check_subset(const char *file, const char *expected,
                         const struct chv_orc_read_options *o, int64_t cap,
                         const int64_t *ranges, int nranges) {
  struct chv_error err;
  chv_orc_reader *r;
  CHV_REQUIRE_OK(open_reader(file, o, &r, &err), &err);
  struct chv_buf got;
  chv_buf_init(&got);
  int64_t rows = 0;
  CHV_CHECK_OK(read_all(r, cap, &got, &rows, &err), &err);
  size_t elen;
  char *exp = expected_text(expected, &elen);
  CHV_REQUIRE(exp != NULL);
  /* Line starts of the expected file. */
  int64_t nl = 0;
  for (size_t i = 0; i < elen; i++) nl += exp[i] == '\n';
  const char **line = malloc(sizeof *line * (size_t)(nl + 1));
  line[0] = exp;
  for (size_t i = 0, k = 1; i < elen; i++)
    if (exp[i] == '\n') line[k++] = exp + i + 1;
  chv_arena *a;
  chv_arena_open(0, &a);
  const char *gp = got.data ? got.data : "";
  int64_t want = 0, bad = 0;
  for (int i = 0; i < nranges; i++) {
    for (int64_t k = ranges[2 * i]; k < ranges[2 * i + 1]; k++, want++) {
      const char *ge = strchr(gp, '\n');
      if (ge == NULL) break;
      struct jv e, g;
      CHV_CHECK(jread(a, line[k], (size_t)(strchr(line[k], '\n') - line[k]),
                      &e));
      CHV_CHECK(jread(a, gp, (size_t)(ge - gp), &g));
      struct cmpctx cx = {0};
      if (!same(&e, &g, chv_orc_reader_schema(r), &cx) && bad++ < 3)
        fprintf(stderr, "%s: row %" PRId64 " (file row %" PRId64 "): %s\n",
                file, want, k, cx.what);
      gp = ge + 1;
      if ((want & 1023) == 0) chv_arena_reset(a);
    }
  }
  CHV_CHECK_EQ_INT(rows, want);
  CHV_CHECK_EQ_INT(bad, 0);
  chv_arena_close(a);
  free(line);
  free(exp);
  chv_buf_free(&got);
  chv_orc_reader_close(r);
}

static void test_row_group_predicates(void) {
  /* orc_index_int_string: 6000 rows of _col0 = 1..6000 in 3 row groups of
  ** 2000 (orc.row.index.stride 2000), one stripe. */
  const char *f = "orc_index_int_string.orc", *e = "orc_index_int_string.jsn.gz";
  struct chv_orc_read_options o;
  chv_orc_read_options_init(&o);
  struct chv_pred ge = {"_col0", CHV_PRED_GE, "4500"};
  o.preds = &ge;
  o.npreds = 1;
  int64_t last[] = {4000, 6000};
  int64_t caps[] = {1, 7, 4096};
  for (int i = 0; i < 3; i++) check_subset(f, e, &o, caps[i], last, 1);
  struct chv_orc_read_stats st;
  CHV_CHECK_EQ_INT(read_count(f, &o, 100, &st), 2000);
  CHV_CHECK_EQ_INT(st.row_groups, 3);
  CHV_CHECK_EQ_INT(st.row_groups_skipped, 2);
  CHV_CHECK_EQ_INT(st.stripes_skipped, 0);
  struct chv_pred mid = {"_col0", CHV_PRED_EQ, "2001"};
  o.preds = &mid;
  int64_t second[] = {2000, 4000};
  check_subset(f, e, &o, 7, second, 1);
  /* On the varchar column: "4001" < "_col1" is true of groups 1 and 2. */
  struct chv_pred s = {"_col1", CHV_PRED_LT, "1"};
  o.preds = &s;
  CHV_CHECK_EQ_INT(read_count(f, &o, 100, &st), 0);
  CHV_CHECK_EQ_INT(st.stripes_skipped, 1); /* by the stripe's statistics */
  CHV_CHECK_EQ_INT(st.row_groups, 0);

  /* A string dictionary... direct string column in 8 groups of 4096. */
  f = "TestStringDictionary.testRowIndex.orc";
  e = "TestStringDictionary.testRowIndex.jsn.gz";
  struct chv_pred str = {"str", CHV_PRED_GE, "row 030000"};
  o.preds = &str;
  int64_t tail[] = {28672, 32768};
  check_subset(f, e, &o, 1000, tail, 1);
  CHV_CHECK_EQ_INT(read_count(f, &o, 4096, &st), 4096);
  CHV_CHECK_EQ_INT(st.row_groups, 8);
  CHV_CHECK_EQ_INT(st.row_groups_skipped, 7);
  struct chv_pred both[] = {{"str", CHV_PRED_GT, "row 004095"},
                            {"str", CHV_PRED_LE, "row 012288"}};
  o.preds = both;
  o.npreds = 2;
  int64_t three[] = {4096, 16384};
  check_subset(f, e, &o, 3000, three, 1);
}

/* Non-contiguous runs of row groups: every column sought through its row
** index between them (dictionary strings, RLE v2 integers). */
static void test_row_group_seeks(void) {
  struct chv_error err;
  /* The whole file: hashes of the rows and each group's least _col6. */
  uint64_t *all = malloc(sizeof *all * DEMO_ROWS);
  int64_t gmin[200];
  for (int g = 0; g < 200; g++) gmin[g] = INT64_MAX;
  chv_orc_reader *r;
  CHV_REQUIRE_OK(open_reader("demo-12-zlib.orc", NULL, &r, &err), &err);
  struct chv_batch *b;
  CHV_REQUIRE_OK(chv_batch_open(chv_orc_reader_schema(r), 4096, &b, &err),
                 &err);
  int64_t n, row = 0;
  struct chv_buf line;
  chv_buf_init(&line);
  while (chv_orc_reader_next(r, b, &n, &err) == CHV_OK && n > 0) {
    const int32_t *c6 = b->cols[6]->data;
    for (int64_t i = 0; i < n; i++, row++) {
      chv_buf_reset(&line);
      chv_jsonl_row(b, i, &line);
      all[row] = row_hash(line.data, line.len);
      int64_t g = row / 10000;
      if (c6[i] < gmin[g]) gmin[g] = c6[i];
    }
  }
  CHV_CHECK_EQ_INT(row, DEMO_ROWS);
  chv_batch_close(b);
  chv_orc_reader_close(r);
  /* _col6 = 0 (and _col0 > 1000000): the groups that can hold a 0. */
  struct chv_pred p[] = {{"_col6", CHV_PRED_EQ, "0"},
                         {"_col0", CHV_PRED_GT, "1000000"}};
  for (int np = 1; np <= 2; np++) {
    struct chv_orc_read_options o;
    chv_orc_read_options_init(&o);
    o.preds = p;
    o.npreds = np;
    CHV_REQUIRE_OK(open_reader("demo-12-zlib.orc", &o, &r, &err), &err);
    uint64_t *got = malloc(sizeof *got * DEMO_ROWS);
    int64_t rows = row_hashes(r, 777, got, DEMO_ROWS, &err);
    struct chv_orc_read_stats st;
    chv_orc_reader_stats(r, &st);
    chv_orc_reader_close(r);
    int64_t k = 0, kept = 0, bad = 0;
    for (int g = 0; g < 193; g++) {
      bool keep = gmin[g] == 0 && (np == 1 || (int64_t)(g + 1) * 10000 > 1000000);
      if (!keep) continue;
      kept++;
      for (int64_t i = g * 10000; i < CHV_MIN((g + 1) * 10000, DEMO_ROWS); i++)
        bad += k < rows && got[k++] != all[i];
    }
    CHV_CHECK_EQ_INT(rows, k);
    CHV_CHECK_EQ_INT(bad, 0);
    CHV_CHECK_EQ_INT(st.row_groups, 193);
    CHV_CHECK_EQ_INT(st.row_groups_skipped, 193 - kept);
    CHV_CHECK(kept > 10 && kept < 150);
    free(got);
  }
  chv_buf_free(&line);
  free(all);
}

/* ---- bloom filters ----------------------------------------------------- */

static void test_bloom_hashing(void) {
  /* ORC's own test vectors (TestBloomFilter.cc, TestMurmur3.cc). */
  CHV_CHECK(or_bloom_hash_long(0) == 0);
  CHV_CHECK((int64_t)or_bloom_hash_long(-1) == 6614246905173314819LL);
  CHV_CHECK((int64_t)or_bloom_hash_long(-2) == -5218250166726157773LL);
  CHV_CHECK((int64_t)or_bloom_hash_long(-9223372036854775807LL) ==
            -9102499068535824902LL);
  CHV_CHECK((int64_t)or_bloom_hash_long(790302201) == 1499534499340523007LL);
  CHV_CHECK((int64_t)or_bloom_hash_long(18000000000LL) ==
            -1097054448615658549LL);
  CHV_CHECK((int64_t)or_bloom_hash_long(9223372036064673415LL) ==
            294188322706112357LL);
  const char *text =
      "It was the best of times, it was the worst of times,"
      " it was the age of wisdom, it was the age of foolishness,"
      " it was the epoch of belief, it was the epoch of incredulity,"
      " it was the season of Light, it was the season of Darkness,"
      " it was the spring of hope, it was the winter of despair,"
      " we had everything before us, we had nothing before us,"
      " we were all going direct to Heaven,"
      " we were all going direct the other way.";
  CHV_CHECK(or_bloom_hash_bytes(text, strlen(text)) == 305830725663368540ULL);
  /* A filter for 128 entries at 5% (832 bits, 5 functions): the bits each
  ** value sets (TestBloomFilter's basic operations). */
  struct {
    int64_t v;
    double d;
    const char *s;
    int pos[5];
  } cases[] = {
      {1, 0, NULL, {567, 288, 246, 306, 228}},
      {11, 0, NULL, {228, 285, 342, 399, 456}},
      {-1111, 0, NULL, {572, 680, 818, 434, 232}},
      {0, 1.1, NULL, {522, 692, 12, 370, 753}},
      {0, -1111.1111, NULL, {308, 346, 384, 422, 371}},
      {0, 0, "", {656, 807, 480, 151, 304}},
      {0, 0, "english", {576, 221, 68, 729, 392}},
      {0, 0, "\xe4\xb8\xad\xe5\x9b\xbd\xe5\xad\x97", {602, 636, 44, 362, 318}},
  };
  for (size_t i = 0; i < CHV_ARRAY_SIZE(cases); i++) {
    uint64_t bits[13] = {0};
    uint64_t h = cases[i].s   ? or_bloom_hash_bytes(cases[i].s,
                                                    strlen(cases[i].s))
                 : cases[i].d ? or_bloom_hash_double(cases[i].d)
                              : or_bloom_hash_long(cases[i].v);
    or_bloom_add(bits, 13, 5, h);
    int set = 0;
    for (int w = 0; w < 13; w++) set += __builtin_popcountll(bits[w]);
    for (int k = 0; k < 5; k++)
      CHV_CHECK((bits[cases[i].pos[k] >> 6] >> (cases[i].pos[k] & 63)) & 1);
    int distinct = 0;
    for (int k = 0; k < 5; k++) {
      bool dup = false;
      for (int m = 0; m < k; m++) dup = dup || cases[i].pos[m] == cases[i].pos[k];
      distinct += !dup;
    }
    CHV_CHECK_EQ_INT(set, distinct);
    struct chv_orc_bloom_filter f = {5, 13, bits, {NULL, 0}};
    CHV_CHECK(or_bloom_test(&f, h));
  }
}

/* The string filters ORC C++ 1.6.11 wrote hash strings as ORC Java does
** (only its numeric hashes were wrong): every value tests present. */
static void test_bloom_real_filters(void) {
  struct chv_error err;
  char *data;
  size_t len;
  CHV_REQUIRE_OK(chv_fs_read_all(chv_fs_local(),
                                 fx("bad_bloom_filter_1.6.11.orc"), &data, &len,
                                 -1, &err),
                 &err);
  struct chv_orc_tail *t;
  CHV_REQUIRE_OK(chv_orc_tail_parse(data, len, "bad_bloom", &t, &err), &err);
  chv_orc_codec *codec;
  CHV_REQUIRE_OK(chv_orc_tail_codec_open(t, &codec, &err), &err);
  struct chv_orc_input in;
  chv_orc_input_memory(&in, data, len, "bad_bloom");
  chv_arena *a;
  chv_arena_open(0, &a);
  struct chv_orc_stripe_footer sf;
  CHV_REQUIRE_OK(chv_orc_stripe_footer_read(t, &in, codec, 0, a, &sf, &err),
                 &err);
  const struct chv_orc_stream_info *si =
      chv_orc_stripe_find_stream(&sf, 2, CHV_ORC_STREAM_BLOOM_FILTER_UTF8);
  CHV_REQUIRE(si != NULL);
  struct chv_orc_bloom_index bi;
  CHV_REQUIRE_OK(chv_orc_bloom_index_decode(codec, data + si->offset,
                                            si->length, a, "name", &bi, &err),
                 &err);
  CHV_REQUIRE(bi.nfilters == 1 && chv_orc_bloom_filter_usable(&bi.filters[0]));
  const char *names[] = {"Alice", "Bob", "a", "b", "Mike"};
  for (int i = 0; i < 5; i++)
    CHV_CHECK(or_bloom_test(&bi.filters[0],
                            or_bloom_hash_bytes(names[i], strlen(names[i]))));
  CHV_CHECK(!or_bloom_test(&bi.filters[0], or_bloom_hash_bytes("Zebra", 5)));
  /* Its numeric filter does not hold the ids under ORC Java's hash: why
  ** the reader ignores such files' filters. */
  si = chv_orc_stripe_find_stream(&sf, 1, CHV_ORC_STREAM_BLOOM_FILTER_UTF8);
  CHV_REQUIRE(si != NULL);
  CHV_REQUIRE_OK(chv_orc_bloom_index_decode(codec, data + si->offset,
                                            si->length, a, "id", &bi, &err),
                 &err);
  int present = 0;
  const int64_t ids[] = {0, 1, 2, 3, 18000000000LL};
  for (int i = 0; i < 5; i++)
    present += or_bloom_test(&bi.filters[0], or_bloom_hash_long(ids[i]));
  CHV_CHECK(present < 5);
  chv_arena_close(a);
  chv_orc_codec_close(codec);
  chv_orc_tail_close(t);
  chv_free(data);
  /* Read through the reader, equalities on both columns keep every row
  ** (ORC's testSkipBadBloomFilters). */
  struct chv_pred p[] = {{"id", CHV_PRED_EQ, "2"}, {"name", CHV_PRED_EQ, "a"}};
  struct chv_orc_read_stats st;
  CHV_CHECK_EQ_INT(count_with("bad_bloom_filter_1.6.0.orc", p, 2, &st), 5);
  CHV_CHECK_EQ_INT(count_with("bad_bloom_filter_1.6.11.orc", p, 2, &st), 5);
  CHV_CHECK_EQ_INT(st.row_groups_skipped, 0);
}

/* A one-stripe file of 30 bigints "id" in 3 row groups of 10 (stride 10),
** group g holding g * 100 + 0, 2, .., 18.  Its row index entries have no
** statistics, so only the bloom filters (1024 bits, 3 functions, in a
** stream of kind bloom_kind) can rule a group out.  bits[g] gets group g's
** filter. */
static void build_bloom_file(const char *path, int32_t bloom_kind,
                             bool has_writer, uint32_t writer, const char *sw,
                             uint64_t bits[3][16]) {
  struct chv_error err;
  chv_orc_codec *codec;
  CHV_REQUIRE_OK(chv_orc_codec_open(CHV_ORC_COMP_NONE, 262144, &codec, &err),
                 &err);
  /* DATA, with the position of each group's first value. */
  struct chv_orc_out data;
  chv_orc_out_init(&data, NULL);
  struct chv_orc_int_rle_enc enc;
  chv_orc_int_rle_enc_init(&enc, &data, true);
  uint64_t pos[3][3];
  uint32_t npos[3];
  memset(bits, 0, sizeof(uint64_t) * 3 * 16);
  for (int g = 0; g < 3; g++) {
    npos[g] = (uint32_t)chv_orc_int_rle_enc_position(&enc, pos[g]);
    for (int i = 0; i < 10; i++) {
      int64_t v = g * 100 + 2 * i;
      CHV_CHECK_OK(chv_orc_int_rle_enc_write(&enc, &v, 1, &err), &err);
      or_bloom_add(bits[g], 16, 3, or_bloom_hash_long(v));
    }
  }
  CHV_CHECK_OK(chv_orc_int_rle_enc_flush(&enc, &err), &err);
  CHV_CHECK_OK(chv_orc_out_flush(&data, &err), &err);
  /* Row indexes and bloom filters. */
  struct chv_orc_row_index_entry e0[3], e1[3];
  memset(e0, 0, sizeof e0);
  memset(e1, 0, sizeof e1);
  for (int g = 0; g < 3; g++) {
    e1[g].npositions = npos[g];
    e1[g].positions = pos[g];
  }
  struct chv_orc_row_index ri0 = {3, e0}, ri1 = {3, e1};
  uint8_t le[3][128];
  struct chv_orc_bloom_filter bf[3];
  memset(bf, 0, sizeof bf);
  for (int g = 0; g < 3; g++) {
    bf[g].num_hash_functions = 3;
    if (bloom_kind == CHV_ORC_STREAM_BLOOM_FILTER) {
      bf[g].nbitset = 16;
      bf[g].bitset = bits[g];
    } else {
      for (int w = 0; w < 16; w++)
        for (int k = 0; k < 8; k++) le[g][w * 8 + k] = (uint8_t)(bits[g][w] >> (8 * k));
      bf[g].utf8bitset.data = le[g];
      bf[g].utf8bitset.len = 128;
    }
  }
  struct chv_orc_bloom_index bi = {3, bf};
  struct chv_buf ix0, ix1, ixb;
  chv_buf_init(&ix0);
  chv_buf_init(&ix1);
  chv_buf_init(&ixb);
  CHV_CHECK_OK(chv_orc_row_index_write(&ri0, &ix0, &err), &err);
  CHV_CHECK_OK(chv_orc_row_index_write(&ri1, &ix1, &err), &err);
  CHV_CHECK_OK(chv_orc_bloom_index_write(&bi, &ixb, &err), &err);
  /* The stripe: index streams, data, footer. */
  struct chv_orc_stream_info streams[4] = {
      {CHV_ORC_STREAM_ROW_INDEX, 0, ix0.len, 0},
      {CHV_ORC_STREAM_ROW_INDEX, 1, ix1.len, 0},
      {bloom_kind, 1, ixb.len, 0},
      {CHV_ORC_STREAM_DATA, 1, data.out.len, 0}};
  struct chv_orc_encoding encs[2];
  memset(encs, 0, sizeof encs);
  encs[0].kind = CHV_ORC_ENC_DIRECT;
  encs[1].kind = CHV_ORC_ENC_DIRECT_V2;
  struct chv_orc_stripe_footer sf;
  memset(&sf, 0, sizeof sf);
  sf.nstreams = 4;
  sf.streams = streams;
  sf.ncolumns = 2;
  sf.columns = encs;
  struct chv_buf file, sfb;
  chv_buf_init(&file);
  chv_buf_init(&sfb);
  CHV_CHECK_OK(chv_orc_stripe_footer_write(&sf, &sfb, &err), &err);
  chv_buf_append(&file, "ORC", 3);
  chv_buf_append(&file, ix0.data, ix0.len);
  chv_buf_append(&file, ix1.data, ix1.len);
  chv_buf_append(&file, ixb.data, ixb.len);
  chv_buf_append(&file, data.out.data, data.out.len);
  chv_buf_append(&file, sfb.data, sfb.len);
  /* The tail. */
  uint32_t sub[] = {1};
  const char *names[] = {"id"};
  struct chv_orc_type types[2];
  memset(types, 0, sizeof types);
  types[0].kind = CHV_ORC_KIND_STRUCT;
  types[0].nsubtypes = 1;
  types[0].subtypes = sub;
  types[0].nfield_names = 1;
  types[0].field_names = names;
  types[1].kind = CHV_ORC_KIND_LONG;
  struct chv_orc_stripe_info si;
  memset(&si, 0, sizeof si);
  si.offset = 3;
  si.index_length = ix0.len + ix1.len + ixb.len;
  si.data_length = data.out.len;
  si.footer_length = sfb.len;
  si.number_of_rows = 30;
  struct chv_orc_footer f;
  memset(&f, 0, sizeof f);
  f.has_header_length = f.has_content_length = true;
  f.header_length = 3;
  f.content_length = file.len;
  f.nstripes = 1;
  f.stripes = &si;
  f.ntypes = 2;
  f.types = types;
  f.has_number_of_rows = true;
  f.number_of_rows = 30;
  f.has_row_index_stride = true;
  f.row_index_stride = 10;
  f.has_writer = has_writer;
  f.writer = writer;
  f.software_version = sw;
  CHV_CHECK_OK(chv_orc_tail_write(codec, &f, NULL, 6, &file, &err), &err);
  FILE *fp = fopen(path, "wb");
  CHV_REQUIRE(fp != NULL);
  CHV_CHECK(fwrite(file.data, 1, file.len, fp) == file.len);
  fclose(fp);
  chv_buf_free(&file);
  chv_buf_free(&sfb);
  chv_buf_free(&ix0);
  chv_buf_free(&ix1);
  chv_buf_free(&ixb);
  chv_orc_out_free(&data);
  chv_orc_codec_close(codec);
}

static void test_bloom_skipping(void) {
  char path[700];
  snprintf(path, sizeof path, "%.600s/bloom.orc", chv_test_tmpdir());
  struct {
    int32_t kind;
    bool has_writer;
    uint32_t writer;
    const char *sw;
    bool used;
  } cases[] = {
      {CHV_ORC_STREAM_BLOOM_FILTER_UTF8, false, 0, NULL, true},
      {CHV_ORC_STREAM_BLOOM_FILTER, true, 0, NULL, true},
      {CHV_ORC_STREAM_BLOOM_FILTER_UTF8, true, 1, "1.7.1", true},
      {CHV_ORC_STREAM_BLOOM_FILTER_UTF8, true, 1, "1.6.5", false},
      {CHV_ORC_STREAM_BLOOM_FILTER_UTF8, true, 1, "1.7.0-SNAPSHOT", false},
      {CHV_ORC_STREAM_BLOOM_FILTER_UTF8, true, 1, NULL, false},
  };
  for (size_t c = 0; c < CHV_ARRAY_SIZE(cases); c++) {
    uint64_t bits[3][16];
    build_bloom_file(path, cases[c].kind, cases[c].has_writer, cases[c].writer,
                     cases[c].sw, bits);
    struct chv_orc_read_options o;
    chv_orc_read_options_init(&o);
    struct chv_orc_read_stats st;
    const char *lits[] = {"102", "0", "218", "7", "-5"};
    for (size_t l = 0; l < CHV_ARRAY_SIZE(lits); l++) {
      struct chv_pred p = {"id", CHV_PRED_EQ, lits[l]};
      o.preds = &p;
      o.npreds = 1;
      chv_orc_reader *r;
      struct chv_error err;
      CHV_REQUIRE_OK(chv_orc_reader_open(chv_fs_local(), path, &o, &r, &err),
                     &err);
      struct chv_buf out;
      chv_buf_init(&out);
      int64_t rows;
      CHV_CHECK_OK(read_all(r, 4, &out, &rows, &err), &err);
      chv_orc_reader_stats(r, &st);
      /* The groups whose filter may hold the literal. */
      int64_t want = 0;
      for (int g = 0; g < 3; g++) {
        struct chv_orc_bloom_filter f = {3, 16, bits[g], {NULL, 0}};
        want += !cases[c].used ||
                or_bloom_test(&f, or_bloom_hash_long(strtoll(lits[l], NULL, 10)));
      }
      CHV_CHECK_EQ_INT(rows, want * 10);
      CHV_CHECK_EQ_INT(st.row_groups_skipped, 3 - want);
      if (cases[c].used && l < 3) CHV_CHECK_EQ_INT(want, 1);
      /* The rows of the groups read are whole and right. */
      if (l == 0 && cases[c].used)
        CHV_CHECK(starts(out.data, "{\"id\":100}\n{\"id\":102}\n"));
      chv_buf_free(&out);
      chv_orc_reader_close(r);
    }
  }
}

/* ---- files chive's writer wrote ---------------------------------------- */

#define RT_SCHEMA                                                              \
  "b boolean, t tinyint, s smallint, i int, l bigint, f float, d double, "    \
  "dec decimal(12,3), big decimal(38,10), str string, vc varchar(5), "        \
  "ch char(3), bin binary, dt date, ts timestamp, arr array<int>, "           \
  "m map<string,double>, st struct<x:int,y:array<string>>"

static uint64_t rt_seed;
static uint64_t rt_rnd(void) {
  rt_seed = rt_seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return rt_seed >> 17;
}

/* Row r of RT_SCHEMA appended to b (NULLs now and then). */
static int rt_row(struct chv_batch *b, int64_t r, struct chv_error *err) {
  struct chv_vector **c = b->cols;
  for (int col = 0; col < b->ncols; col++) {
    struct chv_vector *v = c[col];
    if (col != 4 && rt_rnd() % 9 == 0) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(v, err));
      continue;
    }
    uint64_t x = rt_rnd();
    char sb[64];
    switch (col) {
    case 0: {
      bool y = x & 1;
      CHV_RETURN_IF_ERR(chv_vector_append_value(v, &y, err));
      break;
    }
    case 1: {
      int8_t y = (int8_t)x;
      CHV_RETURN_IF_ERR(chv_vector_append_value(v, &y, err));
      break;
    }
    case 2: {
      int16_t y = (int16_t)(r % 3000 - 1500);
      CHV_RETURN_IF_ERR(chv_vector_append_value(v, &y, err));
      break;
    }
    case 3: {
      int32_t y = (int32_t)(x % 2000000) - 1000000;
      CHV_RETURN_IF_ERR(chv_vector_append_value(v, &y, err));
      break;
    }
    case 4: {
      int64_t y = r * 7919 % 100003; /* a hash: statistics say little */
      CHV_RETURN_IF_ERR(chv_vector_append_value(v, &y, err));
      break;
    }
    case 5: {
      float y = (float)(int64_t)(x % 100000) / 7.0f;
      CHV_RETURN_IF_ERR(chv_vector_append_value(v, &y, err));
      break;
    }
    case 6: {
      double y = (double)(int64_t)x / 1e7;
      CHV_RETURN_IF_ERR(chv_vector_append_value(v, &y, err));
      break;
    }
    case 7:
    case 8: {
      chv_i128 y = (chv_i128)(int64_t)(x % 2000000000) - 1000000000;
      if (col == 8) y = y * (chv_i128)1000000000000000000LL + (chv_i128)x;
      CHV_RETURN_IF_ERR(chv_vector_append_value(v, &y, err));
      break;
    }
    case 9:
    case 10:
    case 11: {
      int n = snprintf(sb, sizeof sb, "%s%d", col == 9 ? "name-" : "",
                       (int)(x % (col == 9 ? 977 : 100000)));
      CHV_RETURN_IF_ERR(chv_vector_append_string(v, sb, (size_t)n, err));
      break;
    }
    case 12: {
      size_t n = x % 20;
      for (size_t k = 0; k < n; k++) sb[k] = (char)(x >> k);
      CHV_RETURN_IF_ERR(chv_vector_append_bytes(v, sb, n, err));
      break;
    }
    case 13: {
      int32_t y = (int32_t)(x % 100000) - 50000;
      CHV_RETURN_IF_ERR(chv_vector_append_value(v, &y, err));
      break;
    }
    case 14: {
      struct chv_timestamp y = {(int64_t)(x % 4000000000ULL) - 2000000000,
                                (int32_t)(rt_rnd() % 1000000000), 0};
      if (x & 1) y.nanos = y.nanos / 1000 * 1000;
      CHV_RETURN_IF_ERR(chv_vector_append_value(v, &y, err));
      break;
    }
    case 15: {
      for (uint64_t k = 0; k < x % 5; k++) {
        int32_t y = (int32_t)(k * 1000 + r);
        if (k == 2)
          CHV_RETURN_IF_ERR(chv_vector_append_null(v->children[0], err));
        else
          CHV_RETURN_IF_ERR(chv_vector_append_value(v->children[0], &y, err));
      }
      CHV_RETURN_IF_ERR(chv_vector_append_nested(v, err));
      break;
    }
    case 16: {
      for (uint64_t k = 0; k < x % 4; k++) {
        int n = snprintf(sb, sizeof sb, "k%d", (int)k);
        double y = (double)r + (double)k / 4;
        CHV_RETURN_IF_ERR(chv_vector_append_bytes(v->children[0], sb,
                                                  (size_t)n, err));
        CHV_RETURN_IF_ERR(chv_vector_append_value(v->children[1], &y, err));
      }
      CHV_RETURN_IF_ERR(chv_vector_append_nested(v, err));
      break;
    }
    default: {
      int32_t y = (int32_t)r;
      struct chv_vector *a = v->children[1];
      CHV_RETURN_IF_ERR(chv_vector_append_value(v->children[0], &y, err));
      if (x % 5 == 0) {
        CHV_RETURN_IF_ERR(chv_vector_append_null(a, err));
      } else {
        for (uint64_t k = 0; k < x % 3; k++) {
          int n = snprintf(sb, sizeof sb, "e%d", (int)(r + (int64_t)k));
          CHV_RETURN_IF_ERR(chv_vector_append_bytes(a->children[0], sb,
                                                    (size_t)n, err));
        }
        CHV_RETURN_IF_ERR(chv_vector_append_nested(a, err));
      }
      CHV_RETURN_IF_ERR(chv_vector_append_nested(v, err));
      break;
    }
    }
  }
  b->nrows++;
  return CHV_OK;
}

#define RT_ROWS 12000

static void test_writer_round_trip(void) {
  struct chv_error err;
  struct chv_type *s;
  CHV_REQUIRE_OK(chv_type_parse_columns(RT_SCHEMA, &s, &err), &err);
  char path[700];
  snprintf(path, sizeof path, "%.600s/rt.orc", chv_test_tmpdir());
  const char *codecs[] = {"ZLIB", "SNAPPY", "LZ4", "ZSTD", "LZO", "NONE"};
  for (size_t cdx = 0; cdx < CHV_ARRAY_SIZE(codecs); cdx++) {
    struct chv_orc_write_options o;
    chv_orc_write_options_init(&o);
    CHV_REQUIRE_OK(chv_orc_write_options_set(&o, "orc.compress", codecs[cdx],
                                             &err),
                   &err);
    o.row_index_stride = 1000;
    o.stripe_size = cdx % 2 ? 64 << 10 : 1 << 20;
    o.compress_size = 4096;
    o.bloom_filter_columns = "l,str,d,dt";
    chv_orc_writer *w;
    CHV_REQUIRE_OK(chv_orc_writer_open(chv_fs_local(), path, s, &o, &w, &err),
                   &err);
    /* The rows, written in batches of 1000, kept as JSON lines. */
    struct chv_buf want;
    chv_buf_init(&want);
    struct chv_batch *b;
    CHV_REQUIRE_OK(chv_batch_open(s, 1000, &b, &err), &err);
    rt_seed = 42 + cdx;
    for (int64_t r = 0; r < RT_ROWS;) {
      chv_batch_reset(b);
      for (int k = 0; k < 1000; k++, r++) CHV_REQUIRE_OK(rt_row(b, r, &err), &err);
      for (int64_t i = 0; i < b->nrows; i++) chv_jsonl_row(b, i, &want);
      CHV_REQUIRE_OK(chv_orc_writer_write(w, b, &err), &err);
    }
    struct chv_orc_write_stats ws;
    CHV_REQUIRE_OK(chv_orc_writer_finish(w, &ws, &err), &err);
    chv_orc_writer_close(w);
    chv_batch_close(b);
    /* Read back whole, in batches of 333. */
    chv_orc_reader *r;
    CHV_REQUIRE_OK(chv_orc_reader_open(chv_fs_local(), path, NULL, &r, &err),
                   &err);
    struct chv_buf got;
    chv_buf_init(&got);
    int64_t rows;
    CHV_CHECK_OK(read_all(r, 333, &got, &rows, &err), &err);
    CHV_CHECK_EQ_INT(rows, RT_ROWS);
    CHV_CHECK(got.len == want.len && !memcmp(got.data, want.data, want.len));
    chv_orc_reader_close(r);
    struct chv_orc_file_stats fs;
    CHV_REQUIRE_OK(chv_orc_file_stats(chv_fs_local(), path, &fs, &err), &err);
    CHV_CHECK_EQ_INT(fs.num_rows, RT_ROWS);
    CHV_CHECK_EQ_INT(fs.stripes, ws.stripes);
    if (cdx % 2) CHV_CHECK(ws.stripes > 1);
    /* Equalities answered by the writer's bloom filters (and statistics):
    ** every matching row is among those read, fewer groups are read. */
    struct {
      const char *col, *lit, *json;
    } eqs[] = {{"l", "7919", "\"l\":7919,"},
               {"str", "name-17", "\"str\":\"name-17\","}};
    for (size_t q = 0; q < CHV_ARRAY_SIZE(eqs); q++) {
      struct chv_pred p = {eqs[q].col, CHV_PRED_EQ, eqs[q].lit};
      struct chv_orc_read_options ro;
      chv_orc_read_options_init(&ro);
      ro.preds = &p;
      ro.npreds = 1;
      CHV_REQUIRE_OK(chv_orc_reader_open(chv_fs_local(), path, &ro, &r, &err),
                     &err);
      struct chv_buf sub;
      chv_buf_init(&sub);
      CHV_CHECK_OK(read_all(r, 500, &sub, &rows, &err), &err);
      struct chv_orc_read_stats st;
      chv_orc_reader_stats(r, &st);
      chv_orc_reader_close(r);
      int64_t in_all = 0, in_sub = 0;
      for (const char *t = want.data; (t = strstr(t, eqs[q].json)); t++) in_all++;
      for (const char *t = sub.data ? sub.data : ""; (t = strstr(t, eqs[q].json)); t++)
        in_sub++;
      CHV_CHECK(in_all > 0);
      CHV_CHECK_EQ_INT(in_sub, in_all);
      CHV_CHECK(st.row_groups_skipped > 0);
      CHV_CHECK(rows < RT_ROWS);
      chv_buf_free(&sub);
    }
    chv_buf_free(&got);
    chv_buf_free(&want);
  }
  chv_type_free(s);
}

/* ---- time zones -------------------------------------------------------- */

static int64_t utc_of(int y, int m, int d, int hh) {
  return (int64_t)chv_date_from_ymd(y, m, d) * 86400 + hh * 3600;
}

static void test_time_zones(void) {
  struct chv_error err;
  struct or_tz *z;
  CHV_REQUIRE_OK(or_tz_open("GMT+08:00", &z, &err), &err);
  CHV_CHECK_EQ_INT(or_tz_offset(z, 0), 8 * 3600);
  CHV_CHECK_EQ_INT(or_tz_base(z), 1420070400 - 8 * 3600);
  or_tz_close(z);
  CHV_REQUIRE_OK(or_tz_open("GMT-0930", &z, &err), &err);
  CHV_CHECK_EQ_INT(or_tz_offset(z, 0), -(9 * 3600 + 1800));
  or_tz_close(z);
  if (!have_zone("US/Pacific") || !have_zone("Australia/Sydney")) {
    fprintf(stderr, "# no time zone database: skipped\n");
    return;
  }
  CHV_REQUIRE_OK(or_tz_open("UTC", &z, &err), &err);
  CHV_CHECK(or_tz_is_utc(z));
  CHV_CHECK_EQ_INT(or_tz_base(z), 1420070400);
  or_tz_close(z);
  const char *la[] = {"US/Pacific", "America/Los_Angeles", "PST"};
  for (int i = 0; i < 3; i++) {
    CHV_REQUIRE_OK(or_tz_open(la[i], &z, &err), &err);
    CHV_CHECK(!or_tz_is_utc(z));
    CHV_CHECK_EQ_INT(or_tz_base(z), 1420070400 + 8 * 3600);
    CHV_CHECK_EQ_INT(or_tz_offset(z, utc_of(2015, 7, 1, 12)), -7 * 3600);
    CHV_CHECK_EQ_INT(or_tz_offset(z, utc_of(1900, 7, 1, 12)), -8 * 3600);
    /* Past the database's transitions: the POSIX rule. */
    CHV_CHECK_EQ_INT(or_tz_offset(z, utc_of(2045, 7, 1, 12)), -7 * 3600);
    CHV_CHECK_EQ_INT(or_tz_offset(z, utc_of(2045, 12, 1, 12)), -8 * 3600);
    /* 2045-03-12 is the second Sunday of March: 2:00 PST = 10:00 UTC. */
    CHV_CHECK_EQ_INT(or_tz_offset(z, utc_of(2045, 3, 12, 10) - 1), -8 * 3600);
    CHV_CHECK_EQ_INT(or_tz_offset(z, utc_of(2045, 3, 12, 10)), -7 * 3600);
    or_tz_close(z);
  }
  /* A southern rule spans the new year. */
  CHV_REQUIRE_OK(or_tz_open("Australia/Sydney", &z, &err), &err);
  CHV_CHECK_EQ_INT(or_tz_offset(z, utc_of(2050, 1, 15, 0)), 11 * 3600);
  CHV_CHECK_EQ_INT(or_tz_offset(z, utc_of(2050, 7, 15, 0)), 10 * 3600);
  CHV_CHECK_EQ_INT(or_tz_offset(z, utc_of(2020, 1, 15, 0)), 11 * 3600);
  or_tz_close(z);
  const char *bad[] = {"Nowhere/Special", "../../etc/passwd", "/etc/passwd",
                       "US/../US/Pacific", "", "GMT+25"};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(bad); i++) {
    CHV_CHECK_EQ_INT(or_tz_open(bad[i], &z, &err), CHV_ENOTSUP);
    CHV_CHECK_CONTAINS(err.msg, "time zone");
  }
}

/* ---- ranges, units, statistics ----------------------------------------- */

static void test_ranges(void) {
  const char *f = "TestOrcFile.testDate2038.orc";
  struct chv_error err;
  struct chv_orc_unit *u;
  int nu;
  CHV_REQUIRE_OK(chv_orc_file_units(chv_fs_local(), fx(f), &u, &nu, &err), &err);
  CHV_REQUIRE(nu == 28);
  int64_t rows = 0;
  for (int i = 0; i < nu; i++) {
    rows += u[i].rows;
    CHV_CHECK(u[i].offset >= 3 && u[i].length > 0);
    if (i) CHV_CHECK(u[i - 1].offset + u[i - 1].length <= u[i].offset);
  }
  CHV_CHECK_EQ_INT(rows, 212000);
  /* Three splits cut inside stripes: each stripe read once, by the split
  ** its start lies in. */
  uint64_t *all = malloc(sizeof *all * 212000);
  chv_orc_reader *r;
  CHV_REQUIRE_OK(open_reader(f, NULL, &r, &err), &err);
  CHV_CHECK_EQ_INT(row_hashes(r, 4096, all, 212000, &err), 212000);
  chv_orc_reader_close(r);
  int64_t cut[] = {0, u[5].offset + 10, u[17].offset + 1, INT64_MAX};
  uint64_t *got = malloc(sizeof *got * 212000);
  int64_t at = 0;
  int stripes = 0;
  for (int i = 0; i < 3; i++) {
    struct chv_orc_read_options o;
    chv_orc_read_options_init(&o);
    o.range_start = cut[i];
    o.range_length = i == 2 ? -1 : cut[i + 1] - cut[i];
    CHV_REQUIRE_OK(open_reader(f, &o, &r, &err), &err);
    int64_t n = row_hashes(r, 999, got + at, 212000 - at, &err);
    CHV_CHECK(n > 0);
    struct chv_orc_read_stats st;
    chv_orc_reader_stats(r, &st);
    stripes += st.stripes;
    chv_orc_reader_close(r);
    at += n;
  }
  CHV_CHECK_EQ_INT(at, 212000);
  CHV_CHECK_EQ_INT(stripes, 28);
  CHV_CHECK(memcmp(all, got, sizeof *all * 212000) == 0);
  /* A range holding no stripe start. */
  struct chv_orc_read_options o;
  chv_orc_read_options_init(&o);
  o.range_start = u[3].offset + 1;
  o.range_length = 10;
  struct chv_orc_read_stats st;
  CHV_CHECK_EQ_INT(read_count(f, &o, 10, &st), 0);
  CHV_CHECK_EQ_INT(st.stripes, 0);
  free(all);
  free(got);
  chv_free(u);
}

static void test_file_stats(void) {
  struct chv_error err;
  struct chv_orc_file_stats s;
  /* int1: 11000 ints of 4 bytes; string1: 11000 strings averaging 3 bytes
  ** ("one", "two", "three": 35000 bytes), 84 + 3 bytes each. */
  CHV_REQUIRE_OK(chv_orc_file_stats(chv_fs_local(),
                                    fx("TestOrcFile.testStripeLevelStats.orc"),
                                    &s, &err),
                 &err);
  CHV_CHECK_EQ_INT(s.num_rows, 11000);
  CHV_CHECK_EQ_INT(s.stripes, 3);
  CHV_CHECK_EQ_INT(s.raw_data_size, 11000 * 4 + 11000 * (84 + 3));
  /* test1's two rows: booleans, bytes, shorts, ints, floats 4 bytes a value,
  ** longs and doubles 8, binary its bytes (5), strings 84 + the average
  ** length (hi/bye: 2; the lists' bye/sigh: 3; good/bad/cat/in/hat: 3;
  ** chani/mauddib: 6), compound columns nothing. */
  CHV_REQUIRE_OK(chv_orc_file_stats(chv_fs_local(), fx("TestOrcFile.test1.orc"),
                                    &s, &err),
                 &err);
  CHV_CHECK_EQ_INT(s.num_rows, 2);
  CHV_CHECK_EQ_INT(s.raw_data_size,
                   4 * 2 * 4 + 8 * 2 + 4 * 2 + 8 * 2 + 5 + 2 * (84 + 2) +
                       4 * 4 + 4 * (84 + 3) + 5 * 4 + 5 * (84 + 3) +
                       2 * (84 + 6) + 2 * 4 + 2 * (84 + 6));
  CHV_REQUIRE_OK(chv_orc_file_stats(chv_fs_local(), fx("zero.orc"), &s, &err),
                 &err);
  CHV_CHECK_EQ_INT(s.num_rows, 0);
  CHV_CHECK_EQ_INT(s.raw_data_size, 0);
  int rc = chv_orc_file_stats(chv_fs_local(), fx("version1999.orc"), &s, &err);
  CHV_CHECK_EQ_INT(rc, CHV_ENOTSUP);
}

CHV_TEST_MAIN("orc_reader", test_expected_files, test_edge_files,
              test_demo_v11_v12, test_corrupt_files, test_damaged_bytes,
              test_projection, test_table_schema, test_stripe_predicates,
              test_row_group_predicates, test_row_group_seeks,
              test_bloom_hashing, test_bloom_real_filters,
              test_bloom_skipping, test_writer_round_trip, test_time_zones,
              test_ranges, test_file_stats)
