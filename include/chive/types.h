/*
** types: Hive's type system and column batches.
**
** A struct chv_type describes one Hive type; nested types own their children.
** A struct chv_vector holds the values of one column for up to `capacity`
** rows, laid out as the Arrow C Data Interface lays them out so that a batch
** exports without copying (see "Physical layout" below).  A struct chv_batch is
** a row count plus one vector per field of a STRUCT type (the schema).
**
** INTERFACE
**   chv_type_parse()/chv_type_format()   Hive type strings <-> struct chv_type
**   chv_type_new()/chv_type_free()/chv_type_clone()/chv_type_equal()
**   chv_type_new_decimal()/_new_char()/_new_array()/_new_map()/_struct_add()
**   chv_vector_open()/chv_vector_close()/chv_vector_reset()/_reserve()
**   chv_vector_set_null()/_set_valid()/_is_null()
**   chv_vector_append_value()/_bytes()/_string()/_null()/_nested()
**   chv_batch_open()/chv_batch_close()/chv_batch_reset()
**   chv_vector_append_from()/chv_batch_copy()     deep copies
**   chv_batch_export()/chv_batch_export_schema()  Arrow C Data Interface
**   chv_type_export_schema()/chv_vector_export()/_export_schema()
**   chv_batch_stream_export()                     Arrow C Stream Interface
**   chv_arrow_validate()                          invariant checker
**   chv_decimal_*(), chv_date_*(), chv_timestamp_*()  value helpers
**
** Physical layout of a vector, by type id:
**   BOOLEAN              data: bit-packed, LSB first (Arrow "b")
**   TINYINT..BIGINT      data: int8_t/int16_t/int32_t/int64_t
**   FLOAT, DOUBLE        data: float/double
**   DECIMAL(p,s)         data: chv_i128, little-endian two's complement,
**                        the unscaled value (Arrow "d:p,s")
**   DATE                 data: int32_t days since 1970-01-01 (Arrow "tdD")
**   TIMESTAMP            data: struct chv_timestamp (seconds + nanos; Hive's
**                        range 0001..9999 does not fit int64 nanoseconds);
**                        exported as Arrow "tsn:" when every value fits,
**                        else "tsu:" (an error if that would drop digits)
**   STRING, VARCHAR,
**   CHAR, BINARY         offsets: int32_t[length + 1]; bytes: the heap
**   ARRAY                offsets: int32_t[length + 1]; children[0]: elements
**   MAP                  offsets: int32_t[length + 1]; children[0]: keys,
**                        children[1]: values (exported as Arrow map entries)
**   STRUCT               children[i]: field i, each `length` long
** validity: bit i set = row i is not NULL (Arrow convention); NULL pointer
** means "all valid" (null_count must then be 0).
**
** Thread safety: none; a vector or batch belongs to one thread at a time.
** Types are immutable after construction and may be shared read-only.
*/
#ifndef CHIVE_TYPES_H
#define CHIVE_TYPES_H

#include "chive/common.h"
#include "chive/arrow_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CHV_TYPE_ID_MAP(X)                                                    \
  X(BOOLEAN, "boolean")                                                       \
  X(TINYINT, "tinyint")                                                       \
  X(SMALLINT, "smallint")                                                     \
  X(INT, "int")                                                               \
  X(BIGINT, "bigint")                                                         \
  X(FLOAT, "float")                                                           \
  X(DOUBLE, "double")                                                         \
  X(DECIMAL, "decimal")                                                       \
  X(STRING, "string")                                                         \
  X(VARCHAR, "varchar")                                                       \
  X(CHAR, "char")                                                             \
  X(BINARY, "binary")                                                         \
  X(DATE, "date")                                                             \
  X(TIMESTAMP, "timestamp")                                                   \
  X(ARRAY, "array")                                                           \
  X(MAP, "map")                                                               \
  X(STRUCT, "struct")

enum chv_type_id {
#define CHV_X_(id, name) CHV_TYPE_##id,
  CHV_TYPE_ID_MAP(CHV_X_)
#undef CHV_X_
  CHV_TYPE_COUNT
};

