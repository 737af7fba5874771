/*
** MSCK REPAIR TABLE and TRUNCATE TABLE.  MSCK: partition folders found under a table's location that
** the metastore lacks are registered, all in one transaction, with their
** numFiles and totalSize.  Folder names are checked as Hive checks them with
** hive.msck.path.validation=throw (its default): at depth d every folder
** must be <key d>=<value>, else the repair fails naming the folder.
*/
#include "connector/connector_int.h"

#include <stdio.h>

/* The files a write in progress hides from readers. */
struct hidden {
  char **paths;
  int n;
};

/* Collect partition folders under dir (relative path rel) at depth d.  The
** files of writes in progress are not counted, and a folder holding only
** such files is left to its writer. */
static int repair_walk(const struct chv_fs *fs, const struct chv_table *t,
                       const struct hidden *h, const char *dir,
                       const char *rel, int d, struct chv_partition **found,
                       int *nfound, int *cap, struct chv_error *err) {
  struct chv_dirlist l = {0};
  CHV_RETURN_IF_ERR(fs->list(fs, dir, CHV_LIST_SKIP_HIDDEN, &l, err));
  int rc = CHV_OK;
  for (size_t i = 0; rc == CHV_OK && i < l.count; i++) {
    const struct chv_dirent *e = &l.entries[i];
    if (!e->st.is_dir) continue; /* files above the partition depth */
    const char *eq = strchr(e->name, '=');
    size_t klen = eq ? (size_t)(eq - e->name) : 0;
    if (eq == NULL || klen != strlen(t->pkeys[d].name) ||
        !chv_str_nieq(e->name, t->pkeys[d].name, klen)) {
      rc = chv_error_set(err, CHV_EINVAL,
                         "MSCK REPAIR TABLE %s.%s: folder %s is not a "
                         "partition: expected '%s=<value>' at this depth",
                         t->db, t->name, e->path, t->pkeys[d].name);
      break;
    }
    char *sub = rel[0] ? chv_asprintf("%s/%s", rel, e->name)
                       : chv_strdup(e->name);
    if (sub == NULL) {
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      break;
    }
    if (d + 1 < t->npkeys) {
      rc = repair_walk(fs, t, h, e->path, sub, d + 1, found, nfound, cap,
                       err);
      chv_free(sub);
      continue;
    }
    /* A partition folder: its values, location and file statistics. */
    char **keys = NULL, **values = NULL;
    int nk = 0;
    rc = chv_partition_parse_path(sub, &keys, &values, &nk, err);
    chv_free(sub);
    chv_strv_free(keys, nk);
    if (rc != CHV_OK) break;
    if (*nfound == *cap) {
      int ncap = *cap ? *cap * 2 : 16;
      struct chv_partition *v = chv_realloc(*found, (size_t)ncap * sizeof *v);
      if (v == NULL) {
        chv_strv_free(values, nk);
        rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
        break;
      }
      *found = v;
      *cap = ncap;
    }
    struct chv_partition *p = &(*found)[(*nfound)++];
    memset(p, 0, sizeof *p);
    p->values = values;
    p->nvalues = nk;
    p->location = chv_strdup(e->path);
    struct chv_stats st;
    chv_stats_init_unknown(&st);
    int64_t all = 0;
    rc = p->location ? conn_count_files(fs, e->path, h->paths, h->n,
                                        &st.num_files, &st.total_size, &all,
                                        err)
                     : chv_error_set(err, CHV_ENOMEM, "out of memory");
    if (rc == CHV_OK) {
      rc = chv_stats_to_params(&st, &p->params, &p->nparams);
      if (rc != CHV_OK) rc = chv_error_set(err, rc, "out of memory");
    }
    if (rc == CHV_OK && st.num_files == 0 && all > 0) {
      (*nfound)--; /* a write in progress makes this folder */
      chv_partition_free(p);
    }
  }
  chv_dirlist_free(&l);
  return rc;
}

