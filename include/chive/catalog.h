/*
** catalog: Hive's metadata model (databases, tables, partitions, their
** parameters and statistics) with the embedded metastore as its first back
** end, plus Hive's partition path naming and reading of hive-site.xml.
**
** The embedded metastore is a SQLite database inside the warehouse folder,
** <warehouse>/.chive_metastore.db (a dot name, so readers of the warehouse
** skip it), in WAL mode: any number of processes read while one writes, and
** every change is one transaction, so a batch of partitions is added or
** dropped all at once or not at all, even if the process is killed.  See
** docs/catalog.md for the schema and the reasons.
**
** INTERFACE
**   chv_catalog_open()            a metastore beside a warehouse folder
**   chv_catalog_open_conf_dir()   the same, configured by hive-site.xml
**   chv_catalog_close()
**   chv_catalog_*_database()      create, drop, get, list
**   chv_catalog_*_table()         create, drop, get, list, alter, rename
**   chv_catalog_list_views()      the views (VIRTUAL_VIEW tables) of a db
**   chv_catalog_*_partition(s)()  add and drop batches, get, list, filter
**   chv_catalog_*_stats()         numRows, numFiles, totalSize, rawDataSize
**   chv_catalog_table_stats()     basic statistics a planner reads, summed
**                                 over partitions
**   chv_catalog_*column_stats()   Hive's TAB_COL_STATS / PART_COL_STATS
**   struct chv_part_filter        a predicate on partition keys, evaluated
**                                 inside SQLite (chv_pf_* builders)
**   chv_partition_escape() ...    Hive's partition path names (partpath.c)
**   chv_hive_site_read()          properties of a hive-site.xml
**
** Names of databases, tables, columns and partition keys are
** case-insensitive, as in Hive, and stored and returned lower-case.
** Times (create_time) are seconds since the epoch, as Hive keeps them.
**
** Ownership: structs passed in are borrowed and copied; structs and arrays
** handed out are owned by the caller and released by the matching
** chv_*_free().  Out-params are written only on success.
**
** Thread safety: a chv_catalog handle is used by one thread at a time; open
** one handle per thread (they share nothing but the database file).
*/
#ifndef CHIVE_CATALOG_H
#define CHIVE_CATALOG_H

#include "chive/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- model ------------------------------------------------------------- */

/* A parameter (Hive's Map<String,String> entries). */
struct chv_kv {
  char *key;
  char *value;
};

struct chv_column {
  char *name;    /* lower-case */
  char *type;    /* Hive type string: "int", "decimal(10,2)", "array<string>" */
  char *comment; /* may be NULL */
};

struct chv_database {
  char *name;        /* lower-case */
  char *location;    /* absolute path; NULL on create: <warehouse>/<name>.db */
  char *description; /* may be NULL */
  struct chv_kv *params;
  int nparams;
};

/* Hive's TableType names, in this order. */
#define CHV_TABLE_TYPE_MAP(X)                                                 \
  X(MANAGED_TABLE)                                                            \
  X(EXTERNAL_TABLE)                                                           \
  X(VIRTUAL_VIEW)

enum chv_table_type {
#define CHV_X_(name) CHV_##name,
  CHV_TABLE_TYPE_MAP(CHV_X_)
#undef CHV_X_
};
CHV_API const char *chv_table_type_name(enum chv_table_type t);

struct chv_table {
  char *db;   /* database name, lower-case */
  char *name; /* table name, lower-case */
  struct chv_column *columns; /* data columns, in order */
  int ncols;
  struct chv_column *pkeys; /* partition keys, in order */
  int npkeys;
  char *location; /* NULL on create: the database location + "/" + name */
  enum chv_table_type type;
  /* Storage; NULL on create means TEXTFILE with LazySimpleSerDe. */
  char *input_format;
  char *output_format;
  char *serde_lib;
  struct chv_kv *serde_params;
  int nserde_params;
  struct chv_kv *params; /* table parameters, statistics among them */
  int nparams;
  char *view_original_text; /* VIRTUAL_VIEW only, else NULL */
  char *view_expanded_text;
  int64_t create_time; /* seconds; set by the catalog on create */
};

