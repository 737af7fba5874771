/*
** SQL parser: recursive descent over the tokens of lexer.c, building the
** tree of include/chive/sql.h in the caller's arena.  No catalog access:
** names, types and options are kept as written for the binder.
**
** Keywords are not reserved by the lexer; the parser compares words.  A few
** words (reserved_words[]) cannot be a bare column reference or an alias
** without AS, so that "FROM t WHERE" and "a AND b" read as intended; any
** word works as a table or column name in DDL and after a dot.
**
** Nesting (parentheses, sub-queries, NOT, unary minus, CASE) is limited to
** max_depth levels: deeper input is a syntax error, not a stack overflow.
**
** INTERFACE
**   chv_sql_parse(), chv_sql_parse_ex()
*/
#include "sql/parse/parse_int.h"

#include <stdio.h>
#include <strings.h>

#define DEFAULT_MAX_DEPTH 1000
#define LOOKAHEAD 3

struct parser {
  struct sql_lexer lx;
  chv_arena *arena;
  struct chv_error *err;
  struct chv_sql_pos *err_pos;
  struct sql_token tok[LOOKAHEAD]; /* lookahead, tok[0] is next */
  int ntok;
  struct sql_token prev; /* last consumed */
  int depth, max_depth;
  struct chv_sql_pos first_hint; /* of the statement; line 0: none yet */
  struct chv_sql_pos stray_hint; /* the first not taken as a table's */
};

/* A growing array in the arena. */
struct vec {
  void *data;
  size_t n, cap;
};

#define TRY(x) CHV_RETURN_IF_ERR(x)

static int vec_push(struct parser *p, struct vec *v, size_t sz, void **slot) {
  if (v->n == v->cap) {
    size_t ncap = v->cap ? v->cap * 2 : 4;
    void *nd = chv_arena_alloc(p->arena, ncap * sz);
    if (nd == NULL) return chv_error_set(p->err, CHV_ENOMEM, "out of memory");
    if (v->n) memcpy(nd, v->data, v->n * sz);
    v->data = nd;
    v->cap = ncap;
  }
  *slot = (char *)v->data + v->n * sz;
  memset(*slot, 0, sz);
  v->n++;
  return CHV_OK;
}

static int nomem(struct parser *p) {
  return chv_error_set(p->err, CHV_ENOMEM, "out of memory");
}

static int alloc_node(struct parser *p, size_t sz, void **out) {
  void *n = chv_arena_alloc(p->arena, sz);
  if (n == NULL) return nomem(p);
  memset(n, 0, sz);
  *out = n;
  return CHV_OK;
}

static int copy_text(struct parser *p, const char *s, size_t n,
                     const char **out) {
  char *c = chv_arena_strndup(p->arena, s, n);
  if (c == NULL) return nomem(p);
  *out = c;
  return CHV_OK;
}

/* ---- tokens ------------------------------------------------------------ */

static const struct sql_token *peek(struct parser *p, int i) {
  while (p->ntok <= i) sql_lex_next(&p->lx, &p->tok[p->ntok++]);
  return &p->tok[i];
}

/* Remember where the first hint of the statement opens (its text starts
** right after the three characters of its opening), and the first one the
** parser did not take as a table's: one where no hint belongs, or the
** first of two hint comments before one token (only the last is parsed). */
static void note_hint(struct parser *p, const struct sql_token *t) {
  if (t->hint == NULL) return;
  struct chv_sql_pos at = t->first_hint_pos;
  at.column -= 3;
  at.offset -= 3;
  if (p->first_hint.line == 0) p->first_hint = at;
  if ((!t->taken || t->nhints > 1) && p->stray_hint.line == 0)
    p->stray_hint = at;
}

static void next(struct parser *p) {
  peek(p, 0);
  note_hint(p, &p->tok[0]);
  p->prev = p->tok[0];
  memmove(&p->tok[0], &p->tok[1], (size_t)(p->ntok - 1) * sizeof p->tok[0]);
  p->ntok--;
}

static bool tok_is_kw(const struct sql_token *t, const char *kw) {
  size_t n = strlen(kw);
  return t->kind == TK_WORD && t->len == n && chv_str_nieq(t->start, kw, n);
}

static bool tok_is_op(const struct sql_token *t, const char *op) {
  size_t n = strlen(op);
  return t->kind == TK_OP && t->len == n && memcmp(t->start, op, n) == 0;
}

static bool peek_kw(struct parser *p, int i, const char *kw) {
  return tok_is_kw(peek(p, i), kw);
}

static bool peek_op(struct parser *p, int i, const char *op) {
  return tok_is_op(peek(p, i), op);
}

static bool accept_kw(struct parser *p, const char *kw) {
  if (!peek_kw(p, 0, kw)) return false;
  next(p);
  return true;
}

static bool accept_op(struct parser *p, const char *op) {
  if (!peek_op(p, 0, op)) return false;
  next(p);
  return true;
}

/* The syntax error at token t: "line L, column C: expected X, found Y". */
static int fail_at(struct parser *p, const struct sql_token *t,
                   const char *expected) {
  if (p->err_pos) *p->err_pos = t->pos;
  if (t->kind == TK_ERROR)
    return chv_error_set(p->err, CHV_ESYNTAX, "line %d, column %d: %s",
                         t->pos.line, t->pos.column, t->msg);
  if (t->kind == TK_EOF)
    return chv_error_set(p->err, CHV_ESYNTAX,
                         "line %d, column %d: expected %s, found end of input",
                         t->pos.line, t->pos.column, expected);
  char tok[CHV_ABBREV_SIZE];
  chv_str_abbrev(t->start, t->len, tok);
  if (t->kind == TK_STRING || t->kind == TK_DSTRING || t->kind == TK_QIDENT ||
      t->kind == TK_BINARY)
    return chv_error_set(p->err, CHV_ESYNTAX,
                         "line %d, column %d: expected %s, found %s",
                         t->pos.line, t->pos.column, expected, tok);
  return chv_error_set(p->err, CHV_ESYNTAX,
                       "line %d, column %d: expected %s, found '%s'",
                       t->pos.line, t->pos.column, expected, tok);
}

static int fail(struct parser *p, const char *expected) {
  return fail_at(p, peek(p, 0), expected);
}

static int expect_kw(struct parser *p, const char *kw, const char *expected) {
  if (accept_kw(p, kw)) return CHV_OK;
  return fail(p, expected);
}

static int expect_op(struct parser *p, const char *op, const char *expected) {
  if (accept_op(p, op)) return CHV_OK;
  return fail(p, expected);
}

static int enter(struct parser *p) {
  if (p->depth >= p->max_depth) {
    const struct sql_token *t = peek(p, 0);
    if (p->err_pos) *p->err_pos = t->pos;
    return chv_error_set(p->err, CHV_ESYNTAX,
                         "line %d, column %d: nesting deeper than %d levels",
                         t->pos.line, t->pos.column, p->max_depth);
  }
  p->depth++;
  return CHV_OK;
}

static void leave(struct parser *p) { p->depth--; }

/* ---- names, strings, properties ---------------------------------------- */

static const char *const reserved_words[] = {
    "SELECT", "FROM",   "WHERE",   "GROUP",   "BY",     "HAVING", "ORDER",
    "LIMIT",  "UNION",  "ALL",     "DISTINCT", "AS",    "ON",     "JOIN",
    "INNER",  "LEFT",   "RIGHT",   "FULL",    "CROSS",  "OUTER",  "AND",
    "OR",     "NOT",    "IN",      "IS",      "BETWEEN", "LIKE",  "RLIKE",
    "REGEXP", "CASE",   "WHEN",    "THEN",    "ELSE",   "END",    "CAST",
    "NULL",   "TRUE",   "FALSE",   "WITH",    "VALUES", "INSERT", "INTO",
    "OVERWRITE", "TABLE", "PARTITION", "FOR", "DIV",    "EXISTS", "ASC",
    "DESC",   "NULLS",  "INTERVAL", "SET",    "LATERAL", "WINDOW", "CLUSTER",
    "DISTRIBUTE", "SORT", "INTERSECT", "EXCEPT", "MINUS", "TABLESAMPLE"};

bool sql_is_reserved_word(const char *w) {
  for (size_t i = 0; i < CHV_ARRAY_SIZE(reserved_words); i++)
    if (chv_str_ieq(w, reserved_words[i])) return true;
  return false;
}

static bool is_reserved(const struct sql_token *t) {
  if (t->kind != TK_WORD) return false;
  for (size_t i = 0; i < CHV_ARRAY_SIZE(reserved_words); i++)
    if (tok_is_kw(t, reserved_words[i])) return true;
  return false;
}

/* The text of an identifier token (backquotes removed, `` unescaped). */
static int ident_text(struct parser *p, const struct sql_token *t,
                      const char **out) {
  if (t->kind == TK_QIDENT) {
    size_t n;
    char *s = sql_decode_string(p->arena, t->start, t->len, false, &n);
    if (s == NULL) return nomem(p);
    *out = s;
    return CHV_OK;
  }
  return copy_text(p, t->start, t->len, out);
}

/* An identifier: any word (reserved too, when any_word) or `quoted`. */
static int parse_ident_ex(struct parser *p, bool any_word, const char *what,
                          const char **out, struct chv_sql_pos *pos) {
  const struct sql_token *t = peek(p, 0);
  if (t->kind == TK_QIDENT || (t->kind == TK_WORD && (any_word ||
                                                      !is_reserved(t)))) {
    if (pos) *pos = t->pos;
    TRY(ident_text(p, t, out));
    next(p);
    return CHV_OK;
  }
  return fail(p, what);
}

static int parse_ident(struct parser *p, const char *what, const char **out) {
  return parse_ident_ex(p, true, what, out, NULL);
}

/* name [. name [. name]] */
static int parse_name(struct parser *p, const char *what,
                      struct chv_sql_name *n) {
  memset(n, 0, sizeof *n);
  TRY(parse_ident_ex(p, true, what, &n->parts[0], &n->pos));
  n->nparts = 1;
  while (peek_op(p, 0, ".")) {
    if (n->nparts == 3) return fail(p, "end of name (at most catalog.db.table)");
    next(p);
    TRY(parse_ident(p, "a name after '.'", &n->parts[n->nparts]));
    n->nparts++;
  }
  return CHV_OK;
}

static bool is_string_tok(struct parser *p, const struct sql_token *t) {
  return t->kind == TK_STRING ||
         (t->kind == TK_DSTRING && p->lx.dialect == CHV_SQL_DIALECT_HIVE);
}

static int decode_tok(struct parser *p, const struct sql_token *t,
                      const char **out, size_t *len) {
  size_t n;
  char *s = sql_decode_string(p->arena, t->start, t->len,
                              p->lx.dialect == CHV_SQL_DIALECT_HIVE, &n);
  if (s == NULL) return nomem(p);
  *out = s;
  if (len) *len = n;
  return CHV_OK;
}

static int parse_string(struct parser *p, const char *what, const char **out) {
  const struct sql_token *t = peek(p, 0);
  if (!is_string_tok(p, t)) return fail(p, what);
  TRY(decode_tok(p, t, out, NULL));
  next(p);
  return CHV_OK;
}

/* '(' 'k' = 'v' , ... ')' */
static int parse_props(struct parser *p, struct chv_sql_props *props) {
  struct vec v = {0};
  TRY(expect_op(p, "(", "'(' before properties"));
  if (!peek_op(p, 0, ")")) {
    do {
      struct chv_sql_prop *pr = NULL;
      TRY(vec_push(p, &v, sizeof *pr, (void **)&pr));
      pr->pos = peek(p, 0)->pos;
      TRY(parse_string(p, "a quoted property key", &pr->key));
      TRY(expect_op(p, "=", "'=' after property key"));
      TRY(parse_string(p, "a quoted property value", &pr->value));
    } while (accept_op(p, ","));
  }
  TRY(expect_op(p, ")", "')' or ',' after property"));
  props->items = v.data;
  props->n = v.n;
  return CHV_OK;
}

/* ---- types ------------------------------------------------------------- */

static bool is_type_word(const char *w) {
  static const char *const words[] = {"PRECISION", "WITH",    "WITHOUT",
                                      "LOCAL",     "TIME",    "ZONE",
                                      "VARYING"};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(words); i++)
    if (chv_str_ieq(w, words[i])) return true;
  return false;
}

/* A column type, kept as its exact source span: a word, then balanced
** (...) and <...> groups (struct field names with ':' inside), and the
** multi-word forms DOUBLE PRECISION, TIMESTAMP(3) WITH LOCAL TIME ZONE. */
static int parse_type(struct parser *p, const char **text,
                      struct chv_sql_pos *pos) {
  const struct sql_token *t = peek(p, 0);
  if (t->kind != TK_WORD || is_reserved(t)) return fail(p, "a type name");
  const char *start = t->start;
  *pos = t->pos;
  next(p);
  for (;;) {
    if (peek_op(p, 0, "<>")) { /* struct<>: an empty group */
      next(p);
      continue;
    }
    if (peek_op(p, 0, "(") || peek_op(p, 0, "<")) {
      char stack[64];
      int sp = 0;
      stack[sp++] = peek(p, 0)->start[0] == '(' ? ')' : '>';
      next(p);
      while (sp > 0) {
        t = peek(p, 0);
        if (t->kind == TK_EOF || t->kind == TK_ERROR ||
            tok_is_op(t, ";")) {
          return fail(p, stack[sp - 1] == ')' ? "')' closing the type"
                                              : "'>' closing the type");
        }
        if (tok_is_op(t, "(") || tok_is_op(t, "<")) {
          if (sp == (int)sizeof stack)
            return fail(p, "a simpler type (nested too deep)");
          stack[sp++] = t->start[0] == '(' ? ')' : '>';
        } else if (tok_is_op(t, ")") || tok_is_op(t, ">")) {
          if (t->start[0] != stack[sp - 1])
            return fail(p, stack[sp - 1] == ')' ? "')' closing the type"
                                                : "'>' closing the type");
          sp--;
        } else if (tok_is_op(t, "<>")) {
          /* struct<> : opens and closes */
        } else if (t->kind == TK_OP && !tok_is_op(t, ",") &&
                   !tok_is_op(t, ":")) {
          return fail(p, "a type");
        }
        next(p);
      }
      continue;
    }
    t = peek(p, 0);
    if (t->kind == TK_WORD && t->len < 16) {
      char w[16];
      memcpy(w, t->start, t->len);
      w[t->len] = '\0';
      if (is_type_word(w) && (!chv_str_ieq(w, "WITH") ||
                              peek_kw(p, 1, "LOCAL") || peek_kw(p, 1, "TIME"))) {
        next(p);
        continue;
      }
    }
    break;
  }
  const char *end = p->prev.start + p->prev.len;
  return copy_text(p, start, (size_t)(end - start), text);
}

