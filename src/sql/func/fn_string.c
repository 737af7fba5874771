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

/* Room for `total` more bytes of one result row: the row is refused past
** the heap's 32-bit offsets (repeat and space can ask for any size). */
static int reserve_row(struct chv_vector *out, int64_t total, const char *fn,
                       struct chv_error *err) {
  if (total > INT32_MAX - out->bytes_len)
    return chv_error_set(err, CHV_ERANGE, "%s: a result of %lld bytes is "
                         "larger than a batch can hold", fn,
                         (long long)total);
  return chv_vector_reserve_bytes(out, total, err);
}

/* Close the row whose `total` bytes were written at the heap's end. */
static inline void end_row(struct chv_vector *out, int64_t total) {
  out->bytes_len += total;
  out->offsets[out->length + 1] = (int32_t)out->bytes_len;
  out->length++;
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
    CHV_RETURN_IF_ERR(reserve_row(out, total, "concat", err));
    char *d = out->bytes + out->bytes_len;
    for (int k = 0; k < nargs; k++) {
      chv_func_arg_str(&args[k], j, &p, &len);
      if (len) memcpy(d, p, (size_t)len);
      d += len;
    }
    end_row(out, total);
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

/* Hive's UDFSubstr counting UTF-8 characters (bytes of a BINARY): 1-based
** pos, negative from the end, 0 the start; abs(pos) past the length or
** len <= 0 give ''. */
int chv_fn_substr(const struct chv_func_arg *args, int nargs, int64_t n,
                  struct chv_vector *out, struct chv_error *err) {
  bool bytes = args[0].type->id == CHV_TYPE_BINARY;
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
    chars = slen;
    if (!bytes) chv_utf8_prefix(s, (size_t)slen, INT64_MAX, &chars);
    if (len <= 0 || (pos < 0 ? -pos : pos) > chars) {
      CHV_RETURN_IF_ERR(put(out, s, 0, err));
      continue;
    }
    int64_t start = pos > 0 ? pos - 1 : pos < 0 ? chars + pos : 0;
    int64_t end = chars - start < len ? chars : start + len;
    size_t b0 = (size_t)start, b1 = (size_t)end;
    if (!bytes) {
      b0 = chv_utf8_prefix(s, (size_t)slen, start, NULL);
      b1 = chv_utf8_prefix(s, (size_t)slen, end, NULL);
    }
    CHV_RETURN_IF_ERR(put(out, s + b0, (int64_t)(b1 - b0), err));
  }
  return CHV_OK;
}

/* The UTF-8 sequence at p[0, n) is one of the characters of set[0, sn). */
static bool in_set(const char *p, int64_t n, const char *set, int64_t sn) {
  for (int64_t i = 0; i < sn;) {
    int64_t k = 1;
    while (i + k < sn && ((unsigned char)set[i + k] & 0xC0) == 0x80) k++;
    if (k == n && memcmp(set + i, p, (size_t)n) == 0) return true;
    i += k;
  }
  return false;
}

/* trim, ltrim and rtrim: the characters of chars (spaces without it) off
** the start (TRIM_LEFT), the end (TRIM_RIGHT) or both. */
enum { TRIM_LEFT = 1, TRIM_RIGHT = 2 };

static int trim_ends(const struct chv_func_arg *args, int nargs, int64_t n,
                     int ends, struct chv_vector *out, struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, false, err));
  for (int64_t j = 0; j < n; j++) {
    if (chv_func_any_null(args, nargs, j)) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(out, err));
      continue;
    }
    const char *p, *set = " ";
    int64_t len, sn = 1;
    chv_func_arg_str(&args[0], j, &p, &len);
    if (nargs > 1) chv_func_arg_str(&args[1], j, &set, &sn);
    if (ends & TRIM_LEFT)
      while (len > 0) {
        int64_t k = 1;
        while (k < len && ((unsigned char)p[k] & 0xC0) == 0x80) k++;
        if (!in_set(p, k, set, sn)) break;
        p += k, len -= k;
      }
    if (ends & TRIM_RIGHT)
      while (len > 0) {
        int64_t k = 1;
        while (k < len && ((unsigned char)p[len - k] & 0xC0) == 0x80) k++;
        if (!in_set(p + len - k, k, set, sn)) break;
        len -= k;
      }
    CHV_RETURN_IF_ERR(put(out, p, len, err));
  }
  return CHV_OK;
}

