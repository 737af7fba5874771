/*
** connector: what Flink's Hive connector does on top of the catalog and the
** file formats.  This first part holds the batch sink for static partitions
** and a partition-pruned table scan; split planning, dynamic partitions,
** streaming and lookup come in later files beside these.
**
** INTERFACE
**   chv_sink_open()/_schema()/_write()/_commit()/_close()   batch INSERT
**   chv_scan_open()/_schema()/_next()/_stats()/_close()     batch SELECT
**   chv_scan_export_stream()  a scan as an Arrow C Stream (ArrowArrayStream)
**   chv_part_value_append()   a partition value string onto a typed vector
**   chv_split_plan_open()/_free()  the splits of a scan, as Flink plans them
**   chv_split_infer_parallelism()  reader threads of a scan, as Flink infers
**   chv_warehouse_recover()   finish or undo writes whose process died
**
** Thread safety: a scan belongs to one thread at a time.  A sink's
** writes (chv_sink_write(), chv_sink_write_dynamic()) may come from several
** threads at once, each through a writer of its own; its other calls
** (open, add_file, commit, close) are made while no write runs.  Several
** processes may scan while one commits; a commit is seen whole or not at
** all by readers that find partitions through the catalog.
*/
#ifndef CHIVE_CONNECTOR_H
#define CHIVE_CONNECTOR_H

#include "chive/catalog.h"
#include "chive/parquet.h"
#include "chive/config.h"
#include "chive/fs.h"
#include "chive/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- sink ---------------------------------------------------------------- */

/*
** The batch commit protocol.  Invariants: (1) a reader that finds files
** through the catalog sees every file of a write or none; (2) a write that
** fails, or whose process is killed at any point, leaves the table reading
** exactly as before it, or (killed after step 5) exactly as after it, for
** catalog readers at once and for readers of the bare folders (DuckDB,
** Spark) once any chive process has opened the warehouse; (3) what a dead
** writer leaves behind is cleaned up by chv_warehouse_recover(), which every
** front end runs when it opens a warehouse, and by the next sink opened on
** the table.  Readers (chv_scan_*) skip the files the metastore's write
** record lists (chive/catalog.h, enum chv_commit_state).  The steps, and
** what a crash at each leaves, are in docs/commit.md.
**
**   1. open:    recover from dead writers of the table; register a write
**               record (WRITING) naming the staging folder
**               <table>/.staging_<ms>_<id>/, then create it.
**   2. write:   rows of one partition go to
**               <staging>/<k1=v1/...>/part-<id>-task-<k>-file-<n>, k the
**               writer (one per writing thread; see chv_sink_write())
**               (hidden from readers by the leading '.' of the staging dir).
**   3. commit:  plan each partition: its registered location, else
**               <table>/<escaped partition path>; with OVERWRITE its visible
**               entries are the old files.  The record becomes PENDING with
**               the new file paths (and success files), the folders the
**               write will create and the old files, durably, before any
**               file moves.
**   4.          move into place: a partition folder that does not exist yet
**               is the staged folder (with its success file) renamed in one
**               step; into an existing one each file is renamed.  Readers
**               skip the new files while the record is PENDING.
**   5.          in ONE metastore transaction: add the new partitions, add
**               the write's counts to the statistics stored now (under the
**               write lock, so concurrent writers never lose each other's),
**               and make the record COMMITTED; readers now see the new files
**               and skip the old ones.
**   6.          delete the old files, the staging folder, then the record.
**   7. close:   an uncommitted write's staging folder and record are
**               removed; a failure in steps 3-5 first moves the files back.
**
**   open -> WRITING --commit--> PENDING --publish--> COMMITTED --> (gone)
**             \--close/failure--> (gone)   \--failure: moves undone--> (gone)
**   a killed writer's record is finished (COMMITTED: step 6) or undone
**   (PENDING: new files and the folders it made deleted; WRITING: staging
**   deleted) by chv_warehouse_recover() (src/connector/recover.c).
*/
typedef struct chv_sink chv_sink;

struct chv_sink_options {
  bool overwrite;          /* INSERT OVERWRITE */
  /* borrowed: session, configuration-file and default values of options;
  ** NULL means registry defaults.  Table properties win over it. */
  const chv_config *config;
  int64_t now_ms;          /* staging name and create times; 0: the clock */
  /* Files open at once, per writer; writing a partition beyond it
  ** finishes the least recently written partition's file (a later write to
  ** it starts a new file).  0: 64, or 1 with sorting on. */
  int max_open_writers;
  /* Table options of this write only, over the table's properties (a
  ** statement's OPTIONS hints, validated by the caller); never stored.
  ** Borrowed. */
  const struct chv_kv *table_options;
  int ntable_options;
};

