/*
** colstats: the statistics a planner reads, kept as Hive's metastore keeps
** them.  Basic statistics are parameters (numRows, numFiles, totalSize,
** rawDataSize) of the table or of each partition; column statistics are
** rows of tab_col_stats (an unpartitioned table) and part_col_stats (a
** partition), shaped as Hive's TAB_COL_STATS and PART_COL_STATS
** (LONG_LOW_VALUE ... LAST_ANALYZED); COLUMN_STATS_ACCURATE, a parameter
** beside them, says which are exact for the data as it is:
**
**   {"BASIC_STATS":"true","COLUMN_STATS":{"a":"true","b":"true"}}
**
** A write keeps BASIC_STATS (the sink recounts) and drops COLUMN_STATS
** (chv_catalog_stats_changed()); ANALYZE ... FOR COLUMNS adds its columns
** (chv_catalog_set_column_stats()).  A partitioned table's column
** statistics are its partitions' merged when read, as Hive aggregates
** them; the distinct counts merge through the sketches kept in bit_vector
** (common/hll.c).
**
** INTERFACE
**   cat_colstats_schema_sql, cat_colstats_prune()       (catalog_int.h)
**   chv_catalog_table_stats(), chv_catalog_column_stats(),
**   chv_catalog_set_column_stats(), chv_catalog_stats_changed(),
**   chv_catalog_stats_basic_accurate(), chv_colstats_*()  (chive/catalog.h)
*/
#include "catalog/catalog_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

/* Schema version 4.  Rows go with their table (partition) by ON DELETE
** CASCADE.  Hive's DB_NAME, TABLE_NAME and PARTITION_NAME columns are left
** out: the ids name them, and names copied here would go stale on a
** rename.  part_col_stats keeps tbl_id (as part_values does) so a table's
** rows are found by index. */
#define COLSTATS_COLUMNS                                                      \
  "  column_name TEXT NOT NULL,\n"                                            \
  "  column_type TEXT NOT NULL,\n"                                            \
  "  long_low_value INTEGER, long_high_value INTEGER,\n"                      \
  "  double_low_value REAL, double_high_value REAL,\n"                        \
  "  big_decimal_low_value TEXT, big_decimal_high_value TEXT,\n"              \
  "  num_nulls INTEGER NOT NULL,\n"                                           \
  "  num_distincts INTEGER,\n"                                                \
  "  bit_vector BLOB,\n"                                                      \
  "  avg_col_len REAL, max_col_len INTEGER,\n"                                \
  "  num_trues INTEGER, num_falses INTEGER,\n"                                \
  "  last_analyzed INTEGER NOT NULL,\n"                                       \
  "  engine TEXT NOT NULL DEFAULT 'hive',\n"

const char cat_colstats_schema_sql[] =
    "CREATE TABLE IF NOT EXISTS tab_col_stats(\n"
    "  cs_id INTEGER PRIMARY KEY,\n"
    "  tbl_id INTEGER NOT NULL REFERENCES tbls(tbl_id) ON DELETE CASCADE,\n"
    COLSTATS_COLUMNS
    "  UNIQUE(tbl_id, column_name, engine));\n"
    "CREATE TABLE IF NOT EXISTS part_col_stats(\n"
    "  cs_id INTEGER PRIMARY KEY,\n"
    "  part_id INTEGER NOT NULL REFERENCES parts(part_id) ON DELETE CASCADE,\n"
    "  tbl_id INTEGER NOT NULL,\n"
    COLSTATS_COLUMNS
    "  UNIQUE(part_id, column_name, engine));\n"
    "CREATE INDEX IF NOT EXISTS part_col_stats_by_table ON "
    "part_col_stats(tbl_id, column_name);\n";

#define ACCURATE_KEY "COLUMN_STATS_ACCURATE"

/* ---- kinds ---------------------------------------------------------------- */

const char *chv_colstats_kind_name(enum chv_colstats_kind k) {
  static const char *const names[] = {"long",   "double", "decimal",
                                      "date",   "timestamp", "string",
                                      "binary", "boolean"};
  return (unsigned)k < CHV_ARRAY_SIZE(names) ? names[k] : "?";
}

static bool type_is(const char *type, const char *word) {
  size_t n = strlen(word);
  return chv_str_nieq(type, word, n) &&
         (type[n] == '\0' || type[n] == '(' || type[n] == ' ');
}

bool chv_colstats_kind_of(const char *type, enum chv_colstats_kind *out) {
  static const struct {
    const char *word;
    enum chv_colstats_kind kind;
  } map[] = {
      {"tinyint", CHV_COLSTATS_LONG},     {"smallint", CHV_COLSTATS_LONG},
      {"int", CHV_COLSTATS_LONG},         {"integer", CHV_COLSTATS_LONG},
      {"bigint", CHV_COLSTATS_LONG},      {"float", CHV_COLSTATS_DOUBLE},
      {"double", CHV_COLSTATS_DOUBLE},    {"decimal", CHV_COLSTATS_DECIMAL},
      {"date", CHV_COLSTATS_DATE},        {"timestamp", CHV_COLSTATS_TIMESTAMP},
      {"string", CHV_COLSTATS_STRING},    {"varchar", CHV_COLSTATS_STRING},
      {"char", CHV_COLSTATS_STRING},      {"binary", CHV_COLSTATS_BINARY},
      {"boolean", CHV_COLSTATS_BOOLEAN},
  };
  if (type == NULL) return false;
  while (*type == ' ') type++;
  for (size_t i = 0; i < CHV_ARRAY_SIZE(map); i++)
    if (type_is(type, map[i].word)) {
      if (out) *out = map[i].kind;
      return true;
    }
  return false;
}

/* ---- COLUMN_STATS_ACCURATE ------------------------------------------------- */

struct jp {
  const char *p;
};

static void jp_space(struct jp *j) {
  while (*j->p && isspace((unsigned char)*j->p)) j->p++;
}

