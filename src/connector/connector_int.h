/*
** Helpers shared by the files of src/connector (not part of its interface).
*/
#ifndef CHV_CONNECTOR_INT_H
#define CHV_CONNECTOR_INT_H

#include "connector/connector.h"
#include "config/config.h"
#include "chive/orc.h"
#include "chive/parquet.h"
#include "format/text/text.h"

#include <pthread.h>

/* chv_catalog_get_table() for what reads or writes files: a view (a
** VIRTUAL_VIEW table, which has none) is CHV_EINVAL naming it and what was
** asked ("scan", "write to" ...).  out: chv_table_free(). */
int conn_get_table(chv_catalog *cat, const char *db, const char *name,
                   const char *what, struct chv_table *out,
                   struct chv_error *err);

/* STRUCT type of the table's data columns, followed by its partition keys
** when with_pkeys.  Errors name the table and column of a bad type string.
** out: chv_type_free(). */
int conn_table_schema(const struct chv_table *t, bool with_pkeys,
                      struct chv_type **out, struct chv_error *err);

/* The partitions a scan of t reads: those the filter keeps (pruned inside
** the metastore), or for an unpartitioned table one without values at the
** table's location; *total: all of them.  The filter sees each partition's
** values as its rows read them (CHV_PF_DEFAULT_NAME with the table's
** hive.exec.default.partition.name, cfg below its properties).  CHV_ENOENT naming the folder when
** the table's location does not exist.  *parts: chv_partitions_free(). */
int conn_scan_partitions(chv_catalog *cat, const struct chv_table *t,
                         const chv_config *cfg,
                         const struct chv_part_filter *filter,
                         struct chv_partition **parts, int *nparts,
                         int64_t *total, struct chv_error *err);

/* A scan of one split: the byte range [start, start + length) of path
** (length < 0: the whole file) in the partition of t with part_values (one
** per key; NULL = the default partition), read as opts says (its filter is
** not used).  t is moved into the scan (zeroed) even on failure. */
int conn_scan_open_split(struct chv_table *t, char *const *part_values,
                         const char *path, int64_t start, int64_t length,
                         const struct chv_scan_options *opts, chv_scan **out,
                         struct chv_error *err);

/* chv_split_plan_open() for a table already read (whose parameters may
** carry options the metastore's lack). */
int conn_split_plan(chv_catalog *cat, const struct chv_table *t,
                    const struct chv_split_options *opts,
                    struct chv_split_plan **out, struct chv_error *err);

/* Cut plan p down to the splits a TABLESAMPLE by size keeps
** (CHV_SAMPLE_PERCENT, CHV_SAMPLE_BYTES; other kinds keep every split):
** the first ones in plan order until their lengths add up to the target,
** ceil(percent / 100 of all the splits' lengths) or the bytes, at least;
** a target of 0 keeps none.  The splits dropped are freed.  Cannot fail. */
void conn_split_sample(struct chv_split_plan *p,
                       const struct chv_scan_sample *sample);

/* Cuts each split of p longer than unit bytes into pieces of unit bytes
** (the last up to twice that), in order: the row groups (Parquet) or
** stripes (ORC) a split takes are those its pieces take, one piece each,
** since a piece takes them by the same rule (a row group's midpoint, a
** stripe's start) over its own range.  CHV_ENOMEM, p as it was. */
int conn_split_cut(struct chv_split_plan *p, int64_t unit,
                   struct chv_error *err);

/* chv_source_report_statistics() for a table already read (whose
** parameters may carry the builder's table options), the pruned partitions
** and a pushed limit (< 0: none).  Needs chive/source.h for the result. */
struct chv_source_stats;
int conn_report_statistics(chv_catalog *cat, const struct chv_table *t,
                           const chv_config *cfg,
                           const struct chv_part_filter *filter, int64_t limit,
                           struct chv_source_stats *out,
                           struct chv_error *err);

/* Run fn over [0, n) on up to threads threads (at least one, at most n);
** the first error stops it. */
int conn_pool_run(int64_t threads, int64_t n, chv_pool_fn fn, void *arg,
                  struct chv_error *err);

/* A deep copy of t into *d; false when out of memory (*d is then partly
** filled and must be freed with chv_table_free()). */
bool conn_table_copy(const struct chv_table *t, struct chv_table *d);
/* A copy of s (NULL for NULL); sets *ok to false when out of memory. */
char *conn_dup_or_null(const char *s, bool *ok);