CHV_API void chv_sink_options_init(struct chv_sink_options *o);

/* Open a sink on db.table (TEXTFILE, Parquet or ORC tables: other formats
** are CHV_ENOTSUP naming the format).  Options read, each from the table's
** properties first, then opts->config:
**   sink.partition-commit.policy.kind     'success-file' writes the marker;
**       a partitioned table needs 'metastore' while
**       table.exec.hive.sink.statistic-auto-gather.enable is true (as in
**       Flink's batch sink); 'custom' is CHV_ENOTSUP (no policy classes)
**   sink.partition-commit.success-file.name   the marker's name
**   hive.exec.compress.output             gzip the files (".gz")
**   sink.parallelism                      at most this many writers
**   table.exec.hive.sink.sort-by-dynamic-partition.enable   one open file
**       per writer, other partitions' rows buffered in runs
** Errors name the table and the option.  out: close with chv_sink_close(). */
CHV_API int chv_sink_open(chv_catalog *cat, const char *db, const char *table,
                          const struct chv_sink_options *opts, chv_sink **out,
                          struct chv_error *err);
/* STRUCT of the table's data columns: batches given to write use it. */
CHV_API const struct chv_type *chv_sink_schema(const chv_sink *s);
/* Write a batch into the partition given by values (one per partition key,
** NULL or "" = the default partition; ignored for unpartitioned tables).
**
** Several threads may write at once (an INSERT ... SELECT writes on the
** reader threads of its scan): each call takes the writer of the calling
** thread's slot (a scan's reader threads are slots 0, 1, ...; other
** threads slot 0), which has files of its own, part-<id>-task-<slot>-...;
** with sink.parallelism P, slot k writes through writer k mod P, waiting
** while another thread has it.  The commit merges every writer's files. */
CHV_API int chv_sink_write(chv_sink *s, char *const *part_values,
                           const struct chv_batch *batch,
                           struct chv_error *err);
/* Write a batch whose columns are the table's data columns followed by the
** values of its last npkeys - nstatic partition keys (dynamic partitions);
** the first nstatic keys take static_values.  Rows are routed to their
** partitions; a NULL or empty value goes to the default partition.  Values
** are written as Hive prints them (integers, "true"/"false", decimals with
** their scale, dates "YYYY-MM-DD", doubles with a ".0" when integral).
** Errors (CHV_ETYPE, CHV_EINVAL) name the table and the column. */
CHV_API int chv_sink_write_dynamic(chv_sink *s, int nstatic,
                                   char *const *static_values,
                                   const struct chv_batch *batch,
                                   struct chv_error *err);
/* Take an existing file into the partition given by values (LOAD DATA),
** under its own name: it is copied into the staging folder and becomes
** part of the table at the commit, like written files; unless copy is true
** (LOAD DATA LOCAL) the source is deleted once the commit holds, so a
** failed or killed load loses nothing.  Its row count is unknown to the
** statistics.  Errors name the file: a folder, a hidden name ('.', '_'),
** a name already taken in this write. */
CHV_API int chv_sink_add_file(chv_sink *s, char *const *part_values,
                              const char *path, bool copy,
                              struct chv_error *err);
/* The table the sink writes (borrowed). */
CHV_API const struct chv_table *chv_sink_table(const chv_sink *s);
/* Publish everything written (see the protocol above). */
CHV_API int chv_sink_commit(chv_sink *s, struct chv_error *err);
/* Rows taken so far: written, or held to be sorted by partition.  May be
** read while other threads write. */
CHV_API int64_t chv_sink_rows(const chv_sink *s);
/* Bytes of the values taken so far, as they are in memory (fixed-width
** values, the bytes of strings), whatever the files' format and whether
** written, encoded or held to be sorted: the volume of a write as its
** progress shows it.  May be read while other threads write. */
CHV_API int64_t chv_sink_bytes(const chv_sink *s);
/* Release; uncommitted data is discarded with the staging dir. */
CHV_API void chv_sink_close(chv_sink *s);

/* ---- recovery -------------------------------------------------------------- */

