/*
** chive sql: a SQL shell over the embedded metastore.  Statements come from
** -e, -f or standard input (with a prompt when it is a terminal); each is
** cut out of the script with chv_sql_split(), parsed with chv_sql_parse_ex()
** in the dialect in force and run by sql_exec_stmt().  An error is printed
** with its line and column in the script and a caret under the source
** line; a script (-e, -f, piped input) stops at its first error with exit
** status 1, the interactive shell goes on.
*/
#include "cli/cli.h"
#include "sql/session/session_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <editline/readline.h>

static void usage(FILE *out) {
  fprintf(out,
          "usage: chive sql [--warehouse DIR] [-e SQL | -f FILE]"
          " [--format table|csv|tsv|jsonl] [--conf FILE]\n");
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

/* The message without the parser's "line L, column C: " prefix. */
static const char *strip_position(const char *msg) {
  if (strncmp(msg, "line ", 5)) return msg;
  const char *p = strstr(msg, ": ");
  return p ? p + 2 : msg;
}

/* Runs every complete statement of text[0, len); returns 0 or 1 (an error
** was reported).  stop: leave at the first error. */
static int run_text(struct sql_session *s, const char *text, size_t len,
                    bool stop) {
  chv_arena *arena;
  struct chv_error err;
  chv_error_clear(&err);
  if (chv_arena_open(0, &arena) != CHV_OK) {
    fprintf(stderr, "chive: out of memory\n");
    return 1;
  }
  struct chv_sql_piece *pieces;
  size_t n;
  bool complete;
  int status = 0;
  if (chv_sql_split(text, len, s->dialect, arena, &pieces, &n, &complete,
                    &err) != CHV_OK) {
    fprintf(stderr, "chive: %s\n", err.msg);
    chv_arena_close(arena);
    return 1;
  }
  for (size_t i = 0; i < n; i++) {
    const struct chv_sql_piece *pc = &pieces[i];
    size_t base = (size_t)(pc->text - text);
    struct chv_sql_parse_options po = {.dialect = s->dialect};
    struct chv_sql_script *script;
    struct chv_sql_pos epos = {0};
    chv_error_clear(&err);
    if (chv_sql_parse_ex(pc->text, pc->len, &po, arena, &script, &epos,
                         &err) != CHV_OK) {
      report(text, len, base + epos.offset, strip_position(err.msg));
      status = 1;
      if (stop) break;
      continue;
    }
    for (size_t k = 0; k < script->n; k++) {
      const struct chv_sql_stmt *st = script->stmts[k];
      struct chv_sql_pos pos = st->pos;
      chv_error_clear(&err);
      int rc = sql_exec_stmt(s, st, &pos, &err);
      fflush(s->out);
      if (rc != CHV_OK) {
        report(text, len, base + pos.offset, err.msg);
        status = 1;
        break;
      }
    }
    if (status && stop) break;
  }
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

/* The history file of the interactive shell: $CHIVE_HISTORY (empty: none),
** else ~/.chive_history. */
static const char *history_path(char *buf, size_t n) {
  const char *e = getenv("CHIVE_HISTORY");
  if (e) return *e ? e : NULL;
  const char *home = getenv("HOME");
  if (!home || !*home) return NULL;
  snprintf(buf, n, "%s/.chive_history", home);
  return buf;
}

/* The interactive loop, with libedit's line editing and history: lines are
** gathered until chv_sql_split() says the text ends with a complete
** statement; \q, quit, exit or end of input (Ctrl-D) leave. */
static int interactive(struct sql_session *s) {
  struct chv_buf text;
  chv_buf_init(&text);
  char hbuf[4096];
  const char *hist = history_path(hbuf, sizeof hbuf);
  using_history();
  stifle_history(2000);
  if (hist) read_history(hist);
  for (;;) {
    char *line = readline(text.len ? "    -> " : "chive> ");
    if (!line) break;
    if (!text.len) {
      const char *p = line;
      while (*p == ' ' || *p == '\t') p++;
      if (!strncmp(p, "\\q", 2) || !strncasecmp(p, "quit", 4) ||
          !strncasecmp(p, "exit", 4)) {
        free(line);
        break;
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
    int rc = chv_sql_split(text.data, text.len, s->dialect, arena, &pieces,
                           &n, &complete, &err);
    chv_arena_close(arena);
    if (rc != CHV_OK || (complete && n == 0)) {
      chv_buf_reset(&text);
      continue;
    }
    if (!complete) continue;
    /* the statement as one history entry, without its final newline */
    text.data[text.len - 1] = '\0';
    add_history(text.data);
    if (hist) write_history(hist);
    text.data[text.len - 1] = '\n';
    run_text(s, text.data, text.len, false);
    fflush(stdout);
    chv_buf_reset(&text);
  }
  fputc('\n', stdout);
  chv_buf_free(&text);
  return 0;
}

int cli_sql(int argc, char **argv) {
  const char *wh = "./warehouse", *expr = NULL, *file = NULL, *conf = NULL;
  enum sql_format fmt = SQL_FMT_TABLE;
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
      if (!strcmp(f, "table")) fmt = SQL_FMT_TABLE;
      else if (!strcmp(f, "csv")) fmt = SQL_FMT_CSV;
      else if (!strcmp(f, "tsv")) fmt = SQL_FMT_TSV;
      else if (!strcmp(f, "jsonl")) fmt = SQL_FMT_JSONL;
      else {
        fprintf(stderr, "chive sql: unknown format '%s'\n", f);
        usage(stderr);
        return 2;
      }
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

  struct sql_session s = {.format = fmt, .out = stdout};
  strcpy(s.db, "default");
  struct chv_error err;
  chv_error_clear(&err);
  struct chv_buf script;
  chv_buf_init(&script);
  int status = 1;
  if (chv_config_open(&s.cfg, &err) != CHV_OK) {
    fprintf(stderr, "chive sql: %s\n", err.msg);
    return 1;
  }
  chv_config_set_warning_handler(s.cfg, cli_warn, NULL);
  s.notice = cli_notice;
  if (conf && chv_config_load_file(s.cfg, conf, &err) != CHV_OK) {
    fprintf(stderr, "chive sql: %s\n", err.msg);
    goto out;
  }
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
  if (cli_warehouse_open(wh, &s.cats[0].cat, &err) != CHV_OK) {
    fprintf(stderr, "chive sql: opening the warehouse %s: %s\n", wh, err.msg);
    goto out;
  }
  strcpy(s.cats[0].name, SQL_CATALOG_NAME);
  strcpy(s.cats[0].default_db, "default");
  s.ncats = 1;
  sql_catalog_use(&s, 0);
  if (file || expr) {
    status = run_text(&s, script.data ? script.data : "", script.len, true);
  } else if (isatty(STDIN_FILENO)) {
    status = interactive(&s);
  } else {
    if (read_all(stdin, &script) != CHV_OK) {
      fprintf(stderr, "chive sql: reading standard input failed\n");
      goto out;
    }
    status = run_text(&s, script.data ? script.data : "", script.len, true);
  }
out:
  fflush(stdout);
  chv_buf_free(&script);
  for (int i = 0; i < s.ncats; i++) chv_catalog_close(s.cats[i].cat);
  chv_config_close(s.cfg);
  for (int i = 0; i < s.nset_keys; i++) chv_free(s.set_keys[i]);
  chv_free(s.set_keys);
  return status;
}
