/*
** sql/func fn_search.c: the string functions that look for text in text:
** instr, locate, find_in_set, replace, translate, substring_index,
** levenshtein and soundex.  Their arguments arrive as STRING (positions as
** INT); a row is NULL when an argument is.
**
** Positions are Hive's: instr and locate count bytes, as Hive's
** GenericUDFUtils.findText does (docs/func.md says where that differs
** from counting characters); translate and levenshtein work on characters.
**
** INTERFACE: chv_fn_instr(), chv_fn_locate(), chv_fn_find_in_set(),
** chv_fn_replace(), chv_fn_translate(), chv_fn_substring_index(),
** chv_fn_levenshtein(), chv_fn_soundex() (func_int.h).
*/
#include "sql/func/func_int.h"

/* The first occurrence of w[0, wn) in s[from, sn), or -1; an empty w is
** found at from. */
static int64_t find(const char *s, int64_t sn, const char *w, int64_t wn,
                    int64_t from) {
  if (from < 0 || from > sn) return -1;
  if (wn == 0) return from;
  const char *p = memmem(s + from, (size_t)(sn - from), w, (size_t)wn);
  return p ? p - s : -1;
}

/* The last occurrence of w in s starting at or before `before`, or -1. */
static int64_t find_last(const char *s, int64_t sn, const char *w, int64_t wn,
                         int64_t before) {
  if (before > sn - wn) before = sn - wn;
  for (int64_t i = before; i >= 0; i--)
    if (memcmp(s + i, w, (size_t)wn) == 0) return i;
  return -1;
}

/* An INT result per row from f(args, row); NULL where an argument is. */
#define INT_ROWS(nulls_of, expr)                                              \
  do {                                                                        \
    CHV_RETURN_IF_ERR(chv_func_out_start(out, n, true, err));                 \
    int32_t *r = out->data;                                                   \
    for (int64_t j = 0; j < n; j++)                                           \
      r[j] = chv_func_any_null(args, nulls_of, j) ? 0 : (expr);               \
    return chv_func_out_nulls(out, args, nulls_of, n, err);                   \
  } while (0)

static int32_t instr_row(const struct chv_func_arg *args, int64_t j) {
  const char *s, *w;
  int64_t sn, wn;
  chv_func_arg_str(&args[0], j, &s, &sn);
  chv_func_arg_str(&args[1], j, &w, &wn);
  return (int32_t)(find(s, sn, w, wn, 0) + 1);
}

/* instr(s, w): 1 + the byte offset of w's first occurrence in s, 0 when
** there is none. */
int chv_fn_instr(const struct chv_func_arg *args, int nargs, int64_t n,
                 struct chv_vector *out, struct chv_error *err) {
  INT_ROWS(2, instr_row(args, j));
}

static int32_t locate_row(const struct chv_func_arg *args, int nargs,
                          int64_t j) {
  const char *s, *w;
  if (nargs > 2 && chv_func_arg_null(&args[2], j)) return 0;
  int64_t sn, wn, pos = nargs > 2 ? chv_func_arg_i64(&args[2], j) : 1;
  if (pos < 1) return 0;
  chv_func_arg_str(&args[0], j, &w, &wn);
  chv_func_arg_str(&args[1], j, &s, &sn);
  return (int32_t)(find(s, sn, w, wn, pos - 1) + 1);
}

/* locate(w, s[, pos]): as instr, from byte pos (1-based); 0 when pos is
** below 1 or NULL (as Hive has it), NULL when w or s is. */
int chv_fn_locate(const struct chv_func_arg *args, int nargs, int64_t n,
                  struct chv_vector *out, struct chv_error *err) {
  INT_ROWS(2, locate_row(args, nargs, j));
}

static int32_t find_in_set_row(const struct chv_func_arg *args, int64_t j) {
  const char *w, *s;
  int64_t wn, sn;
  chv_func_arg_str(&args[0], j, &w, &wn);
  chv_func_arg_str(&args[1], j, &s, &sn);
  if (memchr(w, ',', (size_t)wn)) return 0;
  int32_t k = 1;
  for (int64_t i = 0;; k++) {
    const char *c = memchr(s + i, ',', (size_t)(sn - i));
    int64_t e = c ? c - s : sn;
    if (e - i == wn && memcmp(s + i, w, (size_t)wn) == 0) return k;
    if (c == NULL) return 0;
    i = e + 1;
  }
}

/* find_in_set(w, list): the 1-based place of w among the comma-separated
** items of list, 0 when absent or when w holds a comma. */
int chv_fn_find_in_set(const struct chv_func_arg *args, int nargs, int64_t n,
                       struct chv_vector *out, struct chv_error *err) {
  INT_ROWS(2, find_in_set_row(args, j));
}

/* Bytes of the UTF-8 sequence that starts with byte c (1 for a stray
** continuation byte, so that every byte is consumed). */
static inline int64_t seq_len(unsigned char c) {
  return c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
}

