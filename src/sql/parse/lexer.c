/*
** SQL lexer: characters to tokens on demand, with line and column.  Also the
** decoding of quoted literals (per dialect) and chv_sql_split(), the script
** splitter a shell uses to find complete statements.
**
** Comments (-- to end of line, /\* ... *\/) are skipped; a comment opening
** with /\*+ is a hint, handed to the parser attached to the token after it
** (the parser uses it where a hint is allowed and ignores it elsewhere).
**
** INTERFACE
**   sql_lex_init(), sql_lex_next(), sql_lex_seek()
**   sql_decode_string()
**   chv_sql_split()
*/
#include "sql/parse/parse_int.h"

#include <ctype.h>

static bool is_ident_start(int c) {
  return isalpha(c) || c == '_' || c == '$' || c >= 0x80;
}

static bool is_ident_char(int c) { return is_ident_start(c) || isdigit(c); }

void sql_lex_init(struct sql_lexer *lx, const char *src, size_t len,
                  struct chv_sql_pos start, enum chv_sql_dialect dialect) {
  lx->src = src - start.offset;
  lx->cur = src;
  lx->end = src + len;
  lx->line = start.line;
  lx->column = start.column;
  lx->dialect = dialect;
}

void sql_lex_seek(struct sql_lexer *lx, struct chv_sql_pos pos) {
  lx->cur = lx->src + pos.offset;
  lx->line = pos.line;
  lx->column = pos.column;
}

static struct chv_sql_pos here(const struct sql_lexer *lx) {
  struct chv_sql_pos p = {lx->line, lx->column, (size_t)(lx->cur - lx->src)};
  return p;
}

static void advance(struct sql_lexer *lx) {
  if (*lx->cur == '\n') {
    lx->line++;
    lx->column = 1;
  } else {
    lx->column++;
  }
  lx->cur++;
}

static int peekc(const struct sql_lexer *lx, size_t i) {
  return (size_t)(lx->end - lx->cur) > i ? (unsigned char)lx->cur[i] : -1;
}

/* Skip space and comments; remember the last hint.  Returns false (and
** sets t to an error) for an unterminated comment. */
static bool skip_space(struct sql_lexer *lx, struct sql_token *t) {
  for (;;) {
    int c = peekc(lx, 0);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v') {
      advance(lx);
    } else if (c == '-' && peekc(lx, 1) == '-') {
      while (lx->cur < lx->end && *lx->cur != '\n') advance(lx);
    } else if (c == '/' && peekc(lx, 1) == '*') {
      struct chv_sql_pos open = here(lx);
      bool hint = peekc(lx, 2) == '+';
      advance(lx);
      advance(lx);
      if (hint) advance(lx);
      struct chv_sql_pos body = here(lx);
      const char *body_start = lx->cur;
      for (;;) {
        if (lx->cur >= lx->end) {
          t->kind = TK_ERROR;
          t->start = lx->src + open.offset;
          t->len = 2;
          t->pos = open;
          t->msg = "unterminated comment";
          return false;
        }
        if (*lx->cur == '*' && peekc(lx, 1) == '/') break;
        advance(lx);
      }
      if (hint && lx->cur > body_start) { /* an empty one is no hint */
        t->hint = body_start;
        t->hint_len = (size_t)(lx->cur - body_start);
        t->hint_pos = body;
        if (t->nhints++ == 0) t->first_hint_pos = body;
      }
      advance(lx);
      advance(lx);
    } else {
      return true;
    }
  }
}

/* Scan a quoted token from its opening quote q; backslash escapes the next
** character when bs is true.  Returns false at the end of input. */
static bool scan_quoted(struct sql_lexer *lx, char q, bool bs) {
  advance(lx); /* opening quote */
  while (lx->cur < lx->end) {
    char c = *lx->cur;
    if (bs && c == '\\') {
      advance(lx);
      if (lx->cur >= lx->end) return false;
      advance(lx);
    } else if (c == q) {
      advance(lx);
      if (peekc(lx, 0) == (unsigned char)q) {
        advance(lx); /* doubled quote */
      } else {
        return true;
      }
    } else {
      advance(lx);
    }
  }
  return false;
}

static const char *const multi_ops[] = {"<=>", "<=", ">=", "<>", "!=",
                                        "==",  "||", "::"};

