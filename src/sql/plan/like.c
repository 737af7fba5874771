/*
** sql/plan like.c: Hive's LIKE.  A pattern is compiled once into a list of
** steps (a run of literal bytes, '_' = one UTF-8 character, '%' = any run),
** with '\' escaping the next character ('\%', '\_', '\\'); a trailing lone
** '\' stands for itself.  Matching is the usual greedy wildcard walk that
** backtracks to the last '%', linear for patterns with one '%', O(n*m) at
** worst; common shapes (exact, 'abc%', '%abc', '%abc%', and literals
** between '%'s without '_') take shortcuts.
**
** INTERFACE: chv_like_compile(), chv_like_match().
*/
#include "sql/plan/expr.h"

enum step_kind { STEP_LIT, STEP_ONE, STEP_ANY };

struct step {
  enum step_kind kind;
  const char *lit; /* STEP_LIT bytes */
  size_t len;
};

enum like_shape { SHAPE_GENERIC, SHAPE_EXACT, SHAPE_PREFIX, SHAPE_SUFFIX,
                  SHAPE_CONTAINS, SHAPE_SEGMENTS };

struct chv_like {
  int nsteps;
  struct step *steps;
  enum like_shape shape;
  const char *lit; /* the literal of the special shapes */
  size_t len;
};

int chv_like_compile(chv_arena *a, const char *p, size_t n,
                     struct chv_like **out, struct chv_error *err) {
  struct chv_like *lk = chv_arena_alloc(a, sizeof *lk);
  struct step *st = chv_arena_alloc(a, sizeof *st * (n + 1));
  char *lits = chv_arena_alloc(a, n + 1);
  if (lk == NULL || st == NULL || lits == NULL)
    return chv_error_set(err, CHV_ENOMEM, "out of memory compiling LIKE");
  int ns = 0;
  size_t lp = 0;
  for (size_t i = 0; i < n; i++) {
    char c = p[i];
    if (c == '%' || c == '_') {
      if (c == '%' && ns > 0 && st[ns - 1].kind == STEP_ANY) continue;
      st[ns++] = (struct step){c == '%' ? STEP_ANY : STEP_ONE, NULL, 0};
      continue;
    }
    if (c == '\\' && i + 1 < n) c = p[++i];
    if (ns == 0 || st[ns - 1].kind != STEP_LIT)
      st[ns++] = (struct step){STEP_LIT, lits + lp, 0};
    lits[lp++] = c;
    st[ns - 1].len++;
  }
  lk->nsteps = ns;
  lk->steps = st;
  lk->shape = SHAPE_GENERIC;
  if (ns == 0 || (ns == 1 && st[0].kind == STEP_LIT)) {
    lk->shape = SHAPE_EXACT;
  } else if (ns == 2 && st[0].kind == STEP_LIT && st[1].kind == STEP_ANY) {
    lk->shape = SHAPE_PREFIX;
  } else if (ns == 2 && st[0].kind == STEP_ANY && st[1].kind == STEP_LIT) {
    lk->shape = SHAPE_SUFFIX;
  } else if (ns == 3 && st[0].kind == STEP_ANY && st[1].kind == STEP_LIT &&
             st[2].kind == STEP_ANY) {
    lk->shape = SHAPE_CONTAINS;
  }
  bool one = false;
  for (int i = 0; i < ns; i++) one |= st[i].kind == STEP_ONE;
  if (lk->shape == SHAPE_GENERIC && !one) lk->shape = SHAPE_SEGMENTS;
  if (lk->shape != SHAPE_GENERIC && lk->shape != SHAPE_SEGMENTS) {
    const struct step *l = NULL;
    for (int i = 0; i < ns; i++)
      if (st[i].kind == STEP_LIT) l = &st[i];
    lk->lit = l ? l->lit : "";
    lk->len = l ? l->len : 0;
  }
  *out = lk;
  return CHV_OK;
}

/* Bytes of the UTF-8 character starting at s[0] (1 for a stray byte). */
static size_t utf8_len(const char *s, size_t n) {
  unsigned char c = (unsigned char)s[0];
  size_t k = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  if (k > n) return 1;
  for (size_t i = 1; i < k; i++)
    if (((unsigned char)s[i] & 0xC0) != 0x80) return 1;
  return k;
}

static bool match_steps(const struct step *st, int ns, const char *s,
                        size_t n) {
  int si = 0;
  size_t pos = 0;
  int star = -1;      /* step after the last '%' */
  size_t star_pos = 0; /* where that '%' currently ends */
  for (;;) {
    if (si == ns) {
      if (pos == n) return true;
    } else if (st[si].kind == STEP_ANY) {
      star = ++si;
      star_pos = pos;
      continue;
    } else if (st[si].kind == STEP_ONE) {
      if (pos < n) {
        pos += utf8_len(s + pos, n - pos);
        si++;
        continue;
      }
    } else if (n - pos >= st[si].len &&
               memcmp(s + pos, st[si].lit, st[si].len) == 0) {
      pos += st[si].len;
      si++;
      continue;
    }
    /* mismatch: let the last '%' take one more character */
    if (star < 0 || star_pos >= n) return false;
    star_pos += utf8_len(s + star_pos, n - star_pos);
    pos = star_pos;
    si = star;
  }
}

/* Literals and '%' only ('%special%requests%'): an anchored first and
** last literal where the pattern starts or ends with one, and each literal
** between found leftmost after the one before (memmem), which is a match
** exactly when one exists. */
static bool match_segments(const struct step *st, int ns, const char *s,
                           size_t n) {
  size_t pos = 0, end = n;
  int lo = 0, hi = ns;
  if (st[0].kind == STEP_LIT) {
    if (n < st[0].len || memcmp(s, st[0].lit, st[0].len) != 0) return false;
    pos = st[0].len;
    lo = 1;
  }
  if (hi > lo && st[hi - 1].kind == STEP_LIT) {
    size_t len = st[hi - 1].len;
    if (end - pos < len || memcmp(s + end - len, st[hi - 1].lit, len) != 0)
      return false;
    end -= len;
    hi--;
  }
  for (int i = lo; i < hi; i++) {
    if (st[i].kind != STEP_LIT) continue;
    const char *f = memmem(s + pos, end - pos, st[i].lit, st[i].len);
    if (!f) return false;
    pos = (size_t)(f - s) + st[i].len;
  }
  return true;
}

bool chv_like_match(const struct chv_like *lk, const char *s, size_t n) {
  switch (lk->shape) {
  case SHAPE_EXACT:
    return n == lk->len && (n == 0 || memcmp(s, lk->lit, n) == 0);
  case SHAPE_PREFIX:
    return n >= lk->len && memcmp(s, lk->lit, lk->len) == 0;
  case SHAPE_SUFFIX:
    return n >= lk->len && memcmp(s + n - lk->len, lk->lit, lk->len) == 0;
  case SHAPE_CONTAINS:
    return lk->len == 0 || (n >= lk->len && memmem(s, n, lk->lit, lk->len));
  case SHAPE_SEGMENTS: return match_segments(lk->steps, lk->nsteps, s, n);
  default:
    return match_steps(lk->steps, lk->nsteps, s, n);
  }
}
