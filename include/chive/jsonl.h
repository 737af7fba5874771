/*
** format/text/jsonl: the shared JSON Lines printer of column batches, used
** by `chive dump` for every file format (it sits here until a format-neutral
** module exists; it depends only on types).
**
** One object a row, keys the column names in schema order; NULL is null;
** BOOLEAN true/false; integers and floats JSON numbers with the shortest
** digits that read back to the same value (NaN and infinities as the
** strings "NaN", "Infinity", "-Infinity"); DECIMAL a string with its scale
** ("12.30"); DATE "YYYY-MM-DD"; TIMESTAMP "YYYY-MM-DD HH:MM:SS[.f...]" with
** the fraction's significant digits; STRING, VARCHAR, CHAR JSON strings
** (bytes that are not UTF-8 become U+FFFD); BINARY base64; ARRAY a JSON
** array; STRUCT an object; MAP an array of {"key":...,"value":...} objects
** (keys of a Hive map need not be strings).
**
** INTERFACE
**   chv_jsonl_value()   one value of a vector
**   chv_jsonl_row()     one row of a batch as an object and '\n'
**
** Thread safety: pure functions of their arguments.
*/
#ifndef CHIVE_JSONL_H
#define CHIVE_JSONL_H

#include "chive/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Append the JSON form of v's row `row` to out.  Errors: CHV_ENOMEM. */
CHV_API int chv_jsonl_value(const struct chv_vector *v, int64_t row,
                            struct chv_buf *out);

/* Append {"col":value,...} and '\n' for batch row `row`. */
CHV_API int chv_jsonl_row(const struct chv_batch *b, int64_t row,
                          struct chv_buf *out);

/* The shortest digits of a double (or of a float when single) that read
** back to the same value, in plain notation for decimal exponents -5..16
** ("0.1", "1000", "1.5e+20" beyond); buf >= 32 bytes; returns the length.
** NaN and infinities are not handled here. */
CHV_API int chv_jsonl_real(double d, bool single, char *buf);

#ifdef __cplusplus
}
#endif
#endif /* CHIVE_JSONL_H */