#define CHV_DECIMAL_MAX_PRECISION 38
#define CHV_DECIMAL_DEFAULT_PRECISION 10 /* bare DECIMAL = DECIMAL(10,0) */
#define CHV_CHAR_MAX_LENGTH 255
#define CHV_VARCHAR_MAX_LENGTH 65535
#define CHV_TYPE_MAX_DEPTH 64 /* nesting limit of parsed type strings */

/* __extension__: ISO C has no 128-bit integer; GCC and Clang do. */
__extension__ typedef __int128 chv_i128;

struct chv_timestamp {
  int64_t seconds; /* since 1970-01-01 00:00:00, no time zone (Hive's) */
  int32_t nanos;   /* 0 .. 999,999,999 */
  int32_t pad_;    /* keeps the struct 16 bytes; always 0 */
};

struct chv_type {
  enum chv_type_id id;
  int precision;            /* DECIMAL: 1..38 */
  int scale;                /* DECIMAL: 0..precision */
  int length;               /* CHAR: 1..255, VARCHAR: 1..65535 */
  int nchildren;            /* ARRAY 1, MAP 2, STRUCT fields */
  struct chv_type **children;
  char **names;             /* STRUCT field names (nchildren), else NULL */
};

/* Name of a type id ("bigint"). */
CHV_API const char *chv_type_id_name(enum chv_type_id id);
/* Width in bytes of one value in `data`, 0 for variable/nested/BOOLEAN. */
CHV_API size_t chv_type_fixed_width(enum chv_type_id id);
CHV_API bool
chv_type_is_string_like(enum chv_type_id id); /* STRING/VARCHAR/CHAR/BINARY */
CHV_API bool chv_type_is_integer(enum chv_type_id id); /* TINYINT..BIGINT */
CHV_API bool chv_type_is_primitive(enum chv_type_id id);

/* Parse a Hive type string: "int", "decimal(10,2)", "varchar(20)",
** "map<string,array<struct<a:int,b:decimal(10,2)>>>".  Case-insensitive,
** white space allowed between tokens; "integer" and "dec"/"numeric" are
** accepted as Hive accepts them.  Errors (CHV_ESYNTAX; CHV_ENOTSUP for Hive
** types chive lacks, such as uniontype) name the column (0-based offset)
** and what was expected.  out: free with chv_type_free(). */
CHV_API int chv_type_parse(const char *text, struct chv_type **out,
                           struct chv_error *err);
/* Parse "a int, b map<string,int>" (a column list) into a STRUCT type. */
CHV_API int chv_type_parse_columns(const char *text, struct chv_type **out,
                                   struct chv_error *err);
/* Append the canonical lower-case Hive spelling to buf. */
CHV_API int chv_type_format(const struct chv_type *t, struct chv_buf *buf);

/* Constructors; children and names passed in are taken over (ownership
** moves to the new type even on failure, so callers never double free). */
CHV_API int chv_type_new(enum chv_type_id id, struct chv_type **out);
CHV_API int chv_type_new_decimal(int precision, int scale,
                                 struct chv_type **out, struct chv_error *err);
CHV_API int chv_type_new_char(enum chv_type_id id, int length,
                              struct chv_type **out, struct chv_error *err);
/* ARRAY<elem> and MAP<key,value>; the map key must be primitive
** (CHV_ETYPE otherwise).  Children are taken over even on failure. */
CHV_API int chv_type_new_array(struct chv_type *elem /* takes ownership */,
                               struct chv_type **out);
CHV_API int chv_type_new_map(struct chv_type *key /* takes ownership */,
                             struct chv_type *value /* takes ownership */,
                             struct chv_type **out, struct chv_error *err);
/* chv_type_new(CHV_TYPE_STRUCT) makes an empty STRUCT; add fields with
** chv_type_struct_add() (CHV_EEXIST for a duplicate name, compared
** case-insensitively; the field is freed on failure).  chv_type_new() of
** DECIMAL gives decimal(10,0), of CHAR/VARCHAR the maximum length, of
** ARRAY/MAP CHV_EINVAL (use the constructors above). */
CHV_API int chv_type_struct_add(struct chv_type *st, const char *name,
                                struct chv_type *field /* takes ownership */);