/* A JSON string into a fresh copy (escapes \" \\ \/ kept as the
** character; others as they are). */
static char *jp_string(struct jp *j) {
  jp_space(j);
  if (*j->p != '"') return NULL;
  j->p++;
  struct chv_buf b;
  chv_buf_init(&b);
  while (*j->p && *j->p != '"') {
    if (*j->p == '\\' && j->p[1]) j->p++;
    chv_buf_putc(&b, *j->p++);
  }
  if (*j->p != '"') {
    chv_buf_free(&b);
    return NULL;
  }
  j->p++;
  chv_buf_putc(&b, '\0');
  return (char *)b.data; /* NULL when out of memory */
}

/* "true" or true */
static bool jp_true(struct jp *j, bool *ok) {
  jp_space(j);
  if (*j->p == '"') {
    char *s = jp_string(j);
    bool t = s && chv_str_ieq(s, "true");
    *ok = s != NULL;
    chv_free(s);
    return t;
  }
  if (!strncmp(j->p, "true", 4)) {
    j->p += 4;
    return true;
  }
  if (!strncmp(j->p, "false", 5)) {
    j->p += 5;
    return false;
  }
  *ok = false;
  return false;
}

static int add_name(char ***v, int *n, const char *s) {
  char **nv = chv_realloc(*v, sizeof *nv * (size_t)(*n + 1));
  if (nv == NULL) return CHV_ENOMEM;
  *v = nv;
  if ((nv[*n] = chv_strdup(s)) == NULL) return CHV_ENOMEM;
  (*n)++;
  return CHV_OK;
}

int chv_colstats_accurate_parse(const char *json, bool *basic,
                                char ***columns, int *ncolumns) {
  *basic = false;
  *columns = NULL;
  *ncolumns = 0;
  if (json == NULL) return CHV_OK;
  struct jp j = {json};
  char **cols = NULL;
  int ncols = 0, rc = CHV_OK;
  bool b = false, ok = true;
  jp_space(&j);
  if (*j.p != '{') return CHV_OK;
  j.p++;
  for (;;) {
    jp_space(&j);
    if (*j.p == '}') break;
    char *key = jp_string(&j);
    jp_space(&j);
    if (key == NULL || *j.p != ':') {
      chv_free(key);
      ok = false;
      break;
    }
    j.p++;
    jp_space(&j);
    if (!strcmp(key, "COLUMN_STATS") && *j.p == '{') {
      j.p++;
      for (;;) {
        jp_space(&j);
        if (*j.p == '}') {
          j.p++;
          break;
        }
        char *col = jp_string(&j);
        jp_space(&j);
        if (col == NULL || *j.p != ':') {
          chv_free(col);
          ok = false;
          break;
        }
        j.p++;
        bool t = jp_true(&j, &ok);
        if (ok && t) rc = add_name(&cols, &ncols, col);
        chv_free(col);
        if (!ok || rc != CHV_OK) break;
        jp_space(&j);
        if (*j.p == ',') j.p++;
      }
    } else {
      bool t = jp_true(&j, &ok);
      if (!strcmp(key, "BASIC_STATS")) b = t;
    }
    chv_free(key);
    if (!ok || rc != CHV_OK) break;
    jp_space(&j);
    if (*j.p == ',') {
      j.p++;
      continue;
    }
    if (*j.p != '}') ok = false;
    break;
  }
  if (rc != CHV_OK || !ok) { /* unreadable: nothing is claimed accurate */
    chv_strv_free(cols, ncols);
    return rc;
  }
  *basic = b;
  *columns = cols;
  *ncolumns = ncols;
  return CHV_OK;
}

static int str_cmp(const void *x, const void *y) {
  return strcmp(*(char *const *)x, *(char *const *)y);
}

char *chv_colstats_accurate_format(bool basic, char *const *columns,
                                   int ncolumns) {
  char **v = chv_calloc((size_t)ncolumns + 1, sizeof *v);
  if (v == NULL) return NULL;
  int n = 0;
  for (int i = 0; i < ncolumns; i++) v[n++] = columns[i];
  qsort(v, (size_t)n, sizeof *v, str_cmp);
  struct chv_buf b;
  chv_buf_init(&b);
  chv_buf_putc(&b, '{');
  if (basic) chv_buf_puts(&b, "\"BASIC_STATS\":\"true\"");
  if (n > 0) {
    if (basic) chv_buf_putc(&b, ',');
    chv_buf_puts(&b, "\"COLUMN_STATS\":{");
    for (int i = 0; i < n; i++) {
      if (i > 0 && !strcmp(v[i], v[i - 1])) continue;
      if (b.data[b.len - 1] != '{') chv_buf_putc(&b, ',');
      chv_buf_printf(&b, "\"%s\":\"true\"", v[i]);
    }
    chv_buf_putc(&b, '}');
  }
  chv_buf_putc(&b, '}');
  chv_buf_putc(&b, '\0');
  chv_free(v);
  return (char *)b.data;
}

/* ---- what a call names ----------------------------------------------------- */

/* The table (loaded) and, when partition is not NULL, its part_id; inside
** the caller's transaction.  *part_id is -1 without a partition. */
struct target {
  struct chv_table t;
  int64_t tbl_id;
  int64_t part_id;
  char *ldb, *lname;
};

static int target_load(chv_catalog *c, const char *db, const char *table,
                       const char *partition, struct target *x,
                       struct chv_error *err) {
  memset(x, 0, sizeof *x);
  x->part_id = -1;
  CHV_RETURN_IF_ERR(cat_table_names(db, table, &x->ldb, &x->lname, err));
  int rc = cat_table_load(c, x->ldb, x->lname, &x->tbl_id, &x->t, err);
  if (rc != CHV_OK) return rc;
  if (partition == NULL) return CHV_OK;
  if (x->t.npkeys == 0)
    return chv_error_set(err, CHV_EINVAL, "table %s.%s is not partitioned",
                         x->ldb, x->lname);
  sqlite3_stmt *st;
  CHV_RETURN_IF_ERR(cat_prepare(
      c, "SELECT part_id FROM parts WHERE tbl_id = ?1 AND name = ?2", &st,
      err));
  sqlite3_bind_int64(st, 1, x->tbl_id);
  sqlite3_bind_text(st, 2, partition, -1, SQLITE_STATIC);
  int src = sqlite3_step(st);
  if (src == SQLITE_ROW)
    x->part_id = sqlite3_column_int64(st, 0);
  else if (src == SQLITE_DONE)
    rc = chv_error_set(err, CHV_ENOENT,
                       "partition %s of table %s.%s does not exist",
                       partition, x->ldb, x->lname);
  else
    rc = cat_sqlerr(c, src, err, "looking up partition %s", partition);
  sqlite3_finalize(st);
  return rc;
}

