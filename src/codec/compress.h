/*
** codec/compress: streaming compression.
**
** The interface is public: it is declared, with its contracts, in
** include/chive/compress.h.  This header is how the modules include it, together
** with the internal helpers of common/common.h.
*/
#ifndef CHV_CODEC_COMPRESS_H
#define CHV_CODEC_COMPRESS_H

#include "common/common.h"
#include "chive/compress.h"

#endif /* CHV_CODEC_COMPRESS_H */