CHV_API int chv_type_clone(const struct chv_type *t, struct chv_type **out);
CHV_API bool chv_type_equal(const struct chv_type *a, const struct chv_type *b);
CHV_API void chv_type_free(struct chv_type *t);
/* Index of a STRUCT field by name, case-insensitively; -1 if absent. */
CHV_API int chv_type_field_index(const struct chv_type *st, const char *name);

/* ---- vectors ----------------------------------------------------------- */

struct chv_vector {
  const struct chv_type *type; /* borrowed; must outlive the vector */
  int64_t length;              /* rows in use */
  int64_t capacity;            /* rows allocated in data/offsets/validity */
  int64_t null_count;
  uint8_t *validity;           /* NULL = all valid */
  void *data;                  /* fixed-width values (see layout) */
  int32_t *offsets;            /* variable-width and ARRAY/MAP */
  char *bytes;                 /* string/binary heap */
  int64_t bytes_len;           /* heap bytes in use */
  int64_t bytes_cap;
  int nchildren;
  struct chv_vector **children;
};

CHV_API int chv_vector_open(const struct chv_type *type, int64_t capacity,
                            struct chv_vector **out, struct chv_error *err);
CHV_API void chv_vector_close(struct chv_vector *v);
/* length, null_count and bytes_len to 0, children too; capacity kept. */
CHV_API void chv_vector_reset(struct chv_vector *v);
/* Ensure room for `rows` rows in total (not additional). */
CHV_API int chv_vector_reserve(struct chv_vector *v, int64_t rows,
                               struct chv_error *err);
/* Ensure room for `extra` more heap bytes. */
CHV_API int chv_vector_reserve_bytes(struct chv_vector *v, int64_t extra,
                                     struct chv_error *err);
/* Mark row i NULL (allocating validity on first use) / valid. Row i must be
** below capacity.  Does not change length.  null_count counts the bits that
** go from valid to NULL (and back, for set_valid). */
CHV_API int chv_vector_set_null(struct chv_vector *v, int64_t i,
                                struct chv_error *err);
CHV_API void chv_vector_set_valid(struct chv_vector *v, int64_t i);
/* Append one fixed-width value as row `length`: `p` points to a value of the
** vector's C type (bool for BOOLEAN, chv_i128 for DECIMAL, int32_t days for
** DATE, struct chv_timestamp for TIMESTAMP). */
CHV_API int chv_vector_append_value(struct chv_vector *v, const void *p,
                                    struct chv_error *err);
static inline bool chv_vector_is_null(const struct chv_vector *v, int64_t i) {
  return v->validity && !(v->validity[i >> 3] & (1u << (i & 7)));
}
static inline bool chv_bit_get(const uint8_t *bits, int64_t i) {
  return (bits[i >> 3] >> (i & 7)) & 1;
}
static inline void chv_bit_set(uint8_t *bits, int64_t i, bool on) {
  if (on)
    bits[i >> 3] |= (uint8_t)(1u << (i & 7));
  else
    bits[i >> 3] &= (uint8_t)~(1u << (i & 7));
}
/* Append one value to a variable-width vector as row `length` (length grows
** by one; offsets and heap as needed). */
CHV_API int chv_vector_append_bytes(struct chv_vector *v, const void *p,
                                    size_t n, struct chv_error *err);
/* Append a string value under the Hive length rule of the vector's type
** (as HiveVarchar/HiveChar apply it, counting UTF-8 code points):
** VARCHAR(n) keeps the first n characters; CHAR(n) keeps the first n and
** pads with spaces to exactly n; STRING and BINARY take the bytes as they are. */
CHV_API int chv_vector_append_string(struct chv_vector *v, const char *p,
                                     size_t n, struct chv_error *err);
/* Bytes taken by the first `chars` UTF-8 code points of s[0, n) (all n when
** there are fewer); *count gets the code points counted (may be NULL). */
CHV_API size_t chv_utf8_prefix(const char *s, size_t n, int64_t chars,
                               int64_t *count);
