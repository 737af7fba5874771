/*
** format/parquet private model: the Parquet footer (FileMetaData), page
** headers and the page index as C structs, read and written with the
** Thrift compact codec (codec/thrift.h); the schema tree with definition and
** repetition levels; and the mapping of a Parquet schema to Hive types.
** Field names and numbers follow apache/parquet-format parquet.thrift.
**
** Representation.
**   - Thrift enums from the file are kept as int32_t raw values, compared
**     with the CHV_PQ_* constants below: a value this code does not know
**     (a future encoding or codec) is data, not an error, until something
**     needs to understand it.  The footer checks the ones it must
**     understand: physical types and repetitions.
**   - An optional scalar field has a `has_<field>` flag; an optional struct
**     is a pointer, NULL when absent, or an inline struct with a `has_`
**     flag where it sits in a page header (no allocation there).
**   - Strings are NUL-terminated; binaries are struct chv_pq_bytes.
**   - A decoded footer lives in one arena: chv_pq_file_meta_close() frees
**     it all.  Page headers allocate nothing: their statistics point into
**     the bytes they were parsed from.
**   - Unknown fields of every struct are skipped (forward compatibility);
**     a LogicalType union member this code does not know is kept as
**     CHV_PQ_LT_FUTURE with its field id, not an error.
**
** Validation (chv_pq_footer_parse/_read/chv_pq_file_meta_decode): required
** fields present; the schema is a tree (each group's num_children elements
** follow it, nothing is left over, depth at most CHV_PQ_MAX_DEPTH); leaves
** have a known physical type (FIXED_LEN_BYTE_ARRAY a positive type_length),
** non-root elements a repetition; each row group has one column chunk per
** leaf whose path_in_schema and type match that leaf; row and value counts,
** sizes and offsets are non-negative and the byte ranges they describe lie
** inside the file's data (before the footer).  Page headers: sizes and
** counts non-negative, the sub-header of their type present, v2 level
** lengths inside the page.
**
** Errors name the file (the caller's path) and what is wrong:
**   "x.parquet: footer length 123456 exceeds file size 400"
**   "x.parquet: row group 0, column a.b: data_page_offset 9000 is past the
**    data (footer at 812)"
** Status CHV_ECORRUPT for malformed bytes, CHV_ENOTSUP for what is valid
** Parquet but not read here (encryption, VECTOR repetition, decimals beyond
** Hive's 38 digits), CHV_ENOMEM.
**
** INTERFACE
**   chv_pq_footer_parse()          whole file in memory -> FileMetaData
**   chv_pq_footer_read()           tail of an open file -> FileMetaData
**   chv_pq_file_meta_decode()      FileMetaData bytes -> struct, validated
**   chv_pq_file_meta_close()
**   chv_pq_chunk_range()           where a column chunk's pages are
**   chv_pq_file_meta_write()       struct -> FileMetaData bytes
**   chv_pq_footer_write()          ... followed by length and "PAR1"
**   chv_pq_page_header_parse()/_write()
**   chv_pq_offset_index_parse()/_write(), chv_pq_column_index_parse()/_write()
**   chv_pq_node_path()             "a.list.element", for messages
**   chv_pq_hive_schema_open()/_close()   Parquet schema -> Hive STRUCT type
**   chv_pq_*_name()                enum value names
**
** Thread safety: a decoded footer and a Hive schema are immutable and may be
** shared read-only between threads; everything else belongs to its caller.
*/
#ifndef CHV_FORMAT_PARQUET_INT_H
#define CHV_FORMAT_PARQUET_INT_H

#include "format/parquet/parquet.h"

#include "common/common.h"
#include "chive/fs.h"
#include "chive/types.h"
#include "types/types.h"

#define CHV_PQ_MAGIC "PAR1"           /* first and last 4 bytes of a file */
#define CHV_PQ_MAGIC_ENCRYPTED "PARE" /* last 4 bytes: encrypted footer */
#define CHV_PQ_MAX_DEPTH 64           /* deepest schema nesting accepted */
/* Largest FileMetaData accepted: a footer is a few KiB to a few MiB. */
#define CHV_PQ_MAX_FOOTER ((int64_t)256 << 20)
/* Bytes read from the end of a file in one go when opening it. */
#define CHV_PQ_FOOTER_READ_SIZE (64 * 1024)