struct chv_partition {
  char **values; /* one per partition key; NULL = the default partition */
  int nvalues;
  char *name;     /* out only: escaped "k1=v1/k2=v2" */
  char *location; /* NULL on add: the table location + "/" + name; a
                     relative one is under the table location, as in Hive */
  int64_t create_time; /* seconds; set by the catalog on add */
  struct chv_kv *params;
  int nparams;
};

/* Basic statistics, kept in parameters as Hive keeps them; -1 = unknown. */
struct chv_stats {
  int64_t num_rows;      /* numRows */
  int64_t num_files;     /* numFiles */
  int64_t total_size;    /* totalSize */
  int64_t raw_data_size; /* rawDataSize */
};

CHV_API void chv_kv_free(struct chv_kv *kv,
                         int n);             /* the array and its strings */
CHV_API void chv_strv_free(char **v, int n); /* the array and its strings */
CHV_API void
chv_database_free(struct chv_database *d);        /* contents; zeroes *d */
CHV_API void chv_table_free(struct chv_table *t); /* contents; zeroes *t */
CHV_API void
chv_partition_free(struct chv_partition *p); /* contents; zeroes *p */
CHV_API void chv_partitions_free(struct chv_partition *v,
                                 int n); /* and the array */

/* Value of key in params, or NULL (borrowed). */
CHV_API const char *chv_kv_get(const struct chv_kv *params, int n,
                               const char *key);

/* Statistics from parameters; missing or unparsable values give -1. */
CHV_API void chv_stats_from_params(const struct chv_kv *params, int n,
                                   struct chv_stats *out);
/* Unknown statistics as -1. */
CHV_API void chv_stats_init_unknown(struct chv_stats *s);
/* The known (>= 0) statistics as Hive's parameters (numRows, numFiles,
** totalSize, rawDataSize), for a struct chv_partition or chv_table being
** created.  params: free with chv_kv_free(); *n may be 0. */
CHV_API int chv_stats_to_params(const struct chv_stats *s,
                                struct chv_kv **params, int *n);

/* ---- opening ------------------------------------------------------------ */

typedef struct chv_catalog chv_catalog;

struct chv_catalog_options {
  int busy_timeout_ms; /* wait for another writer; 0 means 10000 */
  /* Never create or delete folders (create/drop of databases, tables and
  ** partitions change only the metastore). */
  bool metadata_only;
  /* SQLite synchronous=NORMAL instead of FULL: a commit survives a crash of
  ** the process but perhaps not of the machine. */
  bool relaxed_durability;
};

/* The file name of the embedded metastore inside the warehouse folder. */
#define CHV_METASTORE_FILE ".chive_metastore.db"

/* Opens (creating if needed) the warehouse folder and its metastore, with
** the database "default" located at the warehouse root.  warehouse_dir is a
** path or file:// URI; other schemes are CHV_ENOTSUP.  opts may be NULL.
** The metastore keeps the paths inside the warehouse relative to it, and
** every location and path it hands out is absolute, under warehouse_dir as
** given now: a warehouse moved or copied with its metastore keeps working
** where it is.  A metastore of an older schema is migrated on open.
** out: close with chv_catalog_close(). */
CHV_API int chv_catalog_open(const char *warehouse_dir,
                             const struct chv_catalog_options *opts,
                             chv_catalog **out, struct chv_error *err);

/* Reads <hive_conf_dir>/hive-site.xml: hive.metastore.warehouse.dir (Hive's
** default /user/hive/warehouse when unset) and hive.metastore.uris, which,
** when set, selects a remote metastore this build cannot reach yet
** (CHV_ENOTSUP). */
CHV_API int chv_catalog_open_conf_dir(const char *hive_conf_dir,
                                      const struct chv_catalog_options *opts,
                                      chv_catalog **out, struct chv_error *err);

CHV_API void chv_catalog_close(chv_catalog *cat);

/* The warehouse root, an absolute path (borrowed). */
CHV_API const char *chv_catalog_warehouse(const chv_catalog *cat);

