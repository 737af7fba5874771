/*
** sql/func agg.c: aggregate states and the built-in aggregates COUNT(*),
** COUNT(x), COUNT(DISTINCT x), SUM, AVG, MIN and MAX.
**
** A state holds one aggregate column's accumulators for every group, in
** parallel arrays (count, sum or extreme value, overflow flag) grown as
** group ids appear, plus the bytes per group an implementation asks for
** (chv_agg_impl.group_bytes).  update() adds the selected rows of a column,
** each to the group its group id names; merge() folds another state of the
** same implementation into this one through a group map, so that
** thread-local partials combine into a final state; finalize() writes one
** row per group.  COUNT(DISTINCT x) keeps a key set of (group, value)
** pairs.  The loops of SUM, AVG and COUNT over numeric columns read the
** column arrays directly (docs/exec.md, "Aggregates").
**
** INTERFACE: chv_agg_*() (func.h); the chv_agg_*_impl tables the registry
** names (func_int.h).
*/
#include "sql/func/func_int.h"

#include <math.h>

enum chv_agg_kind chv_agg_kind_of(enum chv_type_id id) {
  switch (id) {
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DOUBLE: return CHV_AK_DBL;
  case CHV_TYPE_DECIMAL: return CHV_AK_DEC;
  case CHV_TYPE_TIMESTAMP: return CHV_AK_TS;
  case CHV_TYPE_BOOLEAN: return CHV_AK_BOOL;
  default: return chv_type_is_string_like(id) ? CHV_AK_STR : CHV_AK_INT;
  }
}

/* ---- the built-in forms and their result types ---------------------------- */

static const struct {
  const struct chv_agg_impl *impl;
  const char *name;        /* the registry entry */
  enum chv_agg_form form;
} builtin[] = {
    [CHV_AGG_COUNT_STAR] = {&chv_agg_count_star_impl, "count", CHV_AGG_STAR},
    [CHV_AGG_COUNT] = {&chv_agg_count_impl, "count", CHV_AGG_PLAIN},
    [CHV_AGG_COUNT_DISTINCT] = {&chv_agg_count_distinct_impl, "count",
                                CHV_AGG_DISTINCT},
    [CHV_AGG_SUM] = {&chv_agg_sum_impl, "sum", CHV_AGG_PLAIN},
    [CHV_AGG_MIN] = {&chv_agg_min_impl, "min", CHV_AGG_PLAIN},
    [CHV_AGG_MAX] = {&chv_agg_max_impl, "max", CHV_AGG_PLAIN},
    [CHV_AGG_AVG] = {&chv_agg_avg_impl, "avg", CHV_AGG_PLAIN},
};

const struct chv_agg_impl *chv_agg_impl_of(enum chv_agg_fn fn) {
  return (int)fn >= 0 && (size_t)fn < CHV_ARRAY_SIZE(builtin) ? builtin[fn].impl
                                                             : NULL;
}

int chv_agg_result_type(chv_arena *a, enum chv_agg_fn fn,
                        const struct chv_type *arg,
                        const struct chv_type **out, struct chv_error *err) {
  const struct chv_agg_impl *impl = chv_agg_impl_of(fn);
  if (impl == NULL)
    return chv_error_set(err, CHV_EINVAL, "unknown aggregate %d", (int)fn);
  if (fn != CHV_AGG_COUNT_STAR &&
      (arg == NULL || !chv_type_is_primitive(arg->id)))
    return chv_error_set(err, CHV_ETYPE, "%s needs a primitive argument",
                         impl->name);
  const struct chv_func *f = chv_func_lookup(builtin[fn].name);
  struct chv_func_argdesc d = {arg, NULL};
  struct chv_func_bound b;
  if (f == NULL)
    return chv_error_set(err, CHV_EINTERNAL, "aggregate %s is not "
                         "registered", builtin[fn].name);
  CHV_RETURN_IF_ERR(chv_func_resolve(a, f, builtin[fn].form, &d,
                                     fn == CHV_AGG_COUNT_STAR ? 0 : 1, &b,
                                     err));
  if (b.ov->agg != impl)
    return chv_error_set(err, CHV_EINTERNAL, "aggregate %s resolves to %s",
                         impl->name, b.ov->agg ? b.ov->agg->name : "nothing");
  *out = b.result;
  return CHV_OK;
}

