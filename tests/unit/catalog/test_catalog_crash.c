/*
** Crash and concurrency tests of the embedded metastore: a writer process
** (catalog_writer) adding batches of partitions is SIGKILLed at random
** points, and after each kill the metastore holds every partition of a
** batch or none; a reader lists partitions while a writer writes and never
** sees part of a batch.
**
** The random sleeps come from a seeded generator; the seed is printed, and
** CHV_TEST_SEED=<n> repeats a run.
*/
#include "chv_test.h"
#include "catalog/catalog.h"
#include "fs/fs.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <time.h>

#ifndef CHV_CATALOG_WRITER
#error "CHV_CATALOG_WRITER must name the catalog_writer program"
#endif

enum { BATCH = 50, MAX_BATCHES = 100000 };

static uint64_t rng_state;
static uint32_t rng_next(void) {
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (uint32_t)(rng_state >> 33);
}

static void seed_rng(void) {
  const char *s = getenv("CHV_TEST_SEED");
  uint64_t seed = s ? strtoull(s, NULL, 10) : 20240229u;
  printf("# seed %llu (set CHV_TEST_SEED to repeat)\n",
         (unsigned long long)seed);
  rng_state = seed;
}

static void sleep_us(long us) {
  struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

/* Creates the warehouse with default.k(batch int, idx int). */
static char *make_warehouse(void) {
  char *wh = chv_path_join(chv_test_tmpdir(), "wh");
  struct chv_error err;
  chv_catalog *c;
  if (chv_catalog_open(wh, NULL, &c, &err) != CHV_OK) {
    fprintf(stderr, "open: %s\n", err.msg);
    return wh;
  }
  struct chv_column cols[] = {{"v", "string", NULL}};
  struct chv_column keys[] = {{"batch", "int", NULL}, {"idx", "int", NULL}};
  struct chv_table t;
  memset(&t, 0, sizeof t);
  t.name = "k";
  t.columns = cols;
  t.ncols = 1;
  t.pkeys = keys;
  t.npkeys = 2;
  if (chv_catalog_create_table(c, &t, 0, &err) != CHV_OK)
    fprintf(stderr, "create: %s\n", err.msg);
  chv_catalog_close(c);
  return wh;
}

/* Starts catalog_writer with its stdout on a pipe (*out, non-blocking). */
static pid_t spawn_writer(const char *wh, long first, long count, int *out) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  char a1[24], a2[24], a3[24];
  snprintf(a1, sizeof a1, "%ld", first);
  snprintf(a2, sizeof a2, "%ld", count);
  snprintf(a3, sizeof a3, "%d", BATCH);
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    close(fds[1]);
    execl(CHV_CATALOG_WRITER, CHV_CATALOG_WRITER, wh, a1, a2, a3,
          (char *)NULL);
    _exit(127);
  }
  close(fds[1]);
  fcntl(fds[0], F_SETFL, O_NONBLOCK);
  *out = fds[0];
  return pid;
}

/* Waits (up to 5 s) until the writer has said something. */
static void wait_for_start(int fd) {
  struct pollfd p = {fd, POLLIN, 0};
  poll(&p, 1, 5000);
}

/* Reads what the writer said; counts "start" and "done" lines. */
static void drain(int fd, struct chv_buf *b, int *starts, int *dones) {
  char tmp[4096];
  ssize_t r;
  while ((r = read(fd, tmp, sizeof tmp)) > 0) chv_buf_append(b, tmp, (size_t)r);
  *starts = *dones = 0;
  for (const char *p = b->data; p && *p; p++) {
    if (strncmp(p, "start ", 6) == 0) ++*starts;
    if (strncmp(p, "done ", 5) == 0) ++*dones;
    const char *nl = strchr(p, '\n');
    if (nl == NULL) break;
    p = nl;
  }
}

