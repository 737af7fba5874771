/*
** LazySimpleSerDe parameters -> struct chv_text_options, and the base64 text
** form of BINARY values.  Mirrors Hive's LazySerDeParameters: separators
** 0..2 from field.delim (or serialization.format), collection.delim (or
** Hive 2's colelction.delim) and mapkey.delim, the deeper levels from the
** fixed control-byte list; LazyUtils.getByte() for every one-byte value.
**
** INTERFACE: chv_text_options_init(), chv_text_options_set(),
** chv_text_options_from_serde(), chv_base64_*() (text.h).
*/
#include "format/text/text_int.h"

#include <stdlib.h>

enum {
  EXPLICIT_FIELD = 1u,      /* field.delim given */
  EXPLICIT_COLLECTION = 2u, /* collection.delim given */
  EXTEND_NESTING = 4u,      /* hive.serialization.extend.nesting.levels */
  EXTEND_ADDITIONAL = 8u,   /* ...extend.additional.nesting.levels */
};

void chv_text_options_init(struct chv_text_options *o) {
  memset(o, 0, sizeof *o);
  /* LazySerDeParameters.collectSeparators(): 1..3, then the control bytes
  ** unlikely in text (not \t \n \f \r ESC), then the high bytes. */
  int k = 0;
  for (int b = 1; b <= 8; b++) o->separators[k++] = (uint8_t)b;
  o->separators[k++] = 11;
  for (int b = 14; b <= 26; b++) o->separators[k++] = (uint8_t)b;
  for (int b = 28; b <= 31; b++) o->separators[k++] = (uint8_t)b;
  for (int b = 128; b <= 255; b++) o->separators[k++] = (uint8_t)b;
  CHV_ASSERT(k == CHV_TEXT_MAX_LEVELS);
  o->nlevels = 8;
  o->line_delim = '\n';
  o->escape_char = '\\';
  memcpy(o->null_format, "\\N", 3);
  o->null_format_len = 2;
  o->range_length = -1;
  o->codec_from_path = true;
  o->codec = CHV_CODEC_NONE;
  o->buffer_size = 1 << 20;
  o->batch_rows = 1024;
}

/* LazyUtils.getByte(): a Java byte number, else the first character (its
** low 8 bits, as Java's (byte) cast of a char). */
static bool get_byte(const char *v, uint8_t *out) {
  if (v == NULL || *v == '\0') return false;
  const char *p = v;
  if (*p == '-' || *p == '+') p++;
  bool digits = *p != '\0';
  for (const char *q = p; *q; q++)
    if (*q < '0' || *q > '9') digits = false;
  if (digits && strlen(p) <= 4) {
    long n = strtol(v, NULL, 10);
    if (n >= -128 && n <= 127) {
      *out = (uint8_t)(n & 0xFF);
      return true;
    }
  }
  /* First character: decode one UTF-8 sequence, keep the low byte. */
  const uint8_t *u = (const uint8_t *)v;
  uint32_t cp = u[0];
  if (u[0] >= 0xC0 && u[0] < 0xE0 && (u[1] & 0xC0) == 0x80)
    cp = (uint32_t)(u[0] & 0x1F) << 6 | (u[1] & 0x3F);
  else if (u[0] >= 0xE0 && u[0] < 0xF0 && (u[1] & 0xC0) == 0x80 &&
           (u[2] & 0xC0) == 0x80)
    cp = (uint32_t)(u[0] & 0x0F) << 12 | (uint32_t)(u[1] & 0x3F) << 6 |
         (u[2] & 0x3F);
  *out = (uint8_t)(cp & 0xFF);
  return true;
}

static bool is_true(const char *v) { return v && chv_str_ieq(v, "true"); }

int chv_text_options_set(struct chv_text_options *o, const char *key,
                         const char *value, struct chv_error *err) {
  uint8_t b;
  if (key == NULL) return CHV_OK;
  if (value == NULL) return CHV_OK;
  /* A key that is present but empty means the default, as getByte() has
  ** it (and still hides the fallback key). */
  if (!strcmp(key, "field.delim")) {
    o->separators[0] = get_byte(value, &b) ? b : 1;
    o->explicit_ |= EXPLICIT_FIELD;
  } else if (!strcmp(key, "serialization.format")) {
    if (!(o->explicit_ & EXPLICIT_FIELD))
      o->separators[0] = get_byte(value, &b) ? b : 1;
  } else if (!strcmp(key, "collection.delim")) {
    o->separators[1] = get_byte(value, &b) ? b : 2;
    o->explicit_ |= EXPLICIT_COLLECTION;
  } else if (!strcmp(key, "colelction.delim")) {
    if (!(o->explicit_ & EXPLICIT_COLLECTION))
      o->separators[1] = get_byte(value, &b) ? b : 2;
  } else if (!strcmp(key, "mapkey.delim")) {
    o->separators[2] = get_byte(value, &b) ? b : 3;
  } else if (!strcmp(key, "line.delim")) {
    o->line_delim = get_byte(value, &b) ? b : '\n';
  } else if (!strcmp(key, "escape.delim")) {
    o->escaped = true; /* present at all: Hive escapes */
    o->escape_char = get_byte(value, &b) ? b : '\\';
  } else if (!strcmp(key, "hive.serialization.extend.nesting.levels") ||
             !strcmp(key,
                     "hive.serialization.extend.additional.nesting.levels")) {
    unsigned bit = strstr(key, "additional") ? EXTEND_ADDITIONAL
                                             : EXTEND_NESTING;
    if (is_true(value))
      o->explicit_ |= bit;
    else
      o->explicit_ &= ~bit;
    o->nlevels = (o->explicit_ & EXTEND_ADDITIONAL) ? CHV_TEXT_MAX_LEVELS
                 : (o->explicit_ & EXTEND_NESTING)  ? 24
                                                    : 8;
  } else if (!strcmp(key, "serialization.null.format")) {
    size_t n = strlen(value);
    if (n >= CHV_TEXT_NULL_FORMAT_MAX)
      return chv_error_set(err, CHV_EINVAL,
                           "serialization.null.format is longer than %d bytes",
                           CHV_TEXT_NULL_FORMAT_MAX - 1);
    memcpy(o->null_format, value, n + 1);
    o->null_format_len = n;
  } else if (!strcmp(key, "serialization.escape.crlf")) {
    o->escape_crlf = is_true(value);
  } else if (!strcmp(key, "serialization.last.column.takes.rest")) {
    o->last_column_takes_rest = is_true(value);
  }
  return CHV_OK;
}