/* ---- expressions ------------------------------------------------------- */

static int parse_expr(struct parser *p, struct chv_sql_expr **out);
static int parse_query(struct parser *p, struct chv_sql_query **out);
static int parse_unary(struct parser *p, struct chv_sql_expr **out);
static int parse_concat(struct parser *p, struct chv_sql_expr **out);

static int new_expr(struct parser *p, enum chv_sql_expr_kind kind,
                    struct chv_sql_pos pos, struct chv_sql_expr **out) {
  TRY(alloc_node(p, sizeof **out, (void **)out));
  (*out)->kind = kind;
  (*out)->pos = pos;
  return CHV_OK;
}

static int new_binary(struct parser *p, enum chv_sql_op op,
                      struct chv_sql_expr *l, struct chv_sql_expr *r,
                      struct chv_sql_expr **out) {
  TRY(new_expr(p, CHV_SQL_EXPR_BINARY, l->pos, out));
  (*out)->u.binary.op = op;
  (*out)->u.binary.left = l;
  (*out)->u.binary.right = r;
  return CHV_OK;
}

static bool starts_query(struct parser *p, int i) {
  return peek_kw(p, i, "SELECT") || peek_kw(p, i, "WITH") ||
         peek_kw(p, i, "VALUES");
}

static int parse_expr_list(struct parser *p, struct vec *v) {
  do {
    struct chv_sql_expr **slot = NULL;
    TRY(vec_push(p, v, sizeof *slot, (void **)&slot));
    TRY(parse_expr(p, slot));
  } while (accept_op(p, ","));
  return CHV_OK;
}

static int parse_number(struct parser *p, struct chv_sql_expr *e,
                        const struct sql_token *t) {
  e->u.lit.kind = CHV_SQL_LIT_INTEGER;
  TRY(copy_text(p, t->start, t->len, &e->u.lit.text));
  size_t n = t->len;
  while (n > 0 && ((t->start[n - 1] >= 'A' && t->start[n - 1] <= 'Z') ||
                   (t->start[n - 1] >= 'a' && t->start[n - 1] <= 'z'))) {
    n--;
  }
  TRY(copy_text(p, t->start, n, &e->u.lit.value));
  e->u.lit.value_len = n;
  if (n < t->len) {
    const char *suf = t->start + n;
    TRY(copy_text(p, suf, t->len - n, &e->u.lit.suffix));
    if (chv_str_nieq(suf, "BD", 2))
      e->u.lit.kind = CHV_SQL_LIT_DECIMAL;
    else if (suf[0] == 'D' || suf[0] == 'd')
      e->u.lit.kind = CHV_SQL_LIT_DOUBLE;
    else
      e->u.lit.kind = CHV_SQL_LIT_INTEGER;
    if (e->u.lit.kind == CHV_SQL_LIT_INTEGER &&
        memchr(t->start, '.', n) != NULL)
      return fail_at(p, t, "an integer before the Y, S or L suffix");
  } else if (memchr(t->start, 'e', n) || memchr(t->start, 'E', n)) {
    e->u.lit.kind = CHV_SQL_LIT_DOUBLE;
  } else if (memchr(t->start, '.', n)) {
    e->u.lit.kind = CHV_SQL_LIT_DECIMAL;
  }
  return CHV_OK;
}

static bool is_interval_unit(const struct sql_token *t) {
  static const char *const units[] = {"YEAR",   "MONTH",  "DAY",   "HOUR",
                                      "MINUTE", "SECOND", "YEARS", "MONTHS",
                                      "DAYS",   "HOURS",  "MINUTES",
                                      "SECONDS", "WEEK", "WEEKS"};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(units); i++)
    if (tok_is_kw(t, units[i])) return true;
  return false;
}

/* CASE [x] WHEN a THEN b ... [ELSE c] END */
static int parse_case(struct parser *p, struct chv_sql_expr *e) {
  struct vec w = {0}, th = {0};
  if (!peek_kw(p, 0, "WHEN")) TRY(parse_expr(p, &e->u.case_.operand));
  if (!peek_kw(p, 0, "WHEN")) return fail(p, "WHEN");
  while (accept_kw(p, "WHEN")) {
    struct chv_sql_expr **a, **b;
    a = b = NULL;
    TRY(vec_push(p, &w, sizeof *a, (void **)&a));
    TRY(parse_expr(p, a));
    TRY(expect_kw(p, "THEN", "THEN"));
    TRY(vec_push(p, &th, sizeof *b, (void **)&b));
    TRY(parse_expr(p, b));
  }
  if (accept_kw(p, "ELSE")) TRY(parse_expr(p, &e->u.case_.else_));
  TRY(expect_kw(p, "END", "WHEN, ELSE or END"));
  e->u.case_.when = w.data;
  e->u.case_.then = th.data;
  e->u.case_.n = w.n;
  return CHV_OK;
}

/* A column reference or qualified star after its first part. */
static int parse_column(struct parser *p, struct chv_sql_expr *e) {
  struct chv_sql_name *n = &e->u.column;
  const struct sql_token *t = peek(p, 0);
  n->pos = t->pos;
  TRY(ident_text(p, t, &n->parts[0]));
  next(p);
  n->nparts = 1;
  while (peek_op(p, 0, ".")) {
    next(p);
    if (accept_op(p, "*")) {
      e->kind = CHV_SQL_EXPR_STAR;
      return CHV_OK;
    }
    if (n->nparts == 3)
      return fail(p, "'*' (a column has at most db.table.column)");
    TRY(parse_ident(p, "a name or '*' after '.'", &n->parts[n->nparts]));
    n->nparts++;
  }
  return CHV_OK;
}

static int parse_order_items(struct parser *p, struct chv_sql_query *q);
static int parse_window(struct parser *p, struct chv_sql_window **out);

/* The SQL forms of TRIM, after "TRIM(": [LEADING | TRAILING | BOTH]
** [chars] FROM s, read as ltrim / rtrim / trim(s[, chars]); *done false
** (nothing read but a first argument in *first, maybe NULL) when the
** call is a plain one. */
static int parse_trim_from(struct parser *p, struct chv_sql_expr *e,
                           struct chv_sql_expr **first, bool *done) {
  const char *as = NULL;
  *first = NULL;
  *done = false;
  if (accept_kw(p, "LEADING")) as = "ltrim";
  else if (accept_kw(p, "TRAILING")) as = "rtrim";
  else if (accept_kw(p, "BOTH")) as = "trim";
  struct chv_sql_expr *chars = NULL, *str = NULL;
  if (as == NULL || !accept_kw(p, "FROM")) {
    if (as == NULL && peek_op(p, 0, ")")) return CHV_OK;
    TRY(parse_expr(p, &chars));
    if (!accept_kw(p, "FROM")) {
      if (as) return fail(p, "FROM in TRIM");
      *first = chars;
      return CHV_OK;
    }
  }
  TRY(parse_expr(p, &str));
  struct chv_sql_expr **args = NULL;
  TRY(alloc_node(p, 2 * sizeof *args, (void **)&args));
  args[0] = str;
  args[1] = chars;
  e->u.func.args = args;
  e->u.func.n = chars ? 2 : 1;
  if (as) e->u.func.name = as;
  *done = true;
  return expect_op(p, ")", "')' after TRIM's string");
}

static int parse_func(struct parser *p, struct chv_sql_expr *e) {
  const struct sql_token *t = peek(p, 0);
  bool word = t->kind == TK_WORD;
  TRY(ident_text(p, t, &e->u.func.name));
  next(p);
  next(p); /* ( */
  if (word && strcasecmp(e->u.func.name, "trim") == 0) {
    struct chv_sql_expr *first;
    bool done;
    TRY(parse_trim_from(p, e, &first, &done));
    if (done) return CHV_OK;
    if (first) {
      struct vec v = {0};
      struct chv_sql_expr **slot = NULL;
      TRY(vec_push(p, &v, sizeof *slot, (void **)&slot));
      *slot = first;
      if (accept_op(p, ",")) TRY(parse_expr_list(p, &v));
      e->u.func.args = v.data;
      e->u.func.n = v.n;
    }
    TRY(expect_op(p, ")", "')' or ',' in the argument list"));
    return CHV_OK;
  }
  if (accept_op(p, "*")) {
    e->u.func.star = true;
  } else if (!peek_op(p, 0, ")")) {
    if (accept_kw(p, "DISTINCT"))
      e->u.func.distinct = true;
    else
      accept_kw(p, "ALL");
    struct vec v = {0};
    TRY(parse_expr_list(p, &v));
    e->u.func.args = v.data;
    e->u.func.n = v.n;
  }
  TRY(expect_op(p, ")", "')' or ',' in the argument list"));
  /* OVER (...) or OVER w; a bare OVER stays an alias */
  const struct sql_token *w = peek(p, 1);
  if (peek_kw(p, 0, "OVER") &&
      (tok_is_op(w, "(") || w->kind == TK_QIDENT ||
       (w->kind == TK_WORD && !is_reserved(w)))) {
    next(p);
    TRY(parse_window(p, &e->u.func.over));
  }
  return CHV_OK;
}

/* One bound of a frame: UNBOUNDED PRECEDING|FOLLOWING, CURRENT ROW, or
** n PRECEDING|FOLLOWING. */
static int parse_frame_bound(struct parser *p, enum chv_sql_frame_bound *b,
                             struct chv_sql_expr **n) {
  if (accept_kw(p, "UNBOUNDED")) {
    if (accept_kw(p, "PRECEDING"))
      *b = CHV_SQL_FRAME_UNBOUNDED_PRECEDING;
    else if (accept_kw(p, "FOLLOWING"))
      *b = CHV_SQL_FRAME_UNBOUNDED_FOLLOWING;
    else
      return fail(p, "PRECEDING or FOLLOWING after UNBOUNDED");
    return CHV_OK;
  }
  if (accept_kw(p, "CURRENT")) {
    *b = CHV_SQL_FRAME_CURRENT_ROW;
    return expect_kw(p, "ROW", "ROW after CURRENT");
  }
  TRY(parse_concat(p, n));
  if (accept_kw(p, "PRECEDING"))
    *b = CHV_SQL_FRAME_PRECEDING;
  else if (accept_kw(p, "FOLLOWING"))
    *b = CHV_SQL_FRAME_FOLLOWING;
  else
    return fail(p, "PRECEDING or FOLLOWING after the frame's offset");
  return CHV_OK;
}

/* A window after OVER: a name, or ( [name] [PARTITION BY e, ...]
** [ORDER BY ...] [ROWS | RANGE frame] ). */
static int parse_window(struct parser *p, struct chv_sql_window **out) {
  struct chv_sql_window *w = NULL;
  TRY(alloc_node(p, sizeof *w, (void **)&w));
  const struct sql_token *t = peek(p, 0);
  w->pos = t->pos;
  if (!tok_is_op(t, "(")) {
    TRY(parse_ident(p, "a window name", &w->name));
    *out = w;
    return CHV_OK;
  }
  next(p);
  TRY(enter(p));
  t = peek(p, 0);
  if ((t->kind == TK_WORD || t->kind == TK_QIDENT) &&
      !peek_kw(p, 0, "PARTITION") && !peek_kw(p, 0, "ORDER") &&
      !peek_kw(p, 0, "ROWS") && !peek_kw(p, 0, "RANGE"))
    TRY(parse_ident(p, "a window name", &w->name));
  if (accept_kw(p, "PARTITION")) {
    TRY(expect_kw(p, "BY", "BY after PARTITION"));
    struct vec v = {0};
    TRY(parse_expr_list(p, &v));
    w->partition_by = v.data;
    w->npartition_by = v.n;
  }
  if (accept_kw(p, "ORDER")) {
    TRY(expect_kw(p, "BY", "BY after ORDER"));
    struct chv_sql_query q;
    memset(&q, 0, sizeof q);
    TRY(parse_order_items(p, &q));
    w->order_by = q.order_by;
    w->norder_by = q.norder_by;
  }
  if (peek_kw(p, 0, "ROWS") || peek_kw(p, 0, "RANGE")) {
    w->frame_pos = peek(p, 0)->pos;
    w->frame = peek_kw(p, 0, "ROWS") ? CHV_SQL_FRAME_ROWS : CHV_SQL_FRAME_RANGE;
    next(p);
    if (accept_kw(p, "BETWEEN")) {
      TRY(parse_frame_bound(p, &w->start, &w->start_n));
      TRY(expect_kw(p, "AND", "AND between the frame's bounds"));
      TRY(parse_frame_bound(p, &w->end, &w->end_n));
    } else { /* ROWS n PRECEDING: up to the current row */
      TRY(parse_frame_bound(p, &w->start, &w->start_n));
      w->end = CHV_SQL_FRAME_CURRENT_ROW;
    }
  }
  leave(p);
  TRY(expect_op(p, ")", "')' after the window"));
  *out = w;
  return CHV_OK;
}

