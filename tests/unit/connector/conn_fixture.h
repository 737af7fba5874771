/*
** Fixtures shared by the connector tests: a table default.t (id int, name
** string), partitioned by dt of the given type (NULL: unpartitioned), and
** a write of ids id0 .. id0+n-1 into one partition through the sink.
*/
#ifndef CHV_TEST_CONN_FIXTURE_H
#define CHV_TEST_CONN_FIXTURE_H

#include "connector/connector.h"

#include <stdio.h>

static inline chv_catalog *open_table(const char *wh, const char *pkey_type,
                               struct chv_error *err) {
  chv_catalog *cat = NULL;
  if (chv_catalog_open(wh, NULL, &cat, err) != CHV_OK) return NULL;
  struct chv_column cols[] = {{"id", "int", NULL}, {"name", "string", NULL}};
  struct chv_column pkeys[] = {{"dt", (char *)pkey_type, NULL}};
  struct chv_table t = {.db = "default", .name = "t", .columns = cols,
                        .ncols = 2, .pkeys = pkeys,
                        .npkeys = pkey_type ? 1 : 0,
                        .type = CHV_MANAGED_TABLE};
  if (chv_catalog_create_table(cat, &t, 0, err) != CHV_OK) {
    chv_catalog_close(cat);
    return NULL;
  }
  return cat;
}

/* Write rows id0..id0+n-1 into partition dt (NULL: unpartitioned). */
static inline int write_rows(chv_catalog *cat, const char *dt, int id0, int n,
                      bool overwrite, bool commit, struct chv_error *err) {
  struct chv_sink_options o;
  chv_sink_options_init(&o);
  o.overwrite = overwrite;
  chv_sink *s;
  int rc = chv_sink_open(cat, "default", "t", &o, &s, err);
  if (rc != CHV_OK) return rc;
  struct chv_batch *b = NULL;
  rc = chv_batch_open(chv_sink_schema(s), n, &b, err);
  for (int i = 0; rc == CHV_OK && i < n; i++) {
    int32_t id = id0 + i;
    char name[32];
    snprintf(name, sizeof name, "row%d", id);
    rc = chv_vector_append_value(b->cols[0], &id, err);
    if (rc == CHV_OK)
      rc = chv_vector_append_string(b->cols[1], name, strlen(name), err);
    b->nrows++;
  }
  char *values[1] = {(char *)dt};
  if (rc == CHV_OK) rc = chv_sink_write(s, dt ? values : NULL, b, err);
  chv_batch_close(b);
  if (rc == CHV_OK && commit) rc = chv_sink_commit(s, err);
  chv_sink_close(s);
  return rc;
}

#endif
