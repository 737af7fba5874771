/*
** types: Hive types, column vectors and batches, Arrow export.
**
** The interface is public: it is declared, with its contracts, in
** include/chive/types.h.  This header is how the modules include it, together
** with the internal helpers of common/common.h.
*/
#ifndef CHV_TYPES_H
#define CHV_TYPES_H

#include "common/common.h"
#include "chive/types.h"

/* A decimal literal ([+-]digits[.digits], blanks around, no exponent) that
** `scale` holds exactly (no non-zero digit past it): its unscaled value in
** *out.  false otherwise, or when it does not fit 38 digits.  For literals
** of pushed predicates, which must not be rounded before they are compared
** with statistics. */
bool chv_decimal_parse_exact(const char *s, int scale, chv_i128 *out);

/* 10^k for k in 0..38, from a table (decimal kernels call it per value). */
extern const chv_i128 chv_decimal_pow10_table[39];
static inline chv_i128 chv_decimal_pow10(int k) {
  return chv_decimal_pow10_table[k];
}

/* Whether a file's values of primitive type f read as the table's type t
** under Hive's schema evolution: integers to wider integers, to float,
** double and decimals that hold their digits; float to double; decimals to
** decimals with as many integer and fraction digits or more; string,
** varchar, char and binary among themselves. */
bool chv_type_widens(const struct chv_type *f, const struct chv_type *t);
/* CHV_ETYPE "path: column name: the file's f cannot be read as the table's
** t" in err. */
int chv_type_widen_error(const char *path, const char *name,
                         const struct chv_type *f, const struct chv_type *t,
                         struct chv_error *err);

/* The bytes the rows in use of v take (values, offsets, validity, string
** heap, children; not the capacity beyond them): what an operator holding
** vectors counts against its memory bound. */
size_t chv_vector_bytes(const struct chv_vector *v);
/* chv_vector_bytes() of each column of b. */
size_t chv_batch_bytes(const struct chv_batch *b);

#endif /* CHV_TYPES_H */