/* The next code point of s[i, n), advancing *i. */
static uint32_t next_cp(const char *s, int64_t n, int64_t *i) {
  const unsigned char *u = (const unsigned char *)s;
  int64_t k = seq_len(u[*i]);
  if (*i + k > n) k = n - *i;
  uint32_t cp = k == 1 ? u[*i] : u[*i] & (0x7F >> k);
  for (int64_t m = 1; m < k; m++) cp = (cp << 6) | (u[*i + m] & 0x3F);
  *i += k;
  return cp;
}

/* replace(s, w, r): every occurrence of w in s, left to right and not
** overlapping, replaced by r.  An empty w, as Java's String.replace has
** it, puts r before every character and at the end. */
int chv_fn_replace(const struct chv_func_arg *args, int nargs, int64_t n,
                   struct chv_vector *out, struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, false, err));
  for (int64_t j = 0; j < n; j++) {
    if (chv_func_any_null(args, 3, j)) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(out, err));
      continue;
    }
    const char *s, *w, *r;
    int64_t sn, wn, rn, start = out->bytes_len;
    chv_func_arg_str(&args[0], j, &s, &sn);
    chv_func_arg_str(&args[1], j, &w, &wn);
    chv_func_arg_str(&args[2], j, &r, &rn);
    for (int64_t i = 0; i <= sn;) {
      int64_t at = wn ? find(s, sn, w, wn, i) : i;
      int64_t upto = at < 0 ? sn : at;
      if (wn == 0 && i < sn) upto = i;
      CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(out, upto - i + rn, err));
      memcpy(out->bytes + out->bytes_len, s + i, (size_t)(upto - i));
      out->bytes_len += upto - i;
      if (at < 0) break;
      memcpy(out->bytes + out->bytes_len, r, (size_t)rn);
      out->bytes_len += rn;
      if (wn) {
        i = at + wn;
        continue;
      }
      if (i == sn) break;
      int64_t k = seq_len((unsigned char)s[i]);
      if (i + k > sn) k = sn - i;
      CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(out, k, err));
      memcpy(out->bytes + out->bytes_len, s + i, (size_t)k);
      out->bytes_len += k;
      i += k;
    }
    if (out->bytes_len - start > INT32_MAX)
      return chv_error_set(err, CHV_ERANGE, "replace: a result is larger "
                           "than a batch can hold");
    out->offsets[out->length + 1] = (int32_t)out->bytes_len;
    out->length++;
  }
  return CHV_OK;
}

/* translate(s, from, to): each character of s found in from (its first
** place there) becomes the character at that place in to, or is dropped
** when to is shorter. */
int chv_fn_translate(const struct chv_func_arg *args, int nargs, int64_t n,
                     struct chv_vector *out, struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, false, err));
  for (int64_t j = 0; j < n; j++) {
    if (chv_func_any_null(args, 3, j)) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(out, err));
      continue;
    }
    const char *s, *f, *t;
    int64_t sn, fn, tn;
    chv_func_arg_str(&args[0], j, &s, &sn);
    chv_func_arg_str(&args[1], j, &f, &fn);
    chv_func_arg_str(&args[2], j, &t, &tn);
    /* each result character is at most as long as the longest of to's */
    CHV_RETURN_IF_ERR(chv_vector_reserve_bytes(out, sn * 4, err));
    char *d = out->bytes + out->bytes_len;
    for (int64_t i = 0; i < sn;) {
      int64_t c0 = i;
      uint32_t c = next_cp(s, sn, &i);
      int64_t fi = 0, place = -1;
      for (int64_t k = 0; fi < fn; k++)
        if (next_cp(f, fn, &fi) == c) {
          place = k;
          break;
        }
      if (place < 0) {
        memcpy(d, s + c0, (size_t)(i - c0)), d += i - c0;
        continue;
      }
      int64_t ti = 0, k = 0;
      while (ti < tn && k < place) next_cp(t, tn, &ti), k++;
      if (ti < tn) {
        int64_t t0 = ti;
        next_cp(t, tn, &ti);
        memcpy(d, t + t0, (size_t)(ti - t0)), d += ti - t0;
      }
    }
    int64_t len = d - (out->bytes + out->bytes_len);
    out->bytes_len += len;
    out->offsets[out->length + 1] = (int32_t)out->bytes_len;
    out->length++;
  }
  return CHV_OK;
}

