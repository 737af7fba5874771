/*
** The column chunk writer of one leaf column (pq_write.h): shredding of
** nested vectors into definition and repetition levels, conversion of Hive
** values to stored values, the chunk's dictionary with its fallback to
** plain encoding, page and chunk statistics, and the encoding and
** compression of data pages and the dictionary page.
**
** Encodings chosen, as parquet-mr chooses them for Hive:
**
**   page v1  values: PLAIN_DICTIONARY (dictionary page PLAIN_DICTIONARY), or
**            PLAIN; levels RLE with their 4-byte length
**   page v2  values: RLE_DICTIONARY (dictionary page PLAIN), or
**            DELTA_BINARY_PACKED (INT32, INT64), DELTA_BYTE_ARRAY
**            (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY), RLE (BOOLEAN), PLAIN
**            (FLOAT, DOUBLE, INT96); levels RLE, uncompressed, before the
**            compressed values
**
** Every column but BOOLEAN starts with a dictionary when dictionaries are
** enabled.  The chunk falls back to the non-dictionary encoding for the rest
** of the chunk (the current page included, re-encoded) when the dictionary's
** PLAIN size passes parquet.dictionary.page.size, or when, at the end of the
** first page, indices plus dictionary are not smaller than the plain values
** (parquet-mr's rule; the unused dictionary is then dropped).  Pages that
** used the dictionary stay as they are, and the dictionary page is written
** before them.  Each row group starts a new dictionary.
**
** A page ends, at a row boundary, when its estimated encoded size reaches
** parquet.page.size or it holds parquet.page.row.count.limit rows; rows are
** added in runs sized from the bytes per row seen so far, so a page
** overshoots by about one row.
**
** Statistics (page headers and ColumnMetaData): null_count counts the
** levels below the maximum definition level (NULL values, and NULL or empty
** lists, maps and structs above them); min_value/max_value follow the
** column order: signed for INT32 (tinyint, smallint, int, date), INT64
** (bigint, INT64 timestamps) and decimals (compared as numbers), IEEE order
** without NaN for FLOAT and DOUBLE (-0.0 as the minimum and +0.0 as the
** maximum when the bound is a zero; none when every value is NaN), false <
** true, unsigned bytes for BYTE_ARRAY (strings and binary).  The deprecated
** min/max repeat them for signed orders.  INT96 has no order: no min/max.
** Byte arrays over PQ_W_MAX_STAT_BYTES give no min/max.
**
** INTERFACE: pq_wcol_*() (pq_write.h).
*/
#include "format/parquet/pq_write.h"

#include "format/parquet/pq_encoding.h"

#include <math.h>
#include <zlib.h>

#define JULIAN_EPOCH_DAY 2440588 /* Julian day of 1970-01-01 */
#define STAGE 256                /* values converted at a time */

/* ---- small helpers ------------------------------------------------------ */

static int nomem(struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory");
}

/* Buffers of a column that grow to this size and beyond come from the
** thread's scratch blocks and go back to them when the writer closes, so
** that the next file's columns (a partitioned write opens many files)
** reuse memory already mapped instead of faulting in fresh pages. */
#define SCRATCH_GROW ((size_t)64 << 10)

/* A block of at least n bytes (*got: its size) whose first keep bytes are
** those of old (of old_cap bytes), which is given back. */
static void *regrow(void *old, size_t old_cap, size_t keep, size_t n,
                    size_t *got) {
  if (n < SCRATCH_GROW) {
    *got = n;
    return chv_realloc(old, n);
  }
  void *q = chv_scratch_take(n, got);
  if (q == NULL) return NULL;
  if (keep) memcpy(q, old, keep);
  chv_scratch_give(old, old_cap);
  return q;
}

/* Make room for `need` elements of `size` bytes in *p (capacity *cap). */
static int grow(void *pp, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return CHV_OK;
  size_t n = *cap ? *cap : 64;
  while (n < need) {
    if (n > SIZE_MAX / 4 / size) return CHV_ENOMEM;
    n *= 2;
  }
  void **p = pp;
  size_t got;
  void *q = regrow(*p, *cap * size, *cap * size, n * size, &got);
  if (q == NULL) return CHV_ENOMEM;
  *p = q;
  *cap = got / size;
  return CHV_OK;
}

/* Give back an array of grow(). */
static void release(void *p, size_t cap, size_t size) {
  chv_scratch_give(p, cap * size);
}

/* Room for n more bytes in b, grown as grow() grows arrays. */
static int buf_grow(struct chv_buf *b, size_t n) {
  size_t need = b->len + n + 1;
  if (need <= b->cap) return CHV_OK;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < need) {
    if (cap > SIZE_MAX / 4) return CHV_ENOMEM;
    cap *= 2;
  }
  size_t got;
  char *q = regrow(b->data, b->cap, b->len, cap, &got);
  if (q == NULL) return CHV_ENOMEM;
  q[b->len] = '\0';
  b->data = q;
  b->cap = got;
  return CHV_OK;
}

/* chv_buf_append() that grows as buf_grow(), the common case inline. */
static inline int buf_put(struct chv_buf *b, const void *p, size_t n) {
  if (CHV_UNLIKELY(b->len + n + 1 > b->cap) && buf_grow(b, n)) return CHV_ENOMEM;
  memcpy(b->data + b->len, p, n);
  b->len += n;
  b->data[b->len] = '\0';
  return CHV_OK;
}

static void buf_release(struct chv_buf *b) {
  chv_scratch_give(b->data, b->cap);
  memset(b, 0, sizeof *b);
}

static inline void le32(uint8_t *p, uint32_t v) {
  memcpy(p, &v, 4);
}
static inline void le64(uint8_t *p, uint64_t v) {
  memcpy(p, &v, 8);
}

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static int bytes_cmp(const void *a, size_t al, const void *b, size_t bl) {
  int r = memcmp(a, b, al < bl ? al : bl);
  if (r) return r;
  return al < bl ? -1 : al > bl;
}

static uint64_t mix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

static uint32_t hash_bytes(const uint8_t *p, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)n;
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  uint64_t w = 0; /* the tail, without a call to memcpy of n bytes */
  if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, p, 4);
    memcpy(&b, p + n - 4, 4);
    w = (uint64_t)a | (uint64_t)b << 32;
  } else {
    for (size_t i = 0; i < n; i++) w |= (uint64_t)p[i] << (8 * i);
  }
  h = mix64(h ^ w);
  return (uint32_t)h;
}

static int bit_width_of(uint64_t v) {
  return chv_pq_bit_width(v);
}

/* ---- page slabs --------------------------------------------------------- */

int pq_wslabs_append(struct pq_wslabs *s, const void *p, size_t n) {
  if (n == 0) return CHV_OK;
  struct chv_buf *b = s->used ? &s->seg[s->used - 1] : NULL;
  if (b == NULL || b->len + n >= b->cap) {
    if (s->used == s->nseg) {
      struct chv_buf *seg =
          chv_realloc(s->seg, sizeof *seg * (size_t)(s->nseg + 1));
      if (seg == NULL) return CHV_ENOMEM;
      s->seg = seg;
      chv_buf_init(&s->seg[s->nseg++]);
    }
    b = &s->seg[s->used];
    b->len = 0;
    size_t want = n > PQ_W_SLAB ? n : PQ_W_SLAB;
    if (b->cap <= want) {
      /* Slabs come from the thread's scratch blocks: the next file's
      ** chunks reuse the memory of the last one's, already mapped. */
      size_t cap;
      char *p2 = chv_scratch_take(want + 1, &cap);
      if (p2 == NULL) return CHV_ENOMEM;
      chv_scratch_give(b->data, b->cap);
      b->data = p2;
      b->cap = cap;
    }
    s->used++;
  }
  memcpy(b->data + b->len, p, n);
  b->len += n;
  s->len += (int64_t)n;
  return CHV_OK;
}

