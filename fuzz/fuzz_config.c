/*
** Fuzz target: option values and configuration files.  The first byte picks
** an option of the registry whose parser gets the rest of the input; the
** same bytes are then loaded as a configuration file.
*/
#include "config/config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int fd = -1;
  static char path[64];
  if (fd < 0) {
    fd = memfd_create("chv-fuzz-config", 0);
    if (fd < 0) abort();
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  }
  if (size < 1) return 0;
  const struct chv_option *opt = chv_option_at(data[0] % chv_option_count());
  char *text = malloc(size);
  if (text == NULL) return 0;
  memcpy(text, data + 1, size - 1);
  text[size - 1] = '\0';
  struct chv_opt_value v;
  chv_opt_value_init(&v);
  struct chv_error err;
  if (chv_option_parse(opt, text, &v, &err) == CHV_OK) {
    struct chv_buf b;
    chv_buf_init(&b);
    chv_opt_value_format(&v, &b);
    chv_buf_free(&b);
  }
  chv_opt_value_free(&v);
  free(text);

  if (ftruncate(fd, 0) != 0) abort();
  if (pwrite(fd, data, size, 0) != (ssize_t)size) abort();
  chv_config *cfg;
  if (chv_config_open(&cfg, &err) == CHV_OK) {
    chv_config_load_file(cfg, path, &err);
    chv_config_close(cfg);
  }
  return 0;
}
