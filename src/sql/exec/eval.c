/*
** sql/exec eval.c: evaluating expression trees over batches.
**
** Each node is evaluated for a selection of input rows into a dense vector
** (row j of the result is input row sel[j]).  Children are evaluated first
** into operands (struct opnd): a dense vector, or a constant for literals
** (never broadcast), or, for a column with no selection, the column itself
** (no copy).  The kernels of the hot operators (arithmetic and comparisons
** on integers, floating point and decimals, string equality) are loops per
** C type and operand shape (vector/vector, vector/constant,
** constant/vector) with no per-row dispatch; validity bitmaps are combined
** a byte at a time.  CAST, IN, CASE, COALESCE and LIKE go a row at a
** time through the value helpers.  A call of a registered function hands
** its arguments to the function's kernel (src/sql/func) as they are: a
** literal as a constant, a column with the selection (no copy), anything
** else evaluated densely first.
**
** chv_expr_filter() turns a predicate into a selection: AND narrows the
** selection for its right side, OR filters its right side on the rows the
** left did not keep, and a column compared with a literal of an INT, DATE,
** BIGINT or DOUBLE column, or two columns of one such type, is a single
** branch-free loop over the column.
**
** INTERFACE: chv_expr_eval(), chv_expr_filter(), chv_expr_total().
*/
#include "sql/exec/exec_int.h"

#include <math.h>
#include <stdlib.h>

union konst {
  int8_t i8;
  int16_t i16;
  int32_t i32;
  int64_t i64;
  float f32;
  double f64;
  chv_i128 dec;
  struct chv_timestamp ts;
  uint8_t b;
};

/* An evaluated child. */
struct opnd {
  const struct chv_vector *v; /* dense rows 0..n-1; NULL when constant */
  struct chv_vector *own;     /* v when we allocated it */
  bool is_const;
  bool const_null;
  union konst k;              /* the constant (non-string types) */
  const char *s;              /* the constant (string types) */
  int64_t slen;
};

static int oom(struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory evaluating an "
                       "expression");
}

static int64_t bm_bytes(int64_t n) { return (n + 7) / 8; }

static void set_konst(const struct chv_type *t, const struct chv_value *v,
                      union konst *k) {
  memset(k, 0, sizeof *k);
  switch (t->id) {
  case CHV_TYPE_BOOLEAN: k->b = v->b; break;
  case CHV_TYPE_TINYINT: k->i8 = (int8_t)v->i64; break;
  case CHV_TYPE_SMALLINT: k->i16 = (int16_t)v->i64; break;
  case CHV_TYPE_INT:
  case CHV_TYPE_DATE: k->i32 = (int32_t)v->i64; break;
  case CHV_TYPE_BIGINT: k->i64 = v->i64; break;
  case CHV_TYPE_FLOAT: k->f32 = (float)v->f64; break;
  case CHV_TYPE_DOUBLE: k->f64 = v->f64; break;
  case CHV_TYPE_DECIMAL: k->dec = v->dec; break;
  case CHV_TYPE_TIMESTAMP: k->ts = v->ts; break;
  default: break;
  }
}

/* A child's dense result lives for one node's evaluation of one batch.
** Its values go in a scratch block of the thread (chv_scratch_take()): a
** buffer malloc'd and freed per batch takes fresh pages from the system
** each time (a batch of decimals is past malloc's mmap threshold, and the
** page faults cost more than the arithmetic).  Only fixed-width types
** without children; the others are opened as usual. */
static size_t scratch_width(const struct chv_type *t) {
  if (t->nchildren > 0 || t->id == CHV_TYPE_BOOLEAN ||
      chv_type_is_string_like(t->id))
    return 0;
  return chv_type_fixed_width(t->id);
}

static int vector_take(const struct chv_type *t, int64_t n,
                       struct chv_vector **out, struct chv_error *err) {
  size_t w = scratch_width(t), cap;
  if (w == 0 || n <= 0) return chv_vector_open(t, n, out, err);
  CHV_RETURN_IF_ERR(chv_vector_open(t, 0, out, err));
  void *p = chv_scratch_take((size_t)n * w, &cap);
  if (p == NULL) {
    chv_vector_close(*out);
    *out = NULL;
    return oom(err);
  }
  chv_free((*out)->data);
  (*out)->data = p;
  (*out)->capacity = (int64_t)(cap / w);
  return CHV_OK;
}

static void vector_give(struct chv_vector *v) {
  size_t w;
  if (v != NULL && (w = scratch_width(v->type)) > 0 && v->data != NULL) {
    chv_scratch_give(v->data, (size_t)v->capacity * w);
    v->data = NULL;
  }
  chv_vector_close(v);
}

static void opnd_free(struct opnd *o) {
  vector_give(o->own);
  o->own = NULL;
}

static int eval_node(const struct chv_expr *e, const struct chv_batch *in,
                     const uint32_t *sel, int64_t n, struct chv_vector *out,
                     struct chv_error *err);

static int opnd_eval(const struct chv_expr *e, const struct chv_batch *in,
                     const uint32_t *sel, int64_t n, struct opnd *o,
                     struct chv_error *err) {
  memset(o, 0, sizeof *o);
  if (e->kind == CHV_EXPR_LITERAL) {
    o->is_const = true;
    o->const_null = e->value.is_null;
    set_konst(e->type, &e->value, &o->k);
    o->s = e->value.str;
    o->slen = e->value.len;
    return CHV_OK;
  }
  if (e->kind == CHV_EXPR_COLUMN && sel == NULL) {
    if (e->column >= in->ncols)
      return chv_error_set(err, CHV_EINVAL, "column %d of a batch of %d",
                           e->column, in->ncols);
    o->v = in->cols[e->column];
    return CHV_OK;
  }
  int rc = vector_take(e->type, n, &o->own, err);
  if (rc != CHV_OK) return rc;
  o->v = o->own;
  rc = eval_node(e, in, sel, n, o->own, err);
  if (rc != CHV_OK) opnd_free(o);
  return rc;
}

/* Validity of out, allocated all valid on first use; NULL on OOM. */
static uint8_t *out_validity(struct chv_vector *out) {
  if (out->validity == NULL) {
    int64_t nb = bm_bytes(out->capacity);
    out->validity = chv_malloc((size_t)(nb > 0 ? nb : 1));
    if (out->validity == NULL) return NULL;
    memset(out->validity, 0xff, (size_t)(nb > 0 ? nb : 1));
  }
  return out->validity;
}

/* null_count of rows 0..n-1 from the bitmap. */
static void finish_nulls(struct chv_vector *out, int64_t n) {
  out->null_count = 0;
  if (out->validity == NULL) return;
  int64_t full = n / 8, nulls = 0;
  for (int64_t i = 0; i < full; i++)
    nulls += 8 - __builtin_popcount(out->validity[i]);
  for (int64_t i = full * 8; i < n; i++)
    nulls += !chv_bit_get(out->validity, i);
  out->null_count = nulls;
}

/* Reset out and size it for n fixed-width rows. */
static int start_out(struct chv_vector *out, int64_t n, struct chv_error *err) {
  chv_vector_reset(out);
  CHV_RETURN_IF_ERR(chv_vector_reserve(out, n > 0 ? n : 1, err));
  out->length = n;
  if (out->type->id == CHV_TYPE_BOOLEAN && n > 0)
    memset(out->data, 0, (size_t)bm_bytes(n));
  return CHV_OK;
}

/* out's validity = AND of the operands' (a constant NULL: all NULL). */
static int combine_validity(struct chv_vector *out, int64_t n,
                            const struct opnd *ops, int nops,
                            struct chv_error *err) {
  int64_t nb = bm_bytes(n);
  bool first = true;
  for (int i = 0; i < nops; i++) {
    const struct opnd *o = &ops[i];
    if (o->is_const && !o->const_null) continue;
    if (!o->is_const && o->v->validity == NULL) continue;
    uint8_t *ov = out_validity(out);
    if (ov == NULL) return oom(err);
    if (o->is_const) {
      memset(ov, 0, (size_t)nb);
      first = false;
    } else if (first) {
      memcpy(ov, o->v->validity, (size_t)nb);
      first = false;
    } else {
      const uint8_t *iv = o->v->validity;
      for (int64_t j = 0; j < nb; j++) ov[j] &= iv[j];
    }
  }
  return CHV_OK;
}

static inline bool opnd_null(const struct opnd *o, int64_t i) {
  return o->is_const ? o->const_null : chv_vector_is_null(o->v, i);
}

