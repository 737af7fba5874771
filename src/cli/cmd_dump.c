/*
** chive dump: print a data file's rows as JSON Lines (chive/jsonl.h).
**
**   chive dump [--schema 'a int, b map<string,int>'] [--serde-param k=v]...
**              [--columns a,b] [--limit N] FILE
**
** Text files (anything that is not Parquet or ORC by its magic bytes) need
** --schema, their columns in file order; --serde-param sets LazySimpleSerDe
** parameters (field.delim=|, serialization.null.format=NULL, ...).  Fields
** that did not parse are reported on stderr once, after the rows.  Parquet
** files (magic "PAR1") print their own columns; a --schema given for one is
** a table schema its columns are read as (by name, missing ones NULL).
** ORC files (magic "ORC" at offset 0, or an empty file named *.orc) print
** their own columns likewise; a --schema is a table schema read as Hive
** reads one (by position when the file's names are _col0, _col1, ...).
** Exit status: 0 done, 1 the file could not be read, 2 usage error.
*/
#include "cli.h"

#include "chive/jsonl.h"
#include "chive/orc.h"
#include "chive/parquet.h"
#include "chive/text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS 64

static void dump_usage(FILE *out) {
  fprintf(out,
          "usage: chive dump [--schema COLUMNS] [--serde-param KEY=VALUE]...\n"
          "                  [--columns A,B] [--limit N] FILE\n"
          "  --schema       the columns of a text file, in order:\n"
          "                 'a int, b map<string,int>' (required for text)\n"
          "  --serde-param  a LazySimpleSerDe parameter (field.delim=|)\n"
          "  --columns      print only these columns, in this order\n"
          "  --limit        print at most N rows\n");
}

/* Value of "--name VALUE" or "--name=VALUE" at argv[*i], else NULL. */
static const char *opt_value(int argc, char **argv, int *i, const char *name,
                             bool *missing) {
  size_t n = strlen(name);
  const char *a = argv[*i];
  if (strncmp(a, name, n) != 0) return NULL;
  if (a[n] == '=') return a + n + 1;
  if (a[n] != '\0') return NULL;
  if (*i + 1 >= argc) {
    *missing = true;
    return NULL;
  }
  return argv[++*i];
}

static int usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "chive dump: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n");
  dump_usage(stderr);
  return 2;
}

/* "a,b" -> column indexes of schema; returns count or -1 (message printed). */
static int parse_columns(const char *list, const struct chv_type *schema,
                         int **out) {
  int cap = 8, n = 0;
  int *cols = malloc(sizeof(int) * (size_t)cap);
  char *copy = strdup(list);
  if (cols == NULL || copy == NULL) {
    free(cols);
    free(copy);
    fprintf(stderr, "chive dump: out of memory\n");
    return -1;
  }
  char *save = NULL;
  for (char *tok = strtok_r(copy, ",", &save); tok;
       tok = strtok_r(NULL, ",", &save)) {
    tok = cli_trim(tok);
    int idx = chv_type_field_index(schema, tok);
    if (idx < 0) {
      fprintf(stderr, "chive dump: --columns: no column '%s' in the schema\n",
              tok);
      free(cols);
      free(copy);
      return -1;
    }
    for (int k = 0; k < n; k++)
      if (cols[k] == idx) {
        fprintf(stderr, "chive dump: --columns: '%s' given twice\n", tok);
        free(cols);
        free(copy);
        return -1;
      }
    if (n == cap) {
      int *p = realloc(cols, sizeof(int) * (size_t)(cap *= 2));
      if (p == NULL) {
        free(cols);
        free(copy);
        return -1;
      }
      cols = p;
    }
    cols[n++] = idx;
  }
  free(copy);
  *out = cols;
  return n;
}

static int flush_out(struct chv_buf *b) {
  if (b->len && fwrite(b->data, 1, b->len, stdout) != b->len) return -1;
  chv_buf_reset(b);
  return 0;
}

