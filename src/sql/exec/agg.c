/*
** sql/exec agg.c: aggregate functions and the hash aggregation operator.
**
** An aggregate state holds one accumulator per group in parallel arrays
** (count, sum or extreme value, overflow flag), grown as group ids appear.
** update() adds the selected rows of a column, each to the group its group
** id names; merge() folds another state of the same function into this one
** through a group map, so that thread-local partials combine into a final
** state; finalize() writes one row per group.  COUNT(DISTINCT x) keeps a
** hash set of (group, value) pairs.
**
** chv_hash_agg groups rows by the values of several key columns: the keys
** of a row are serialized (NULL flag + value bytes) and looked up in a hash
** table whose entry number is the group id; the first row of each group is
** copied into key vectors that become the result's key columns.  A memory
** bound, when exceeded, fails add() with CHV_ENOMEM and a message naming
** the operator.
**
** INTERFACE: chv_agg_*(), chv_hash_agg_*() (exec.h).
*/
#include "sql/exec/exec_int.h"

#include <math.h>
#include <stdio.h>

/* ---- byte-key hash table -------------------------------------------------- */

struct hset {
  uint32_t *slots;   /* entry id + 1; 0 = empty */
  uint64_t *hashes;  /* per entry */
  uint32_t *offs;    /* per entry + 1: key offsets into keys */
  size_t nslots;     /* power of two */
  size_t n;          /* entries */
  size_t ecap;       /* entries allocated */
  struct chv_buf keys;
};

static void hset_free(struct hset *h) {
  chv_free(h->slots);
  chv_free(h->hashes);
  chv_free(h->offs);
  chv_buf_free(&h->keys);
  memset(h, 0, sizeof *h);
}

static uint64_t hash_bytes(const void *p, size_t n) {
  const unsigned char *s = p;
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 1099511628211ULL;
  return h ^ (h >> 29);
}

static size_t hset_memory(const struct hset *h) {
  return h->nslots * sizeof *h->slots + h->ecap * (sizeof *h->hashes + sizeof *h->offs) +
         h->keys.cap;
}

static int hset_grow(struct hset *h) {
  size_t ns = h->nslots ? h->nslots * 2 : 64;
  uint32_t *s = chv_calloc(ns, sizeof *s);
  if (s == NULL) return CHV_ENOMEM;
  for (size_t e = 0; e < h->n; e++) {
    size_t j = h->hashes[e] & (ns - 1);
    while (s[j]) j = (j + 1) & (ns - 1);
    s[j] = (uint32_t)e + 1;
  }
  chv_free(h->slots);
  h->slots = s;
  h->nslots = ns;
  return CHV_OK;
}

/* Make room for one more entry of len key bytes (after which find and
** insert cannot fail). */
static int hset_reserve(struct hset *h, size_t len) {
  if ((h->n + 1) * 2 > h->nslots) CHV_RETURN_IF_ERR(hset_grow(h));
  if (h->n + 1 >= h->ecap) {
    size_t nc = h->ecap ? h->ecap * 2 : 64;
    uint64_t *hs = chv_realloc(h->hashes, nc * sizeof *hs);
    if (hs == NULL) return CHV_ENOMEM;
    h->hashes = hs;
    uint32_t *os = chv_realloc(h->offs, (nc + 1) * sizeof *os);
    if (os == NULL) return CHV_ENOMEM;
    if (h->ecap == 0) os[0] = 0;
    h->offs = os;
    h->ecap = nc;
  }
  if (h->keys.len + len > UINT32_MAX) return CHV_ENOMEM;
  return chv_buf_reserve(&h->keys, len);
}

/* Id of key, or UINT32_MAX with *slot where it would go. */
static uint32_t hset_find(const struct hset *h, const void *key, size_t len,
                          uint64_t hv, size_t *slot) {
  size_t j = hv & (h->nslots - 1);
  while (h->slots[j]) {
    uint32_t e = h->slots[j] - 1;
    if (h->hashes[e] == hv && h->offs[e + 1] - h->offs[e] == len &&
        memcmp(h->keys.data + h->offs[e], key, len) == 0)
      return e;
    j = (j + 1) & (h->nslots - 1);
  }
  *slot = j;
  return UINT32_MAX;
}

static uint32_t hset_insert(struct hset *h, const void *key, size_t len,
                            uint64_t hv, size_t slot) {
  memcpy(h->keys.data + h->keys.len, key, len);
  h->keys.len += len;
  h->hashes[h->n] = hv;
  h->offs[h->n + 1] = (uint32_t)h->keys.len;
  h->slots[slot] = (uint32_t)h->n + 1;
  return (uint32_t)h->n++;
}

