/*
** sql/session/catalogs: the catalogs of a `chive sql` session.  The session
** starts with one, "hive", on the --warehouse folder's embedded metastore;
** CREATE CATALOG c WITH ('type'='hive', ...) adds more for the session's
** lifetime, as Flink's SQL client keeps them in memory:
**
**   type              required, 'hive'
**   hive-conf-dir     folder (or file:// URI) with hive-site.xml, whose
**                     hive.metastore.warehouse.dir is the catalog's
**                     warehouse; unset: the session's warehouse
**   hadoop-conf-dir   folder holding core-, hdfs-, yarn- or mapred-site.xml
**   hive-version      1.x, 2.x or 3.x, recorded (no shims are needed)
**   default-database  current database when the catalog is used; it must
**                     exist (default 'default')
**   property-version  accepted
**
** Any other key is an error naming it and the keys there are.
*/
#include "sql/session/session_int.h"
#include "chive/fs.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

int sql_catalog_find(const struct sql_session *s, const char *name) {
  for (int i = 0; i < s->ncats; i++)
    if (!strcasecmp(s->cats[i].name, name)) return i;
  return -1;
}

int sql_recover(struct sql_session *s, chv_catalog *cat,
                struct chv_error *err) {
  struct chv_recovery r;
  int rc = chv_warehouse_recover(cat, &r, err);
  if (rc != CHV_OK) return rc;
  int n = r.finished + r.undone + r.discarded;
  if (n > 0 && s->notice) {
    char msg[4600];
    snprintf(msg, sizeof msg,
             "%s: recovered %d interrupted write%s (%d finished, %d undone, "
             "%d discarded)",
             chv_catalog_warehouse(cat), n, n == 1 ? "" : "s", r.finished,
             r.undone, r.discarded);
    s->notice(s->notice_ctx, msg);
  }
  return CHV_OK;
}

void sql_catalog_use(struct sql_session *s, int i) {
  s->cur = i;
  s->cat = s->cats[i].cat;
  snprintf(s->db, sizeof s->db, "%s", s->cats[i].default_db);
}

static const char *const catalog_keys[] = {
    "type", "hive-conf-dir", "hadoop-conf-dir", "hive-version",
    "default-database", "property-version"};
#define NKEYS (sizeof catalog_keys / sizeof catalog_keys[0])

/* A local path from a folder option: a path or a file:// URI. */
static int local_dir(const char *key, const char *v, const char **path,
                     struct chv_error *err) {
  if (!strncasecmp(v, "file://", 7)) v += 7;
  else if (strstr(v, "://"))
    return sql_err(err, CHV_ENOTSUP,
                   "'%s' = '%s': only local folders are supported", key, v);
  struct stat st;
  if (stat(v, &st) != 0 || !S_ISDIR(st.st_mode))
    return sql_err(err, CHV_ENOENT, "'%s' = '%s': no such folder", key, v);
  *path = v;
  return CHV_OK;
}

static int check_hadoop_dir(const char *dir, struct chv_error *err) {
  static const char *const files[] = {"core-site.xml", "hdfs-site.xml",
                                      "yarn-site.xml", "mapred-site.xml"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char *p = chv_path_join(dir, files[i]);
    if (!p) return sql_err(err, CHV_ENOMEM, "out of memory");
    struct stat st;
    int ok = stat(p, &st) == 0;
    chv_free(p);
    if (ok) return CHV_OK;
  }
  return sql_err(err, CHV_ENOENT,
                 "'hadoop-conf-dir' = '%s' holds none of core-site.xml, "
                 "hdfs-site.xml, yarn-site.xml and mapred-site.xml", dir);
}

/* 1.x, 2.x or 3.x: digits and dots, major version 1 to 3. */
static bool version_ok(const char *v) {
  if (*v < '1' || *v > '3' || v[1] != '.') return false;
  bool digit = false;
  for (const char *p = v + 2; *p; p++) {
    if (isdigit((unsigned char)*p)) digit = true;
    else if (*p == '.' && digit) digit = false;
    else return false;
  }
  return digit;
}

