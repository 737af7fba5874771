/*
** A checker of the Arrow C Data Interface invariants of an (ArrowSchema,
** ArrowArray) pair, used by the tests on everything chive exports and
** usable on arrays from other producers.
**
** Checked per node: the format string parses; release callbacks are set;
** no dictionary; metadata, if any, well formed; length, offset >= 0 and -1 <= null_count <= length;
** n_buffers and n_children as the format demands, with matching schema
** children; buffers present where values exist; null_count equal to the
** zero bits of the validity bitmap (when null_count != -1), and 0 without
** a bitmap; offsets starting >= 0, non-decreasing, and for lists within the
** child; struct and fixed-size-list children long enough; map children an
** "entries" struct of two fields whose keys have no NULLs.  Unions and
** run-end/view layouts are reported as unsupported.
**
** Errors (CHV_ECORRUPT) name the path of the node: field names joined by
** '.', "[i]" where a child has no name.
**
** INTERFACE
**   chv_arrow_validate()
*/
#include "types/types.h"

#include <stdio.h>
#include <stdlib.h>

#define VALIDATE_MAX_DEPTH 256

enum layout {
  L_NULL,    /* "n": no buffers */
  L_BOOL,    /* "b": validity + bits */
  L_FIXED,   /* validity + values of `width` bytes */
  L_VAR32,   /* "u", "z": validity + int32 offsets + data */
  L_VAR64,   /* "U", "Z": validity + int64 offsets + data */
  L_LIST32,  /* "+l" */
  L_LIST64,  /* "+L" */
  L_FSLIST,  /* "+w:n" */
  L_STRUCT,  /* "+s" */
  L_MAP      /* "+m" */
};

struct fmt_info {
  enum layout layout;
  int64_t width; /* L_FIXED: bytes per value; L_FSLIST: list size */
};

/* Parse an Arrow format string; false if unknown or malformed. */
static bool parse_format(const char *f, struct fmt_info *fi) {
  fi->width = 0;
  if (f == NULL || f[0] == '\0') return false;
  if (f[1] == '\0') {
    fi->layout = L_FIXED;
    switch (f[0]) {
    case 'n': fi->layout = L_NULL; return true;
    case 'b': fi->layout = L_BOOL; return true;
    case 'c': case 'C': fi->width = 1; return true;
    case 's': case 'S': case 'e': fi->width = 2; return true;
    case 'i': case 'I': case 'f': fi->width = 4; return true;
    case 'l': case 'L': case 'g': fi->width = 8; return true;
    case 'u': case 'z': fi->layout = L_VAR32; return true;
    case 'U': case 'Z': fi->layout = L_VAR64; return true;
    default: return false;
    }
  }
  if (f[0] == 'd' && f[1] == ':') {
    char *end;
    long p = strtol(f + 2, &end, 10);
    if (end == f + 2 || *end != ',') return false;
    const char *s0 = end + 1;
    long s = strtol(s0, &end, 10);
    if (end == s0) return false;
    (void)s;
    long bits = 128;
    if (*end == ',') {
      const char *b0 = end + 1;
      bits = strtol(b0, &end, 10);
      if (end == b0) return false;
    }
    if (*end != '\0' || p < 1) return false;
    if (bits != 32 && bits != 64 && bits != 128 && bits != 256) return false;
    fi->layout = L_FIXED;
    fi->width = bits / 8;
    return true;
  }
  if (f[0] == 'w' && f[1] == ':') {
    char *end;
    long n = strtol(f + 2, &end, 10);
    if (end == f + 2 || *end != '\0' || n < 0) return false;
    fi->layout = L_FIXED;
    fi->width = n;
    return true;
  }
  if (f[0] == 't') {
    fi->layout = L_FIXED;
    if (strlen(f) < 3) return false;
    if (f[1] == 'd' && f[3] == '\0') {
      if (f[2] == 'D') return fi->width = 4, true;
      if (f[2] == 'm') return fi->width = 8, true;
      return false;
    }
    if (f[1] == 't' && f[3] == '\0') {
      if (f[2] == 's' || f[2] == 'm') return fi->width = 4, true;
      if (f[2] == 'u' || f[2] == 'n') return fi->width = 8, true;
      return false;
    }
    if (f[1] == 's' && f[2] && strchr("smun", f[2]) && f[3] == ':')
      return fi->width = 8, true; /* any time zone after the colon */
    if (f[1] == 'D' && f[2] && strchr("smun", f[2]) && f[3] == '\0')
      return fi->width = 8, true;
    if (f[1] == 'i' && f[3] == '\0') {
      if (f[2] == 'M') return fi->width = 4, true;
      if (f[2] == 'D') return fi->width = 8, true;
      if (f[2] == 'n') return fi->width = 16, true;
    }
    return false;
  }
  if (f[0] == '+') {
    if (f[1] == 'l' && f[2] == '\0') return fi->layout = L_LIST32, true;
    if (f[1] == 'L' && f[2] == '\0') return fi->layout = L_LIST64, true;
    if (f[1] == 's' && f[2] == '\0') return fi->layout = L_STRUCT, true;
    if (f[1] == 'm' && f[2] == '\0') return fi->layout = L_MAP, true;
    if (f[1] == 'w' && f[2] == ':') {
      char *end;
      long n = strtol(f + 3, &end, 10);
      if (end == f + 3 || *end != '\0' || n < 0) return false;
      fi->layout = L_FSLIST;
      fi->width = n;
      return true;
    }
  }
  return false;
}

