/*
** cli: the sub-commands of the chive binary.  Each takes the arguments after
** the command name (argv[0] is the command) and returns the process exit
** status: 0 success, 1 failure reported on stderr, 2 usage error.
**
** The command line is a client of the public API: its files include the
** headers of include/chive/, this one and system headers, nothing under
** src/ (the build gives them include/ alone; tests/unit/api/
** check_layers.sh checks the #include lines).
*/
#ifndef CHV_CLI_H
#define CHV_CLI_H

#include "chive/chive.h"
#include "chive/catalog.h"
#include "chive/connector.h"

int cli_options(int argc, char **argv);
int cli_dump(int argc, char **argv);
int cli_demo(int argc, char **argv);
int cli_sql(int argc, char **argv);
int cli_splits(int argc, char **argv);
int cli_read_split(int argc, char **argv);
int cli_recover(int argc, char **argv);

/* Open the catalog of the warehouse folder wh and finish or undo the writes
** killed in it, saying so on stderr when there were any; every command that
** opens a warehouse goes through here before anything else. */
int cli_warehouse_open(const char *wh, chv_catalog **out,
                       struct chv_error *err);
/* The same recovery for a catalog opened otherwise. */
int cli_warehouse_recover(chv_catalog *cat, struct chv_error *err);
/* Recover the warehouse that path (a data file) lies in, if any: the nearest
** folder above it that holds an embedded metastore. */
int cli_recover_around(const char *path, struct chv_error *err);

/* The warning handler of the commands' configurations
** (chv_config_set_warning_handler()): "chive: warning: <msg>" on stderr. */
void cli_warn(void *ctx, const char *msg);
/* "chive: <msg>" on stderr: what a session reports beside its results. */
void cli_notice(void *ctx, const char *msg);

/* (cli_util.c) s without its leading and trailing white space: the start moves past it,
** the end is cut in place. */
char *cli_trim(char *s);

#endif