void pq_wslabs_reset(struct pq_wslabs *s) {
  for (int i = 0; i < s->used; i++)
    s->seg[i].len = 0;
  s->used = 0;
  s->len = 0;
}

void pq_wslabs_free(struct pq_wslabs *s) {
  for (int i = 0; i < s->nseg; i++)
    chv_scratch_give(s->seg[i].data, s->seg[i].cap);
  chv_free(s->seg);
  memset(s, 0, sizeof *s);
}

/* ---- the leaf vector ---------------------------------------------------- */

static const struct chv_vector *leaf_of(const struct pq_wcol *c,
                                        const struct chv_vector *v) {
  for (int s = 0; s < c->nsteps; s++)
    v = v->children[c->steps[s].kind == PQ_WS_LIST ? 0 : c->steps[s].child];
  return v;
}

/* ---- value checks ------------------------------------------------------- */

/* Whether timestamp ts can be stored by conv; the checks conversion relies
** on (no overflow). */
static bool ts_fits(enum pq_wconv conv, struct chv_timestamp ts) {
  if (ts.nanos < 0 || ts.nanos > 999999999) return false;
  int64_t s = ts.seconds, lim;
  switch (conv) {
  case PQ_W_TS96: {
    int64_t day = floor_div(s, 86400) + JULIAN_EPOCH_DAY;
    return day >= INT32_MIN && day <= INT32_MAX;
  }
  case PQ_W_TS_MILLIS:
    lim = INT64_MAX / 1000 - 1;
    break;
  case PQ_W_TS_MICROS:
    lim = INT64_MAX / 1000000 - 1;
    break;
  default: /* NANOS: [-2^63, 2^63 - 1] nanoseconds, exactly */
    if (s < -9223372037 || s > 9223372036) return false;
    if (s == 9223372036) return ts.nanos <= 854775807;
    if (s == -9223372037) return ts.nanos >= 145224192;
    return true;
  }
  return s >= -lim && s <= lim;
}

static int64_t ts_int64(enum pq_wconv conv, struct chv_timestamp ts) {
  /* Ranges were checked: the arithmetic is done unsigned only to keep the
  ** NANOS extremes defined. */
  uint64_t s = (uint64_t)ts.seconds;
  switch (conv) {
  case PQ_W_TS_MILLIS:
    return (int64_t)(s * 1000u + (uint64_t)(ts.nanos / 1000000));
  case PQ_W_TS_MICROS:
    return (int64_t)(s * 1000000u + (uint64_t)(ts.nanos / 1000));
  default:
    return (int64_t)(s * 1000000000u + (uint64_t)ts.nanos);
  }
}

struct walk {
  struct pq_wcol *c; /* writing: levels and value indices go here */
  const struct pq_wcol *cc;
  bool check;  /* checking values, writing nothing */
  int64_t row; /* top-level row, for messages */
  struct pq_wctx *cx;
  struct chv_error *err;
};

static int check_value(struct walk *w, const struct chv_vector *v, int64_t i) {
  const struct pq_wcol *c = w->cc;
  const char *path = w->cx->path;
  if (c->conv == PQ_W_DEC) {
    chv_i128 x = ((const chv_i128 *)v->data)[i];
    if (x > -c->dec_limit && x < c->dec_limit) return CHV_OK;
    char num[64];
    chv_decimal_format(x, c->type->scale, num);
    return chv_error_set(w->err, CHV_ERANGE,
                         "%s: column %s: value %s does not fit "
                         "decimal(%d,%d) (row %lld of the batch)",
                         path, c->name, num, c->type->precision, c->type->scale,
                         (long long)w->row);
  }
  if (c->conv != PQ_W_TS96 && c->conv != PQ_W_TS_MILLIS &&
      c->conv != PQ_W_TS_MICROS && c->conv != PQ_W_TS_NANOS)
    return CHV_OK;
  struct chv_timestamp ts = ((const struct chv_timestamp *)v->data)[i];
  if (ts_fits(c->conv, ts)) return CHV_OK;
  if (ts.nanos < 0 || ts.nanos > 999999999)
    return chv_error_set(w->err, CHV_ERANGE,
                         "%s: column %s: timestamp with %d nanoseconds (row "
                         "%lld of the batch)",
                         path, c->name, ts.nanos, (long long)w->row);
  const char *what = c->conv == PQ_W_TS_NANOS
                         ? "INT64 nanoseconds (1677-09-21 00:12:43.145224192 "
                           "to 2262-04-11 23:47:16.854775807)"
                     : c->conv == PQ_W_TS_MICROS ? "INT64 microseconds"
                     : c->conv == PQ_W_TS_MILLIS ? "INT64 milliseconds"
                                                 : "INT96";
  return chv_error_set(w->err, CHV_ERANGE,
                       "%s: column %s: timestamp %lld s since 1970 is outside "
                       "the range of %s (row %lld of the batch)",
                       path, c->name, (long long)ts.seconds, what,
                       (long long)w->row);
}

/* ---- shredding ---------------------------------------------------------- */

/* Make room for `need` levels (rep grows with def when there are
** repetition levels). */
static int grow_levels(struct pq_wcol *c, size_t need) {
  size_t cap = c->lev_cap;
  if (grow(&c->def, &cap, need, sizeof *c->def)) return CHV_ENOMEM;
  if (c->max_rep > 0 && grow(&c->rep, &c->rep_cap, cap, sizeof *c->rep))
    return CHV_ENOMEM;
  c->lev_cap = cap;
  return CHV_OK;
}

/* Store the leading levels a flat column has not stored yet. */
static int materialize(struct pq_wcol *c) {
  if (c->lazy == 0) return CHV_OK;
  size_t n = (size_t)c->lazy;
  if (grow_levels(c, n + 64)) return CHV_ENOMEM;
  for (size_t i = 0; i < n; i++)
    c->def[i] = (uint32_t)c->max_def;
  c->nlev = n;
  c->lazy = 0;
  return CHV_OK;
}

static inline int push_level(struct pq_wcol *c, uint32_t d, uint32_t r) {
  if (c->nlev == c->lev_cap && grow_levels(c, c->nlev + 1)) return CHV_ENOMEM;
  c->def[c->nlev] = d;
  if (c->max_rep > 0) c->rep[c->nlev] = r;
  c->nlev++;
  return CHV_OK;
}

static int push_index(struct pq_wcol *c, int64_t i) {
  if (c->nvidx == c->vidx_cap &&
      grow(&c->vidx, &c->vidx_cap, c->nvidx + 1, sizeof *c->vidx) != CHV_OK)
    return CHV_ENOMEM;
  c->vidx[c->nvidx++] = i;
  return CHV_OK;
}

/* The slot i of vector v, at step s of the path, whose non-NULL ancestors
** give definition level d, repeated at level r. */
static int walk(struct walk *w, int s, const struct chv_vector *v, int64_t i,
                int16_t d, int16_t r) {
  const struct pq_wcol *c = w->cc;
  bool required = s > 0 && c->steps[s - 1].required;
  if (chv_vector_is_null(v, i)) {
    if (required)
      return chv_error_set(w->err, CHV_EINVAL,
                           "%s: column %s: NULL map key (row %lld of the "
                           "batch); Parquet map keys are required",
                           w->cx->path, c->name, (long long)w->row);
    return w->check ? CHV_OK : push_level(w->c, (uint32_t)d, (uint32_t)r);
  }
  if (!required) d++;
  if (s == c->nsteps) {
    if (w->check) return check_value(w, v, i);
    if (push_level(w->c, (uint32_t)d, (uint32_t)r) != CHV_OK ||
        push_index(w->c, i) != CHV_OK)
      return nomem(w->err);
    return CHV_OK;
  }
  const struct pq_wstep *st = &c->steps[s];
  if (st->kind == PQ_WS_STRUCT)
    return walk(w, s + 1, v->children[st->child], i, d, r);
  int32_t b = v->offsets[i], e = v->offsets[i + 1];
  if (b == e)
    return w->check ? CHV_OK : push_level(w->c, (uint32_t)d, (uint32_t)r);
  const struct chv_vector *cv =
      v->children[st->kind == PQ_WS_LIST ? 0 : st->child];
  for (int32_t j = b; j < e; j++)
    CHV_RETURN_IF_ERR(
        walk(w, s + 1, cv, j, (int16_t)(d + 1), j == b ? r : st->rep));
  return CHV_OK;
}

