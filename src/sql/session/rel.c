/*
** sql/session/rel: relations held in memory (the rows of a multi-insert's
** sub-query source: one scan feeds every branch) and the scan multi.c
** reads through, whether its FROM names a catalog table or such a
** relation.  (A query's own sub-queries, WITH queries and UNIONs stream:
** Derived nodes of its plan, build.c.)
**
** A relation is materialized: its query runs once, into batches held in
** memory.  What it holds counts against chive.exec.operator-memory; past
** it the query fails with an error naming the relation.
**
** INTERFACE
**   sql_rel_open()/sql_rel_close()   a relation of a given STRUCT schema
**   sql_rel_append()                 copy rows of a batch into it
**   sql_scan_open()/_next()/_close() a catalog scan or a relation's rows,
**                                    projected to the scan's columns
*/
#include "sql/session/session_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define REL_BATCH_ROWS 4096

int sql_rel_open(const char *name, const char *what, struct chv_type *schema,
                 size_t memory_limit, struct sql_rel **out,
                 struct chv_error *err) {
  struct sql_rel *r = calloc(1, sizeof *r);
  if (!r) {
    chv_type_free(schema);
    return sql_err(err, CHV_ENOMEM, "out of memory");
  }
  r->schema = schema;
  r->limit = memory_limit;
  snprintf(r->what, sizeof r->what, "%s", what);
  int n = schema->nchildren;
  r->t.name = strdup(name);
  r->t.db = strdup("");
  r->t.columns = calloc((size_t)n + 1, sizeof *r->t.columns);
  if (!r->t.name || !r->t.db || !r->t.columns) goto oom;
  r->t.ncols = n;
  for (int c = 0; c < n; c++) {
    struct chv_buf tb;
    chv_buf_init(&tb);
    char *cn = strdup(schema->names[c]);
    if (!cn || chv_type_format(schema->children[c], &tb) != CHV_OK) {
      free(cn);
      chv_buf_free(&tb);
      goto oom;
    }
    for (char *p = cn; *p; p++) *p = (char)tolower((unsigned char)*p);
    r->t.columns[c].name = cn;
    r->t.columns[c].type = tb.data; /* the buffer's bytes, now owned */
  }
  *out = r;
  return CHV_OK;
oom:
  sql_rel_close(r);
  return sql_err(err, CHV_ENOMEM, "out of memory");
}

void sql_rel_close(struct sql_rel *r) {
  if (!r) return;
  for (int i = 0; i < r->nb; i++) chv_batch_close(r->b[i]);
  free(r->b);
  for (int c = 0; r->t.columns && c < r->t.ncols; c++) {
    free(r->t.columns[c].name);
    free(r->t.columns[c].type);
  }
  free(r->t.columns);
  free(r->t.name);
  free(r->t.db);
  chv_type_free(r->schema);
  free(r);
}

int sql_rel_rename(struct sql_rel *r, int c, const char *name,
                   struct chv_error *err) {
  char *tn = strdup(name), *sn = chv_strdup(name);
  if (!tn || !sn) {
    free(tn);
    chv_free(sn);
    return sql_err(err, CHV_ENOMEM, "out of memory");
  }
  for (char *p = tn; *p; p++) *p = (char)tolower((unsigned char)*p);
  free(r->t.columns[c].name);
  r->t.columns[c].name = tn;
  chv_free(r->schema->names[c]);
  r->schema->names[c] = sn;
  return CHV_OK;
}


int sql_rel_append(struct sql_rel *r, const struct chv_batch *b, int64_t n,
                   struct chv_error *err) {
  int rc = CHV_OK;
  for (int64_t row = 0; row < n && rc == CHV_OK; row++) {
    struct chv_batch *last = r->nb ? r->b[r->nb - 1] : NULL;
    if (!last || last->nrows == REL_BATCH_ROWS) {
      if (last)
        for (int c = 0; c < last->ncols; c++)
          r->bytes += sql_vector_bytes(last->cols[c]);
      if (r->bytes > r->limit)
        return sql_err(err, CHV_ENOMEM,
                       "%s: more than its memory limit of %zu bytes to hold "
                       "its rows (%zu bytes for %lld rows; see "
                       "chive.exec.operator-memory)",
                       r->what, r->limit, r->bytes, (long long)r->nrows);
      if (r->nb == r->capb) {
        int cap = r->capb ? 2 * r->capb : 8;
        struct chv_batch **nb = realloc(r->b, sizeof *nb * (size_t)cap);
        if (!nb) return sql_err(err, CHV_ENOMEM, "out of memory");
        r->b = nb;
        r->capb = cap;
      }
      rc = chv_batch_open(r->schema, REL_BATCH_ROWS, &last, err);
      if (rc != CHV_OK) return rc;
      r->b[r->nb++] = last;
    }
    for (int c = 0; c < last->ncols && rc == CHV_OK; c++)
      rc = chv_vector_append_from(last->cols[c], b->cols[c], row, err);
    if (rc == CHV_OK) last->nrows++, r->nrows++;
  }
  return rc;
}

