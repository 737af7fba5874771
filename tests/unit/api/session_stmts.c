/*
** The statements of the session API that the shell's golden tests see
** only as text, seen as typed results (include/chive/session.h), built
** with include/ only and linked against libchive.so:
**   - EXPLAIN and EXPLAIN ANALYZE give a CHV_RESULT_PLAN result, one STRING
**     column `plan`, a row per line of the tree; ANALYZE of an INSERT
**     writes (and gives no summary), of a SELECT drops the query's rows;
**   - a multi-insert gives one summary row, rows_written the total, and
**     the message naming each target;
**   - INSERT OVERWRITE DIRECTORY gives the same summary;
**   - an invalid OPTIONS hint fails with the error offset at its key.
*/
#include "chive/all.h"
#include "chive/session.h"
#include "api_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct chv_error err;

/* Runs sql, reading its result whole: its kind, the text of its first
** column's rows joined by '\n' into out, the message into msg. */
static enum chv_result_kind run(chv_session *s, const char *sql,
                                struct chv_buf *out, char *msg, size_t nmsg) {
  chv_result *r = NULL;
  OK(chv_session_query(s, sql, NULL, &r, &err));
  enum chv_result_kind kind = chv_result_kind(r);
  const struct chv_batch *b;
  chv_buf_reset(out);
  while (chv_result_next(r, &b, &err) == CHV_OK && b) {
    for (int64_t i = 0; i < b->nrows && b->ncols > 0; i++) {
      bool null;
      chv_vector_text(b->cols[0], i, out, &null);
      chv_buf_putc(out, '\n');
    }
  }
  if (msg) snprintf(msg, nmsg, "%s", chv_result_message(r));
  chv_result_close(r);
  return kind;
}