struct vctx {
  struct chv_error *err;
  char path[512];
};

static int fail(struct vctx *c, const char *fmt, ...) CHV_PRINTF(2, 3);
static int fail(struct vctx *c, const char *fmt, ...) {
  char what[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  return chv_error_set(c->err, CHV_ECORRUPT, "%s: %s",
                       c->path[0] ? c->path : "(root)", what);
}

/* Zero bits in [off, off + len) of a bitmap. */
static int64_t count_zeros(const uint8_t *bits, int64_t off, int64_t len) {
  int64_t zeros = 0, i = off, end = off + len;
  for (; i < end && (i & 7); i++) zeros += !chv_bit_get(bits, i);
  for (; i + 8 <= end; i += 8) zeros += 8 - __builtin_popcount(bits[i >> 3]);
  for (; i < end; i++) zeros += !chv_bit_get(bits, i);
  return zeros;
}

/* Offset at index i of an int32 or int64 offsets buffer. */
static int64_t offset_at(const void *buf, bool wide, int64_t i) {
  return wide ? ((const int64_t *)buf)[i] : ((const int32_t *)buf)[i];
}

/* Offsets [offset, offset + length] non-decreasing and from >= 0; the last
** one into *last. */
static int check_offsets(struct vctx *c, const struct ArrowArray *a,
                         bool wide, int64_t *last) {
  const void *o = a->buffers[1];
  if (o == NULL) {
    if (a->length == 0) {
      *last = 0;
      return CHV_OK;
    }
    return fail(c, "offsets buffer is NULL");
  }
  int64_t prev = offset_at(o, wide, a->offset);
  if (prev < 0) return fail(c, "first offset %lld is negative", (long long)prev);
  for (int64_t i = 1; i <= a->length; i++) {
    int64_t cur = offset_at(o, wide, a->offset + i);
    if (cur < prev)
      return fail(c, "offsets not monotone at %lld (%lld after %lld)",
                  (long long)i, (long long)cur, (long long)prev);
    prev = cur;
  }
  *last = prev;
  return CHV_OK;
}

static int validate(struct vctx *c, const struct ArrowSchema *s,
                    const struct ArrowArray *a, int depth);

/* Metadata, when present: an int32 count of key/value pairs, each an int32
** length and that many bytes; counts and lengths must be sane. */
static int check_metadata(struct vctx *c, const char *m) {
  if (m == NULL) return CHV_OK;
  int32_t n, len;
  memcpy(&n, m, 4);
  if (n < 0 || n > 1000000)
    return fail(c, "metadata has %d entries", (int)n);
  const char *p = m + 4;
  for (int32_t i = 0; i < 2 * n; i++) {
    memcpy(&len, p, 4);
    if (len < 0 || len > (1 << 30))
      return fail(c, "metadata %s %d has length %d", i % 2 ? "value" : "key",
                  (int)(i / 2), (int)len);
    p += 4 + len;
  }
  return CHV_OK;
}

/* Validate child i with ".name" (or "[i]") appended to the path. */
static int validate_child(struct vctx *c, const struct ArrowSchema *s,
                          const struct ArrowArray *a, int64_t i, int depth) {
  const struct ArrowSchema *cs = s->children[i];
  const struct ArrowArray *ca = a->children[i];
  if (cs == NULL) return fail(c, "schema child %lld is NULL", (long long)i);
  if (ca == NULL) return fail(c, "array child %lld is NULL", (long long)i);
  size_t n = strlen(c->path);
  if (cs->name && cs->name[0])
    snprintf(c->path + n, sizeof c->path - n, "%s%s", n ? "." : "", cs->name);
  else
    snprintf(c->path + n, sizeof c->path - n, "[%lld]", (long long)i);
  int rc = validate(c, cs, ca, depth + 1);
  if (rc == CHV_OK) c->path[n] = '\0';
  return rc;
}

static int validate(struct vctx *c, const struct ArrowSchema *s,
                    const struct ArrowArray *a, int depth) {
  if (depth > VALIDATE_MAX_DEPTH)
    return fail(c, "nested deeper than %d levels", VALIDATE_MAX_DEPTH);
  if (s->release == NULL) return fail(c, "schema is released (release NULL)");
  if (a->release == NULL) return fail(c, "array is released (release NULL)");
  struct fmt_info fi;
  if (!parse_format(s->format, &fi))
    return fail(c, "unsupported or malformed format '%s'",
                s->format ? s->format : "(null)");
  if (s->dictionary || a->dictionary)
    return fail(c, "dictionary encoding is not expected");
  CHV_RETURN_IF_ERR(check_metadata(c, s->metadata));
  if (a->length < 0 || a->offset < 0)
    return fail(c, "negative length %lld or offset %lld",
                (long long)a->length, (long long)a->offset);
  if (a->null_count < -1 || a->null_count > a->length)
    return fail(c, "null_count %lld outside -1..length %lld",
                (long long)a->null_count, (long long)a->length);

  int64_t nbuf = 0, nch = 0;
  switch (fi.layout) {
  case L_NULL: nbuf = 0; break;
  case L_BOOL:
  case L_FIXED: nbuf = 2; break;
  case L_VAR32:
  case L_VAR64: nbuf = 3; break;
  case L_LIST32:
  case L_LIST64: nbuf = 2; nch = 1; break;
  case L_FSLIST: nbuf = 1; nch = 1; break;
  case L_STRUCT: nbuf = 1; nch = s->n_children; break;
  case L_MAP: nbuf = 2; nch = 1; break;
  }
  if (a->n_buffers != nbuf)
    return fail(c, "format '%s' needs %lld buffers, array has %lld",
                s->format, (long long)nbuf, (long long)a->n_buffers);
  if (s->n_children != nch)
    return fail(c, "format '%s' needs %lld children, schema has %lld",
                s->format, (long long)nch, (long long)s->n_children);
  if (a->n_children != nch)
    return fail(c, "schema has %lld children, array has %lld",
                (long long)nch, (long long)a->n_children);
  if (nbuf > 0 && a->buffers == NULL) return fail(c, "buffers is NULL");
  if (nch > 0 && (s->children == NULL || a->children == NULL))
    return fail(c, "children is NULL");

  /* Validity. */
  int64_t end = a->offset + a->length;
  if (nbuf > 0 && fi.layout != L_NULL) {
    const uint8_t *valid = a->buffers[0];
    if (valid == NULL) {
      if (a->null_count > 0)
        return fail(c, "null_count %lld without a validity bitmap",
                    (long long)a->null_count);
    } else if (a->null_count != -1) {
      int64_t z = count_zeros(valid, a->offset, a->length);
      if (z != a->null_count)
        return fail(c, "null_count %lld but the validity bitmap has %lld "
                       "NULLs",
                    (long long)a->null_count, (long long)z);
    }
  }

  switch (fi.layout) {
  case L_BOOL:
  case L_FIXED:
    if (a->length > 0 && a->buffers[1] == NULL &&
        (fi.width > 0 || fi.layout == L_BOOL))
      return fail(c, "data buffer is NULL");
    break;
  case L_VAR32:
  case L_VAR64: {
    int64_t last;
    CHV_RETURN_IF_ERR(check_offsets(c, a, fi.layout == L_VAR64, &last));
    if (last > 0 && a->buffers[2] == NULL)
      return fail(c, "data buffer is NULL with %lld bytes referenced",
                  (long long)last);
    break;
  }
  default: break;
  }
  if (fi.layout == L_MAP) {
    const struct ArrowSchema *es = s->children[0];
    const struct ArrowArray *ea = a->children[0];
    if (es == NULL || ea == NULL) return fail(c, "map entries are NULL");
    if (es->format == NULL || strcmp(es->format, "+s") != 0 ||
        es->n_children != 2)
      return fail(c, "map entries must be a struct of key and value");
    if (ea->null_count > 0) return fail(c, "map entries have NULLs");
    if (ea->n_children == 2 && ea->children && ea->children[0]) {
      const struct ArrowArray *k = ea->children[0];
      int64_t nulls = k->null_count;
      if (nulls == -1 && k->n_buffers > 0 && k->buffers && k->buffers[0])
        nulls = count_zeros(k->buffers[0], k->offset, k->length);
      if (nulls > 0) return fail(c, "map has %lld NULL keys", (long long)nulls);
    }
  }

  for (int64_t i = 0; i < nch; i++)
    CHV_RETURN_IF_ERR(validate_child(c, s, a, i, depth));

  /* Against the children, once they are known to be sound. */
  switch (fi.layout) {
  case L_LIST32:
  case L_LIST64:
  case L_MAP: {
    int64_t last;
    CHV_RETURN_IF_ERR(check_offsets(c, a, fi.layout == L_LIST64, &last));
    if (last > a->children[0]->length)
      return fail(c, "last offset %lld beyond the child's %lld elements",
                  (long long)last, (long long)a->children[0]->length);
    break;
  }
  case L_FSLIST:
    if (a->children[0]->length < end * fi.width)
      return fail(c, "child has %lld elements, %lld needed",
                  (long long)a->children[0]->length,
                  (long long)(end * fi.width));
    break;
  case L_STRUCT:
    for (int64_t i = 0; i < nch; i++)
      if (a->children[i]->length < end)
        return fail(c, "child %lld has %lld rows, %lld needed", (long long)i,
                    (long long)a->children[i]->length, (long long)end);
    break;
  default: break;
  }
  return CHV_OK;
}

int chv_arrow_validate(const struct ArrowSchema *schema,
                       const struct ArrowArray *array, struct chv_error *err) {
  struct vctx c;
  c.err = err;
  c.path[0] = '\0';
  if (schema == NULL || array == NULL)
    return chv_error_set(err, CHV_EINVAL, "schema or array is NULL");
  if (schema->name && schema->name[0])
    snprintf(c.path, sizeof c.path, "%s", schema->name);
  return validate(&c, schema, array, 0);
}