/* ---- the scan both paths read -------------------------------------------------- */

struct sql_scan {
  chv_scan *scan;             /* a catalog table's, or NULL */
  const struct sql_rel *rel;  /* or the relation's rows */
  int next;                   /* the relation's next batch */
  int64_t left;               /* rows the limit still allows; < 0: any */
  int *map;                   /* scan column -> relation column */
  struct chv_batch view;      /* the relation's batch, projected */
  /* the scan's stage, run here on the relation as one split */
  const struct chv_scan_hook *hook;
  void *hstate;
  struct chv_batch *hlent;    /* the batch it gave last */
  bool hended;
};

int sql_scan_open(chv_catalog *cat, const struct chv_table *t,
                  const struct sql_rel *rel, const struct chv_scan_options *so,
                  struct sql_scan **out, struct chv_error *err) {
  struct sql_scan *sc = calloc(1, sizeof *sc);
  if (!sc) return sql_err(err, CHV_ENOMEM, "out of memory");
  if (!rel) {
    int rc = chv_scan_open(cat, t->db, t->name, so, &sc->scan, err);
    if (rc != CHV_OK) {
      free(sc);
      return rc;
    }
    *out = sc;
    return CHV_OK;
  }
  int n = so->columns ? so->ncolumns : rel->t.ncols;
  sc->rel = rel;
  sc->left = so->limit;
  sc->hook = so->hook;
  sc->map = calloc((size_t)n + 1, sizeof *sc->map);
  sc->view.cols = calloc((size_t)n + 1, sizeof *sc->view.cols);
  if (!sc->map || !sc->view.cols) {
    sql_scan_close(sc);
    return sql_err(err, CHV_ENOMEM, "out of memory");
  }
  for (int c = 0; c < n; c++) {
    int k = c;
    if (so->columns) {
      for (k = 0; k < rel->t.ncols; k++)
        if (!strcasecmp(rel->t.columns[k].name, so->columns[c])) break;
      if (k == rel->t.ncols) {
        sql_scan_close(sc);
        return sql_err(err, CHV_ENOENT, "column '%s' does not exist in %s",
                       so->columns[c], rel->what);
      }
    }
    sc->map[c] = k;
  }
  sc->view.ncols = n;
  *out = sc;
  return CHV_OK;
}

const struct chv_type *sql_scan_type(struct sql_scan *sc, int i) {
  if (sc->scan) return chv_scan_schema(sc->scan)->children[i];
  return sc->rel->schema->children[sc->map[i]];
}

static int rel_next(struct sql_scan *sc, struct chv_batch **out) {
  const struct sql_rel *r = sc->rel;
  if (sc->next == r->nb || sc->left == 0) {
    *out = NULL;
    return CHV_OK;
  }
  const struct chv_batch *b = r->b[sc->next++];
  for (int c = 0; c < sc->view.ncols; c++) sc->view.cols[c] = b->cols[sc->map[c]];
  sc->view.nrows = b->nrows;
  if (sc->left > 0 && sc->view.nrows > sc->left) sc->view.nrows = sc->left;
  if (sc->left > 0) sc->left -= sc->view.nrows;
  *out = &sc->view;
  return CHV_OK;
}

int sql_scan_next(struct sql_scan *sc, struct chv_batch **out,
                  struct chv_error *err) {
  if (sc->scan) return chv_scan_next(sc->scan, out, err);
  if (!sc->hook) return rel_next(sc, out);
  *out = NULL;
  chv_batch_close(sc->hlent);
  sc->hlent = NULL;
  while (!sc->hended) {
    struct chv_batch *b, *hb = NULL;
    rel_next(sc, &b);
    if (!b) {
      sc->hended = true;
      void *state = sc->hstate;
      sc->hstate = NULL;
      return sc->hook->done(sc->hook->ctx, state, true, err);
    }
    int rc = sc->hook->batch(sc->hook->ctx, &sc->hstate, b, &hb, err);
    if (rc != CHV_OK) return rc;
    if (hb) {
      *out = sc->hlent = hb;
      return CHV_OK;
    }
  }
  return CHV_OK;
}

chv_scan *sql_scan_table(struct sql_scan *sc) { return sc ? sc->scan : NULL; }

const char *sql_table_what(const struct chv_table *t, char *buf, size_t n) {
  if (t->db && !t->db[0]) /* a relation's: t is its first member */
    return ((const struct sql_rel *)(const void *)t)->what;
  snprintf(buf, n, "%s.%s", t->db ? t->db : "", t->name ? t->name : "");
  return buf;
}

const char *sql_scan_what(struct sql_scan *sc) {
  return sc && sc->rel ? sc->rel->what : "";
}

void sql_scan_close(struct sql_scan *sc) {
  if (!sc) return;
  chv_scan_close(sc->scan);
  if (sc->hook && !sc->scan && !sc->hended) {
    struct chv_error e;
    sc->hook->done(sc->hook->ctx, sc->hstate, false, &e);
  }
  chv_batch_close(sc->hlent);
  free(sc->map);
  free(sc->view.cols);
  free(sc);
}