int main(void) {
  char tmpl[] = "/tmp/chv-session-stmts-XXXXXX";
  char *dir = mkdtemp(tmpl);
  if (!dir) return 1;
  char wh[512], out[600], sql[1200];
  snprintf(wh, sizeof wh, "%s/wh", dir);
  snprintf(out, sizeof out, "%s/exported", dir);
  struct chv_session_options o = {.warehouse = wh};
  chv_session *s = NULL;
  OK(chv_session_open(&o, &s, &err));
  OK(chv_session_exec(s, "CREATE TABLE t (a INT, b STRING) PARTITIONED BY "
                         "(dt STRING)", NULL, &err));
  OK(chv_session_exec(s, "INSERT INTO t PARTITION (dt='d1') VALUES (1, 'x'), "
                         "(2, 'y'), (3, 'z')", NULL, &err));
  OK(chv_session_exec(s, "CREATE TABLE c (a INT, b STRING)", NULL, &err));
  OK(chv_session_exec(s, "CREATE TABLE d (a INT)", NULL, &err));
  struct chv_buf text;
  chv_buf_init(&text);
  char msg[256];

  /* EXPLAIN: the tree's lines, nothing written. */
  CHECK(run(s, "EXPLAIN INSERT INTO c SELECT a, b FROM t", &text, msg,
            sizeof msg) == CHV_RESULT_PLAN);
  CHECK(text.data && !strncmp(text.data, "Insert into default.c\n", 22));
  CHECK(text.data && strstr(text.data, "-> Scan default.t: partitions=1/1"));
  run(s, "SELECT count(*) FROM c", &text, NULL, 0);
  CHECK(text.data && !strcmp(text.data, "0\n"));

  /* EXPLAIN ANALYZE of an INSERT writes; its result is the plan only. */
  CHECK(run(s, "EXPLAIN ANALYZE INSERT INTO c SELECT a, b FROM t", &text,
            msg, sizeof msg) == CHV_RESULT_PLAN);
  CHECK(text.data && strstr(text.data, "Insert into default.c (rows=3 time="));
  CHECK(text.data && strstr(text.data, "Read: files=1"));
  CHECK(msg[0] == '\0');
  run(s, "SELECT count(*) FROM c", &text, NULL, 0);
  CHECK(text.data && !strcmp(text.data, "3\n"));
  /* ... of a SELECT: the plan, not the rows */
  CHECK(run(s, "EXPLAIN ANALYZE SELECT b FROM c WHERE a > 1", &text, msg,
            sizeof msg) == CHV_RESULT_PLAN);
  CHECK(text.data && !strncmp(text.data, "Project: [b] (rows=2 time=", 26));
  CHECK(text.data && !strstr(text.data, "\ny\n"));

  /* A multi-insert: one summary row, the total, each target named. */
  CHECK(run(s, "FROM t INSERT INTO c SELECT a, b WHERE a > 1 INSERT "
               "OVERWRITE TABLE d SELECT a",
            &text, msg, sizeof msg) == CHV_RESULT_SUMMARY);
  CHECK(text.data && !strcmp(text.data, "5\n"));
  CHECK(!strcmp(msg, "Inserted 2 rows into default.c, 3 rows into default.d"));

  /* INSERT OVERWRITE DIRECTORY: the same summary, the file there. */
  snprintf(sql, sizeof sql,
           "INSERT OVERWRITE LOCAL DIRECTORY '%s' SELECT a FROM t WHERE "
           "a < 3",
           out);
  CHECK(run(s, sql, &text, msg, sizeof msg) == CHV_RESULT_SUMMARY);
  CHECK(text.data && !strcmp(text.data, "2\n"));
  CHECK(strstr(msg, "Wrote 2 rows into ") == msg);
  char file[700];
  snprintf(file, sizeof file, "%s/000000_0", out);
  FILE *f = fopen(file, "r");
  char got[64] = {0};
  CHECK(f && fread(got, 1, sizeof got - 1, f) == 4 && !strcmp(got, "1\n2\n"));
  if (f) fclose(f);

  /* Never a folder holding the working folder: replacing it would delete
  ** where the session stands. */
  char in[700], cwd[1024];
  snprintf(in, sizeof in, "%s/in", dir);
  CHECK(getcwd(cwd, sizeof cwd) != NULL);
  snprintf(sql, sizeof sql, "mkdir -p '%s'", in);
  CHECK(system(sql) == 0);
  CHECK(chdir(in) == 0);
  snprintf(sql, sizeof sql, "INSERT OVERWRITE LOCAL DIRECTORY '%s' SELECT 1",
           dir);
  chv_result *r = NULL;
  CHECK(chv_session_query(s, sql, NULL, &r, &err) == CHV_EINVAL);
  CHECK(strstr(err.msg, "holds the working folder") != NULL);
  chv_result_close(r);
  CHECK(chdir(cwd) == 0);
  CHECK(access(in, F_OK) == 0);

  /* A bad OPTIONS hint: the error's offset is its key's. */
  const char *bad = "SELECT * FROM t /*+ OPTIONS('sink.parallelism'='x') */";
  CHECK(chv_session_query(s, bad, NULL, &r, &err) == CHV_EINVAL);
  CHECK(strstr(err.msg, "sink.parallelism") != NULL);
  CHECK(chv_session_error_offset(s) ==
        (size_t)(strstr(bad, "'sink.") - bad));
  chv_result_close(r);
  /* ... and every OPTIONS hint once the switch is off */
  OK(chv_session_set(s, "table.dynamic-table-options.enabled", "false", &err));
  CHECK(chv_session_query(s, "SELECT * FROM t /*+ OPTIONS("
                             "'streaming-source.enable'='false') */",
                          NULL, &r, &err) == CHV_EINVAL);
  CHECK(strstr(err.msg, "table.dynamic-table-options.enabled") != NULL);
  chv_result_close(r);

  chv_buf_free(&text);
  chv_session_close(s);
  char rm[700];
  snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
  if (system(rm) != 0) failures++;
  if (failures) fprintf(stderr, "session_stmts: %d failed\n", failures);
  else printf("session_stmts: ok\n");
  return failures ? 1 : 0;
}
