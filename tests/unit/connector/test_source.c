/*
** Tests of the source API (chive/source.h): splits of text and ORC tables
** serialized, read back from their bytes alone and read: the same rows as
** a scan; projection, limit, table options; malformed split bytes.
*/
#include "chv_test.h"
#include "chive/source.h"
#include "conn_fixture.h"

#include <pthread.h>
#include <stdlib.h>

/* default.t (id int, name string) PARTITIONED BY (dt string), stored as
** given (NULL: TEXTFILE), with rows 0..n-1 spread over 3 partitions in 2
** writes each. */
static chv_catalog *make_table(const char *wh, bool orc, int n,
                               struct chv_error *err) {
  chv_catalog *cat = NULL;
  if (chv_catalog_open(wh, NULL, &cat, err) != CHV_OK) return NULL;
  struct chv_column cols[] = {{"id", "int", NULL}, {"name", "string", NULL}};
  struct chv_column pkeys[] = {{"dt", "string", NULL}};
  struct chv_kv params[] = {{"orc.stripe.size", "8k"}};
  struct chv_table t = {.db = "default", .name = "t", .columns = cols,
                        .ncols = 2, .pkeys = pkeys, .npkeys = 1,
                        .type = CHV_MANAGED_TABLE};
  if (orc) {
    t.serde_lib = "org.apache.hadoop.hive.ql.io.orc.OrcSerde";
    t.input_format = "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat";
    t.output_format = "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat";
    t.params = params;
    t.nparams = 1;
  }
  if (chv_catalog_create_table(cat, &t, 0, err) != CHV_OK) {
    chv_catalog_close(cat);
    return NULL;
  }
  static const char *const dts[] = {"2026-01-01", "2026-01-02", "2026-01-03"};
  int per = n / 6;
  for (int w = 0; w < 6; w++) {
    int first = w * per, count = w == 5 ? n - first : per;
    if (write_rows(cat, dts[w % 3], first, count, false, true, err) != CHV_OK) {
      chv_catalog_close(cat);
      return NULL;
    }
  }
  return cat;
}

struct rows {
  int64_t n;
  int64_t id_sum;
  int64_t dt_sum; /* the day of each row's partition, summed */
};

/* Read a scan, adding up ids (column id) and partition days (column dt). */
static void drain(chv_scan *sc, const char *id, const char *dt,
                  struct rows *r) {
  const struct chv_type *st = chv_scan_schema(sc);
  int ci = id ? chv_type_field_index(st, id) : -1;
  int cd = dt ? chv_type_field_index(st, dt) : -1;
  struct chv_batch *b;
  struct chv_error err;
  int rc;
  while ((rc = chv_scan_next(sc, &b, &err)) == CHV_OK && b) {
    for (int64_t i = 0; i < b->nrows; i++) {
      if (ci >= 0) r->id_sum += ((const int32_t *)b->cols[ci]->data)[i];
      if (cd >= 0) {
        const struct chv_vector *v = b->cols[cd];
        const int32_t *off = v->offsets;
        r->dt_sum += v->bytes[off[i + 1] - 1] - '0'; /* the day's digit */
      }
    }
    r->n += b->nrows;
  }
  CHV_CHECK_OK(rc, &err);
}

/* Every split through bytes: serialize, deserialize, the same bytes again,
** then read the rows of the copy. */
static void read_splits(struct chv_source_split **v, int n, const char *id,
                        const char *dt, struct rows *r) {
  for (int i = 0; i < n; i++) {
    struct chv_buf a, b;
    chv_buf_init(&a);
    chv_buf_init(&b);
    struct chv_error err;
    CHV_REQUIRE_OK(chv_source_split_serialize(v[i], &a, &err), &err);
    struct chv_source_split *copy;
    CHV_REQUIRE_OK(chv_source_split_deserialize(a.data, a.len, &copy, &err),
                   &err);
    CHV_REQUIRE_OK(chv_source_split_serialize(copy, &b, &err), &err);
    CHV_CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
    CHV_CHECK_STREQ(copy->path, v[i]->path);
    CHV_CHECK_EQ_INT(copy->start, v[i]->start);
    CHV_CHECK_EQ_INT(copy->length, v[i]->length);
    chv_scan *sc;
    CHV_REQUIRE_OK(chv_source_split_open(copy, 5, &sc, &err), &err);
    drain(sc, id, dt, r);
    chv_scan_close(sc);
    chv_source_split_free(copy);
    chv_buf_free(&a);
    chv_buf_free(&b);
  }
}

