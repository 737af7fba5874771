/*
** format/parquet: the Parquet file format, read and written natively from
** the apache/parquet-format specification.
**
** Files of this folder:
**   pq_int.h        folder-private structs (footer model, page headers,
**                   schema tree, Hive mapping)
**   pq_meta.c       FileMetaData, PageHeader and friends <-> Thrift compact
**   pq_schema.c     the schema tree with levels; Parquet -> Hive types
**   pq_encoding.c   RLE/bit-packed hybrid, DELTA_*, BYTE_STREAM_SPLIT
**   pq_read.h       reader internals: the reader, column chunk readers,
**                   the produced value tree
**   pq_reader.c     chv_pq_reader: open, table mapping, predicates, batches
**   pq_column.c     one column chunk: pages, CRC, levels, values
**   pq_values.c     stored values -> vector values, dictionaries, NULLs
**   pq_assemble.c   levels -> ARRAY, MAP and STRUCT vectors
**   pq_write.h      writer internals: the column chunk writer
**   pq_writer.c     chv_pq_writer: options, Hive -> Parquet schema, row
**                   groups, footer
**   pq_wcolumn.c    one column chunk: levels, values, dictionary,
**                   statistics, pages
*/
#ifndef CHV_FORMAT_PARQUET_H
#define CHV_FORMAT_PARQUET_H

#endif