/* The properties of a Hadoop-style configuration file (hive-site.xml):
** <configuration><property><name/><value/></property>...  Errors name the
** file and line.  props: free with chv_kv_free(). */
CHV_API int chv_hive_site_read(const char *path, struct chv_kv **props,
                               int *nprops, struct chv_error *err);

/* ---- databases ---------------------------------------------------------- */

#define CHV_CAT_IF_NOT_EXISTS 1u /* create/add: existing objects are kept */
#define CHV_CAT_IF_EXISTS 2u     /* drop: missing objects are no error */
#define CHV_CAT_CASCADE 4u       /* drop database: with its tables */
#define CHV_CAT_KEEP_DATA 8u     /* drop: leave managed data in place */
#define CHV_CAT_MERGE_PARAMS 16u /* add partitions: an existing one gets the
                                    given parameters merged into its own */

/* Creates the database (its folder too).  Errors: CHV_EEXIST. */
CHV_API int chv_catalog_create_database(chv_catalog *cat,
                                        const struct chv_database *db,
                                        unsigned flags, struct chv_error *err);
/* Without CASCADE a database holding tables is refused.  The folders of its
** managed tables and the database folder are deleted unless KEEP_DATA.
** "default" cannot be dropped. */
CHV_API int chv_catalog_drop_database(chv_catalog *cat, const char *name,
                                      unsigned flags, struct chv_error *err);
CHV_API int chv_catalog_get_database(chv_catalog *cat, const char *name,
                                     struct chv_database *out,
                                     struct chv_error *err);
/* pattern: NULL for all, else Hive's: '*' any characters, '|' alternatives,
** case-insensitive.  names: sorted; free with chv_strv_free(). */
CHV_API int chv_catalog_list_databases(chv_catalog *cat, const char *pattern,
                                       char ***names, int *n,
                                       struct chv_error *err);
/* Sets (adds or replaces) parameters of a database. */
CHV_API int chv_catalog_alter_database_params(chv_catalog *cat,
                                              const char *name,
                                              const struct chv_kv *set,
                                              int nset, struct chv_error *err);

/* ---- tables ------------------------------------------------------------- */

/* Creates t (its folder too, unless it is a view).  Fills defaults: location,
** TEXTFILE storage, EXTERNAL=TRUE for external tables, transient_lastDdlTime.
** Errors: CHV_ENOENT (database), CHV_EEXIST, CHV_EINVAL (names, duplicate
** columns). */
CHV_API int chv_catalog_create_table(chv_catalog *cat,
                                     const struct chv_table *t, unsigned flags,
                                     struct chv_error *err);
/* Drops the table and its partitions; the folder of a managed table goes
** too unless KEEP_DATA. */
CHV_API int chv_catalog_drop_table(chv_catalog *cat, const char *db,
                                   const char *name, unsigned flags,
                                   struct chv_error *err);
CHV_API int chv_catalog_get_table(chv_catalog *cat, const char *db,
                                  const char *name, struct chv_table *out,
                                  struct chv_error *err);
CHV_API bool chv_catalog_table_exists(chv_catalog *cat, const char *db,
                                      const char *name);
/* Table names of db, sorted; pattern as for databases.  Views are tables
** of type VIRTUAL_VIEW and are listed too, as Hive and Flink list them. */
CHV_API int chv_catalog_list_tables(chv_catalog *cat, const char *db,
                                    const char *pattern, char ***names, int *n,
                                    struct chv_error *err);
/* The names of db's views (tables of type VIRTUAL_VIEW) alone, sorted;
** pattern as for databases. */
CHV_API int chv_catalog_list_views(chv_catalog *cat, const char *db,
                                   const char *pattern, char ***names, int *n,
                                   struct chv_error *err);
/* Replaces the definition of db.name with t (t->db and t->name are
** ignored): columns, location, type, storage, parameters.  Partition keys
** cannot change (CHV_ENOTSUP). */
CHV_API int chv_catalog_alter_table(chv_catalog *cat, const char *db,
                                    const char *name, const struct chv_table *t,
                                    struct chv_error *err);
/* Sets parameters (value NULL removes the key). */
CHV_API int chv_catalog_alter_table_params(chv_catalog *cat, const char *db,
                                           const char *name,
                                           const struct chv_kv *set, int nset,
                                           struct chv_error *err);
