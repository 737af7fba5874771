/*
** libFuzzer target: the stream decompressors (gzip, zstd, lz4 frame and
** Hadoop blocks, snappy framing and Hadoop blocks) over arbitrary bytes; the
** first byte picks the codec.  Output is capped at 1 MiB.
*/
#include "codec/compress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  enum chv_codec k = (enum chv_codec)(1 + data[0] % (CHV_CODEC_COUNT - 1));
  char *out = NULL;
  size_t n;
  if (chv_decompress(k, data + 1, size - 1, 1 << 20, &out, &n, NULL) ==
      CHV_OK)
    chv_free(out);
  return 0;
}
