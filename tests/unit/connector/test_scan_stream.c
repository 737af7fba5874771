/*
** Tests of chv_scan_export_stream (src/connector/scan_stream.c): a scan as
** an ArrowArrayStream, at the edges the end-to-end API test does not reach:
** an empty table, a limit, a file that fails mid-stream, and allocation
** failure at every step of export and consumption.
*/
#include "chv_test.h"
#include "connector/connector.h"
#include "conn_fixture.h"

/* Export a scan of default.t and read it to the end: rows and the sum of
** ids; every array validated.  Returns the stream's errno (or a CHV_ code
** from open/export) and leaves nothing allocated. */
static int stream_sum(chv_catalog *cat, int64_t limit, int64_t batch_rows,
                      int64_t *rows, int64_t *sum, char *msg, size_t msgn) {
  struct chv_error err;
  struct chv_scan_options o;
  chv_scan_options_init(&o);
  o.limit = limit;
  o.batch_rows = batch_rows;
  chv_scan *s;
  *rows = *sum = 0;
  int rc = chv_scan_open(cat, "default", "t", &o, &s, &err);
  if (rc != CHV_OK) return rc;
  struct ArrowArrayStream st;
  rc = chv_scan_export_stream(s, &st, &err);
  if (rc != CHV_OK) return rc;
  struct ArrowSchema schema;
  rc = st.get_schema(&st, &schema);
  if (rc != 0) {
    snprintf(msg, msgn, "%s", st.get_last_error(&st));
    st.release(&st);
    return rc;
  }
  for (;;) {
    struct ArrowArray a;
    rc = st.get_next(&st, &a);
    if (rc != 0) {
      snprintf(msg, msgn, "%s", st.get_last_error(&st));
      break;
    }
    if (a.release == NULL) break;
    if (chv_arrow_validate(&schema, &a, &err) != CHV_OK) {
      fprintf(stderr, "invalid array: %s\n", err.msg);
      chv_test_failed_ = 1;
    }
    const int32_t *ids = a.children[0]->buffers[1];
    for (int64_t i = 0; i < a.length; i++)
      *sum += ids[i];
    *rows += a.length;
    a.release(&a);
  }
  schema.release(&schema);
  st.release(&st);
  return rc;
}

static void test_stream_empty_and_limit(void) {
  struct chv_error err;
  chv_catalog *cat = open_table(chv_test_tmpdir(), "string", &err);
  CHV_REQUIRE(cat != NULL);
  int64_t rows, sum;
  char msg[256] = "";
  /* No partitions: a schema, then the end at once. */
  CHV_CHECK_EQ_INT(stream_sum(cat, -1, 0, &rows, &sum, msg, sizeof msg), 0);
  CHV_CHECK_EQ_INT(rows, 0);

  CHV_REQUIRE_OK(write_rows(cat, "a", 0, 10, false, true, &err), &err);
  CHV_REQUIRE_OK(write_rows(cat, "b", 100, 10, false, true, &err), &err);
  CHV_CHECK_EQ_INT(stream_sum(cat, -1, 3, &rows, &sum, msg, sizeof msg), 0);
  CHV_CHECK_EQ_INT(rows, 20);
  CHV_CHECK_EQ_INT(sum, 45 + 1045);
  CHV_CHECK_EQ_INT(stream_sum(cat, 5, 2, &rows, &sum, msg, sizeof msg), 0);
  CHV_CHECK_EQ_INT(rows, 5);
  CHV_CHECK_EQ_INT(sum, 10);
  CHV_CHECK_EQ_INT(stream_sum(cat, 0, 2, &rows, &sum, msg, sizeof msg), 0);
  CHV_CHECK_EQ_INT(rows, 0);
  chv_catalog_close(cat);
}

/* A file that cannot be read fails get_next with an errno and a message
** naming it; releasing the stream after the failure leaks nothing. */
static void test_stream_error(void) {
  struct chv_error err;
  const char *wh = chv_test_tmpdir();
  chv_catalog *cat = open_table(wh, "string", &err);
  CHV_REQUIRE(cat != NULL);
  CHV_REQUIRE_OK(write_rows(cat, "a", 0, 10, false, true, &err), &err);
  char path[800];
  snprintf(path, sizeof path, "%s/t/dt=a/zz-broken.gz", wh);
  FILE *f = fopen(path, "wb");
  CHV_REQUIRE(f != NULL);
  fputs("this is not gzip", f);
  fclose(f);
  int64_t rows, sum;
  char msg[512] = "";
  int rc = stream_sum(cat, -1, 4, &rows, &sum, msg, sizeof msg);
  CHV_CHECK(rc > 0); /* an errno */
  CHV_CHECK(strstr(msg, "zz-broken.gz") != NULL);
  CHV_CHECK_EQ_INT(rows, 10); /* the good file came first */
  chv_catalog_close(cat);
}

/* Every allocation in open, export and consumption may fail; each failure
** ends the run cleanly (ASan: no leak) and a later run succeeds. */
static void test_stream_alloc_failure(void) {
  struct chv_error err;
  chv_catalog *cat = open_table(chv_test_tmpdir(), "string", &err);
  CHV_REQUIRE(cat != NULL);
  CHV_REQUIRE_OK(write_rows(cat, "a", 0, 10, false, true, &err), &err);
  CHV_REQUIRE_OK(write_rows(cat, "b", 100, 10, false, true, &err), &err);
  int failures = 0;
  bool done = false;
  for (long n = 1; n < 100000 && !done; n++) {
    int64_t rows = 0, sum = 0;
    char msg[256] = "";
    chv_alloc_fail_after(n);
    int rc = stream_sum(cat, -1, 4, &rows, &sum, msg, sizeof msg);
    chv_alloc_fail_after(0);
    if (rc == 0) { /* no failure may look like a short, clean stream */
      CHV_CHECK_EQ_INT(rows, 20);
      CHV_CHECK_EQ_INT(sum, 45 + 1045);
      done = true;
    } else {
      failures++;
    }
  }
  CHV_CHECK(done);
  CHV_CHECK(failures > 20);
  chv_catalog_close(cat);
}

CHV_TEST_MAIN("scan_stream", test_stream_empty_and_limit, test_stream_error,
              test_stream_alloc_failure)