static inline void opnd_str(const struct opnd *o, int64_t i, const char **p,
                            int64_t *n) {
  if (o->is_const) {
    *p = o->s;
    *n = o->slen;
  } else {
    *p = o->v->bytes + o->v->offsets[i];
    *n = o->v->offsets[i + 1] - o->v->offsets[i];
  }
}

static void opnd_value(const struct opnd *o, const struct chv_expr *e,
                       int64_t i, struct chv_value *v) {
  if (o->is_const)
    *v = e->value;
  else
    chv_func_get_value(o->v, i, v);
}

/* ---- COLUMN and LITERAL --------------------------------------------------- */

static int gather(const struct chv_vector *src, const uint32_t *sel,
                  int64_t n, struct chv_vector *out, struct chv_error *err) {
  chv_vector_reset(out);
  CHV_RETURN_IF_ERR(chv_vector_reserve(out, n > 0 ? n : 1, err));
  enum chv_type_id id = src->type->id;
  if (!chv_type_is_primitive(id)) { /* ARRAY, MAP, STRUCT: value by value */
    for (int64_t i = 0; i < n; i++)
      CHV_RETURN_IF_ERR(chv_vector_append_from(out, src, sel ? sel[i] : i, err));
    return CHV_OK;
  }
  if (chv_type_is_string_like(id) && sel == NULL) {
    /* Rows [0, n): their bytes in one move, the offsets shifted. */
    const int32_t *so = src->offsets;
    int32_t base = n > 0 ? so[0] : 0, total = n > 0 ? so[n] - base : 0;
    CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(out, total, err));
    if (total) memcpy(out->bytes, src->bytes + base, (size_t)total);
    int32_t *oo = out->offsets;
    oo[0] = 0;
    for (int64_t i = 0; i < n; i++) oo[i + 1] = so[i + 1] - base;
    out->bytes_len = total;
  } else if (chv_type_is_string_like(id)) {
    int64_t total = 0;
    for (int64_t i = 0; i < n; i++) {
      int64_t r = sel[i];
      total += src->offsets[r + 1] - src->offsets[r];
    }
    /* 16 bytes of slack: short values move as one 16-byte word. */
    CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(out, total + 16, err));
    int32_t off = 0;
    int64_t scap = src->bytes_cap;
    out->offsets[0] = 0;
    for (int64_t i = 0; i < n; i++) {
      int64_t r = sel[i];
      int32_t lo = src->offsets[r], len = src->offsets[r + 1] - lo;
      if (len <= 16 && scap - lo >= 16)
        memcpy(out->bytes + off, src->bytes + lo, 16);
      else if (len)
        memcpy(out->bytes + off, src->bytes + lo, (size_t)len);
      off += len;
      out->offsets[i + 1] = off;
    }
    out->bytes_len = off;
  } else if (id == CHV_TYPE_BOOLEAN) {
    uint8_t *d = out->data;
    memset(d, 0, (size_t)bm_bytes(n));
    for (int64_t i = 0; i < n; i++)
      if (chv_bit_get(src->data, sel ? sel[i] : i)) chv_bit_set(d, i, true);
  } else {
    size_t w = chv_type_fixed_width(id);
#define GATHER_(T)                                                            \
  do {                                                                        \
    const T *x = src->data;                                                   \
    T *y = out->data;                                                         \
    if (sel)                                                                  \
      for (int64_t i = 0; i < n; i++) y[i] = x[sel[i]];                       \
    else                                                                      \
      memcpy(y, x, (size_t)n * sizeof(T));                                    \
  } while (0)
    switch (w) {
    case 1: GATHER_(int8_t); break;
    case 2: GATHER_(int16_t); break;
    case 4: GATHER_(int32_t); break;
    case 8: GATHER_(int64_t); break;
    default: GATHER_(chv_i128); break; /* decimal and timestamp: 16 */
    }
#undef GATHER_
  }
  out->length = n;
  if (src->validity && src->null_count > 0) {
    uint8_t *ov = out_validity(out);
    if (ov == NULL) return oom(err);
    for (int64_t i = 0; i < n; i++)
      if (!chv_bit_get(src->validity, sel ? sel[i] : i)) chv_bit_set(ov, i, false);
    finish_nulls(out, n);
  }
  return CHV_OK;
}

static int eval_literal(const struct chv_expr *e, int64_t n,
                        struct chv_vector *out, struct chv_error *err) {
  chv_vector_reset(out);
  CHV_RETURN_IF_ERR(chv_vector_reserve(out, n > 0 ? n : 1, err));
  for (int64_t i = 0; i < n; i++)
    CHV_RETURN_IF_ERR(chv_func_append_value(out, &e->value, err));
  return CHV_OK;
}

/* ---- arithmetic ----------------------------------------------------------- */

/* Three loops, one per operand shape; EXPR computes from A and B. */
#define BIN_LOOP(T, RT, EXPR)                                                 \
  do {                                                                        \
    RT *r_ = (RT *)out->data;                                                 \
    if (!a->is_const && !b->is_const) {                                       \
      const T *x_ = a->v->data, *y_ = b->v->data;                             \
      for (int64_t i = 0; i < n; i++) {                                       \
        T A = x_[i], B = y_[i];                                               \
        (void)A;                                                              \
        r_[i] = (EXPR);                                                       \
      }                                                                       \
    } else if (!a->is_const) {                                                \
      const T *x_ = a->v->data;                                               \
      T B = *(const T *)&b->k;                                                \
      for (int64_t i = 0; i < n; i++) {                                       \
        T A = x_[i];                                                          \
        (void)A;                                                              \
        r_[i] = (EXPR);                                                       \
      }                                                                       \
    } else {                                                                  \
      const T *y_ = b->is_const ? (const T *)&b->k : b->v->data;              \
      int64_t sy_ = b->is_const ? 0 : 1;                                      \
      T A = *(const T *)&a->k;                                                \
      for (int64_t i = 0; i < n; i++) {                                       \
        T B = y_[i * sy_];                                                    \
        (void)A;                                                              \
        r_[i] = (EXPR);                                                       \
      }                                                                       \
    }                                                                         \
  } while (0)

/* NULL where the divisor is zero (T's zero). */
#define NULL_ON_ZERO(T)                                                       \
  do {                                                                        \
    uint8_t *ov_ = out_validity(out);                                         \
    if (ov_ == NULL) {                                                        \
      rc = oom(err);                                                          \
      goto out_free;                                                          \
    }                                                                         \
    if (b->is_const) {                                                        \
      if (*(const T *)&b->k == 0) memset(ov_, 0, (size_t)bm_bytes(n));        \
    } else {                                                                  \
      const T *y_ = b->v->data;                                               \
      for (int64_t i = 0; i < n; i++)                                         \
        if (y_[i] == 0) chv_bit_set(ov_, i, false);                           \
    }                                                                         \
  } while (0)

/* Integer kernels: Java's wrapping arithmetic through the unsigned type W. */
#define INT_ARITH(T, W)                                                       \
  do {                                                                        \
    switch (fn) {                                                             \
    case CHV_FN_ADD: BIN_LOOP(T, T, (T)((W)A + (W)B)); break;                 \
    case CHV_FN_SUB: BIN_LOOP(T, T, (T)((W)A - (W)B)); break;                 \
    case CHV_FN_MUL: BIN_LOOP(T, T, (T)((W)A * (W)B)); break;                 \
    case CHV_FN_MOD:                                                          \
      BIN_LOOP(T, T, (T)(B == 0 || B == -1 ? 0 : A % B));                     \
      NULL_ON_ZERO(T);                                                        \
      break;                                                                  \
    case CHV_FN_IDIV:                                                         \
      BIN_LOOP(T, T, (T)(B == 0 ? 0 : B == -1 ? (T)(0 - (W)A) : A / B));      \
      NULL_ON_ZERO(T);                                                        \
      break;                                                                  \
    default: rc = CHV_EINTERNAL; goto out_free;                               \
    }                                                                         \
  } while (0)