int chv_agg_sum_decimal_type(chv_arena *a, const struct chv_func_argdesc *args,
                             int nargs, const struct chv_type **out,
                             struct chv_error *err) {
  const struct chv_type *x = args[0].type;
  *out = chv_func_type(a, CHV_TYPE_DECIMAL, CHV_MIN(38, x->precision + 10),
                       x->scale);
  return *out ? CHV_OK : chv_func_oom(err);
}

int chv_agg_avg_decimal_type(chv_arena *a, const struct chv_func_argdesc *args,
                             int nargs, const struct chv_type **out,
                             struct chv_error *err) {
  const struct chv_type *x = args[0].type;
  *out = chv_func_type(a, CHV_TYPE_DECIMAL, CHV_MIN(38, x->precision + 4),
                       CHV_MIN(38, x->scale + 4));
  return *out ? CHV_OK : chv_func_oom(err);
}

/* ---- states ------------------------------------------------------------------ */

int chv_agg_state_open_impl(const struct chv_agg_impl *impl,
                            const struct chv_type *arg,
                            const struct chv_type *result,
                            chv_agg_state **out, struct chv_error *err) {
  struct chv_agg_state *s = chv_calloc(1, sizeof *s);
  if (s == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  s->impl = impl;
  s->arg = arg;
  s->result = result;
  s->kind = arg ? chv_agg_kind_of(arg->id) : CHV_AK_INT;
  chv_buf_init(&s->scratch);
  *out = s;
  return CHV_OK;
}

int chv_agg_state_open(enum chv_agg_fn fn, const struct chv_type *arg,
                       const struct chv_type *result, chv_agg_state **out,
                       struct chv_error *err) {
  const struct chv_agg_impl *impl = chv_agg_impl_of(fn);
  if (impl == NULL)
    return chv_error_set(err, CHV_EINVAL, "unknown aggregate %d", (int)fn);
  return chv_agg_state_open_impl(impl, arg, result, out, err);
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
  chv_free(s->ext);
  chv_keyset_free(&s->distinct);
  chv_buf_free(&s->scratch);
  chv_free(s);
}

const struct chv_agg_impl *chv_agg_state_impl(const chv_agg_state *s) {
  return s->impl;
}

const struct chv_type *chv_agg_state_result(const chv_agg_state *s) {
  return s->result;
}

int64_t chv_agg_ngroups(const chv_agg_state *s) { return s->ngroups; }

size_t chv_agg_memory(const chv_agg_state *s) {
  size_t per = sizeof(int64_t) * 3 + sizeof(double) + sizeof(chv_i128) * 2 + 1 +
               s->impl->group_bytes;
  return (size_t)s->cap * per + chv_keyset_memory(&s->distinct) + s->str_bytes;
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
    size_t gb = s->impl->group_bytes;
    int rc = grow((void **)&s->count, sizeof *s->count, s->cap, cap);
    if (rc == CHV_OK) rc = grow((void **)&s->i64, sizeof *s->i64, s->cap, cap);
    if (rc == CHV_OK) rc = grow((void **)&s->f64, sizeof *s->f64, s->cap, cap);
    if (rc == CHV_OK && s->kind == CHV_AK_DEC)
      rc = grow((void **)&s->dec, sizeof *s->dec, s->cap, cap);
    if (rc == CHV_OK && s->kind == CHV_AK_DEC)
      rc = grow((void **)&s->ovf, sizeof *s->ovf, s->cap, cap);
    if (rc == CHV_OK && s->kind == CHV_AK_TS)
      rc = grow((void **)&s->ts, sizeof *s->ts, s->cap, cap);
    if (rc == CHV_OK && s->kind == CHV_AK_STR)
      rc = grow((void **)&s->str, sizeof *s->str, s->cap, cap);
    if (rc == CHV_OK && s->kind == CHV_AK_STR)
      rc = grow((void **)&s->slen, sizeof *s->slen, s->cap, cap);
    if (rc == CHV_OK && gb > 0)
      rc = grow((void **)&s->ext, gb, s->cap, cap);
    if (rc != CHV_OK)
      /* arrays already grown keep their new size; cap stays consistent as
      ** the smallest is what matters: retry grows the rest */
      return chv_error_set(err, CHV_ENOMEM, "out of memory in %s",
                           s->impl->name);
    s->cap = cap;
  }
  if (s->impl->init) s->impl->init(s, s->ngroups, n);
  s->ngroups = n;
  return CHV_OK;
}

