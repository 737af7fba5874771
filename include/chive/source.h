/*
** chive/source.h: a batch source over a Hive table, shaped as Flink's
** HiveSourceBuilder and HiveSource: a builder for a table (table options
** over the metastore's properties), the partitions, projected fields and
** limit to read; the splits it enumerates; a split serializer, whose bytes
** carry everything a reader needs (the file range, its partition's values,
** the table's columns and storage, the projection, the limit and the
** pushed predicates), so that another process or machine reads a split
** without the metastore; and a reader of one split that yields batches, or
** an ArrowArrayStream through chv_scan_export_stream().
**
** INTERFACE
**   chv_source_open()                 the builder, for db.table
**   chv_source_set_partitions()       partitions by a filter on their keys
**   chv_source_set_projected_fields() fields by index (data, then keys)
**   chv_source_set_limit()            rows
**   chv_source_set_predicates()       data-column predicates to push down
**   chv_source_filter_parse()         a filter string to the two above
**   chv_source_schema()               the rows produced
**   chv_source_splits()               enumerate (chv_split_plan_open())
**   chv_source_report_statistics()    the row count, as reportStatistics
**   chv_source_split_serialize()/_deserialize()/_free()
**   chv_source_split_open()           a reader (a chv_scan) of one split
**   chv_source_close()
**
** Thread safety: a source belongs to one thread at a time; splits are plain
** values, and readers of different splits may run on different threads.
*/
#ifndef CHIVE_SOURCE_H
#define CHIVE_SOURCE_H

#include "chive/catalog.h"
#include "chive/config.h"
#include "chive/connector.h"
#include "chive/pred.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct chv_source chv_source;

/* One split of a source, self-contained (all owned). */
struct chv_source_split {
  struct chv_table table;  /* columns, partition keys, storage, parameters */
  char **part_values;      /* table.npkeys values; NULL = default partition */
  char *path;              /* the file */
  int64_t start;           /* its byte range */
  int64_t length;
  int64_t file_size;
  char **columns;          /* the projection, by name (data, then keys);
                              NULL: every column */
  int ncolumns;
  bool projected;          /* deserialized: a projection was given */
  int64_t limit;           /* rows a reader of it produces at most; -1 */
  struct chv_pred *preds;  /* pushed predicates (strings owned) */
  int npreds;
};

/* A builder for db.table.  table_options (n pairs, may be NULL) take
** precedence over the metastore's table properties, as
** HiveSourceBuilder's tableOptions do; cfg (borrowed, may be NULL) gives
** the session's options for planning.  out: chv_source_close(). */
CHV_API int chv_source_open(chv_catalog *cat, const char *db,
                            const char *table,
                            const struct chv_kv *table_options, int n,
                            const chv_config *cfg, chv_source **out,
                            struct chv_error *err);
/* Read the partitions the filter keeps (borrowed; NULL = all). */
CHV_API void chv_source_set_partitions(chv_source *s,
                                       const struct chv_part_filter *filter);
/* Produce only these fields, by index into the table's data columns
** followed by its partition keys (HiveSourceBuilder.setProjectedFields);
** fields NULL: all; n = 0: none (rows without columns, for counting).  CHV_EINVAL for an index out of range or twice. */
CHV_API int chv_source_set_projected_fields(chv_source *s, const int *fields,
                                            int n, struct chv_error *err);
/* At most limit rows (< 0: no limit); each split's reader stops there. */
CHV_API void chv_source_set_limit(chv_source *s, int64_t limit);
/* Predicates on data columns (a conjunction, copied) pushed into the
** columnar readers to skip stripes and row groups; rows are not filtered by
** them. */
CHV_API int chv_source_set_predicates(chv_source *s,
                                      const struct chv_pred *preds, int n,
                                      struct chv_error *err);
/* A filter string, as HCatalog's reader takes one: the condition of a
** WHERE clause on table t ("dt >= '2026-01-02' AND id > 100"), split as a
** SELECT splits its WHERE into what the source is told:
**
**   1. the condition is parsed as SQL (the default dialect) and must be one
**      condition: no ';', ORDER BY, GROUP BY, HAVING, LIMIT or hint;
**   2. each of its AND-ed conjuncts that a partition filter expresses (on
**      t's partition keys and literals) joins *partitions, for
**      chv_source_set_partitions(); NULL when none does (all partitions);
**   3. the other conjuncts are bound over t's columns as a SELECT binds
**      them: a column t lacks, a function chive lacks, a type error, an
**      aggregate or a conjunct that is not boolean is an error;
**   4. of those, the comparisons of a data column with a literal (and IS
**      [NOT] NULL, BETWEEN) become *preds (*npreds of them), for
**      chv_source_set_predicates(); none for a table whose files are not
**      Parquet or ORC, as only their readers use predicates.
**
** Neither result filters rows: partitions and row groups are skipped
** whole, and conjuncts of neither kind (an OR across data columns, a
** function of a column) skip nothing; a caller that wants only matching
** rows evaluates the whole condition on them.  The results are allocated
** in arena (borrowed) and name columns with t's own strings (borrowed):
** they are valid while both are.  Errors: CHV_ESYNTAX for text that does
** not parse, CHV_EINVAL for more than one condition, CHV_ENOENT, CHV_ETYPE,
** CHV_ENOTSUP from binding, CHV_ENOMEM; the message names the column (of
** the condition) at fault.  The outputs are written only on success.
** Thread safety: a pure function of its arguments (t and the arena belong
** to the caller).  It is implemented by the SQL layer of libchive
** (src/sql/session), which parses and binds SQL, not by the connector's
** own objects. */
CHV_API int chv_source_filter_parse(const struct chv_table *t,
                                    const char *filter, chv_arena *arena,
                                    struct chv_part_filter **partitions,
                                    struct chv_pred **preds, int *npreds,
                                    struct chv_error *err);