#define FLT_ARITH(T)                                                          \
  do {                                                                        \
    switch (fn) {                                                             \
    case CHV_FN_ADD: BIN_LOOP(T, T, A + B); break;                            \
    case CHV_FN_SUB: BIN_LOOP(T, T, A - B); break;                            \
    case CHV_FN_MUL: BIN_LOOP(T, T, A * B); break;                            \
    case CHV_FN_DIV:                                                          \
      BIN_LOOP(T, T, B == 0 ? 0 : A / B);                                     \
      NULL_ON_ZERO(T);                                                        \
      break;                                                                  \
    case CHV_FN_MOD:                                                          \
      BIN_LOOP(T, T, B == 0 ? 0 : (T)fmod(A, B));                             \
      NULL_ON_ZERO(T);                                                        \
      break;                                                                  \
    default: rc = CHV_EINTERNAL; goto out_free;                               \
    }                                                                         \
  } while (0)

static bool dec_op(enum chv_fn fn, chv_i128 x, int s1, chv_i128 y, int s2,
                   int p, int s, chv_i128 *r) {
  chv_i128 t;
  int sm = CHV_MAX(s1, s2);
  switch (fn) {
  case CHV_FN_ADD:
  case CHV_FN_SUB:
  case CHV_FN_MOD:
    if (!chv_func_dec_rescale(x, s1, sm, &x) ||
        !chv_func_dec_rescale(y, s2, sm, &y))
      return false;
    if (fn == CHV_FN_MOD) {
      if (y == 0) return false;
      t = x % y;
    } else if (fn == CHV_FN_ADD ? __builtin_add_overflow(x, y, &t)
                                : __builtin_sub_overflow(x, y, &t)) {
      return false;
    }
    if (!chv_func_dec_rescale(t, sm, s, &t)) return false;
    break;
  case CHV_FN_MUL:
    if (__builtin_mul_overflow(x, y, &t)) return false;
    if (!chv_func_dec_rescale(t, s1 + s2, s, &t)) return false;
    break;
  case CHV_FN_DIV: {
    if (y == 0) return false;
    int k = s - s1 + s2;
    if (k >= 0) {
      if (k > 38 || __builtin_mul_overflow(x, chv_decimal_pow10(k), &x))
        return false;
    } else if (-k > 38 || __builtin_mul_overflow(y, chv_decimal_pow10(-k), &y)) {
      return false;
    }
    t = chv_func_div_round(x, y);
    break;
  }
  default:
    return false;
  }
  if (!chv_func_dec_fits(t, p)) return false;
  *r = t;
  return true;
}

/* The common decimal operations without a call or an overflow test per
** value: x + y, x - y at one scale and x * y at the scale s1 + s2, when
** operands within their precisions cannot overflow 128 bits.  The result
** is still tested against precision p (wrapping unsigned arithmetic keeps a
** value out of its operand's precision defined, and it fails that test or
** is as wrong as its input).  1 when done, 0 when the shape is not one of
** these (the caller takes the general loop), -1 out of memory. */
/* x * y at the scale s1 + s2 where the types do not rule out an overflow:
** the product of operands that fit 64 bits cannot overflow, and takes one
** multiplication; the others take dec_op()'s tests. */
static int dec_mul_narrow(const struct opnd *a, const struct opnd *b, int p,
                          int64_t n, chv_i128 *r, struct chv_vector *out) {
  const chv_i128 *x = a->is_const ? &a->k.dec : a->v->data;
  const chv_i128 *y = b->is_const ? &b->k.dec : b->v->data;
  int64_t sx = a->is_const ? 0 : 1, sy = b->is_const ? 0 : 1;
  chv_i128 lim = chv_decimal_pow10(p);
  uint8_t *v = out->validity;
  for (int64_t i = 0; i < n; i++) {
    if (v && !chv_bit_get(v, i)) {
      r[i] = 0;
      continue;
    }
    chv_i128 xi = x[i * sx], yi = y[i * sy], t;
    bool ok;
    if (xi == (int64_t)xi && yi == (int64_t)yi) {
      t = (chv_i128)(int64_t)xi * (int64_t)yi;
      ok = true;
    } else {
      ok = !__builtin_mul_overflow(xi, yi, &t);
    }
    if (ok && t < lim && t > -lim) {
      r[i] = t;
    } else {
      r[i] = 0;
      if ((v = out_validity(out)) == NULL) return -1;
      chv_bit_set(v, i, false);
    }
  }
  return 1;
}

static int dec_fast(enum chv_fn fn, const struct opnd *a,
                    const struct opnd *b, int s1, int s2, int p1, int p2,
                    int p, int s, int64_t n, chv_i128 *r,
                    struct chv_vector *out) {
  typedef unsigned __int128 u128;
  u128 mx = 1, my = 1;
  switch (fn) {
  case CHV_FN_ADD:
  case CHV_FN_SUB: {
    int sm = CHV_MAX(s1, s2);
    if (s != sm || CHV_MAX(p1 - s1, p2 - s2) + sm + 1 > 38) return 0;
    mx = (u128)chv_decimal_pow10(sm - s1);
    my = (u128)chv_decimal_pow10(sm - s2);
    if (fn == CHV_FN_SUB) my = -my; /* x*mx + y*(-my), modulo 2^128 */
    break;
  }
  case CHV_FN_MUL:
    if (s != s1 + s2) return 0;
    if (p1 + p2 > 38) return dec_mul_narrow(a, b, p, n, r, out);
    break;
  default:
    return 0;
  }
  /* the operand shapes of BIN_LOOP (a constant read once, not per row);
  ** a product of operands of at most 18 digits takes one 64-bit multiply,
  ** and a sum at one scale no scaling multiply */
  if (fn == CHV_FN_MUL && p1 <= 18 && p2 <= 18)
    BIN_LOOP(chv_i128, chv_i128, (chv_i128)(int64_t)A * (int64_t)B);
  else if (fn == CHV_FN_MUL)
    BIN_LOOP(chv_i128, chv_i128, (chv_i128)((u128)A * (u128)B));
  else if (mx == 1 && my == 1)
    BIN_LOOP(chv_i128, chv_i128, (chv_i128)((u128)A + (u128)B));
  else if (mx == 1 && my == (u128)-1)
    BIN_LOOP(chv_i128, chv_i128, (chv_i128)((u128)A - (u128)B));
  else
    BIN_LOOP(chv_i128, chv_i128, (chv_i128)((u128)A * mx + (u128)B * my));
  /* NULL operands gave some value: zero them; values past p are NULL
  ** (none can be when p holds every sum or product of the operands'
  ** precisions) */
  bool fits = fn == CHV_FN_MUL
                  ? p1 + p2 <= p
                  : CHV_MAX(p1 - s1, p2 - s2) + CHV_MAX(s1, s2) + 1 <= p;
  uint8_t *v = out->validity;
  if (fits) {
    for (int64_t i = 0; v && i < n; i++)
      if (!chv_bit_get(v, i)) r[i] = 0;
    return 1;
  }
  chv_i128 lim = chv_decimal_pow10(p);
  for (int64_t i = 0; i < n; i++) {
    if (v && !chv_bit_get(v, i)) {
      r[i] = 0;
    } else if (r[i] >= lim || r[i] <= -lim) {
      r[i] = 0;
      if ((v = out_validity(out)) == NULL) return -1;
      chv_bit_set(v, i, false);
    }
  }
  return 1;
}

