/*
** Hive types: construction, cloning, comparison and the canonical lower-case
** spelling ("map<string,array<struct<a:int,b:decimal(10,2)>>>").  Parsing is
** in type_parse.c.
**
** INTERFACE
**   chv_type_id_name() chv_type_fixed_width() chv_type_is_*()
**   chv_type_new() chv_type_new_decimal() chv_type_new_char()
**   chv_type_new_array() chv_type_new_map() chv_type_struct_add()
**   chv_type_clone() chv_type_equal() chv_type_free() chv_type_format()
**   chv_type_field_index()
*/
#include "types/types.h"

#include <ctype.h>

static const char *const type_names[] = {
#define CHV_X_(id, name) name,
    CHV_TYPE_ID_MAP(CHV_X_)
#undef CHV_X_
};

const char *chv_type_id_name(enum chv_type_id id) {
  if ((unsigned)id >= CHV_TYPE_COUNT) return "unknown";
  return type_names[id];
}

size_t chv_type_fixed_width(enum chv_type_id id) {
  switch (id) {
  case CHV_TYPE_TINYINT: return 1;
  case CHV_TYPE_SMALLINT: return 2;
  case CHV_TYPE_INT: return 4;
  case CHV_TYPE_BIGINT: return 8;
  case CHV_TYPE_FLOAT: return 4;
  case CHV_TYPE_DOUBLE: return 8;
  case CHV_TYPE_DECIMAL: return sizeof(chv_i128);
  case CHV_TYPE_DATE: return 4;
  case CHV_TYPE_TIMESTAMP: return sizeof(struct chv_timestamp);
  default: return 0;
  }
}

bool chv_type_is_string_like(enum chv_type_id id) {
  return id == CHV_TYPE_STRING || id == CHV_TYPE_VARCHAR ||
         id == CHV_TYPE_CHAR || id == CHV_TYPE_BINARY;
}

bool chv_type_is_integer(enum chv_type_id id) {
  return id == CHV_TYPE_TINYINT || id == CHV_TYPE_SMALLINT ||
         id == CHV_TYPE_INT || id == CHV_TYPE_BIGINT;
}

bool chv_type_is_primitive(enum chv_type_id id) {
  return (unsigned)id < CHV_TYPE_COUNT && id != CHV_TYPE_ARRAY &&
         id != CHV_TYPE_MAP && id != CHV_TYPE_STRUCT;
}

/* A type with no children and the given id, parameters zeroed. */
static struct chv_type *type_alloc(enum chv_type_id id) {
  struct chv_type *t = chv_calloc(1, sizeof *t);
  if (t) t->id = id;
  return t;
}

int chv_type_new(enum chv_type_id id, struct chv_type **out) {
  if ((unsigned)id >= CHV_TYPE_COUNT || id == CHV_TYPE_ARRAY ||
      id == CHV_TYPE_MAP)
    return CHV_EINVAL;
  struct chv_type *t = type_alloc(id);
  if (t == NULL) return CHV_ENOMEM;
  if (id == CHV_TYPE_DECIMAL) {
    t->precision = CHV_DECIMAL_DEFAULT_PRECISION;
    t->scale = 0;
  } else if (id == CHV_TYPE_CHAR) {
    t->length = CHV_CHAR_MAX_LENGTH;
  } else if (id == CHV_TYPE_VARCHAR) {
    t->length = CHV_VARCHAR_MAX_LENGTH;
  }
  *out = t;
  return CHV_OK;
}

