/*
** Fuzz target: Hive type strings (from DDL, metastores and file footers).
** Whatever parses must print back to a string that parses to an equal type.
*/
#include "types/types.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (text == NULL) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  struct chv_error err;
  struct chv_type *t = NULL;
  if (chv_type_parse(text, &t, &err) == CHV_OK) {
    struct chv_buf b;
    chv_buf_init(&b);
    if (chv_type_format(t, &b) == CHV_OK) {
      struct chv_type *t2 = NULL;
      if (chv_type_parse(b.data, &t2, &err) != CHV_OK) abort();
      if (!chv_type_equal(t, t2)) abort();
      chv_type_free(t2);
    }
    chv_buf_free(&b);
    chv_type_free(t);
  }
  free(text);
  return 0;
}
