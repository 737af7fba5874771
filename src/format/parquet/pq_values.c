/*
** Stored Parquet values to vector values: the conversions of
** docs/parquet.md's type table (with the widenings a table schema may
** ask for), dictionary gathers, and the spreading of densely decoded
** values over the slots their definition levels give.
**
** Every function here works on many values per call: the conversion is
** chosen once per call and the loops below it do loads and stores only.
** Values are always appended at the vector's end (rows [length, +n)),
** the vector grown first.
**
** INTERFACE: pq_store(), pq_gather(), pq_spread(), pq_append_nulls(),
** pq_ensure_validity(), pq_scratch(), pq_be_to_i128(), pq_ts_from()
** (pq_read.h).
*/
#include "format/parquet/pq_read.h"

#include <inttypes.h>
#include <stdio.h>

static int oom(struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory");
}

int pq_scratch(void **buf, size_t *cap, size_t n, struct chv_error *err) {
  if (n <= *cap && *buf) return CHV_OK;
  size_t c = *cap * 2;
  if (c < n) c = n;
  if (c < 64) c = 64;
  /* The old contents are not kept: no copy (realloc would move them). */
  void *p = chv_malloc(c);
  if (p == NULL) return oom(err);
  chv_free(*buf);
  *buf = p;
  *cap = c;
  return CHV_OK;
}

int pq_ensure_validity(struct chv_vector *v, struct chv_error *err) {
  if (v->validity) return CHV_OK;
  size_t nb = (size_t)((v->capacity + 7) / 8);
  if (nb == 0) nb = 1;
  v->validity = chv_malloc(nb);
  if (v->validity == NULL) return oom(err);
  memset(v->validity, 0xff, nb);
  return CHV_OK;
}

/* ---- byte array views -------------------------------------------------- */

static inline const uint8_t *bv_ptr(const struct pq_phys *ph, size_t stride,
                                    size_t i) {
  return ph->offs ? ph->base + ph->offs[i]
                  : (const uint8_t *)ph->fixed + i * stride;
}

static inline size_t bv_len(const struct pq_phys *ph, size_t stride, size_t i) {
  return ph->lens ? ph->lens[i] : stride;
}

/* ---- integers ---------------------------------------------------------- */

/* The file's integer values (INT32 through its conversion, INT64) as
** int64 in out[0, n). */
static void to_i64(const struct pq_leaf *lf, const struct pq_phys *ph,
                   int64_t *out) {
  size_t n = ph->n;
  if (lf->ptype == CHV_PQ_TYPE_INT64) {
    memcpy(out, ph->fixed, n * sizeof *out);
    return;
  }
  const int32_t *s = ph->fixed;
  switch (lf->conv) {
  case CHV_PQ_CONV_INT8:
    for (size_t i = 0; i < n; i++)
      out[i] = (int8_t)s[i];
    break;
  case CHV_PQ_CONV_INT16:
    for (size_t i = 0; i < n; i++)
      out[i] = (int16_t)s[i];
    break;
  case CHV_PQ_CONV_UINT8:
    for (size_t i = 0; i < n; i++)
      out[i] = (uint8_t)s[i];
    break;
  case CHV_PQ_CONV_UINT16:
    for (size_t i = 0; i < n; i++)
      out[i] = (uint16_t)s[i];
    break;
  case CHV_PQ_CONV_UINT32:
    for (size_t i = 0; i < n; i++)
      out[i] = (uint32_t)s[i];
    break;
  default:
    for (size_t i = 0; i < n; i++)
      out[i] = s[i];
    break;
  }
}

