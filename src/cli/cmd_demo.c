/*
** chive demo [WAREHOUSE]: a tour of the library on the embedded metastore.
** Creates the warehouse (default ./warehouse), a database and a TEXTFILE
** table partitioned by (dt, country), writes three partitions through the
** sink's commit protocol, lists the partitions with their statistics, and
** reads the table back: whole, and pruned to one day by the catalog.
*/
#include "cli.h"

#include "chive/catalog.h"
#include "chive/connector.h"
#include "chive/jsonl.h"

#include <stdio.h>
#include <string.h>

struct demo_row {
  int64_t user_id;
  const char *page;
  int32_t duration_ms;
  const char *amount; /* decimal(10,2) */
};

struct demo_part {
  const char *dt;
  const char *country;
  struct demo_row rows[3];
  int nrows;
};

static const struct demo_part demo_parts[] = {
    {"2026-11-27", "DE", {{1, "/home", 120, "0.00"}, {2, "/cart", 4100, "19.99"}}, 2},
    {"2026-11-28", "DE", {{1, "/checkout", 900, "59.90"}}, 1},
    {"2026-11-28", "US", {{3, "/home", 80, "0.00"}, {4, "/search?q=a=b", 310, "0.00"},
                          {5, "/cart", 2200, "7.50"}}, 3},
};

static int demo_fail(const char *what, const struct chv_error *err) {
  fprintf(stderr, "chive demo: %s: %s\n", what, err->msg);
  return 1;
}

static int demo_write(chv_catalog *cat, struct chv_error *err) {
  chv_sink *sink;
  struct chv_sink_options so;
  chv_sink_options_init(&so);
  so.overwrite = true;
  int rc = chv_sink_open(cat, "demo", "page_views", &so, &sink, err);
  if (rc != CHV_OK) return rc;
  struct chv_batch *b = NULL;
  rc = chv_batch_open(chv_sink_schema(sink), 8, &b, err);
  for (size_t p = 0;
       rc == CHV_OK && p < sizeof demo_parts / sizeof demo_parts[0]; p++) {
    const struct demo_part *dp = &demo_parts[p];
    chv_batch_reset(b);
    for (int r = 0; rc == CHV_OK && r < dp->nrows; r++) {
      const struct demo_row *row = &dp->rows[r];
      chv_i128 amount;
      rc = chv_decimal_parse(row->amount, strlen(row->amount), 10, 2, &amount);
      if (rc == CHV_OK)
        rc = chv_vector_append_value(b->cols[0], &row->user_id, err);
      if (rc == CHV_OK)
        rc = chv_vector_append_string(b->cols[1], row->page, strlen(row->page),
                                      err);
      if (rc == CHV_OK)
        rc = chv_vector_append_value(b->cols[2], &row->duration_ms, err);
      if (rc == CHV_OK) rc = chv_vector_append_value(b->cols[3], &amount, err);
      b->nrows++;
    }
    char *values[2] = {(char *)dp->dt, (char *)dp->country};
    if (rc == CHV_OK) rc = chv_sink_write(sink, values, b, err);
  }
  chv_batch_close(b);
  if (rc == CHV_OK) rc = chv_sink_commit(sink, err);
  if (rc == CHV_OK)
    printf("wrote %lld rows into demo.page_views\n",
           (long long)chv_sink_rows(sink));
  chv_sink_close(sink);
  return rc;
}

static int demo_read(chv_catalog *cat, const struct chv_part_filter *filter,
                     const char *title, struct chv_error *err) {
  struct chv_scan_options o;
  chv_scan_options_init(&o);
  o.filter = filter;
  chv_scan *scan;
  int rc = chv_scan_open(cat, "demo", "page_views", &o, &scan, err);
  if (rc != CHV_OK) return rc;
  struct chv_buf out;
  chv_buf_init(&out);
  struct chv_batch *b;
  while ((rc = chv_scan_next(scan, &b, err)) == CHV_OK && b != NULL)
    for (int64_t r = 0; r < b->nrows && rc == CHV_OK; r++)
      rc = chv_jsonl_row(b, r, &out);
  struct chv_scan_stats st;
  chv_scan_stats(scan, &st);
  if (rc == CHV_OK) {
    printf("\n%s (partitions=%lld/%lld, files=%lld, rows=%lld):\n%s", title,
           (long long)st.partitions_read, (long long)st.partitions_total,
           (long long)st.files_read, (long long)st.rows, out.data ? out.data : "");
  }
  chv_buf_free(&out);
  chv_scan_close(scan);
  return rc;
}

