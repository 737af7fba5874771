/*
** config: the option registry and the layered configuration.
**
** The interface is public: it is declared, with its contracts, in
** include/chive/config.h.  This header is how the modules include it, together
** with the internal helpers of common/common.h.
*/
#ifndef CHV_CONFIG_H
#define CHV_CONFIG_H

#include "common/common.h"
#include "chive/config.h"

#endif /* CHV_CONFIG_H */