/* What chv_warehouse_recover() did. */
struct chv_recovery {
  int finished;  /* killed after the metastore commit: replaced files deleted */
  int undone;    /* killed while files moved in: those files taken out */
  int discarded; /* killed while writing: the staging folder removed */
  int live;      /* writes of running processes, left alone */
};

/* Finish or undo every interrupted write of the catalog's warehouse, from
** the metastore's write records, so that readers of the bare folders see
** each write whole or not at all (the protocol above).  Writes of running
** processes are left alone.  Every front end calls it once, after opening a
** catalog and before anything else; MSCK REPAIR TABLE runs it too.  out may
** be NULL.  Errors name the table and the path that could not be removed. */
CHV_API int chv_warehouse_recover(chv_catalog *cat, struct chv_recovery *out,
                                  struct chv_error *err);

/* ---- table maintenance ---------------------------------------------------- */

/* MSCK REPAIR TABLE: register, in one metastore transaction, the partition
** folders under the table's location that the metastore lacks, with their
** numFiles and totalSize; *added (may be NULL) gets how many.  A folder
** that is not <key>=<value> for the partition key of its depth fails the
** repair naming it (Hive's hive.msck.path.validation=throw); files above the
** partition depth are ignored.  Errors: CHV_EINVAL for an unpartitioned
** table or a bad folder, CHV_ENOENT for a missing table. */
CHV_API int chv_table_repair(chv_catalog *cat, const char *db,
                             const char *table, int *added,
                             struct chv_error *err);

/* TRUNCATE TABLE [PARTITION (...)]: the visible files of the partition
** given by part_values (which must exist: CHV_ENOENT), or of every
** partition (NULL), or of an unpartitioned table, are removed through the
** sink's commit, so readers see all of them go at once; the partitions stay,
** with zero statistics. */
CHV_API int chv_table_truncate(chv_catalog *cat, const char *db,
                               const char *table, char *const *part_values,
                               struct chv_error *err);

/* ---- scan ---------------------------------------------------------------- */

typedef struct chv_scan chv_scan;

/* Hive's TABLESAMPLE of a scan (docs/splits.md, "Sampling"): which part of
** the input it reads.  A sampled scan reads the splits of its pruned
** partitions as planned for one reader (min_splits 1), whatever its thread
** count, so that the sample does not depend on the threads. */
enum chv_sample_kind {
  CHV_SAMPLE_NONE = 0,
  /* at most rows rows of each split (its first ones), as Hive's
  ** TABLESAMPLE (n ROWS) takes n rows of each input split; the readers
  ** skip nothing by predicates or bounds then, so that "first" is the
  ** file's order */
  CHV_SAMPLE_ROWS,
  /* whole splits, the first in plan order, until their bytes reach
  ** percent of the bytes of all the splits (rounded up): 0 reads none,
  ** 100 every one */
  CHV_SAMPLE_PERCENT,
  /* the same, until they reach bytes bytes (Hive's TABLESAMPLE (100M)) */
  CHV_SAMPLE_BYTES
};

struct chv_scan_sample {
  enum chv_sample_kind kind;
  int64_t rows;    /* CHV_SAMPLE_ROWS, >= 0 */
  double percent;  /* CHV_SAMPLE_PERCENT, 0 to 100 */
  int64_t bytes;   /* CHV_SAMPLE_BYTES, >= 0 */
};

