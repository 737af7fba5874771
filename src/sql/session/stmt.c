/*
** sql/session/stmt: one parsed statement of `chive sql` run against the
** embedded catalog: catalogs and databases, CREATE/DROP/ALTER TABLE in the
** Hive and the Flink forms (Flink type spellings mapped to Hive types
** before chv_type_parse()), partitions, MSCK REPAIR, TRUNCATE, DESCRIBE,
** SHOW and SET/RESET in the session layer of the configuration.  Table
** properties that are registered options are validated with
** chv_option_parse().  INSERT, SELECT, EXPLAIN and LOAD DATA are in
** dml.c, INSERT OVERWRITE DIRECTORY in dir.c, the multi-insert in multi.c,
** CREATE and ALTER VIEW and the checks of what a statement names (a table
** or a view) in views.c; hints are checked (hints.c) before any statement
** runs.  What is not supported yet fails with an error naming it.
*/
#include "sql/session/session_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void lower(char *s) {
  for (; *s; s++) *s = (char)tolower((unsigned char)*s);
}

static int catalog_of(struct sql_session *s, const char *name,
                      chv_catalog **cat, struct chv_error *err) {
  int i = sql_catalog_find(s, name);
  if (i < 0) return sql_err(err, CHV_ENOENT, "catalog '%s' does not exist", name);
  *cat = s->cats[i].cat;
  return CHV_OK;
}

int sql_resolve(struct sql_session *s, const struct chv_sql_name *n,
                chv_catalog **cat, const char **db, const char **table,
                struct chv_error *err) {
  *cat = s->cat;
  if (n->nparts == 3 && catalog_of(s, n->parts[0], cat, err) != CHV_OK)
    return err->code;
  *db = n->nparts >= 2 ? n->parts[n->nparts - 2] : s->db;
  *table = n->parts[n->nparts - 1];
  return CHV_OK;
}

int sql_get_table(struct sql_session *s, const struct chv_sql_name *n,
                  chv_catalog **cat, struct chv_table *t,
                  struct chv_error *err) {
  const char *db = NULL, *name = NULL;
  int rc = sql_resolve(s, n, cat, &db, &name, err);
  if (rc == CHV_OK) rc = chv_catalog_get_table(*cat, db, name, t, err);
  return rc;
}

/* The database a one- or two-part name names (catalog.db or db). */
static int resolve_db(struct sql_session *s, const struct chv_sql_name *n,
                      chv_catalog **cat, const char **db,
                      struct chv_error *err) {
  *cat = s->cat;
  if (n->nparts == 2 && catalog_of(s, n->parts[0], cat, err) != CHV_OK)
    return err->code;
  *db = n->parts[n->nparts - 1];
  return CHV_OK;
}


int sql_part_values(const struct chv_table *t,
                    const struct chv_sql_part_spec *spec, chv_arena *a,
                    char ***values, struct chv_sql_pos *pos,
                    struct chv_error *err) {
  char **v = chv_arena_alloc(a, sizeof *v * (size_t)(t->npkeys + 1));
  bool *seen = chv_arena_alloc(a, (size_t)t->npkeys + 1);
  if (!v || !seen) return sql_err(err, CHV_ENOMEM, "out of memory");
  memset(seen, 0, (size_t)t->npkeys + 1);
  if (t->npkeys == 0)
    return sql_err(err, CHV_EINVAL, "table %s.%s is not partitioned", t->db,
                   t->name);
  for (size_t i = 0; i < spec->n; i++) {
    const struct chv_sql_part_kv *kv = &spec->items[i];
    int k = 0;
    while (k < t->npkeys && strcasecmp(t->pkeys[k].name, kv->key)) k++;
    *pos = kv->pos;
    if (k == t->npkeys)
      return sql_err(err, CHV_EINVAL, "table %s.%s has no partition key '%s'",
                     t->db, t->name, kv->key);
    if (seen[k])
      return sql_err(err, CHV_EINVAL, "partition key '%s' given twice",
                     kv->key);
    if (!kv->value)
      return sql_err(err, CHV_EINVAL,
                     "partition key '%s' needs a value here", kv->key);
    const char *text;
    int rc = sql_check_part_value(&t->pkeys[k], kv->value, a, pos, err);
    if (rc == CHV_OK) rc = sql_literal_text(kv->value, a, &text, err);
    if (rc != CHV_OK) return rc;
    seen[k] = true;
    v[k] = (char *)text;
  }
  for (int k = 0; k < t->npkeys; k++)
    if (!seen[k]) {
      *pos = spec->pos;
      return sql_err(err, CHV_EINVAL,
                     "the partition spec of %s.%s lacks key '%s'", t->db,
                     t->name, t->pkeys[k].name);
    }
  *values = v;
  return CHV_OK;
}

int sql_part_spec_filter(const struct chv_table *t,
                         const struct chv_sql_part_spec *spec, bool dynamic,
                         chv_arena *a, struct chv_part_filter **out,
                         struct chv_sql_pos *pos, struct chv_error *err) {
  struct chv_part_filter *f = NULL;
  *out = NULL;
  if (spec->n == 0) return CHV_OK;
  *pos = spec->pos;
  if (t->npkeys == 0)
    return sql_err(err, CHV_EINVAL, "table %s.%s is not partitioned", t->db,
                   t->name);
  for (size_t i = 0; i < spec->n; i++) {
    const struct chv_sql_part_kv *kv = &spec->items[i];
    int k = 0;
    while (k < t->npkeys && strcasecmp(t->pkeys[k].name, kv->key)) k++;
    *pos = kv->pos;
    if (k == t->npkeys)
      return sql_err(err, CHV_EINVAL, "table %s.%s has no partition key '%s'",
                     t->db, t->name, kv->key);
    for (size_t j = 0; j < i; j++)
      if (!strcasecmp(spec->items[j].key, kv->key))
        return sql_err(err, CHV_EINVAL, "partition key '%s' given twice",
                       kv->key);
    if (!kv->value && dynamic) continue; /* every value */
    if (!kv->value)
      return sql_err(err, CHV_EINVAL,
                     "partition key '%s' needs a value here", kv->key);
    const char *text;
    int rc = sql_check_part_value(&t->pkeys[k], kv->value, a, pos, err);
    if (rc == CHV_OK) rc = sql_literal_text(kv->value, a, &text, err);
    if (rc != CHV_OK) return rc;
    struct chv_part_filter *c =
        text ? chv_pf_cmp(a, t->pkeys[k].name, CHV_PF_EQ, text)
             : chv_pf_is_null(a, t->pkeys[k].name, false);
    f = f ? chv_pf_and(a, f, c) : c;
    if (!f) return sql_err(err, CHV_ENOMEM, "out of memory");
  }
  *out = f;
  return CHV_OK;
}

/* ---- results of one column ---------------------------------------------- */

static int print_names(struct sql_session *s, const char *title, char **names,
                       int n, struct chv_error *err) {
  struct sql_result r;
  sql_result_init(&r);
  int rc = sql_result_columns(&r, 1, &title);
  for (int i = 0; rc == CHV_OK && i < n; i++)
    rc = sql_result_add(&r, (const char *const *)&names[i]);
  if (rc == CHV_OK) rc = sql_result_emit(s, &r, err);
  else rc = sql_err(err, CHV_ENOMEM, "out of memory");
  sql_result_free(&r);
  return rc;
}

static void print_ok(struct sql_session *s, const char *what) {
  sql_out_message(s, "%s", what);
}

/* ---- Flink type spellings -------------------------------------------------- */

struct tmap {
  const char *p; /* cursor in the source type text */
  struct chv_buf *out;
  const char *bad; /* what failed */
};

static void tm_space(struct tmap *m) {
  while (isspace((unsigned char)*m->p)) m->p++;
}

