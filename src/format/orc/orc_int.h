/*
** format/orc private model: the ORC file tail (PostScript, Footer,
** Metadata), stripe footers and the index streams as C structs, read and
** written with the protobuf codec (codec/protobuf.h); ORC's compression
** framing and the decompressing stream reader the column readers read
** through; and the mapping of ORC types to Hive types.  Field names and
** numbers follow apache/orc-format orc_proto.proto; the layout follows
** specification/ORCv1.md.
**
** Representation.
**   - Protobuf enums from the file are kept as int32_t raw values and
**     compared with the CHV_ORC_* constants below: a value this code does
**     not know (a future stream kind or encoding) is data, not an error,
**     until something needs to understand it.  The tail checks the ones it
**     must understand: compression kinds and type kinds.
**   - An optional scalar field has a `has_<field>` flag; absent messages
**     are NULL pointers (statistics) or inline with a `has_` flag.
**   - Strings are NUL-terminated copies; binaries (and strings that may hold
**     any bytes, such as statistics bounds) are struct chv_orc_bytes.
**   - A decoded tail or Metadata lives in one arena: its close frees it all.
**     Stripe footers and indexes go to an arena the caller chooses (one per
**     stripe, typically).
**   - Unknown fields of every message are skipped (forward compatibility),
**     and so is a known field arriving with another wire type, as
**     protobuf's own parsers do.
**
** Validation (chv_orc_tail_open): the PostScript's lengths lie inside the
** file and leave room for the "ORC" header; the magic is "ORC", or, when
** the PostScript has none (early Hive 0.11 writers), the file starts with
** it; the version is one ORC defines (0.11, 0.12 or 1.9999; others are
** CHV_ENOTSUP, as ORC Java refuses them); the compression kind is known and
** its block size sane; the type list is a tree in pre-order (each compound
** type's subtypes are the ids that follow it, in order; LIST has one, MAP
** two, UNION 1..256, STRUCT one per field name; depth at most
** CHV_ORC_MAX_DEPTH); stripes lie in ascending order between the header and
** the tail without overlapping; the row count agrees with the stripes.
** Stripe footers: one column encoding per type, stream columns in range,
** stream lengths adding up to the stripe's index and data lengths.
**
** Errors name the file (the caller's path) and what is wrong:
**   "x.orc: footer length 900 exceeds the 512 bytes before the PostScript"
**   "x.orc: type 3 (struct): subtype 9 is not the next id (5)"
** Status CHV_ECORRUPT for malformed bytes, CHV_ENOTSUP for what is valid
** ORC but not read here (column encryption, a future file version, an
** unknown compression or type kind), CHV_ENOMEM.
**
** INTERFACE
**   chv_orc_input_memory()/_file(), chv_orc_input_read()    file bytes
**   chv_orc_tail_open()/_parse()/_read(), chv_orc_tail_close()
**   chv_orc_metadata_open()/_close()          stripe statistics
**   chv_orc_stripe_footer_read()/_decode()    a stripe's streams, encodings
**   chv_orc_stripe_find_stream()
**   chv_orc_row_index_decode(), chv_orc_bloom_index_decode()
**   chv_orc_*_write()                         the same messages serialized
**   chv_orc_tail_write()                      Metadata, Footer, PostScript
**   chv_orc_codec_open()/_close()             compression of one file
**   chv_orc_decompress_all(), chv_orc_compress_all()     chunk framing
**   chv_orc_stream_*()                        the decompressing stream reader
**   chv_orc_out_*()                           the compressing stream writer
**   chv_orc_hive_type(), chv_orc_hive_schema()   ORC types -> Hive types
**   chv_orc_*_name()                          enum value names
**
** Thread safety: a decoded tail, Metadata, stripe footer or index is
** immutable and may be shared read-only between threads; a codec, a stream
** and an out stream belong to one thread at a time.
*/
#ifndef CHV_FORMAT_ORC_INT_H
#define CHV_FORMAT_ORC_INT_H

#include "format/orc/orc.h"

#include "common/common.h"
#include "chive/fs.h"
#include "chive/types.h"
#include "types/types.h"