int chv_fn_trim(const struct chv_func_arg *args, int nargs, int64_t n,
                struct chv_vector *out, struct chv_error *err) {
  return trim_ends(args, nargs, n, TRIM_LEFT | TRIM_RIGHT, out, err);
}

int chv_fn_ltrim(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err) {
  return trim_ends(args, nargs, n, TRIM_LEFT, out, err);
}

int chv_fn_rtrim(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err) {
  return trim_ends(args, nargs, n, TRIM_RIGHT, out, err);
}

/* lpad and rpad in characters: s cut to len characters, or filled to len
** on the left (right) with pad repeated and cut.  A negative len, or an
** empty pad where one is needed, gives NULL. */
static int pad(const struct chv_func_arg *args, int64_t n, bool left,
               struct chv_vector *out, struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, false, err));
  for (int64_t j = 0; j < n; j++) {
    const char *s, *f;
    int64_t slen, flen, chars, fchars;
    int64_t len = chv_func_any_null(args, 3, j) ? -1
                                                : chv_func_arg_i64(&args[1], j);
    if (len >= 0) {
      chv_func_arg_str(&args[0], j, &s, &slen);
      chv_func_arg_str(&args[2], j, &f, &flen);
      chv_utf8_prefix(s, (size_t)slen, INT64_MAX, &chars);
      chv_utf8_prefix(f, (size_t)flen, INT64_MAX, &fchars);
      if (chars < len && fchars == 0) len = -1;
    }
    if (len < 0) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(out, err));
      continue;
    }
    if (chars >= len) {
      size_t b = chv_utf8_prefix(s, (size_t)slen, len, NULL);
      CHV_RETURN_IF_ERR(put(out, s, (int64_t)b, err));
      continue;
    }
    int64_t need = len - chars, whole = need / fchars;
    size_t part = chv_utf8_prefix(f, (size_t)flen, need % fchars, NULL);
    int64_t total = slen + whole * flen + (int64_t)part;
    CHV_RETURN_IF_ERR(reserve_row(out, total, left ? "lpad" : "rpad", err));
    char *d = out->bytes + out->bytes_len;
    if (!left) memcpy(d, s, (size_t)slen), d += slen;
    for (int64_t i = 0; i < whole; i++) memcpy(d, f, (size_t)flen), d += flen;
    memcpy(d, f, part), d += part;
    if (left) memcpy(d, s, (size_t)slen);
    end_row(out, total);
  }
  return CHV_OK;
}

int chv_fn_lpad(const struct chv_func_arg *args, int nargs, int64_t n,
                struct chv_vector *out, struct chv_error *err) {
  return pad(args, n, true, out, err);
}

int chv_fn_rpad(const struct chv_func_arg *args, int nargs, int64_t n,
                struct chv_vector *out, struct chv_error *err) {
  return pad(args, n, false, out, err);
}

/* repeat(s, k): s k times, '' for k < 1; space(k): repeat(' ', k). */
static int repeat_text(const struct chv_func_arg *s_arg,
                       const struct chv_func_arg *k_arg, const char *fn,
                       int64_t n, struct chv_vector *out,
                       struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, false, err));
  for (int64_t j = 0; j < n; j++) {
    if (chv_func_arg_null(k_arg, j) ||
        (s_arg != NULL && chv_func_arg_null(s_arg, j))) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(out, err));
      continue;
    }
    const char *p = " ";
    int64_t len = 1, k = chv_func_arg_i64(k_arg, j);
    if (s_arg != NULL) chv_func_arg_str(s_arg, j, &p, &len);
    if (k < 1 || len == 0) k = 0;
    if (k > 0 && k > INT32_MAX / len)
      return reserve_row(out, (int64_t)INT32_MAX + 1, fn, err);
    CHV_RETURN_IF_ERR(reserve_row(out, k * len, fn, err));
    char *d = out->bytes + out->bytes_len;
    if (len == 1) memset(d, p[0], (size_t)k);
    else
      for (int64_t i = 0; i < k; i++) memcpy(d + i * len, p, (size_t)len);
    end_row(out, k * len);
  }
  return CHV_OK;
}