/* LazySimpleSerDe options from the table's SerDe parameters (of a table
** conn_table_format() found to be TEXTFILE). */
int conn_table_text_options(const struct chv_table *t,
                            struct chv_text_options *o, struct chv_error *err);

/* ---- file formats (format.c) ---------------------------------------------- */

enum conn_fmt { CONN_FMT_TEXT, CONN_FMT_PARQUET, CONN_FMT_ORC };

/* What a table's files are and how to read and write them. */
struct conn_format {
  enum conn_fmt kind;
  struct chv_text_options text;           /* TEXTFILE: SerDe parameters */
  struct chv_pq_write_options parquet;    /* Parquet: writer options */
  struct chv_orc_write_options orc;       /* ORC: writer options, but */
  char orc_bloom[1024];                   /* orc.bloom.filter.columns */
};

/* The format of t's files from its SerDe and input format (writer options
** layered over cfg, which may be NULL); CHV_ENOTSUP naming both when
** chive cannot read it. */
int conn_table_format(const struct chv_table *t, const chv_config *cfg,
                      struct conn_format *f, struct chv_error *err);
/* What new file names end with (".gz" for gzipped text, else ""). */
const char *conn_format_suffix(const struct conn_format *f);

#define CONN_MAX_COLUMNS 4096
struct conn_reader {
  enum conn_fmt kind;
  chv_text_reader *text;
  chv_pq_reader *pq;
  chv_orc_reader *orc;
  const char *names[CONN_MAX_COLUMNS]; /* columnar: projected column names */
};
struct conn_read_stats {
  int64_t malformed;          /* text fields read as NULL */
  int64_t row_groups;         /* Parquet row groups, ORC index groups */
  int64_t row_groups_skipped; /* of them, excluded by the predicates */
  int64_t stripes;            /* ORC stripes */
  int64_t stripes_skipped;    /* of them, excluded by the predicates */
  int64_t bytes_read;         /* read from the file */
};
/* What a reader reads of a file. */
struct conn_read_args {
  const struct chv_type *file_schema; /* the table's data columns */
  const int *cols;     /* file columns to produce (indexes into file_schema),
                          in output order */
  int ncols;
  int64_t batch_rows;  /* rows per batch when no column is read */
  const struct chv_pred *preds; /* a conjunction: columnar formats skip row
                                   groups and stripes by it */
  int npreds;
  /* A split: the byte range [range_start, range_start + range_length) of
  ** the file; range_length < 0: the whole file.  Text reads the lines
  ** Hadoop's LineRecordReader gives the split (a compressed file whole from
  ** the split at 0), Parquet the row groups whose midpoint lies in it, ORC
  ** the stripes starting in it. */
  int64_t range_start;
  int64_t range_length;
};
/* Open path for reading (a range of it). */
int conn_reader_open(const struct conn_format *f, const struct chv_fs *fs,
                     const char *path, const struct conn_read_args *a,
                     struct conn_reader *r, struct chv_error *err);
const struct chv_type *conn_reader_schema(const struct conn_reader *r);
int conn_reader_next(struct conn_reader *r, struct chv_batch *b,
                     int64_t *nrows, struct chv_error *err);
/* Adds the reader's counts to st (may be NULL) and closes it. */
void conn_reader_close(struct conn_reader *r, struct conn_read_stats *st);
/* Adds what the open reader r has read so far to *st. */
void conn_reader_stats(const struct conn_reader *r, struct conn_read_stats *st);

struct conn_writer {
  enum conn_fmt kind;
  chv_text_writer *text;
  chv_pq_writer *pq;
  chv_orc_writer *orc;
};
struct conn_write_stats {
  int64_t rows;
  int64_t raw_bytes;  /* rawDataSize */
  int64_t file_bytes; /* totalSize */
};
int conn_writer_open(const struct conn_format *f, const struct chv_fs *fs,
                     const char *path, const struct chv_type *schema,
                     struct conn_writer *w, struct chv_error *err);
bool conn_writer_is_open(const struct conn_writer *w);
int conn_writer_write(struct conn_writer *w, const struct chv_batch *b,
                      struct chv_error *err);
/* Finishes and closes the file. */
int conn_writer_finish(struct conn_writer *w, struct conn_write_stats *st,
                       struct chv_error *err);
void conn_writer_close(struct conn_writer *w);

/* The rows and raw data size of a columnar file from its footer (Parquet)
** or tail (ORC) alone, as Hive's statistics take them; CHV_ENOTSUP for a
** text file, which has no such figures.  Errors name the file. */
int conn_file_stats(enum conn_fmt kind, const struct chv_fs *fs,
                    const char *path, int64_t *rows, int64_t *raw_bytes,
                    struct chv_error *err);