static size_t tm_word(struct tmap *m, char *w, size_t cap) {
  tm_space(m);
  size_t n = 0;
  if (*m->p == '`') {
    m->p++;
    while (*m->p && *m->p != '`') {
      if (n + 1 < cap) w[n++] = *m->p;
      m->p++;
    }
    if (*m->p == '`') m->p++;
  } else {
    while (isalnum((unsigned char)*m->p) || *m->p == '_') {
      if (n + 1 < cap) w[n++] = *m->p;
      m->p++;
    }
  }
  w[n] = '\0';
  return n;
}

static bool tm_peek(struct tmap *m, char c) {
  tm_space(m);
  return *m->p == c;
}

static bool tm_keyword(struct tmap *m, const char *kw) {
  tm_space(m);
  size_t n = strlen(kw);
  if (strncasecmp(m->p, kw, n) || isalnum((unsigned char)m->p[n]) ||
      m->p[n] == '_')
    return false;
  m->p += n;
  return true;
}

/* Copies "(...)" (without nesting) to the output unless drop. */
static void tm_parens(struct tmap *m, bool drop) {
  if (!tm_peek(m, '(')) return;
  while (*m->p && *m->p != ')') {
    if (!drop && !isspace((unsigned char)*m->p)) chv_buf_putc(m->out, *m->p);
    m->p++;
  }
  if (*m->p == ')') {
    if (!drop) chv_buf_putc(m->out, ')');
    m->p++;
  }
}

static bool tm_type(struct tmap *m, int depth);

/* Fields of ROW<...>/ROW(...)/STRUCT<...> up to the closing bracket. */
static bool tm_fields(struct tmap *m, char close, int depth) {
  chv_buf_puts(m->out, "struct<");
  for (bool first = true;; first = false) {
    tm_space(m);
    if (*m->p == close) break;
    if (!first) {
      if (*m->p != ',') return false;
      m->p++;
      chv_buf_putc(m->out, ',');
    }
    char name[256];
    if (!tm_word(m, name, sizeof name)) return false;
    chv_buf_puts(m->out, name);
    chv_buf_putc(m->out, ':');
    if (tm_peek(m, ':')) m->p++;
    if (!tm_type(m, depth + 1)) return false;
    if (tm_keyword(m, "COMMENT")) {
      tm_space(m);
      if (*m->p != '\'') return false;
      for (m->p++; *m->p && !(*m->p == '\'' && m->p[1] != '\''); m->p++)
        if (*m->p == '\'') m->p++;
      if (*m->p) m->p++;
    }
  }
  m->p++;
  chv_buf_putc(m->out, '>');
  return true;
}

static bool tm_type(struct tmap *m, int depth) {
  char w[64];
  if (depth > CHV_TYPE_MAX_DEPTH || !tm_word(m, w, sizeof w)) return false;
  lower(w);
  bool ok = true;
  if (!strcmp(w, "row") || !strcmp(w, "struct")) {
    tm_space(m);
    char open = *m->p;
    if (open != '<' && open != '(') return false;
    m->p++;
    ok = tm_fields(m, open == '<' ? '>' : ')', depth);
  } else if (!strcmp(w, "array") || !strcmp(w, "map")) {
    if (!tm_peek(m, '<')) return false;
    m->p++;
    chv_buf_puts(m->out, w);
    chv_buf_putc(m->out, '<');
    ok = tm_type(m, depth + 1);
    if (ok && !strcmp(w, "map")) {
      if (!tm_peek(m, ',')) return false;
      m->p++;
      chv_buf_putc(m->out, ',');
      ok = tm_type(m, depth + 1);
    }
    if (!ok || !tm_peek(m, '>')) return false;
    m->p++;
    chv_buf_putc(m->out, '>');
  } else if (!strcmp(w, "bytes") || !strcmp(w, "varbinary") ||
             !strcmp(w, "binary")) {
    chv_buf_puts(m->out, "binary");
    tm_parens(m, true);
  } else if (!strcmp(w, "timestamp")) {
    chv_buf_puts(m->out, "timestamp");
    tm_parens(m, true);
    if (tm_keyword(m, "WITHOUT")) {
      if (!tm_keyword(m, "TIME") || !tm_keyword(m, "ZONE")) return false;
    } else if (tm_keyword(m, "WITH")) {
      m->bad = "TIMESTAMP WITH LOCAL TIME ZONE";
      return false;
    }
  } else if (!strcmp(w, "timestamp_ltz")) {
    m->bad = "TIMESTAMP_LTZ";
    return false;
  } else if (!strcmp(w, "double")) {
    chv_buf_puts(m->out, "double");
    tm_keyword(m, "PRECISION");
  } else if (!strcmp(w, "integer")) {
    chv_buf_puts(m->out, "int");
  } else {
    chv_buf_puts(m->out, w);
    tm_parens(m, false);
  }
  if (!ok) return false;
  if (tm_keyword(m, "NOT")) {
    if (!tm_keyword(m, "NULL")) return false;
  } else {
    tm_keyword(m, "NULL");
  }
  return true;
}

/* The Hive type string of a column type as written (Hive or Flink
** spelling), checked with chv_type_parse(); *out: chv_free it. */
static int map_type(const char *col, const char *text, char **out,
                    struct chv_error *err) {
  struct chv_buf b;
  chv_buf_init(&b);
  struct tmap m = {.p = text, .out = &b};
  bool ok = tm_type(&m, 0);
  tm_space(&m);
  if (!ok || *m.p) {
    chv_buf_free(&b);
    if (m.bad)
      return sql_err(err, CHV_ENOTSUP, "column %s: type %s is not supported yet",
                     col, m.bad);
    return sql_err(err, CHV_ESYNTAX, "column %s: invalid type '%s'", col,
                   text);
  }
  struct chv_type *t;
  struct chv_error terr;
  chv_error_clear(&terr);
  int rc = chv_type_parse(b.data, &t, &terr);
  if (rc != CHV_OK) {
    chv_buf_free(&b);
    return sql_err(err, rc, "column %s: %s", col, terr.msg);
  }
  chv_buf_reset(&b);
  rc = chv_type_format(t, &b);
  chv_type_free(t);
  if (rc != CHV_OK) {
    chv_buf_free(&b);
    return sql_err(err, CHV_ENOMEM, "out of memory");
  }
  *out = chv_buf_detach(&b);
  return CHV_OK;
}

/* ---- properties ------------------------------------------------------------ */

/* Validates a property.  A registered option must parse; in a table's
** properties (table) a key in a family the registry owns must be an option
** too (chv_option_check()), and the value's warning goes to the session. */
static int check_prop(struct sql_session *s, bool table, const char *key,
                      const char *value, struct chv_error *err) {
  const struct chv_option *opt = chv_option_find(key);
  int rc = CHV_OK;
  if (table) {
    rc = chv_option_check(key, value ? value : "", err);
    if (rc == CHV_OK) chv_config_warn(s->cfg, key, value ? value : "", NULL);
  } else if (opt) {
    struct chv_opt_value v;
    chv_opt_value_init(&v);
    rc = chv_option_parse(opt, value ? value : "", &v, err);
    chv_opt_value_free(&v);
  }
  /* the Parquet writer's own rules (codec names, sizes) */
  if (rc == CHV_OK && (!strncmp(key, "parquet.", 8) ||
                       !strncmp(key, "hive.parquet.", 13))) {
    struct chv_pq_write_options o;
    chv_pq_write_options_init(&o);
    rc = chv_pq_write_options_set(&o, key, value ? value : "", err);
  }
  /* and the ORC writer's */
  if (rc == CHV_OK && !strncmp(key, "orc.", 4)) {
    struct chv_orc_write_options o;
    chv_orc_write_options_init(&o);
    rc = chv_orc_write_options_set(&o, key, value ? value : "", err);
  }
  return rc;
}

