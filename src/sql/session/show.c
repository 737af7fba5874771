/*
** sql/session/show: SHOW CREATE TABLE, the DDL that makes the table again, in
** the layout Hive prints (one row per line, column createtab_stmt):
**
**   CREATE [EXTERNAL] TABLE `db`.`t`(
**     `a` int COMMENT '...',
**     `b` string)
**   COMMENT '...'
**   PARTITIONED BY (
**     `dt` string)
**   ROW FORMAT SERDE
**     'org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe'
**   WITH SERDEPROPERTIES (
**     'field.delim'=',')
**   STORED AS INPUTFORMAT
**     '...'
**   OUTPUTFORMAT
**     '...'
**   LOCATION
**     '...'
**   TBLPROPERTIES (
**     'k'='v')
**
** A view prints as CREATE VIEW `db`.`v` AS <its expanded text>, as Hive
** prints it (show_create_view()).
**
** Strings are quoted as the Hive dialect reads them: \' and \\, control
** characters as \uXXXX.  Statistics and bookkeeping parameters (numRows,
** transient_lastDdlTime, ...) are left out, so that running the statement
** gives a table that does not claim rows it lacks.
*/
#include "sql/session/session_int.h"

#include <string.h>

static void quote(struct chv_buf *b, const char *s) {
  chv_buf_putc(b, '\'');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '\'' || *p == '\\') {
      chv_buf_putc(b, '\\');
      chv_buf_putc(b, (char)*p);
    } else if (*p < 0x20 || *p == 0x7f) {
      chv_buf_printf(b, "\\u%04x", *p);
    } else {
      chv_buf_putc(b, (char)*p);
    }
  }
  chv_buf_putc(b, '\'');
}

static void ident(struct chv_buf *b, const char *s) {
  chv_buf_putc(b, '`');
  for (; *s; s++) {
    if (*s == '`') chv_buf_putc(b, '`');
    chv_buf_putc(b, *s);
  }
  chv_buf_putc(b, '`');
}

static bool hidden_param(const char *key) {
  static const char *const skip[] = {
      "numRows", "numFiles", "totalSize", "rawDataSize", "numFilesErasureCoded",
      "COLUMN_STATS_ACCURATE", "transient_lastDdlTime", "EXTERNAL", "comment",
      "last_modified_by", "last_modified_time"};
  for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
    if (!strcmp(key, skip[i])) return true;
  return false;
}

/* Ends the line being built in b as a result row. */
static int line(struct sql_result *r, struct chv_buf *b) {
  const char *cell = b->data ? b->data : "";
  int rc = sql_result_add(r, &cell);
  chv_buf_reset(b);
  return rc;
}

static int columns(struct sql_result *r, struct chv_buf *b,
                   const struct chv_column *c, int n) {
  int rc = CHV_OK;
  for (int i = 0; i < n && rc == CHV_OK; i++) {
    chv_buf_puts(b, "  ");
    ident(b, c[i].name);
    chv_buf_printf(b, " %s", c[i].type);
    if (c[i].comment && *c[i].comment) {
      chv_buf_puts(b, " COMMENT ");
      quote(b, c[i].comment);
    }
    if (i + 1 < n) chv_buf_putc(b, ',');
    else chv_buf_putc(b, ')');
    rc = line(r, b);
  }
  return rc;
}

static int kv_list(struct sql_result *r, struct chv_buf *b,
                   const struct chv_kv *kv, int n, bool params) {
  int last = -1;
  for (int i = 0; i < n; i++)
    if (!params || !hidden_param(kv[i].key)) last = i;
  int rc = CHV_OK;
  for (int i = 0; i <= last && rc == CHV_OK; i++) {
    if (params && hidden_param(kv[i].key)) continue;
    chv_buf_puts(b, "  ");
    quote(b, kv[i].key);
    chv_buf_putc(b, '=');
    quote(b, kv[i].value ? kv[i].value : "");
    chv_buf_putc(b, i == last ? ')' : ',');
    rc = line(r, b);
  }
  return rc;
}

