/*
** sql/func kernel.c: what the scalar kernels share: starting a result
** vector and giving it the NULLs of the arguments (the AND of their
** validity bitmaps, a byte at a time where an argument is dense).
**
** INTERFACE: chv_func_out_start(), chv_func_out_nulls(), chv_func_oom()
** (func_int.h).
*/
#include "sql/func/func_int.h"

int chv_func_oom(struct chv_error *err) {
  return chv_error_set(err, CHV_ENOMEM, "out of memory evaluating a "
                       "function");
}

int chv_func_out_start(struct chv_vector *out, int64_t n, bool fixed,
                       struct chv_error *err) {
  chv_vector_reset(out);
  CHV_RETURN_IF_ERR(chv_vector_reserve(out, n > 0 ? n : 1, err));
  if (fixed) {
    out->length = n;
    if (out->type->id == CHV_TYPE_BOOLEAN && n > 0)
      memset(out->data, 0, (size_t)((n + 7) / 8));
  }
  return CHV_OK;
}

/* Validity of out, allocated all valid on first use; NULL on OOM. */
static uint8_t *out_validity(struct chv_vector *out) {
  if (out->validity == NULL) {
    int64_t nb = (out->capacity + 7) / 8;
    out->validity = chv_malloc((size_t)(nb > 0 ? nb : 1));
    if (out->validity == NULL) return NULL;
    memset(out->validity, 0xff, (size_t)(nb > 0 ? nb : 1));
  }
  return out->validity;
}

int chv_func_out_nulls(struct chv_vector *out, const struct chv_func_arg *args,
                       int nargs, int64_t n, struct chv_error *err) {
  int64_t nb = (n + 7) / 8;
  bool first = true;
  for (int k = 0; k < nargs; k++) {
    const struct chv_func_arg *a = &args[k];
    if (a->v == NULL ? !a->k->is_null : a->v->null_count == 0) continue;
    uint8_t *ov = out_validity(out);
    if (ov == NULL) return chv_func_oom(err);
    if (a->v == NULL) {
      memset(ov, 0, (size_t)nb);
    } else if (a->sel == NULL) {
      const uint8_t *iv = a->v->validity;
      if (first) memcpy(ov, iv, (size_t)nb);
      else
        for (int64_t j = 0; j < nb; j++) ov[j] &= iv[j];
    } else {
      if (first) memset(ov, 0xff, (size_t)nb);
      for (int64_t j = 0; j < n; j++)
        if (chv_vector_is_null(a->v, a->sel[j])) chv_bit_set(ov, j, false);
    }
    first = false;
  }
  out->null_count = 0;
  if (out->validity) {
    int64_t full = n / 8, nulls = 0;
    for (int64_t i = 0; i < full; i++)
      nulls += 8 - __builtin_popcount(out->validity[i]);
    for (int64_t i = full * 8; i < n; i++)
      nulls += !chv_bit_get(out->validity, i);
    out->null_count = nulls;
  }
  return CHV_OK;
}