/* props as chv_kv in arena a (strings borrowed), validated (table: as a
** table's properties). */
static int props_kv(struct sql_session *s, bool table,
                    const struct chv_sql_props *p, chv_arena *a,
                    struct chv_kv **out, int *n, const char *skip,
                    struct chv_sql_pos *pos, struct chv_error *err) {
  struct chv_kv *kv = chv_arena_alloc(a, sizeof *kv * (p->n + 1));
  if (!kv) return sql_err(err, CHV_ENOMEM, "out of memory");
  int k = 0;
  for (size_t i = 0; i < p->n; i++) {
    if (skip && !strcasecmp(p->items[i].key, skip)) continue;
    *pos = p->items[i].pos;
    int rc = check_prop(s, table, p->items[i].key, p->items[i].value, err);
    if (rc != CHV_OK) return rc;
    kv[k].key = (char *)p->items[i].key;
    kv[k].value = (char *)(p->items[i].value ? p->items[i].value : "");
    k++;
  }
  *out = kv;
  *n = k;
  return CHV_OK;
}

/* ---- CREATE TABLE ------------------------------------------------------------ */

static const char *unsupported_create(const struct chv_sql_create_table *ct) {
  if (ct->temporary) return "CREATE TEMPORARY TABLE";
  if (ct->watermark_column) return "WATERMARK";
  if (ct->nprimary_key) return "PRIMARY KEY";
  return NULL;
}

/* The storage classes of a format Hive names in STORED AS. */
struct storage {
  const char *name; /* STORED AS name */
  const char *serde, *input, *output;
};
static const struct storage storages[] = {
    {"TEXTFILE", "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe",
     "org.apache.hadoop.mapred.TextInputFormat",
     "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat"},
    {"PARQUET", "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
     "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
     "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat"},
    {"ORC", "org.apache.hadoop.hive.ql.io.orc.OrcSerde",
     "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat",
     "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat"},
};

static const struct storage *storage_named(const char *name) {
  for (size_t i = 0; i < CHV_ARRAY_SIZE(storages); i++)
    if (!strcasecmp(storages[i].name, name)) return &storages[i];
  return NULL;
}

/* ROW FORMAT SERDE and STORED AS INPUTFORMAT ... OUTPUTFORMAT name classes;
** those of the formats chive reads and writes are understood (what SHOW
** CREATE TABLE prints), others are not supported yet.  *st: the format
** the classes name (NULL when none is given). */
static int check_classes(const struct chv_sql_create_table *ct,
                         const struct storage **st, struct chv_error *err) {
  *st = NULL;
  const char *cls[3] = {
      ct->row_format == CHV_SQL_ROW_FORMAT_SERDE ? ct->serde : NULL,
      ct->input_format, ct->output_format};
  static const char *const what[3] = {"SerDe", "input format", "output format"};
  for (int k = 0; k < 3; k++) {
    if (!cls[k]) continue;
    const struct storage *found = NULL;
    for (size_t i = 0; i < CHV_ARRAY_SIZE(storages) && !found; i++) {
      const char *c = k == 0 ? storages[i].serde
                             : k == 1 ? storages[i].input : storages[i].output;
      if (!strcmp(cls[k], c) ||
          (k == 2 && i == 0 &&
           !strcmp(cls[k], "org.apache.hadoop.mapred.IgnoreKeyTextOutputFormat")))
        found = &storages[i];
    }
    if (!found)
      return sql_err(err, CHV_ENOTSUP, "%s '%s' is not supported yet (those of "
                     "TEXTFILE and PARQUET are)", what[k], cls[k]);
    if (*st && *st != found)
      return sql_err(err, CHV_EINVAL, "the %s '%s' is not of the %s format the "
                     "other classes name", what[k], cls[k], (*st)->name);
    *st = found;
  }
  return CHV_OK;
}

/* CREATE TABLE ... AS SELECT takes its columns from the query and fills a
** new managed table, unpartitioned, as Hive's CTAS does.  *skip: the
** table exists and IF NOT EXISTS was given. */
static int ctas_check(chv_catalog *cat, const struct chv_sql_create_table *ct,
                      const char *db, const char *name, bool *skip,
                      struct chv_sql_pos *pos, struct chv_error *err) {
  *skip = false;
  if (ct->ncolumns) {
    *pos = ct->columns[0].pos;
    return sql_err(err, CHV_EINVAL,
                   "CREATE TABLE ... AS SELECT takes its columns from the "
                   "query; a column list may not be given");
  }
  if (ct->npart_columns) {
    *pos = ct->part_columns[0].pos;
    return sql_err(err, CHV_ENOTSUP,
                   "CREATE TABLE ... AS SELECT cannot create a partitioned "
                   "table; create it, then INSERT ... SELECT");
  }
  if (ct->external)
    return sql_err(err, CHV_ENOTSUP,
                   "CREATE TABLE ... AS SELECT cannot create an external "
                   "table");
  if (chv_catalog_table_exists(cat, db, name)) {
    if (ct->if_not_exists) return *skip = true, CHV_OK;
    *pos = ct->name.pos;
    return sql_err(err, CHV_EEXIST, "table %s.%s already exists", db, name);
  }
  return CHV_OK;
}

/* Fills the table CTAS created; when that fails the table is dropped
** again (with whatever the failed INSERT left, which is nothing visible). */
static int ctas_insert(struct sql_session *s, const struct chv_sql_stmt *st,
                       chv_catalog *cat, const char *db, const char *name,
                       struct chv_sql_pos *pos, struct chv_error *err) {
  struct chv_sql_stmt ins = {.kind = CHV_SQL_STMT_INSERT,
                             .pos = st->pos,
                             .dialect = st->dialect,
                             .name = st->create_table->name,
                             .query = st->create_table->as_query};
  int rc = sql_exec_insert(s, &ins, pos, err);
  if (rc != CHV_OK) {
    struct chv_error e2;
    chv_error_clear(&e2);
    chv_catalog_drop_table(cat, db, name, CHV_CAT_IF_EXISTS, &e2);
  }
  return rc;
}

/* Parameters LIKE does not copy: statistics and bookkeeping of the
** source table. */
static bool like_skips(const char *key) {
  static const char *const skip[] = {
      "numRows", "numFiles", "totalSize", "rawDataSize", "numFilesErasureCoded",
      "COLUMN_STATS_ACCURATE", "transient_lastDdlTime", "EXTERNAL",
      "last_modified_by", "last_modified_time"};
  for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
    if (!strcmp(key, skip[i])) return true;
  return false;
}

