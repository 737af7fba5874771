/*
** catalog: Hive's metadata model and the embedded metastore.
**
** The interface is public: it is declared, with its contracts, in
** include/chive/catalog.h.  This header is how the modules include it, together
** with the internal helpers of common/common.h.
*/
#ifndef CHV_CATALOG_H
#define CHV_CATALOG_H

#include "common/common.h"
#include "chive/catalog.h"

#endif /* CHV_CATALOG_H */