static void target_free(struct target *x) {
  chv_table_free(&x->t);
  chv_free(x->ldb);
  chv_free(x->lname);
}

/* The parameters of the target (the table's or the partition's). */
static int target_params(chv_catalog *c, const struct target *x,
                         struct chv_kv **kv, int *n, struct chv_error *err) {
  if (x->part_id < 0)
    return cat_params_load(c, "tbl_params", "tbl_id", x->tbl_id, kv, n, err);
  return cat_params_load(c, "part_params", "part_id", x->part_id, kv, n, err);
}

static int target_set_param(chv_catalog *c, const struct target *x,
                            const char *key, const char *value,
                            struct chv_error *err) {
  struct chv_kv kv = {(char *)key, (char *)value};
  if (x->part_id < 0)
    return cat_params_set(c, "tbl_params", "tbl_id", x->tbl_id, &kv, 1, err);
  return cat_params_set(c, "part_params", "part_id", x->part_id, &kv, 1,
                        err);
}

/* ---- basic statistics ---------------------------------------------------- */

static int64_t param_count(const char *v) {
  if (v == NULL || *v == '\0') return -1;
  errno = 0;
  char *end;
  long long x = strtoll(v, &end, 10);
  if (errno != 0 || *end != '\0' || x < 0) return -1;
  return (int64_t)x;
}

static bool basic_accurate(const char *json) {
  bool basic;
  char **cols;
  int n;
  if (chv_colstats_accurate_parse(json, &basic, &cols, &n) != CHV_OK)
    return false;
  chv_strv_free(cols, n);
  return basic;
}

/* Sums over the partitions of table tbl_id, one row per partition. */
static int sum_partitions(chv_catalog *c, int64_t tbl_id,
                          struct chv_table_stats *out,
                          struct chv_error *err) {
  static const char *const keys[4] = {"numRows", "numFiles", "totalSize",
                                      "rawDataSize"};
  sqlite3_stmt *st;
  CHV_RETURN_IF_ERR(cat_prepare(
      c,
      "SELECT "
      "(SELECT value FROM part_params q WHERE q.part_id = p.part_id AND "
      "q.key = 'numRows'), "
      "(SELECT value FROM part_params q WHERE q.part_id = p.part_id AND "
      "q.key = 'numFiles'), "
      "(SELECT value FROM part_params q WHERE q.part_id = p.part_id AND "
      "q.key = 'totalSize'), "
      "(SELECT value FROM part_params q WHERE q.part_id = p.part_id AND "
      "q.key = 'rawDataSize'), "
      "(SELECT value FROM part_params q WHERE q.part_id = p.part_id AND "
      "q.key = '" ACCURATE_KEY "') "
      "FROM parts p WHERE p.tbl_id = ?1",
      &st, err));
  sqlite3_bind_int64(st, 1, tbl_id);
  int64_t sum[4] = {0, 0, 0, 0};
  bool known[4] = {true, true, true, true}, accurate = true;
  int64_t parts = 0, with_rows = 0;
  int src;
  while ((src = sqlite3_step(st)) == SQLITE_ROW) {
    parts++;
    for (int k = 0; k < 4; k++) {
      int64_t v = param_count((const char *)sqlite3_column_text(st, k));
      if (v < 0)
        known[k] = false;
      else
        sum[k] += v;
      if (k == 0 && v >= 0) with_rows++;
    }
    if (!basic_accurate((const char *)sqlite3_column_text(st, 4)))
      accurate = false;
  }
  sqlite3_finalize(st);
  if (src != SQLITE_DONE)
    return cat_sqlerr(c, src, err, "summing the statistics of partitions");
  (void)keys;
  out->num_rows = known[0] ? sum[0] : -1;
  out->num_files = known[1] ? sum[1] : -1;
  out->total_size = known[2] ? sum[2] : -1;
  out->raw_data_size = known[3] ? sum[3] : -1;
  out->accurate = accurate && known[0];
  out->partitions = parts;
  out->partitions_with_rows = with_rows;
  return CHV_OK;
}

int chv_catalog_table_stats(chv_catalog *c, const char *db, const char *table,
                            const char *partition, struct chv_table_stats *out,
                            struct chv_error *err) {
  struct target x;
  CHV_RETURN_IF_ERR(cat_begin_read(c, err));
  int rc = target_load(c, db, table, partition, &x, err);
  struct chv_table_stats r = {-1, -1, -1, -1, false, 0, 0};
  if (rc == CHV_OK && partition == NULL && x.t.npkeys > 0) {
    rc = sum_partitions(c, x.tbl_id, &r, err);
  } else if (rc == CHV_OK) {
    struct chv_kv *kv = NULL;
    int n = 0;
    rc = target_params(c, &x, &kv, &n, err);
    if (rc == CHV_OK) {
      struct chv_stats s;
      chv_stats_from_params(kv, n, &s);
      r.num_rows = s.num_rows;
      r.num_files = s.num_files;
      r.total_size = s.total_size;
      r.raw_data_size = s.raw_data_size;
      r.accurate = s.num_rows >= 0 &&
                   basic_accurate(chv_kv_get(kv, n, ACCURATE_KEY));
    }
    chv_kv_free(kv, n);
  }
  target_free(&x);
  if (rc == CHV_OK) rc = cat_commit(c, err);
  else cat_rollback(c);
  if (rc == CHV_OK) *out = r;
  return rc;
}

/* ---- COLUMN_STATS_ACCURATE of a target ------------------------------------ */

