/*
** Errors: filling struct chv_error with a status, its SQLSTATE and a message.
** The status table is CHV_ERRNO_MAP of include/chive/chive.h.
*/
#include "common.h"

#include <errno.h>
#include <stdio.h>

struct status_info {
  int code;
  const char *name;
  const char *state;
  const char *text;
};

static const struct status_info status_table[] = {
#define CHV_X_(name, code, state, text) {code, #name, state, text},
    CHV_ERRNO_MAP(CHV_X_)
#undef CHV_X_
};

static const struct status_info *status_find(int code) {
  for (size_t i = 0; i < CHV_ARRAY_SIZE(status_table); i++)
    if (status_table[i].code == code) return &status_table[i];
  return NULL;
}

const char *chv_status_name(int code) {
  const struct status_info *s = status_find(code);
  return s ? s->name : "EUNKNOWN";
}

const char *chv_status_text(int code) {
  const struct status_info *s = status_find(code);
  return s ? s->text : "unknown status";
}

const char *chv_version(void) { return CHV_VERSION; }

int chv_error_setv(struct chv_error *err, int code, const char *fmt,
                   va_list ap) {
  if (err == NULL) return code;
  const struct status_info *s = status_find(code);
  err->code = code;
  memcpy(err->sqlstate, s ? s->state : "XX000", 6);
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  return code;
}

int chv_error_set(struct chv_error *err, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  chv_error_setv(err, code, fmt, ap);
  va_end(ap);
  return code;
}

int chv_error_wrap(struct chv_error *err, const char *fmt, ...) {
  if (err == NULL) return CHV_EINTERNAL;
  char prefix[CHV_ERROR_MSG_SIZE];
  char old[CHV_ERROR_MSG_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prefix, sizeof prefix, fmt, ap);
  va_end(ap);
  memcpy(old, err->msg, sizeof old);
  size_t n = strlen(prefix);
  if (n > sizeof err->msg - 3) n = sizeof err->msg - 3;
  memcpy(err->msg, prefix, n);
  memcpy(err->msg + n, ": ", 2);
  size_t rest = sizeof err->msg - n - 3;
  size_t m = strnlen(old, rest);
  memcpy(err->msg + n + 2, old, m);
  err->msg[n + 2 + m] = '\0';
  return err->code;
}

void chv_error_clear(struct chv_error *err) {
  if (err == NULL) return;
  err->code = CHV_OK;
  memcpy(err->sqlstate, "00000", 6);
  err->msg[0] = '\0';
}

int chv_error_errno(struct chv_error *err, int errnum, const char *fmt, ...) {
  int code;
  switch (errnum) {
  case ENOENT: case ENOTDIR: code = CHV_ENOENT; break;
  case EEXIST: case ENOTEMPTY: code = CHV_EEXIST; break;
  case ENOMEM: code = CHV_ENOMEM; break;
  case EINVAL: code = CHV_EINVAL; break;
  case EBUSY: case EAGAIN: code = CHV_EBUSY; break;
  default: code = CHV_EIO; break;
  }
  if (err == NULL) return code;
  char ctx[CHV_ERROR_MSG_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx, sizeof ctx, fmt, ap);
  va_end(ap);
  return chv_error_set(err, code, "%s: %s", ctx, strerror(errnum));
}