static int dump_text(const char *path, const struct chv_type *schema,
                     struct chv_text_options *o, long long limit) {
  struct chv_error err;
  const struct chv_fs *fs;
  const char *inner;
  chv_text_reader *r = NULL;
  struct chv_batch *batch = NULL;
  struct chv_buf out;
  chv_buf_init(&out);
  int status = 1;
  if (chv_fs_for_path(path, &fs, &inner, &err) != CHV_OK ||
      chv_text_reader_open(fs, inner, schema, o, &r, &err) != CHV_OK ||
      chv_batch_open(chv_text_reader_schema(r), 1024, &batch, &err) !=
          CHV_OK) {
    fprintf(stderr, "chive dump: %s\n", err.msg);
    goto out_close;
  }
  long long printed = 0;
  while (limit < 0 || printed < limit) {
    int64_t n;
    if (chv_text_reader_next(r, batch, &n, &err) != CHV_OK) {
      flush_out(&out);
      fflush(stdout);
      fprintf(stderr, "chive dump: %s\n", err.msg);
      goto out_close;
    }
    if (n == 0) break;
    for (int64_t i = 0; i < n && (limit < 0 || printed < limit); i++) {
      if (chv_jsonl_row(batch, i, &out) != CHV_OK) {
        fprintf(stderr, "chive dump: out of memory\n");
        goto out_close;
      }
      printed++;
      if (out.len >= (1 << 16) && flush_out(&out) != 0) {
        fprintf(stderr, "chive dump: writing output: %s\n", strerror(errno));
        goto out_close;
      }
    }
  }
  if (flush_out(&out) != 0 || fflush(stdout) != 0) {
    fprintf(stderr, "chive dump: writing output: %s\n", strerror(errno));
    goto out_close;
  }
  struct chv_text_stats st;
  chv_text_reader_stats(r, &st);
  if (st.malformed > 0) {
    int c = st.first_malformed_column;
    fprintf(stderr,
            "chive dump: %s: %lld field(s) of the %lld rows read did not "
            "parse and were read as NULL (first: line %lld column '%s')\n",
            path, (long long)st.malformed, (long long)st.rows,
            (long long)st.first_malformed_line,
            c >= 0 ? schema->names[c] : "?");
  }
  status = 0;
out_close:
  chv_buf_free(&out);
  chv_batch_close(batch);
  chv_text_reader_close(r);
  return status;
}

/* A Parquet or an ORC reader, whichever the file is. */
struct columnar {
  bool orc;
  chv_pq_reader *pq;
  chv_orc_reader *oc;
};

static int columnar_open(struct columnar *c, const struct chv_fs *fs,
                         const char *path, const struct chv_type *schema,
                         const char *const *names, int n,
                         struct chv_error *err) {
  if (c->orc) {
    struct chv_orc_read_options o;
    chv_orc_read_options_init(&o);
    o.table_schema = schema;
    o.columns = names;
    o.ncolumns = n;
    return chv_orc_reader_open(fs, path, &o, &c->oc, err);
  }
  struct chv_pq_read_options o;
  chv_pq_read_options_init(&o);
  o.table_schema = schema;
  o.columns = names;
  o.ncolumns = n;
  return chv_pq_reader_open(fs, path, &o, &c->pq, err);
}

static const struct chv_type *columnar_schema(const struct columnar *c) {
  return c->orc ? chv_orc_reader_schema(c->oc) : chv_pq_reader_schema(c->pq);
}

static int columnar_next(struct columnar *c, struct chv_batch *b, int64_t *n,
                         struct chv_error *err) {
  return c->orc ? chv_orc_reader_next(c->oc, b, n, err)
                : chv_pq_reader_next(c->pq, b, n, err);
}

static void columnar_close(struct columnar *c) {
  chv_orc_reader_close(c->oc);
  chv_pq_reader_close(c->pq);
}

/* Print a Parquet or ORC file's rows: its own columns, or those of
** `schema` read from it; `columns` a comma-separated projection (NULL:
** all). */
static int dump_columnar(const char *path, bool orc,
                         const struct chv_type *schema, const char *columns,
                         long long limit) {
  struct chv_error err;
  const struct chv_fs *fs;
  const char *inner;
  struct columnar r = {.orc = orc};
  struct chv_batch *batch = NULL;
  struct chv_buf out;
  chv_buf_init(&out);
  int status = 1;
  char *copy = NULL;
  const char **names = NULL;
  int ncolumns = 0;
  if (columns) {
    copy = strdup(columns);
    names = calloc(strlen(columns) + 1, sizeof *names);
    if (copy == NULL || names == NULL) {
      fprintf(stderr, "chive dump: out of memory\n");
      goto out_close;
    }
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save))
      names[ncolumns++] = cli_trim(tok);
  }
  if (chv_fs_for_path(path, &fs, &inner, &err) != CHV_OK ||
      columnar_open(&r, fs, inner, schema, names, ncolumns, &err) != CHV_OK ||
      chv_batch_open(columnar_schema(&r), 1024, &batch, &err) != CHV_OK) {
    fprintf(stderr, "chive dump: %s\n", err.msg);
    goto out_close;
  }
  long long printed = 0;
  while (limit < 0 || printed < limit) {
    int64_t n;
    if (columnar_next(&r, batch, &n, &err) != CHV_OK) {
      flush_out(&out);
      fflush(stdout);
      fprintf(stderr, "chive dump: %s\n", err.msg);
      goto out_close;
    }
    if (n == 0) break;
    for (int64_t i = 0; i < n && (limit < 0 || printed < limit); i++) {
      if (chv_jsonl_row(batch, i, &out) != CHV_OK) {
        fprintf(stderr, "chive dump: out of memory\n");
        goto out_close;
      }
      printed++;
      if (out.len >= (1 << 16) && flush_out(&out) != 0) {
        fprintf(stderr, "chive dump: writing output: %s\n", strerror(errno));
        goto out_close;
      }
    }
  }
  if (flush_out(&out) != 0 || fflush(stdout) != 0) {
    fprintf(stderr, "chive dump: writing output: %s\n", strerror(errno));
    goto out_close;
  }
  status = 0;
