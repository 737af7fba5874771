/*
** partitions: partitions of the embedded metastore, and partition filters
** evaluated inside SQLite.
**
** A partition is a row of parts (its escaped name "k1=v1/k2=v2", unique per
** table, location, create time) with one row of part_values per key:
** value is the string (NULL for the default partition), num the same value
** parsed as a number when it is one (an INTEGER when it fits, else a REAL),
** for numeric comparisons.  Both are indexed by (tbl_id, idx, ...), so a
** filter on a key becomes an index lookup or range scan, never a load of
** every partition.
**
** A filter (struct chv_part_filter) becomes
**
**   SELECT p.* FROM parts p
**     JOIN part_values v0 ON v0.part_id = p.part_id AND v0.tbl_id = ?1
**                         AND v0.idx = 0          -- one join per used key
**   WHERE p.tbl_id = ?1 AND (<predicate over v0.value / v0.num>)
**
** with every literal a bound parameter.  Lists are ordered by "+p.name":
** the unary plus keeps SQLite from walking the (tbl_id, name) index in
** order, which would visit every partition of the table, and lets it start
** from the value index the filter constrains.
**
** INTERFACE
**   chv_catalog_add_partitions(), _drop_partitions()   atomic batches
**   chv_catalog_get_partition(), _get_partitions_by_names()
**   chv_catalog_list_partitions(), _list_partition_names(),
**   _count_partitions()                                 filtered in SQLite
**   chv_catalog_alter_partition(), _alter_partition_params()
*/
#include "catalog/catalog_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- values and names --------------------------------------------------- */

/* NULL, "" and the default partition name all mean the default partition. */
static const char *norm_value(const char *v) {
  if (v == NULL || v[0] == '\0' || strcmp(v, CHV_DEFAULT_PARTITION_NAME) == 0)
    return NULL;
  return v;
}

/* A strict number: all of s is an integer (*is_int) or a finite double. */
static bool parse_number(const char *s, bool *is_int, int64_t *i, double *d) {
  if (s == NULL || *s == '\0' || isspace((unsigned char)*s)) return false;
  char *end;
  errno = 0;
  long long x = strtoll(s, &end, 10);
  if (*end == '\0' && errno == 0) {
    *is_int = true;
    *i = (int64_t)x;
    return true;
  }
  errno = 0;
  double y = strtod(s, &end);
  if (*end != '\0' || !isfinite(y) || end == s) return false;
  /* refuse hex floats and the like: digits, sign, '.', exponent only */
  for (const char *p = s; *p; p++)
    if (!isdigit((unsigned char)*p) && !strchr("+-.eE", *p)) return false;
  *is_int = false;
  *d = y;
  return true;
}

/* How a key's values compare: as text, or as numbers. */
static bool key_is_numeric(const char *type) {
  static const char *const numeric[] = {"tinyint", "smallint", "int",
                                        "integer", "bigint",   "float",
                                        "double",  "real",     "decimal",
                                        "numeric"};
  while (isspace((unsigned char)*type)) type++;
  for (size_t i = 0; i < CHV_ARRAY_SIZE(numeric); i++) {
    size_t n = strlen(numeric[i]);
    if (chv_str_nieq(type, numeric[i], n) &&
        (type[n] == '\0' || type[n] == '(' || type[n] == ' '))
      return true;
  }
  return false;
}

static char **key_names(const struct chv_table *t) {
  char **v = chv_calloc((size_t)(t->npkeys ? t->npkeys : 1), sizeof *v);
  if (v)
    for (int i = 0; i < t->npkeys; i++) v[i] = t->pkeys[i].name;
  return v;
}

/* The escaped name of a value list (normalised), or NULL on OOM. */
static char *part_name(const struct chv_table *t, char *const *values) {
  char **keys = key_names(t);
  char **vals = chv_calloc((size_t)(t->npkeys ? t->npkeys : 1), sizeof *vals);
  char *name = NULL;
  if (keys && vals) {
    for (int i = 0; i < t->npkeys; i++) vals[i] = (char *)norm_value(values[i]);
    name = chv_partition_path(keys, vals, t->npkeys);
  }
  chv_free(keys);
  chv_free(vals);
  return name;
}