int chv_agg_update_rows(chv_agg_state *s, const struct chv_vector *col,
                        const uint32_t *sel, int64_t n,
                        const uint32_t *groups, struct chv_error *err) {
  return s->impl->update(s, col, sel, n, groups, err);
}

int chv_agg_update(chv_agg_state *s, const struct chv_vector *col,
                   const uint32_t *sel, int64_t n, const uint32_t *groups,
                   struct chv_error *err) {
  int64_t need = groups ? 0 : 1;
  for (int64_t i = 0; groups && i < n; i++)
    if ((int64_t)groups[i] + 1 > need) need = (int64_t)groups[i] + 1;
  CHV_RETURN_IF_ERR(chv_agg_ensure_groups(s, need, err));
  return s->impl->update(s, col, sel, n, groups, err);
}

int chv_agg_merge(chv_agg_state *s, const chv_agg_state *o,
                  const uint32_t *map, struct chv_error *err) {
  if (o->impl != s->impl || o->kind != s->kind)
    return chv_error_set(err, CHV_EINVAL, "merging different aggregates");
  int64_t need = s->ngroups;
  for (int64_t g = 0; g < o->ngroups; g++) {
    int64_t t = map ? (int64_t)map[g] : g;
    if (t + 1 > need) need = t + 1;
  }
  CHV_RETURN_IF_ERR(chv_agg_ensure_groups(s, need, err));
  return s->impl->merge(s, o, map, err);
}

int chv_agg_finalize(const chv_agg_state *s, struct chv_vector *out,
                     struct chv_error *err) {
  chv_vector_reset(out);
  CHV_RETURN_IF_ERR(chv_vector_reserve(out, s->ngroups > 0 ? s->ngroups : 1, err));
  return s->impl->finalize(s, out, err);
}

static int oom_in(const chv_agg_state *s, struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory in %s", s->impl->name);
}

/* ---- COUNT(*), COUNT(x) ------------------------------------------------------ */

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

static int count_star_update(chv_agg_state *s, const struct chv_vector *col,
                             const uint32_t *sel, int64_t n,
                             const uint32_t *groups, struct chv_error *err) {
  if (groups == NULL) s->count[0] += n;
  else count_groups(s->count, groups, n, s->ngroups);
  return CHV_OK;
}

static int count_update(chv_agg_state *s, const struct chv_vector *col,
                        const uint32_t *sel, int64_t n, const uint32_t *groups,
                        struct chv_error *err) {
  const uint8_t *valid = col->null_count > 0 ? col->validity : NULL;
  if (valid == NULL) return count_star_update(s, col, sel, n, groups, err);
  for (int64_t i = 0; i < n; i++) {
    uint32_t r = sel ? sel[i] : (uint32_t)i;
    if (chv_bit_get(valid, r)) s->count[groups ? groups[i] : 0]++;
  }
  return CHV_OK;
}

static int count_merge(chv_agg_state *s, const chv_agg_state *o,
                       const uint32_t *map, struct chv_error *err) {
  for (int64_t g = 0; g < o->ngroups; g++)
    s->count[map ? (int64_t)map[g] : g] += o->count[g];
  return CHV_OK;
}

static int count_finalize(const chv_agg_state *s, struct chv_vector *out,
                          struct chv_error *err) {
  for (int64_t g = 0; g < s->ngroups; g++)
    CHV_RETURN_IF_ERR(chv_vector_append_value(out, &s->count[g], err));
  return CHV_OK;
}

const struct chv_agg_impl chv_agg_count_star_impl = {
    .name = "count", .update = count_star_update, .merge = count_merge,
    .finalize = count_finalize};
const struct chv_agg_impl chv_agg_count_impl = {
    .name = "count", .update = count_update, .merge = count_merge,
    .finalize = count_finalize};

/* ---- COUNT(DISTINCT x) --------------------------------------------------------- */

static int count_distinct_update(chv_agg_state *s,
                                 const struct chv_vector *col,
                                 const uint32_t *sel, int64_t n,
                                 const uint32_t *groups,
                                 struct chv_error *err) {
  const uint8_t *valid = col->null_count > 0 ? col->validity : NULL;
  for (int64_t i = 0; i < n; i++) {
    uint32_t r = sel ? sel[i] : (uint32_t)i;
    if (valid && !chv_bit_get(valid, r)) continue;
    uint32_t g = groups ? groups[i] : 0, id;
    bool added;
    s->scratch.len = 0;
    if (chv_buf_append(&s->scratch, &g, sizeof g) != CHV_OK ||
        chv_keyset_encode(&s->scratch, col, r) != CHV_OK ||
        chv_keyset_put(&s->distinct, s->scratch.data, s->scratch.len, &id,
                       &added) != CHV_OK)
      return oom_in(s, err);
    s->count[g] += added;
  }
  return CHV_OK;
}