static int store_ints(struct pq_leaf *lf, const struct pq_phys *ph,
                      struct chv_vector *v, int64_t pos,
                      struct chv_error *err) {
  size_t n = ph->n;
  CHV_RETURN_IF_ERR(
      pq_scratch(&lf->scratch2, &lf->scratch2_cap, n * sizeof(int64_t), err));
  int64_t *x = lf->scratch2;
  to_i64(lf, ph, x);
  switch (v->type->id) {
  case CHV_TYPE_TINYINT: {
    int8_t *d = (int8_t *)v->data + pos;
    for (size_t i = 0; i < n; i++)
      d[i] = (int8_t)x[i];
    break;
  }
  case CHV_TYPE_SMALLINT: {
    int16_t *d = (int16_t *)v->data + pos;
    for (size_t i = 0; i < n; i++)
      d[i] = (int16_t)x[i];
    break;
  }
  case CHV_TYPE_INT:
  case CHV_TYPE_DATE: {
    int32_t *d = (int32_t *)v->data + pos;
    for (size_t i = 0; i < n; i++)
      d[i] = (int32_t)x[i];
    break;
  }
  default: /* BIGINT */
    memcpy((int64_t *)v->data + pos, x, n * sizeof *x);
    break;
  }
  return CHV_OK;
}

/* ---- floating point ---------------------------------------------------- */

static int store_reals(struct pq_leaf *lf, const struct pq_phys *ph,
                       struct chv_vector *v, int64_t pos,
                       struct chv_error *err) {
  size_t n = ph->n;
  bool single = v->type->id == CHV_TYPE_FLOAT;
  if (lf->conv == CHV_PQ_CONV_FLOAT16) {
    size_t stride = (size_t)lf->type_len;
    for (size_t i = 0; i < n; i++) {
      const uint8_t *p = bv_ptr(ph, stride, i);
      float f = chv_pq_half_to_float((uint16_t)(p[0] | p[1] << 8));
      if (single)
        ((float *)v->data)[pos + (int64_t)i] = f;
      else
        ((double *)v->data)[pos + (int64_t)i] = f;
    }
    return CHV_OK;
  }
  if (lf->ptype == CHV_PQ_TYPE_FLOAT) {
    const float *s = ph->fixed;
    if (single) {
      memcpy((float *)v->data + pos, s, n * sizeof *s);
    } else {
      double *d = (double *)v->data + pos;
      for (size_t i = 0; i < n; i++)
        d[i] = s[i];
    }
    return CHV_OK;
  }
  if (lf->ptype == CHV_PQ_TYPE_DOUBLE) {
    /* DOUBLE is only read as DOUBLE (the table mapping checked). */
    memcpy((double *)v->data + pos, ph->fixed, n * sizeof(double));
    return CHV_OK;
  }
  /* Integers widened to floating point. */
  CHV_RETURN_IF_ERR(
      pq_scratch(&lf->scratch2, &lf->scratch2_cap, n * sizeof(int64_t), err));
  int64_t *x = lf->scratch2;
  to_i64(lf, ph, x);
  if (single) {
    float *d = (float *)v->data + pos;
    for (size_t i = 0; i < n; i++)
      d[i] = (float)x[i];
  } else {
    double *d = (double *)v->data + pos;
    for (size_t i = 0; i < n; i++)
      d[i] = (double)x[i];
  }
  return CHV_OK;
}

/* ---- decimals ---------------------------------------------------------- */

bool pq_be_to_i128(const uint8_t *p, size_t len, chv_i128 *out) {
  if (len == 0) {
    *out = 0;
    return true;
  }
  size_t skip = 0;
  if (len > 16) {
    skip = len - 16;
    uint8_t ext = (p[skip] & 0x80) ? 0xff : 0x00;
    for (size_t i = 0; i < skip; i++)
      if (p[i] != ext) return false;
  }
  unsigned __int128 u = (p[skip] & 0x80) ? ~(unsigned __int128)0 : 0;
  for (size_t i = skip; i < len; i++)
    u = u << 8 | p[i];
  *out = (chv_i128)u;
  return true;
}

