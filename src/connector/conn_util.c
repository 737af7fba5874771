/*
** Connector helpers: table schemas from catalog column types, the text SerDe
** of a table, UUIDs for file names, the partitions a scan reads, table
** copies, a pool run for work spread over threads, and the byte maps of
** the sink's partition routing.
*/
#include "connector/connector_int.h"

#include <stdio.h>
#include <errno.h>
#include <sys/random.h>

int conn_get_table(chv_catalog *cat, const char *db, const char *name,
                   const char *what, struct chv_table *out,
                   struct chv_error *err) {
  struct chv_table t;
  CHV_RETURN_IF_ERR(chv_catalog_get_table(cat, db, name, &t, err));
  if (t.type == CHV_VIRTUAL_VIEW) {
    int rc = chv_error_set(err, CHV_EINVAL,
                           "%s.%s is a view, which has no files to %s", t.db,
                           t.name, what);
    chv_table_free(&t);
    return rc;
  }
  *out = t;
  return CHV_OK;
}

int conn_table_schema(const struct chv_table *t, bool with_pkeys,
                      struct chv_type **out, struct chv_error *err) {
  struct chv_type *st;
  if (chv_type_new(CHV_TYPE_STRUCT, &st) != CHV_OK)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  int n = t->ncols + (with_pkeys ? t->npkeys : 0);
  for (int i = 0; i < n; i++) {
    const struct chv_column *c =
        i < t->ncols ? &t->columns[i] : &t->pkeys[i - t->ncols];
    struct chv_type *ct;
    int rc = chv_type_parse(c->type, &ct, err);
    if (rc == CHV_OK) {
      rc = chv_type_struct_add(st, c->name, ct);
      if (rc != CHV_OK) chv_error_set(err, rc, "out of memory");
    } else {
      chv_error_wrap(err, "column '%s' of table %s.%s", c->name, t->db,
                     t->name);
    }
    if (rc != CHV_OK) {
      chv_type_free(st);
      return rc;
    }
  }
  *out = st;
  return CHV_OK;
}

int conn_table_text_options(const struct chv_table *t,
                            struct chv_text_options *o,
                            struct chv_error *err) {
  struct chv_text_param *params =
      chv_calloc((size_t)t->nserde_params + 1, sizeof *params);
  if (params == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  for (int i = 0; i < t->nserde_params; i++) {
    params[i].key = t->serde_params[i].key;
    params[i].value = t->serde_params[i].value;
  }
  int rc = chv_text_options_from_serde(o, params, (size_t)t->nserde_params,
                                       err);
  chv_free(params);
  if (rc != CHV_OK)
    chv_error_wrap(err, "SerDe parameters of table %s.%s", t->db, t->name);
  return rc;
}

int conn_uuid(char out[37], struct chv_error *err) {
  uint8_t b[16];
  size_t got = 0;
  while (got < sizeof b) {
    ssize_t n = getrandom(b + got, sizeof b - got, 0);
    if (n < 0) return chv_error_errno(err, errno, "getrandom");
    got += (size_t)n;
  }
  b[6] = (uint8_t)((b[6] & 0x0f) | 0x40);
  b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
  snprintf(out, 37,
           "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
           b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10],
           b[11], b[12], b[13], b[14], b[15]);
  return CHV_OK;
}

/* CHV_ENOENT naming the folder when t's location does not exist: a table
** whose folder is gone (a warehouse moved without its data, a folder
** deleted by hand) is an error, not an empty table. */
static int table_folder_exists(const struct chv_table *t,
                               struct chv_error *err) {
  const struct chv_fs *fs;
  const char *dir;
  CHV_RETURN_IF_ERR(chv_fs_for_path(t->location, &fs, &dir, err));
  struct chv_stat st;
  int rc = chv_fs_stat(fs, dir, &st, err);
  if (rc == CHV_ENOENT)
    return chv_error_set(err, CHV_ENOENT,
                         "table %s.%s: its location %s does not exist", t->db,
                         t->name, t->location);
  if (rc != CHV_OK) chv_error_wrap(err, "table %s.%s", t->db, t->name);
  return rc;
}

