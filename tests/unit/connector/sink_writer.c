/*
** Helper of the sink crash test: runs writes start, start+1, ... of the
** sequence in sink_plan.h into default.t of the warehouse, printing each
** write's number once it is committed, until killed (or `count` writes).
**
**   sink_writer WAREHOUSE START COUNT
*/
#include "connector/connector.h"
#include "sink_plan.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: sink_writer WAREHOUSE START COUNT\n");
    return 2;
  }
  int start = atoi(argv[2]), count = atoi(argv[3]);
  struct chv_error err;
  chv_catalog *cat;
  if (chv_catalog_open(argv[1], NULL, &cat, &err) != CHV_OK) {
    fprintf(stderr, "sink_writer: %s\n", err.msg);
    return 1;
  }
  for (int i = start; i < start + count; i++) {
    int part, id0, n;
    bool overwrite;
    sink_plan_op(i, &part, &overwrite, &id0, &n);
    struct chv_sink_options o;
    chv_sink_options_init(&o);
    o.overwrite = overwrite;
    chv_sink *s;
    int rc = chv_sink_open(cat, "default", "t", &o, &s, &err);
    struct chv_batch *b = NULL;
    if (rc == CHV_OK) rc = chv_batch_open(chv_sink_schema(s), n, &b, &err);
    for (int r = 0; rc == CHV_OK && r < n; r++) {
      int32_t id = id0 + r;
      rc = chv_vector_append_value(b->cols[0], &id, &err);
      if (rc == CHV_OK) rc = chv_vector_append_string(b->cols[1], "x", 1, &err);
      b->nrows++;
    }
    char *values[1] = {(char *)sink_plan_parts[part]};
    if (rc == CHV_OK) rc = chv_sink_write(s, values, b, &err);
    chv_batch_close(b);
    if (rc == CHV_OK) rc = chv_sink_commit(s, &err);
    if (rc == CHV_OK) chv_sink_close(s);
    if (rc != CHV_OK) {
      fprintf(stderr, "sink_writer: write %d: %s\n", i, err.msg);
      return 1;
    }
    printf("%d\n", i);
    fflush(stdout);
  }
  chv_catalog_close(cat);
  return 0;
}