static int count_distinct_merge(chv_agg_state *s, const chv_agg_state *o,
                                const uint32_t *map, struct chv_error *err) {
  for (size_t e = 0; e < o->distinct.n; e++) {
    size_t len;
    const char *k = chv_keyset_key(&o->distinct, (uint32_t)e, &len);
    uint32_t g, id;
    bool added;
    memcpy(&g, k, sizeof g);
    if (map) g = map[g];
    s->scratch.len = 0;
    if (chv_buf_append(&s->scratch, &g, sizeof g) != CHV_OK ||
        chv_buf_append(&s->scratch, k + sizeof g, len - sizeof g) != CHV_OK ||
        chv_keyset_put(&s->distinct, s->scratch.data, s->scratch.len, &id,
                       &added) != CHV_OK)
      return oom_in(s, err);
    s->count[g] += added;
  }
  return CHV_OK;
}

const struct chv_agg_impl chv_agg_count_distinct_impl = {
    .name = "count(distinct)", .update = count_distinct_update,
    .merge = count_distinct_merge, .finalize = count_finalize};

/* ---- SUM and AVG ---------------------------------------------------------------- */

/* Fold one non-NULL value into group g. */
static void fold_sum(chv_agg_state *s, int64_t g, const struct chv_value *x) {
  s->count[g]++;
  switch (s->kind) {
  case CHV_AK_DEC:
    if (__builtin_add_overflow(s->dec[g], x->dec, &s->dec[g])) s->ovf[g] = 1;
    break;
  case CHV_AK_DBL: s->f64[g] += x->f64; break;
  default:
    s->i64[g] = (int64_t)((uint64_t)s->i64[g] + (uint64_t)x->i64);
    s->f64[g] += (double)x->i64;
    break;
  }
}

