/*
** Errors: filling struct chv_error with a status, its SQLSTATE and a message.
** The status table is CHV_ERRNO_MAP of include/chive/chive.h.  A long %s
** argument is quoted shortened in the middle (chv_str_abbrev()) and a
** message longer than the buffer keeps its start and its end, so the reason
** an error gives is never cut off by a long name before it.
*/
#include "common.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
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

/* vsnprintf(out, size, fmt, ap), except that a %s argument of more than
** CHV_ABBREV_MAX bytes is quoted by chv_str_abbrev(): a long name or
** statement in a message leaves room for the rest of it.  The format is a
** printf format checked by the compiler (CHV_PRINTF); each conversion is
** handed to snprintf on its own.  Returns the length of the whole message,
** which may exceed size. */
static size_t msg_vformat(char *out, size_t size, const char *fmt,
                          va_list ap) {
  size_t len = 0;
  if (size) out[0] = '\0';
#define EMIT_(...)                                                            \
  do {                                                                        \
    size_t room_ = len < size ? size - len : 0;                               \
    int k_ = snprintf(room_ ? out + len : NULL, room_, __VA_ARGS__);          \
    if (k_ > 0) len += (size_t)k_;                                            \
  } while (0)
  for (const char *f = fmt; *f;) {
    if (*f != '%' || f[1] == '%') {
      const char *e = *f == '%' ? f + 1 : f;
      size_t n = *f == '%' ? 1 : strcspn(f, "%");
      EMIT_("%.*s", (int)n, e);
      f = e + (*f == '%' ? 1 : n);
      continue;
    }
    /* one conversion, '*' width and precision written out as digits */
    char spec[48];
    size_t k = 0;
    spec[k++] = *f++;
    while (*f && strchr("-+ #0'", *f) && k < 8) spec[k++] = *f++;
    if (*f == '*') {
      k += (size_t)snprintf(spec + k, 16, "%d", va_arg(ap, int));
      f++;
    }
    while (*f >= '0' && *f <= '9' && k < 24) spec[k++] = *f++;
    int prec = -1;
    size_t prec_at = k;
    if (*f == '.') {
      f++;
      prec = 0;
      if (*f == '*') {
        prec = va_arg(ap, int);
        f++;
      } else {
        while (*f >= '0' && *f <= '9') prec = prec * 10 + (*f++ - '0');
      }
      if (prec >= 0) k += (size_t)snprintf(spec + k, 16, ".%d", prec);
    }
    char lm[3] = {0};
    for (int i = 0; i < 2 && *f && strchr("hljztL", *f); i++) lm[i] = *f++;
    size_t lm_at = k;
    for (int i = 0; lm[i]; i++) spec[k++] = lm[i];
    char c = *f ? *f++ : '\0';
    spec[k++] = c;
    spec[k] = '\0';
    bool l1 = lm[0] == 'l' && !lm[1], ll = lm[0] == 'l' && lm[1] == 'l';
    switch (c) {
    case 'd': case 'i':
      if (ll) EMIT_(spec, va_arg(ap, long long));
      else if (l1) EMIT_(spec, va_arg(ap, long));
      else if (lm[0] == 'j') EMIT_(spec, va_arg(ap, intmax_t));
      else if (lm[0] == 'z') EMIT_(spec, va_arg(ap, size_t));
      else if (lm[0] == 't') EMIT_(spec, va_arg(ap, ptrdiff_t));
      else EMIT_(spec, va_arg(ap, int));
      break;
    case 'u': case 'o': case 'x': case 'X':
      if (ll) EMIT_(spec, va_arg(ap, unsigned long long));
      else if (l1) EMIT_(spec, va_arg(ap, unsigned long));
      else if (lm[0] == 'j') EMIT_(spec, va_arg(ap, uintmax_t));
      else if (lm[0] == 'z') EMIT_(spec, va_arg(ap, size_t));
      else if (lm[0] == 't') EMIT_(spec, va_arg(ap, ptrdiff_t));
      else EMIT_(spec, va_arg(ap, unsigned));
      break;
    case 'c':
      EMIT_(spec, va_arg(ap, int));
      break;
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a':
    case 'A':
      if (lm[0] == 'L') EMIT_(spec, va_arg(ap, long double));
      else EMIT_(spec, va_arg(ap, double));
      break;
    case 'p':
      EMIT_(spec, va_arg(ap, void *));
      break;
    case 's': {
      const char *str = va_arg(ap, const char *);
      if (str == NULL) str = "(null)";
      size_t n = prec >= 0 ? strnlen(str, (size_t)prec) : strlen(str);
      if (n > CHV_ABBREV_MAX) {
        char ab[CHV_ABBREV_SIZE];
        /* the same width, without the precision */
        memmove(spec + prec_at, spec + lm_at, k - lm_at + 1);
        EMIT_(spec, chv_str_abbrev(str, n, ab));
      } else {
        EMIT_(spec, str);
      }
      break;
    }
    default: /* %n and anything unknown: nothing printed */
      break;
    }
  }
#undef EMIT_
  return len;
}

