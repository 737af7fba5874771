/*
** struct chv_buf: a growable byte buffer, kept NUL-terminated so that text
** built in it can be used as a C string without another copy.
*/
#include "common.h"

#include <stdio.h>

void chv_buf_init(struct chv_buf *b) {
  b->data = NULL;
  b->len = 0;
  b->cap = 0;
}

void chv_buf_free(struct chv_buf *b) {
  chv_free(b->data);
  chv_buf_init(b);
}

void chv_buf_reset(struct chv_buf *b) {
  b->len = 0;
  if (b->cap) b->data[0] = '\0';
}

int chv_buf_reserve(struct chv_buf *b, size_t extra) {
  if (extra > SIZE_MAX - b->len - 1) return CHV_ENOMEM;
  size_t need = b->len + extra + 1;
  if (need <= b->cap) return CHV_OK;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < need) cap = cap > SIZE_MAX / 2 ? need : cap * 2;
  char *p = chv_realloc(b->data, cap);
  if (p == NULL) return CHV_ENOMEM;
  b->data = p;
  b->cap = cap;
  return CHV_OK;
}

int chv_buf_append(struct chv_buf *b, const void *p, size_t n) {
  CHV_RETURN_IF_ERR(chv_buf_reserve(b, n));
  if (n) memcpy(b->data + b->len, p, n);
  b->len += n;
  b->data[b->len] = '\0';
  return CHV_OK;
}

int chv_buf_puts(struct chv_buf *b, const char *s) {
  return chv_buf_append(b, s, strlen(s));
}

int chv_buf_putc(struct chv_buf *b, char c) { return chv_buf_append(b, &c, 1); }

int chv_buf_printf(struct chv_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return CHV_EINVAL;
  CHV_RETURN_IF_ERR(chv_buf_reserve(b, (size_t)n));
  va_start(ap, fmt);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
  return CHV_OK;
}

char *chv_buf_detach(struct chv_buf *b) {
  char *p = b->data;
  if (p == NULL) p = chv_strdup("");
  chv_buf_init(b);
  return p;
}
