/*
** types: folder-private declarations shared by the Arrow export
** (arrow_export.c) and the stream wrapper (arrow_stream.c).
*/
#ifndef CHV_TYPES_INT_H
#define CHV_TYPES_INT_H

#include "types/types.h"

/* Arrow unit of the TIMESTAMP nodes of one top-level column. */
enum chv_ts_unit {
  CHV_TS_NANO = 0, /* "tsn:", int64 nanoseconds */
  CHV_TS_MICRO = 1 /* "tsu:", int64 microseconds */
};

/* The unit every TIMESTAMP in v (nested ones included) fits: nanoseconds
** when all non-NULL values fit int64 ns, else microseconds. */
enum chv_ts_unit chv_types_ts_unit(const struct chv_vector *v);

/* The schema of a batch whose column i has TIMESTAMP unit units[i] (units
** may be NULL: all nanoseconds). */
int chv_types_export_batch_schema(const struct chv_type *schema,
                                  const uint8_t *units,
                                  struct ArrowSchema *out,
                                  struct chv_error *err);

/* chv_batch_export() with the units fixed by the caller (NULL: chosen from
** the data).  A value that does not fit its unit is CHV_ERANGE, naming the
** column; the batch then stays with the caller. */
int chv_types_export_batch(struct chv_batch **b, const uint8_t *units,
                           struct ArrowArray *out, struct chv_error *err);

#endif /* CHV_TYPES_INT_H */
