/*
** cli/shell: the pieces of `chive sql`, the SQL shell, a client of the
** session API (chive/session.h) that includes nothing from src/.
**
**   cmd_sql.c         arguments, the session, running scripts and the
**                     interactive loop, errors with a caret, Ctrl-C
**   shell_print.c     results printed from typed batches as they come:
**                     table, csv, tsv, jsonl, markdown; .maxrows
**   shell_progress.c  the progress line of a long statement on a terminal,
**                     and the writes of results that must not run into it
**   shell_input.c     the line reader (libedit), dot-commands and help
**   shell_complete.c  tab completion: keywords, tables, columns
**
** Everything here runs on the shell's main thread, except the progress
** callback (the statement's thread) and the SIGINT handler; the two share
** only what shell_progress.c locks and the flag shell_interrupted() reads.
*/
#ifndef CHV_CLI_SHELL_H
#define CHV_CLI_SHELL_H

#include "chive/chive.h"
#include "chive/common.h"
#include "chive/session.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* How results are printed (.mode, --format). */
#define SHELL_MODE_MAP(X)                                                      \
  X(TABLE, "table")                                                            \
  X(CSV, "csv")                                                                \
  X(TSV, "tsv")                                                                \
  X(JSONL, "jsonl")                                                            \
  X(MARKDOWN, "markdown")

enum shell_mode {
#define SHELL_X_(id, name) SHELL_MODE_##id,
  SHELL_MODE_MAP(SHELL_X_)
#undef SHELL_X_
  SHELL_MODE_COUNT
};

/* The mode named name; false for none. */
bool shell_mode_parse(const char *name, enum shell_mode *out);
const char *shell_mode_name(enum shell_mode m);
/* "table|csv|tsv|jsonl|markdown", for usage lines and errors. */
const char *shell_mode_list(void);

/* Rows shown by a table when standard output is a terminal (DuckDB's
** .maxrows); elsewhere all rows, unless --maxrows or .maxrows says. */
#define SHELL_MAXROWS_TERMINAL 40

struct shell_completion; /* shell_complete.c */

struct shell {
  chv_session *session;
  enum shell_mode mode;
  int64_t maxrows;  /* table mode: rows shown; -1 all */
  bool timer;       /* .timer on: "Run Time: real S s" after each statement */
  FILE *out;        /* results: stdout */
  bool out_tty;     /* out is a terminal */
  bool err_tty;     /* stderr is a terminal: the progress line may show */
  bool interactive; /* reading a terminal, with prompts */
  struct shell_completion *comp; /* the completion's cache, or NULL */
};

/* ---- cmd_sql.c ---- */

/* Nonzero once SIGINT came (Ctrl-C) since shell_interrupt_clear(). */
bool shell_interrupted(void);
void shell_interrupt_clear(void);

/* ---- shell_print.c ---- */

/* Reads r to its end, printing its rows, plan or message in sh's mode;
** stops early (CHV_ECANCELED) when Ctrl-C came.  An error of the statement
** comes back in err. */
int shell_print_result(struct shell *sh, chv_result *r, struct chv_error *err);

/* ---- shell_progress.c ---- */

/* Seconds a statement runs before its progress line shows. */
#define SHELL_PROGRESS_DELAY 2.0

/* The session's progress callback (ctx: the shell); the statement's thread
** calls it. */
void shell_progress(void *ctx, const struct chv_progress *p);
/* A statement begins: its clock starts. */
void shell_progress_begin(struct shell *sh);
/* It ended: the progress line goes; returns the seconds it ran. */
double shell_progress_end(struct shell *sh);
/* Writes n bytes of results to sh->out, taking the progress line away
** first when both are on the terminal. */
void shell_output(struct shell *sh, const void *data, size_t n);
/* The progress line taken away (before a warning or a notice). */
void shell_progress_hide(void);

/* ---- shell_input.c ---- */

/* The line reader of the interactive shell: libedit with history
** ($CHIVE_HISTORY, else ~/.chive_history), completion, and Ctrl-C that
** clears the line. */
void shell_input_open(struct shell *sh);
void shell_input_close(void);
/* The next line (malloc'd, without its newline), or NULL at the end of
** input (Ctrl-D); *cleared is set when Ctrl-C cleared the line instead
** (NULL is returned then too). */
char *shell_readline(const char *prompt, bool *cleared);
/* One entry of the history (a statement, or a command line). */
void shell_history_add(const char *entry);

enum shell_cmd {
  SHELL_CMD_NONE,  /* not a command: SQL */
  SHELL_CMD_OK,    /* a command, run */
  SHELL_CMD_ERROR, /* a command that failed: msg says why */
  SHELL_CMD_QUIT   /* \q, quit, exit, .quit, .exit */
};
/* The shell command (.mode csv, \q, quit, help, ...) that the line at
** text[0, len) begins with, if any, run; *end is set past the line.  msg
** (of msgsize bytes) gets the reason of an error. */
enum shell_cmd shell_command(struct shell *sh, const char *text, size_t len,
                             size_t *end, char *msg, size_t msgsize);
/* The same for a statement text[0, len) that is a command word of its own
** (quit, exit, help), cut out by chv_sql_split(). */
enum shell_cmd shell_word_command(struct shell *sh, const char *text,
                                  size_t len);

/* ---- shell_complete.c ---- */

/* Tab completion over sh's session (the reader's attempted-completion
** hook is installed by shell_input_open()). */
char **shell_complete(const char *text, int start, int end);
void shell_complete_init(struct shell *sh);
/* The lines of the statement typed so far (borrowed until the next call):
** the tables it names give their columns. */
void shell_complete_pending(struct shell *sh, const char *text);
/* Tables or columns may have changed (after DDL): fetched again when next
** needed. */
void shell_complete_stale(struct shell *sh);
void shell_complete_free(struct shell *sh);

#endif
