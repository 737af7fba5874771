/*
** model: the plain structs of catalog.h: releasing them, reading parameters
** and statistics, table type names, and the arena builders of partition
** filters.
**
** INTERFACE
**   chv_*_free()              release what a struct owns
**   chv_kv_get()              a parameter by key
**   chv_stats_from_params()   numRows, numFiles, totalSize, rawDataSize
**   chv_stats_to_params()     and back
**   chv_table_type_name()     "MANAGED_TABLE" ...
**   chv_pf_*()                filter nodes in an arena
*/
#include "catalog/catalog.h"

#include <errno.h>
#include <stdlib.h>

void chv_kv_free(struct chv_kv *kv, int n) {
  if (kv == NULL) return;
  for (int i = 0; i < n; i++) {
    chv_free(kv[i].key);
    chv_free(kv[i].value);
  }
  chv_free(kv);
}

void chv_strv_free(char **v, int n) {
  if (v == NULL) return;
  for (int i = 0; i < n; i++) chv_free(v[i]);
  chv_free(v);
}

static void columns_free(struct chv_column *c, int n) {
  if (c == NULL) return;
  for (int i = 0; i < n; i++) {
    chv_free(c[i].name);
    chv_free(c[i].type);
    chv_free(c[i].comment);
  }
  chv_free(c);
}

void chv_database_free(struct chv_database *d) {
  if (d == NULL) return;
  chv_free(d->name);
  chv_free(d->location);
  chv_free(d->description);
  chv_kv_free(d->params, d->nparams);
  memset(d, 0, sizeof *d);
}

void chv_table_free(struct chv_table *t) {
  if (t == NULL) return;
  chv_free(t->db);
  chv_free(t->name);
  columns_free(t->columns, t->ncols);
  columns_free(t->pkeys, t->npkeys);
  chv_free(t->location);
  chv_free(t->input_format);
  chv_free(t->output_format);
  chv_free(t->serde_lib);
  chv_kv_free(t->serde_params, t->nserde_params);
  chv_kv_free(t->params, t->nparams);
  chv_free(t->view_original_text);
  chv_free(t->view_expanded_text);
  memset(t, 0, sizeof *t);
}

void chv_partition_free(struct chv_partition *p) {
  if (p == NULL) return;
  chv_strv_free(p->values, p->nvalues);
  chv_free(p->name);
  chv_free(p->location);
  chv_kv_free(p->params, p->nparams);
  memset(p, 0, sizeof *p);
}

void chv_partitions_free(struct chv_partition *v, int n) {
  if (v == NULL) return;
  for (int i = 0; i < n; i++) chv_partition_free(&v[i]);
  chv_free(v);
}

const char *chv_kv_get(const struct chv_kv *params, int n, const char *key) {
  for (int i = 0; i < n; i++)
    if (strcmp(params[i].key, key) == 0) return params[i].value;
  return NULL;
}

const char *chv_table_type_name(enum chv_table_type t) {
  static const char *const names[] = {
#define CHV_X_(name) #name,
      CHV_TABLE_TYPE_MAP(CHV_X_)
#undef CHV_X_
  };
  if ((unsigned)t >= CHV_ARRAY_SIZE(names)) return "UNKNOWN";
  return names[t];
}

void chv_stats_init_unknown(struct chv_stats *s) {
  s->num_rows = s->num_files = s->total_size = s->raw_data_size = -1;
}

static int64_t stat_param(const struct chv_kv *params, int n, const char *key) {
  const char *v = chv_kv_get(params, n, key);
  if (v == NULL || *v == '\0') return -1;
  errno = 0;
  char *end;
  long long x = strtoll(v, &end, 10);
  if (errno != 0 || *end != '\0' || x < 0) return -1;
  return (int64_t)x;
}

void chv_stats_from_params(const struct chv_kv *params, int n,
                           struct chv_stats *out) {
  out->num_rows = stat_param(params, n, "numRows");
  out->num_files = stat_param(params, n, "numFiles");
  out->total_size = stat_param(params, n, "totalSize");
  out->raw_data_size = stat_param(params, n, "rawDataSize");
}