/* Id of key, adding it if new (*added). */
static int hset_put(struct hset *h, const void *key, size_t len, uint32_t *id,
                    bool *added) {
  CHV_RETURN_IF_ERR(hset_reserve(h, len));
  uint64_t hv = hash_bytes(key, len);
  size_t slot;
  uint32_t e = hset_find(h, key, len, hv, &slot);
  *added = e == UINT32_MAX;
  *id = *added ? hset_insert(h, key, len, hv, slot) : e;
  return CHV_OK;
}

/* Serialize row i of v (NULL flag, then normalized value bytes). */
static int put_key(struct chv_buf *b, const struct chv_vector *v, int64_t i) {
  if (chv_vector_is_null(v, i)) return chv_buf_putc(b, 0);
  CHV_RETURN_IF_ERR(chv_buf_putc(b, 1));
  struct chv_value x;
  chv_exec_get_value(v, i, &x);
  switch (v->type->id) {
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DOUBLE: {
    double d = x.f64 == 0 ? 0.0 : isnan(x.f64) ? NAN : x.f64; /* -0 = 0 */
    return chv_buf_append(b, &d, sizeof d);
  }
  case CHV_TYPE_DECIMAL: return chv_buf_append(b, &x.dec, sizeof x.dec);
  case CHV_TYPE_TIMESTAMP:
    CHV_RETURN_IF_ERR(chv_buf_append(b, &x.ts.seconds, sizeof x.ts.seconds));
    return chv_buf_append(b, &x.ts.nanos, sizeof x.ts.nanos);
  case CHV_TYPE_BOOLEAN: return chv_buf_putc(b, x.b);
  default:
    if (chv_type_is_string_like(v->type->id)) {
      uint32_t n = (uint32_t)x.len;
      CHV_RETURN_IF_ERR(chv_buf_append(b, &n, sizeof n));
      return chv_buf_append(b, x.str, (size_t)x.len);
    }
    return chv_buf_append(b, &x.i64, sizeof x.i64);
  }
}

/* ---- aggregate states ----------------------------------------------------- */

enum kind { K_INT, K_DBL, K_DEC, K_TS, K_STR, K_BOOL };

struct chv_agg_state {
  enum chv_agg_fn fn;
  const struct chv_type *arg, *result;
  enum kind kind;
  int64_t ngroups, cap;
  int64_t *count;        /* rows counted (non-NULL for all but COUNT(*)) */
  int64_t *i64;          /* SUM of integers (wrapping), MIN/MAX K_INT */
  double *f64;           /* SUM/AVG of doubles and integers, MIN/MAX K_DBL */
  chv_i128 *dec;         /* decimal SUM/AVG/MIN/MAX */
  uint8_t *ovf;          /* decimal SUM/AVG overflowed */
  struct chv_timestamp *ts;
  char **str;            /* MIN/MAX strings (chv_malloc'd) */
  int64_t *slen;
  struct hset distinct;  /* COUNT(DISTINCT): (group, value) */
  struct chv_buf scratch;
  size_t str_bytes;
};

static enum kind kind_of(enum chv_type_id id) {
  switch (id) {
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DOUBLE: return K_DBL;
  case CHV_TYPE_DECIMAL: return K_DEC;
  case CHV_TYPE_TIMESTAMP: return K_TS;
  case CHV_TYPE_BOOLEAN: return K_BOOL;
  default: return chv_type_is_string_like(id) ? K_STR : K_INT;
  }
}

static const char *agg_name(enum chv_agg_fn fn) {
  static const char *const names[] = {"count", "count", "count(distinct)",
                                      "sum", "min", "max", "avg"};
  return names[fn];
}

int chv_agg_result_type(chv_arena *a, enum chv_agg_fn fn,
                        const struct chv_type *arg,
                        const struct chv_type **out, struct chv_error *err) {
  const struct chv_type *t = NULL;
  if (fn != CHV_AGG_COUNT_STAR &&
      (arg == NULL || !chv_type_is_primitive(arg->id)))
    return chv_error_set(err, CHV_ETYPE, "%s needs a primitive argument",
                         agg_name(fn));
  switch (fn) {
  case CHV_AGG_COUNT_STAR:
  case CHV_AGG_COUNT:
  case CHV_AGG_COUNT_DISTINCT:
    t = chv_exec_type(a, CHV_TYPE_BIGINT, 0, 0);
    break;
  case CHV_AGG_SUM:
  case CHV_AGG_AVG:
    if (chv_exec_is_integral(arg->id))
      t = chv_exec_type(a, fn == CHV_AGG_SUM ? CHV_TYPE_BIGINT : CHV_TYPE_DOUBLE, 0, 0);
    else if (arg->id == CHV_TYPE_FLOAT || arg->id == CHV_TYPE_DOUBLE)
      t = chv_exec_type(a, CHV_TYPE_DOUBLE, 0, 0);
    else if (arg->id == CHV_TYPE_DECIMAL && fn == CHV_AGG_SUM)
      t = chv_exec_type(a, CHV_TYPE_DECIMAL, CHV_MIN(38, arg->precision + 10),
                        arg->scale);
    else if (arg->id == CHV_TYPE_DECIMAL)
      t = chv_exec_type(a, CHV_TYPE_DECIMAL, CHV_MIN(38, arg->precision + 4),
                        CHV_MIN(38, arg->scale + 4));
    else
      return chv_error_set(err, CHV_ETYPE, "cannot apply '%s' to %s",
                           agg_name(fn), chv_type_id_name(arg->id));
    break;
  case CHV_AGG_MIN:
  case CHV_AGG_MAX:
    t = arg;
    break;
  }
  if (t == NULL)
    return chv_error_set(err, CHV_ENOMEM, "out of memory typing %s",
                         agg_name(fn));
  *out = t;
  return CHV_OK;
}