static bool needs_check(const struct pq_wcol *c) {
  if (c->conv == PQ_W_DEC || c->conv == PQ_W_TS96 ||
      c->conv == PQ_W_TS_MILLIS || c->conv == PQ_W_TS_MICROS ||
      c->conv == PQ_W_TS_NANOS)
    return true;
  for (int s = 0; s < c->nsteps; s++)
    if (c->steps[s].required) return true;
  return false;
}

int pq_wcol_check(const struct pq_wcol *c, const struct chv_vector *top,
                  int64_t r0, int64_t r1, struct pq_wctx *cx,
                  struct chv_error *err) {
  if (!needs_check(c)) return CHV_OK;
  struct walk w = {NULL, c, true, 0, cx, err};
  for (int64_t r = r0; r < r1; r++) {
    w.row = r;
    if (c->nsteps == 0) {
      if (!chv_vector_is_null(top, r))
        CHV_RETURN_IF_ERR(check_value(&w, top, r));
    } else {
      CHV_RETURN_IF_ERR(walk(&w, 0, top, r, 0, 0));
    }
  }
  return CHV_OK;
}

/* ---- statistics --------------------------------------------------------- */

static void stats_reset(struct pq_wstats *s) {
  s->has = false;
  chv_buf_reset(&s->bmin);
  chv_buf_reset(&s->bmax);
}

static int stats_bytes(struct pq_wstats *s, const char *p, size_t n) {
  if (!s->has) {
    s->has = true;
    chv_buf_reset(&s->bmin);
    chv_buf_reset(&s->bmax);
    if (chv_buf_append(&s->bmin, p, n) || chv_buf_append(&s->bmax, p, n))
      return CHV_ENOMEM;
    return CHV_OK;
  }
  if (bytes_cmp(p, n, s->bmin.data, s->bmin.len) < 0) {
    chv_buf_reset(&s->bmin);
    if (chv_buf_append(&s->bmin, p, n)) return CHV_ENOMEM;
  } else if (bytes_cmp(p, n, s->bmax.data, s->bmax.len) > 0) {
    chv_buf_reset(&s->bmax);
    if (chv_buf_append(&s->bmax, p, n)) return CHV_ENOMEM;
  }
  return CHV_OK;
}

/* Merge the page statistics into the chunk's. */
static int stats_merge(const struct pq_wcol *c, struct pq_wstats *to,
                       const struct pq_wstats *from) {
  if (!from->has) return CHV_OK;
  if (!to->has) {
    struct chv_buf bmin = to->bmin, bmax = to->bmax;
    *to = *from;
    to->bmin = bmin;
    to->bmax = bmax;
    if (c->ptype == CHV_PQ_TYPE_BYTE_ARRAY) {
      chv_buf_reset(&to->bmin);
      chv_buf_reset(&to->bmax);
      if (chv_buf_append(&to->bmin, from->bmin.data, from->bmin.len) ||
          chv_buf_append(&to->bmax, from->bmax.data, from->bmax.len))
        return CHV_ENOMEM;
    }
    return CHV_OK;
  }
  switch (c->ptype) {
  case CHV_PQ_TYPE_BYTE_ARRAY:
    if (bytes_cmp(from->bmin.data, from->bmin.len, to->bmin.data,
                  to->bmin.len) < 0) {
      chv_buf_reset(&to->bmin);
      if (chv_buf_append(&to->bmin, from->bmin.data, from->bmin.len))
        return CHV_ENOMEM;
    }
    if (bytes_cmp(from->bmax.data, from->bmax.len, to->bmax.data,
                  to->bmax.len) > 0) {
      chv_buf_reset(&to->bmax);
      if (chv_buf_append(&to->bmax, from->bmax.data, from->bmax.len))
        return CHV_ENOMEM;
    }
    break;
  case CHV_PQ_TYPE_FLOAT:
  case CHV_PQ_TYPE_DOUBLE:
    if (from->dmin < to->dmin ||
        (from->dmin == 0 && to->dmin == 0 && signbit(from->dmin)))
      to->dmin = from->dmin;
    if (from->dmax > to->dmax ||
        (from->dmax == 0 && to->dmax == 0 && !signbit(from->dmax)))
      to->dmax = from->dmax;
    break;
  case CHV_PQ_TYPE_FIXED_LEN_BYTE_ARRAY:
    if (from->mmin < to->mmin) to->mmin = from->mmin;
    if (from->mmax > to->mmax) to->mmax = from->mmax;
    break;
  default:
    if (from->imin < to->imin) to->imin = from->imin;
    if (from->imax > to->imax) to->imax = from->imax;
    break;
  }
  return CHV_OK;
}

void pq_wcol_stats_bytes(const struct pq_wcol *c, const struct pq_wstats *st,
                         int64_t nulls, uint8_t *mins, uint8_t *maxs,
                         struct chv_pq_statistics *out) {
  memset(out, 0, sizeof *out);
  out->has_null_count = true;
  out->null_count = nulls;
  if (!st->has || c->ptype == CHV_PQ_TYPE_INT96) return;
  struct chv_pq_bytes lo = {mins, 0}, hi = {maxs, 0};
  switch (c->ptype) {
  case CHV_PQ_TYPE_BOOLEAN:
    mins[0] = (uint8_t)st->imin;
    maxs[0] = (uint8_t)st->imax;
    lo.len = hi.len = 1;
    break;
  case CHV_PQ_TYPE_INT32:
    le32(mins, (uint32_t)(int32_t)st->imin);
    le32(maxs, (uint32_t)(int32_t)st->imax);
    lo.len = hi.len = 4;
    break;
  case CHV_PQ_TYPE_INT64:
    le64(mins, (uint64_t)st->imin);
    le64(maxs, (uint64_t)st->imax);
    lo.len = hi.len = 8;
    break;
  case CHV_PQ_TYPE_FLOAT: {
    /* A zero bound is written as -0.0 (min) and +0.0 (max): readers
    ** cannot know which zeros the column holds. */
    float a = st->dmin == 0 ? -0.0f : (float)st->dmin;
    float b = st->dmax == 0 ? 0.0f : (float)st->dmax;
    memcpy(mins, &a, 4);
    memcpy(maxs, &b, 4);
    lo.len = hi.len = 4;
    break;
  }
  case CHV_PQ_TYPE_DOUBLE: {
    double a = st->dmin == 0 ? -0.0 : st->dmin;
    double b = st->dmax == 0 ? 0.0 : st->dmax;
    memcpy(mins, &a, 8);
    memcpy(maxs, &b, 8);
    lo.len = hi.len = 8;
    break;
  }
  case CHV_PQ_TYPE_FIXED_LEN_BYTE_ARRAY: {
    unsigned __int128 a = (unsigned __int128)st->mmin;
    unsigned __int128 b = (unsigned __int128)st->mmax;
    for (int k = c->width - 1; k >= 0; k--) {
      mins[k] = (uint8_t)a;
      maxs[k] = (uint8_t)b;
      a >>= 8;
      b >>= 8;
    }
    lo.len = hi.len = (uint32_t)c->width;
    break;
  }
  case CHV_PQ_TYPE_BYTE_ARRAY:
    if (st->bmin.len > PQ_W_MAX_STAT_BYTES ||
        st->bmax.len > PQ_W_MAX_STAT_BYTES)
      return;
    lo.data = (const uint8_t *)st->bmin.data;
    lo.len = (uint32_t)st->bmin.len;
    hi.data = (const uint8_t *)st->bmax.data;
    hi.len = (uint32_t)st->bmax.len;
    if (lo.data == NULL) lo.data = (const uint8_t *)"";
    if (hi.data == NULL) hi.data = (const uint8_t *)"";
    break;
  default:
    return;
  }
  out->has_min_value = out->has_max_value = true;
  out->min_value = lo;
  out->max_value = hi;
  out->has_is_min_value_exact = out->has_is_max_value_exact = true;
  out->is_min_value_exact = out->is_max_value_exact = true;
  if (c->ptype != CHV_PQ_TYPE_BYTE_ARRAY) {
    out->has_min = out->has_max = true;
    out->min = lo;
    out->max = hi;
  }
}

