/*
** chive sql: a SQL shell, a client of the session API (chive/session.h).
** Statements come from -e, -f or standard input (with a prompt when it is
** a terminal); each is cut out of the script with chv_sql_split() and run
** by chv_session_query(), its rows printed as they come (shell_print.c).
** Shell commands (.mode, .timer, .maxrows, .help, \q, quit, exit) may
** stand at the start of any statement (shell_input.c).  An error is
** printed with its line and column in the script and a caret under the
** source line; a script (-e, -f, piped input) stops at its first error with
** exit status 1, the interactive shell goes on.
**
** Ctrl-C (SIGINT) cancels the running statement (chv_session_cancel(),
** which only sets a flag, so the handler may call it): the statement fails
** with CHV_ECANCELED and "chive: cancelled" is printed; the interactive
** shell then prompts again, a script exits with status 130.  At the prompt
** Ctrl-C clears the line (shell_input.c), Ctrl-D leaves.
*/
#include "cli.h"
#include "shell.h"

#include "chive/session.h"
#include "chive/sql.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *out) {
  fprintf(out,
          "usage: chive sql [--warehouse DIR] [-e SQL | -f FILE]"
          " [--format %s] [--maxrows N] [--conf FILE]\n",
          shell_mode_list());
}

/* Line and column of offset in text. */
static void locate(const char *text, size_t off, int *line, int *col,
                   size_t *line_start) {
  int l = 1;
  size_t ls = 0;
  for (size_t i = 0; i < off; i++)
    if (text[i] == '\n') {
      l++;
      ls = i + 1;
    }
  *line = l;
  *col = (int)(off - ls) + 1;
  *line_start = ls;
}

/* Appends text[from, to) to out and, when it holds the caret's offset,
** the caret line's padding so far into pad; returns the padding's width. */
static void echo_part(struct chv_buf *out, const char *text, size_t from,
                      size_t to, size_t off, struct chv_buf *pad) {
  chv_buf_append(out, text + from, to - from);
  for (size_t i = from; i < to && i < off; i++) {
    if (((unsigned char)text[i] & 0xC0) == 0x80) continue; /* UTF-8 tail */
    chv_buf_putc(pad, text[i] == '\t' ? '\t' : ' ');
  }
}

/* "chive: line L, column C: msg", the source line and a caret under the
** fault.  A line of more than CHV_ABBREV_MAX bytes (a statement on one
** line holding a 1 MB name) shows its start, the text around the caret and
** its end, joined by "…", then its length. */
static void report(const char *text, size_t len, size_t off, const char *msg) {
  if (off > len) off = len;
  int line, col;
  size_t ls;
  locate(text, off, &line, &col, &ls);
  /* One write for the whole report, so that the output of other processes
  ** on the same terminal or pipe never lands inside it. */
  struct chv_buf out;
  chv_buf_init(&out);
  chv_buf_printf(&out, "chive: line %d, column %d: %s\n", line, col, msg);
  size_t le = ls;
  while (le < len && text[le] != '\n' && text[le] != '\r') le++;
  struct chv_buf pad;
  chv_buf_init(&pad);
  if (le - ls <= CHV_ABBREV_MAX) {
    echo_part(&out, text, ls, le, off, &pad);
  } else {
    /* start, around the caret, end: merged where they meet */
    size_t k = CHV_ABBREV_KEEP;
    size_t cut[3][2] = {{ls, ls + k},
                        {off > ls + k ? off - k : ls, off + k < le ? off + k : le},
                        {le - k, le}};
    size_t from = ls, to = ls;
    for (int i = 0; i < 3; i++) {
      size_t a = chv_utf8_floor(text, le, cut[i][0]);
      size_t b = chv_utf8_floor(text, le, cut[i][1]);
      if (a <= to) {
        if (b > to) to = b;
        continue;
      }
      echo_part(&out, text, from, to, off, &pad);
      chv_buf_puts(&out, "\xe2\x80\xa6");
      if (off >= to) chv_buf_putc(&pad, ' ');
      from = a;
      to = b;
    }
    echo_part(&out, text, from, to, off, &pad);
    chv_buf_printf(&out, " (%zu bytes)", le - ls);
  }
  chv_buf_printf(&out, "\n%s^\n", pad.data ? pad.data : "");
  if (out.data) fwrite(out.data, 1, out.len, stderr);
  chv_buf_free(&out);
  chv_buf_free(&pad);
}