#define CHV_ORC_MAGIC "ORC"  /* first 3 bytes; the PostScript's magic */
#define CHV_ORC_MAX_DEPTH 64 /* deepest type nesting accepted */
/* Block size when the PostScript has none (ORC's default). */
#define CHV_ORC_DEFAULT_BLOCK_SIZE (256 * 1024)
/* Largest compression block size accepted: every compressed stream being
** read holds a buffer of this size. */
#define CHV_ORC_MAX_BLOCK_SIZE (16 << 20)
/* Largest chunk a 3-byte chunk header can describe. */
#define CHV_ORC_MAX_CHUNK ((1 << 23) - 1)
/* Largest Footer, Metadata, stripe footer or index stream accepted, stored
** or decompressed. */
#define CHV_ORC_MAX_SECTION ((int64_t)256 << 20)
/* Bytes read from the end of a file in one go when opening it. */
#define CHV_ORC_TAIL_READ_SIZE (16 * 1024)
/* Most variants of a union (Hive's limit). */
#define CHV_ORC_MAX_UNION 256
/* Most hash functions a usable bloom filter may ask for. */
#define CHV_ORC_MAX_BLOOM_HASHES 1024

/* ---- enums (X-macro lists: name, value) -------------------------------- */

#define CHV_ORC_COMPRESSION_MAP(X)                                             \
  X(NONE, 0)                                                                   \
  X(ZLIB, 1)                                                                   \
  X(SNAPPY, 2)                                                                 \
  X(LZO, 3)                                                                    \
  X(LZ4, 4)                                                                    \
  X(ZSTD, 5)                                                                   \
  X(BROTLI, 6)

/* Type kinds: name, value, ORC's type name. */
#define CHV_ORC_KIND_MAP(X)                                                    \
  X(BOOLEAN, 0, "boolean")                                                     \
  X(BYTE, 1, "tinyint")                                                        \
  X(SHORT, 2, "smallint")                                                      \
  X(INT, 3, "int")                                                             \
  X(LONG, 4, "bigint")                                                         \
  X(FLOAT, 5, "float")                                                         \
  X(DOUBLE, 6, "double")                                                       \
  X(STRING, 7, "string")                                                       \
  X(BINARY, 8, "binary")                                                       \
  X(TIMESTAMP, 9, "timestamp")                                                 \
  X(LIST, 10, "array")                                                         \
  X(MAP, 11, "map")                                                            \
  X(STRUCT, 12, "struct")                                                      \
  X(UNION, 13, "uniontype")                                                    \
  X(DECIMAL, 14, "decimal")                                                    \
  X(DATE, 15, "date")                                                          \
  X(VARCHAR, 16, "varchar")                                                    \
  X(CHAR, 17, "char")                                                          \
  X(TIMESTAMP_INSTANT, 18, "timestamp with local time zone")                   \
  X(GEOMETRY, 19, "geometry")                                                  \
  X(GEOGRAPHY, 20, "geography")

#define CHV_ORC_STREAM_MAP(X)                                                  \
  X(PRESENT, 0)                                                                \
  X(DATA, 1)                                                                   \
  X(LENGTH, 2)                                                                 \
  X(DICTIONARY_DATA, 3)                                                        \
  X(DICTIONARY_COUNT, 4)                                                       \
  X(SECONDARY, 5)                                                              \
  X(ROW_INDEX, 6)                                                              \
  X(BLOOM_FILTER, 7)                                                           \
  X(BLOOM_FILTER_UTF8, 8)                                                      \
  X(ENCRYPTED_INDEX, 9)                                                        \
  X(ENCRYPTED_DATA, 10)                                                        \
  X(STRIPE_STATISTICS, 100)                                                    \
  X(FILE_STATISTICS, 101)

#define CHV_ORC_ENCODING_MAP(X)                                                \
  X(DIRECT, 0)                                                                 \
  X(DICTIONARY, 1)                                                             \
  X(DIRECT_V2, 2)                                                              \
  X(DICTIONARY_V2, 3)

#define CHV_ORC_CALENDAR_MAP(X)                                                \
  X(UNKNOWN_CALENDAR, 0)                                                       \
  X(JULIAN_GREGORIAN, 1)                                                       \
  X(PROLEPTIC_GREGORIAN, 2)

#define CHV_X_(name, v) CHV_ORC_COMP_##name = v,
enum chv_orc_compression { CHV_ORC_COMPRESSION_MAP(CHV_X_) };
#undef CHV_X_
#define CHV_X_(name, v, text) CHV_ORC_KIND_##name = v,
enum chv_orc_kind { CHV_ORC_KIND_MAP(CHV_X_) };
#undef CHV_X_
#define CHV_X_(name, v) CHV_ORC_STREAM_##name = v,
enum chv_orc_stream_kind { CHV_ORC_STREAM_MAP(CHV_X_) };
#undef CHV_X_
#define CHV_X_(name, v) CHV_ORC_ENC_##name = v,
enum chv_orc_encoding_kind { CHV_ORC_ENCODING_MAP(CHV_X_) };
#undef CHV_X_
#define CHV_X_(name, v) CHV_ORC_CAL_##name = v,
enum chv_orc_calendar { CHV_ORC_CALENDAR_MAP(CHV_X_) };
#undef CHV_X_