/* Where partition name of t lives: the given location without its scheme
** (a relative one under the table's location, as Hive resolves it), else
** name's folder under the table's location; *out NULL (and CHV_OK) when
** there is neither. */
static int part_location(const struct chv_table *t, const char *name,
                         const char *given, char **out,
                         struct chv_error *err) {
  char *loc;
  if (given) {
    const struct chv_fs *fs;
    const char *inner;
    CHV_RETURN_IF_ERR(chv_fs_for_path(given, &fs, &inner, err));
    loc = inner[0] != '/' && t->location ? chv_path_join(t->location, inner)
                                         : chv_strdup(inner);
  } else if (t->location) {
    loc = chv_path_join(t->location, name);
  } else {
    *out = NULL;
    return CHV_OK;
  }
  if (loc == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  *out = loc;
  return CHV_OK;
}

/* Loads db.table in the current transaction, requiring partition keys. */
static int load_partitioned(chv_catalog *c, const char *db, const char *table,
                            int64_t *id, struct chv_table *t,
                            struct chv_error *err) {
  char *ldb, *lname;
  CHV_RETURN_IF_ERR(cat_table_names(db, table, &ldb, &lname, err));
  int rc = cat_table_load(c, ldb, lname, id, t, err);
  if (rc == CHV_OK && t->npkeys == 0) {
    rc = chv_error_set(err, CHV_EINVAL, "table %s.%s is not partitioned", ldb,
                       lname);
    chv_table_free(t);
  }
  chv_free(lname);
  chv_free(ldb);
  return rc;
}

/* Begins a write (BEGIN IMMEDIATE) or read transaction and loads db.table
** in it, requiring partition keys; rolls back if either fails. */
static int begin_partitioned(chv_catalog *c, bool write, const char *db,
                             const char *table, int64_t *id,
                             struct chv_table *t, struct chv_error *err) {
  CHV_RETURN_IF_ERR(write ? cat_begin_write(c, err) : cat_begin_read(c, err));
  int rc = load_partitioned(c, db, table, id, t, err);
  if (rc) cat_rollback(c);
  return rc;
}

/* Loads values and parameters of one partition row. */
static int part_fill(chv_catalog *c, sqlite3_stmt *vals, sqlite3_stmt *params,
                     int64_t part_id, int npkeys, struct chv_partition *p,
                     struct chv_error *err) {
  p->values = chv_calloc((size_t)(npkeys ? npkeys : 1), sizeof *p->values);
  if (p->values == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  p->nvalues = npkeys;
  sqlite3_reset(vals);
  sqlite3_bind_int64(vals, 1, part_id);
  int src;
  bool oom = false;
  while ((src = sqlite3_step(vals)) == SQLITE_ROW) {
    int idx = sqlite3_column_int(vals, 0);
    if (idx >= 0 && idx < npkeys && p->values[idx] == NULL)
      p->values[idx] = cat_col_dup(vals, 1, &oom);
  }
  if (oom) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  if (src != SQLITE_DONE)
    return cat_sqlerr(c, src, err, "reading partition values");
  return cat_params_read(c, params, part_id, &p->params, &p->nparams, err);
}

/* Collects partitions from st, whose columns are part_id, name, location,
** create_time. */
static int collect_parts(chv_catalog *c, sqlite3_stmt *st, int npkeys,
                         struct chv_partition **out, int *n,
                         struct chv_error *err) {
  sqlite3_stmt *vals, *params;
  CHV_RETURN_IF_ERR(cat_prepare(c,
                                "SELECT idx, value FROM part_values "
                                "WHERE part_id = ?1",
                                &vals, err));
  int prc = cat_params_prepare(c, "part_params", "part_id", &params, err);
  if (prc) {
    sqlite3_finalize(vals);
    return prc;
  }
  struct chv_partition *v = NULL;
  int cnt = 0, cap = 0, rc = CHV_OK, src;
  while ((src = sqlite3_step(st)) == SQLITE_ROW) {
    if (cnt == cap) {
      int ncap = cap ? cap * 2 : 16;
      struct chv_partition *nv = chv_realloc(v, sizeof *nv * (size_t)ncap);
      if (nv == NULL) {
        rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
        break;
      }
      v = nv;
      cap = ncap;
    }
    struct chv_partition *p = &v[cnt++];
    memset(p, 0, sizeof *p);
    bool oom = false;
    p->name = cat_col_dup(st, 1, &oom);
    p->location = cat_col_dup(st, 2, &oom);
    p->create_time = sqlite3_column_int64(st, 3);
    if (oom) {
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      break;
    }
    rc = part_fill(c, vals, params, sqlite3_column_int64(st, 0), npkeys, p,
                   err);
    if (rc) break;
  }
  if (rc == CHV_OK && src != SQLITE_DONE)
    rc = cat_sqlerr(c, src, err, "listing partitions");
  sqlite3_finalize(vals);
  sqlite3_finalize(params);
  if (rc) {
    chv_partitions_free(v, cnt);
    return rc;
  }
  *out = v;
  *n = cnt;
  return CHV_OK;
}

/* ---- adding and dropping ------------------------------------------------ */

/* part_id and location of a partition by name; CHV_ENOENT if missing. */
static int part_lookup(chv_catalog *c, int64_t tbl_id, const char *name,
                       const struct chv_table *t, int64_t *part_id,
                       char **location, struct chv_error *err);

int chv_catalog_add_partitions(chv_catalog *c, const char *db,
                               const char *table,
                               const struct chv_partition *parts, int n,
                               unsigned flags, struct chv_error *err) {
  struct chv_table t;
  int64_t tbl_id;
  CHV_RETURN_IF_ERR(begin_partitioned(c, true, db, table, &tbl_id, &t, err));
  int rc = CHV_OK;
  bool numeric[t.npkeys];
  for (int k = 0; k < t.npkeys; k++) numeric[k] = key_is_numeric(t.pkeys[k].type);
  sqlite3_stmt *ins = NULL, *val = NULL;
  rc = cat_prepare(c,
                   "INSERT INTO parts(tbl_id, name, location, create_time) "
                   "VALUES(?1, ?2, rel_loc(?3), ?4) "
                   "ON CONFLICT(tbl_id, name) DO NOTHING",
                   &ins, err);
  if (rc == CHV_OK)
    rc = cat_prepare(c,
                     "INSERT INTO part_values(part_id, tbl_id, idx, value, "
                     "num) VALUES(?1, ?2, ?3, ?4, ?5)",
                     &val, err);
  int64_t now = chv_time_now_ms() / 1000;
  for (int i = 0; i < n && rc == CHV_OK; i++) {
    const struct chv_partition *p = &parts[i];
    if (p->nvalues != t.npkeys) {
      rc = chv_error_set(err, CHV_EINVAL,
                         "a partition of table %s.%s needs %d values, one "
                         "per partition key, not %d",
                         t.db, t.name, t.npkeys, p->nvalues);
      break;
    }
    char *name = part_name(&t, p->values);
    char *loc = NULL;
    if (name == NULL)
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    else
      rc = part_location(&t, name, p->location, &loc, err);
    if (rc) {
      chv_free(name);
      break;
    }
    sqlite3_reset(ins);
    sqlite3_bind_int64(ins, 1, tbl_id);
    sqlite3_bind_text(ins, 2, name, -1, SQLITE_STATIC);
    cat_bind_text(ins, 3, loc);
    sqlite3_bind_int64(ins, 4, now);
    int src = sqlite3_step(ins);
    if (src != SQLITE_DONE) {
      rc = cat_sqlerr(c, src, err, "adding partition %s to %s.%s", name, t.db,
                      t.name);
    } else if (sqlite3_changes(c->db) == 0) {
      if (flags & CHV_CAT_MERGE_PARAMS) {
        int64_t part_id;
        char *old_loc = NULL;
        rc = part_lookup(c, tbl_id, name, &t, &part_id, &old_loc, err);
        chv_free(old_loc);
        if (rc == CHV_OK)
          rc = cat_params_set(c, "part_params", "part_id", part_id, p->params,
                              p->nparams, err);
      } else if (!(flags & CHV_CAT_IF_NOT_EXISTS)) {
        rc = chv_error_set(err, CHV_EEXIST,
                           "partition %s of table %s.%s already exists", name,
                           t.db, t.name);
      }
    } else {
      int64_t part_id = sqlite3_last_insert_rowid(c->db);
      for (int k = 0; k < t.npkeys && rc == CHV_OK; k++) {
        const char *v = norm_value(p->values[k]);
        bool is_int;
        int64_t iv;
        double dv;
        sqlite3_reset(val);
        sqlite3_bind_int64(val, 1, part_id);
        sqlite3_bind_int64(val, 2, tbl_id);
        sqlite3_bind_int(val, 3, k);
        cat_bind_text(val, 4, v);
        if (numeric[k] && parse_number(v, &is_int, &iv, &dv)) {
          if (is_int)
            sqlite3_bind_int64(val, 5, iv);
          else
            sqlite3_bind_double(val, 5, dv);
        } else {
          sqlite3_bind_null(val, 5);
        }
        src = sqlite3_step(val);
        if (src != SQLITE_DONE)
          rc = cat_sqlerr(c, src, err, "adding partition %s", name);
      }
      if (rc == CHV_OK)
        rc = cat_params_set(c, "part_params", "part_id", part_id, p->params,
                            p->nparams, err);
    }
    chv_free(name);
    chv_free(loc);
  }
  sqlite3_finalize(ins);
  sqlite3_finalize(val);
  if (rc == CHV_OK)
    rc = cat_commit(c, err);
  else
    cat_rollback(c);
  chv_table_free(&t);
  return rc;
}

/* part_id and location of a partition by name; CHV_ENOENT if missing. */
static int part_lookup(chv_catalog *c, int64_t tbl_id, const char *name,
                       const struct chv_table *t, int64_t *part_id,
                       char **location, struct chv_error *err) {
  sqlite3_stmt *st;
  CHV_RETURN_IF_ERR(cat_prepare(c,
                                "SELECT part_id, abs_loc(location) FROM parts "
                                "WHERE tbl_id = ?1 AND name = ?2",
                                &st, err));
  sqlite3_bind_int64(st, 1, tbl_id);
  sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
  int src = sqlite3_step(st), rc = CHV_OK;
  if (src == SQLITE_ROW) {
    *part_id = sqlite3_column_int64(st, 0);
    if (location) {
      bool oom = false;
      *location = cat_col_dup(st, 1, &oom);
      if (oom) rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    }
  } else if (src == SQLITE_DONE) {
    rc = chv_error_set(err, CHV_ENOENT,
                       "partition %s of table %s.%s does not exist", name,
                       t->db, t->name);
  } else {
    rc = cat_sqlerr(c, src, err, "looking up partition %s", name);
  }
  sqlite3_finalize(st);
  return rc;
}

int chv_catalog_drop_partitions(chv_catalog *c, const char *db,
                                const char *table, char **const *values, int n,
                                unsigned flags, struct chv_error *err) {
  struct chv_table t;
  int64_t tbl_id;
  CHV_RETURN_IF_ERR(begin_partitioned(c, true, db, table, &tbl_id, &t, err));
  int rc = CHV_OK;
  char **locs = chv_calloc((size_t)(n ? n : 1), sizeof *locs);
  int nlocs = 0;
  sqlite3_stmt *del = NULL;
  if (locs == NULL) rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  if (rc == CHV_OK)
    rc = cat_prepare(c, "DELETE FROM parts WHERE part_id = ?1", &del, err);
  for (int i = 0; i < n && rc == CHV_OK; i++) {
    char *name = part_name(&t, values[i]);
    if (name == NULL) {
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      break;
    }
    int64_t part_id;
    char *loc = NULL;
    rc = part_lookup(c, tbl_id, name, &t, &part_id, &loc, err);
    chv_free(name);
    if (rc == CHV_ENOENT && (flags & CHV_CAT_IF_EXISTS)) {
      rc = CHV_OK;
      continue;
    }
    if (rc) break;
    locs[nlocs++] = loc;
    sqlite3_reset(del);
    sqlite3_bind_int64(del, 1, part_id);
    int src = sqlite3_step(del);
    if (src != SQLITE_DONE)
      rc = cat_sqlerr(c, src, err, "dropping a partition of %s.%s", t.db,
                      t.name);
  }
  sqlite3_finalize(del);
  if (rc == CHV_OK)
    rc = cat_commit(c, err);
  else
    cat_rollback(c);
  if (rc == CHV_OK && t.type == CHV_MANAGED_TABLE &&
      !(flags & CHV_CAT_KEEP_DATA)) {
    char what[300];
    snprintf(what, sizeof what, "a partition of table %s.%s", t.db, t.name);
    for (int i = 0; i < nlocs && rc == CHV_OK; i++)
      rc = cat_remove_data(c, locs[i], what, err);
  }
  chv_strv_free(locs, nlocs);
  chv_table_free(&t);
  return rc;
}

/* ---- reading ------------------------------------------------------------ */

static const char part_cols[] =
    "SELECT p.part_id, p.name, abs_loc(p.location), p.create_time "
    "FROM parts p ";

int chv_catalog_get_partition(chv_catalog *c, const char *db,
                              const char *table, char *const *values,
                              struct chv_partition *out,
                              struct chv_error *err) {
  struct chv_table t;
  int64_t tbl_id;
  CHV_RETURN_IF_ERR(begin_partitioned(c, false, db, table, &tbl_id, &t, err));
  int rc = CHV_OK;
  char *name = part_name(&t, values);
  sqlite3_stmt *st = NULL;
  if (name == NULL) rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  if (rc == CHV_OK)
    rc = cat_prepare(c,
                     "SELECT p.part_id, p.name, abs_loc(p.location), "
                     "p.create_time FROM parts p "
                     "WHERE p.tbl_id = ?1 AND p.name = ?2",
                     &st, err);
  struct chv_partition *v = NULL;
  int n = 0;
  if (rc == CHV_OK) {
    sqlite3_bind_int64(st, 1, tbl_id);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    rc = collect_parts(c, st, t.npkeys, &v, &n, err);
  }
  if (rc == CHV_OK && n == 0)
    rc = chv_error_set(err, CHV_ENOENT,
                       "partition %s of table %s.%s does not exist", name,
                       t.db, t.name);
  if (rc == CHV_OK) {
    *out = v[0];
    chv_free(v);
  } else {
    chv_partitions_free(v, n);
  }
  sqlite3_finalize(st);
  cat_rollback(c);
  chv_free(name);
  chv_table_free(&t);
  return rc;
}

int chv_catalog_get_partitions_by_names(chv_catalog *c, const char *db,
                                        const char *table, char *const *names,
                                        int nnames,
                                        struct chv_partition **parts, int *n,
                                        struct chv_error *err) {
  struct chv_table t;
  int64_t tbl_id;
  CHV_RETURN_IF_ERR(begin_partitioned(c, false, db, table, &tbl_id, &t, err));
  int rc = CHV_OK;
  struct chv_partition *all = chv_calloc((size_t)(nnames ? nnames : 1),
                                         sizeof *all);
  int cnt = 0;
  sqlite3_stmt *st = NULL;
  if (all == NULL) rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  if (rc == CHV_OK)
    rc = cat_prepare(c,
                     "SELECT p.part_id, p.name, abs_loc(p.location), "
                     "p.create_time FROM parts p "
                     "WHERE p.tbl_id = ?1 AND p.name = ?2",
                     &st, err);
  for (int i = 0; i < nnames && rc == CHV_OK; i++) {
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, tbl_id);
    sqlite3_bind_text(st, 2, names[i], -1, SQLITE_STATIC);
    struct chv_partition *one;
    int got;
    rc = collect_parts(c, st, t.npkeys, &one, &got, err);
    if (rc) break;
    if (got == 1) all[cnt++] = one[0];
    chv_free(one);
  }
  sqlite3_finalize(st);
  cat_rollback(c);
  chv_table_free(&t);
  if (rc) {
    chv_partitions_free(all, cnt);
    return rc;
  }
  *parts = all;
  *n = cnt;
  return CHV_OK;
}

/* ---- filters ------------------------------------------------------------ */

enum bind_kind { BIND_NULL, BIND_INT, BIND_REAL, BIND_TEXT };
struct bind {
  enum bind_kind kind;
  int64_t i;
  double d;
  const char *s; /* borrowed from the filter */
};

struct fsql {
  const struct chv_table *t;
  bool as_read;         /* under CHV_PF_DEFAULT_NAME */
  const char *defname;  /* its name, when not Hive's own; else NULL */
  bool *used;      /* per key: joined */
  struct chv_buf where;
  struct bind *binds;
  int nbinds, cap;
  struct chv_error *err;
};

static int fsql_bind(struct fsql *q, const struct bind *b) {
  if (q->nbinds == q->cap) {
    int cap = q->cap ? q->cap * 2 : 16;
    struct bind *v = chv_realloc(q->binds, sizeof *v * (size_t)cap);
    if (v == NULL) return chv_error_set(q->err, CHV_ENOMEM, "out of memory");
    q->binds = v;
    q->cap = cap;
  }
  q->binds[q->nbinds++] = *b;
  return chv_buf_putc(&q->where, '?') ? chv_error_set(q->err, CHV_ENOMEM,
                                                      "out of memory")
                                      : CHV_OK;
}

static int find_key(struct fsql *q, const char *key, int *idx) {
  for (int i = 0; key && i < q->t->npkeys; i++) {
    if (chv_str_ieq(q->t->pkeys[i].name, key)) {
      *idx = i;
      q->used[i] = true;
      return CHV_OK;
    }
  }
  return chv_error_set(q->err, CHV_EINVAL,
                       "filter on %s, which is not a partition key of table "
                       "%s.%s",
                       key ? key : "(null)", q->t->db, q->t->name);
}

static int lit_bind(struct fsql *q, int k, const char *lit) {
  struct bind b = {BIND_NULL, 0, 0, NULL};
  if (lit != NULL && key_is_numeric(q->t->pkeys[k].type)) {
    bool is_int;
    if (!parse_number(lit, &is_int, &b.i, &b.d))
      return chv_error_set(q->err, CHV_ETYPE,
                           "filter literal '%s' is not a number, but "
                           "partition key %s of table %s.%s is %s",
                           lit, q->t->pkeys[k].name, q->t->db, q->t->name,
                           q->t->pkeys[k].type);
    b.kind = is_int ? BIND_INT : BIND_REAL;
  } else if (lit != NULL) {
    b.kind = BIND_TEXT;
    b.s = lit;
  }
  return fsql_bind(q, &b);
}

static int put(struct fsql *q, const char *s) {
  if (chv_buf_puts(&q->where, s))
    return chv_error_set(q->err, CHV_ENOMEM, "out of memory");
  return CHV_OK;
}

/* A string, varchar or char key: its default partition reads as the name. */
static bool key_is_string(const char *type) {
  return chv_str_nieq(type, "string", 6) || chv_str_nieq(type, "varchar", 7) ||
         chv_str_nieq(type, "char", 4);
}

/* "v3.num" or "v3.value"; as rows read them under CHV_PF_DEFAULT_NAME. */
static int put_col(struct fsql *q, int k, bool as_number) {
  const char *col = as_number ? "num" : "value";
  int e;
  if (!q->as_read) {
    e = chv_buf_printf(&q->where, "v%d.%s", k, col);
  } else if (key_is_string(q->t->pkeys[k].type)) {
    e = chv_buf_printf(&q->where, "coalesce(v%d.value, '%s')", k,
                       CHV_DEFAULT_PARTITION_NAME);
  } else if (q->defname) {
    struct bind b = {BIND_TEXT, 0, 0, q->defname};
    if (chv_buf_printf(&q->where, "(CASE WHEN v%d.value = ", k))
      return chv_error_set(q->err, CHV_ENOMEM, "out of memory");
    CHV_RETURN_IF_ERR(fsql_bind(q, &b));
    e = chv_buf_printf(&q->where, " THEN NULL ELSE v%d.%s END)", k, col);
  } else {
    e = chv_buf_printf(&q->where, "v%d.%s", k, col);
  }
  if (e) return chv_error_set(q->err, CHV_ENOMEM, "out of memory");
  return CHV_OK;
}

static int fsql_node(struct fsql *q, const struct chv_part_filter *f,
                     int depth) {
  static const char *const ops[] = {" = ", " <> ", " < ", " <= ", " > ",
                                    " >= "};
  if (f == NULL)
    return chv_error_set(q->err, CHV_EINVAL, "partition filter has a NULL "
                         "node");
  if (depth > 1000)
    return chv_error_set(q->err, CHV_EINVAL,
                         "partition filter is nested too deeply");
  int k, rc;
  switch (f->kind) {
  case CHV_PF_AND:
  case CHV_PF_OR:
    if (f->nkids <= 0)
      return put(q, f->kind == CHV_PF_AND ? "1" : "0");
    CHV_RETURN_IF_ERR(put(q, "("));
    for (int i = 0; i < f->nkids; i++) {
      if (i) CHV_RETURN_IF_ERR(put(q, f->kind == CHV_PF_AND ? " AND " : " OR "));
      CHV_RETURN_IF_ERR(fsql_node(q, f->kids[i], depth + 1));
    }
    return put(q, ")");
  case CHV_PF_NOT:
    if (f->nkids != 1)
      return chv_error_set(q->err, CHV_EINVAL, "NOT needs one operand");
    CHV_RETURN_IF_ERR(put(q, "NOT ("));
    CHV_RETURN_IF_ERR(fsql_node(q, f->kids[0], depth + 1));
    return put(q, ")");
  case CHV_PF_CMP:
    if ((unsigned)f->cmp >= CHV_ARRAY_SIZE(ops) || f->nlits != 1)
      return chv_error_set(q->err, CHV_EINVAL, "malformed comparison");
    CHV_RETURN_IF_ERR(find_key(q, f->key, &k));
    if (f->lits[0] == NULL) return put(q, "NULL");
    CHV_RETURN_IF_ERR(put(q, "("));
    CHV_RETURN_IF_ERR(put_col(q, k, key_is_numeric(q->t->pkeys[k].type)));
    CHV_RETURN_IF_ERR(put(q, ops[f->cmp]));
    CHV_RETURN_IF_ERR(lit_bind(q, k, f->lits[0]));
    return put(q, ")");
  case CHV_PF_IN:
    CHV_RETURN_IF_ERR(find_key(q, f->key, &k));
    if (f->nlits == 0) return put(q, f->negated ? "1" : "0");
    CHV_RETURN_IF_ERR(put(q, "("));
    CHV_RETURN_IF_ERR(put_col(q, k, key_is_numeric(q->t->pkeys[k].type)));
    CHV_RETURN_IF_ERR(put(q, f->negated ? " NOT IN (" : " IN ("));
    for (int i = 0; i < f->nlits; i++) {
      if (i) CHV_RETURN_IF_ERR(put(q, ", "));
      CHV_RETURN_IF_ERR(lit_bind(q, k, f->lits[i]));
    }
    return put(q, "))");
  case CHV_PF_BETWEEN:
    if (f->nlits != 2)
      return chv_error_set(q->err, CHV_EINVAL, "BETWEEN needs two literals");
    CHV_RETURN_IF_ERR(find_key(q, f->key, &k));
    CHV_RETURN_IF_ERR(put(q, "("));
    CHV_RETURN_IF_ERR(put_col(q, k, key_is_numeric(q->t->pkeys[k].type)));
    CHV_RETURN_IF_ERR(put(q, f->negated ? " NOT BETWEEN " : " BETWEEN "));
    CHV_RETURN_IF_ERR(lit_bind(q, k, f->lits[0]));
    CHV_RETURN_IF_ERR(put(q, " AND "));
    CHV_RETURN_IF_ERR(lit_bind(q, k, f->lits[1]));
    return put(q, ")");
  case CHV_PF_IS_NULL:
    CHV_RETURN_IF_ERR(find_key(q, f->key, &k));
    CHV_RETURN_IF_ERR(put(q, "("));
    CHV_RETURN_IF_ERR(put_col(q, k, false));
    return put(q, f->negated ? " IS NOT NULL)" : " IS NULL)");
  case CHV_PF_DEFAULT_NAME: {
    if (f->nkids != 1 || f->nlits != 1)
      return chv_error_set(q->err, CHV_EINVAL,
                           "DEFAULT_NAME needs one operand and one name");
    bool as_read = q->as_read;
    const char *defname = q->defname;
    q->as_read = true;
    q->defname = f->lits[0] && f->lits[0][0] &&
                         strcmp(f->lits[0], CHV_DEFAULT_PARTITION_NAME) != 0
                     ? f->lits[0]
                     : NULL;
    rc = fsql_node(q, f->kids[0], depth + 1);
    q->as_read = as_read;
    q->defname = defname;
    return rc;
  }
  }
  rc = chv_error_set(q->err, CHV_EINVAL, "unknown partition filter node %d",
                     (int)f->kind);
  return rc;
}

/* Prepares "<select> FROM parts p <joins> WHERE p.tbl_id = ?1 [AND filter]
** <tail>" with all parameters bound. */
static int filter_prepare(chv_catalog *c, const struct chv_table *t,
                          int64_t tbl_id, const char *select,
                          const struct chv_part_filter *f, const char *tail,
                          sqlite3_stmt **out, struct chv_error *err) {
  struct fsql q;
  memset(&q, 0, sizeof q);
  q.t = t;
  q.err = err;
  chv_buf_init(&q.where);
  bool used[t->npkeys ? t->npkeys : 1];
  memset(used, 0, sizeof used);
  q.used = used;
  struct chv_buf sql;
  chv_buf_init(&sql);
  int rc = f ? fsql_node(&q, f, 0) : CHV_OK;
  if (rc) goto out_free;
  if (chv_buf_puts(&sql, select)) goto out_nomem;
  for (int k = 0; k < t->npkeys; k++)
    if (used[k] &&
        chv_buf_printf(&sql,
                       "JOIN part_values v%d ON v%d.part_id = p.part_id AND "
                       "v%d.tbl_id = ?1 AND v%d.idx = %d ",
                       k, k, k, k, k))
      goto out_nomem;
  if (chv_buf_puts(&sql, "WHERE p.tbl_id = ?1")) goto out_nomem;
  if (f && chv_buf_printf(&sql, " AND %s", q.where.data)) goto out_nomem;
  if (chv_buf_puts(&sql, tail)) goto out_nomem;
  sqlite3_stmt *st;
  if ((rc = cat_prepare(c, sql.data, &st, err)) != CHV_OK) goto out_free;
  sqlite3_bind_int64(st, 1, tbl_id);
  for (int i = 0; i < q.nbinds; i++) {
    const struct bind *b = &q.binds[i];
    switch (b->kind) {
    case BIND_NULL: sqlite3_bind_null(st, i + 2); break;
    case BIND_INT: sqlite3_bind_int64(st, i + 2, b->i); break;
    case BIND_REAL: sqlite3_bind_double(st, i + 2, b->d); break;
    case BIND_TEXT:
      sqlite3_bind_text(st, i + 2, b->s, -1, SQLITE_TRANSIENT);
      break;
    }
  }
  *out = st;
  goto out_free;

out_nomem:
  rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
out_free:
  chv_buf_free(&sql);
  chv_buf_free(&q.where);
  chv_free(q.binds);
  return rc;
}

int chv_catalog_list_partitions(chv_catalog *c, const char *db,
                                const char *table,
                                const struct chv_part_filter *filter,
                                struct chv_partition **parts, int *n,
                                struct chv_error *err) {
  struct chv_table t;
  int64_t tbl_id;
  CHV_RETURN_IF_ERR(begin_partitioned(c, false, db, table, &tbl_id, &t, err));
  sqlite3_stmt *st;
  int rc = filter_prepare(c, &t, tbl_id, part_cols, filter,
                          " ORDER BY +p.name", &st, err);
  if (rc == CHV_OK) {
    rc = collect_parts(c, st, t.npkeys, parts, n, err);
    sqlite3_finalize(st);
  }
  cat_rollback(c);
  chv_table_free(&t);
  return rc;
}

int chv_catalog_list_partition_names(chv_catalog *c, const char *db,
                                     const char *table,
                                     const struct chv_part_filter *filter,
                                     char ***names, int *n,
                                     struct chv_error *err) {
  struct chv_table t;
  int64_t tbl_id;
  CHV_RETURN_IF_ERR(begin_partitioned(c, false, db, table, &tbl_id, &t, err));
  sqlite3_stmt *st;
  int rc = filter_prepare(c, &t, tbl_id, "SELECT p.name FROM parts p ",
                          filter, " ORDER BY +p.name", &st, err);
  char **v = NULL;
  int cnt = 0;
  if (rc == CHV_OK) {
    int src = cat_step_names(st, NULL, &v, &cnt);
    if (src == SQLITE_ROW)
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    else if (src != SQLITE_DONE)
      rc = cat_sqlerr(c, src, err, "listing partitions");
    sqlite3_finalize(st);
  }
  cat_rollback(c);
  chv_table_free(&t);
  if (rc) {
    chv_strv_free(v, cnt);
    return rc;
  }
  *names = v;
  *n = cnt;
  return CHV_OK;
}

int chv_catalog_count_partitions(chv_catalog *c, const char *db,
                                 const char *table,
                                 const struct chv_part_filter *filter,
                                 int64_t *count, struct chv_error *err) {
  struct chv_table t;
  int64_t tbl_id;
  CHV_RETURN_IF_ERR(begin_partitioned(c, false, db, table, &tbl_id, &t, err));
  sqlite3_stmt *st;
  int rc = filter_prepare(c, &t, tbl_id, "SELECT count(*) FROM parts p ",
                          filter, "", &st, err);
  if (rc == CHV_OK) {
    int src = sqlite3_step(st);
    if (src == SQLITE_ROW)
      *count = sqlite3_column_int64(st, 0);
    else
      rc = cat_sqlerr(c, src, err, "counting partitions");
    sqlite3_finalize(st);
  }
  cat_rollback(c);
  chv_table_free(&t);
  return rc;
}

/* ---- altering ----------------------------------------------------------- */

int chv_catalog_alter_partition_params(chv_catalog *c, const char *db,
                                       const char *table, char *const *values,
                                       const struct chv_kv *set, int nset,
                                       struct chv_error *err) {
  struct chv_table t;
  int64_t tbl_id, part_id;
  CHV_RETURN_IF_ERR(begin_partitioned(c, true, db, table, &tbl_id, &t, err));
  int rc = CHV_OK;
  char *name = part_name(&t, values);
  if (name == NULL) rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  if (rc == CHV_OK) rc = part_lookup(c, tbl_id, name, &t, &part_id, NULL, err);
  if (rc == CHV_OK)
    rc = cat_params_set(c, "part_params", "part_id", part_id, set, nset, err);
  if (rc == CHV_OK)
    rc = cat_commit(c, err);
  else
    cat_rollback(c);
  chv_free(name);
  chv_table_free(&t);
  return rc;
}

int chv_catalog_alter_partition(chv_catalog *c, const char *db,
                                const char *table,
                                const struct chv_partition *p,
                                struct chv_error *err) {
  struct chv_table t;
  int64_t tbl_id, part_id;
  CHV_RETURN_IF_ERR(begin_partitioned(c, true, db, table, &tbl_id, &t, err));
  int rc = CHV_OK;
  char *name = NULL, *loc = NULL;
  if (p->nvalues != t.npkeys)
    rc = chv_error_set(err, CHV_EINVAL,
                       "a partition of table %s.%s needs %d values, not %d",
                       t.db, t.name, t.npkeys, p->nvalues);
  if (rc == CHV_OK && (name = part_name(&t, p->values)) == NULL)
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
  if (rc == CHV_OK) rc = part_lookup(c, tbl_id, name, &t, &part_id, NULL, err);
  if (rc == CHV_OK) rc = part_location(&t, name, p->location, &loc, err);
  static const char *const sqls[] = {
      "UPDATE parts SET location = rel_loc(?2) WHERE part_id = ?1",
      "DELETE FROM part_params WHERE part_id = ?1"};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(sqls) && rc == CHV_OK; i++) {
    sqlite3_stmt *st;
    if ((rc = cat_prepare(c, sqls[i], &st, err)) != CHV_OK) break;
    sqlite3_bind_int64(st, 1, part_id);
    if (i == 0) cat_bind_text(st, 2, loc);
    int src = sqlite3_step(st);
    sqlite3_finalize(st);
    if (src != SQLITE_DONE)
      rc = cat_sqlerr(c, src, err, "altering partition %s", name);
  }
  if (rc == CHV_OK)
    rc = cat_params_set(c, "part_params", "part_id", part_id, p->params,
                        p->nparams, err);
  if (rc == CHV_OK)
    rc = cat_commit(c, err);
  else
    cat_rollback(c);
  chv_free(name);
  chv_free(loc);
  chv_table_free(&t);
  return rc;
}
