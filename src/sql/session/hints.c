/*
** sql/session/hints: Flink's dynamic table options, /\*+ OPTIONS('k'='v',
** ...) *\/ after a table name in FROM (a read) or after the target of an
** INSERT (a write).  They are table options for that statement only: the
** connector puts them over the table's properties for that scan or write
** (chv_scan_options and chv_sink_options .table_options) and stores
** nothing.
**
** A hint's keys are validated as table options are, but strictly: an
** unknown key is an error with the closest registered key, and so is a
** registered key that is no table option (a job option belongs in SET) or
** a value that does not parse; each error points at the key in the hint.
** table.dynamic-table-options.enabled (default true, as in Flink 1.15 and
** later) gates them all.  Every other hint (a query hint such as
** /\*+ BROADCAST(t) *\/, LOOKUP(...) on a table, a hint after the last
** token) is refused as before, so that none is ever ignored.
**
** INTERFACE
**   sql_hints_check()    what the statement's hints allow, before it runs
**   sql_hint_options()   a table's OPTIONS, validated, as key/value pairs
**   sql_hint_text()      the pairs as EXPLAIN prints them
*/
#include "sql/session/session_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static int not_supported(struct chv_error *err) {
  return sql_err(err, CHV_ENOTSUP,
                 "hints (/*+ ... */) are not supported yet, and this one "
                 "would be ignored; remove it, or write a plain comment "
                 "/* ... */");
}

/* What the walk found: the first OPTIONS hint. */
struct walk {
  struct chv_sql_pos first_options;
  struct chv_sql_pos *pos;
  struct chv_error *err;
};

static int walk_hints(struct walk *w, const struct chv_sql_hints *h) {
  for (size_t i = 0; i < h->n; i++) {
    if (strcasecmp(h->items[i].name, "OPTIONS")) {
      *w->pos = h->items[i].pos;
      return not_supported(w->err);
    }
    if (!w->first_options.line) w->first_options = h->items[i].pos;
  }
  return CHV_OK;
}

static int walk_query(struct walk *w, const struct chv_sql_query *q);

static int walk_from(struct walk *w, const struct chv_sql_from *f) {
  if (!f) return CHV_OK;
  switch (f->kind) {
  case CHV_SQL_FROM_TABLE:
    return walk_hints(w, &f->hints);
  case CHV_SQL_FROM_SUBQUERY:
    CHV_RETURN_IF_ERR(walk_query(w, f->subquery));
    return walk_hints(w, &f->hints);
  case CHV_SQL_FROM_JOIN:
    CHV_RETURN_IF_ERR(walk_from(w, f->left));
    return walk_from(w, f->right);
  }
  return CHV_OK;
}

static int walk_query(struct walk *w, const struct chv_sql_query *q) {
  if (!q) return CHV_OK;
  for (size_t i = 0; i < q->nctes; i++)
    CHV_RETURN_IF_ERR(walk_query(w, q->ctes[i].query));
  if (q->kind == CHV_SQL_QUERY_UNION) {
    CHV_RETURN_IF_ERR(walk_query(w, q->left));
    return walk_query(w, q->right);
  }
  return walk_from(w, q->from);
}

static int walk_stmt(struct walk *w, const struct chv_sql_stmt *st) {
  if (!st) return CHV_OK;
  switch (st->kind) {
  case CHV_SQL_STMT_INSERT:
    CHV_RETURN_IF_ERR(walk_hints(w, &st->hints));
    return walk_query(w, st->query);
  case CHV_SQL_STMT_INSERT_DIRECTORY:
  case CHV_SQL_STMT_QUERY:
    return walk_query(w, st->query);
  case CHV_SQL_STMT_MULTI_INSERT:
    CHV_RETURN_IF_ERR(walk_from(w, st->source));
    for (size_t i = 0; i < st->ninserts; i++)
      CHV_RETURN_IF_ERR(walk_stmt(w, st->inserts[i]));
    return CHV_OK;
  case CHV_SQL_STMT_EXPLAIN:
    return walk_stmt(w, st->explained);
  case CHV_SQL_STMT_CREATE_TABLE:
    return st->create_table ? walk_query(w, st->create_table->as_query)
                            : CHV_OK;
  default:
    return CHV_OK;
  }
}