/* Names of enum values ("ZLIB", "DICTIONARY_V2"); "?" for values not in
** the list.  chv_orc_kind_name() gives ORC's type name ("bigint"). */
const char *chv_orc_compression_name(int32_t v);
const char *chv_orc_kind_name(int32_t v);
const char *chv_orc_stream_kind_name(int32_t v);
const char *chv_orc_encoding_name(int32_t v);
const char *chv_orc_calendar_name(int32_t v);

/* The file format versions ORC defines (PostScript.version). */
enum chv_orc_version {
  CHV_ORC_V0_11,        /* [0, 11] or no version: Hive 0.11, RLE v1 */
  CHV_ORC_V0_12,        /* [0, 12]: Hive 0.12 and ORC 1.x */
  CHV_ORC_V_UNSTABLE_2, /* [1, 9999]: the ORC v2 draft (short decimals as
                           RLE v2 integers); column readers must refuse
                           what they do not implement of it */
};

/* One file's compression state (see "compression" below). */
typedef struct chv_orc_codec chv_orc_codec;

/* ---- the tail model ---------------------------------------------------- */

/* Bytes from the file, copied into an arena (NUL-terminated beyond len). */
struct chv_orc_bytes {
  const uint8_t *data;
  uint32_t len;
};

/* StringPair (type attributes) and UserMetadataItem (footer metadata). */
struct chv_orc_kv {
  const char *key; /* NUL-terminated; "" when absent */
  struct chv_orc_bytes value;
  uint32_t key_len;
};

struct chv_orc_int_stats {
  bool has_min, has_max, has_sum;
  int64_t min, max, sum;
};

struct chv_orc_double_stats {
  bool has_min, has_max, has_sum;
  double min, max, sum;
};

struct chv_orc_string_stats {
  bool has_min, has_max, has_sum, has_lower_bound, has_upper_bound;
  struct chv_orc_bytes min, max; /* UTF-8 (writer version >= 1) */
  int64_t sum;                   /* total length of the strings */
  struct chv_orc_bytes lower_bound, upper_bound; /* for min/max > 1024 B */
};

struct chv_orc_bucket_stats {
  uint32_t ncount;
  uint64_t *count; /* booleans: [0] the number of true values */
};

struct chv_orc_decimal_stats {
  const char *min, *max, *sum; /* decimal strings; NULL when absent */
};

struct chv_orc_date_stats {
  bool has_min, has_max;
  int32_t min, max; /* days since 1970-01-01 */
};

struct chv_orc_timestamp_stats {
  bool has_min, has_max, has_min_utc, has_max_utc, has_min_nanos, has_max_nanos;
  int64_t min, max;             /* ms since the epoch, writer's local time */
  int64_t min_utc, max_utc;     /* ms since the epoch, UTC (ORC-135) */
  int32_t min_nanos, max_nanos; /* the lower 6 digits of the nanos, + 1 */
};

struct chv_orc_binary_stats {
  bool has_sum;
  int64_t sum; /* total bytes */
};

struct chv_orc_collection_stats {
  bool has_min_children, has_max_children, has_total_children;
  uint64_t min_children, max_children, total_children;
};

/* ColumnStatistics.  At most one of the typed parts is present. */
struct chv_orc_column_stats {
  bool has_number_of_values, has_has_null, has_bytes_on_disk;
  uint64_t number_of_values; /* non-NULL values */
  bool has_null;
  uint64_t bytes_on_disk;
  bool has_int, has_double, has_string, has_bucket, has_decimal, has_date,
      has_binary, has_timestamp, has_collection, has_geospatial;
  struct chv_orc_int_stats int_stats;
  struct chv_orc_double_stats double_stats;
  struct chv_orc_string_stats string_stats;
  struct chv_orc_bucket_stats bucket_stats;
  struct chv_orc_decimal_stats decimal_stats;
  struct chv_orc_date_stats date_stats;
  struct chv_orc_binary_stats binary_stats;
  struct chv_orc_timestamp_stats timestamp_stats;
  struct chv_orc_collection_stats collection_stats;
  /* geospatial statistics are recognised, not kept */
};