out_close:
  chv_buf_free(&out);
  chv_batch_close(batch);
  columnar_close(&r);
  free(names);
  free(copy);
  return status;
}

int cli_dump(int argc, char **argv) {
  const char *schema_text = NULL, *columns = NULL, *file = NULL;
  long long limit = -1;
  struct chv_text_param params[MAX_PARAMS];
  size_t nparams = 0;
  for (int i = 1; i < argc; i++) {
    bool missing = false;
    const char *v;
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      dump_usage(stdout);
      return 0;
    } else if ((v = opt_value(argc, argv, &i, "--schema", &missing))) {
      schema_text = v;
    } else if ((v = opt_value(argc, argv, &i, "--columns", &missing))) {
      columns = v;
    } else if ((v = opt_value(argc, argv, &i, "--limit", &missing))) {
      char *end;
      errno = 0;
      limit = strtoll(v, &end, 10);
      if (*v == '\0' || *end != '\0' || errno || limit < 0)
        return usage_error("--limit needs a count of rows, not '%s'", v);
    } else if ((v = opt_value(argc, argv, &i, "--serde-param", &missing))) {
      const char *eq = strchr(v, '=');
      if (eq == NULL || eq == v)
        return usage_error("--serde-param needs KEY=VALUE, not '%s'", v);
      if (nparams == MAX_PARAMS)
        return usage_error("too many --serde-param options%s", "");
      /* Split in place: argv strings are writable. */
      char *key = (char *)v;
      key[eq - v] = '\0';
      params[nparams].key = key;
      params[nparams].value = eq + 1;
      nparams++;
    } else if (missing) {
      return usage_error("%s needs a value", argv[i]);
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      return usage_error("unknown option '%s'", argv[i]);
    } else if (file == NULL) {
      file = argv[i];
    } else {
      return usage_error("more than one file given ('%s')", argv[i]);
    }
  }
  if (file == NULL) return usage_error("no file given%s", "");

  /* A file of a warehouse's table is read once what writers killed there
  ** left is finished or undone. */
  struct chv_error err;
  chv_error_clear(&err);
  if (cli_recover_around(file, &err) != CHV_OK) {
    fprintf(stderr, "chive dump: %s\n", err.msg);
    return 1;
  }

  /* Parquet and ORC files are recognised by their magic bytes. */
  const struct chv_fs *fs;
  const char *inner;
  struct chv_file *fp;
  char magic[4] = {0};
  size_t got = 0;
  if (chv_fs_for_path(file, &fs, &inner, &err) != CHV_OK ||
      fs->open(fs, inner, &fp, &err) != CHV_OK) {
    fprintf(stderr, "chive dump: %s\n", err.msg);
    return 1;
  }
  int rc = fs->pread(fp, magic, 4, 0, &got, &err);
  chv_file_close(fp);
  if (rc != CHV_OK) {
    fprintf(stderr, "chive dump: %s\n", err.msg);
    return 1;
  }
  if (got == 4 && !memcmp(magic, "PAR1", 4)) {
    struct chv_type *ts = NULL;
    if (schema_text && chv_type_parse_columns(schema_text, &ts, &err) != CHV_OK)
      return usage_error("--schema: %s", err.msg);
    int status = dump_columnar(file, false, ts, columns, limit);
    chv_type_free(ts);
    return status;
  }
  size_t flen = strlen(file);
  if ((got >= 3 && !memcmp(magic, "ORC", 3)) ||
      (got == 0 && flen > 4 && !strcmp(file + flen - 4, ".orc"))) {
    struct chv_type *ts = NULL;
    if (schema_text && chv_type_parse_columns(schema_text, &ts, &err) != CHV_OK)
      return usage_error("--schema: %s", err.msg);
    int status = dump_columnar(file, true, ts, columns, limit);
    chv_type_free(ts);
    return status;
  }

  if (schema_text == NULL)
    return usage_error("%s looks like a text file: give its columns with "
                       "--schema 'a int, b string'",
                       file);
  struct chv_type *schema;
  if (chv_type_parse_columns(schema_text, &schema, &err) != CHV_OK)
    return usage_error("--schema: %s", err.msg);
  struct chv_text_options o;
  if (chv_text_options_from_serde(&o, params, nparams, &err) != CHV_OK) {
    chv_type_free(schema);
    return usage_error("--serde-param: %s", err.msg);
  }
  int *cols = NULL;
  if (columns) {
    int n = parse_columns(columns, schema, &cols);
    if (n < 0) {
      chv_type_free(schema);
      return 2;
    }
    o.columns = cols;
    o.ncolumns = n;
  }
  int status = dump_text(file, schema, &o, limit);
  free(cols);
  chv_type_free(schema);
  return status;
}