int chv_stats_to_params(const struct chv_stats *s, struct chv_kv **params,
                        int *n) {
  static const char *const keys[4] = {"numRows", "numFiles", "totalSize",
                                      "rawDataSize"};
  const int64_t v[4] = {s->num_rows, s->num_files, s->total_size,
                        s->raw_data_size};
  struct chv_kv *kv = chv_calloc(4, sizeof *kv);
  if (kv == NULL) return CHV_ENOMEM;
  int cnt = 0;
  for (int i = 0; i < 4; i++) {
    if (v[i] < 0) continue;
    kv[cnt].key = chv_strdup(keys[i]);
    kv[cnt].value = chv_asprintf("%lld", (long long)v[i]);
    cnt++;
    if (kv[cnt - 1].key == NULL || kv[cnt - 1].value == NULL) {
      chv_kv_free(kv, cnt);
      return CHV_ENOMEM;
    }
  }
  *params = kv;
  *n = cnt;
  return CHV_OK;
}

/* ---- filter builders --------------------------------------------------- */

static struct chv_part_filter *pf_new(chv_arena *a, enum chv_pf_kind kind) {
  struct chv_part_filter *f = chv_arena_alloc(a, sizeof *f);
  if (f) {
    memset(f, 0, sizeof *f);
    f->kind = kind;
  }
  return f;
}

static const char *const *lits_copy(chv_arena *a, const char *const *lits,
                                    int n) {
  const char **v = chv_arena_alloc(a, sizeof *v * (size_t)(n ? n : 1));
  if (v == NULL) return NULL;
  for (int i = 0; i < n; i++) {
    v[i] = NULL;
    if (lits[i] &&
        (v[i] = chv_arena_strndup(a, lits[i], strlen(lits[i]))) == NULL)
      return NULL;
  }
  return v;
}

static struct chv_part_filter *pf_key(chv_arena *a, enum chv_pf_kind kind,
                                      const char *key, const char *const *lits,
                                      int n, bool negated) {
  if (key == NULL) return NULL;
  struct chv_part_filter *f = pf_new(a, kind);
  if (f == NULL) return NULL;
  f->key = chv_arena_strndup(a, key, strlen(key));
  f->lits = lits_copy(a, lits, n);
  f->nlits = n;
  f->negated = negated;
  return f->key && f->lits ? f : NULL;
}

struct chv_part_filter *chv_pf_cmp(chv_arena *a, const char *key,
                                   enum chv_pf_cmp cmp, const char *lit) {
  const char *lits[1] = {lit};
  struct chv_part_filter *f = pf_key(a, CHV_PF_CMP, key, lits, 1, false);
  if (f) f->cmp = cmp;
  return f;
}

struct chv_part_filter *chv_pf_in(chv_arena *a, const char *key,
                                  const char *const *lits, int n,
                                  bool negated) {
  return pf_key(a, CHV_PF_IN, key, lits, n, negated);
}

struct chv_part_filter *chv_pf_between(chv_arena *a, const char *key,
                                       const char *lo, const char *hi,
                                       bool negated) {
  const char *lits[2] = {lo, hi};
  return pf_key(a, CHV_PF_BETWEEN, key, lits, 2, negated);
}

struct chv_part_filter *chv_pf_is_null(chv_arena *a, const char *key,
                                       bool negated) {
  return pf_key(a, CHV_PF_IS_NULL, key, NULL, 0, negated);
}

static struct chv_part_filter *pf_kids(chv_arena *a, enum chv_pf_kind kind,
                                       struct chv_part_filter *l,
                                       struct chv_part_filter *r, int n) {
  if (l == NULL || (n == 2 && r == NULL)) return NULL;
  struct chv_part_filter *f = pf_new(a, kind);
  if (f == NULL) return NULL;
  struct chv_part_filter **kids = chv_arena_alloc(a, sizeof *kids * 2);
  if (kids == NULL) return NULL;
  kids[0] = l;
  kids[1] = r;
  f->kids = kids;
  f->nkids = n;
  return f;
}

struct chv_part_filter *chv_pf_and(chv_arena *a, struct chv_part_filter *l,
                                   struct chv_part_filter *r) {
  return pf_kids(a, CHV_PF_AND, l, r, 2);
}

struct chv_part_filter *chv_pf_or(chv_arena *a, struct chv_part_filter *l,
                                  struct chv_part_filter *r) {
  return pf_kids(a, CHV_PF_OR, l, r, 2);
}

struct chv_part_filter *chv_pf_not(chv_arena *a, struct chv_part_filter *x) {
  return pf_kids(a, CHV_PF_NOT, x, NULL, 1);
}