static int parse_primary(struct parser *p, struct chv_sql_expr **out) {
  const struct sql_token *t = peek(p, 0);
  struct chv_sql_expr *e = NULL;
  if (t->kind == TK_NUMBER) {
    TRY(new_expr(p, CHV_SQL_EXPR_LITERAL, t->pos, &e));
    TRY(parse_number(p, e, t));
    next(p);
  } else if (is_string_tok(p, t) || t->kind == TK_BINARY) {
    TRY(new_expr(p, CHV_SQL_EXPR_LITERAL, t->pos, &e));
    e->u.lit.kind =
        t->kind == TK_BINARY ? CHV_SQL_LIT_BINARY : CHV_SQL_LIT_STRING;
    TRY(copy_text(p, t->start, t->len, &e->u.lit.text));
    if (t->kind == TK_BINARY) {
      size_t n;
      char *s = sql_decode_string(p->arena, t->start + 1, t->len - 1, false,
                                  &n);
      if (s == NULL) return nomem(p);
      e->u.lit.value = s;
      e->u.lit.value_len = n;
    } else {
      TRY(decode_tok(p, t, &e->u.lit.value, &e->u.lit.value_len));
    }
    next(p);
  } else if (tok_is_kw(t, "TRUE") || tok_is_kw(t, "FALSE") ||
             tok_is_kw(t, "NULL")) {
    TRY(new_expr(p, CHV_SQL_EXPR_LITERAL, t->pos, &e));
    e->u.lit.kind =
        tok_is_kw(t, "NULL") ? CHV_SQL_LIT_NULL : CHV_SQL_LIT_BOOLEAN;
    TRY(copy_text(p, t->start, t->len, &e->u.lit.text));
    e->u.lit.value = tok_is_kw(t, "TRUE") ? "TRUE"
                     : tok_is_kw(t, "FALSE") ? "FALSE" : NULL;
    e->u.lit.value_len = e->u.lit.value ? strlen(e->u.lit.value) : 0;
    next(p);
  } else if ((tok_is_kw(t, "DATE") || tok_is_kw(t, "TIMESTAMP")) &&
             is_string_tok(p, peek(p, 1))) {
    TRY(new_expr(p, CHV_SQL_EXPR_LITERAL, t->pos, &e));
    e->u.lit.kind =
        tok_is_kw(t, "DATE") ? CHV_SQL_LIT_DATE : CHV_SQL_LIT_TIMESTAMP;
    next(p);
    t = peek(p, 0);
    TRY(copy_text(p, t->start, t->len, &e->u.lit.text));
    TRY(decode_tok(p, t, &e->u.lit.value, &e->u.lit.value_len));
    next(p);
  } else if (tok_is_kw(t, "INTERVAL")) {
    TRY(new_expr(p, CHV_SQL_EXPR_LITERAL, t->pos, &e));
    e->u.lit.kind = CHV_SQL_LIT_INTERVAL;
    next(p);
    t = peek(p, 0);
    const char *sign = "";
    if (tok_is_op(t, "-")) {
      sign = "-";
      next(p);
      t = peek(p, 0);
    }
    if (is_string_tok(p, t)) {
      TRY(decode_tok(p, t, &e->u.lit.value, &e->u.lit.value_len));
    } else if (t->kind == TK_NUMBER) {
      TRY(copy_text(p, t->start, t->len, &e->u.lit.value));
      e->u.lit.value_len = t->len;
    } else {
      return fail(p, "a quoted interval value");
    }
    if (*sign) {
      char *v = chv_arena_alloc(p->arena, e->u.lit.value_len + 2);
      if (v == NULL) return nomem(p);
      v[0] = '-';
      memcpy(v + 1, e->u.lit.value, e->u.lit.value_len + 1);
      e->u.lit.value = v;
      e->u.lit.value_len++;
    }
    TRY(copy_text(p, t->start, t->len, &e->u.lit.text));
    next(p);
    t = peek(p, 0);
    if (!is_interval_unit(t)) return fail(p, "an interval unit (DAY, ...)");
    /* the unit's words, one space apart ("DAY TO HOUR"), whatever stands
    ** between them in the source */
    const char *u1 = t->start;
    size_t n1 = t->len;
    next(p);
    if (peek_kw(p, 0, "TO") && is_interval_unit(peek(p, 1))) {
      const struct sql_token *u2 = peek(p, 1);
      char *u = chv_arena_alloc(p->arena, n1 + 4 + u2->len + 1);
      if (u == NULL) return nomem(p);
      memcpy(u, u1, n1);
      memcpy(u + n1, " TO ", 4);
      memcpy(u + n1 + 4, u2->start, u2->len);
      u[n1 + 4 + u2->len] = '\0';
      e->u.lit.unit = u;
      next(p);
      next(p);
    } else {
      TRY(copy_text(p, u1, n1, &e->u.lit.unit));
    }
  } else if (tok_is_kw(t, "CASE")) {
    TRY(new_expr(p, CHV_SQL_EXPR_CASE, t->pos, &e));
    next(p);
    TRY(enter(p));
    TRY(parse_case(p, e));
    leave(p);
  } else if (tok_is_kw(t, "EXISTS") && peek_op(p, 1, "(")) {
    TRY(new_expr(p, CHV_SQL_EXPR_EXISTS, t->pos, &e));
    next(p);
    next(p);
    if (!starts_query(p, 0)) return fail(p, "a sub-query after EXISTS (");
    TRY(parse_query(p, &e->u.subquery));
    TRY(expect_op(p, ")", "')' after the sub-query of EXISTS"));
  } else if (tok_is_kw(t, "CAST") && peek_op(p, 1, "(")) {
    TRY(new_expr(p, CHV_SQL_EXPR_CAST, t->pos, &e));
    next(p);
    next(p);
    TRY(parse_expr(p, &e->u.cast.arg));
    TRY(expect_kw(p, "AS", "AS in CAST"));
    TRY(parse_type(p, &e->u.cast.type_text, &e->u.cast.type_pos));
    TRY(expect_op(p, ")", "')' after the CAST type"));
  } else if (tok_is_op(t, "(")) {
    struct chv_sql_pos pos = t->pos;
    next(p);
    if (starts_query(p, 0)) {
      TRY(new_expr(p, CHV_SQL_EXPR_SUBQUERY, pos, &e));
      TRY(parse_query(p, &e->u.subquery));
    } else {
      TRY(parse_expr(p, &e));
    }
    TRY(expect_op(p, ")", "')'"));
  } else if (tok_is_op(t, "*")) {
    TRY(new_expr(p, CHV_SQL_EXPR_STAR, t->pos, &e));
    e->u.star.pos = t->pos;
    next(p);
  } else if ((t->kind == TK_WORD || t->kind == TK_QIDENT) &&
             peek_op(p, 1, "(") &&
             (t->kind == TK_QIDENT || !is_reserved(t) ||
              tok_is_kw(t, "LEFT") || tok_is_kw(t, "RIGHT"))) {
    TRY(new_expr(p, CHV_SQL_EXPR_FUNC, t->pos, &e));
    TRY(parse_func(p, e));
  } else if (t->kind == TK_QIDENT || (t->kind == TK_WORD && !is_reserved(t))) {
    TRY(new_expr(p, CHV_SQL_EXPR_COLUMN, t->pos, &e));
    TRY(parse_column(p, e));
  } else {
    return fail(p, "an expression");
  }
  *out = e;
  return CHV_OK;
}

/* primary ('[' expr ']')* */
static int parse_postfix(struct parser *p, struct chv_sql_expr **out) {
  struct chv_sql_expr *e = NULL;
  TRY(parse_primary(p, &e));
  int k = 0;
  while (accept_op(p, "[")) {
    TRY(enter(p));
    k++;
    struct chv_sql_expr *idx = NULL, *b = NULL;
    TRY(parse_expr(p, &idx));
    TRY(expect_op(p, "]", "']'"));
    TRY(new_binary(p, CHV_SQL_OP_SUBSCRIPT, e, idx, &b));
    e = b;
  }
  p->depth -= k;
  *out = e;
  return CHV_OK;
}

static int parse_unary(struct parser *p, struct chv_sql_expr **out) {
  const struct sql_token *t = peek(p, 0);
  enum chv_sql_op op;
  if (tok_is_op(t, "-"))
    op = CHV_SQL_OP_NEG;
  else if (tok_is_op(t, "+"))
    op = CHV_SQL_OP_PLUS;
  else if (tok_is_op(t, "~"))
    op = CHV_SQL_OP_BITNOT;
  else
    return parse_postfix(p, out);
  struct chv_sql_expr *e = NULL;
  TRY(new_expr(p, CHV_SQL_EXPR_UNARY, t->pos, &e));
  next(p);
  TRY(enter(p));
  e->u.unary.op = op;
  TRY(parse_unary(p, &e->u.unary.arg));
  leave(p);
  *out = e;
  return CHV_OK;
}

static int parse_mul(struct parser *p, struct chv_sql_expr **out) {
  struct chv_sql_expr *l = NULL, *r = NULL;
  TRY(parse_unary(p, &l));
  int k = 0;
  for (;;) {
    enum chv_sql_op op;
    if (peek_op(p, 0, "*"))
      op = CHV_SQL_OP_MUL;
    else if (peek_op(p, 0, "/"))
      op = CHV_SQL_OP_DIV;
    else if (peek_op(p, 0, "%"))
      op = CHV_SQL_OP_MOD;
    else if (peek_kw(p, 0, "DIV"))
      op = CHV_SQL_OP_INTDIV;
    else
      break;
    next(p);
    TRY(enter(p));
    k++;
    TRY(parse_unary(p, &r));
    TRY(new_binary(p, op, l, r, &l));
  }
  p->depth -= k;
  *out = l;
  return CHV_OK;
}

static int parse_add(struct parser *p, struct chv_sql_expr **out) {
  struct chv_sql_expr *l = NULL, *r = NULL;
  TRY(parse_mul(p, &l));
  int k = 0;
  for (;;) {
    enum chv_sql_op op;
    if (peek_op(p, 0, "+"))
      op = CHV_SQL_OP_ADD;
    else if (peek_op(p, 0, "-"))
      op = CHV_SQL_OP_SUB;
    else
      break;
    next(p);
    TRY(enter(p));
    k++;
    TRY(parse_mul(p, &r));
    TRY(new_binary(p, op, l, r, &l));
  }
  p->depth -= k;
  *out = l;
  return CHV_OK;
}

static int parse_concat(struct parser *p, struct chv_sql_expr **out) {
  struct chv_sql_expr *l = NULL, *r = NULL;
  TRY(parse_add(p, &l));
  int k = 0;
  while (accept_op(p, "||")) {
    TRY(enter(p));
    k++;
    TRY(parse_add(p, &r));
    TRY(new_binary(p, CHV_SQL_OP_CONCAT, l, r, &l));
  }
  p->depth -= k;
  *out = l;
  return CHV_OK;
}

static bool comparison_op(const struct sql_token *t, enum chv_sql_op *op) {
  static const struct {
    const char *s;
    enum chv_sql_op op;
  } ops[] = {{"=", CHV_SQL_OP_EQ},  {"==", CHV_SQL_OP_EQ},
             {"<>", CHV_SQL_OP_NE}, {"!=", CHV_SQL_OP_NE},
             {"<", CHV_SQL_OP_LT},  {"<=", CHV_SQL_OP_LE},
             {">", CHV_SQL_OP_GT},  {">=", CHV_SQL_OP_GE},
             {"<=>", CHV_SQL_OP_NULL_EQ}};
  for (size_t i = 0; i < CHV_ARRAY_SIZE(ops); i++)
    if (tok_is_op(t, ops[i].s)) {
      *op = ops[i].op;
      return true;
    }
  return false;
}

/* concat followed by comparisons, IN, BETWEEN, LIKE, IS (left to right) */
static int parse_predicate(struct parser *p, struct chv_sql_expr **out) {
  struct chv_sql_expr *l = NULL, *e = NULL;
  TRY(parse_concat(p, &l));
  int depth0 = p->depth;
  for (;;) {
    const struct sql_token *t = peek(p, 0);
    enum chv_sql_op op;
    TRY(enter(p)); /* each further operand counts as a level */
    if (comparison_op(t, &op)) {
      struct chv_sql_expr *r = NULL;
      next(p);
      TRY(parse_concat(p, &r));
      TRY(new_binary(p, op, l, r, &l));
      continue;
    }
    if (tok_is_kw(t, "IS")) {
      TRY(new_expr(p, CHV_SQL_EXPR_IS, l->pos, &e));
      next(p);
      e->u.is.arg = l;
      e->u.is.negated = accept_kw(p, "NOT");
      if (accept_kw(p, "NULL"))
        e->u.is.what = CHV_SQL_IS_NULL;
      else if (accept_kw(p, "TRUE"))
        e->u.is.what = CHV_SQL_IS_TRUE;
      else if (accept_kw(p, "FALSE"))
        e->u.is.what = CHV_SQL_IS_FALSE;
      else
        return fail(p, "NULL, TRUE or FALSE after IS");
      l = e;
      continue;
    }
    bool neg = false;
    int k = 0;
    if (tok_is_kw(t, "NOT")) {
      neg = true;
      k = 1;
    }
    const struct sql_token *w = peek(p, k);
    if (tok_is_kw(w, "IN")) {
      TRY(new_expr(p, CHV_SQL_EXPR_IN, l->pos, &e));
      if (neg) next(p);
      next(p);
      e->u.in.arg = l;
      e->u.in.negated = neg;
      TRY(expect_op(p, "(", "'(' after IN"));
      struct vec v = {0};
      if (starts_query(p, 0)) {
        struct chv_sql_expr **slot = NULL;
        TRY(vec_push(p, &v, sizeof *slot, (void **)&slot));
        TRY(new_expr(p, CHV_SQL_EXPR_SUBQUERY, peek(p, 0)->pos, slot));
        TRY(parse_query(p, &(*slot)->u.subquery));
      } else {
        TRY(parse_expr_list(p, &v));
      }
      TRY(expect_op(p, ")", "')' or ',' in the IN list"));
      e->u.in.list = v.data;
      e->u.in.n = v.n;
    } else if (tok_is_kw(w, "BETWEEN")) {
      TRY(new_expr(p, CHV_SQL_EXPR_BETWEEN, l->pos, &e));
      if (neg) next(p);
      next(p);
      e->u.between.arg = l;
      e->u.between.negated = neg;
      TRY(parse_concat(p, &e->u.between.low));
      TRY(expect_kw(p, "AND", "AND in BETWEEN"));
      TRY(parse_concat(p, &e->u.between.high));
    } else if (tok_is_kw(w, "LIKE") || tok_is_kw(w, "RLIKE") ||
               tok_is_kw(w, "REGEXP")) {
      TRY(new_expr(p, CHV_SQL_EXPR_LIKE, l->pos, &e));
      e->u.like.regex = !tok_is_kw(w, "LIKE");
      if (neg) next(p);
      next(p);
      e->u.like.arg = l;
      e->u.like.negated = neg;
      TRY(parse_concat(p, &e->u.like.pattern));
    } else {
      break;
    }
    l = e;
  }
  p->depth = depth0;
  *out = l;
  return CHV_OK;
}

static int parse_not(struct parser *p, struct chv_sql_expr **out) {
  const struct sql_token *t = peek(p, 0);
  if (!tok_is_kw(t, "NOT")) return parse_predicate(p, out);
  struct chv_sql_expr *e = NULL;
  TRY(new_expr(p, CHV_SQL_EXPR_UNARY, t->pos, &e));
  next(p);
  e->u.unary.op = CHV_SQL_OP_NOT;
  TRY(enter(p));
  TRY(parse_not(p, &e->u.unary.arg));
  leave(p);
  *out = e;
  return CHV_OK;
}

static int parse_and(struct parser *p, struct chv_sql_expr **out) {
  struct chv_sql_expr *l = NULL, *r = NULL;
  TRY(parse_not(p, &l));
  int k = 0;
  while (accept_kw(p, "AND")) {
    TRY(enter(p));
    k++;
    TRY(parse_not(p, &r));
    TRY(new_binary(p, CHV_SQL_OP_AND, l, r, &l));
  }
  p->depth -= k;
  *out = l;
  return CHV_OK;
}

static int parse_expr(struct parser *p, struct chv_sql_expr **out) {
  struct chv_sql_expr *l = NULL, *r = NULL;
  TRY(enter(p));
  TRY(parse_and(p, &l));
  int k = 0;
  while (accept_kw(p, "OR")) {
    TRY(enter(p));
    k++;
    TRY(parse_and(p, &r));
    TRY(new_binary(p, CHV_SQL_OP_OR, l, r, &l));
  }
  p->depth -= k;
  leave(p);
  *out = l;
  return CHV_OK;
}

