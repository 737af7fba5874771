/*
** libFuzzer target: Parquet's raw snappy blocks, chive's page decoder
** (chv_block_decompress()) against libsnappy's on the same bytes.  Both
** must accept the same blocks and give the same bytes; on anything else
** chive's must fail cleanly.  The uncompressed length is what the block's
** preamble says (as a page header would), capped at 1 MiB; with no usable
** preamble, a length from the input's first byte exercises the errors.
*/
#include "codec/block.h"

#include <snappy-c.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t ulen = 0;
  const char *in = (const char *)data;
  bool sized = snappy_uncompressed_length(in, size, &ulen) == SNAPPY_OK &&
               ulen <= (1u << 20);
  size_t want = sized ? ulen : (size ? data[0] : 0);
  uint8_t *mine = malloc(want + 1), *ref = malloc(want + 1);
  if (!mine || !ref) abort();
  int rc = chv_block_decompress(NULL, CHV_BLOCK_SNAPPY, data, size, mine,
                                want, NULL);
  if (sized) {
    size_t rlen = ulen;
    bool ref_ok = snappy_uncompress(in, size, (char *)ref, &rlen) ==
                      SNAPPY_OK && rlen == ulen;
    if (ref_ok != (rc == CHV_OK)) abort(); /* one accepts what the other rejects */
    if (ref_ok && ulen && memcmp(mine, ref, ulen)) abort();
  }
  free(mine);
  free(ref);
  return 0;
}
