/*
** What check_cli_symbols.sh must catch: a function internal to libchive
** (common/common.h's chv_str_trim) called through a prototype written by
** hand, with include/ alone on the include path.  Compiled, never linked.
*/
#include "chive/common.h"

char *chv_str_trim(char *s);
char *cli_symbols_bad(char *s);

char *cli_symbols_bad(char *s) { return chv_str_trim(s); }