struct chv_orc_postscript {
  uint64_t footer_length;
  bool has_compression;
  int32_t compression; /* enum chv_orc_compression; NONE when absent */
  bool has_compression_block_size;
  uint64_t compression_block_size;
  uint32_t nversion;
  uint32_t version[2]; /* the first two numbers of the version list */
  uint64_t metadata_length;
  bool has_writer_version;
  uint32_t writer_version; /* fixes in the writer; 0 (original) if absent */
  uint64_t stripe_statistics_length;
  bool has_magic; /* and then it is "ORC" */
};

struct chv_orc_stripe_info {
  uint64_t offset;        /* of the stripe in the file */
  uint64_t index_length;  /* index streams */
  uint64_t data_length;   /* data streams */
  uint64_t footer_length; /* the stripe footer, as stored */
  uint64_t number_of_rows;
  bool has_encrypt_stripe_id;
  uint64_t encrypt_stripe_id;
  uint32_t nencrypted_local_keys; /* counted, not kept */
  uint64_t first_row; /* derived: rows of the stripes before this one */
};

struct chv_orc_type {
  int32_t kind; /* enum chv_orc_kind */
  uint32_t nsubtypes;
  uint32_t *subtypes; /* ids of the children */
  uint32_t nfield_names;
  const char **field_names; /* STRUCT: one per subtype */
  bool has_maximum_length;
  uint32_t maximum_length; /* VARCHAR, CHAR */
  bool has_precision, has_scale;
  uint32_t precision, scale; /* DECIMAL */
  uint32_t nattributes;
  struct chv_orc_kv *attributes;
  /* Derived while validating. */
  uint32_t id;     /* index in the type list = column id */
  uint32_t parent; /* UINT32_MAX for the root */
  int depth;       /* root 0 */
  uint32_t end;    /* one past the last id of this subtree */
};

struct chv_orc_footer {
  bool has_header_length, has_content_length;
  uint64_t header_length;  /* 3 */
  uint64_t content_length; /* header and stripes */
  uint32_t nstripes;
  struct chv_orc_stripe_info *stripes;
  uint32_t ntypes;
  struct chv_orc_type *types; /* pre-order; [0] is the root */
  uint32_t nmetadata;
  struct chv_orc_kv *metadata; /* user metadata */
  bool has_number_of_rows;
  uint64_t number_of_rows;
  uint32_t nstatistics;
  struct chv_orc_column_stats *statistics; /* per column (may be fewer) */
  bool has_row_index_stride;
  uint32_t row_index_stride; /* 0: no row indexes */
  bool has_writer;
  uint32_t writer; /* 0 ORC Java, 1 ORC C++, 2 Presto, 3 Go, 4 Trino, ... */
  bool has_encryption;
  bool has_calendar;
  int32_t calendar;             /* enum chv_orc_calendar */
  const char *software_version; /* NULL when absent */
};

struct chv_orc_tail {
  const char *path; /* for messages (a copy) */
  int64_t file_size;
  bool empty_file; /* a 0-byte file: no rows, type struct<> */
  uint32_t postscript_length;
  struct chv_orc_postscript ps;
  struct chv_orc_footer footer;
  enum chv_orc_version version;
  int32_t compression;   /* ps.compression */
  uint64_t block_size;   /* ps.compression_block_size or the default */
  uint64_t nrows;        /* number_of_rows, or the stripes' sum */
  int64_t footer_offset; /* where the sections start in the file */
  int64_t metadata_offset;
  int64_t stripe_statistics_offset;
  int64_t content_end; /* first byte past the stripes' room */
  chv_arena *arena;    /* owns everything above */
};

/* Where the bytes of a file come from: the whole file in memory, or an open
** file read with pread.  Both borrowed. */
struct chv_orc_input {
  const uint8_t *data;   /* the whole file, or NULL */
  struct chv_file *file; /* else this file */
  int64_t size;          /* bytes in the file */
  const char *path;      /* for messages */
};

void chv_orc_input_memory(struct chv_orc_input *in, const void *data,
                          size_t size, const char *path);
/* size < 0 asks the file; path NULL takes the file's own. */
int chv_orc_input_file(struct chv_orc_input *in, struct chv_file *f,
                       int64_t size, const char *path, struct chv_error *err);