/* A random (version 4) UUID as 36 characters and a NUL. */
int conn_uuid(char out[37], struct chv_error *err);

/* The value of option key for table t, layered as the connector reads its
** options: a table property wins, then the session, configuration file
** and registry default held by cfg (NULL: the registry default alone).  A
** table property is validated against the registry; errors name the table
** and the key.  out: initialised by the caller, chv_opt_value_free(). */
int conn_table_option(const struct chv_table *t, const chv_config *cfg,
                      const char *key, struct chv_opt_value *out,
                      struct chv_error *err);
/* Puts the n options kv (a statement's OPTIONS hints: chv_scan_options
** and chv_sink_options .table_options) over t's properties, in the
** in-memory table only: a registered key replaces the property under it
** and under its deprecated aliases (stored under the current key), another
** key the property of that name; later entries win.  CHV_ENOMEM. */
int conn_table_overlay(struct chv_table *t, const struct chv_kv *kv, int n,
                       struct chv_error *err);

/* Finish or undo the writes of db.table whose writer process is gone (see
** enum chv_commit_state): a PENDING write's new files are deleted, a
** COMMITTED write's replaced files are deleted, and in every case the
** staging folder and the record go.  Records of live processes (this one
** included) are left alone. */
int conn_recover_table(chv_catalog *cat, const struct chv_fs *fs,
                       const char *db, const char *table,
                       struct chv_error *err);

/* The paths readers of db.table must skip now: new files of PENDING writes
** and replaced files (or folders) of COMMITTED ones.  *paths: chv_strv_free.
*/
int conn_hidden_paths(chv_catalog *cat, const char *db, const char *table,
                      char ***paths, int *n, struct chv_error *err);

/* The visible files of a partition folder dir, in l: with recursive
** (table.exec.hive.read-partition-with-subdirectory.enabled), those of its
** sub-folders too; without, a sub-folder fails the read with "Not a file",
** naming it, as Hadoop's FileInputFormat does.  CHV_ENOENT for a missing
** folder (err set). */
int conn_list_partition(const struct chv_fs *fs, const char *dir,
                        bool recursive, struct chv_dirlist *l,
                        struct chv_error *err);

/* True when path is one of paths[0..n) or lies inside one of them. */
bool conn_path_hidden(char *const *paths, int n, const char *path);

/* The files under dir (recursively, visible names only): *visible of them,
** of *bytes in all, are not among hidden[0..nhidden) (conn_path_hidden);
** *all counts every one.  CHV_ENOENT when dir does not exist. */
int conn_count_files(const struct chv_fs *fs, const char *dir,
                     char *const *hidden, int nhidden, int64_t *visible,
                     int64_t *bytes, int64_t *all, struct chv_error *err);

/* ---- sink: writers and dynamic partitions (sink.c, sink_dynamic.c) ------- */

/* A map of byte strings (copied in) to non-negative ints, open addressing;
** zero-initialised it is empty. */
struct conn_bytemap {
  struct conn_bytemap_slot *slots; /* cap of them; NULL until the first put */
  size_t cap;                      /* a power of two, or 0 */
  size_t n;                        /* keys held */
};
uint64_t conn_hash_bytes(const void *p, size_t n);
/* The value of key (of hash h = conn_hash_bytes(key, n)), or -1. */
int conn_bytemap_get(const struct conn_bytemap *m, const void *key, size_t n,
                     uint64_t h);
/* Put key -> v (v >= 0; the key must not be there yet); CHV_ENOMEM. */
int conn_bytemap_put(struct conn_bytemap *m, const void *key, size_t n,
                     uint64_t h, int v);
void conn_bytemap_free(struct conn_bytemap *m);

/* One file of a partition, staged until the commit. */
struct sink_file {
  char *name;           /* part-<id>-task-<k>-file-<n>[.gz], or a loaded name */
  char *staged;         /* its path under the staging folder */
  int64_t rows;         /* rows written; -1: unknown (a loaded file) */
  int64_t raw_bytes;    /* rawDataSize; -1: unknown */
  int64_t file_bytes;   /* bytes in the file */
  char *move_from;      /* a loaded file to delete once the commit holds
                           (LOAD DATA without LOCAL moves its files) */
};

