/*
** fs: the file-system interface.
**
** The interface is public: it is declared, with its contracts, in
** include/chive/fs.h.  This header is how the modules include it, together
** with the internal helpers of common/common.h.
*/
#ifndef CHV_FS_H
#define CHV_FS_H

#include "common/common.h"
#include "chive/fs.h"

#endif /* CHV_FS_H */
