/*
** Fuzz target: SQL scripts (what a shell user or HiveServer2 client sends).
** Any input must parse or fail with CHV_ESYNTAX (or CHV_ENOMEM) without a
** crash; a parsed script must print; the splitter must agree on
** completeness with itself and never crash; a parsed query formatted back
** to SQL reads back into the same tree.  The first byte picks the dialect
** the script starts in.
*/
#include "chive/sql.h"
#include "common/common.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A query formatted back to SQL (chv_sql_query_format()) reads, in the
** Hive dialect, into the same tree. */
static void round_trip(const struct chv_sql_stmt *st) {
  struct chv_buf text, want, got;
  chv_buf_init(&text);
  chv_buf_init(&want);
  chv_buf_init(&got);
  chv_arena *a = NULL;
  if (chv_arena_open(0, &a) != CHV_OK ||
      chv_sql_query_format(st->query, &text) != CHV_OK ||
      chv_sql_ast_print(st, &want) != CHV_OK)
    goto out; /* out of memory */
  struct chv_sql_script *s = NULL;
  struct chv_error err;
  struct chv_sql_parse_options o = {CHV_SQL_DIALECT_HIVE, 0};
  int rc = chv_sql_parse_ex(text.data, text.len, &o, a, &s, NULL, &err);
  if (rc == CHV_ENOMEM) goto out;
  if (rc != CHV_OK || s->n != 1 || s->stmts[0]->kind != CHV_SQL_STMT_QUERY)
    abort();
  if (chv_sql_ast_print(s->stmts[0], &got) != CHV_OK) goto out;
  if (got.len != want.len || memcmp(got.data, want.data, got.len)) abort();
out:
  chv_arena_close(a);
  chv_buf_free(&text);
  chv_buf_free(&want);
  chv_buf_free(&got);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  struct chv_sql_parse_options opts = {
      (data[0] & 1) ? CHV_SQL_DIALECT_HIVE : CHV_SQL_DIALECT_DEFAULT, 0};
  const char *sql = (const char *)data + 1;
  size_t len = size - 1;
  /* an exact-size copy, so reading past len is caught */
  char *copy = malloc(len ? len : 1);
  if (copy == NULL) return 0;
  memcpy(copy, sql, len);
  chv_arena *a = NULL;
  if (chv_arena_open(0, &a) != CHV_OK) {
    free(copy);
    return 0;
  }
  struct chv_sql_script *s = NULL;
  struct chv_error err;
  struct chv_sql_pos pos = {0, 0, 0};
  int rc = chv_sql_parse_ex(copy, len, &opts, a, &s, &pos, &err);
  if (rc == CHV_OK) {
    struct chv_buf b;
    chv_buf_init(&b);
    for (size_t i = 0; i < s->n; i++) {
      if (chv_sql_ast_print(s->stmts[i], &b) != CHV_OK) abort();
      chv_buf_reset(&b);
      if (s->stmts[i]->kind == CHV_SQL_STMT_QUERY && !s->stmts[i]->first_hint.line)
        round_trip(s->stmts[i]);
    }
    chv_buf_free(&b);
  } else {
    if (rc != CHV_ESYNTAX && rc != CHV_ENOMEM) abort();
    if (rc == CHV_ESYNTAX && (pos.line < 1 || pos.column < 1 ||
                              pos.offset > len))
      abort();
  }
  struct chv_sql_piece *pieces = NULL;
  size_t n = 0;
  bool complete = false;
  if (chv_sql_split(copy, len, opts.dialect, a, &pieces, &n, &complete,
                    &err) == CHV_OK) {
    for (size_t i = 0; i < n; i++)
      if (pieces[i].text < copy || pieces[i].text + pieces[i].len > copy + len)
        abort();
  }
  chv_arena_close(a);
  free(copy);
  return 0;
}
