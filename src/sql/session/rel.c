/*
** sql/session/rel: the description of a derived relation (the rows of a
** sub-query in FROM, of a WITH query, of a view, of a UNION): its columns
** as a table of no partitions (db ""), named by its alias, which the
** binder binds the outer query over.  The rows themselves stream through
** the plan's Derived node (build.c).
**
** INTERFACE
**   sql_rel_open()/sql_rel_close()   a relation of a given STRUCT schema
**   sql_rel_rename()                 a column renamed (a view's names)
**   sql_table_what()                 how errors name a table or relation
*/
#include "sql/session/session_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int sql_rel_open(const char *name, const char *what, struct chv_type *schema,
                 struct sql_rel **out, struct chv_error *err) {
  struct sql_rel *r = calloc(1, sizeof *r);
  if (!r) {
    chv_type_free(schema);
    return sql_err(err, CHV_ENOMEM, "out of memory");
  }
  r->schema = schema;
  snprintf(r->what, sizeof r->what, "%s", what);
  int n = schema->nchildren;
  r->t.name = strdup(name);
  r->t.db = strdup("");
  r->t.columns = calloc((size_t)n + 1, sizeof *r->t.columns);
  if (!r->t.name || !r->t.db || !r->t.columns) goto oom;
  r->t.ncols = n;
  for (int c = 0; c < n; c++) {
    struct chv_buf tb;
    chv_buf_init(&tb);
    char *cn = strdup(schema->names[c]);
    if (!cn || chv_type_format(schema->children[c], &tb) != CHV_OK) {
      free(cn);
      chv_buf_free(&tb);
      goto oom;
    }
    for (char *p = cn; *p; p++) *p = (char)tolower((unsigned char)*p);
    r->t.columns[c].name = cn;
    r->t.columns[c].type = tb.data; /* the buffer's bytes, now owned */
  }
  *out = r;
  return CHV_OK;
oom:
  sql_rel_close(r);
  return sql_err(err, CHV_ENOMEM, "out of memory");
}

void sql_rel_close(struct sql_rel *r) {
  if (!r) return;
  for (int c = 0; r->t.columns && c < r->t.ncols; c++) {
    free(r->t.columns[c].name);
    free(r->t.columns[c].type);
  }
  free(r->t.columns);
  free(r->t.name);
  free(r->t.db);
  chv_type_free(r->schema);
  free(r);
}

int sql_rel_rename(struct sql_rel *r, int c, const char *name,
                   struct chv_error *err) {
  char *tn = strdup(name), *sn = chv_strdup(name);
  if (!tn || !sn) {
    free(tn);
    chv_free(sn);
    return sql_err(err, CHV_ENOMEM, "out of memory");
  }
  for (char *p = tn; *p; p++) *p = (char)tolower((unsigned char)*p);
  free(r->t.columns[c].name);
  r->t.columns[c].name = tn;
  chv_free(r->schema->names[c]);
  r->schema->names[c] = sn;
  return CHV_OK;
}

const char *sql_table_what(const struct chv_table *t, char *buf, size_t n) {
  if (t->db && !t->db[0]) /* a relation's: t is its first member */
    return ((const struct sql_rel *)(const void *)t)->what;
  snprintf(buf, n, "%s.%s", t->db ? t->db : "", t->name ? t->name : "");
  return buf;
}