static void check_table(bool orc) {
  struct chv_error err;
  const char *wh = chv_test_tmpdir();
  const int n = 3000;
  chv_catalog *cat = make_table(wh, orc, n, &err);
  CHV_REQUIRE(cat != NULL);

  /* The whole table through a scan. */
  struct rows want = {0};
  chv_scan *sc;
  CHV_REQUIRE_OK(chv_scan_open(cat, "default", "t", NULL, &sc, &err), &err);
  drain(sc, "id", "dt", &want);
  chv_scan_close(sc);
  CHV_CHECK_EQ_INT(want.n, n);
  CHV_CHECK_EQ_INT(want.id_sum, (int64_t)n * (n - 1) / 2);

  /* Every column, through the splits. */
  chv_source *src;
  CHV_REQUIRE_OK(chv_source_open(cat, "default", "t", NULL, 0, NULL, &src,
                                 &err), &err);
  struct chv_source_split **v;
  int ns;
  struct chv_split_plan *plan;
  CHV_REQUIRE_OK(chv_source_splits(src, 4, &v, &ns, &plan, &err), &err);
  CHV_CHECK_EQ_INT(ns, plan->nsplits);
  CHV_CHECK(ns >= 6);
  struct rows got = {0};
  read_splits(v, ns, "id", "dt", &got);
  CHV_CHECK_EQ_INT(got.n, want.n);
  CHV_CHECK_EQ_INT(got.id_sum, want.id_sum);
  CHV_CHECK_EQ_INT(got.dt_sum, want.dt_sum);
  chv_source_splits_free(v, ns);
  chv_split_plan_free(plan);
  chv_source_close(src);

  /* Projected fields (dt, id), a limit, pruned partitions, and a table
  ** option that cuts ORC files at every stripe. */
  struct chv_kv opts[] = {{"table.exec.hive.split-max-size", "1"}};
  CHV_REQUIRE_OK(chv_source_open(cat, "default", "t", opts, 1, NULL, &src,
                                 &err), &err);
  int fields[] = {2, 0};
  CHV_REQUIRE_OK(chv_source_set_projected_fields(src, fields, 2, &err), &err);
  const struct chv_type *st = chv_source_schema(src, &err);
  CHV_REQUIRE(st != NULL);
  CHV_CHECK_EQ_INT(st->nchildren, 2);
  CHV_CHECK_STREQ(st->names[0], "dt");
  chv_arena *a;
  CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
  chv_source_set_partitions(src, chv_pf_cmp(a, "dt", CHV_PF_GE, "2026-01-02"));
  CHV_REQUIRE_OK(chv_source_splits(src, 1, &v, &ns, &plan, &err), &err);
  got = (struct rows){0};
  read_splits(v, ns, "id", "dt", &got);
  CHV_CHECK_EQ_INT(got.dt_sum, 2 * 1000 + 3 * 1000);
  CHV_CHECK_EQ_INT(got.n, 2000);
  /* The option given with the source reached the planner. */
  CHV_CHECK_EQ_INT(plan->max_split_bytes, orc ? 1 : 0);
  chv_split_plan_free(plan);
  chv_source_splits_free(v, ns);
  chv_source_set_limit(src, 7);
  CHV_REQUIRE_OK(chv_source_splits(src, 1, &v, &ns, NULL, &err), &err);
  got = (struct rows){0};
  read_splits(v, ns, "id", NULL, &got);
  CHV_CHECK(got.n <= 7 * (int64_t)ns);
  for (int i = 0; i < ns; i++) CHV_CHECK_EQ_INT(v[i]->limit, 7);
  chv_source_splits_free(v, ns);
  /* No fields: rows without columns. */
  chv_source_set_limit(src, -1);
  CHV_REQUIRE_OK(chv_source_set_projected_fields(src, fields, 0, &err), &err);
  CHV_REQUIRE_OK(chv_source_splits(src, 1, &v, &ns, NULL, &err), &err);
  got = (struct rows){0};
  read_splits(v, ns, NULL, NULL, &got);
  CHV_CHECK_EQ_INT(got.n, 2000);
  chv_source_splits_free(v, ns);
  chv_arena_close(a);

  /* Bad projections. */
  int bad[] = {0, 0};
  CHV_CHECK_EQ_INT(chv_source_set_projected_fields(src, bad, 2, &err),
                   CHV_EINVAL);
  CHV_CHECK(strstr(err.msg, "twice") != NULL);
  bad[1] = 3;
  CHV_CHECK_EQ_INT(chv_source_set_projected_fields(src, bad, 2, &err),
                   CHV_EINVAL);
  CHV_CHECK(strstr(err.msg, "out of range") != NULL);
  chv_source_close(src);
  chv_catalog_close(cat);
}

