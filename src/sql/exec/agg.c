/*
** sql/exec agg.c: the hash aggregation operator.
**
** chv_hash_agg groups rows by the values of several key columns: the keys
** of a row are serialized (NULL flag + value bytes, chv_keyset_encode())
** and looked up in a key set whose entry number is the group id; the first
** row of each group is copied into key vectors that become the result's key
** columns.  Each aggregate is a state of the registry's aggregates
** (chv_agg_*(), src/sql/func) updated with the batch's group ids.  A memory
** bound, when exceeded, fails add() with CHV_ENOMEM and a message naming
** the operator.  A spilling Aggregate (ops.c) instead measures the memory
** itself and, past its bound, adds rows only to groups held
** (chv_hash_agg_add_known()), sending the others to partition files by
** chv_hash_agg_partition().
**
** INTERFACE: chv_hash_agg_*() (exec.h).
*/
#include "sql/exec/exec_int.h"

#include <math.h>
#include <stdio.h>

/* ---- hash aggregation -------------------------------------------------------- */

/* One key of an integer or string type: a cache in front of the group
** table.  The key packed into 64 bits (an integer as its value, a string of
** at most 7 bytes as its bytes and its length in the top byte) maps to its
** group id in a chv_intset (func.h), so that a row of a group seen before
** costs a multiply and a probe instead of a serialized key, its hash and a
** compare.  NULLs, longer strings and misses go to the group table, which
** alone assigns ids (in order of first appearance, as without the cache);
** a miss's id is then cached, up to GC_MAX keys. */
#define GC_MAX 256
#define GC_EMPTY UINT32_MAX

/* The group id cached for k, or GC_EMPTY. */
static inline uint32_t gc_find(const struct chv_intset *c, uint64_t k) {
  return chv_intset_find(c, (int64_t)k);
}

/* Add k -> id (k not cached yet); nothing when full or out of memory (the
** cache is only a shortcut). */
static void gc_put(struct chv_intset *c, uint64_t k, uint32_t id) {
  if (c->n >= GC_MAX || chv_intset_reserve(c, 1) != CHV_OK) return;
  chv_intset_add(c, (int64_t)k, id);
}

/* How a key column packs: not at all, as an integer, as a short string. */
enum gc_kind { GC_NONE, GC_INT, GC_STR };

static enum gc_kind gc_kind_of(enum chv_type_id id) {
  switch (id) {
  case CHV_TYPE_TINYINT:
  case CHV_TYPE_SMALLINT:
  case CHV_TYPE_INT:
  case CHV_TYPE_DATE:
  case CHV_TYPE_BIGINT: return GC_INT;
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
  case CHV_TYPE_BINARY: return GC_STR;
  default: return GC_NONE;
  }
}

/* The low len bytes of a word. */
static const uint64_t gc_mask[8] = {
    0,           0xff,         0xffff,         0xffffff,
    0xffffffffu, 0xffffffffffull, 0xffffffffffffull, 0xffffffffffffffull};

/* Packed key of non-NULL row r of a GC_STR column; false over 7 bytes. */
static inline bool gc_pack_str(const struct chv_vector *v, int64_t r,
                               uint64_t *k) {
  int32_t off = v->offsets[r], len = v->offsets[r + 1] - off;
  if ((uint32_t)len > 7) return false;
  uint64_t w = 0;
  if (off + 8 <= v->bytes_cap) { /* one load, the bytes past len masked */
    memcpy(&w, v->bytes + off, 8);
    w &= gc_mask[len];
  } else {
    for (int32_t j = 0; j < len; j++)
      w |= (uint64_t)(unsigned char)v->bytes[off + j] << (8 * j);
  }
  *k = w | (uint64_t)len << 56;
  return true;
}

/* Packed key of non-NULL row r of a GC_INT column. */
static inline uint64_t gc_pack_int(const struct chv_vector *v,
                                   enum chv_type_id id, int64_t r) {
  switch (id) {
  case CHV_TYPE_TINYINT: return (uint64_t)((const int8_t *)v->data)[r];
  case CHV_TYPE_SMALLINT: return (uint64_t)((const int16_t *)v->data)[r];
  case CHV_TYPE_BIGINT: return (uint64_t)((const int64_t *)v->data)[r];
  default: return (uint64_t)((const int32_t *)v->data)[r];
  }
}