static int store_decimals(struct pq_leaf *lf, const struct pq_phys *ph,
                          struct chv_vector *v, int64_t pos,
                          struct chv_error *err) {
  size_t n = ph->n;
  chv_i128 *d = (chv_i128 *)v->data + pos;
  int fscale = 0;
  if (lf->conv == CHV_PQ_CONV_DECIMAL) {
    fscale = lf->fscale;
    switch (lf->ptype) {
    case CHV_PQ_TYPE_INT32: {
      const int32_t *s = ph->fixed;
      for (size_t i = 0; i < n; i++)
        d[i] = s[i];
      break;
    }
    case CHV_PQ_TYPE_INT64: {
      const int64_t *s = ph->fixed;
      for (size_t i = 0; i < n; i++)
        d[i] = s[i];
      break;
    }
    default: { /* BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY */
      size_t stride = (size_t)lf->type_len;
      for (size_t i = 0; i < n; i++) {
        size_t l = bv_len(ph, stride, i);
        if (!pq_be_to_i128(bv_ptr(ph, stride, i), l, &d[i]))
          return chv_error_set(err, CHV_ECORRUPT,
                               "a decimal value of %zu bytes does not fit "
                               "128 bits",
                               l);
      }
      break;
    }
    }
  } else if (lf->conv == CHV_PQ_CONV_UINT64) {
    const uint64_t *s = ph->fixed;
    for (size_t i = 0; i < n; i++)
      d[i] = (chv_i128)s[i];
  } else {
    CHV_RETURN_IF_ERR(
        pq_scratch(&lf->scratch2, &lf->scratch2_cap, n * sizeof(int64_t), err));
    int64_t *x = lf->scratch2;
    to_i64(lf, ph, x);
    for (size_t i = 0; i < n; i++)
      d[i] = x[i];
  }
  int up = v->type->scale - fscale;
  if (up > 0) {
    /* Unsigned arithmetic: out-of-precision values wrap, never trap. */
    unsigned __int128 m = (unsigned __int128)chv_decimal_pow10(up);
    for (size_t i = 0; i < n; i++)
      d[i] = (chv_i128)((unsigned __int128)d[i] * m);
  }
  return CHV_OK;
}

/* ---- timestamps -------------------------------------------------------- */

#define JULIAN_EPOCH_DAY 2440588 /* Julian day of 1970-01-01 */

struct chv_timestamp pq_ts_from(int64_t v, int64_t per_sec) {
  int64_t s = v / per_sec, f = v % per_sec;
  if (f < 0) {
    f += per_sec;
    s--;
  }
  struct chv_timestamp t = {s, (int32_t)(f * (1000000000 / per_sec)), 0};
  return t;
}

static void store_timestamps(const struct pq_leaf *lf, const struct pq_phys *ph,
                             struct chv_vector *v, int64_t pos) {
  size_t n = ph->n;
  struct chv_timestamp *d = (struct chv_timestamp *)v->data + pos;
  if (lf->conv == CHV_PQ_CONV_INT96) {
    const uint8_t *s = ph->fixed;
    for (size_t i = 0; i < n; i++, s += 12) {
      int64_t nod;
      int32_t jd;
      memcpy(&nod, s, 8);
      memcpy(&jd, s + 8, 4);
      /* Microseconds since the epoch in wrapping 64-bit arithmetic, then
      ** the nanoseconds below a microsecond: exact over int64
      ** microseconds (years -290307..294246, far beyond what int64
      ** nanoseconds hold), and it gives back the values Spark stored
      ** with that same wrapping arithmetic (its far-future dates). */
      int64_t us = nod / 1000, sub = nod % 1000;
      if (sub < 0) {
        sub += 1000;
        us--;
      }
      uint64_t u =
          (uint64_t)((int64_t)jd - JULIAN_EPOCH_DAY) * UINT64_C(86400000000) +
          (uint64_t)us;
      struct chv_timestamp t = pq_ts_from((int64_t)u, 1000000);
      t.nanos += (int32_t)sub;
      d[i] = t;
    }
    return;
  }
  int64_t per = lf->conv == CHV_PQ_CONV_TIMESTAMP_MILLIS   ? 1000
                : lf->conv == CHV_PQ_CONV_TIMESTAMP_MICROS ? 1000000
                                                           : 1000000000;
  const int64_t *s = ph->fixed;
  for (size_t i = 0; i < n; i++)
    d[i] = pq_ts_from(s[i], per);
}

