/*
** cli/shell_complete: Tab completion in the interactive shell.
**
** The word before the cursor completes to
**   - a shell command (.mode, ...) at the start of a line, and a mode after
**     .mode, on/off after .timer;
**   - SQL keywords, types and functions (in the case the word is typed in);
**   - the tables of the current database and the databases;
**   - the columns of the tables the statement names (of every table of the
**     current database, up to MAX_DESCRIBED, when it names none yet);
**   - db.<table> after a database's name and a dot, t.<column> after a
**     table's name and a dot.
** Names come from the session itself (SHOW DATABASES, SHOW TABLES [IN db],
** DESCRIBE t), run at the prompt, when no statement is open.  They are
** kept until a statement that may change them (one without rows: DDL, USE;
** a summary: INSERT, CTAS, LOAD) or a change of the current database.
**
** INTERFACE: shell_complete(), shell_complete_init(),
** shell_complete_pending(), shell_complete_stale(), shell_complete_free().
*/
#include "shell.h"
#include "chive/types.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <editline/readline.h>

#define MAX_DESCRIBED 64 /* tables described when the statement names none */

/* clang-format off */
static const char *const keywords[] = {
    "ADD", "ALL", "ALTER", "AND", "ARRAY", "AS", "ASC", "AVG", "BETWEEN",
    "BIGINT", "BINARY", "BOOLEAN", "BY", "CASCADE", "CASE", "CAST", "CATALOG",
    "CATALOGS", "CHAR", "COALESCE", "COLUMNS", "COMMENT", "COUNT", "CREATE",
    "CURRENT", "DATA", "DATABASE", "DATABASES", "DATE", "DBPROPERTIES",
    "DECIMAL", "DELIMITED", "DESC", "DESCRIBE", "DISTINCT", "DOUBLE", "DROP",
    "ELSE", "END", "EXISTS", "EXPLAIN", "EXTERNAL", "FALSE", "FIELDS", "FLOAT",
    "FORMAT", "FORMATTED", "FROM", "GROUP", "HAVING", "IF", "IN", "INPATH",
    "INSERT", "INT", "INTEGER", "INTO", "IS", "LIKE", "LIMIT", "LOAD", "LOCAL",
    "LOCATION", "MAP", "MAX", "MIN", "MSCK", "NOT", "NULL", "NULLS", "OR",
    "ORC", "ORDER", "OVERWRITE", "PARQUET", "PARTITION", "PARTITIONED",
    "PARTITIONS", "REPAIR", "ROW", "SELECT", "SET", "SHOW", "SMALLINT",
    "STORED", "STRING", "STRUCT", "SUM", "TABLE", "TABLES", "TBLPROPERTIES",
    "TERMINATED", "TEXTFILE", "THEN", "TIMESTAMP", "TINYINT", "TO", "TRUE",
    "TRUNCATE", "UNION", "USE", "VALUES", "VARCHAR", "WHEN", "WHERE", "WITH",
    "abs", "concat", "day", "length", "lower", "month", "round", "substr",
    "to_date", "trim", "upper", "year", NULL};
/* clang-format on */

static const char *const commands[] = {".exit", ".help",  ".maxrows", ".mode",
                                       ".quit", ".timer", NULL};
static const char *const modes[] = {"csv",   "jsonl", "markdown",
                                    "table", "tsv",   NULL};
static const char *const on_off[] = {"off", "on", NULL};

struct names {
  char **v;
  int n, cap;
};

struct table_cols {
  char *name;
  struct names cols;
};

struct shell_completion {
  struct shell *sh;
  const char *pending; /* the statement's lines before this one */
  bool stale;
  char *db; /* the database the tables are of */
  struct names tables;
  struct names dbs;
  struct table_cols *tc; /* columns of the tables described so far */
  int ntc, captc;
  /* the database named before a dot, and its tables */
  char *other_db;
  struct names other;
  /* the candidates of the word being completed */
  struct names cand;
};

static struct shell_completion *cur; /* the shell's, for the hook */

static void names_free(struct names *n) {
  for (int i = 0; i < n->n; i++)
    free(n->v[i]);
  free(n->v);
  memset(n, 0, sizeof *n);
}

static void names_add(struct names *n, const char *s, size_t len) {
  if (n->n == n->cap) {
    int cap = n->cap ? 2 * n->cap : 32;
    char **v = realloc(n->v, sizeof *v * (size_t)cap);
    if (!v) return;
    n->v = v;
    n->cap = cap;
  }
  char *d = malloc(len + 1);
  if (!d) return;
  memcpy(d, s, len);
  d[len] = '\0';
  n->v[n->n++] = d;
}

