/*
** The option registry: one static table of every option chive honours, with
** Flink's key, type and default, and the look-ups over it.
**
** Keys, types and defaults follow current Flink (flink-connector-hive on
** Flink 1.20, see ../shared/research/flink-hive-spec.md §1); where the seeds
** say otherwise the difference is listed in docs/options.md (render.c holds
** that text).  Descriptions are chive's own wording of what the option does.
**
** INTERFACE
**   chv_option_count(), chv_option_at()   walk the table
**   chv_option_find()                      by key or deprecated alias
**   chv_option_suggest()                   closest key to a misspelling
**   chv_option_is_reserved_key()           key families the registry owns
**   chv_option_check()                     may key = value be stored
**   chv_option_warning()                   deprecated keys, values not honoured
**   chv_opt_type_name(), chv_opt_scope_name(), chv_opt_scope_parse(),
**   chv_opt_source_name()                  names from the X-macro tables
*/
#include "config/config.h"

#include <limits.h>
#include <stdio.h>

/* ---- names ------------------------------------------------------------- */

static const char *const type_names[] = {
#define CHV_X_(name, text) text,
    CHV_OPT_TYPE_MAP(CHV_X_)
#undef CHV_X_
};

static const char *const scope_names[] = {
#define CHV_X_(name, text, doc) text,
    CHV_OPT_SCOPE_MAP(CHV_X_)
#undef CHV_X_
};

static const char *const source_names[] = {
#define CHV_X_(name, text) text,
    CHV_OPT_SOURCE_MAP(CHV_X_)
#undef CHV_X_
};

const char *chv_opt_type_name(enum chv_opt_type type) {
  if ((size_t)type >= CHV_ARRAY_SIZE(type_names)) return "?";
  return type_names[type];
}

const char *chv_opt_scope_name(unsigned scope_bit) {
  for (size_t i = 0; i < CHV_ARRAY_SIZE(scope_names); i++)
    if (scope_bit == 1u << i) return scope_names[i];
  return NULL;
}

unsigned chv_opt_scope_parse(const char *text) {
  for (size_t i = 0; i < CHV_ARRAY_SIZE(scope_names); i++)
    if (chv_str_ieq(text, scope_names[i])) return 1u << i;
  return 0;
}

const char *chv_opt_source_name(enum chv_opt_source source) {
  if ((size_t)source >= CHV_ARRAY_SIZE(source_names)) return "?";
  return source_names[source];
}

/* ---- value sets and aliases -------------------------------------------- */

static const char *const infer_mode_values[] = {"static", "dynamic", "none",
                                                NULL};
static const char *const partition_include_values[] = {"all", "latest", NULL};
static const char *const partition_order_values[] = {
    "create-time", "partition-time", "partition-name", NULL};
static const char *const partition_order_aliases[] = {
    "streaming-source.consume-order", NULL};
static const char *const commit_policy_values[] = {"metastore", "success-file",
                                                   "custom", NULL};
static const char *const commit_trigger_values[] = {"process-time",
                                                    "partition-time", NULL};
static const char *const extractor_kind_values[] = {"default", "custom", NULL};
static const char *const report_statistics_values[] = {"NONE", "ALL", NULL};
static const char *const hive_fileformat_values[] = {
    "TextFile", "SequenceFile", "RCfile", "ORC", "parquet", NULL};
static const char *const parquet_codec_values[] = {
    "UNCOMPRESSED", "SNAPPY", "GZIP",    "LZO", "BROTLI",
    "LZ4",          "ZSTD",   "LZ4_RAW", NULL};
static const char *const orc_codec_values[] = {"NONE", "ZLIB", "SNAPPY", "LZO",
                                               "LZ4",  "ZSTD", NULL};
static const char *const collection_delim_aliases[] = {"colelction.delim",
                                                       NULL};
static const char *const lookup_ttl_aliases[] = {"lookup.cache.ttl", NULL};
static const char *const tmp_dirs_aliases[] = {"taskmanager.tmp.dirs", NULL};

/* Ranges: an open upper end is the type's own maximum. */
#define AT_LEAST(lo) .min = (lo), .max = INT64_MAX
#define BETWEEN(lo, hi) .min = (lo), .max = (hi)

#define HS2 "sql-gateway.endpoint.hiveserver2."

/* ---- the table --------------------------------------------------------- */