/* ---- hints ------------------------------------------------------------- */

/* The /\*+ name(args), ... *\/ hint attached to the next token, if any,
** into out, and the arguments of its OPTIONS hints (any case) into
** options.  The token is marked as having its hint taken. */
static int parse_hints(struct parser *p, struct chv_sql_hints *out,
                       struct chv_sql_props *options) {
  const struct sql_token *t = peek(p, 0);
  if (t->hint == NULL) return CHV_OK;
  struct parser sub = *p;
  sub.ntok = 0;
  sql_lex_init(&sub.lx, t->hint, t->hint_len, t->hint_pos, p->lx.dialect);
  struct vec v = {0};
  do {
    struct chv_sql_hint *h = NULL;
    TRY(vec_push(&sub, &v, sizeof *h, (void **)&h));
    h->pos = peek(&sub, 0)->pos;
    TRY(parse_ident(&sub, "a hint name", &h->name));
    TRY(expect_op(&sub, "(", "'(' after the hint name"));
    struct vec a = {0};
    if (!peek_op(&sub, 0, ")")) {
      do {
        struct chv_sql_prop *pr = NULL;
        TRY(vec_push(&sub, &a, sizeof *pr, (void **)&pr));
        pr->pos = peek(&sub, 0)->pos;
        if (is_string_tok(&sub, peek(&sub, 0))) {
          TRY(parse_string(&sub, "a hint option", &pr->key));
          if (accept_op(&sub, "="))
            TRY(parse_string(&sub, "a quoted hint option value", &pr->value));
        } else {
          TRY(parse_ident(&sub, "a hint argument", &pr->key));
        }
      } while (accept_op(&sub, ","));
    }
    TRY(expect_op(&sub, ")", "')' or ',' in the hint"));
    h->args.items = a.data;
    h->args.n = a.n;
  } while (accept_op(&sub, ","));
  if (peek(&sub, 0)->kind != TK_EOF) return fail(&sub, "end of the hint");
  out->items = v.data;
  out->n = v.n;
  struct vec o = {0};
  for (size_t i = 0; i < out->n; i++) {
    if (!chv_str_ieq(out->items[i].name, "OPTIONS")) continue;
    for (size_t k = 0; k < out->items[i].args.n; k++) {
      struct chv_sql_prop *pr = NULL;
      TRY(vec_push(p, &o, sizeof *pr, (void **)&pr));
      *pr = out->items[i].args.items[k];
    }
  }
  options->items = o.data;
  options->n = o.n;
  p->tok[0].taken = true;
  return CHV_OK;
}

/* ---- queries ----------------------------------------------------------- */

static int parse_alias(struct parser *p, const char **alias) {
  if (accept_kw(p, "AS")) return parse_ident(p, "an alias after AS", alias);
  const struct sql_token *t = peek(p, 0);
  if (t->kind == TK_QIDENT || (t->kind == TK_WORD && !is_reserved(t)))
    return parse_ident(p, "an alias", alias);
  return CHV_OK;
}

static int parse_from(struct parser *p, struct chv_sql_from **out);
static bool join_word(struct parser *p);

/* A number of TABLESAMPLE as Hive's grammar has it (digits, a fraction, an
** exponent; no sign and no type suffix), kept as written. */
static int sample_number(struct parser *p, const char *what, const char **out,
                         struct chv_sql_pos *pos) {
  const struct sql_token *t = peek(p, 0);
  if (t->kind != TK_NUMBER ||
      (t->start[t->len - 1] >= 'A' && t->start[t->len - 1] <= 'Z') ||
      (t->start[t->len - 1] >= 'a' && t->start[t->len - 1] <= 'z'))
    return fail(p, what);
  if (pos) *pos = t->pos;
  TRY(copy_text(p, t->start, t->len, out));
  next(p);
  return CHV_OK;
}

/* Hive's TABLESAMPLE (n ROWS | n PERCENT | 100M | BUCKET x OUT OF y [ON e,
** ...]) after a table's name; the binder checks the numbers. */
static int parse_sample(struct parser *p, struct chv_sql_sample **out) {
  struct chv_sql_sample *sm = NULL;
  TRY(alloc_node(p, sizeof *sm, (void **)&sm));
  sm->pos = peek(p, 0)->pos;
  next(p); /* TABLESAMPLE */
  TRY(expect_op(p, "(", "'(' after TABLESAMPLE"));
  const struct sql_token *t = peek(p, 0);
  if (tok_is_kw(t, "BUCKET")) {
    next(p);
    sm->kind = CHV_SQL_SAMPLE_BUCKET;
    TRY(sample_number(p, "the bucket's number after BUCKET", &sm->value,
                      &sm->value_pos));
    TRY(expect_kw(p, "OUT", "OUT OF after the bucket's number"));
    TRY(expect_kw(p, "OF", "OF after OUT"));
    TRY(sample_number(p, "the number of buckets after OUT OF", &sm->out_of,
                      NULL));
    if (accept_kw(p, "ON")) {
      struct vec v = {0};
      TRY(parse_expr_list(p, &v));
      sm->on = v.data;
      sm->non = v.n;
    }
  } else if (t->kind == TK_BYTES) {
    sm->kind = CHV_SQL_SAMPLE_BYTES;
    sm->value_pos = t->pos;
    TRY(copy_text(p, t->start, t->len, &sm->value));
    next(p);
  } else {
    TRY(sample_number(p,
                      "n ROWS, n PERCENT, a length (100M) or BUCKET x OUT OF "
                      "y in TABLESAMPLE",
                      &sm->value, &sm->value_pos));
    if (accept_kw(p, "ROWS"))
      sm->kind = CHV_SQL_SAMPLE_ROWS;
    else if (accept_kw(p, "PERCENT"))
      sm->kind = CHV_SQL_SAMPLE_PERCENT;
    else
      return fail(p, "ROWS or PERCENT after the number in TABLESAMPLE");
  }
  TRY(expect_op(p, ")", "')' after the sample in TABLESAMPLE"));
  *out = sm;
  return CHV_OK;
}

/* A TABLESAMPLE where Hive's grammar has none: after a sub-query, or
** after a table's alias (table: true) instead of before it. */
static int misplaced_sample(struct parser *p, bool table) {
  struct chv_sql_pos at = peek(p, 0)->pos;
  if (p->err_pos) *p->err_pos = at;
  return chv_error_set(p->err, CHV_ESYNTAX,
                       table ? "line %d, column %d: TABLESAMPLE comes right "
                               "after the table's name, before its alias"
                             : "line %d, column %d: TABLESAMPLE samples a "
                               "table's files, and a sub-query is not a table",
                       at.line, at.column);
}

static int parse_from_item(struct parser *p, struct chv_sql_from **out) {
  struct chv_sql_from *f = NULL;
  TRY(alloc_node(p, sizeof *f, (void **)&f));
  f->pos = peek(p, 0)->pos;
  if (accept_op(p, "(")) {
    if (!starts_query(p, 0) && !peek_op(p, 0, "(")) { /* (a JOIN b ON ...) */
      TRY(enter(p));
      TRY(parse_from(p, out));
      p->depth--;
      return expect_op(p, ")", "')' after the joined tables");
    }
    f->kind = CHV_SQL_FROM_SUBQUERY;
    TRY(parse_query(p, &f->subquery));
    TRY(expect_op(p, ")", "')' after the sub-query"));
    TRY(parse_hints(p, &f->hints, &f->options));
    if (peek_kw(p, 0, "TABLESAMPLE")) return misplaced_sample(p, false);
  } else {
    f->kind = CHV_SQL_FROM_TABLE;
    TRY(parse_name(p, "a table name", &f->table));
    TRY(parse_hints(p, &f->hints, &f->options));
    if (peek_kw(p, 0, "TABLESAMPLE")) TRY(parse_sample(p, &f->sample));
    if (peek_kw(p, 0, "FOR")) {
      next(p);
      TRY(expect_kw(p, "SYSTEM_TIME", "SYSTEM_TIME after FOR"));
      TRY(expect_kw(p, "AS", "AS in FOR SYSTEM_TIME AS OF"));
      TRY(expect_kw(p, "OF", "OF in FOR SYSTEM_TIME AS OF"));
      TRY(parse_concat(p, &f->system_time));
    }
  }
  if (!join_word(p)) TRY(parse_alias(p, &f->alias));
  if (f->alias && peek_kw(p, 0, "TABLESAMPLE"))
    return misplaced_sample(p, f->kind == CHV_SQL_FROM_TABLE);
  /* a derived table's columns named: (VALUES ...) AS t (a, b) */
  if (f->kind == CHV_SQL_FROM_SUBQUERY && f->alias && accept_op(p, "(")) {
    struct vec v = {0};
    do {
      const char **name = NULL;
      TRY(vec_push(p, &v, sizeof *name, (void **)&name));
      TRY(parse_ident(p, "a column name of the derived table", name));
    } while (accept_op(p, ","));
    TRY(expect_op(p, ")", "')' or ',' in the column names"));
    f->columns = v.data;
    f->ncolumns = v.n;
  }
  *out = f;
  return CHV_OK;
}

/* NATURAL before a join, USING after one: not a table's alias. */
static bool join_word(struct parser *p) {
  if (peek_kw(p, 0, "USING")) return true;
  return peek_kw(p, 0, "NATURAL") &&
         (peek_kw(p, 1, "JOIN") || peek_kw(p, 1, "INNER") ||
          peek_kw(p, 1, "LEFT") || peek_kw(p, 1, "RIGHT") ||
          peek_kw(p, 1, "FULL") || peek_kw(p, 1, "CROSS"));
}

/* USING (c, ...) after a join. */
static int parse_using(struct parser *p, struct chv_sql_from *j) {
  struct vec v = {0}, at = {0};
  TRY(expect_op(p, "(", "'(' after USING"));
  do {
    const char **name = NULL;
    struct chv_sql_pos *pos = NULL;
    TRY(vec_push(p, &at, sizeof *pos, (void **)&pos));
    *pos = peek(p, 0)->pos;
    TRY(vec_push(p, &v, sizeof *name, (void **)&name));
    TRY(parse_ident(p, "a column name in USING", name));
  } while (accept_op(p, ","));
  TRY(expect_op(p, ")", "')' or ',' in USING"));
  j->using_cols = v.data;
  j->using_pos = at.data;
  j->nusing = v.n;
  return CHV_OK;
}

static int parse_from(struct parser *p, struct chv_sql_from **out) {
  struct chv_sql_from *l = NULL;
  TRY(parse_from_item(p, &l));
  int depth0 = p->depth;
  for (;;) {
    TRY(enter(p));
    enum chv_sql_join_kind k;
    struct chv_sql_pos pos = peek(p, 0)->pos;
    bool natural = false;
    if (peek_kw(p, 0, "NATURAL") && join_word(p)) {
      next(p);
      natural = true;
    }
    if (!natural && accept_op(p, ",")) {
      k = CHV_SQL_JOIN_CROSS;
    } else if (accept_kw(p, "JOIN")) {
      k = CHV_SQL_JOIN_INNER;
    } else if (accept_kw(p, "INNER")) {
      TRY(expect_kw(p, "JOIN", "JOIN after INNER"));
      k = CHV_SQL_JOIN_INNER;
    } else if (peek_kw(p, 0, "LEFT") || peek_kw(p, 0, "RIGHT") ||
               peek_kw(p, 0, "FULL")) {
      k = peek_kw(p, 0, "LEFT")    ? CHV_SQL_JOIN_LEFT
          : peek_kw(p, 0, "RIGHT") ? CHV_SQL_JOIN_RIGHT
                                   : CHV_SQL_JOIN_FULL;
      next(p);
      if (k == CHV_SQL_JOIN_LEFT && accept_kw(p, "SEMI"))
        k = CHV_SQL_JOIN_SEMI; /* Hive's */
      else if (k == CHV_SQL_JOIN_LEFT && accept_kw(p, "ANTI"))
        k = CHV_SQL_JOIN_ANTI; /* Hive 4's and Spark's */
      else
        accept_kw(p, "OUTER");
      TRY(expect_kw(p, "JOIN", "JOIN"));
    } else if (!natural && accept_kw(p, "CROSS")) {
      TRY(expect_kw(p, "JOIN", "JOIN after CROSS"));
      k = CHV_SQL_JOIN_CROSS;
    } else if (natural) {
      return fail(p, "JOIN after NATURAL");
    } else {
      break;
    }
    struct chv_sql_from *j = NULL;
    TRY(alloc_node(p, sizeof *j, (void **)&j));
    j->kind = CHV_SQL_FROM_JOIN;
    j->pos = pos;
    j->join = k;
    j->left = l;
    j->natural = natural;
    TRY(parse_from_item(p, &j->right));
    if (natural) {
      /* no ON or USING: the shared columns are the condition */
    } else if (k != CHV_SQL_JOIN_CROSS && accept_kw(p, "ON")) {
      TRY(parse_expr(p, &j->on));
    } else if (k != CHV_SQL_JOIN_CROSS && accept_kw(p, "USING")) {
      TRY(parse_using(p, j));
    } else if (k != CHV_SQL_JOIN_CROSS) {
      return fail(p, "ON or USING after the joined table");
    }
    l = j;
  }
  p->depth = depth0;
  *out = l;
  return CHV_OK;
}

/* ---- GROUP BY with grouping sets ---------------------------------------- */

/* The GROUP BY expression e into g (every one of the clause, in order),
** its place into *at. */
static int group_expr(struct parser *p, struct vec *g, size_t *at) {
  struct chv_sql_expr **slot = NULL;
  TRY(vec_push(p, g, sizeof *slot, (void **)&slot));
  *at = g->n - 1;
  return parse_expr(p, slot);
}

/* True at ROLLUP (, CUBE ( or GROUPING SETS (. */
static bool at_grouping(struct parser *p) {
  return ((peek_kw(p, 0, "ROLLUP") || peek_kw(p, 0, "CUBE")) &&
          peek_op(p, 1, "(")) ||
         (peek_kw(p, 0, "GROUPING") && peek_kw(p, 1, "SETS") &&
          peek_op(p, 2, "("));
}