/* A target partition (or the table itself when unpartitioned), as one
** writer writes it, or as the commit publishes it: every writer's files of
** the partition, merged. */
struct sink_part {
  char **values;        /* partition values as given (NULL = default) */
  char *relpath;        /* escaped "k1=v1/k2=v2"; "" when unpartitioned */
  struct sink_file *files;
  int nfiles;
  int cap_files;
  struct conn_writer w; /* writing files[nfiles - 1] when open */
  uint64_t last_use;    /* the writer's clock at the last write, for closing
                           the least recently used file */
};

/* With table.exec.hive.sink.sort-by-dynamic-partition.enable (the default)
** a writer keeps one file open: the rows of a dynamic partition insert for
** other partitions are held, per writer and partition, and written one
** partition at a time when a run is full or at the commit; a partition
** gets one file per run and writer (a run continues the file the writer
** has open), see sink_dynamic.c.  A run holds up to CONN_SORT_BYTES bytes
** of values (the memory it takes; CONN_SORT_ROWS rows at most). */
#define CONN_SORT_ROWS (1 << 23)
#define CONN_SORT_BYTES (64 << 20)
struct conn_sortbuf {
  bool on;
  struct chv_batch **held; /* per index in the writer's parts: rows held
                              (data columns), or NULL */
  int cap_held;
  int32_t *order;          /* parts holding rows, in the order they began */
  int norder;
  int cap_order;
  int64_t rows;            /* rows held */
  int64_t bytes;           /* their values' bytes, estimated */
};
void conn_sortbuf_free(struct conn_sortbuf *b);

/* A writer of a sink: the files the threads of one slot write.  Every
** thread that writes into a sink takes a writer for the duration of each
** call (conn_sink_writer_get/_put), so a writer is used by one thread at a
** time and never locked while it writes; the writers' files of a
** partition are merged at the commit. */
struct conn_sink_writer {
  chv_sink *sink;
  int task;                  /* its slot; names its files:
                                part-<id>-task-<task>-file-<n> */
  bool busy;                 /* taken by a thread (under the sink's lock) */
  struct sink_part *parts;   /* the partitions it wrote, in first-write order */
  int nparts;
  int cap_parts;
  struct conn_bytemap by_path;  /* relpath -> index in parts */
  /* Dynamic partitions: the dynamic values of a row, as bytes, -> index
  ** in parts, for the static values key_statics (copies). */
  struct conn_bytemap by_key;
  char **key_statics;
  int key_nstatic;
  bool key_ready;
  int open_writers;          /* parts with an open file */
  int file_seq;              /* numbers its files */
  uint64_t clock;            /* counts writes, for last_use */
  struct conn_sortbuf sort;  /* sorted dynamic partitions */
  /* Scratch of the routing of a batch's rows to their partitions. */
  int32_t *row_part;         /* per row: index in parts */
  uint32_t *order;           /* rows grouped by partition */
  int32_t *group_of;         /* per part: its group in the batch, or -1 */
  int64_t cap_rows;
  int cap_group_of;
  struct chv_batch *gather;  /* a group's rows, on the data columns */
};

/* A writer for the calling thread: its slot's (chv_thread_slot(), modulo
** sink.parallelism), made on first use; when another thread has it, any
** free one, else the first put back.  Put it back after the call. */
int conn_sink_writer_get(chv_sink *s, struct conn_sink_writer **out,
                         struct chv_error *err);
void conn_sink_writer_put(chv_sink *s, struct conn_sink_writer *w);
/* The index in w->parts of the partition of values (one per key; NULL or ""
** = the default partition), added when w has none yet. */
int conn_writer_part(struct conn_sink_writer *w, char *const *values,
                     int *index, struct chv_error *err);
/* Write the rows of b (on the table's data columns) to part index of w. */
int conn_writer_write_part(struct conn_sink_writer *w, int index,
                           const struct chv_batch *b, struct chv_error *err);
/* Count rows taken by the sink (written, or held for sorting), for
** chv_sink_rows() and chv_sink_bytes(). */
void conn_sink_count(chv_sink *s, const struct chv_batch *b);
/* What the sink is writing into. */
const struct chv_table *conn_sink_table(const chv_sink *s);
const struct chv_type *conn_sink_data_schema(const chv_sink *s);
bool conn_sink_sorted(const chv_sink *s);
/* Writes and empties w's buffered rows. */
int conn_writer_flush_sorted(struct conn_sink_writer *w, struct chv_error *err);
/* Frees what sink_dynamic.c keeps in w (its buffer and scratch). */
void conn_writer_free_dynamic(struct conn_sink_writer *w);

#endif
