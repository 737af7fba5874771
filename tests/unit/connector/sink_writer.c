/*
** Helper of the sink crash test: runs writes start, start+1, ... of the
** sequence in sink_plan.h into default.t of the warehouse, printing each
** write's number once it is committed, until killed (or `count` writes).
**
**   sink_writer WAREHOUSE START COUNT
*/
#include "connector/connector.h"
#include "conn_fixture.h"
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
    int rc = write_rows(cat, sink_plan_parts[part], id0, n, overwrite, true,
                        &err);
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
