/*
** The session API (chive/session.h) as a program outside the library uses
** it: only include/ on the include path, linked only against libchive.so.
**
** A session on a fresh warehouse creates a partitioned Parquet table,
** inserts through the API (its summary row checked), runs a filtered
** aggregate and a SELECT * and checks every value of their Arrow streams
** (each array also through chv_arrow_validate()).  Then the streaming
** contract: the first batch of a large SELECT arrives while its scan still
** runs, and closing the stream early stops the statement.  Then cancel from
** a second thread: a long query fails with CHV_ECANCELED (the time from
** the cancel to the failure is printed, not asserted), and a cancelled
** INSERT OVERWRITE leaves the table as it was.  Last the option overlay,
** set/get, EBUSY while a result is open, and errors with their offset.
*/
#include "chive/all.h"
#include "api_check.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>



static struct chv_error err;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- reading Arrow arrays ---------------------------------------------- */

static bool valid(const struct ArrowArray *a, int64_t i) {
  const uint8_t *v = a->buffers[0];
  i += a->offset;
  return !v || (v[i >> 3] >> (i & 7)) & 1;
}

static int64_t i64_at(const struct ArrowArray *a, int64_t i) {
  return ((const int64_t *)a->buffers[1])[i + a->offset];
}

static double f64_at(const struct ArrowArray *a, int64_t i) {
  return ((const double *)a->buffers[1])[i + a->offset];
}

/* A "u" value as a NUL-terminated copy in buf. */
static const char *str_at(const struct ArrowArray *a, int64_t i, char *buf,
                          size_t n) {
  const int32_t *off = a->buffers[1];
  const char *bytes = a->buffers[2];
  i += a->offset;
  size_t len = (size_t)(off[i + 1] - off[i]);
  if (len >= n) len = n - 1;
  memcpy(buf, bytes + off[i], len);
  buf[len] = '\0';
  return buf;
}

/* Runs sql, gathering every batch (validated) into arrays[]; returns the
** batch count. */
static int run(chv_session *s, const char *sql, struct ArrowSchema *schema,
               struct ArrowArray *arrays, int max) {
  struct ArrowArrayStream st;
  OK(chv_session_exec(s, sql, &st, &err));
  CHECK(st.get_schema(&st, schema) == 0);
  int n = 0;
  for (;;) {
    struct ArrowArray a;
    int rc = st.get_next(&st, &a);
    if (rc != 0) {
      fprintf(stderr, "%s: get_next: %s\n", sql, st.get_last_error(&st));
      exit(1);
    }
    if (!a.release) break;
    struct chv_error e;
    if (chv_arrow_validate(schema, &a, &e) != CHV_OK) {
      fprintf(stderr, "%s: invalid array: %s\n", sql, e.msg);
      failures++;
    }
    if (n < max)
      arrays[n++] = a;
    else
      a.release(&a);
  }
  st.release(&st);
  return n;
}

static void release_all(struct ArrowSchema *schema, struct ArrowArray *arrays,
                        int n) {
  for (int i = 0; i < n; i++) arrays[i].release(&arrays[i]);
  schema->release(schema);
}

/* The single BIGINT of a one-row result (count(*), a summary). */
static int64_t scalar(chv_session *s, const char *sql) {
  struct ArrowSchema sc;
  struct ArrowArray a[4];
  int n = run(s, sql, &sc, a, 4);
  int64_t v = -1;
  CHECK(n == 1 && a[0].length == 1 && a[0].n_children >= 1);
  if (n == 1 && a[0].length == 1) v = i64_at(a[0].children[0], 0);
  release_all(&sc, a, n);
  return v;
}

/* ---- cancel from another thread ---------------------------------------- */

struct canceller {
  chv_session *s;
  double delay;     /* seconds after start */
  double cancelled; /* when chv_session_cancel() was called */
};

static void *cancel_main(void *arg) {
  struct canceller *c = arg;
  usleep((useconds_t)(c->delay * 1e6));
  c->cancelled = now_s();
  chv_session_cancel(c->s);
  return NULL;
}

