/*
** The interactive shell on a pseudo-terminal.
**
**   history    `chive sql` started under forkpty() greets with its version
**              and a hint, shows its prompt, takes a statement over two
**              lines (with the continuation prompt), edits a line (Ctrl-A
**              moves to its start), writes the history file, and leaves on
**              Ctrl-D; a second session recalls the first one's statement
**              with the up arrow.
**   commands   .help; .mode in each format; .timer; .maxrows, and the 40
**              rows a table shows on a terminal by default.
**   keys       Ctrl-C at the prompt drops the line being edited and the
**              lines of an unfinished statement; Tab completes a keyword,
**              a table, a db.table, a column, t.column, a table created in
**              the session, a .command and a mode.
**   cancel     Ctrl-C during a long INSERT ... SELECT shows "cancelled",
**              gives the prompt back, and the table is as it was; its
**              progress line showed on the terminal first.  In a script
**              (-e) Ctrl-C cancels and the shell exits with status 130,
**              the statements after it not run; with standard error not a
**              terminal no progress line is written there.
**
** Every wait is bounded; nothing is timed.
**
** usage: shell_pty CHIVE WORKDIR
*/
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char out[1 << 20];
static size_t nout, mark; /* what the child printed; where to look next */
static const char *chive, *dir;
static char wh[4096];
static int failures;

#define FAIL(...)                                                              \
  do {                                                                         \
    fprintf(stderr, "shell_pty:%d: ", __LINE__);                               \
    fprintf(stderr, __VA_ARGS__);                                              \
    fputc('\n', stderr);                                                       \
    failures++;                                                                \
  } while (0)

/* Reads what the child prints for up to ms milliseconds. */
static bool drain(int fd, int ms) {
  struct pollfd p = {fd, POLLIN, 0};
  if (poll(&p, 1, ms) <= 0) return true;
  if (nout + 1 >= sizeof out) { /* keep the last half */
    size_t keep = sizeof out / 2;
    memmove(out, out + nout - keep, keep);
    mark = mark > nout - keep ? mark - (nout - keep) : 0;
    nout = keep;
  }
  ssize_t n = read(fd, out + nout, sizeof out - 1 - nout);
  if (n <= 0) return false;
  nout += (size_t)n;
  out[nout] = '\0';
  return true;
}

/* Waits until `want` appears after the mark (for up to secs seconds), and
** moves the mark past it. */
static int wait_for(int fd, const char *want, int secs) {
  time_t end = time(NULL) + secs;
  for (;;) {
    out[nout] = '\0';
    char *at = strstr(out + mark, want);
    if (at) {
      mark = (size_t)(at - out) + strlen(want);
      return 0;
    }
    if (time(NULL) >= end || !drain(fd, 200)) break;
  }
  fprintf(stderr, "did not see \"%s\" in:\n%s\n", want, out + mark);
  failures++;
  return 1;
}

/* Whether `s` appears in what was printed after position from. */
static bool seen_since(size_t from, const char *s) {
  out[nout] = '\0';
  return strstr(out + from, s) != NULL;
}

/* Types s, in pieces small enough for the terminal's input queue. */
static void type(int fd, const char *s) {
  size_t n = strlen(s);
  for (size_t i = 0; i < n; i += 256) {
    size_t k = n - i < 256 ? n - i : 256;
    if (write(fd, s + i, k) < 0) perror("write");
    for (int j = 0; j < 4; j++)
      drain(fd, 10); /* its echo keeps flowing */
  }
  usleep(30000);
}

