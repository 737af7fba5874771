/*
** Helpers shared by the files of src/connector (not part of its interface).
*/
#ifndef CHV_CONNECTOR_INT_H
#define CHV_CONNECTOR_INT_H

#include "connector/connector.h"
#include "format/text/text.h"

/* STRUCT type of the table's data columns, followed by its partition keys
** when with_pkeys.  Errors name the table and column of a bad type string.
** out: chv_type_free(). */
int conn_table_schema(const struct chv_table *t, bool with_pkeys,
                      struct chv_type **out, struct chv_error *err);

/* LazySimpleSerDe options from the table's SerDe parameters; CHV_ENOTSUP
** naming the format when the table is not a TEXTFILE table. */
int conn_table_text_options(const struct chv_table *t,
                            struct chv_text_options *o, struct chv_error *err);

/* A random (version 4) UUID as 36 characters and a NUL. */
int conn_uuid(char out[37], struct chv_error *err);

#endif
