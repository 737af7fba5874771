/*
** Small helpers: ASCII case-insensitive comparison, trimming, long text
** shortened for messages, clocks.
*/
#include "common.h"

#include <ctype.h>
#include <stdio.h>
#include <time.h>

bool chv_str_ieq(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
  return *a == *b;
}

bool chv_str_nieq(const char *a, const char *b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
      return false;
    if (a[i] == '\0') return true;
  }
  return true;
}

char *chv_str_trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
  return s;
}

size_t chv_utf8_floor(const char *s, size_t n, size_t at) {
  if (at >= n) return n;
  /* back over continuation bytes (10xxxxxx), at most three */
  for (int k = 0; k < 3 && at > 0 && ((unsigned char)s[at] & 0xC0) == 0x80;
       k++)
    at--;
  return at;
}

const char *chv_str_abbrev(const char *s, size_t n, char buf[CHV_ABBREV_SIZE]) {
  if (n <= CHV_ABBREV_MAX) {
    memcpy(buf, s, n);
    buf[n] = '\0';
    return buf;
  }
  size_t head = chv_utf8_floor(s, n, CHV_ABBREV_KEEP);
  size_t tail = chv_utf8_floor(s, n, n - CHV_ABBREV_KEEP);
  snprintf(buf, CHV_ABBREV_SIZE, "%.*s\xe2\x80\xa6%.*s (%zu bytes)", (int)head, s,
           (int)(n - tail), s + tail, n);
  return buf;
}

int64_t chv_time_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t chv_time_mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