/* ---- strings and binaries ---------------------------------------------- */

static void uuid_format(const uint8_t *p, char *out) {
  static const char hex[] = "0123456789abcdef";
  int k = 0;
  for (int i = 0; i < 16; i++) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out[k++] = '-';
    out[k++] = hex[p[i] >> 4];
    out[k++] = hex[p[i] & 15];
  }
}

static int store_bytes(struct pq_leaf *lf, const struct pq_phys *ph,
                       struct chv_vector *v, int64_t pos,
                       struct chv_error *err) {
  size_t n = ph->n, stride = (size_t)lf->type_len;
  enum chv_type_id id = v->type->id;
  bool uuid = lf->conv == CHV_PQ_CONV_UUID;
  if (id == CHV_TYPE_VARCHAR || id == CHV_TYPE_CHAR) {
    /* Hive's length rule, value by value. */
    for (size_t i = 0; i < n; i++) {
      char u[36];
      const char *p = (const char *)bv_ptr(ph, stride, i);
      size_t l = bv_len(ph, stride, i);
      if (uuid) {
        uuid_format((const uint8_t *)p, u);
        p = u;
        l = 36;
      }
      CHV_RETURN_IF_ERR(chv_vector_append_string(v, p, l, err));
    }
    return CHV_OK;
  }
  uint64_t total = 0;
  if (uuid) {
    total = (uint64_t)n * 36;
  } else {
    for (size_t i = 0; i < n; i++)
      total += bv_len(ph, stride, i);
  }
  if (total > INT32_MAX)
    return chv_error_set(err, CHV_ERANGE,
                         "string data of one vector exceeds 2 GiB");
  CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(v, (int64_t)total, err));
  char *heap = v->bytes;
  int64_t at = v->bytes_len;
  int32_t *o = v->offsets + pos;
  if (uuid) {
    for (size_t i = 0; i < n; i++) {
      uuid_format(bv_ptr(ph, stride, i), heap + at);
      at += 36;
      o[i + 1] = (int32_t)at;
    }
  } else if (ph->offs) {
    for (size_t i = 0; i < n; i++) {
      size_t l = ph->lens[i];
      memcpy(heap + at, ph->base + ph->offs[i], l);
      at += (int64_t)l;
      o[i + 1] = (int32_t)at;
    }
  } else {
    const uint8_t *s = ph->fixed;
    for (size_t i = 0; i < n; i++, s += stride) {
      memcpy(heap + at, s, stride);
      at += (int64_t)stride;
      o[i + 1] = (int32_t)at;
    }
  }
  v->bytes_len = at;
  v->length = pos + (int64_t)n;
  return CHV_OK;
}

/* ---- entry points ------------------------------------------------------ */