/* The bytes [off, off + n) of the file: *p points into the memory of an
** in-memory input, or into buf (reset and filled) for a file.  A range
** outside the file is CHV_ECORRUPT; a short read CHV_EIO. */
int chv_orc_input_read(const struct chv_orc_input *in, int64_t off, size_t n,
                       struct chv_buf *buf, const uint8_t **p,
                       struct chv_error *err);

/* Read and validate the tail of a file: PostScript, Footer (decompressed).
** out: close with chv_orc_tail_close(); written only on success.  A 0-byte
** file gives an empty tail (ORC Java reads it as 0 rows of struct<>). */
int chv_orc_tail_open(const struct chv_orc_input *in, struct chv_orc_tail **out,
                      struct chv_error *err);
/* The same over a whole file in memory, or an open file (size -1 asks it;
** path may be NULL). */
int chv_orc_tail_parse(const void *file, size_t size, const char *path,
                       struct chv_orc_tail **out, struct chv_error *err);
int chv_orc_tail_read(struct chv_file *f, int64_t size, const char *path,
                      struct chv_orc_tail **out, struct chv_error *err);
void chv_orc_tail_close(struct chv_orc_tail *t);

/* Decode a Footer from its uncompressed protobuf bytes into arena and check
** its type tree (the tail decoder's step, exposed for tests and tools; the
** stripes are checked against the file by chv_orc_tail_open()).  path for
** messages. */
int chv_orc_footer_decode(const void *p, size_t len, chv_arena *arena,
                          const char *path, struct chv_orc_footer *out,
                          struct chv_error *err);
/* Check a footer's type tree and fill the derived fields of its types
** (called by the decoder; exposed for the writer's own footers). */
int chv_orc_types_check(struct chv_orc_footer *f, const char *path,
                        struct chv_error *err);
int chv_orc_postscript_decode(const void *p, size_t len, const char *path,
                              struct chv_orc_postscript *out,
                              struct chv_error *err);

/* ---- Metadata (stripe statistics) -------------------------------------- */

struct chv_orc_stripe_stats {
  uint32_t ncolumns;
  struct chv_orc_column_stats *columns;
};

struct chv_orc_metadata {
  uint32_t nstripes;
  struct chv_orc_stripe_stats *stripes;
  chv_arena *arena; /* owns everything above (NULL when built by hand) */
};

/* Read the Metadata section of the file whose tail is t: one entry per
** stripe (files whose writer left it out give none).  out: close with
** chv_orc_metadata_close(). */
int chv_orc_metadata_open(const struct chv_orc_tail *t,
                          const struct chv_orc_input *in,
                          struct chv_orc_metadata **out, struct chv_error *err);
void chv_orc_metadata_close(struct chv_orc_metadata *m);

/* ---- stripe footers ---------------------------------------------------- */

struct chv_orc_stream_info {
  int32_t kind;    /* enum chv_orc_stream_kind */
  uint32_t column; /* type id */
  uint64_t length; /* bytes as stored */
  uint64_t offset; /* derived: file offset of the stream */
};

struct chv_orc_encoding {
  int32_t kind; /* enum chv_orc_encoding_kind */
  bool has_dictionary_size;
  uint32_t dictionary_size;
  bool has_bloom_encoding;
  uint32_t bloom_encoding; /* 1: ORC-135 (timestamps in UTC) */
};

struct chv_orc_stripe_footer {
  uint32_t nstreams;
  struct chv_orc_stream_info *streams; /* in file order */
  uint32_t ncolumns;
  struct chv_orc_encoding *columns; /* one per type */
  const char *writer_timezone;      /* NULL when absent */
  uint32_t nencryption;             /* encryption variants (counted) */
};

/* Read, decompress and decode the footer of stripe `stripe` of the file
** whose tail is t, into arena (stream offsets are file offsets).  codec:
** the file's (chv_orc_tail_codec_open). */
int chv_orc_stripe_footer_read(const struct chv_orc_tail *t,
                               const struct chv_orc_input *in,
                               chv_orc_codec *codec, uint32_t stripe,
                               chv_arena *arena,
                               struct chv_orc_stripe_footer *out,
                               struct chv_error *err);
/* The same from the stripe footer's bytes as stored (compressed). */
int chv_orc_stripe_footer_decode(const struct chv_orc_tail *t,
                                 chv_orc_codec *codec, uint32_t stripe,
                                 const void *p, size_t len, chv_arena *arena,
                                 struct chv_orc_stripe_footer *out,
                                 struct chv_error *err);
