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

#endif /* CHV_TYPES_H */