/* ---- enums (X-macro lists: name, value) -------------------------------- */

#define CHV_PQ_TYPE_MAP(X)                                                     \
  X(BOOLEAN, 0)                                                                \
  X(INT32, 1)                                                                  \
  X(INT64, 2)                                                                  \
  X(INT96, 3)                                                                  \
  X(FLOAT, 4)                                                                  \
  X(DOUBLE, 5)                                                                 \
  X(BYTE_ARRAY, 6)                                                             \
  X(FIXED_LEN_BYTE_ARRAY, 7)

#define CHV_PQ_CONVERTED_MAP(X)                                                \
  X(UTF8, 0)                                                                   \
  X(MAP, 1)                                                                    \
  X(MAP_KEY_VALUE, 2)                                                          \
  X(LIST, 3)                                                                   \
  X(ENUM, 4)                                                                   \
  X(DECIMAL, 5)                                                                \
  X(DATE, 6)                                                                   \
  X(TIME_MILLIS, 7)                                                            \
  X(TIME_MICROS, 8)                                                            \
  X(TIMESTAMP_MILLIS, 9)                                                       \
  X(TIMESTAMP_MICROS, 10)                                                      \
  X(UINT_8, 11)                                                                \
  X(UINT_16, 12)                                                               \
  X(UINT_32, 13)                                                               \
  X(UINT_64, 14)                                                               \
  X(INT_8, 15)                                                                 \
  X(INT_16, 16)                                                                \
  X(INT_32, 17)                                                                \
  X(INT_64, 18)                                                                \
  X(JSON, 19)                                                                  \
  X(BSON, 20)                                                                  \
  X(INTERVAL, 21)

#define CHV_PQ_REPETITION_MAP(X)                                               \
  X(REQUIRED, 0)                                                               \
  X(OPTIONAL, 1)                                                               \
  X(REPEATED, 2)                                                               \
  X(VECTOR, 3)

#define CHV_PQ_ENCODING_MAP(X)                                                 \
  X(PLAIN, 0)                                                                  \
  X(PLAIN_DICTIONARY, 2)                                                       \
  X(RLE, 3)                                                                    \
  X(BIT_PACKED, 4)                                                             \
  X(DELTA_BINARY_PACKED, 5)                                                    \
  X(DELTA_LENGTH_BYTE_ARRAY, 6)                                                \
  X(DELTA_BYTE_ARRAY, 7)                                                       \
  X(RLE_DICTIONARY, 8)                                                         \
  X(BYTE_STREAM_SPLIT, 9)

#define CHV_PQ_CODEC_MAP(X)                                                    \
  X(UNCOMPRESSED, 0)                                                           \
  X(SNAPPY, 1)                                                                 \
  X(GZIP, 2)                                                                   \
  X(LZO, 3)                                                                    \
  X(BROTLI, 4)                                                                 \
  X(LZ4, 5)                                                                    \
  X(ZSTD, 6)                                                                   \
  X(LZ4_RAW, 7)

#define CHV_PQ_PAGE_MAP(X)                                                     \
  X(DATA_PAGE, 0)                                                              \
  X(INDEX_PAGE, 1)                                                             \
  X(DICTIONARY_PAGE, 2)                                                        \
  X(DATA_PAGE_V2, 3)

#define CHV_PQ_BOUNDARY_MAP(X)                                                 \
  X(UNORDERED, 0)                                                              \
  X(ASCENDING, 1)                                                              \
  X(DESCENDING, 2)

/* LogicalType union members, by their field id.  NONE: no logicalType;
** FUTURE: a member this code does not know (see chv_pq_logical.future_id). */
#define CHV_PQ_LOGICAL_MAP(X)                                                  \
  X(NONE, 0)                                                                   \
  X(STRING, 1)                                                                 \
  X(MAP, 2)                                                                    \
  X(LIST, 3)                                                                   \
  X(ENUM, 4)                                                                   \
  X(DECIMAL, 5)                                                                \
  X(DATE, 6)                                                                   \
  X(TIME, 7)                                                                   \
  X(TIMESTAMP, 8)                                                              \
  X(INTEGER, 10)                                                               \
  X(UNKNOWN, 11)                                                               \
  X(JSON, 12)                                                                  \
  X(BSON, 13)                                                                  \
  X(UUID, 14)                                                                  \
  X(FLOAT16, 15)                                                               \
  X(VARIANT, 16)                                                               \
  X(GEOMETRY, 17)                                                              \
  X(GEOGRAPHY, 18)                                                             \
  X(VECTOR, 19)                                                                \
  X(FUTURE, 1000)