static const struct chv_option options[] = {
    /* -- 1a. Job/session options (HiveOptions, read from the session). -- */
    {.key = "table.exec.hive.fallback-mapred-reader",
     .type = CHV_OPT_BOOL,
     .default_text = "false",
     .description = "In Flink, read ORC and Parquet through the Hive record "
                    "reader and SerDe instead of the native vectorized "
                    "readers. chive has no mapred reader: its native readers "
                    "are always used, and 'true' is accepted with a warning.",
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_HIVE_OPTIONS,
     .warn_value = "true",
     .warning = "table.exec.hive.fallback-mapred-reader=true asks for Hive's "
                "mapred record reader, which chive does not have; the native "
                "readers are used"},
    {.key = "table.exec.hive.fallback-mapred-writer",
     .type = CHV_OPT_BOOL,
     .default_text = "true",
     .description = "In Flink, write every format through the Hive record "
                    "writer and SerDe; when false, Parquet and ORC are "
                    "written by the native writers. chive has no mapred "
                    "writer: its native writers are always used, and 'true' "
                    "is accepted with a warning.",
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_HIVE_OPTIONS,
     .warn_value = "true",
     .warning = "table.exec.hive.fallback-mapred-writer=true asks for Hive's "
                "mapred record writer, which chive does not have; the native "
                "writers are used"},
    {.key = "table.exec.hive.read-partition-with-subdirectory.enabled",
     .type = CHV_OPT_BOOL,
     .default_text = "true",
     .description = "Read the files in sub-directories of a partition "
                    "directory. When false, a partition directory holding a "
                    "sub-directory fails the read with 'Not a file'.",
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_HIVE_OPTIONS},
    {.key = "table.exec.hive.infer-source-parallelism",
     .type = CHV_OPT_BOOL,
     .default_text = "true",
     .description = "Master switch of source parallelism inference; it "
                    "must be true for any inference to happen. Superseded by "
                    "table.exec.hive.infer-source-parallelism.mode.",
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_HIVE_OPTIONS,
     .flags = CHV_OPTF_DEPRECATED},
    {.key = "table.exec.hive.infer-source-parallelism.mode",
     .type = CHV_OPT_ENUM,
     .default_text = "dynamic",
     .description = "How the parallelism of a batch Hive source is inferred: "
                    "'static' at plan time, 'dynamic' at run time by the "
                    "adaptive batch scheduler, 'none' not at all.",
     .values = infer_mode_values,
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_HIVE_OPTIONS},
    {.key = "table.exec.hive.infer-source-parallelism.max",
     .type = CHV_OPT_INT,
     .default_text = "1000",
     .description = "Upper bound of the inferred source parallelism. The "
                    "default applies in static mode; dynamic mode without an "
                    "explicit value uses the scheduler's default source "
                    "parallelism.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_HIVE_OPTIONS},
    {.key = "table.exec.hive.load-partition-splits.thread-num",
     .type = CHV_OPT_INT,
     .default_text = "3",
     .description = "Number of threads that turn partitions into splits, "
                    "also used by the lookup reader.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_HIVE_OPTIONS},
    {.key = "table.exec.hive.split-max-size",
     .type = CHV_OPT_MEMORY,
     .default_text = "128mb",
     .description = "Largest number of bytes packed into one split. Only "
                    "tables stored as ORC use it.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_HIVE_OPTIONS},
    {.key = "table.exec.hive.file-open-cost",
     .type = CHV_OPT_MEMORY,
     .default_text = "4mb",
     .description = "Estimated cost of opening a file, added to each file's "
                    "size when splits are sized; a larger value packs small "
                    "files into fewer splits. Only tables stored as ORC use "
                    "it.",
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_HIVE_OPTIONS},
    {.key = "table.exec.hive.calculate-partition-size.thread-num",
     .type = CHV_OPT_INT,
     .default_text = "3",
     .description = "Number of threads that list partition directories to "
                    "add up file sizes for split sizing.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_HIVE_OPTIONS},
    {.key = "table.exec.hive.read-statistics.thread-num",
     .type = CHV_OPT_INT,
     .default_note = "number of CPUs",
     .description = "Number of threads that read file footers to report "
                    "source statistics to the planner. The default is the "
                    "number of CPUs of the machine.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_HIVE_OPTIONS,
     .flags = CHV_OPTF_DEFAULT_CPUS},
    {.key = "table.exec.hive.sink.sort-by-dynamic-partition.enable",
     .type = CHV_OPT_BOOL,
     .default_text = "true",
     .description = "In batch mode, sort rows by the dynamic partition "
                    "columns before writing so that each writer task keeps "
                    "one file open. When false, one writer per partition "
                    "stays open, which can run out of memory.",
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_HIVE_OPTIONS},
    {.key = "table.exec.hive.sink.statistic-auto-gather.enable",
     .type = CHV_OPT_BOOL,
     .default_text = "true",
     .description = "In batch mode, gather statistics of the written files "
                    "and store them in the metastore on commit: numFiles and "
                    "totalSize for every format, numRows and rawDataSize too "
                    "for ORC and Parquet.",
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_HIVE_OPTIONS},
    {.key = "table.exec.hive.sink.statistic-auto-gather.thread-num",
     .type = CHV_OPT_INT,
     .default_text = "3",
     .description = "Number of threads that read ORC and Parquet footers "
                    "when statistics are gathered.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_HIVE_OPTIONS},
    {.key = "table.exec.hive.native-agg-function.enabled",
     .type = CHV_OPT_BOOL,
     .default_text = "false",
     .description = "Run sum, count, avg, min and max of the Hive dialect as "
                    "native hash aggregates.",
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_HIVE_OPTIONS},

    /* -- 1b. Table options (TBLPROPERTIES or OPTIONS hints). -- */
    {.key = "streaming-source.enable",
     .type = CHV_OPT_BOOL,
     .default_text = "false",
     .description = "Read the table as an unbounded stream that keeps "
                    "monitoring for new partitions or files. Each partition "
                    "or file must appear atomically.",
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_HIVE_OPTIONS},
    {.key = "streaming-source.partition.include",
     .type = CHV_OPT_ENUM,
     .flink_type = "String",
     .default_text = "all",
     .description = "Which partitions to read: 'all', or 'latest' (the last "
                    "partition in partition order), which is allowed only "
                    "when the table is the build side of a temporal join.",
     .values = partition_include_values,
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_HIVE_OPTIONS},
    {.key = "streaming-source.monitor-interval",
     .type = CHV_OPT_DURATION,
     .default_note = "1 min for a streaming scan, 60 min for a temporal join",
     .description = "Interval between two listings of new partitions or "
                    "files. Must be greater than zero.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_HIVE_OPTIONS},
    {.key = "streaming-source.partition-order",
     .type = CHV_OPT_ENUM,
     .default_text = "partition-name",
     .description = "Order in which a streaming source consumes partitions: "
                    "'create-time' (modification time of the partition "
                    "directory), 'partition-time' (time extracted from the "
                    "partition values) or 'partition-name' (name order). "
                    "Non-partitioned tables must use 'create-time'.",
     .values = partition_order_values,
     .aliases = partition_order_aliases,
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_HIVE_OPTIONS},
    {.key = "streaming-source.consume-start-offset",
     .type = CHV_OPT_STRING,
     .default_note = "read every existing partition",
     .description = "Partition to start consuming from: a timestamp "
                    "'yyyy-[m]m-[d]d [hh:mm:ss]' for 'create-time' and "
                    "'partition-time' order, a partition name such as "
                    "'pt_year=2020/pt_mon=10/pt_day=01' for 'partition-name' "
                    "order. Not allowed with partition.include 'latest'.",
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_HIVE_OPTIONS},
    {.key = "lookup.join.cache.ttl",
     .type = CHV_OPT_DURATION,
     .default_text = "60 min",
     .description = "How long a lookup join keeps the loaded build table "
                    "before reloading it, for a bounded lookup table. Seed "
                    "001 spells the key 'lookup.cache.ttl'.",
     AT_LEAST(1),
     .aliases = lookup_ttl_aliases,
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_HIVE_OPTIONS},
    {.key = "lookup.join.cache.max-size",
     .type = CHV_OPT_INT,
     .default_text = "10000",
     .description = "Largest number of entries the cache of a lookup join "
                    "holds. Seed 000 declares it; current Flink has no such "
                    "option. chive has no lookup join yet, so it is only "
                    "validated and stored.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_HIVE_OPTIONS},
    {.key = "sink.partition-commit.policy.kind",
     .type = CHV_OPT_LIST,
     .flink_type = "String",
     .default_text = "metastore,success-file",
     .default_note = "batch writes only; a streaming write into a "
                     "partitioned table must set it",
     .description = "Comma-separated policies run when a partition is "
                    "committed: 'metastore' adds or alters the partition in "
                    "the metastore, 'success-file' writes the success file "
                    "into the partition directory, 'custom' runs the class "
                    "named by sink.partition-commit.policy.class.",
     .values = commit_policy_values,
     .separator = ',',
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_HIVE_OPTIONS},
    {.key = "compaction.small-files.avg-size",
     .type = CHV_OPT_MEMORY,
     .default_text = "16mb",
     .description = "In batch mode with auto-compaction, the partitions "
                    "whose average written file is smaller than this are "
                    "compacted into files of compaction.file-size.",
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_HIVE_OPTIONS},
    {.key = "transactional",
     .type = CHV_OPT_BOOL,
     .description = "Hive's marker of an ACID table, key matched in any "
                    "case. ACID tables are not supported, as in Flink's Hive "
                    "connector: 'true' is refused when set, and a table that "
                    "carries it is neither read nor written.",
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_HIVE_TABLE,
     .flags = CHV_OPTF_KEY_ICASE,
     .refused = "marks a transactional (ACID) table, which chive does not "
                "read or write, as Flink's Hive connector does not"},

    /* -- 1c. File-system connector options the Hive sink reuses. -- */
    {.key = "sink.rolling-policy.file-size",
     .type = CHV_OPT_MEMORY,
     .default_text = "128mb",
     .description = "Size above which a part file is rolled. The Hive sink "
                    "checks it only on the check-interval timer.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_FS_OPTIONS},
    {.key = "sink.rolling-policy.rollover-interval",
     .type = CHV_OPT_DURATION,
     .default_text = "30 min",
     .description = "Longest time a part file may stay open before it is "
                    "rolled.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_FS_OPTIONS},
    {.key = "sink.rolling-policy.inactivity-interval",
     .type = CHV_OPT_DURATION,
     .default_text = "30 min",
     .description = "Longest time a part file may stay open without new "
                    "rows before it is rolled.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_FS_OPTIONS},
    {.key = "sink.rolling-policy.check-interval",
     .type = CHV_OPT_DURATION,
     .default_text = "1 min",
     .description = "Period of the timer that checks the time and size "
                    "rolling conditions.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_FS_OPTIONS},
    {.key = "sink.partition-commit.trigger",
     .type = CHV_OPT_ENUM,
     .default_text = "process-time",
     .description = "When a streaming partition becomes committable: "
                    "'process-time' once the machine time passes the "
                    "partition's creation time plus the delay, "
                    "'partition-time' once the watermark passes the time "
                    "extracted from the partition values plus the delay.",
     .values = commit_trigger_values,
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_FS_OPTIONS},
    {.key = "sink.partition-commit.delay",
     .type = CHV_OPT_DURATION,
     .default_text = "0 ms",
     .description = "Delay before a partition is committed; '1 d' suits day "
                    "partitions and '1 h' hour partitions.",
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_FS_OPTIONS},
    {.key = "sink.partition-commit.watermark-time-zone",
     .type = CHV_OPT_STRING,
     .default_text = "UTC",
     .description = "Time zone in which partition times are turned into "
                    "epoch milliseconds to compare with the watermark; set "
                    "the session time zone when the watermark is on a "
                    "TIMESTAMP_LTZ column.",
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_FS_OPTIONS,
     .flags = CHV_OPTF_NONEMPTY},
    {.key = "sink.partition-commit.policy.class",
     .type = CHV_OPT_STRING,
     .description = "Class of the 'custom' partition commit policy.",
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_FS_OPTIONS},
    {.key = "sink.partition-commit.policy.class.parameters",
     .type = CHV_OPT_LIST,
     .description = "Semicolon-separated arguments passed to the "
                    "constructor of the custom commit policy; unset means "
                    "its default constructor.",
     .separator = ';',
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_FS_OPTIONS},
    {.key = "sink.partition-commit.success-file.name",
     .type = CHV_OPT_STRING,
     .default_text = "_SUCCESS",
     .description = "Name of the marker file the 'success-file' policy "
                    "creates in a committed partition; a plain file name, "
                    "without '/' and other than '.' and '..'.",
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_FS_OPTIONS,
     .flags = CHV_OPTF_NONEMPTY | CHV_OPTF_FILE_NAME},
    {.key = "partition.time-extractor.kind",
     .type = CHV_OPT_ENUM,
     .flink_type = "String",
     .default_text = "default",
     .description = "Extractor of a partition's time from its values: "
                    "'default' uses the timestamp pattern, 'custom' the "
                    "class named by partition.time-extractor.class.",
     .values = extractor_kind_values,
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_FS_OPTIONS},
    {.key = "partition.time-extractor.class",
     .type = CHV_OPT_STRING,
     .description = "Class of the 'custom' partition time extractor.",
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_FS_OPTIONS},
    {.key = "partition.time-extractor.timestamp-pattern",
     .type = CHV_OPT_STRING,
     .default_note = "the first partition value",
     .description = "Pattern building a timestamp from partition values, "
                    "each $name replaced by that partition value, for "
                    "example '$dt $hr:00:00'.",
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_FS_OPTIONS},
    {.key = "partition.time-extractor.timestamp-formatter",
     .type = CHV_OPT_STRING,
     .default_note = "lenient yyyy-M-d [H:m:s]",
     .description = "java.time DateTimeFormatter pattern that parses the "
                    "string built by the timestamp pattern.",
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_FS_OPTIONS},
    {.key = "auto-compaction",
     .type = CHV_OPT_BOOL,
     .default_text = "false",
     .description = "Compact small files: per checkpoint when streaming, at "
                    "the end of the job in batch mode.",
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_FS_OPTIONS},
    {.key = "compaction.file-size",
     .type = CHV_OPT_MEMORY,
     .default_note = "sink.rolling-policy.file-size",
     .description = "Target size of compacted files.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_FS_OPTIONS},
    {.key = "compaction.parallelism",
     .type = CHV_OPT_INT,
     .default_note = "the sink parallelism",
     .description = "Parallelism of the batch compaction operator.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_FS_OPTIONS},
    {.key = "sink.parallelism",
     .type = CHV_OPT_INT,
     .default_note = "the parallelism of the input",
     .description = "Parallelism of the file writers. chive writes an "
                    "INSERT's rows on the reader threads of its scan, one "
                    "writer each; this bounds the writers (threads beyond "
                    "it share them), it does not add threads.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_FS_OPTIONS},
    {.key = "sink.shuffle-by-partition.enable",
     .type = CHV_OPT_BOOL,
     .default_text = "false",
     .description = "In streaming mode, distribute rows to writers by the "
                    "dynamic partition columns, so that fewer files are "
                    "written at the risk of skew.",
     .scope = CHV_SCOPE_TABLE,
     .source = CHV_SRC_FS_OPTIONS},
    {.key = "source.report-statistics",
     .type = CHV_OPT_ENUM,
     .default_text = "ALL",
     .description = "Statistics the source reports to the planner: 'ALL' "
                    "reads file footers, 'NONE' reports none. The Hive "
                    "source reads it from the session configuration.",
     .values = report_statistics_values,
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_FS_OPTIONS},
    {.key = "table.dynamic-table-options.enabled",
     .type = CHV_OPT_BOOL,
     .default_text = "true",
     .description = "Allow /*+ OPTIONS('k'='v', ...) */ hints after a table "
                    "name, table options for that statement only, over the "
                    "table's properties (Flink's dynamic table options; the "
                    "default is true since Flink 1.15). When false, a hint is "
                    "an error saying so.",
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_TABLE_CONFIG},
    {.key = "table.optimizer.dynamic-filtering.enabled",
     .type = CHV_OPT_BOOL,
     .default_text = "true",
     .description = "Filter the probe side of a hash join at run time by "
                    "the keys its build side read: partitions of a table "
                    "partitioned on the join key are pruned (when the build "
                    "side is filtered), and Parquet row groups and ORC "
                    "stripes outside the keys' range (or set) are skipped.",
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_OPTIMIZER_CONFIG},

    /* -- 1d. Catalog and module options. -- */
    {.key = "hive-conf-dir",
     .type = CHV_OPT_STRING,
     .default_note = "hive-site.xml looked up on the class path",
     .description = "Directory (a file-system URI; no scheme means local) "
                    "holding hive-site.xml. An unreadable directory is an "
                    "error.",
     .scope = CHV_SCOPE_CATALOG,
     .source = CHV_SRC_CATALOG_OPTIONS},
    {.key = "hadoop-conf-dir",
     .type = CHV_OPT_STRING,
     .default_note = "HADOOP_CONF_DIR, then HADOOP_HOME/etc/hadoop",
     .description = "Local directory holding core-site.xml, hdfs-site.xml, "
                    "yarn-site.xml and mapred-site.xml; a directory with "
                    "none of them is an error.",
     .scope = CHV_SCOPE_CATALOG,
     .source = CHV_SRC_CATALOG_OPTIONS},
    {.key = "hive-version",
     .type = CHV_OPT_STRING,
     .default_note = "detected from the Hive libraries in use",
     .description = "Hive version whose behaviour the catalog and the Hive "
                    "module follow. Set it only when detection fails.",
     .scope = CHV_SCOPE_CATALOG | CHV_SCOPE_MODULE,
     .source = CHV_SRC_CATALOG_OPTIONS},
    {.key = "default-database",
     .type = CHV_OPT_STRING,
     .default_text = "default",
     .description = "Database made current when the catalog becomes the "
                    "current catalog.",
     .scope = CHV_SCOPE_CATALOG,
     .source = CHV_SRC_CATALOG_OPTIONS,
     .flags = CHV_OPTF_NONEMPTY},
    {.key = "property-version",
     .type = CHV_OPT_INT,
     .default_text = "1",
     .description = "Version of the property design of the catalog "
                    "definition; accepted and otherwise ignored.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_CATALOG,
     .source = CHV_SRC_FACTORY_UTIL},
    {.key = "flink.hive.lock-check-max-sleep",
     .type = CHV_OPT_DURATION,
     .default_text = "8 s",
     .description = "Longest sleep between two checks while waiting for a "
                    "metastore table lock. Read from hive-site.xml.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_CATALOG | CHV_SCOPE_HIVE,
     .source = CHV_SRC_HIVE_CONF_OPTIONS},
    {.key = "flink.hive.lock-acquire-timeout",
     .type = CHV_OPT_DURATION,
     .default_text = "8 min",
     .description = "How long to wait for a metastore table lock before "
                    "failing. Read from hive-site.xml.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_CATALOG | CHV_SCOPE_HIVE,
     .source = CHV_SRC_HIVE_CONF_OPTIONS},

    /* -- 1e. HiveServer2 endpoint of the SQL gateway. -- */
    {.key = "sql-gateway.endpoint.type",
     .type = CHV_OPT_LIST,
     .default_text = "rest",
     .description = "Endpoints the SQL gateway starts; 'hiveserver2' "
                    "selects the HiveServer2 endpoint.",
     .separator = ';',
     .scope = CHV_SCOPE_ENDPOINT,
     .source = CHV_SRC_FACTORY_UTIL},
    {.key = HS2 "thrift.host",
     .type = CHV_OPT_STRING,
     .default_note = "the wildcard address",
     .description = "Address the Thrift server binds to.",
     .scope = CHV_SCOPE_ENDPOINT,
     .source = CHV_SRC_ENDPOINT_OPTIONS},
    {.key = HS2 "thrift.port",
     .type = CHV_OPT_INT,
     .default_text = "10000",
     .description = "Port of the Thrift server.",
     BETWEEN(0, 65535),
     .scope = CHV_SCOPE_ENDPOINT,
     .source = CHV_SRC_ENDPOINT_OPTIONS},
    {.key = HS2 "thrift.worker.threads.min",
     .type = CHV_OPT_INT,
     .default_text = "5",
     .description = "Smallest number of Thrift worker threads.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_ENDPOINT,
     .source = CHV_SRC_ENDPOINT_OPTIONS},
    {.key = HS2 "thrift.worker.threads.max",
     .type = CHV_OPT_INT,
     .default_text = "512",
     .description = "Largest number of Thrift worker threads.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_ENDPOINT,
     .source = CHV_SRC_ENDPOINT_OPTIONS},
    {.key = HS2 "thrift.worker.keepalive-time",
     .type = CHV_OPT_DURATION,
     .default_text = "1 min",
     .description = "How long an idle worker thread above the minimum is "
                    "kept.",
     .scope = CHV_SCOPE_ENDPOINT,
     .source = CHV_SRC_ENDPOINT_OPTIONS},
    {.key = HS2 "thrift.max.message.size",
     .type = CHV_OPT_LONG,
     .default_text = "104857600",
     .description = "Largest Thrift message accepted, in bytes (100 MiB by "
                    "default).",
     AT_LEAST(1),
     .scope = CHV_SCOPE_ENDPOINT,
     .source = CHV_SRC_ENDPOINT_OPTIONS},
    {.key = HS2 "thrift.login.timeout",
     .type = CHV_OPT_DURATION,
     .default_text = "20 s",
     .description = "Timeout of the Thrift login; Flink stores it without "
                    "using it.",
     .scope = CHV_SCOPE_ENDPOINT,
     .source = CHV_SRC_ENDPOINT_OPTIONS},
    {.key = HS2 "thrift.exponential.backoff.slot.length",
     .type = CHV_OPT_DURATION,
     .default_text = "100 ms",
     .description = "Slot length of the exponential back-off of login "
                    "retries; Flink stores it without using it.",
     .scope = CHV_SCOPE_ENDPOINT,
     .source = CHV_SRC_ENDPOINT_OPTIONS},
    {.key = HS2 "catalog.hive-conf-dir",
     .type = CHV_OPT_STRING,
     .description = "hive-conf-dir of the Hive catalog each session "
                    "creates; the documentation calls it required.",
     .scope = CHV_SCOPE_ENDPOINT,
     .source = CHV_SRC_ENDPOINT_OPTIONS},
    {.key = HS2 "catalog.name",
     .type = CHV_OPT_STRING,
     .default_text = "hive",
     .description = "Name of the Hive catalog each session registers as its "
                    "default catalog.",
     .scope = CHV_SCOPE_ENDPOINT,
     .source = CHV_SRC_ENDPOINT_OPTIONS,
     .flags = CHV_OPTF_NONEMPTY},
    {.key = HS2 "catalog.default-database",
     .type = CHV_OPT_STRING,
     .default_text = "default",
     .description = "Current database of a new session unless the JDBC URL "
                    "names one.",
     .scope = CHV_SCOPE_ENDPOINT,
     .source = CHV_SRC_ENDPOINT_OPTIONS,
     .flags = CHV_OPTF_NONEMPTY},
    {.key = HS2 "module.name",
     .type = CHV_OPT_STRING,
     .default_text = "hive",
     .description = "Name under which each session loads the Hive module, "
                    "first in module order.",
     .scope = CHV_SCOPE_ENDPOINT,
     .source = CHV_SRC_ENDPOINT_OPTIONS,
     .flags = CHV_OPTF_NONEMPTY},

    /* -- Hive configuration keys the connector honours. -- */
    {.key = "hive.exec.default.partition.name",
     .type = CHV_OPT_STRING,
     .default_text = "__HIVE_DEFAULT_PARTITION__",
     .description = "Partition directory value written for a NULL or empty "
                    "dynamic partition value; it replaces Flink's "
                    "partition.default-name for Hive tables.",
     .scope = CHV_SCOPE_HIVE,
     .source = CHV_SRC_HIVE_CONF,
     .flags = CHV_OPTF_NONEMPTY},
    {.key = "hive.exec.compress.output",
     .type = CHV_OPT_BOOL,
     .default_text = "false",
     .description = "Compress the files written into Hive tables with the "
                    "format's codec.",
     .scope = CHV_SCOPE_HIVE,
     .source = CHV_SRC_HIVE_CONF},
    {.key = "hive.exec.scratchdir",
     .type = CHV_OPT_STRING,
     .default_text = "/tmp/hive",
     .description = "Scratch directory; INSERT OVERWRITE LOCAL DIRECTORY "
                    "stages its files under it.",
     .scope = CHV_SCOPE_HIVE,
     .source = CHV_SRC_HIVE_CONF,
     .flags = CHV_OPTF_NONEMPTY},
    {.key = "hive.default.fileformat",
     .type = CHV_OPT_ENUM,
     .flink_type = "String",
     .default_text = "TextFile",
     .description = "Storage format of tables created without STORED AS.",
     .values = hive_fileformat_values,
     .scope = CHV_SCOPE_HIVE,
     .source = CHV_SRC_HIVE_CONF},
    {.key = "hive.default.serde",
     .type = CHV_OPT_STRING,
     .default_text = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe",
     .description = "SerDe of tables created without ROW FORMAT.",
     .scope = CHV_SCOPE_HIVE,
     .source = CHV_SRC_HIVE_CONF,
     .flags = CHV_OPTF_NONEMPTY},
    {.key = "hive.metastore.warehouse.dir",
     .type = CHV_OPT_STRING,
     .default_text = "/user/hive/warehouse",
     .description = "Root directory of managed tables; databases other than "
                    "'default' live in <name>.db below it.",
     .scope = CHV_SCOPE_HIVE,
     .source = CHV_SRC_HIVE_CONF,
     .flags = CHV_OPTF_NONEMPTY},
    {.key = "hive.metastore.uris",
     .type = CHV_OPT_LIST,
     .flink_type = "String",
     .default_note = "the embedded metastore",
     .description = "Comma-separated thrift:// URIs of remote Hive "
                    "metastores. chive has no metastore client yet: a value "
                    "is an error, in hive-site.xml, a configuration file or a "
                    "SET.",
     .separator = ',',
     .scope = CHV_SCOPE_HIVE,
     .source = CHV_SRC_HIVE_CONF,
     .refused = "selects a remote Hive Metastore, which this build does not "
                "support yet; remove it to use the embedded metastore"},

    /* -- File format and SerDe table properties. -- */
    {.key = "parquet.compression",
     .type = CHV_OPT_ENUM,
     .flink_type = "String",
     .default_text = "SNAPPY",
     .description = "Compression codec of written Parquet files.",
     .values = parquet_codec_values,
     .scope = CHV_SCOPE_FORMAT,
     .source = CHV_SRC_PARQUET},
    {.key = "parquet.block.size",
     .type = CHV_OPT_MEMORY,
     .default_text = "128mb",
     .description = "Target size of a Parquet row group. parquet-hadoop "
                    "itself accepts only a number of bytes.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_FORMAT,
     .source = CHV_SRC_PARQUET},
    {.key = "parquet.page.size",
     .type = CHV_OPT_MEMORY,
     .default_text = "1mb",
     .description = "Target size of a Parquet data page. parquet-hadoop "
                    "itself accepts only a number of bytes.",
     BETWEEN(1, INT32_MAX),
     .scope = CHV_SCOPE_FORMAT,
     .source = CHV_SRC_PARQUET},
    {.key = "parquet.enable.dictionary",
     .type = CHV_OPT_BOOL,
     .default_text = "true",
     .description = "Dictionary-encode Parquet columns.",
     .scope = CHV_SCOPE_FORMAT,
     .source = CHV_SRC_PARQUET},
    {.key = "orc.compress",
     .type = CHV_OPT_ENUM,
     .flink_type = "String",
     .default_text = "ZLIB",
     .description = "Compression codec of written ORC files.",
     .values = orc_codec_values,
     .scope = CHV_SCOPE_FORMAT,
     .source = CHV_SRC_ORC},
    {.key = "orc.compress.size",
     .type = CHV_OPT_MEMORY,
     .default_text = "256kb",
     .description = "Size of an ORC compression chunk. A smaller one is "
                    "used when the stripe size divided by 20 times the "
                    "columns is smaller, as ORC's writer does.",
     BETWEEN(1, 8388607),
     .scope = CHV_SCOPE_FORMAT,
     .source = CHV_SRC_ORC},
    {.key = "orc.stripe.size",
     .type = CHV_OPT_MEMORY,
     .default_text = "64mb",
     .description = "Target size of an ORC stripe.",
     AT_LEAST(1),
     .scope = CHV_SCOPE_FORMAT,
     .source = CHV_SRC_ORC},
    {.key = "orc.row.index.stride",
     .type = CHV_OPT_INT,
     .default_text = "10000",
     .description = "Rows between two ORC row index entries; 0 disables the "
                    "row index.",
     BETWEEN(0, INT32_MAX),
     .scope = CHV_SCOPE_FORMAT,
     .source = CHV_SRC_ORC},
    {.key = "orc.create.index",
     .type = CHV_OPT_BOOL,
     .default_text = "true",
     .description = "Write ORC row indexes (false: none, whatever "
                    "orc.row.index.stride says).",
     .scope = CHV_SCOPE_FORMAT,
     .source = CHV_SRC_ORC},
    {.key = "orc.dictionary.key.threshold",
     .type = CHV_OPT_DOUBLE,
     .default_text = "0.8",
     .description = "Largest ratio of distinct to total values for which an "
                    "ORC string column is dictionary-encoded.",
     .dmin = 0.0,
     .dmax = 1.0,
     .scope = CHV_SCOPE_FORMAT,
     .source = CHV_SRC_ORC},
    {.key = "orc.bloom.filter.columns",
     .type = CHV_OPT_LIST,
     .flink_type = "String",
     .description = "Comma-separated columns that get ORC bloom filters.",
     .separator = ',',
     .scope = CHV_SCOPE_FORMAT,
     .source = CHV_SRC_ORC},
    {.key = "orc.bloom.filter.fpp",
     .type = CHV_OPT_DOUBLE,
     .default_text = "0.05",
     .description = "False positive probability of ORC bloom filters.",
     .dmin = 0.0,
     .dmax = 1.0,
     .scope = CHV_SCOPE_FORMAT,
     .source = CHV_SRC_ORC},
    {.key = "field.delim",
     .type = CHV_OPT_STRING,
     .default_text = "\001",
     .description = "Field separator of text tables (Ctrl-A by default). "
                    "A decimal number names a byte value, any other text "
                    "its first character.",
     .scope = CHV_SCOPE_FORMAT,
     .source = CHV_SRC_SERDE,
     .flags = CHV_OPTF_NONEMPTY},
    {.key = "collection.delim",
     .type = CHV_OPT_STRING,
     .default_text = "\002",
     .description = "Separator of ARRAY elements and MAP entries in text "
                    "tables (Ctrl-B by default). Hive before 3.0 spells the "
                    "key 'colelction.delim'.",
     .aliases = collection_delim_aliases,
     .scope = CHV_SCOPE_FORMAT,
     .source = CHV_SRC_SERDE,
     .flags = CHV_OPTF_NONEMPTY | CHV_OPTF_ALIAS_QUIET},
    {.key = "mapkey.delim",
     .type = CHV_OPT_STRING,
     .default_text = "\003",
     .description = "Separator of a MAP key from its value in text tables "
                    "(Ctrl-C by default).",
     .scope = CHV_SCOPE_FORMAT,
     .source = CHV_SRC_SERDE,
     .flags = CHV_OPTF_NONEMPTY},
    {.key = "line.delim",
     .type = CHV_OPT_STRING,
     .default_text = "\n",
     .description = "Row separator of text tables; Hive supports only a "
                    "newline.",
     .scope = CHV_SCOPE_FORMAT,
     .source = CHV_SRC_SERDE,
     .flags = CHV_OPTF_NONEMPTY},
    {.key = "escape.delim",
     .type = CHV_OPT_STRING,
     .default_note = "no escaping",
     .description = "Escape character of text tables.",
     .scope = CHV_SCOPE_FORMAT,
     .source = CHV_SRC_SERDE},
    {.key = "serialization.null.format",
     .type = CHV_OPT_STRING,
     .default_text = "\\N",
     .description = "Text standing for NULL in text tables.",
     .scope = CHV_SCOPE_FORMAT,
     .source = CHV_SRC_SERDE},
    {.key = "serialization.format",
     .type = CHV_OPT_STRING,
     .default_note = "field.delim",
     .description = "Field separator used when field.delim is absent; "
                    "Flink's DDL mirrors field.delim into it.",
     .scope = CHV_SCOPE_FORMAT,
     .source = CHV_SRC_SERDE},
    {.key = "chive.exec.operator-memory",
     .type = CHV_OPT_MEMORY,
     .default_text = "4gb",
     .description = "Most memory one operator of a query (a GROUP BY's "
                    "hash table) may hold. Past it the operator spills to "
                    "files in io.tmp.dirs: a sort writes sorted runs and "
                    "merges them, a GROUP BY partitions the rows of the "
                    "groups it does not hold, a join partitions both sides "
                    "by key (without keys: a nested loop over blocks); "
                    "what cannot spill (a GROUP BY without keys, one "
                    "join key's rows) fails with an error naming the "
                    "operator. At least 64 kb, so that tests can make "
                    "operators spill on small data.",
     AT_LEAST(64 << 10),
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_CHIVE},
    {.key = "io.tmp.dirs",
     .type = CHV_OPT_STRING,
     .default_note = "the system's temporary folder (TMPDIR, else /tmp)",
     .description = "Folders of temporary files: where an operator past "
                    "chive.exec.operator-memory spills rows. Several "
                    "folders, separated by ',' or ':', are used in turn. "
                    "Spill files are unlinked as soon as they are created.",
     .aliases = tmp_dirs_aliases,
     .scope = CHV_SCOPE_JOB,
     .source = CHV_SRC_CORE_OPTIONS},
};

/* Key families whose every key the registry owns. */
static const char *const reserved_prefixes[] = {
    "table.exec.hive.", "streaming-source.", "lookup.",     "sink.",
    "partition.",       "compaction.",       "flink.hive.", HS2,
    "chive.",           "auto-compaction",
};

size_t chv_option_count(void) {
  return CHV_ARRAY_SIZE(options);
}

const struct chv_option *chv_option_at(size_t i) {
  return i < CHV_ARRAY_SIZE(options) ? &options[i] : NULL;
}

static bool key_matches(const struct chv_option *o, const char *want,
                        const char *key) {
  if (o->flags & CHV_OPTF_KEY_ICASE) return chv_str_ieq(want, key);
  return strcmp(want, key) == 0;
}

const struct chv_option *chv_option_find(const char *key) {
  if (key == NULL) return NULL;
  for (size_t i = 0; i < CHV_ARRAY_SIZE(options); i++) {
    const struct chv_option *o = &options[i];
    if (key_matches(o, o->key, key)) return o;
    for (const char *const *a = o->aliases; a && *a; a++)
      if (key_matches(o, *a, key)) return o;
  }
  return NULL;
}

bool chv_option_is_reserved_key(const char *key) {
  for (size_t i = 0; i < CHV_ARRAY_SIZE(reserved_prefixes); i++)
    if (strncmp(key, reserved_prefixes[i], strlen(reserved_prefixes[i])) == 0)
      return true;
  return false;
}

/* Levenshtein distance of a and b, capped: keys are short, so two rows of
** 128 cells suffice and longer keys simply count as far apart. */
static size_t edit_distance(const char *a, const char *b) {
  enum { N = 128 };
  size_t la = strlen(a), lb = strlen(b);
  if (la >= N || lb >= N) return SIZE_MAX;
  size_t prev[N], cur[N];
  for (size_t j = 0; j <= lb; j++)
    prev[j] = j;
  for (size_t i = 1; i <= la; i++) {
    cur[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
      size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
      cur[j] = CHV_MIN(sub, CHV_MIN(del, ins));
    }
    memcpy(prev, cur, (lb + 1) * sizeof prev[0]);
  }
  return prev[lb];
}

int chv_option_check(const char *key, const char *value,
                     struct chv_error *err) {
  const struct chv_option *opt = chv_option_find(key);
  if (opt) {
    struct chv_opt_value v;
    chv_opt_value_init(&v);
    int rc = chv_option_parse(opt, value ? value : "", &v, err);
    chv_opt_value_free(&v);
    return rc;
  }
  if (!chv_option_is_reserved_key(key)) return CHV_OK;
  const char *near = chv_option_suggest(key);
  if (near)
    return chv_error_set(err, CHV_ENOENT,
                         "unknown option '%s'; did you mean '%s'?", key, near);
  return chv_error_set(err, CHV_ENOENT,
                       "unknown option '%s'; 'chive options' lists the known "
                       "ones",
                       key);
}

bool chv_option_warning(const char *key, const char *value, char *buf,
                        size_t n) {
  const struct chv_option *opt = chv_option_find(key);
  if (opt == NULL || value == NULL) return false;
  struct chv_opt_value v, w;
  chv_opt_value_init(&v);
  chv_opt_value_init(&w);
  bool said = false;
  if (chv_option_parse(opt, value, &v, NULL) != CHV_OK) goto out;
  if (opt->warn_value &&
      chv_option_parse(opt, opt->warn_value, &w, NULL) == CHV_OK &&
      (opt->type == CHV_OPT_BOOL ? v.b == w.b : chv_str_ieq(v.text, w.text))) {
    snprintf(buf, n, "%s", opt->warning);
    said = true;
  } else if (!key_matches(opt, opt->key, key) &&
             !(opt->flags & CHV_OPTF_ALIAS_QUIET)) {
    snprintf(buf, n, "'%s' is a deprecated key; use '%s'", key, opt->key);
    said = true;
  }
out:
  chv_opt_value_free(&v);
  chv_opt_value_free(&w);
  return said;
}

const char *chv_option_suggest(const char *key) {
  const char *best = NULL;
  size_t best_d = SIZE_MAX;
  for (size_t i = 0; i < CHV_ARRAY_SIZE(options); i++) {
    size_t d = edit_distance(key, options[i].key);
    if (d < best_d) {
      best_d = d;
      best = options[i].key;
    }
  }
  /* A third of the key's length, at least two edits, counts as a typo. */
  size_t limit = CHV_MAX(strlen(key) / 3, (size_t)2);
  return best_d <= limit ? best : NULL;
}
