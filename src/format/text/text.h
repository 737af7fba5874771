/*
** format/text: Hive TEXTFILE tables (LazySimpleSerDe).
**
** The interface is public: it is declared, with its contracts, in
** include/chive/text.h.  This header is how the modules include it, together
** with the internal helpers of common/common.h.
*/
#ifndef CHV_FORMAT_TEXT_H
#define CHV_FORMAT_TEXT_H

#include "common/common.h"
#include "chive/text.h"

#endif /* CHV_FORMAT_TEXT_H */
