/*
** sql/session/session: the public session (include/chive/session.h) over
** the statement engine (stmt.c and the rest of this module).
**
** A statement with a consumer runs on a thread of its own, the producer; the
** consumer's chv_result_next() takes the batches it hands on through a
** queue of two.  So rows leave while the scan goes on, and memory holds at
** most the queue, the batch being filled and the consumer's batch.
**
**   consumer (caller's thread)            producer (statement thread)
**   chv_session_query() --- start ------> sql_exec_stmt()
**         waits for begun or finished <-- sql_out_begin()   columns known
**   chv_result_next()  <--- batch ------- sql_out_push()    waits while two
**         (lent until the next call)                        are queued
**   chv_result_close() --- closed ------> push fails ECANCELED, the
**         joins the thread                statement ends as on an error
**
** chv_session_cancel() only stores 1 in s->cancel (signal-safe); scans
** (chv_scan_options.cancel), the producer's waits and the result's rows
** look at it.  Without a consumer (out NULL) the statement runs on the
** caller's thread and what it gives is dropped.
*/
#include "sql/session/session_int.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct chv_session {
  struct sql_session s;          /* first: the engine's view */
  struct chv_session_options opts;
  struct chv_result *open;       /* a result not closed yet, or NULL */
  size_t err_off;
};

struct chv_result {
  chv_session *owner;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  pthread_t thread;
  bool threaded;
  /* the statement: its arena holds the tree */
  chv_arena *arena;
  const struct chv_sql_stmt *stmt;
  /* the option overlay, undone when the statement ends */
  char **okeys, **oold;
  size_t nover;
  /* producer -> consumer, under mu */
  enum chv_result_kind kind;
  struct chv_type *schema;
  bool begun, finished, closed;
  int rc;
  struct chv_error err;
  size_t err_off;
  struct chv_batch *q[2];
  int qn, qh;
  char message[256];
  /* the consumer's */
  struct chv_batch *cur;
  bool reported; /* the statement's error was returned once */
  /* progress: what the statement's reports told so far, merged */
  struct timespec start, last;
  struct chv_progress prog;
  bool writes; /* a report gave bytes_written */
};

static double since(const struct timespec *t) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - t->tv_sec) +
         (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static bool is_cancelled(const struct sql_session *s) {
  return __atomic_load_n(&s->cancel, __ATOMIC_RELAXED) != 0;
}

int sql_cancelled(struct sql_session *s, struct chv_error *err) {
  if (s && is_cancelled(s))
    return sql_err(err, CHV_ECANCELED, "the statement was cancelled");
  return CHV_OK;
}

/* ---- the producer's side ------------------------------------------------ */

/* The consumer of what the statement gives: none while EXPLAIN ANALYZE
** runs the statement it explains (its rows and summary are dropped). */
static struct chv_result *out_res(const struct sql_session *s) {
  return s->discard ? NULL : s->res;
}

int sql_out_begin(struct sql_session *s, struct chv_type *schema,
                  enum chv_result_kind kind, struct chv_error *err) {
  (void)err;
  struct chv_result *r = out_res(s);
  if (!r) {
    chv_type_free(schema);
    return CHV_OK;
  }
  pthread_mutex_lock(&r->mu);
  if (r->begun) { /* a statement declares its columns once */
    pthread_mutex_unlock(&r->mu);
    chv_type_free(schema);
    return sql_err(err, CHV_EINTERNAL, "a result's columns declared twice");
  }
  r->schema = schema;
  r->kind = kind;
  r->begun = true;
  pthread_cond_broadcast(&r->cv);
  pthread_mutex_unlock(&r->mu);
  return CHV_OK;
}

const struct chv_type *sql_out_schema(struct sql_session *s) {
  struct chv_result *r = out_res(s);
  return r && r->begun ? r->schema : NULL;
}

int sql_out_push(struct sql_session *s, struct chv_batch *b,
                 struct chv_error *err) {
  struct chv_result *r = out_res(s);
  if (!r) {
    chv_batch_close(b);
    return sql_cancelled(s, err);
  }
  pthread_mutex_lock(&r->mu);
  while (r->qn == 2 && !r->closed && !is_cancelled(s)) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 20 * 1000000L; /* a cancel sets no condition: look again */
    if (ts.tv_nsec >= 1000000000L) {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&r->cv, &r->mu, &ts);
  }
  bool gone = r->closed;
  if (!gone && !is_cancelled(s)) {
    r->q[(r->qh + r->qn) % 2] = b;
    r->qn++;
    b = NULL;
    pthread_cond_broadcast(&r->cv);
  }
  pthread_mutex_unlock(&r->mu);
  if (!b) return CHV_OK;
  chv_batch_close(b);
  if (gone)
    return sql_err(err, CHV_ECANCELED,
                   "the statement was stopped: its result was closed");
  return sql_cancelled(s, err);
}

