/*
** sql/session/multi: FROM src INSERT ... INSERT ... (not run yet).
*/
#include "sql/session/session_int.h"

int sql_exec_multi_insert(struct sql_session *s, const struct chv_sql_stmt *st,
                          struct chv_sql_pos *pos, struct chv_error *err) {
  (void)s, (void)st, (void)pos;
  return sql_err(err, CHV_ENOTSUP,
                 "FROM ... INSERT ... INSERT (multi-insert) is not supported "
                 "yet");
}