int conn_scan_partitions(chv_catalog *cat, const struct chv_table *t,
                         const chv_config *cfg,
                         const struct chv_part_filter *filter,
                         struct chv_partition **parts, int *nparts,
                         int64_t *total, struct chv_error *err) {
  *parts = NULL;
  *nparts = 0;
  *total = 1;
  /* Partitions without a folder of their own still read as empty. */
  if (t->location) CHV_RETURN_IF_ERR(table_folder_exists(t, err));
  if (t->npkeys > 0) {
    CHV_RETURN_IF_ERR(chv_catalog_count_partitions(cat, t->db, t->name, NULL,
                                                   total, err));
    if (filter == NULL)
      return chv_catalog_list_partitions(cat, t->db, t->name, NULL, parts,
                                         nparts, err);
    /* Pruned as the rows read: the default partition is NULL on non-string
    ** keys and its name on string keys (scan_part_values in scan.c). */
    struct chv_opt_value v;
    chv_opt_value_init(&v);
    int rc = conn_table_option(t, cfg, "hive.exec.default.partition.name", &v,
                               err);
    if (rc != CHV_OK) return rc;
    struct chv_part_filter *kids[1] = {(struct chv_part_filter *)filter};
    const char *lits[1] = {v.text};
    struct chv_part_filter as_read = {.kind = CHV_PF_DEFAULT_NAME,
                                      .lits = lits,
                                      .nlits = 1,
                                      .kids = kids,
                                      .nkids = 1};
    rc = chv_catalog_list_partitions(cat, t->db, t->name, &as_read, parts,
                                     nparts, err);
    chv_opt_value_free(&v);
    return rc;
  }
  struct chv_partition *p = chv_calloc(1, sizeof *p);
  if (p == NULL || (p->location = chv_strdup(t->location)) == NULL) {
    chv_free(p);
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  *parts = p;
  *nparts = 1;
  return CHV_OK;
}

char *conn_dup_or_null(const char *s, bool *ok) {
  if (s == NULL) return NULL;
  char *d = chv_strdup(s);
  if (d == NULL) *ok = false;
  return d;
}

static struct chv_kv *kv_copy(const struct chv_kv *src, int n, bool *ok) {
  if (n == 0) return NULL;
  struct chv_kv *kv = chv_calloc((size_t)n, sizeof *kv);
  if (kv == NULL) {
    *ok = false;
    return NULL;
  }
  for (int i = 0; i < n; i++) {
    kv[i].key = conn_dup_or_null(src[i].key, ok);
    kv[i].value = conn_dup_or_null(src[i].value, ok);
  }
  return kv;
}

static struct chv_column *cols_copy(const struct chv_column *src, int n,
                                    bool *ok) {
  if (n == 0) return NULL;
  struct chv_column *c = chv_calloc((size_t)n, sizeof *c);
  if (c == NULL) {
    *ok = false;
    return NULL;
  }
  for (int i = 0; i < n; i++) {
    c[i].name = conn_dup_or_null(src[i].name, ok);
    c[i].type = conn_dup_or_null(src[i].type, ok);
    c[i].comment = conn_dup_or_null(src[i].comment, ok);
  }
  return c;
}

bool conn_table_copy(const struct chv_table *t, struct chv_table *d) {
  bool ok = true;
  memset(d, 0, sizeof *d);
  d->db = conn_dup_or_null(t->db, &ok);
  d->name = conn_dup_or_null(t->name, &ok);
  d->columns = cols_copy(t->columns, t->ncols, &ok);
  d->ncols = d->columns ? t->ncols : 0;
  d->pkeys = cols_copy(t->pkeys, t->npkeys, &ok);
  d->npkeys = d->pkeys ? t->npkeys : 0;
  d->location = conn_dup_or_null(t->location, &ok);
  d->type = t->type;
  d->input_format = conn_dup_or_null(t->input_format, &ok);
  d->output_format = conn_dup_or_null(t->output_format, &ok);
  d->serde_lib = conn_dup_or_null(t->serde_lib, &ok);
  d->serde_params = kv_copy(t->serde_params, t->nserde_params, &ok);
  d->nserde_params = d->serde_params ? t->nserde_params : 0;
  d->params = kv_copy(t->params, t->nparams, &ok);
  d->nparams = d->params ? t->nparams : 0;
  d->create_time = t->create_time;
  return ok;
}


int conn_pool_run(int64_t threads, int64_t n, chv_pool_fn fn, void *arg,
                  struct chv_error *err) {
  if (n == 0) return CHV_OK;
  chv_pool *pool;
  CHV_RETURN_IF_ERR(chv_pool_open((int)CHV_MIN(CHV_MAX(threads, 1), n), &pool,
                                  err));
  int rc = chv_pool_for(pool, n, fn, arg, err);
  chv_pool_close(pool);
  return rc;
}

int conn_list_partition(const struct chv_fs *fs, const char *dir,
                        bool recursive, struct chv_dirlist *l,
                        struct chv_error *err) {
  unsigned flags = CHV_LIST_SKIP_HIDDEN |
                   (recursive ? CHV_LIST_RECURSIVE | CHV_LIST_FILES_ONLY : 0u);
  CHV_RETURN_IF_ERR(fs->list(fs, dir, flags, l, err));
  for (size_t i = 0; !recursive && i < l->count; i++) {
    if (!l->entries[i].st.is_dir) continue;
    int rc = chv_error_set(err, CHV_EINVAL,
                           "Not a file: %s (a folder inside partition folder "
                           "%s, read only with "
                           "table.exec.hive.read-partition-with-subdirectory."
                           "enabled=true)",
                           l->entries[i].path, dir);
    chv_dirlist_free(l);
    return rc;
  }
  return CHV_OK;
}

/* ---- byte maps --------------------------------------------------------------- */

struct conn_bytemap_slot {
  uint64_t hash;
  uint8_t *key;  /* owned; NULL: an empty slot */
  size_t len;
  int value;
};

uint64_t conn_hash_bytes(const void *p, size_t n) {
  const uint8_t *b = p;
  uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)n;
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, b, 8);
    h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
    b += 8;
    n -= 8;
  }
  uint64_t w = 0;
  memcpy(&w, b, n);
  h ^= w;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