void sql_out_message(struct sql_session *s, const char *fmt, ...) {
  struct chv_result *r = out_res(s);
  if (!r) return;
  va_list ap;
  va_start(ap, fmt);
  pthread_mutex_lock(&r->mu);
  vsnprintf(r->message, sizeof r->message, fmt, ap);
  pthread_mutex_unlock(&r->mu);
  va_end(ap);
}

int sql_out_summary(struct sql_session *s, const char *column, int64_t n,
                    const char *msg, struct chv_error *err) {
  if (!out_res(s)) return CHV_OK;
  sql_out_message(s, "%s", msg);
  struct chv_type *st = NULL, *bt = NULL;
  struct chv_batch *b = NULL;
  if (chv_type_new(CHV_TYPE_STRUCT, &st) != CHV_OK ||
      chv_type_new(CHV_TYPE_BIGINT, &bt) != CHV_OK ||
      chv_type_struct_add(st, column, bt) != CHV_OK) {
    chv_type_free(st);
    return sql_err(err, CHV_ENOMEM, "out of memory");
  }
  /* the batch is on the result's schema, which outlives it */
  int rc = sql_out_begin(s, st, CHV_RESULT_SUMMARY, err);
  if (rc == CHV_OK) rc = chv_batch_open(s->res->schema, 1, &b, err);
  if (rc == CHV_OK) rc = chv_vector_append_value(b->cols[0], &n, err);
  if (rc != CHV_OK) {
    chv_batch_close(b);
    return rc;
  }
  b->nrows = 1;
  return sql_out_push(s, b, err);
}

void sql_out_progress(struct sql_session *s, const struct chv_progress *p) {
  struct chv_result *r = s->res;
  if (!s->progress || !r) return;
  /* Reader threads that write report at once: one at a time, and a report
  ** that finds another being made is dropped (the next one counts). */
  if (pthread_mutex_trylock(&r->mu) != 0) return;
  /* A scan's report (splits, rows read) and a write's (rows written,
  ** bytes) come from different places of one INSERT ... SELECT. */
  struct chv_progress *m = &r->prog;
  if (p->splits_total >= 0) {
    m->splits_total = p->splits_total;
    m->splits_done = p->splits_done;
  }
  if (p->bytes_written >= 0) {
    m->bytes_written = p->bytes_written;
    r->writes = true;
  }
  if (p->rows >= 0 && (p->bytes_written >= 0 || !r->writes)) m->rows = p->rows;
  double el = since(&r->start);
  bool due = el >= 0.25 && since(&r->last) >= 0.25;
  struct chv_progress q = *m;
  if (due) clock_gettime(CLOCK_MONOTONIC, &r->last);
  pthread_mutex_unlock(&r->mu);
  if (!due) return;
  q.elapsed = el;
  s->progress(s->progress_ctx, &q);
}

void sql_scan_progress(void *ctx, const chv_scan *sc) {
  struct sql_session *s = ctx;
  if (!s->progress || !s->res) return;
  struct chv_scan_stats st;
  chv_scan_stats(sc, &st);
  struct chv_progress p = {.splits_done = -1,
                           .splits_total = -1,
                           .rows = st.rows_read,
                           .bytes_written = -1};
  if (st.splits_total > 0) {
    p.splits_total = st.splits_total;
    p.splits_done = st.splits_done;
  }
  sql_out_progress(s, &p);
}

/* ---- statements ----------------------------------------------------------- */

/* The option overlay, set in the session layer for the statement; the old
** session values are kept to put back. */
static int overlay_apply(chv_session *cs, struct chv_result *r,
                         const struct chv_exec_options *o,
                         struct chv_error *err) {
  if (!o || o->n == 0) return CHV_OK;
  r->okeys = chv_calloc(o->n, sizeof *r->okeys);
  r->oold = chv_calloc(o->n, sizeof *r->oold);
  if (!r->okeys || !r->oold) return sql_err(err, CHV_ENOMEM, "out of memory");
  for (size_t i = 0; i < o->n; i++) {
    enum chv_config_layer layer;
    const char *old = chv_config_lookup(cs->s.cfg, o->keys[i], &layer);
    if (!(r->okeys[i] = chv_strdup(o->keys[i])))
      return sql_err(err, CHV_ENOMEM, "out of memory");
    if (old && layer == CHV_LAYER_SESSION && !(r->oold[i] = chv_strdup(old)))
      return sql_err(err, CHV_ENOMEM, "out of memory");
    r->nover = i + 1;
    int rc = chv_config_set(cs->s.cfg, CHV_LAYER_SESSION, o->keys[i],
                            o->values[i] ? o->values[i] : "", err);
    if (rc != CHV_OK) {
      chv_error_wrap(err, "statement option '%s'", o->keys[i]);
      return rc;
    }
  }
  return CHV_OK;
}