/* Append a NULL row to any vector (nested children untouched except that
** ARRAY/MAP offsets repeat; a STRUCT appends a NULL to each field so that
** fields stay `length` long).  Fixed-width slots of NULL rows are zeroed. */
CHV_API int chv_vector_append_null(struct chv_vector *v, struct chv_error *err);
/* Append a non-NULL ARRAY/MAP/STRUCT row made of what was appended to the
** children since the previous row: ARRAY/MAP set offsets[length + 1] to the
** element count of children[0] (MAP keys and values must agree); STRUCT
** checks that every field already holds length + 1 rows. */
CHV_API int chv_vector_append_nested(struct chv_vector *v,
                                     struct chv_error *err);

/* ---- batches ----------------------------------------------------------- */

struct chv_batch {
  const struct chv_type *schema; /* borrowed STRUCT type */
  int64_t nrows;
  int ncols;
  struct chv_vector **cols; /* one per schema field */
};

CHV_API int chv_batch_open(const struct chv_type *schema, int64_t capacity,
                           struct chv_batch **out, struct chv_error *err);
CHV_API void chv_batch_close(struct chv_batch *b);
CHV_API void chv_batch_reset(struct chv_batch *b);

/* Append row `row` of src to dst, deep-copying strings and nested values;
** both vectors must be of the same type (CHV_EINVAL otherwise, or for a row
** outside src).  Strings are copied as they are (no CHAR/VARCHAR rule is
** applied again).  On failure dst may hold part of a nested row: discard it. */
CHV_API int chv_vector_append_from(struct chv_vector *dst,
                                   const struct chv_vector *src, int64_t row,
                                   struct chv_error *err);
/* Append n rows of src to dst (both of one type, CHV_EINVAL otherwise or
** for a row outside src): rows[0..n) when rows is not NULL, else the rows
** start .. start + n - 1.  A gather in bulk: fixed-width values and strings
** are copied without a call per value (nested types row by row).  NULL
** rows append as chv_vector_append_null() appends them.  On failure dst
** may hold part of the rows: discard it. */
CHV_API int chv_vector_append_rows(struct chv_vector *dst,
                                   const struct chv_vector *src,
                                   const uint32_t *rows, int64_t start,
                                   int64_t n, struct chv_error *err);
/* A new batch on the same (borrowed) schema holding a deep copy of src's
** nrows rows, owned by the caller: chv_batch_close() or chv_batch_export()
** it.  Useful to keep a batch that is only lent (chv_scan_next()). */
CHV_API int chv_batch_copy(const struct chv_batch *src, struct chv_batch **out,
                           struct chv_error *err);

/* ---- Arrow C Data / Stream interfaces ---------------------------------- */

/* Metadata key of exported CHAR and VARCHAR fields, whose value is the Hive
** type ("varchar(20)"): Arrow's "u" has no length. */
#define CHV_ARROW_HIVE_TYPE_KEY "hive.type"

/* Export a type as an ArrowSchema (a STRUCT becomes "+s" with children).
** TIMESTAMP is "tsn:" here (a type alone cannot know its values' range; see
** chv_batch_export_schema()).  out: released by its release callback. */
CHV_API int chv_type_export_schema(const struct chv_type *t, const char *name,
                                   struct ArrowSchema *out,
                                   struct chv_error *err);
/* Export a batch as a "+s" ArrowArray.  The batch is moved into the export:
** *b is set to NULL and freed when the consumer releases the array.  On
** failure the batch stays the caller's, unchanged: CHV_ERANGE for a timestamp
** that its Arrow unit cannot hold, CHV_EINVAL for a NULL map key (Arrow maps
** have none), CHV_ENOMEM. */
CHV_API int chv_batch_export(struct chv_batch **b, struct ArrowArray *out,
                             struct chv_error *err);
/* The schema matching what chv_batch_export() will produce for this batch:
** like chv_type_export_schema() of b->schema, except that a TIMESTAMP column
** is "tsu:" when one of its values does not fit int64 nanoseconds.  Call it
** before chv_batch_export(), which moves the batch. */
CHV_API int chv_batch_export_schema(const struct chv_batch *b,
                                    struct ArrowSchema *out,
                                    struct chv_error *err);