struct chv_scan_options {
  const struct chv_part_filter *filter; /* on partition keys; NULL = all */
  const char *const *columns; /* projection by name (data or partition
                                 columns); NULL = every column */
  int ncolumns;
  int64_t limit;              /* rows; < 0 = no limit */
  int64_t batch_rows;         /* rows per batch; 0 = 4096 */
  /* Predicates on data columns (a conjunction) the columnar readers use to
  ** skip row groups whose statistics exclude every row; rows are not
  ** filtered by them (the caller still filters).  Borrowed. */
  const struct chv_pred *preds;
  int npreds;
  /* Reader threads.  0 or 1: files are read one at a time on the caller's
  ** thread.  More: the scan's splits (chv_split_plan_open() with this many
  ** as the source parallelism) are read on that many threads, each
  ** decoding whole splits, and batches come out in split order (partition,
  ** file, range), so the rows and their order are those of one thread. */
  int threads;
  /* Work done on each split's batches where the split is read (a stage of
  ** a pipeline), or NULL.  With a hook the scan returns only the batches
  ** the hook gives (its own, in split order) and reads in splits even with
  ** threads = 1 (on one reader thread), planned as for one reader
  ** (min_splits 1), so that the hook sees the same splits whatever the
  ** thread count; a scan of one split (or none) runs it on the caller's
  ** thread.  Borrowed. */
  const struct chv_scan_hook *hook;
  /* A bound the consumer tightens as it reads (chv_scan_bound_set()), or
  ** NULL: each file opened after an update skips what the bound rules out,
  ** as it would for one more predicate.  Borrowed. */
  struct chv_scan_bound *bound;
  /* Session and file options (table.exec.hive.read-partition-with-
  ** subdirectory.enabled, hive.exec.default.partition.name) under the
  ** table's properties, or NULL: the table's properties and the defaults.
  ** Borrowed. */
  const chv_config *cfg;
  /* A flag another thread (or a signal handler) sets to stop the scan, or
  ** NULL: once it is nonzero, chv_scan_next() fails with CHV_ECANCELED
  ** within a batch of each reader.  Borrowed. */
  const volatile int *cancel;
  /* Table options of this scan only, over the table's properties (a
  ** statement's OPTIONS hints, validated by the caller).  Borrowed. */
  const struct chv_kv *table_options;
  int ntable_options;
  /* Told how far the scan is (chv_scan_stats() of s), or NULL: called on
  ** the thread calling chv_scan_next(), after each batch it reads or
  ** returns and about every 20 ms while it waits for reader threads, so a
  ** progress display moves even while a hook keeps every batch. */
  void (*progress)(void *ctx, const chv_scan *s);
  void *progress_ctx;
  /* TABLESAMPLE (above); kind CHV_SAMPLE_NONE: every split. */
  struct chv_scan_sample sample;
};

/* A comparison of one column with a value that changes while a scan runs:
** a top-N's last kept row, which rows must beat to enter (column >= value
** for a descending first key).  The value is text as in struct chv_pred;
** none is set at first.  Updates and the readers' reads of it may come
** from different threads. */
typedef struct chv_scan_bound chv_scan_bound;
CHV_API int chv_scan_bound_open(const char *column, enum chv_pred_op op,
                                chv_scan_bound **out, struct chv_error *err);
CHV_API int chv_scan_bound_set(chv_scan_bound *b, const char *value,
                               struct chv_error *err);
/* The bound's value now into buf (n bytes, truncated); false while unset. */
CHV_API bool chv_scan_bound_value(chv_scan_bound *b, char *buf, size_t n);
CHV_API void chv_scan_bound_close(chv_scan_bound *b);

/* A pipeline stage run on the reader threads.  Each split has a state,
** NULL at its start, that only the thread reading the split touches. */
struct chv_scan_hook {
  void *ctx;
  /* One batch of the split (borrowed for the call).  *out: a batch the
  ** hook gives up (chv_batch_close()d by the scan) to be returned by
  ** chv_scan_next() in split order, or NULL for none.  An error fails
  ** the split: chv_scan_next() returns it when it gets there. */
  int (*batch)(void *ctx, void **state, const struct chv_batch *in,
               struct chv_batch **out, struct chv_error *err);
  /* The split's end, called once per split, one at a time and in split
  ** order (after the split before it has ended); ok is false when the
  ** split failed or the scan is closing, and then it only frees the
  ** state.  An error fails the split. */
  int (*done)(void *ctx, void *state, bool ok, struct chv_error *err);
};

CHV_API void chv_scan_options_init(struct chv_scan_options *o);

struct chv_scan_stats {
  int64_t partitions_total;   /* partitions of the table */
  int64_t partitions_read;    /* after pruning */
  int64_t files_read;
  int64_t rows;
  int64_t malformed;          /* fields read as NULL (text) */
  int64_t row_groups;         /* Parquet row groups and ORC row index
                                 groups of the files read */
  int64_t row_groups_skipped; /* of them, excluded by the predicates */
  int64_t stripes;            /* ORC stripes of the files read */
  int64_t stripes_skipped;    /* of them, excluded by the predicates */
  int64_t bytes_read;         /* read from the files (footers included;
                                 text: before decompression) */
  /* How far a scan is, while it runs: the splits planned for reader
  ** threads (0 when files are read one at a time on the caller's thread,
  ** without a plan), those read to their end, and the rows read from
  ** files so far (rows counts those returned, after a hook). */
  int64_t splits_total;
  int64_t splits_done;
  int64_t rows_read;
  /* A sampled scan: the splits planned, of which the sample reads
  ** splits_total; 0 for other scans. */
  int64_t splits_planned;
};