/* Rewrites the target's COLUMN_STATS_ACCURATE: basic as given (or as it
** was when keep_basic), its columns plus add[0..nadd) (or none when
** drop_cols). */
static int rewrite_accurate(chv_catalog *c, const struct target *x,
                            bool keep_basic, bool basic, bool drop_cols,
                            bool only_if_present, char *const *add, int nadd,
                            struct chv_error *err) {
  struct chv_kv *kv = NULL;
  int n = 0;
  CHV_RETURN_IF_ERR(target_params(c, x, &kv, &n, err));
  const char *old = chv_kv_get(kv, n, ACCURATE_KEY);
  int rc = CHV_OK;
  if (old == NULL && only_if_present) goto out;
  bool obasic;
  char **cols = NULL;
  int ncols = 0;
  if ((rc = chv_colstats_accurate_parse(old, &obasic, &cols, &ncols)) != CHV_OK)
    goto out_nomem;
  if (drop_cols) {
    chv_strv_free(cols, ncols);
    cols = NULL;
    ncols = 0;
  }
  for (int i = 0; i < nadd && rc == CHV_OK; i++)
    rc = add_name(&cols, &ncols, add[i]);
  if (rc != CHV_OK) {
    chv_strv_free(cols, ncols);
    goto out_nomem;
  }
  bool b = keep_basic ? obasic : basic;
  char *json = NULL;
  if (b || ncols > 0) {
    json = chv_colstats_accurate_format(b, cols, ncols);
    if (json == NULL) {
      chv_strv_free(cols, ncols);
      goto out_nomem;
    }
  }
  chv_strv_free(cols, ncols);
  rc = target_set_param(c, x, ACCURATE_KEY, json, err);
  chv_free(json);
  goto out;
out_nomem:
  rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
out:
  chv_kv_free(kv, n);
  return rc;
}

/* One write on a target: begin, load, fn, commit. */
static int with_target(chv_catalog *c, const char *db, const char *table,
                       const char *partition,
                       int (*fn)(chv_catalog *, struct target *, void *,
                                 struct chv_error *),
                       void *arg, struct chv_error *err) {
  CHV_RETURN_IF_ERR(cat_begin_write(c, err));
  struct target x;
  int rc = target_load(c, db, table, partition, &x, err);
  if (rc == CHV_OK) rc = fn(c, &x, arg, err);
  target_free(&x);
  if (rc == CHV_OK) return cat_commit(c, err);
  cat_rollback(c);
  return rc;
}

/* The id of db.table without loading it (a write's hot path). */
static int table_id(chv_catalog *c, const char *db, const char *table,
                    int64_t *id, struct chv_error *err) {
  char *ldb, *lname;
  CHV_RETURN_IF_ERR(cat_table_names(db, table, &ldb, &lname, err));
  sqlite3_stmt *st;
  int rc = cat_prepare(c,
                       "SELECT t.tbl_id FROM tbls t JOIN dbs d ON d.db_id = "
                       "t.db_id WHERE d.name = ?1 AND t.name = ?2",
                       &st, err);
  if (rc == CHV_OK) {
    sqlite3_bind_text(st, 1, ldb, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, lname, -1, SQLITE_STATIC);
    int src = sqlite3_step(st);
    if (src == SQLITE_ROW)
      *id = sqlite3_column_int64(st, 0);
    else if (src == SQLITE_DONE)
      rc = chv_error_set(err, CHV_ENOENT, "table %s.%s does not exist", ldb,
                         lname);
    else
      rc = cat_sqlerr(c, src, err, "looking up table %s.%s", ldb, lname);
    sqlite3_finalize(st);
  }
  chv_free(ldb);
  chv_free(lname);
  return rc;
}

int chv_catalog_stats_changed(chv_catalog *c, const char *db,
                              const char *table, const char *partition,
                              bool basic_accurate, struct chv_error *err) {
  CHV_RETURN_IF_ERR(cat_begin_write(c, err));
  int64_t id = 0;
  int rc = table_id(c, db, table, &id, err);
  static const char *const sql[2][2] = {
      {"DELETE FROM tbl_params WHERE tbl_id = ?1 AND key = '" ACCURATE_KEY
       "'",
       "UPDATE tbl_params SET value = ?3 WHERE tbl_id = ?1 AND key = '"
       ACCURATE_KEY "'"},
      {"DELETE FROM part_params WHERE key = '" ACCURATE_KEY "' AND part_id = "
       "(SELECT part_id FROM parts WHERE tbl_id = ?1 AND name = ?2)",
       "UPDATE part_params SET value = ?3 WHERE key = '" ACCURATE_KEY "' AND "
       "part_id = (SELECT part_id FROM parts WHERE tbl_id = ?1 AND name = "
       "?2)"}};
  sqlite3_stmt *st = NULL;
  if (rc == CHV_OK)
    rc = cat_prepare(c, sql[partition != NULL][basic_accurate], &st, err);
  if (rc == CHV_OK) {
    sqlite3_bind_int64(st, 1, id);
    if (partition) sqlite3_bind_text(st, 2, partition, -1, SQLITE_STATIC);
    if (basic_accurate)
      sqlite3_bind_text(st, 3, "{\"BASIC_STATS\":\"true\"}", -1,
                        SQLITE_STATIC);
    int src = sqlite3_step(st);
    if (src != SQLITE_DONE)
      rc = cat_sqlerr(c, src, err, "marking the statistics of %s.%s changed",
                      db ? db : "default", table);
  }
  sqlite3_finalize(st);
  if (rc == CHV_OK) return cat_commit(c, err);
  cat_rollback(c);
  return rc;
}

static int basic_fn(chv_catalog *c, struct target *x, void *arg,
                    struct chv_error *err) {
  (void)arg;
  return rewrite_accurate(c, x, false, true, false, false, NULL, 0, err);
}

int chv_catalog_stats_basic_accurate(chv_catalog *c, const char *db,
                                     const char *table, const char *partition,
                                     struct chv_error *err) {
  return with_target(c, db, table, partition, basic_fn, NULL, err);
}

/* ---- column statistics rows ------------------------------------------------ */

void chv_column_stats_free(struct chv_column_stats *v, int n) {
  if (v == NULL) return;
  for (int i = 0; i < n; i++) {
    chv_free(v[i].column);
    chv_free(v[i].type);
    chv_free(v[i].decimal_low);
    chv_free(v[i].decimal_high);
    chv_free(v[i].bit_vector);
  }
  chv_free(v);
}

static const struct chv_column *find_column(const struct chv_table *t,
                                            const char *name) {
  for (int i = 0; i < t->ncols; i++)
    if (chv_str_ieq(t->columns[i].name, name)) return &t->columns[i];
  return NULL;
}