/* Checks every batch of default.k is whole; returns the number of batches
** (they are 0..n-1 with none missing), or -1 after reporting a failure. */
static long check_batches(chv_catalog *c, int *batch_count) {
  struct chv_error err;
  struct chv_partition *ps;
  int n;
  if (chv_catalog_list_partitions(c, NULL, "k", NULL, &ps, &n, &err) !=
      CHV_OK) {
    fprintf(stderr, "list: %s\n", err.msg);
    return -1;
  }
  long maxb = -1;
  bool ok = true;
  for (int i = 0; i < n; i++) {
    long b = atol(ps[i].values[0]);
    if (b < 0 || b >= MAX_BATCHES) {
      ok = false;
      continue;
    }
    batch_count[b]++;
    if (b > maxb) maxb = b;
    const char *pb = chv_kv_get(ps[i].params, ps[i].nparams, "batch");
    if (pb == NULL || strcmp(pb, ps[i].values[0]) != 0) ok = false;
  }
  chv_partitions_free(ps, n);
  for (long b = 0; b <= maxb; b++) {
    if (batch_count[b] != BATCH) {
      fprintf(stderr, "batch %ld has %d of %d partitions\n", b,
              batch_count[b], BATCH);
      ok = false;
    }
    batch_count[b] = 0;
  }
  return ok ? maxb + 1 : -1;
}

static bool integrity_ok(const char *wh) {
  char *path = chv_path_join(wh, CHV_METASTORE_FILE);
  sqlite3 *db;
  bool ok = false;
  if (sqlite3_open(path, &db) == SQLITE_OK) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) ==
        SQLITE_OK) {
      ok = sqlite3_step(st) == SQLITE_ROW &&
           strcmp((const char *)sqlite3_column_text(st, 0), "ok") == 0;
      sqlite3_finalize(st);
    }
  }
  sqlite3_close(db);
  chv_free(path);
  return ok;
}

static void test_sigkill_during_batches(void) {
  seed_rng();
  char *wh = make_warehouse();
  static int batch_count[MAX_BATCHES];
  enum { ROUNDS = 60 };
  long batches = 0;
  int mid_batch = 0;
  /* The kill comes up to window_us after the start; the window widens
  ** whenever a writer dies before finishing a batch, so that on a loaded
  ** (or sanitized) machine kills land among committed batches too. */
  long window_us = 30000;
  for (int round = 0; round < ROUNDS; round++) {
    int fd;
    pid_t pid = spawn_writer(wh, batches, 0, &fd);
    CHV_REQUIRE(pid > 0);
    /* Most rounds wait until the writer has opened the catalog and begun
    ** its first batch, so the kill lands among batches; every fifth kills
    ** it while it may still be starting or opening. */
    bool wait_start = rng_next() % 5 != 0;
    long us = (long)(rng_next() % (uint64_t)(window_us + 1));
    if (wait_start) wait_for_start(fd);
    sleep_us(us);
    kill(pid, SIGKILL);
    int status;
    CHV_REQUIRE(waitpid(pid, &status, 0) == pid);
    struct chv_buf out;
    chv_buf_init(&out);
    int starts, dones;
    drain(fd, &out, &starts, &dones);
    close(fd);
    chv_buf_free(&out);
    if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)) {
      fprintf(stderr, "round %d: writer was not killed (status %d)\n", round,
              status);
      CHV_CHECK(false);
    }
    if (starts > dones) mid_batch++;
    if (dones == 0 && window_us < 4000000) window_us += window_us / 2;
    /* A fresh handle, as a restarted process would open it. */
    struct chv_error err;
    chv_catalog *c;
    CHV_REQUIRE_OK(chv_catalog_open(wh, NULL, &c, &err), &err);
    long now = check_batches(c, batch_count);
    chv_catalog_close(c);
    if (now < 0) {
      fprintf(stderr, "round %d (killed %ld us after %s): partial batch\n",
              round, us, wait_start ? "its first batch began" : "its start");
      CHV_CHECK(false);
      break;
    }
    /* every reported commit is durable: done <b> means b is there */
    CHV_CHECK(now >= batches + dones);
    CHV_CHECK(now <= batches + starts);
    batches = now;
  }
  CHV_CHECK(integrity_ok(wh));
  printf("# %d kills, %d inside a batch, %ld whole batches committed\n",
         ROUNDS, mid_batch, batches);
  CHV_CHECK(mid_batch >= ROUNDS / 4);
  CHV_CHECK(batches > 0);
  chv_free(wh);
}

