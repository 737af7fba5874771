/*
** libFuzzer target: the TEXTFILE reader over arbitrary bytes.  The first
** byte picks the file name's extension (so the codec), escaping, CRLF
** escapes and last-column-takes-rest; the second and third a byte range.
** Any input must give rows or a clean error, never a crash or a leak.
*/
#include "format/text/text.h"

#include <stdio.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static struct chv_type *schema;
  if (schema == NULL &&
      chv_type_parse_columns("a int, b string, c array<map<string,double>>, "
                             "d struct<x:decimal(10,2),y:timestamp>, "
                             "e binary, f boolean, g date, h char(3), "
                             "i float, j bigint",
                             &schema, NULL) != CHV_OK)
    return 0;
  if (size < 3) return 0;
  static const char *ext[] = {".txt", ".gz", ".zst", ".lz4", ".snappy"};
  char path[128];
  snprintf(path, sizeof path, "/tmp/chv-fuzz-text-%d%s", (int)getpid(),
           ext[data[0] % 5]);
  FILE *f = fopen(path, "wb");
  if (f == NULL) return 0;
  fwrite(data + 3, 1, size - 3, f);
  fclose(f);
  struct chv_text_options o;
  chv_text_options_init(&o);
  o.escaped = data[0] & 0x10;
  o.escape_crlf = data[0] & 0x20;
  o.last_column_takes_rest = data[0] & 0x40;
  o.buffer_size = 64;
  o.max_decompressed = 1 << 20;
  if (data[0] & 0x80) {
    o.range_start = data[1];
    o.range_length = data[2];
  }
  chv_text_reader *r;
  struct chv_batch *b;
  if (chv_text_reader_open(chv_fs_local(), path, schema, &o, &r, NULL) !=
      CHV_OK)
    goto out;
  if (chv_batch_open(chv_text_reader_schema(r), 3, &b, NULL) == CHV_OK) {
    int64_t n;
    while (chv_text_reader_next(r, b, &n, NULL) == CHV_OK && n > 0) {
    }
    chv_batch_close(b);
  }
  chv_text_reader_close(r);
out:
  unlink(path);
  return 0;
}