static int bind_opt_int(sqlite3_stmt *st, int i, bool on, int64_t v) {
  return on ? sqlite3_bind_int64(st, i, v) : sqlite3_bind_null(st, i);
}

struct set_arg {
  const struct chv_column_stats *v;
  int n;
};

static int set_fn(chv_catalog *c, struct target *x, void *argp,
                  struct chv_error *err) {
  struct set_arg *a = argp;
  if (x->part_id < 0 && x->t.npkeys > 0)
    return chv_error_set(err, CHV_EINVAL,
                         "table %s.%s is partitioned: its column statistics "
                         "are its partitions'",
                         x->ldb, x->lname);
  char **names = chv_calloc((size_t)a->n + 1, sizeof *names);
  if (names == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  bool part = x->part_id >= 0;
  sqlite3_stmt *st = NULL;
  int rc = cat_prepare(
      c,
      part ? "INSERT OR REPLACE INTO part_col_stats(part_id, tbl_id, "
             "column_name, column_type, long_low_value, long_high_value, "
             "double_low_value, double_high_value, big_decimal_low_value, "
             "big_decimal_high_value, num_nulls, num_distincts, bit_vector, "
             "avg_col_len, max_col_len, num_trues, num_falses, "
             "last_analyzed) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
             "?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)"
           : "INSERT OR REPLACE INTO tab_col_stats(tbl_id, column_name, "
             "column_type, long_low_value, long_high_value, "
             "double_low_value, double_high_value, big_decimal_low_value, "
             "big_decimal_high_value, num_nulls, num_distincts, bit_vector, "
             "avg_col_len, max_col_len, num_trues, num_falses, "
             "last_analyzed) VALUES(?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
             "?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
      &st, err);
  for (int i = 0; i < a->n && rc == CHV_OK; i++) {
    const struct chv_column_stats *s = &a->v[i];
    const struct chv_column *col = s->column ? find_column(&x->t, s->column)
                                             : NULL;
    enum chv_colstats_kind k;
    if (col == NULL) {
      rc = chv_error_set(err, CHV_EINVAL, "table %s.%s has no column '%s'",
                         x->ldb, x->lname, s->column ? s->column : "");
      break;
    }
    if (!chv_colstats_kind_of(col->type, &k) || k != s->kind) {
      rc = chv_error_set(err, CHV_EINVAL,
                         "column %s of %s.%s is %s: no %s statistics",
                         col->name, x->ldb, x->lname, col->type,
                         chv_colstats_kind_name(s->kind));
      break;
    }
    names[i] = col->name;
    bool lng = k == CHV_COLSTATS_LONG || k == CHV_COLSTATS_DATE ||
               k == CHV_COLSTATS_TIMESTAMP;
    bool lohi = s->has_low_high;
    bool len = k == CHV_COLSTATS_STRING || k == CHV_COLSTATS_BINARY;
    bool ndv = k != CHV_COLSTATS_BOOLEAN && k != CHV_COLSTATS_BINARY;
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (part) sqlite3_bind_int64(st, 1, x->part_id);
    sqlite3_bind_int64(st, 2, x->tbl_id);
    sqlite3_bind_text(st, 3, col->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, col->type, -1, SQLITE_STATIC);
    bind_opt_int(st, 5, lng && lohi, s->long_low);
    bind_opt_int(st, 6, lng && lohi, s->long_high);
    if (k == CHV_COLSTATS_DOUBLE && lohi) {
      sqlite3_bind_double(st, 7, s->double_low);
      sqlite3_bind_double(st, 8, s->double_high);
    }
    if (k == CHV_COLSTATS_DECIMAL && lohi) {
      cat_bind_text(st, 9, s->decimal_low);
      cat_bind_text(st, 10, s->decimal_high);
    }
    sqlite3_bind_int64(st, 11, s->num_nulls < 0 ? 0 : s->num_nulls);
    bind_opt_int(st, 12, ndv && s->num_distincts >= 0, s->num_distincts);
    if (s->bit_vector && s->bit_vector_len > 0)
      sqlite3_bind_blob(st, 13, s->bit_vector, (int)s->bit_vector_len,
                        SQLITE_STATIC);
    if (len && s->avg_col_len >= 0) sqlite3_bind_double(st, 14, s->avg_col_len);
    bind_opt_int(st, 15, len && s->max_col_len >= 0, s->max_col_len);
    bind_opt_int(st, 16, k == CHV_COLSTATS_BOOLEAN, s->num_trues);
    bind_opt_int(st, 17, k == CHV_COLSTATS_BOOLEAN, s->num_falses);
    sqlite3_bind_int64(st, 18, s->last_analyzed > 0
                                   ? s->last_analyzed
                                   : chv_time_now_ms() / 1000);
    int src = sqlite3_step(st);
    if (src != SQLITE_DONE)
      rc = cat_sqlerr(c, src, err, "storing the statistics of column %s",
                      col->name);
  }
  sqlite3_finalize(st);
  if (rc == CHV_OK)
    rc = rewrite_accurate(c, x, true, false, false, false, names, a->n, err);
  chv_free(names);
  return rc;
}

int chv_catalog_set_column_stats(chv_catalog *c, const char *db,
                                 const char *table, const char *partition,
                                 const struct chv_column_stats *v, int n,
                                 struct chv_error *err) {
  struct set_arg a = {v, n};
  return with_target(c, db, table, partition, set_fn, &a, err);
}

int cat_colstats_prune(chv_catalog *c, int64_t tbl_id, struct chv_error *err) {
  static const char *const sql[] = {
      "DELETE FROM tab_col_stats WHERE tbl_id = ?1 AND NOT EXISTS (SELECT 1 "
      "FROM tbl_columns k WHERE k.tbl_id = ?1 AND k.is_pkey = 0 AND "
      "k.name = column_name AND k.type = column_type)",
      "DELETE FROM part_col_stats WHERE tbl_id = ?1 AND NOT EXISTS (SELECT 1 "
      "FROM tbl_columns k WHERE k.tbl_id = ?1 AND k.is_pkey = 0 AND "
      "k.name = column_name AND k.type = column_type)"};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(sql); i++) {
    sqlite3_stmt *st;
    CHV_RETURN_IF_ERR(cat_prepare(c, sql[i], &st, err));
    sqlite3_bind_int64(st, 1, tbl_id);
    int src = sqlite3_step(st);
    sqlite3_finalize(st);
    if (src != SQLITE_DONE)
      return cat_sqlerr(c, src, err, "dropping stale column statistics");
  }
  return CHV_OK;
}

