/*
** chive splits: the planned splits of a table scan, one JSON line each with
** the split's bytes in base64, so that an external scheduler can hand them
** to `chive read-split` processes on other machines.
**
** chive read-split: the rows of serialized splits as JSON Lines.
*/
#include "cli.h"

#include "chive/jsonl.h"
#include "chive/source.h"
#include "chive/text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void splits_usage(FILE *out) {
  fprintf(out,
          "usage: chive splits [--warehouse DIR] [--conf FILE] [--where COND]\n"
          "                    [--columns A,B,..] [--limit N] "
          "[--parallelism N] [DB.]TABLE\n"
          "Prints one JSON line per split: partition, path, start, length,\n"
          "file_size and \"split\", its bytes in base64 for chive "
          "read-split.\n"
          "COND prunes partitions and pushes predicates into the readers;\n"
          "rows are not filtered by it.  --parallelism is the source's\n"
          "parallelism (default: inferred, infer-source-parallelism.max).\n");
}

/* "a,b" into indexes of t's fields (data columns, then partition keys). */
static int field_indexes(const struct chv_table *t, const char *list,
                         int **out, int *n) {
  int cap = 1;
  for (const char *p = list; *p; p++) cap += *p == ',';
  int *v = chv_calloc((size_t)cap, sizeof *v);
  if (v == NULL) return CHV_ENOMEM;
  *n = 0;
  const char *p = list;
  while (*p) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    int found = -1;
    for (int i = 0; i < t->ncols + t->npkeys && found < 0; i++) {
      const char *name =
          i < t->ncols ? t->columns[i].name : t->pkeys[i - t->ncols].name;
      if (strlen(name) == len && !strncasecmp(name, p, len)) found = i;
    }
    if (found < 0) {
      fprintf(stderr, "chive splits: table %s.%s has no column '%.*s'\n",
              t->db, t->name, (int)len, p);
      chv_free(v);
      return CHV_ENOENT;
    }
    v[(*n)++] = found;
    p += len + (end != NULL);
  }
  *out = v;
  return CHV_OK;
}

static bool parse_count(const char *s, int64_t *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || *s == '\0' || *end != '\0' || v < 0) return false;
  *out = v;
  return true;
}

/* A partition's folder name from the split's values. */
static void put_partition(struct chv_buf *o, const struct chv_source_split *sp) {
  chv_buf_puts(o, "\"partition\":");
  if (sp->table.npkeys == 0) {
    chv_buf_puts(o, "null");
    return;
  }
  struct chv_buf name;
  chv_buf_init(&name);
  for (int i = 0; i < sp->table.npkeys; i++) {
    if (i) chv_buf_putc(&name, '/');
    chv_buf_printf(&name, "%s=%s", sp->table.pkeys[i].name,
                   sp->part_values[i] ? sp->part_values[i]
                                      : CHV_DEFAULT_PARTITION_NAME);
  }
  chv_json_put_string(o, name.data ? name.data : "");
  chv_buf_free(&name);
}