/* The first column of sql's rows (up to the first empty one, or one that
** starts with '#', when stop_at_blank: DESCRIBE's partition section). */
static void fetch(struct shell *sh, const char *sql, struct names *out,
                  bool stop_at_blank) {
  chv_result *r = NULL;
  struct chv_error err;
  if (chv_session_query(sh->session, sql, NULL, &r, &err) != CHV_OK) return;
  const struct chv_batch *b;
  struct chv_buf cell;
  chv_buf_init(&cell);
  bool done = false;
  while (!done && chv_result_next(r, &b, &err) == CHV_OK && b) {
    if (b->ncols < 1) break;
    for (int64_t i = 0; i < b->nrows && !done; i++) {
      bool null;
      chv_buf_reset(&cell);
      if (chv_vector_text(b->cols[0], i, &cell, &null) != CHV_OK || null)
        continue;
      const char *s = cell.data ? cell.data : "";
      if (stop_at_blank && (!*s || *s == '#')) {
        done = true;
        continue;
      }
      names_add(out, s, strlen(s));
    }
  }
  chv_buf_free(&cell);
  chv_result_close(r);
}

/* `name` with backquotes doubled, appended to b. */
static void quoted(struct chv_buf *b, const char *name) {
  chv_buf_putc(b, '`');
  for (; *name; name++) {
    if (*name == '`') chv_buf_putc(b, '`');
    chv_buf_putc(b, *name);
  }
  chv_buf_putc(b, '`');
}

static void forget(struct shell_completion *c) {
  names_free(&c->tables);
  names_free(&c->dbs);
  for (int i = 0; i < c->ntc; i++) {
    free(c->tc[i].name);
    names_free(&c->tc[i].cols);
  }
  free(c->tc);
  c->tc = NULL;
  c->ntc = c->captc = 0;
  free(c->db);
  c->db = NULL;
  free(c->other_db);
  c->other_db = NULL;
  names_free(&c->other);
}

/* The tables of the current database and the databases, fresh. */
static void refresh(struct shell_completion *c) {
  const char *db = chv_session_database(c->sh->session);
  if (!c->stale && c->db && !strcmp(c->db, db)) return;
  forget(c);
  c->db = strdup(db);
  fetch(c->sh, "SHOW TABLES", &c->tables, false);
  fetch(c->sh, "SHOW DATABASES", &c->dbs, false);
  c->stale = false;
}

/* The columns of table t of the current database (described once). */
static const struct names *columns_of(struct shell_completion *c,
                                      const char *t) {
  for (int i = 0; i < c->ntc; i++)
    if (!strcasecmp(c->tc[i].name, t)) return &c->tc[i].cols;
  if (c->ntc == c->captc) {
    int cap = c->captc ? 2 * c->captc : 8;
    struct table_cols *tc = realloc(c->tc, sizeof *tc * (size_t)cap);
    if (!tc) return NULL;
    c->tc = tc;
    c->captc = cap;
  }
  struct table_cols *e = &c->tc[c->ntc];
  memset(e, 0, sizeof *e);
  if (!(e->name = strdup(t))) return NULL;
  c->ntc++;
  struct chv_buf sql;
  chv_buf_init(&sql);
  chv_buf_puts(&sql, "DESCRIBE ");
  quoted(&sql, t);
  if (sql.data) fetch(c->sh, sql.data, &e->cols, true);
  chv_buf_free(&sql);
  return &e->cols;
}

/* Whether the statement's text mentions word name (case aside). */
static bool mentions(const char *text, const char *name) {
  size_t n = strlen(name);
  for (const char *p = text; (p = strcasestr(p, name)) != NULL; p++) {
    bool left = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
    unsigned char r = (unsigned char)p[n];
    if (left && !(isalnum(r) || r == '_')) return true;
  }
  return false;
}

static bool has_prefix(const char *s, const char *prefix, size_t n) {
  return !strncasecmp(s, prefix, n);
}

/* Adds the words of v that start with text[0, n), as typed prefix + rest
** (with `before` in front), in lower case when lower. */
static void offer(struct shell_completion *c, const char *before,
                  const char *const *v, int count, const char *text, size_t n,
                  bool lower) {
  for (int i = 0; count < 0 ? v[i] != NULL : i < count; i++) {
    if (!has_prefix(v[i], text, n)) continue;
    struct chv_buf b;
    chv_buf_init(&b);
    chv_buf_puts(&b, before);
    size_t at = b.len;
    chv_buf_puts(&b, v[i]);
    if (lower)
      for (size_t k = at; k < b.len; k++)
        b.data[k] = (char)tolower((unsigned char)b.data[k]);
    bool dup = false;
    for (int k = 0; k < c->cand.n && !dup; k++)
      dup = b.data && !strcmp(c->cand.v[k], b.data);
    if (b.data && !dup) names_add(&c->cand, b.data, b.len);
    chv_buf_free(&b);
  }
}