int cli_demo(int argc, char **argv) {
  if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
    fprintf(stderr, "usage: chive demo [WAREHOUSE]\n");
    return 2;
  }
  const char *wh = argc == 2 ? argv[1] : "./warehouse";
  struct chv_error err;
  chv_error_clear(&err);
  chv_catalog *cat;
  if (cli_warehouse_open(wh, &cat, &err) != CHV_OK)
    return demo_fail("opening the warehouse", &err);
  int status = 1;

  struct chv_database db = {.name = "demo",
                            .description = "chive demo database"};
  if (chv_catalog_create_database(cat, &db, CHV_CAT_IF_NOT_EXISTS, &err) !=
      CHV_OK) {
    demo_fail("creating database demo", &err);
    goto out;
  }
  struct chv_column cols[] = {{"user_id", "bigint", NULL},
                              {"page", "string", "path and query"},
                              {"duration_ms", "int", NULL},
                              {"amount", "decimal(10,2)", NULL}};
  struct chv_column pkeys[] = {{"dt", "string", NULL},
                               {"country", "string", NULL}};
  struct chv_table t = {.db = "demo", .name = "page_views", .columns = cols,
                        .ncols = 4, .pkeys = pkeys, .npkeys = 2,
                        .type = CHV_MANAGED_TABLE};
  if (chv_catalog_create_table(cat, &t, CHV_CAT_IF_NOT_EXISTS, &err) !=
      CHV_OK) {
    demo_fail("creating table demo.page_views", &err);
    goto out;
  }
  if (demo_write(cat, &err) != CHV_OK) {
    demo_fail("writing demo.page_views", &err);
    goto out;
  }

  struct chv_partition *parts;
  int n;
  if (chv_catalog_list_partitions(cat, "demo", "page_views", NULL, &parts, &n,
                                  &err) != CHV_OK) {
    demo_fail("listing partitions", &err);
    goto out;
  }
  printf("\npartitions of demo.page_views:\n");
  for (int i = 0; i < n; i++) {
    struct chv_stats st;
    chv_stats_from_params(parts[i].params, parts[i].nparams, &st);
    printf("  %-28s numRows=%lld numFiles=%lld totalSize=%lld\n",
           parts[i].name, (long long)st.num_rows, (long long)st.num_files,
           (long long)st.total_size);
  }
  chv_partitions_free(parts, n);

  if (demo_read(cat, NULL, "SELECT * FROM demo.page_views", &err) != CHV_OK) {
    demo_fail("reading demo.page_views", &err);
    goto out;
  }
  chv_arena *arena;
  if (chv_arena_open(0, &arena) != CHV_OK) {
    fprintf(stderr, "chive demo: out of memory\n");
    goto out;
  }
  struct chv_part_filter *f = chv_pf_cmp(arena, "dt", CHV_PF_EQ, "2026-11-28");
  int rc =
      f ? demo_read(cat, f,
                    "SELECT * FROM demo.page_views WHERE dt = '2026-11-28'",
                    &err)
        : chv_error_set(&err, CHV_ENOMEM, "out of memory");
  chv_arena_close(arena);
  if (rc != CHV_OK) {
    demo_fail("reading one day of demo.page_views", &err);
    goto out;
  }
  printf("\nwarehouse: %s\n", chv_catalog_warehouse(cat));
  status = 0;
out:
  chv_catalog_close(cat);
  return status;
}