static void test_text_splits(void) { check_table(false); }
static void test_orc_splits(void) { check_table(true); }

/* Malformed bytes: clean errors, whatever is cut or flipped. */
static void test_bad_bytes(void) {
  struct chv_error err;
  const char *wh = chv_test_tmpdir();
  chv_catalog *cat = make_table(wh, false, 60, &err);
  CHV_REQUIRE(cat != NULL);
  chv_source *src;
  CHV_REQUIRE_OK(chv_source_open(cat, "default", "t", NULL, 0, NULL, &src,
                                 &err), &err);
  struct chv_pred pred = {"id", CHV_PRED_GT, "3"};
  CHV_REQUIRE_OK(chv_source_set_predicates(src, &pred, 1, &err), &err);
  struct chv_source_split **v;
  int ns;
  CHV_REQUIRE_OK(chv_source_splits(src, 1, &v, &ns, NULL, &err), &err);
  CHV_REQUIRE(ns > 0);
  CHV_CHECK_EQ_INT(v[0]->npreds, 1);
  struct chv_buf b;
  chv_buf_init(&b);
  CHV_REQUIRE_OK(chv_source_split_serialize(v[0], &b, &err), &err);
  struct chv_source_split *sp;

  CHV_CHECK_EQ_INT(chv_source_split_deserialize("XXXX", 4, &sp, &err),
                   CHV_ECORRUPT);
  CHV_CHECK(strstr(err.msg, "not a chive split") != NULL);
  CHV_CHECK_EQ_INT(chv_source_split_deserialize("CHVS\x02", 5, &sp, &err),
                   CHV_ENOTSUP);
  CHV_CHECK(strstr(err.msg, "version 2") != NULL);
  /* Every truncation: an error (the partition value count or a field
  ** cut short), never a crash or a leak; the whole parses. */
  for (size_t k = 0; k < b.len; k++) {
    int rc = chv_source_split_deserialize(b.data, k, &sp, &err);
    CHV_CHECK(rc == CHV_ECORRUPT || rc == CHV_OK);
    if (rc == CHV_OK) chv_source_split_free(sp);
    CHV_CHECK(rc != CHV_OK || k > 0);
  }
  /* Flipped bytes: a clean result either way. */
  uint8_t *copy = chv_malloc(b.len);
  CHV_REQUIRE(copy != NULL);
  srand(7);
  for (int round = 0; round < 2000; round++) {
    memcpy(copy, b.data, b.len);
    for (int f = 0; f < 3; f++)
      copy[4 + (size_t)rand() % (b.len - 4)] ^= (uint8_t)(1 + rand() % 255);
    int rc = chv_source_split_deserialize(copy, b.len, &sp, &err);
    CHV_CHECK(rc == CHV_OK || rc == CHV_ECORRUPT || rc == CHV_ENOTSUP);
    if (rc == CHV_OK) chv_source_split_free(sp);
  }
  chv_free(copy);
  chv_buf_free(&b);

  /* A split whose file is gone: the error names it. */
  chv_free(v[0]->path);
  v[0]->path = chv_strdup("/nonexistent/part-0");
  chv_scan *sc;
  int rc = chv_source_split_open(v[0], 0, &sc, &err);
  if (rc == CHV_OK) {
    struct chv_batch *bt;
    rc = chv_scan_next(sc, &bt, &err);
    chv_scan_close(sc);
  }
  CHV_CHECK_EQ_INT(rc, CHV_ENOENT);
  CHV_CHECK(strstr(err.msg, "/nonexistent/part-0") != NULL);
  chv_source_splits_free(v, ns);
  chv_source_close(src);
  chv_catalog_close(cat);
}


