/*
** cli/shell_print: a result printed from its typed batches as they come,
** in the shell's mode, in memory that does not grow with the result.
**
**   table     aligned columns under a header, numbers (integers, DECIMAL,
**             FLOAT, DOUBLE) right-aligned, the rest left-aligned, then a
**             "(N rows)" line
**   markdown  a GitHub pipe table, numbers right-aligned (---:)
**   csv       RFC 4180 quoting, CRLF line ends, NULL as an empty field
**   tsv       \t \n \r \\ escaped, NULL as NULL
**   jsonl     one JSON object a row
**
** A table needs its column widths before its first line.  With .maxrows
** M >= 0 it shows its first M - M/2 rows and its last M/2; the first ones
** wait, the last ones wait in a ring of M/2 rows that drops its oldest
** once more come, and at the end the widths are fixed from all of them,
** the first rows print, then a line of "…" when rows were left out, the
** last rows and "(N rows, S shown, L left out)".  With .maxrows -1 (all
** rows) the first FIX_ROWS rows fix the widths, then every further row
** prints as it comes in those widths (a wider value pushes the rest of its
** line to the right).  On a terminal, rows that have waited FIX_WAIT seconds print
** anyway (unless rows were left out already), so a slow result shows its
** first rows early.  So a table holds at most max(M, FIX_ROWS) rows, the
** other modes none, whatever the size of the result.
**
** INTERFACE: shell_print_result(), shell_mode_parse(), shell_mode_name(),
** shell_mode_list().
*/
#include "shell.h"
#include "chive/config.h"
#include "chive/jsonl.h"
#include "chive/types.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FIX_ROWS 1000   /* rows that fix the widths of a table shown whole */
#define FIX_WAIT 1.0    /* on a terminal: seconds rows wait for widths */
#define OUT_CHUNK 65536 /* bytes of output gathered before a write */

static const char *const mode_names[] = {
#define SHELL_X_(id, name) name,
    SHELL_MODE_MAP(SHELL_X_)
#undef SHELL_X_
};

bool shell_mode_parse(const char *name, enum shell_mode *out) {
  for (int m = 0; m < SHELL_MODE_COUNT; m++)
    if (!strcmp(name, mode_names[m])) {
      *out = (enum shell_mode)m;
      return true;
    }
  return false;
}

const char *shell_mode_name(enum shell_mode m) {
  return mode_names[m];
}