/* TimeUnit union members; UNKNOWN for a unit this code does not know. */
#define CHV_PQ_UNIT_MAP(X)                                                     \
  X(UNKNOWN, 0)                                                                \
  X(MILLIS, 1)                                                                 \
  X(MICROS, 2)                                                                 \
  X(NANOS, 3)

/* ColumnOrder union members. */
#define CHV_PQ_ORDER_MAP(X)                                                    \
  X(UNKNOWN, 0)                                                                \
  X(TYPE_DEFINED, 1)                                                           \
  X(IEEE_754_TOTAL, 2)                                                         \
  X(INT96_TIMESTAMP, 3)

#define CHV_X_(name, v) CHV_PQ_TYPE_##name = v,
enum chv_pq_type { CHV_PQ_TYPE_MAP(CHV_X_) };
#undef CHV_X_
#define CHV_X_(name, v) CHV_PQ_CT_##name = v,
enum chv_pq_converted { CHV_PQ_CONVERTED_MAP(CHV_X_) };
#undef CHV_X_
#define CHV_X_(name, v) CHV_PQ_REP_##name = v,
enum chv_pq_repetition { CHV_PQ_REPETITION_MAP(CHV_X_) };
#undef CHV_X_
#define CHV_X_(name, v) CHV_PQ_ENC_##name = v,
enum chv_pq_encoding { CHV_PQ_ENCODING_MAP(CHV_X_) };
#undef CHV_X_
#define CHV_X_(name, v) CHV_PQ_CODEC_##name = v,
enum chv_pq_codec { CHV_PQ_CODEC_MAP(CHV_X_) };
#undef CHV_X_
#define CHV_X_(name, v) CHV_PQ_PAGE_##name = v,
enum chv_pq_page_type { CHV_PQ_PAGE_MAP(CHV_X_) };
#undef CHV_X_
#define CHV_X_(name, v) CHV_PQ_BOUNDARY_##name = v,
enum chv_pq_boundary_order { CHV_PQ_BOUNDARY_MAP(CHV_X_) };
#undef CHV_X_
#define CHV_X_(name, v) CHV_PQ_LT_##name = v,
enum chv_pq_logical_kind { CHV_PQ_LOGICAL_MAP(CHV_X_) };
#undef CHV_X_
#define CHV_X_(name, v) CHV_PQ_UNIT_##name = v,
enum chv_pq_time_unit { CHV_PQ_UNIT_MAP(CHV_X_) };
#undef CHV_X_
#define CHV_X_(name, v) CHV_PQ_ORDER_##name = v,
enum chv_pq_column_order { CHV_PQ_ORDER_MAP(CHV_X_) };
#undef CHV_X_

/* Names of enum values ("INT32"); "?" for a value not in the list. */
const char *chv_pq_type_name(int32_t v);
const char *chv_pq_converted_name(int32_t v);
const char *chv_pq_repetition_name(int32_t v);
const char *chv_pq_encoding_name(int32_t v);
const char *chv_pq_codec_name(int32_t v);
const char *chv_pq_page_type_name(int32_t v);
const char *chv_pq_logical_name(int32_t v);

/* ---- the footer model -------------------------------------------------- */

/* Bytes (binary fields); data is NUL-terminated beyond len where it was
** copied into an arena. */
struct chv_pq_bytes {
  const uint8_t *data;
  uint32_t len;
};

/* KeyValue: key is required, value optional (NULL when absent). */
struct chv_pq_kv {
  const char *key;
  const char *value;
  uint32_t key_len;   /* bytes of key (it may hold NULs) */
  uint32_t value_len; /* bytes of value */
};

struct chv_pq_logical {
  int32_t kind;      /* enum chv_pq_logical_kind */
  int16_t future_id; /* FUTURE: the union field id seen */
  int32_t scale;     /* DECIMAL */
  int32_t precision; /* DECIMAL */
  int32_t unit;      /* TIME, TIMESTAMP: enum chv_pq_time_unit */
  bool utc_adjusted; /* TIME, TIMESTAMP: isAdjustedToUTC */
  int8_t bit_width;  /* INTEGER: 8, 16, 32 or 64 */
  bool is_signed;    /* INTEGER */
};

