/*
** Opening a warehouse, as every command does: the embedded metastore, then
** the writes killed in it finished or undone (chv_warehouse_recover), so
** that what the command and any reader of the folders see next is whole.
*/
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int cli_warehouse_open(const char *wh, chv_catalog **out,
                       struct chv_error *err) {
  chv_catalog *cat;
  int rc = chv_catalog_open(wh, NULL, &cat, err);
  if (rc != CHV_OK) return rc;
  rc = cli_warehouse_recover(cat, err);
  if (rc != CHV_OK) {
    chv_catalog_close(cat);
    return rc;
  }
  *out = cat;
  return CHV_OK;
}

int cli_warehouse_recover(chv_catalog *cat, struct chv_error *err) {
  struct chv_recovery r;
  int rc = chv_warehouse_recover(cat, &r, err);
  if (rc != CHV_OK) return rc;
  int n = r.finished + r.undone + r.discarded;
  if (n > 0)
    fprintf(stderr,
            "chive: %s: recovered %d interrupted write%s (%d finished, %d "
            "undone, %d discarded)\n",
            chv_catalog_warehouse(cat), n, n == 1 ? "" : "s", r.finished,
            r.undone, r.discarded);
  return CHV_OK;
}

/* True when dir holds an embedded metastore. */
static bool has_metastore(const char *dir) {
  char path[4096];
  struct stat st;
  int n = snprintf(path, sizeof path, "%s/%s", dir, CHV_METASTORE_FILE);
  return n > 0 && (size_t)n < sizeof path && stat(path, &st) == 0 &&
         S_ISREG(st.st_mode);
}

int cli_recover_around(const char *path, struct chv_error *err) {
  char dir[4096];
  if (realpath(path, dir) == NULL) return CHV_OK; /* the read reports it */
  for (;;) {
    char *slash = strrchr(dir, '/');
    if (slash == NULL) return CHV_OK;
    *slash = '\0';
    const char *d = dir[0] ? dir : "/";
    if (has_metastore(d)) {
      chv_catalog *cat;
      int rc = cli_warehouse_open(d, &cat, err);
      if (rc == CHV_OK) chv_catalog_close(cat);
      return rc;
    }
    if (dir[0] == '\0') return CHV_OK;
  }
}

/* chive recover [--warehouse] DIR */
int cli_recover(int argc, char **argv) {
  const char *wh = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--warehouse") && i + 1 < argc)
      wh = argv[++i];
    else if (!strncmp(argv[i], "--warehouse=", 12))
      wh = argv[i] + 12;
    else if (argv[i][0] != '-' && wh == NULL)
      wh = argv[i];
    else {
      fprintf(stderr, "usage: chive recover [--warehouse] DIR\n");
      return 2;
    }
  }
  if (wh == NULL) {
    fprintf(stderr, "usage: chive recover [--warehouse] DIR\n");
    return 2;
  }
  if (!has_metastore(wh)) {
    fprintf(stderr, "chive recover: %s is not a warehouse (no %s in it)\n", wh,
            CHV_METASTORE_FILE);
    return 1;
  }
  struct chv_error err;
  chv_error_clear(&err);
  chv_catalog *cat;
  if (chv_catalog_open(wh, NULL, &cat, &err) != CHV_OK) {
    fprintf(stderr, "chive recover: opening the warehouse %s: %s\n", wh,
            err.msg);
    return 1;
  }
  struct chv_recovery r;
  int rc = chv_warehouse_recover(cat, &r, &err);
  if (rc == CHV_OK)
    printf("%s: %d interrupted write%s finished, %d undone, %d discarded, %d "
           "running left alone\n",
           chv_catalog_warehouse(cat), r.finished, r.finished == 1 ? "" : "s",
           r.undone, r.discarded, r.live);
  else
    fprintf(stderr, "chive recover: %s\n", err.msg);
  chv_catalog_close(cat);
  return rc == CHV_OK ? 0 : 1;
}