/* substring_index(s, delim, k): s before the k-th delim from the left
** (k > 0) or after the |k|-th from the right (k < 0); all of s when there
** are fewer; '' for k = 0 or an empty s or delim.  Occurrences may
** overlap, as Commons Lang's ordinalIndexOf counts them. */
int chv_fn_substring_index(const struct chv_func_arg *args, int nargs,
                           int64_t n, struct chv_vector *out,
                           struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, false, err));
  for (int64_t j = 0; j < n; j++) {
    if (chv_func_any_null(args, 3, j)) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(out, err));
      continue;
    }
    const char *s, *w;
    int64_t sn, wn, k = chv_func_arg_i64(&args[2], j), b = 0, e = 0;
    chv_func_arg_str(&args[0], j, &s, &sn);
    chv_func_arg_str(&args[1], j, &w, &wn);
    if (k != 0 && sn > 0 && wn > 0) {
      int64_t at = k > 0 ? -1 : sn, seen = 0, want = k > 0 ? k : -k;
      do {
        at = k > 0 ? find(s, sn, w, wn, at + 1) : find_last(s, sn, w, wn, at - 1);
      } while (at >= 0 && ++seen < want);
      b = 0, e = sn;
      if (at >= 0 && k > 0) e = at;
      if (at >= 0 && k < 0) b = at + wn;
    }
    CHV_RETURN_IF_ERR(chv_vector_append_bytes(out, e > b ? s + b : "",
                                              (size_t)(e - b), err));
  }
  return CHV_OK;
}

/* The code points of s[0, n) into a (at most n of them); their count. */
static int64_t code_points_of(const char *s, int64_t n, uint32_t *a) {
  int64_t c = 0;
  for (int64_t i = 0; i < n;) a[c++] = next_cp(s, n, &i);
  return c;
}

/* levenshtein(a, b): the least number of one-character insertions,
** deletions and substitutions that turn a into b. */
int chv_fn_levenshtein(const struct chv_func_arg *args, int nargs, int64_t n,
                       struct chv_vector *out, struct chv_error *err) {
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, true, err));
  int32_t *r = out->data;
  uint32_t *buf = NULL;
  int64_t cap = 0;
  for (int64_t j = 0; j < n; j++) {
    r[j] = 0;
    if (chv_func_any_null(args, 2, j)) continue;
    const char *a, *b;
    int64_t an, bn;
    chv_func_arg_str(&args[0], j, &a, &an);
    chv_func_arg_str(&args[1], j, &b, &bn);
    if (an + bn + bn + 1 > cap) {
      cap = an + 2 * bn + 1;
      uint32_t *nb = chv_realloc(buf, (size_t)cap * sizeof *buf);
      if (nb == NULL) {
        chv_free(buf);
        return chv_func_oom(err);
      }
      buf = nb;
    }
    uint32_t *ca = buf, *cb = buf + an, *row = cb + bn;
    an = code_points_of(a, an, ca);
    bn = code_points_of(b, bn, cb);
    for (int64_t y = 0; y <= bn; y++) row[y] = (uint32_t)y;
    for (int64_t x = 1; x <= an; x++) {
      uint32_t diag = row[0];
      row[0] = (uint32_t)x;
      for (int64_t y = 1; y <= bn; y++) {
        uint32_t up = row[y];
        uint32_t best = diag + (ca[x - 1] != cb[y - 1]);
        if (up + 1 < best) best = up + 1;
        if (row[y - 1] + 1 < best) best = row[y - 1] + 1;
        row[y] = best;
        diag = up;
      }
    }
    r[j] = (int32_t)row[bn];
  }
  chv_free(buf);
  return chv_func_out_nulls(out, args, 2, n, err);
}

/* soundex(s): American Soundex of s's ASCII letters (others are skipped):
** the first letter, then up to three digits of the letters' sound groups,
** a group repeated only when a vowel stands between (H and W do not
** part them), padded with 0; '' when s has no letter. */
int chv_fn_soundex(const struct chv_func_arg *args, int nargs, int64_t n,
                   struct chv_vector *out, struct chv_error *err) {
  static const char code[] = "01230120022455012623010202";
  CHV_RETURN_IF_ERR(chv_func_out_start(out, n, false, err));
  for (int64_t j = 0; j < n; j++) {
    if (chv_func_arg_null(&args[0], j)) {
      CHV_RETURN_IF_ERR(chv_vector_append_null(out, err));
      continue;
    }
    const char *s;
    int64_t sn, len = 0;
    char r[4] = {'0', '0', '0', '0'}, last = 0;
    chv_func_arg_str(&args[0], j, &s, &sn);
    for (int64_t i = 0; i < sn && len < 4; i++) {
      char c = s[i];
      if (c >= 'a' && c <= 'z') c = (char)(c ^ 0x20);
      if (c < 'A' || c > 'Z') continue;
      char d = code[c - 'A'];
      if (len == 0) r[len++] = c;
      else if (c == 'H' || c == 'W') continue;
      else if (d != '0' && d != last) r[len++] = d;
      last = d;
    }
    CHV_RETURN_IF_ERR(chv_vector_append_bytes(out, r, len ? 4 : 0, err));
  }
  return CHV_OK;
}