struct chv_pq_schema_element {
  const char *name; /* required; no NUL inside */
  bool has_type;
  int32_t type; /* enum chv_pq_type; leaves only */
  bool has_type_length;
  int32_t type_length; /* FIXED_LEN_BYTE_ARRAY: bytes per value */
  bool has_repetition;
  int32_t repetition; /* enum chv_pq_repetition; absent on the root */
  bool has_num_children;
  int32_t num_children; /* groups */
  bool has_converted_type;
  int32_t converted_type; /* enum chv_pq_converted */
  bool has_scale;
  int32_t scale; /* converted DECIMAL */
  bool has_precision;
  int32_t precision; /* converted DECIMAL */
  bool has_field_id;
  int32_t field_id;
  struct chv_pq_logical logical; /* kind NONE when absent */
};

struct chv_pq_statistics {
  bool has_max, has_min, has_max_value, has_min_value;
  struct chv_pq_bytes max; /* deprecated, signed order */
  struct chv_pq_bytes min;
  struct chv_pq_bytes max_value; /* by the column order */
  struct chv_pq_bytes min_value;
  bool has_null_count, has_distinct_count, has_nan_count;
  int64_t null_count;
  int64_t distinct_count;
  int64_t nan_count;
  bool has_is_max_value_exact, has_is_min_value_exact;
  bool is_max_value_exact;
  bool is_min_value_exact;
};

struct chv_pq_page_encoding_stats {
  int32_t page_type; /* enum chv_pq_page_type */
  int32_t encoding;  /* enum chv_pq_encoding */
  int32_t count;
};

struct chv_pq_column_meta {
  int32_t type; /* enum chv_pq_type */
  int32_t nencodings;
  int32_t *encodings; /* enum chv_pq_encoding values */
  int32_t npath;
  const char **path_in_schema; /* npath names, root's child first */
  int32_t codec;               /* enum chv_pq_codec */
  int64_t num_values;
  int64_t total_uncompressed_size; /* pages incl. headers */
  int64_t total_compressed_size;   /* pages incl. headers, as stored */
  int32_t nkv;
  struct chv_pq_kv *kv; /* key_value_metadata */
  int64_t data_page_offset;
  bool has_index_page_offset;
  int64_t index_page_offset;
  bool has_dictionary_page_offset;
  int64_t dictionary_page_offset; /* some writers put 0 for "none" */
  bool has_statistics;
  struct chv_pq_statistics statistics;
  int32_t nencoding_stats;
  struct chv_pq_page_encoding_stats *encoding_stats;
  bool has_bloom_filter_offset;
  int64_t bloom_filter_offset;
  bool has_bloom_filter_length;
  int32_t bloom_filter_length;
};

struct chv_pq_column_chunk {
  const char *file_path;                      /* NULL: this file */
  int64_t file_offset;                        /* deprecated */
  const struct chv_pq_column_meta *meta_data; /* NULL when absent */
  bool has_offset_index;                      /* both fields present */
  int64_t offset_index_offset;
  int32_t offset_index_length;
  bool has_column_index; /* both fields present */
  int64_t column_index_offset;
  int32_t column_index_length;
  bool encrypted; /* crypto_metadata or encrypted_column_metadata present */
};

struct chv_pq_sorting_column {
  int32_t column_idx;
  bool descending;
  bool nulls_first;
};

struct chv_pq_row_group {
  int32_t ncolumns;
  struct chv_pq_column_chunk *columns; /* one per leaf, in leaf order */
  int64_t total_byte_size;
  int64_t num_rows;
  int32_t nsorting_columns;
  struct chv_pq_sorting_column *sorting_columns;
  bool has_file_offset;
  int64_t file_offset;
  bool has_total_compressed_size;
  int64_t total_compressed_size;
  bool has_ordinal;
  int16_t ordinal;
};

