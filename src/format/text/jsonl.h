/*
** format/text/jsonl: JSON Lines printing of batches.
**
** The interface is public: it is declared, with its contracts, in
** include/chive/jsonl.h.  This header is how the modules include it, together
** with the internal helpers of common/common.h.
*/
#ifndef CHV_FORMAT_TEXT_JSONL_H
#define CHV_FORMAT_TEXT_JSONL_H

#include "common/common.h"
#include "chive/jsonl.h"

#endif /* CHV_FORMAT_TEXT_JSONL_H */