/* ---- Ctrl-C -------------------------------------------------------------- */

static pthread_t main_thread;
static volatile sig_atomic_t interrupted;
static chv_session *volatile cancel_target; /* the open session */

/* Any thread may take the signal; the main thread must see it, to leave
** its wait for a key (shell_input.c).  chv_session_cancel() only stores a
** flag, and pthread_self() and pthread_kill() are async-signal-safe. */
static void on_sigint(int sig) {
  if (!pthread_equal(pthread_self(), main_thread)) {
    pthread_kill(main_thread, sig);
    return;
  }
  interrupted = 1;
  chv_session *s = cancel_target;
  if (s) chv_session_cancel(s);
}

bool shell_interrupted(void) { return interrupted != 0; }

void shell_interrupt_clear(void) { interrupted = 0; }

static void catch_sigint(chv_session *s) {
  main_thread = pthread_self();
  cancel_target = s;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
}

/* Warnings and notices of the session, below the progress line. */
static void shell_warn(void *ctx, const char *msg) {
  shell_progress_hide();
  cli_warn(ctx, msg);
}

static void shell_notice(void *ctx, const char *msg) {
  shell_progress_hide();
  cli_notice(ctx, msg);
}

/* ---- running statements -------------------------------------------------- */

/* How a text ran. */
enum run_status {
  RUN_OK = 0,
  RUN_FAILED = 1,     /* an error was reported */
  RUN_QUIT = 2,       /* \q, quit, exit, .quit */
  RUN_CANCELLED = 130 /* Ctrl-C */
};

/* Runs one statement, printing its result; the time it ran in *secs. */
static int run_statement(struct shell *sh, const char *sql,
                         struct chv_error *err, double *secs) {
  shell_progress_begin(sh);
  chv_result *r = NULL;
  int rc = chv_session_query(sh->session, sql, NULL, &r, err);
  /* a Ctrl-C just before the statement began was cleared by its start */
  if (shell_interrupted()) chv_session_cancel(sh->session);
  enum chv_result_kind kind = CHV_RESULT_NONE;
  if (rc == CHV_OK) {
    kind = chv_result_kind(r);
    rc = shell_print_result(sh, r, err);
    chv_result_close(r);
  }
  *secs = shell_progress_end(sh);
  fflush(sh->out);
  if (rc == CHV_OK && (kind == CHV_RESULT_NONE || kind == CHV_RESULT_SUMMARY))
    shell_complete_stale(sh); /* DDL, USE, INSERT, CTAS, LOAD: names change */
  return rc;
}

/* "Run Time: real S s" on stderr: with .timer on, and on a terminal after
** a statement long enough to have shown its progress. */
static void run_time(const struct shell *sh, double secs) {
  if (sh->timer || (sh->err_tty && secs >= SHELL_PROGRESS_DELAY))
    fprintf(stderr, "Run Time: real %.3f s\n", secs);
}