/* Renames (and perhaps moves to new_db) a table; a managed table at its
** default location moves to the new default location, with its partitions,
** as Hive does. */
CHV_API int chv_catalog_rename_table(chv_catalog *cat, const char *db,
                                     const char *name, const char *new_db,
                                     const char *new_name,
                                     struct chv_error *err);
/* Statistics in the table parameters; -1 fields remove the key. */
CHV_API int chv_catalog_set_table_stats(chv_catalog *cat, const char *db,
                                        const char *name,
                                        const struct chv_stats *s,
                                        struct chv_error *err);
CHV_API int chv_catalog_get_table_stats(chv_catalog *cat, const char *db,
                                        const char *name, struct chv_stats *out,
                                        struct chv_error *err);

/* ---- table and column statistics (colstats.c) --------------------------- */

/* What a planner reads to size a table (Flink's getTableStatistics and
** getPartitionStatistics): the basic statistics of a table, of one of its
** partitions, or of a partitioned table as the sum over its partitions.
** Every count is -1 when unknown.  Reading it lists no files: it is the
** metastore's parameters alone (one query). */
struct chv_table_stats {
  int64_t num_rows;      /* numRows; a partitioned table: the sum, known
                            only when every partition has it */
  int64_t num_files;     /* numFiles, the same way */
  int64_t total_size;    /* totalSize */
  int64_t raw_data_size; /* rawDataSize */
  /* COLUMN_STATS_ACCURATE says BASIC_STATS true (of every partition, for a
  ** partitioned table): the counts were taken from the data as it is (by
  ** ANALYZE or by the writes since), not left from before a change. */
  bool accurate;
  /* A partitioned table asked as a whole: its partitions, and how many of
  ** them have numRows (a caller may scale the known ones up); 0 and 0
  ** otherwise. */
  int64_t partitions;
  int64_t partitions_with_rows;
};

/* The kinds of Hive's ColumnStatisticsData, by the column's type. */
#define CHV_COLSTATS_KIND_MAP(X)                                              \
  X(LONG)      /* tinyint .. bigint: long_low/high */                         \
  X(DOUBLE)    /* float, double: double_low/high */                           \
  X(DECIMAL)   /* decimal: decimal_low/high, text */                          \
  X(DATE)      /* long_low/high: days since the epoch */                      \
  X(TIMESTAMP) /* long_low/high: seconds since the epoch (Hive 4) */          \
  X(STRING)    /* string, varchar, char: avg/max length */                    \
  X(BINARY)    /* avg/max length, no distinct count */                        \
  X(BOOLEAN)   /* num_trues, num_falses */

enum chv_colstats_kind {
#define CHV_X_(name) CHV_COLSTATS_##name,
  CHV_COLSTATS_KIND_MAP(CHV_X_)
#undef CHV_X_
};
/* "long", "double", ... ; "?" out of range. */
CHV_API const char *chv_colstats_kind_name(enum chv_colstats_kind k);
/* The kind of a Hive type string; false for types Hive keeps no column
** statistics of (array, map, struct, uniontype, interval types). */
CHV_API bool chv_colstats_kind_of(const char *type,
                                  enum chv_colstats_kind *out);

/* One column's statistics, as a row of Hive's TAB_COL_STATS (a table) or
** PART_COL_STATS (a partition) holds them.  Counts are -1 when unknown;
** low/high only when has_low_high (a column of nothing but NULLs has
** none). */
struct chv_column_stats {
  char *column; /* lower-case */
  char *type;   /* the column's Hive type when analyzed */
  enum chv_colstats_kind kind;
  bool has_low_high;
  int64_t long_low, long_high;     /* LONG, DATE, TIMESTAMP */
  double double_low, double_high;  /* DOUBLE */
  char *decimal_low, *decimal_high; /* DECIMAL: canonical text, else NULL */
  int64_t num_nulls;
  int64_t num_distincts;  /* NDV, HyperLogLog's estimate (docs/catalog.md);
                             -1 for BOOLEAN and BINARY, as Hive */
  double avg_col_len;     /* STRING, BINARY: < 0 unknown */
  int64_t max_col_len;    /* STRING, BINARY */
  int64_t num_trues, num_falses; /* BOOLEAN */
  /* The distinct-value sketch (chive's own serialized HyperLogLog, not
  ** Hive's bit vector), so that partitions' counts merge; NULL: none. */
  unsigned char *bit_vector;
  size_t bit_vector_len;
  int64_t last_analyzed;  /* seconds since the epoch */
  /* The table's (partition's) COLUMN_STATS_ACCURATE names the column: no
  ** write has changed the data since.  Statistics that are not accurate
  ** are still handed out, for a caller that prefers an old estimate to
  ** none. */
  bool accurate;
};