static void overlay_undo(chv_session *cs, struct chv_result *r) {
  for (size_t i = r->nover; i-- > 0;) {
    struct chv_error e;
    if (r->oold[i])
      chv_config_set(cs->s.cfg, CHV_LAYER_SESSION, r->okeys[i], r->oold[i],
                     &e);
    else
      chv_config_unset(cs->s.cfg, CHV_LAYER_SESSION, r->okeys[i]);
    chv_free(r->okeys[i]);
    chv_free(r->oold[i]);
  }
  chv_free(r->okeys);
  chv_free(r->oold);
  r->okeys = r->oold = NULL;
  r->nover = 0;
}

/* Runs r's statement; records how it ended. */
static void run_stmt(struct chv_result *r) {
  chv_session *cs = r->owner;
  struct chv_error err;
  chv_error_clear(&err);
  struct chv_sql_pos pos = r->stmt->pos;
  int rc = sql_exec_stmt(&cs->s, r->stmt, &pos, &err);
  if (rc == CHV_OK && !r->begun) { /* no rows: no columns either */
    struct chv_type *st;
    if (chv_type_new(CHV_TYPE_STRUCT, &st) != CHV_OK)
      rc = sql_err(&err, CHV_ENOMEM, "out of memory");
    else
      rc = sql_out_begin(&cs->s, st, CHV_RESULT_NONE, &err);
  }
  overlay_undo(cs, r);
  pthread_mutex_lock(&r->mu);
  r->rc = rc;
  r->err = err;
  r->err_off = pos.offset;
  r->finished = true;
  pthread_cond_broadcast(&r->cv);
  pthread_mutex_unlock(&r->mu);
}

static void *producer_main(void *arg) {
  run_stmt(arg);
  return NULL;
}

static void result_free(struct chv_result *r) {
  for (int i = 0; i < r->qn; i++) chv_batch_close(r->q[(r->qh + i) % 2]);
  chv_batch_close(r->cur);
  chv_type_free(r->schema);
  chv_arena_close(r->arena);
  pthread_cond_destroy(&r->cv);
  pthread_mutex_destroy(&r->mu);
  chv_free(r);
}

/* The parser's "line L, column C: " prefix, which the offset replaces. */
static void strip_position(struct chv_error *err) {
  if (strncmp(err->msg, "line ", 5)) return;
  const char *p = strstr(err->msg, ": ");
  if (p) memmove(err->msg, p + 2, strlen(p + 2) + 1);
}