int chv_agg_state_open(enum chv_agg_fn fn, const struct chv_type *arg,
                       const struct chv_type *result, chv_agg_state **out,
                       struct chv_error *err) {
  struct chv_agg_state *s = chv_calloc(1, sizeof *s);
  if (s == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  s->fn = fn;
  s->arg = arg;
  s->result = result;
  s->kind = arg ? kind_of(arg->id) : K_INT;
  chv_buf_init(&s->scratch);
  *out = s;
  return CHV_OK;
}

void chv_agg_state_close(chv_agg_state *s) {
  if (s == NULL) return;
  if (s->str)
    for (int64_t g = 0; g < s->ngroups; g++) chv_free(s->str[g]);
  chv_free(s->count);
  chv_free(s->i64);
  chv_free(s->f64);
  chv_free(s->dec);
  chv_free(s->ovf);
  chv_free(s->ts);
  chv_free(s->str);
  chv_free(s->slen);
  hset_free(&s->distinct);
  chv_buf_free(&s->scratch);
  chv_free(s);
}

int64_t chv_agg_ngroups(const chv_agg_state *s) { return s->ngroups; }

size_t chv_agg_memory(const chv_agg_state *s) {
  size_t per = sizeof(int64_t) * 3 + sizeof(double) + sizeof(chv_i128) * 2 + 1;
  return (size_t)s->cap * per + hset_memory(&s->distinct) + s->str_bytes;
}

static int grow(void **p, size_t elem, int64_t old, int64_t cap) {
  void *q = chv_realloc(*p, elem * (size_t)cap);
  if (q == NULL) return CHV_ENOMEM;
  memset((char *)q + elem * (size_t)old, 0, elem * (size_t)(cap - old));
  *p = q;
  return CHV_OK;
}

int chv_agg_ensure_groups(chv_agg_state *s, int64_t n, struct chv_error *err) {
  if (n <= s->ngroups) return CHV_OK;
  if (n > s->cap) {
    int64_t cap = s->cap ? s->cap * 2 : 16;
    if (cap < n) cap = n;
    int rc = grow((void **)&s->count, sizeof *s->count, s->cap, cap);
    if (rc == CHV_OK) rc = grow((void **)&s->i64, sizeof *s->i64, s->cap, cap);
    if (rc == CHV_OK) rc = grow((void **)&s->f64, sizeof *s->f64, s->cap, cap);
    if (rc == CHV_OK && s->kind == K_DEC)
      rc = grow((void **)&s->dec, sizeof *s->dec, s->cap, cap);
    if (rc == CHV_OK && s->kind == K_DEC)
      rc = grow((void **)&s->ovf, sizeof *s->ovf, s->cap, cap);
    if (rc == CHV_OK && s->kind == K_TS)
      rc = grow((void **)&s->ts, sizeof *s->ts, s->cap, cap);
    if (rc == CHV_OK && s->kind == K_STR)
      rc = grow((void **)&s->str, sizeof *s->str, s->cap, cap);
    if (rc == CHV_OK && s->kind == K_STR)
      rc = grow((void **)&s->slen, sizeof *s->slen, s->cap, cap);
    if (rc != CHV_OK)
      /* arrays already grown keep their new size; cap stays consistent as
      ** the smallest is what matters: retry grows the rest */
      return chv_error_set(err, CHV_ENOMEM, "out of memory in %s",
                           agg_name(s->fn));
    s->cap = cap;
  }
  s->ngroups = n;
  return CHV_OK;
}

/* Java's Double.compare: -0.0 < 0.0, NaN above everything, NaN == NaN. */
static int dcmp(double a, double b) {
  if (a < b) return -1;
  if (a > b) return 1;
  if (isnan(a) || isnan(b)) return isnan(a) - isnan(b);
  return signbit(b) - signbit(a);
}

static int set_str(chv_agg_state *s, int64_t g, const char *p, int64_t n) {
  char *c = chv_malloc((size_t)n + 1);
  if (c == NULL) return CHV_ENOMEM;
  if (n) memcpy(c, p, (size_t)n);
  s->str_bytes += (size_t)n - (size_t)(s->str[g] ? s->slen[g] : 0);
  chv_free(s->str[g]);
  s->str[g] = c;
  s->slen[g] = n;
  return CHV_OK;
}

/* Fold one non-NULL value into group g (MIN/MAX, SUM, AVG). */
static int fold_value(chv_agg_state *s, int64_t g, const struct chv_value *x) {
  bool first = s->count[g] == 0;
  bool is_min = s->fn == CHV_AGG_MIN;
  if (s->fn == CHV_AGG_SUM || s->fn == CHV_AGG_AVG) {
    s->count[g]++;
    switch (s->kind) {
    case K_DEC:
      if (__builtin_add_overflow(s->dec[g], x->dec, &s->dec[g])) s->ovf[g] = 1;
      break;
    case K_DBL: s->f64[g] += x->f64; break;
    default:
      s->i64[g] = (int64_t)((uint64_t)s->i64[g] + (uint64_t)x->i64);
      s->f64[g] += (double)x->i64;
      break;
    }
    return CHV_OK;
  }
  int c;
  switch (s->kind) {
  case K_DBL:
    c = first ? 1 : dcmp(x->f64, s->f64[g]);
    if (first || (is_min ? c < 0 : c > 0)) s->f64[g] = x->f64;
    break;
  case K_DEC:
    if (first || (is_min ? x->dec < s->dec[g] : x->dec > s->dec[g]))
      s->dec[g] = x->dec;
    break;
  case K_TS: {
    struct chv_value cur = {.ts = s->ts[g]};
    c = first ? 0 : chv_exec_compare_values(s->arg, x, &cur);
    if (first || (is_min ? c < 0 : c > 0)) s->ts[g] = x->ts;
    break;
  }
  case K_STR: {
    struct chv_value cur = {.str = s->str[g], .len = s->slen[g]};
    c = first ? 0 : chv_exec_compare_values(s->arg, x, &cur);
    if ((first || (is_min ? c < 0 : c > 0)) &&
        set_str(s, g, x->str, x->len) != CHV_OK)
      return CHV_ENOMEM;
    break;
  }
  case K_BOOL:
    if (first || (is_min ? x->b < (s->i64[g] != 0) : x->b > (s->i64[g] != 0)))
      s->i64[g] = x->b;
    break;
  default:
    if (first || (is_min ? x->i64 < s->i64[g] : x->i64 > s->i64[g]))
      s->i64[g] = x->i64;
    break;
  }
  s->count[g]++;
  return CHV_OK;
}

/* Groups up to which counts and integer sums go through banks: row i
** adds to bank i % 4, and the banks are folded into the state after the
** batch.  Integer adds (wrapping) give the same sums in any order, and
** with one bank the rows of a group wait for each other's add to memory;
** with few groups nearly every row does. */
#define BANK_GROUPS 64

/* cnt[groups[i]]++ for i < n. */
static void count_groups(int64_t *restrict cnt, const uint32_t *groups,
                         int64_t n, int64_t ngroups) {
  if (ngroups > BANK_GROUPS) {
    for (int64_t i = 0; i < n; i++) cnt[groups[i]]++;
    return;
  }
  int64_t b[4][BANK_GROUPS];
  for (int k = 0; k < 4; k++) memset(b[k], 0, sizeof b[k][0] * (size_t)ngroups);
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    b[0][groups[i]]++;
    b[1][groups[i + 1]]++;
    b[2][groups[i + 2]]++;
    b[3][groups[i + 3]]++;
  }
  for (; i < n; i++) b[0][groups[i]]++;
  for (int64_t g = 0; g < ngroups; g++)
    cnt[g] += b[0][g] + b[1][g] + b[2][g] + b[3][g];
}