/* STRUCT of the rows a split's reader produces (owned by the source;
** valid until the next set call or close).  NULL after a failed set. */
CHV_API const struct chv_type *chv_source_schema(chv_source *s,
                                                 struct chv_error *err);
/* Plan the splits (chv_split_plan_open() with min_splits); *plan (may be
** NULL) gets the plan's figures.  *out: chv_source_splits_free(). */
CHV_API int chv_source_splits(chv_source *s, int min_splits,
                              struct chv_source_split ***out, int *n,
                              struct chv_split_plan **plan,
                              struct chv_error *err);
CHV_API void chv_source_splits_free(struct chv_source_split **v, int n);
CHV_API void chv_source_close(chv_source *s);

/* Where a reported row count comes from. */
#define CHV_STATS_ORIGIN_MAP(X)                                               \
  X(UNKNOWN, "unknown")     /* none: the statistics are unknown */            \
  X(NO_FILES, "no files")   /* no splits, so 0 rows */                       \
  X(METASTORE, "metastore") /* numRows of the table or of each partition */  \
  X(FOOTERS, "footers")     /* the Parquet footers or ORC tails */            \
  X(MIXED, "mixed")         /* some partitions from each */

enum chv_stats_origin {
#define CHV_X_(name, text) CHV_STATS_##name,
  CHV_STATS_ORIGIN_MAP(CHV_X_)
#undef CHV_X_
};
/* "metastore", "footers", ... (the texts above). */
CHV_API const char *chv_stats_origin_name(enum chv_stats_origin o);

/* The statistics a source reports to a planner (Flink's TableStats: the
** row count alone). */
struct chv_source_stats {
  bool known;                   /* false: Flink's TableStats.UNKNOWN */
  int64_t row_count;            /* with a limit, at most it; -1: unknown */
  enum chv_stats_origin origin; /* where row_count comes from */
  int64_t partitions;           /* pruned partitions; -1: not listed */
  int64_t splits;               /* splits planned (n = 1); -1: not planned */
  int64_t files_read;           /* footers or tails read for the count */
  const char *why;              /* unknown: why, a static text; else NULL */
  int error;                    /* the error that made them unknown, or 0 */
};

/* The row count of what the source reads, as Flink's Hive source reports
** statistics (HiveTableSource.reportStatistics, docs/source.md):
**
**   1. unknown unless the session's source.report-statistics is ALL;
**   2. the splits of the pruned partitions are planned with n = 1; none
**      gives 0 rows;
**   3. each partition's numRows in the metastore (the table's parameters
**      for an unpartitioned table) counts when it is above 0;
**   4. the partitions without one are counted from the footers of their
**      files (Parquet footers, ORC tails), read on
**      table.exec.hive.read-statistics.thread-num threads (default: the
**      CPUs); text files have none, which makes the statistics unknown;
**   5. a limit (chv_source_set_limit()) caps the count.
**
** As Flink answers UNKNOWN when anything fails, a failure to read the
** metastore or a file is not an error here: it gives unknown statistics,
** out->error its code and err (may be NULL) its message.  Returns CHV_OK,
** or CHV_ENOMEM (out untouched). */
CHV_API int chv_source_report_statistics(chv_source *s,
                                         struct chv_source_stats *out,
                                         struct chv_error *err);

/* The split as bytes (appended to out): a versioned, length-checked
** encoding (docs/source.md).  CHV_ENOMEM. */
CHV_API int chv_source_split_serialize(const struct chv_source_split *sp,
                                       struct chv_buf *out,
                                       struct chv_error *err);
/* Bytes back to a split.  Anything that is not a split this version of
** chive wrote is CHV_ECORRUPT naming the field and the byte offset (an
** unknown version CHV_ENOTSUP); nothing is allocated for sizes the bytes
** only claim.  out: chv_source_split_free(). */
CHV_API int chv_source_split_deserialize(const void *data, size_t n,
                                         struct chv_source_split **out,
                                         struct chv_error *err);
CHV_API void chv_source_split_free(struct chv_source_split *sp);

/* A reader of the split's rows (projection, limit and predicates as the
** split says; batch_rows 0 = 4096): read it with chv_scan_next() or export
** it with chv_scan_export_stream().  Errors name the file. */
CHV_API int chv_source_split_open(const struct chv_source_split *sp,
                                  int64_t batch_rows, chv_scan **out,
                                  struct chv_error *err);

#ifdef __cplusplus
}
#endif

#endif /* CHIVE_SOURCE_H */