static int eval_arith(const struct chv_expr *e, const struct chv_batch *in,
                      const uint32_t *sel, int64_t n, struct chv_vector *out,
                      struct chv_error *err) {
  struct opnd ops[2];
  int nops = e->nargs;
  int rc = opnd_eval(e->args[0], in, sel, n, &ops[0], err);
  if (rc != CHV_OK) return rc;
  if (nops == 2) {
    rc = opnd_eval(e->args[1], in, sel, n, &ops[1], err);
    if (rc != CHV_OK) goto out_free_a;
  }
  rc = start_out(out, n, err);
  if (rc == CHV_OK) rc = combine_validity(out, n, ops, nops, err);
  if (rc != CHV_OK) goto out_free;
  {
    const struct opnd *a = &ops[0], *b = &ops[1];
    enum chv_fn fn = e->fn;
    if (nops == 1) { /* unary minus: same type */
      struct opnd zero = {.is_const = true};
      const struct opnd *z = &zero;
      /* r = 0 - A, Java's wrapping negation for integers */
      b = a;
      a = z;
#define UNARY_(T, W) BIN_LOOP(T, T, (T)((W)0 - (W)B))
      switch (e->type->id) {
      case CHV_TYPE_TINYINT: UNARY_(int8_t, uint32_t); break;
      case CHV_TYPE_SMALLINT: UNARY_(int16_t, uint32_t); break;
      case CHV_TYPE_INT: UNARY_(int32_t, uint32_t); break;
      case CHV_TYPE_BIGINT: UNARY_(int64_t, uint64_t); break;
      case CHV_TYPE_FLOAT: BIN_LOOP(float, float, -B); break;
      case CHV_TYPE_DOUBLE: BIN_LOOP(double, double, -B); break;
      case CHV_TYPE_DECIMAL: BIN_LOOP(chv_i128, chv_i128, -B); break;
      default: break;
      }
#undef UNARY_
      rc = CHV_OK;
      goto out_done;
    }
    switch (e->type->id) {
    case CHV_TYPE_TINYINT: INT_ARITH(int8_t, uint32_t); break;
    case CHV_TYPE_SMALLINT: INT_ARITH(int16_t, uint32_t); break;
    case CHV_TYPE_INT: INT_ARITH(int32_t, uint32_t); break;
    case CHV_TYPE_BIGINT: INT_ARITH(int64_t, uint64_t); break;
    case CHV_TYPE_FLOAT: FLT_ARITH(float); break;
    case CHV_TYPE_DOUBLE: FLT_ARITH(double); break;
    case CHV_TYPE_DECIMAL: {
      int s1 = e->args[0]->type->scale, s2 = e->args[1]->type->scale;
      int p = e->type->precision, s = e->type->scale;
      const chv_i128 *x = a->is_const ? &a->k.dec : a->v->data;
      const chv_i128 *y = b->is_const ? &b->k.dec : b->v->data;
      int64_t sx = a->is_const ? 0 : 1, sy = b->is_const ? 0 : 1;
      chv_i128 *r = out->data;
      uint8_t *ov = out->validity;
      int fast = dec_fast(fn, a, b, s1, s2, e->args[0]->type->precision,
                          e->args[1]->type->precision, p, s, n, r, out);
      if (fast < 0) {
        rc = oom(err);
        goto out_free;
      }
      if (fast) break;
      for (int64_t i = 0; i < n; i++) {
        if (ov && !chv_bit_get(ov, i)) {
          r[i] = 0;
          continue;
        }
        if (!dec_op(fn, x[i * sx], s1, y[i * sy], s2, p, s, &r[i])) {
          r[i] = 0;
          if ((ov = out_validity(out)) == NULL) {
            rc = oom(err);
            goto out_free;
          }
          chv_bit_set(ov, i, false);
        }
      }
      break;
    }
    default:
      rc = chv_error_set(err, CHV_EINTERNAL, "arithmetic on %s",
                         chv_type_id_name(e->type->id));
      goto out_free;
    }
    rc = CHV_OK;
  }
out_done:
  finish_nulls(out, n);
out_free:
  if (nops == 2) opnd_free(&ops[1]);
out_free_a:
  opnd_free(&ops[0]);
  return rc;
}

/* ---- comparisons ---------------------------------------------------------- */

#define CMP_LOOP(T, OP)                                                       \
  do {                                                                        \
    if (!a->is_const && !b->is_const) {                                       \
      const T *x_ = a->v->data, *y_ = b->v->data;                             \
      for (int64_t i = 0; i < n; i++)                                         \
        d[i >> 3] |= (uint8_t)((x_[i] OP y_[i]) << (i & 7));                  \
    } else if (!a->is_const) {                                                \
      const T *x_ = a->v->data;                                               \
      T c_ = *(const T *)&b->k;                                               \
      for (int64_t i = 0; i < n; i++)                                         \
        d[i >> 3] |= (uint8_t)((x_[i] OP c_) << (i & 7));                     \
    } else {                                                                  \
      const T *y_ = b->is_const ? (const T *)&b->k : b->v->data;              \
      int64_t sy_ = b->is_const ? 0 : 1;                                      \
      T c_ = *(const T *)&a->k;                                               \
      for (int64_t i = 0; i < n; i++)                                         \
        d[i >> 3] |= (uint8_t)((c_ OP y_[i * sy_]) << (i & 7));               \
    }                                                                         \
  } while (0)

/* LOOP(T, op) instantiated for the comparison fn in scope; serves both the
** comparison kernels (CMP_LOOP) and the filter fast path (FAST_FILTER). */
#define CMP_DISPATCH(LOOP, T)                                                 \
  do {                                                                        \
    switch (fn) {                                                             \
    case CHV_FN_EQ:                                                           \
    case CHV_FN_NSEQ: LOOP(T, ==); break;                                     \
    case CHV_FN_NE: LOOP(T, !=); break;                                       \
    case CHV_FN_LT: LOOP(T, <); break;                                        \
    case CHV_FN_LE: LOOP(T, <=); break;                                       \
    case CHV_FN_GT: LOOP(T, >); break;                                        \
    default: LOOP(T, >=); break;                                              \
    }                                                                         \
  } while (0)

#define CMP_TYPE(T) CMP_DISPATCH(CMP_LOOP, T)

static bool cmp_result(enum chv_fn fn, int c) {
  if (c == 2) return fn == CHV_FN_NE; /* unordered (NaN) */
  switch (fn) {
  case CHV_FN_EQ:
  case CHV_FN_NSEQ: return c == 0;
  case CHV_FN_NE: return c != 0;
  case CHV_FN_LT: return c < 0;
  case CHV_FN_LE: return c <= 0;
  case CHV_FN_GT: return c > 0;
  default: return c >= 0;
  }
}

static int eval_cmp(const struct chv_expr *e, const struct chv_batch *in,
                    const uint32_t *sel, int64_t n, struct chv_vector *out,
                    struct chv_error *err) {
  struct opnd ops[2];
  int rc = opnd_eval(e->args[0], in, sel, n, &ops[0], err);
  if (rc != CHV_OK) return rc;
  rc = opnd_eval(e->args[1], in, sel, n, &ops[1], err);
  if (rc != CHV_OK) goto out_free_a;
  rc = start_out(out, n, err);
  if (rc != CHV_OK) goto out_free;
  enum chv_fn fn = e->fn;
  const struct opnd *a = &ops[0], *b = &ops[1];
  uint8_t *d = out->data;
  const struct chv_type *t = e->args[0]->type;
  switch (t->id) {
  case CHV_TYPE_TINYINT: CMP_TYPE(int8_t); break;
  case CHV_TYPE_SMALLINT: CMP_TYPE(int16_t); break;
  case CHV_TYPE_INT:
  case CHV_TYPE_DATE: CMP_TYPE(int32_t); break;
  case CHV_TYPE_BIGINT: CMP_TYPE(int64_t); break;
  case CHV_TYPE_FLOAT: CMP_TYPE(float); break;
  case CHV_TYPE_DOUBLE: CMP_TYPE(double); break;
  case CHV_TYPE_DECIMAL: CMP_TYPE(chv_i128); break;
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
    if (fn == CHV_FN_EQ || fn == CHV_FN_NE || fn == CHV_FN_NSEQ) {
      bool want = fn != CHV_FN_NE;
      for (int64_t i = 0; i < n; i++) {
        const char *p, *q;
        int64_t lp, lq;
        opnd_str(a, i, &p, &lp);
        opnd_str(b, i, &q, &lq);
        bool eq = lp == lq && chv_key_eq(p, q, (size_t)lp);
        d[i >> 3] |= (uint8_t)((eq == want) << (i & 7));
      }
      break;
    }
    /* fall through */
  default:
    for (int64_t i = 0; i < n; i++) {
      if (opnd_null(a, i) || opnd_null(b, i)) continue;
      struct chv_value x, y;
      opnd_value(a, e->args[0], i, &x);
      opnd_value(b, e->args[1], i, &y);
      if (cmp_result(fn, chv_func_compare_values(t, &x, &y)))
        d[i >> 3] |= (uint8_t)(1u << (i & 7));
    }
    break;
  }
  if (fn == CHV_FN_NSEQ) {
    /* never NULL: both NULL is TRUE, one NULL is FALSE */
    for (int64_t i = 0; i < n; i++) {
      bool na = opnd_null(a, i), nb = opnd_null(b, i);
      if (na || nb) chv_bit_set(d, i, na && nb);
    }
  } else {
    rc = combine_validity(out, n, ops, 2, err);
    if (rc != CHV_OK) goto out_free;
  }
  finish_nulls(out, n);
out_free:
  opnd_free(&ops[1]);
out_free_a:
  opnd_free(&ops[0]);
  return rc;
}

/* ---- AND, OR, NOT, IS [NOT] NULL ------------------------------------------ */