/* A node of the schema tree built from the flat schema list. */
struct chv_pq_node {
  const struct chv_pq_schema_element *el; /* its element */
  int index;                  /* position in chv_pq_file_meta.schema */
  int depth;                  /* root 0 */
  struct chv_pq_node *parent; /* NULL for the root */
  int nchildren;
  struct chv_pq_node **children;
  /* Levels at this node: the definition level a leaf below reaches when
  ** this node is present (each OPTIONAL or REPEATED node on the way from
  ** the root, this one included, adds one), and the number of REPEATED
  ** nodes on that way. */
  int16_t def_level;
  int16_t rep_level;
  int leaf;       /* leaves: column index (0..nleaves-1); groups: -1 */
  int leaf_begin; /* leaves under this node: [leaf_begin, leaf_end) */
  int leaf_end;
};

struct chv_pq_file_meta {
  int32_t version;
  int32_t nschema;
  struct chv_pq_schema_element *schema; /* depth-first; [0] is the root */
  int64_t num_rows;                     /* as written; trust row groups */
  int32_t nrow_groups;
  struct chv_pq_row_group *row_groups;
  int32_t nkv;
  struct chv_pq_kv *kv;   /* key_value_metadata */
  const char *created_by; /* NULL when absent */
  int32_t ncolumn_orders;
  int32_t *column_orders;        /* enum chv_pq_column_order, per leaf */
  bool has_encryption_algorithm; /* plaintext footer, encrypted file */

  /* Derived while validating (not written back). */
  struct chv_pq_node *nodes;      /* nschema nodes, schema order */
  const struct chv_pq_node *root; /* &nodes[0] */
  int nleaves;
  const struct chv_pq_node **leaves; /* by column index */
  int64_t footer_offset; /* file offset of the FileMetaData bytes, or -1 */
  int64_t footer_length; /* their length */
  chv_arena *arena;      /* owns everything above */
};

/* The byte range [*start, *start + *len) of a column chunk's pages: from
** its dictionary page when it has one, else from its first data page.  A
** dictionary_page_offset below 4 means none (some writers put 0), and a
** data_page_offset below 4 in a chunk with a dictionary means the chunk is
** that dictionary page alone. */
void chv_pq_chunk_range(const struct chv_pq_column_meta *cm, int64_t *start,
                        int64_t *len);

/* Decode and validate the footer of a whole Parquet file held in memory
** (file[0, size)): magics at both ends, the footer length, the
** FileMetaData.  path names the file in messages (may be NULL).
** out: close with chv_pq_file_meta_close(); written only on success. */
int chv_pq_footer_parse(const void *file, size_t size, const char *path,
                        struct chv_pq_file_meta **out, struct chv_error *err);

/* The same from an open file: reads the last CHV_PQ_FOOTER_READ_SIZE bytes
** (more when the footer is longer) and the leading magic.  size is the
** file's size, or -1 to ask the file.  path may be NULL (the file's own
** path is used). */
int chv_pq_footer_read(struct chv_file *f, int64_t size, const char *path,
                       struct chv_pq_file_meta **out, struct chv_error *err);

/* Decode FileMetaData bytes p[0, len) and validate them; file_size bounds
** the offsets (-1: only their signs are checked, and footer_offset is -1).
** The footer is taken to start at file_size - 8 - len. */
int chv_pq_file_meta_decode(const void *p, size_t len, int64_t file_size,
                            const char *path, struct chv_pq_file_meta **out,
                            struct chv_error *err);

void chv_pq_file_meta_close(struct chv_pq_file_meta *m);

/* Serialize the Thrift fields of m (not the derived ones) as FileMetaData;
** appended to out.  Only the fields the model has are written. */
int chv_pq_file_meta_write(const struct chv_pq_file_meta *m,
                           struct chv_buf *out, struct chv_error *err);
/* FileMetaData, then its 4-byte little-endian length and "PAR1": the end of
** a Parquet file. */
int chv_pq_footer_write(const struct chv_pq_file_meta *m, struct chv_buf *out,
                        struct chv_error *err);

/* ---- page headers ------------------------------------------------------ */

struct chv_pq_data_page_header {
  int32_t num_values; /* incl. NULLs */
  int32_t encoding;   /* of the values */
  int32_t definition_level_encoding;
  int32_t repetition_level_encoding;
  bool has_statistics;
  struct chv_pq_statistics statistics;
};

struct chv_pq_dictionary_page_header {
  int32_t num_values;
  int32_t encoding;
  bool has_is_sorted;
  bool is_sorted;
};

