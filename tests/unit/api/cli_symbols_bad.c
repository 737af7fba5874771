/*
** What check_cli_symbols.sh must catch: a function internal to libchive
** (common/common.h's chv_buf_printf) called through a prototype written by
** hand, with include/ alone on the include path.  Compiled, never linked.
*/
#include "chive/common.h"

int chv_buf_printf(struct chv_buf *b, const char *fmt, ...);
int cli_symbols_bad(struct chv_buf *b);

int cli_symbols_bad(struct chv_buf *b) {
  chv_buf_init(b);
  return chv_buf_printf(b, "%d", 42);
}