/* Bytes of data and validity of a BOOLEAN operand, constant or not. */
static void bool_bytes(const struct opnd *o, const uint8_t **d,
                       const uint8_t **v, int64_t *stride, uint8_t cst[2]) {
  if (o->is_const) {
    cst[0] = o->k.b && !o->const_null ? 0xff : 0;
    cst[1] = o->const_null ? 0 : 0xff;
    *d = &cst[0];
    *v = &cst[1];
    *stride = 0;
    return;
  }
  *d = o->v->data;
  *v = o->v->validity ? o->v->validity : NULL;
  *stride = 1;
}

static int eval_logic(const struct chv_expr *e, const struct chv_batch *in,
                      const uint32_t *sel, int64_t n, struct chv_vector *out,
                      struct chv_error *err) {
  struct opnd ops[2];
  int nops = e->kind == CHV_EXPR_NOT ? 1 : 2;
  int rc = opnd_eval(e->args[0], in, sel, n, &ops[0], err);
  if (rc != CHV_OK) return rc;
  if (nops == 2) {
    rc = opnd_eval(e->args[1], in, sel, n, &ops[1], err);
    if (rc != CHV_OK) goto out_free_a;
  }
  rc = start_out(out, n, err);
  if (rc != CHV_OK) goto out_free;
  uint8_t *ov = out_validity(out);
  if (ov == NULL) {
    rc = oom(err);
    goto out_free;
  }
  const uint8_t *ad, *av, *bd = NULL, *bv = NULL;
  int64_t sa, sb = 0;
  uint8_t ca[2], cb[2], all = 0xff;
  bool_bytes(&ops[0], &ad, &av, &sa, ca);
  if (av == NULL) av = &all;
  int64_t sav = av == &all ? 0 : sa;
  int64_t sbv = 0;
  if (nops == 2) {
    bool_bytes(&ops[1], &bd, &bv, &sb, cb);
    if (bv == NULL) bv = &all;
    sbv = bv == &all ? 0 : sb;
  }
  uint8_t *od = out->data;
  int64_t nb = bm_bytes(n);
  for (int64_t j = 0; j < nb; j++) {
    uint8_t x = ad[j * sa], xv = av[j * sav];
    if (e->kind == CHV_EXPR_NOT) {
      od[j] = (uint8_t)~x;
      ov[j] = xv;
      continue;
    }
    uint8_t y = bd[j * sb], yv = bv[j * sbv];
    uint8_t t, f;
    if (e->kind == CHV_EXPR_AND) {
      t = x & xv & y & yv;
      f = (uint8_t)((xv & ~x) | (yv & ~y));
    } else {
      t = (uint8_t)((x & xv) | (y & yv));
      f = (uint8_t)(xv & ~x & yv & ~y);
    }
    od[j] = t;
    ov[j] = t | f;
  }
  finish_nulls(out, n);
out_free:
  if (nops == 2) opnd_free(&ops[1]);
out_free_a:
  opnd_free(&ops[0]);
  return rc;
}

static int eval_is_null(const struct chv_expr *e, const struct chv_batch *in,
                        const uint32_t *sel, int64_t n, struct chv_vector *out,
                        struct chv_error *err) {
  struct opnd a;
  CHV_RETURN_IF_ERR(opnd_eval(e->args[0], in, sel, n, &a, err));
  int rc = start_out(out, n, err);
  if (rc == CHV_OK) {
    bool want_null = e->kind == CHV_EXPR_IS_NULL;
    uint8_t *d = out->data;
    int64_t nb = bm_bytes(n);
    if (a.is_const) {
      memset(d, a.const_null == want_null ? 0xff : 0, (size_t)nb);
    } else if (a.v->validity == NULL) {
      memset(d, want_null ? 0 : 0xff, (size_t)nb);
    } else {
      for (int64_t j = 0; j < nb; j++)
        d[j] = want_null ? (uint8_t)~a.v->validity[j] : a.v->validity[j];
    }
  }
  opnd_free(&a);
  return rc;
}

/* ---- IN, LIKE, CAST, string functions (row at a time) --------------------- */

/* IN of literals of its argument's own type, the argument a column of
** STRING or VARCHAR or of an integer type or DATE: the column read in
** place, a row's value tested against the literals by length and bytes,
** or by compares, with no value built per row.  *done false: not of that
** shape. */
static int in_fast(const struct chv_expr *e, const struct chv_batch *in,
                   const uint32_t *sel, int64_t n, struct chv_vector *out,
                   bool *done, struct chv_error *err) {
  const struct chv_expr *x = e->args[0];
  enum chv_type_id id = x->type->id;
  size_t w = chv_type_fixed_width(id);
  bool str = id == CHV_TYPE_STRING || id == CHV_TYPE_VARCHAR;
  bool integer = chv_type_is_integer(id) || id == CHV_TYPE_DATE;
  *done = false;
  if (e->set || (!str && !integer) || x->kind != CHV_EXPR_COLUMN ||
      x->column >= in->ncols)
    return CHV_OK;
  bool list_null = false;
  for (int k = 1; k < e->nargs; k++) {
    const struct chv_expr *l = e->args[k];
    if (l->kind != CHV_EXPR_LITERAL || l->type->id != id) return CHV_OK;
    list_null |= l->value.is_null;
  }
  *done = true;
  CHV_RETURN_IF_ERR(start_out(out, n, err));
  const struct chv_vector *v = in->cols[x->column];
  const uint8_t *valid = v->validity;
  uint8_t *d = out->data, *ov = NULL;
  for (int64_t i = 0; i < n; i++) {
    int64_t r = sel ? sel[i] : i;
    bool hit = false;
    if (valid && !chv_bit_get(valid, r)) {
      /* x NULL: NULL */
    } else if (str) {
      const char *p = v->bytes + v->offsets[r];
      size_t len = (size_t)(v->offsets[r + 1] - v->offsets[r]);
      for (int k = 1; k < e->nargs && !hit; k++) {
        const struct chv_value *l = &e->args[k]->value;
        hit = !l->is_null && (size_t)l->len == len && chv_key_eq(l->str, p, len);
      }
      if (hit || !list_null) goto known;
    } else {
      int64_t xv = w == 1   ? ((const int8_t *)v->data)[r]
                   : w == 2 ? ((const int16_t *)v->data)[r]
                   : w == 4 ? ((const int32_t *)v->data)[r]
                            : ((const int64_t *)v->data)[r];
      for (int k = 1; k < e->nargs && !hit; k++) {
        const struct chv_value *l = &e->args[k]->value;
        hit = !l->is_null && l->i64 == xv;
      }
      if (hit || !list_null) goto known;
    }
    /* NULL: x is, or x is in no item of a list with a NULL */
    if (!ov && (ov = out_validity(out)) == NULL) return oom(err);
    chv_bit_set(ov, i, false);
    continue;
  known:
    if (hit != e->negated) d[i >> 3] |= (uint8_t)(1u << (i & 7));
  }
  finish_nulls(out, n);
  return CHV_OK;
}

static int eval_in(const struct chv_expr *e, const struct chv_batch *in,
                   const uint32_t *sel, int64_t n, struct chv_vector *out,
                   struct chv_error *err) {
  bool done;
  CHV_RETURN_IF_ERR(in_fast(e, in, sel, n, out, &done, err));
  if (done) return CHV_OK;
  struct opnd a;
  CHV_RETURN_IF_ERR(opnd_eval(e->args[0], in, sel, n, &a, err));
  struct chv_buf key; /* the key of a value looked up in the set */
  chv_buf_init(&key);
  int rc = start_out(out, n, err);
  if (rc != CHV_OK) goto out_free;
  const struct chv_inset *set = e->set;
  bool list_null = set && set->has_null;
  for (int k = 1; k < e->nargs; k++) list_null |= e->args[k]->value.is_null;
  const struct chv_type *t = e->args[0]->type;
  for (int64_t i = 0; i < n; i++) {
    struct chv_value x;
    opnd_value(&a, e->args[0], i, &x);
    bool hit = false;
    if (set && set->rows == 0) { /* IN of no rows: FALSE, for NULL too */
      if (e->negated) chv_bit_set(out->data, i, true);
      continue;
    }
    if (!x.is_null && set && set->keys.n) {
      chv_buf_reset(&key);
      if ((rc = chv_keyset_encode_value(&key, t->id, &x)) != CHV_OK) {
        rc = oom(err);
        goto out_free;
      }
      size_t slot;
      hit = chv_keyset_find(&set->keys, key.data, key.len,
                            chv_keyset_hash(key.data, key.len),
                            &slot) != UINT32_MAX;
    }
    if (!x.is_null)
      for (int k = 1; k < e->nargs && !hit; k++)
        hit = !e->args[k]->value.is_null &&
              chv_func_compare_values(t, &x, &e->args[k]->value) == 0;
    if (x.is_null || (!hit && list_null)) {
      uint8_t *ov = out_validity(out);
      if (ov == NULL) {
        rc = oom(err);
        goto out_free;
      }
      chv_bit_set(ov, i, false);
    } else if (hit != e->negated) {
      chv_bit_set(out->data, i, true);
    }
  }
  finish_nulls(out, n);
out_free:
  chv_buf_free(&key);
  opnd_free(&a);
  return rc;
}