int cli_splits(int argc, char **argv) {
  const char *wh = "./warehouse", *conf = NULL, *where = NULL, *cols = NULL;
  const char *name = NULL;
  int64_t limit = -1, par = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool has = i + 1 < argc;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      splits_usage(stdout);
      return 0;
    } else if (!strcmp(a, "--warehouse") && has) {
      wh = argv[++i];
    } else if (!strcmp(a, "--conf") && has) {
      conf = argv[++i];
    } else if (!strcmp(a, "--where") && has) {
      where = argv[++i];
    } else if (!strcmp(a, "--columns") && has) {
      cols = argv[++i];
    } else if (!strcmp(a, "--limit") && has) {
      if (!parse_count(argv[++i], &limit)) {
        fprintf(stderr, "chive splits: bad --limit '%s'\n", argv[i]);
        return 2;
      }
    } else if (!strcmp(a, "--parallelism") && has) {
      if (!parse_count(argv[++i], &par) || par > INT32_MAX) {
        fprintf(stderr, "chive splits: bad --parallelism '%s'\n", argv[i]);
        return 2;
      }
    } else if (a[0] != '-' && name == NULL) {
      name = a;
    } else {
      fprintf(stderr, "chive splits: unexpected argument '%s'\n", a);
      splits_usage(stderr);
      return 2;
    }
  }
  if (name == NULL) {
    splits_usage(stderr);
    return 2;
  }
  char db[256] = "default";
  const char *table = name, *dot = strchr(name, '.');
  if (dot) {
    snprintf(db, sizeof db, "%.*s", (int)(dot - name), name);
    table = dot + 1;
  }

  struct chv_error err;
  chv_error_clear(&err);
  int status = 1;
  chv_config *cfg = NULL;
  chv_catalog *cat = NULL;
  chv_source *src = NULL;
  chv_arena *arena = NULL;
  int *fields = NULL, nfields = 0;
  struct chv_source_split **v = NULL;
  struct chv_split_plan *plan = NULL;
  int ns = 0;
  struct chv_table t = {0};
  struct chv_buf line, b64, bytes;
  chv_buf_init(&line);
  chv_buf_init(&b64);
  chv_buf_init(&bytes);
  int rc = chv_config_open(&cfg, &err);
  if (rc == CHV_OK) chv_config_set_warning_handler(cfg, cli_warn, NULL);
  if (rc == CHV_OK && conf) rc = chv_config_load_file(cfg, conf, &err);
  if (rc == CHV_OK) rc = cli_warehouse_open(wh, &cat, &err);
  if (rc == CHV_OK) rc = chv_catalog_get_table(cat, db, table, &t, &err);
  if (rc == CHV_OK) rc = chv_source_open(cat, db, table, NULL, 0, cfg, &src, &err);
  if (rc == CHV_OK && cols) {
    rc = field_indexes(&t, cols, &fields, &nfields);
    if (rc != CHV_OK) goto out; /* reported */
    rc = chv_source_set_projected_fields(src, fields, nfields, &err);
  }
  if (rc == CHV_OK) rc = chv_arena_open(0, &arena);
  if (rc == CHV_OK && where) {
    struct chv_part_filter *pf;
    struct chv_pred *preds;
    int np;
    rc = chv_source_filter_parse(&t, where, arena, &pf, &preds, &np, &err);
    if (rc == CHV_OK) {
      chv_source_set_partitions(src, pf);
      rc = chv_source_set_predicates(src, preds, np, &err);
    }
  }
  if (rc == CHV_OK) {
    chv_source_set_limit(src, limit);
    rc = chv_source_splits(src, (int)par, &v, &ns, &plan, &err);
  }
  for (int i = 0; rc == CHV_OK && i < ns; i++) {
    chv_buf_reset(&line);
    chv_buf_reset(&b64);
    chv_buf_reset(&bytes);
    rc = chv_source_split_serialize(v[i], &bytes, &err);
    if (rc == CHV_OK) rc = chv_base64_encode(bytes.data, bytes.len, &b64);
    if (rc != CHV_OK) break;
    chv_buf_putc(&line, '{');
    put_partition(&line, v[i]);
    chv_buf_puts(&line, ",\"path\":");
    chv_json_put_string(&line, v[i]->path);
    chv_buf_printf(&line,
                   ",\"start\":%lld,\"length\":%lld,\"file_size\":%lld,"
                   "\"split\":\"",
                   (long long)v[i]->start, (long long)v[i]->length,
                   (long long)v[i]->file_size);
    chv_buf_append(&line, b64.data, b64.len);
    chv_buf_puts(&line, "\"}\n");
    fwrite(line.data, 1, line.len, stdout);
  }
  if (rc == CHV_OK) {
    fprintf(stderr,
            "splits: %d, files: %lld, partitions: %d, split size: %lld "
            "(weighed bytes %lld, n %lld)\n",
            ns, (long long)plan->files, plan->npartitions,
            (long long)plan->max_split_bytes, (long long)plan->total_weighted,
            (long long)plan->min_splits);
    status = 0;
  } else if (rc == CHV_ENOMEM && err.msg[0] == '\0') {
    fprintf(stderr, "chive splits: out of memory\n");
  } else {
    fprintf(stderr, "chive splits: %s\n", err.msg);
  }
