/*
** chive sql: a SQL shell, a client of the session API (chive/session.h).
** Statements come from -e, -f or standard input (with a prompt when it is
** a terminal); each is cut out of the script with chv_sql_split() and run
** by chv_session_query(), its rows printed as they come.  An error is
** printed with its line and column in the script and a caret under the
** source line; a script (-e, -f, piped input) stops at its first error with
** exit status 1, the interactive shell goes on.
*/
#include "cli.h"
#include "chive/config.h"
#include "chive/jsonl.h"
#include "chive/session.h"
#include "chive/sql.h"

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

enum out_format { FMT_TABLE, FMT_CSV, FMT_TSV, FMT_JSONL };

struct shell {
  chv_session *session;
  enum out_format format;
  FILE *out;
};

/* The progress line of a long statement on stderr (a terminal). */
static bool progress_shown;

static void show_progress(void *ctx, const struct chv_progress *p) {
  (void)ctx;
  if (p->elapsed < 1.0) return;
  if (p->bytes_written >= 0)
    fprintf(stderr, "\r%lld rows, %.1f MB, %.1f s\033[K", (long long)p->rows,
            (double)p->bytes_written / 1e6, p->elapsed);
  else
    fprintf(stderr, "\r%lld rows, %.1f s\033[K", (long long)p->rows,
            p->elapsed);
  fflush(stderr);
  progress_shown = true;
}

static void progress_clear(void) {
  if (progress_shown) fputs("\r\033[K", stderr);
  progress_shown = false;
}

/* ---- printing results ------------------------------------------------- */

/* Display width: UTF-8 code points. */
static size_t width(const char *s) {
  size_t w = 0;
  for (; *s; s++)
    if (((unsigned char)*s & 0xC0) != 0x80) w++;
  return w;
}

/* Writes line without trailing blanks and a newline, then empties it. */
static void flush_line(struct chv_buf *line, FILE *out) {
  size_t n = line->len;
  while (n && line->data[n - 1] == ' ') n--;
  if (n) fwrite(line->data, 1, n, out);
  fputc('\n', out);
  chv_buf_reset(line);
}

static void pad(struct chv_buf *line, size_t n) {
  while (n--) chv_buf_putc(line, ' ');
}

static void csv_field(const char *s, FILE *out) {
  if (!s) return;
  if (!strpbrk(s, ",\"\r\n") && *s) {
    fputs(s, out);
    return;
  }
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"') fputc('"', out);
    fputc(*s, out);
  }
  fputc('"', out);
}

static void tsv_field(const char *s, FILE *out) {
  if (!s) {
    fputs("NULL", out);
    return;
  }
  for (; *s; s++) {
    switch (*s) {
    case '\t': fputs("\\t", out); break;
    case '\n': fputs("\\n", out); break;
    case '\r': fputs("\\r", out); break;
    case '\\': fputs("\\\\", out); break;
    default: fputc(*s, out);
    }
  }
}

/* The rows of a table-format result, as text, until they are printed. */
struct table {
  int ncols;
  char **cells; /* nrows * ncols, NULL = SQL NULL */
  int64_t nrows, cap;
};

static void table_free(struct table *t) {
  for (int64_t i = 0; i < t->nrows * t->ncols; i++) free(t->cells[i]);
  free(t->cells);
}

static void table_print(const struct table *t, const struct chv_type *schema,
                        FILE *out) {
  size_t *w = calloc((size_t)t->ncols + 1, sizeof *w);
  if (!w) return;
  for (int c = 0; c < t->ncols; c++) {
    w[c] = width(schema->names[c]);
    for (int64_t i = 0; i < t->nrows; i++) {
      const char *v = t->cells[i * t->ncols + c];
      size_t cw = width(v ? v : "NULL");
      if (cw > w[c]) w[c] = cw;
    }
  }
  struct chv_buf line;
  chv_buf_init(&line);
  for (int c = 0; c < t->ncols; c++) {
    chv_buf_puts(&line, c ? " | " : "");
    chv_buf_puts(&line, schema->names[c]);
    pad(&line, w[c] - width(schema->names[c]));
  }
  flush_line(&line, out);
  for (int c = 0; c < t->ncols; c++) {
    chv_buf_puts(&line, c ? "-+-" : "");
    for (size_t k = 0; k < w[c]; k++) chv_buf_putc(&line, '-');
  }
  flush_line(&line, out);
  for (int64_t i = 0; i < t->nrows; i++) {
    for (int c = 0; c < t->ncols; c++) {
      const char *v = t->cells[i * t->ncols + c];
      if (!v) v = "NULL";
      chv_buf_puts(&line, c ? " | " : "");
      chv_buf_puts(&line, v);
      pad(&line, w[c] - width(v));
    }
    flush_line(&line, out);
  }
  chv_buf_free(&line);
  fprintf(out, "(%lld row%s)\n", (long long)t->nrows, t->nrows == 1 ? "" : "s");
  free(w);
}

