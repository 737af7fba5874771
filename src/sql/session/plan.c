/*
** sql/session/plan: EXPLAIN's plan as a tree of nodes, and what EXPLAIN
** ANALYZE measures on them.
**
** The statement code makes its own nodes (Insert, Multi-insert, Insert
** ... directory: dml.c, multi.c, dir.c), and query.c one node for each
** node of a query's plan (sql/plan), each under the node whose input it
** is; s->plan_at is where the next top node of a query goes.  Under
** EXPLAIN ANALYZE the statement runs for real and each node gets the rows
** its operator produced and the time it took (sql_plan_count(), safe from
** the reader threads); the tree is printed once the statement ends.
**
**   Insert into default.t2: partition=(dt='d1')
**     -> Project: [a, _c1]
**         -> Filter: (a > 1)
**             -> Scan default.t: partitions=1/2 columns=[a, b] ...
**                Statistics: rows=3 (metastore) parallelism=dynamic
**
** A node's lines are its text, then its detail lines (aligned under the
** text), then its children, each "-> " four columns further in.
**
** INTERFACE
**   sql_plan_open()/_close()   a plan for one EXPLAIN
**   sql_plan_node()            a node under a parent (NULL when no plan is
**                              being built: every other call takes NULL)
**   sql_plan_text()/_detail()  what a node says
**   sql_plan_count()           rows and time, for EXPLAIN ANALYZE
**   sql_plan_now()             a monotonic clock in nanoseconds
**   sql_plan_emit()            the tree as the statement's PLAN result
*/
#include "sql/session/session_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct sql_plan_node {
  struct chv_buf text;                 /* the node's line */
  struct chv_buf detail;               /* its detail lines, '\n'-separated */
  struct sql_plan_node *first, *last;  /* children, in order */
  struct sql_plan_node *next;          /* the next child of the parent */
  struct sql_plan_node *all;           /* every node of the plan (to free) */
  bool counted;                        /* sql_plan_count() was called */
  int64_t rows, ns;                    /* EXPLAIN ANALYZE; atomic adds */
  int64_t spill_bytes, spill_files;    /* what its operator spilled */
};

struct sql_plan {
  bool analyze;
  struct sql_plan_node top;            /* the top nodes are its children */
  struct sql_plan_node *all;
};

int sql_plan_open(bool analyze, struct sql_plan **out, struct chv_error *err) {
  struct sql_plan *p = chv_calloc(1, sizeof *p);
  if (!p) return sql_err(err, CHV_ENOMEM, "out of memory");
  p->analyze = analyze;
  chv_buf_init(&p->top.text);
  chv_buf_init(&p->top.detail);
  *out = p;
  return CHV_OK;
}

void sql_plan_close(struct sql_plan *p) {
  if (!p) return;
  for (struct sql_plan_node *n = p->all, *nx; n; n = nx) {
    nx = n->all;
    chv_buf_free(&n->text);
    chv_buf_free(&n->detail);
    chv_free(n);
  }
  chv_buf_free(&p->top.text);
  chv_buf_free(&p->top.detail);
  chv_free(p);
}

bool sql_plan_analyze(const struct sql_session *s) {
  return s->plan && s->plan->analyze;
}

static struct sql_plan_node *new_node(struct sql_plan *p) {
  struct sql_plan_node *n = chv_calloc(1, sizeof *n);
  if (!n) return NULL; /* out of memory: the plan is cut short */
  chv_buf_init(&n->text);
  chv_buf_init(&n->detail);
  n->all = p->all;
  p->all = n;
  return n;
}

static void adopt(struct sql_plan_node *parent, struct sql_plan_node *n) {
  if (parent->last)
    parent->last->next = n;
  else
    parent->first = n;
  parent->last = n;
}

static void vtext(struct chv_buf *b, const char *fmt, va_list ap) {
  char small[512];
  va_list aq;
  va_copy(aq, ap);
  int len = vsnprintf(small, sizeof small, fmt, aq);
  va_end(aq);
  if (len < 0) return;
  if ((size_t)len < sizeof small) {
    chv_buf_append(b, small, (size_t)len);
    return;
  }
  char *big = malloc((size_t)len + 1);
  if (!big) return;
  vsnprintf(big, (size_t)len + 1, fmt, ap);
  chv_buf_append(b, big, (size_t)len);
  free(big);
}