/* A grouping set, or an item of ROLLUP or CUBE: an expression, or
** (e, ...), or (), when empty is allowed. */
static int parse_grouping_set(struct parser *p, struct vec *g, bool empty,
                              struct chv_sql_grouping_set *set) {
  set->pos = peek(p, 0)->pos;
  if (at_grouping(p))
    return fail(p, "a grouping set (ROLLUP, CUBE and GROUPING SETS do not "
                   "nest)");
  struct vec keys = {0};
  size_t *k = NULL;
  if (peek_op(p, 0, "(")) {
    next(p);
    set->paren = true;
    if (peek_op(p, 0, ")")) {
      if (!empty) return fail(p, "an expression (() is not an item here)");
    } else {
      do {
        TRY(vec_push(p, &keys, sizeof *k, (void **)&k));
        TRY(group_expr(p, g, k));
      } while (accept_op(p, ","));
    }
    TRY(expect_op(p, ")", "')' or ',' in the grouping set"));
  } else {
    TRY(vec_push(p, &keys, sizeof *k, (void **)&k));
    TRY(group_expr(p, g, k));
  }
  set->keys = keys.data;
  set->n = keys.n;
  return CHV_OK;
}

/* (set, ...) of ROLLUP, CUBE or GROUPING SETS, the keyword(s) consumed. */
static int parse_grouping_list(struct parser *p, struct vec *g, bool empty,
                               struct chv_sql_group_elem *el) {
  struct vec sets = {0};
  TRY(expect_op(p, "(", "'('"));
  do {
    struct chv_sql_grouping_set *set = NULL;
    TRY(vec_push(p, &sets, sizeof *set, (void **)&set));
    TRY(parse_grouping_set(p, g, empty, set));
  } while (accept_op(p, ","));
  TRY(expect_op(p, ")", "')' or ','"));
  el->sets = sets.data;
  el->nsets = sets.n;
  return CHV_OK;
}

/* GROUP BY's list (GROUP BY consumed): expressions, (), ROLLUP (...), CUBE
** (...) and GROUPING SETS (...), then Hive's WITH ROLLUP, WITH CUBE or
** GROUPING SETS (...) after plain expressions.  A list of expressions only
** stays a plain GROUP BY (no elements). */
static int parse_group_by(struct parser *p, struct chv_sql_query *q) {
  struct vec g = {0}, elems = {0};
  bool plain = true;
  do {
    struct chv_sql_group_elem *el = NULL;
    TRY(vec_push(p, &elems, sizeof *el, (void **)&el));
    el->pos = peek(p, 0)->pos;
    if (at_grouping(p)) {
      plain = false;
      if (accept_kw(p, "ROLLUP")) {
        el->kind = CHV_SQL_GROUP_ROLLUP;
      } else if (accept_kw(p, "CUBE")) {
        el->kind = CHV_SQL_GROUP_CUBE;
      } else {
        next(p);
        next(p);
        el->kind = CHV_SQL_GROUP_SETS;
      }
      TRY(parse_grouping_list(p, &g, el->kind == CHV_SQL_GROUP_SETS, el));
      continue;
    }
    el->kind = CHV_SQL_GROUP_KEY;
    TRY(alloc_node(p, sizeof *el->sets, (void **)&el->sets));
    el->nsets = 1;
    el->sets->pos = el->pos;
    if (peek_op(p, 0, "(") && peek_op(p, 1, ")")) { /* () */
      next(p);
      next(p);
      el->sets->paren = true;
      plain = false;
      continue;
    }
    TRY(alloc_node(p, sizeof *el->sets->keys, (void **)&el->sets->keys));
    el->sets->n = 1;
    TRY(group_expr(p, &g, el->sets->keys));
  } while (accept_op(p, ","));
  /* Hive: GROUP BY a, b WITH ROLLUP | WITH CUBE | GROUPING SETS (...) */
  bool with = peek_kw(p, 0, "WITH") &&
              (peek_kw(p, 1, "ROLLUP") || peek_kw(p, 1, "CUBE"));
  bool sets = peek_kw(p, 0, "GROUPING") && peek_kw(p, 1, "SETS");
  if (with || sets) {
    if (!plain)
      return fail(p, "the end of GROUP BY (Hive's WITH ROLLUP, WITH CUBE "
                     "and GROUPING SETS follow plain expressions)");
    struct chv_sql_group_elem *el = NULL;
    TRY(vec_push(p, &elems, sizeof *el, (void **)&el));
    el->pos = peek(p, 0)->pos;
    next(p);
    if (with) {
      el->kind = peek_kw(p, 0, "ROLLUP") ? CHV_SQL_GROUP_WITH_ROLLUP
                                         : CHV_SQL_GROUP_WITH_CUBE;
      next(p);
    } else {
      next(p);
      el->kind = CHV_SQL_GROUP_HIVE_SETS;
      TRY(parse_grouping_list(p, &g, true, el));
    }
    plain = false;
  }
  q->group_by = g.data;
  q->ngroup_by = g.n;
  if (!plain) {
    q->group_elems = elems.data;
    q->ngroup_elems = elems.n;
  }
  return CHV_OK;
}

static int parse_select(struct parser *p, struct chv_sql_query *q) {
  next(p); /* SELECT */
  if (accept_kw(p, "DISTINCT"))
    q->distinct = true;
  else
    accept_kw(p, "ALL");
  struct vec items = {0};
  do {
    struct chv_sql_select_item *it = NULL;
    TRY(vec_push(p, &items, sizeof *it, (void **)&it));
    TRY(parse_expr(p, &it->expr));
    TRY(parse_alias(p, &it->alias));
  } while (accept_op(p, ","));
  q->items = items.data;
  q->nitems = items.n;
  if (accept_kw(p, "FROM")) TRY(parse_from(p, &q->from));
  if (accept_kw(p, "WHERE")) TRY(parse_expr(p, &q->where));
  if (accept_kw(p, "GROUP")) {
    TRY(expect_kw(p, "BY", "BY after GROUP"));
    TRY(parse_group_by(p, q));
  }
  if (accept_kw(p, "HAVING")) TRY(parse_expr(p, &q->having));
  if (accept_kw(p, "WINDOW")) { /* WINDOW w AS (...), ... */
    struct vec v = {0};
    do {
      struct chv_sql_window_def *d = NULL;
      TRY(vec_push(p, &v, sizeof *d, (void **)&d));
      d->pos = peek(p, 0)->pos;
      TRY(parse_ident(p, "a window name", &d->name));
      TRY(expect_kw(p, "AS", "AS after the window's name"));
      if (!peek_op(p, 0, "(")) return fail(p, "'(' after AS");
      TRY(parse_window(p, &d->window));
    } while (accept_op(p, ","));
    q->windows = v.data;
    q->nwindows = v.n;
  }
  return CHV_OK;
}

static int parse_values(struct parser *p, struct chv_sql_query *q) {
  next(p); /* VALUES */
  struct vec rows = {0}, lens = {0};
  do {
    struct chv_sql_expr ***row;
    size_t *len;
    row = NULL;
    len = NULL;
    TRY(expect_op(p, "(", "'(' before a row of VALUES"));
    struct vec v = {0};
    TRY(parse_expr_list(p, &v));
    TRY(expect_op(p, ")", "')' or ',' in the row"));
    TRY(vec_push(p, &rows, sizeof *row, (void **)&row));
    TRY(vec_push(p, &lens, sizeof *len, (void **)&len));
    *row = v.data;
    *len = v.n;
  } while (accept_op(p, ","));
  q->rows = rows.data;
  q->row_lens = lens.data;
  q->nrows = rows.n;
  return CHV_OK;
}

/* SELECT ... | VALUES ... | '(' query ')' */
static int parse_query_term(struct parser *p, struct chv_sql_query **out) {
  struct chv_sql_query *q = NULL;
  if (accept_op(p, "(")) {
    TRY(parse_query(p, &q));
    TRY(expect_op(p, ")", "')' after the query"));
    *out = q;
    return CHV_OK;
  }
  TRY(alloc_node(p, sizeof *q, (void **)&q));
  q->pos = peek(p, 0)->pos;
  if (peek_kw(p, 0, "SELECT")) {
    q->kind = CHV_SQL_QUERY_SELECT;
    TRY(parse_select(p, q));
  } else if (peek_kw(p, 0, "VALUES")) {
    q->kind = CHV_SQL_QUERY_VALUES;
    TRY(parse_values(p, q));
  } else {
    return fail(p, "SELECT, VALUES or '('");
  }
  *out = q;
  return CHV_OK;
}

/* WITH name AS (query), ... (the WITH keyword consumed) */
static int parse_ctes(struct parser *p, struct vec *ctes) {
  do {
    struct chv_sql_cte *c = NULL;
    TRY(vec_push(p, ctes, sizeof *c, (void **)&c));
    c->pos = peek(p, 0)->pos;
    TRY(parse_ident(p, "a name for the WITH query", &c->name));
    TRY(expect_kw(p, "AS", "AS after the WITH query's name"));
    TRY(expect_op(p, "(", "'(' before the WITH query"));
    TRY(parse_query(p, &c->query));
    TRY(expect_op(p, ")", "')' after the WITH query"));
  } while (accept_op(p, ","));
  return CHV_OK;
}

/* Attach WITH queries to q (a new level when q has its own). */
static int attach_ctes(struct parser *p, struct vec *ctes,
                       struct chv_sql_query **q) {
  if (ctes->n == 0) return CHV_OK;
  if ((*q)->nctes) {
    struct chv_sql_query *w = NULL;
    /* WITH a AS (...) (WITH b AS (...) SELECT ...): keep both levels */
    TRY(alloc_node(p, sizeof *w, (void **)&w));
    w->kind = CHV_SQL_QUERY_SELECT;
    w->pos = (*q)->pos;
    struct chv_sql_from *f = NULL;
    TRY(alloc_node(p, sizeof *f, (void **)&f));
    f->kind = CHV_SQL_FROM_SUBQUERY;
    f->pos = (*q)->pos;
    f->subquery = *q;
    struct chv_sql_select_item *it = NULL;
    TRY(alloc_node(p, sizeof *it, (void **)&it));
    TRY(new_expr(p, CHV_SQL_EXPR_STAR, (*q)->pos, &it->expr));
    w->items = it;
    w->nitems = 1;
    w->from = f;
    *q = w;
  }
  (*q)->ctes = ctes->data;
  (*q)->nctes = ctes->n;
  return CHV_OK;
}

static int parse_order_limit(struct parser *p, struct chv_sql_query *q);

/* A set operation's node over left (the operator's keyword next). */
static int set_node(struct parser *p, enum chv_sql_setop op,
                    struct chv_sql_query *left, struct chv_sql_query **out) {
  struct chv_sql_query *u = NULL;
  TRY(alloc_node(p, sizeof *u, (void **)&u));
  u->kind = CHV_SQL_QUERY_UNION;
  u->setop = op;
  u->pos = peek(p, 0)->pos;
  next(p);
  if (accept_kw(p, "ALL"))
    u->all = true;
  else
    accept_kw(p, "DISTINCT");
  u->left = left;
  *out = u;
  return CHV_OK;
}

/* term [INTERSECT [ALL|DISTINCT] term ...]: INTERSECT binds tighter than
** UNION and EXCEPT, as in standard SQL, Flink and DuckDB. */
static int parse_intersect(struct parser *p, struct chv_sql_query **out) {
  struct chv_sql_query *q = NULL;
  TRY(parse_query_term(p, &q));
  while (peek_kw(p, 0, "INTERSECT")) {
    TRY(enter(p));
    struct chv_sql_query *u;
    TRY(set_node(p, CHV_SQL_SET_INTERSECT, q, &u));
    TRY(parse_query_term(p, &u->right));
    q = u;
  }
  *out = q;
  return CHV_OK;
}

static int parse_query(struct parser *p, struct chv_sql_query **out) {
  struct chv_sql_query *q = NULL;
  struct vec ctes = {0};
  TRY(enter(p));
  if (accept_kw(p, "WITH")) TRY(parse_ctes(p, &ctes));
  int depth0 = p->depth;
  TRY(parse_intersect(p, &q));
  while (peek_kw(p, 0, "UNION") || peek_kw(p, 0, "EXCEPT") ||
         peek_kw(p, 0, "MINUS")) {
    TRY(enter(p));
    struct chv_sql_query *u;
    TRY(set_node(p, peek_kw(p, 0, "UNION") ? CHV_SQL_SET_UNION
                                           : CHV_SQL_SET_EXCEPT, q, &u));
    TRY(parse_intersect(p, &u->right));
    q = u;
  }
  p->depth = depth0;
  TRY(attach_ctes(p, &ctes, &q));
  TRY(parse_order_limit(p, q));
  leave(p);
  *out = q;
  return CHV_OK;
}

/* The keys of ORDER BY or SORT BY: e [ASC|DESC] [NULLS FIRST|LAST], ...
** (BY consumed). */
static int parse_order_items(struct parser *p, struct chv_sql_query *q) {
  struct vec v = {0};
  do {
    struct chv_sql_order_item *o = NULL;
    TRY(vec_push(p, &v, sizeof *o, (void **)&o));
    TRY(parse_expr(p, &o->expr));
    if (accept_kw(p, "DESC"))
      o->desc = true;
    else
      accept_kw(p, "ASC");
    if (accept_kw(p, "NULLS")) {
      if (accept_kw(p, "FIRST"))
        o->nulls = 1;
      else if (accept_kw(p, "LAST"))
        o->nulls = 2;
      else
        return fail(p, "FIRST or LAST after NULLS");
    }
  } while (accept_op(p, ","));
  q->order_by = v.data;
  q->norder_by = v.n;
  return CHV_OK;
}

