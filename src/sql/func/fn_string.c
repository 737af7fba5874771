/*
** sql/func fn_string.c: the string functions concat, upper, lower, length,
** substr and trim.  Their arguments arrive as STRING (the registry casts
** other types to it), each a column under a selection, a dense vector or a
** constant; a row is NULL when an argument is.  Results are appended row
** by row straight into the result vector's heap.
**
** INTERFACE: chv_fn_concat(), chv_fn_upper(), chv_fn_lower(),
** chv_fn_length(), chv_fn_substr(), chv_fn_trim() (func_int.h).
*/
#include "sql/func/func_int.h"

/* Append the bytes of one result row. */
static inline int put(struct chv_vector *out, const char *p, int64_t n,
                      struct chv_error *err) {
  return chv_vector_append_bytes(out, n ? p : "", (size_t)n, err);
}

int chv_fn_concat(const struct chv_func_arg *args, int nargs, int64_t n,
                  struct chv_vector *out, struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, false, err));
  for (int64_t j = 0; j < n; j++) {
    if (chv_func_any_null(args, nargs, j)) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(out, err));
      continue;
    }
    const char *p;
    int64_t len, total = 0;
    for (int k = 0; k < nargs; k++) {
      chv_func_arg_str(&args[k], j, &p, &len);
      total += len;
    }
    CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(out, total, err));
    char *d = out->bytes + out->bytes_len;
    for (int k = 0; k < nargs; k++) {
      chv_func_arg_str(&args[k], j, &p, &len);
      if (len) memcpy(d, p, (size_t)len);
      d += len;
    }
    out->bytes_len += total;
    out->offsets[out->length + 1] = (int32_t)out->bytes_len;
    out->length++;
  }
  return CHV_OK;
}

/* upper and lower change ASCII letters only (Java's are Unicode-aware). */
static int change_case(const struct chv_func_arg *a, int64_t n, bool up,
                       struct chv_vector *out, struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, false, err));
  char lo = up ? 'a' : 'A', hi = up ? 'z' : 'Z';
  for (int64_t j = 0; j < n; j++) {
    if (chv_func_arg_null(a, j)) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(out, err));
      continue;
    }
    const char *p;
    int64_t len;
    chv_func_arg_str(a, j, &p, &len);
    CHV_RETURN_IF_ERR(put(out, p, len, err));
    char *d = out->bytes + out->bytes_len - len;
    for (int64_t i = 0; i < len; i++)
      if (d[i] >= lo && d[i] <= hi) d[i] = (char)(d[i] ^ 0x20);
  }
  return CHV_OK;
}

int chv_fn_upper(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err) {
  return change_case(&args[0], n, true, out, err);
}

int chv_fn_lower(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err) {
  return change_case(&args[0], n, false, out, err);
}

/* UTF-8 code points of s[0, n): the bytes that are no continuation. */
static int32_t code_points(const char *s, int64_t n) {
  int32_t cp = 0;
  for (int64_t i = 0; i < n; i++) cp += ((unsigned char)s[i] & 0xC0) != 0x80;
  return cp;
}

int chv_fn_length(const struct chv_func_arg *args, int nargs, int64_t n,
                  struct chv_vector *out, struct chv_error *err) {
  const struct chv_func_arg *a = &args[0];
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, true, err));
  int32_t *r = out->data;
  for (int64_t j = 0; j < n; j++) {
    const char *p;
    int64_t len;
    r[j] = 0;
    if (chv_func_arg_null(a, j)) continue;
    chv_func_arg_str(a, j, &p, &len);
    r[j] = code_points(p, len);
  }
  return chv_func_out_nulls(out, args, 1, n, err);
}

/* Hive's UDFSubstr counting UTF-8 characters: 1-based pos, negative from
** the end, 0 the start; abs(pos) past the length or len <= 0 give ''. */
int chv_fn_substr(const struct chv_func_arg *args, int nargs, int64_t n,
                  struct chv_vector *out, struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, false, err));
  for (int64_t j = 0; j < n; j++) {
    if (chv_func_any_null(args, nargs, j)) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(out, err));
      continue;
    }
    const char *s;
    int64_t slen, chars;
    chv_func_arg_str(&args[0], j, &s, &slen);
    int64_t pos = chv_func_arg_i64(&args[1], j);
    int64_t len = nargs > 2 ? chv_func_arg_i64(&args[2], j) : INT32_MAX;
    chv_utf8_prefix(s, (size_t)slen, INT64_MAX, &chars);
    if (len <= 0 || (pos < 0 ? -pos : pos) > chars) {
      CHV_RETURN_IF_ERR(put(out, s, 0, err));
      continue;
    }
    int64_t start = pos > 0 ? pos - 1 : pos < 0 ? chars + pos : 0;
    int64_t end = chars - start < len ? chars : start + len;
    size_t b0 = chv_utf8_prefix(s, (size_t)slen, start, NULL);
    size_t b1 = chv_utf8_prefix(s, (size_t)slen, end, NULL);
    CHV_RETURN_IF_ERR(put(out, s + b0, (int64_t)(b1 - b0), err));
  }
  return CHV_OK;
}

/* Spaces (' ' only) off both ends. */
int chv_fn_trim(const struct chv_func_arg *args, int nargs, int64_t n,
                struct chv_vector *out, struct chv_error *err) {
  const struct chv_func_arg *a = &args[0];
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, false, err));
  for (int64_t j = 0; j < n; j++) {
    if (chv_func_arg_null(a, j)) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(out, err));
      continue;
    }
    const char *p;
    int64_t len;
    chv_func_arg_str(a, j, &p, &len);
    while (len > 0 && *p == ' ') p++, len--;
    while (len > 0 && p[len - 1] == ' ') len--;
    CHV_RETURN_IF_ERR(put(out, p, len, err));
  }
  return CHV_OK;
}