/* SUM and AVG of a numeric column, grouped or into group 0, without going
** through chv_value per row (what fold_value() does, type by type, in the
** same order, so that double sums round the same).  Into group 0 the
** accumulators stay in locals for the batch; grouped they are reached
** through restrict pointers, so that a row costs its loads and adds only.
** A SUM of integers keeps its BIGINT sum, an AVG of them its double sum.
** false: not such a column. */
static bool sum_fast(chv_agg_state *s, const struct chv_vector *col,
                     const uint8_t *valid, const uint32_t *sel, int64_t n,
                     const uint32_t *groups) {
  if ((s->fn != CHV_AGG_SUM && s->fn != CHV_AGG_AVG) ||
      kind_of(col->type->id) != s->kind)
    return false;
  bool avg = s->fn == CHV_AGG_AVG;
  int64_t *restrict cnt = s->count;
  int64_t *restrict i64 = s->i64;
  double *restrict f64 = s->f64;
  chv_i128 *restrict dec = s->dec;
  uint8_t *restrict ovf = s->ovf;
  /* Rows of the batch, valid ones only, with their value x (and, grouped,
  ** their group g). */
#define ROWS_(T, BODY)                                                         \
  do {                                                                         \
    const T *v_ = col->data;                                                   \
    for (int64_t i = 0; i < n; i++) {                                          \
      uint32_t r = sel ? sel[i] : (uint32_t)i;                                 \
      if (valid && !chv_bit_get(valid, r)) continue;                           \
      T x = v_[r];                                                             \
      BODY;                                                                    \
    }                                                                          \
  } while (0)
#define INT_(T)                                                                \
  do {                                                                         \
    if (groups && avg)                                                         \
      ROWS_(T, uint32_t g = groups[i]; cnt[g]++; f64[g] += (double)x);         \
    else if (groups && s->ngroups <= BANK_GROUPS) {                            \
      int64_t ng_ = s->ngroups, cb_[4][BANK_GROUPS];                           \
      uint64_t sb_[4][BANK_GROUPS];                                            \
      for (int k_ = 0; k_ < 4; k_++) {                                         \
        memset(cb_[k_], 0, sizeof cb_[k_][0] * (size_t)ng_);                   \
        memset(sb_[k_], 0, sizeof sb_[k_][0] * (size_t)ng_);                   \
      }                                                                        \
      ROWS_(T, uint32_t g = groups[i]; cb_[i & 3][g]++;                        \
            sb_[i & 3][g] += (uint64_t)(int64_t)x);                            \
      for (int64_t g = 0; g < ng_; g++) {                                      \
        cnt[g] += cb_[0][g] + cb_[1][g] + cb_[2][g] + cb_[3][g];               \
        i64[g] = (int64_t)((uint64_t)i64[g] + sb_[0][g] + sb_[1][g] +          \
                           sb_[2][g] + sb_[3][g]);                             \
      }                                                                        \
    } else if (groups)                                                         \
      ROWS_(T, uint32_t g = groups[i]; cnt[g]++;                               \
            i64[g] = (int64_t)((uint64_t)i64[g] + (uint64_t)(int64_t)x));      \
    else if (avg) {                                                            \
      int64_t c = 0;                                                           \
      double acc = f64[0];                                                     \
      ROWS_(T, c++; acc += (double)x);                                         \
      cnt[0] += c;                                                             \
      f64[0] = acc;                                                            \
    } else {                                                                   \
      int64_t c = 0;                                                           \
      uint64_t acc = (uint64_t)i64[0];                                         \
      ROWS_(T, c++; acc += (uint64_t)(int64_t)x);                              \
      cnt[0] += c;                                                             \
      i64[0] = (int64_t)acc;                                                   \
    }                                                                          \
    return true;                                                               \
  } while (0)
#define DBL_(T)                                                                \
  do {                                                                         \
    if (groups)                                                                \
      ROWS_(T, uint32_t g = groups[i]; cnt[g]++; f64[g] += (double)x);         \
    else {                                                                     \
      int64_t c = 0;                                                           \
      double acc = f64[0];                                                     \
      ROWS_(T, c++; acc += (double)x);                                         \
      cnt[0] += c;                                                             \
      f64[0] = acc;                                                            \
    }                                                                          \
    return true;                                                               \
  } while (0)
  switch (col->type->id) {
  case CHV_TYPE_TINYINT: INT_(int8_t);
  case CHV_TYPE_SMALLINT: INT_(int16_t);
  case CHV_TYPE_INT: INT_(int32_t);
  case CHV_TYPE_BIGINT: INT_(int64_t);
  case CHV_TYPE_FLOAT: DBL_(float);
  case CHV_TYPE_DOUBLE: DBL_(double);
  case CHV_TYPE_DECIMAL:
    /* An overflow wraps and marks the group, as fold_value() does. */
    if (groups) {
      ROWS_(chv_i128, uint32_t g = groups[i]; cnt[g]++;
            ovf[g] |= __builtin_add_overflow(dec[g], x, &dec[g]));
    } else {
      int64_t c = 0;
      chv_i128 acc = dec[0];
      bool o = false;
      ROWS_(chv_i128, c++; o |= __builtin_add_overflow(acc, x, &acc));
      cnt[0] += c;
      dec[0] = acc;
      if (o) ovf[0] = 1;
    }
    return true;
  default: return false;
  }
#undef DBL_
#undef INT_
#undef ROWS_
}