int chv_session_query(chv_session *cs, const char *sql,
                      const struct chv_exec_options *opts, chv_result **out,
                      struct chv_error *err) {
  if (out) *out = NULL;
  cs->err_off = 0;
  if (cs->open)
    return sql_err(err, CHV_EBUSY,
                   "the result of the previous statement is still open: read "
                   "it to its end or close it first");
  __atomic_store_n(&cs->s.cancel, 0, __ATOMIC_RELAXED);
  struct chv_result *r = chv_calloc(1, sizeof *r);
  if (!r) return sql_err(err, CHV_ENOMEM, "out of memory");
  pthread_mutex_init(&r->mu, NULL);
  pthread_cond_init(&r->cv, NULL);
  r->owner = cs;
  clock_gettime(CLOCK_MONOTONIC, &r->start);
  r->last = r->start;
  r->prog = (struct chv_progress){-1, -1, -1, -1, 0};
  int rc = chv_arena_open(0, &r->arena);
  if (rc != CHV_OK) {
    result_free(r);
    return sql_err(err, CHV_ENOMEM, "out of memory");
  }
  struct chv_sql_parse_options po = {.dialect = cs->s.dialect};
  struct chv_sql_script *script;
  struct chv_sql_pos epos = {0};
  rc = chv_sql_parse_ex(sql, strlen(sql), &po, r->arena, &script, &epos, err);
  if (rc != CHV_OK) {
    strip_position(err);
    cs->err_off = epos.offset;
    result_free(r);
    return rc;
  }
  if (script->n > 1) {
    cs->err_off = script->stmts[1]->pos.offset;
    result_free(r);
    return sql_err(err, CHV_EINVAL,
                   "more than one statement: a session runs one at a time");
  }
  if (script->n == 0) { /* a comment alone */
    struct chv_type *st;
    if (chv_type_new(CHV_TYPE_STRUCT, &st) != CHV_OK) {
      result_free(r);
      return sql_err(err, CHV_ENOMEM, "out of memory");
    }
    r->schema = st;
    r->kind = CHV_RESULT_NONE;
    r->begun = r->finished = true;
    if (out) {
      cs->open = r;
      *out = r;
    } else {
      result_free(r);
    }
    return CHV_OK;
  }
  r->stmt = script->stmts[0];
  if ((rc = overlay_apply(cs, r, opts, err)) != CHV_OK) {
    cs->err_off = r->stmt->pos.offset;
    overlay_undo(cs, r);
    result_free(r);
    return rc;
  }
  cs->s.res = out ? r : NULL;
  if (!out) { /* on this thread, its output dropped */
    struct chv_sql_pos pos = r->stmt->pos;
    rc = sql_exec_stmt(&cs->s, r->stmt, &pos, err);
    overlay_undo(cs, r);
    cs->err_off = pos.offset;
    result_free(r);
    return rc;
  }
  cs->open = r;
  int prc = pthread_create(&r->thread, NULL, producer_main, r);
  if (prc != 0) { /* run it here, then: the result is whole when it returns */
    run_stmt(r);
  } else {
    r->threaded = true;
  }
  pthread_mutex_lock(&r->mu);
  while (!r->begun && !r->finished) pthread_cond_wait(&r->cv, &r->mu);
  bool failed = r->finished && r->rc != CHV_OK;
  pthread_mutex_unlock(&r->mu);
  if (failed) {
    rc = r->rc;
    *err = r->err;
    cs->err_off = r->err_off;
    chv_result_close(r);
    return rc;
  }
  *out = r;
  return CHV_OK;
}

const struct chv_type *chv_result_schema(const chv_result *r) {
  return r->schema;
}

enum chv_result_kind chv_result_kind(const chv_result *r) { return r->kind; }

const char *chv_result_message(const chv_result *r) { return r->message; }

int chv_result_next(chv_result *r, const struct chv_batch **out,
                    struct chv_error *err) {
  *out = NULL;
  chv_batch_close(r->cur);
  r->cur = NULL;
  pthread_mutex_lock(&r->mu);
  while (r->qn == 0 && !r->finished) pthread_cond_wait(&r->cv, &r->mu);
  int rc = CHV_OK;
  if (r->qn > 0) {
    r->cur = r->q[r->qh];
    r->qh = (r->qh + 1) % 2;
    r->qn--;
    pthread_cond_broadcast(&r->cv);
  } else if (r->rc != CHV_OK) {
    rc = r->rc;
    *err = r->err;
    r->owner->err_off = r->err_off;
  }
  pthread_mutex_unlock(&r->mu);
  *out = r->cur;
  return rc;
}

void chv_result_close(chv_result *r) {
  if (!r) return;
  pthread_mutex_lock(&r->mu);
  r->closed = true;
  pthread_cond_broadcast(&r->cv);
  pthread_mutex_unlock(&r->mu);
  if (r->threaded) pthread_join(r->thread, NULL);
  chv_session *cs = r->owner;
  if (cs->open == r) cs->open = NULL;
  cs->s.res = NULL;
  result_free(r);
}

/* The Arrow stream's source: the result's batches, each handed over. */
static int export_next(void *ctx, struct chv_batch **out,
                       struct chv_error *err) {
  chv_result *r = ctx;
  const struct chv_batch *b;
  int rc = chv_result_next(r, &b, err);
  *out = r->cur;
  r->cur = NULL;
  return rc;
}

static void export_close(void *ctx) { chv_result_close(ctx); }

int chv_result_export(chv_result *r, struct ArrowArrayStream *out,
                      struct chv_error *err) {
  struct chv_batch_source src = {r->schema, export_next, export_close, r};
  return chv_batch_stream_export(src, out, err);
}

int chv_session_exec(chv_session *s, const char *sql,
                     struct ArrowArrayStream *out, struct chv_error *err) {
  chv_result *r;
  int rc = chv_session_query(s, sql, NULL, out ? &r : NULL, err);
  if (rc != CHV_OK || !out) return rc;
  return chv_result_export(r, out, err);
}

int chv_session_cancel(chv_session *s) {
  __atomic_store_n(&s->s.cancel, 1, __ATOMIC_RELAXED);
  return CHV_OK;
}