int sql_catalog_create(struct sql_session *s, const struct chv_sql_stmt *st,
                       struct chv_sql_pos *pos, struct chv_error *err) {
  const char *name = st->name.parts[0];
  if (sql_catalog_find(s, name) >= 0) {
    if (st->if_not_exists) return CHV_OK;
    *pos = st->name.pos;
    return sql_err(err, CHV_EEXIST, "catalog '%s' already exists", name);
  }
  if (strlen(name) >= sizeof s->cats[0].name) {
    *pos = st->name.pos;
    return sql_err(err, CHV_EINVAL, "catalog name '%s' is too long", name);
  }
  if (s->ncats == SQL_MAX_CATALOGS)
    return sql_err(err, CHV_ERANGE, "a session holds at most %d catalogs",
                   SQL_MAX_CATALOGS);
  const char *v[NKEYS] = {0};
  struct chv_sql_pos vp[NKEYS]; /* where each option is written */
  for (size_t i = 0; i < st->props.n; i++) {
    const struct chv_sql_prop *pr = &st->props.items[i];
    size_t k = 0;
    while (k < NKEYS && strcmp(pr->key, catalog_keys[k])) k++;
    *pos = pr->pos;
    if (k == NKEYS)
      return sql_err(err, CHV_EINVAL,
                     "unsupported option '%s' for a catalog of type 'hive' "
                     "(supported: type, hive-conf-dir, hadoop-conf-dir, "
                     "hive-version, default-database, property-version)",
                     pr->key);
    v[k] = pr->value ? pr->value : "";
    vp[k] = pr->pos;
  }
  *pos = st->pos;
  if (!v[0])
    return sql_err(err, CHV_EINVAL,
                   "catalog '%s': option 'type' is missing (expected "
                   "'type' = 'hive')", name);
  *pos = vp[0];
  if (strcasecmp(v[0], "hive"))
    return sql_err(err, CHV_ENOTSUP,
                   "catalog '%s': type '%s' is not supported (only 'hive')",
                   name, v[0]);
  if (v[3]) *pos = vp[3];
  if (v[3] && !version_ok(v[3]))
    return sql_err(err, CHV_EINVAL,
                   "'hive-version' = '%s': expected a Hive version 1.x, 2.x "
                   "or 3.x such as '3.1.3'", v[3]);
  if (v[3] && strlen(v[3]) >= sizeof s->cats[0].version)
    return sql_err(err, CHV_EINVAL, "'hive-version' = '%s' is too long", v[3]);
  *pos = v[4] ? vp[4] : st->pos;
  const char *dbname = v[4] ? v[4] : "default";
  if (!*dbname || strlen(dbname) >= sizeof s->cats[0].default_db)
    return sql_err(err, CHV_EINVAL, "'default-database' = '%s' is not a "
                   "database name", dbname);
  const char *dir;
  int rc;
  if (v[2]) {
    *pos = vp[2];
    if ((rc = local_dir("hadoop-conf-dir", v[2], &dir, err)) != CHV_OK ||
        (rc = check_hadoop_dir(dir, err)) != CHV_OK)
      return rc;
  }
  chv_catalog *cat = NULL;
  if (v[1]) {
    *pos = vp[1];
    if ((rc = local_dir("hive-conf-dir", v[1], &dir, err)) != CHV_OK) return rc;
    rc = chv_catalog_open_conf_dir(dir, NULL, &cat, err);
    if (rc == CHV_OK && (rc = sql_recover(s, cat, err)) != CHV_OK)
      chv_catalog_close(cat);
  } else {
    rc = chv_catalog_open(chv_catalog_warehouse(s->cats[0].cat), NULL, &cat,
                          err);
  }
  if (rc != CHV_OK) {
    chv_error_wrap(err, "catalog '%s'", name);
    return rc;
  }
  *pos = v[4] ? vp[4] : st->pos;
  struct chv_database d;
  rc = chv_catalog_get_database(cat, dbname, &d, err);
  if (rc != CHV_OK) {
    chv_catalog_close(cat);
    if (rc == CHV_ENOENT)
      return sql_err(err, CHV_ENOENT,
                     "catalog '%s': the default database '%s' does not exist",
                     name, dbname);
    return rc;
  }
  struct sql_catalog *c = &s->cats[s->ncats++];
  memset(c, 0, sizeof *c);
  snprintf(c->name, sizeof c->name, "%s", name);
  snprintf(c->default_db, sizeof c->default_db, "%s", d.name);
  snprintf(c->version, sizeof c->version, "%s", v[3] ? v[3] : "");
  c->cat = cat;
  chv_database_free(&d);
  return CHV_OK;
}