/* chv_agg_update() once the states hold every group of groups[]. */
static int update_rows(chv_agg_state *s, const struct chv_vector *col,
                       const uint32_t *sel, int64_t n, const uint32_t *groups,
                       struct chv_error *err) {
  if (s->fn == CHV_AGG_COUNT_STAR) {
    if (groups == NULL) s->count[0] += n;
    else count_groups(s->count, groups, n, s->ngroups);
    return CHV_OK;
  }
  const uint8_t *valid = col->null_count > 0 ? col->validity : NULL;
  if (s->fn == CHV_AGG_COUNT && valid == NULL) {
    if (groups == NULL) s->count[0] += n;
    else count_groups(s->count, groups, n, s->ngroups);
    return CHV_OK;
  }
  if (sum_fast(s, col, valid, sel, n, groups)) return CHV_OK;
  for (int64_t i = 0; i < n; i++) {
    uint32_t r = sel ? sel[i] : (uint32_t)i;
    if (valid && !chv_bit_get(valid, r)) continue;
    int64_t g = groups ? groups[i] : 0;
    if (s->fn == CHV_AGG_COUNT) {
      s->count[g]++;
      continue;
    }
    if (s->fn == CHV_AGG_COUNT_DISTINCT) {
      uint32_t g32 = (uint32_t)g, id;
      bool added;
      s->scratch.len = 0;
      if (chv_buf_append(&s->scratch, &g32, sizeof g32) != CHV_OK ||
          put_key(&s->scratch, col, r) != CHV_OK ||
          hset_put(&s->distinct, s->scratch.data, s->scratch.len, &id,
                   &added) != CHV_OK)
        return chv_error_set(err, CHV_ENOMEM, "out of memory in "
                             "count(distinct)");
      s->count[g] += added;
      continue;
    }
    struct chv_value x;
    chv_exec_get_value(col, r, &x);
    if (s->kind == K_INT && col->type->id == CHV_TYPE_BOOLEAN) x.i64 = x.b;
    if (fold_value(s, g, &x) != CHV_OK)
      return chv_error_set(err, CHV_ENOMEM, "out of memory in %s",
                           agg_name(s->fn));
  }
  return CHV_OK;
}

