/*
** The Parquet schema as a tree, and as Hive types.
**
** chv_pq_schema_build() turns the flat, depth-first list of schema elements
** of a footer into nodes with parents, children, leaf column indexes and
** the maximum definition and repetition levels at each node, checking that
** the list really is one tree.
**
** chv_pq_hive_schema_open() maps that tree to a Hive STRUCT the way Hive
** reads Parquet (docs/parquet.md has the table), together with a parallel
** tree of struct chv_pq_field saying, for every Hive value, which Parquet
** node holds it, at which levels it is present, and for leaves how stored
** values convert.  Nested types follow LogicalTypes.md:
**
**   - a LIST group holds one repeated field R; the element is R itself when
**     R is primitive, a group of several fields, a group whose one field is
**     repeated, or a group named "array" or "<list>_tuple" (the
**     backward-compatibility rules for 2-level lists); otherwise it is R's
**     one field (the standard 3-level list);
**   - a MAP group (or MAP_KEY_VALUE outside a MAP) holds one repeated
**     key/value group, whose fields are taken by position; a key may be
**     OPTIONAL (tolerated, the field says nullable); a group with a key and
**     no value becomes ARRAY<key> (the spec's "set of keys");
**   - a repeated field outside a LIST or MAP is an ARRAY of required
**     elements of its own type;
**   - other groups are STRUCTs.
**
** The logical type decides where it is known; a future LogicalType member
** falls back to the ConvertedType, and that to the physical type.
**
** INTERFACE: chv_pq_schema_build(), chv_pq_node_path(),
** chv_pq_hive_schema_open(), chv_pq_hive_schema_close(), chv_pq_conv_name()
** (pq_int.h).
*/
#include "format/parquet/pq_int.h"

#include <stdio.h>

/* ---- the tree ---------------------------------------------------------- */

int chv_pq_node_path(const struct chv_pq_node *n, struct chv_buf *buf) {
  const struct chv_pq_node *chain[CHV_PQ_MAX_DEPTH + 1];
  int k = 0;
  for (; n && n->parent && k < CHV_PQ_MAX_DEPTH + 1; n = n->parent)
    chain[k++] = n;
  if (k == 0) return chv_buf_puts(buf, "(root)");
  for (int i = k - 1; i >= 0; i--) {
    CHV_RETURN_IF_ERR(chv_buf_puts(buf, chain[i]->el->name));
    if (i) CHV_RETURN_IF_ERR(chv_buf_putc(buf, '.'));
  }
  return CHV_OK;
}

struct builder {
  struct chv_pq_file_meta *m;
  const char *path;
  struct chv_error *err;
  int next; /* next schema element to place */
  int nleaves;
};

static int tree_fail(struct builder *b, int code, int index, const char *fmt,
                     ...) CHV_PRINTF(4, 5);