const char *shell_mode_list(void) {
  return "table|csv|tsv|jsonl|markdown";
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static bool is_number(const struct chv_type *t) {
  switch (t->id) {
  case CHV_TYPE_TINYINT:
  case CHV_TYPE_SMALLINT:
  case CHV_TYPE_INT:
  case CHV_TYPE_BIGINT:
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DOUBLE:
  case CHV_TYPE_DECIMAL:
    return true;
  default:
    return false;
  }
}

/* Display width: UTF-8 code points. */
static size_t width(const char *s) {
  size_t w = 0;
  for (; *s; s++)
    if (((unsigned char)*s & 0xC0) != 0x80) w++;
  return w;
}

/* A row a table holds: its cells' text (NULL: SQL NULL), in one block. */
struct held {
  const char **vals; /* ncols, pointing into the block */
};

/* Held rows, oldest first. */
struct ring {
  struct held **v;
  size_t cap, h, n;
};

struct printer {
  struct shell *sh;
  const struct chv_type *schema;
  int ncols;
  bool markdown;
  struct chv_buf out;    /* output not written yet */
  struct chv_buf *cells; /* per column: the text of the current row */
  const char **vals;     /* per column: that text, or NULL for SQL NULL */
  bool header_done;      /* csv, tsv: the header line is out */
  /* table and markdown */
  bool *right; /* numbers */
  size_t *w;   /* widths, once fixed */
  bool fixed;
  int64_t head, tail; /* rows shown from the start, kept for the end */
  int64_t rows, printed, left_out;
  struct ring first; /* of the first `head` rows, those not printed */
  struct ring last;  /* the rows after them, at most `tail` once rows
                        are left out */
  double since;      /* when the oldest held row came */
  struct chv_buf line;
};

static void flush_out(struct printer *p) {
  if (p->out.len) shell_output(p->sh, p->out.data, p->out.len);
  chv_buf_reset(&p->out);
}

/* ---- csv, tsv, jsonl ----------------------------------------------------- */

static void csv_field(struct chv_buf *b, const char *s) {
  if (!s) return;
  if (*s && !strpbrk(s, ",\"\r\n")) {
    chv_buf_puts(b, s);
    return;
  }
  chv_buf_putc(b, '"');
  for (; *s; s++) {
    if (*s == '"') chv_buf_putc(b, '"');
    chv_buf_putc(b, *s);
  }
  chv_buf_putc(b, '"');
}

static void tsv_field(struct chv_buf *b, const char *s) {
  if (!s) {
    chv_buf_puts(b, "NULL");
    return;
  }
  for (; *s; s++) {
    switch (*s) {
    case '\t':
      chv_buf_puts(b, "\\t");
      break;
    case '\n':
      chv_buf_puts(b, "\\n");
      break;
    case '\r':
      chv_buf_puts(b, "\\r");
      break;
    case '\\':
      chv_buf_puts(b, "\\\\");
      break;
    default:
      chv_buf_putc(b, *s);
    }
  }
}

static void delimited_line(struct printer *p, const char *const *v) {
  bool csv = p->sh->mode == SHELL_MODE_CSV;
  for (int c = 0; c < p->ncols; c++) {
    if (c) chv_buf_putc(&p->out, csv ? ',' : '\t');
    (csv ? csv_field : tsv_field)(&p->out, v[c]);
  }
  chv_buf_puts(&p->out, csv ? "\r\n" : "\n");
}

static void delimited_header(struct printer *p) {
  if (p->header_done) return;
  p->header_done = true;
  delimited_line(p, (const char *const *)p->schema->names);
}

/* ---- table and markdown -------------------------------------------------- */

/* Markdown cell text: '|' escaped, line breaks as <br>. */
static void md_escape(struct chv_buf *b, const char *s) {
  for (; *s; s++) {
    if (*s == '|') {
      chv_buf_puts(b, "\\|");
    } else if (*s == '\r' || *s == '\n') {
      if (*s == '\r' && s[1] == '\n') s++;
      chv_buf_puts(b, "<br>");
    } else {
      chv_buf_putc(b, *s);
    }
  }
}

static void pad(struct chv_buf *b, size_t n) {
  while (n--)
    chv_buf_putc(b, ' ');
}

/* One line of cells v in the fixed widths, appended to the output. */
static void grid_line(struct printer *p, const char *const *v) {
  struct chv_buf *l = &p->line;
  chv_buf_reset(l);
  if (p->markdown) chv_buf_puts(l, "| ");
  for (int c = 0; c < p->ncols; c++) {
    const char *s = v[c] ? v[c] : "NULL";
    size_t sw = width(s), gap = p->w[c] > sw ? p->w[c] - sw : 0;
    if (c) chv_buf_puts(l, " | ");
    if (p->right[c]) pad(l, gap);
    chv_buf_puts(l, s);
    if (!p->right[c]) pad(l, gap);
  }
  if (p->markdown) {
    chv_buf_puts(l, " |");
  } else { /* no trailing blanks */
    while (l->len && l->data[l->len - 1] == ' ')
      l->len--;
  }
  chv_buf_append(&p->out, l->data ? l->data : "", l->len);
  chv_buf_putc(&p->out, '\n');
}

static const char *const *ring_front(const struct ring *r) {
  return r->v[r->h]->vals;
}

static void ring_pop(struct ring *r) {
  free(r->v[r->h]);
  r->h = (r->h + 1) % r->cap;
  r->n--;
}

static void ring_free(struct ring *r) {
  while (r->n)
    ring_pop(r);
  free(r->v);
  memset(r, 0, sizeof *r);
}

/* Keeps the current row (p->vals) at the end of r. */
static int hold(struct printer *p, struct ring *r) {
  if (r->n == r->cap) {
    size_t cap = r->cap ? 2 * r->cap : 64;
    struct held **nv = malloc(sizeof *nv * cap);
    if (!nv) return CHV_ENOMEM;
    for (size_t i = 0; i < r->n; i++)
      nv[i] = r->v[(r->h + i) % r->cap];
    free(r->v);
    r->v = nv;
    r->cap = cap;
    r->h = 0;
  }
  size_t bytes = 0;
  for (int c = 0; c < p->ncols; c++)
    if (p->vals[c]) bytes += strlen(p->vals[c]) + 1;
  size_t ptrs = sizeof(struct held) + sizeof(const char *) * (size_t)p->ncols;
  struct held *h = malloc(ptrs + bytes);
  if (!h) return CHV_ENOMEM;
  h->vals = (const char **)(h + 1);
  char *text = (char *)h + ptrs;
  for (int c = 0; c < p->ncols; c++) {
    if (!p->vals[c]) {
      h->vals[c] = NULL;
      continue;
    }
    size_t n = strlen(p->vals[c]) + 1;
    memcpy(text, p->vals[c], n);
    h->vals[c] = text;
    text += n;
  }
  if (!p->first.n && !p->last.n) p->since = now();
  r->v[(r->h + r->n) % r->cap] = h;
  r->n++;
  return CHV_OK;
}

static void widen(struct printer *p, const struct ring *r) {
  for (size_t i = 0; i < r->n; i++)
    for (int c = 0; c < p->ncols; c++) {
      const char *v = r->v[(r->h + i) % r->cap]->vals[c];
      size_t vw = width(v ? v : "NULL");
      if (vw > p->w[c]) p->w[c] = vw;
    }
}

/* Widths from the header and the rows held; the header goes out, then the
** first rows. */
static int fix_widths(struct printer *p) {
  const char **names = calloc((size_t)p->ncols + 1, sizeof *names);
  if (!names) return CHV_ENOMEM;
  /* markdown: the names escaped, one after the other in esc */
  struct chv_buf esc;
  chv_buf_init(&esc);
  size_t *at = calloc((size_t)p->ncols + 1, sizeof *at);
  if (!at) {
    free(names);
    return CHV_ENOMEM;
  }
  for (int c = 0; c < p->ncols; c++) {
    at[c] = esc.len;
    if (p->markdown) md_escape(&esc, p->schema->names[c]);
    if (chv_buf_putc(&esc, '\0') != CHV_OK) {
      free(at);
      free(names);
      chv_buf_free(&esc);
      return CHV_ENOMEM;
    }
  }
  for (int c = 0; c < p->ncols; c++) {
    names[c] = p->markdown ? esc.data + at[c] : p->schema->names[c];
    p->w[c] = width(names[c]);
    if (p->markdown && p->w[c] < 3) p->w[c] = 3; /* "---" */
  }
  widen(p, &p->first);
  widen(p, &p->last);
  p->fixed = true;
  grid_line(p, names);
  struct chv_buf *l = &p->line;
  chv_buf_reset(l);
  for (int c = 0; c < p->ncols; c++) {
    if (p->markdown) {
      chv_buf_putc(l, '|');
      for (size_t k = 0; k < p->w[c] + (p->right[c] ? 1 : 2); k++)
        chv_buf_putc(l, '-');
      if (p->right[c]) chv_buf_putc(l, ':');
    } else {
      if (c) chv_buf_puts(l, "-+-");
      for (size_t k = 0; k < p->w[c]; k++)
        chv_buf_putc(l, '-');
    }
  }
  if (p->markdown) chv_buf_putc(l, '|');
  chv_buf_putc(l, '\n');
  chv_buf_append(&p->out, l->data, l->len);
  free(at);
  free(names);
  chv_buf_free(&esc);
  for (; p->first.n; p->printed++) {
    grid_line(p, ring_front(&p->first));
    ring_pop(&p->first);
  }
  return CHV_OK;
}

/* The current row of a table or markdown result. */
static int grid_row(struct printer *p) {
  p->rows++;
  if (p->printed + (int64_t)p->first.n < p->head) {
    if (p->fixed) { /* one of the first rows, in the widths */
      grid_line(p, p->vals);
      p->printed++;
      return CHV_OK;
    }
    int rc = hold(p, &p->first);
    /* all rows shown: the widths are fixed by the first FIX_ROWS */
    if (rc == CHV_OK && p->tail == 0 && p->first.n >= FIX_ROWS)
      rc = fix_widths(p);
    return rc;
  }
  if (p->tail == 0) {
    p->left_out++;
    return CHV_OK;
  }
  if ((int64_t)p->last.n == p->tail) { /* full: its oldest is left out */
    ring_pop(&p->last);
    p->left_out++;
  }
  return hold(p, &p->last);
}

/* The end of a table or markdown result: what is held, then the footer. */
static int grid_end(struct printer *p) {
  if (!p->fixed && fix_widths(p) != CHV_OK) return CHV_ENOMEM;
  if (p->left_out) {
    const char **v = calloc((size_t)p->ncols + 1, sizeof *v);
    if (!v) return CHV_ENOMEM;
    for (int c = 0; c < p->ncols; c++)
      v[c] = "\xe2\x80\xa6"; /* … */
    grid_line(p, v);
    free(v);
  }
  for (; p->last.n; ring_pop(&p->last))
    grid_line(p, ring_front(&p->last));
  if (p->markdown) return CHV_OK;
  if (p->left_out)
    chv_buf_printf(&p->out, "(%lld rows, %lld shown, %lld left out)\n",
                   (long long)p->rows, (long long)(p->rows - p->left_out),
                   (long long)p->left_out);
  else
    chv_buf_printf(&p->out, "(%lld row%s)\n", (long long)p->rows,
                   p->rows == 1 ? "" : "s");
  return CHV_OK;
}

/* ---- the result ---------------------------------------------------------- */

static void printer_free(struct printer *p) {
  ring_free(&p->first);
  ring_free(&p->last);
  for (int c = 0; p->cells && c < p->ncols; c++)
    chv_buf_free(&p->cells[c]);
  free(p->cells);
  free(p->vals);
  free(p->right);
  free(p->w);
  chv_buf_free(&p->out);
  chv_buf_free(&p->line);
}

static int printer_init(struct printer *p, struct shell *sh,
                        const struct chv_type *schema) {
  memset(p, 0, sizeof *p);
  p->sh = sh;
  p->schema = schema;
  p->ncols = schema->nchildren;
  p->markdown = sh->mode == SHELL_MODE_MARKDOWN;
  chv_buf_init(&p->out);
  chv_buf_init(&p->line);
  size_t n = (size_t)p->ncols + 1;
  p->cells = calloc(n, sizeof *p->cells);
  p->vals = calloc(n, sizeof *p->vals);
  p->right = calloc(n, sizeof *p->right);
  p->w = calloc(n, sizeof *p->w);
  if (!p->cells || !p->vals || !p->right || !p->w) return CHV_ENOMEM;
  for (int c = 0; c < p->ncols; c++) {
    chv_buf_init(&p->cells[c]);
    p->right[c] = is_number(schema->children[c]);
  }
  int64_t m = p->markdown ? -1 : sh->maxrows;
  p->head = m < 0 ? INT64_MAX : m - m / 2;
  p->tail = m < 0 ? 0 : m / 2;
  return CHV_OK;
}

/* The text of row `row` of b in p->vals (markdown: escaped). */
static int row_text(struct printer *p, const struct chv_batch *b, int64_t row) {
  for (int c = 0; c < p->ncols; c++) {
    struct chv_buf *cb = &p->cells[c];
    bool null;
    chv_buf_reset(cb);
    if (chv_vector_text(b->cols[c], row, cb, &null) != CHV_OK)
      return CHV_ENOMEM;
    p->vals[c] = null ? NULL : cb->data ? cb->data : "";
    if (p->markdown && !null && strpbrk(p->vals[c], "|\r\n")) {
      struct chv_buf e;
      chv_buf_init(&e);
      md_escape(&e, p->vals[c]);
      chv_buf_free(cb);
      *cb = e;
      p->vals[c] = cb->data ? cb->data : "";
    }
  }
  return CHV_OK;
}

static int print_batch(struct printer *p, const struct chv_batch *b) {
  enum shell_mode m = p->sh->mode;
  for (int64_t row = 0; row < b->nrows; row++) {
    int rc = CHV_OK;
    if (m == SHELL_MODE_JSONL) {
      chv_buf_putc(&p->out, '{');
      for (int c = 0; c < p->ncols && rc == CHV_OK; c++) {
        if (c) chv_buf_putc(&p->out, ',');
        chv_json_put_string(&p->out, p->schema->names[c]);
        chv_buf_putc(&p->out, ':');
        rc = chv_jsonl_value(b->cols[c], row, &p->out);
      }
      chv_buf_puts(&p->out, "}\n");
    } else {
      rc = row_text(p, b, row);
      if (rc == CHV_OK && (m == SHELL_MODE_CSV || m == SHELL_MODE_TSV))
        delimited_line(p, p->vals);
      else if (rc == CHV_OK)
        rc = grid_row(p);
    }
    if (rc != CHV_OK) return rc;
    if (p->out.len >= OUT_CHUNK) flush_out(p);
  }
  /* On a terminal the first rows of a slow result do not wait long for
  ** their widths (unless rows are left out: the table then shows at its
  ** end, so that its first and last rows line up). */
  if ((m == SHELL_MODE_TABLE || m == SHELL_MODE_MARKDOWN) && !p->fixed &&
      !p->left_out && p->first.n + p->last.n && p->sh->out_tty &&
      now() - p->since >= FIX_WAIT && fix_widths(p) != CHV_OK)
    return CHV_ENOMEM;
  flush_out(p);
  return CHV_OK;
}

/* EXPLAIN: the plan's lines as they are (jsonl: {"plan": line}). */
static int print_plan(struct printer *p, const struct chv_batch *b) {
  for (int64_t i = 0; i < b->nrows; i++) {
    struct chv_buf *cb = &p->cells[0];
    bool null;
    chv_buf_reset(cb);
    if (chv_vector_text(b->cols[0], i, cb, &null) != CHV_OK) return CHV_ENOMEM;
    if (p->sh->mode == SHELL_MODE_JSONL) {
      chv_buf_puts(&p->out, "{\"plan\":");
      chv_json_put_string(&p->out, cb->data ? cb->data : "");
      chv_buf_puts(&p->out, "}\n");
    } else {
      chv_buf_puts(&p->out, cb->data ? cb->data : "");
      chv_buf_putc(&p->out, '\n');
    }
  }
  flush_out(p);
  return CHV_OK;
}

int shell_print_result(struct shell *sh, chv_result *r, struct chv_error *err) {
  enum chv_result_kind kind = chv_result_kind(r);
  const struct chv_type *schema = chv_result_schema(r);
  struct printer p;
  int rc = printer_init(&p, sh, schema);
  if (rc != CHV_OK) {
    printer_free(&p);
    return chv_error_set(err, rc, "out of memory");
  }
  bool grid = sh->mode == SHELL_MODE_TABLE || sh->mode == SHELL_MODE_MARKDOWN;
  const struct chv_batch *b;
  while (rc == CHV_OK) {
    if (shell_interrupted()) {
      rc = chv_error_set(err, CHV_ECANCELED, "the statement was cancelled");
      break;
    }
    if ((rc = chv_result_next(r, &b, err)) != CHV_OK || !b) break;
    int prc = CHV_OK;
    if (kind == CHV_RESULT_PLAN && schema->nchildren > 0) {
      prc = print_plan(&p, b);
    } else if (kind == CHV_RESULT_ROWS) {
      if (!grid && sh->mode != SHELL_MODE_JSONL) delimited_header(&p);
      prc = print_batch(&p, b);
    }
    if (prc != CHV_OK) rc = chv_error_set(err, prc, "out of memory");
  }
  if (rc == CHV_OK) {
    if (kind == CHV_RESULT_ROWS && grid) {
      if (grid_end(&p) != CHV_OK)
        rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    } else if (kind == CHV_RESULT_ROWS && sh->mode != SHELL_MODE_JSONL) {
      delimited_header(&p);
    } else if (kind != CHV_RESULT_ROWS && kind != CHV_RESULT_PLAN &&
               sh->mode == SHELL_MODE_TABLE && *chv_result_message(r)) {
      chv_buf_printf(&p.out, "%s\n", chv_result_message(r));
    }
    flush_out(&p);
  }
  printer_free(&p);
  return rc;
}
