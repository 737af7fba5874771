/* Runs a query through a chive session and walks its rows as Arrow arrays.
** usage: session_query WAREHOUSE_DIR */
#include <chive/session.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int fail(const char *what, const struct chv_error *err) {
  fprintf(stderr, "%s: %s\n", what, err->msg);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s WAREHOUSE_DIR\n", argv[0]);
    return 2;
  }
  struct chv_error err;
  struct chv_session_options opts = {0};
  opts.warehouse = argv[1];
  chv_session *s;
  if (chv_session_open(&opts, &s, &err) != CHV_OK)
    return fail("open", &err);

  const char *setup[] = {
      "CREATE TABLE IF NOT EXISTS sales (item STRING, qty INT) "
      "PARTITIONED BY (dt STRING) STORED AS PARQUET",
      "INSERT OVERWRITE sales VALUES ('pen', 3, '2024-05-01'), "
      "('ink', 1, '2024-05-01'), ('pen', 5, '2024-05-02')"};
  for (size_t i = 0; i < sizeof setup / sizeof *setup; i++)
    if (chv_session_exec(s, setup[i], NULL, &err) != CHV_OK)
      return fail(setup[i], &err);

  struct ArrowArrayStream stream;
  if (chv_session_exec(s,
                       "SELECT item, sum(qty) AS total FROM sales "
                       "GROUP BY item ORDER BY item",
                       &stream, &err) != CHV_OK)
    return fail("query", &err);
  struct ArrowSchema schema;
  if (stream.get_schema(&stream, &schema) != 0)
    return fail("schema", &err);
  printf("%s | %s\n", schema.children[0]->name, schema.children[1]->name);
  for (;;) {
    struct ArrowArray batch;
    if (stream.get_next(&stream, &batch) != 0) {
      fprintf(stderr, "next: %s\n", stream.get_last_error(&stream));
      return 1;
    }
    if (batch.release == NULL) break; /* the end */
    /* item: a "u" string array (offsets, bytes); total: an "l" int64 array */
    const struct ArrowArray *item = batch.children[0];
    const struct ArrowArray *total = batch.children[1];
    const int32_t *off = item->buffers[1];
    const char *bytes = item->buffers[2];
    const int64_t *sum = total->buffers[1];
    for (int64_t r = 0; r < batch.length; r++) {
      int64_t i = r + item->offset, j = r + total->offset;
      printf("%.*s | %" PRId64 "\n", (int)(off[i + 1] - off[i]),
             bytes + off[i], sum[j]);
    }
    batch.release(&batch);
  }
  schema.release(&schema);
  stream.release(&stream);
  chv_session_close(s);
  return 0;
}