/* ---- reading ------------------------------------------------------------- */

#define ROW_COLS                                                              \
  "column_type, long_low_value, long_high_value, double_low_value, "          \
  "double_high_value, big_decimal_low_value, big_decimal_high_value, "        \
  "num_nulls, num_distincts, bit_vector, avg_col_len, max_col_len, "          \
  "num_trues, num_falses, last_analyzed"

static int64_t col_int(sqlite3_stmt *st, int i, int64_t none) {
  return sqlite3_column_type(st, i) == SQLITE_NULL ? none
                                                   : sqlite3_column_int64(st, i);
}

/* A row (ROW_COLS from column 0) into s, whose column is set. */
static int read_row(sqlite3_stmt *st, struct chv_column_stats *s) {
  bool oom = false;
  s->type = cat_col_dup(st, 0, &oom);
  if (!chv_colstats_kind_of(s->type, &s->kind)) s->kind = CHV_COLSTATS_STRING;
  switch (s->kind) {
  case CHV_COLSTATS_LONG: case CHV_COLSTATS_DATE: case CHV_COLSTATS_TIMESTAMP:
    s->has_low_high = sqlite3_column_type(st, 1) != SQLITE_NULL;
    s->long_low = col_int(st, 1, 0);
    s->long_high = col_int(st, 2, 0);
    break;
  case CHV_COLSTATS_DOUBLE:
    s->has_low_high = sqlite3_column_type(st, 3) != SQLITE_NULL;
    s->double_low = sqlite3_column_double(st, 3);
    s->double_high = sqlite3_column_double(st, 4);
    break;
  case CHV_COLSTATS_DECIMAL:
    s->has_low_high = sqlite3_column_type(st, 5) != SQLITE_NULL;
    s->decimal_low = cat_col_dup(st, 5, &oom);
    s->decimal_high = cat_col_dup(st, 6, &oom);
    break;
  default:
    break;
  }
  s->num_nulls = col_int(st, 7, -1);
  s->num_distincts = col_int(st, 8, -1);
  int blen = sqlite3_column_bytes(st, 9);
  if (sqlite3_column_type(st, 9) == SQLITE_BLOB && blen > 0) {
    if ((s->bit_vector = chv_malloc((size_t)blen)) == NULL) {
      oom = true;
    } else {
      memcpy(s->bit_vector, sqlite3_column_blob(st, 9), (size_t)blen);
      s->bit_vector_len = (size_t)blen;
    }
  }
  s->avg_col_len = sqlite3_column_type(st, 10) == SQLITE_NULL
                       ? -1
                       : sqlite3_column_double(st, 10);
  s->max_col_len = col_int(st, 11, -1);
  s->num_trues = col_int(st, 12, -1);
  s->num_falses = col_int(st, 13, -1);
  s->last_analyzed = col_int(st, 14, 0);
  return oom ? CHV_ENOMEM : CHV_OK;
}

static bool in_list(char *const *v, int n, const char *s) {
  for (int i = 0; i < n; i++)
    if (!strcmp(v[i], s)) return true;
  return false;
}

/* The columns asked for, as the table's columns (in table order). */
static int pick_columns(const struct target *x, const char *const *columns,
                        int ncolumns, const struct chv_column ***out, int *n,
                        struct chv_error *err) {
  const struct chv_column **v =
      chv_calloc((size_t)x->t.ncols + 1, sizeof *v);
  if (v == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  for (int i = 0; i < ncolumns; i++)
    if (find_column(&x->t, columns[i]) == NULL) {
      chv_free(v);
      return chv_error_set(err, CHV_EINVAL, "table %s.%s has no column '%s'",
                           x->ldb, x->lname, columns[i]);
    }
  int k = 0;
  for (int i = 0; i < x->t.ncols; i++) {
    bool want = ncolumns == 0;
    for (int j = 0; j < ncolumns && !want; j++)
      want = chv_str_ieq(columns[j], x->t.columns[i].name);
    if (want) v[k++] = &x->t.columns[i];
  }
  *out = v;
  *n = k;
  return CHV_OK;
}

/* One target's rows (a table's, or one partition's). */
static int read_one(chv_catalog *c, const struct target *x,
                    const struct chv_column **cols, int ncols,
                    struct chv_column_stats *out, int *n,
                    struct chv_error *err) {
  struct chv_kv *kv = NULL;
  int nkv = 0;
  CHV_RETURN_IF_ERR(target_params(c, x, &kv, &nkv, err));
  bool basic;
  char **acc = NULL;
  int nacc = 0;
  int rc = chv_colstats_accurate_parse(chv_kv_get(kv, nkv, ACCURATE_KEY),
                                       &basic, &acc, &nacc);
  chv_kv_free(kv, nkv);
  if (rc != CHV_OK) return chv_error_set(err, rc, "out of memory");
  sqlite3_stmt *st;
  rc = cat_prepare(c,
                   x->part_id >= 0
                       ? "SELECT " ROW_COLS " FROM part_col_stats WHERE "
                         "part_id = ?1 AND column_name = ?2"
                       : "SELECT " ROW_COLS " FROM tab_col_stats WHERE "
                         "tbl_id = ?1 AND column_name = ?2",
                   &st, err);
  int k = 0;
  for (int i = 0; i < ncols && rc == CHV_OK; i++) {
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, x->part_id >= 0 ? x->part_id : x->tbl_id);
    sqlite3_bind_text(st, 2, cols[i]->name, -1, SQLITE_STATIC);
    int src = sqlite3_step(st);
    if (src == SQLITE_DONE) continue;
    if (src != SQLITE_ROW) {
      rc = cat_sqlerr(c, src, err, "reading the statistics of column %s",
                      cols[i]->name);
      break;
    }
    struct chv_column_stats *s = &out[k++];
    memset(s, 0, sizeof *s);
    s->column = chv_strdup(cols[i]->name);
    if (read_row(st, s) != CHV_OK || s->column == NULL)
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    s->accurate = in_list(acc, nacc, cols[i]->name);
  }
  sqlite3_finalize(st);
  chv_strv_free(acc, nacc);
  *n = k;
  return rc;
}

