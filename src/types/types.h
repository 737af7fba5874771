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

#endif /* CHV_TYPES_H */
