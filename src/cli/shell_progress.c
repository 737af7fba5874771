/*
** cli/shell_progress: the progress line of a statement that runs longer
** than SHELL_PROGRESS_DELAY seconds, on standard error when it is a
** terminal (the session's progress callback is only set then):
**
**   [##########          ] 50%  12/24 splits  1234567 rows  3.2 s
**   1234567 rows  45.6 MB  3.2 s             (a write, or a scan of files
**                                             read one at a time)
**
** The statement's thread draws it; the main thread prints results.  When
** both go to the terminal, each write of results first takes the line
** away (under one lock), and the next report draws it again below them.
**
** INTERFACE: shell_progress(), shell_progress_begin(), shell_progress_end(),
** shell_output(), shell_progress_hide().
*/
#include "shell.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static bool shown; /* the line is on the terminal (under mu) */
static struct timespec began;

static void hide_locked(void) {
  if (shown) fputs("\r\033[K", stderr);
  shown = false;
}

void shell_progress_hide(void) {
  pthread_mutex_lock(&mu);
  hide_locked();
  pthread_mutex_unlock(&mu);
}

/* Columns of the terminal on stderr (80 when unknown). */
static int columns(void) {
  struct winsize ws;
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10)
    return ws.ws_col;
  return 80;
}

/* Appends to line[*n, cap) what fmt makes, cut to fit. */
static void add(char *line, size_t *n, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add(char *line, size_t *n, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(line + *n, cap - *n, fmt, ap);
  va_end(ap);
  if (k > 0) *n = *n + (size_t)k < cap ? *n + (size_t)k : cap - 1;
}

void shell_progress(void *ctx, const struct chv_progress *p) {
  struct shell *sh = ctx;
  if (p->elapsed < SHELL_PROGRESS_DELAY) return;
  char line[512];
  size_t n = 0;
  if (p->splits_total > 0) {
    int64_t done = p->splits_done < 0 ? 0 : p->splits_done;
    if (done > p->splits_total) done = p->splits_total;
    int fill = (int)(20 * done / p->splits_total);
    char bar[21];
    memset(bar, '#', (size_t)fill);
    memset(bar + fill, ' ', (size_t)(20 - fill));
    bar[20] = '\0';
    add(line, &n, sizeof line, "[%s] %3d%%  %lld/%lld splits  ", bar,
        (int)(100 * done / p->splits_total), (long long)done,
        (long long)p->splits_total);
  }
  if (p->rows >= 0)
    add(line, &n, sizeof line, "%lld rows  ", (long long)p->rows);
  if (p->bytes_written >= 0)
    add(line, &n, sizeof line, "%.1f MB  ", (double)p->bytes_written / 1e6);
  add(line, &n, sizeof line, "%.1f s", p->elapsed);
  int cols = columns();
  if (n >= (size_t)cols) n = (size_t)cols - 1; /* one line, never wrapped */
  pthread_mutex_lock(&mu);
  if (sh->out_tty) fflush(sh->out); /* the rows so far stay above it */
  fputc('\r', stderr);
  fwrite(line, 1, n, stderr);
  fputs("\033[K", stderr);
  fflush(stderr);
  shown = true;
  pthread_mutex_unlock(&mu);
}

void shell_progress_begin(struct shell *sh) {
  (void)sh;
  clock_gettime(CLOCK_MONOTONIC, &began);
}

double shell_progress_end(struct shell *sh) {
  (void)sh;
  shell_progress_hide();
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - began.tv_sec) +
         (double)(t.tv_nsec - began.tv_nsec) / 1e9;
}

void shell_output(struct shell *sh, const void *data, size_t n) {
  if (!sh->out_tty || !sh->err_tty) {
    fwrite(data, 1, n, sh->out);
    return;
  }
  pthread_mutex_lock(&mu);
  hide_locked();
  fwrite(data, 1, n, sh->out);
  fflush(sh->out);
  pthread_mutex_unlock(&mu);
}