/* ---- the dictionary ----------------------------------------------------- */

static void dict_clear(struct pq_wcol *c) {
  c->ndict = 0;
  chv_buf_reset(&c->dict);
  if (c->slots) memset(c->slots, 0, c->nslots * sizeof *c->slots);
}

static const uint8_t *dict_entry(const struct pq_wcol *c, uint32_t e,
                                 uint32_t *len) {
  if (c->ptype == CHV_PQ_TYPE_BYTE_ARRAY) {
    const uint8_t *p = (const uint8_t *)c->dict.data + c->dict_off[e];
    memcpy(len, p, 4);
    return p + 4;
  }
  *len = (uint32_t)c->width;
  return (const uint8_t *)c->dict.data + (size_t)e * (size_t)c->width;
}

/* Slots hold (hash << 32) | (entry + 1); 0 is empty. */
static int dict_rehash(struct pq_wcol *c, uint32_t nslots) {
  size_t got;
  uint64_t *s = regrow(NULL, 0, 0, (size_t)nslots * sizeof *s, &got);
  if (s == NULL) return CHV_ENOMEM;
  memset(s, 0, (size_t)nslots * sizeof *s);
  uint32_t mask = nslots - 1;
  for (uint32_t k = 0; k < c->nslots; k++) {
    uint64_t v = c->slots[k];
    if (v == 0) continue;
    uint32_t i = (uint32_t)(v >> 32) & mask;
    while (s[i])
      i = (i + 1) & mask;
    s[i] = v;
  }
  release(c->slots, c->nslots, sizeof *c->slots);
  c->slots = s;
  c->nslots = nslots;
  return CHV_OK;
}

/* a[0, n) == b[0, n), short strings without a call: a dictionary of a
** few short values (flags, modes) compares every row with its entry. */
static inline bool bytes_equal(const uint8_t *a, const uint8_t *b, size_t n) {
  if (n >= 8) {
    uint64_t x, y;
    for (size_t i = 0; i + 8 <= n; i += 8) {
      memcpy(&x, a + i, 8);
      memcpy(&y, b + i, 8);
      if (x != y) return false;
    }
    memcpy(&x, a + n - 8, 8); /* the tail, overlapping */
    memcpy(&y, b + n - 8, 8);
    return x == y;
  }
  if (n >= 4) {
    uint32_t x, y, u, v;
    memcpy(&x, a, 4);
    memcpy(&y, b, 4);
    memcpy(&u, a + n - 4, 4);
    memcpy(&v, b + n - 4, 4);
    return x == y && u == v;
  }
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i]) return false;
  return true;
}

static inline bool dict_same(const struct pq_wcol *c, uint32_t e,
                             const uint8_t *p, uint32_t n) {
  if (c->ptype == CHV_PQ_TYPE_BYTE_ARRAY) {
    uint32_t len;
    const uint8_t *q = dict_entry(c, e, &len);
    return len == n && bytes_equal(q, p, n);
  }
  const uint8_t *q = (const uint8_t *)c->dict.data + (size_t)e * n;
  if (n == 4) {
    uint32_t a, b;
    memcpy(&a, q, 4);
    memcpy(&b, p, 4);
    return a == b;
  }
  if (n == 8) {
    uint64_t a, b;
    memcpy(&a, q, 8);
    memcpy(&b, p, 8);
    return a == b;
  }
  return memcmp(q, p, n) == 0;
}

/* The dictionary index of value p[0, n), added when new. */
static inline int dict_find(struct pq_wcol *c, const uint8_t *p, uint32_t n,
                            uint32_t h, uint32_t *out) {
  uint32_t mask = c->nslots - 1, i = h & mask;
  for (uint64_t s; (s = c->slots[i]) != 0; i = (i + 1) & mask) {
    if ((uint32_t)(s >> 32) != h) continue;
    uint32_t e = (uint32_t)s - 1;
    if (dict_same(c, e, p, n)) {
      *out = e;
      return CHV_OK;
    }
  }
  /* New entry. */
  if (c->ptype == CHV_PQ_TYPE_BYTE_ARRAY) {
    if (c->ndict == c->dict_cap) {
      size_t cap = c->dict_cap;
      if (grow(&c->dict_off, &cap, (size_t)c->ndict + 1, sizeof *c->dict_off))
        return CHV_ENOMEM;
      c->dict_cap = (uint32_t)cap;
    }
    if (c->dict.len > UINT32_MAX - 4 - n) return CHV_ERANGE;
    uint8_t pre[4];
    le32(pre, n);
    c->dict_off[c->ndict] = (uint32_t)c->dict.len;
    if (buf_put(&c->dict, pre, 4)) return CHV_ENOMEM;
  } else if (c->ndict == UINT32_MAX - 1) {
    return CHV_ERANGE;
  }
  if (buf_put(&c->dict, p, n)) return CHV_ENOMEM;
  c->slots[i] = (uint64_t)h << 32 | (c->ndict + 1);
  *out = c->ndict++;
  if ((uint64_t)c->ndict * 2 > c->nslots) return dict_rehash(c, c->nslots * 2);
  return CHV_OK;
}

/* ---- the current page --------------------------------------------------- */

static int64_t page_levels(const struct pq_wcol *c) {
  return c->lazy + (int64_t)c->nlev;
}

/* Bytes the page's plain values take (as PLAIN encodes them). */
static int64_t plain_bytes(const struct pq_wcol *c) {
  switch (c->ptype) {
  case CHV_PQ_TYPE_BOOLEAN:
    return (int64_t)(c->nvals + 7) / 8;
  case CHV_PQ_TYPE_BYTE_ARRAY:
    return (int64_t)c->vals.len + 4 * (int64_t)c->nvals;
  default:
    return (int64_t)c->vals.len;
  }
}

static int dict_width(const struct pq_wcol *c) {
  int bw = bit_width_of(c->ndict ? c->ndict - 1 : 0);
  return bw ? bw : 1;
}

/* Estimated encoded bytes of the current page. */
static int64_t page_estimate(const struct pq_wcol *c) {
  int64_t nl = page_levels(c);
  int64_t lev = 0;
  if (c->nlev == 0 && c->lazy > 0)
    lev = 16;
  else
    /* Bit-packed levels, plus run headers (RLE runs break bit-packed
    ** groups: about a byte per 16 levels of mixed data). */
    lev = (nl * (bit_width_of((uint64_t)c->max_def) +
                 bit_width_of((uint64_t)c->max_rep)) +
           7) /
              8 +
          nl / 16;
  if (!c->dict_mode) return lev + plain_bytes(c);
  int64_t idx = ((int64_t)c->nidx * dict_width(c) + 7) / 8 + 1;
  /* Until a page has kept its dictionary, the page may still turn plain:
  ** it is sized for that. */
  if (!c->dict_pages && c->page_plain > idx) idx = c->page_plain;
  return lev + idx;
}

int64_t pq_wcol_buffered(const struct pq_wcol *c) {
  int64_t n = c->pages.len + page_estimate(c);
  if (c->dict_mode || c->dict_pages) n += (int64_t)c->dict.len;
  return n;
}

