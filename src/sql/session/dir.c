/*
** sql/session/dir: INSERT OVERWRITE [LOCAL] DIRECTORY (not written yet).
*/
#include "sql/session/session_int.h"

int sql_dir_write(struct sql_dir *d, const struct chv_batch *b, int64_t n,
                  struct chv_error *err) {
  (void)d, (void)b, (void)n;
  return sql_err(err, CHV_ENOTSUP,
                 "INSERT OVERWRITE DIRECTORY is not supported yet");
}

int sql_exec_insert_directory(struct sql_session *s,
                              const struct chv_sql_stmt *st,
                              struct chv_sql_pos *pos, struct chv_error *err) {
  (void)s, (void)st, (void)pos;
  return sql_err(err, CHV_ENOTSUP,
                 "INSERT OVERWRITE DIRECTORY is not supported yet");
}
