/*
** Checks for the programs of tests/unit/api, which see the library as a
** user does (public headers only).  Each includes this once; `failures`
** counts the failed CHECKs, and OK() stops the program at a failed library
** call, printing the message of `err` (each program's own).
*/
#ifndef CHV_API_CHECK_H
#define CHV_API_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static int failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                              \
    }                                                                          \
  } while (0)

#define OK(expr)                                                               \
  do {                                                                         \
    int rc_ = (expr);                                                          \
    if (rc_ != CHV_OK) {                                                       \
      fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__, #expr,       \
              err.msg, chv_status_name(rc_));                                  \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

#endif
