/*
** Helpers shared by the sql/exec tests: batches written as text
** ("1|2|NULL" per column, each value CAST from STRING to the column's type),
** expression builders and a renderer that prints a vector as text the way
** CAST(x AS STRING) would ("NULL" for NULL).
*/
#ifndef CHV_EXEC_FIXTURE_H
#define CHV_EXEC_FIXTURE_H

#include "chv_test.h"
#include "sql/exec/exec_int.h"

struct fx {
  chv_arena *a;
  struct chv_type *schema;
  struct chv_batch *b;
  struct chv_error err;
  char text[8192];
};

/* Fill vector v from "v1|v2|NULL" (values CAST from STRING). */
static inline int fx_fill(struct chv_vector *v, const char *vals) {
  static const struct chv_type str = {.id = CHV_TYPE_STRING};
  struct chv_buf buf;
  chv_buf_init(&buf);
  const char *p = *vals ? vals : NULL; /* "" = no rows, "|" = two empty */
  int rc = CHV_OK;
  while (rc == CHV_OK && p) {
    const char *e = strchr(p, '|');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    struct chv_value x = {.str = p, .len = (int64_t)n}, y;
    if (n == 4 && memcmp(p, "NULL", 4) == 0) {
      rc = chv_vector_append_null(v, NULL);
    } else {
      int crc = CHV_OK;
      if (!chv_exec_cast_value(&str, &x, v->type, &y, &buf, &crc)) {
        fprintf(stderr, "fixture value '%.*s' is not a %s\n", (int)n, p,
                chv_type_id_name(v->type->id));
        rc = CHV_EINVAL;
      } else {
        rc = chv_func_append_value(v, &y, NULL);
      }
    }
    p = e ? e + 1 : NULL;
  }
  chv_buf_free(&buf);
  return rc;
}

/* cols: "a int, b string"; data: one "v|v|v" string per column. */
static inline int fx_open(struct fx *f, const char *cols, const char *const *data) {
  memset(f, 0, sizeof *f);
  if (chv_arena_open(0, &f->a) != CHV_OK) return CHV_ENOMEM;
  int rc = chv_type_parse_columns(cols, &f->schema, &f->err);
  if (rc == CHV_OK) rc = chv_batch_open(f->schema, 16, &f->b, &f->err);
  for (int i = 0; rc == CHV_OK && i < f->schema->nchildren; i++)
    rc = fx_fill(f->b->cols[i], data[i]);
  if (rc == CHV_OK) f->b->nrows = f->b->cols[0]->length;
  return rc;
}

static inline void fx_close(struct fx *f) {
  chv_batch_close(f->b);
  chv_type_free(f->schema);
  chv_arena_close(f->a);
}

/* Render v's rows as "x|y|NULL". */
static inline const char *fx_render(struct fx *f, const struct chv_vector *v) {
  static const struct chv_type str = {.id = CHV_TYPE_STRING};
  struct chv_buf buf;
  chv_buf_init(&buf);
  size_t o = 0;
  f->text[0] = '\0';
  for (int64_t i = 0; i < v->length; i++) {
    struct chv_value x, y;
    chv_func_get_value(v, i, &x);
    int crc = CHV_OK;
    const char *s = "NULL";
    int n = 4;
    if (!x.is_null && chv_exec_cast_value(v->type, &x, &str, &y, &buf, &crc)) {
      s = y.str;
      n = (int)y.len;
    }
    o += (size_t)snprintf(f->text + o, sizeof f->text - o, "%s%.*s",
                          i ? "|" : "", n, s);
  }
  chv_buf_free(&buf);
  return f->text;
}

static inline struct chv_expr *fx_col(struct fx *f, int i) {
  struct chv_expr *e = NULL;
  chv_expr_column(f->a, i, f->schema->children[i], &e, &f->err);
  return e;
}

/* A literal of a type written as Hive writes it ("int", "decimal(5,2)"),
** from text (NULL text = NULL literal). */
static inline struct chv_expr *fx_lit(struct fx *f, const char *type,
                               const char *text) {
  static const struct chv_type str = {.id = CHV_TYPE_STRING};
  struct chv_type *t0;
  if (chv_type_parse(type, &t0, NULL) != CHV_OK) return NULL;
  const struct chv_type *t =
      chv_exec_type(f->a, t0->id, t0->id == CHV_TYPE_DECIMAL ? t0->precision
                                                             : t0->length,
                    t0->scale);
  chv_type_free(t0);
  struct chv_value v = {.is_null = text == NULL}, y = v;
  struct chv_buf buf;
  chv_buf_init(&buf);
  int crc = CHV_OK;
  if (text) {
    struct chv_value x = {.str = text, .len = (int64_t)strlen(text)};
    if (!chv_exec_cast_value(&str, &x, t, &y, &buf, &crc)) y.is_null = true;
  }
  struct chv_expr *e = NULL;
  chv_expr_literal(f->a, t, &y, &e, &f->err);
  chv_buf_free(&buf);
  return e;
}

static inline struct chv_expr *fx_call2(struct fx *f, enum chv_fn fn,
                                 struct chv_expr *x, struct chv_expr *y) {
  struct chv_expr *args[2] = {x, y}, *e = NULL;
  if (x == NULL || y == NULL) return NULL;
  if (chv_expr_call(f->a, fn, args, 2, &e, &f->err) != CHV_OK) return NULL;
  return e;
}

/* A call of the registered function `name` on x (then y, z when not NULL). */
static inline struct chv_expr *fx_fn(struct fx *f, const char *name,
                                     struct chv_expr *x, struct chv_expr *y,
                                     struct chv_expr *z) {
  struct chv_expr *args[3] = {x, y, z}, *e = NULL;
  int n = z ? 3 : y ? 2 : x ? 1 : 0;
  for (int i = 0; i < n; i++)
    if (args[i] == NULL) return NULL;
  if (chv_expr_func(f->a, chv_func_lookup(name), args, n, &e, &f->err) !=
      CHV_OK)
    return NULL;
  return e;
}

/* Evaluate e over all rows (or sel) and render; "ERR: msg" on failure. */
static inline const char *fx_eval(struct fx *f, const struct chv_expr *e,
                           const uint32_t *sel, int64_t n) {
  if (e == NULL) {
    snprintf(f->text, sizeof f->text, "ERR: build: %s", f->err.msg);
    return f->text;
  }
  struct chv_vector *v;
  if (chv_vector_open(e->type, 4, &v, &f->err) != CHV_OK) return "ERR";
  int rc = chv_expr_eval(e, f->b, sel, sel ? n : f->b->nrows, v, &f->err);
  const char *r;
  if (rc != CHV_OK) {
    snprintf(f->text, sizeof f->text, "ERR: %s", f->err.msg);
    r = f->text;
  } else {
    r = fx_render(f, v);
  }
  chv_vector_close(v);
  return r;
}

/* "decimal(12,3)" etc. */
static inline const char *fx_type(const struct chv_type *t, char *buf) {
  if (t->id == CHV_TYPE_DECIMAL)
    sprintf(buf, "decimal(%d,%d)", t->precision, t->scale);
  else
    sprintf(buf, "%s", chv_type_id_name(t->id));
  return buf;
}

#endif
