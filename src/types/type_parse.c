/*
** Parsing Hive type strings ("map<string,array<struct<a:int>>>") and column
** lists ("a int, b map<string,int>") into struct chv_type.
**
** A recursive-descent parser over the text, case-insensitive, with white
** space allowed between tokens.  It follows Hive's TypeInfoUtils rules:
** bare DECIMAL is decimal(10,0), "integer" is int, "dec"/"numeric" are
** decimal, "double precision" is double, map keys are primitive, struct field
** names are identifiers or backquoted, duplicate names are errors.  Errors
** give the 0-based column and what was expected; nesting deeper than
** CHV_TYPE_MAX_DEPTH is an error rather than a deep recursion.
**
** INTERFACE
**   chv_type_parse() chv_type_parse_columns()
*/
#include "types/types.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>

struct parser {
  const char *text; /* the whole input, for messages */
  size_t len;
  size_t pos;
  struct chv_error *err;
};

/* Raise error `code` at column `col`, quoting (a prefix of) the text. */
static int vperr(struct parser *p, int code, size_t col, const char *fmt,
                 va_list ap) {
  char what[256];
  vsnprintf(what, sizeof what, fmt, ap);
  int n = p->len > 120 ? 120 : (int)p->len;
  return chv_error_set(p->err, code, "type '%.*s%s' column %zu: %s", n,
                       p->text, p->len > 120 ? "..." : "", col, what);
}

/* A syntax error at column `col`. */
static int perr(struct parser *p, size_t col, const char *fmt, ...)
    CHV_PRINTF(3, 4);
static int perr(struct parser *p, size_t col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = vperr(p, CHV_ESYNTAX, col, fmt, ap);
  va_end(ap);
  return rc;
}

/* A Hive type that chive does not implement, at column `col`. */
static int unsupported(struct parser *p, size_t col, const char *what) {
  int n = p->len > 120 ? 120 : (int)p->len;
  return chv_error_set(p->err, CHV_ENOTSUP,
                       "type '%.*s%s' column %zu: Hive type %s is not "
                       "supported",
                       n, p->text, p->len > 120 ? "..." : "", col, what);
}

static void skip_ws(struct parser *p) {
  while (p->pos < p->len && isspace((unsigned char)p->text[p->pos])) p->pos++;
}

/* Describe what stands at the current position for "found ..." messages. */
static const char *found(struct parser *p, char *tmp, size_t tmpsz) {
  size_t i = p->pos;
  while (i < p->len && isspace((unsigned char)p->text[i])) i++;
  if (i >= p->len) return "end of text";
  snprintf(tmp, tmpsz, "'%c'", p->text[i]);
  return tmp;
}

/* Consume character c (after optional white space) or fail with "expected
** 'c' <ctx>" at the column where the previous token ended. */
static int expect(struct parser *p, char c, const char *ctx) {
  size_t at = p->pos;
  skip_ws(p);
  if (p->pos < p->len && p->text[p->pos] == c) {
    p->pos++;
    return CHV_OK;
  }
  char tmp[8];
  const char *f = found(p, tmp, sizeof tmp);
  p->pos = at;
  return perr(p, at, "expected '%c' %s, found %s", c, ctx, f);
}

/* True (and consumed) when the next non-space character is c. */
static bool accept(struct parser *p, char c) {
  size_t at = p->pos;
  skip_ws(p);
  if (p->pos < p->len && p->text[p->pos] == c) {
    p->pos++;
    return true;
  }
  p->pos = at;
  return false;
}

/* Scan a word [A-Za-z0-9_]+ into start and n (n = 0 if none). */
static void word(struct parser *p, size_t *start, size_t *n) {
  skip_ws(p);
  *start = p->pos;
  while (p->pos < p->len && (isalnum((unsigned char)p->text[p->pos]) ||
                             p->text[p->pos] == '_'))
    p->pos++;
  *n = p->pos - *start;
}