static char *next_candidate(const char *text, int state) {
  (void)text;
  static int i;
  if (!state) i = 0;
  if (!cur || i >= cur->cand.n) return NULL;
  return strdup(cur->cand.v[i++]);
}

/* The candidates of the word text, with the line before it in line[0,
** start). */
static void candidates(struct shell_completion *c, const char *text,
                       int start) {
  const char *line = rl_line_buffer ? rl_line_buffer : "";
  size_t n = strlen(text);
  /* a shell command, or its argument */
  int lead = 0;
  while (line[lead] == ' ' || line[lead] == '\t')
    lead++;
  if (line[lead] == '.') {
    if (start <= lead) {
      offer(c, "", commands, -1, text, n, false);
    } else if (!strncmp(line + lead, ".mode ", 6)) {
      offer(c, "", modes, -1, text, n, false);
    } else if (!strncmp(line + lead, ".timer ", 7)) {
      offer(c, "", on_off, -1, text, n, false);
    }
    return;
  }
  refresh(c);
  const char *dot = strrchr(text, '.');
  if (dot) { /* db.<table> or t.<column> */
    size_t qn = (size_t)(dot - text);
    char q[256];
    if (qn >= sizeof q) return;
    memcpy(q, text, qn);
    q[qn] = '\0';
    char before[260];
    snprintf(before, sizeof before, "%s.", q);
    const char *rest = dot + 1;
    size_t rn = strlen(rest);
    for (int i = 0; i < c->tables.n; i++)
      if (!strcasecmp(c->tables.v[i], q)) {
        const struct names *cols = columns_of(c, c->tables.v[i]);
        if (cols)
          offer(c, before, (const char *const *)cols->v, cols->n, rest, rn,
                false);
        return;
      }
    if (!c->other_db || strcasecmp(c->other_db, q)) {
      free(c->other_db);
      names_free(&c->other);
      c->other_db = strdup(q);
      struct chv_buf sql;
      chv_buf_init(&sql);
      chv_buf_puts(&sql, "SHOW TABLES IN ");
      quoted(&sql, q);
      if (sql.data) fetch(c->sh, sql.data, &c->other, false);
      chv_buf_free(&sql);
    }
    offer(c, before, (const char *const *)c->other.v, c->other.n, rest, rn,
          false);
    return;
  }
  bool lower = n > 0 && islower((unsigned char)text[0]);
  offer(c, "", keywords, -1, text, n, lower);
  offer(c, "", (const char *const *)c->tables.v, c->tables.n, text, n, false);
  offer(c, "", (const char *const *)c->dbs.v, c->dbs.n, text, n, false);
  /* columns of the tables the line names, or of all of them */
  const char *pend = c->pending ? c->pending : "";
  int named = 0;
  for (int i = 0; i < c->tables.n; i++)
    if (mentions(line, c->tables.v[i]) || mentions(pend, c->tables.v[i]))
      named++;
  for (int i = 0, described = 0; i < c->tables.n; i++) {
    bool m = mentions(line, c->tables.v[i]) || mentions(pend, c->tables.v[i]);
    if (named ? !m : described >= MAX_DESCRIBED) continue;
    described++;
    const struct names *cols = columns_of(c, c->tables.v[i]);
    if (cols)
      offer(c, "", (const char *const *)cols->v, cols->n, text, n, false);
  }
}

char **shell_complete(const char *text, int start, int end) {
  (void)end;
  rl_attempted_completion_over = 1; /* no file names */
  if (!cur) return NULL;
  names_free(&cur->cand);
  candidates(cur, text, start);
  if (!cur->cand.n) return NULL;
  return rl_completion_matches(text, next_candidate);
}

void shell_complete_init(struct shell *sh) {
  if (sh->comp) return;
  sh->comp = calloc(1, sizeof *sh->comp);
  if (!sh->comp) return;
  sh->comp->sh = sh;
  sh->comp->stale = true;
  cur = sh->comp;
}

void shell_complete_pending(struct shell *sh, const char *text) {
  if (sh->comp) sh->comp->pending = text;
}

void shell_complete_stale(struct shell *sh) {
  if (sh->comp) sh->comp->stale = true;
}

void shell_complete_free(struct shell *sh) {
  if (!sh->comp) return;
  forget(sh->comp);
  names_free(&sh->comp->cand);
  if (cur == sh->comp) cur = NULL;
  free(sh->comp);
  sh->comp = NULL;
}
