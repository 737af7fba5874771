/*
** sql/exec window.c: the Window operator (f(...) OVER (PARTITION BY ...
** ORDER BY ... [frame])).
**
** On its first next() it reads its whole input: each chunk's keys (the
** node's partition keys, then its order keys) and the calls' arguments
** are evaluated and the chunk's rows, every input column, the keys and
** the arguments, are copied into vectors the operator holds.  The held
** rows are then ordered by the keys with the sort's merge sort
** (sql_sort_perm(), sort.c), stably, and each call is computed over the
** rows in that order, partition by partition, into a vector of one value
** per row.  The rows are given in that order, 2,048 at a time: the input's
** columns, then one column per call.
**
**   open: the input opened, the held vectors made
**   next: (first call) read -> sort -> compute; then give rows, then the
**         end (b == NULL)
**   close: everything freed
**
** A call's partition keys are the node's first npart keys and its order
** keys the norder after them (node.h): calls whose keys are a prefix of
** the node's share its sort.  Row i starts a partition of a call when it
** differs from row i - 1 in one of its partition keys, and a peer group
** (rows of equal order keys) when it differs in one of its npart + norder
** keys (diff[i], the first key in which row i differs from row i - 1).
**
** The frame of row i is a range [lo, hi] of the sorted rows (empty when
** lo > hi): ROWS counts rows from i, RANGE takes i's peers (CURRENT ROW),
** the partition's ends (UNBOUNDED) or the rows whose one order key is
** within n of i's (n PRECEDING, n FOLLOWING: range_frames(), by binary
** search; a frame that only moves forward, as ROWS frames do).
** Aggregates over it use the
** registry's states (chv_agg_*(), sql/func):
**   - a frame that starts at the partition's first row grows row by row:
**     one state takes the rows as the frame's end reaches them and is
**     folded into the result's group of each row (chv_agg_merge());
**   - COUNT, SUM and AVG of integers, FLOAT and DOUBLE slide: a running
**     count and sum (a row added as the frame's end passes it, taken off
**     as its start does; infinities and NaN counted apart so that taking
**     one off is exact);
**   - others (MIN, MAX, COUNT(DISTINCT), SUM and AVG of decimals on a
**     frame that does not start at the partition's first row) give each
**     row its own group and add the frame's rows to it: rows times the
**     frame's length.
**
** The operator holds every row: once the held vectors take more than
** x->memory bytes (chive.exec.operator-memory; 0: no bound) it fails with
** CHV_ENOMEM naming the option.  With a per-partition limit (the top-N of
** ROW_NUMBER, rewrite.c) only the rows whose ranking call is at most the
** limit are given, and while reading, once the held rows pass a
** threshold, they are sorted and those past the limit in their partition
** are dropped, so that about limit rows per partition are held.
**
** Cancel: the flag is looked at before each input chunk, each output
** chunk, within the sort, and every WIN_CANCEL_EVERY rows of the
** computing.
**
** INTERFACE: sql_op_window_new() (op.h).
*/
#include "sql/exec/op.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIN_OUT_ROWS 2048       /* rows of each chunk given */
#define WIN_CANCEL_EVERY 4096   /* rows computed between looks at the flag */
#define WIN_PAIRS 8192          /* (row, group) pairs per aggregate update */
#define WIN_COMPACT_MIN 65536   /* top-N: held rows before the first cut */

struct win_op {
  struct sql_op op;             /* first: what the executor holds */
  const struct sql_sort_key *keys;  /* the node's (borrowed) */
  int nkeys;
  const struct sql_win_call *calls; /* the node's (borrowed) */
  int ncalls;
  int ncols;                    /* the input's columns */
  /* the held rows: ncols input columns; nkeys keys; per call its argument
  ** and its default (NULL: none) */
  struct chv_vector **held, **hkeys, **harg, **hdflt;
  int64_t nheld;
  struct chv_vector **ck, **carg, **cdflt; /* the chunk's, evaluated */
  int64_t compact_at;           /* top-N: held rows that trigger a cut */
  bool read;                    /* the input was read and computed */
  uint32_t *perm;               /* the held rows in the keys' order */
  struct chv_vector **res;      /* per call: its value for sorted row i */
  uint32_t *emit;               /* the sorted rows given (top-N), or NULL */
  int64_t ngive, at;            /* rows to give; the next one */
  uint32_t *rows;               /* scratch: a chunk's held rows */
  struct chv_type *schema;      /* the output batch's (sql_node_schema()) */
  struct chv_batch *ob;         /* the output batch, reused */
};

static int oom(struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory");
}

/* ---- reading ------------------------------------------------------------ */

static size_t held_bytes(const struct win_op *w) {
  size_t b = 0;
  for (int c = 0; c < w->ncols; c++) b += chv_vector_bytes(w->held[c]);
  for (int k = 0; k < w->nkeys; k++) b += chv_vector_bytes(w->hkeys[k]);
  for (int j = 0; j < w->ncalls; j++) {
    if (w->harg[j]) b += chv_vector_bytes(w->harg[j]);
    if (w->hdflt[j]) b += chv_vector_bytes(w->hdflt[j]);
  }
  return b;
}

static int check_memory(const struct win_op *w, struct chv_error *err) {
  size_t limit = w->op.x->memory;
  if (limit == 0) return CHV_OK;
  size_t held = held_bytes(w);
  if (held <= limit) return CHV_OK;
  return chv_error_set(err, CHV_ENOMEM,
                       "window (OVER): more than its memory limit of %zu "
                       "bytes (%zu bytes for %lld rows; see "
                       "chive.exec.operator-memory)",
                       limit, held, (long long)w->nheld);
}