static int eval_like(const struct chv_expr *e, const struct chv_batch *in,
                     const uint32_t *sel, int64_t n, struct chv_vector *out,
                     struct chv_error *err) {
  struct opnd a;
  CHV_RETURN_IF_ERR(opnd_eval(e->args[0], in, sel, n, &a, err));
  int rc = start_out(out, n, err);
  if (rc == CHV_OK) rc = combine_validity(out, n, &a, 1, err);
  if (rc == CHV_OK && e->like == NULL) {
    uint8_t *ov = out_validity(out);
    if (ov == NULL) rc = oom(err);
    else memset(ov, 0, (size_t)bm_bytes(n));
  }
  if (rc == CHV_OK && e->like) {
    uint8_t *d = out->data;
    for (int64_t i = 0; i < n; i++) {
      const char *p;
      int64_t len;
      if (opnd_null(&a, i)) continue;
      opnd_str(&a, i, &p, &len);
      if (chv_like_match(e->like, p, (size_t)len) != e->negated)
        d[i >> 3] |= (uint8_t)(1u << (i & 7));
    }
  }
  finish_nulls(out, n);
  opnd_free(&a);
  return rc;
}

/* The widening casts the constructors insert for mixed operands (an
** integer or FLOAT to BIGINT, DOUBLE or a decimal(p,0) that holds it, a
** narrower integer to INT): typed loops.  False if the cast is not one. */
static bool widening(enum chv_type_id f, const struct chv_type *to) {
  bool fi = chv_func_is_integral(f);
  switch (to->id) {
  case CHV_TYPE_INT: return f == CHV_TYPE_TINYINT || f == CHV_TYPE_SMALLINT;
  case CHV_TYPE_BIGINT: return fi && f != CHV_TYPE_BIGINT;
  case CHV_TYPE_DOUBLE: return fi || f == CHV_TYPE_FLOAT;
  case CHV_TYPE_DECIMAL:
    return fi && to->scale == 0 &&
           to->precision >= (f == CHV_TYPE_TINYINT ? 3 : f == CHV_TYPE_SMALLINT ? 5
                             : f == CHV_TYPE_INT ? 10 : 19);
  default: return false;
  }
}

#define WIDEN_(S, D)                                                          \
  do {                                                                        \
    const S *x_ = a.v->data;                                                  \
    D *y_ = out->data;                                                        \
    for (int64_t i = 0; i < n; i++) y_[i] = (D)x_[i];                         \
  } while (0)
#define WIDEN_FROM_(D)                                                        \
  do {                                                                        \
    switch (from->id) {                                                       \
    case CHV_TYPE_TINYINT: WIDEN_(int8_t, D); break;                          \
    case CHV_TYPE_SMALLINT: WIDEN_(int16_t, D); break;                        \
    case CHV_TYPE_INT: WIDEN_(int32_t, D); break;                             \
    case CHV_TYPE_BIGINT: WIDEN_(int64_t, D); break;                          \
    default: WIDEN_(float, D); break;                                         \
    }                                                                         \
  } while (0)

static int eval_cast(const struct chv_expr *e, const struct chv_batch *in,
                     const uint32_t *sel, int64_t n, struct chv_vector *out,
                     struct chv_error *err) {
  struct opnd a;
  CHV_RETURN_IF_ERR(opnd_eval(e->args[0], in, sel, n, &a, err));
  const struct chv_type *from = e->args[0]->type;
  if (!a.is_const && widening(from->id, e->type)) {
    int rc = start_out(out, n, err);
    if (rc == CHV_OK) rc = combine_validity(out, n, &a, 1, err);
    if (rc == CHV_OK) {
      switch (e->type->id) {
      case CHV_TYPE_INT: WIDEN_FROM_(int32_t); break;
      case CHV_TYPE_BIGINT: WIDEN_FROM_(int64_t); break;
      case CHV_TYPE_DOUBLE: WIDEN_FROM_(double); break;
      default: WIDEN_FROM_(chv_i128); break;
      }
      finish_nulls(out, n);
    }
    opnd_free(&a);
    return rc;
  }
  struct chv_buf buf;
  chv_buf_init(&buf);
  chv_vector_reset(out);
  int rc = chv_vector_reserve(out, n > 0 ? n : 1, err);
  for (int64_t i = 0; i < n && rc == CHV_OK; i++) {
    struct chv_value x, y = {.is_null = true};
    opnd_value(&a, e->args[0], i, &x);
    int crc = CHV_OK;
    if (!x.is_null && !chv_exec_cast_value(from, &x, e->type, &y, &buf, &crc))
      y.is_null = true;
    if (crc != CHV_OK) rc = oom(err);
    else rc = chv_func_append_value(out, &y, err);
  }
  chv_buf_free(&buf);
  opnd_free(&a);
  return rc;
}

/* ---- registered functions ------------------------------------------------- */

/* A call of a registry function: each argument handed to the kernel as it
** is (a constant for a literal, the input column under the selection for a
** column), or evaluated densely first. */
static int eval_func(const struct chv_expr *e, const struct chv_batch *in,
                     const uint32_t *sel, int64_t n, struct chv_vector *out,
                     struct chv_error *err) {
  int na = e->nargs, done = 0, rc = CHV_OK;
  struct opnd ops_[4], *ops = ops_;
  struct chv_func_arg args_[4], *args = args_;
  if (na > 4) {
    ops = chv_calloc((size_t)na, sizeof *ops);
    args = chv_calloc((size_t)na, sizeof *args);
    if (ops == NULL || args == NULL) {
      rc = oom(err);
      goto out_free;
    }
  }
  for (; done < na; done++) {
    const struct chv_expr *x = e->args[done];
    struct chv_func_arg *g = &args[done];
    memset(&ops[done], 0, sizeof ops[done]);
    g->type = x->type;
    g->v = NULL;
    g->sel = NULL;
    g->k = NULL;
    if (x->kind == CHV_EXPR_LITERAL) {
      g->k = &x->value;
    } else if (x->kind == CHV_EXPR_COLUMN) {
      if (x->column >= in->ncols) {
        rc = chv_error_set(err, CHV_EINVAL, "column %d of a batch of %d",
                           x->column, in->ncols);
        break;
      }
      g->v = in->cols[x->column];
      g->sel = sel;
    } else {
      rc = opnd_eval(x, in, sel, n, &ops[done], err);
      if (rc != CHV_OK) break;
      g->v = ops[done].v;
    }
  }
  if (rc == CHV_OK) rc = e->impl->kernel(args, na, n, out, err);
out_free:
  for (int k = 0; k < done; k++) opnd_free(&ops[k]);
  if (ops != ops_) chv_free(ops);
  if (args != args_) chv_free(args);
  return rc;
}

/* ---- CASE and COALESCE ---------------------------------------------------- */

/* Rows still to decide: input row numbers and output positions. */
struct pending {
  uint32_t *rows, *pos;
  int64_t m;
};

