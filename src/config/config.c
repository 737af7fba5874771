/*
** The layered configuration: three layers of raw key/value text (table
** properties, session values, configuration file) over the registry's
** defaults, and the reader of Flink-style configuration files.
**
** Values are validated when they enter a layer, so a lookup only re-parses
** text already known to be valid.  Keys are kept exactly as given: a value
** set under a deprecated alias stays under the alias, and within one layer
** the current key wins over its aliases, as in Flink.  Across layers the
** higher layer wins whichever spelling it used.
**
** INTERFACE
**   chv_config_open(), chv_config_close()
**   chv_config_set(), chv_config_unset(), chv_config_clear()
**   chv_config_load_file()
**   chv_config_set_warning_handler(), chv_config_warn()
**   chv_config_lookup(), chv_config_is_set(), chv_config_get()
**   chv_config_get_bool() ... chv_config_get_string()   typed getters
*/
#include "config/config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

/* One key/value pair of a layer; both owned. */
struct entry {
  char *key;
  char *value;
};

/* A layer: pairs in insertion order, keys unique. */
struct layer {
  struct entry *v;
  size_t n;
  size_t cap;
};

#define NLAYERS CHV_LAYER_DEFAULT

struct chv_config {
  struct layer layers[NLAYERS]; /* indexed by enum chv_config_layer */
  chv_config_warn_fn *warn_fn;  /* where warnings go, or NULL */
  void *warn_ctx;
  const struct chv_option **warned; /* options whose warning was sent */
  size_t nwarned;
};

static const char *const layer_names[] = {"table property", "session",
                                          "configuration file", "default"};

const char *chv_config_layer_name(enum chv_config_layer layer) {
  return (size_t)layer < CHV_ARRAY_SIZE(layer_names) ? layer_names[layer] : "?";
}

/* ---- layers ------------------------------------------------------------ */

static void layer_free(struct layer *l) {
  for (size_t i = 0; i < l->n; i++) {
    chv_free(l->v[i].key);
    chv_free(l->v[i].value);
  }
  chv_free(l->v);
  memset(l, 0, sizeof *l);
}

static struct entry *layer_find_exact(const struct layer *l, const char *key) {
  for (size_t i = 0; i < l->n; i++)
    if (strcmp(l->v[i].key, key) == 0) return &l->v[i];
  return NULL;
}

/* The entry of a layer holding name, compared as opt compares keys. */
static const struct entry *layer_find_named(const struct layer *l,
                                            const struct chv_option *opt,
                                            const char *name) {
  for (size_t i = 0; i < l->n; i++) {
    bool eq = (opt->flags & CHV_OPTF_KEY_ICASE)
                  ? chv_str_ieq(l->v[i].key, name)
                  : strcmp(l->v[i].key, name) == 0;
    if (eq) return &l->v[i];
  }
  return NULL;
}

/* The entry of a layer for an option: its key first, then its aliases. */
static const struct entry *layer_find_option(const struct layer *l,
                                             const struct chv_option *opt) {
  const struct entry *e = layer_find_named(l, opt, opt->key);
  for (const char *const *a = opt->aliases; e == NULL && a && *a; a++)
    e = layer_find_named(l, opt, *a);
  return e;
}

/* Put key = value into a layer, replacing an equal key. */
static int layer_put(struct layer *l, const char *key, const char *value,
                     struct chv_error *err) {
  char *v = chv_strdup(value);
  if (v == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  struct entry *e = layer_find_exact(l, key);
  if (e) {
    chv_free(e->value);
    e->value = v;
    return CHV_OK;
  }
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 16;
    struct entry *nv = chv_realloc(l->v, cap * sizeof *nv);
    if (nv == NULL) {
      chv_free(v);
      return chv_error_set(err, CHV_ENOMEM, "out of memory");
    }
    l->v = nv;
    l->cap = cap;
  }
  char *k = chv_strdup(key);
  if (k == NULL) {
    chv_free(v);
    return chv_error_set(err, CHV_ENOMEM, "out of memory");
  }
  l->v[l->n].key = k;
  l->v[l->n].value = v;
  l->n++;
  return CHV_OK;
}

/* ---- open, set, get ---------------------------------------------------- */