/* Append plain value p[0, n) to the page's plain values. */
static int put_plain(struct pq_wcol *c, const uint8_t *p, uint32_t n) {
  if (c->ptype == CHV_PQ_TYPE_BYTE_ARRAY) {
    if (c->vals.len > (size_t)INT32_MAX - n) return CHV_ERANGE;
    if (c->nvals + 2 > c->voff_cap &&
        grow(&c->voff, &c->voff_cap, c->nvals + 2, sizeof *c->voff))
      return CHV_ENOMEM;
    if (buf_put(&c->vals, p, n)) return CHV_ENOMEM;
    c->voff[c->nvals + 1] = (int32_t)c->vals.len;
  } else {
    if (buf_put(&c->vals, p, n)) return CHV_ENOMEM;
  }
  c->nvals++;
  return CHV_OK;
}

/* Leave dictionary encoding for the rest of the chunk: the page's indices
** become plain values. */
static int to_plain(struct pq_wcol *c) {
  for (size_t k = 0; k < c->nidx; k++) {
    uint32_t len;
    const uint8_t *p = dict_entry(c, c->idx[k], &len);
    CHV_RETURN_IF_ERR(put_plain(c, p, len));
  }
  c->nidx = 0;
  c->dict_mode = false;
  c->dict_ok = false;
  return CHV_OK;
}

/* Store n staged values: fixed width (w bytes each, at fixed) or byte
** arrays (ptrs/lens). */
static int put_values(struct pq_wcol *c, const uint8_t *fixed,
                      const uint8_t *const *ptrs, const uint32_t *lens,
                      size_t n, const struct chv_pq_write_options *o) {
  CHV_ASSERT(n <= STAGE);
  size_t k = 0;
  size_t w = (size_t)c->width;
  if (ptrs) {
    for (size_t q = 0; q < n; q++)
      c->page_plain += 4 + (int64_t)lens[q];
  } else {
    c->page_plain += (int64_t)(n * w);
  }
  if (c->dict_mode) {
    if (c->nslots == 0 && dict_rehash(c, 1024)) return CHV_ENOMEM;
    if (c->nidx + n > c->idx_cap &&
        grow(&c->idx, &c->idx_cap, c->nidx + n, sizeof *c->idx))
      return CHV_ENOMEM;
    /* The hashes first, and their slots fetched ahead: a dictionary of
    ** many entries is probed at memory speed, not one miss at a time. */
    uint32_t hs[STAGE];
    for (size_t q = 0; q < n; q++) {
      const uint8_t *p = ptrs ? ptrs[q] : fixed + q * w;
      if (ptrs) {
        hs[q] = hash_bytes(p, lens[q]);
      } else if (w == 4) {
        uint32_t x;
        memcpy(&x, p, 4);
        hs[q] = (uint32_t)mix64(x);
      } else if (w == 8) {
        uint64_t x;
        memcpy(&x, p, 8);
        hs[q] = (uint32_t)mix64(x);
      } else {
        hs[q] = hash_bytes(p, (size_t)w);
      }
      __builtin_prefetch(&c->slots[hs[q] & (c->nslots - 1)]);
    }
    for (; k < n; k++) {
      const uint8_t *p = ptrs ? ptrs[k] : fixed + k * w;
      uint32_t len = ptrs ? lens[k] : (uint32_t)w;
      uint32_t h = hs[k];
      uint32_t e;
      int rc = dict_find(c, p, len, h, &e);
      if (rc == CHV_ERANGE) {
        /* The dictionary cannot grow further: plain from here. */
        CHV_RETURN_IF_ERR(to_plain(c));
        break;
      }
      if (rc) return rc;
      c->idx[c->nidx++] = e;
    }
  }
  if (k == n) return CHV_OK;
  if (!ptrs) {
    if (buf_put(&c->vals, fixed + k * w, (n - k) * w)) return CHV_ENOMEM;
    c->nvals += n - k;
    return CHV_OK;
  }
  size_t total = 0;
  for (size_t q = k; q < n; q++)
    total += lens[q];
  if (total > (size_t)INT32_MAX - c->vals.len) return CHV_ERANGE;
  if (buf_grow(&c->vals, total) ||
      (c->nvals + (n - k) + 2 > c->voff_cap &&
       grow(&c->voff, &c->voff_cap, c->nvals + (n - k) + 2, sizeof *c->voff)))
    return CHV_ENOMEM;
  for (; k < n; k++) {
    memcpy(c->vals.data + c->vals.len, ptrs[k], lens[k]);
    c->vals.len += lens[k];
    c->voff[++c->nvals] = (int32_t)c->vals.len;
  }
  return CHV_OK;
}

