/*
** chive public API: common definitions.
**
** Every function of the library returns an int status: CHV_OK (0) on success
** or a negative CHV_E* code, and fills an optional struct chv_error with a
** message that names the file, key, line or column at fault.  Passing NULL
** for the error is always allowed.
**
** Thread safety: struct chv_error is owned by its caller; functions that take
** one write only to it and never keep it.
**
** This is the base header every other public header includes; chive/all.h
** includes them all.  Functions of the library are exported from libchive.so
** when declared CHV_API; nothing else is.
*/
#ifndef CHIVE_CHIVE_H
#define CHIVE_CHIVE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define CHV_API __declspec(dllexport)
#else
#define CHV_API __attribute__((visibility("default")))
#endif

#define CHV_VERSION "0.1.0"

/* Status codes, one X-macro list so the names table cannot drift. */
#define CHV_ERRNO_MAP(X)                                                      \
  X(OK, 0, "00000", "success")                                                \
  X(ENOMEM, -1, "53200", "out of memory")                                     \
  X(EINVAL, -2, "22023", "invalid argument")                                  \
  X(EIO, -3, "58030", "i/o error")                                            \
  X(ENOENT, -4, "42704", "not found")                                         \
  X(EEXIST, -5, "42710", "already exists")                                    \
  X(ECORRUPT, -6, "XX001", "malformed data")                                  \
  X(EPROTO, -7, "08P01", "protocol violation")                                \
  X(ENOTSUP, -8, "0A000", "not supported")                                    \
  X(ESYNTAX, -9, "42601", "syntax error")                                     \
  X(ETYPE, -10, "42804", "type mismatch")                                     \
  X(EBUSY, -11, "55006", "busy")                                              \
  X(ERANGE, -12, "22003", "value out of range")                               \
  X(EINTERNAL, -13, "XX000", "internal error")                              \
  X(ECANCELED, -14, "57014", "cancelled")

enum chv_status {
#define CHV_X_(name, code, state, text) CHV_##name = code,
  CHV_ERRNO_MAP(CHV_X_)
#undef CHV_X_
};

#define CHV_ERROR_MSG_SIZE 1024

/* Detail of a failure.  code is the CHV_E* status, sqlstate the five
** character SQLSTATE a client sees, msg a NUL-terminated sentence. */
struct chv_error {
  int code;
  char sqlstate[6];
  char msg[CHV_ERROR_MSG_SIZE];
};

/* Name ("ENOMEM") and description of a status code; never NULL. */
CHV_API const char *chv_status_name(int code);
CHV_API const char *chv_status_text(int code);

/* The library version string, CHV_VERSION of the build. */
CHV_API const char *chv_version(void);

#ifdef __cplusplus
}
#endif
#endif /* CHIVE_CHIVE_H */