/* Open a scan: partitions are pruned by the catalog, files listed lazily,
** one partition at a time.  out: close with chv_scan_close(). */
CHV_API int chv_scan_open(chv_catalog *cat, const char *db, const char *table,
                          const struct chv_scan_options *opts, chv_scan **out,
                          struct chv_error *err);
/* STRUCT of the rows produced: the projected columns in order (all data
** columns then partition keys when there is no projection). */
CHV_API const struct chv_type *chv_scan_schema(const chv_scan *s);
/* *out: the next batch, borrowed until the next call; NULL at the end. */
CHV_API int chv_scan_next(chv_scan *s, struct chv_batch **out,
                          struct chv_error *err);
CHV_API void chv_scan_stats(const chv_scan *s, struct chv_scan_stats *out);
/* No more batches are read (chv_scan_next() gives the end): a scan its
** consumer left early stops its reader threads, and its statistics then
** count what they had read of the splits they were in. */
CHV_API void chv_scan_stop(chv_scan *s);
CHV_API void chv_scan_close(chv_scan *s);

/* ---- splits -------------------------------------------------------------- */

/* A part of a scan that one reader reads on its own: a byte range of one
** file.  The reader of a split reads what belongs to the range: the lines
** Hadoop's LineRecordReader gives it (text), the row groups whose midpoint
** lies in it (Parquet), the stripes starting in it (ORC); a split of a
** whole file is [0, file_size). */
struct chv_split {
  char *path;        /* the file (owned) */
  int64_t start;     /* first byte */
  int64_t length;    /* bytes */
  int64_t file_size;
  int partition;     /* index into the plan's partitions */
};

struct chv_split_plan {
  struct chv_split *splits;        /* by partition, file path, start */
  int nsplits;
  struct chv_partition *partitions; /* pruned (an unpartitioned table: one,
                                       its location, without values) */
  int npartitions;
  int64_t files;                   /* files the splits were cut from */
  /* ORC tables: the split size Flink computes (below) and its inputs;
  ** 0 for other formats. */
  int64_t max_split_bytes;
  int64_t total_weighted;          /* sum of (entry size + open cost) */
  int64_t min_splits;              /* n of the formula */
  /* Text and Parquet tables: the inputs of Hadoop's formula (below). */
  int64_t num_splits;              /* numSplits: min_splits, 1 while
                                      parallelism is being inferred */
  int64_t block_size;              /* blockSize */
};

/* The block size of local files in Hadoop's split formula: the local file
** system's (fs.local.block.size, 32 MiB). */
#define CHV_SPLIT_BLOCK_SIZE ((int64_t)32 << 20)

struct chv_split_options {
  const struct chv_part_filter *filter; /* on partition keys; NULL = all */
  /* Flink's minNumSplits, the source's parallelism; <= 0: parallelism is
  ** being inferred, and ORC's formula takes infer-source-parallelism.max,
  ** Hadoop's numSplits 1. */
  int min_splits;
  const chv_config *cfg; /* options (NULL: table properties and defaults) */
  /* Text and Parquet: the files' block size; <= 0: CHV_SPLIT_BLOCK_SIZE. */
  int64_t block_size;
};

/* Plan the splits of a scan of db.table as Flink's Hive source plans them
** (docs/splits.md).  ORC tables: the top-level entries of every pruned
** partition folder are listed on calculate-partition-size.thread-num
** threads and weighed, totalWeighted = sum(size + file-open-cost);
** maxSplitBytes = min(split-max-size, max(file-open-cost, totalWeighted /
** n)), n = min_splits (or infer-source-parallelism.max); then each file's
** stripes are read from its tail (load-partition-splits.thread-num threads)
** and packed in file order into splits that end at the first stripe
** reaching maxSplitBytes, as Hive's OrcInputFormat packs them.  Text and
** Parquet: Hadoop's FileInputFormat sizing per partition, splitSize =
** max(1, min(partition bytes / n, block_size)), a file cut into splitSize
** pieces while more than 1.1 of them are left; an empty file is one empty
** split and a compressed text file (.gz, .bz2, .deflate, .lz4, .snappy,
** .zst) one whole split.  Files of writes in progress are left out,
** sub-folders are read as read-partition-with-subdirectory.enabled says.
** Errors name the file (not ORC, damaged) or the option.  out: free with
** chv_split_plan_free(). */
CHV_API int chv_split_plan_open(chv_catalog *cat, const char *db,
                                const char *table,
                                const struct chv_split_options *opts,
                                struct chv_split_plan **out,
                                struct chv_error *err);