/* A positive decimal integer (after optional white space). */
static int number(struct parser *p, const char *what, int *out) {
  size_t at = p->pos;
  skip_ws(p);
  size_t s = p->pos;
  long v = 0;
  while (p->pos < p->len && isdigit((unsigned char)p->text[p->pos])) {
    if (v < 1000000) v = v * 10 + (p->text[p->pos] - '0');
    p->pos++;
  }
  if (p->pos == s) {
    char tmp[8];
    const char *f = found(p, tmp, sizeof tmp);
    p->pos = at;
    return perr(p, at, "expected %s, found %s", what, f);
  }
  *out = (int)v;
  return CHV_OK;
}

/* A struct field or column name: identifier or `back quoted` (`` = `). */
static int ident(struct parser *p, const char *ctx, char **out) {
  size_t at = p->pos;
  skip_ws(p);
  if (p->pos < p->len && p->text[p->pos] == '`') {
    size_t open = p->pos++;
    struct chv_buf b;
    chv_buf_init(&b);
    for (;;) {
      if (p->pos >= p->len) {
        chv_buf_free(&b);
        return perr(p, open, "unterminated back quote");
      }
      char c = p->text[p->pos++];
      if (c == '`') {
        if (p->pos < p->len && p->text[p->pos] == '`') {
          p->pos++;
        } else {
          break;
        }
      }
      if (chv_buf_putc(&b, c) != CHV_OK) {
        chv_buf_free(&b);
        return chv_error_set(p->err, CHV_ENOMEM, "out of memory");
      }
    }
    if (b.len == 0) {
      chv_buf_free(&b);
      return perr(p, open, "empty field name");
    }
    *out = chv_buf_detach(&b);
    return CHV_OK;
  }
  /* Hive's type tokenizer also takes '$' and '.' in names. */
  skip_ws(p);
  size_t s = p->pos;
  while (p->pos < p->len &&
         (isalnum((unsigned char)p->text[p->pos]) || p->text[p->pos] == '_' ||
          p->text[p->pos] == '$' || p->text[p->pos] == '.'))
    p->pos++;
  size_t n = p->pos - s;
  if (n == 0) {
    char tmp[8];
    const char *f = found(p, tmp, sizeof tmp);
    p->pos = at;
    return perr(p, at, "expected a field name %s, found %s", ctx, f);
  }
  *out = chv_strndup(p->text + s, n);
  if (*out == NULL) return chv_error_set(p->err, CHV_ENOMEM, "out of memory");
  return CHV_OK;
}

/* An optional "COMMENT 'text'" after a field or column (ignored). */
static int opt_comment(struct parser *p) {
  size_t at = p->pos, s, n;
  word(p, &s, &n);
  if (n != 7 || !chv_str_nieq(p->text + s, "comment", 7)) {
    p->pos = at;
    return CHV_OK;
  }
  skip_ws(p);
  if (p->pos >= p->len ||
      (p->text[p->pos] != '\'' && p->text[p->pos] != '"'))
    return perr(p, p->pos, "expected a quoted string after COMMENT");
  char q = p->text[p->pos];
  size_t open = p->pos++;
  while (p->pos < p->len && p->text[p->pos] != q) {
    if (p->text[p->pos] == '\\' && p->pos + 1 < p->len) p->pos++;
    p->pos++;
  }
  if (p->pos >= p->len) return perr(p, open, "unterminated comment string");
  p->pos++;
  return CHV_OK;
}

struct keyword {
  const char *name;
  enum chv_type_id id;
};