int chv_text_options_from_serde(struct chv_text_options *o,
                                const struct chv_text_param *params, size_t n,
                                struct chv_error *err) {
  struct chv_text_options t;
  chv_text_options_init(&t);
  for (size_t i = 0; i < n; i++)
    CHV_RETURN_IF_ERR(
        chv_text_options_set(&t, params[i].key, params[i].value, err));
  *o = t;
  return CHV_OK;
}

/* Highest separator index a value of type t at `level` needs. */
static int sep_depth(const struct chv_type *t, int level) {
  int d = 0;
  switch (t->id) {
  case CHV_TYPE_ARRAY:
    d = CHV_MAX(level, sep_depth(t->children[0], level + 1));
    break;
  case CHV_TYPE_MAP:
    d = CHV_MAX(level + 1, sep_depth(t->children[1], level + 2));
    d = CHV_MAX(d, sep_depth(t->children[0], level + 2));
    break;
  case CHV_TYPE_STRUCT:
    d = level;
    for (int i = 0; i < t->nchildren; i++)
      d = CHV_MAX(d, sep_depth(t->children[i], level + 1));
    break;
  default:
    break;
  }
  return d;
}

int chv_text_nlevels(const struct chv_text_options *o) {
  return CHV_MIN(CHV_MAX(o->nlevels, 3), CHV_TEXT_MAX_LEVELS);
}

int chv_text_check_depth(const struct chv_type *schema,
                         const struct chv_text_options *o, const char *path,
                         struct chv_error *err) {
  int depth = sep_depth(schema, 0), nlevels = chv_text_nlevels(o);
  if (depth < nlevels) return CHV_OK;
  return chv_error_set(err, CHV_ENOTSUP,
                       "%s: the columns need %d separator levels, a text "
                       "table has %d%s",
                       path, depth + 1, nlevels,
                       nlevels < CHV_TEXT_MAX_LEVELS
                           ? " (set hive.serialization.extend.nesting.levels "
                             "or ...extend.additional.nesting.levels)"
                           : "");
}

/* ---- base64 ------------------------------------------------------------- */

static const char b64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Value of a base64 character, 64 for '=', 65 for white space, 66 else.
** commons-codec also accepts the URL-safe '-' and '_' when decoding. */
static const uint8_t *b64_table(void) {
  static uint8_t t[256];
  static bool ready;
  if (!ready) {
    memset(t, 66, sizeof t);
    for (int i = 0; i < 64; i++) t[(uint8_t)b64_alphabet[i]] = (uint8_t)i;
    t['-'] = 62;
    t['_'] = 63;
    t['='] = 64;
    t[' '] = t['\t'] = t['\n'] = t['\r'] = 65;
    ready = true;
  }
  return t;
}

int chv_base64_encode(const void *p, size_t n, struct chv_buf *out) {
  const uint8_t *s = p;
  size_t need = (n + 2) / 3 * 4;
  CHV_RETURN_IF_ERR(chv_buf_reserve(out, need));
  char *d = out->data + out->len;
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    uint32_t v = (uint32_t)s[i] << 16 | (uint32_t)s[i + 1] << 8 | s[i + 2];
    *d++ = b64_alphabet[v >> 18];
    *d++ = b64_alphabet[(v >> 12) & 63];
    *d++ = b64_alphabet[(v >> 6) & 63];
    *d++ = b64_alphabet[v & 63];
  }
  if (i < n) {
    uint32_t v = (uint32_t)s[i] << 16 | (i + 1 < n ? (uint32_t)s[i + 1] << 8 : 0);
    *d++ = b64_alphabet[v >> 18];
    *d++ = b64_alphabet[(v >> 12) & 63];
    *d++ = i + 1 < n ? b64_alphabet[(v >> 6) & 63] : '=';
    *d++ = '=';
  }
  out->len += need;
  out->data[out->len] = '\0';
  return CHV_OK;
}

bool chv_base64_is_text(const void *p, size_t n) {
  const uint8_t *s = p, *t = b64_table();
  for (size_t i = 0; i < n; i++)
    if (t[s[i]] == 66) return false;
  return true;
}

size_t chv_base64_decode(const void *p, size_t n, uint8_t *dst) {
  const uint8_t *s = p, *t = b64_table();
  uint32_t acc = 0;
  int bits = 0;
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    uint8_t v = t[s[i]];
    if (v == 64) break; /* padding ends the data */
    if (v > 64) continue;
    acc = acc << 6 | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      dst[o++] = (uint8_t)(acc >> bits);
      acc &= (1u << bits) - 1;
    }
  }
  return o;
}