/* Every row of a scan in order, as "id,dt" lines. */
static void scan_lines(chv_catalog *cat, int threads, int64_t limit,
                       const struct chv_part_filter *f, struct chv_buf *out,
                       struct chv_scan_stats *st) {
  struct chv_scan_options o;
  chv_scan_options_init(&o);
  o.threads = threads;
  o.limit = limit;
  o.filter = f;
  o.batch_rows = 100;
  chv_scan *sc;
  struct chv_error err;
  CHV_REQUIRE_OK(chv_scan_open(cat, "default", "t", &o, &sc, &err), &err);
  struct chv_batch *b;
  int rc;
  while ((rc = chv_scan_next(sc, &b, &err)) == CHV_OK && b) {
    const struct chv_vector *dt = b->cols[2];
    for (int64_t i = 0; i < b->nrows; i++)
      chv_buf_printf(out, "%d,%.*s\n", ((const int32_t *)b->cols[0]->data)[i],
                     (int)(dt->offsets[i + 1] - dt->offsets[i]),
                     dt->bytes + dt->offsets[i]);
  }
  CHV_CHECK_OK(rc, &err);
  chv_scan_stats(sc, st);
  chv_scan_close(sc);
}

/* Reader threads give the rows of one thread, in the same order. */
static void test_parallel_scan(void) {
  for (int orc = 0; orc <= 1; orc++) {
    struct chv_error err;
    const char *wh = chv_test_tmpdir();
    chv_catalog *cat = make_table(wh, orc, 6000, &err);
    CHV_REQUIRE(cat != NULL);
    struct chv_buf one, many;
    chv_buf_init(&one);
    struct chv_scan_stats st1, st;
    scan_lines(cat, 1, -1, NULL, &one, &st1);
    CHV_CHECK_EQ_INT(st1.rows, 6000);
    for (int threads = 2; threads <= 5; threads++) {
      chv_buf_init(&many);
      scan_lines(cat, threads, -1, NULL, &many, &st);
      CHV_CHECK(one.len == many.len && !memcmp(one.data, many.data, one.len));
      CHV_CHECK_EQ_INT(st.rows, 6000);
      CHV_CHECK(st.files_read >= st1.files_read); /* a file per split */
      chv_buf_free(&many);
      /* A limit: a prefix of the same rows. */
      chv_buf_init(&many);
      scan_lines(cat, threads, 1234, NULL, &many, &st);
      CHV_CHECK_EQ_INT(st.rows, 1234);
      CHV_CHECK(many.len < one.len && !memcmp(one.data, many.data, many.len));
      chv_buf_free(&many);
    }
    /* Pruned partitions. */
    chv_arena *a;
    CHV_REQUIRE_OK(chv_arena_open(0, &a), NULL);
    struct chv_part_filter *f = chv_pf_cmp(a, "dt", CHV_PF_EQ, "2026-01-02");
    struct chv_buf p1, p2;
    chv_buf_init(&p1);
    chv_buf_init(&p2);
    scan_lines(cat, 1, -1, f, &p1, &st);
    scan_lines(cat, 3, -1, f, &p2, &st);
    CHV_CHECK_EQ_INT(st.rows, 2000);
    CHV_CHECK(p1.len == p2.len && !memcmp(p1.data, p2.data, p1.len));
    chv_buf_free(&p1);
    chv_buf_free(&p2);
    chv_arena_close(a);
    chv_buf_free(&one);

    /* A damaged ORC file fails the scan, naming it. */
    if (orc) {
      char path[800];
      snprintf(path, sizeof path, "%s/t/dt=2026-01-03/zz-damaged", wh);
      FILE *fp = fopen(path, "w");
      CHV_REQUIRE(fp != NULL);
      fputs("ORC and then nothing", fp);
      fclose(fp);
      struct chv_scan_options o;
      chv_scan_options_init(&o);
      o.threads = 3;
      chv_scan *sc = NULL;
      /* Planning reads the tails: the scan fails to open. */
      int rc = chv_scan_open(cat, "default", "t", &o, &sc, &err);
      struct chv_batch *b;
      while (rc == CHV_OK && (rc = chv_scan_next(sc, &b, &err)) == CHV_OK &&
             b) {
      }
      CHV_CHECK_EQ_INT(rc, CHV_ECORRUPT);
      CHV_CHECK(strstr(err.msg, "zz-damaged") != NULL);
      chv_scan_close(sc);
    }
    chv_catalog_close(cat);
  }
}

