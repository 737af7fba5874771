/*
** Spilling operators through the session API, as a program outside the
** library sees them: a sort, a GROUP BY and a join over 100,000 rows with
** chive.exec.operator-memory at 64 kb give the rows they give in memory;
** and whether the statement ends well, is cancelled from another thread
** midway, or fails midway (its second spill folder missing), no spill
** file is left in io.tmp.dirs and no file descriptor stays open.
*/
#include "chive/all.h"
#include "api_check.h"

#include <dirent.h>
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

/* Entries of a folder (not . and ..); -1 when it cannot be read. */
static int entries(const char *d) {
  DIR *dir = opendir(d);
  if (!dir) return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(dir)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
  closedir(dir);
  return n;
}

/* This process's open file descriptors. */
static int open_fds(void) { return entries("/proc/self/fd") - 1; }

/* Runs sql to its end: its rows in *rows and, in *sum, a sum over the
** first column's BIGINT or INT values, each weighted by its row number
** when ordered (to compare results). */
static int drain(chv_session *s, const char *sql, bool ordered,
                 int64_t *rows, int64_t *sum) {
  struct ArrowArrayStream st;
  *rows = *sum = 0;
  int rc = chv_session_exec(s, sql, &st, &err);
  if (rc != CHV_OK) return rc;
  struct ArrowSchema sc = {0};
  int e = st.get_schema(&st, &sc);
  if (e != 0) { /* the stream reads its first batch ahead */
    snprintf(err.msg, sizeof err.msg, "%s", st.get_last_error(&st));
    st.release(&st);
    return strstr(err.msg, "cancel") ? CHV_ECANCELED : CHV_EIO;
  }
  const char *fmt = e == 0 && sc.n_children ? sc.children[0]->format : "";
  bool wide = strcmp(fmt, "l") == 0, narrow = strcmp(fmt, "i") == 0;
  for (;;) {
    struct ArrowArray a;
    if ((e = st.get_next(&st, &a)) != 0) {
      snprintf(err.msg, sizeof err.msg, "%s", st.get_last_error(&st));
      rc = strstr(err.msg, "cancel") ? CHV_ECANCELED : CHV_EIO;
      break;
    }
    if (!a.release) break;
    const struct ArrowArray *c = a.n_children ? a.children[0] : NULL;
    for (int64_t i = 0; c && i < c->length; i++) {
      const uint8_t *v = c->buffers[0];
      int64_t k = i + c->offset;
      if (v && !((v[k >> 3] >> (k & 7)) & 1)) continue;
      int64_t w = ordered ? (*rows + i) % 1009 + 1 : 1;
      if (wide) *sum += ((const int64_t *)c->buffers[1])[k] * w;
      if (narrow) *sum += ((const int32_t *)c->buffers[1])[k] * w;
    }
    *rows += a.length;
    a.release(&a);
  }
  if (sc.release) sc.release(&sc);
  st.release(&st);
  return rc;
}

struct canceller {
  chv_session *s;
  double delay;
};

static void *cancel_main(void *arg) {
  struct canceller *c = arg;
  usleep((useconds_t)(c->delay * 1e6));
  chv_session_cancel(c->s);
  return NULL;
}

static void set(chv_session *s, const char *key, const char *value) {
  char sql[1024];
  snprintf(sql, sizeof sql, "SET '%s' = '%s'", key, value);
  OK(chv_session_exec(s, sql, NULL, &err));
}

int main(void) {
  char wh[] = "/tmp/chv_spill_wh_XXXXXX", tmp[] = "/tmp/chv_spill_dir_XXXXXX";
  if (!mkdtemp(wh) || !mkdtemp(tmp)) {
    perror("mkdtemp");
    return 1;
  }
  struct chv_session_options opts = {0};
  opts.warehouse = wh;
  chv_session *s;
  OK(chv_session_open(&opts, &s, &err));
  OK(chv_session_exec(s,
                      "CREATE TABLE ten AS SELECT * FROM (VALUES (0), (1), "
                      "(2), (3), (4), (5), (6), (7), (8), (9)) v(x)",
                      NULL, &err));
  OK(chv_session_exec(
      s,
      "CREATE TABLE big AS SELECT a.x * 10000 + b.x * 1000 + c.x * 100 + "
      "d.x * 10 + e.x AS k, concat('pad ', cast(e.x * 7 + a.x AS STRING)) "
      "AS pad FROM ten a, ten b, ten c, ten d, ten e",
      NULL, &err));
  /* four partitions: the GROUP BY's partials spill on four reader threads */
  OK(chv_session_exec(s,
                      "CREATE TABLE bigp (k INT, pad STRING) PARTITIONED BY "
                      "(q INT)",
                      NULL, &err));
  OK(chv_session_exec(
      s, "INSERT INTO bigp PARTITION (q) SELECT k, pad, k % 4 FROM big", NULL,
      &err));
  set(s, "table.exec.hive.infer-source-parallelism.max", "4");
  const char *qs[] = {
      "SELECT k, pad FROM big ORDER BY pad DESC, k % 1000, k",
      "SELECT k % 40000 AS g, count(*), max(pad) FROM bigp GROUP BY k % 40000",
      "SELECT b1.k + b2.k FROM big b1 JOIN big b2 ON b1.k % 50000 = b2.k % "
      "50000",
  };
  const char *names[] = {"sort", "aggregation", "join"};
  for (int q = 0; q < 3; q++) {
    int64_t rows0, sum0, rows, sum;
    set(s, "chive.exec.operator-memory", "4gb");
    double t0 = now_s();
    OK(drain(s, qs[q], q == 0, &rows0, &sum0));
    double mem = now_s() - t0;
    set(s, "chive.exec.operator-memory", "64kb");
    set(s, "io.tmp.dirs", tmp);
    int fds = open_fds();
    /* to its end: the same rows */
    t0 = now_s();
    OK(drain(s, qs[q], q == 0, &rows, &sum));
    double spilled = now_s() - t0;
    CHECK(rows == rows0 && sum == sum0);
    CHECK(entries(tmp) == 0);
    CHECK(open_fds() == fds);
    printf("%s: %lld rows, %.3f s in memory, %.3f s spilling\n", names[q],
           (long long)rows, mem, spilled);
    /* cancelled midway */
    struct canceller c = {s, spilled / 3};
    pthread_t th;
    pthread_create(&th, NULL, cancel_main, &c);
    int rc = drain(s, qs[q], q == 0, &rows, &sum);
    pthread_join(th, NULL);
    /* (a loaded machine may let it end first: then nothing was cut) */
    CHECK(rc == CHV_ECANCELED || rc == CHV_OK);
    if (rc == CHV_OK) printf("%s: ended before the cancel\n", names[q]);
    CHECK(entries(tmp) == 0);
    CHECK(open_fds() == fds);
    /* failing midway: the second file goes to a missing folder */
    char two[256];
    snprintf(two, sizeof two, "%s,/nonexistent/chv-spill", tmp);
    set(s, "io.tmp.dirs", two);
    rc = drain(s, qs[q], q == 0, &rows, &sum);
    CHECK(rc == CHV_EIO);
    CHECK(strstr(err.msg, "'/nonexistent/chv-spill'") != NULL);
    CHECK(entries(tmp) == 0);
    CHECK(open_fds() == fds);
    set(s, "io.tmp.dirs", tmp);
  }
  chv_session_close(s);
  rmdir(tmp);
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", wh);
  if (system(cmd) != 0) failures++;
  printf("session_spill: %s\n", failures ? "FAILED" : "passed");
  return failures ? 1 : 0;
}