CHV_API void chv_column_stats_free(struct chv_column_stats *v,
                                   int n); /* contents and the array */

/* Basic statistics of db.table (partition NULL), or of one partition named
** "k1=v1/k2=v2" (escaped, as chv_partition.name).  For a partitioned table
** with partition NULL, the sums over its partitions (struct
** chv_table_stats).  Errors: CHV_ENOENT naming the table or partition,
** CHV_EINVAL for a partition of an unpartitioned table. */
CHV_API int chv_catalog_table_stats(chv_catalog *cat, const char *db,
                                    const char *table, const char *partition,
                                    struct chv_table_stats *out,
                                    struct chv_error *err);

/* Column statistics of db.table or of one partition (as above), for the
** columns named (ncolumns 0: every column that has some), in the table's
** column order; a column without statistics is left out, so *n may be 0.
** For a partitioned table with partition NULL, the partitions' statistics
** merged as Hive's aggregate does: nulls, trues and falses summed, the
** lowest low and highest high, the longest length, the average length
** weighted by values (numRows less NULLs), the distinct count from the
** merged sketches (the largest partition count where a sketch is
** missing); accurate only when
** every partition has the column accurate.  Errors: CHV_ENOENT (table,
** partition), CHV_EINVAL (a column the table does not have).  out: free
** with chv_column_stats_free(). */
CHV_API int chv_catalog_column_stats(chv_catalog *cat, const char *db,
                                     const char *table, const char *partition,
                                     const char *const *columns, int ncolumns,
                                     struct chv_column_stats **out, int *n,
                                     struct chv_error *err);

/* Stores the statistics of n columns of db.table (partition NULL: an
** unpartitioned table) or of a partition, replacing what was stored for
** those columns, and marks them accurate in COLUMN_STATS_ACCURATE, as
** Hive's ANALYZE ... FOR COLUMNS does; one transaction.  Errors: as
** chv_catalog_column_stats(), and CHV_EINVAL for a column whose kind does
** not fit its type. */
CHV_API int chv_catalog_set_column_stats(chv_catalog *cat, const char *db,
                                         const char *table,
                                         const char *partition,
                                         const struct chv_column_stats *v,
                                         int n, struct chv_error *err);

/* The data of db.table (partition NULL) or of a partition changed by a
** write: its COLUMN_STATS_ACCURATE, when it has one, keeps only
** BASIC_STATS true (basic_accurate: the write left exact basic
** statistics), or goes (not basic_accurate), so no column statistics are
** claimed accurate any more; the rows stay, as Hive keeps them. */
CHV_API int chv_catalog_stats_changed(chv_catalog *cat, const char *db,
                                      const char *table,
                                      const char *partition,
                                      bool basic_accurate,
                                      struct chv_error *err);

/* Sets BASIC_STATS true in the COLUMN_STATS_ACCURATE of db.table or a
** partition, keeping which columns it names (ANALYZE's basic statistics of
** unchanged data leave the column statistics as accurate as they were). */
CHV_API int chv_catalog_stats_basic_accurate(chv_catalog *cat, const char *db,
                                             const char *table,
                                             const char *partition,
                                             struct chv_error *err);

/* COLUMN_STATS_ACCURATE's JSON as Hive writes it:
** {"BASIC_STATS":"true","COLUMN_STATS":{"a":"true","b":"true"}}, columns
** sorted.  chv_colstats_accurate_parse() reads it (NULL or unreadable
** text: nothing accurate); *columns: free with chv_strv_free(). */
CHV_API int chv_colstats_accurate_parse(const char *json, bool *basic,
                                        char ***columns, int *ncolumns);