/* Export a single vector (moved, as above), and the schema matching that
** export (call it first; TIMESTAMP units are chosen as for a batch column). */
CHV_API int chv_vector_export(struct chv_vector **v, struct ArrowArray *out,
                              struct chv_error *err);
CHV_API int chv_vector_export_schema(const struct chv_vector *v,
                                     const char *name, struct ArrowSchema *out,
                                     struct chv_error *err);

/* A producer of batches, wrapped as an ArrowArrayStream. next() returns
** CHV_OK and sets *out to a batch (ownership passes) or NULL at end.
** The stream takes over the source (close() is called when the stream is
** released, or when chv_batch_stream_export() fails).  The stream reads the
** first batch ahead to fix the TIMESTAMP units of its schema; a later batch
** whose timestamps do not fit those units fails get_next() with EINVAL. */
struct chv_batch_source {
  const struct chv_type *schema;
  int (*next)(void *ctx, struct chv_batch **out, struct chv_error *err);
  void (*close)(void *ctx);
  void *ctx;
};
CHV_API int chv_batch_stream_export(struct chv_batch_source src,
                                    struct ArrowArrayStream *out,
                                    struct chv_error *err);

/* Check the Arrow invariants of an exported array against its schema:
** format strings, buffer counts, offsets monotone and in range, validity
** and null_count agreeing, child lengths, dictionary absent, release set.
** Errors name the path of the offending node ("col.items.key"). */
CHV_API int chv_arrow_validate(const struct ArrowSchema *schema,
                               const struct ArrowArray *array,
                               struct chv_error *err);

/* ---- value helpers ----------------------------------------------------- */

/* Days since the epoch <-> civil date (proleptic Gregorian, as Hive 3). */
CHV_API int32_t chv_date_from_ymd(int y, int m, int d);
CHV_API void chv_date_to_ymd(int32_t days, int *y, int *m, int *d);
/* Parse "YYYY-MM-DD" as Hive's Date.valueOf does: trimmed, 1- to 4-digit
** year (1..9999 here), 1- to 2-digit month/day, invalid dates such as
** 2023-02-30 CHV_EINVAL; text after the date is ignored ("2021-02-22
** 09:39:27", "2021-02-22T09:39:27Z") unless it starts with a digit. */
CHV_API int chv_date_parse(const char *s, size_t n, int32_t *out);
/* Format into buf (at least 16 bytes); returns length. */
CHV_API int chv_date_format(int32_t days, char *buf);

/* Parse "YYYY-MM-DD[ HH:MM:SS[.fffffffff]]" as Hive's Timestamp.valueOf
** does (1- or 2-digit fields, up to 9 fraction digits, calendar checked), or
** the ISO form "YYYY-MM-DDTHH:MM[:SS[.f…]]"; a date alone is midnight.
** CHV_EINVAL when malformed; *out is written only on success. */
CHV_API int chv_timestamp_parse(const char *s, size_t n,
                                struct chv_timestamp *out);
/* "YYYY-MM-DD HH:MM:SS[.f…]" with the fraction's significant digits;
** buf at least 40 bytes; returns length. */
CHV_API int chv_timestamp_format(struct chv_timestamp ts, char *buf);

/* Parse a decimal literal ([+-]digits[.digits][e[+-]dd], blanks around)
** into an unscaled value at `scale` as HiveDecimal does: the literal keeps at
** most 38 digits (the 39th rounds half up), then the scale is enforced
** rounding half up (away from zero).  CHV_ERANGE when the result does not
** fit `precision` (or the literal has over 38 integer digits), CHV_EINVAL
** when malformed (also an exponent of more than two digits, as in Hive). */
CHV_API int chv_decimal_parse(const char *s, size_t n, int precision, int scale,
                              chv_i128 *out);
/* Format an unscaled value at `scale` ("12.30"); buf >= 48 bytes. */
CHV_API int chv_decimal_format(chv_i128 v, int scale, char *buf);

#ifdef __cplusplus
}
#endif
#endif /* CHIVE_TYPES_H */