/* CREATE [EXTERNAL] TABLE [IF NOT EXISTS] t LIKE other [LOCATION '...']
** [TBLPROPERTIES (...)]: the columns, partition keys, storage and SerDe of
** other, and its parameters but its statistics; no data. */
static int create_like(struct sql_session *s, const struct chv_sql_stmt *st,
                       chv_catalog *cat, const char *db, const char *name,
                       struct chv_sql_pos *pos, struct chv_error *err) {
  const struct chv_sql_create_table *ct = st->create_table;
  chv_catalog *scat;
  struct chv_table src;
  *pos = ct->like.pos;
  int rc = sql_get_table(s, &ct->like, &scat, &src, err);
  if (rc != CHV_OK) return rc;
  struct chv_kv *params = NULL, *tp = NULL;
  int np = 0, ntp = 0;
  chv_arena *a = NULL;
  if (chv_arena_open(0, &a) != CHV_OK) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  rc = props_kv(s, true, &ct->tblproperties, a, &tp, &ntp, NULL, pos, err);
  if (rc != CHV_OK) goto out;
  params = chv_arena_alloc(a, sizeof *params * (size_t)(src.nparams + ntp + 1));
  if (!params) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  for (int i = 0; i < src.nparams; i++) {
    if (like_skips(src.params[i].key)) continue;
    bool given = false;
    for (int k = 0; k < ntp && !given; k++)
      given = !strcmp(tp[k].key, src.params[i].key);
    if (!given) params[np++] = src.params[i];
  }
  for (int k = 0; k < ntp; k++) params[np++] = tp[k];
  struct chv_table t = src;
  if (src.type == CHV_VIRTUAL_VIEW) { /* a table of the view's columns */
    t.input_format = t.output_format = t.serde_lib = NULL;
    t.serde_params = NULL;
    t.nserde_params = 0;
    t.view_original_text = t.view_expanded_text = NULL;
  }
  t.db = (char *)db;
  t.name = (char *)name;
  t.location = (char *)ct->location;
  t.type = ct->external ? CHV_EXTERNAL_TABLE : CHV_MANAGED_TABLE;
  t.params = params;
  t.nparams = np;
  *pos = ct->name.pos;
  rc = chv_catalog_create_table(cat, &t,
                                ct->if_not_exists ? CHV_CAT_IF_NOT_EXISTS : 0,
                                err);
  if (rc == CHV_OK) print_ok(s, "OK");
out:
  chv_arena_close(a);
  chv_table_free(&src);
  return rc;
}

