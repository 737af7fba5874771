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
*/
#ifndef CHV_FORMAT_PARQUET_H
#define CHV_FORMAT_PARQUET_H

#endif