int chv_agg_update(chv_agg_state *s, const struct chv_vector *col,
                   const uint32_t *sel, int64_t n, const uint32_t *groups,
                   struct chv_error *err) {
  int64_t need = groups ? 0 : 1;
  for (int64_t i = 0; groups && i < n; i++)
    if ((int64_t)groups[i] + 1 > need) need = (int64_t)groups[i] + 1;
  CHV_RETURN_IF_ERR(chv_agg_ensure_groups(s, need, err));
  return update_rows(s, col, sel, n, groups, err);
}

int chv_agg_merge(chv_agg_state *s, const chv_agg_state *o,
                  const uint32_t *map, struct chv_error *err) {
  if (o->fn != s->fn || o->kind != s->kind)
    return chv_error_set(err, CHV_EINVAL, "merging different aggregates");
  int64_t need = s->ngroups;
  for (int64_t g = 0; g < o->ngroups; g++) {
    int64_t t = map ? (int64_t)map[g] : g;
    if (t + 1 > need) need = t + 1;
  }
  CHV_RETURN_IF_ERR(chv_agg_ensure_groups(s, need, err));
  if (s->fn == CHV_AGG_COUNT_DISTINCT) {
    for (size_t e = 0; e < o->distinct.n; e++) {
      const char *k = o->distinct.keys.data + o->distinct.offs[e];
      size_t len = o->distinct.offs[e + 1] - o->distinct.offs[e];
      uint32_t g, id;
      bool added;
      memcpy(&g, k, sizeof g);
      if (map) g = map[g];
      s->scratch.len = 0;
      if (chv_buf_append(&s->scratch, &g, sizeof g) != CHV_OK ||
          chv_buf_append(&s->scratch, k + sizeof g, len - sizeof g) != CHV_OK ||
          hset_put(&s->distinct, s->scratch.data, s->scratch.len, &id,
                   &added) != CHV_OK)
        return chv_error_set(err, CHV_ENOMEM, "out of memory in "
                             "count(distinct)");
      s->count[g] += added;
    }
    return CHV_OK;
  }
  for (int64_t g = 0; g < o->ngroups; g++) {
    int64_t t = map ? (int64_t)map[g] : g;
    if (s->fn == CHV_AGG_COUNT_STAR || s->fn == CHV_AGG_COUNT) {
      s->count[t] += o->count[g];
      continue;
    }
    if (o->count[g] == 0) continue;
    if (s->fn == CHV_AGG_SUM || s->fn == CHV_AGG_AVG) {
      s->count[t] += o->count[g];
      s->i64[t] = (int64_t)((uint64_t)s->i64[t] + (uint64_t)o->i64[g]);
      s->f64[t] += o->f64[g];
      if (s->kind == K_DEC) {
        if (o->ovf[g] || __builtin_add_overflow(s->dec[t], o->dec[g], &s->dec[t]))
          s->ovf[t] = 1;
      }
      continue;
    }
    struct chv_value x = {0};
    switch (s->kind) {
    case K_DBL: x.f64 = o->f64[g]; break;
    case K_DEC: x.dec = o->dec[g]; break;
    case K_TS: x.ts = o->ts[g]; break;
    case K_STR: x.str = o->str[g]; x.len = o->slen[g]; break;
    case K_BOOL: x.b = o->i64[g] != 0; break;
    default: x.i64 = o->i64[g]; break;
    }
    int64_t before = s->count[t];
    if (fold_value(s, t, &x) != CHV_OK)
      return chv_error_set(err, CHV_ENOMEM, "out of memory in %s",
                           agg_name(s->fn));
    s->count[t] = before + o->count[g];
  }
  return CHV_OK;
}

