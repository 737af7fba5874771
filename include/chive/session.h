/*
** chive public API: SQL sessions.  A session is what `chive sql` is to its
** user, as a library: the catalogs (the embedded metastore of a warehouse
** folder, and those CREATE CATALOG adds), the current catalog and
** database, the configuration layers (defaults < --conf file < SET), the
** dialect, and one statement at a time.  Every front end (the shell, the
** servers, the Python package) runs its SQL through it.
**
** INTERFACE
**   chv_session_open()/_close()   a session on a warehouse folder
**   chv_session_exec()            one statement; rows as an Arrow C stream
**   chv_session_query()           one statement; rows as chive batches, with
**                                 a per-statement option overlay
**   chv_result_next()/_close()    walk a result; chv_result_export() turns
**                                 it into an Arrow C stream
**   chv_session_cancel()          stop the running statement (any thread,
**                                 or a signal handler)
**   chv_session_set()/_get()      session options, as SET 'k' = 'v' does
**   chv_vector_text()             a value as Hive prints it
**
** Results.  A statement that returns rows (SELECT, VALUES, EXPLAIN, SHOW,
** DESCRIBE) streams them: chv_session_exec() and chv_session_query()
** return once the result's columns are known, and each batch is made while
** the consumer reads the previous one, so the first batch comes before a
** scan ends and memory is bounded by the batch size and the operators'
** memory (chive.exec.operator-memory), never by the size of the result.
** A statement without rows gives a summary of one row where it moved data,
** and an empty result (no columns, no rows) otherwise:
**   INSERT ...                  one row: rows_written BIGINT
**   LOAD DATA ...               one row: files_loaded BIGINT
**   MSCK REPAIR TABLE ...       one row: partitions_added BIGINT
**   CREATE, DROP, ALTER, USE, SET, ...    no columns, no rows
** chv_result_message() has the statement's summary in words ("Inserted 3
** rows", "Table created"), as the shell prints it; "" when it has none.
**
** Errors.  Every function returns CHV_OK or a status and fills err (its
** message names the table, column, option or file).  When the error is
** tied to a place in the statement, chv_session_error_offset() gives its
** byte offset in the text passed to the last exec or query.  A cancelled
** statement fails with CHV_ECANCELED.  A write that fails, is cancelled, or
** whose process is killed leaves its table as it was.
**
** Threads.  A session runs one statement at a time and belongs to one
** thread at a time, except chv_session_cancel(), which any thread (or a
** signal handler: it only sets a flag) may call at any moment.  While a
** result is open, the session takes no other statement (CHV_EBUSY): read it
** to its end or close it first.  Many sessions may live in one process,
** over the same warehouse or different ones; each opens its own connection
** to the metastore, and the metastore's locking keeps their writes apart,
** as it keeps apart those of several processes.
*/
#ifndef CHIVE_SESSION_H
#define CHIVE_SESSION_H

#include "chive/arrow_abi.h"
#include "chive/common.h"
#include "chive/sql.h"
#include "chive/types.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct chv_session chv_session;
typedef struct chv_result chv_result;

/* How far a running statement is, for a progress display.  Fields not
** known are -1. */
struct chv_progress {
  int64_t splits_done, splits_total; /* of the scans (reads) */
  int64_t rows;                      /* rows read or written so far */
  int64_t bytes_written;             /* by a write, so far */
  double elapsed;                    /* seconds since the statement began */
};

/* Zero it, then set what differs from the defaults. */
struct chv_session_options {
  /* The warehouse folder of the embedded metastore (the "hive" catalog),
  ** opened and recovered as `chive sql --warehouse DIR` does; NULL:
  ** "./warehouse". */
  const char *warehouse;
  /* A configuration file, read as `chive sql --conf FILE` reads it. */
  const char *conf_file;
  /* The dialect of the first statement; SET 'table.sql-dialect' changes it. */
  enum chv_sql_dialect dialect;
  /* Warnings (a deprecated or fallback option), and notices (interrupted
  ** writes recovered when the warehouse opened).  NULL: written to stderr
  ** as "chive: warning: <msg>" and "chive: <msg>". */
  void (*warning)(void *ctx, const char *msg);
  void (*notice)(void *ctx, const char *msg);
  /* Called on the thread running a statement, at most about four times a
  ** second while it runs (and not at all for one that ends sooner). */
  void (*progress)(void *ctx, const struct chv_progress *p);
  void *ctx; /* passed to the three callbacks */
};