size_t chv_session_error_offset(const chv_session *s) { return s->err_off; }

/* ---- opening, options ---------------------------------------------------- */

static void default_warning(void *ctx, const char *msg) {
  (void)ctx;
  fflush(stdout);
  fprintf(stderr, "chive: warning: %s\n", msg);
}

static void default_notice(void *ctx, const char *msg) {
  (void)ctx;
  fprintf(stderr, "chive: %s\n", msg);
}

int chv_session_open(const struct chv_session_options *opts,
                     chv_session **out, struct chv_error *err) {
  *out = NULL;
  struct chv_session_options none = {0};
  if (!opts) opts = &none;
  chv_session *cs = chv_calloc(1, sizeof *cs);
  if (!cs) return sql_err(err, CHV_ENOMEM, "out of memory");
  cs->opts = *opts;
  struct sql_session *s = &cs->s;
  strcpy(s->db, "default");
  s->dialect = opts->dialect;
  s->notice = opts->notice ? opts->notice : default_notice;
  s->notice_ctx = opts->ctx;
  s->progress = opts->progress;
  s->progress_ctx = opts->ctx;
  int rc = chv_config_open(&s->cfg, err);
  if (rc != CHV_OK) goto fail;
  chv_config_set_warning_handler(
      s->cfg, opts->warning ? opts->warning : default_warning, opts->ctx);
  if (opts->conf_file &&
      (rc = chv_config_load_file(s->cfg, opts->conf_file, err)) != CHV_OK)
    goto fail;
  const char *wh = opts->warehouse ? opts->warehouse : "./warehouse";
  chv_catalog *cat;
  rc = chv_catalog_open(wh, NULL, &cat, err);
  if (rc == CHV_OK) {
    s->cats[0].cat = cat;
    s->ncats = 1;
    rc = sql_recover(s, cat, err);
  }
  if (rc != CHV_OK) {
    chv_error_wrap(err, "opening the warehouse %s", wh);
    goto fail;
  }
  strcpy(s->cats[0].name, SQL_CATALOG_NAME);
  strcpy(s->cats[0].default_db, "default");
  sql_catalog_use(s, 0);
  *out = cs;
  return CHV_OK;
fail:
  chv_session_close(cs);
  return rc;
}

void chv_session_close(chv_session *cs) {
  if (!cs) return;
  chv_result_close(cs->open);
  struct sql_session *s = &cs->s;
  for (int i = 0; i < s->ncats; i++) chv_catalog_close(s->cats[i].cat);
  chv_config_close(s->cfg);
  for (int i = 0; i < s->nset_keys; i++) chv_free(s->set_keys[i]);
  chv_free(s->set_keys);
  chv_free(cs);
}

/* 'text' with quotes doubled, for a SET statement. */
static int quote(struct chv_buf *b, const char *text) {
  chv_buf_putc(b, '\'');
  for (const char *p = text; *p; p++) {
    if (*p == '\'') chv_buf_putc(b, '\'');
    chv_buf_putc(b, *p);
  }
  return chv_buf_putc(b, '\'');
}

int chv_session_set(chv_session *s, const char *key, const char *value,
                    struct chv_error *err) {
  struct chv_buf b;
  chv_buf_init(&b);
  chv_buf_puts(&b, "SET ");
  quote(&b, key);
  chv_buf_puts(&b, " = ");
  if (quote(&b, value ? value : "") != CHV_OK) {
    chv_buf_free(&b);
    return sql_err(err, CHV_ENOMEM, "out of memory");
  }
  int rc = chv_session_query(s, b.data, NULL, NULL, err);
  chv_buf_free(&b);
  return rc;
}

int chv_session_get(chv_session *s, const char *key, char **value,
                    struct chv_error *err) {
  *value = NULL;
  if (s->open)
    return sql_err(err, CHV_EBUSY,
                   "the result of the previous statement is still open");
  enum chv_config_layer layer;
  const char *v = chv_config_lookup(s->s.cfg, key, &layer);
  if (!v) {
    const struct chv_option *o = chv_option_find(key);
    if (!o) return sql_err(err, CHV_ENOENT, "unknown option '%s'", key);
    v = o->default_text ? o->default_text : "";
  }
  if (!(*value = chv_strdup(v))) return sql_err(err, CHV_ENOMEM, "out of memory");
  return CHV_OK;
}

const char *chv_session_catalog(const chv_session *s) {
  return s->s.cats[s->s.cur].name;
}

const char *chv_session_database(const chv_session *s) { return s->s.db; }

enum chv_sql_dialect chv_session_dialect(const chv_session *s) {
  return s->s.dialect;
}