/* Many small splits, runs of them empty: readers wait for the window of
** splits to move, and must be woken when the consumer passes a run of
** empty splits at once (this hung once). */
static void test_parallel_many_splits(void) {
  struct chv_error err;
  const char *wh = chv_test_tmpdir();
  chv_catalog *cat = open_table(wh, "string", &err);
  CHV_REQUIRE(cat != NULL);
  static const char *const dts[] = {"a", "b", "c"};
  for (int f = 0; f < 9; f++)
    CHV_REQUIRE_OK(write_rows(cat, dts[f % 3], f * 10, 10, false, true, &err),
                   &err);
  /* 20 empty files in each partition, between its written ones ("part-")
  ** in path order. */
  for (int d = 0; d < 3; d++)
    for (int k = 0; k < 20; k++) {
      char path[800];
      snprintf(path, sizeof path, "%s/t/dt=%s/empty-%02d", wh, dts[d], k);
      FILE *fp = fopen(path, "w");
      CHV_REQUIRE(fp != NULL);
      fclose(fp);
    }
  struct chv_buf one, many;
  chv_buf_init(&one);
  struct chv_scan_stats st;
  scan_lines(cat, 1, -1, NULL, &one, &st);
  for (int round = 0; round < 30; round++) {
    chv_buf_init(&many);
    scan_lines(cat, 2 + round % 3, -1, NULL, &many, &st);
    CHV_CHECK(one.len == many.len && !memcmp(one.data, many.data, one.len));
    chv_buf_free(&many);
  }
  chv_buf_free(&one);
  chv_catalog_close(cat);
}

/* ---- a stage on the reader threads (chv_scan_options.hook) ---- */

struct stage_log {
  struct chv_buf ends; /* "first id:rows;" per split end, in call order */
  int64_t fail_at;     /* a batch with this id fails its split; -1: none */
  int live;            /* states made and not yet freed */
};

struct stage_state {
  int64_t first, rows;
};

/* Counts the split's rows and gives back its even ids (and their dt). */
static int stage_batch(void *ctx, void **state, const struct chv_batch *in,
                       struct chv_batch **out, struct chv_error *err) {
  struct stage_log *lg = ctx;
  struct stage_state *st = *state;
  if (!st) {
    st = calloc(1, sizeof *st);
    if (!st) return chv_error_set(err, CHV_ENOMEM, "out of memory");
    st->first = ((const int32_t *)in->cols[0]->data)[0];
    *state = st;
    __atomic_add_fetch(&lg->live, 1, __ATOMIC_SEQ_CST);
  }
  st->rows += in->nrows;
  struct chv_batch *b;
  CHV_RETURN_IF_ERR(chv_batch_open(in->schema, 0, &b, err));
  for (int64_t i = 0; i < in->nrows; i++) {
    int32_t id = ((const int32_t *)in->cols[0]->data)[i];
    if (id == lg->fail_at) {
      chv_batch_close(b);
      return chv_error_set(err, CHV_EIO, "the stage failed at id %d", id);
    }
    if (id % 2) continue;
    for (int c = 0; c < in->ncols; c++)
      CHV_RETURN_IF_ERR(chv_vector_append_from(b->cols[c], in->cols[c], i, err));
    b->nrows++;
  }
  *out = b;
  return CHV_OK;
}

static int stage_done(void *ctx, void *state, bool ok, struct chv_error *err) {
  (void)err;
  struct stage_log *lg = ctx;
  struct stage_state *st = state;
  if (ok && st)
    chv_buf_printf(&lg->ends, "%lld:%lld;", (long long)st->first,
                   (long long)st->rows);
  if (st) __atomic_sub_fetch(&lg->live, 1, __ATOMIC_SEQ_CST);
  free(st);
  return CHV_OK;
}

