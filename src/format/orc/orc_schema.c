/*
** ORC types as Hive types, and ORC's own spelling of a type.
**
** The mapping follows what Hive's ORC reader (OrcStruct's object
** inspectors) makes of each kind, with chive's choices where chive's type
** system differs from Hive's (docs/orc.md has the table):
**   - DECIMAL without precision or scale (files of Hive 0.11, whose decimals
**     were unbounded) takes Hive's system defaults, 38 and 18, field by
**     field; a precision of 0 counts as absent;
**   - CHAR/VARCHAR without a length, or longer than Hive allows (255, 65535),
**     read as string: the stored values are kept whole;
**   - TIMESTAMP_INSTANT (timestamp with local time zone) reads as timestamp;
**   - GEOMETRY/GEOGRAPHY read as binary (their WKB bytes);
**   - UNION, which chive's types lack, reads as
**     struct<tag:tinyint,field0:T0,field1:T1,...>: the tag says which field
**     holds the row's value, the other fields are NULL.
**
** INTERFACE: chv_orc_hive_type(), chv_orc_hive_schema(),
** chv_orc_type_format() (orc_int.h).
*/
#include "format/orc/orc_int.h"

#include <inttypes.h>
#include <stdio.h>

static int type_of(const struct chv_orc_tail *t, uint32_t id,
                   struct chv_type **out, struct chv_error *err);

static int simple(enum chv_type_id id, struct chv_type **out,
                  struct chv_error *err) {
  if (chv_type_new(id, out) != CHV_OK)
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  return CHV_OK;
}

static int add_field(const struct chv_orc_tail *t, struct chv_type *st,
                     const char *name, struct chv_type *field, uint32_t id,
                     struct chv_error *err) {
  int rc = chv_type_struct_add(st, name, field);
  if (rc == CHV_EEXIST)
    return chv_error_set(err, CHV_ENOTSUP,
                         "%s: type %" PRIu32 ": field name '%s' repeats "
                         "(Hive's names ignore case)",
                         t->path, id, name);
  if (rc == CHV_ENOMEM) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  if (rc != CHV_OK)
    return chv_error_set(err, rc, "%s: type %" PRIu32 ": field '%s'", t->path,
                         id, name);
  return CHV_OK;
}

static int decimal_of(const struct chv_orc_tail *t,
                      const struct chv_orc_type *ot, struct chv_type **out,
                      struct chv_error *err) {
  uint32_t p = ot->has_precision && ot->precision > 0 ? ot->precision : 38;
  uint32_t s = ot->has_scale ? ot->scale : 18;
  if (p > CHV_DECIMAL_MAX_PRECISION)
    return chv_error_set(err, CHV_ENOTSUP,
                         "%s: type %" PRIu32 ": decimal(%" PRIu32 ",%" PRIu32
                         ") has more than Hive's 38 digits",
                         t->path, ot->id, p, s);
  if (s > p)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: type %" PRIu32 ": decimal scale %" PRIu32
                         " exceeds its precision %" PRIu32,
                         t->path, ot->id, s, p);
  return chv_type_new_decimal((int)p, (int)s, out, err);
}

static int char_of(const struct chv_orc_type *ot, enum chv_type_id id, int max,
                   struct chv_type **out, struct chv_error *err) {
  if (!ot->has_maximum_length || ot->maximum_length == 0 ||
      ot->maximum_length > (uint32_t)max)
    return simple(CHV_TYPE_STRING, out, err);
  return chv_type_new_char(id, (int)ot->maximum_length, out, err);
}

static int union_of(const struct chv_orc_tail *t, const struct chv_orc_type *ot,
                    struct chv_type **out, struct chv_error *err) {
  struct chv_type *st, *f;
  CHV_RETURN_IF_ERR(simple(CHV_TYPE_STRUCT, &st, err));
  int rc = simple(CHV_TYPE_TINYINT, &f, err);
  if (rc == CHV_OK) rc = add_field(t, st, "tag", f, ot->id, err);
  for (uint32_t i = 0; rc == CHV_OK && i < ot->nsubtypes; i++) {
    char name[32];
    snprintf(name, sizeof name, "field%" PRIu32, i);
    rc = type_of(t, ot->subtypes[i], &f, err);
    if (rc == CHV_OK) rc = add_field(t, st, name, f, ot->id, err);
  }
  if (rc != CHV_OK) {
    chv_type_free(st);
    return rc;
  }
  *out = st;
  return CHV_OK;
}