int chv_fn_repeat(const struct chv_func_arg *args, int nargs, int64_t n,
                  struct chv_vector *out, struct chv_error *err) {
  return repeat_text(&args[0], &args[1], "repeat", n, out, err);
}

int chv_fn_space(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err) {
  return repeat_text(NULL, &args[0], "space", n, out, err);
}

/* The characters of s in reverse order (UTF-8 sequences kept whole). */
int chv_fn_reverse(const struct chv_func_arg *args, int nargs, int64_t n,
                   struct chv_vector *out, struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, false, err));
  for (int64_t j = 0; j < n; j++) {
    if (chv_func_arg_null(&args[0], j)) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(out, err));
      continue;
    }
    const char *p;
    int64_t len;
    chv_func_arg_str(&args[0], j, &p, &len);
    CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(out, len, err));
    char *d = out->bytes + out->bytes_len + len;
    for (int64_t i = 0; i < len;) {
      int64_t k = 1;
      while (i + k < len && ((unsigned char)p[i + k] & 0xC0) == 0x80) k++;
      d -= k;
      memcpy(d, p + i, (size_t)k);
      i += k;
    }
    end_row(out, len);
  }
  return CHV_OK;
}

/* initcap: the first letter of each word (after a space or at the start)
** in upper case, every other letter in lower case; ASCII letters only. */
int chv_fn_initcap(const struct chv_func_arg *args, int nargs, int64_t n,
                   struct chv_vector *out, struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, false, err));
  for (int64_t j = 0; j < n; j++) {
    if (chv_func_arg_null(&args[0], j)) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(out, err));
      continue;
    }
    const char *p;
    int64_t len;
    chv_func_arg_str(&args[0], j, &p, &len);
    CHV_RETURN_IF_ERR(put(out, p, len, err));
    char *d = out->bytes + out->bytes_len - len;
    bool start = true;
    for (int64_t i = 0; i < len; i++) {
      char c = d[i];
      if (start && c >= 'a' && c <= 'z') d[i] = (char)(c ^ 0x20);
      else if (!start && c >= 'A' && c <= 'Z') d[i] = (char)(c ^ 0x20);
      start = c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
              c == '\f' || c == '\v';
    }
  }
  return CHV_OK;
}

/* The first byte of s as a signed number (Java's byte), 0 for ''. */
int chv_fn_ascii(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, true, err));
  int32_t *r = out->data;
  for (int64_t j = 0; j < n; j++) {
    const char *p;
    int64_t len;
    r[j] = 0;
    if (chv_func_arg_null(&args[0], j)) continue;
    chv_func_arg_str(&args[0], j, &p, &len);
    if (len > 0) r[j] = (int8_t)p[0];
  }
  return chv_func_out_nulls(out, args, 1, n, err);
}

/* chr(x): the character of code x mod 256 (Latin-1, as UTF-8); '' for a
** negative x, the NUL character for a multiple of 256. */
int chv_fn_chr(const struct chv_func_arg *args, int nargs, int64_t n,
               struct chv_vector *out, struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, false, err));
  for (int64_t j = 0; j < n; j++) {
    if (chv_func_arg_null(&args[0], j)) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(out, err));
      continue;
    }
    int64_t x = chv_func_arg_i64(&args[0], j);
    char b[2];
    int64_t len = 0;
    if (x >= 0) {
      unsigned c = (unsigned)(x % 256);
      if (c < 0x80) b[len++] = (char)c;
      else b[len++] = (char)(0xC0 | (c >> 6)), b[len++] = (char)(0x80 | (c & 0x3F));
    }
    CHV_RETURN_IF_ERR(put(out, b, len, err));
  }
  return CHV_OK;
}