static int exec_create_table(struct sql_session *s,
                             const struct chv_sql_stmt *st, chv_arena *a,
                             struct chv_sql_pos *pos, struct chv_error *err) {
  chv_catalog *cat = s->cat;
  const struct chv_sql_create_table *ct = st->create_table;
  const char *db = NULL, *name = NULL;
  int rc = sql_resolve(s, &ct->name, &cat, &db, &name, err);
  if (rc != CHV_OK) return rc;
  if (ct->like.nparts) return create_like(s, st, cat, db, name, pos, err);
  const char *what = unsupported_create(ct);
  if (what) return sql_err(err, CHV_ENOTSUP, "%s is not supported yet", what);
  struct chv_type *qs = NULL; /* AS SELECT: the query's columns */
  if (ct->as_query) {
    bool skip;
    rc = ctas_check(cat, ct, db, name, &skip, pos, err);
    if (rc != CHV_OK) return rc;
    if (skip) { /* IF NOT EXISTS: nothing to do */
      print_ok(s, "OK");
      return CHV_OK;
    }
    rc = sql_query_schema(s, ct->as_query, &qs, pos, err);
    if (rc != CHV_OK) return rc;
  }
  const struct storage *store;
  rc = check_classes(ct, &store, err);
  if (rc != CHV_OK) return rc;
  if (ct->stored_as) {
    store = storage_named(ct->stored_as);
    if (!store) {
      char up[64];
      snprintf(up, sizeof up, "%s", ct->stored_as);
      for (char *c = up; *c; c++) *c = (char)toupper((unsigned char)*c);
      return sql_err(err, CHV_ENOTSUP, "STORED AS %s is not supported yet", up);
    }
  } else if (!store && ct->row_format != CHV_SQL_ROW_FORMAT_DELIMITED) {
    /* hive.default.fileformat names the format of a plain CREATE TABLE */
    struct chv_opt_value v;
    chv_opt_value_init(&v);
    rc = chv_config_get(s->cfg, "hive.default.fileformat", &v, err);
    if (rc != CHV_OK) return rc;
    store = storage_named(v.text ? v.text : "TextFile");
    if (!store) {
      rc = sql_err(err, CHV_ENOTSUP, "hive.default.fileformat '%s' is not "
                   "supported yet (TextFile, Parquet and ORC are)", v.text);
      chv_opt_value_free(&v);
      return rc;
    }
    chv_opt_value_free(&v);
  }
  if (store && store != &storages[0] &&
      ct->row_format == CHV_SQL_ROW_FORMAT_DELIMITED)
    return sql_err(err, CHV_EINVAL, "ROW FORMAT DELIMITED is for TEXTFILE "
                   "tables, not %s", store->name);
  for (size_t i = 0; i < ct->with.n; i++)
    if (!strcasecmp(ct->with.items[i].key, "connector") &&
        strcasecmp(ct->with.items[i].value ? ct->with.items[i].value : "",
                   "hive")) {
      *pos = ct->with.items[i].pos;
      return sql_err(err, CHV_ENOTSUP,
                     "connector '%s' is not supported yet (only 'hive')",
                     ct->with.items[i].value);
    }

  size_t ncolumns = qs ? (size_t)qs->nchildren : ct->ncolumns;
  size_t nall = ncolumns + ct->npart_columns;
  struct chv_column *cols = chv_arena_alloc(a, sizeof *cols * (nall + 1));
  struct chv_column *pkeys = chv_arena_alloc(a, sizeof *pkeys * (nall + 1));
  bool *taken = chv_arena_alloc(a, nall + 1);
  if (!cols || !pkeys || !taken) return sql_err(err, CHV_ENOMEM, "out of memory");
  memset(taken, 0, nall + 1);
  char **owned = chv_arena_alloc(a, sizeof *owned * (nall + 1));
  if (!owned) return sql_err(err, CHV_ENOMEM, "out of memory");
  int nowned = 0, ncols = 0, npkeys = 0;
  struct chv_column *all = chv_arena_alloc(a, sizeof *all * (nall + 1));
  if (!all) return sql_err(err, CHV_ENOMEM, "out of memory");
  for (size_t i = 0; qs && i < ncolumns; i++) {
    struct chv_buf tb;
    chv_buf_init(&tb);
    rc = chv_type_format(qs->children[i], &tb);
    if (rc != CHV_OK) {
      chv_buf_free(&tb);
      rc = sql_err(err, CHV_ENOMEM, "out of memory");
      goto out;
    }
    owned[nowned++] = tb.data;
    all[i] = (struct chv_column){qs->names[i], tb.data, NULL};
  }
  for (size_t i = 0; !qs && i < ct->ncolumns; i++) {
    const struct chv_sql_column *c = &ct->columns[i];
    *pos = c->pos;
    if (!c->type_text) {
      /* the types of the columns before it are freed at out */
      rc = sql_err(err, CHV_ENOTSUP, "computed column %s is not supported yet",
                   c->name);
      goto out;
    }
    *pos = c->type_pos;
    char *type;
    rc = map_type(c->name, c->type_text, &type, err);
    if (rc != CHV_OK) goto out;
    owned[nowned++] = type;
    all[i] = (struct chv_column){(char *)c->name, type, (char *)c->comment};
  }
  /* PARTITIONED BY (k) names columns of the list (Flink); PARTITIONED BY
  ** (k type) adds them (Hive), also before a Flink WITH clause. */
  if (ct->npart_columns && !ct->part_columns[0].type_text) {
    for (size_t k = 0; k < ct->npart_columns; k++) {
      const struct chv_sql_column *pc = &ct->part_columns[k];
      size_t i = 0;
      while (i < ct->ncolumns && strcasecmp(ct->columns[i].name, pc->name)) i++;
      *pos = pc->pos;
      if (i == ct->ncolumns) {
        rc = sql_err(err, CHV_EINVAL,
                     "partition column %s is not a column of the table",
                     pc->name);
        goto out;
      }
      taken[i] = true;
      pkeys[npkeys++] = all[i];
    }
    for (size_t i = 0; i < ct->ncolumns; i++)
      if (!taken[i]) cols[ncols++] = all[i];
  } else {
    for (size_t i = 0; i < ncolumns; i++) cols[ncols++] = all[i];
    for (size_t k = 0; k < ct->npart_columns; k++) {
      const struct chv_sql_column *pc = &ct->part_columns[k];
      *pos = pc->type_pos;
      char *type;
      rc = map_type(pc->name, pc->type_text, &type, err);
      if (rc != CHV_OK) goto out;
      owned[nowned++] = type;
      pkeys[npkeys++] =
          (struct chv_column){(char *)pc->name, type, (char *)pc->comment};
    }
  }

  struct chv_kv *tp = NULL, *wp = NULL;
  int ntp = 0, nwp = 0;
  rc = props_kv(s, true, &ct->tblproperties, a, &tp, &ntp, NULL, pos, err);
  if (rc == CHV_OK)
    rc = props_kv(s, true, &ct->with, a, &wp, &nwp, "connector", pos, err);
  if (rc != CHV_OK) goto out;
  struct chv_kv *params = chv_arena_alloc(a, sizeof *params * (size_t)(ntp + nwp + 2));
  if (!params) {
    rc = sql_err(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  int np = 0;
  for (int i = 0; i < ntp; i++) params[np++] = tp[i];
  for (int i = 0; i < nwp; i++) params[np++] = wp[i];
  if (ct->comment) params[np++] = (struct chv_kv){"comment", (char *)ct->comment};

  struct chv_kv serde[9], *sp = NULL;
  int nserde = 0, nsp = 0;
  if (ct->row_format == CHV_SQL_ROW_FORMAT_SERDE) {
    rc = props_kv(s, false, &ct->serde_props, a, &sp, &nsp, NULL, pos, err);
    if (rc != CHV_OK) goto out;
  }
  if (ct->row_format == CHV_SQL_ROW_FORMAT_DELIMITED) {
    if (ct->fields_terminated) {
      serde[nserde++] = (struct chv_kv){"field.delim", (char *)ct->fields_terminated};
      serde[nserde++] =
          (struct chv_kv){"serialization.format", (char *)ct->fields_terminated};
    }
    if (ct->collection_terminated) {
      serde[nserde++] =
          (struct chv_kv){"colelction.delim", (char *)ct->collection_terminated};
      serde[nserde++] =
          (struct chv_kv){"collection.delim", (char *)ct->collection_terminated};
    }
    if (ct->map_keys_terminated)
      serde[nserde++] = (struct chv_kv){"mapkey.delim", (char *)ct->map_keys_terminated};
    if (ct->lines_terminated)
      serde[nserde++] = (struct chv_kv){"line.delim", (char *)ct->lines_terminated};
    if (ct->escaped_by)
      serde[nserde++] = (struct chv_kv){"escape.delim", (char *)ct->escaped_by};
    if (ct->null_defined_as)
      serde[nserde++] =
          (struct chv_kv){"serialization.null.format", (char *)ct->null_defined_as};
  }
  struct chv_table t = {
      .db = (char *)db, .name = (char *)name, .columns = cols, .ncols = ncols,
      .pkeys = pkeys, .npkeys = npkeys, .location = (char *)ct->location,
      .type = ct->external ? CHV_EXTERNAL_TABLE : CHV_MANAGED_TABLE,
      .params = params, .nparams = np};
  if (store && store != &storages[0] && !nsp)
    serde[nserde++] = (struct chv_kv){"serialization.format", "1"};
  if (nserde || nsp || ct->row_format == CHV_SQL_ROW_FORMAT_SERDE ||
      ct->input_format || (store && store != &storages[0])) {
    if (!store) store = &storages[0];
    t.input_format = (char *)store->input;
    t.output_format = (char *)store->output;
    t.serde_lib = (char *)store->serde;
    t.serde_params = nsp ? sp : serde;
    t.nserde_params = nsp ? nsp : nserde;
  }
  *pos = ct->name.pos;
  rc = chv_catalog_create_table(cat, &t,
                                ct->if_not_exists ? CHV_CAT_IF_NOT_EXISTS : 0,
                                err);
  if (rc == CHV_OK && qs) {
    rc = ctas_insert(s, st, cat, db, name, pos, err);
  } else if (rc == CHV_OK) {
    print_ok(s, "OK");
  }
out:
  for (int i = 0; i < nowned; i++) chv_free(owned[i]);
  chv_type_free(qs);
  return rc;
}

/* ---- DESCRIBE ---------------------------------------------------------------- */

static int add3(struct sql_result *r, const char *a, const char *b,
                const char *c) {
  const char *cells[3] = {a, b ? b : "", c ? c : ""};
  return sql_result_add(r, cells);
}

static int kv_cmp(const void *x, const void *y) {
  return strcmp(((const struct chv_kv *)x)->key, ((const struct chv_kv *)y)->key);
}

static int exec_describe(struct sql_session *s, const struct chv_sql_stmt *st,
                         struct chv_error *err) {
  chv_catalog *cat;
  struct chv_table t;
  int rc = sql_get_table(s, &st->name, &cat, &t, err);
  if (rc != CHV_OK) return rc;
  bool formatted = st->describe_mode != NULL;
  struct sql_result r;
  sql_result_init(&r);
  const char *names[3] = {"col_name", "data_type", "comment"};
  rc = sql_result_columns(&r, 3, names);
  for (int i = 0; rc == CHV_OK && i < t.ncols; i++)
    rc = add3(&r, t.columns[i].name, t.columns[i].type, t.columns[i].comment);
  for (int i = 0; rc == CHV_OK && i < t.npkeys; i++)
    rc = add3(&r, t.pkeys[i].name, t.pkeys[i].type, t.pkeys[i].comment);
  if (rc == CHV_OK && t.npkeys) {
    rc = add3(&r, "", NULL, NULL);
    if (rc == CHV_OK) rc = add3(&r, "# Partition Information", NULL, NULL);
    if (rc == CHV_OK) rc = add3(&r, "# col_name", "data_type", "comment");
    for (int i = 0; rc == CHV_OK && i < t.npkeys; i++)
      rc = add3(&r, t.pkeys[i].name, t.pkeys[i].type, t.pkeys[i].comment);
  }
  if (rc == CHV_OK && formatted) {
    rc = add3(&r, "", NULL, NULL);
    if (rc == CHV_OK) rc = add3(&r, "# Detailed Table Information", NULL, NULL);
    if (rc == CHV_OK) rc = add3(&r, "Database:", t.db, NULL);
    if (rc == CHV_OK) rc = add3(&r, "Table:", t.name, NULL);
    if (rc == CHV_OK && t.type != CHV_VIRTUAL_VIEW) /* as Hive: none */
      rc = add3(&r, "Location:", t.location, NULL);
    if (rc == CHV_OK) rc = add3(&r, "Table Type:", chv_table_type_name(t.type), NULL);
    if (rc == CHV_OK) rc = add3(&r, "Table Parameters:", NULL, NULL);
    if (t.nparams > 1)
      qsort(t.params, (size_t)t.nparams, sizeof *t.params, kv_cmp);
    for (int i = 0; rc == CHV_OK && i < t.nparams; i++)
      rc = add3(&r, "", t.params[i].key, t.params[i].value);
    if (rc == CHV_OK) rc = add3(&r, "", NULL, NULL);
    if (rc == CHV_OK) rc = add3(&r, "# Storage Information", NULL, NULL);
    if (rc == CHV_OK) rc = add3(&r, "SerDe Library:", t.serde_lib, NULL);
    if (rc == CHV_OK) rc = add3(&r, "InputFormat:", t.input_format, NULL);
    if (rc == CHV_OK) rc = add3(&r, "OutputFormat:", t.output_format, NULL);
    if (rc == CHV_OK) rc = add3(&r, "Storage Desc Params:", NULL, NULL);
    if (t.nserde_params > 1)
      qsort(t.serde_params, (size_t)t.nserde_params, sizeof *t.serde_params,
          kv_cmp);
    for (int i = 0; rc == CHV_OK && i < t.nserde_params; i++)
      rc = add3(&r, "", t.serde_params[i].key, t.serde_params[i].value);
    if (rc == CHV_OK && t.type == CHV_VIRTUAL_VIEW) { /* Hive 3's rows */
      rc = add3(&r, "", NULL, NULL);
      if (rc == CHV_OK) rc = add3(&r, "# View Information", NULL, NULL);
      if (rc == CHV_OK)
        rc = add3(&r, "View Original Text:", t.view_original_text, NULL);
      if (rc == CHV_OK)
        rc = add3(&r, "View Expanded Text:", t.view_expanded_text, NULL);
      if (rc == CHV_OK) rc = add3(&r, "View Rewrite Enabled:", "No", NULL);
    }
  }
  if (rc == CHV_OK) rc = sql_result_emit(s, &r, err);
  else sql_err(err, rc, "out of memory");
  sql_result_free(&r);
  chv_table_free(&t);
  return rc;
}

/* ---- partitions ---------------------------------------------------------------- */

static int exec_partitions(struct sql_session *s, const struct chv_sql_stmt *st,
                           chv_arena *a, struct chv_sql_pos *pos,
                           struct chv_error *err) {
  chv_catalog *cat;
  struct chv_table t;
  int rc = sql_get_table(s, &st->name, &cat, &t, err);
  if (rc != CHV_OK) return rc;
  if (t.npkeys == 0) {
    rc = sql_err(err, CHV_EINVAL, "table %s.%s is not partitioned", t.db,
                 t.name);
    goto out;
  }
  if (st->kind == CHV_SQL_STMT_SHOW_PARTITIONS) {
    struct chv_part_filter *f;
    rc = sql_part_spec_filter(&t, &st->partition, false, a, &f, pos, err);
    if (rc != CHV_OK) goto out;
    char **names;
    int n;
    rc = chv_catalog_list_partition_names(cat, t.db, t.name, f, &names, &n,
                                          err);
    if (rc != CHV_OK) goto out;
    rc = print_names(s, "partition", names, n, err);
    chv_strv_free(names, n);
  } else if (st->kind == CHV_SQL_STMT_ADD_PARTITIONS) {
    struct chv_partition *parts =
        chv_arena_alloc(a, sizeof *parts * (st->nadd_parts + 1));
    if (!parts) {
      rc = sql_err(err, CHV_ENOMEM, "out of memory");
      goto out;
    }
    for (size_t i = 0; i < st->nadd_parts; i++) {
      memset(&parts[i], 0, sizeof parts[i]);
      rc = sql_part_values(&t, &st->add_parts[i].spec, a, &parts[i].values,
                           pos, err);
      if (rc != CHV_OK) goto out;
      parts[i].nvalues = t.npkeys;
      parts[i].location = (char *)st->add_parts[i].location;
    }
    *pos = st->pos;
    rc = chv_catalog_add_partitions(
        cat, t.db, t.name, parts, (int)st->nadd_parts,
        st->if_not_exists ? CHV_CAT_IF_NOT_EXISTS : 0, err);
    if (rc == CHV_OK) print_ok(s, "OK");
  } else { /* DROP PARTITION: each spec may be partial */
    struct chv_partition **found =
        chv_arena_alloc(a, sizeof *found * (st->ndrop_parts + 1));
    int *nfound = chv_arena_alloc(a, sizeof *nfound * (st->ndrop_parts + 1));
    if (!found || !nfound) {
      rc = sql_err(err, CHV_ENOMEM, "out of memory");
      goto out;
    }
    size_t got = 0;
    int total = 0;
    for (size_t i = 0; rc == CHV_OK && i < st->ndrop_parts; i++) {
      struct chv_part_filter *f;
      rc = sql_part_spec_filter(&t, &st->drop_parts[i], false, a, &f, pos, err);
      if (rc == CHV_OK)
        rc = chv_catalog_list_partitions(cat, t.db, t.name, f, &found[i],
                                         &nfound[i], err);
      if (rc != CHV_OK) break;
      got++;
      total += nfound[i];
      if (nfound[i] == 0 && !st->if_exists) {
        *pos = st->drop_parts[i].pos;
        rc = sql_err(err, CHV_ENOENT,
                     "no partition of %s.%s matches the partition spec", t.db,
                     t.name);
      }
    }
    char ***vals = rc == CHV_OK ? chv_arena_alloc(a, sizeof *vals * (size_t)(total + 1)) : NULL;
    if (rc == CHV_OK && !vals) rc = sql_err(err, CHV_ENOMEM, "out of memory");
    if (rc == CHV_OK) {
      int k = 0;
      for (size_t i = 0; i < got; i++)
        for (int j = 0; j < nfound[i]; j++) vals[k++] = found[i][j].values;
      *pos = st->pos;
      rc = chv_catalog_drop_partitions(cat, t.db, t.name,
                                       (char **const *)vals, k,
                                       CHV_CAT_IF_EXISTS, err);
      if (rc == CHV_OK) print_ok(s, "OK");
    }
    for (size_t i = 0; i < got; i++) chv_partitions_free(found[i], nfound[i]);
  }
out:
  chv_table_free(&t);
  return rc;
}

/* ---- SET / RESET ----------------------------------------------------------------- */

static int forget_key(struct sql_session *s, const char *key) {
  for (int i = 0; i < s->nset_keys; i++)
    if (!strcmp(s->set_keys[i], key)) {
      chv_free(s->set_keys[i]);
      s->set_keys[i] = s->set_keys[--s->nset_keys];
      return 1;
    }
  return 0;
}

static int str_cmp(const void *x, const void *y) {
  return strcmp(*(char *const *)x, *(char *const *)y);
}

static int exec_set(struct sql_session *s, const struct chv_sql_stmt *st,
                    struct chv_error *err) {
  if (!st->key) {
    if (s->nset_keys > 1)
      qsort(s->set_keys, (size_t)s->nset_keys, sizeof *s->set_keys, str_cmp);
    struct sql_result r;
    sql_result_init(&r);
    const char *names[2] = {"key", "value"};
    int rc = sql_result_columns(&r, 2, names);
    for (int i = 0; rc == CHV_OK && i < s->nset_keys; i++) {
      enum chv_config_layer layer;
      const char *cells[2] = {s->set_keys[i],
                              chv_config_lookup(s->cfg, s->set_keys[i], &layer)};
      rc = sql_result_add(&r, cells);
    }
    if (rc == CHV_OK) rc = sql_result_emit(s, &r, err);
    sql_result_free(&r);
    return rc;
  }
  const char *v = st->value ? st->value : "";
  enum chv_sql_dialect d = s->dialect;
  if (!strcmp(st->key, "table.sql-dialect")) {
    if (!strcasecmp(v, "hive")) d = CHV_SQL_DIALECT_HIVE;
    else if (!strcasecmp(v, "default")) d = CHV_SQL_DIALECT_DEFAULT;
    else
      return sql_err(err, CHV_EINVAL,
                     "invalid value '%s' for table.sql-dialect: expected "
                     "'default' or 'hive'", v);
  }
  int rc = chv_config_set(s->cfg, CHV_LAYER_SESSION, st->key, v, err);
  if (rc != CHV_OK) return rc;
  s->dialect = d;
  forget_key(s, st->key);
  char **keys =
      chv_realloc(s->set_keys, sizeof *keys * (size_t)(s->nset_keys + 1));
  if (!keys) return sql_err(err, CHV_ENOMEM, "out of memory");
  s->set_keys = keys;
  if (!(keys[s->nset_keys] = chv_strdup(st->key)))
    return sql_err(err, CHV_ENOMEM, "out of memory");
  s->nset_keys++;
  print_ok(s, "OK");
  return CHV_OK;
}

static int exec_reset(struct sql_session *s, const struct chv_sql_stmt *st,
                      struct chv_error *err) {
  (void)err;
  if (st->key) {
    chv_config_unset(s->cfg, CHV_LAYER_SESSION, st->key);
    forget_key(s, st->key);
    if (!strcmp(st->key, "table.sql-dialect")) s->dialect = CHV_SQL_DIALECT_DEFAULT;
  } else {
    chv_config_clear(s->cfg, CHV_LAYER_SESSION);
    while (s->nset_keys) forget_key(s, s->set_keys[0]);
    s->dialect = CHV_SQL_DIALECT_DEFAULT;
  }
  print_ok(s, "OK");
  return CHV_OK;
}

/* ---- dispatch ------------------------------------------------------------------- */

/* EXPLAIN: the plan's lines, gathered while the query is planned. */
/* A statement that moves rows: planned only (explain), or run. */
static int exec_dml(struct sql_session *s, const struct chv_sql_stmt *st,
                    bool explain, struct chv_sql_pos *pos,
                    struct chv_error *err) {
  switch (st->kind) {
  case CHV_SQL_STMT_QUERY:
    return sql_exec_query(s, st, explain, pos, err);
  case CHV_SQL_STMT_INSERT:
    return sql_exec_insert(s, st, pos, err);
  case CHV_SQL_STMT_INSERT_DIRECTORY:
    return sql_exec_insert_directory(s, st, pos, err);
  case CHV_SQL_STMT_MULTI_INSERT:
    return sql_exec_multi_insert(s, st, pos, err);
  default:
    return sql_err(err, CHV_ENOTSUP,
                   "EXPLAIN of anything but a query or an INSERT is not "
                   "supported yet");
  }
}

/* EXPLAIN [ANALYZE] statement: the plan as a tree (plan.c).  ANALYZE runs
** the statement, an INSERT writing as it would without EXPLAIN, and drops
** the rows or summary it gives; its nodes count what they did. */
static int exec_explain(struct sql_session *s, const struct chv_sql_stmt *st,
                        struct chv_sql_pos *pos, struct chv_error *err) {
  const struct chv_sql_stmt *x = st->explained;
  if (!x || (x->kind != CHV_SQL_STMT_QUERY && x->kind != CHV_SQL_STMT_INSERT &&
             x->kind != CHV_SQL_STMT_INSERT_DIRECTORY &&
             x->kind != CHV_SQL_STMT_MULTI_INSERT))
    return sql_err(err, CHV_ENOTSUP,
                   "EXPLAIN of anything but a query or an INSERT is not "
                   "supported yet");
  struct sql_plan *plan;
  int rc = sql_plan_open(st->analyze, &plan, err);
  if (rc != CHV_OK) return rc;
  s->plan = plan;
  s->plan_at = NULL;
  s->discard = st->analyze;
  *pos = x->name.nparts && x->name.pos.line ? x->name.pos : x->pos;
  rc = exec_dml(s, x, !st->analyze, pos, err);
  s->discard = false;
  s->plan = NULL;
  s->plan_at = NULL;
  if (rc == CHV_OK) rc = sql_plan_emit(s, plan, err);
  sql_plan_close(plan);
  return rc;
}

static int exec_stmt(struct sql_session *s, const struct chv_sql_stmt *st,
                     struct chv_sql_pos *pos, struct chv_error *err);

static int exec_in_arena(struct sql_session *s, const struct chv_sql_stmt *st,
                         chv_arena *a, struct chv_sql_pos *pos,
                         struct chv_error *err) {
  chv_catalog *cat = s->cat;
  const char *db = NULL, *name = NULL;
  int rc = CHV_OK;
  bool done; /* DROP VIEW IF EXISTS of a table ... (views.c) */
  CHV_RETURN_IF_ERR(sql_view_check_stmt(s, st, &done, pos, err));
  if (done) {
    print_ok(s, "OK");
    return CHV_OK;
  }
  switch (st->kind) {
  case CHV_SQL_STMT_CREATE_CATALOG:
    rc = sql_catalog_create(s, st, pos, err);
    if (rc == CHV_OK) print_ok(s, "OK");
    return rc;
  case CHV_SQL_STMT_USE_CATALOG: {
    int i = sql_catalog_find(s, st->name.parts[0]);
    *pos = st->name.pos;
    if (i < 0)
      return sql_err(err, CHV_ENOENT, "catalog '%s' does not exist",
                     st->name.parts[0]);
    sql_catalog_use(s, i);
    print_ok(s, "OK");
    return CHV_OK;
  }
  case CHV_SQL_STMT_SHOW_CATALOGS: {
    char *n[SQL_MAX_CATALOGS];
    for (int i = 0; i < s->ncats; i++) n[i] = s->cats[i].name;
    qsort(n, (size_t)s->ncats, sizeof *n, str_cmp);
    return print_names(s, "catalog name", n, s->ncats, err);
  }
  case CHV_SQL_STMT_SHOW_CURRENT_CATALOG: {
    char *n[1] = {s->cats[s->cur].name};
    return print_names(s, "current catalog name", n, 1, err);
  }
  case CHV_SQL_STMT_SHOW_CURRENT_DATABASE: {
    char *n[1] = {s->db};
    return print_names(s, "current database name", n, 1, err);
  }
  case CHV_SQL_STMT_SHOW_FUNCTIONS: { /* the registry's rows, sorted */
    int n = chv_func_count();
    char **names = chv_arena_alloc(a, sizeof *names * (size_t)n);
    if (!names) return sql_err(err, CHV_ENOMEM, "out of memory");
    for (int i = 0; i < n; i++) names[i] = (char *)chv_func_at(i)->name;
    return print_names(s, "function name", names, n, err);
  }
  case CHV_SQL_STMT_USE: {
    rc = resolve_db(s, &st->name, &cat, &db, err);
    if (rc != CHV_OK) return rc;
    struct chv_database d;
    rc = chv_catalog_get_database(cat, db, &d, err);
    if (rc != CHV_OK) return rc;
    if (st->name.nparts == 2) /* USE catalog.db */
      sql_catalog_use(s, sql_catalog_find(s, st->name.parts[0]));
    snprintf(s->db, sizeof s->db, "%s", d.name);
    chv_database_free(&d);
    print_ok(s, "OK");
    return CHV_OK;
  }
  case CHV_SQL_STMT_SHOW_DATABASES: {
    char **names;
    int n;
    rc = chv_catalog_list_databases(cat, NULL, &names, &n, err);
    if (rc != CHV_OK) return rc;
    rc = print_names(s, "database name", names, n, err);
    chv_strv_free(names, n);
    return rc;
  }
  case CHV_SQL_STMT_SHOW_TABLES: /* views too, as Hive's and Flink's */
  case CHV_SQL_STMT_SHOW_VIEWS: {
    db = s->db;
    if (st->name.nparts) {
      rc = resolve_db(s, &st->name, &cat, &db, err);
      if (rc != CHV_OK) return rc;
      struct chv_database d;
      rc = chv_catalog_get_database(cat, db, &d, err);
      if (rc != CHV_OK) return rc;
      chv_database_free(&d);
    }
    char *pat = NULL;
    if (st->like) {
      pat = chv_arena_strndup(a, st->like, strlen(st->like));
      if (!pat) return sql_err(err, CHV_ENOMEM, "out of memory");
      for (char *c = pat; *c; c++)
        if (*c == '%') *c = '*';
    }
    char **names;
    int n;
    bool views = st->kind == CHV_SQL_STMT_SHOW_VIEWS;
    rc = views ? chv_catalog_list_views(cat, db, pat, &names, &n, err)
               : chv_catalog_list_tables(cat, db, pat, &names, &n, err);
    if (rc != CHV_OK) return rc;
    rc = print_names(s, views ? "view name" : "table name", names, n, err);
    chv_strv_free(names, n);
    return rc;
  }
  case CHV_SQL_STMT_CREATE_DATABASE: {
    rc = resolve_db(s, &st->name, &cat, &db, err);
    if (rc != CHV_OK) return rc;
    struct chv_kv *params;
    int np;
    rc = props_kv(s, false, &st->props, a, &params, &np, NULL, pos, err);
    if (rc != CHV_OK) return rc;
    *pos = st->pos;
    struct chv_database d = {.name = (char *)db,
                             .location = (char *)st->location,
                             .description = (char *)st->comment,
                             .params = params,
                             .nparams = np};
    rc = chv_catalog_create_database(
        cat, &d, st->if_not_exists ? CHV_CAT_IF_NOT_EXISTS : 0, err);
    if (rc == CHV_OK) print_ok(s, "OK");
    return rc;
  }
  case CHV_SQL_STMT_DROP_DATABASE:
    rc = resolve_db(s, &st->name, &cat, &db, err);
    if (rc != CHV_OK) return rc;
    if (!strcasecmp(db, s->db) && strcasecmp(db, "default"))
      return sql_err(err, CHV_EINVAL,
                     "database %s is the current database: USE another first",
                     s->db);
    rc = chv_catalog_drop_database(
        cat, db,
        (st->if_exists ? CHV_CAT_IF_EXISTS : 0) |
            (st->cascade ? CHV_CAT_CASCADE : 0),
        err);
    if (rc == CHV_OK) print_ok(s, "OK");
    return rc;
  case CHV_SQL_STMT_CREATE_TABLE:
    return exec_create_table(s, st, a, pos, err);
  case CHV_SQL_STMT_DROP_TABLE:
    rc = sql_resolve(s, &st->name, &cat, &db, &name, err);
    if (rc == CHV_OK)
      rc = chv_catalog_drop_table(cat, db, name,
                                  st->if_exists ? CHV_CAT_IF_EXISTS : 0, err);
    if (rc == CHV_OK) print_ok(s, "OK");
    return rc;
  case CHV_SQL_STMT_DESCRIBE:
    if (st->describe_column.nparts || st->partition.n)
      return sql_describe_column(s, st, a, pos, err);
    return exec_describe(s, st, err);
  case CHV_SQL_STMT_SHOW_PARTITIONS:
  case CHV_SQL_STMT_ADD_PARTITIONS:
  case CHV_SQL_STMT_DROP_PARTITIONS:
    return exec_partitions(s, st, a, pos, err);
  case CHV_SQL_STMT_SET_TBLPROPERTIES: {
    rc = sql_resolve(s, &st->name, &cat, &db, &name, err);
    if (rc != CHV_OK) return rc;
    struct chv_kv *params;
    int np;
    /* a view's properties are its own: no table options to check */
    rc = props_kv(s, !st->view, &st->props, a, &params, &np, NULL, pos, err);
    if (rc != CHV_OK) return rc;
    *pos = st->pos;
    rc = chv_catalog_alter_table_params(cat, db, name, params, np, err);
    if (rc == CHV_OK) print_ok(s, "OK");
    return rc;
  }
  case CHV_SQL_STMT_RENAME_TABLE: {
    const char *ndb, *nname;
    chv_catalog *ncat;
    rc = sql_resolve(s, &st->name, &cat, &db, &name, err);
    if (rc == CHV_OK) {
      *pos = st->new_name.pos;
      rc = sql_resolve(s, &st->new_name, &ncat, &ndb, &nname, err);
    }
    if (rc != CHV_OK) return rc;
    if (ncat != cat) {
      *pos = st->new_name.pos;
      return sql_err(err, CHV_EINVAL,
                     "RENAME TO cannot move a table to another catalog");
    }
    if (st->new_name.nparts < 2) ndb = db;
    *pos = st->name.pos;
    rc = chv_catalog_rename_table(cat, db, name, ndb, nname, err);
    if (rc == CHV_OK) print_ok(s, "OK");
    return rc;
  }
  case CHV_SQL_STMT_MSCK_REPAIR: {
    rc = sql_resolve(s, &st->name, &cat, &db, &name, err);
    int added = 0;
    if (rc == CHV_OK) rc = chv_table_repair(cat, db, name, &added, err);
    if (rc == CHV_OK) {
      char msg[64];
      snprintf(msg, sizeof msg, "Added %d partition%s", added,
               added == 1 ? "" : "s");
      rc = sql_out_summary(s, "partitions_added", added, msg, err);
    }
    return rc;
  }
  case CHV_SQL_STMT_TRUNCATE_TABLE: {
    rc = sql_resolve(s, &st->name, &cat, &db, &name, err);
    if (rc != CHV_OK) return rc;
    char **values = NULL;
    if (st->partition.n) {
      struct chv_table t;
      rc = chv_catalog_get_table(cat, db, name, &t, err);
      if (rc != CHV_OK) return rc;
      rc = sql_part_values(&t, &st->partition, a, &values, pos, err);
      chv_table_free(&t);
      if (rc != CHV_OK) return rc;
      *pos = st->pos;
    }
    rc = chv_table_truncate(cat, db, name, values, err);
    if (rc == CHV_OK) print_ok(s, "OK");
    return rc;
  }
  case CHV_SQL_STMT_LOAD_DATA:
    return sql_exec_load(s, st, pos, err);
  case CHV_SQL_STMT_INSERT:
    return sql_exec_insert(s, st, pos, err);
  case CHV_SQL_STMT_QUERY:
    return sql_exec_query(s, st, false, pos, err);
  case CHV_SQL_STMT_EXPLAIN:
    return exec_explain(s, st, pos, err);
  case CHV_SQL_STMT_SET:
    return exec_set(s, st, err);
  case CHV_SQL_STMT_RESET:
    return exec_reset(s, st, err);
  case CHV_SQL_STMT_SHOW_CREATE_TABLE:
    return sql_show_create_table(s, st, pos, err);
  case CHV_SQL_STMT_CREATE_VIEW:
  case CHV_SQL_STMT_ALTER_VIEW:
    rc = sql_exec_create_view(s, st, pos, err);
    if (rc == CHV_OK) print_ok(s, "OK");
    return rc;
  case CHV_SQL_STMT_INSERT_DIRECTORY:
    return sql_exec_insert_directory(s, st, pos, err);
  case CHV_SQL_STMT_MULTI_INSERT:
    return sql_exec_multi_insert(s, st, pos, err);
  case CHV_SQL_STMT_ANALYZE:
    return sql_exec_analyze(s, st, a, pos, err);
  }
  return sql_err(err, CHV_ENOTSUP, "this statement is not supported yet");
}

int sql_exec_stmt(struct sql_session *s, const struct chv_sql_stmt *st,
                  struct chv_sql_pos *pos, struct chv_error *err) {
  return exec_stmt(s, st, pos, err);
}

static int exec_stmt(struct sql_session *s, const struct chv_sql_stmt *st,
                     struct chv_sql_pos *pos, struct chv_error *err) {
  /* Hints change what a statement does: OPTIONS on a table apply, any
  ** other is refused wherever it stands rather than dropped. */
  int rc = sql_hints_check(s, st, pos, err);
  if (rc != CHV_OK) return rc;
  chv_arena *a;
  if (chv_arena_open(0, &a) != CHV_OK)
    return sql_err(err, CHV_ENOMEM, "out of memory");
  /* errors point at the object the statement names unless they say where */
  *pos = st->name.nparts && st->name.pos.line ? st->name.pos : st->pos;
  if (st->create_table && st->create_table->name.pos.line)
    *pos = st->create_table->name.pos;
  rc = exec_in_arena(s, st, a, pos, err);
  chv_arena_close(a);
  return rc;
}