struct chv_hash_agg {
  const struct chv_type *in_schema;
  int nkeys, naggs;
  int *key_cols, *agg_cols;
  enum chv_agg_fn *fns;
  size_t memory_limit;
  chv_arena *arena;                /* result types */
  chv_agg_state **states;
  struct chv_keyset groups;
  struct chv_vector **keys;        /* first row of each group's keys */
  struct chv_type *out_schema;
  struct chv_buf kb;
  struct chv_keyrows kr;           /* a batch's keys, for the group table */
  uint32_t *gids;
  int64_t gcap;
  struct chv_intset gc;            /* packed keys -> group ids */
  uint64_t *packed;                /* a batch's packed keys (several keys) */
  int64_t pcap;
};

void chv_hash_agg_close(chv_hash_agg *h) {
  if (h == NULL) return;
  for (int i = 0; h->states && i < h->naggs; i++)
    chv_agg_state_close(h->states[i]);
  for (int i = 0; h->keys && i < h->nkeys; i++) chv_vector_close(h->keys[i]);
  chv_free(h->states);
  chv_free(h->keys);
  chv_free(h->key_cols);
  chv_free(h->agg_cols);
  chv_free(h->fns);
  chv_keyset_free(&h->groups);
  chv_intset_free(&h->gc);
  chv_free(h->packed);
  chv_buf_free(&h->kb);
  chv_keyrows_free(&h->kr);
  chv_free(h->gids);
  chv_type_free(h->out_schema);
  chv_arena_close(h->arena);
  chv_free(h);
}