static int dec_cmp(const char *a, const char *b) {
  return (strtod(a, NULL) > strtod(b, NULL)) - (strtod(a, NULL) < strtod(b, NULL));
}

/* Merges partition statistics p into the aggregate a (weight: rows of the
** partition, less its NULLs, for the average length; -1 when unknown). */
static int merge_into(struct chv_column_stats *a, struct chv_column_stats *p,
                      int64_t *len_rows, int64_t rows, struct chv_hll *h,
                      bool *sketched, int64_t *max_ndv) {
  if (p->has_low_high) {
    bool first = !a->has_low_high;
    switch (a->kind) {
    case CHV_COLSTATS_LONG: case CHV_COLSTATS_DATE: case CHV_COLSTATS_TIMESTAMP:
      if (first || p->long_low < a->long_low) a->long_low = p->long_low;
      if (first || p->long_high > a->long_high) a->long_high = p->long_high;
      break;
    case CHV_COLSTATS_DOUBLE:
      if (first || p->double_low < a->double_low) a->double_low = p->double_low;
      if (first || p->double_high > a->double_high)
        a->double_high = p->double_high;
      break;
    case CHV_COLSTATS_DECIMAL:
      if (p->decimal_low && (first || !a->decimal_low ||
                             dec_cmp(p->decimal_low, a->decimal_low) < 0)) {
        chv_free(a->decimal_low);
        a->decimal_low = p->decimal_low;
        p->decimal_low = NULL;
      }
      if (p->decimal_high && (first || !a->decimal_high ||
                              dec_cmp(p->decimal_high, a->decimal_high) > 0)) {
        chv_free(a->decimal_high);
        a->decimal_high = p->decimal_high;
        p->decimal_high = NULL;
      }
      break;
    default:
      break;
    }
    a->has_low_high = true;
  }
  if (p->num_nulls >= 0) a->num_nulls += p->num_nulls;
  if (p->num_trues >= 0) a->num_trues = CHV_MAX(a->num_trues, 0) + p->num_trues;
  if (p->num_falses >= 0)
    a->num_falses = CHV_MAX(a->num_falses, 0) + p->num_falses;
  if (p->max_col_len > a->max_col_len) a->max_col_len = p->max_col_len;
  if (rows >= 0 && p->num_nulls >= 0) /* the average is of the values */
    rows = CHV_MAX(rows - p->num_nulls, 0);
  if (p->avg_col_len >= 0 && rows >= 0) {
    double total = (a->avg_col_len < 0 ? 0 : a->avg_col_len * (double)*len_rows) +
                   p->avg_col_len * (double)rows;
    *len_rows += rows;
    a->avg_col_len = *len_rows > 0 ? total / (double)*len_rows : p->avg_col_len;
  }
  if (p->num_distincts > *max_ndv) *max_ndv = p->num_distincts;
  if (p->bit_vector) {
    struct chv_hll ph = {0};
    if (chv_hll_deserialize(p->bit_vector, p->bit_vector_len, &ph, NULL) ==
        CHV_OK) {
      int rc = chv_hll_merge(h, &ph);
      chv_hll_free(&ph);
      if (rc != CHV_OK) return rc;
    } else {
      *sketched = false;
    }
  } else if (p->num_distincts >= 0) {
    *sketched = false;
  }
  if (p->last_analyzed > a->last_analyzed) a->last_analyzed = p->last_analyzed;
  if (!p->accurate) a->accurate = false;
  return CHV_OK;
}