struct chv_pq_data_page_header_v2 {
  int32_t num_values; /* incl. NULLs */
  int32_t num_nulls;
  int32_t num_rows;
  int32_t encoding;
  int32_t definition_levels_byte_length; /* uncompressed, first */
  int32_t repetition_levels_byte_length; /* uncompressed, before them */
  bool is_compressed;                    /* default true */
  bool has_statistics;
  struct chv_pq_statistics statistics;
};

struct chv_pq_page_header {
  int32_t type;                   /* enum chv_pq_page_type */
  int32_t uncompressed_page_size; /* excluding this header */
  int32_t compressed_page_size;   /* bytes that follow the header */
  bool has_crc;
  uint32_t crc; /* CRC-32 of the page bytes as stored */
  bool has_data_page;
  struct chv_pq_data_page_header data_page;
  bool has_index_page; /* IndexPageHeader is empty */
  bool has_dictionary_page;
  struct chv_pq_dictionary_page_header dictionary_page;
  bool has_data_page_v2;
  struct chv_pq_data_page_header_v2 data_page_v2;
};

/* Parse the page header at p[0, len) into *out (statistics point into p)
** and set *consumed to its length in bytes; the page's bytes follow.  Give
** it every byte up to the end of the column chunk: a header cut short is
** CHV_ECORRUPT.  path (may be NULL) and file_offset (of p[0]; -1 if not
** known) are for messages.  An unknown page type is returned as it is (the
** caller skips compressed_page_size bytes). */
int chv_pq_page_header_parse(const void *p, size_t len, const char *path,
                             int64_t file_offset,
                             struct chv_pq_page_header *out, size_t *consumed,
                             struct chv_error *err);
int chv_pq_page_header_write(const struct chv_pq_page_header *h,
                             struct chv_buf *out, struct chv_error *err);

/* ---- page index -------------------------------------------------------- */

struct chv_pq_page_location {
  int64_t offset;               /* of the page header in the file */
  int32_t compressed_page_size; /* header included */
  int64_t first_row_index;      /* within the row group */
};

struct chv_pq_offset_index {
  int32_t npages;
  struct chv_pq_page_location *pages;
  int32_t nunencoded; /* 0 when absent, else npages */
  int64_t *unencoded_byte_array_data_bytes;
};

struct chv_pq_column_index {
  int32_t npages;
  bool *null_pages;                /* page holds only NULLs */
  struct chv_pq_bytes *min_values; /* empty where null_pages[i] */
  struct chv_pq_bytes *max_values;
  int32_t boundary_order; /* enum chv_pq_boundary_order */
  int64_t *null_counts;   /* NULL when absent, else npages */
  int32_t nrep_histograms;
  int64_t *repetition_level_histograms;
  int32_t ndef_histograms;
  int64_t *definition_level_histograms;
  int64_t *nan_counts; /* NULL when absent, else npages */
};

/* Decode an OffsetIndex / ColumnIndex (as found at a column chunk's
** offset_index_offset / column_index_offset) into the caller's arena;
** binaries are copied.  Checked: offsets and sizes non-negative, first row
** indexes ascending, the per-page lists of one length. */
int chv_pq_offset_index_parse(const void *p, size_t len, chv_arena *arena,
                              const char *path, struct chv_pq_offset_index *out,
                              struct chv_error *err);
int chv_pq_column_index_parse(const void *p, size_t len, chv_arena *arena,
                              const char *path, struct chv_pq_column_index *out,
                              struct chv_error *err);
int chv_pq_offset_index_write(const struct chv_pq_offset_index *x,
                              struct chv_buf *out, struct chv_error *err);
int chv_pq_column_index_write(const struct chv_pq_column_index *x,
                              struct chv_buf *out, struct chv_error *err);

/* ---- the schema as Hive sees it ---------------------------------------- */

/* Append "a.list.element" (names from the root's child down) to buf. */
int chv_pq_node_path(const struct chv_pq_node *n, struct chv_buf *buf);