int chv_table_repair(chv_catalog *cat, const char *db, const char *table,
                     int *added, struct chv_error *err) {
  struct chv_table t;
  CHV_RETURN_IF_ERR(conn_get_table(cat, db, table, "repair", &t, err));
  const struct chv_fs *fs;
  const char *inner;
  struct chv_partition *found = NULL, *missing = NULL;
  int nfound = 0, cap = 0, nmissing = 0;
  int rc = CHV_OK;
  if (t.npkeys == 0) {
    rc = chv_error_set(err, CHV_EINVAL,
                       "MSCK REPAIR TABLE %s.%s: the table is not partitioned",
                       t.db, t.name);
    goto out;
  }
  /* What writers killed in the table left is finished or undone first, so
  ** their files are neither registered nor counted. */
  struct hidden h = {0};
  rc = chv_fs_for_path(t.location, &fs, &inner, err);
  if (rc == CHV_OK) rc = conn_recover_table(cat, fs, t.db, t.name, err);
  if (rc == CHV_OK) rc = conn_hidden_paths(cat, t.db, t.name, &h.paths, &h.n, err);
  if (rc == CHV_OK)
    rc = repair_walk(fs, &t, &h, inner, "", 0, &found, &nfound, &cap, err);
  chv_strv_free(h.paths, h.n);
  if (rc == CHV_ENOENT) { /* no folder: nothing to find */
    chv_error_clear(err);
    rc = CHV_OK;
  }
  if (rc != CHV_OK) goto out;
  missing = chv_calloc((size_t)nfound + 1, sizeof *missing);
  if (missing == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out;
  }
  for (int i = 0; i < nfound && rc == CHV_OK; i++) {
    struct chv_partition existing;
    rc = chv_catalog_get_partition(cat, t.db, t.name, found[i].values,
                                   &existing, err);
    if (rc == CHV_OK) {
      chv_partition_free(&existing);
    } else if (rc == CHV_ENOENT) {
      chv_error_clear(err);
      rc = CHV_OK;
      missing[nmissing++] = found[i]; /* shallow: found keeps ownership */
    }
  }
  if (rc == CHV_OK && nmissing > 0)
    rc = chv_catalog_add_partitions(cat, t.db, t.name, missing, nmissing,
                                    CHV_CAT_IF_NOT_EXISTS, err);
  if (rc == CHV_OK && added) *added = nmissing;
out:
  chv_free(missing);
  chv_partitions_free(found, nfound);
  chv_table_free(&t);
  return rc;
}

int chv_table_truncate(chv_catalog *cat, const char *db, const char *table,
                       char *const *part_values, struct chv_error *err) {
  struct chv_sink_options o;
  chv_sink_options_init(&o);
  o.overwrite = true;
  chv_sink *s;
  CHV_RETURN_IF_ERR(chv_sink_open(cat, db, table, &o, &s, err));
  const struct chv_table *t = chv_sink_table(s);
  struct chv_batch *empty = NULL;
  struct chv_partition *parts = NULL;
  int nparts = 0;
  int rc = chv_batch_open(chv_sink_schema(s), 0, &empty, err);
  if (rc == CHV_OK && t->npkeys == 0) {
    rc = chv_sink_write(s, NULL, empty, err);
  } else if (rc == CHV_OK && part_values) {
    struct chv_partition p;
    rc = chv_catalog_get_partition(cat, t->db, t->name, part_values, &p, err);
    if (rc == CHV_OK) {
      chv_partition_free(&p);
      rc = chv_sink_write(s, part_values, empty, err);
    }
  } else if (rc == CHV_OK) {
    rc = chv_catalog_list_partitions(cat, t->db, t->name, NULL, &parts,
                                     &nparts, err);
    for (int i = 0; rc == CHV_OK && i < nparts; i++)
      rc = chv_sink_write(s, parts[i].values, empty, err);
  }
  if (rc == CHV_OK) rc = chv_sink_commit(s, err);
  chv_partitions_free(parts, nparts);
  chv_batch_close(empty);
  chv_sink_close(s);
  return rc;
}