/* v := its rows perm[0, n) (a new vector of its type). */
static int gather(struct chv_vector **v, const uint32_t *perm, int64_t n,
                  struct chv_error *err) {
  if (!*v) return CHV_OK;
  struct chv_vector *nv = NULL;
  int rc = chv_vector_open((*v)->type, n, &nv, err);
  if (rc == CHV_OK) rc = chv_vector_append_rows(nv, *v, perm, 0, n, err);
  if (rc != CHV_OK) {
    chv_vector_close(nv);
    return rc;
  }
  chv_vector_close(*v);
  *v = nv;
  return CHV_OK;
}

/* diff[i]: the first key in which sorted row i differs from row i - 1
** (nkeys: none; -1 for row 0), over keys in sorted order. */
static void key_diffs(struct chv_vector *const *keys,
                      const struct sql_sort_key *k, int nkeys, int64_t n,
                      int *diff) {
  for (int64_t i = 0; i < n; i++) {
    if (i == 0) {
      diff[i] = -1;
      continue;
    }
    int d = 0;
    while (d < nkeys &&
           sql_sort_cmp(keys + d, i - 1, keys + d, i, k + d, 1) == 0)
      d++;
    diff[i] = d;
  }
}

/* ---- computing ---------------------------------------------------------- */

/* What computing a call over the sorted rows shares. */
struct wctx {
  struct win_op *w;
  int64_t n;
  const int *diff;
  int64_t *gs, *ge;             /* row i's peer group [gs, ge) */
  int64_t *lo, *hi;             /* row i's frame [lo, hi] */
  int64_t *src;                 /* a row per row, -1: none */
  struct chv_error *err;
};

/* Row i's value of a numeric vector as an integer and a double. */
static inline int64_t int_at(const struct chv_vector *v, int64_t i) {
  switch (v->type->id) {
  case CHV_TYPE_TINYINT: return ((const int8_t *)v->data)[i];
  case CHV_TYPE_SMALLINT: return ((const int16_t *)v->data)[i];
  case CHV_TYPE_INT: return ((const int32_t *)v->data)[i];
  default: return ((const int64_t *)v->data)[i];
  }
}
static inline double real_at(const struct chv_vector *v, int64_t i) {
  switch (v->type->id) {
  case CHV_TYPE_FLOAT: return ((const float *)v->data)[i];
  case CHV_TYPE_DOUBLE: return ((const double *)v->data)[i];
  default: return (double)int_at(v, i);
  }
}

/* ---- RANGE frames with an offset ---------------------------------------- */