static int type_of(const struct chv_orc_tail *t, uint32_t id,
                   struct chv_type **out, struct chv_error *err) {
  if (id >= t->footer.ntypes)
    return chv_error_set(err, CHV_EINVAL, "%s: no type %" PRIu32, t->path, id);
  const struct chv_orc_type *ot = &t->footer.types[id];
  struct chv_type *a = NULL, *b = NULL, *st;
  int rc;
  switch (ot->kind) {
  case CHV_ORC_KIND_BOOLEAN:
    return simple(CHV_TYPE_BOOLEAN, out, err);
  case CHV_ORC_KIND_BYTE:
    return simple(CHV_TYPE_TINYINT, out, err);
  case CHV_ORC_KIND_SHORT:
    return simple(CHV_TYPE_SMALLINT, out, err);
  case CHV_ORC_KIND_INT:
    return simple(CHV_TYPE_INT, out, err);
  case CHV_ORC_KIND_LONG:
    return simple(CHV_TYPE_BIGINT, out, err);
  case CHV_ORC_KIND_FLOAT:
    return simple(CHV_TYPE_FLOAT, out, err);
  case CHV_ORC_KIND_DOUBLE:
    return simple(CHV_TYPE_DOUBLE, out, err);
  case CHV_ORC_KIND_STRING:
    return simple(CHV_TYPE_STRING, out, err);
  case CHV_ORC_KIND_BINARY:
  case CHV_ORC_KIND_GEOMETRY:
  case CHV_ORC_KIND_GEOGRAPHY:
    return simple(CHV_TYPE_BINARY, out, err);
  case CHV_ORC_KIND_TIMESTAMP:
  case CHV_ORC_KIND_TIMESTAMP_INSTANT:
    return simple(CHV_TYPE_TIMESTAMP, out, err);
  case CHV_ORC_KIND_DATE:
    return simple(CHV_TYPE_DATE, out, err);
  case CHV_ORC_KIND_DECIMAL:
    return decimal_of(t, ot, out, err);
  case CHV_ORC_KIND_VARCHAR:
    return char_of(ot, CHV_TYPE_VARCHAR, CHV_VARCHAR_MAX_LENGTH, out, err);
  case CHV_ORC_KIND_CHAR:
    return char_of(ot, CHV_TYPE_CHAR, CHV_CHAR_MAX_LENGTH, out, err);
  case CHV_ORC_KIND_LIST:
    CHV_RETURN_IF_ERR(type_of(t, ot->subtypes[0], &a, err));
    if (chv_type_new_array(a, out) != CHV_OK)
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    return CHV_OK;
  case CHV_ORC_KIND_MAP:
    CHV_RETURN_IF_ERR(type_of(t, ot->subtypes[0], &a, err));
    rc = type_of(t, ot->subtypes[1], &b, err);
    if (rc != CHV_OK) {
      chv_type_free(a);
      return rc;
    }
    rc = chv_type_new_map(a, b, out, err);
    if (rc == CHV_ETYPE)
      return chv_error_set(
          err, CHV_ENOTSUP,
          "%s: type %" PRIu32 ": a map key of type %s; Hive's "
          "map keys are primitive",
          t->path, id,
          chv_orc_kind_name(t->footer.types[ot->subtypes[0]].kind));
    return rc;
  case CHV_ORC_KIND_STRUCT:
    CHV_RETURN_IF_ERR(simple(CHV_TYPE_STRUCT, &st, err));
    for (uint32_t i = 0; i < ot->nsubtypes; i++) {
      rc = type_of(t, ot->subtypes[i], &a, err);
      if (rc == CHV_OK) rc = add_field(t, st, ot->field_names[i], a, id, err);
      if (rc != CHV_OK) {
        chv_type_free(st);
        return rc;
      }
    }
    *out = st;
    return CHV_OK;
  case CHV_ORC_KIND_UNION:
    return union_of(t, ot, out, err);
  default:
    return chv_error_set(err, CHV_ENOTSUP,
                         "%s: type %" PRIu32 " has the unknown kind %d",
                         t->path, id, (int)ot->kind);
  }
}

