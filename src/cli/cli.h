/*
** cli: the sub-commands of the chive binary.  Each takes the arguments after
** the command name (argv[0] is the command) and returns the process exit
** status: 0 success, 1 failure reported on stderr, 2 usage error.
*/
#ifndef CHV_CLI_H
#define CHV_CLI_H

#include "chive/chive.h"

int cli_options(int argc, char **argv);
int cli_dump(int argc, char **argv);
int cli_demo(int argc, char **argv);
int cli_sql(int argc, char **argv);
int cli_splits(int argc, char **argv);
int cli_read_split(int argc, char **argv);

/* The warning handler of the commands' configurations
** (chv_config_set_warning_handler()): "chive: warning: <msg>" on stderr. */
void cli_warn(void *ctx, const char *msg);

#endif