static const struct keyword keywords[] = {
    {"boolean", CHV_TYPE_BOOLEAN},     {"tinyint", CHV_TYPE_TINYINT},
    {"smallint", CHV_TYPE_SMALLINT},   {"int", CHV_TYPE_INT},
    {"integer", CHV_TYPE_INT},         {"bigint", CHV_TYPE_BIGINT},
    {"float", CHV_TYPE_FLOAT},         {"double", CHV_TYPE_DOUBLE},
    {"decimal", CHV_TYPE_DECIMAL},     {"dec", CHV_TYPE_DECIMAL},
    {"numeric", CHV_TYPE_DECIMAL},     {"string", CHV_TYPE_STRING},
    {"varchar", CHV_TYPE_VARCHAR},     {"char", CHV_TYPE_CHAR},
    {"binary", CHV_TYPE_BINARY},       {"date", CHV_TYPE_DATE},
    {"timestamp", CHV_TYPE_TIMESTAMP}, {"array", CHV_TYPE_ARRAY},
    {"map", CHV_TYPE_MAP},             {"struct", CHV_TYPE_STRUCT},
};

static int parse_type(struct parser *p, int depth, struct chv_type **out);

static int oom(struct parser *p) {
  return chv_error_set(p->err, CHV_ENOMEM, "out of memory");
}

/* decimal[(p[,s])] after the keyword. */
static int parse_decimal(struct parser *p, struct chv_type **out) {
  int prec = CHV_DECIMAL_DEFAULT_PRECISION, scale = 0;
  if (accept(p, '(')) {
    skip_ws(p);
    size_t pcol = p->pos;
    CHV_RETURN_IF_ERR(number(p, "a decimal precision", &prec));
    if (prec < 1 || prec > CHV_DECIMAL_MAX_PRECISION)
      return perr(p, pcol, "decimal precision %d is outside 1..%d", prec,
                  CHV_DECIMAL_MAX_PRECISION);
    if (accept(p, ',')) {
      skip_ws(p);
      size_t scol = p->pos;
      CHV_RETURN_IF_ERR(number(p, "a decimal scale", &scale));
      if (scale > prec)
        return perr(p, scol,
                    "decimal scale %d is larger than the precision %d", scale,
                    prec);
    }
    CHV_RETURN_IF_ERR(expect(p, ')', "after decimal parameters"));
  }
  struct chv_type *t;
  if (chv_type_new_decimal(prec, scale, &t, NULL) != CHV_OK) return oom(p);
  *out = t;
  return CHV_OK;
}

/* char(n) / varchar(n) after the keyword; the length is mandatory. */
static int parse_char(struct parser *p, enum chv_type_id id,
                      struct chv_type **out) {
  const char *nm = chv_type_id_name(id);
  int max = id == CHV_TYPE_CHAR ? CHV_CHAR_MAX_LENGTH : CHV_VARCHAR_MAX_LENGTH;
  char ctx[64];
  snprintf(ctx, sizeof ctx, "after %s (a length is required)", nm);
  CHV_RETURN_IF_ERR(expect(p, '(', ctx));
  skip_ws(p);
  size_t col = p->pos;
  int n;
  char what[32];
  snprintf(what, sizeof what, "a %s length", nm);
  CHV_RETURN_IF_ERR(number(p, what, &n));
  if (n < 1 || n > max)
    return perr(p, col, "%s length %d is outside 1..%d", nm, n, max);
  snprintf(ctx, sizeof ctx, "after %s length", nm);
  CHV_RETURN_IF_ERR(expect(p, ')', ctx));
  struct chv_type *t;
  if (chv_type_new_char(id, n, &t, NULL) != CHV_OK) return oom(p);
  *out = t;
  return CHV_OK;
}

static int parse_array(struct parser *p, int depth, struct chv_type **out) {
  CHV_RETURN_IF_ERR(expect(p, '<', "after array"));
  struct chv_type *elem;
  CHV_RETURN_IF_ERR(parse_type(p, depth + 1, &elem));
  int rc = expect(p, '>', "after array element type");
  if (rc != CHV_OK) {
    chv_type_free(elem);
    return rc;
  }
  if (chv_type_new_array(elem, out) != CHV_OK) return oom(p);
  return CHV_OK;
}