int pq_store(struct pq_leaf *lf, const struct pq_phys *ph, struct chv_vector *v,
             struct chv_error *err) {
  size_t n = ph->n;
  if (n == 0) return CHV_OK;
  int64_t pos = v->length;
  CHV_RETURN_IF_ERR(chv_vector_reserve(v, pos + (int64_t)n, err));
  switch (v->type->id) {
  case CHV_TYPE_BOOLEAN: {
    const uint8_t *b = ph->fixed;
    uint8_t *d = v->data;
    for (size_t i = 0; i < n; i++)
      chv_bit_set(d, pos + (int64_t)i, b[i]);
    break;
  }
  case CHV_TYPE_TINYINT:
  case CHV_TYPE_SMALLINT:
  case CHV_TYPE_INT:
  case CHV_TYPE_BIGINT:
  case CHV_TYPE_DATE:
    CHV_RETURN_IF_ERR(store_ints(lf, ph, v, pos, err));
    break;
  case CHV_TYPE_FLOAT:
  case CHV_TYPE_DOUBLE:
    CHV_RETURN_IF_ERR(store_reals(lf, ph, v, pos, err));
    break;
  case CHV_TYPE_DECIMAL:
    CHV_RETURN_IF_ERR(store_decimals(lf, ph, v, pos, err));
    break;
  case CHV_TYPE_TIMESTAMP:
    store_timestamps(lf, ph, v, pos);
    break;
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
  case CHV_TYPE_BINARY:
    return store_bytes(lf, ph, v, pos, err); /* sets the length */
  default:
    return chv_error_set(err, CHV_EINTERNAL, "%s is not a leaf type",
                         chv_type_id_name(v->type->id));
  }
  v->length = pos + (int64_t)n;
  return CHV_OK;
}

int pq_gather(const struct chv_vector *dict, const uint32_t *idx, size_t n,
              struct chv_vector *v, struct chv_error *err) {
  if (n == 0) return CHV_OK;
  int64_t pos = v->length;
  CHV_RETURN_IF_ERR(chv_vector_reserve(v, pos + (int64_t)n, err));
  enum chv_type_id id = v->type->id;
  if (id == CHV_TYPE_BOOLEAN) {
    const uint8_t *s = dict->data;
    uint8_t *d = v->data;
    for (size_t i = 0; i < n; i++)
      chv_bit_set(d, pos + (int64_t)i, chv_bit_get(s, idx[i]));
  } else if (chv_type_is_string_like(id)) {
    const int32_t *so = dict->offsets;
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
      total += (uint64_t)(so[idx[i] + 1] - so[idx[i]]);
    if (total > INT32_MAX)
      return chv_error_set(err, CHV_ERANGE,
                           "string data of one vector exceeds 2 GiB");
    CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(v, (int64_t)total + 16, err));
    char *heap = v->bytes;
    const char *src = dict->bytes;
    int64_t at = v->bytes_len, scap = dict->bytes_cap;
    int32_t *o = v->offsets + pos;
    for (size_t i = 0; i < n; i++) {
      int32_t a = so[idx[i]], l = so[idx[i] + 1] - a;
      /* Short values as one 16-byte move where both heaps have room. */
      if (l <= 16 && scap - a >= 16)
        memcpy(heap + at, src + a, 16);
      else
        memcpy(heap + at, src + a, (size_t)l);
      at += l;
      o[i + 1] = (int32_t)at;
    }
    v->bytes_len = at;
  } else {
    switch (chv_type_fixed_width(id)) {
    case 1: {
      const int8_t *s = dict->data;
      int8_t *d = (int8_t *)v->data + pos;
      for (size_t i = 0; i < n; i++)
        d[i] = s[idx[i]];
      break;
    }
    case 2: {
      const int16_t *s = dict->data;
      int16_t *d = (int16_t *)v->data + pos;
      for (size_t i = 0; i < n; i++)
        d[i] = s[idx[i]];
      break;
    }
    case 4: {
      const int32_t *s = dict->data;
      int32_t *d = (int32_t *)v->data + pos;
      for (size_t i = 0; i < n; i++)
        d[i] = s[idx[i]];
      break;
    }
    case 8: {
      const int64_t *s = dict->data;
      int64_t *d = (int64_t *)v->data + pos;
      for (size_t i = 0; i < n; i++)
        d[i] = s[idx[i]];
      break;
    }
    default: { /* 16: DECIMAL, TIMESTAMP */
      const char *s = dict->data;
      char *d = (char *)v->data + pos * 16;
      for (size_t i = 0; i < n; i++)
        memcpy(d + i * 16, s + (size_t)idx[i] * 16, 16);
      break;
    }
    }
  }
  v->length = pos + (int64_t)n;
  return CHV_OK;
}