/* Hive's clauses after a query, in its order: [ORDER BY ... | CLUSTER BY
** e, ... | [DISTRIBUTE BY e, ...] [SORT BY ...]] [LIMIT [m,] n | LIMIT n
** OFFSET m].  Hive's conflicts are errors naming both clauses. */
static int parse_order_limit(struct parser *p, struct chv_sql_query *q) {
  /* after a parenthesized query with clauses of its own */
  if ((q->norder_by || q->limit || q->ndistribute_by) &&
      (peek_kw(p, 0, "ORDER") || peek_kw(p, 0, "SORT") ||
       peek_kw(p, 0, "CLUSTER") || peek_kw(p, 0, "DISTRIBUTE")))
    return fail(p, "end of query (ORDER BY given twice)");
  if (q->limit && peek_kw(p, 0, "LIMIT"))
    return fail(p, "end of query (LIMIT given twice)");
  bool order = false;
  if (peek_kw(p, 0, "ORDER")) {
    next(p);
    TRY(expect_kw(p, "BY", "BY after ORDER"));
    TRY(parse_order_items(p, q));
    order = true;
  }
  if (peek_kw(p, 0, "CLUSTER")) {
    if (order)
      return fail(p, "end of query (Hive: cannot have both ORDER BY and "
                     "CLUSTER BY clauses)");
    next(p);
    TRY(expect_kw(p, "BY", "BY after CLUSTER"));
    struct vec v = {0};
    TRY(parse_expr_list(p, &v));
    q->distribute_by = v.data;
    q->ndistribute_by = v.n;
    struct vec o = {0};
    for (size_t i = 0; i < v.n; i++) {
      struct chv_sql_order_item *it = NULL;
      TRY(vec_push(p, &o, sizeof *it, (void **)&it));
      it->expr = q->distribute_by[i];
    }
    q->order_by = o.data;
    q->norder_by = o.n;
    q->order_kind = CHV_SQL_CLUSTER_BY;
    if (peek_kw(p, 0, "DISTRIBUTE"))
      return fail(p, "end of query (Hive: cannot have both CLUSTER BY and "
                     "DISTRIBUTE BY clauses)");
    if (peek_kw(p, 0, "SORT"))
      return fail(p, "end of query (Hive: cannot have both CLUSTER BY and "
                     "SORT BY clauses)");
  }
  if (peek_kw(p, 0, "DISTRIBUTE")) {
    if (order)
      return fail(p, "end of query (Hive: cannot have both ORDER BY and "
                     "DISTRIBUTE BY clauses)");
    next(p);
    TRY(expect_kw(p, "BY", "BY after DISTRIBUTE"));
    struct vec v = {0};
    TRY(parse_expr_list(p, &v));
    q->distribute_by = v.data;
    q->ndistribute_by = v.n;
  }
  if (peek_kw(p, 0, "SORT")) {
    if (order)
      return fail(p, "end of query (Hive: cannot have both ORDER BY and "
                     "SORT BY clauses)");
    next(p);
    TRY(expect_kw(p, "BY", "BY after SORT"));
    TRY(parse_order_items(p, q));
    q->order_kind = CHV_SQL_SORT_BY;
  }
  if (accept_kw(p, "LIMIT")) {
    TRY(parse_concat(p, &q->limit));
    if (accept_op(p, ",")) { /* Hive's LIMIT offset, rows */
      q->offset = q->limit;
      TRY(parse_concat(p, &q->limit));
    } else if (accept_kw(p, "OFFSET")) {
      TRY(parse_concat(p, &q->offset));
    }
  }
  return CHV_OK;
}

/* ---- statements -------------------------------------------------------- */

static int parse_stmt(struct parser *p, struct chv_sql_stmt **out);

/* PARTITION ( k [= literal] , ... ); dynamic columns only when allowed */
static int parse_part_spec(struct parser *p, bool dynamic,
                           struct chv_sql_part_spec *spec) {
  struct vec v = {0};
  spec->pos = p->prev.pos;
  TRY(expect_op(p, "(", "'(' after PARTITION"));
  do {
    struct chv_sql_part_kv *kv = NULL;
    TRY(vec_push(p, &v, sizeof *kv, (void **)&kv));
    kv->pos = peek(p, 0)->pos;
    TRY(parse_ident(p, "a partition column", &kv->key));
    if (accept_op(p, "=")) {
      struct chv_sql_expr *e = NULL;
      struct sql_token t = *peek(p, 0);
      TRY(parse_unary(p, &e));
      struct chv_sql_expr *lit = e;
      if (lit->kind == CHV_SQL_EXPR_UNARY && lit->u.unary.op == CHV_SQL_OP_NEG)
        lit = lit->u.unary.arg;
      if (lit->kind != CHV_SQL_EXPR_LITERAL)
        return fail_at(p, &t, "a literal partition value");
      kv->value = e;
    } else if (!dynamic) {
      return fail(p, "'=' and a value for the partition column");
    }
  } while (accept_op(p, ","));
  TRY(expect_op(p, ")", "')' or ',' in the partition spec"));
  spec->items = v.data;
  spec->n = v.n;
  return CHV_OK;
}

static int parse_if_not_exists(struct parser *p, bool *flag) {
  if (!peek_kw(p, 0, "IF")) return CHV_OK;
  next(p);
  TRY(expect_kw(p, "NOT", "NOT after IF"));
  TRY(expect_kw(p, "EXISTS", "EXISTS after IF NOT"));
  *flag = true;
  return CHV_OK;
}

static int parse_if_exists(struct parser *p, bool *flag) {
  if (!peek_kw(p, 0, "IF")) return CHV_OK;
  next(p);
  TRY(expect_kw(p, "EXISTS", "EXISTS after IF"));
  *flag = true;
  return CHV_OK;
}

/* '(' name, ... ')' */
static int parse_name_list(struct parser *p, const char *what,
                           const char ***out, size_t *n) {
  struct vec v = {0};
  TRY(expect_op(p, "(", "'('"));
  do {
    const char **slot = NULL;
    TRY(vec_push(p, &v, sizeof *slot, (void **)&slot));
    TRY(parse_ident(p, what, slot));
  } while (accept_op(p, ","));
  TRY(expect_op(p, ")", "')' or ','"));
  *out = v.data;
  *n = v.n;
  return CHV_OK;
}

/* name type [NOT NULL] [COMMENT 's'], or Flink's computed name AS expr */
static int parse_column_def(struct parser *p, struct chv_sql_column *c,
                            bool flink_extras) {
  c->pos = peek(p, 0)->pos;
  TRY(parse_ident(p, "a column name", &c->name));
  if (flink_extras && accept_kw(p, "AS")) {
    TRY(parse_expr(p, &c->computed));
  } else {
    TRY(parse_type(p, &c->type_text, &c->type_pos));
    if (flink_extras && peek_kw(p, 0, "NOT") && peek_kw(p, 1, "NULL")) {
      next(p);
      next(p);
      c->not_null = true;
    }
  }
  if (accept_kw(p, "COMMENT"))
    TRY(parse_string(p, "a quoted comment", &c->comment));
  return CHV_OK;
}

static int parse_row_format(struct parser *p, struct chv_sql_create_table *ct) {
  TRY(expect_kw(p, "FORMAT", "FORMAT after ROW"));
  if (accept_kw(p, "SERDE")) {
    ct->row_format = CHV_SQL_ROW_FORMAT_SERDE;
    TRY(parse_string(p, "the quoted SerDe class", &ct->serde));
    if (accept_kw(p, "WITH")) {
      TRY(expect_kw(p, "SERDEPROPERTIES", "SERDEPROPERTIES after WITH"));
      TRY(parse_props(p, &ct->serde_props));
    }
    return CHV_OK;
  }
  TRY(expect_kw(p, "DELIMITED", "DELIMITED or SERDE after ROW FORMAT"));
  ct->row_format = CHV_SQL_ROW_FORMAT_DELIMITED;
  for (;;) {
    const char **slot;
    if (accept_kw(p, "FIELDS")) {
      slot = &ct->fields_terminated;
    } else if (accept_kw(p, "COLLECTION")) {
      TRY(expect_kw(p, "ITEMS", "ITEMS after COLLECTION"));
      slot = &ct->collection_terminated;
    } else if (accept_kw(p, "MAP")) {
      TRY(expect_kw(p, "KEYS", "KEYS after MAP"));
      slot = &ct->map_keys_terminated;
    } else if (accept_kw(p, "LINES")) {
      slot = &ct->lines_terminated;
    } else if (accept_kw(p, "NULL")) {
      TRY(expect_kw(p, "DEFINED", "DEFINED after NULL"));
      TRY(expect_kw(p, "AS", "AS after NULL DEFINED"));
      TRY(parse_string(p, "the quoted null text", &ct->null_defined_as));
      continue;
    } else {
      return CHV_OK;
    }
    TRY(expect_kw(p, "TERMINATED", "TERMINATED"));
    TRY(expect_kw(p, "BY", "BY after TERMINATED"));
    TRY(parse_string(p, "a quoted delimiter", slot));
    if (slot == &ct->fields_terminated && accept_kw(p, "ESCAPED")) {
      TRY(expect_kw(p, "BY", "BY after ESCAPED"));
      TRY(parse_string(p, "a quoted escape character", &ct->escaped_by));
    }
  }
}

static int parse_stored_as(struct parser *p, struct chv_sql_create_table *ct) {
  static const char *const formats[] = {"TEXTFILE", "PARQUET", "ORC",
                                        "SEQUENCEFILE", "RCFILE", "AVRO",
                                        "JSONFILE"};
  TRY(expect_kw(p, "AS", "AS after STORED"));
  if (accept_kw(p, "INPUTFORMAT")) {
    TRY(parse_string(p, "the quoted input format class", &ct->input_format));
    TRY(expect_kw(p, "OUTPUTFORMAT", "OUTPUTFORMAT"));
    return parse_string(p, "the quoted output format class",
                        &ct->output_format);
  }
  const struct sql_token *t = peek(p, 0);
  for (size_t i = 0; i < CHV_ARRAY_SIZE(formats); i++) {
    if (tok_is_kw(t, formats[i])) {
      TRY(copy_text(p, t->start, t->len, &ct->stored_as));
      next(p);
      return CHV_OK;
    }
  }
  return fail(p, "a file format (TEXTFILE, PARQUET, ORC, SEQUENCEFILE, "
                 "RCFILE, AVRO, JSONFILE) or INPUTFORMAT");
}

static int parse_partitioned_by(struct parser *p,
                                struct chv_sql_create_table *ct) {
  TRY(expect_kw(p, "BY", "BY after PARTITIONED"));
  TRY(expect_op(p, "(", "'(' after PARTITIONED BY"));
  bool names_only = peek_op(p, 1, ",") || peek_op(p, 1, ")");
  struct vec v = {0};
  do {
    struct chv_sql_column *c = NULL;
    TRY(vec_push(p, &v, sizeof *c, (void **)&c));
    if (names_only) {
      c->pos = peek(p, 0)->pos;
      TRY(parse_ident(p, "a partition column name", &c->name));
    } else {
      TRY(parse_column_def(p, c, false));
    }
  } while (accept_op(p, ","));
  TRY(expect_op(p, ")", names_only ? "')' or ',' after partition column"
                                   : "')' or ',' after partition column "
                                     "definition"));
  ct->part_columns = v.data;
  ct->npart_columns = v.n;
  if (names_only) ct->form = CHV_SQL_FORM_FLINK;
  return CHV_OK;
}

static int parse_create_table(struct parser *p, struct chv_sql_stmt *s,
                              bool temporary, bool external) {
  struct chv_sql_create_table *ct = NULL;
  TRY(alloc_node(p, sizeof *ct, (void **)&ct));
  s->kind = CHV_SQL_STMT_CREATE_TABLE;
  s->create_table = ct;
  ct->temporary = temporary;
  ct->external = external;
  TRY(parse_if_not_exists(p, &ct->if_not_exists));
  TRY(parse_name(p, "a table name", &ct->name));
  s->name = ct->name;
  if (accept_kw(p, "LIKE")) {
    TRY(parse_name(p, "the name of the table to copy", &ct->like));
  } else if (accept_op(p, "(")) {
    struct vec v = {0};
    do {
      if (peek_kw(p, 0, "PRIMARY") && peek_kw(p, 1, "KEY")) {
        if (ct->primary_key) return fail(p, "one PRIMARY KEY");
        next(p);
        next(p);
        TRY(parse_name_list(p, "a key column", &ct->primary_key,
                            &ct->nprimary_key));
        if (accept_kw(p, "NOT")) {
          TRY(expect_kw(p, "ENFORCED", "ENFORCED after NOT"));
          ct->pk_not_enforced = true;
        }
        continue;
      }
      if (peek_kw(p, 0, "WATERMARK") && peek_kw(p, 1, "FOR")) {
        if (ct->watermark) return fail(p, "one WATERMARK");
        next(p);
        next(p);
        TRY(parse_ident(p, "the watermark's time column",
                        &ct->watermark_column));
        TRY(expect_kw(p, "AS", "AS after the watermark's column"));
        TRY(parse_expr(p, &ct->watermark));
        continue;
      }
      struct chv_sql_column *c = NULL;
      TRY(vec_push(p, &v, sizeof *c, (void **)&c));
      TRY(parse_column_def(p, c, true));
    } while (accept_op(p, ","));
    TRY(expect_op(p, ")", "')' or ',' after column definition"));
    ct->columns = v.data;
    ct->ncolumns = v.n;
  }
  unsigned seen = 0;
  for (;;) {
    const struct sql_token *t = peek(p, 0);
    unsigned bit;
    if (tok_is_kw(t, "COMMENT")) bit = 1;
    else if (tok_is_kw(t, "PARTITIONED")) bit = 2;
    else if (tok_is_kw(t, "ROW")) bit = 4;
    else if (tok_is_kw(t, "STORED")) bit = 8;
    else if (tok_is_kw(t, "LOCATION")) bit = 16;
    else if (tok_is_kw(t, "TBLPROPERTIES")) bit = 32;
    else if (tok_is_kw(t, "WITH")) bit = 64;
    else if (tok_is_kw(t, "AS")) bit = 128;
    else break;
    if (seen & bit) return fail(p, "each table clause once");
    seen |= bit;
    next(p);
    switch (bit) {
    case 1: TRY(parse_string(p, "a quoted comment", &ct->comment)); break;
    case 2: TRY(parse_partitioned_by(p, ct)); break;
    case 4: TRY(parse_row_format(p, ct)); break;
    case 8: TRY(parse_stored_as(p, ct)); break;
    case 16: TRY(parse_string(p, "a quoted location", &ct->location)); break;
    case 32: TRY(parse_props(p, &ct->tblproperties)); break;
    case 64:
      TRY(parse_props(p, &ct->with));
      ct->form = CHV_SQL_FORM_FLINK;
      break;
    default:
      if (ct->like.nparts)
        return fail_at(p, &p->prev, "end of statement after LIKE");
      TRY(parse_query(p, &ct->as_query));
      return CHV_OK; /* the query runs to the end */
    }
  }
  if (ct->ncolumns == 0 && ct->like.nparts == 0)
    return fail(p, "'(' with the column list, LIKE or AS SELECT");
  return CHV_OK;
}

/* The query after AS of CREATE VIEW / ALTER VIEW, with its source text. */
static int parse_view_query(struct parser *p, struct chv_sql_create_view *cv) {
  const struct sql_token *t = peek(p, 0);
  const char *start = t->start;
  cv->query_pos = t->pos;
  TRY(parse_query(p, &cv->query));
  const char *end = p->prev.start + p->prev.len;
  return copy_text(p, start, (size_t)(end - start), &cv->query_text);
}

