/*
** format/orc: the ORC file format, read and written natively from the
** apache/orc-format specification (docs/orc.md).
**
** Files of this folder:
**   orc_int.h       folder-private structs (tail model, stripe footers,
**                   indexes, compression, streams, Hive mapping)
**   orc_meta.c      PostScript, Footer, Metadata, StripeFooter, RowIndex,
**                   BloomFilterIndex <-> protobuf; the tail and its checks
**   orc_compress.c  the chunk framing, codecs, the stream reader and writer
**   orc_rle.h/.c    byte, boolean and integer (v1, v2) run-length
**                   encodings; decimal and nanosecond varints
**   orc_schema.c    ORC types -> Hive types; ORC's type spelling
*/
#ifndef CHV_FORMAT_ORC_H
#define CHV_FORMAT_ORC_H

#endif