CHV_API void chv_split_plan_free(struct chv_split_plan *p);

/* What the parallelism of a batch scan is inferred from. */
struct chv_parallelism_options {
  const struct chv_part_filter *filter; /* on partition keys; NULL = all */
  /* Flink's table.exec.resource.default-parallelism, the parallelism when
  ** nothing is inferred; <= 0: the machine's online CPUs (chive has no
  ** cluster whose default Flink would take). */
  int default_parallelism;
  int64_t limit;         /* a pushed LIMIT; < 0: none */
  const chv_config *cfg; /* options (NULL: table properties and defaults) */
  int64_t block_size;    /* as in struct chv_split_options */
};

/* The inference and its inputs. */
struct chv_parallelism {
  int parallelism;   /* reader threads for the scan, >= 1 */
  bool inferred;     /* inference ran (its switch on, its mode not none) */
  int max;           /* its bound: infer-source-parallelism.max (static),
                        the default parallelism or less (dynamic); 0 when
                        inference did not run */
  int64_t entries;   /* top-level entries of the pruned partition folders;
                        -1 when inference did not run */
  int64_t splits;    /* splits planned for inference; -1 when not planned */
  bool dynamic;      /* inferred in dynamic mode: max (and so parallelism)
                        is bounded by the default parallelism */
};

/* The number of reader threads for a batch scan of db.table, as Flink's
** Hive source infers its parallelism (docs/splits.md):
**
**   1. p = the default parallelism;
**   2. when table.exec.hive.infer-source-parallelism is true and
**      table.exec.hive.infer-source-parallelism.mode is not none: the
**      top-level entries of the pruned partition folders are counted
**      (calculate-partition-size.thread-num threads); if they reach max,
**      p = max, else p = min(splits, max), the splits planned as for
**      inference (min_splits <= 0) with ORC's n = max.  In static
**      mode max is infer-source-parallelism.max; in dynamic mode, which
**      Flink leaves to its adaptive scheduler, chive infers at the same
**      point with max = min(infer-source-parallelism.max when it is set,
**      else the default parallelism; the default parallelism);
**   3. a pushed LIMIT: p = min(p, limit / 1000);
**   4. p = max(1, p).
**
** Errors as chv_split_plan_open(). */
CHV_API int chv_split_infer_parallelism(chv_catalog *cat, const char *db,
                                        const char *table,
                                        const struct chv_parallelism_options
                                            *opts,
                                        struct chv_parallelism *out,
                                        struct chv_error *err);

/* The rest of the scan as an Arrow C Stream (see chive/arrow_abi.h): its
** schema is chv_scan_schema() exported as a "+s" struct, and each
** get_next() yields the next batch as an array that the consumer owns and
** may keep after the stream is released (every batch is copied out of the
** scan's lent one).  The stream takes the scan over, on failure too: it is
** closed when the stream is released (out->release(out)), or before
** this returns an error, when *out is left untouched.  get_next() errors are
** errno values (EIO, EINVAL, ENOMEM) with the scan's message in
** get_last_error().  The stream belongs to one thread at a time. */
CHV_API int chv_scan_export_stream(chv_scan *scan /* takes ownership */,
                                   struct ArrowArrayStream *out,
                                   struct chv_error *err);

/* Append a partition value as stored in the catalog (NULL = the default
** partition) to v, converted to v's type as Flink converts it.  The default
** partition reads as NULL, except on STRING/VARCHAR/CHAR columns, which get
** the literal __HIVE_DEFAULT_PARTITION__, as Flink's reader gives it.  A
** value that does not convert (an "x" for an INT key) reads as NULL, as
** Hive's cast gives.  Errors: CHV_ETYPE for a nested key type, CHV_ENOMEM. */
CHV_API int chv_part_value_append(struct chv_vector *v, const char *value,
                                  struct chv_error *err);

#ifdef __cplusplus
}
#endif
#endif /* CHIVE_CONNECTOR_H */