/* A partitioned table's statistics: every partition's merged. */
static int read_merged(chv_catalog *c, const struct target *x,
                       const struct chv_column **cols, int ncols,
                       struct chv_column_stats *out, int *n,
                       struct chv_error *err) {
  /* the partitions, their numRows and COLUMN_STATS_ACCURATE */
  sqlite3_stmt *ps;
  CHV_RETURN_IF_ERR(cat_prepare(
      c,
      "SELECT p.part_id, (SELECT value FROM part_params q WHERE q.part_id = "
      "p.part_id AND q.key = 'numRows'), (SELECT value FROM part_params q "
      "WHERE q.part_id = p.part_id AND q.key = '" ACCURATE_KEY "') "
      "FROM parts p WHERE p.tbl_id = ?1 ORDER BY p.part_id",
      &ps, err));
  sqlite3_bind_int64(ps, 1, x->tbl_id);
  struct pinfo {
    int64_t id, rows;
    char **acc;
    int nacc;
  } *pv = NULL;
  int np = 0, cap = 0, src, rc = CHV_OK;
  while ((src = sqlite3_step(ps)) == SQLITE_ROW) {
    if (np == cap) {
      cap = cap ? cap * 2 : 16;
      struct pinfo *nv = chv_realloc(pv, sizeof *nv * (size_t)cap);
      if (nv == NULL) {
        rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
        break;
      }
      pv = nv;
    }
    struct pinfo *pi = &pv[np++];
    pi->id = sqlite3_column_int64(ps, 0);
    pi->rows = param_count((const char *)sqlite3_column_text(ps, 1));
    bool basic;
    if (chv_colstats_accurate_parse((const char *)sqlite3_column_text(ps, 2),
                                    &basic, &pi->acc, &pi->nacc) != CHV_OK) {
      pi->acc = NULL;
      pi->nacc = 0;
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      break;
    }
  }
  sqlite3_finalize(ps);
  if (rc == CHV_OK && src != SQLITE_DONE)
    rc = cat_sqlerr(c, src, err, "listing partitions");
  sqlite3_stmt *st = NULL;
  if (rc == CHV_OK)
    rc = cat_prepare(c,
                     "SELECT part_id, " ROW_COLS " FROM part_col_stats "
                     "WHERE tbl_id = ?1 AND column_name = ?2 ORDER BY part_id",
                     &st, err);
  int k = 0;
  for (int i = 0; i < ncols && rc == CHV_OK; i++) {
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, x->tbl_id);
    sqlite3_bind_text(st, 2, cols[i]->name, -1, SQLITE_STATIC);
    struct chv_column_stats *a = &out[k];
    memset(a, 0, sizeof *a);
    struct chv_hll h = {0};
    bool sketched = true, any = false;
    int64_t len_rows = 0, max_ndv = -1, nrows = 0;
    int pi = 0;
    while (rc == CHV_OK && (src = sqlite3_step(st)) == SQLITE_ROW) {
      int64_t part_id = sqlite3_column_int64(st, 0);
      while (pi < np && pv[pi].id < part_id) pi++;
      struct chv_column_stats p;
      memset(&p, 0, sizeof p);
      p.column = (char *)cols[i]->name;
      /* read_row reads from column 0: step past part_id with a view */
      rc = CHV_OK;
      {
        bool oom = false;
        p.type = cat_col_dup(st, 1, &oom);
        if (!chv_colstats_kind_of(p.type, &p.kind)) p.kind = CHV_COLSTATS_STRING;
        if (p.kind == CHV_COLSTATS_LONG || p.kind == CHV_COLSTATS_DATE ||
            p.kind == CHV_COLSTATS_TIMESTAMP) {
          p.has_low_high = sqlite3_column_type(st, 2) != SQLITE_NULL;
          p.long_low = col_int(st, 2, 0);
          p.long_high = col_int(st, 3, 0);
        } else if (p.kind == CHV_COLSTATS_DOUBLE) {
          p.has_low_high = sqlite3_column_type(st, 4) != SQLITE_NULL;
          p.double_low = sqlite3_column_double(st, 4);
          p.double_high = sqlite3_column_double(st, 5);
        } else if (p.kind == CHV_COLSTATS_DECIMAL) {
          p.has_low_high = sqlite3_column_type(st, 6) != SQLITE_NULL;
          p.decimal_low = cat_col_dup(st, 6, &oom);
          p.decimal_high = cat_col_dup(st, 7, &oom);
        }
        p.num_nulls = col_int(st, 8, -1);
        p.num_distincts = col_int(st, 9, -1);
        if (sqlite3_column_type(st, 10) == SQLITE_BLOB &&
            sqlite3_column_bytes(st, 10) > 0) {
          p.bit_vector = (unsigned char *)sqlite3_column_blob(st, 10);
          p.bit_vector_len = (size_t)sqlite3_column_bytes(st, 10);
        }
        p.avg_col_len = sqlite3_column_type(st, 11) == SQLITE_NULL
                            ? -1
                            : sqlite3_column_double(st, 11);
        p.max_col_len = col_int(st, 12, -1);
        p.num_trues = col_int(st, 13, -1);
        p.num_falses = col_int(st, 14, -1);
        p.last_analyzed = col_int(st, 15, 0);
        if (oom) rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      }
      p.accurate = pi < np && pv[pi].id == part_id &&
                   in_list(pv[pi].acc, pv[pi].nacc, cols[i]->name);
      int64_t rows = pi < np && pv[pi].id == part_id ? pv[pi].rows : -1;
      if (rc == CHV_OK && !any) {
        a->type = p.type;
        p.type = NULL;
        a->kind = p.kind;
        a->num_nulls = 0;
        a->num_trues = a->num_falses = -1;
        a->max_col_len = -1;
        a->avg_col_len = -1;
        a->accurate = true;
        any = true;
      }
      if (rc == CHV_OK && merge_into(a, &p, &len_rows, rows, &h, &sketched,
                                     &max_ndv) != CHV_OK)
        rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      nrows++;
      chv_free(p.type);
      chv_free(p.decimal_low);
      chv_free(p.decimal_high);
    }
    if (rc == CHV_OK && src != SQLITE_DONE && src != SQLITE_ROW)
      rc = cat_sqlerr(c, src, err, "reading the statistics of column %s",
                      cols[i]->name);
    if (rc == CHV_OK && any) {
      if (nrows < np) a->accurate = false; /* partitions without them */
      if (a->kind == CHV_COLSTATS_BOOLEAN || a->kind == CHV_COLSTATS_BINARY)
        a->num_distincts = -1;
      else if (sketched && (h.reg || h.n))
        a->num_distincts = chv_hll_count(&h);
      else
        a->num_distincts = max_ndv;
      if (sketched && (h.reg || h.n) &&
          chv_hll_serialize(&h, &a->bit_vector, &a->bit_vector_len) != CHV_OK)
        rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      if ((a->column = chv_strdup(cols[i]->name)) == NULL)
        rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      k++;
    } else if (any) {
      k++; /* freed by the caller */
    }
    chv_hll_free(&h);
  }
  sqlite3_finalize(st);
  for (int i = 0; i < np; i++) chv_strv_free(pv[i].acc, pv[i].nacc);
  chv_free(pv);
  *n = k;
  return rc;
}

int chv_catalog_column_stats(chv_catalog *c, const char *db, const char *table,
                             const char *partition, const char *const *columns,
                             int ncolumns, struct chv_column_stats **out,
                             int *n, struct chv_error *err) {
  CHV_RETURN_IF_ERR(cat_begin_read(c, err));
  struct target x;
  const struct chv_column **cols = NULL;
  int ncols = 0, k = 0;
  struct chv_column_stats *v = NULL;
  int rc = target_load(c, db, table, partition, &x, err);
  if (rc == CHV_OK) rc = pick_columns(&x, columns, ncolumns, &cols, &ncols, err);
  if (rc == CHV_OK && (v = chv_calloc((size_t)ncols + 1, sizeof *v)) == NULL)
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  if (rc == CHV_OK) {
    if (partition == NULL && x.t.npkeys > 0)
      rc = read_merged(c, &x, cols, ncols, v, &k, err);
    else
      rc = read_one(c, &x, cols, ncols, v, &k, err);
  }
  chv_free(cols);
  target_free(&x);
  if (rc == CHV_OK) rc = cat_commit(c, err);
  else cat_rollback(c);
  if (rc != CHV_OK) {
    chv_column_stats_free(v, k);
    return rc;
  }
  *out = v;
  *n = k;
  return CHV_OK;
}