/* The scan with the stage: its rows as "id,dt" lines; rc of the scan. */
static int stage_scan(chv_catalog *cat, int threads, struct stage_log *lg,
                      int64_t stop_after, struct chv_buf *out,
                      struct chv_error *err) {
  struct chv_scan_hook hook = {lg, stage_batch, stage_done};
  struct chv_scan_options o;
  chv_scan_options_init(&o);
  o.threads = threads;
  o.batch_rows = 100;
  o.hook = &hook;
  chv_scan *sc;
  CHV_RETURN_IF_ERR(chv_scan_open(cat, "default", "t", &o, &sc, err));
  struct chv_batch *b;
  int rc;
  int64_t seen = 0;
  while ((rc = chv_scan_next(sc, &b, err)) == CHV_OK && b &&
         (stop_after < 0 || seen < stop_after)) {
    const struct chv_vector *dt = b->cols[2];
    for (int64_t i = 0; i < b->nrows; i++)
      chv_buf_printf(out, "%d,%.*s\n", ((const int32_t *)b->cols[0]->data)[i],
                     (int)(dt->offsets[i + 1] - dt->offsets[i]),
                     dt->bytes + dt->offsets[i]);
    seen += b->nrows;
  }
  chv_scan_close(sc);
  return rc;
}

/* A stage sees the same splits, ended in the same order, whatever the
** thread count; what it gives comes back in split order; a failing stage
** fails the scan; every state is freed, also when the scan stops early. */
static void test_scan_stage(void) {
  for (int orc = 0; orc <= 1; orc++) {
    struct chv_error err;
    const char *wh = chv_test_tmpdir();
    chv_catalog *cat = make_table(wh, orc, 6000, &err);
    CHV_REQUIRE(cat != NULL);
    /* the expected rows: the even ids of a plain scan, in its order */
    struct chv_buf all, even;
    chv_buf_init(&all);
    chv_buf_init(&even);
    struct chv_scan_stats st;
    scan_lines(cat, 1, -1, NULL, &all, &st);
    for (char *line = all.data; line && *line;) {
      char *nl = strchr(line, '\n');
      if (atoi(line) % 2 == 0)
        chv_buf_append(&even, line, (size_t)(nl - line + 1));
      line = nl + 1;
    }
    struct chv_buf ends1;
    chv_buf_init(&ends1);
    for (int threads = 1; threads <= 4; threads++) {
      struct stage_log lg = {.fail_at = -1};
      chv_buf_init(&lg.ends);
      struct chv_buf got;
      chv_buf_init(&got);
      CHV_CHECK_OK(stage_scan(cat, threads, &lg, -1, &got, &err), &err);
      CHV_CHECK(got.len == even.len && !memcmp(got.data, even.data, got.len));
      CHV_CHECK_EQ_INT(lg.live, 0);
      /* every row was counted once, by the split that read it */
      int64_t total = 0;
      int nsplits = 0;
      for (char *p = lg.ends.data; p && *p; nsplits++) {
        char *colon = strchr(p, ':');
        total += atoll(colon + 1);
        p = strchr(p, ';') + 1;
      }
      CHV_CHECK_EQ_INT(total, 6000);
      CHV_CHECK(nsplits >= 6); /* two files in each of 3 partitions */
      if (threads == 1)
        chv_buf_append(&ends1, lg.ends.data, lg.ends.len);
      else
        CHV_CHECK(lg.ends.len == ends1.len &&
                  !memcmp(lg.ends.data, ends1.data, ends1.len));
      chv_buf_free(&got);
      chv_buf_free(&lg.ends);
      /* a stage that fails: the scan fails with its error */
      struct stage_log bad = {.fail_at = 4001};
      chv_buf_init(&bad.ends);
      chv_buf_init(&got);
      int rc = stage_scan(cat, threads, &bad, -1, &got, &err);
      CHV_CHECK_EQ_INT(rc, CHV_EIO);
      CHV_CHECK(strstr(err.msg, "the stage failed at id 4001") != NULL);
      CHV_CHECK_EQ_INT(bad.live, 0);
      chv_buf_free(&got);
      chv_buf_free(&bad.ends);
      /* stopping early frees the states of the splits in flight */
      struct stage_log early = {.fail_at = -1};
      chv_buf_init(&early.ends);
      chv_buf_init(&got);
      CHV_CHECK_OK(stage_scan(cat, threads, &early, 150, &got, &err), &err);
      CHV_CHECK_EQ_INT(early.live, 0);
      chv_buf_free(&got);
      chv_buf_free(&early.ends);
    }
    chv_buf_free(&ends1);
    chv_buf_free(&all);
    chv_buf_free(&even);
    chv_catalog_close(cat);
  }
}

