/*
** The public API end to end, as a program outside the library sees it: only
** include/ on the include path, linked only against libchive.so, so every
** function called here must be declared in include/chive/ and exported.
**
** A warehouse in a fresh temporary folder; a database and a table
** partitioned by (dt, region); rows written through the sink into three
** partitions (one of them the default partition of region) and committed;
** then a pruned, projected scan read back through chv_scan_export_stream()
** as an ArrowArrayStream, each array checked with chv_arrow_validate() and
** its values compared with what was written.
*/
#include "chive/all.h"
#include "api_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>



static struct chv_error err;

/* Rows of one partition: ids id0.., names "n<id>", amounts id * 1.25. */
static void write_partition(chv_catalog *cat, const char *dt,
                            const char *region, int id0, int n) {
  struct chv_sink_options o;
  chv_sink_options_init(&o);
  chv_sink *sink = NULL;
  OK(chv_sink_open(cat, "sales", "orders", &o, &sink, &err));
  struct chv_batch *b = NULL;
  OK(chv_batch_open(chv_sink_schema(sink), n, &b, &err));
  for (int i = 0; i < n; i++) {
    int32_t id = id0 + i;
    char name[16];
    int len = snprintf(name, sizeof name, "n%d", id);
    chv_i128 amount = (chv_i128)id * 125; /* decimal(10,2): id * 1.25 */
    OK(chv_vector_append_value(b->cols[0], &id, &err));
    if (id % 4 == 3)
      OK(chv_vector_append_null(b->cols[1], &err));
    else
      OK(chv_vector_append_string(b->cols[1], name, (size_t)len, &err));
    OK(chv_vector_append_value(b->cols[2], &amount, &err));
    b->nrows++;
  }
  char *values[2] = {(char *)dt, (char *)region};
  OK(chv_sink_write(sink, values, b, &err));
  chv_batch_close(b);
  OK(chv_sink_commit(sink, &err));
  CHECK(chv_sink_rows(sink) == n);
  chv_sink_close(sink);
}

/* Index of the child of a struct schema named name, or -1. */
static int child_index(const struct ArrowSchema *s, const char *name) {
  for (int64_t i = 0; i < s->n_children; i++)
    if (strcmp(s->children[i]->name, name) == 0) return (int)i;
  return -1;
}

static bool arrow_is_null(const struct ArrowArray *a, int64_t i) {
  const uint8_t *v = a->buffers[0];
  i += a->offset;
  return v != NULL && !((v[i >> 3] >> (i & 7)) & 1);
}