static int tree_fail(struct builder *b, int code, int index, const char *fmt,
                     ...) {
  char msg[CHV_ERROR_MSG_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return chv_error_set(b->err, code, "%s: schema element %d ('%s'): %s",
                       b->path, index, b->m->schema[index].name, msg);
}

static bool is_group(const struct chv_pq_schema_element *e) {
  return e->has_num_children && (e->num_children > 0 || !e->has_type);
}

/* Place node n's children (elements from b->next on), recursively. */
static int place(struct builder *b, struct chv_pq_node *n) {
  const struct chv_pq_schema_element *e = n->el;
  struct chv_pq_file_meta *m = b->m;
  n->leaf_begin = b->nleaves;
  if (!is_group(e)) {
    if (!e->has_type)
      return tree_fail(b, CHV_ECORRUPT, n->index,
                       "neither a type nor children");
    if (e->type < CHV_PQ_TYPE_BOOLEAN ||
        e->type > CHV_PQ_TYPE_FIXED_LEN_BYTE_ARRAY)
      return tree_fail(b, CHV_ECORRUPT, n->index, "invalid physical type %d",
                       e->type);
    if (e->type == CHV_PQ_TYPE_FIXED_LEN_BYTE_ARRAY &&
        (!e->has_type_length || e->type_length <= 0))
      return tree_fail(b, CHV_ECORRUPT, n->index,
                       "FIXED_LEN_BYTE_ARRAY needs a positive type_length");
    if (n->parent == NULL)
      return tree_fail(b, CHV_ECORRUPT, n->index,
                       "the schema root is not a group");
    n->leaf = b->nleaves++;
    n->leaf_end = b->nleaves;
    return CHV_OK;
  }
  n->leaf = -1;
  if (e->num_children < 0)
    return tree_fail(b, CHV_ECORRUPT, n->index, "num_children %d is negative",
                     e->num_children);
  if (e->num_children > m->nschema - b->next)
    return tree_fail(b, CHV_ECORRUPT, n->index,
                     "declares %d children but only %d elements follow",
                     e->num_children, m->nschema - b->next);
  if (n->depth >= CHV_PQ_MAX_DEPTH && e->num_children > 0)
    return tree_fail(b, CHV_ECORRUPT, n->index,
                     "the schema nests deeper than %d levels",
                     CHV_PQ_MAX_DEPTH);
  n->nchildren = e->num_children;
  if (n->nchildren) {
    n->children =
        chv_arena_alloc(m->arena, (size_t)n->nchildren * sizeof *n->children);
    if (n->children == NULL)
      return chv_error_set(b->err, CHV_ENOMEM, "out of memory");
  }
  for (int i = 0; i < n->nchildren; i++) {
    /* Earlier children's subtrees may have used up the elements. */
    if (b->next >= m->nschema)
      return tree_fail(b, CHV_ECORRUPT, n->index,
                       "declares %d children but the schema ends after %d",
                       n->nchildren, i);
    struct chv_pq_node *c = &m->nodes[b->next];
    c->index = b->next++;
    c->el = &m->schema[c->index];
    c->parent = n;
    c->depth = n->depth + 1;
    if (!c->el->has_repetition)
      return tree_fail(b, CHV_ECORRUPT, c->index, "no repetition_type");
    switch (c->el->repetition) {
    case CHV_PQ_REP_REQUIRED:
      c->def_level = n->def_level;
      c->rep_level = n->rep_level;
      break;
    case CHV_PQ_REP_OPTIONAL:
      c->def_level = (int16_t)(n->def_level + 1);
      c->rep_level = n->rep_level;
      break;
    case CHV_PQ_REP_REPEATED:
      c->def_level = (int16_t)(n->def_level + 1);
      c->rep_level = (int16_t)(n->rep_level + 1);
      break;
    case CHV_PQ_REP_VECTOR:
      return tree_fail(b, CHV_ENOTSUP, c->index,
                       "VECTOR repetition is not supported");
    default:
      return tree_fail(b, CHV_ECORRUPT, c->index, "invalid repetition %d",
                       c->el->repetition);
    }
    n->children[i] = c;
    CHV_RETURN_IF_ERR(place(b, c));
  }
  n->leaf_end = b->nleaves;
  return CHV_OK;
}

int chv_pq_schema_build(struct chv_pq_file_meta *m, const char *path,
                        struct chv_error *err) {
  if (path == NULL) path = "(parquet)";
  if (m->nschema < 1)
    return chv_error_set(err, CHV_ECORRUPT, "%s: the schema is empty", path);
  struct chv_pq_node *nodes =
      chv_arena_alloc(m->arena, (size_t)m->nschema * sizeof *nodes);
  if (nodes == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  memset(nodes, 0, (size_t)m->nschema * sizeof *nodes);
  m->nodes = nodes;
  nodes[0].el = &m->schema[0];
  struct builder b = {m, path, err, 1, 0};
  if (!is_group(nodes[0].el))
    return tree_fail(&b, CHV_ECORRUPT, 0, "the schema root is not a group");
  CHV_RETURN_IF_ERR(place(&b, &nodes[0]));
  if (b.next != m->nschema)
    return chv_error_set(err, CHV_ECORRUPT,
                         "%s: the schema lists %d elements but its tree "
                         "holds %d",
                         path, m->nschema, b.next);
  const struct chv_pq_node **leaves = NULL;
  if (b.nleaves) {
    leaves = chv_arena_alloc(m->arena, (size_t)b.nleaves * sizeof *leaves);
    if (leaves == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
    for (int i = 0; i < m->nschema; i++)
      if (nodes[i].leaf >= 0 && nodes[i].parent)
        leaves[nodes[i].leaf] = &nodes[i];
  }
  m->root = &nodes[0];
  m->leaves = leaves;
  m->nleaves = b.nleaves;
  return CHV_OK;
}

/* ---- Parquet -> Hive --------------------------------------------------- */

const char *chv_pq_conv_name(enum chv_pq_conv c) {
  static const char *const names[] = {
#define CHV_X_(name) #name,
      CHV_PQ_CONV_MAP(CHV_X_)
#undef CHV_X_
  };
  return (unsigned)c < CHV_ARRAY_SIZE(names) ? names[c] : "?";
}

struct conv {
  const struct chv_pq_file_meta *m;
  const char *path;
  chv_arena *arena;
  struct chv_error *err;
};

static int conv_fail(struct conv *c, const struct chv_pq_node *n, int code,
                     const char *fmt, ...) CHV_PRINTF(4, 5);
static int conv_fail(struct conv *c, const struct chv_pq_node *n, int code,
                     const char *fmt, ...) {
  char msg[CHV_ERROR_MSG_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  struct chv_buf b;
  chv_buf_init(&b);
  chv_pq_node_path(n, &b);
  chv_error_set(c->err, code, "%s: column %s: %s", c->path,
                b.data ? b.data : "?", msg);
  chv_buf_free(&b);
  return code;
}

static int conv_oom(struct conv *c) {
  return chv_error_set(c->err, CHV_ENOMEM, "out of memory");
}

static struct chv_pq_field *new_fields(struct conv *c, int n) {
  if (n <= 0) return NULL;
  struct chv_pq_field *f = chv_arena_alloc(c->arena, (size_t)n * sizeof *f);
  if (f) memset(f, 0, (size_t)n * sizeof *f);
  return f;
}

/* The annotation that decides: the logical type where it is one this code
** knows, else the one the ConvertedType implies. */
static struct chv_pq_logical
effective_logical(const struct chv_pq_schema_element *e) {
  struct chv_pq_logical lt = e->logical;
  if (lt.kind != CHV_PQ_LT_NONE && lt.kind != CHV_PQ_LT_FUTURE) return lt;
  memset(&lt, 0, sizeof lt);
  if (!e->has_converted_type) return lt;
  switch (e->converted_type) {
  case CHV_PQ_CT_UTF8:
    lt.kind = CHV_PQ_LT_STRING;
    break;
  case CHV_PQ_CT_MAP:
  case CHV_PQ_CT_MAP_KEY_VALUE:
    lt.kind = CHV_PQ_LT_MAP;
    break;
  case CHV_PQ_CT_LIST:
    lt.kind = CHV_PQ_LT_LIST;
    break;
  case CHV_PQ_CT_ENUM:
    lt.kind = CHV_PQ_LT_ENUM;
    break;
  case CHV_PQ_CT_DECIMAL:
    lt.kind = CHV_PQ_LT_DECIMAL;
    /* precision is required with DECIMAL; -1 marks it missing. */
    lt.precision = e->has_precision ? e->precision : -1;
    lt.scale = e->has_scale ? e->scale : 0;
    break;
  case CHV_PQ_CT_DATE:
    lt.kind = CHV_PQ_LT_DATE;
    break;
  case CHV_PQ_CT_TIME_MILLIS:
  case CHV_PQ_CT_TIME_MICROS:
    lt.kind = CHV_PQ_LT_TIME;
    lt.utc_adjusted = true;
    lt.unit = e->converted_type == CHV_PQ_CT_TIME_MILLIS ? CHV_PQ_UNIT_MILLIS
                                                         : CHV_PQ_UNIT_MICROS;
    break;
  case CHV_PQ_CT_TIMESTAMP_MILLIS:
  case CHV_PQ_CT_TIMESTAMP_MICROS:
    lt.kind = CHV_PQ_LT_TIMESTAMP;
    lt.utc_adjusted = true;
    lt.unit = e->converted_type == CHV_PQ_CT_TIMESTAMP_MILLIS
                  ? CHV_PQ_UNIT_MILLIS
                  : CHV_PQ_UNIT_MICROS;
    break;
  case CHV_PQ_CT_UINT_8:
  case CHV_PQ_CT_UINT_16:
  case CHV_PQ_CT_UINT_32:
  case CHV_PQ_CT_UINT_64:
    lt.kind = CHV_PQ_LT_INTEGER;
    lt.bit_width = (int8_t)(8 << (e->converted_type - CHV_PQ_CT_UINT_8));
    lt.is_signed = false;
    break;
  case CHV_PQ_CT_INT_8:
  case CHV_PQ_CT_INT_16:
  case CHV_PQ_CT_INT_32:
  case CHV_PQ_CT_INT_64:
    lt.kind = CHV_PQ_LT_INTEGER;
    lt.bit_width = (int8_t)(8 << (e->converted_type - CHV_PQ_CT_INT_8));
    lt.is_signed = true;
    break;
  case CHV_PQ_CT_JSON:
    lt.kind = CHV_PQ_LT_JSON;
    break;
  case CHV_PQ_CT_BSON:
    lt.kind = CHV_PQ_LT_BSON;
    break;
  default: /* INTERVAL and values this code does not know */
    break;
  }
  return lt;
}

static int new_type(struct conv *c, enum chv_type_id id,
                    struct chv_type **out) {
  if (chv_type_new(id, out) != CHV_OK) return conv_oom(c);
  return CHV_OK;
}

static int new_decimal(struct conv *c, const struct chv_pq_node *n,
                       const struct chv_pq_logical *lt, struct chv_type **out) {
  if (lt->precision < 1 || lt->scale < 0 || lt->scale > lt->precision)
    return conv_fail(c, n, CHV_ECORRUPT, "invalid DECIMAL(%d,%d)",
                     lt->precision, lt->scale);
  if (lt->precision > CHV_DECIMAL_MAX_PRECISION)
    return conv_fail(c, n, CHV_ENOTSUP,
                     "DECIMAL(%d,%d) exceeds Hive's %d digits", lt->precision,
                     lt->scale, CHV_DECIMAL_MAX_PRECISION);
  if (chv_type_new_decimal(lt->precision, lt->scale, out, NULL) != CHV_OK)
    return conv_oom(c);
  return CHV_OK;
}

/* A leaf: its Hive type and conversion (docs/parquet.md, "Types"). */
static int conv_primitive(struct conv *c, const struct chv_pq_node *n,
                          struct chv_pq_field *f, struct chv_type **out) {
  const struct chv_pq_schema_element *e = n->el;
  struct chv_pq_logical lt = effective_logical(e);
  enum chv_type_id id;
  enum chv_pq_conv cv = CHV_PQ_CONV_PLAIN;
  f->leaf = n->leaf;
  if (lt.kind == CHV_PQ_LT_DECIMAL &&
      (e->type == CHV_PQ_TYPE_INT32 || e->type == CHV_PQ_TYPE_INT64 ||
       e->type == CHV_PQ_TYPE_BYTE_ARRAY ||
       e->type == CHV_PQ_TYPE_FIXED_LEN_BYTE_ARRAY)) {
    f->conv = CHV_PQ_CONV_DECIMAL;
    return new_decimal(c, n, &lt, out);
  }
  switch (e->type) {
  case CHV_PQ_TYPE_BOOLEAN:
    id = CHV_TYPE_BOOLEAN;
    break;
  case CHV_PQ_TYPE_INT32:
    id = CHV_TYPE_INT;
    if (lt.kind == CHV_PQ_LT_INTEGER) {
      static const struct {
        int8_t width;
        bool is_signed;
        enum chv_type_id id;
        enum chv_pq_conv cv;
      } ints[] = {
          {8, true, CHV_TYPE_TINYINT, CHV_PQ_CONV_INT8},
          {16, true, CHV_TYPE_SMALLINT, CHV_PQ_CONV_INT16},
          {8, false, CHV_TYPE_SMALLINT, CHV_PQ_CONV_UINT8},
          {16, false, CHV_TYPE_INT, CHV_PQ_CONV_UINT16},
          {32, false, CHV_TYPE_BIGINT, CHV_PQ_CONV_UINT32},
      };
      for (size_t i = 0; i < CHV_ARRAY_SIZE(ints); i++)
        if (ints[i].width == lt.bit_width &&
            ints[i].is_signed == lt.is_signed) {
          id = ints[i].id;
          cv = ints[i].cv;
        }
    } else if (lt.kind == CHV_PQ_LT_DATE) {
      id = CHV_TYPE_DATE;
      cv = CHV_PQ_CONV_DATE;
    } else if (lt.kind == CHV_PQ_LT_TIME) {
      id = CHV_TYPE_BIGINT;
      cv = CHV_PQ_CONV_WIDEN;
    }
    break;
  case CHV_PQ_TYPE_INT64:
    id = CHV_TYPE_BIGINT;
    if (lt.kind == CHV_PQ_LT_INTEGER && lt.bit_width == 64 && !lt.is_signed) {
      f->conv = CHV_PQ_CONV_UINT64;
      if (chv_type_new_decimal(20, 0, out, NULL) != CHV_OK) return conv_oom(c);
      return CHV_OK;
    }
    if (lt.kind == CHV_PQ_LT_TIMESTAMP) {
      switch (lt.unit) {
      case CHV_PQ_UNIT_MILLIS:
        id = CHV_TYPE_TIMESTAMP;
        cv = CHV_PQ_CONV_TIMESTAMP_MILLIS;
        break;
      case CHV_PQ_UNIT_MICROS:
        id = CHV_TYPE_TIMESTAMP;
        cv = CHV_PQ_CONV_TIMESTAMP_MICROS;
        break;
      case CHV_PQ_UNIT_NANOS:
        id = CHV_TYPE_TIMESTAMP;
        cv = CHV_PQ_CONV_TIMESTAMP_NANOS;
        break;
      default: /* a unit from the future: the stored integer */
        break;
      }
    }
    break;
  case CHV_PQ_TYPE_INT96:
    id = CHV_TYPE_TIMESTAMP;
    cv = CHV_PQ_CONV_INT96;
    break;
  case CHV_PQ_TYPE_FLOAT:
    id = CHV_TYPE_FLOAT;
    break;
  case CHV_PQ_TYPE_DOUBLE:
    id = CHV_TYPE_DOUBLE;
    break;
  case CHV_PQ_TYPE_BYTE_ARRAY:
    id = (lt.kind == CHV_PQ_LT_STRING || lt.kind == CHV_PQ_LT_ENUM ||
          lt.kind == CHV_PQ_LT_JSON)
             ? CHV_TYPE_STRING
             : CHV_TYPE_BINARY;
    break;
  default: /* FIXED_LEN_BYTE_ARRAY */
    id = CHV_TYPE_BINARY;
    if (lt.kind == CHV_PQ_LT_FLOAT16 && e->type_length == 2) {
      id = CHV_TYPE_FLOAT;
      cv = CHV_PQ_CONV_FLOAT16;
    } else if (lt.kind == CHV_PQ_LT_UUID && e->type_length == 16) {
      id = CHV_TYPE_STRING;
      cv = CHV_PQ_CONV_UUID;
    }
    break;
  }
  f->conv = cv;
  return new_type(c, id, out);
}

static int conv_type(struct conv *c, const struct chv_pq_node *n,
                     struct chv_pq_field *f, struct chv_type **out);

/* Levels of a value held by node n, which is an element (never NULL by
** itself) when n is REPEATED. */
static void set_levels(struct chv_pq_field *f, const struct chv_pq_node *n) {
  f->node = n;
  f->nullable = n->parent && n->el->repetition == CHV_PQ_REP_OPTIONAL;
  f->def_level = n->def_level;
  f->slot_def_level = (int16_t)(n->def_level - (f->nullable ? 1 : 0));
  f->rep_level = n->rep_level;
  f->leaf = -1;
}

/* Node n as the value of a STRUCT member: a REPEATED node is a list of its
** own type (required elements). */
static int conv_member(struct conv *c, const struct chv_pq_node *n,
                       struct chv_pq_field *f, struct chv_type **out) {
  if (n->el->repetition != CHV_PQ_REP_REPEATED) return conv_type(c, n, f, out);
  const struct chv_pq_node *p = n->parent;
  f->node = n;
  f->repeated = n;
  f->nullable = false;
  f->def_level = f->slot_def_level = p->def_level;
  f->rep_level = p->rep_level;
  f->leaf = -1;
  f->children = new_fields(c, 1);
  if (f->children == NULL) return conv_oom(c);
  f->nchildren = 1;
  f->children[0].name = "element";
  struct chv_type *et;
  CHV_RETURN_IF_ERR(conv_type(c, n, &f->children[0], &et));
  if (chv_type_new_array(et, out) != CHV_OK) return conv_oom(c);
  f->type = *out;
  return CHV_OK;
}

static int conv_struct(struct conv *c, const struct chv_pq_node *n,
                       struct chv_pq_field *f, struct chv_type **out) {
  struct chv_type *st;
  CHV_RETURN_IF_ERR(new_type(c, CHV_TYPE_STRUCT, &st));
  f->children = new_fields(c, n->nchildren);
  if (n->nchildren && f->children == NULL) {
    chv_type_free(st);
    return conv_oom(c);
  }
  f->nchildren = n->nchildren;
  for (int i = 0; i < n->nchildren; i++) {
    const struct chv_pq_node *ch = n->children[i];
    struct chv_type *t;
    f->children[i].name = ch->el->name;
    int rc = conv_member(c, ch, &f->children[i], &t);
    if (rc != CHV_OK) {
      chv_type_free(st);
      return rc;
    }
    rc = chv_type_struct_add(st, ch->el->name, t);
    if (rc != CHV_OK) {
      chv_type_free(st);
      if (rc == CHV_EEXIST)
        return conv_fail(c, ch, CHV_ENOTSUP,
                         "another field of its group has the same name "
                         "(Hive names ignore case)");
      return conv_oom(c);
    }
  }
  *out = st;
  return CHV_OK;
}

static bool is_leaf(const struct chv_pq_node *n) {
  return n->leaf >= 0;
}

/* A LIST-annotated group g. */
static int conv_list(struct conv *c, const struct chv_pq_node *g,
                     struct chv_pq_field *f, struct chv_type **out) {
  if (g->nchildren != 1 ||
      g->children[0]->el->repetition != CHV_PQ_REP_REPEATED)
    return conv_fail(c, g, CHV_ECORRUPT,
                     "a LIST must hold exactly one repeated field");
  const struct chv_pq_node *r = g->children[0];
  /* Which node is the element (LogicalTypes.md, backward-compatibility
  ** rules 1-5). */
  const struct chv_pq_node *elem = r;
  if (!is_leaf(r) && r->nchildren == 1 &&
      r->children[0]->el->repetition != CHV_PQ_REP_REPEATED &&
      strcmp(r->el->name, "array") != 0) {
    size_t gl = strlen(g->el->name);
    const char *rn = r->el->name;
    bool tuple =
        strncmp(rn, g->el->name, gl) == 0 && strcmp(rn + gl, "_tuple") == 0;
    if (!tuple) elem = r->children[0];
  }
  f->repeated = r;
  f->children = new_fields(c, 1);
  if (f->children == NULL) return conv_oom(c);
  f->nchildren = 1;
  f->children[0].name = "element";
  struct chv_type *et;
  CHV_RETURN_IF_ERR(conv_type(c, elem, &f->children[0], &et));
  if (chv_type_new_array(et, out) != CHV_OK) return conv_oom(c);
  return CHV_OK;
}

/* A MAP- (or MAP_KEY_VALUE-) annotated group g. */
static int conv_map(struct conv *c, const struct chv_pq_node *g,
                    struct chv_pq_field *f, struct chv_type **out) {
  if (g->nchildren != 1 || is_leaf(g->children[0]) ||
      g->children[0]->el->repetition != CHV_PQ_REP_REPEATED) {
    /* MAP_KEY_VALUE first meant the key/value group itself: such a group
    ** that does not wrap one is read as the plain group it is. */
    if (g->el->logical.kind != CHV_PQ_LT_MAP && g->el->has_converted_type &&
        g->el->converted_type == CHV_PQ_CT_MAP_KEY_VALUE)
      return conv_struct(c, g, f, out);
    return conv_fail(c, g, CHV_ECORRUPT,
                     "a MAP must hold exactly one repeated key/value group");
  }
  const struct chv_pq_node *kv = g->children[0];
  if (kv->nchildren < 1 || kv->nchildren > 2)
    return conv_fail(c, kv, CHV_ECORRUPT,
                     "a map's key/value group has %d fields (1 or 2 "
                     "expected)",
                     kv->nchildren);
  const struct chv_pq_node *key = kv->children[0];
  if (!is_leaf(key))
    return conv_fail(c, key, CHV_ENOTSUP,
                     "a map key must be of a primitive type in Hive");
  if (key->el->repetition == CHV_PQ_REP_REPEATED)
    return conv_fail(c, key, CHV_ECORRUPT, "a map key cannot be repeated");
  f->repeated = kv;
  f->children = new_fields(c, kv->nchildren);
  if (f->children == NULL) return conv_oom(c);
  f->nchildren = kv->nchildren;
  f->children[0].name = "key";
  struct chv_type *kt, *vt;
  CHV_RETURN_IF_ERR(conv_type(c, key, &f->children[0], &kt));
  if (kv->nchildren == 1) {
    /* No value: the set of keys. */
    f->children[0].name = "element";
    if (chv_type_new_array(kt, out) != CHV_OK) return conv_oom(c);
    return CHV_OK;
  }
  f->children[1].name = "value";
  int rc = conv_member(c, kv->children[1], &f->children[1], &vt);
  if (rc != CHV_OK) {
    chv_type_free(kt);
    return rc;
  }
  rc = chv_type_new_map(kt, vt, out, NULL);
  if (rc == CHV_ETYPE)
    return conv_fail(c, key, CHV_ENOTSUP,
                     "a map key must be of a primitive type in Hive");
  if (rc != CHV_OK) return conv_oom(c);
  return CHV_OK;
}

/* The type of node n itself, whatever its repetition (the caller dealt with
** REPEATED); fills f (name excepted). */
static int conv_type(struct conv *c, const struct chv_pq_node *n,
                     struct chv_pq_field *f, struct chv_type **out) {
  set_levels(f, n);
  int rc;
  if (is_leaf(n)) {
    rc = conv_primitive(c, n, f, out);
  } else {
    struct chv_pq_logical lt = effective_logical(n->el);
    if (lt.kind == CHV_PQ_LT_LIST)
      rc = conv_list(c, n, f, out);
    else if (lt.kind == CHV_PQ_LT_MAP)
      rc = conv_map(c, n, f, out);
    else
      rc = conv_struct(c, n, f, out);
  }
  if (rc == CHV_OK) f->type = *out;
  return rc;
}

int chv_pq_hive_schema_open(const struct chv_pq_file_meta *m, const char *path,
                            struct chv_pq_hive_schema **out,
                            struct chv_error *err) {
  if (path == NULL) path = "(parquet)";
  if (m->root == NULL)
    return chv_error_set(err, CHV_EINVAL, "%s: the schema tree is not built",
                         path);
  struct chv_pq_hive_schema *h = chv_calloc(1, sizeof *h);
  if (h == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  h->meta = m;
  if (chv_arena_open(0, &h->arena) != CHV_OK) {
    chv_free(h);
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  struct conv c = {m, path, h->arena, err};
  set_levels(&h->root, m->root);
  h->root.name = m->root->el->name;
  int rc = conv_struct(&c, m->root, &h->root, &h->type);
  if (rc != CHV_OK) {
    chv_arena_close(h->arena);
    chv_free(h);
    return rc;
  }
  h->root.type = h->type;
  *out = h;
  return CHV_OK;
}

void chv_pq_hive_schema_close(struct chv_pq_hive_schema *h) {
  if (h == NULL) return;
  chv_type_free(h->type);
  chv_arena_close(h->arena);
  chv_free(h);
}