int chv_config_open(chv_config **out, struct chv_error *err) {
  chv_config *cfg = chv_calloc(1, sizeof *cfg);
  if (cfg == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
  *out = cfg;
  return CHV_OK;
}

void chv_config_close(chv_config *cfg) {
  if (cfg == NULL) return;
  for (int i = 0; i < NLAYERS; i++)
    layer_free(&cfg->layers[i]);
  chv_free(cfg->warned);
  chv_free(cfg);
}

/* ---- warnings ---------------------------------------------------------- */

void chv_config_set_warning_handler(chv_config *cfg, chv_config_warn_fn *fn,
                                    void *ctx) {
  if (cfg == NULL) return;
  cfg->warn_fn = fn;
  cfg->warn_ctx = ctx;
}

void chv_config_warn(chv_config *cfg, const char *key, const char *value,
                     const char *where) {
  if (cfg == NULL || cfg->warn_fn == NULL || key == NULL) return;
  char msg[512];
  if (!chv_option_warning(key, value ? value : "", msg, sizeof msg)) return;
  const struct chv_option *opt = chv_option_find(key);
  for (size_t i = 0; i < cfg->nwarned; i++)
    if (cfg->warned[i] == opt) return;
  /* Remembered before it is sent; without memory it is sent every time. */
  const struct chv_option **w =
      chv_realloc(cfg->warned, (cfg->nwarned + 1) * sizeof *w);
  if (w != NULL) {
    cfg->warned = w;
    cfg->warned[cfg->nwarned++] = opt;
  }
  if (where == NULL) {
    cfg->warn_fn(cfg->warn_ctx, msg);
    return;
  }
  char full[768];
  snprintf(full, sizeof full, "%s: %s", where, msg);
  cfg->warn_fn(cfg->warn_ctx, full);
}

int chv_config_set(chv_config *cfg, enum chv_config_layer layer,
                   const char *key, const char *value, struct chv_error *err) {
  if (cfg == NULL || key == NULL || value == NULL || (int)layer < 0 ||
      layer >= CHV_LAYER_DEFAULT)
    return chv_error_set(err, CHV_EINVAL, "chv_config_set: bad argument");
  if (*key == '\0') return chv_error_set(err, CHV_EINVAL, "empty option key");
  CHV_RETURN_IF_ERR(chv_option_check(key, value, err));
  CHV_RETURN_IF_ERR(layer_put(&cfg->layers[layer], key, value, err));
  chv_config_warn(cfg, key, value, NULL);
  return CHV_OK;
}

int chv_config_unset(chv_config *cfg, enum chv_config_layer layer,
                     const char *key) {
  if (cfg == NULL || (int)layer < 0 || layer >= CHV_LAYER_DEFAULT)
    return CHV_EINVAL;
  struct layer *l = &cfg->layers[layer];
  struct entry *e = layer_find_exact(l, key);
  if (e == NULL) return CHV_ENOENT;
  chv_free(e->key);
  chv_free(e->value);
  size_t i = (size_t)(e - l->v);
  memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof l->v[0]);
  l->n--;
  return CHV_OK;
}

void chv_config_clear(chv_config *cfg, enum chv_config_layer layer) {
  if (cfg == NULL || (int)layer < 0 || layer >= CHV_LAYER_DEFAULT) return;
  layer_free(&cfg->layers[layer]);
}

const char *chv_config_lookup(const chv_config *cfg, const char *key,
                              enum chv_config_layer *layer) {
  const struct chv_option *opt = chv_option_find(key);
  for (int i = 0; cfg && i < NLAYERS; i++) {
    const struct entry *e = opt ? layer_find_option(&cfg->layers[i], opt)
                                : layer_find_exact(&cfg->layers[i], key);
    if (e) {
      if (layer) *layer = (enum chv_config_layer)i;
      return e->value;
    }
  }
  if (layer) *layer = CHV_LAYER_DEFAULT;
  return NULL;
}

bool chv_config_is_set(const chv_config *cfg, const char *key) {
  return chv_config_lookup(cfg, key, NULL) != NULL;
}

static int64_t online_cpus(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? n : 1;
}