int chv_agg_finalize(const chv_agg_state *s, struct chv_vector *out,
                     struct chv_error *err) {
  chv_vector_reset(out);
  CHV_RETURN_IF_ERR(chv_vector_reserve(out, s->ngroups > 0 ? s->ngroups : 1, err));
  for (int64_t g = 0; g < s->ngroups; g++) {
    struct chv_value v = {0};
    if (s->fn == CHV_AGG_COUNT_STAR || s->fn == CHV_AGG_COUNT ||
        s->fn == CHV_AGG_COUNT_DISTINCT) {
      v.i64 = s->count[g];
    } else if (s->count[g] == 0) {
      v.is_null = true;
    } else if (s->fn == CHV_AGG_SUM || s->fn == CHV_AGG_AVG) {
      bool avg = s->fn == CHV_AGG_AVG;
      if (s->kind == K_DEC) {
        chv_i128 r = s->dec[g];
        int from = s->arg->scale, to = s->result->scale;
        v.is_null = s->ovf[g] != 0;
        if (!v.is_null && avg) {
          v.is_null = !chv_exec_dec_rescale(r, from, to, &r);
          if (!v.is_null) r = chv_exec_div_round(r, s->count[g]);
        }
        v.is_null = v.is_null || !chv_exec_dec_fits(r, s->result->precision);
        v.dec = r;
      } else if (avg) {
        v.f64 = s->f64[g] / (double)s->count[g];
      } else if (s->kind == K_DBL) {
        v.f64 = s->f64[g];
      } else {
        v.i64 = s->i64[g];
      }
    } else {
      switch (s->kind) {
      case K_DBL: v.f64 = s->f64[g]; break;
      case K_DEC: v.dec = s->dec[g]; break;
      case K_TS: v.ts = s->ts[g]; break;
      case K_STR: v.str = s->str[g]; v.len = s->slen[g]; break;
      case K_BOOL: v.b = s->i64[g] != 0; break;
      default: v.i64 = s->i64[g]; break;
      }
    }
    CHV_RETURN_IF_ERR(chv_exec_append_value(out, &v, err));
  }
  return CHV_OK;
}

/* ---- hash aggregation -------------------------------------------------------- */

/* One key of an integer or string type: a cache in front of the group
** table.  The key packed into 64 bits (an integer as its value, a string of
** at most 7 bytes as its bytes and its length in the top byte) maps to its
** group id in a small open-addressing table, so that a row of a group seen
** before costs a multiply and a probe instead of a serialized key, its hash
** and a compare.  NULLs, longer strings and misses go to the group table,
** which alone assigns ids (in order of first appearance, as without the
** cache); a miss's id is then cached, up to GC_MAX keys. */
#define GC_MAX 256
#define GC_EMPTY UINT32_MAX

struct gcache {
  uint64_t *keys; /* packed keys */
  uint32_t *ids;  /* their group ids; GC_EMPTY: a free slot */
  uint32_t nslots; /* a power of two; 0: no table (yet) */
  uint32_t n;      /* keys cached */
  int shift;       /* 64 - log2(nslots) */
};

static void gc_free(struct gcache *c) {
  chv_free(c->keys);
  chv_free(c->ids);
  memset(c, 0, sizeof *c);
}

static inline uint32_t gc_slot(const struct gcache *c, uint64_t k) {
  return (uint32_t)((k * 0x9E3779B97F4A7C15ull) >> c->shift);
}