/* The first stream of this column and kind, or NULL. */
const struct chv_orc_stream_info *
chv_orc_stripe_find_stream(const struct chv_orc_stripe_footer *sf,
                           uint32_t column, int32_t kind);

/* ---- index streams ----------------------------------------------------- */

struct chv_orc_row_index_entry {
  uint32_t npositions;
  uint64_t *positions; /* per stream of the column, in the order of ORCv1's
                          column encoding tables: [chunk offset,] byte
                          offset in it, values into the run... */
  struct chv_orc_column_stats *statistics; /* NULL when absent */
};

struct chv_orc_row_index {
  uint32_t nentries; /* one per row group */
  struct chv_orc_row_index_entry *entries;
};

struct chv_orc_bloom_filter {
  uint32_t num_hash_functions;
  uint32_t nbitset;
  uint64_t *bitset;                /* BLOOM_FILTER: the bits as longs */
  struct chv_orc_bytes utf8bitset; /* BLOOM_FILTER_UTF8: little-endian
                                      longs as bytes (a multiple of 8) */
};

struct chv_orc_bloom_index {
  uint32_t nfilters; /* one per row group */
  struct chv_orc_bloom_filter *filters;
};

/* Whether a bloom filter can be used: 1..CHV_ORC_MAX_BLOOM_HASHES hash
** functions and a non-empty bitset (whole longs).  A filter that is not
** usable says nothing: treat its row group as possibly matching.  (Some
** early Hive writers put other fields in these numbers; and filters of ORC
** C++ writers before 1.6.12 hash numbers differently, which the caller
** checks from the footer's writer and software_version.) */
bool chv_orc_bloom_filter_usable(const struct chv_orc_bloom_filter *b);

/* Decompress and decode a ROW_INDEX or BLOOM_FILTER(_UTF8) stream's bytes
** as stored, into arena.  what names the stream in messages ("x.orc:
** stripe 0, column 3"). */
int chv_orc_row_index_decode(chv_orc_codec *codec, const void *p, size_t len,
                             chv_arena *arena, const char *what,
                             struct chv_orc_row_index *out,
                             struct chv_error *err);
int chv_orc_bloom_index_decode(chv_orc_codec *codec, const void *p, size_t len,
                               chv_arena *arena, const char *what,
                               struct chv_orc_bloom_index *out,
                               struct chv_error *err);

/* ---- writing the messages ---------------------------------------------- */

/* Each appends the message's protobuf bytes (uncompressed) to out, with the
** fields the model has (optional ones only when set). */
int chv_orc_postscript_write(const struct chv_orc_postscript *ps,
                             struct chv_buf *out, struct chv_error *err);
int chv_orc_footer_write(const struct chv_orc_footer *f, struct chv_buf *out,
                         struct chv_error *err);
int chv_orc_metadata_write(const struct chv_orc_metadata *m,
                           struct chv_buf *out, struct chv_error *err);
int chv_orc_stripe_footer_write(const struct chv_orc_stripe_footer *sf,
                                struct chv_buf *out, struct chv_error *err);
int chv_orc_row_index_write(const struct chv_orc_row_index *x,
                            struct chv_buf *out, struct chv_error *err);
int chv_orc_bloom_index_write(const struct chv_orc_bloom_index *x,
                              struct chv_buf *out, struct chv_error *err);
int chv_orc_column_stats_write(const struct chv_orc_column_stats *s,
                               struct chv_buf *out, struct chv_error *err);

/* The end of an ORC file: Metadata (m may be NULL: none), Footer, both
** compressed with codec, then a PostScript (version 0.12, the codec's kind
** and block size, the lengths, writer_version, "ORC") and its length byte.
** Appended to out. */
int chv_orc_tail_write(chv_orc_codec *codec, const struct chv_orc_footer *f,
                       const struct chv_orc_metadata *m,
                       uint32_t writer_version, struct chv_buf *out,
                       struct chv_error *err);

/* ---- compression: codec and chunk framing ------------------------------ */

/* One file's compression: kind, block size and the decompression and
** compression contexts (created on first use).  kind NONE is valid: no
** framing at all.  CHV_ENOTSUP for an unknown kind, CHV_EINVAL for a block
** size of 0 or over CHV_ORC_MAX_BLOCK_SIZE.  out: close with
** chv_orc_codec_close() (NULL is a no-op). */
int chv_orc_codec_open(int32_t kind, uint64_t block_size, chv_orc_codec **out,
                       struct chv_error *err);
/* The codec of the file whose tail is t. */
int chv_orc_tail_codec_open(const struct chv_orc_tail *t, chv_orc_codec **out,
                            struct chv_error *err);