/* CREATE [OR REPLACE] [TEMPORARY] VIEW (consumed) [IF NOT EXISTS] v
** [(col [COMMENT 's'], ...)] [COMMENT 's'] [TBLPROPERTIES (...)] AS query */
static int parse_create_view(struct parser *p, struct chv_sql_stmt *s,
                             bool or_replace, bool temporary) {
  struct chv_sql_create_view *cv = NULL;
  TRY(alloc_node(p, sizeof *cv, (void **)&cv));
  s->kind = CHV_SQL_STMT_CREATE_VIEW;
  s->create_view = cv;
  cv->or_replace = or_replace;
  cv->temporary = temporary;
  TRY(parse_if_not_exists(p, &cv->if_not_exists));
  TRY(parse_name(p, "a view name", &cv->name));
  s->name = cv->name;
  if (accept_op(p, "(")) {
    struct vec v = {0};
    do {
      struct chv_sql_column *c = NULL;
      TRY(vec_push(p, &v, sizeof *c, (void **)&c));
      c->pos = peek(p, 0)->pos;
      TRY(parse_ident(p, "a column name", &c->name));
      if (accept_kw(p, "COMMENT"))
        TRY(parse_string(p, "a quoted comment", &c->comment));
    } while (accept_op(p, ","));
    TRY(expect_op(p, ")", "')' or ',' in the view's column list"));
    cv->columns = v.data;
    cv->ncolumns = v.n;
  }
  unsigned seen = 0;
  for (;;) {
    unsigned bit;
    if (peek_kw(p, 0, "COMMENT")) bit = 1;
    else if (peek_kw(p, 0, "TBLPROPERTIES")) bit = 2;
    else break;
    if (seen & bit) return fail(p, "each view clause once");
    seen |= bit;
    next(p);
    if (bit == 1)
      TRY(parse_string(p, "a quoted comment", &cv->comment));
    else
      TRY(parse_props(p, &cv->tblproperties));
  }
  TRY(expect_kw(p, "AS", seen ? "COMMENT, TBLPROPERTIES or AS"
                              : "a column list, COMMENT, TBLPROPERTIES or AS"));
  return parse_view_query(p, cv);
}

static int parse_create(struct parser *p, struct chv_sql_stmt *s) {
  if (accept_kw(p, "CATALOG")) {
    s->kind = CHV_SQL_STMT_CREATE_CATALOG;
    TRY(parse_if_not_exists(p, &s->if_not_exists));
    TRY(parse_ident(p, "a catalog name", &s->name.parts[0]));
    s->name.nparts = 1;
    s->name.pos = p->prev.pos;
    TRY(expect_kw(p, "WITH", "WITH after the catalog name"));
    return parse_props(p, &s->props);
  }
  if (accept_kw(p, "DATABASE") || accept_kw(p, "SCHEMA")) {
    s->kind = CHV_SQL_STMT_CREATE_DATABASE;
    TRY(parse_if_not_exists(p, &s->if_not_exists));
    TRY(parse_name(p, "a database name", &s->name));
    if (accept_kw(p, "COMMENT"))
      TRY(parse_string(p, "a quoted comment", &s->comment));
    if (accept_kw(p, "LOCATION"))
      TRY(parse_string(p, "a quoted location", &s->location));
    if (accept_kw(p, "WITH")) {
      accept_kw(p, "DBPROPERTIES");
      TRY(parse_props(p, &s->props));
    }
    return CHV_OK;
  }
  bool or_replace = false;
  if (accept_kw(p, "OR")) {
    TRY(expect_kw(p, "REPLACE", "REPLACE after CREATE OR"));
    or_replace = true;
  }
  bool temporary = accept_kw(p, "TEMPORARY");
  if (accept_kw(p, "VIEW"))
    return parse_create_view(p, s, or_replace, temporary);
  if (or_replace) return fail(p, "VIEW after CREATE OR REPLACE");
  bool external = accept_kw(p, "EXTERNAL");
  TRY(expect_kw(p, "TABLE", "CATALOG, DATABASE, TABLE or VIEW after CREATE"));
  return parse_create_table(p, s, temporary, external);
}

static int parse_show(struct parser *p, struct chv_sql_stmt *s) {
  if (accept_kw(p, "CATALOGS")) {
    s->kind = CHV_SQL_STMT_SHOW_CATALOGS;
  } else if (accept_kw(p, "CURRENT")) {
    if (accept_kw(p, "CATALOG"))
      s->kind = CHV_SQL_STMT_SHOW_CURRENT_CATALOG;
    else if (accept_kw(p, "DATABASE"))
      s->kind = CHV_SQL_STMT_SHOW_CURRENT_DATABASE;
    else
      return fail(p, "CATALOG or DATABASE after SHOW CURRENT");
  } else if (accept_kw(p, "DATABASES") || accept_kw(p, "SCHEMAS")) {
    s->kind = CHV_SQL_STMT_SHOW_DATABASES;
  } else if (accept_kw(p, "TABLES")) {
    s->kind = CHV_SQL_STMT_SHOW_TABLES;
    if (accept_kw(p, "IN") || accept_kw(p, "FROM"))
      TRY(parse_name(p, "a database name", &s->name));
    if (accept_kw(p, "LIKE")) TRY(parse_string(p, "a quoted pattern", &s->like));
  } else if (accept_kw(p, "VIEWS")) {
    s->kind = CHV_SQL_STMT_SHOW_VIEWS;
    if (accept_kw(p, "IN") || accept_kw(p, "FROM"))
      TRY(parse_name(p, "a database name", &s->name));
    if (accept_kw(p, "LIKE")) TRY(parse_string(p, "a quoted pattern", &s->like));
  } else if (accept_kw(p, "PARTITIONS")) {
    s->kind = CHV_SQL_STMT_SHOW_PARTITIONS;
    TRY(parse_name(p, "a table name", &s->name));
    if (accept_kw(p, "PARTITION")) TRY(parse_part_spec(p, false, &s->partition));
  } else if (accept_kw(p, "CREATE")) {
    s->kind = CHV_SQL_STMT_SHOW_CREATE_TABLE;
    if (accept_kw(p, "VIEW")) {
      s->view = true;
      TRY(parse_name(p, "a view name", &s->name));
    } else {
      TRY(expect_kw(p, "TABLE", "TABLE or VIEW after SHOW CREATE"));
      TRY(parse_name(p, "a table name", &s->name));
    }
  } else if (accept_kw(p, "FUNCTIONS")) {
    s->kind = CHV_SQL_STMT_SHOW_FUNCTIONS;
  } else {
    return fail(p, "CATALOGS, CURRENT, DATABASES, TABLES, VIEWS, PARTITIONS, "
                   "CREATE or FUNCTIONS after SHOW");
  }
  return CHV_OK;
}

/* ALTER VIEW (consumed) v AS query | SET TBLPROPERTIES (...) | RENAME TO v2 */
static int parse_alter_view(struct parser *p, struct chv_sql_stmt *s) {
  TRY(parse_name(p, "a view name", &s->name));
  if (accept_kw(p, "AS")) {
    struct chv_sql_create_view *cv = NULL;
    TRY(alloc_node(p, sizeof *cv, (void **)&cv));
    s->kind = CHV_SQL_STMT_ALTER_VIEW;
    s->create_view = cv;
    cv->name = s->name;
    return parse_view_query(p, cv);
  }
  s->view = true;
  if (accept_kw(p, "SET")) {
    s->kind = CHV_SQL_STMT_SET_TBLPROPERTIES;
    TRY(expect_kw(p, "TBLPROPERTIES", "TBLPROPERTIES after SET"));
    return parse_props(p, &s->props);
  }
  if (accept_kw(p, "RENAME")) {
    s->kind = CHV_SQL_STMT_RENAME_TABLE;
    TRY(expect_kw(p, "TO", "TO after RENAME"));
    return parse_name(p, "the new view name", &s->new_name);
  }
  return fail(p, "AS, SET or RENAME after the view name");
}

static int parse_alter(struct parser *p, struct chv_sql_stmt *s) {
  if (accept_kw(p, "VIEW")) return parse_alter_view(p, s);
  TRY(expect_kw(p, "TABLE", "TABLE or VIEW after ALTER"));
  TRY(parse_name(p, "a table name", &s->name));
  if (accept_kw(p, "ADD")) {
    s->kind = CHV_SQL_STMT_ADD_PARTITIONS;
    TRY(parse_if_not_exists(p, &s->if_not_exists));
    if (!peek_kw(p, 0, "PARTITION")) return fail(p, "PARTITION");
    struct vec v = {0};
    while (accept_kw(p, "PARTITION")) {
      struct chv_sql_add_partition *a = NULL;
      TRY(vec_push(p, &v, sizeof *a, (void **)&a));
      TRY(parse_part_spec(p, false, &a->spec));
      if (accept_kw(p, "LOCATION"))
        TRY(parse_string(p, "a quoted location", &a->location));
    }
    s->add_parts = v.data;
    s->nadd_parts = v.n;
  } else if (accept_kw(p, "DROP")) {
    s->kind = CHV_SQL_STMT_DROP_PARTITIONS;
    TRY(parse_if_exists(p, &s->if_exists));
    struct vec v = {0};
    do {
      struct chv_sql_part_spec *sp = NULL;
      TRY(expect_kw(p, "PARTITION", "PARTITION"));
      TRY(vec_push(p, &v, sizeof *sp, (void **)&sp));
      TRY(parse_part_spec(p, false, sp));
    } while (accept_op(p, ","));
    s->drop_parts = v.data;
    s->ndrop_parts = v.n;
  } else if (accept_kw(p, "SET")) {
    s->kind = CHV_SQL_STMT_SET_TBLPROPERTIES;
    TRY(expect_kw(p, "TBLPROPERTIES", "TBLPROPERTIES after SET"));
    TRY(parse_props(p, &s->props));
  } else if (accept_kw(p, "RENAME")) {
    s->kind = CHV_SQL_STMT_RENAME_TABLE;
    TRY(expect_kw(p, "TO", "TO after RENAME"));
    TRY(parse_name(p, "the new table name", &s->new_name));
  } else {
    return fail(p, "ADD, DROP, SET or RENAME after the table name");
  }
  return CHV_OK;
}

/* What follows INSERT up to its query: INTO|OVERWRITE [TABLE] t [hints]
** [PARTITION (...)] [(columns)], or OVERWRITE [LOCAL] DIRECTORY 'path'
** [ROW FORMAT ...] [STORED AS ...].  *what is what may come next, for a
** syntax error. */
static int parse_insert_head(struct parser *p, struct chv_sql_stmt *s,
                             const char **what) {
  s->kind = CHV_SQL_STMT_INSERT;
  if (accept_kw(p, "OVERWRITE")) {
    s->overwrite = true;
    /* OVERWRITE DIRECTORY 'path' (a table named directory is followed by
    ** no string) */
    if ((peek_kw(p, 0, "LOCAL") && peek_kw(p, 1, "DIRECTORY")) ||
        (peek_kw(p, 0, "DIRECTORY") && is_string_tok(p, peek(p, 1)))) {
      s->kind = CHV_SQL_STMT_INSERT_DIRECTORY;
      s->local = accept_kw(p, "LOCAL");
      next(p); /* DIRECTORY */
      TRY(parse_string(p, "a quoted directory", &s->directory));
      if (peek_kw(p, 0, "ROW") || peek_kw(p, 0, "STORED"))
        TRY(alloc_node(p, sizeof *s->storage, (void **)&s->storage));
      if (accept_kw(p, "ROW")) TRY(parse_row_format(p, s->storage));
      if (accept_kw(p, "STORED")) TRY(parse_stored_as(p, s->storage));
      *what = s->storage && s->storage->stored_as ? "SELECT"
              : s->storage ? "SELECT or STORED AS"
                           : "SELECT, ROW FORMAT or STORED AS";
      return CHV_OK;
    }
  } else {
    TRY(expect_kw(p, "INTO", "INTO or OVERWRITE after INSERT"));
  }
  accept_kw(p, "TABLE");
  TRY(parse_name(p, "a table name", &s->name));
  TRY(parse_hints(p, &s->hints, &s->options));
  *what = "SELECT, VALUES or PARTITION";
  if (accept_kw(p, "PARTITION")) TRY(parse_part_spec(p, true, &s->partition));
  if (peek_op(p, 0, "(") && !starts_query(p, 1) && !peek_op(p, 1, "("))
    TRY(parse_name_list(p, "a column name", &s->columns, &s->ncolumns));
  return CHV_OK;
}

static int parse_insert(struct parser *p, struct chv_sql_stmt *s) {
  const char *what;
  TRY(parse_insert_head(p, s, &what));
  if (!starts_query(p, 0) && !peek_op(p, 0, "(")) return fail(p, what);
  return parse_query(p, &s->query);
}

/* FROM src [alias] INSERT ... SELECT ... [INSERT ... SELECT ...] ... (FROM
** consumed): each branch's SELECT has no FROM of its own. */
static int parse_multi_insert(struct parser *p, struct chv_sql_stmt *s) {
  s->kind = CHV_SQL_STMT_MULTI_INSERT;
  TRY(parse_from(p, &s->source));
  if (!peek_kw(p, 0, "INSERT"))
    return fail(p, "INSERT after FROM ... (a query puts SELECT first)");
  struct vec v = {0};
  while (peek_kw(p, 0, "INSERT")) {
    TRY(enter(p));
    struct chv_sql_stmt **slot = NULL, *b = NULL;
    TRY(vec_push(p, &v, sizeof *slot, (void **)&slot));
    TRY(alloc_node(p, sizeof *b, (void **)&b));
    b->pos = peek(p, 0)->pos;
    b->dialect = p->lx.dialect;
    next(p); /* INSERT */
    const char *what;
    TRY(parse_insert_head(p, b, &what));
    if (!peek_kw(p, 0, "SELECT"))
      return fail(p, !strcmp(what, "SELECT, VALUES or PARTITION")
                         ? "SELECT or PARTITION"
                         : what);
    struct chv_sql_query *q = NULL;
    TRY(alloc_node(p, sizeof *q, (void **)&q));
    q->kind = CHV_SQL_QUERY_SELECT;
    q->pos = peek(p, 0)->pos;
    TRY(parse_select(p, q));
    if (q->from) {
      struct chv_sql_pos at = q->from->pos;
      if (p->err_pos) *p->err_pos = at;
      return chv_error_set(p->err, CHV_ESYNTAX,
                           "line %d, column %d: a branch of FROM ... INSERT "
                           "has no FROM of its own (it reads the FROM "
                           "before the first INSERT)",
                           at.line, at.column);
    }
    TRY(parse_order_limit(p, q));
    b->query = q;
    *slot = b;
  }
  p->depth -= (int)v.n;
  s->inserts = v.data;
  s->ninserts = v.n;
  return CHV_OK;
}

/* Raw text from pos to the next ';' outside quotes (or the end); the lexer
** continues at that ';'. */
static void raw_to_end(struct parser *p, struct chv_sql_pos pos,
                       const char **start, size_t *len) {
  struct sql_lexer *lx = &p->lx;
  sql_lex_seek(lx, pos);
  p->ntok = 0;
  const char *s = lx->cur;
  char q = 0;
  while (lx->cur < lx->end) {
    char c = *lx->cur;
    if (q) {
      if (c == q) q = 0;
    } else if (c == '\'' || c == '"' || c == '`') {
      q = c;
    } else if (c == ';') {
      break;
    }
    if (c == '\n') {
      lx->line++;
      lx->column = 1;
    } else {
      lx->column++;
    }
    lx->cur++;
  }
  *start = s;
  *len = (size_t)(lx->cur - s);
}