int pq_spread(struct chv_vector *v, int64_t pos, const uint8_t *d, size_t k,
              int slot_def, int max_def, int64_t nv, int64_t slots,
              struct chv_error *err) {
  if (slots == nv) {
    v->length = pos + slots;
    return CHV_OK;
  }
  CHV_RETURN_IF_ERR(chv_vector_reserve(v, pos + slots, err));
  CHV_RETURN_IF_ERR(pq_ensure_validity(v, err));
  enum chv_type_id id = v->type->id;
  uint8_t *valid = v->validity;
  int64_t j = nv, s = slots;
  if (id == CHV_TYPE_BOOLEAN) {
    uint8_t *bits = v->data;
    for (size_t i = k; i-- > 0;) {
      if (d[i] < slot_def) continue;
      s--;
      if (d[i] >= max_def) {
        j--;
        chv_bit_set(bits, pos + s, chv_bit_get(bits, pos + j));
      } else {
        chv_bit_set(bits, pos + s, false);
        chv_bit_set(valid, pos + s, false);
      }
    }
  } else if (chv_type_is_string_like(id)) {
    int32_t *o = v->offsets + pos;
    for (size_t i = k; i-- > 0;) {
      if (d[i] < slot_def) continue;
      s--;
      /* Slot s ends where dense value j - 1 ends (where the values before
      ** it end, for a NULL). */
      o[s + 1] = o[j];
      if (d[i] >= max_def)
        j--;
      else
        chv_bit_set(valid, pos + s, false);
    }
  } else {
    size_t w = chv_type_fixed_width(id);
    char *base = (char *)v->data + pos * (int64_t)w;
    for (size_t i = k; i-- > 0;) {
      if (d[i] < slot_def) continue;
      s--;
      if (d[i] >= max_def) {
        j--;
        if (s != j) memcpy(base + s * (int64_t)w, base + j * (int64_t)w, w);
      } else {
        memset(base + s * (int64_t)w, 0, w);
        chv_bit_set(valid, pos + s, false);
      }
    }
  }
  CHV_ASSERT(j == 0 && s == 0);
  v->null_count += slots - nv;
  v->length = pos + slots;
  return CHV_OK;
}

int pq_append_nulls(struct chv_vector *v, int64_t k, struct chv_error *err) {
  if (k <= 0) return CHV_OK;
  int64_t pos = v->length;
  CHV_RETURN_IF_ERR(chv_vector_reserve(v, pos + k, err));
  CHV_RETURN_IF_ERR(pq_ensure_validity(v, err));
  for (int64_t i = pos; i < pos + k; i++)
    chv_bit_set(v->validity, i, false);
  v->null_count += k;
  enum chv_type_id id = v->type->id;
  switch (id) {
  case CHV_TYPE_BOOLEAN:
    for (int64_t i = pos; i < pos + k; i++)
      chv_bit_set(v->data, i, false);
    break;
  case CHV_TYPE_STRING:
  case CHV_TYPE_VARCHAR:
  case CHV_TYPE_CHAR:
  case CHV_TYPE_BINARY:
  case CHV_TYPE_ARRAY:
  case CHV_TYPE_MAP:
    for (int64_t i = pos; i < pos + k; i++)
      v->offsets[i + 1] = v->offsets[pos];
    break;
  case CHV_TYPE_STRUCT:
    for (int c = 0; c < v->nchildren; c++)
      CHV_RETURN_IF_ERR(pq_append_nulls(v->children[c], k, err));
    break;
  default: {
    size_t w = chv_type_fixed_width(id);
    memset((char *)v->data + pos * (int64_t)w, 0, (size_t)k * w);
    break;
  }
  }
  v->length = pos + k;
  return CHV_OK;
}