/* Starts chive with args (NULL-terminated, after "chive sql --warehouse
** WH") on a terminal; stderr_to: a file for its standard error instead. */
static pid_t start(int *fd, const char *stderr_to, const char *const *args) {
  pid_t pid = forkpty(fd, NULL, NULL, NULL);
  if (pid < 0) {
    perror("forkpty");
    exit(1);
  }
  if (pid == 0) {
    const char *argv[32] = {chive, "sql", "--warehouse", wh};
    int n = 4;
    for (; args && *args && n < 30; args++)
      argv[n++] = *args;
    argv[n] = NULL;
    if (stderr_to) {
      int e = open(stderr_to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (e >= 0) dup2(e, 2);
    }
    execv(chive, (char *const *)argv);
    _exit(127);
  }
  nout = mark = 0;
  out[0] = '\0';
  return pid;
}

/* Drains the terminal until the child exits (for up to 60 s: a sanitizer's
** exit checks take a while); its exit status, or -1. */
static int finish(pid_t pid, int fd) {
  int st = 0;
  pid_t done = 0;
  bool open_ = true;
  for (int i = 0; i < 600 && (done = waitpid(pid, &st, WNOHANG)) == 0; i++) {
    if (open_)
      open_ = drain(fd, 100);
    else
      usleep(100000);
  }
  for (int i = 0; open_ && i < 50; i++)
    open_ = drain(fd, 100); /* the rest */
  close(fd);
  if (done == 0) {
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
    return -1;
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Ctrl-D, then the exit status must be 0. */
static void quit(pid_t pid, int fd, const char *what) {
  type(fd, "\x04");
  int st = finish(pid, fd);
  if (st != 0) FAIL("%s: chive sql exited with %d after Ctrl-D", what, st);
}

/* Runs statements with `chive sql -e` off the terminal. */
static void sql(const char *stmts) {
  static char cmd[32768];
  int n = snprintf(cmd, sizeof cmd,
                   "'%s' sql --warehouse '%s' -e \"%s\" > /dev/null", chive, wh,
                   stmts);
  if (n < 0 || (size_t)n >= sizeof cmd || system(cmd) != 0) {
    fprintf(stderr, "setup failed: %s\n", cmd);
    exit(1);
  }
}

/* ---- history ------------------------------------------------------------- */

static void history_round(int round) {
  int fd;
  pid_t pid = start(&fd, NULL, NULL);
  if (round == 0) {
    wait_for(fd, " \xe2\x80\x94 type .help for help, Ctrl-D to quit\r\n", 30);
    wait_for(fd, "chive> ", 30);
    type(fd, "SELECT 40 +\r");
    wait_for(fd, "-> ", 10);
    type(fd, " 2 AS answer;\r");
    wait_for(fd, "42", 10);
    /* "ECT 'edited'" then Ctrl-A and the start of the word */
    type(fd, "ECT 'edited' AS e;\x01SEL\r");
    wait_for(fd, "edited\r\n(1 row)", 10);
  } else {
    wait_for(fd, "chive> ", 30);
    /* up arrow: the last statement of the previous session */
    type(fd, "\x1b[A\r");
    wait_for(fd, "edited\r\n(1 row)", 10);
  }
  quit(pid, fd, "history");
}

static void history(void) {
  history_round(0);
  char hist[4200], line[512];
  snprintf(hist, sizeof hist, "%s/history", dir);
  FILE *f = fopen(hist, "r");
  int found = 0;
  while (f && fgets(line, sizeof line, f))
    found |=
        strstr(line, "'edited'") != NULL; /* libedit writes spaces as \040 */
  if (f) fclose(f);
  if (!found) FAIL("the history file %s lacks the edited statement", hist);
  history_round(1);
}

/* ---- commands and keys --------------------------------------------------- */

static void commands(void) {
  int fd;
  pid_t pid = start(&fd, NULL, NULL);
  wait_for(fd, "chive> ", 30);
  type(fd, ".help\r");
  wait_for(fd, ".mode [MODE]", 10);
  wait_for(fd, ".maxrows [N]", 10);
  wait_for(fd, "chive> ", 10);
  type(fd, "\\?\r");
  wait_for(fd, "Shell commands", 10);
  type(fd, "help\r");
  wait_for(fd, "Shell commands", 10);
  /* each mode (the terminal turns \n into \r\n) */
  static const struct {
    const char *mode, *want;
  } modes[] = {
      {"csv", "one,s\r\r\n1,x\r\r\n"},
      {"tsv", "one\ts\r\n1\tx\r\n"},
      {"jsonl", "{\"one\":1,\"s\":\"x\"}\r\n"},
      {"markdown", "| one | s   |\r\n|----:|-----|\r\n|   1 | x   |\r\n"},
      {"table", "one | s\r\n----+--\r\n  1 | x\r\n(1 row)\r\n"},
  };
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
    char line[64];
    snprintf(line, sizeof line, ".mode %s\r", modes[i].mode);
    type(fd, line);
    wait_for(fd, "chive> ", 10);
    type(fd, "SELECT 1 AS one, 'x' AS s;\r");
    if (wait_for(fd, modes[i].want, 10)) FAIL(".mode %s", modes[i].mode);
  }
  type(fd, ".mode\r");
  wait_for(fd, "table\r\n", 10);
  type(fd, ".mode xml\r");
  wait_for(fd, "unknown mode 'xml'", 10);
  type(fd, ".nosuch\r");
  wait_for(fd, "unknown command '.nosuch'", 10);
  /* .timer */
  type(fd, ".timer on\r");
  wait_for(fd, "chive> ", 10);
  type(fd, "SELECT 7 AS seven;\r");
  wait_for(fd, "(1 row)\r\nRun Time: real ", 10);
  type(fd, ".timer off\r");
  wait_for(fd, "chive> ", 10);
  size_t at = nout;
  type(fd, "SELECT 8 AS eight;\r");
  wait_for(fd, "(1 row)\r\nchive> ", 10);
  if (seen_since(at, "Run Time")) FAIL(".timer off still times");
  /* 50 rows: 40 shown on a terminal, then as .maxrows says */
  type(fd, "SELECT * FROM fifty;\r");
  wait_for(fd, " n\r\n--\r\n 1\r\n", 10);
  wait_for(fd, "\r\n20\r\n \xe2\x80\xa6\r\n31\r\n", 10);
  wait_for(fd, "\r\n50\r\n(50 rows, 40 shown, 10 left out)\r\n", 10);
  type(fd, ".maxrows 4\r");
  wait_for(fd, "chive> ", 10);
  type(fd, "SELECT * FROM fifty;\r");
  wait_for(fd,
           " n\r\n--\r\n 1\r\n 2\r\n \xe2\x80\xa6\r\n49\r\n50\r\n"
           "(50 rows, 4 shown, 46 left out)\r\n",
           10);
  type(fd, ".maxrows -1\r");
  wait_for(fd, "chive> ", 10);
  type(fd, "SELECT * FROM fifty;\r");
  wait_for(fd, "\r\n25\r\n26\r\n", 10);
  wait_for(fd, "(50 rows)\r\n", 10);
  quit(pid, fd, "commands");
}

static void keys(void) {
  int fd;
  pid_t pid = start(&fd, NULL, NULL);
  wait_for(fd, "chive> ", 30);
  /* Ctrl-C drops an unfinished statement, then the line being edited */
  size_t at = nout;
  type(fd, "SELECT 'partial'\r");
  wait_for(fd, "    -> ", 10);
  type(fd, "\x03");
  wait_for(fd, "chive> ", 10);
  type(fd, "SELECT 'junk'\x03");
  wait_for(fd, "chive> ", 10);
  type(fd, "SELECT 'fresh' AS f;\r");
  wait_for(fd, "f\r\n-----\r\nfresh\r\n(1 row)\r\n", 10);
  if (seen_since(at, "chive: line")) FAIL("Ctrl-C left text behind");
  /* Tab completion, each checked by the statement it completes */
  type(fd, "SEL\t 1 AS kw;\r");
  wait_for(fd, "kw\r\n--\r\n 1\r\n", 10);
  type(fd, "sel\t 2 AS lower_kw;\r");
  wait_for(fd, "lower_kw\r\n", 10);
  type(fd, "SELECT * FROM comp_\t;\r");
  wait_for(fd, "amount_col | label\r\n", 10);
  type(fd, "SELECT * FROM default.comp_\t;\r");
  wait_for(fd, "amount_col | label\r\n", 10);
  type(fd, "SELECT amou\t FROM comp_t;\r");
  wait_for(fd, "amount_col\r\n----------\r\n", 10);
  type(fd, "SELECT lab\t FROM comp_t;\r");
  wait_for(fd, "label\r\n-----\r\n", 10);
  type(fd, "SELECT comp_t.amo\t FROM comp_t;\r");
  wait_for(fd, "amount_col\r\n----------\r\n", 10);
  type(fd, "CREATE TABLE fresh_tbl (zz INT);\r");
  wait_for(fd, "OK\r\n", 10);
  type(fd, "SELECT * FROM fresh_t\t;\r");
  wait_for(fd, "zz\r\n--\r\n(0 rows)\r\n", 10);
  type(fd, ".mo\t markd\t\r");
  wait_for(fd, "chive> ", 10);
  type(fd, "SELECT 3 AS md;\r");
  wait_for(fd, "|  md |\r\n|----:|\r\n|   3 |\r\n", 10);
  quit(pid, fd, "keys");
}

/* ---- cancel -------------------------------------------------------------- */

/* A query over src long enough to be cancelled: 300 upper(lower(..)) per
** row of 2 million rows run for half a minute (on a 2020 laptop core), a
** batch of 4096 rows for tens of ms. */
static void long_query(char *buf, size_t n, const char *head,
                       const char *tail) {
  size_t k = (size_t)snprintf(buf, n, "%s", head);
  for (int i = 0; i < 300 && k < n; i++)
    k += (size_t)snprintf(buf + k, n - k, "upper(lower(");
  k += (size_t)snprintf(buf + k, n - k, "s");
  for (int i = 0; i < 300 && k < n; i++)
    k += (size_t)snprintf(buf + k, n - k, "))");
  snprintf(buf + k, n - k, "%s", tail);
}

static void cancel(void) {
  static char q[16384];
  int fd;
  pid_t pid = start(&fd, NULL, NULL);
  wait_for(fd, "chive> ", 30);
  long_query(q, sizeof q, "INSERT INTO dst SELECT ", " FROM src;\r");
  type(fd, q);
  /* the progress line (splits done of planned, rows), then Ctrl-C */
  if (!wait_for(fd, " splits  ", 120) && !wait_for(fd, " rows  ", 10)) {
    type(fd, "\x03");
    wait_for(fd, "chive: cancelled\r\n", 60);
  }
  wait_for(fd, "chive> ", 60);
  type(fd, "SELECT count(*) AS n FROM dst;\r");
  wait_for(fd, "n\r\n-\r\n1\r\n(1 row)\r\n", 30); /* as it was */
  quit(pid, fd, "cancel");

  /* a script: Ctrl-C cancels, the shell exits with 130 */
  long_query(q, sizeof q, "SELECT count(*) FROM src WHERE ",
             " = 'x'; CREATE TABLE after_cancel (a INT)");
  const char *args[] = {"-e", q, NULL};
  pid = start(&fd, NULL, args);
  if (!wait_for(fd, " rows  ", 120)) type(fd, "\x03");
  int st = finish(pid, fd);
  if (st != 130) FAIL("a cancelled script exited with %d, not 130", st);
  if (!seen_since(0, "chive: cancelled"))
    FAIL("no 'cancelled' line in:\n%s", out);

  /* standard error not a terminal: no progress line there */
  char errf[4200];
  snprintf(errf, sizeof errf, "%s/stderr.txt", dir);
  long_query(q, sizeof q,
             "SELECT 'started' AS go; SELECT count(*) FROM src WHERE ",
             " = 'x'");
  pid = start(&fd, errf, args);
  if (!wait_for(fd, "started", 60)) {
    /* long enough for the progress line, had stderr been a terminal */
    for (int i = 0; i < 30; i++)
      drain(fd, 100);
    type(fd, "\x03");
  }
  st = finish(pid, fd);
  if (st != 130) FAIL("the script with stderr in a file exited with %d", st);
  FILE *f = fopen(errf, "r");
  char text[4096] = "";
  size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
  text[n] = '\0';
  if (f) fclose(f);
  if (strcmp(text, "chive: cancelled\n") != 0)
    FAIL("stderr in a file holds more than 'chive: cancelled': \"%s\"", text);

  /* the statement after the cancelled one did not run */
  pid = start(&fd, NULL, (const char *const[]){"-e", "SHOW TABLES", NULL});
  finish(pid, fd);
  if (seen_since(0, "after_cancel")) FAIL("a statement ran after the cancel");
}

/* The tables the sessions read: fifty (n 1..50), comp_t, src (2 million
** rows of text, loaded from a file) and dst (one row). */
static void setup(void) {
  char path[4200];
  snprintf(path, sizeof path, "%s/src.txt", dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(1);
  }
  for (int i = 0; i < 2000000; i++)
    fprintf(f, "row%d\n", i);
  fclose(f);
  char stmts[8192];
  size_t k = (size_t)snprintf(stmts, sizeof stmts,
                              "CREATE TABLE fifty (n INT); INSERT INTO fifty "
                              "VALUES (1)");
  for (int i = 2; i <= 50; i++)
    k += (size_t)snprintf(stmts + k, sizeof stmts - k, ", (%d)", i);
  snprintf(stmts + k, sizeof stmts - k,
           "; CREATE TABLE comp_t (amount_col INT, label STRING);"
           " INSERT INTO comp_t VALUES (5, 'five');"
           " CREATE TABLE src (s STRING);"
           " LOAD DATA LOCAL INPATH '%s' INTO TABLE src;"
           " CREATE TABLE dst (s STRING); INSERT INTO dst VALUES ('kept')",
           path);
  sql(stmts);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: shell_pty CHIVE WORKDIR\n");
    return 2;
  }
  chive = argv[1];
  dir = argv[2];
  snprintf(wh, sizeof wh, "%s/wh", dir);
  char hist[4200];
  snprintf(hist, sizeof hist, "%s/history", dir);
  setenv("CHIVE_HISTORY", hist, 1);
  setenv("TERM", "dumb", 1);
  history();
  setup();
  commands();
  keys();
  cancel();
  if (failures) {
    fprintf(stderr, "shell_pty: %d check(s) failed\n", failures);
    return 1;
  }
  printf("shell_pty: ok\n");
  return 0;
}