int main(void) {
  char dir[] = "/tmp/chive-api-XXXXXX";
  if (mkdtemp(dir) == NULL) {
    perror("mkdtemp");
    return 1;
  }
  CHECK(strcmp(chv_version(), CHV_VERSION) == 0);
  CHECK(strcmp(chv_status_name(CHV_ENOENT), "ENOENT") == 0);

  chv_catalog *cat = NULL;
  OK(chv_catalog_open(dir, NULL, &cat, &err));

  struct chv_database db = {.name = "sales", .description = "api test"};
  OK(chv_catalog_create_database(cat, &db, 0, &err));

  struct chv_column cols[] = {{"id", "int", NULL},
                              {"name", "string", "may be NULL"},
                              {"amount", "decimal(10,2)", NULL}};
  struct chv_column pkeys[] = {{"dt", "string", NULL},
                               {"region", "string", NULL}};
  struct chv_table t = {.db = "sales",
                        .name = "orders",
                        .columns = cols,
                        .ncols = 3,
                        .pkeys = pkeys,
                        .npkeys = 2,
                        .type = CHV_MANAGED_TABLE};
  OK(chv_catalog_create_table(cat, &t, 0, &err));
  CHECK(chv_catalog_table_exists(cat, "sales", "orders"));

  write_partition(cat, "2024-01-01", "eu", 0, 10);
  write_partition(cat, "2024-01-01", NULL, 100, 5); /* default partition */
  write_partition(cat, "2024-01-02", "us", 200, 7);

  char **names = NULL;
  int nnames = 0;
  OK(chv_catalog_list_partition_names(cat, "sales", "orders", NULL, &names,
                                      &nnames, &err));
  CHECK(nnames == 3);
  chv_strv_free(names, nnames);

  struct chv_stats st;
  char *eu[2] = {"2024-01-01", "eu"};
  {
    struct chv_partition p;
    OK(chv_catalog_get_partition(cat, "sales", "orders", eu, &p, &err));
    chv_stats_from_params(p.params, p.nparams, &st);
    CHECK(st.num_rows == 10);
    CHECK(strcmp(p.name, "dt=2024-01-01/region=eu") == 0);
    chv_partition_free(&p);
  }

  /* SELECT amount, region, id, name FROM sales.orders WHERE dt = '2024-01-01'
   */
  chv_arena *arena = NULL;
  OK(chv_arena_open(0, &arena));
  struct chv_part_filter *f = chv_pf_cmp(arena, "dt", CHV_PF_EQ, "2024-01-01");
  CHECK(f != NULL);
  const char *proj[] = {"amount", "region", "id", "name"};
  struct chv_scan_options so;
  chv_scan_options_init(&so);
  so.filter = f;
  so.columns = proj;
  so.ncolumns = 4;
  so.batch_rows = 4; /* several batches per file */
  chv_scan *scan = NULL;
  OK(chv_scan_open(cat, "sales", "orders", &so, &scan, &err));
  CHECK(chv_scan_schema(scan)->nchildren == 4);

  struct ArrowArrayStream stream;
  OK(chv_scan_export_stream(scan, &stream, &err)); /* owns the scan now */
  chv_arena_close(arena);                          /* the filter was copied */

  struct ArrowSchema schema;
  CHECK(stream.get_schema(&stream, &schema) == 0);
  CHECK(strcmp(schema.format, "+s") == 0);
  CHECK(schema.n_children == 4);
  int c_amount = child_index(&schema, "amount");
  int c_region = child_index(&schema, "region");
  int c_id = child_index(&schema, "id");
  CHECK(c_amount == 0 && c_region == 1 && c_id == 2);
  CHECK(strcmp(schema.children[0]->format, "d:10,2") == 0);
  CHECK(strcmp(schema.children[1]->format, "u") == 0);
  CHECK(strcmp(schema.children[2]->format, "i") == 0);
  CHECK(strcmp(schema.children[3]->name, "name") == 0);

  /* Keep every array until the end, to show they outlive the stream. */
  struct ArrowArray arrays[64];
  int narrays = 0;
  int64_t rows = 0, id_sum = 0, eu_rows = 0, default_rows = 0;
  for (;;) {
    struct ArrowArray a;
    int rc = stream.get_next(&stream, &a);
    if (rc != 0) {
      fprintf(stderr, "get_next: %d: %s\n", rc, stream.get_last_error(&stream));
      return 1;
    }
    if (a.release == NULL) break; /* end of stream */
    if (chv_arrow_validate(&schema, &a, &err) != CHV_OK) {
      fprintf(stderr, "invalid array: %s\n", err.msg);
      failures++;
    }
    CHECK(a.n_children == 4 && a.length > 0 && a.length <= 4);
    const struct ArrowArray *amount = a.children[0];
    const struct ArrowArray *region = a.children[1];
    const struct ArrowArray *id = a.children[2];
    const struct ArrowArray *name = a.children[3];
    const int32_t *noff = name->buffers[1];
    const char *nbytes = name->buffers[2];
    const int32_t *ids = id->buffers[1];
    const chv_i128 *amounts = amount->buffers[1];
    const int32_t *roff = region->buffers[1];
    const char *rbytes = region->buffers[2];
    for (int64_t i = 0; i < a.length; i++) {
      int32_t v = ids[id->offset + i];
      id_sum += v;
      CHECK(!arrow_is_null(amount, i));
      CHECK(amounts[amount->offset + i] == (chv_i128)v * 125);
      if (v % 4 == 3) {
        CHECK(arrow_is_null(name, i));
      } else {
        char want[16];
        int wn = snprintf(want, sizeof want, "n%d", v);
        int64_t k = name->offset + i;
        CHECK(noff[k + 1] - noff[k] == wn &&
              memcmp(nbytes + noff[k], want, (size_t)wn) == 0);
      }
      CHECK(!arrow_is_null(region, i));
      int64_t k = region->offset + i;
      size_t rlen = (size_t)(roff[k + 1] - roff[k]);
      if (v < 100) {
        eu_rows++;
        CHECK(rlen == 2 && memcmp(rbytes + roff[k], "eu", 2) == 0);
      } else {
        /* The default partition: a string partition column holds Hive's
        ** name for it, as Flink reads it. */
        default_rows++;
        CHECK(v < 200); /* dt = 2024-01-02 was pruned */
        CHECK(rlen == strlen(CHV_DEFAULT_PARTITION_NAME) &&
              memcmp(rbytes + roff[k], CHV_DEFAULT_PARTITION_NAME, rlen) == 0);
      }
    }
    rows += a.length;
    if (narrays < 64)
      arrays[narrays++] = a;
    else
      a.release(&a);
  }
  stream.release(&stream); /* closes the scan */
  CHECK(stream.release == NULL);

  CHECK(rows == 15);
  CHECK(eu_rows == 10);
  CHECK(default_rows == 5);
  CHECK(id_sum == 45 + (100 + 101 + 102 + 103 + 104));
  CHECK(narrays >= 4); /* batches of at most 4 rows */
  /* The arrays stay valid after the stream is gone. */
  for (int i = 0; i < narrays; i++) {
    CHECK(chv_arrow_validate(&schema, &arrays[i], &err) == CHV_OK);
    arrays[i].release(&arrays[i]);
  }
  schema.release(&schema);

  /* A scan that fails to export is closed: nothing leaks (ASan). */
  CHECK(chv_scan_export_stream(NULL, &stream, &err) == CHV_EINVAL);

  chv_catalog_close(cat);

  const struct chv_fs *fs = chv_fs_local();
  OK(chv_fs_delete(fs, dir, true, &err));
  if (failures) {
    fprintf(stderr, "api_roundtrip: %d checks failed\n", failures);
    return 1;
  }
  printf("api_roundtrip: ok (%lld rows)\n", (long long)rows);
  return 0;
}