CHV_API char *chv_colstats_accurate_format(bool basic,
                                           char *const *columns,
                                           int ncolumns); /* chv_free */

/* ---- partitions --------------------------------------------------------- */

/* Adds n partitions in one transaction: all or none.  Values are strings
** ("" and NULL both mean the default partition).  Without IF_NOT_EXISTS an
** existing partition fails the batch (CHV_EEXIST); with it, existing ones
** are left as they are; with MERGE_PARAMS they keep their location and get
** the given parameters merged into theirs (so that a commit adds its new
** partitions and updates the statistics of the others in one transaction).
** Partition folders are not created. */
CHV_API int chv_catalog_add_partitions(chv_catalog *cat, const char *db,
                                       const char *table,
                                       const struct chv_partition *parts, int n,
                                       unsigned flags, struct chv_error *err);
/* Drops the partitions named by n value lists (each npkeys long) in one
** transaction; a missing one fails the batch unless IF_EXISTS.  Folders of
** a managed table's partitions are deleted after the commit unless
** KEEP_DATA. */
CHV_API int chv_catalog_drop_partitions(chv_catalog *cat, const char *db,
                                        const char *table, char **const *values,
                                        int n, unsigned flags,
                                        struct chv_error *err);
CHV_API int chv_catalog_get_partition(chv_catalog *cat, const char *db,
                                      const char *table, char *const *values,
                                      struct chv_partition *out,
                                      struct chv_error *err);
/* By escaped names ("k1=v1/k2=v2"), in the given order; missing names are
** skipped.  parts: free with chv_partitions_free(). */
CHV_API int chv_catalog_get_partitions_by_names(
    chv_catalog *cat, const char *db, const char *table, char *const *names,
    int nnames, struct chv_partition **parts, int *n, struct chv_error *err);
/* Replaces location and parameters of an existing partition. */
CHV_API int chv_catalog_alter_partition(chv_catalog *cat, const char *db,
                                        const char *table,
                                        const struct chv_partition *p,
                                        struct chv_error *err);
/* Sets parameters of a partition (value NULL removes the key). */
CHV_API int chv_catalog_alter_partition_params(chv_catalog *cat, const char *db,
                                               const char *table,
                                               char *const *values,
                                               const struct chv_kv *set,
                                               int nset, struct chv_error *err);
CHV_API int chv_catalog_set_partition_stats(chv_catalog *cat, const char *db,
                                            const char *table,
                                            char *const *values,
                                            const struct chv_stats *s,
                                            struct chv_error *err);

/* A predicate over partition keys, built by the SQL layer (usually in an
** arena with the chv_pf_* helpers) and evaluated inside SQLite.  Literals
** are strings, typed by the key's Hive type: integer keys compare
** numerically ('10' > '9'), decimal/float/double keys numerically, all
** others (string, date 'YYYY-MM-DD', timestamp, boolean) as text.  A NULL
** literal is SQL NULL; comparisons follow SQL's three-valued logic, so a
** default-partition (NULL) value matches only IS NULL.
**
** Under a CHV_PF_DEFAULT_NAME node a partition's values compare as its rows
** read them, so that pruning never disagrees with the rows: the default
** partition is NULL on non-string keys (also when its value is the name in
** lits[0], a hive.exec.default.partition.name other than Hive's own) and
** '__HIVE_DEFAULT_PARTITION__' on string keys, as Flink reads it. */
enum chv_pf_kind {
  CHV_PF_AND,     /* kids[0..nkids) all true */
  CHV_PF_OR,      /* any of kids[0..nkids) */
  CHV_PF_NOT,     /* kids[0] */
  CHV_PF_CMP,     /* key <cmp> lits[0] */
  CHV_PF_IN,      /* key [NOT] IN (lits[0..nlits)) */
  CHV_PF_BETWEEN, /* key [NOT] BETWEEN lits[0] AND lits[1] */
  CHV_PF_IS_NULL, /* key IS [NOT] NULL */
  CHV_PF_DEFAULT_NAME, /* kids[0], values as rows read them (above) */
};
enum chv_pf_cmp { CHV_PF_EQ, CHV_PF_NE, CHV_PF_LT, CHV_PF_LE, CHV_PF_GT,
                  CHV_PF_GE };