int chv_orc_hive_type(const struct chv_orc_tail *t, uint32_t id,
                      struct chv_type **out, struct chv_error *err) {
  return type_of(t, id, out, err);
}

int chv_orc_hive_schema(const struct chv_orc_tail *t, struct chv_type **out,
                        struct chv_error *err) {
  struct chv_type *root;
  CHV_RETURN_IF_ERR(type_of(t, 0, &root, err));
  if (root->id == CHV_TYPE_STRUCT &&
      t->footer.types[0].kind == CHV_ORC_KIND_STRUCT) {
    *out = root;
    return CHV_OK;
  }
  struct chv_type *st;
  int rc = simple(CHV_TYPE_STRUCT, &st, err);
  if (rc != CHV_OK) {
    chv_type_free(root);
    return rc;
  }
  rc = add_field(t, st, "_col0", root, 0, err);
  if (rc != CHV_OK) {
    chv_type_free(st);
    return rc;
  }
  *out = st;
  return CHV_OK;
}

/* ---- ORC's spelling ---------------------------------------------------- */

static bool plain_name(const char *s) {
  if (*s == '\0') return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
          (*s >= '0' && *s <= '9') || *s == '_'))
      return false;
  return true;
}

static int put_name(struct chv_buf *buf, const char *s) {
  if (plain_name(s)) return chv_buf_puts(buf, s);
  CHV_RETURN_IF_ERR(chv_buf_putc(buf, '`'));
  for (; *s; s++) {
    if (*s == '`') CHV_RETURN_IF_ERR(chv_buf_putc(buf, '`'));
    CHV_RETURN_IF_ERR(chv_buf_putc(buf, *s));
  }
  return chv_buf_putc(buf, '`');
}

int chv_orc_type_format(const struct chv_orc_footer *f, uint32_t id,
                        struct chv_buf *buf) {
  if (id >= f->ntypes) return CHV_EINVAL;
  const struct chv_orc_type *t = &f->types[id];
  switch (t->kind) {
  case CHV_ORC_KIND_DECIMAL:
    if (!t->has_precision && !t->has_scale) return chv_buf_puts(buf, "decimal");
    return chv_buf_printf(buf, "decimal(%" PRIu32 ",%" PRIu32 ")", t->precision,
                          t->scale);
  case CHV_ORC_KIND_VARCHAR:
  case CHV_ORC_KIND_CHAR:
    return chv_buf_printf(buf, "%s(%" PRIu32 ")", chv_orc_kind_name(t->kind),
                          t->maximum_length);
  case CHV_ORC_KIND_LIST:
  case CHV_ORC_KIND_MAP:
  case CHV_ORC_KIND_UNION:
  case CHV_ORC_KIND_STRUCT:
    CHV_RETURN_IF_ERR(chv_buf_puts(buf, chv_orc_kind_name(t->kind)));
    CHV_RETURN_IF_ERR(chv_buf_putc(buf, '<'));
    for (uint32_t i = 0; i < t->nsubtypes; i++) {
      if (i) CHV_RETURN_IF_ERR(chv_buf_putc(buf, ','));
      if (t->kind == CHV_ORC_KIND_STRUCT && i < t->nfield_names) {
        CHV_RETURN_IF_ERR(put_name(buf, t->field_names[i]));
        CHV_RETURN_IF_ERR(chv_buf_putc(buf, ':'));
      }
      /* Subtypes follow their parent, so this recursion is as deep as the
      ** checked tree. */
      if (t->subtypes[i] <= id) return CHV_EINVAL;
      CHV_RETURN_IF_ERR(chv_orc_type_format(f, t->subtypes[i], buf));
    }
    return chv_buf_putc(buf, '>');
  default:
    return chv_buf_puts(buf, chv_orc_kind_name(t->kind));
  }
}
