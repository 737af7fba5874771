/*
** Small helpers the commands share.  The command line is a client of
** include/chive/ only (DESIGN.md), so it does not borrow the library's
** internal helpers (common/common.h); what it needs of them is here.
**
** INTERFACE
**   cli_buf_printf()   printf into a struct chv_buf
**   cli_error()        a message of the command's own in a struct chv_error
**   cli_trim()         a string without its leading and trailing blanks
*/
#include "cli.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int cli_buf_printf(struct chv_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return CHV_EINVAL;
  int rc = chv_buf_reserve(b, (size_t)n);
  if (rc != CHV_OK) return rc;
  va_start(ap, fmt);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
  return CHV_OK;
}

char *cli_trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
  return s;
}

int cli_error(struct chv_error *err, int code, const char *fmt, ...) {
  if (err == NULL) return code;
  err->code = code;
  err->sqlstate[0] = '\0';
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
  return code;
}