static void check_files_hidden(const char *dir, int depth) {
  /* no staging folder of a cancelled write is left behind */
  char cmd[4200];
  snprintf(cmd, sizeof cmd,
           "find '%s' -maxdepth %d -name '.staging*' | grep -q .", dir, depth);
  CHECK(system(cmd) != 0);
}

int main(void) {
  char wh[] = "/tmp/chv_session_XXXXXX";
  if (!mkdtemp(wh)) {
    perror("mkdtemp");
    return 1;
  }
  struct chv_session_options opts = {0};
  opts.warehouse = wh;
  chv_session *s;
  OK(chv_session_open(&opts, &s, &err));
  CHECK(strcmp(chv_session_catalog(s), "hive") == 0);
  CHECK(strcmp(chv_session_database(s), "default") == 0);

  /* DDL: no columns, no rows; its message */
  chv_result *r;
  OK(chv_session_query(
      s,
      "CREATE TABLE t (id BIGINT, name STRING, v DOUBLE) PARTITIONED BY "
      "(dt STRING) STORED AS PARQUET",
      NULL, &r, &err));
  CHECK(chv_result_kind(r) == CHV_RESULT_NONE);
  CHECK(chv_result_schema(r)->nchildren == 0);
  const struct chv_batch *b;
  OK(chv_result_next(r, &b, &err));
  CHECK(b == NULL);
  CHECK(strcmp(chv_result_message(r), "OK") == 0);
  chv_result_close(r);

  /* INSERT through the API: the summary row */
  CHECK(scalar(s, "INSERT INTO t VALUES (1, 'a', 1.5, 'd1'), (2, NULL, 2.5, "
                  "'d1'), (3, 'c', NULL, 'd2'), (4, 'd', 4.0, 'd2'), (5, 'e', "
                  "5.5, 'd3')") == 5);
  OK(chv_session_query(s, "INSERT INTO t SELECT id + 10, name, v, dt FROM t",
                       NULL, &r, &err));
  CHECK(chv_result_kind(r) == CHV_RESULT_SUMMARY);
  CHECK(strcmp(chv_result_schema(r)->names[0], "rows_written") == 0);
  CHECK(strcmp(chv_result_message(r), "Inserted 5 rows") == 0);
  chv_result_close(r);

  /* a filtered aggregate */
  struct ArrowSchema sc;
  struct ArrowArray a[64];
  int n = run(s,
              "SELECT dt, count(*) AS n, sum(v) AS sv FROM t WHERE id > 2 "
              "GROUP BY dt ORDER BY dt",
              &sc, a, 64);
  CHECK(sc.n_children == 3 && strcmp(sc.children[0]->name, "dt") == 0 &&
        strcmp(sc.children[1]->format, "l") == 0 &&
        strcmp(sc.children[2]->format, "g") == 0);
  {
    /* id > 2: d1 has 11, 12; d2 has 3, 4, 13, 14; d3 has 5, 15 */
    const char *dts[] = {"d1", "d2", "d3"};
    int64_t counts[] = {2, 4, 2};
    double sums[] = {4.0, 8.0, 11.0};
    int64_t row = 0;
    for (int k = 0; k < n; k++)
      for (int64_t i = 0; i < a[k].length; i++, row++) {
        char buf[64];
        if (row >= 3) break;
        CHECK(strcmp(str_at(a[k].children[0], i, buf, sizeof buf),
                     dts[row]) == 0);
        CHECK(i64_at(a[k].children[1], i) == counts[row]);
        CHECK(valid(a[k].children[2], i) &&
              f64_at(a[k].children[2], i) == sums[row]);
      }
    CHECK(row == 3);
  }
  release_all(&sc, a, n);

  /* SELECT *: every value */
  n = run(s, "SELECT * FROM t ORDER BY id", &sc, a, 64);
  CHECK(sc.n_children == 4);
  {
    int64_t row = 0;
    for (int k = 0; k < n; k++)
      for (int64_t i = 0; i < a[k].length; i++, row++) {
        int64_t base = row < 5 ? row + 1 : row - 5 + 11;
        const char *names[] = {"a", NULL, "c", "d", "e"};
        double vs[] = {1.5, 2.5, 0, 4.0, 5.5};
        const char *dts[] = {"d1", "d1", "d2", "d2", "d3"};
        int64_t j = row % 5;
        char buf[64];
        CHECK(i64_at(a[k].children[0], i) == base);
        CHECK(valid(a[k].children[1], i) == (names[j] != NULL));
        if (names[j])
          CHECK(strcmp(str_at(a[k].children[1], i, buf, sizeof buf),
                       names[j]) == 0);
        CHECK(valid(a[k].children[2], i) == (j != 2));
        if (j != 2) CHECK(f64_at(a[k].children[2], i) == vs[j]);
        CHECK(strcmp(str_at(a[k].children[3], i, buf, sizeof buf), dts[j]) ==
              0);
      }
    CHECK(row == 10);
  }
  release_all(&sc, a, n);

  /* a big table: 10 rows doubled to 10 << 17 = 1,310,720 */
  OK(chv_session_exec(s,
                      "CREATE TABLE big (id BIGINT, name STRING, v DOUBLE) "
                      "STORED AS PARQUET",
                      NULL, &err));
  OK(chv_session_exec(s, "INSERT INTO big SELECT id, name, v FROM t", NULL,
                      &err));
  for (int i = 0; i < 17; i++)
    OK(chv_session_exec(s, "INSERT INTO big SELECT id + 100, name, v FROM big",
                        NULL, &err));
  int64_t big_rows = scalar(s, "SELECT count(*) FROM big");
  CHECK(big_rows == 10 << 17);

  /* streaming: the first batch comes before the scan ends, and closing the
  ** result stops the rest */
  {
    double t0 = now_s();
    OK(chv_session_query(s, "SELECT * FROM big", NULL, &r, &err));
    OK(chv_result_next(r, &b, &err));
    double first = now_s() - t0;
    CHECK(b != NULL && b->nrows > 0 && b->nrows < big_rows);
    int64_t seen = b ? b->nrows : 0;
    double t1 = now_s();
    while (chv_result_next(r, &b, &err) == CHV_OK && b) seen += b->nrows;
    double rest = now_s() - t1;
    CHECK(seen == big_rows);
    chv_result_close(r);
    printf("SELECT * of %" PRId64 " rows: first batch after %.3f s, the rest "
           "in %.3f s\n",
           big_rows, first, rest);
    /* closed after one batch: the statement stops, the session goes on */
    OK(chv_session_query(s, "SELECT * FROM big", NULL, &r, &err));
    OK(chv_result_next(r, &b, &err));
    chv_result_close(r);
    CHECK(scalar(s, "SELECT count(*) FROM t") == 10);
  }

  /* EBUSY while a result is open */
  OK(chv_session_query(s, "SELECT id FROM t", NULL, &r, &err));
  CHECK(chv_session_query(s, "SELECT 1", NULL, NULL, &err) == CHV_EBUSY);
  chv_result_close(r);

  /* cancel a long query from another thread */
  {
    const char *q = "SELECT id, name FROM big WHERE v > 0 ORDER BY name, v "
                    "DESC, id";
    double t0 = now_s();
    OK(chv_session_exec(s, q, NULL, &err));
    double full = now_s() - t0;
    struct canceller c = {s, full / 4, 0};
    pthread_t th;
    pthread_create(&th, NULL, cancel_main, &c);
    struct ArrowArrayStream st;
    int rc = chv_session_exec(s, q, &st, &err);
    if (rc == CHV_OK) { /* cancelled while streaming: the stream fails */
      struct ArrowArray arr;
      int e = 0;
      while ((e = st.get_next(&st, &arr)) == 0 && arr.release)
        arr.release(&arr);
      rc = e ? CHV_ECANCELED : CHV_OK;
      if (e) snprintf(err.msg, sizeof err.msg, "%s", st.get_last_error(&st));
      st.release(&st);
    }
    double stopped = now_s();
    pthread_join(th, NULL);
    CHECK(rc == CHV_ECANCELED);
    printf("cancel of a %.3f s sort: stopped %.1f ms after "
           "chv_session_cancel()\n",
           full, (stopped - c.cancelled) * 1e3);
    CHECK(rc != CHV_ECANCELED || strstr(err.msg, "cancel") != NULL);
  }

  /* a cancelled INSERT OVERWRITE leaves the table as it was */
  {
    int64_t before = scalar(s, "SELECT count(*) FROM big");
    const char *w = "INSERT OVERWRITE big SELECT id, name, v FROM big "
                    "WHERE id % 2 = 0";
    struct canceller c = {s, 0.05, 0};
    pthread_t th;
    pthread_create(&th, NULL, cancel_main, &c);
    int rc = chv_session_exec(s, w, NULL, &err);
    pthread_join(th, NULL);
    if (rc == CHV_OK) {
      /* the write won the race: it must then be whole */
      fprintf(stderr, "note: the INSERT OVERWRITE ended before its cancel\n");
    } else {
      CHECK(rc == CHV_ECANCELED);
      CHECK(scalar(s, "SELECT count(*) FROM big") == before);
      check_files_hidden(wh, 3);
    }
  }

  /* the option overlay holds for one statement */
  {
    const char *keys[] = {"table.exec.hive.infer-source-parallelism.max"};
    const char *vals[] = {"3"};
    struct chv_exec_options eo = {keys, vals, 1};
    char *v = NULL;
    OK(chv_session_query(s, "SELECT count(*) FROM t", &eo, &r, &err));
    chv_result_close(r);
    OK(chv_session_get(s, keys[0], &v, &err));
    CHECK(strcmp(v, "3") != 0); /* back to the default */
    chv_free(v);
    const char *badk[] = {"table.exec.hive.infer-source-parallelism.max"};
    const char *badv[] = {"lots"};
    struct chv_exec_options bad = {badk, badv, 1};
    CHECK(chv_session_query(s, "SELECT 1", &bad, NULL, &err) != CHV_OK);
    CHECK(strstr(err.msg, "infer-source-parallelism.max") != NULL);
    OK(chv_session_set(s, keys[0], "7", &err));
    OK(chv_session_get(s, keys[0], &v, &err));
    CHECK(strcmp(v, "7") == 0);
    chv_free(v);
    CHECK(chv_session_get(s, "no.such.key", &v, &err) == CHV_ENOENT);
  }

  /* errors: the code, and the offset of the place in the text */
  {
    const char *q = "SELECT nope FROM t";
    CHECK(chv_session_exec(s, q, NULL, &err) == CHV_ENOENT);
    CHECK(strstr(err.msg, "nope") != NULL);
    CHECK(chv_session_error_offset(s) == 7);
    CHECK(chv_session_exec(s, "SELEC 1", NULL, &err) == CHV_ESYNTAX);
    CHECK(chv_session_exec(s, "SELECT 1; SELECT 2", NULL, &err) != CHV_OK);
    CHECK(chv_session_error_offset(s) == 10);
    /* a comment alone is a statement without rows */
    OK(chv_session_exec(s, "-- nothing", NULL, &err));
  }

  chv_session_close(s);

  /* two sessions on one warehouse see each other's commits */
  {
    chv_session *s1, *s2;
    OK(chv_session_open(&opts, &s1, &err));
    OK(chv_session_open(&opts, &s2, &err));
    OK(chv_session_exec(s1, "INSERT INTO t VALUES (99, 'z', 9.0, 'd9')", NULL,
                        &err));
    CHECK(scalar(s2, "SELECT count(*) FROM t") == 11);
    chv_session_close(s1);
    chv_session_close(s2);
  }

  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", wh);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", wh);
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures ? 1 : 0;
}