void chv_orc_codec_close(chv_orc_codec *c);
int32_t chv_orc_codec_kind(const chv_orc_codec *c);
uint64_t chv_orc_codec_block_size(const chv_orc_codec *c);
/* Compression level for writing (0: the codec's default; zlib 1..9, zstd
** 1..22, brotli 0..11; ignored by the others). */
void chv_orc_codec_set_level(chv_orc_codec *c, int level);

/* Decompress one chunk's bytes in[0, n) into out[0, cap) (*got bytes).
** More than cap bytes is CHV_ECORRUPT, as are bytes the codec rejects. */
int chv_orc_chunk_decompress(chv_orc_codec *c, const void *in, size_t n,
                             void *out, size_t cap, size_t *got,
                             struct chv_error *err);

/* A whole framed byte range (a Footer, a stripe footer, an index stream)
** decompressed and appended to out; for kind NONE the bytes as they are.
** More than `limit` bytes out is CHV_ECORRUPT.  what names the range in
** messages. */
int chv_orc_decompress_all(chv_orc_codec *c, const void *in, size_t n,
                           int64_t limit, const char *what, struct chv_buf *out,
                           struct chv_error *err);
/* The opposite: in[0, n) cut into chunks of at most the block size, each
** compressed (or kept original when compression does not make it smaller)
** behind its header, appended to out; kind NONE appends the bytes. */
int chv_orc_compress_all(chv_orc_codec *c, const void *in, size_t n,
                         struct chv_buf *out, struct chv_error *err);

/* The 3-byte chunk header: length << 1 | original, little-endian. */
static inline void chv_orc_chunk_header(uint8_t h[3], uint32_t len,
                                        bool original) {
  uint32_t v = len << 1 | (original ? 1u : 0u);
  h[0] = (uint8_t)v;
  h[1] = (uint8_t)(v >> 8);
  h[2] = (uint8_t)(v >> 16);
}

/* ---- the decompressing stream reader (ORC's InStream) ------------------ */

/* Reads the uncompressed bytes of one stream, chunk by chunk, from its bytes
** as stored (borrowed; typically a slice of a stripe read into memory).
** The hot path (one byte, or a view of the current chunk) is inline. */
struct chv_orc_stream {
  chv_orc_codec *codec; /* borrowed; NULL or kind NONE: uncompressed */
  const uint8_t *data;  /* the stream as stored (borrowed) */
  size_t len;
  size_t next;        /* offset in data of the next chunk header */
  size_t chunk;       /* offset in data of the current chunk's header */
  const uint8_t *cur; /* uncompressed bytes of the current chunk */
  size_t cur_len;
  size_t cur_pos;   /* next byte of cur to hand out */
  uint8_t *scratch; /* owned: decompressed chunk (block size) */
  size_t scratch_cap;
  uint64_t produced; /* bytes of the chunks loaded so far, inflated */
  const char *name; /* borrowed, for messages ("x.orc: stripe 0, column 3
                       DATA") */
};

/* Start reading data[0, len).  Nothing is allocated until the first
** compressed chunk.  Release with chv_orc_stream_free(). */
void chv_orc_stream_init(struct chv_orc_stream *s, chv_orc_codec *codec,
                         const void *data, size_t len, const char *name);
void chv_orc_stream_free(struct chv_orc_stream *s);

/* Make the next chunk current (after the current one is used up): *got
** false at the end of the stream. */
int chv_orc_stream_advance(struct chv_orc_stream *s, bool *got,
                           struct chv_error *err);

/* One byte; the end of the stream is CHV_ECORRUPT ("stream ends"). */
int chv_orc_stream_byte_slow(struct chv_orc_stream *s, uint8_t *b,
                             struct chv_error *err);
static inline int chv_orc_stream_byte(struct chv_orc_stream *s, uint8_t *b,
                                      struct chv_error *err) {
  if (CHV_LIKELY(s->cur_pos < s->cur_len)) {
    *b = s->cur[s->cur_pos++];
    return CHV_OK;
  }
  return chv_orc_stream_byte_slow(s, b, err);
}

/* Exactly n bytes into out; fewer left is CHV_ECORRUPT. */
int chv_orc_stream_read(struct chv_orc_stream *s, void *out, size_t n,
                        struct chv_error *err);
/* n contiguous bytes: *p points into the current chunk when they lie in
** it, else they are copied into tmp (n bytes, the caller's). */
int chv_orc_stream_view(struct chv_orc_stream *s, size_t n, uint8_t *tmp,
                        const uint8_t **p, struct chv_error *err);
