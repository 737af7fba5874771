/*
** catalog_writer: a helper process for test_catalog_crash.  Adds batches of
** partitions to default.k (partition keys batch int, idx int) of a
** warehouse, one chv_catalog_add_partitions call (one transaction) per
** batch, until it has added the number asked for or is killed.
**
**   catalog_writer <warehouse> <first batch> <batches, 0 = forever> <size>
**
** Before each batch it writes "start <b>\n" to stdout, after its commit
** "done <b>\n" (unbuffered), so the test can tell a kill inside a batch
** from one between batches.
*/
#include "catalog/catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void say(const char *what, long b) {
  char line[64];
  int n = snprintf(line, sizeof line, "%s %ld\n", what, b);
  if (write(1, line, (size_t)n) != n) _exit(3);
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s <warehouse> <first> <batches> <size>\n",
            argv[0]);
    return 2;
  }
  long first = atol(argv[2]), count = atol(argv[3]);
  int size = atoi(argv[4]);
  struct chv_error err;
  chv_catalog *c;
  if (chv_catalog_open(argv[1], NULL, &c, &err) != CHV_OK) {
    fprintf(stderr, "catalog_writer: %s\n", err.msg);
    return 1;
  }
  struct chv_partition *ps = calloc((size_t)size, sizeof *ps);
  char(*vals)[2][24] = calloc((size_t)size, sizeof *vals);
  char *(*vp)[2] = calloc((size_t)size, sizeof *vp);
  struct chv_kv *kv = calloc((size_t)size, sizeof *kv);
  if (!ps || !vals || !vp || !kv) return 1;
  for (long b = first; count == 0 || b < first + count; b++) {
    for (int i = 0; i < size; i++) {
      snprintf(vals[i][0], sizeof vals[i][0], "%ld", b);
      snprintf(vals[i][1], sizeof vals[i][1], "%d", i);
      vp[i][0] = vals[i][0];
      vp[i][1] = vals[i][1];
      kv[i].key = "batch";
      kv[i].value = vals[i][0];
      ps[i].values = vp[i];
      ps[i].nvalues = 2;
      ps[i].params = &kv[i];
      ps[i].nparams = 1;
    }
    say("start", b);
    if (chv_catalog_add_partitions(c, NULL, "k", ps, size, 0, &err) !=
        CHV_OK) {
      fprintf(stderr, "catalog_writer: batch %ld: %s\n", b, err.msg);
      return 1;
    }
    say("done", b);
  }
  free(ps);
  free(vals);
  free(vp);
  free(kv);
  chv_catalog_close(c);
  return 0;
}