int conn_bytemap_get(const struct conn_bytemap *m, const void *key, size_t n,
                     uint64_t h) {
  if (m->cap == 0) return -1;
  size_t mask = m->cap - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    const struct conn_bytemap_slot *sl = &m->slots[i];
    if (sl->key == NULL) return -1;
    if (sl->hash == h && sl->len == n && memcmp(sl->key, key, n) == 0)
      return sl->value;
  }
}

/* Place a slot's contents in a table known to have room. */
static void bytemap_place(struct conn_bytemap_slot *slots, size_t cap,
                          const struct conn_bytemap_slot *from) {
  size_t mask = cap - 1;
  size_t i = (size_t)from->hash & mask;
  while (slots[i].key != NULL) i = (i + 1) & mask;
  slots[i] = *from;
}

int conn_bytemap_put(struct conn_bytemap *m, const void *key, size_t n,
                     uint64_t h, int v) {
  if (2 * (m->n + 1) > m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 16;
    struct conn_bytemap_slot *slots = chv_calloc(cap, sizeof *slots);
    if (slots == NULL) return CHV_ENOMEM;
    for (size_t i = 0; i < m->cap; i++)
      if (m->slots[i].key) bytemap_place(slots, cap, &m->slots[i]);
    chv_free(m->slots);
    m->slots = slots;
    m->cap = cap;
  }
  struct conn_bytemap_slot sl = {h, chv_malloc(n ? n : 1), n, v};
  if (sl.key == NULL) return CHV_ENOMEM;
  if (n) memcpy(sl.key, key, n);
  bytemap_place(m->slots, m->cap, &sl);
  m->n++;
  return CHV_OK;
}

void conn_bytemap_free(struct conn_bytemap *m) {
  for (size_t i = 0; i < m->cap; i++) chv_free(m->slots[i].key);
  chv_free(m->slots);
  memset(m, 0, sizeof *m);
}