/* Evaluate a CASE (whens/thens pairs) or COALESCE (values only) by
** narrowing the pending rows branch by branch; each output row remembers
** which branch vector and row holds its value. */
static int eval_choose(const struct chv_expr *e, const struct chv_batch *in,
                       const uint32_t *sel, int64_t n, struct chv_vector *out,
                       struct chv_error *err) {
  bool is_case = e->kind == CHV_EXPR_CASE;
  int nbr = is_case ? e->nargs / 2 + 1 : e->nargs;
  size_t un = (size_t)(n > 0 ? n : 1);
  uint32_t *mem = chv_malloc(un * 6 * sizeof *mem);
  struct chv_vector **bv = chv_calloc((size_t)nbr, sizeof *bv);
  struct chv_vector *cv = NULL;
  int rc = CHV_OK;
  if (mem == NULL || bv == NULL) {
    rc = oom(err);
    goto out_free;
  }
  struct pending p = {mem, mem + un, n};
  uint32_t *trows = mem + 2 * un, *tpos = mem + 3 * un;
  uint32_t *which = mem + 4 * un, *rib = mem + 5 * un;
  for (int64_t i = 0; i < n; i++) {
    p.rows[i] = sel ? sel[i] : (uint32_t)i;
    p.pos[i] = (uint32_t)i;
    which[i] = UINT32_MAX;
  }
  for (int b = 0; b < nbr && p.m > 0; b++) {
    const struct chv_expr *val = is_case ? e->args[2 * b < e->nargs - 1 ? 2 * b + 1 : e->nargs - 1]
                                         : e->args[b];
    int64_t k = 0, keep = 0;
    if (is_case && b < nbr - 1) {
      /* rows whose WHEN is TRUE take this branch */
      if (cv == NULL) {
        rc = chv_vector_open(e->args[2 * b]->type, n, &cv, err);
        if (rc != CHV_OK) goto out_free;
      }
      rc = eval_node(e->args[2 * b], in, p.rows, p.m, cv, err);
      if (rc != CHV_OK) goto out_free;
      for (int64_t j = 0; j < p.m; j++) {
        if (!chv_vector_is_null(cv, j) && chv_bit_get(cv->data, j)) {
          trows[k] = p.rows[j];
          tpos[k++] = p.pos[j];
        } else {
          p.rows[keep] = p.rows[j];
          p.pos[keep++] = p.pos[j];
        }
      }
    } else {
      memcpy(trows, p.rows, sizeof *trows * (size_t)p.m);
      memcpy(tpos, p.pos, sizeof *tpos * (size_t)p.m);
      k = p.m;
    }
    if (k == 0) {
      p.m = keep;
      continue;
    }
    rc = chv_vector_open(e->type, k, &bv[b], err);
    if (rc != CHV_OK) goto out_free;
    rc = eval_node(val, in, trows, k, bv[b], err);
    if (rc != CHV_OK) goto out_free;
    if (is_case) {
      for (int64_t j = 0; j < k; j++) {
        which[tpos[j]] = (uint32_t)b;
        rib[tpos[j]] = (uint32_t)j;
      }
      p.m = keep;
    } else { /* COALESCE: the non-NULL rows are decided */
      keep = 0;
      for (int64_t j = 0; j < k; j++) {
        if (!chv_vector_is_null(bv[b], j)) {
          which[tpos[j]] = (uint32_t)b;
          rib[tpos[j]] = (uint32_t)j;
        } else {
          p.rows[keep] = trows[j];
          p.pos[keep++] = tpos[j];
        }
      }
      p.m = keep;
    }
  }
  chv_vector_reset(out);
  rc = chv_vector_reserve(out, n > 0 ? n : 1, err);
  for (int64_t i = 0; i < n && rc == CHV_OK; i++)
    rc = which[i] == UINT32_MAX
             ? chv_vector_append_null(out, err)
             : chv_vector_append_from(out, bv[which[i]], rib[i], err);
out_free:
  chv_vector_close(cv);
  if (bv)
    for (int b = 0; b < nbr; b++) chv_vector_close(bv[b]);
  chv_free(bv);
  chv_free(mem);
  return rc;
}

/* ---- dispatch ------------------------------------------------------------- */

static int eval_node(const struct chv_expr *e, const struct chv_batch *in,
                     const uint32_t *sel, int64_t n, struct chv_vector *out,
                     struct chv_error *err) {
  switch (e->kind) {
  case CHV_EXPR_COLUMN:
    if (e->column >= in->ncols)
      return chv_error_set(err, CHV_EINVAL, "column %d of a batch of %d",
                           e->column, in->ncols);
    return gather(in->cols[e->column], sel, n, out, err);
  case CHV_EXPR_LITERAL: return eval_literal(e, n, out, err);
  case CHV_EXPR_CALL:
    if (e->fn >= CHV_FN_EQ && e->fn <= CHV_FN_NSEQ)
      return eval_cmp(e, in, sel, n, out, err);
    return eval_arith(e, in, sel, n, out, err);
  case CHV_EXPR_FUNC: return eval_func(e, in, sel, n, out, err);
  case CHV_EXPR_AND:
  case CHV_EXPR_OR:
  case CHV_EXPR_NOT: return eval_logic(e, in, sel, n, out, err);
  case CHV_EXPR_IS_NULL:
  case CHV_EXPR_IS_NOT_NULL: return eval_is_null(e, in, sel, n, out, err);
  case CHV_EXPR_IN: return eval_in(e, in, sel, n, out, err);
  case CHV_EXPR_BETWEEN: return eval_node(e->lowered, in, sel, n, out, err);
  case CHV_EXPR_CASE:
  case CHV_EXPR_COALESCE: return eval_choose(e, in, sel, n, out, err);
  case CHV_EXPR_CAST: return eval_cast(e, in, sel, n, out, err);
  case CHV_EXPR_LIKE: return eval_like(e, in, sel, n, out, err);
  }
  return chv_error_set(err, CHV_EINTERNAL, "unknown expression kind %d",
                       (int)e->kind);
}

bool chv_expr_total(const struct chv_expr *e) {
  if (e->kind == CHV_EXPR_FUNC) return false;
  for (int i = 0; i < e->nargs; i++)
    if (!chv_expr_total(e->args[i])) return false;
  return true;
}

int chv_expr_eval(const struct chv_expr *e, const struct chv_batch *in,
                  const uint32_t *sel, int64_t nsel, struct chv_vector *out,
                  struct chv_error *err) {
  if (nsel < 0 || nsel > UINT32_MAX)
    return chv_error_set(err, CHV_EINVAL, "bad selection size %lld",
                         (long long)nsel);
  return eval_node(e, in, sel, nsel, out, err);
}

/* ---- filter ----------------------------------------------------------------- */

#define FAST_FILTER(T, OP)                                                    \
  do {                                                                        \
    const T *x_ = col->data;                                                  \
    T c_ = *(const T *)&k;                                                    \
    const uint8_t *v_ = col->null_count > 0 ? col->validity : NULL;           \
    if (v_ == NULL && sel_in) {                                               \
      for (int64_t i = 0; i < n; i++) {                                       \
        uint32_t r_ = sel_in[i];                                              \
        sel_out[m] = r_;                                                      \
        m += x_[r_] OP c_;                                                    \
      }                                                                       \
    } else if (v_ == NULL) {                                                  \
      for (int64_t i = 0; i < n; i++) {                                       \
        sel_out[m] = (uint32_t)i;                                             \
        m += x_[i] OP c_;                                                     \
      }                                                                       \
    } else {                                                                  \
      for (int64_t i = 0; i < n; i++) {                                       \
        uint32_t r_ = sel_in ? sel_in[i] : (uint32_t)i;                       \
        sel_out[m] = r_;                                                      \
        m += (x_[r_] OP c_) & chv_bit_get(v_, r_);                            \
      }                                                                       \
    }                                                                         \
  } while (0)

#define FAST_TYPE(T) CMP_DISPATCH(FAST_FILTER, T)

/* column <op> column of one type: both valid and the comparison true. */
#define FAST_FILTER2(T, OP)                                                   \
  do {                                                                        \
    const T *x_ = col->data, *y_ = col2->data;                                \
    const uint8_t *v_ = col->null_count > 0 ? col->validity : NULL;           \
    const uint8_t *w_ = col2->null_count > 0 ? col2->validity : NULL;         \
    if (v_ == NULL && w_ == NULL) {                                           \
      for (int64_t i = 0; i < n; i++) {                                       \
        uint32_t r_ = sel_in ? sel_in[i] : (uint32_t)i;                       \
        sel_out[m] = r_;                                                      \
        m += x_[r_] OP y_[r_];                                                \
      }                                                                       \
    } else {                                                                  \
      for (int64_t i = 0; i < n; i++) {                                       \
        uint32_t r_ = sel_in ? sel_in[i] : (uint32_t)i;                       \
        sel_out[m] = r_;                                                      \
        m += (x_[r_] OP y_[r_]) & (v_ ? chv_bit_get(v_, r_) : 1) &            \
             (w_ ? chv_bit_get(w_, r_) : 1);                                  \
      }                                                                       \
    }                                                                         \
  } while (0)

#define FAST_TYPE2(T) CMP_DISPATCH(FAST_FILTER2, T)


