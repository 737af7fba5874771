/*
** partpath: Hive's partition path names and default locations, byte for
** byte as Hive's FileUtils.escapePathName / unescapePathName /
** makePartName and Warehouse.getDefaultTablePath produce them, so that
** folders written here are found by Hive, Spark, Trino and Flink and the
** other way round.
**
** INTERFACE
**   chv_partition_escape()          value -> path component
**   chv_partition_unescape()        path component -> value
**   chv_partition_path()            keys + values -> "k1=v1/k2=v2"
**   chv_partition_parse_path()      "k1=v1/k2=v2" -> keys + values
**   chv_table_default_location()    <warehouse>[/<db>.db]/<table>
**   chv_database_default_location() <warehouse>[/<db>.db]
*/
#include "catalog/catalog.h"
#include "fs/fs.h"

#include <ctype.h>
#include <stdio.h>

/* Hive's FileUtils.charToEscape: 0x01-0x1F, then these (on every OS but
** Windows, which adds ' ', '<', '>' and '|'). */
static bool needs_escape(unsigned char c) {
  if (c >= 0x01 && c <= 0x1F) return true;
  switch (c) {
  case '"': case '#': case '%': case '\'': case '*': case '/': case ':':
  case '=': case '?': case '\\': case 0x7F: case '{': case '[': case ']':
  case '^':
    return true;
  default:
    return false;
  }
}

int chv_partition_escape(const char *value, struct chv_buf *out) {
  if (value == NULL || value[0] == '\0')
    return chv_buf_puts(out, CHV_DEFAULT_PARTITION_NAME);
  static const char hex[] = "0123456789ABCDEF";
  for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
    if (needs_escape(*p)) {
      char e[3] = {'%', hex[*p >> 4], hex[*p & 15]};
      CHV_RETURN_IF_ERR(chv_buf_append(out, e, 3));
    } else {
      CHV_RETURN_IF_ERR(chv_buf_putc(out, (char)*p));
    }
  }
  return CHV_OK;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int chv_partition_unescape(const char *s, size_t n, struct chv_buf *out) {
  CHV_RETURN_IF_ERR(chv_buf_reserve(out, n));
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '%' && i + 2 < n &&
        hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
      char c = (char)(hexval(s[i + 1]) * 16 + hexval(s[i + 2]));
      CHV_RETURN_IF_ERR(chv_buf_putc(out, c));
      i += 2;
    } else {
      CHV_RETURN_IF_ERR(chv_buf_putc(out, s[i]));
    }
  }
  return CHV_OK;
}

static char *lower_dup(const char *s) {
  char *d = chv_strdup(s);
  if (d)
    for (char *p = d; *p; p++) *p = (char)tolower((unsigned char)*p);
  return d;
}

static int put_lower_escaped(struct chv_buf *b, const char *key) {
  char *low = lower_dup(key);
  if (low == NULL) return CHV_ENOMEM;
  int rc = chv_partition_escape(low, b);
  chv_free(low);
  return rc;
}

char *chv_partition_path(char *const *keys, char *const *values, int n) {
  struct chv_buf b;
  chv_buf_init(&b);
  for (int i = 0; i < n; i++) {
    if ((i > 0 && chv_buf_putc(&b, '/')) || put_lower_escaped(&b, keys[i]) ||
        chv_buf_putc(&b, '=') || chv_partition_escape(values[i], &b)) {
      chv_buf_free(&b);
      return NULL;
    }
  }
  if (b.data == NULL) return chv_strdup("");
  return chv_buf_detach(&b);
}

int chv_partition_parse_path(const char *path, char ***keys, char ***values,
                             int *n, struct chv_error *err) {
  int cap = 1;
  for (const char *p = path; *p; p++)
    if (*p == '/') cap++;
  char **k = chv_calloc((size_t)cap, sizeof *k);
  char **v = chv_calloc((size_t)cap, sizeof *v);
  int count = 0, rc = CHV_OK;
  struct chv_buf b;
  chv_buf_init(&b);
  if (k == NULL || v == NULL) {
    rc = chv_error_set(err, CHV_ENOMEM, "partition path %s: out of memory",
                       path);
    goto out_free;
  }
  for (const char *p = path; *p;) {
    const char *end = strchr(p, '/');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len > 0) {
      const char *eq = memchr(p, '=', len);
      if (eq == NULL || eq == p) {
        rc = chv_error_set(err, CHV_EINVAL,
                           "partition path %s: component '%.*s' is not "
                           "key=value",
                           path, (int)len, p);
        goto out_free;
      }
      chv_buf_reset(&b);
      if (chv_partition_unescape(p, (size_t)(eq - p), &b) ||
          (k[count] = chv_strdup(b.data)) == NULL)
        goto out_nomem;
      const char *val = eq + 1;
      size_t vlen = len - (size_t)(val - p);
      if (!(vlen == strlen(CHV_DEFAULT_PARTITION_NAME) &&
            memcmp(val, CHV_DEFAULT_PARTITION_NAME, vlen) == 0)) {
        chv_buf_reset(&b);
        if (chv_partition_unescape(val, vlen, &b) ||
            (v[count] = chv_strdup(b.data)) == NULL)
          goto out_nomem;
      }
      count++;
    }
    p += len;
    if (*p == '/') p++;
  }
  chv_buf_free(&b);
  *keys = k;
  *values = v;
  *n = count;
  return CHV_OK;

out_nomem:
  rc = chv_error_set(err, CHV_ENOMEM, "partition path %s: out of memory",
                     path);
out_free:
  chv_buf_free(&b);
  chv_strv_free(k, cap);
  chv_strv_free(v, cap);
  return rc;
}

char *chv_database_default_location(const char *warehouse, const char *db) {
  if (chv_str_ieq(db, "default")) return chv_strdup(warehouse);
  char *low = lower_dup(db);
  if (low == NULL) return NULL;
  char *name = chv_asprintf("%s.db", low);
  chv_free(low);
  if (name == NULL) return NULL;
  char *loc = chv_path_join(warehouse, name);
  chv_free(name);
  return loc;
}

char *chv_table_default_location(const char *warehouse, const char *db,
                                 const char *table) {
  char *dbloc = chv_database_default_location(warehouse, db);
  char *low = lower_dup(table);
  char *loc = NULL;
  if (dbloc && low) loc = chv_path_join(dbloc, low);
  chv_free(dbloc);
  chv_free(low);
  return loc;
}