/* Runs every complete statement and shell command of text[0, len).  stop:
** leave at the first error (a script). */
static enum run_status run_text(struct shell *sh, const char *text,
                                size_t len, bool stop) {
  chv_arena *arena;
  struct chv_error err;
  chv_error_clear(&err);
  if (chv_arena_open(0, &arena) != CHV_OK) {
    fprintf(stderr, "chive: out of memory\n");
    return RUN_FAILED;
  }
  struct chv_sql_piece *pieces;
  size_t n;
  bool complete;
  enum run_status status = RUN_OK;
  struct chv_buf stmt;
  chv_buf_init(&stmt);
  /* The script is cut in the dialect in force; a statement that changes it
  ** (SET 'table.sql-dialect') has the rest cut again, as its strings now
  ** read differently; so has the text after a shell command, whose line is
  ** no SQL. */
  size_t off = 0;
  bool again = true;
  while (again && !(status && stop)) {
    again = false;
    enum chv_sql_dialect d = chv_session_dialect(sh->session);
    if (chv_sql_split(text + off, len - off, d, arena, &pieces, &n, &complete,
                      &err) != CHV_OK) {
      fprintf(stderr, "chive: %s\n", err.msg);
      status = RUN_FAILED;
      break;
    }
    for (size_t i = 0; i < n; i++) {
      const struct chv_sql_piece *pc = &pieces[i];
      size_t base = (size_t)(pc->text - text);
      if (shell_interrupted()) {
        status = RUN_CANCELLED;
        goto out;
      }
      char msg[512];
      size_t end;
      enum shell_cmd cmd = shell_word_command(sh, pc->text, pc->len);
      if (cmd == SHELL_CMD_OK) { /* help; the statements after it go on */
        fflush(sh->out);
        continue;
      }
      if (cmd == SHELL_CMD_NONE)
        cmd = shell_command(sh, pc->text, len - base, &end, msg, sizeof msg);
      if (cmd == SHELL_CMD_QUIT) {
        status = RUN_QUIT;
        goto out;
      }
      if (cmd != SHELL_CMD_NONE) {
        fflush(sh->out);
        if (cmd == SHELL_CMD_ERROR) {
          report(text, len, base, msg);
          status = RUN_FAILED;
          if (stop) goto out;
        }
        off = base + end;
        again = true;
        break;
      }
      chv_buf_reset(&stmt);
      if (chv_buf_append(&stmt, pc->text, pc->len) != CHV_OK) {
        fprintf(stderr, "chive: out of memory\n");
        status = RUN_FAILED;
        break;
      }
      chv_error_clear(&err);
      double secs;
      int rc = run_statement(sh, stmt.data ? stmt.data : "", &err, &secs);
      if (rc == CHV_ECANCELED && shell_interrupted()) {
        fputs("chive: cancelled\n", stderr);
        run_time(sh, secs);
        status = RUN_CANCELLED;
        goto out;
      }
      if (rc != CHV_OK) {
        report(text, len, base + chv_session_error_offset(sh->session),
               err.msg);
        status = RUN_FAILED;
      }
      run_time(sh, secs);
      if (rc != CHV_OK && stop) goto out;
      if (chv_session_dialect(sh->session) != d && i + 1 < n) {
        off = base + pc->len;
        again = true;
        break;
      }
    }
  }
  if (status == RUN_OK && shell_interrupted()) status = RUN_CANCELLED;
out:
  chv_buf_free(&stmt);
  chv_arena_close(arena);
  return status;
}

static int read_all(FILE *f, struct chv_buf *b) {
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    if (chv_buf_append(b, chunk, n) != CHV_OK) return CHV_ENOMEM;
  return ferror(f) ? CHV_EIO : CHV_OK;
}

/* The interactive loop: lines are gathered until chv_sql_split() says the
** text ends with a complete statement; a shell command at the start of a
** statement runs at once; \q, quit, exit or end of input (Ctrl-D) leave. */
static int interactive(struct shell *sh) {
  printf("chive %s \xe2\x80\x94 type .help for help, Ctrl-D to quit\n",
         chv_version());
  fflush(stdout);
  shell_input_open(sh);
  struct chv_buf text;
  chv_buf_init(&text);
  for (;;) {
    bool cleared;
    shell_complete_pending(sh, text.data ? text.data : "");
    char *line = shell_readline(text.len ? "    -> " : "chive> ", &cleared);
    if (cleared) { /* Ctrl-C */
      chv_buf_reset(&text);
      continue;
    }
    if (!line) break;
    if (!text.len) {
      char msg[512];
      size_t end;
      enum shell_cmd cmd =
          shell_command(sh, line, strlen(line), &end, msg, sizeof msg);
      if (cmd != SHELL_CMD_NONE) {
        shell_history_add(line);
        free(line);
        fflush(sh->out);
        if (cmd == SHELL_CMD_QUIT) break;
        if (cmd == SHELL_CMD_ERROR) fprintf(stderr, "chive: %s\n", msg);
        continue;
      }
    }
    chv_buf_puts(&text, line);
    chv_buf_putc(&text, '\n');
    free(line);
    chv_arena *arena;
    if (chv_arena_open(0, &arena) != CHV_OK) break;
    struct chv_sql_piece *pieces;
    size_t n = 0;
    bool complete = false;
    struct chv_error err;
    int rc = chv_sql_split(text.data, text.len,
                           chv_session_dialect(sh->session), arena, &pieces,
                           &n, &complete, &err);
    chv_arena_close(arena);
    if (rc != CHV_OK || (complete && n == 0)) {
      chv_buf_reset(&text);
      continue;
    }
    if (!complete) continue;
    /* the statement as one history entry, without its final newline */
    text.data[text.len - 1] = '\0';
    shell_history_add(text.data);
    text.data[text.len - 1] = '\n';
    shell_complete_pending(sh, "");
    shell_interrupt_clear();
    enum run_status st = run_text(sh, text.data, text.len, false);
    fflush(sh->out);
    chv_buf_reset(&text);
    shell_interrupt_clear();
    if (st == RUN_QUIT) break;
  }
  fputc('\n', stdout);
  chv_buf_free(&text);
  shell_complete_free(sh);
  shell_input_close();
  return 0;
}