/* Add k -> id (k not cached yet); nothing when full or out of memory (the
** cache is only a shortcut). */
static void gc_put(struct gcache *c, uint64_t k, uint32_t id) {
  if (c->n >= GC_MAX) return;
  if ((c->n + 1) * 2 > c->nslots) {
    uint32_t ns = c->nslots ? c->nslots * 2 : 64;
    uint64_t *keys = chv_malloc(sizeof *keys * ns);
    uint32_t *ids = chv_malloc(sizeof *ids * ns);
    if (keys == NULL || ids == NULL) {
      chv_free(keys);
      chv_free(ids);
      return;
    }
    memset(ids, 0xff, sizeof *ids * ns);
    struct gcache g = {keys, ids, ns, c->n, 64 - __builtin_ctz(ns)};
    for (uint32_t j = 0; j < c->nslots; j++) {
      if (c->ids[j] == GC_EMPTY) continue;
      uint32_t t = gc_slot(&g, c->keys[j]);
      while (ids[t] != GC_EMPTY) t = (t + 1) & (ns - 1);
      keys[t] = c->keys[j];
      ids[t] = c->ids[j];
    }
    gc_free(c);
    *c = g;
  }
  uint32_t t = gc_slot(c, k);
  while (c->ids[t] != GC_EMPTY) t = (t + 1) & (c->nslots - 1);
  c->keys[t] = k;
  c->ids[t] = id;
  c->n++;
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
  struct hset groups;
  struct chv_vector **keys;        /* first row of each group's keys */
  struct chv_type *out_schema;
  struct chv_buf kb;
  uint32_t *gids;
  int64_t gcap;
  struct gcache gc;                /* one key: packed keys -> group ids */
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
  hset_free(&h->groups);
  gc_free(&h->gc);
  chv_buf_free(&h->kb);
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
  size_t m = hset_memory(&h->groups) + h->kb.cap + (size_t)h->gcap * 4 +
             (size_t)h->gc.nslots * (sizeof *h->gc.keys + sizeof *h->gc.ids);
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

/* Group id of row r of the key vectors vecs (adding the group if new). */
static int lookup_group(chv_hash_agg *h, const struct chv_vector *const *vecs,
                        int64_t r, uint32_t *gid, struct chv_error *err) {
  h->kb.len = 0;
  int rc = CHV_OK;
  for (int k = 0; k < h->nkeys && rc == CHV_OK; k++) rc = put_key(&h->kb, vecs[k], r);
  if (rc == CHV_OK) rc = hset_reserve(&h->groups, h->kb.len);
  if (rc != CHV_OK)
    return chv_error_set(err, CHV_ENOMEM, "hash aggregation: out of memory");
  uint64_t hv = hash_bytes(h->kb.data, h->kb.len);
  size_t slot;
  uint32_t e = hset_find(&h->groups, h->kb.data, h->kb.len, hv, &slot);
  if (e != UINT32_MAX) {
    *gid = e;
    return CHV_OK;
  }
  int64_t len = (int64_t)h->groups.n;
  for (int k = 0; k < h->nkeys; k++) {
    rc = chv_vector_append_from(h->keys[k], vecs[k], r, err);
    if (rc != CHV_OK) {
      for (int j = 0; j <= k; j++) vec_truncate(h->keys[j], len);
      return rc;
    }
  }
  *gid = hset_insert(&h->groups, h->kb.data, h->kb.len, hv, slot);
  return CHV_OK;
}

/* Group ids of rows sel[0, n) (NULL: 0..n-1) of the key vectors into
** h->gids: through the cache for one packable key, one loop per way of
** packing, else row by row through the group table. */
static int group_ids(chv_hash_agg *h, const struct chv_vector *const *vecs,
                     const uint32_t *sel, int64_t n, struct chv_error *err) {
  const struct chv_vector *kv = vecs[0];
  enum chv_type_id kid = kv->type->id;
  enum gc_kind kind = h->nkeys == 1 ? gc_kind_of(kid) : GC_NONE;
  uint32_t *restrict out = h->gids;
  /* The cache in locals, reloaded after each miss (which may grow it). */
  struct gcache c = h->gc;
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
        uint32_t t = gc_slot(&c, k), id;
        while ((id = c.ids[t]) != GC_EMPTY && c.keys[t] != k)
          t = (t + 1) & (c.nslots - 1);
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
    if (packed && c.nslots) {
      uint32_t t = gc_slot(&c, k), id;
      while ((id = c.ids[t]) != GC_EMPTY && c.keys[t] != k)
        t = (t + 1) & (c.nslots - 1);
      if (id != GC_EMPTY) {
        out[i] = id;
        continue;
      }
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
    CHV_RETURN_IF_ERR(update_rows(h->states[a], col, sel, n, gids, err));
  }
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
    for (int64_t g = 0; g < ng; g++) {
      int rc = lookup_group(h, (const struct chv_vector *const *)o->keys, g,
                            &map[g], err);
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
        src = h->states[i - h->nkeys]->result;
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