struct chv_part_filter {
  enum chv_pf_kind kind;
  enum chv_pf_cmp cmp; /* CMP */
  bool negated;        /* NOT IN, NOT BETWEEN, IS NOT NULL */
  const char *key;     /* partition key (case-insensitive) */
  const char *const *lits;
  int nlits;
  struct chv_part_filter *const *kids;
  int nkids;
};

/* Builders allocating in an arena; NULL on out-of-memory or when an
** argument is NULL (so nested calls need one check at the end). */
CHV_API struct chv_part_filter *
chv_pf_cmp(chv_arena *a, const char *key, enum chv_pf_cmp cmp, const char *lit);
CHV_API struct chv_part_filter *
chv_pf_and(chv_arena *a, struct chv_part_filter *l, struct chv_part_filter *r);
CHV_API struct chv_part_filter *
chv_pf_or(chv_arena *a, struct chv_part_filter *l, struct chv_part_filter *r);
CHV_API struct chv_part_filter *chv_pf_not(chv_arena *a,
                                           struct chv_part_filter *x);
CHV_API struct chv_part_filter *chv_pf_in(chv_arena *a, const char *key,
                                          const char *const *lits, int n,
                                          bool negated);
CHV_API struct chv_part_filter *chv_pf_between(chv_arena *a, const char *key,
                                               const char *lo, const char *hi,
                                               bool negated);
CHV_API struct chv_part_filter *chv_pf_is_null(chv_arena *a, const char *key,
                                               bool negated);

/* Partitions of the table matching filter (NULL: all), sorted by name.
** Errors: CHV_EINVAL for an unknown key, CHV_ETYPE for a literal that is
** not a number for a numeric key.  parts: free with chv_partitions_free(). */
CHV_API int chv_catalog_list_partitions(chv_catalog *cat, const char *db,
                                        const char *table,
                                        const struct chv_part_filter *filter,
                                        struct chv_partition **parts, int *n,
                                        struct chv_error *err);
/* Names ("k1=v1/k2=v2") of the matching partitions, sorted. */
CHV_API int
chv_catalog_list_partition_names(chv_catalog *cat, const char *db,
                                 const char *table,
                                 const struct chv_part_filter *filter,
                                 char ***names, int *n, struct chv_error *err);
/* Number of matching partitions (counted in SQLite). */
CHV_API int chv_catalog_count_partitions(chv_catalog *cat, const char *db,
                                         const char *table,
                                         const struct chv_part_filter *filter,
                                         int64_t *count, struct chv_error *err);

/* ---- transaction groups and write records (commits.c) ------------------ */

/* Group the catalog calls that follow, up to chv_catalog_commit(), into one
** transaction (BEGIN IMMEDIATE): other handles see all of them or none.  A
** call inside the group that fails leaves its partial work in the group, so
** the group's owner must then call chv_catalog_rollback().  Groups do not
** nest (CHV_EINVAL).  Folders a drop deletes go at that call, not at the
** group's commit. */
CHV_API int chv_catalog_begin(chv_catalog *cat, struct chv_error *err);
CHV_API int chv_catalog_commit(chv_catalog *cat, struct chv_error *err);
/* Undo the whole group; no-op without one. */
CHV_API void chv_catalog_rollback(chv_catalog *cat);

/* The record a writer keeps in the metastore while it writes a table, so
** that readers know which files are not (or no longer) part of the table
** and the next writer can clean up after one that died:
**
**   WRITING    files only under the hidden staging folder; nothing to hide
**   PENDING    new_files are being moved into place: readers skip them;
**              a dead writer's are deleted by the next writer
**   COMMITTED  the metastore holds the write; old_files (replaced by an
**              overwrite) are being deleted: readers skip them, and the
**              next process to open the warehouse finishes deleting a dead
**              writer's
**
** new_dirs are the folders a PENDING write creates (new partitions and the
** folders above them); undoing the write removes those left empty.
*/
enum chv_commit_state {
  CHV_COMMIT_WRITING = 0,
  CHV_COMMIT_PENDING = 1,
  CHV_COMMIT_COMMITTED = 2
};