void sql_lex_next(struct sql_lexer *lx, struct sql_token *t) {
  memset(t, 0, sizeof *t);
  if (!skip_space(lx, t)) return;
  t->pos = here(lx);
  t->start = lx->cur;
  int c = peekc(lx, 0);
  bool hive = lx->dialect == CHV_SQL_DIALECT_HIVE;
  if (c < 0) {
    t->kind = TK_EOF;
  } else if ((c == 'x' || c == 'X') && peekc(lx, 1) == '\'') {
    advance(lx);
    t->kind = scan_quoted(lx, '\'', false) ? TK_BINARY : TK_ERROR;
    t->msg = "unterminated binary literal";
  } else if (is_ident_start(c)) {
    while (lx->cur < lx->end && is_ident_char((unsigned char)*lx->cur))
      advance(lx);
    t->kind = TK_WORD;
  } else if (c == '`') {
    t->kind = scan_quoted(lx, '`', false) ? TK_QIDENT : TK_ERROR;
    t->msg = "unterminated quoted name";
  } else if (c == '\'') {
    t->kind = scan_quoted(lx, '\'', hive) ? TK_STRING : TK_ERROR;
    t->msg = "unterminated string";
  } else if (c == '"') {
    t->kind = scan_quoted(lx, '"', hive) ? TK_DSTRING : TK_ERROR;
    t->msg = "unterminated string";
  } else if (isdigit(c) || (c == '.' && isdigit(peekc(lx, 1)))) {
    while (isdigit(peekc(lx, 0))) advance(lx);
    int u = peekc(lx, 0);
    if (u > 0 && strchr("bBkKmMgG", u) != NULL &&
        !is_ident_char(peekc(lx, 1))) { /* 100M: a byte length */
      advance(lx);
      t->kind = TK_BYTES;
      t->len = (size_t)(lx->cur - t->start);
      return;
    }
    if (peekc(lx, 0) == '.') {
      advance(lx);
      while (isdigit(peekc(lx, 0))) advance(lx);
    }
    int e = peekc(lx, 0);
    if ((e == 'e' || e == 'E') &&
        (isdigit(peekc(lx, 1)) ||
         ((peekc(lx, 1) == '+' || peekc(lx, 1) == '-') &&
          isdigit(peekc(lx, 2))))) {
      advance(lx);
      if (!isdigit(peekc(lx, 0))) advance(lx);
      while (isdigit(peekc(lx, 0))) advance(lx);
    }
    t->kind = TK_NUMBER;
    if (is_ident_start(peekc(lx, 0))) {
      const char *s = lx->cur;
      while (lx->cur < lx->end && is_ident_char((unsigned char)*lx->cur))
        advance(lx);
      size_t n = (size_t)(lx->cur - s);
      bool ok = (n == 1 && strchr("YySsLlDd", s[0]) != NULL) ||
                (n == 2 && chv_str_nieq(s, "BD", 2));
      if (!ok) {
        t->kind = TK_ERROR;
        t->msg = "invalid number";
      }
    }
  } else {
    t->kind = TK_OP;
    for (size_t i = 0; i < CHV_ARRAY_SIZE(multi_ops); i++) {
      size_t n = strlen(multi_ops[i]);
      if ((size_t)(lx->end - lx->cur) >= n &&
          memcmp(lx->cur, multi_ops[i], n) == 0) {
        for (size_t k = 0; k < n; k++) advance(lx);
        t->len = n;
        return;
      }
    }
    if (c == 0 || strchr("(),;.=<>+-*/%[]:~&|^?{}", c) == NULL) {
      t->kind = TK_ERROR;
      t->msg = "unexpected character";
    }
    advance(lx);
  }
  t->len = (size_t)(lx->cur - t->start);
}

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Append the UTF-8 encoding of code point cp. */
static size_t put_utf8(char *o, unsigned cp) {
  if (cp < 0x80) {
    o[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    o[0] = (char)(0xC0 | (cp >> 6));
    o[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  o[0] = (char)(0xE0 | (cp >> 12));
  o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
  o[2] = (char)(0x80 | (cp & 0x3F));
  return 3;
}

/* Hive's BaseSemanticAnalyzer.unescapeSQLString: \ooo (first digit 0 or 1)
** is an octal byte, \uXXXX a UTF-16 unit, \0 \b \n \r \t \Z the control
** characters, \% and \_ keep their backslash (LIKE patterns), any other
** escaped character stands for itself. */
char *sql_decode_string(chv_arena *arena, const char *start, size_t len,
                        bool hive, size_t *out_len) {
  char q = start[0];
  const char *s = start + 1, *e = start + len - 1; /* inside the quotes */
  char *out = chv_arena_alloc(arena, len + 1);
  if (out == NULL) return NULL;
  size_t n = 0;
  while (s < e) {
    if (*s == q && s + 1 < e && s[1] == q) {
      out[n++] = q;
      s += 2;
    } else if (hive && *s == '\\' && s + 1 < e) {
      char c = s[1];
      if (e - s >= 4 && (c == '0' || c == '1') && s[2] >= '0' && s[2] <= '7' &&
          s[3] >= '0' && s[3] <= '7') {
        out[n++] = (char)((c - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
        s += 4;
        continue;
      }
      if (c == 'u' && e - s >= 6 && hexval(s[2]) >= 0 && hexval(s[3]) >= 0 &&
          hexval(s[4]) >= 0 && hexval(s[5]) >= 0) {
        unsigned cp = (unsigned)(hexval(s[2]) << 12 | hexval(s[3]) << 8 |
                                 hexval(s[4]) << 4 | hexval(s[5]));
        n += put_utf8(out + n, cp); /* 3 bytes at most for 6 in */
        s += 6;
        continue;
      }
      switch (c) {
      case '0': out[n++] = '\0'; break;
      case 'b': out[n++] = '\b'; break;
      case 'n': out[n++] = '\n'; break;
      case 'r': out[n++] = '\r'; break;
      case 't': out[n++] = '\t'; break;
      case 'Z': out[n++] = '\032'; break;
      case '%': out[n++] = '\\'; out[n++] = '%'; break;
      case '_': out[n++] = '\\'; out[n++] = '_'; break;
      default: out[n++] = c; break;
      }
      s += 2;
    } else {
      out[n++] = *s++;
    }
  }
  out[n] = '\0';
  *out_len = n;
  return out;
}

/* ---- chv_sql_split ------------------------------------------------------ */

int chv_sql_split(const char *sql, size_t len, enum chv_sql_dialect dialect,
                  chv_arena *arena, struct chv_sql_piece **out, size_t *n,
                  bool *complete, struct chv_error *err) {
  if ((sql == NULL && len > 0) || arena == NULL || out == NULL || n == NULL ||
      complete == NULL)
    return chv_error_set(err, CHV_EINVAL, "chv_sql_split: NULL argument");
  struct sql_lexer lx;
  struct chv_sql_pos p0 = {1, 1, 0};
  sql_lex_init(&lx, sql ? sql : "", len, p0, dialect);
  struct chv_sql_piece *items = NULL;
  size_t count = 0, cap = 0;
  bool open = false, ok = true;
  struct chv_sql_piece cur = {0};
  for (;;) {
    struct sql_token t;
    sql_lex_next(&lx, &t);
    bool end = t.kind == TK_EOF || t.kind == TK_ERROR;
    bool semi = t.kind == TK_OP && t.len == 1 && t.start[0] == ';';
    if (t.kind == TK_ERROR &&
        strcmp(t.msg, "unexpected character") != 0 &&
        strcmp(t.msg, "invalid number") != 0) {
      ok = false; /* open string or comment: runs to the end */
      if (!open) {
        cur.text = t.start;
        cur.pos = t.pos;
        open = true;
      }
      cur.len = (size_t)(lx.end - cur.text);
    } else if (t.kind == TK_ERROR) {
      end = false; /* a bad character is the parser's business */
    }
    if (!end && !semi) {
      if (!open) {
        cur.text = t.start;
        cur.pos = t.pos;
        open = true;
      }
      cur.len = (size_t)(t.start + t.len - cur.text);
      continue;
    }
    if (!open && t.hint) {
      /* A hint with no statement is a piece of its own, which the parser
      ** refuses, not a comment to skip. */
      cur.text = lx.src + t.first_hint_pos.offset - 3; /* the first one */
      cur.pos = t.first_hint_pos;
      cur.pos.column -= 3;
      cur.pos.offset -= 3;
      open = true;
    }
    if (open) {
      /* A hint after the last token stays with the statement, which
      ** refuses it; other trailing comments are cut. */
      if (t.hint) cur.len = (size_t)(t.hint + t.hint_len + 2 - cur.text);
      cur.terminated = semi;
      if (count == cap) {
        size_t ncap = cap ? cap * 2 : 8;
        struct chv_sql_piece *ni = chv_arena_alloc(arena, ncap * sizeof *ni);
        if (ni == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
        if (count) memcpy(ni, items, count * sizeof *ni);
        items = ni;
        cap = ncap;
      }
      items[count++] = cur;
      if (!semi) ok = false;
      open = false;
      memset(&cur, 0, sizeof cur);
    }
    if (end) break;
  }
  *out = items;
  *n = count;
  *complete = ok;
  return CHV_OK;
}