static enum chv_fn flip(enum chv_fn fn) {
  switch (fn) {
  case CHV_FN_LT: return CHV_FN_GT;
  case CHV_FN_LE: return CHV_FN_GE;
  case CHV_FN_GT: return CHV_FN_LT;
  case CHV_FN_GE: return CHV_FN_LE;
  default: return fn;
  }
}

/* Whether fast_filter() takes e, and its operands: a column of type INT,
** DATE, BIGINT, DOUBLE or DECIMAL (*c) compared (*fn, flipped when the
** column came second) with a non-NULL literal or a column (not by <=>,
** whose NULLs compare) of its type (*l; a decimal's of its scale). */
static bool fast_operands(const struct chv_expr *e, const struct chv_expr **c,
                          const struct chv_expr **l, enum chv_fn *fn) {
  if (e->kind != CHV_EXPR_CALL || e->fn < CHV_FN_EQ || e->fn > CHV_FN_NSEQ)
    return false;
  const struct chv_expr *a = e->args[0], *b = e->args[1];
  *fn = e->fn;
  if (a->kind != CHV_EXPR_COLUMN) {
    const struct chv_expr *t = a;
    a = b;
    b = t;
    *fn = flip(*fn);
  }
  enum chv_type_id id = a->type->id;
  if (a->kind != CHV_EXPR_COLUMN ||
      !(id == CHV_TYPE_INT || id == CHV_TYPE_DATE || id == CHV_TYPE_BIGINT ||
        id == CHV_TYPE_DOUBLE || id == CHV_TYPE_DECIMAL) ||
      b->type->id != id ||
      (id == CHV_TYPE_DECIMAL && b->type->scale != a->type->scale))
    return false;
  *c = a;
  *l = b;
  if (b->kind == CHV_EXPR_LITERAL) return !b->value.is_null;
  return b->kind == CHV_EXPR_COLUMN && *fn != CHV_FN_NSEQ;
}

static bool fast_kind(const struct chv_expr *e) {
  const struct chv_expr *c, *l;
  enum chv_fn fn;
  return fast_operands(e, &c, &l, &fn);
}

/* A comparison fast_operands() takes as one branch-free loop over the
** column (and, against a column, the other): true if done. */
static bool fast_filter(const struct chv_expr *e, const struct chv_batch *in,
                        const uint32_t *sel_in, int64_t n, uint32_t *sel_out,
                        int64_t *nout) {
  const struct chv_expr *c, *l;
  enum chv_fn fn;
  if (!fast_operands(e, &c, &l, &fn) || c->column >= in->ncols ||
      (l->kind == CHV_EXPR_COLUMN && l->column >= in->ncols))
    return false;
  const struct chv_vector *col = in->cols[c->column];
  int64_t m = 0;
  if (l->kind == CHV_EXPR_COLUMN) {
    const struct chv_vector *col2 = in->cols[l->column];
    switch (c->type->id) {
    case CHV_TYPE_INT:
    case CHV_TYPE_DATE: FAST_TYPE2(int32_t); break;
    case CHV_TYPE_BIGINT: FAST_TYPE2(int64_t); break;
    case CHV_TYPE_DOUBLE: FAST_TYPE2(double); break;
    default: FAST_TYPE2(chv_i128); break; /* DECIMAL, at one scale */
    }
  } else {
    union konst k;
    set_konst(l->type, &l->value, &k);
    switch (c->type->id) {
    case CHV_TYPE_INT:
    case CHV_TYPE_DATE: FAST_TYPE(int32_t); break;
    case CHV_TYPE_BIGINT: FAST_TYPE(int64_t); break;
    case CHV_TYPE_DOUBLE: FAST_TYPE(double); break;
    default: FAST_TYPE(chv_i128); break; /* DECIMAL, at one scale */
    }
  }
  *nout = m;
  return true;
}

/* The conjuncts of an AND tree e, left to right, into c[0, *n) (at most
** max; false when there are more). */
static bool conjuncts(const struct chv_expr *e, const struct chv_expr **c,
                      int *n, int max) {
  if (e->kind == CHV_EXPR_BETWEEN && !e->negated && e->lowered)
    e = e->lowered; /* x >= lo AND x <= hi */
  if (e->kind == CHV_EXPR_AND)
    return conjuncts(e->args[0], c, n, max) && conjuncts(e->args[1], c, n, max);
  if (*n == max) return false;
  c[(*n)++] = e;
  return true;
}

int chv_expr_filter(const struct chv_expr *e, const struct chv_batch *in,
                    const uint32_t *sel_in, int64_t nsel_in,
                    uint32_t *sel_out, int64_t *nsel_out,
                    struct chv_error *err) {
  int64_t n = nsel_in, m = 0;
  if (n < 0 || n > UINT32_MAX)
    return chv_error_set(err, CHV_EINVAL, "bad selection size %lld",
                         (long long)n);
  if (e->type->id != CHV_TYPE_BOOLEAN)
    return chv_error_set(err, CHV_ETYPE, "a filter must be boolean, not %s",
                         chv_type_id_name(e->type->id));
  if (e->kind == CHV_EXPR_BETWEEN && !e->negated && e->lowered &&
      e->lowered->kind == CHV_EXPR_AND)
    e = e->lowered; /* x >= lo AND x <= hi, as conjuncts */
  if (e->kind == CHV_EXPR_AND) {
    /* the conjuncts a loop over a column tests first, then the others on
    ** the rows they keep (TPC-H Q12's dates before its IN of strings): a
    ** row is kept when all are TRUE, in any order; one that could fail
    ** then sees fewer rows, never more */
    const struct chv_expr *c[32];
    int nc = 0;
    if (!conjuncts(e, c, &nc, 32)) {
      int64_t k;
      CHV_RETURN_IF_ERR(chv_expr_filter(e->args[0], in, sel_in, n, sel_out,
                                        &k, err));
      return chv_expr_filter(e->args[1], in, sel_out, k, sel_out, nsel_out,
                             err);
    }
    const uint32_t *cur = sel_in;
    int64_t k = n;
    for (int pass = 0; pass < 2; pass++)
      for (int i = 0; i < nc; i++) {
        if (fast_kind(c[i]) != (pass == 0)) continue;
        CHV_RETURN_IF_ERR(chv_expr_filter(c[i], in, cur, k, sel_out, &k, err));
        cur = sel_out; /* an AND has two conjuncts: sel_out is written */
      }
    *nsel_out = k;
    return CHV_OK;
  }
  if (e->kind == CHV_EXPR_OR) {
    size_t un = (size_t)(n > 0 ? n : 1);
    uint32_t *a = chv_malloc(un * 2 * sizeof *a);
    if (a == NULL) return oom(err);
    uint32_t *rest = a + un;
    int64_t ka, kr = 0, kb;
    int rc = chv_expr_filter(e->args[0], in, sel_in, n, a, &ka, err);
    if (rc == CHV_OK) {
      for (int64_t i = 0, j = 0; i < n; i++) {
        uint32_t r = sel_in ? sel_in[i] : (uint32_t)i;
        if (j < ka && a[j] == r) j++;
        else rest[kr++] = r;
      }
      rc = chv_expr_filter(e->args[1], in, rest, kr, rest, &kb, err);
    }
    if (rc == CHV_OK) {
      int64_t i = 0, j = 0;
      while (i < ka || j < kb)
        sel_out[m++] = j >= kb || (i < ka && a[i] < rest[j]) ? a[i++] : rest[j++];
      *nsel_out = m;
    }
    chv_free(a);
    return rc;
  }
  if (e->kind == CHV_EXPR_LITERAL) {
    if (!e->value.is_null && e->value.b) {
      for (int64_t i = 0; i < n; i++)
        sel_out[i] = sel_in ? sel_in[i] : (uint32_t)i;
      m = n;
    }
    *nsel_out = m;
    return CHV_OK;
  }
  if (fast_filter(e, in, sel_in, n, sel_out, nsel_out)) return CHV_OK;
  struct chv_vector *v;
  CHV_RETURN_IF_ERR(chv_vector_open(e->type, n, &v, err));
  int rc = eval_node(e, in, sel_in, n, v, err);
  if (rc == CHV_OK) {
    for (int64_t i = 0; i < n; i++) {
      uint32_t r = sel_in ? sel_in[i] : (uint32_t)i;
      if (!chv_vector_is_null(v, i) && chv_bit_get(v->data, i)) sel_out[m++] = r;
    }
    *nsel_out = m;
  }
  chv_vector_close(v);
  return rc;
}
