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
**   orc_writer.c    the file writer: options, types, stripes, the tail
**   orc_wcolumn.c   column writers: values into streams, statistics,
**                   bloom filters, string dictionaries, row index positions
**   orc_write.h     the column writers' shared structs
**   orc_read.h      the reader's internals (chive/orc.h's reader):
**     orc_reader.c  open, table mapping, stripes, row groups, batches
**     orc_column.c  one column's streams decoded into vectors
**     orc_pred.c    predicates against statistics and bloom filters
**     orc_tz.c      writer time zones of TIMESTAMP columns (TZif files)
**     orc_bloom.c   ORC's bloom filter hashes
*/
#ifndef CHV_FORMAT_ORC_H
#define CHV_FORMAT_ORC_H

#endif