static int trimmed_copy(struct parser *p, const char *s, size_t n,
                        const char **out) {
  while (n > 0 && (s[0] == ' ' || s[0] == '\t' || s[0] == '\n' ||
                   s[0] == '\r')) {
    s++;
    n--;
  }
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' ||
                   s[n - 1] == '\r'))
    n--;
  return copy_text(p, s, n, out);
}

static bool at_stmt_end(struct parser *p) {
  return peek(p, 0)->kind == TK_EOF || peek_op(p, 0, ";");
}

static int parse_set(struct parser *p, struct chv_sql_stmt *s, bool reset) {
  s->kind = reset ? CHV_SQL_STMT_RESET : CHV_SQL_STMT_SET;
  if (at_stmt_end(p)) return CHV_OK;
  struct sql_token t = *peek(p, 0);
  if (is_string_tok(p, &t)) {
    s->quoted = true;
    TRY(parse_string(p, "a quoted key", &s->key));
    if (reset) return CHV_OK;
    TRY(expect_op(p, "=", "'=' after the key"));
    return parse_string(p, "a quoted value", &s->value);
  }
  if (t.kind == TK_ERROR) return fail_at(p, &t, "a key");
  const char *raw;
  size_t n;
  raw_to_end(p, t.pos, &raw, &n);
  const char *eq = reset ? NULL : memchr(raw, '=', n);
  if (eq == NULL) return trimmed_copy(p, raw, n, &s->key);
  TRY(trimmed_copy(p, raw, (size_t)(eq - raw), &s->key));
  if (s->key[0] == '\0') return fail_at(p, &t, "a key before '='");
  return trimmed_copy(p, eq + 1, (size_t)(raw + n - eq - 1), &s->value);
}

/* DESCRIBE ... t's rest, Hive's: [PARTITION (k=v, ...)] [column] */
static int parse_describe_tail(struct parser *p, struct chv_sql_stmt *s) {
  if (accept_kw(p, "PARTITION")) TRY(parse_part_spec(p, false, &s->partition));
  if (at_stmt_end(p)) return CHV_OK;
  struct chv_sql_name *c = &s->describe_column;
  TRY(parse_ident_ex(p, true, "a column name or the end of the statement",
                     &c->parts[0], &c->pos));
  c->nparts = 1;
  return CHV_OK;
}

/* ANALYZE TABLE t [PARTITION (k[=v], ...)] COMPUTE STATISTICS [NOSCAN |
** FOR COLUMNS [c, ...] | FOR ALL COLUMNS]: Hive's form (a partial spec, a
** key without a value, FOR COLUMNS without a list meaning every column)
** and Flink's (FOR ALL COLUMNS). */
static int parse_analyze(struct parser *p, struct chv_sql_stmt *s) {
  s->kind = CHV_SQL_STMT_ANALYZE;
  TRY(expect_kw(p, "TABLE", "TABLE after ANALYZE"));
  TRY(parse_name(p, "a table name", &s->name));
  if (accept_kw(p, "PARTITION")) TRY(parse_part_spec(p, true, &s->partition));
  TRY(expect_kw(p, "COMPUTE",
                s->partition.n ? "COMPUTE" : "PARTITION or COMPUTE"));
  TRY(expect_kw(p, "STATISTICS", "STATISTICS after COMPUTE"));
  if (accept_kw(p, "NOSCAN")) {
    s->noscan = true;
    return CHV_OK;
  }
  if (!accept_kw(p, "FOR")) return CHV_OK;
  s->for_columns = true;
  if (accept_kw(p, "ALL")) {
    TRY(expect_kw(p, "COLUMNS", "COLUMNS after FOR ALL"));
    return CHV_OK;
  }
  TRY(expect_kw(p, "COLUMNS", "COLUMNS or ALL COLUMNS after FOR"));
  if (at_stmt_end(p)) return CHV_OK;
  struct vec v = {0};
  do {
    struct chv_sql_name *c = NULL;
    TRY(vec_push(p, &v, sizeof *c, (void **)&c));
    TRY(parse_ident_ex(p, true, "a column name", &c->parts[0], &c->pos));
    c->nparts = 1;
  } while (accept_op(p, ","));
  s->stat_columns = v.data;
  s->nstat_columns = v.n;
  return CHV_OK;
}

static int parse_stmt_body(struct parser *p, struct chv_sql_stmt *s) {
  const struct sql_token *t = peek(p, 0);
  if (tok_is_kw(t, "WITH")) {
    /* Hive: WITH q AS (...) INSERT ... SELECT ... FROM q */
    struct vec ctes = {0};
    next(p);
    TRY(enter(p));
    TRY(parse_ctes(p, &ctes));
    if (accept_kw(p, "INSERT")) {
      TRY(parse_insert(p, s));
      TRY(attach_ctes(p, &ctes, &s->query));
    } else {
      s->kind = CHV_SQL_STMT_QUERY;
      TRY(parse_query(p, &s->query));
      TRY(attach_ctes(p, &ctes, &s->query));
    }
    leave(p);
    return CHV_OK;
  }
  if (starts_query(p, 0) || tok_is_op(t, "(")) {
    s->kind = CHV_SQL_STMT_QUERY;
    return parse_query(p, &s->query);
  }
  if (t->kind != TK_WORD) return fail(p, "a statement");
  if (accept_kw(p, "FROM")) return parse_multi_insert(p, s);
  if (accept_kw(p, "CREATE")) return parse_create(p, s);
  if (accept_kw(p, "DROP")) {
    if (accept_kw(p, "DATABASE") || accept_kw(p, "SCHEMA")) {
      s->kind = CHV_SQL_STMT_DROP_DATABASE;
      TRY(parse_if_exists(p, &s->if_exists));
      TRY(parse_name(p, "a database name", &s->name));
      if (accept_kw(p, "CASCADE"))
        s->cascade = true;
      else
        accept_kw(p, "RESTRICT");
      return CHV_OK;
    }
    s->kind = CHV_SQL_STMT_DROP_TABLE;
    if (accept_kw(p, "VIEW")) {
      s->view = true;
      TRY(parse_if_exists(p, &s->if_exists));
      return parse_name(p, "a view name", &s->name);
    }
    TRY(expect_kw(p, "TABLE", "DATABASE, TABLE or VIEW after DROP"));
    TRY(parse_if_exists(p, &s->if_exists));
    return parse_name(p, "a table name", &s->name);
  }
  if (accept_kw(p, "USE")) {
    if (peek_kw(p, 0, "CATALOG") && !at_stmt_end(p) &&
        peek(p, 1)->kind != TK_EOF && !peek_op(p, 1, ";")) {
      next(p);
      s->kind = CHV_SQL_STMT_USE_CATALOG;
    } else {
      s->kind = CHV_SQL_STMT_USE;
    }
    return parse_name(p, "a name after USE", &s->name);
  }
  if (accept_kw(p, "SHOW")) return parse_show(p, s);
  if (accept_kw(p, "DESCRIBE") || accept_kw(p, "DESC")) {
    s->kind = CHV_SQL_STMT_DESCRIBE;
    if (peek_kw(p, 0, "FORMATTED") || peek_kw(p, 0, "EXTENDED")) {
      if (!at_stmt_end(p) && peek(p, 1)->kind != TK_EOF &&
          !peek_op(p, 1, ";")) {
        s->describe_mode = peek_kw(p, 0, "FORMATTED") ? "FORMATTED"
                                                      : "EXTENDED";
        next(p);
      }
    }
    TRY(parse_name(p, "a table name", &s->name));
    return parse_describe_tail(p, s);
  }
  if (accept_kw(p, "TRUNCATE")) {
    s->kind = CHV_SQL_STMT_TRUNCATE_TABLE;
    TRY(expect_kw(p, "TABLE", "TABLE after TRUNCATE"));
    TRY(parse_name(p, "a table name", &s->name));
    if (accept_kw(p, "PARTITION")) TRY(parse_part_spec(p, false, &s->partition));
    return CHV_OK;
  }
  if (accept_kw(p, "ALTER")) return parse_alter(p, s);
  if (accept_kw(p, "MSCK")) {
    s->kind = CHV_SQL_STMT_MSCK_REPAIR;
    TRY(expect_kw(p, "REPAIR", "REPAIR after MSCK"));
    TRY(expect_kw(p, "TABLE", "TABLE after MSCK REPAIR"));
    return parse_name(p, "a table name", &s->name);
  }
  if (accept_kw(p, "LOAD")) {
    s->kind = CHV_SQL_STMT_LOAD_DATA;
    TRY(expect_kw(p, "DATA", "DATA after LOAD"));
    s->local = accept_kw(p, "LOCAL");
    TRY(expect_kw(p, "INPATH", s->local ? "INPATH" : "LOCAL or INPATH"));
    TRY(parse_string(p, "a quoted path", &s->inpath));
    s->overwrite = accept_kw(p, "OVERWRITE");
    TRY(expect_kw(p, "INTO", s->overwrite ? "INTO" : "OVERWRITE or INTO"));
    TRY(expect_kw(p, "TABLE", "TABLE after INTO"));
    TRY(parse_name(p, "a table name", &s->name));
    if (accept_kw(p, "PARTITION")) TRY(parse_part_spec(p, false, &s->partition));
    return CHV_OK;
  }
  if (accept_kw(p, "INSERT")) return parse_insert(p, s);
  if (accept_kw(p, "ANALYZE")) return parse_analyze(p, s);
  if (accept_kw(p, "SET")) return parse_set(p, s, false);
  if (accept_kw(p, "RESET")) return parse_set(p, s, true);
  if (accept_kw(p, "EXPLAIN")) {
    s->kind = CHV_SQL_STMT_EXPLAIN;
    if (peek_kw(p, 0, "ANALYZE") && peek(p, 1)->kind != TK_EOF &&
        !peek_op(p, 1, ";")) {
      next(p);
      s->analyze = true;
    }
    if (at_stmt_end(p))
      return fail(p, s->analyze ? "a statement after EXPLAIN ANALYZE"
                                : "a statement after EXPLAIN");
    if (peek_kw(p, 0, "ANALYZE") && !s->analyze) /* EXPLAIN ANALYZE, alone */
      return fail(p, "a statement");
    TRY(enter(p));
    TRY(parse_stmt(p, &s->explained));
    leave(p);
    return CHV_OK;
  }
  return fail(p, "a statement");
}

static int parse_stmt(struct parser *p, struct chv_sql_stmt **out) {
  struct chv_sql_stmt *s = NULL;
  TRY(alloc_node(p, sizeof *s, (void **)&s));
  s->pos = peek(p, 0)->pos;
  s->dialect = p->lx.dialect;
  TRY(parse_stmt_body(p, s));
  *out = s;
  return CHV_OK;
}

/* SET 'table.sql-dialect' = 'hive' | 'default' switches the lexer from the
** next statement on (the lookahead is read again in the new dialect). */
static void apply_dialect(struct parser *p, const struct chv_sql_stmt *s) {
  if (s->kind != CHV_SQL_STMT_SET || s->key == NULL || s->value == NULL ||
      !chv_str_ieq(s->key, "table.sql-dialect"))
    return;
  enum chv_sql_dialect d;
  if (chv_str_ieq(s->value, "hive"))
    d = CHV_SQL_DIALECT_HIVE;
  else if (chv_str_ieq(s->value, "default"))
    d = CHV_SQL_DIALECT_DEFAULT;
  else
    return;
  if (p->ntok > 0) sql_lex_seek(&p->lx, p->tok[0].pos);
  p->ntok = 0;
  p->lx.dialect = d;
}

int chv_sql_parse_ex(const char *sql, size_t len,
                     const struct chv_sql_parse_options *opts,
                     chv_arena *arena, struct chv_sql_script **out,
                     struct chv_sql_pos *err_pos, struct chv_error *err) {
  if ((sql == NULL && len > 0) || arena == NULL || out == NULL)
    return chv_error_set(err, CHV_EINVAL, "chv_sql_parse: NULL argument");
  struct parser p;
  memset(&p, 0, sizeof p);
  struct chv_sql_pos p0 = {1, 1, 0};
  sql_lex_init(&p.lx, sql ? sql : "", len, p0,
               opts ? opts->dialect : CHV_SQL_DIALECT_DEFAULT);
  p.arena = arena;
  p.err = err;
  p.err_pos = err_pos;
  p.max_depth = opts && opts->max_depth > 0 ? opts->max_depth
                                             : DEFAULT_MAX_DEPTH;
  struct chv_sql_script *script = NULL;
  TRY(alloc_node(&p, sizeof *script, (void **)&script));
  struct vec v = {0};
  for (;;) {
    /* A hint on a ';' or the end that follows a statement directly is that
    ** statement's; one after a further ';', or in a script of nothing
    ** else, has no statement it could apply to. */
    bool semi = false;
    const struct sql_token *t;
    for (;;) {
      t = peek(&p, 0);
      bool is_semi = t->kind == TK_OP && t->len == 1 && t->start[0] == ';';
      if (!is_semi && t->kind != TK_EOF) break;
      if (t->hint && (v.n == 0 || semi)) {
        struct chv_sql_pos at = t->hint_pos;
        at.column -= 3;
        at.offset -= 3;
        if (p.err_pos) *p.err_pos = at;
        return chv_error_set(p.err, CHV_ESYNTAX,
                             "line %d, column %d: a hint (/*+ ... */) with no "
                             "statement; hints are not supported yet",
                             at.line, at.column);
      }
      if (!is_semi) break;
      next(&p);
      semi = true;
    }
    if (t->kind == TK_EOF) break;
    struct chv_sql_stmt **slot = NULL;
    TRY(vec_push(&p, &v, sizeof *slot, (void **)&slot));
    p.first_hint = p.stray_hint = (struct chv_sql_pos){0};
    TRY(parse_stmt(&p, slot));
    if (!at_stmt_end(&p))
      return fail(&p, "';' or end of input after the statement");
    note_hint(&p, peek(&p, 0)); /* a hint before the ';' or the end */
    (*slot)->first_hint = p.first_hint;
    (*slot)->stray_hint = p.stray_hint;
    apply_dialect(&p, *slot);
  }
  script->stmts = v.data;
  script->n = v.n;
  *out = script;
  return CHV_OK;
}

int chv_sql_parse(const char *sql, size_t len, chv_arena *arena,
                  struct chv_sql_script **out, struct chv_error *err) {
  return chv_sql_parse_ex(sql, len, NULL, arena, out, NULL, err);
}