static void test_reader_beside_writer(void) {
  char *wh = make_warehouse();
  static int batch_count[MAX_BATCHES];
  enum { TOTAL = 40 };
  int fd;
  pid_t pid = spawn_writer(wh, 0, TOTAL, &fd);
  CHV_REQUIRE(pid > 0);
  struct chv_error err;
  chv_catalog *c;
  CHV_REQUIRE_OK(chv_catalog_open(wh, NULL, &c, &err), &err);
  int reads = 0, progress = 0, status = 0;
  long last = -1;
  bool exited = false;
  while (!exited) {
    exited = waitpid(pid, &status, WNOHANG) == pid;
    long now = check_batches(c, batch_count);
    reads++;
    if (now < 0) {
      CHV_CHECK(false);
      break;
    }
    CHV_CHECK(now >= last); /* never goes back */
    if (now != last && now > 0 && now < TOTAL) progress++;
    last = now;
  }
  if (!exited) waitpid(pid, &status, 0);
  close(fd);
  CHV_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  long final = check_batches(c, batch_count);
  CHV_CHECK_EQ_INT(final, TOTAL);
  chv_catalog_close(c);
  printf("# reader: %d listings, saw the count change %d times mid-run\n",
         reads, progress);
  CHV_CHECK(reads >= 5);
  CHV_CHECK(progress >= 2); /* both made progress at the same time */
  chv_free(wh);
}

/* Several processes open a fresh warehouse at once: one creates the schema
** and the default database, the others wait and use it. */
static void test_concurrent_first_open(void) {
  char *wh = chv_path_join(chv_test_tmpdir(), "fresh");
  enum { PROCS = 6 };
  pid_t pids[PROCS];
  fflush(NULL);
  for (int i = 0; i < PROCS; i++) {
    pids[i] = fork();
    if (pids[i] == 0) {
      struct chv_error err;
      chv_catalog *c;
      if (chv_catalog_open(wh, NULL, &c, &err) != CHV_OK) {
        fprintf(stderr, "child %d: %s\n", i, err.msg);
        _exit(1);
      }
      char name[16];
      snprintf(name, sizeof name, "t%d", i);
      struct chv_column cols[] = {{"v", "string", NULL}};
      struct chv_table t;
      memset(&t, 0, sizeof t);
      t.name = name;
      t.columns = cols;
      t.ncols = 1;
      int rc = chv_catalog_create_table(c, &t, 0, &err);
      if (rc) fprintf(stderr, "child %d: %s\n", i, err.msg);
      chv_catalog_close(c);
      _exit(rc ? 1 : 0);
    }
  }
  for (int i = 0; i < PROCS; i++) {
    int status;
    CHV_CHECK(waitpid(pids[i], &status, 0) == pids[i]);
    CHV_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  struct chv_error err;
  chv_catalog *c;
  CHV_REQUIRE_OK(chv_catalog_open(wh, NULL, &c, &err), &err);
  char **names;
  int n;
  CHV_REQUIRE_OK(chv_catalog_list_databases(c, NULL, &names, &n, &err), &err);
  CHV_CHECK_EQ_INT(n, 1);
  chv_strv_free(names, n);
  CHV_REQUIRE_OK(chv_catalog_list_tables(c, NULL, NULL, &names, &n, &err),
                 &err);
  CHV_CHECK_EQ_INT(n, PROCS);
  chv_strv_free(names, n);
  chv_catalog_close(c);
  CHV_CHECK(integrity_ok(wh));
  chv_free(wh);
}

CHV_TEST_MAIN("catalog_crash", test_sigkill_during_batches,
              test_reader_beside_writer, test_concurrent_first_open)