out:
  fflush(stdout);
  chv_buf_free(&line);
  chv_buf_free(&b64);
  chv_buf_free(&bytes);
  chv_source_splits_free(v, ns);
  chv_split_plan_free(plan);
  chv_free(fields);
  chv_arena_close(arena);
  chv_source_close(src);
  chv_table_free(&t);
  chv_catalog_close(cat);
  chv_config_close(cfg);
  return status;
}

/* ---- read-split --------------------------------------------------------- */

static void read_usage(FILE *out) {
  fprintf(out,
          "usage: chive read-split [--batch N] SPLIT...\n"
          "       chive read-split [--batch N] -   (splits from standard "
          "input)\n"
          "SPLIT is the base64 text `chive splits` printed (its \"split\"),\n"
          "or a whole JSON line of it; each split's rows are printed as\n"
          "JSON Lines.\n");
}

/* The base64 text of a split argument: the "split" member of a JSON line,
** or the text itself. */
static const char *split_text(const char *s, size_t *n) {
  const char *key = strstr(s, "\"split\":\"");
  if (key) {
    s = key + 9;
    const char *end = strchr(s, '"');
    *n = end ? (size_t)(end - s) : strlen(s);
    return s;
  }
  *n = strlen(s);
  return s;
}

static int read_one(const char *arg, int64_t batch, int index) {
  size_t n;
  const char *text = split_text(arg, &n);
  uint8_t *raw = chv_malloc(n * 3 / 4 + 3);
  if (raw == NULL) {
    fprintf(stderr, "chive read-split: out of memory\n");
    return 1;
  }
  size_t len = 0;
  if (chv_base64_is_text(text, n)) len = chv_base64_decode(text, n, raw);
  struct chv_source_split *sp = NULL;
  struct chv_error err;
  chv_error_clear(&err);
  chv_scan *sc = NULL;
  int rc = chv_source_split_deserialize(raw, len, &sp, &err);
  if (rc == CHV_OK) rc = chv_source_split_open(sp, batch, &sc, &err);
  struct chv_buf out;
  chv_buf_init(&out);
  struct chv_batch *b;
  while (rc == CHV_OK && (rc = chv_scan_next(sc, &b, &err)) == CHV_OK && b) {
    for (int64_t i = 0; i < b->nrows && rc == CHV_OK; i++) {
      chv_buf_reset(&out);
      rc = chv_jsonl_row(b, i, &out);
      if (rc == CHV_OK) fwrite(out.data, 1, out.len, stdout);
    }
  }
  if (rc != CHV_OK) {
    const char *m = err.msg[0] ? err.msg : "out of memory";
    if (!strncmp(m, "split: ", 7)) m += 7;
    fprintf(stderr, "chive read-split: split %d: %s\n", index + 1, m);
  }
  chv_buf_free(&out);
  chv_scan_close(sc);
  chv_source_split_free(sp);
  chv_free(raw);
  return rc == CHV_OK ? 0 : 1;
}

int cli_read_split(int argc, char **argv) {
  int64_t batch = 0;
  int first = 1;
  for (; first < argc && argv[first][0] == '-' && argv[first][1]; first++) {
    if (!strcmp(argv[first], "-h") || !strcmp(argv[first], "--help")) {
      read_usage(stdout);
      return 0;
    } else if (!strcmp(argv[first], "--batch") && first + 1 < argc &&
               parse_count(argv[first + 1], &batch) && batch > 0) {
      first++;
    } else {
      fprintf(stderr, "chive read-split: unexpected argument '%s'\n",
              argv[first]);
      read_usage(stderr);
      return 2;
    }
  }
  if (first == argc) {
    read_usage(stderr);
    return 2;
  }
  int status = 0, index = 0;
  for (int i = first; i < argc && status == 0; i++) {
    if (strcmp(argv[i], "-") != 0) {
      status = read_one(argv[i], batch, index++);
      continue;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    while (status == 0 && (got = getline(&line, &cap, stdin)) > 0) {
      while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
        line[--got] = '\0';
      if (got > 0) status = read_one(line, batch, index++);
    }
    free(line);
  }
  fflush(stdout);
  return status;
}