/* The number of bytes of s. */
int chv_fn_octet_length(const struct chv_func_arg *args, int nargs, int64_t n,
                        struct chv_vector *out, struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, true, err));
  int32_t *r = out->data;
  for (int64_t j = 0; j < n; j++) {
    const char *p;
    int64_t len;
    r[j] = 0;
    if (chv_func_arg_null(&args[0], j)) continue;
    chv_func_arg_str(&args[0], j, &p, &len);
    r[j] = (int32_t)len;
  }
  return chv_func_out_nulls(out, args, 1, n, err);
}

/* concat_ws(sep, s, ...): the non-NULL strings with sep between them; NULL
** when sep is. */
int chv_fn_concat_ws(const struct chv_func_arg *args, int nargs, int64_t n,
                     struct chv_vector *out, struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, false, err));
  for (int64_t j = 0; j < n; j++) {
    if (chv_func_arg_null(&args[0], j)) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(out, err));
      continue;
    }
    const char *sep, *p;
    int64_t seplen, len, total = 0, parts = 0;
    chv_func_arg_str(&args[0], j, &sep, &seplen);
    for (int k = 1; k < nargs; k++) {
      if (chv_func_arg_null(&args[k], j)) continue;
      chv_func_arg_str(&args[k], j, &p, &len);
      total += len + (parts++ ? seplen : 0);
    }
    CHV_RETURN_IF_ERR(reserve_row(out, total, "concat_ws", err));
    char *d = out->bytes + out->bytes_len;
    parts = 0;
    for (int k = 1; k < nargs; k++) {
      if (chv_func_arg_null(&args[k], j)) continue;
      if (parts++ && seplen) memcpy(d, sep, (size_t)seplen), d += seplen;
      chv_func_arg_str(&args[k], j, &p, &len);
      if (len) memcpy(d, p, (size_t)len), d += len;
    }
    end_row(out, total);
  }
  return CHV_OK;
}

/* elt(k, s1, s2, ...): s_k, NULL when k is NULL or outside 1..count. */
int chv_fn_elt(const struct chv_func_arg *args, int nargs, int64_t n,
               struct chv_vector *out, struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, false, err));
  for (int64_t j = 0; j < n; j++) {
    int64_t k = chv_func_arg_null(&args[0], j) ? 0
                                               : chv_func_arg_i64(&args[0], j);
    if (k < 1 || k >= nargs || chv_func_arg_null(&args[k], j)) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(out, err));
      continue;
    }
    const char *p;
    int64_t len;
    chv_func_arg_str(&args[k], j, &p, &len);
    CHV_RETURN_IF_ERR(put(out, p, len, err));
  }
  return CHV_OK;
}

/* quote(s): s in single quotes, each ' and \ in it escaped by a \. */
int chv_fn_quote(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, false, err));
  for (int64_t j = 0; j < n; j++) {
    if (chv_func_arg_null(&args[0], j)) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(out, err));
      continue;
    }
    const char *p;
    int64_t len, total = 2;
    chv_func_arg_str(&args[0], j, &p, &len);
    for (int64_t i = 0; i < len; i++) total += 1 + (p[i] == '\'' || p[i] == '\\');
    CHV_RETURN_IF_ERR(reserve_row(out, total, "quote", err));
    char *d = out->bytes + out->bytes_len;
    *d++ = '\'';
    for (int64_t i = 0; i < len; i++) {
      if (p[i] == '\'' || p[i] == '\\') *d++ = '\\';
      *d++ = p[i];
    }
    *d = '\'';
    end_row(out, total);
  }
  return CHV_OK;
}
