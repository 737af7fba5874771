/*
** connector: batch sink and table scan.
**
** The interface is public: it is declared, with its contracts, in
** include/chive/connector.h.  This header is how the modules include it, together
** with the internal helpers of common/common.h.
*/
#ifndef CHV_CONNECTOR_H
#define CHV_CONNECTOR_H

#include "common/common.h"
#include "chive/connector.h"

#endif /* CHV_CONNECTOR_H */