int chv_hash_agg_open(const struct chv_type *in_schema,
                      const struct chv_hash_agg_spec *spec,
                      chv_hash_agg **out, struct chv_error *err) {
  if (in_schema == NULL || in_schema->id != CHV_TYPE_STRUCT || spec->nkeys < 0 ||
      spec->naggs < 0)
    return chv_error_set(err, CHV_EINVAL, "hash aggregation: bad arguments");
  for (int k = 0; k < spec->nkeys; k++) {
    int c = spec->key_cols[k];
    if (c < 0 || c >= in_schema->nchildren ||
        !chv_type_is_primitive(in_schema->children[c]->id))
      return chv_error_set(err, CHV_EINVAL, "hash aggregation: key %d is "
                           "not a primitive column", k);
  }
  for (int i = 0; i < spec->naggs; i++) {
    int c = spec->agg_cols[i];
    if (spec->fns[i] != CHV_AGG_COUNT_STAR && (c < 0 || c >= in_schema->nchildren))
      return chv_error_set(err, CHV_EINVAL, "hash aggregation: aggregate %d "
                           "has no input column", i);
  }
  chv_hash_agg *h = chv_calloc(1, sizeof *h);
  if (h == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  int rc = CHV_ENOMEM;
  h->in_schema = in_schema;
  h->nkeys = spec->nkeys;
  h->naggs = spec->naggs;
  h->memory_limit = spec->memory_limit;
  chv_buf_init(&h->kb);
  h->key_cols = chv_calloc((size_t)spec->nkeys + 1, sizeof *h->key_cols);
  h->agg_cols = chv_calloc((size_t)spec->naggs + 1, sizeof *h->agg_cols);
  h->fns = chv_calloc((size_t)spec->naggs + 1, sizeof *h->fns);
  h->states = chv_calloc((size_t)spec->naggs + 1, sizeof *h->states);
  h->keys = chv_calloc((size_t)spec->nkeys + 1, sizeof *h->keys);
  if (h->key_cols == NULL || h->agg_cols == NULL || h->fns == NULL ||
      h->states == NULL || h->keys == NULL || chv_arena_open(0, &h->arena) != CHV_OK)
    goto out_close;
  if (spec->nkeys) memcpy(h->key_cols, spec->key_cols, sizeof *h->key_cols * (size_t)spec->nkeys);
  if (spec->naggs) {
    memcpy(h->agg_cols, spec->agg_cols, sizeof *h->agg_cols * (size_t)spec->naggs);
    memcpy(h->fns, spec->fns, sizeof *h->fns * (size_t)spec->naggs);
  }
  for (int k = 0; k < h->nkeys; k++) {
    rc = chv_vector_open(in_schema->children[h->key_cols[k]], 16, &h->keys[k], err);
    if (rc != CHV_OK) goto out_close;
  }
  for (int i = 0; i < h->naggs; i++) {
    const struct chv_type *arg =
        h->fns[i] == CHV_AGG_COUNT_STAR ? NULL : in_schema->children[h->agg_cols[i]];
    const struct chv_type *res;
    rc = chv_agg_result_type(h->arena, h->fns[i], arg, &res, err);
    if (rc == CHV_OK) rc = chv_agg_state_open(h->fns[i], arg, res, &h->states[i], err);
    if (rc != CHV_OK) goto out_close;
  }
  *out = h;
  return CHV_OK;
out_close:
  chv_hash_agg_close(h);
  if (rc == CHV_ENOMEM)
    return chv_error_set(err, CHV_ENOMEM, "out of memory opening hash aggregation");
  return rc;
}

int64_t chv_hash_agg_ngroups(const chv_hash_agg *h) {
  return h->nkeys ? (int64_t)h->groups.n : 1;
}

static size_t hash_agg_memory(const chv_hash_agg *h) {
  size_t m = chv_keyset_memory(&h->groups) + h->kb.cap + (size_t)h->gcap * 4 +
             (size_t)h->pcap * 8 +
             chv_intset_memory(&h->gc);
  for (int k = 0; k < h->nkeys; k++) {
    const struct chv_vector *v = h->keys[k];
    m += (size_t)v->capacity * (chv_type_fixed_width(v->type->id) + 4) +
         (size_t)v->bytes_cap;
  }
  for (int i = 0; i < h->naggs; i++) m += chv_agg_memory(h->states[i]);
  return m;
}

static int check_memory(const chv_hash_agg *h, struct chv_error *err) {
  if (h->memory_limit == 0) return CHV_OK;
  size_t m = hash_agg_memory(h);
  if (m <= h->memory_limit) return CHV_OK;
  return chv_error_set(err, CHV_ENOMEM,
                       "hash aggregation (GROUP BY): more than its memory "
                       "limit of %zu bytes (%zu bytes for %lld groups; see "
                       "chive.exec.operator-memory)",
                       h->memory_limit, m, (long long)chv_hash_agg_ngroups(h));
}

/* Drop rows from `len` on of a vector that only grew by appends. */
static void vec_truncate(struct chv_vector *v, int64_t len) {
  for (int64_t i = len; i < v->length; i++)
    if (chv_vector_is_null(v, i)) chv_vector_set_valid(v, i);
  v->length = len;
  if (v->offsets) v->bytes_len = v->offsets[len];
}

/* Group id of row r of the key vectors vecs, whose key bytes are key[0,
** len) of hash hv (adding the group if new). */
static int lookup_key(chv_hash_agg *h, const struct chv_vector *const *vecs,
                      int64_t r, const char *key, size_t len, uint64_t hv,
                      uint32_t *gid, struct chv_error *err) {
  if (chv_keyset_reserve(&h->groups, len) != CHV_OK)
    return chv_error_set(err, CHV_ENOMEM, "hash aggregation: out of memory");
  size_t slot = 0;
  uint32_t e = chv_keyset_find(&h->groups, key, len, hv, &slot);
  if (e != UINT32_MAX) {
    *gid = e;
    return CHV_OK;
  }
  int64_t n = (int64_t)h->groups.n;
  for (int k = 0; k < h->nkeys; k++) {
    int rc = chv_vector_append_from(h->keys[k], vecs[k], r, err);
    if (rc != CHV_OK) {
      for (int j = 0; j <= k; j++) vec_truncate(h->keys[j], n);
      return rc;
    }
  }
  *gid = chv_keyset_insert(&h->groups, key, len, hv, slot);
  return CHV_OK;
}

/* Group id of row r of the key vectors vecs (adding the group if new). */
static int lookup_group(chv_hash_agg *h, const struct chv_vector *const *vecs,
                        int64_t r, uint32_t *gid, struct chv_error *err) {
  h->kb.len = 0;
  int rc = CHV_OK;
  for (int k = 0; k < h->nkeys && rc == CHV_OK; k++) rc = chv_keyset_encode(&h->kb, vecs[k], r);
  if (rc != CHV_OK)
    return chv_error_set(err, CHV_ENOMEM, "hash aggregation: out of memory");
  return lookup_key(h, vecs, r, h->kb.data, h->kb.len,
                    chv_keyset_hash(h->kb.data, h->kb.len), gid, err);
}

/* Group ids of rows sel[0, n) of the key vectors into h->gids through the
** group table, their keys encoded a batch at a time. */
static int group_ids_table(chv_hash_agg *h, const struct chv_vector *const *vecs,
                           const uint32_t *sel, int64_t n,
                           struct chv_error *err) {
  struct chv_keyrows *kr = &h->kr;
  if (chv_keyrows_encode(kr, vecs, h->nkeys, sel, n) != CHV_OK)
    return chv_error_set(err, CHV_ENOMEM, "hash aggregation: out of memory");
  const char *pkey = NULL; /* the row before's key */
  size_t plen = 0;
  for (int64_t i = 0; i < n; i++) {
    size_t len;
    const char *key = chv_keyrows_key(kr, i, &len);
    if (i + 64 < n) chv_keyset_prefetch(&h->groups, kr->hashes[i + 64]);
    if (pkey && len == plen && kr->hashes[i] == kr->hashes[i - 1] &&
        chv_key_eq(key, pkey, len)) { /* a run of one key (sorted input) */
      h->gids[i] = h->gids[i - 1];
      continue;
    }
    pkey = key;
    plen = len;
    CHV_RETURN_IF_ERR(lookup_key(h, vecs, sel ? sel[i] : i, key, len,
                                 kr->hashes[i], &h->gids[i], err));
    if ((i & 1023) == 1023) CHV_RETURN_IF_ERR(check_memory(h, err));
  }
  return CHV_OK;
}

/* Field of w bits (w = 64 / keys, 2 to 4 keys) of non-NULL row r of a
** key column of kind: an integer whose value fits w bits signed, or a
** string of at most (w - 2) / 8 bytes (3, 2 or 1) with its length above
** them; false when it does not fit. */
static inline bool gc_field(const struct chv_vector *v, enum gc_kind kind,
                            int64_t r, int w, uint64_t *f) {
  if (kind == GC_INT) {
    uint64_t x = gc_pack_int(v, v->type->id, r);
    if ((int64_t)(x << (64 - w)) >> (64 - w) != (int64_t)x) return false;
    *f = x & ((1ull << w) - 1);
    return true;
  }
  int maxlen = (w - 2) / 8;
  int32_t off = v->offsets[r], len = v->offsets[r + 1] - off;
  if (len > maxlen) return false;
  uint64_t x = 0;
  for (int32_t j = 0; j < len; j++)
    x |= (uint64_t)(unsigned char)v->bytes[off + j] << (8 * j);
  *f = x | (uint64_t)len << (8 * maxlen);
  return true;
}

/* Group ids of rows sel[0, n) of 2 to 4 key vectors of packable kinds
** through the cache, their keys packed into one word of a field each;
** through the group table when a row's do not pack (a NULL, a value too
** wide) or the groups are many. */
static int group_ids_packed(chv_hash_agg *h, const struct chv_vector *const *vecs,
                            const uint32_t *sel, int64_t n,
                            struct chv_error *err) {
  int nk = h->nkeys, w = 64 / nk;
  enum gc_kind kinds[4];
  for (int c = 0; c < nk; c++) kinds[c] = gc_kind_of(vecs[c]->type->id);
  if (n > h->pcap) {
    uint64_t *p = chv_realloc(h->packed, sizeof *p * (size_t)n);
    if (p == NULL) return chv_error_set(err, CHV_ENOMEM, "hash aggregation: out of memory");
    h->packed = p;
    h->pcap = n;
  }
  uint64_t *restrict pk = h->packed;
  for (int64_t i = 0; i < n; i++) {
    int64_t r = sel ? sel[i] : i;
    uint64_t k = 0, f;
    for (int c = 0; c < nk; c++) {
      if (chv_vector_is_null(vecs[c], r) || !gc_field(vecs[c], kinds[c], r, w, &f))
        return group_ids_table(h, vecs, sel, n, err);
      k |= f << (w * c);
    }
    pk[i] = k;
  }
  uint32_t *restrict out = h->gids;
  struct chv_intset c = h->gc;
  for (int64_t i = 0; i < n; i++) {
    uint64_t k = pk[i];
    uint32_t id = gc_find(&c, k);
    if (id != GC_EMPTY) {
      out[i] = id;
      continue;
    }
    CHV_RETURN_IF_ERR(lookup_group(h, vecs, sel ? sel[i] : i, &out[i], err));
    gc_put(&h->gc, k, out[i]);
    c = h->gc;
    if ((i & 1023) == 1023) CHV_RETURN_IF_ERR(check_memory(h, err));
  }
  return CHV_OK;
}

/* Group ids of rows sel[0, n) (NULL: 0..n-1) of the key vectors into
** h->gids: through the cache for one packable key, one loop per way of
** packing, or for 2 to 4 (group_ids_packed()), else through the group
** table (group_ids_table()). */
static int group_ids(chv_hash_agg *h, const struct chv_vector *const *vecs,
                     const uint32_t *sel, int64_t n, struct chv_error *err) {
  const struct chv_vector *kv = vecs[0];
  enum chv_type_id kid = kv->type->id;
  enum gc_kind kind = h->nkeys == 1 ? gc_kind_of(kid) : GC_NONE;
  /* Past GC_MAX * 4 groups, most rows miss a full cache: the table alone. */
  if (h->groups.n > GC_MAX * 4) return group_ids_table(h, vecs, sel, n, err);
  if (h->nkeys >= 2 && h->nkeys <= 4) {
    bool all = true;
    for (int c = 0; c < h->nkeys; c++) all &= gc_kind_of(vecs[c]->type->id) != GC_NONE;
    if (all) return group_ids_packed(h, vecs, sel, n, err);
  }
  if (kind == GC_NONE) return group_ids_table(h, vecs, sel, n, err);
  uint32_t *restrict out = h->gids;
  /* The cache in locals, reloaded after each miss (which may grow it). */
  struct chv_intset c = h->gc;
  /* All rows of a string key without NULLs: runs of cached short keys in
  ** a loop of their own, until a row that is not one. */
  bool runs = kind == GC_STR && sel == NULL && kv->validity == NULL;
  const int32_t *so = kv->offsets;
  const char *kb = kv->bytes;
  for (int64_t i = 0; i < n; i++) {
    if (runs && c.nslots) {
      for (; i < n; i++) {
        int32_t off = so[i], len = so[i + 1] - off;
        if ((uint32_t)len > 7 || off + 8 > kv->bytes_cap) break;
        uint64_t w;
        memcpy(&w, kb + off, 8);
        uint64_t k = (w & gc_mask[len]) | (uint64_t)len << 56;
        uint32_t id = gc_find(&c, k);
        if (id == GC_EMPTY) break;
        out[i] = id;
      }
      if (i == n) break;
    }
    int64_t r = sel ? sel[i] : i;
    uint64_t k = 0;
    bool packed = false;
    if (kind != GC_NONE && !chv_vector_is_null(kv, r)) {
      if (kind == GC_INT) {
        k = gc_pack_int(kv, kid, r);
        packed = true;
      } else {
        packed = gc_pack_str(kv, r, &k);
      }
    }
    uint32_t id = packed ? gc_find(&c, k) : GC_EMPTY;
    if (id != GC_EMPTY) {
      out[i] = id;
      continue;
    }
    CHV_RETURN_IF_ERR(lookup_group(h, vecs, r, &out[i], err));
    if (packed) gc_put(&h->gc, k, out[i]);
    c = h->gc;
    if ((i & 1023) == 1023) CHV_RETURN_IF_ERR(check_memory(h, err));
  }
  return CHV_OK;
}

int chv_hash_agg_add(chv_hash_agg *h, const struct chv_batch *in,
                     const uint32_t *sel, int64_t n, struct chv_error *err) {
  const uint32_t *gids = NULL;
  if (n == 0) return CHV_OK; /* (no group ids to give the states) */
  if (h->nkeys > 0) {
    if (n > h->gcap) {
      uint32_t *g = chv_realloc(h->gids, sizeof *g * (size_t)n);
      if (g == NULL) return chv_error_set(err, CHV_ENOMEM, "hash aggregation: out of memory");
      h->gids = g;
      h->gcap = n;
    }
    const struct chv_vector *vecs[64];
    if (h->nkeys > 64)
      return chv_error_set(err, CHV_ENOTSUP, "hash aggregation: over 64 keys");
    for (int k = 0; k < h->nkeys; k++) vecs[k] = in->cols[h->key_cols[k]];
    CHV_RETURN_IF_ERR(group_ids(h, vecs, sel, n, err));
    gids = h->gids;
  }
  int64_t ng = chv_hash_agg_ngroups(h);
  for (int a = 0; a < h->naggs; a++) {
    const struct chv_vector *col =
        h->fns[a] == CHV_AGG_COUNT_STAR ? NULL : in->cols[h->agg_cols[a]];
    CHV_RETURN_IF_ERR(chv_agg_ensure_groups(h->states[a], ng, err));
    CHV_RETURN_IF_ERR(chv_agg_update_rows(h->states[a], col, sel, n, gids, err));
  }
  return check_memory(h, err);
}

int chv_hash_agg_touch(chv_hash_agg *h, const struct chv_batch *in, int64_t r,
                       struct chv_error *err) {
  if (h->nkeys == 0) return CHV_OK; /* its one group is always there */
  const struct chv_vector *vecs[64];
  if (h->nkeys > 64)
    return chv_error_set(err, CHV_ENOTSUP, "hash aggregation: over 64 keys");
  for (int k = 0; k < h->nkeys; k++) vecs[k] = in->cols[h->key_cols[k]];
  uint32_t gid;
  CHV_RETURN_IF_ERR(lookup_group(h, vecs, r, &gid, err));
  return check_memory(h, err);
}

int chv_hash_agg_merge(chv_hash_agg *h, const chv_hash_agg *o,
                       struct chv_error *err) {
  if (o->nkeys != h->nkeys || o->naggs != h->naggs)
    return chv_error_set(err, CHV_EINVAL, "hash aggregation: merging a "
                         "different operator");
  uint32_t *map = NULL;
  int64_t ng = chv_hash_agg_ngroups(o);
  if (h->nkeys > 0 && ng > 0) {
    map = chv_malloc(sizeof *map * (size_t)ng);
    if (map == NULL) return chv_error_set(err, CHV_ENOMEM, "hash aggregation: out of memory");
    /* o's group table holds each group's key bytes and hash */
    const uint64_t *hs = o->groups.hashes;
    for (int64_t g = 0; g < ng; g++) {
      if (g + 16 < ng) chv_keyset_prefetch(&h->groups, hs[g + 16]);
      size_t len;
      const char *key = chv_keyset_key(&o->groups, (uint32_t)g, &len);
      int rc = lookup_key(h, (const struct chv_vector *const *)o->keys, g, key,
                          len, hs[g], &map[g], err);
      if (rc != CHV_OK) {
        chv_free(map);
        return rc;
      }
    }
  }
  int rc = CHV_OK;
  for (int a = 0; a < h->naggs && rc == CHV_OK; a++)
    rc = chv_agg_merge(h->states[a], o->states[a], map, err);
  chv_free(map);
  if (rc == CHV_OK) rc = check_memory(h, err);
  return rc;
}

int chv_hash_agg_result(chv_hash_agg *h, struct chv_batch **out,
                        struct chv_error *err) {
  int rc;
  if (h->out_schema == NULL) {
    struct chv_type *st;
    if (chv_type_new(CHV_TYPE_STRUCT, &st) != CHV_OK)
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    for (int i = 0; i < h->nkeys + h->naggs; i++) {
      const struct chv_type *src;
      char name[64];
      if (i < h->nkeys) {
        src = h->in_schema->children[h->key_cols[i]];
        snprintf(name, sizeof name, "%s", h->in_schema->names[h->key_cols[i]]);
      } else {
        src = chv_agg_state_result(h->states[i - h->nkeys]);
        snprintf(name, sizeof name, "_agg%d", i - h->nkeys);
      }
      struct chv_type *t;
      rc = chv_type_clone(src, &t);
      if (rc == CHV_OK) rc = chv_type_struct_add(st, name, t);
      if (rc != CHV_OK) {
        chv_type_free(st);
        return chv_error_set(err, rc, "hash aggregation: result schema");
      }
    }
    h->out_schema = st;
  }
  int64_t ng = chv_hash_agg_ngroups(h);
  for (int a = 0; a < h->naggs; a++)
    CHV_RETURN_IF_ERR(chv_agg_ensure_groups(h->states[a], ng, err));
  struct chv_batch *b;
  CHV_RETURN_IF_ERR(chv_batch_open(h->out_schema, ng > 0 ? ng : 1, &b, err));
  rc = CHV_OK;
  for (int k = 0; k < h->nkeys && rc == CHV_OK; k++)
    for (int64_t g = 0; g < ng && rc == CHV_OK; g++)
      rc = chv_vector_append_from(b->cols[k], h->keys[k], g, err);
  for (int a = 0; a < h->naggs && rc == CHV_OK; a++)
    rc = chv_agg_finalize(h->states[a], b->cols[h->nkeys + a], err);
  if (rc != CHV_OK) {
    chv_batch_close(b);
    return rc;
  }
  b->nrows = ng;
  *out = b;
  return CHV_OK;
}

size_t chv_hash_agg_memory(const chv_hash_agg *h) { return hash_agg_memory(h); }

int chv_hash_agg_add_known(chv_hash_agg *h, const struct chv_batch *in,
                           const uint32_t *sel, int64_t n, uint32_t *miss,
                           int64_t *nmiss, struct chv_error *err) {
  *nmiss = 0;
  if (n == 0) return CHV_OK;
  if (h->nkeys == 0) return chv_hash_agg_add(h, in, sel, n, err);
  if (h->nkeys > 64)
    return chv_error_set(err, CHV_ENOTSUP, "hash aggregation: over 64 keys");
  if (n > h->gcap) {
    uint32_t *g = chv_realloc(h->gids, sizeof *g * (size_t)n);
    if (g == NULL)
      return chv_error_set(err, CHV_ENOMEM, "hash aggregation: out of memory");
    h->gids = g;
    h->gcap = n;
  }
  uint32_t *known = chv_malloc(sizeof *known * (size_t)n);
  if (known == NULL)
    return chv_error_set(err, CHV_ENOMEM, "hash aggregation: out of memory");
  const struct chv_vector *vecs[64];
  for (int k = 0; k < h->nkeys; k++) vecs[k] = in->cols[h->key_cols[k]];
  int64_t nk = 0, nm = 0;
  int rc = CHV_OK;
  for (int64_t i = 0; i < n && rc == CHV_OK; i++) {
    uint32_t r = sel ? sel[i] : (uint32_t)i;
    h->kb.len = 0;
    for (int k = 0; k < h->nkeys && rc == CHV_OK; k++)
      rc = chv_keyset_encode(&h->kb, vecs[k], r);
    if (rc != CHV_OK) break;
    uint64_t hv = chv_keyset_hash(h->kb.data, h->kb.len);
    size_t slot;
    uint32_t e = h->groups.n
                     ? chv_keyset_find(&h->groups, h->kb.data, h->kb.len, hv, &slot)
                     : UINT32_MAX;
    if (e == UINT32_MAX) {
      miss[nm++] = r;
    } else {
      known[nk] = r;
      h->gids[nk++] = e;
    }
  }
  if (rc != CHV_OK) {
    chv_free(known);
    return chv_error_set(err, CHV_ENOMEM, "hash aggregation: out of memory");
  }
  for (int a = 0; a < h->naggs && rc == CHV_OK && nk; a++) {
    const struct chv_vector *col =
        h->fns[a] == CHV_AGG_COUNT_STAR ? NULL : in->cols[h->agg_cols[a]];
    rc = chv_agg_update_rows(h->states[a], col, known, nk, h->gids, err);
  }
  chv_free(known);
  if (rc == CHV_OK) *nmiss = nm;
  return rc;
}

int chv_hash_agg_partition(const chv_hash_agg *h, const struct chv_batch *in,
                           const uint32_t *rows, int64_t n, int level,
                           int nparts, uint8_t *out, struct chv_buf *kb) {
  for (int64_t i = 0; i < n; i++) {
    uint32_t r = rows ? rows[i] : (uint32_t)i;
    kb->len = 0;
    for (int k = 0; k < h->nkeys; k++)
      if (chv_keyset_encode(kb, in->cols[h->key_cols[k]], r) != CHV_OK)
        return CHV_ENOMEM;
    uint64_t x = chv_keyset_hash(kb->data, kb->len);
    /* a different mix at each level: a partition splits again */
    x ^= (uint64_t)(level + 1) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 29;
    out[i] = (uint8_t)((x >> 40) % (uint64_t)nparts);
  }
  return CHV_OK;
}