/* A per-statement overlay of options (HiveServer2's confOverlay): in force
** for that statement only, over the session's SET values; validated as SET
** validates them. */
struct chv_exec_options {
  const char *const *keys;
  const char *const *values;
  size_t n;
};

CHV_API int chv_session_open(const struct chv_session_options *opts,
                             chv_session **out, struct chv_error *err);
/* Closes an open result first.  NULL is a no-op. */
CHV_API void chv_session_close(chv_session *s);

/* Runs one statement of sql (a trailing ';' is allowed).  Its rows, or its
** summary, come as an Arrow C stream in *out, which the caller releases;
** out may be NULL: the statement then runs to its end and its rows are
** dropped.  While the stream is not released, the session takes no other
** statement. */
CHV_API int chv_session_exec(chv_session *s, const char *sql,
                             struct ArrowArrayStream *out,
                             struct chv_error *err);

/* The same, with an option overlay (opts may be NULL), giving a result to
** walk with chv_result_next() (out may be NULL, as above). */
CHV_API int chv_session_query(chv_session *s, const char *sql,
                              const struct chv_exec_options *opts,
                              chv_result **out, struct chv_error *err);

/* What a result holds: rows of a query, a summary row, nothing, or the
** lines of EXPLAIN's plan (one STRING column `plan`, a row per line). */
enum chv_result_kind {
  CHV_RESULT_NONE = 0,
  CHV_RESULT_ROWS = 1,
  CHV_RESULT_SUMMARY = 2,
  CHV_RESULT_PLAN = 3
};
CHV_API enum chv_result_kind chv_result_kind(const chv_result *r);

/* The result's columns: a STRUCT type whose fields are the columns (no
** fields for a statement without rows).  Valid until chv_result_close(). */
CHV_API const struct chv_type *chv_result_schema(const chv_result *r);
/* The next batch (on chv_result_schema()), lent until the next call or
** chv_result_close(); *out = NULL at the end.  An error of the statement
** (CHV_ECANCELED when cancelled) ends the result. */
CHV_API int chv_result_next(chv_result *r, const struct chv_batch **out,
                            struct chv_error *err);
/* The statement's summary in words, "" when it has none. */
CHV_API const char *chv_result_message(const chv_result *r);
/* Wraps what is left of r as an Arrow C stream and takes r over (closed on
** failure too). */
CHV_API int chv_result_export(chv_result *r, struct ArrowArrayStream *out,
                              struct chv_error *err);
/* Ends the result; a statement still producing rows is stopped.  NULL is a
** no-op. */
CHV_API void chv_result_close(chv_result *r);

/* Cancels the running statement, if any: it fails with CHV_ECANCELED
** within about 100 ms, and nothing it was writing becomes visible.  Safe
** from any thread and from a signal handler.  Returns CHV_OK. */
CHV_API int chv_session_cancel(chv_session *s);

/* The byte offset, in the text of the last exec or query, of the place its
** error is about (the statement's start when none is more precise). */
CHV_API size_t chv_session_error_offset(const chv_session *s);

/* SET 'key' = 'value' for the rest of the session, validated as SET is. */
CHV_API int chv_session_set(chv_session *s, const char *key,
                            const char *value, struct chv_error *err);
/* The value of key in force (SET, config file or default) in *value, a
** chv_malloc'd copy the caller frees with chv_free(); CHV_ENOENT for a key
** that is neither known nor set. */
CHV_API int chv_session_get(chv_session *s, const char *key, char **value,
                            struct chv_error *err);
/* The current catalog and database (valid until the next statement). */
CHV_API const char *chv_session_catalog(const chv_session *s);
CHV_API const char *chv_session_database(const chv_session *s);
/* The dialect the next statement is read in. */
CHV_API enum chv_sql_dialect chv_session_dialect(const chv_session *s);

/* Row `row` of v as Hive prints it (1.0E10, 2024-01-02 03:04:05.5, nested
** values as JSON), appended to out; *is_null is set for NULL (nothing is
** appended). */
CHV_API int chv_vector_text(const struct chv_vector *v, int64_t row,
                            struct chv_buf *out, bool *is_null);

#ifdef __cplusplus
}
#endif

#endif
