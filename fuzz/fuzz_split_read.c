/*
** libFuzzer target: split bytes (chive/source.h) from arbitrary input.
** Whatever is accepted serializes to bytes that read back to the same
** bytes again; anything else is a clean error (CHV_ECORRUPT, CHV_ENOTSUP),
** never a crash, a leak or an allocation sized by what the bytes claim.
*/
#include "chive/source.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct chv_source_split *sp;
  struct chv_error err;
  int rc = chv_source_split_deserialize(data, size, &sp, &err);
  if (rc != CHV_OK) {
    if (rc != CHV_ECORRUPT && rc != CHV_ENOTSUP) abort();
    return 0;
  }
  struct chv_buf a, b;
  chv_buf_init(&a);
  chv_buf_init(&b);
  struct chv_source_split *again;
  if (chv_source_split_serialize(sp, &a, &err) != CHV_OK) abort();
  if (chv_source_split_deserialize(a.data, a.len, &again, &err) != CHV_OK)
    abort();
  if (chv_source_split_serialize(again, &b, &err) != CHV_OK) abort();
  if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0) abort();
  chv_source_split_free(again);
  chv_source_split_free(sp);
  chv_buf_free(&a);
  chv_buf_free(&b);
  return 0;
}