int chv_config_get(const chv_config *cfg, const char *key,
                   struct chv_opt_value *out, struct chv_error *err) {
  const struct chv_option *opt = chv_option_find(key);
  enum chv_config_layer layer;
  const char *raw = chv_config_lookup(cfg, key, &layer);
  if (opt == NULL) {
    if (raw == NULL)
      return chv_error_set(err, CHV_ENOENT, "unknown option '%s'", key);
    struct chv_opt_value v;
    chv_opt_value_init(&v);
    v.type = CHV_OPT_STRING;
    v.text = chv_strdup(raw);
    if (v.text == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");
    chv_opt_value_free(out);
    *out = v;
    return CHV_OK;
  }
  if (raw == NULL && (opt->flags & CHV_OPTF_DEFAULT_CPUS)) {
    char n[24];
    snprintf(n, sizeof n, "%lld", (long long)online_cpus());
    raw = n;
    return chv_option_parse(opt, raw, out, err);
  }
  if (raw == NULL) raw = opt->default_text;
  if (raw == NULL)
    return chv_error_set(err, CHV_ENOENT,
                         "option '%s' is not set and has no default", opt->key);
  int rc = chv_option_parse(opt, raw, out, err);
  if (rc != CHV_OK && rc != CHV_ENOMEM)
    chv_error_wrap(err, "%s", chv_config_layer_name(layer));
  return rc;
}

/* Fetch key's value, checking that its option is of one of two types. */
static int get_typed(const chv_config *cfg, const char *key,
                     enum chv_opt_type t1, enum chv_opt_type t2,
                     struct chv_opt_value *v, struct chv_error *err) {
  const struct chv_option *opt = chv_option_find(key);
  if (opt == NULL)
    return chv_error_set(err, CHV_ENOENT, "unknown option '%s'", key);
  if (opt->type != t1 && opt->type != t2)
    return chv_error_set(err, CHV_ETYPE, "option '%s' is a %s, not a %s",
                         opt->key, chv_opt_type_name(opt->type),
                         chv_opt_type_name(t1));
  return chv_config_get(cfg, key, v, err);
}

int chv_config_get_bool(const chv_config *cfg, const char *key, bool *out,
                        struct chv_error *err) {
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  int rc = get_typed(cfg, key, CHV_OPT_BOOL, CHV_OPT_BOOL, &v, err);
  if (rc == CHV_OK) *out = v.b;
  chv_opt_value_free(&v);
  return rc;
}

int chv_config_get_int(const chv_config *cfg, const char *key, int64_t *out,
                       struct chv_error *err) {
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  int rc = get_typed(cfg, key, CHV_OPT_INT, CHV_OPT_LONG, &v, err);
  if (rc == CHV_OK) *out = v.i;
  chv_opt_value_free(&v);
  return rc;
}

int chv_config_get_double(const chv_config *cfg, const char *key, double *out,
                          struct chv_error *err) {
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  int rc = get_typed(cfg, key, CHV_OPT_DOUBLE, CHV_OPT_DOUBLE, &v, err);
  if (rc == CHV_OK) *out = v.d;
  chv_opt_value_free(&v);
  return rc;
}

int chv_config_get_duration_ms(const chv_config *cfg, const char *key,
                               int64_t *out, struct chv_error *err) {
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  int rc = get_typed(cfg, key, CHV_OPT_DURATION, CHV_OPT_DURATION, &v, err);
  if (rc == CHV_OK) *out = v.ms;
  chv_opt_value_free(&v);
  return rc;
}

int chv_config_get_memory(const chv_config *cfg, const char *key, int64_t *out,
                          struct chv_error *err) {
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  int rc = get_typed(cfg, key, CHV_OPT_MEMORY, CHV_OPT_MEMORY, &v, err);
  if (rc == CHV_OK) *out = v.bytes;
  chv_opt_value_free(&v);
  return rc;
}

int chv_config_get_enum(const chv_config *cfg, const char *key, int *out,
                        struct chv_error *err) {
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  int rc = get_typed(cfg, key, CHV_OPT_ENUM, CHV_OPT_ENUM, &v, err);
  if (rc == CHV_OK) *out = v.enum_index;
  chv_opt_value_free(&v);
  return rc;
}

int chv_config_get_string(const chv_config *cfg, const char *key,
                          const char **out, struct chv_error *err) {
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  int rc = get_typed(cfg, key, CHV_OPT_STRING, CHV_OPT_ENUM, &v, err);
  if (rc != CHV_OK) return rc;
  const struct chv_option *opt = chv_option_find(key);
  if (opt->type == CHV_OPT_ENUM) {
    *out = opt->values[v.enum_index];
  } else {
    const char *raw = chv_config_lookup(cfg, key, NULL);
    *out = raw ? raw : opt->default_text;
  }
  chv_opt_value_free(&v);
  return CHV_OK;
}

/* ---- configuration files ----------------------------------------------- */

/* Enclosing "section:" keys of the line being read, by indentation. */
struct yaml_frame {
  size_t indent;
  char *prefix; /* full dotted key of the section */
};

#define MAX_DEPTH 16

struct file_reader {
  chv_config *cfg; /* receives the warnings */
  const char *path;
  int line;
  struct yaml_frame stack[MAX_DEPTH];
  int depth;
  struct layer staged; /* values read so far, committed at the end */
};

static void reader_pop(struct file_reader *r) {
  chv_free(r->stack[--r->depth].prefix);
}

/* Raise an error of the current line: "<path>:<line>: <message>". */
static int file_error(struct file_reader *r, struct chv_error *err, int code,
                      const char *fmt, ...) CHV_PRINTF(4, 5);
static int file_error(struct file_reader *r, struct chv_error *err, int code,
                      const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  chv_error_setv(err, code, fmt, ap);
  va_end(ap);
  if (err == NULL) return code;
  return chv_error_wrap(err, "%s:%d", r->path, r->line);
}

/* Strip a trailing comment: '#' at the start or after a blank, outside
** quotes. */
static void strip_comment(char *s) {
  char quote = 0;
  for (char *p = s; *p; p++) {
    if (quote) {
      if (*p == quote) quote = 0;
    } else if (*p == '\'' || *p == '"') {
      quote = *p;
    } else if (*p == '#' && (p == s || isspace((unsigned char)p[-1]))) {
      *p = '\0';
      return;
    }
  }
}

/* Remove matching quotes around v in place (YAML scalars): '' inside single
** quotes is one quote; \" \\ \n \t inside double quotes are escapes.
** Returns false for an unterminated quote. */
static bool unquote(char *v) {
  size_t n = strlen(v);
  if (n == 0 || (v[0] != '\'' && v[0] != '"')) return true;
  char q = v[0];
  if (n < 2 || v[n - 1] != q) return false;
  char *w = v;
  for (size_t i = 1; i < n - 1; i++) {
    if (q == '\'' && v[i] == '\'' && v[i + 1] == '\'') {
      *w++ = '\'';
      i++;
    } else if (q == '"' && v[i] == '\\' && i + 1 < n - 1) {
      char c = v[++i];
      *w++ = c == 'n' ? '\n' : c == 't' ? '\t' : c;
    } else {
      *w++ = v[i];
    }
  }
  *w = '\0';
  return true;
}

/* Turn a flow list "[a, 'b', c]" into "a<sep>b<sep>c" (sep is the option's
** separator, ',' for unknown keys).  Returns a new string, or NULL on
** out-of-memory or an unterminated quote (*bad set). */
static char *flow_list(const char *key, char *v, bool *bad) {
  const struct chv_option *opt = chv_option_find(key);
  char sep = (opt && opt->type == CHV_OPT_LIST) ? opt->separator : ',';
  struct chv_buf b;
  chv_buf_init(&b);
  size_t n = strlen(v);
  v[n - 1] = '\0';
  char *p = v + 1;
  bool first = true;
  int rc = CHV_OK;
  *bad = false;
  while (rc == CHV_OK && *chv_str_trim(p) != '\0') {
    char *comma = strchr(p, ',');
    if (comma) *comma = '\0';
    char *item = chv_str_trim(p);
    if (!unquote(item)) {
      *bad = true;
      break;
    }
    if (!first) rc = chv_buf_putc(&b, sep);
    if (rc == CHV_OK) rc = chv_buf_puts(&b, item);
    first = false;
    if (comma == NULL) break;
    p = comma + 1;
  }
  if (*bad || rc != CHV_OK) {
    chv_buf_free(&b);
    return NULL;
  }
  return chv_buf_detach(&b);
}

/* Read one line (NUL-terminated, newline removed) into the staged layer. */
static int read_line(struct file_reader *r, char *line, struct chv_error *err) {
  strip_comment(line);
  size_t indent = strspn(line, " ");
  char *s = chv_str_trim(line);
  if (*s == '\0') return CHV_OK;
  if (line[indent] == '\t')
    return file_error(r, err, CHV_ESYNTAX, "a tab in the indentation");
  if (s[0] == '-' && (s[1] == '\0' || s[1] == ' '))
    return file_error(r, err, CHV_ESYNTAX,
                      "block lists ('- item') are not supported; write "
                      "'key: a,b' or 'key: [a, b]'");
  char *colon = strstr(s, ": ");
  size_t len = strlen(s);
  if (colon == NULL && s[len - 1] == ':') colon = &s[len - 1];
  if (colon == NULL)
    return file_error(r, err, CHV_ESYNTAX,
                      "expected 'key: value', got '%.200s'", s);
  *colon = '\0';
  char *key = chv_str_trim(s);
  char *value = chv_str_trim(colon + 1);
  if (!unquote(key) || *key == '\0')
    return file_error(r, err, CHV_ESYNTAX, "missing or malformed key");

  while (r->depth > 0 && r->stack[r->depth - 1].indent >= indent)
    reader_pop(r);
  char *full = r->depth > 0
                   ? chv_asprintf("%s.%s", r->stack[r->depth - 1].prefix, key)
                   : chv_strdup(key);
  if (full == NULL) return chv_error_set(err, CHV_ENOMEM, "out of memory");

  int rc = CHV_OK;
  if (*value == '\0') {
    /* A section: the keys indented below it are joined to it. */
    if (r->depth == MAX_DEPTH) {
      rc = file_error(r, err, CHV_ESYNTAX, "sections nest too deeply");
      goto out_free_full;
    }
    r->stack[r->depth].indent = indent;
    r->stack[r->depth].prefix = full;
    r->depth++;
    return CHV_OK;
  }
  char *flow = NULL;
  size_t vlen = strlen(value);
  if (value[0] == '[' && value[vlen - 1] == ']') {
    bool bad;
    flow = flow_list(full, value, &bad);
    if (flow == NULL) {
      rc = bad ? file_error(r, err, CHV_ESYNTAX,
                            "unterminated quote in the list of '%s'", full)
               : chv_error_set(err, CHV_ENOMEM, "out of memory");
      goto out_free_full;
    }
    value = flow;
  } else if (!unquote(value)) {
    rc = file_error(r, err, CHV_ESYNTAX, "unterminated quote in '%.200s'",
                    value);
    goto out_free_full;
  }
  rc = chv_option_check(full, value, err);
  if (rc != CHV_OK) {
    chv_error_wrap(err, "%s:%d", r->path, r->line);
  } else {
    rc = layer_put(&r->staged, full, value, err);
  }
  if (rc == CHV_OK) {
    char where[512];
    snprintf(where, sizeof where, "%s:%d", r->path, r->line);
    chv_config_warn(r->cfg, full, value, where);
  }
  chv_free(flow);
out_free_full:
  chv_free(full);
  return rc;
}

int chv_config_load_file(chv_config *cfg, const char *path,
                         struct chv_error *err) {
  FILE *f = fopen(path, "r");
  if (f == NULL) return chv_error_errno(err, errno, "cannot open %s", path);
  struct file_reader r = {.cfg = cfg, .path = path};
  struct chv_buf line;
  chv_buf_init(&line);
  int rc = CHV_OK;
  int c = 0;
  while (rc == CHV_OK && c != EOF) {
    chv_buf_reset(&line);
    while ((c = fgetc(f)) != EOF && c != '\n') {
      if (c == '\0') {
        r.line++;
        rc = file_error(&r, err, CHV_ESYNTAX, "a NUL byte in the file");
        break;
      }
      if (c != '\r' && chv_buf_putc(&line, (char)c) != CHV_OK) {
        rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
        break;
      }
    }
    if (rc != CHV_OK) break;
    r.line++;
    if (c == EOF && line.len == 0) break;
    if (chv_buf_putc(&line, '\0') != CHV_OK) {
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
      break;
    }
    rc = read_line(&r, line.data, err);
  }
  if (rc == CHV_OK && ferror(f))
    rc = chv_error_errno(err, errno, "cannot read %s", path);
  fclose(f);
  chv_buf_free(&line);
  while (r.depth > 0)
    reader_pop(&r);
  /* Commit: every staged value enters the file layer, or none. */
  struct layer *dst = &cfg->layers[CHV_LAYER_FILE];
  if (rc == CHV_OK && dst->cap < dst->n + r.staged.n) {
    struct entry *nv = chv_realloc(dst->v, (dst->n + r.staged.n) * sizeof *nv);
    if (nv == NULL) {
      rc = chv_error_set(err, CHV_ENOMEM, "out of memory");
    } else {
      dst->v = nv;
      dst->cap = dst->n + r.staged.n;
    }
  }
  for (size_t i = 0; rc == CHV_OK && i < r.staged.n; i++) {
    struct entry *e = layer_find_exact(dst, r.staged.v[i].key);
    if (e) {
      chv_free(e->value);
      e->value = r.staged.v[i].value;
      chv_free(r.staged.v[i].key);
    } else {
      dst->v[dst->n++] = r.staged.v[i];
    }
    r.staged.v[i].key = r.staged.v[i].value = NULL;
  }
  layer_free(&r.staged);
  return rc;
}