/* What is left of the current chunk (loading the next when it is used
** up), at most max bytes, consumed: *n == 0 at the end of the stream. */
int chv_orc_stream_next(struct chv_orc_stream *s, size_t max, const uint8_t **p,
                        size_t *n, struct chv_error *err);
int chv_orc_stream_skip(struct chv_orc_stream *s, uint64_t n,
                        struct chv_error *err);
/* True when no byte is left (decompresses ahead if it must know). */
bool chv_orc_stream_at_end(struct chv_orc_stream *s);

/* Seek as a row index position says: compressed streams to (offset of a
** chunk header in the stream, bytes into its uncompressed bytes),
** uncompressed ones to (byte offset) with `in_chunk` ignored.  Out of range
** is CHV_ECORRUPT. */
int chv_orc_stream_seek(struct chv_orc_stream *s, uint64_t chunk,
                        uint64_t in_chunk, struct chv_error *err);
/* The same from a row index entry's positions: takes 2 of them from
** pos[*i] on for a compressed stream, 1 for an uncompressed one, and moves
** *i past them (too few left is CHV_ECORRUPT). */
int chv_orc_stream_seek_positions(struct chv_orc_stream *s, const uint64_t *pos,
                                  uint32_t npos, uint32_t *i,
                                  struct chv_error *err);

/* ---- the compressing stream writer (ORC's OutStream) ------------------- */

/* Collects a stream's bytes and frames them as they come: whenever a block
** size of bytes is pending it is compressed (or kept original) into a
** chunk of `out`.  With kind NONE the bytes go to `out` as they are. */
struct chv_orc_out {
  chv_orc_codec *codec; /* borrowed; NULL: uncompressed */
  struct chv_buf out;   /* owned: the stream as it will be stored */
  uint8_t *pending;     /* owned: bytes not yet in a chunk */
  size_t pending_len;
  size_t block;          /* chunk size (the codec's block size) */
  uint64_t uncompressed; /* bytes written in all */
  int status;            /* sticky: the first failure */
};

void chv_orc_out_init(struct chv_orc_out *o, chv_orc_codec *codec);
void chv_orc_out_free(struct chv_orc_out *o);
/* Forget everything written (a new stripe); keeps the buffers. */
void chv_orc_out_reset(struct chv_orc_out *o);
int chv_orc_out_write(struct chv_orc_out *o, const void *p, size_t n,
                      struct chv_error *err);
int chv_orc_out_byte(struct chv_orc_out *o, uint8_t b, struct chv_error *err);
/* Where the next byte goes, as a row index records it: for a compressed
** stream [offset of the pending chunk, bytes pending], for an uncompressed
** one [byte offset].  Returns the number of positions written (1 or 2). */
int chv_orc_out_position(const struct chv_orc_out *o, uint64_t pos[2]);
/* Compress what is pending into a last chunk.  o->out then holds the
** stream as it is stored. */
int chv_orc_out_flush(struct chv_orc_out *o, struct chv_error *err);

/* ---- ORC types as Hive sees them --------------------------------------- */

/* The Hive type of type `id` and its subtree (see docs/orc.md for the
** table):  BYTE->tinyint, SHORT->smallint, LONG->bigint, TIMESTAMP and
** TIMESTAMP_INSTANT->timestamp, DECIMAL without precision (Hive 0.11) ->
** decimal(38,18), CHAR/VARCHAR without a length or beyond Hive's limits ->
** string, GEOMETRY/GEOGRAPHY -> binary (WKB), UNION ->
** struct<tag:tinyint,field0:T0,...>.  CHV_ENOTSUP for a decimal over 38
** digits.  out: free with chv_type_free(). */
int chv_orc_hive_type(const struct chv_orc_tail *t, uint32_t id,
                      struct chv_type **out, struct chv_error *err);
/* The file's schema as a Hive STRUCT: the root's type when it is a struct,
** else a struct of one field "_col0" of the root's type. */
int chv_orc_hive_schema(const struct chv_orc_tail *t, struct chv_type **out,
                        struct chv_error *err);
/* The type of `id` as ORC prints it ("struct<a:int,b:map<string,int>>"),
** appended to buf. */
int chv_orc_type_format(const struct chv_orc_footer *f, uint32_t id,
                        struct chv_buf *buf);

#endif /* CHV_FORMAT_ORC_INT_H */