/* SUM and AVG of a numeric column, grouped or into group 0, without going
** through chv_value per row (what fold_sum() does, type by type, in the
** same order, so that double sums round the same).  Into group 0 the
** accumulators stay in locals for the batch; grouped they are reached
** through restrict pointers, so that a row costs its loads and adds only.
** A SUM of integers keeps its BIGINT sum, an AVG of them its double sum.
** false: not such a column. */
static bool sum_fast(chv_agg_state *s, bool avg, const struct chv_vector *col,
                     const uint8_t *valid, const uint32_t *sel, int64_t n,
                     const uint32_t *groups) {
  if (chv_agg_kind_of(col->type->id) != s->kind) return false;
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
    /* An overflow wraps and marks the group, as fold_sum() does. */
    if (groups && s->ngroups <= BANK_GROUPS) {
      /* four banks of sums: a row's add does not wait on the row before's
      ** store to the same group */
      int64_t ng_ = s->ngroups, cb_[4][BANK_GROUPS];
      chv_i128 sb_[4][BANK_GROUPS];
      bool ob_[4][BANK_GROUPS];
      for (int k_ = 0; k_ < 4; k_++) {
        memset(cb_[k_], 0, sizeof cb_[k_][0] * (size_t)ng_);
        memset(sb_[k_], 0, sizeof sb_[k_][0] * (size_t)ng_);
        memset(ob_[k_], 0, sizeof ob_[k_][0] * (size_t)ng_);
      }
      ROWS_(chv_i128, uint32_t g = groups[i]; cb_[i & 3][g]++;
            ob_[i & 3][g] |= __builtin_add_overflow(sb_[i & 3][g], x,
                                                    &sb_[i & 3][g]));
      for (int64_t g = 0; g < ng_; g++) {
        bool o = false;
        for (int k_ = 0; k_ < 4; k_++) {
          cnt[g] += cb_[k_][g];
          o |= ob_[k_][g] | __builtin_add_overflow(dec[g], sb_[k_][g], &dec[g]);
        }
        if (o) ovf[g] = 1;
      }
    } else if (groups) {
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

static int sum_avg_update(chv_agg_state *s, bool avg,
                          const struct chv_vector *col, const uint32_t *sel,
                          int64_t n, const uint32_t *groups) {
  const uint8_t *valid = col->null_count > 0 ? col->validity : NULL;
  if (sum_fast(s, avg, col, valid, sel, n, groups)) return CHV_OK;
  for (int64_t i = 0; i < n; i++) {
    uint32_t r = sel ? sel[i] : (uint32_t)i;
    if (valid && !chv_bit_get(valid, r)) continue;
    struct chv_value x;
    chv_func_get_value(col, r, &x);
    fold_sum(s, groups ? groups[i] : 0, &x);
  }
  return CHV_OK;
}

static int sum_update(chv_agg_state *s, const struct chv_vector *col,
                      const uint32_t *sel, int64_t n, const uint32_t *groups,
                      struct chv_error *err) {
  return sum_avg_update(s, false, col, sel, n, groups);
}

static int avg_update(chv_agg_state *s, const struct chv_vector *col,
                      const uint32_t *sel, int64_t n, const uint32_t *groups,
                      struct chv_error *err) {
  return sum_avg_update(s, true, col, sel, n, groups);
}

static int sum_avg_merge(chv_agg_state *s, const chv_agg_state *o,
                         const uint32_t *map, struct chv_error *err) {
  for (int64_t g = 0; g < o->ngroups; g++) {
    int64_t t = map ? (int64_t)map[g] : g;
    if (o->count[g] == 0) continue;
    s->count[t] += o->count[g];
    s->i64[t] = (int64_t)((uint64_t)s->i64[t] + (uint64_t)o->i64[g]);
    s->f64[t] += o->f64[g];
    if (s->kind == CHV_AK_DEC &&
        (o->ovf[g] || __builtin_add_overflow(s->dec[t], o->dec[g], &s->dec[t])))
      s->ovf[t] = 1;
  }
  return CHV_OK;
}

static int sum_avg_finalize(const chv_agg_state *s, bool avg,
                            struct chv_vector *out, struct chv_error *err) {
  for (int64_t g = 0; g < s->ngroups; g++) {
    struct chv_value v = {0};
    if (s->count[g] == 0) {
      v.is_null = true;
    } else if (s->kind == CHV_AK_DEC) {
      chv_i128 r = s->dec[g];
      int from = s->arg->scale, to = s->result->scale;
      v.is_null = s->ovf[g] != 0;
      if (!v.is_null && avg) {
        v.is_null = !chv_func_dec_rescale(r, from, to, &r);
        if (!v.is_null) r = chv_func_div_round(r, s->count[g]);
      }
      v.is_null = v.is_null || !chv_func_dec_fits(r, s->result->precision);
      v.dec = r;
    } else if (avg) {
      v.f64 = s->f64[g] / (double)s->count[g];
    } else if (s->kind == CHV_AK_DBL) {
      v.f64 = s->f64[g];
    } else {
      v.i64 = s->i64[g];
    }
    CHV_RETURN_IF_ERR(chv_func_append_value(out, &v, err));
  }
  return CHV_OK;
}

static int sum_finalize(const chv_agg_state *s, struct chv_vector *out,
                        struct chv_error *err) {
  return sum_avg_finalize(s, false, out, err);
}

static int avg_finalize(const chv_agg_state *s, struct chv_vector *out,
                        struct chv_error *err) {
  return sum_avg_finalize(s, true, out, err);
}

const struct chv_agg_impl chv_agg_sum_impl = {
    .name = "sum", .update = sum_update, .merge = sum_avg_merge,
    .finalize = sum_finalize};
const struct chv_agg_impl chv_agg_avg_impl = {
    .name = "avg", .update = avg_update, .merge = sum_avg_merge,
    .finalize = avg_finalize};

/* ---- MIN and MAX ------------------------------------------------------------------ */

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

/* Fold one non-NULL value into group g's extreme. */
static int fold_extreme(chv_agg_state *s, bool is_min, int64_t g,
                        const struct chv_value *x) {
  bool first = s->count[g] == 0;
  int c;
  switch (s->kind) {
  case CHV_AK_DBL:
    c = first ? 1 : dcmp(x->f64, s->f64[g]);
    if (first || (is_min ? c < 0 : c > 0)) s->f64[g] = x->f64;
    break;
  case CHV_AK_DEC:
    if (first || (is_min ? x->dec < s->dec[g] : x->dec > s->dec[g]))
      s->dec[g] = x->dec;
    break;
  case CHV_AK_TS: {
    struct chv_value cur = {.ts = s->ts[g]};
    c = first ? 0 : chv_func_compare_values(s->arg, x, &cur);
    if (first || (is_min ? c < 0 : c > 0)) s->ts[g] = x->ts;
    break;
  }
  case CHV_AK_STR: {
    struct chv_value cur = {.str = s->str[g], .len = s->slen[g]};
    c = first ? 0 : chv_func_compare_values(s->arg, x, &cur);
    if ((first || (is_min ? c < 0 : c > 0)) &&
        set_str(s, g, x->str, x->len) != CHV_OK)
      return CHV_ENOMEM;
    break;
  }
  case CHV_AK_BOOL:
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

static int extreme_update(chv_agg_state *s, bool is_min,
                          const struct chv_vector *col, const uint32_t *sel,
                          int64_t n, const uint32_t *groups,
                          struct chv_error *err) {
  const uint8_t *valid = col->null_count > 0 ? col->validity : NULL;
  for (int64_t i = 0; i < n; i++) {
    uint32_t r = sel ? sel[i] : (uint32_t)i;
    if (valid && !chv_bit_get(valid, r)) continue;
    struct chv_value x;
    chv_func_get_value(col, r, &x);
    if (fold_extreme(s, is_min, groups ? groups[i] : 0, &x) != CHV_OK)
      return oom_in(s, err);
  }
  return CHV_OK;
}

static int min_update(chv_agg_state *s, const struct chv_vector *col,
                      const uint32_t *sel, int64_t n, const uint32_t *groups,
                      struct chv_error *err) {
  return extreme_update(s, true, col, sel, n, groups, err);
}

static int max_update(chv_agg_state *s, const struct chv_vector *col,
                      const uint32_t *sel, int64_t n, const uint32_t *groups,
                      struct chv_error *err) {
  return extreme_update(s, false, col, sel, n, groups, err);
}

/* Group g's extreme as a value (count > 0). */
static void extreme_value(const chv_agg_state *s, int64_t g,
                          struct chv_value *x) {
  memset(x, 0, sizeof *x);
  switch (s->kind) {
  case CHV_AK_DBL: x->f64 = s->f64[g]; break;
  case CHV_AK_DEC: x->dec = s->dec[g]; break;
  case CHV_AK_TS: x->ts = s->ts[g]; break;
  case CHV_AK_STR: x->str = s->str[g]; x->len = s->slen[g]; break;
  case CHV_AK_BOOL: x->b = s->i64[g] != 0; break;
  default: x->i64 = s->i64[g]; break;
  }
}

static int extreme_merge(chv_agg_state *s, bool is_min,
                         const chv_agg_state *o, const uint32_t *map,
                         struct chv_error *err) {
  for (int64_t g = 0; g < o->ngroups; g++) {
    int64_t t = map ? (int64_t)map[g] : g;
    if (o->count[g] == 0) continue;
    struct chv_value x;
    extreme_value(o, g, &x);
    int64_t before = s->count[t];
    if (fold_extreme(s, is_min, t, &x) != CHV_OK) return oom_in(s, err);
    s->count[t] = before + o->count[g];
  }
  return CHV_OK;
}

static int min_merge(chv_agg_state *s, const chv_agg_state *o,
                     const uint32_t *map, struct chv_error *err) {
  return extreme_merge(s, true, o, map, err);
}

static int max_merge(chv_agg_state *s, const chv_agg_state *o,
                     const uint32_t *map, struct chv_error *err) {
  return extreme_merge(s, false, o, map, err);
}

static int extreme_finalize(const chv_agg_state *s, struct chv_vector *out,
                            struct chv_error *err) {
  for (int64_t g = 0; g < s->ngroups; g++) {
    struct chv_value v = {.is_null = true};
    if (s->count[g] > 0) extreme_value(s, g, &v);
    CHV_RETURN_IF_ERR(chv_func_append_value(out, &v, err));
  }
  return CHV_OK;
}

const struct chv_agg_impl chv_agg_min_impl = {
    .name = "min", .update = min_update, .merge = min_merge,
    .finalize = extreme_finalize};
const struct chv_agg_impl chv_agg_max_impl = {
    .name = "max", .update = max_update, .merge = max_merge,
    .finalize = extreme_finalize};
