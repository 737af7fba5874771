/*
** Small helpers the commands share.  The command line is a client of
** include/chive/ only (DESIGN.md), so it does not borrow the library's
** internal helpers (common/common.h); what it needs of them is here.
**
** INTERFACE
**   cli_trim()         a string without its leading and trailing blanks
*/
#include "cli.h"

#include <ctype.h>
#include <string.h>

char *cli_trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
  return s;
}
