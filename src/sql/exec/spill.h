/*
** sql/exec/spill: the temporary files an operator writes rows to once it
** holds more than chive.exec.operator-memory, and reads back.
**
** A spill file is a sequence of frames, each a block of rows of the same
** columns (struct chv_vector, any type, nested ones included), written
** densely and read back into vectors the caller owns.  Files are created
** in the folders of io.tmp.dirs (Flink's key; a list separated by ',' or
** ':', used round-robin; default TMPDIR, else /tmp) with O_EXCL, mode
** 0600, and unlinked right after they are opened: nothing is left behind
** however the statement ends (success, error, cancel, even a crash).
**
**   sql_spill_open() -> write ... write -> sql_spill_rewind()
**                    -> read ... read (n == 0: the end) -> sql_spill_close()
**
** Each file counts what it writes into its operator's spill_* counters
** (EXPLAIN ANALYZE prints them on the operator's line) and into a global
** count of files opened (sql_spill_files_opened(), for the tests).
**
** Thread safety: a file is used by one thread at a time; opening files
** from several threads at once is safe.
**
** INTERFACE: sql_spill_*().
*/
#ifndef CHV_SQL_EXEC_SPILL_H
#define CHV_SQL_EXEC_SPILL_H

#include "sql/exec/op.h"

struct sql_spill;

/* A new, empty spill file of op (its counters; op->x says the folders),
** open for writing.  Errors (CHV_EIO) name the folder of io.tmp.dirs that
** could not take it. */
int sql_spill_open(struct sql_op *op, struct sql_spill **out /* close with
                   sql_spill_close() */, struct chv_error *err);
/* Appends a frame of rows: rows[0, n) of the ncols vectors (rows NULL:
** rows 0..n-1).  Nothing for n == 0.  CHV_EIO naming the file. */
int sql_spill_write(struct sql_spill *f, struct chv_vector *const *cols,
                    int ncols, const uint32_t *rows, int64_t n,
                    struct chv_error *err);
/* Ends the writing; the next read gives the first frame. */
int sql_spill_rewind(struct sql_spill *f, struct chv_error *err);
/* The next frame into cols (ncols vectors of the written types, reset
** first); *n its rows, 0 at the end.  CHV_ECORRUPT/CHV_EIO naming the
** file for a frame that does not read back. */
int sql_spill_read(struct sql_spill *f, struct chv_vector **cols, int ncols,
                   int64_t *n, struct chv_error *err);
/* Rows written to f so far. */
int64_t sql_spill_rows(const struct sql_spill *f);
/* Frees f and its file (NULL: nothing). */
void sql_spill_close(struct sql_spill *f);

/* Spill files opened by this process so far, and open now. */
int64_t sql_spill_files_opened(void);
int64_t sql_spill_files_live(void);

/* The folders of a io.tmp.dirs value ("a,b" or "a:b", blanks trimmed):
** their number, and folder i into buf (size cap); 0 for a blank value. */
int sql_spill_dirs_count(const char *dirs);
bool sql_spill_dir_at(const char *dirs, int i, char *buf, size_t cap);

#endif