struct sql_plan_node *sql_plan_node(struct sql_session *s,
                                    struct sql_plan_node *parent,
                                    const char *fmt, ...) {
  if (!s->plan) return NULL;
  struct sql_plan_node *n = new_node(s->plan);
  if (!n) return NULL;
  if (!parent) parent = s->plan_at ? s->plan_at : &s->plan->top;
  adopt(parent, n);
  va_list ap;
  va_start(ap, fmt);
  vtext(&n->text, fmt, ap);
  va_end(ap);
  return n;
}

void sql_plan_text(struct sql_plan_node *n, const char *fmt, ...) {
  if (!n) return;
  va_list ap;
  va_start(ap, fmt);
  vtext(&n->text, fmt, ap);
  va_end(ap);
}

void sql_plan_detail(struct sql_plan_node *n, const char *fmt, ...) {
  if (!n) return;
  if (n->detail.len) chv_buf_putc(&n->detail, '\n');
  va_list ap;
  va_start(ap, fmt);
  vtext(&n->detail, fmt, ap);
  va_end(ap);
}

int64_t sql_plan_now(void) { return sql_exec_now(); }

void sql_plan_count(struct sql_plan_node *n, int64_t rows, int64_t ns) {
  if (!n) return;
  __atomic_store_n(&n->counted, true, __ATOMIC_RELAXED);
  __atomic_add_fetch(&n->rows, rows, __ATOMIC_RELAXED);
  __atomic_add_fetch(&n->ns, ns, __ATOMIC_RELAXED);
}

void sql_plan_spill(struct sql_plan_node *n, int64_t bytes, int64_t files) {
  if (!n) return;
  n->spill_bytes += bytes;
  n->spill_files += files;
}

/* The lines of n (at depth d: 0 for a top node) and its children. */
static void render(struct sql_result *r, const struct sql_plan *p,
                   const struct sql_plan_node *n, int d, struct chv_buf *l) {
  int col = d ? 4 * d - 2 : 0; /* where "-> " starts */
  chv_buf_reset(l);
  for (int i = 0; i < col; i++) chv_buf_putc(l, ' ');
  if (d) chv_buf_puts(l, "-> ");
  chv_buf_append(l, n->text.data ? n->text.data : "", n->text.len);
  if (p->analyze && n->counted)
    chv_buf_printf(l, " (rows=%lld time=%.3f ms%s", (long long)n->rows,
                   (double)n->ns / 1e6, n->spill_files ? "" : ")");
  if (p->analyze && n->counted && n->spill_files)
    chv_buf_printf(l, " spilled=%.1f MB in %lld file%s)",
                   (double)n->spill_bytes / (1 << 20),
                   (long long)n->spill_files, n->spill_files == 1 ? "" : "s");
  const char *cell = l->data ? l->data : "";
  sql_result_add(r, &cell); /* out of memory: cut short */
  int dcol = d ? col + 3 : 2;
  for (const char *s = n->detail.data; s && *s;) {
    const char *e = strchr(s, '\n');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    chv_buf_reset(l);
    for (int i = 0; i < dcol; i++) chv_buf_putc(l, ' ');
    chv_buf_append(l, s, len);
    cell = l->data ? l->data : "";
    sql_result_add(r, &cell);
    s = e ? e + 1 : s + len;
  }
  for (const struct sql_plan_node *c = n->first; c; c = c->next)
    render(r, p, c, d + 1, l);
}

int sql_plan_emit(struct sql_session *s, struct sql_plan *p,
                  struct chv_error *err) {
  struct sql_result r;
  sql_result_init(&r);
  r.kind = CHV_RESULT_PLAN;
  const char *head = "plan";
  int rc = sql_result_columns(&r, 1, &head);
  if (rc != CHV_OK) rc = sql_err(err, CHV_ENOMEM, "out of memory");
  struct chv_buf l;
  chv_buf_init(&l);
  for (const struct sql_plan_node *c = p->top.first; rc == CHV_OK && c;
       c = c->next)
    render(&r, p, c, 0, &l);
  chv_buf_free(&l);
  if (rc == CHV_OK) rc = sql_result_emit(s, &r, err);
  sql_result_free(&r);
  return rc;
}