/* How the values of a leaf column become values of its Hive type. */
#define CHV_PQ_CONV_MAP(X)                                                     \
  X(PLAIN)            /* as stored: BOOLEAN, INT32->INT, INT64->BIGINT, FLOAT, \
                         DOUBLE, BYTE_ARRAY->STRING/BINARY, FLBA->BINARY */    \
  X(INT8)             /* INT32 -> TINYINT (low 8 bits, signed) */              \
  X(INT16)            /* INT32 -> SMALLINT (low 16 bits, signed) */            \
  X(UINT8)            /* INT32 -> SMALLINT (low 8 bits, unsigned) */           \
  X(UINT16)           /* INT32 -> INT (low 16 bits, unsigned) */               \
  X(UINT32)           /* INT32 -> BIGINT (unsigned) */                         \
  X(UINT64)           /* INT64 -> DECIMAL(20,0) (unsigned) */                  \
  X(WIDEN)            /* INT32 -> BIGINT (TIME in millis) */                   \
  X(DECIMAL)          /* INT32/INT64/FLBA/BYTE_ARRAY (big-endian two's         \
                         complement) unscaled -> DECIMAL(p,s) */               \
  X(DATE)             /* INT32 days since 1970-01-01 */                        \
  X(INT96)            /* INT96: nanos of day (LE i64) + Julian day (LE i32) */ \
  X(TIMESTAMP_MILLIS) /* INT64 since the epoch -> TIMESTAMP */                 \
  X(TIMESTAMP_MICROS)                                                          \
  X(TIMESTAMP_NANOS)                                                           \
  X(FLOAT16) /* FLBA(2) IEEE half, little-endian -> FLOAT */                   \
  X(UUID)    /* FLBA(16) -> STRING "00112233-4455-..." */

#define CHV_X_(name) CHV_PQ_CONV_##name,
enum chv_pq_conv { CHV_PQ_CONV_MAP(CHV_X_) };
#undef CHV_X_
const char *chv_pq_conv_name(enum chv_pq_conv c);

/* One value of the Hive type, and where its data is in the Parquet tree.
** A leaf column value (its definition level d, repetition level r) belongs
** to this value; the value is NULL when slot_def_level <= d < def_level,
** absent (an empty or NULL enclosing list or NULL parent) when d <
** slot_def_level, and present when d >= def_level.  An ARRAY or MAP has an
** entry where d >= repeated->def_level; a new entry of this list starts
** where r == repeated->rep_level (r < it starts a new list). */
struct chv_pq_field {
  const char *name;               /* STRUCT member name; element: "element",
                                     map: "key"/"value" */
  const struct chv_type *type;    /* borrowed from the schema's type tree */
  const struct chv_pq_node *node; /* the node holding this value */
  int16_t def_level;              /* present (not NULL) from this level */
  int16_t slot_def_level;         /* def_level - 1 if nullable, else same */
  int16_t rep_level;              /* repeated ancestors of this value */
  bool nullable;                  /* OPTIONAL: may be NULL */
  /* ARRAY and MAP: the repeated node whose entries are the elements (for an
  ** unannotated repeated field, the field itself). */
  const struct chv_pq_node *repeated;
  /* Primitives: the leaf column and how its values convert. */
  int leaf; /* column index, -1 for nested types */
  enum chv_pq_conv conv;
  /* ARRAY: [element]; MAP: [key, value] (a key_value group without value is
  ** an ARRAY of its keys); STRUCT: the members. */
  int nchildren;
  struct chv_pq_field *children;
};

struct chv_pq_hive_schema {
  struct chv_type *type;    /* owned STRUCT: a field per root child */
  struct chv_pq_field root; /* STRUCT over the root; children parallel to
                               type's fields */
  const struct chv_pq_file_meta *meta; /* borrowed: must outlive this */
  chv_arena *arena;                    /* holds the fields */
};

/* Map the schema of m to Hive types the way Hive reads Parquet (see
** docs/parquet.md for the table and the choices).  path is for messages.
** CHV_ENOTSUP names the column of a shape or type Hive cannot hold (a map
** key that is not primitive, a decimal over 38 digits, a VECTOR field);
** CHV_ECORRUPT a LIST or MAP annotation on a group of the wrong shape.
** out: close with chv_pq_hive_schema_close(). */
int chv_pq_hive_schema_open(const struct chv_pq_file_meta *m, const char *path,
                            struct chv_pq_hive_schema **out,
                            struct chv_error *err);
void chv_pq_hive_schema_close(struct chv_pq_hive_schema *h);

/* Build m->nodes/root/leaves from m->schema and check the tree (called by
** the footer decoder; exposed for the writer's own metadata). */
int chv_pq_schema_build(struct chv_pq_file_meta *m, const char *path,
                        struct chv_error *err);

#endif /* CHV_FORMAT_PARQUET_INT_H */