static int show_create(struct sql_result *r, const struct chv_table *t) {
  struct chv_buf b;
  chv_buf_init(&b);
  int rc;
  chv_buf_puts(&b, t->type == CHV_EXTERNAL_TABLE ? "CREATE EXTERNAL TABLE "
                                                 : "CREATE TABLE ");
  ident(&b, t->db);
  chv_buf_putc(&b, '.');
  ident(&b, t->name);
  chv_buf_putc(&b, '(');
  rc = line(r, &b);
  if (rc == CHV_OK) rc = columns(r, &b, t->columns, t->ncols);
  const char *comment = chv_kv_get(t->params, t->nparams, "comment");
  if (rc == CHV_OK && comment) {
    chv_buf_puts(&b, "COMMENT ");
    quote(&b, comment);
    rc = line(r, &b);
  }
  if (rc == CHV_OK && t->npkeys) {
    chv_buf_puts(&b, "PARTITIONED BY (");
    rc = line(r, &b);
    if (rc == CHV_OK) rc = columns(r, &b, t->pkeys, t->npkeys);
  }
  const char *serde = t->serde_lib
                          ? t->serde_lib
                          : "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe";
  const char *in = t->input_format ? t->input_format
                                   : "org.apache.hadoop.mapred.TextInputFormat";
  const char *outf =
      t->output_format
          ? t->output_format
          : "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";
  struct { const char *head, *value; } lines[] = {
      {"ROW FORMAT SERDE", serde}, {NULL, NULL},
      {"STORED AS INPUTFORMAT", in}, {"OUTPUTFORMAT", outf},
      {"LOCATION", t->location}};
  for (size_t i = 0; rc == CHV_OK && i < sizeof lines / sizeof lines[0]; i++) {
    if (!lines[i].head) { /* the SerDe's properties */
      if (t->nserde_params) {
        chv_buf_puts(&b, "WITH SERDEPROPERTIES (");
        rc = line(r, &b);
        if (rc == CHV_OK)
          rc = kv_list(r, &b, t->serde_params, t->nserde_params, false);
      }
      continue;
    }
    if (!lines[i].value) continue;
    chv_buf_puts(&b, lines[i].head);
    rc = line(r, &b);
    chv_buf_puts(&b, "  ");
    quote(&b, lines[i].value);
    if (rc == CHV_OK) rc = line(r, &b);
  }
  bool any = false;
  for (int i = 0; i < t->nparams; i++) any |= !hidden_param(t->params[i].key);
  if (rc == CHV_OK && any) {
    chv_buf_puts(&b, "TBLPROPERTIES (");
    rc = line(r, &b);
    if (rc == CHV_OK) rc = kv_list(r, &b, t->params, t->nparams, true);
  }
  chv_buf_free(&b);
  return rc;
}

/* A view: CREATE VIEW `db`.`v` AS <expanded text>, as Hive prints it, with
** the lines that keep what the text does not (a column list when a column
** has a comment, COMMENT, TBLPROPERTIES) before AS. */
static int show_create_view(struct sql_result *r, const struct chv_table *t) {
  struct chv_buf b;
  chv_buf_init(&b);
  chv_buf_puts(&b, "CREATE VIEW ");
  ident(&b, t->db);
  chv_buf_putc(&b, '.');
  ident(&b, t->name);
  bool comments = false, any = false;
  for (int i = 0; i < t->ncols; i++)
    comments |= t->columns[i].comment && *t->columns[i].comment;
  for (int i = 0; i < t->nparams; i++) any |= !hidden_param(t->params[i].key);
  const char *comment = chv_kv_get(t->params, t->nparams, "comment");
  int rc = CHV_OK;
  if (comments || comment || any) {
    if (comments) chv_buf_putc(&b, '(');
    rc = line(r, &b);
    for (int i = 0; comments && rc == CHV_OK && i < t->ncols; i++) {
      chv_buf_puts(&b, "  ");
      ident(&b, t->columns[i].name);
      if (t->columns[i].comment && *t->columns[i].comment) {
        chv_buf_puts(&b, " COMMENT ");
        quote(&b, t->columns[i].comment);
      }
      chv_buf_putc(&b, i + 1 < t->ncols ? ',' : ')');
      rc = line(r, &b);
    }
    if (rc == CHV_OK && comment) {
      chv_buf_puts(&b, "COMMENT ");
      quote(&b, comment);
      rc = line(r, &b);
    }
    if (rc == CHV_OK && any) {
      chv_buf_puts(&b, "TBLPROPERTIES (");
      rc = line(r, &b);
      if (rc == CHV_OK) rc = kv_list(r, &b, t->params, t->nparams, true);
    }
    chv_buf_puts(&b, "AS ");
  } else {
    chv_buf_puts(&b, " AS ");
  }
  chv_buf_puts(&b, t->view_expanded_text ? t->view_expanded_text : "");
  if (rc == CHV_OK) rc = line(r, &b);
  chv_buf_free(&b);
  return rc;
}

int sql_show_create_table(struct sql_session *s, const struct chv_sql_stmt *st,
                          struct chv_sql_pos *pos, struct chv_error *err) {
  chv_catalog *cat;
  struct chv_table t;
  *pos = st->name.pos;
  int rc = sql_get_table(s, &st->name, &cat, &t, err);
  if (rc != CHV_OK) return rc;
  struct sql_result r;
  sql_result_init(&r);
  const char *head = "createtab_stmt";
  rc = sql_result_columns(&r, 1, &head);
  if (rc == CHV_OK)
    rc = t.type == CHV_VIRTUAL_VIEW ? show_create_view(&r, &t)
                                    : show_create(&r, &t);
  if (rc == CHV_OK) rc = sql_result_emit(s, &r, err);
  else rc = sql_err(err, rc, "out of memory");
  sql_result_free(&r);
  chv_table_free(&t);
  return rc;
}