/* The header line of a CSV or TSV result. */
static void delimited_header(const struct shell *sh,
                             const struct chv_type *schema) {
  bool csv = sh->format == FMT_CSV;
  for (int c = 0; c < schema->nchildren; c++) {
    fputs(c ? (csv ? "," : "\t") : "", sh->out);
    (csv ? csv_field : tsv_field)(schema->names[c], sh->out);
  }
  fputs(csv ? "\r\n" : "\n", sh->out);
}

/* Prints batch b in the shell's format (table: keeps its cells in t). */
static int print_batch(struct shell *sh, const struct chv_batch *b,
                       const struct chv_type *schema, struct table *t,
                       struct chv_buf *cell) {
  int ncols = schema->nchildren;
  for (int64_t row = 0; row < b->nrows; row++) {
    if (sh->format == FMT_JSONL) {
      chv_buf_reset(cell);
      chv_buf_putc(cell, '{');
      for (int c = 0; c < ncols; c++) {
        if (c) chv_buf_putc(cell, ',');
        chv_json_put_string(cell, schema->names[c]);
        chv_buf_putc(cell, ':');
        if (chv_jsonl_value(b->cols[c], row, cell) != CHV_OK) return CHV_ENOMEM;
      }
      chv_buf_puts(cell, "}\n");
      fwrite(cell->data, 1, cell->len, sh->out);
      continue;
    }
    if (sh->format == FMT_TABLE && t->nrows == t->cap) {
      int64_t cap = t->cap ? t->cap * 2 : 64;
      char **c2 = realloc(t->cells, sizeof *c2 * (size_t)(cap * ncols + 1));
      if (!c2) return CHV_ENOMEM;
      t->cells = c2;
      t->cap = cap;
    }
    bool csv = sh->format == FMT_CSV;
    for (int c = 0; c < ncols; c++) {
      bool null;
      chv_buf_reset(cell);
      if (chv_vector_text(b->cols[c], row, cell, &null) != CHV_OK)
        return CHV_ENOMEM;
      const char *v = null ? NULL : cell->data ? cell->data : "";
      if (sh->format == FMT_TABLE) {
        char *dup = v ? strdup(v) : NULL;
        if (v && !dup) return CHV_ENOMEM;
        t->cells[t->nrows * ncols + c] = dup;
        continue;
      }
      fputs(c ? (csv ? "," : "\t") : "", sh->out);
      (csv ? csv_field : tsv_field)(v, sh->out);
    }
    if (sh->format == FMT_TABLE)
      t->nrows++;
    else
      fputs(csv ? "\r\n" : "\n", sh->out);
  }
  return CHV_OK;
}

/* Reads r to its end, printing it; an error of the statement is returned
** in err. */
static int print_result(struct shell *sh, chv_result *r,
                        struct chv_error *err) {
  enum chv_result_kind kind = chv_result_kind(r);
  const struct chv_type *schema = chv_result_schema(r);
  struct table t = {.ncols = schema->nchildren};
  struct chv_buf cell;
  chv_buf_init(&cell);
  bool header = false;
  int rc;
  const struct chv_batch *b;
  while ((rc = chv_result_next(r, &b, err)) == CHV_OK && b) {
    if (kind == CHV_RESULT_PLAN) { /* the plan's lines as they are */
      for (int64_t i = 0; i < b->nrows; i++) {
        bool null;
        chv_buf_reset(&cell);
        chv_vector_text(b->cols[0], i, &cell, &null);
        if (sh->format == FMT_JSONL) {
          fputs("{\"plan\":", sh->out);
          struct chv_buf j;
          chv_buf_init(&j);
          chv_json_put_string(&j, cell.data ? cell.data : "");
          fputs(j.data ? j.data : "\"\"", sh->out);
          chv_buf_free(&j);
          fputs("}\n", sh->out);
        } else {
          fprintf(sh->out, "%s\n", cell.data ? cell.data : "");
        }
      }
      continue;
    }
    if (kind != CHV_RESULT_ROWS) continue;
    if (!header && sh->format != FMT_TABLE && sh->format != FMT_JSONL)
      delimited_header(sh, schema);
    header = true;
    if (print_batch(sh, b, schema, &t, &cell) != CHV_OK) {
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      break;
    }
  }
  if (rc == CHV_OK) {
    if (kind == CHV_RESULT_ROWS && sh->format == FMT_TABLE)
      table_print(&t, schema, sh->out);
    else if (kind == CHV_RESULT_ROWS && !header && sh->format != FMT_JSONL)
      delimited_header(sh, schema);
    else if (kind != CHV_RESULT_ROWS && sh->format == FMT_TABLE &&
             *chv_result_message(r))
      fprintf(sh->out, "%s\n", chv_result_message(r));
  }
  table_free(&t);
  chv_buf_free(&cell);
  return rc;
}