/* Convert and store n values of the leaf vector: rows idx[0..n) or, when
** idx is NULL, start .. start + n. */
static int append_values(struct pq_wcol *c, const struct chv_vector *v,
                         const int64_t *idx, int64_t start, size_t n,
                         const struct chv_pq_write_options *o) {
  uint8_t fixed[STAGE * 16];
  const uint8_t *ptrs[STAGE];
  uint32_t lens[STAGE];
  struct pq_wstats *st = &c->pst;
  for (size_t done = 0; done < n;) {
    size_t m = n - done < STAGE ? n - done : STAGE;
    const int64_t *ix = idx ? idx + done : NULL;
    int64_t base = start + (int64_t)done;
#define ROW(k) (ix ? ix[k] : base + (int64_t)(k))
    bool byte_arrays = false;
    switch (c->conv) {
    case PQ_W_BOOL: {
      /* Booleans go straight to the plain values (no dictionary). */
      if (buf_grow(&c->vals, m)) return CHV_ENOMEM;
      uint8_t *out = (uint8_t *)c->vals.data + c->vals.len;
      uint8_t any = 0, all = 1;
      for (size_t k = 0; k < m; k++) {
        out[k] = chv_bit_get(v->data, ROW(k));
        any |= out[k];
        all &= out[k];
      }
      c->vals.len += m;
      c->nvals += m;
      c->page_plain += (int64_t)m; /* an upper bound: bits are 1/8 */
      if (!st->has) {
        st->has = true;
        st->imin = 1;
        st->imax = 0;
      }
      if (!all) st->imin = 0;
      if (any) st->imax = 1;
      done += m;
      continue;
    }
    case PQ_W_I8:
    case PQ_W_I16:
    case PQ_W_I32: {
      int32_t lo = INT32_MAX, hi = INT32_MIN;
      int32_t *out = (int32_t *)(void *)fixed;
      for (size_t k = 0; k < m; k++) {
        int64_t r = ROW(k);
        int32_t x = c->conv == PQ_W_I8    ? ((const int8_t *)v->data)[r]
                    : c->conv == PQ_W_I16 ? ((const int16_t *)v->data)[r]
                                          : ((const int32_t *)v->data)[r];
        out[k] = x;
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
      if (!st->has || lo < st->imin) st->imin = lo;
      if (!st->has || hi > st->imax) st->imax = hi;
      st->has = true;
      break;
    }
    case PQ_W_I64:
    case PQ_W_TS_MILLIS:
    case PQ_W_TS_MICROS:
    case PQ_W_TS_NANOS: {
      int64_t lo = INT64_MAX, hi = INT64_MIN;
      int64_t *out = (int64_t *)(void *)fixed;
      for (size_t k = 0; k < m; k++) {
        int64_t r = ROW(k);
        int64_t x =
            c->conv == PQ_W_I64
                ? ((const int64_t *)v->data)[r]
                : ts_int64(c->conv, ((const struct chv_timestamp *)v->data)[r]);
        out[k] = x;
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
      if (!st->has || lo < st->imin) st->imin = lo;
      if (!st->has || hi > st->imax) st->imax = hi;
      st->has = true;
      break;
    }
    case PQ_W_F32:
    case PQ_W_F64: {
      for (size_t k = 0; k < m; k++) {
        int64_t r = ROW(k);
        double x;
        if (c->conv == PQ_W_F32) {
          float f = ((const float *)v->data)[r];
          memcpy(fixed + 4 * k, &f, 4);
          x = f;
        } else {
          x = ((const double *)v->data)[r];
          memcpy(fixed + 8 * k, &x, 8);
        }
        if (isnan(x)) continue;
        if (!st->has) {
          st->has = true;
          st->dmin = st->dmax = x;
          continue;
        }
        if (x < st->dmin || (x == 0 && st->dmin == 0 && signbit(x)))
          st->dmin = x;
        if (x > st->dmax || (x == 0 && st->dmax == 0 && !signbit(x)))
          st->dmax = x;
      }
      break;
    }
    case PQ_W_DEC: {
      int w = c->width;
      for (size_t k = 0; k < m; k++) {
        chv_i128 x = ((const chv_i128 *)v->data)[ROW(k)];
        if (!st->has) {
          st->has = true;
          st->mmin = st->mmax = x;
        } else if (x < st->mmin) {
          st->mmin = x;
        } else if (x > st->mmax) {
          st->mmax = x;
        }
        unsigned __int128 u = (unsigned __int128)x;
        uint8_t *out = fixed + k * (size_t)w;
        for (int b = w - 1; b >= 0; b--) {
          out[b] = (uint8_t)u;
          u >>= 8;
        }
      }
      break;
    }
    case PQ_W_TS96:
      for (size_t k = 0; k < m; k++) {
        struct chv_timestamp ts =
            ((const struct chv_timestamp *)v->data)[ROW(k)];
        int64_t day = floor_div(ts.seconds, 86400);
        int64_t sod = ts.seconds - day * 86400;
        uint64_t nod = (uint64_t)sod * 1000000000u + (uint64_t)ts.nanos;
        le64(fixed + 12 * k, nod);
        le32(fixed + 12 * k + 8, (uint32_t)(int32_t)(day + JULIAN_EPOCH_DAY));
      }
      break;
    case PQ_W_BYTES:
    case PQ_W_CHAR:
      byte_arrays = true;
      for (size_t k = 0; k < m; k++) {
        int64_t r = ROW(k);
        int32_t b = v->offsets[r], e = v->offsets[r + 1];
        const uint8_t *p = (const uint8_t *)v->bytes + b;
        uint32_t len = (uint32_t)(e - b);
        if (c->conv == PQ_W_CHAR)
          while (len > 0 && p[len - 1] == ' ')
            len--;
        ptrs[k] = len ? p : (const uint8_t *)"";
        lens[k] = len;
        if (stats_bytes(st, (const char *)ptrs[k], len)) return CHV_ENOMEM;
      }
      break;
    }
#undef ROW
    int rc = byte_arrays ? put_values(c, NULL, ptrs, lens, m, o)
                         : put_values(c, fixed, NULL, NULL, m, o);
    if (rc) return rc;
    done += m;
  }
  c->page_values += (int64_t)n;
  return CHV_OK;
}

/* ---- encoding a page ---------------------------------------------------- */

/* One RLE run of n copies of value (width bits), with the 4-byte length in
** front when prefixed. */
static int rle_run(struct chv_buf *out, uint64_t n, uint32_t value, int width,
                   bool prefixed) {
  uint8_t tmp[20];
  size_t k = 0;
  if (prefixed) k = 4;
  uint64_t hdr = n << 1;
  do {
    uint8_t b = hdr & 0x7f;
    hdr >>= 7;
    tmp[k++] = (uint8_t)(b | (hdr ? 0x80 : 0));
  } while (hdr);
  for (int i = 0; i < (width + 7) / 8; i++)
    tmp[k++] = (uint8_t)(value >> (8 * i));
  if (prefixed) le32(tmp, (uint32_t)(k - 4));
  return chv_buf_append(out, tmp, k) ? CHV_ENOMEM : CHV_OK;
}

static int encode_levels(struct pq_wcol *c, const uint32_t *lev, int max,
                         bool prefixed, struct chv_buf *out,
                         struct chv_error *err) {
  int width = bit_width_of((uint64_t)max);
  if (lev == NULL) /* all lazy levels are max_def */
    return rle_run(out, (uint64_t)c->lazy, (uint32_t)max, width, prefixed)
               ? nomem(err)
               : CHV_OK;
  return prefixed ? chv_pq_rle_encode_prefixed(lev, c->nlev, width, out, err)
                  : chv_pq_rle_encode(lev, c->nlev, width, out, err);
}

static int encode_values(struct pq_wcol *c, int32_t enc, struct pq_wctx *cx,
                         struct chv_buf *out, struct chv_error *err) {
  size_t n = c->nvals;
  switch (enc) {
  case CHV_PQ_ENC_PLAIN_DICTIONARY:
  case CHV_PQ_ENC_RLE_DICTIONARY:
    return chv_pq_rle_encode_dict(c->idx, c->nidx, dict_width(c), out, err);
  case CHV_PQ_ENC_PLAIN:
    if (c->ptype == CHV_PQ_TYPE_BOOLEAN)
      return chv_pq_plain_encode_bool((const uint8_t *)c->vals.data, n, out,
                                      err);
    if (c->ptype == CHV_PQ_TYPE_BYTE_ARRAY)
      return chv_pq_plain_encode_ba(c->vals.data, c->voff, n, out, err);
    return chv_buf_append(out, c->vals.data, c->vals.len) ? nomem(err) : CHV_OK;
  case CHV_PQ_ENC_RLE: { /* booleans of v2 pages */
    if (grow(&cx->u32, &cx->u32_cap, n + 1, sizeof *cx->u32)) return nomem(err);
    for (size_t k = 0; k < n; k++)
      cx->u32[k] = ((const uint8_t *)c->vals.data)[k];
    return chv_pq_rle_encode_prefixed(cx->u32, n, 1, out, err);
  }
  case CHV_PQ_ENC_DELTA_BINARY_PACKED:
    if (c->ptype == CHV_PQ_TYPE_INT32)
      return chv_pq_delta_encode_i32((const int32_t *)(void *)c->vals.data, n,
                                     out, err);
    return chv_pq_delta_encode_i64((const int64_t *)(void *)c->vals.data, n,
                                   out, err);
  case CHV_PQ_ENC_DELTA_BYTE_ARRAY:
    if (c->ptype == CHV_PQ_TYPE_BYTE_ARRAY)
      return chv_pq_dba_encode(c->vals.data, c->voff, n, out, err);
    /* FIXED_LEN_BYTE_ARRAY: offsets of equal steps. */
    if ((uint64_t)n * (uint64_t)c->width > INT32_MAX)
      return chv_error_set(err, CHV_ERANGE, "page too large");
    if (grow(&cx->u32, &cx->u32_cap, n + 1, sizeof *cx->u32)) return nomem(err);
    for (size_t k = 0; k <= n; k++)
      cx->u32[k] = (uint32_t)(k * (size_t)c->width);
    return chv_pq_dba_encode(c->vals.data, (const int32_t *)cx->u32, n, out,
                             err);
  default:
    return chv_error_set(err, CHV_EINTERNAL, "no encoder for encoding %d",
                         (int)enc);
  }
}

/* The value encoding of a page without dictionary. */
static int32_t plain_encoding(const struct pq_wcol *c, bool v2) {
  if (!v2) return CHV_PQ_ENC_PLAIN;
  switch (c->ptype) {
  case CHV_PQ_TYPE_BOOLEAN:
    return CHV_PQ_ENC_RLE;
  case CHV_PQ_TYPE_INT32:
  case CHV_PQ_TYPE_INT64:
    return CHV_PQ_ENC_DELTA_BINARY_PACKED;
  case CHV_PQ_TYPE_BYTE_ARRAY:
  case CHV_PQ_TYPE_FIXED_LEN_BYTE_ARRAY:
    return CHV_PQ_ENC_DELTA_BYTE_ARRAY;
  default:
    return CHV_PQ_ENC_PLAIN;
  }
}

static void count_page(struct pq_wcol *c, int32_t page_type, int32_t enc) {
  c->encodings |= 1u << enc;
  for (int i = 0; i < c->ncounts; i++)
    if (c->counts[i].page_type == page_type && c->counts[i].encoding == enc) {
      c->counts[i].count++;
      return;
    }
  if (c->ncounts < (int)CHV_ARRAY_SIZE(c->counts))
    c->counts[c->ncounts++] = (struct pq_wpage_count){page_type, enc, 1};
}

/* Compress in[0, n) into cx->zbuf (or point at in for UNCOMPRESSED). */
/* Compress in (all of buffer *in) into cx->zbuf; *out is the buffer that
** holds the result (in itself for UNCOMPRESSED). */
static int page_compress(struct pq_wctx *cx, struct chv_buf *in,
                         struct chv_buf **out, struct chv_error *err) {
  if (cx->o->codec == CHV_PQ_CODEC_UNCOMPRESSED) {
    *out = in;
    return CHV_OK;
  }
  chv_buf_reset(&cx->zbuf);
  int rc = chv_block_compress(cx->bctx, cx->o->codec, cx->level, in->data,
                              in->len, &cx->zbuf, err);
  if (rc) return rc;
  *out = &cx->zbuf;
  return CHV_OK;
}

static int page_too_large(struct pq_wctx *cx, const struct pq_wcol *c,
                          struct chv_error *err) {
  return chv_error_set(err, CHV_ERANGE,
                       "%s: column %s: a page would exceed 2 GiB (a single "
                       "row too large for Parquet)",
                       cx->path, c->name);
}

/* Encode, compress and append the current page to the chunk. */
static int flush_page(struct pq_wcol *c, struct pq_wctx *cx,
                      struct chv_error *err) {
  int64_t nlev = page_levels(c);
  if (nlev == 0) return CHV_OK;
  const struct chv_pq_write_options *o = cx->o;
  bool v2 = o->data_page_v2;
  /* parquet-mr's test on the first page: is the dictionary worth it? */
  if (c->dict_mode && !c->dict_pages) {
    int64_t enc = ((int64_t)c->nidx * dict_width(c) + 7) / 8 + 1;
    if (enc + (int64_t)c->dict.len >= c->page_plain) {
      if (to_plain(c)) return nomem(err);
      dict_clear(c);
    }
  }
  int32_t enc = c->dict_mode ? (v2 ? CHV_PQ_ENC_RLE_DICTIONARY
                                   : CHV_PQ_ENC_PLAIN_DICTIONARY)
                             : plain_encoding(c, v2);
  const uint32_t *def = c->nlev ? c->def : NULL;
  const uint32_t *rep = c->max_rep ? c->rep : NULL;
  struct chv_buf *body = &cx->body, *lev = &cx->lev;
  chv_buf_reset(body);
  chv_buf_reset(lev);
  int rc;
  if (v2) {
    if (c->max_rep > 0 &&
        (rc = encode_levels(c, rep, c->max_rep, false, lev, err)))
      return rc;
  } else if (c->max_rep > 0 &&
             (rc = encode_levels(c, rep, c->max_rep, true, body, err))) {
    return rc;
  }
  size_t rep_len = v2 ? lev->len : 0;
  if ((rc = encode_levels(c, def, c->max_def, !v2, v2 ? lev : body, err)))
    return rc;
  if ((rc = encode_values(c, enc, cx, body, err))) return rc;

  struct chv_buf *zb;
  if ((rc = page_compress(cx, body, &zb, err))) return rc;
  const void *data = zb->data;
  size_t dlen = zb->len;
  uint64_t usize = (uint64_t)body->len + (v2 ? lev->len : 0);
  uint64_t csize = (uint64_t)dlen + (v2 ? lev->len : 0);
  if (usize > INT32_MAX || csize > INT32_MAX) return page_too_large(cx, c, err);

  int64_t nulls = nlev - c->page_values;
  struct chv_pq_page_header h;
  memset(&h, 0, sizeof h);
  h.uncompressed_page_size = (int32_t)usize;
  h.compressed_page_size = (int32_t)csize;
  uint8_t mins[16], maxs[16];
  struct chv_pq_statistics ps;
  pq_wcol_stats_bytes(c, &c->pst, nulls, mins, maxs, &ps);
  if (v2) {
    h.type = CHV_PQ_PAGE_DATA_PAGE_V2;
    h.has_data_page_v2 = true;
    h.data_page_v2.num_values = (int32_t)nlev;
    h.data_page_v2.num_nulls = (int32_t)nulls;
    h.data_page_v2.num_rows = (int32_t)c->page_rows;
    h.data_page_v2.encoding = enc;
    h.data_page_v2.definition_levels_byte_length =
        (int32_t)(lev->len - rep_len);
    h.data_page_v2.repetition_levels_byte_length = (int32_t)rep_len;
    h.data_page_v2.is_compressed = o->codec != CHV_PQ_CODEC_UNCOMPRESSED;
    h.data_page_v2.has_statistics = true;
    h.data_page_v2.statistics = ps;
  } else {
    h.type = CHV_PQ_PAGE_DATA_PAGE;
    h.has_data_page = true;
    h.data_page.num_values = (int32_t)nlev;
    h.data_page.encoding = enc;
    h.data_page.definition_level_encoding = CHV_PQ_ENC_RLE;
    h.data_page.repetition_level_encoding = CHV_PQ_ENC_RLE;
    h.data_page.has_statistics = true;
    h.data_page.statistics = ps;
  }
  if (o->page_checksum) {
    uLong crc = crc32(0L, Z_NULL, 0);
    if (v2) crc = crc32(crc, (const Bytef *)lev->data, (uInt)lev->len);
    crc = crc32(crc, (const Bytef *)data, (uInt)dlen);
    h.has_crc = true;
    h.crc = (uint32_t)crc;
  }
  chv_buf_reset(&cx->hdr);
  if ((rc = chv_pq_page_header_write(&h, &cx->hdr, err))) return rc;
  if (pq_wslabs_append(&c->pages, cx->hdr.data, cx->hdr.len) ||
      (v2 && pq_wslabs_append(&c->pages, lev->data, lev->len)) ||
      pq_wslabs_append(&c->pages, data, dlen))
    return nomem(err);

  count_page(c, h.type, enc);
  c->encodings |= 1u << CHV_PQ_ENC_RLE; /* levels */
  if (c->dict_mode) c->dict_pages = true;
  c->num_values += nlev;
  c->uncompressed += (int64_t)cx->hdr.len + (int64_t)usize;
  c->chunk_rows += c->page_rows;
  c->chunk_nulls += nulls;
  if (stats_merge(c, &c->cst, &c->pst)) return nomem(err);
  c->hist_rows += c->page_rows;
  c->hist_bytes += (int64_t)usize;
  c->hist_plain += c->page_plain;

  /* Empty the page. */
  c->nlev = 0;
  c->lazy = 0;
  c->page_rows = 0;
  c->page_values = 0;
  c->page_plain = 0;
  c->nidx = 0;
  c->nvals = 0;
  chv_buf_reset(&c->vals);
  if (c->voff) c->voff[0] = 0;
  stats_reset(&c->pst);
  return CHV_OK;
}

/* ---- writing rows ------------------------------------------------------- */

/* Rows to add before the page is looked at again. */
/* Rows to add before the page is looked at again: about what fills the
** page, and while the dictionary is in use, what could fill the rest of
** the dictionary if every value were new. */
static int64_t rows_before_check(const struct pq_wcol *c,
                                 const struct chv_pq_write_options *o) {
  int64_t est = page_estimate(c);
  int64_t room = o->page_size - est;
  int64_t left = o->page_row_limit - c->page_rows;
  if (room <= 0 || left <= 0) return 1;
  int64_t per_row = 0, plain_per_row = 0;
  if (c->page_rows >= 16) {
    per_row = est / c->page_rows;
    plain_per_row = c->page_plain / c->page_rows;
  } else if (c->hist_rows > 0) {
    per_row = c->hist_bytes / c->hist_rows;
    plain_per_row = c->hist_plain / c->hist_rows;
  }
  int64_t n = per_row > 0 ? room / per_row : 64;
  if (c->dict_mode && plain_per_row > 0) {
    int64_t droom = o->dictionary_page_size - (int64_t)c->dict.len;
    int64_t dn = droom > 0 ? droom / plain_per_row : 1;
    if (dn < n) n = dn;
  }
  if (n < 1) n = 1;
  if (n > 4096) n = 4096;
  return n < left ? n : left;
}

/* Shred rows [r0, r1) of a top-level primitive column. */
static int write_flat(struct pq_wcol *c, const struct chv_vector *v, int64_t r0,
                      int64_t r1, struct pq_wctx *cx, struct chv_error *err) {
  size_t n = (size_t)(r1 - r0);
  if (v->validity == NULL) {
    if (c->nlev == 0) {
      c->lazy += (int64_t)n;
    } else {
      for (size_t k = 0; k < n; k++)
        if (push_level(c, 1, 0)) return nomem(err);
    }
    if (append_values(c, v, NULL, r0, n, cx->o)) goto fail;
    return CHV_OK;
  }
  c->nvidx = 0;
  if (grow(&c->vidx, &c->vidx_cap, n, sizeof *c->vidx)) return nomem(err);
  for (int64_t r = r0; r < r1; r++) {
    bool ok = chv_bit_get(v->validity, r);
    if (ok) c->vidx[c->nvidx++] = r;
    if (ok && c->nlev == 0) {
      c->lazy++;
      continue;
    }
    if (!ok && c->lazy && materialize(c)) return nomem(err);
    if (push_level(c, ok ? 1 : 0, 0)) return nomem(err);
  }
  if (append_values(c, v, c->vidx, 0, c->nvidx, cx->o)) goto fail;
  return CHV_OK;
fail:
  return chv_error_set(err, CHV_ENOMEM, "%s: column %s: out of memory",
                       cx->path, c->name);
}

int pq_wcol_write(struct pq_wcol *c, const struct chv_vector *top, int64_t r0,
                  int64_t r1, struct pq_wctx *cx, struct chv_error *err) {
  const struct chv_vector *leaf = leaf_of(c, top);
  struct walk w = {c, c, false, 0, cx, err};
  for (int64_t r = r0; r < r1;) {
    int64_t n = rows_before_check(c, cx->o);
    if (n > r1 - r) n = r1 - r;
    if (c->nsteps == 0) {
      CHV_RETURN_IF_ERR(write_flat(c, top, r, r + n, cx, err));
    } else {
      c->nvidx = 0;
      for (int64_t k = r; k < r + n; k++) {
        w.row = k;
        CHV_RETURN_IF_ERR(walk(&w, 0, top, k, 0, 0));
      }
      if (append_values(c, leaf, c->vidx, 0, c->nvidx, cx->o))
        return chv_error_set(err, CHV_ENOMEM, "%s: column %s: out of memory",
                             cx->path, c->name);
    }
    c->page_rows += n;
    r += n;
    if (c->dict_mode && (int64_t)c->dict.len > cx->o->dictionary_page_size) {
      /* The dictionary is full: this page is its last (rows are added in
      ** runs that could not pass the limit by much), plain from here. */
      CHV_RETURN_IF_ERR(flush_page(c, cx, err));
      c->dict_mode = false;
      c->dict_ok = false;
      continue;
    }
    if (page_estimate(c) >= cx->o->page_size ||
        c->page_rows >= cx->o->page_row_limit)
      CHV_RETURN_IF_ERR(flush_page(c, cx, err));
  }
  return CHV_OK;
}

/* ---- the chunk ---------------------------------------------------------- */

int pq_wcol_finish(struct pq_wcol *c, struct pq_wctx *cx,
                   struct chv_error *err) {
  CHV_RETURN_IF_ERR(flush_page(c, cx, err));
  chv_buf_reset(&c->dictpage);
  c->dict_uncompressed = 0;
  if (!c->dict_pages) return CHV_OK;
  struct chv_buf *zb;
  int rc = page_compress(cx, &c->dict, &zb, err);
  if (rc) return rc;
  const void *data = zb->data;
  size_t dlen = zb->len;
  if (c->dict.len > INT32_MAX || dlen > INT32_MAX)
    return page_too_large(cx, c, err);
  struct chv_pq_page_header h;
  memset(&h, 0, sizeof h);
  h.type = CHV_PQ_PAGE_DICTIONARY_PAGE;
  h.uncompressed_page_size = (int32_t)c->dict.len;
  h.compressed_page_size = (int32_t)dlen;
  h.has_dictionary_page = true;
  h.dictionary_page.num_values = (int32_t)c->ndict;
  h.dictionary_page.encoding =
      cx->o->data_page_v2 ? CHV_PQ_ENC_PLAIN : CHV_PQ_ENC_PLAIN_DICTIONARY;
  if (cx->o->page_checksum) {
    h.has_crc = true;
    h.crc =
        (uint32_t)crc32(crc32(0L, Z_NULL, 0), (const Bytef *)data, (uInt)dlen);
  }
  if ((rc = chv_pq_page_header_write(&h, &c->dictpage, err))) return rc;
  size_t hlen = c->dictpage.len;
  if (chv_buf_append(&c->dictpage, data, dlen)) return nomem(err);
  c->dict_uncompressed = (int64_t)hlen + (int64_t)c->dict.len;
  count_page(c, CHV_PQ_PAGE_DICTIONARY_PAGE, h.dictionary_page.encoding);
  return CHV_OK;
}

void pq_wcol_reset(struct pq_wcol *c) {
  pq_wslabs_reset(&c->pages);
  chv_buf_reset(&c->dictpage);
  c->num_values = c->uncompressed = c->chunk_rows = c->chunk_nulls = 0;
  c->dict_uncompressed = 0;
  c->encodings = 0;
  c->ncounts = 0;
  stats_reset(&c->cst);
  dict_clear(c);
  c->dict_ok = c->dict_mode =
      c->dict_enabled && c->ptype != CHV_PQ_TYPE_BOOLEAN;
  c->dict_pages = false;
}

int pq_wcol_init(struct pq_wcol *c, const struct chv_pq_write_options *o) {
  chv_buf_init(&c->vals);
  chv_buf_init(&c->dict);
  chv_buf_init(&c->dictpage);
  chv_buf_init(&c->pst.bmin);
  chv_buf_init(&c->pst.bmax);
  chv_buf_init(&c->cst.bmin);
  chv_buf_init(&c->cst.bmax);
  c->dict_enabled = o->dictionary;
  if (c->conv == PQ_W_DEC) c->dec_limit = chv_decimal_pow10(c->type->precision);
  pq_wcol_reset(c);
  if (c->ptype == CHV_PQ_TYPE_BYTE_ARRAY) {
    if (grow(&c->voff, &c->voff_cap, 64, sizeof *c->voff)) return CHV_ENOMEM;
    c->voff[0] = 0;
  }
  return CHV_OK;
}

void pq_wcol_free(struct pq_wcol *c) {
  release(c->def, c->lev_cap, sizeof *c->def);
  release(c->rep, c->rep_cap, sizeof *c->rep);
  release(c->idx, c->idx_cap, sizeof *c->idx);
  release(c->voff, c->voff_cap, sizeof *c->voff);
  release(c->dict_off, c->dict_cap, sizeof *c->dict_off);
  release(c->slots, c->nslots, sizeof *c->slots);
  release(c->vidx, c->vidx_cap, sizeof *c->vidx);
  buf_release(&c->vals);
  buf_release(&c->dict);
  pq_wslabs_free(&c->pages);
  chv_buf_free(&c->dictpage);
  chv_buf_free(&c->pst.bmin);
  chv_buf_free(&c->pst.bmax);
  chv_buf_free(&c->cst.bmin);
  chv_buf_free(&c->cst.bmax);
}