static int parse_map(struct parser *p, int depth, struct chv_type **out) {
  CHV_RETURN_IF_ERR(expect(p, '<', "after map"));
  skip_ws(p);
  size_t kcol = p->pos;
  struct chv_type *key = NULL, *val = NULL;
  int rc = parse_type(p, depth + 1, &key);
  if (rc != CHV_OK) return rc;
  if (!chv_type_is_primitive(key->id)) {
    rc = perr(p, kcol, "map key must be a primitive type, not %s",
              chv_type_id_name(key->id));
    goto out_free;
  }
  if ((rc = expect(p, ',', "after map key type")) != CHV_OK) goto out_free;
  if ((rc = parse_type(p, depth + 1, &val)) != CHV_OK) goto out_free;
  if ((rc = expect(p, '>', "after map value type")) != CHV_OK) goto out_free;
  if (chv_type_new_map(key, val, out, NULL) != CHV_OK) return oom(p);
  return CHV_OK;
out_free:
  chv_type_free(key);
  chv_type_free(val);
  return rc;
}

/* Add field `name` (taken over) of type `f` (taken over) to st, checking
** for duplicates; col is where the name started, for the message. */
static int add_field(struct parser *p, struct chv_type *st, char *name,
                     struct chv_type *f, size_t col) {
  if (chv_type_field_index(st, name) >= 0) {
    int rc = perr(p, col, "duplicate field name '%s'", name);
    chv_free(name);
    chv_type_free(f);
    return rc;
  }
  int rc = chv_type_struct_add(st, name, f);
  chv_free(name);
  if (rc != CHV_OK) return oom(p);
  return CHV_OK;
}

/* The type (at depth) and optional COMMENT of field `name` (taken over),
** then the field added to st; col is where the name started. */
static int parse_field(struct parser *p, int depth, struct chv_type *st,
                       char *name, size_t col) {
  struct chv_type *f;
  int rc = parse_type(p, depth, &f);
  if (rc != CHV_OK) {
    chv_free(name);
    return rc;
  }
  CHV_RETURN_IF_ERR(add_field(p, st, name, f, col));
  return opt_comment(p);
}

static int parse_struct(struct parser *p, int depth, struct chv_type **out) {
  CHV_RETURN_IF_ERR(expect(p, '<', "after struct"));
  struct chv_type *st;
  if (chv_type_new(CHV_TYPE_STRUCT, &st) != CHV_OK) return oom(p);
  int rc;
  for (;;) {
    skip_ws(p);
    size_t ncol = p->pos;
    char *name;
    if ((rc = ident(p, "in struct", &name)) != CHV_OK) goto out_free;
    if ((rc = expect(p, ':', "after struct field name")) != CHV_OK) {
      chv_free(name);
      goto out_free;
    }
    if ((rc = parse_field(p, depth + 1, st, name, ncol)) != CHV_OK)
      goto out_free;
    if (accept(p, ',')) continue;
    if ((rc = expect(p, '>', "or ',' after struct field")) != CHV_OK)
      goto out_free;
    break;
  }
  *out = st;
  return CHV_OK;
out_free:
  chv_type_free(st);
  return rc;
}