/* The message text[0, n) (held in a buffer of text_size bytes) into
** dst[CHV_ERROR_MSG_SIZE]; one too long keeps its start and its end (most
** often the reason) around "…". */
static void msg_fit(char *dst, const char *text, size_t n, size_t text_size) {
  if (n < CHV_ERROR_MSG_SIZE) {
    memmove(dst, text, n + 1);
    return;
  }
  if (n >= text_size) n = text_size - 1;
  size_t keep = (CHV_ERROR_MSG_SIZE - 4) / 2;
  size_t head = chv_utf8_floor(text, n, keep);
  size_t tail = chv_utf8_floor(text, n, n - keep);
  memmove(dst, text, head);
  memcpy(dst + head, "\xe2\x80\xa6", 3);
  memmove(dst + head + 3, text + tail, n - tail);
  dst[head + 3 + n - tail] = '\0';
}

/* Long enough for any message of short pieces and a few long arguments
** quoted by chv_str_abbrev(). */
#define MSG_WORK_SIZE (4 * CHV_ERROR_MSG_SIZE)

int chv_error_setv(struct chv_error *err, int code, const char *fmt,
                   va_list ap) {
  if (err == NULL) return code;
  const struct status_info *s = status_find(code);
  char text[MSG_WORK_SIZE];
  size_t n = msg_vformat(text, sizeof text, fmt, ap);
  err->code = code;
  memcpy(err->sqlstate, s ? s->state : "XX000", 6);
  msg_fit(err->msg, text, n, sizeof text);
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
  char text[MSG_WORK_SIZE];
  va_list ap;
  va_start(ap, fmt);
  size_t n = msg_vformat(text, sizeof text - CHV_ERROR_MSG_SIZE - 2, fmt, ap);
  va_end(ap);
  if (n > sizeof text - CHV_ERROR_MSG_SIZE - 3)
    n = sizeof text - CHV_ERROR_MSG_SIZE - 3;
  size_t m = strnlen(err->msg, CHV_ERROR_MSG_SIZE - 1);
  memcpy(text + n, ": ", 2);
  memcpy(text + n + 2, err->msg, m);
  text[n + 2 + m] = '\0';
  msg_fit(err->msg, text, n + 2 + m, sizeof text);
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
  char text[MSG_WORK_SIZE];
  const char *why = strerror(errnum);
  size_t m = strlen(why);
  size_t room = sizeof text - m - 3;
  va_list ap;
  va_start(ap, fmt);
  size_t n = msg_vformat(text, room, fmt, ap);
  va_end(ap);
  if (n >= room) n = room - 1;
  memcpy(text + n, ": ", 2);
  memcpy(text + n + 2, why, m + 1);
  const struct status_info *s = status_find(code);
  err->code = code;
  memcpy(err->sqlstate, s ? s->state : "XX000", 6);
  msg_fit(err->msg, text, n + 2 + m, sizeof text);
  return code;
}