static int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Date days shifted by months (the day kept, or the month's last). */
static int32_t add_months(int32_t days, int64_t months) {
  int y, m, d;
  chv_date_to_ymd(days, &y, &m, &d);
  int64_t t = (int64_t)y * 12 + (m - 1) + months;
  int ny = (int)floor_div(t, 12), nm = (int)(t - (int64_t)ny * 12) + 1;
  int32_t first = chv_date_from_ymd(ny, nm, 1);
  int32_t next = nm == 12 ? chv_date_from_ymd(ny + 1, 1, 1)
                          : chv_date_from_ymd(ny, nm + 1, 1);
  return first + (d - 1 < next - first ? d - 1 : next - first - 1);
}

/* A DATE's or TIMESTAMP's row i as nanoseconds since 1970, its date first
** shifted by months. */
static chv_i128 time_at(const struct chv_vector *v, int64_t i, int64_t months) {
  int32_t days;
  int64_t in_day = 0; /* nanoseconds */
  if (v->type->id == CHV_TYPE_DATE) {
    days = ((const int32_t *)v->data)[i];
  } else {
    const struct chv_timestamp *t = &((const struct chv_timestamp *)v->data)[i];
    int64_t dd = floor_div(t->seconds, 86400);
    days = (int32_t)dd;
    in_day = (t->seconds - dd * 86400) * 1000000000LL + t->nanos;
  }
  if (months) days = add_months(days, months);
  return (chv_i128)days * 86400 * 1000000000LL + in_day;
}

static int cmp_i128(chv_i128 a, chv_i128 b) { return (a > b) - (a < b); }

/* How sorted row j's key compares with row i's shifted by offset o, s = 1
** toward larger values, -1 toward smaller: < 0, 0, > 0 in value order
** (NaN above every number and equal to NaN).  Neither key NULL. */
static int range_cmp(const struct chv_vector *k, int64_t j, int64_t i,
                     const struct sql_win_offset *o, int s) {
  switch (k->type->id) {
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DOUBLE: {
    double kj = real_at(k, j), t = real_at(k, i) + s * o->d;
    if (isnan(kj) || isnan(t)) return isnan(kj) - isnan(t);
    return (kj > t) - (kj < t);
  }
  case CHV_TYPE_DECIMAL: {
    chv_i128 kj = ((const chv_i128 *)k->data)[j], t;
    chv_i128 ki = ((const chv_i128 *)k->data)[i];
    if (s > 0 ? __builtin_add_overflow(ki, o->n, &t)
              : __builtin_sub_overflow(ki, o->n, &t))
      return -s; /* past every value */
    return cmp_i128(kj, t);
  }
  case CHV_TYPE_DATE:
  case CHV_TYPE_TIMESTAMP:
    return cmp_i128(time_at(k, j, 0),
                    time_at(k, i, s * (int64_t)o->months) + s * o->nanos);
  default: /* integers: the offset fits 38 digits, the key 19 */
    return cmp_i128(int_at(k, j), (chv_i128)int_at(k, i) + s * o->n);
  }
}

/* The frames of partition [ps, pe) of a RANGE call with an offset, over
** its one order key (sort key sk): row i's n PRECEDING starts at the first
** row whose key is at least key - n (at most key + n for DESC), n
** FOLLOWING ends at the last row whose key is at most key + n; NULL keys
** are no row's, and a NULL row's offsets are its peers'.  Bounds without
** an offset are frames()'s. */
static void range_frames(const struct sql_win_call *wc, struct wctx *c,
                         int64_t ps, int64_t pe) {
  const struct chv_vector *k = c->w->hkeys[wc->npart];
  const struct sql_sort_key *sk = &c->w->keys[wc->npart];
  int dir = sk->desc ? -1 : 1;
  /* the rows of non-NULL keys: [ns, ne), NULLs all before or after */
  int64_t ns = ps, ne = pe;
  while (ns < ne && chv_vector_is_null(k, ns)) ns++;
  while (ne > ns && chv_vector_is_null(k, ne - 1)) ne--;
  for (int b = 0; b < 2; b++) {
    int bound = b ? wc->end : wc->start;
    if (bound != CHV_SQL_FRAME_PRECEDING && bound != CHV_SQL_FRAME_FOLLOWING)
      continue;
    int s = (bound == CHV_SQL_FRAME_PRECEDING ? -1 : 1) * dir;
    const struct sql_win_offset *o = &wc->off[b];
    for (int64_t i = ps; i < pe; i++) {
      int64_t at;
      if (i < ns || i >= ne) { /* a NULL key: its peers */
        at = b ? c->ge[i] - 1 : c->gs[i];
      } else if (!b) { /* the first row of [ns, ne) not before the value */
        int64_t l = ns, h = ne;
        while (l < h) {
          int64_t m = l + (h - l) / 2;
          if (range_cmp(k, m, i, o, s) * dir < 0) l = m + 1;
          else h = m;
        }
        at = l;
      } else { /* the last row not after it */
        int64_t l = ns, h = ne;
        while (l < h) {
          int64_t m = l + (h - l) / 2;
          if (range_cmp(k, m, i, o, s) * dir <= 0) l = m + 1;
          else h = m;
        }
        at = l - 1;
      }
      if (b) c->hi[i] = at;
      else c->lo[i] = at;
    }
  }
}

/* The frames of the rows of partition [ps, pe). */
static void frames(const struct sql_win_call *wc, struct wctx *c, int64_t ps,
                   int64_t pe) {
  if (wc->range && (wc->start == CHV_SQL_FRAME_PRECEDING ||
                    wc->start == CHV_SQL_FRAME_FOLLOWING ||
                    wc->end == CHV_SQL_FRAME_PRECEDING ||
                    wc->end == CHV_SQL_FRAME_FOLLOWING)) {
    struct sql_win_call rest = *wc; /* the bounds without an offset */
    if (rest.start == CHV_SQL_FRAME_PRECEDING ||
        rest.start == CHV_SQL_FRAME_FOLLOWING)
      rest.start = CHV_SQL_FRAME_CURRENT_ROW;
    if (rest.end == CHV_SQL_FRAME_PRECEDING ||
        rest.end == CHV_SQL_FRAME_FOLLOWING)
      rest.end = CHV_SQL_FRAME_CURRENT_ROW;
    frames(&rest, c, ps, pe);
    range_frames(wc, c, ps, pe);
    return;
  }
  for (int64_t i = ps; i < pe; i++) {
    int64_t lo, hi;
    switch (wc->start) {
    case CHV_SQL_FRAME_UNBOUNDED_PRECEDING: lo = ps; break;
    case CHV_SQL_FRAME_PRECEDING:
      lo = i - ps < wc->start_n ? ps : i - wc->start_n;
      break;
    case CHV_SQL_FRAME_FOLLOWING:
      lo = pe - i <= wc->start_n ? pe : i + wc->start_n;
      break;
    default: lo = wc->range ? c->gs[i] : i; break; /* CURRENT ROW */
    }
    switch (wc->end) {
    case CHV_SQL_FRAME_UNBOUNDED_FOLLOWING: hi = pe - 1; break;
    case CHV_SQL_FRAME_PRECEDING:
      hi = i - ps < wc->end_n ? ps - 1 : i - wc->end_n;
      break;
    case CHV_SQL_FRAME_FOLLOWING:
      hi = pe - 1 - i <= wc->end_n ? pe - 1 : i + wc->end_n;
      break;
    default: hi = wc->range ? c->ge[i] - 1 : i; break; /* CURRENT ROW */
    }
    c->lo[i] = lo;
    c->hi[i] = hi;
  }
}

/* A vector of type t of n rows: vals (int64_t, or double when real), with
** NULL where nulls[i] (nulls may be NULL). */
static int fill_numbers(const struct chv_type *t, int64_t n,
                        const int64_t *ivals, const double *dvals,
                        const bool *nulls, struct chv_vector **out,
                        struct chv_error *err) {
  struct chv_vector *v = NULL;
  CHV_RETURN_IF_ERR(chv_vector_open(t, n, &v, err));
  int rc = chv_vector_reserve(v, n, err);
  for (int64_t i = 0; i < n && rc == CHV_OK; i++) {
    if (nulls && nulls[i]) {
      rc = chv_vector_append_null(v, err);
    } else if (t->id == CHV_TYPE_DOUBLE) {
      double d = dvals[i];
      rc = chv_vector_append_value(v, &d, err);
    } else {
      int64_t x = ivals[i];
      rc = chv_vector_append_value(v, &x, err);
    }
  }
  if (rc != CHV_OK) {
    chv_vector_close(v);
    return rc;
  }
  *out = v;
  return CHV_OK;
}

/* A vector of n rows of type t: row i is row src[i] of from (-1: row i of
** dflt, or NULL without one). */
static int fill_rows(const struct chv_type *t, int64_t n, const int64_t *src,
                     const struct chv_vector *from,
                     const struct chv_vector *dflt, struct chv_vector **out,
                     struct chv_error *err) {
  struct chv_vector *v = NULL;
  CHV_RETURN_IF_ERR(chv_vector_open(t, n, &v, err));
  int rc = CHV_OK;
  for (int64_t i = 0; i < n && rc == CHV_OK; i++) {
    if (src[i] >= 0)
      rc = chv_vector_append_from(v, from, src[i], err);
    else if (dflt)
      rc = chv_vector_append_from(v, dflt, i, err);
    else
      rc = chv_vector_append_null(v, err);
  }
  if (rc != CHV_OK) {
    chv_vector_close(v);
    return rc;
  }
  *out = v;
  return CHV_OK;
}

/* FIRST_VALUE/LAST_VALUE skipping NULLs: nn[j] the first non-NULL row of
** arg from j on (n: none), or the last up to j (-1: none). */
static void skip_rows(const struct chv_vector *arg, int64_t n, bool first,
                      int64_t *nn) {
  if (first) {
    int64_t next = n;
    for (int64_t j = n - 1; j >= 0; j--)
      nn[j] = next = chv_vector_is_null(arg, j) ? next : j;
  } else {
    int64_t prev = -1;
    for (int64_t j = 0; j < n; j++)
      nn[j] = prev = chv_vector_is_null(arg, j) ? prev : j;
  }
}

/* The ranking functions, NTILE, LAG and LEAD, FIRST_VALUE and
** LAST_VALUE: their values (or the rows they take) for partition
** [ps, pe). */
static void rank_part(const struct sql_win_call *wc, struct wctx *c,
                      int64_t ps, int64_t pe, int64_t *iv, double *dv) {
  int64_t cnt = pe - ps, dense = 0;
  for (int64_t i = ps; i < pe; i++) {
    if (i == c->gs[i]) dense++;
    switch (wc->fn) {
    case SQL_WIN_ROW_NUMBER: iv[i] = i - ps + 1; break;
    case SQL_WIN_RANK: iv[i] = c->gs[i] - ps + 1; break;
    case SQL_WIN_DENSE_RANK: iv[i] = dense; break;
    case SQL_WIN_PERCENT_RANK:
      dv[i] = cnt > 1 ? (double)(c->gs[i] - ps) / (double)(cnt - 1) : 0;
      break;
    case SQL_WIN_CUME_DIST:
      dv[i] = (double)(c->ge[i] - ps) / (double)cnt;
      break;
    case SQL_WIN_NTILE: {
      int64_t b = wc->n, q = cnt / b, r = cnt % b, k = i - ps;
      iv[i] = k < r * (q + 1) ? k / (q + 1) + 1 : r + (k - r * (q + 1)) / q + 1;
      break;
    }
    case SQL_WIN_LAG:
      c->src[i] = i - ps >= wc->n ? i - wc->n : -1;
      break;
    case SQL_WIN_LEAD:
      c->src[i] = pe - 1 - i >= wc->n ? i + wc->n : -1;
      break;
    case SQL_WIN_FIRST_VALUE:
    case SQL_WIN_LAST_VALUE: {
      /* skipping NULLs: iv[j] is the first non-NULL row from j on (the
      ** last up to j), set by skip_rows() */
      int64_t lo = c->lo[i], hi = c->hi[i], s = -1;
      if (lo <= hi && !wc->skip_nulls)
        s = wc->fn == SQL_WIN_FIRST_VALUE ? lo : hi;
      else if (lo <= hi && wc->fn == SQL_WIN_FIRST_VALUE)
        s = iv[lo] <= hi ? iv[lo] : -1;
      else if (lo <= hi)
        s = iv[hi] >= lo ? iv[hi] : -1;
      c->src[i] = s;
      break;
    }
    default: break;
    }
  }
}

/* The running count and sum of a sliding COUNT, SUM or AVG. */
struct slide {
  int64_t cnt;                  /* non-NULL rows */
  uint64_t isum;                /* integers: wraps as Java's long */
  double dsum;                  /* the finite values' sum */
  int64_t nan, pinf, ninf;      /* non-finite values */
};

static void slide_add(struct slide *s, const struct chv_vector *v, int64_t r,
                      bool real, int sign) {
  if (!v) { /* COUNT(*) */
    s->cnt += sign;
    return;
  }
  if (chv_vector_is_null(v, r)) return;
  s->cnt += sign;
  if (!real) {
    uint64_t x = (uint64_t)int_at(v, r);
    s->isum = sign > 0 ? s->isum + x : s->isum - x;
    return;
  }
  double d = real_at(v, r);
  if (isnan(d))
    s->nan += sign;
  else if (isinf(d))
    *(d > 0 ? &s->pinf : &s->ninf) += sign;
  else
    s->dsum += sign * d;
}

static double slide_real(const struct slide *s) {
  if (s->nan || (s->pinf && s->ninf)) return NAN;
  if (s->pinf) return INFINITY;
  if (s->ninf) return -INFINITY;
  return s->dsum;
}

/* Whether an aggregate call slides (COUNT, SUM, AVG of numbers but
** decimals). */
static bool slides(const struct sql_win_call *wc) {
  switch (wc->agg) {
  case CHV_AGG_COUNT_STAR:
  case CHV_AGG_COUNT: return true;
  case CHV_AGG_SUM:
  case CHV_AGG_AVG: {
    enum chv_type_id id = wc->arg->type->id;
    return chv_type_is_integer(id) || id == CHV_TYPE_FLOAT || id == CHV_TYPE_DOUBLE;
  }
  default: return false;
  }
}

/* A sliding aggregate over every partition: row i's frame [lo, hi]. */
static int agg_slide(const struct sql_win_call *wc, struct wctx *c,
                     const struct chv_type *rt, int64_t *iv, double *dv,
                     bool *nulls) {
  const struct chv_vector *arg = c->w->harg[wc - c->w->calls];
  bool real = wc->arg && !chv_type_is_integer(wc->arg->type->id);
  if (wc->agg == CHV_AGG_AVG) real = true;
  int64_t ps = 0;
  while (ps < c->n) {
    int64_t pe = ps + 1;
    while (pe < c->n && c->diff[pe] >= wc->npart) pe++;
    struct slide s = {0};
    int64_t cl = ps, ch = ps - 1; /* the rows in s: [cl, ch] */
    for (int64_t i = ps; i < pe; i++) {
      int64_t lo = c->lo[i], hi = c->hi[i];
      while (ch < hi) {
        ch++;
        if (ch >= cl) slide_add(&s, arg, ch, real, 1);
      }
      while (cl < lo) {
        if (cl <= ch) slide_add(&s, arg, cl, real, -1);
        cl++;
      }
      if (wc->agg == CHV_AGG_COUNT || wc->agg == CHV_AGG_COUNT_STAR) {
        iv[i] = s.cnt;
        nulls[i] = false;
      } else if (s.cnt == 0) {
        nulls[i] = true;
      } else if (wc->agg == CHV_AGG_AVG) {
        dv[i] = slide_real(&s) / (double)s.cnt;
        nulls[i] = false;
      } else if (rt->id == CHV_TYPE_DOUBLE) {
        dv[i] = slide_real(&s);
        nulls[i] = false;
      } else {
        iv[i] = (int64_t)s.isum;
        nulls[i] = false;
      }
    }
    ps = pe;
  }
  return CHV_OK;
}

/* An aggregate through the registry's states: a state growing with the
** frame's end when every frame starts at its partition's first row, else
** each row's frame added to its own group. */
static int agg_states(const struct sql_win_call *wc, struct wctx *c,
                      const struct chv_type *rt, struct chv_vector **out) {
  struct chv_error *err = c->err;
  const struct chv_vector *arg = c->w->harg[wc - c->w->calls];
  const struct chv_type *at = wc->arg ? wc->arg->type : NULL;
  bool grows = wc->start == CHV_SQL_FRAME_UNBOUNDED_PRECEDING;
  chv_agg_state *r = NULL, *acc = NULL;
  uint32_t *sel = NULL, *grp = NULL;
  struct chv_vector *v = NULL;
  int rc = chv_agg_state_open(wc->agg, at, rt, &r, err);
  if (rc == CHV_OK) rc = chv_agg_ensure_groups(r, c->n, err);
  if (rc == CHV_OK && !grows) {
    sel = malloc(sizeof *sel * WIN_PAIRS);
    grp = malloc(sizeof *grp * WIN_PAIRS);
    if (!sel || !grp) rc = oom(err);
  }
  int64_t np = 0, ps = 0;
  while (rc == CHV_OK && ps < c->n) {
    int64_t pe = ps + 1;
    while (pe < c->n && c->diff[pe] >= wc->npart) pe++;
    if (grows) {
      chv_agg_state_close(acc);
      acc = NULL;
      rc = chv_agg_state_open(wc->agg, at, rt, &acc, err);
      if (rc == CHV_OK) rc = chv_agg_ensure_groups(acc, 1, err);
      int64_t ch = ps - 1; /* acc holds [ps, ch] */
      for (int64_t i = ps; i < pe && rc == CHV_OK; i++) {
        int64_t hi = c->hi[i];
        /* the rows (ch, hi] join the frame */
        while (rc == CHV_OK && ch < hi) {
          uint32_t rows[256];
          int64_t q = hi - ch < 256 ? hi - ch : 256;
          for (int64_t t = 0; t < q; t++) rows[t] = (uint32_t)(ch + 1 + t);
          rc = chv_agg_update(acc, arg, rows, q, NULL, err);
          ch += q;
        }
        if (rc == CHV_OK && hi >= ps) {
          uint32_t g = (uint32_t)i;
          rc = chv_agg_merge(r, acc, &g, err);
        }
        if (rc == CHV_OK && i % WIN_CANCEL_EVERY == 0)
          rc = sql_exec_cancelled(c->w->op.x, err);
      }
    } else {
      for (int64_t i = ps; i < pe && rc == CHV_OK; i++) {
        for (int64_t j = c->lo[i]; j <= c->hi[i] && rc == CHV_OK; j++) {
          sel[np] = (uint32_t)j;
          grp[np++] = (uint32_t)i;
          if (np == WIN_PAIRS) {
            rc = chv_agg_update_rows(r, arg, sel, np, grp, err);
            np = 0;
          }
        }
        if (rc == CHV_OK && i % WIN_CANCEL_EVERY == 0)
          rc = sql_exec_cancelled(c->w->op.x, err);
      }
    }
    ps = pe;
  }
  if (rc == CHV_OK && np) rc = chv_agg_update_rows(r, arg, sel, np, grp, err);
  if (rc == CHV_OK) rc = chv_vector_open(rt, c->n, &v, err);
  if (rc == CHV_OK) rc = chv_agg_finalize(r, v, err);
  if (rc == CHV_OK) {
    *out = v;
    v = NULL;
  }
  chv_vector_close(v);
  chv_agg_state_close(r);
  chv_agg_state_close(acc);
  free(sel);
  free(grp);
  return rc;
}

/* Call j's values for the sorted rows into w->res[j]. */
static int compute_call(struct wctx *c, int j) {
  struct win_op *w = c->w;
  const struct sql_win_call *wc = &w->calls[j];
  const struct chv_type *rt = w->op.node->cols[w->ncols + j].type;
  int64_t n = c->n;
  int pk = wc->npart, ok = wc->npart + wc->norder;
  /* peer groups and frames, partition by partition */
  int64_t ps = 0;
  while (ps < n) {
    int64_t pe = ps + 1;
    while (pe < n && c->diff[pe] >= pk) pe++;
    for (int64_t i = ps; i < pe;) {
      int64_t e = i + 1;
      while (e < pe && c->diff[e] >= ok) e++;
      for (int64_t t = i; t < e; t++) c->gs[t] = i, c->ge[t] = e;
      i = e;
    }
    frames(wc, c, ps, pe);
    ps = pe;
  }
  int rc = CHV_OK;
  int64_t *iv = malloc(sizeof *iv * (size_t)(n + 1));
  double *dv = malloc(sizeof *dv * (size_t)(n + 1));
  bool *nulls = calloc((size_t)n + 1, sizeof *nulls);
  if (!iv || !dv || !nulls) {
    rc = oom(c->err);
    goto out;
  }
  if (wc->fn == SQL_WIN_AGG) {
    if (wc->start != CHV_SQL_FRAME_UNBOUNDED_PRECEDING && slides(wc)) {
      rc = agg_slide(wc, c, rt, iv, dv, nulls);
      if (rc == CHV_OK)
        rc = fill_numbers(rt, n, iv, dv, nulls, &w->res[j], c->err);
    } else {
      rc = agg_states(wc, c, rt, &w->res[j]);
    }
    goto out;
  }
  if (wc->skip_nulls)
    skip_rows(w->harg[j], n, wc->fn == SQL_WIN_FIRST_VALUE, iv);
  ps = 0;
  while (ps < n) {
    int64_t pe = ps + 1;
    while (pe < n && c->diff[pe] >= pk) pe++;
    rank_part(wc, c, ps, pe, iv, dv);
    if (ps / WIN_CANCEL_EVERY != pe / WIN_CANCEL_EVERY &&
        (rc = sql_exec_cancelled(w->op.x, c->err)) != CHV_OK)
      goto out;
    ps = pe;
  }
  switch (wc->fn) {
  case SQL_WIN_LAG:
  case SQL_WIN_LEAD:
  case SQL_WIN_FIRST_VALUE:
  case SQL_WIN_LAST_VALUE:
    rc = fill_rows(rt, n, c->src, w->harg[j], w->hdflt[j], &w->res[j],
                   c->err);
    break;
  default:
    rc = fill_numbers(rt, n, iv, dv, NULL, &w->res[j], c->err);
    break;
  }
out:
  free(iv);
  free(dv);
  free(nulls);
  return rc;
}

/* The held rows ordered (perm), keys and arguments gathered in that order,
** and diff[] of them; *diffp: malloc'ed. */
static int order_held(struct win_op *w, int **diffp, struct chv_error *err) {
  int64_t n = w->nheld;
  uint32_t *perm = realloc(w->perm, sizeof *perm * (size_t)(n + 1));
  if (!perm) return oom(err);
  w->perm = perm;
  CHV_RETURN_IF_ERR(
      sql_sort_perm(w->op.x, w->hkeys, w->keys, w->nkeys, n, perm, err));
  for (int k = 0; k < w->nkeys; k++)
    CHV_RETURN_IF_ERR(gather(&w->hkeys[k], perm, n, err));
  for (int j = 0; j < w->ncalls; j++) {
    CHV_RETURN_IF_ERR(gather(&w->harg[j], perm, n, err));
    CHV_RETURN_IF_ERR(gather(&w->hdflt[j], perm, n, err));
  }
  int *diff = malloc(sizeof *diff * (size_t)(n + 1));
  if (!diff) return oom(err);
  key_diffs(w->hkeys, w->keys, w->nkeys, n, diff);
  *diffp = diff;
  return CHV_OK;
}

/* The ranking value of the top-N's call for sorted rows [0, n): ROW_NUMBER,
** RANK or DENSE_RANK over the call's partition and order keys. */
static void limit_ranks(const struct sql_win_call *wc, const int *diff,
                        int64_t n, int64_t *rk) {
  int64_t ps = 0, gs = 0, dense = 0;
  for (int64_t i = 0; i < n; i++) {
    if (i == 0 || diff[i] < wc->npart) ps = i, gs = i, dense = 0;
    if (i == ps || diff[i] < wc->npart + wc->norder) gs = i, dense++;
    rk[i] = wc->fn == SQL_WIN_ROW_NUMBER ? i - ps + 1
            : wc->fn == SQL_WIN_RANK     ? gs - ps + 1
                                         : dense;
  }
}

/* Top-N while reading: the held rows sorted and cut to those whose
** ranking value is at most the limit (in their order, so that ties keep
** the order they came in). */
static int compact(struct win_op *w, struct chv_error *err) {
  int *diff = NULL;
  int64_t *rk = NULL;
  uint32_t *keep = NULL;
  int rc = order_held(w, &diff, err);
  int64_t n = w->nheld, m = 0;
  if (rc == CHV_OK) {
    rk = malloc(sizeof *rk * (size_t)(n + 1));
    keep = malloc(sizeof *keep * (size_t)(n + 1));
    if (!rk || !keep) rc = oom(err);
  }
  if (rc == CHV_OK) {
    const struct sql_node *nd = w->op.node;
    limit_ranks(&w->calls[nd->u.window.limit_call], diff, n, rk);
    for (int64_t i = 0; i < n; i++)
      if (rk[i] <= nd->u.window.limit) keep[m++] = (uint32_t)i;
    /* the input columns are still in their order: through perm */
    uint32_t *inrows = malloc(sizeof *inrows * (size_t)(m + 1));
    if (!inrows) rc = oom(err);
    for (int64_t i = 0; rc == CHV_OK && i < m; i++) inrows[i] = w->perm[keep[i]];
    for (int col = 0; rc == CHV_OK && col < w->ncols; col++)
      rc = gather(&w->held[col], inrows, m, err);
    free(inrows);
    for (int k = 0; rc == CHV_OK && k < w->nkeys; k++)
      rc = gather(&w->hkeys[k], keep, m, err);
    for (int j = 0; rc == CHV_OK && j < w->ncalls; j++) {
      rc = gather(&w->harg[j], keep, m, err);
      if (rc == CHV_OK) rc = gather(&w->hdflt[j], keep, m, err);
    }
  }
  if (rc == CHV_OK) {
    w->nheld = m;
    w->compact_at = 2 * m > WIN_COMPACT_MIN ? 2 * m : WIN_COMPACT_MIN;
  }
  free(diff);
  free(rk);
  free(keep);
  return rc;
}

/* Reads the input to its end, holding its rows. */
static int win_read(struct win_op *w, struct chv_error *err) {
  struct sql_op *in = w->op.in[0];
  bool topn = w->op.node->u.window.limit >= 0;
  for (;;) {
    CHV_RETURN_IF_ERR(sql_exec_cancelled(w->op.x, err));
    struct sql_chunk ch = {0};
    CHV_RETURN_IF_ERR(sql_op_next(in, &ch, err));
    if (!ch.b) break;
    if (ch.n <= 0) continue;
    if (ch.b->ncols < w->ncols)
      return chv_error_set(err, CHV_EINTERNAL,
                           "window: its input gave %d columns, not %d",
                           ch.b->ncols, w->ncols);
    if (w->nheld + ch.n > (int64_t)UINT32_MAX)
      return chv_error_set(err, CHV_ENOMEM,
                           "window (OVER): more than %lld rows to hold",
                           (long long)UINT32_MAX);
    for (int c = 0; c < w->ncols; c++)
      CHV_RETURN_IF_ERR(chv_vector_append_rows(w->held[c], ch.b->cols[c],
                                               ch.sel, 0, ch.n, err));
    for (int k = 0; k < w->nkeys; k++) {
      CHV_RETURN_IF_ERR(chv_expr_eval(w->keys[k].expr, ch.b, ch.sel, ch.n,
                                      w->ck[k], err));
      CHV_RETURN_IF_ERR(
          chv_vector_append_rows(w->hkeys[k], w->ck[k], NULL, 0, ch.n, err));
    }
    for (int j = 0; j < w->ncalls; j++) {
      const struct sql_win_call *wc = &w->calls[j];
      if (wc->arg) {
        CHV_RETURN_IF_ERR(
            chv_expr_eval(wc->arg, ch.b, ch.sel, ch.n, w->carg[j], err));
        CHV_RETURN_IF_ERR(chv_vector_append_rows(w->harg[j], w->carg[j],
                                                 NULL, 0, ch.n, err));
      }
      if (wc->dflt) {
        CHV_RETURN_IF_ERR(
            chv_expr_eval(wc->dflt, ch.b, ch.sel, ch.n, w->cdflt[j], err));
        CHV_RETURN_IF_ERR(chv_vector_append_rows(w->hdflt[j], w->cdflt[j],
                                                 NULL, 0, ch.n, err));
      }
    }
    w->nheld += ch.n;
    if (topn && w->nheld >= w->compact_at)
      CHV_RETURN_IF_ERR(compact(w, err));
    CHV_RETURN_IF_ERR(check_memory(w, err));
  }
  return CHV_OK;
}

/* Reads, sorts and computes every call; what is given is then ready. */
static int win_run(struct win_op *w, struct chv_error *err) {
  CHV_RETURN_IF_ERR(win_read(w, err));
  int64_t n = w->nheld;
  int *diff = NULL;
  int rc = order_held(w, &diff, err);
  struct wctx c = {w, n, diff, NULL, NULL, NULL, NULL, NULL, err};
  if (rc == CHV_OK) {
    c.gs = malloc(sizeof *c.gs * (size_t)(n + 1));
    c.ge = malloc(sizeof *c.ge * (size_t)(n + 1));
    c.lo = malloc(sizeof *c.lo * (size_t)(n + 1));
    c.hi = malloc(sizeof *c.hi * (size_t)(n + 1));
    c.src = malloc(sizeof *c.src * (size_t)(n + 1));
    if (!c.gs || !c.ge || !c.lo || !c.hi || !c.src) rc = oom(err);
  }
  for (int j = 0; j < w->ncalls && rc == CHV_OK; j++) rc = compute_call(&c, j);
  const struct sql_node *nd = w->op.node;
  w->ngive = n;
  if (rc == CHV_OK && nd->u.window.limit >= 0) {
    /* the top-N: the rows whose ranking call is within the limit */
    const struct chv_vector *r = w->res[nd->u.window.limit_call];
    w->emit = malloc(sizeof *w->emit * (size_t)(n + 1));
    if (!w->emit) rc = oom(err);
    int64_t m = 0;
    for (int64_t i = 0; rc == CHV_OK && i < n; i++)
      if (((const int64_t *)r->data)[i] <= nd->u.window.limit)
        w->emit[m++] = (uint32_t)i;
    w->ngive = m;
  }
  if (rc == CHV_OK) {
    w->rows = malloc(sizeof *w->rows * WIN_OUT_ROWS);
    if (!w->rows) rc = oom(err);
  }
  free(diff);
  free(c.gs);
  free(c.ge);
  free(c.lo);
  free(c.hi);
  free(c.src);
  /* the keys and arguments have served */
  for (int k = 0; k < w->nkeys; k++) {
    chv_vector_close(w->hkeys[k]);
    w->hkeys[k] = NULL;
  }
  for (int j = 0; j < w->ncalls; j++) {
    chv_vector_close(w->harg[j]);
    chv_vector_close(w->hdflt[j]);
    w->harg[j] = w->hdflt[j] = NULL;
  }
  return rc;
}

/* ---- the operator ------------------------------------------------------- */

static int win_open(struct sql_op *op, struct chv_error *err) {
  struct win_op *w = (struct win_op *)op;
  if (op->nin != 1 || !op->in[0])
    return chv_error_set(err, CHV_EINTERNAL, "window: no input");
  if (!op->in[0]->opened) CHV_RETURN_IF_ERR(sql_op_open(op->in[0], err));
  const struct sql_node *nd = op->node, *inn = nd->in[0];
  size_t nv = (size_t)(w->ncols + 2 * w->nkeys + 5 * w->ncalls) + 1;
  struct chv_vector **v = calloc(nv, sizeof *v);
  if (!v) return oom(err);
  w->held = v;
  w->hkeys = w->held + w->ncols;
  w->ck = w->hkeys + w->nkeys;
  w->harg = w->ck + w->nkeys;
  w->hdflt = w->harg + w->ncalls;
  w->carg = w->hdflt + w->ncalls;
  w->cdflt = w->carg + w->ncalls;
  w->res = w->cdflt + w->ncalls;
  for (int c = 0; c < w->ncols; c++)
    CHV_RETURN_IF_ERR(chv_vector_open(inn->cols[c].type, 0, &w->held[c], err));
  for (int k = 0; k < w->nkeys; k++) {
    const struct chv_type *t = w->keys[k].expr->type;
    CHV_RETURN_IF_ERR(chv_vector_open(t, 0, &w->hkeys[k], err));
    CHV_RETURN_IF_ERR(chv_vector_open(t, 0, &w->ck[k], err));
  }
  for (int j = 0; j < w->ncalls; j++) {
    const struct sql_win_call *wc = &w->calls[j];
    if (wc->arg) {
      CHV_RETURN_IF_ERR(chv_vector_open(wc->arg->type, 0, &w->harg[j], err));
      CHV_RETURN_IF_ERR(chv_vector_open(wc->arg->type, 0, &w->carg[j], err));
    }
    if (wc->dflt) {
      CHV_RETURN_IF_ERR(chv_vector_open(wc->dflt->type, 0, &w->hdflt[j], err));
      CHV_RETURN_IF_ERR(chv_vector_open(wc->dflt->type, 0, &w->cdflt[j], err));
    }
  }
  CHV_RETURN_IF_ERR(sql_node_schema(nd, &w->schema, err));
  return chv_batch_open(w->schema, WIN_OUT_ROWS, &w->ob, err);
}

/* The next chunk of the rows (the input read and computed on the first
** call). */
static int win_give(struct win_op *w, struct sql_chunk *out,
                    struct chv_error *err) {
  out->b = NULL;
  out->sel = NULL;
  out->n = 0;
  CHV_RETURN_IF_ERR(sql_exec_cancelled(w->op.x, err));
  if (!w->read) {
    w->read = true;
    CHV_RETURN_IF_ERR(win_run(w, err));
  }
  if (w->at >= w->ngive) return CHV_OK;
  int64_t k = w->ngive - w->at < WIN_OUT_ROWS ? w->ngive - w->at
                                              : WIN_OUT_ROWS;
  const uint32_t *pos = w->emit ? w->emit + w->at : NULL;
  for (int64_t i = 0; i < k; i++)
    w->rows[i] = w->perm[pos ? pos[i] : (uint32_t)(w->at + i)];
  chv_batch_reset(w->ob);
  for (int c = 0; c < w->ncols; c++)
    CHV_RETURN_IF_ERR(chv_vector_append_rows(w->ob->cols[c], w->held[c],
                                             w->rows, 0, k, err));
  for (int j = 0; j < w->ncalls; j++)
    CHV_RETURN_IF_ERR(chv_vector_append_rows(w->ob->cols[w->ncols + j],
                                             w->res[j], pos, w->at, k, err));
  w->ob->nrows = k;
  w->at += k;
  out->b = w->ob;
  out->n = k;
  return CHV_OK;
}

static int win_next(struct sql_op *op, struct sql_chunk *out,
                    struct chv_error *err) {
  struct win_op *w = (struct win_op *)op;
  int64_t t0 = op->x->analyze ? sql_exec_now() : 0;
  int rc = win_give(w, out, err);
  if (op->x->analyze)
    sql_op_count(op, rc == CHV_OK && out->b ? out->n : 0,
                 sql_exec_now() - t0);
  return rc;
}

static void win_close(struct sql_op *op) {
  struct win_op *w = (struct win_op *)op;
  if (!w) return;
  if (w->held) {
    int nv = w->ncols + 2 * w->nkeys + 5 * w->ncalls;
    for (int i = 0; i < nv; i++) chv_vector_close(w->held[i]);
  }
  free(w->held);
  w->held = NULL;
  free(w->perm);
  free(w->emit);
  free(w->rows);
  w->perm = w->emit = w->rows = NULL;
  chv_batch_close(w->ob);
  w->ob = NULL;
  chv_type_free(w->schema);
  w->schema = NULL;
}

static const struct sql_op_vt win_vt = {win_open, win_next, win_close};

int sql_op_window_new(struct sql_exec *x, const struct sql_node *nd,
                      struct sql_op **out, struct chv_error *err) {
  if (nd->kind != SQL_NODE_WINDOW || nd->nin != 1 ||
      nd->in[0]->ncols + nd->u.window.ncalls != nd->ncols)
    return chv_error_set(err, CHV_EINTERNAL, "window: not a Window node");
  for (int j = 0; j < nd->u.window.ncalls; j++) {
    const struct sql_win_call *wc = &nd->u.window.calls[j];
    if (wc->npart + wc->norder > nd->u.window.nkeys ||
        (wc->fn == SQL_WIN_NTILE && wc->n < 1) ||
        ((wc->fn == SQL_WIN_LAG || wc->fn == SQL_WIN_LEAD) && wc->n < 0) ||
        (wc->fn != SQL_WIN_AGG && wc->fn >= SQL_WIN_LAG && !wc->arg) ||
        (wc->dflt && !chv_type_equal(wc->dflt->type, nd->cols[nd->in[0]->ncols + j].type)))
      return chv_error_set(err, CHV_EINTERNAL, "window: call %d is malformed",
                           j);
  }
  if (nd->u.window.limit >= 0) {
    int lc = nd->u.window.limit_call;
    enum sql_win_fn f = lc >= 0 && lc < nd->u.window.ncalls
                            ? nd->u.window.calls[lc].fn
                            : SQL_WIN_AGG;
    if (f != SQL_WIN_ROW_NUMBER && f != SQL_WIN_RANK && f != SQL_WIN_DENSE_RANK)
      return chv_error_set(err, CHV_EINTERNAL,
                           "window: the limit's call is not a ranking");
  }
  struct win_op *w = calloc(1, sizeof *w);
  if (!w) return oom(err);
  w->op.vt = &win_vt;
  w->op.node = nd;
  w->op.x = x;
  w->keys = nd->u.window.keys;
  w->nkeys = nd->u.window.nkeys;
  w->calls = nd->u.window.calls;
  w->ncalls = nd->u.window.ncalls;
  w->ncols = nd->in[0]->ncols;
  w->compact_at = WIN_COMPACT_MIN;
  *out = &w->op;
  return CHV_OK;
}