static int parse_type(struct parser *p, int depth, struct chv_type **out) {
  size_t at = p->pos, s, n;
  word(p, &s, &n);
  if (n == 0) {
    char tmp[8];
    const char *f = found(p, tmp, sizeof tmp);
    p->pos = at;
    return perr(p, s, "expected a type name, found %s", f);
  }
  const struct keyword *kw = NULL;
  for (size_t i = 0; i < CHV_ARRAY_SIZE(keywords); i++) {
    if (strlen(keywords[i].name) == n &&
        chv_str_nieq(p->text + s, keywords[i].name, n)) {
      kw = &keywords[i];
      break;
    }
  }
  if (kw == NULL) {
    /* Hive types that chive does not implement get their own error. */
    static const char *const unsupported_names[] = {
        "uniontype", "interval_year_month", "interval_day_time", "void",
        "timestamplocaltz", "variant"};
    for (size_t i = 0; i < CHV_ARRAY_SIZE(unsupported_names); i++)
      if (strlen(unsupported_names[i]) == n &&
          chv_str_nieq(p->text + s, unsupported_names[i], n))
        return unsupported(p, s, unsupported_names[i]);
    return perr(p, s, "unknown type '%.*s'", (int)(n > 64 ? 64 : n),
                p->text + s);
  }
  switch (kw->id) {
  case CHV_TYPE_DECIMAL: return parse_decimal(p, out);
  case CHV_TYPE_CHAR:
  case CHV_TYPE_VARCHAR: return parse_char(p, kw->id, out);
  case CHV_TYPE_ARRAY:
  case CHV_TYPE_MAP:
  case CHV_TYPE_STRUCT:
    if (depth >= CHV_TYPE_MAX_DEPTH)
      return perr(p, s, "types nested deeper than %d levels",
                  CHV_TYPE_MAX_DEPTH);
    if (kw->id == CHV_TYPE_ARRAY) return parse_array(p, depth, out);
    if (kw->id == CHV_TYPE_MAP) return parse_map(p, depth, out);
    return parse_struct(p, depth, out);
  case CHV_TYPE_TIMESTAMP: {
    /* "timestamp with local time zone" is Hive's timestamplocaltz. */
    size_t save = p->pos, s2, n2;
    word(p, &s2, &n2);
    p->pos = save;
    if (n2 == 4 && chv_str_nieq(p->text + s2, "with", 4))
      return unsupported(p, s, "timestamp with local time zone");
    if (chv_type_new(kw->id, out) != CHV_OK) return oom(p);
    return CHV_OK;
  }
  case CHV_TYPE_DOUBLE: {
    /* "double precision" is Hive's synonym of double. */
    size_t save = p->pos, s2, n2;
    word(p, &s2, &n2);
    if (!(n2 == 9 && chv_str_nieq(p->text + s2, "precision", 9)))
      p->pos = save;
  }
  /* fall through */
  default:
    if (chv_type_new(kw->id, out) != CHV_OK) return oom(p);
    return CHV_OK;
  }
}

/* After the type: only white space may follow. */
static int expect_end(struct parser *p, const char *ctx) {
  size_t at = p->pos;
  skip_ws(p);
  if (p->pos < p->len) return perr(p, at, "unexpected '%c' %s", p->text[p->pos], ctx);
  return CHV_OK;
}

int chv_type_parse(const char *text, struct chv_type **out,
                   struct chv_error *err) {
  struct parser p = {text, strlen(text), 0, err};
  struct chv_type *t;
  CHV_RETURN_IF_ERR(parse_type(&p, 0, &t));
  int rc = expect_end(&p, "after the type");
  if (rc != CHV_OK) {
    chv_type_free(t);
    return rc;
  }
  *out = t;
  return CHV_OK;
}

int chv_type_parse_columns(const char *text, struct chv_type **out,
                           struct chv_error *err) {
  struct parser p = {text, strlen(text), 0, err};
  struct chv_type *st;
  if (chv_type_new(CHV_TYPE_STRUCT, &st) != CHV_OK) return oom(&p);
  int rc;
  skip_ws(&p);
  if (p.pos >= p.len) {
    rc = perr(&p, p.pos, "expected a column name, found end of text");
    goto out_free;
  }
  for (;;) {
    skip_ws(&p);
    size_t ncol = p.pos;
    char *name;
    if ((rc = ident(&p, "(column)", &name)) != CHV_OK) goto out_free;
    /* Hive DDL writes "a int"; accept "a:int" too. */
    accept(&p, ':');
    if ((rc = parse_field(&p, 1, st, name, ncol)) != CHV_OK) goto out_free;
    if (accept(&p, ',')) continue;
    if ((rc = expect_end(&p, "after column (expected ',')")) != CHV_OK)
      goto out_free;
    break;
  }
  *out = st;
  return CHV_OK;
out_free:
  chv_type_free(st);
  return rc;
}