int sql_hints_check(struct sql_session *s, const struct chv_sql_stmt *st,
                    struct chv_sql_pos *pos, struct chv_error *err) {
  if (st->stray_hint.line) {
    *pos = st->stray_hint;
    return not_supported(err);
  }
  if (!st->first_hint.line) return CHV_OK;
  struct walk w = {.pos = pos, .err = err};
  CHV_RETURN_IF_ERR(walk_stmt(&w, st));
  if (!w.first_options.line) return CHV_OK;
  bool on = true;
  struct chv_error e;
  if (chv_config_get_bool(s->cfg, "table.dynamic-table-options.enabled", &on,
                          &e) != CHV_OK)
    on = true; /* the registry's default */
  if (!on) {
    *pos = w.first_options;
    return sql_err(err, CHV_EINVAL,
                   "OPTIONS hints are disabled: "
                   "table.dynamic-table-options.enabled is false (SET "
                   "'table.dynamic-table-options.enabled' = 'true' to use "
                   "them)");
  }
  return CHV_OK;
}

/* The name of the lowest scope bit of opt, for "a job option". */
static const char *scope_of(const struct chv_option *opt) {
  for (unsigned b = 1; b; b <<= 1)
    if (opt->scope & b) return chv_opt_scope_name(b);
  return "other";
}

int sql_hint_options(struct sql_session *s, const struct chv_sql_props *props,
                     const char *what, bool read, chv_arena *a,
                     struct chv_kv **out, int *n, struct chv_sql_pos *pos,
                     struct chv_error *err) {
  *out = NULL;
  *n = 0;
  if (!props->n) return CHV_OK;
  struct chv_kv *kv = chv_arena_alloc(a, sizeof *kv * (props->n + 1));
  if (!kv) return sql_err(err, CHV_ENOMEM, "out of memory");
  int m = 0;
  for (size_t i = 0; i < props->n; i++) {
    const struct chv_sql_prop *p = &props->items[i];
    *pos = p->pos;
    if (!p->value)
      return sql_err(err, CHV_EINVAL,
                     "OPTIONS hint on %s: '%s' has no value (write "
                     "'%s'='value')",
                     what, p->key, p->key);
    const struct chv_option *opt = chv_option_find(p->key);
    if (!opt) {
      const char *near = chv_option_suggest(p->key);
      if (near)
        return sql_err(err, CHV_ENOENT,
                       "OPTIONS hint on %s: unknown table option '%s'; did "
                       "you mean '%s'?",
                       what, p->key, near);
      return sql_err(err, CHV_ENOENT,
                     "OPTIONS hint on %s: unknown table option '%s' "
                     "('chive options' lists the known ones)",
                     what, p->key);
    }
    if (!(opt->scope & (CHV_SCOPE_TABLE | CHV_SCOPE_FORMAT)))
      return sql_err(err, CHV_EINVAL,
                     "OPTIONS hint on %s: '%s' is a %s option, not a table "
                     "option; set it for the session with SET '%s' = '...'",
                     what, p->key, scope_of(opt), opt->key);
    struct chv_opt_value v;
    chv_opt_value_init(&v);
    int rc = chv_option_parse(opt, p->value, &v, err);
    bool streaming = rc == CHV_OK && opt->type == CHV_OPT_BOOL && v.b &&
                     !strcmp(opt->key, "streaming-source.enable");
    chv_opt_value_free(&v);
    if (rc != CHV_OK) return chv_error_wrap(err, "OPTIONS hint on %s", what);
    if (streaming && read)
      return sql_err(err, CHV_ENOTSUP,
                     "OPTIONS hint on %s: 'streaming-source.enable'='%s' "
                     "asks for a streaming read, which chive does not run "
                     "yet (a read is a batch read)",
                     what, p->value);
    char warn[256];
    if (chv_option_warning(p->key, p->value, warn, sizeof warn))
      chv_config_warn(s->cfg, p->key, p->value, "OPTIONS hint");
    kv[m].key = (char *)p->key;
    kv[m].value = (char *)p->value;
    m++;
  }
  *out = kv;
  *n = m;
  return CHV_OK;
}

void sql_hint_text(const struct chv_kv *kv, int n, struct chv_buf *b) {
  if (n == 0) return;
  chv_buf_puts(b, "options=(");
  for (int i = 0; i < n; i++) {
    if (i) chv_buf_puts(b, ", ");
    chv_buf_printf(b, "'%s'='%s'", kv[i].key, kv[i].value);
  }
  chv_buf_putc(b, ')');
}