/* Runs every complete statement of text[0, len); returns 0 or 1 (an error
** was reported).  stop: leave at the first error. */
static int run_text(struct shell *sh, const char *text, size_t len,
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
  struct chv_buf stmt;
  chv_buf_init(&stmt);
  /* The script is cut in the dialect in force; a statement that changes it
  ** (SET 'table.sql-dialect') has the rest cut again, as its strings now
  ** read differently. */
  size_t off = 0;
  bool again = true;
  while (again) {
    again = false;
    enum chv_sql_dialect d = chv_session_dialect(sh->session);
    if (chv_sql_split(text + off, len - off, d, arena, &pieces, &n, &complete,
                      &err) != CHV_OK) {
      fprintf(stderr, "chive: %s\n", err.msg);
      status = 1;
      break;
    }
    for (size_t i = 0; i < n; i++) {
      const struct chv_sql_piece *pc = &pieces[i];
      size_t base = (size_t)(pc->text - text);
      chv_buf_reset(&stmt);
      if (chv_buf_append(&stmt, pc->text, pc->len) != CHV_OK) {
        fprintf(stderr, "chive: out of memory\n");
        status = 1;
        break;
      }
      chv_error_clear(&err);
      chv_result *r = NULL;
      int rc = chv_session_query(sh->session, stmt.data ? stmt.data : "",
                                 NULL, &r, &err);
      progress_clear();
      if (rc == CHV_OK) {
        rc = print_result(sh, r, &err);
        chv_result_close(r);
      }
      fflush(sh->out);
      if (rc != CHV_OK) {
        report(text, len, base + chv_session_error_offset(sh->session),
               err.msg);
        status = 1;
        if (stop) break;
      }
      if (chv_session_dialect(sh->session) != d && i + 1 < n) {
        off = base + pc->len;
        again = true;
        break;
      }
    }
    if (status && stop) break;
  }
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
static int interactive(struct shell *s) {
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
    int rc = chv_sql_split(text.data, text.len, chv_session_dialect(s->session),
                           arena, &pieces, &n, &complete, &err);
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
  enum out_format fmt = FMT_TABLE;
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
      if (!strcmp(f, "table")) fmt = FMT_TABLE;
      else if (!strcmp(f, "csv")) fmt = FMT_CSV;
      else if (!strcmp(f, "tsv")) fmt = FMT_TSV;
      else if (!strcmp(f, "jsonl")) fmt = FMT_JSONL;
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

  struct shell sh = {.format = fmt, .out = stdout};
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
                                   .warning = cli_warn,
                                   .notice = cli_notice};
  if (isatty(STDERR_FILENO)) so.progress = show_progress;
  if (chv_session_open(&so, &sh.session, &err) != CHV_OK) {
    fprintf(stderr, "chive sql: %s\n", err.msg);
    goto out;
  }
  if (file || expr) {
    status = run_text(&sh, script.data ? script.data : "", script.len, true);
  } else if (isatty(STDIN_FILENO)) {
    status = interactive(&sh);
  } else {
    if (read_all(stdin, &script) != CHV_OK) {
      fprintf(stderr, "chive sql: reading standard input failed\n");
      goto out;
    }
    status = run_text(&sh, script.data ? script.data : "", script.len, true);
  }
out:
  fflush(stdout);
  chv_buf_free(&script);
  chv_session_close(sh.session);
  return status;
}