/* ---- progress (chv_scan_options.progress) ---- */

struct progress_log {
  pthread_t caller;
  int calls, wrong_thread, backwards;
  struct chv_scan_stats last;
};

static void on_progress(void *ctx, const chv_scan *sc) {
  struct progress_log *lg = ctx;
  struct chv_scan_stats st;
  chv_scan_stats(sc, &st);
  if (!pthread_equal(pthread_self(), lg->caller)) lg->wrong_thread++;
  if (lg->calls && (st.rows_read < lg->last.rows_read ||
                    st.splits_done < lg->last.splits_done ||
                    st.splits_done > st.splits_total))
    lg->backwards++;
  lg->last = st;
  lg->calls++;
}

/* A stage that keeps every batch, as an aggregate does. */
static int keep_batch(void *ctx, void **state, const struct chv_batch *in,
                      struct chv_batch **out, struct chv_error *err) {
  (void)ctx, (void)state, (void)in, (void)err;
  *out = NULL;
  return CHV_OK;
}

static int keep_done(void *ctx, void *state, bool ok, struct chv_error *err) {
  (void)ctx, (void)state, (void)ok, (void)err;
  return CHV_OK;
}

/* The progress callback is told on the caller's thread, its counts only
** grow, and at the end every split is done and every row read, also when
** a stage keeps every batch (the scan then returns none). */
static void test_scan_progress(void) {
  struct chv_error err;
  const char *wh = chv_test_tmpdir();
  chv_catalog *cat = make_table(wh, false, 6000, &err);
  CHV_REQUIRE(cat != NULL);
  struct chv_scan_hook keep = {NULL, keep_batch, keep_done};
  for (int threads = 1; threads <= 3; threads += 2)
    for (int hooked = 0; hooked <= 1; hooked++) {
      struct progress_log lg = {.caller = pthread_self()};
      struct chv_scan_options o;
      chv_scan_options_init(&o);
      o.threads = threads;
      o.batch_rows = 100;
      o.hook = hooked ? &keep : NULL;
      o.progress = on_progress;
      o.progress_ctx = &lg;
      chv_scan *sc;
      CHV_REQUIRE_OK(chv_scan_open(cat, "default", "t", &o, &sc, &err), &err);
      struct chv_batch *b;
      int rc;
      int64_t returned = 0;
      while ((rc = chv_scan_next(sc, &b, &err)) == CHV_OK && b)
        returned += b->nrows;
      CHV_CHECK_OK(rc, &err);
      CHV_CHECK_EQ_INT(returned, hooked ? 0 : 6000);
      struct chv_scan_stats st;
      chv_scan_stats(sc, &st);
      chv_scan_close(sc);
      CHV_CHECK(lg.calls >= (hooked ? 1 : 60)); /* 100 rows a batch */
      CHV_CHECK_EQ_INT(lg.wrong_thread, 0);
      CHV_CHECK_EQ_INT(lg.backwards, 0);
      CHV_CHECK_EQ_INT(st.rows_read, 6000);
      CHV_CHECK_EQ_INT(st.splits_done, st.splits_total);
      if (threads > 1 || hooked)
        CHV_CHECK(st.splits_total >= 6); /* two files in each partition */
      else
        CHV_CHECK_EQ_INT(st.splits_total, 0); /* files one at a time */
      CHV_CHECK_EQ_INT(lg.last.rows_read, 6000);
    }
  chv_catalog_close(cat);
}

CHV_TEST_MAIN("source", test_text_splits, test_orc_splits, test_bad_bytes,
              test_parallel_scan, test_parallel_many_splits, test_scan_stage,
              test_scan_progress)
