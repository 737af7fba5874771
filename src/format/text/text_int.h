/*
** format/text private helpers shared by the reader and the writer.
*/
#ifndef CHV_FORMAT_TEXT_INT_H
#define CHV_FORMAT_TEXT_INT_H

#include "format/text/text.h"

/* CHV_ENOTSUP (naming path) unless the separators of o are enough for the
** nesting of schema, as Hive refuses deeper types. */
int chv_text_check_depth(const struct chv_type *schema,
                         const struct chv_text_options *o, const char *path,
                         struct chv_error *err);

/* Separator levels in use: o->nlevels clamped to 3..CHV_TEXT_MAX_LEVELS. */
int chv_text_nlevels(const struct chv_text_options *o);

#endif /* CHV_FORMAT_TEXT_INT_H */
