/*
** The sequence of writes the sink crash test runs: write i goes into one of
** three partitions, every fourth is an INSERT OVERWRITE, and its rows carry
** ids i*100 .. i*100+n-1 so that every write changes what the table holds.
*/
#ifndef CHV_TEST_SINK_PLAN_H
#define CHV_TEST_SINK_PLAN_H

#include <stdbool.h>

static const char *const sink_plan_parts[3] = {"a", "b", "c"};

static inline void sink_plan_op(int i, int *part, bool *overwrite, int *id0,
                                int *nrows) {
  *overwrite = i % 4 == 3;
  *part = *overwrite ? (i / 4) % 3 : i % 3;
  *id0 = i * 100;
  *nrows = 1 + i % 5;
}

#endif