int chv_type_new_decimal(int precision, int scale, struct chv_type **out,
                         struct chv_error *err) {
  if (precision < 1 || precision > CHV_DECIMAL_MAX_PRECISION)
    return chv_error_set(err, CHV_EINVAL,
                         "decimal precision %d is outside 1..%d", precision,
                         CHV_DECIMAL_MAX_PRECISION);
  if (scale < 0 || scale > precision)
    return chv_error_set(err, CHV_EINVAL,
                         "decimal scale %d is outside 0..%d (the precision)",
                         scale, precision);
  struct chv_type *t = type_alloc(CHV_TYPE_DECIMAL);
  if (t == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  t->precision = precision;
  t->scale = scale;
  *out = t;
  return CHV_OK;
}

int chv_type_new_char(enum chv_type_id id, int length, struct chv_type **out,
                      struct chv_error *err) {
  int max;
  if (id == CHV_TYPE_CHAR)
    max = CHV_CHAR_MAX_LENGTH;
  else if (id == CHV_TYPE_VARCHAR)
    max = CHV_VARCHAR_MAX_LENGTH;
  else
    return chv_error_set(err, CHV_EINVAL, "%s has no length",
                         chv_type_id_name(id));
  if (length < 1 || length > max)
    return chv_error_set(err, CHV_EINVAL, "%s length %d is outside 1..%d",
                         chv_type_id_name(id), length, max);
  struct chv_type *t = type_alloc(id);
  if (t == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  t->length = length;
  *out = t;
  return CHV_OK;
}

int chv_type_new_array(struct chv_type *elem, struct chv_type **out) {
  struct chv_type *t = type_alloc(CHV_TYPE_ARRAY);
  struct chv_type **ch = chv_malloc(sizeof *ch);
  if (t == NULL || ch == NULL || elem == NULL) {
    chv_free(t);
    chv_free(ch);
    chv_type_free(elem);
    return elem == NULL ? CHV_EINVAL : CHV_ENOMEM;
  }
  ch[0] = elem;
  t->children = ch;
  t->nchildren = 1;
  *out = t;
  return CHV_OK;
}

int chv_type_new_map(struct chv_type *key, struct chv_type *value,
                     struct chv_type **out, struct chv_error *err) {
  int rc;
  if (key == NULL || value == NULL) {
    rc = chv_error_set(err, CHV_EINVAL, "map needs a key and a value type");
    goto out_free;
  }
  if (!chv_type_is_primitive(key->id)) {
    rc = chv_error_set(err, CHV_ETYPE,
                       "map key must be a primitive type, not %s",
                       chv_type_id_name(key->id));
    goto out_free;
  }
  struct chv_type *t = type_alloc(CHV_TYPE_MAP);
  struct chv_type **ch = chv_malloc(2 * sizeof *ch);
  if (t == NULL || ch == NULL) {
    chv_free(t);
    chv_free(ch);
    rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    goto out_free;
  }
  ch[0] = key;
  ch[1] = value;
  t->children = ch;
  t->nchildren = 2;
  *out = t;
  return CHV_OK;
out_free:
  chv_type_free(key);
  chv_type_free(value);
  return rc;
}

int chv_type_field_index(const struct chv_type *st, const char *name) {
  if (st == NULL || st->id != CHV_TYPE_STRUCT) return -1;
  for (int i = 0; i < st->nchildren; i++)
    if (chv_str_ieq(st->names[i], name)) return i;
  return -1;
}

int chv_type_struct_add(struct chv_type *st, const char *name,
                        struct chv_type *field) {
  int rc = CHV_ENOMEM;
  if (st == NULL || st->id != CHV_TYPE_STRUCT || field == NULL ||
      name == NULL) {
    rc = CHV_EINVAL;
    goto out_free;
  }
  if (chv_type_field_index(st, name) >= 0) {
    rc = CHV_EEXIST;
    goto out_free;
  }
  char *nm = chv_strdup(name);
  if (nm == NULL) goto out_free;
  size_t n = (size_t)st->nchildren + 1;
  struct chv_type **ch = chv_realloc(st->children, n * sizeof *ch);
  if (ch == NULL) {
    chv_free(nm);
    goto out_free;
  }
  st->children = ch;
  char **names = chv_realloc(st->names, n * sizeof *names);
  if (names == NULL) {
    chv_free(nm);
    goto out_free;
  }
  st->names = names;
  ch[st->nchildren] = field;
  names[st->nchildren] = nm;
  st->nchildren++;
  return CHV_OK;
out_free:
  chv_type_free(field);
  return rc;
}

void chv_type_free(struct chv_type *t) {
  if (t == NULL) return;
  for (int i = 0; i < t->nchildren; i++) {
    chv_type_free(t->children[i]);
    if (t->names) chv_free(t->names[i]);
  }
  chv_free(t->children);
  chv_free(t->names);
  chv_free(t);
}

int chv_type_clone(const struct chv_type *t, struct chv_type **out) {
  struct chv_type *c = type_alloc(t->id);
  if (c == NULL) return CHV_ENOMEM;
  c->precision = t->precision;
  c->scale = t->scale;
  c->length = t->length;
  if (t->nchildren > 0) {
    c->children = chv_calloc((size_t)t->nchildren, sizeof *c->children);
    if (c->children == NULL) goto out_free;
    if (t->names) {
      c->names = chv_calloc((size_t)t->nchildren, sizeof *c->names);
      if (c->names == NULL) goto out_free;
    }
    for (int i = 0; i < t->nchildren; i++) {
      c->nchildren = i + 1; /* so that a failure frees what is made */
      if (chv_type_clone(t->children[i], &c->children[i]) != CHV_OK)
        goto out_free;
      if (t->names && (c->names[i] = chv_strdup(t->names[i])) == NULL)
        goto out_free;
    }
  }
  *out = c;
  return CHV_OK;
out_free:
  chv_type_free(c);
  return CHV_ENOMEM;
}

bool chv_type_equal(const struct chv_type *a, const struct chv_type *b) {
  if (a == b) return true;
  if (a == NULL || b == NULL) return false;
  if (a->id != b->id || a->nchildren != b->nchildren) return false;
  switch (a->id) {
  case CHV_TYPE_DECIMAL:
    if (a->precision != b->precision || a->scale != b->scale) return false;
    break;
  case CHV_TYPE_CHAR:
  case CHV_TYPE_VARCHAR:
    if (a->length != b->length) return false;
    break;
  default: break;
  }
  for (int i = 0; i < a->nchildren; i++) {
    if (a->names && b->names && !chv_str_ieq(a->names[i], b->names[i]))
      return false;
    if (!chv_type_equal(a->children[i], b->children[i])) return false;
  }
  return true;
}

/* True when a field name reads back unquoted: [A-Za-z0-9_]+. */
static bool is_plain_ident(const char *s) {
  if (*s == '\0') return false;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && *s != '_') return false;
  return true;
}

/* Append a struct field name, backquoted (`` for `) when needed. */
static int format_name(const char *name, struct chv_buf *buf) {
  if (is_plain_ident(name)) return chv_buf_puts(buf, name);
  CHV_RETURN_IF_ERR(chv_buf_putc(buf, '`'));
  for (const char *p = name; *p; p++) {
    if (*p == '`') CHV_RETURN_IF_ERR(chv_buf_putc(buf, '`'));
    CHV_RETURN_IF_ERR(chv_buf_putc(buf, *p));
  }
  return chv_buf_putc(buf, '`');
}

int chv_type_format(const struct chv_type *t, struct chv_buf *buf) {
  switch (t->id) {
  case CHV_TYPE_DECIMAL:
    return chv_buf_printf(buf, "decimal(%d,%d)", t->precision, t->scale);
  case CHV_TYPE_CHAR:
  case CHV_TYPE_VARCHAR:
    return chv_buf_printf(buf, "%s(%d)", chv_type_id_name(t->id), t->length);
  case CHV_TYPE_ARRAY:
  case CHV_TYPE_MAP:
  case CHV_TYPE_STRUCT:
    CHV_RETURN_IF_ERR(chv_buf_puts(buf, chv_type_id_name(t->id)));
    CHV_RETURN_IF_ERR(chv_buf_putc(buf, '<'));
    for (int i = 0; i < t->nchildren; i++) {
      if (i > 0) CHV_RETURN_IF_ERR(chv_buf_putc(buf, ','));
      if (t->id == CHV_TYPE_STRUCT) {
        CHV_RETURN_IF_ERR(format_name(t->names[i], buf));
        CHV_RETURN_IF_ERR(chv_buf_putc(buf, ':'));
      }
      CHV_RETURN_IF_ERR(chv_type_format(t->children[i], buf));
    }
    return chv_buf_putc(buf, '>');
  default:
    return chv_buf_puts(buf, chv_type_id_name(t->id));
  }
}

/* ---- schema evolution ------------------------------------------------- */

static int int_rank(enum chv_type_id id) {
  switch (id) {
  case CHV_TYPE_TINYINT: return 1;
  case CHV_TYPE_SMALLINT: return 2;
  case CHV_TYPE_INT: return 3;
  case CHV_TYPE_BIGINT: return 4;
  default: return 0;
  }
}

/* Digits an integer type needs as a decimal. */
static int int_digits(enum chv_type_id id) {
  static const int d[] = {0, 3, 5, 10, 19};
  return d[int_rank(id)];
}

bool chv_type_widens(const struct chv_type *f, const struct chv_type *t) {
  enum chv_type_id a = f->id, b = t->id;
  if (a == b && a != CHV_TYPE_DECIMAL) return true;
  if (int_rank(a)) {
    if (int_rank(b)) return int_rank(b) >= int_rank(a);
    if (b == CHV_TYPE_FLOAT || b == CHV_TYPE_DOUBLE) return true;
    if (b == CHV_TYPE_DECIMAL) return t->precision - t->scale >= int_digits(a);
    return false;
  }
  if (a == CHV_TYPE_FLOAT) return b == CHV_TYPE_DOUBLE;
  if (a == CHV_TYPE_DECIMAL)
    return b == CHV_TYPE_DECIMAL && t->scale >= f->scale &&
           t->precision - t->scale >= f->precision - f->scale;
  if (chv_type_is_string_like(a)) return chv_type_is_string_like(b);
  return false;
}

int chv_type_widen_error(const char *path, const char *name,
                         const struct chv_type *f, const struct chv_type *t,
                         struct chv_error *err) {
  struct chv_buf a, b;
  chv_buf_init(&a);
  chv_buf_init(&b);
  chv_type_format(f, &a);
  chv_type_format(t, &b);
  chv_error_set(err, CHV_ETYPE,
                "%s: column %s: the file's %s cannot be read as the table's "
                "%s",
                path, name, a.data ? a.data : "?", b.data ? b.data : "?");
  chv_buf_free(&a);
  chv_buf_free(&b);
  return CHV_ETYPE;
}