struct chv_commit_record {
  int64_t id;
  char *db;                    /* the table written */
  char *table;
  int64_t pid;                 /* the writing process */
  enum chv_commit_state state;
  char *staging;               /* the writer's staging folder */
  char **new_files;            /* PENDING: files (and markers) moved in */
  int nnew;
  char **old_files;            /* COMMITTED: files and folders replaced */
  int nold;
  char **new_dirs;             /* PENDING: folders the write creates */
  int nnewdirs;
  int64_t create_time;         /* seconds */
};

/* Register a write of db.table in state WRITING; *id names it. */
CHV_API int chv_catalog_commit_register(chv_catalog *cat, const char *db,
                                        const char *table, int64_t pid,
                                        const char *staging, int64_t *id,
                                        struct chv_error *err);
/* The paths a write record names (arrays of paths; n may be 0). */
struct chv_commit_files {
  char *const *new_files;
  int nnew;
  char *const *old_files;
  int nold;
  char *const *new_dirs;
  int nnewdirs;
};
/* Move record id to state; when files is not NULL the record's paths are
** replaced by its lists.  Outside a group the change is on disk when this
** returns (as durable as relaxed_durability allows). */
CHV_API int chv_catalog_commit_set(chv_catalog *cat, int64_t id,
                                   enum chv_commit_state state,
                                   const struct chv_commit_files *files,
                                   struct chv_error *err);
/* Forget record id (a missing one is no error). */
CHV_API int chv_catalog_commit_remove(chv_catalog *cat, int64_t id,
                                      struct chv_error *err);
/* The records of db.table, oldest first; with db and table NULL, those of
** every table.  out: chv_commit_records_free(). */
CHV_API int chv_catalog_commit_list(chv_catalog *cat, const char *db,
                                    const char *table,
                                    struct chv_commit_record **out, int *n,
                                    struct chv_error *err);
CHV_API void chv_commit_records_free(struct chv_commit_record *v, int n);

/* ---- partition paths (partpath.c) --------------------------------------- */

/* Hive's name of the NULL or empty partition value. */
#define CHV_DEFAULT_PARTITION_NAME "__HIVE_DEFAULT_PARTITION__"

/* Appends value escaped as Hive's FileUtils.escapePathName does: %XX
** (upper-case hex) for 0x01-0x1F, " # % ' * / : = ? \ 0x7F { [ ] ^; other
** bytes, UTF-8 included, unchanged.  NULL or "" append the default
** partition name.  Returns CHV_OK or CHV_ENOMEM. */
CHV_API int chv_partition_escape(const char *value, struct chv_buf *out);
/* Appends s[0..n) with each %XX (hex, either case) decoded. */
CHV_API int chv_partition_unescape(const char *s, size_t n,
                                   struct chv_buf *out);
/* "k1=v1/k2=v2" with keys lower-cased and both sides escaped, NULL or ""
** values as the default partition name.  chv_free the result; NULL on
** out-of-memory. */
CHV_API char *chv_partition_path(char *const *keys, char *const *values, int n);
/* Parses "k1=v1/k2=v2" (leading, trailing or doubled '/' ignored),
** unescaping; the default partition name becomes a NULL value.  Errors:
** CHV_EINVAL for a component without '=' or with an empty key.  keys and
** values: free with chv_strv_free(). */
CHV_API int chv_partition_parse_path(const char *path, char ***keys,
                                     char ***values, int *n,
                                     struct chv_error *err);
/* Hive's default table location: <warehouse>/<table> for the default
** database, else <warehouse>/<db>.db/<table> (names lower-cased).  chv_free
** the result; NULL on out-of-memory. */
CHV_API char *chv_table_default_location(const char *warehouse, const char *db,
                                         const char *table);
/* A database's default location: the warehouse for "default", else
** <warehouse>/<db>.db. */
CHV_API char *chv_database_default_location(const char *warehouse,
                                            const char *db);

#ifdef __cplusplus
}
#endif
#endif /* CHIVE_CATALOG_H */