int cli_sql(int argc, char **argv) {
  const char *wh = "./warehouse", *expr = NULL, *file = NULL, *conf = NULL;
  enum shell_mode mode = SHELL_MODE_TABLE;
  int64_t maxrows = -2; /* not given */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool has = i + 1 < argc;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--warehouse") && has) {
      wh = argv[++i];
    } else if (!strcmp(a, "-e") && has) {
      expr = argv[++i];
    } else if (!strcmp(a, "-f") && has) {
      file = argv[++i];
    } else if (!strcmp(a, "--conf") && has) {
      conf = argv[++i];
    } else if (!strcmp(a, "--format") && has) {
      const char *f = argv[++i];
      if (!shell_mode_parse(f, &mode)) {
        fprintf(stderr, "chive sql: unknown format '%s'\n", f);
        usage(stderr);
        return 2;
      }
    } else if (!strcmp(a, "--maxrows") && has) {
      const char *v = argv[++i];
      char *e;
      errno = 0;
      long long m = strtoll(v, &e, 10);
      if (errno || e == v || *e || m < -1) {
        fprintf(stderr,
                "chive sql: --maxrows wants a number of rows (-1: all), "
                "not '%s'\n",
                v);
        usage(stderr);
        return 2;
      }
      maxrows = m;
    } else {
      fprintf(stderr, "chive sql: unexpected argument '%s'\n", a);
      usage(stderr);
      return 2;
    }
  }
  if (expr && file) {
    fprintf(stderr, "chive sql: -e and -f exclude each other\n");
    usage(stderr);
    return 2;
  }

  struct shell sh = {.mode = mode, .out = stdout};
  sh.out_tty = isatty(STDOUT_FILENO);
  sh.err_tty = isatty(STDERR_FILENO);
  sh.maxrows = maxrows >= -1 ? maxrows
               : sh.out_tty  ? SHELL_MAXROWS_TERMINAL
                             : -1;
  struct chv_error err;
  chv_error_clear(&err);
  struct chv_buf script;
  chv_buf_init(&script);
  int status = 1;
  if (file) {
    FILE *f = fopen(file, "rb");
    if (!f) {
      fprintf(stderr, "chive sql: %s: %s\n", file, strerror(errno));
      goto out;
    }
    int rc = read_all(f, &script);
    fclose(f);
    if (rc != CHV_OK) {
      fprintf(stderr, "chive sql: reading %s failed\n", file);
      goto out;
    }
  } else if (expr) {
    chv_buf_puts(&script, expr);
  }
  struct chv_session_options so = {.warehouse = wh,
                                   .conf_file = conf,
                                   .warning = shell_warn,
                                   .notice = shell_notice,
                                   .ctx = &sh};
  if (sh.err_tty) so.progress = shell_progress;
  if (chv_session_open(&so, &sh.session, &err) != CHV_OK) {
    fprintf(stderr, "chive sql: %s\n", err.msg);
    goto out;
  }
  catch_sigint(sh.session);
  enum run_status st;
  if (file || expr) {
    st = run_text(&sh, script.data ? script.data : "", script.len, true);
  } else if (isatty(STDIN_FILENO)) {
    sh.interactive = true;
    st = interactive(&sh) ? RUN_FAILED : RUN_OK;
  } else {
    if (read_all(stdin, &script) != CHV_OK) {
      fprintf(stderr, "chive sql: reading standard input failed\n");
      goto out;
    }
    st = shell_interrupted()
             ? RUN_CANCELLED
             : run_text(&sh, script.data ? script.data : "", script.len, true);
  }
  status = st == RUN_QUIT ? 0 : (int)st;
out:
  fflush(stdout);
  chv_buf_free(&script);
  cancel_target = NULL;
  chv_session_close(sh.session);
  return status;
}
